//! The whole-game simulation: forced pit, relay sowing, captures, passes, ends, cycles.

use crate::rules::{ForcedRules, HeadEmpty, Preset, SerialDir};
use crate::ForcedError;
use mancala_rules::Side;
use std::collections::HashSet;

/// Who moves first (South = the distributor): madjnuni's distributor always; in el-akil and
/// el-ghasheem the second player, unless he swapped.
pub fn first_mover(preset: Preset, swapped: bool) -> Side {
    match preset {
        Preset::Madjnuni => Side::South,
        _ if swapped => Side::South,
        _ => Side::North,
    }
}

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EndReason {
    /// No seeds are left in the pits.
    BoardEmpty,
    /// Madjnuni: a player had no move, passed, and the opponent's next move did not feed him.
    /// The opponent takes every seed left.
    Starvation,
    /// El-akil/el-ghasheem: a player has no move and the opponent's forced move would not give
    /// him one. The game ends before that move; each side takes the seeds on its own row.
    NoFeed,
    /// Each half holds exactly one seed (`singles-end`); each side takes its own seed.
    OneEach,
    /// Neither player has a playable pit (only with `single=unplayable`, or a custom
    /// position); each side takes its own row.
    BothStuck,
    /// The forced move's relay would repeat a within-move state and never end. The move is
    /// void; the game ends and each side takes the seeds on its own row.
    InfiniteRelay,
    /// A whole-game state (pits, side to move, pass state) repeated: the game would loop
    /// forever. Each side takes the seeds on its own row.
    Cycle,
}

impl EndReason {
    /// The reason's name in reports and JSON, e.g. `board-empty`, `infinite-relay`.
    pub fn as_str(self) -> &'static str {
        match self {
            EndReason::BoardEmpty => "board-empty",
            EndReason::Starvation => "starvation",
            EndReason::NoFeed => "no-feed",
            EndReason::OneEach => "one-each",
            EndReason::BothStuck => "both-stuck",
            EndReason::InfiniteRelay => "infinite-relay",
            EndReason::Cycle => "cycle",
        }
    }
}

/// What one forced move did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveReport {
    /// Who moved.
    pub side: Side,
    /// The pit emptied, as the mover's own index 0..m-1.
    pub pit: usize,
    /// Seeds captured by the move (pit of the last seed plus the serial capture).
    pub captured: u32,
    /// Number of sowings (1 + relays).
    pub laps: u32,
}

/// The result of one sowing on a bare board.
pub(crate) enum Sown {
    Done { captured: u32, laps: u32 },
    Infinite,
}

/// The absolute pit `side` must empty, or None if he has no playable pit.
pub(crate) fn forced_pit(rules: &ForcedRules, pits: &[u32], side: Side) -> Option<usize> {
    let m = rules.pits as usize;
    let base = side.index() * m;
    let ok = |c: u32| c >= 2 || (c == 1 && rules.single_playable);
    let head = base + m - 1;
    if ok(pits[head]) {
        return Some(head);
    }
    match rules.head_empty {
        HeadEmpty::Leftward => (base..head).rev().find(|&i| ok(pits[i])),
        HeadEmpty::Wrap => (base..head).find(|&i| ok(pits[i])),
    }
}

/// Sows from absolute pit `from` with relays and captures, updating `pits`. Captured seeds are
/// removed from `pits` and returned. On an infinite relay `pits` is left in a mid-move state.
pub(crate) fn sow(rules: &ForcedRules, pits: &mut [u32], mut from: usize) -> Sown {
    let n = pits.len();
    let m = rules.pits as usize;
    // Only states at a relay are recorded: an endless relay repeats one of them too, and most
    // moves end in their first lap without touching the set (it allocates on first insert).
    let mut seen: HashSet<(Vec<u32>, usize)> = HashSet::new();
    let mut laps = 0u32;
    loop {
        laps += 1;
        let mut hand = pits[from];
        pits[from] = 0;
        // With no remainder the last seed of the last whole turn fell into the origin itself.
        let mut pos = from;
        // Whole turns of the board first, then the rest one by one.
        let rounds = hand / n as u32;
        if rounds > 0 {
            for c in pits.iter_mut() {
                *c += rounds;
            }
            hand -= rounds * n as u32;
        }
        while hand > 0 {
            pos = (pos + 1) % n;
            pits[pos] += 1;
            hand -= 1;
        }
        match pits[pos] {
            1 => return Sown::Done { captured: 0, laps },
            2 | 4 => {
                let mut captured = pits[pos];
                pits[pos] = 0;
                if rules.serial != SerialDir::Off {
                    let mut k = pos;
                    let mut extra = 0;
                    loop {
                        if !rules.chain_all && extra >= 1 {
                            break;
                        }
                        k = match rules.serial {
                            SerialDir::Forward => (k + 1) % n,
                            _ => (k + n - 1) % n,
                        };
                        if k == pos || (!rules.serial_cross && k / m != pos / m) {
                            break;
                        }
                        if pits[k] == 2 || pits[k] == 4 {
                            captured += pits[k];
                            pits[k] = 0;
                            extra += 1;
                        } else {
                            break;
                        }
                    }
                }
                return Sown::Done { captured, laps };
            }
            _ => {
                if !seen.insert((pits.to_vec(), pos)) {
                    return Sown::Infinite;
                }
                from = pos;
            }
        }
    }
}

/// A forced-move game in progress. South is always the distributor; a swap rotates the laid-out
/// board by half a turn so South plays the row that was laid out as North's.
#[derive(Clone, Debug)]
pub struct ForcedGame {
    pub(crate) rules: ForcedRules,
    pub(crate) setup: Vec<u32>,
    pub(crate) swapped: bool,
    pub(crate) pits: Vec<u32>,
    pub(crate) stores: [u32; 2],
    pub(crate) to_move: Side,
    /// The player who passed for lack of seeds and is waiting to be fed.
    pub(crate) starving: Option<Side>,
    pub(crate) moves: u64,
    pub(crate) end: Option<EndReason>,
    seen: HashSet<(Vec<u32>, u8, u8)>,
}

impl ForcedGame {
    /// A game from a validated setup (South = distributor); `swapped` rotates the board and
    /// decides the first mover with the preset's pie rule.
    pub(crate) fn from_setup(rules: ForcedRules, setup: Vec<u32>, swapped: bool) -> ForcedGame {
        let n = setup.len();
        let m = n / 2;
        let pits: Vec<u32> = if swapped {
            (0..n).map(|i| setup[(i + m) % n]).collect()
        } else {
            setup.clone()
        };
        let first = first_mover(rules.preset, swapped);
        Self::start(rules, setup, swapped, pits, first)
    }

    /// A game from any position (absolute order, 2m counts, m = `rules.pits`), `to_move` to
    /// move and empty stores; no setup rule is checked, so positions from the middle of a game
    /// can be studied. `rules.pits` and `rules.total` are replaced by the position's size.
    pub fn from_position(
        mut rules: ForcedRules,
        pits: Vec<u32>,
        to_move: Side,
    ) -> Result<ForcedGame, ForcedError> {
        if pits.is_empty()
            || !pits.len().is_multiple_of(2)
            || pits.len() > 2 * crate::rules::MAX_PITS as usize
        {
            return Err(ForcedError::BadSetup(format!(
                "{} counts given; give an even number of counts, 2..={}",
                pits.len(),
                2 * crate::rules::MAX_PITS
            )));
        }
        let sum: u64 = pits.iter().map(|&c| c as u64).sum();
        if sum > crate::rules::MAX_TOTAL as u64 {
            return Err(ForcedError::BadSetup(format!(
                "{sum} seeds; at most {} are supported",
                crate::rules::MAX_TOTAL
            )));
        }
        rules.pits = (pits.len() / 2) as u32;
        rules.total = sum as u32;
        Ok(Self::start(rules, pits.clone(), false, pits, to_move))
    }

    fn start(
        rules: ForcedRules,
        setup: Vec<u32>,
        swapped: bool,
        pits: Vec<u32>,
        first: Side,
    ) -> ForcedGame {
        let mut g = ForcedGame {
            rules,
            setup,
            swapped,
            pits,
            stores: [0, 0],
            to_move: first,
            starving: None,
            moves: 0,
            end: None,
            seen: HashSet::new(),
        };
        // Settle the start as if the other player had just moved: handles an empty board, a
        // first mover without seeds (he passes) and the one-seed-each end.
        g.after_move(first.other());
        g
    }

    /// The rules this game is played under.
    pub fn rules(&self) -> &ForcedRules {
        &self.rules
    }
    /// The setup as laid out by the distributor (before any swap).
    pub fn setup(&self) -> &[u32] {
        &self.setup
    }
    /// Did the second player swap sides (the pie rule)?
    pub fn swapped(&self) -> bool {
        self.swapped
    }
    /// The pits in absolute order.
    pub fn board(&self) -> &[u32] {
        &self.pits
    }
    /// Captured seeds: [South (the distributor), North].
    pub fn captured(&self) -> [u32; 2] {
        self.stores
    }
    /// The side whose forced move comes next.
    pub fn side_to_move(&self) -> Side {
        self.to_move
    }
    /// The player who passed for lack of seeds and waits to be fed, if any.
    pub fn starving(&self) -> Option<Side> {
        self.starving
    }
    /// Forced moves played so far (passes are not moves).
    pub fn moves_played(&self) -> u64 {
        self.moves
    }
    /// Why the game ended, or `None` while it goes on.
    pub fn end_reason(&self) -> Option<EndReason> {
        self.end
    }
    /// Has the game ended?
    pub fn over(&self) -> bool {
        self.end.is_some()
    }
    /// The winner once the game is over (None = draw or still playing).
    pub fn winner(&self) -> Option<Side> {
        self.end?;
        match self.stores[0].cmp(&self.stores[1]) {
            std::cmp::Ordering::Greater => Some(Side::South),
            std::cmp::Ordering::Less => Some(Side::North),
            std::cmp::Ordering::Equal => None,
        }
    }

    fn row(&self, side: Side) -> &[u32] {
        let m = self.rules.pits as usize;
        &self.pits[side.index() * m..side.index() * m + m]
    }

    fn row_sum(&self, side: Side) -> u32 {
        self.row(side).iter().sum()
    }

    fn can_move(&self, side: Side) -> bool {
        forced_pit(&self.rules, &self.pits, side).is_some()
    }

    /// The forced move of the side to move, as his own pit index; None when the game is over.
    pub fn forced_move(&self) -> Option<usize> {
        if self.end.is_some() {
            return None;
        }
        forced_pit(&self.rules, &self.pits, self.to_move).map(|p| p % self.rules.pits as usize)
    }

    fn finish_own_rows(&mut self, reason: EndReason) {
        let s = self.row_sum(Side::South);
        let n = self.row_sum(Side::North);
        self.stores[0] += s;
        self.stores[1] += n;
        self.pits.iter_mut().for_each(|c| *c = 0);
        self.end = Some(reason);
    }

    fn finish_to(&mut self, who: Side, reason: EndReason) {
        let all: u32 = self.pits.iter().sum();
        self.stores[who.index()] += all;
        self.pits.iter_mut().for_each(|c| *c = 0);
        self.end = Some(reason);
    }

    /// Decides what follows a move by `mover` (or the start): the next mover, a pass, or an end.
    fn after_move(&mut self, mover: Side) {
        let q = mover.other();
        if self.pits.iter().all(|&c| c == 0) {
            self.end = Some(EndReason::BoardEmpty);
            return;
        }
        if self.rules.singles_end
            && self.row_sum(Side::South) == 1
            && self.row_sum(Side::North) == 1
        {
            self.finish_own_rows(EndReason::OneEach);
            return;
        }
        if self.can_move(q) {
            self.to_move = q;
            self.starving = None;
        } else if self.starving == Some(q) {
            // q passed and the mover's move did not feed him (madjnuni only: el-akil looks
            // ahead and never plays a move that does not feed).
            self.finish_to(mover, EndReason::Starvation);
            return;
        } else if !self.can_move(mover) {
            self.finish_own_rows(EndReason::BothStuck);
            return;
        } else {
            match self.rules.preset {
                Preset::Madjnuni => {
                    self.starving = Some(q);
                    self.to_move = mover;
                }
                Preset::ElAkil | Preset::ElGhasheem => {
                    let mut probe = self.pits.clone();
                    let from = forced_pit(&self.rules, &probe, mover).expect("mover can move");
                    let feeds = match sow(&self.rules, &mut probe, from) {
                        Sown::Done { .. } => forced_pit(&self.rules, &probe, q).is_some(),
                        Sown::Infinite => false,
                    };
                    if feeds {
                        self.starving = Some(q);
                        self.to_move = mover;
                    } else {
                        self.finish_own_rows(EndReason::NoFeed);
                        return;
                    }
                }
            }
        }
        let key = (
            self.pits.clone(),
            self.to_move.index() as u8,
            self.starving.map_or(2, |s| s.index() as u8),
        );
        if !self.seen.insert(key) {
            self.finish_own_rows(EndReason::Cycle);
        }
    }

    /// Plays the one forced move.
    pub fn step(&mut self) -> Result<MoveReport, ForcedError> {
        if let Some(e) = self.end {
            return Err(ForcedError::GameOver(e.as_str().to_string()));
        }
        let side = self.to_move;
        let from = forced_pit(&self.rules, &self.pits, side)
            .expect("the side to move always has a playable pit while the game is on");
        let before = self.pits.clone();
        let pit = from % self.rules.pits as usize;
        match sow(&self.rules, &mut self.pits, from) {
            Sown::Infinite => {
                self.pits = before;
                self.finish_own_rows(EndReason::InfiniteRelay);
                Ok(MoveReport {
                    side,
                    pit,
                    captured: 0,
                    laps: 0,
                })
            }
            Sown::Done { captured, laps } => {
                self.moves += 1;
                self.stores[side.index()] += captured;
                if captured > 0 {
                    // Seeds never come back: no earlier state can recur.
                    self.seen.clear();
                }
                self.after_move(side);
                Ok(MoveReport {
                    side,
                    pit,
                    captured,
                    laps,
                })
            }
        }
    }

    /// Plays forced moves until the game ends.
    pub fn run(&mut self) {
        while self.end.is_none() {
            let _ = self.step();
        }
    }
}
