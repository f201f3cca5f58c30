//! Board state, rules options and move generation for both 4-row presets.
//!
//! Internally each player's 16 pits form a loop indexed `0..16` in **clockwise** order as seen
//! by that player: `0..8` are his front (inner) row `a1..a8` from his left to his right, and
//! `8..16` are his back row from his right to his left (`8` = `b8`, `15` = `b1`). Clockwise
//! sowing is `+1 (mod 16)`, counter-clockwise is `-1`. His front pit `j` faces the opponent's
//! front pit `7 - j`.

use crate::BaoError;

/// Loop index of the nyumba (`a5`, the 4th front pit from the right).
pub(crate) const NYUMBA: usize = 4;
/// Default of the `sowing-limit` option (relay lifts in one move).
pub const DEFAULT_SOWING_LIMIT: u32 = 10_000;
/// After this many relay lifts inside one move, Brent's cycle detection starts.
const LOOP_CHECK_AFTER: u64 = 256;

/// Which of the two presets.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Preset {
    /// Bao la Kujifunza, the learners' game: 2 seeds in every pit, no namua, no nyumba.
    Kujifunza,
    /// Bao la Kiswahili: seeds in hand (namua), then the mtaji phase; nyumba and takasia.
    Kiswahili,
}

/// What happens when a capturing (mtaji) sowing ends in a functioning nyumba without capturing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NyumbaStop {
    /// The player chooses (both sources' main rule): the move name gets an `s` suffix to stop.
    Choice,
    /// The move always ends there (the Skiryuk text's "some versions").
    Stop,
    /// The nyumba is always sown out (the Wikipedia text's "some versions").
    Continue,
}

/// The rule options of a game (see `options_help`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rules {
    /// Which of the two games.
    pub preset: Preset,
    /// Malawi setup: 8 seeds in the nyumba and 20 in hand.
    pub malawi: bool,
    /// kimbi = `a2`, `a7` only (captures in a kichwa then follow the sowing direction).
    pub kimbi_narrow: bool,
    /// Takasia (the Skiryuk text): on by default.
    pub takasia: bool,
    /// A functioning nyumba cannot be captured (the Skiryuk text): on by default.
    pub nyumba_protect: bool,
    /// `true`: the Wikipedia text's status rule (the nyumba is special until first sown out,
    /// whatever its count). `false` (default, the Skiryuk text): special while it holds 6 or
    /// more and was never emptied.
    pub nyumba_first_sowing: bool,
    /// What a capturing sowing does when it ends in a functioning nyumba.
    pub nyumba_stop: NyumbaStop,
    /// A Phase II takata ending in a functioning nyumba ends the move (the Wikipedia text)
    /// instead of sowing it out (the Skiryuk text, default).
    pub takata_nyumba_stops: bool,
    /// A taxed nyumba takata is allowed whenever a front-row takata is (the Wikipedia text's
    /// variation) instead of only when no other move exists (the Skiryuk text, default).
    pub tax_anytime: bool,
    /// A sowing still going after this many relay lifts counts as infinite (0: no limit).
    pub sowing_limit: u32,
}

impl Rules {
    /// The default rules of `preset` (for Kiswahili the Skiryuk text's readings).
    pub fn new(preset: Preset) -> Rules {
        Rules {
            preset,
            malawi: false,
            kimbi_narrow: false,
            takasia: true,
            nyumba_protect: true,
            nyumba_first_sowing: false,
            nyumba_stop: NyumbaStop::Choice,
            takata_nyumba_stops: false,
            tax_anytime: false,
            sowing_limit: DEFAULT_SOWING_LIMIT,
        }
    }

    /// Is this Bao la Kiswahili (namua and nyumba rules apply)?
    pub fn kiswahili(&self) -> bool {
        self.preset == Preset::Kiswahili
    }
}

/// One move, as the generator produces it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    /// Loop index of the start (namua: placement) pit.
    pub pit: u8,
    /// +1 clockwise / -1 counter-clockwise; for a namua capture, +1 = left kichwa (`L`).
    pub dir: i8,
    /// A namua move: a seed from hand is placed in `pit` first.
    pub namua: bool,
    /// A capturing (mtaji) move rather than a takata.
    pub capture: bool,
    /// Only two seeds of the nyumba are sown.
    pub tax: bool,
    /// The move stops in the nyumba where the player could go on.
    pub stop: bool,
}

/// Pit name from the owner's view: `a1..a8` front row, `b1..b8` back row.
pub fn pit_name(pos: usize) -> String {
    if pos < 8 {
        format!("a{}", pos + 1)
    } else {
        format!("b{}", 16 - pos)
    }
}

impl Move {
    /// The move's name in the notation users type (see [`crate::NOTATION`]), e.g. `a3L`,
    /// `a5t<`.
    pub fn name(&self) -> String {
        let mut s = pit_name(self.pit as usize);
        if self.tax {
            s.push('t');
        }
        let d = if self.namua && self.capture {
            if self.dir > 0 {
                'L'
            } else {
                'R'
            }
        } else if self.dir > 0 {
            '>'
        } else {
            '<'
        };
        s.push(d);
        if self.stop {
            s.push('s');
        }
        s
    }
}

/// A position of either preset, with its rules.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct BaoGame {
    pub(crate) rules: Rules,
    /// `[player][loop index]`, player 0 = South, 1 = North.
    pub(crate) board: [[u8; 16]; 2],
    pub(crate) hand: [u8; 2],
    /// The nyumba has not lost its status yet (Kiswahili).
    pub(crate) nyumba: [bool; 2],
    pub(crate) to_move: u8,
    /// A takasia pit of the side to move (loop index).
    pub(crate) takasia: Option<u8>,
}

/// Result of simulating one move.
struct SimOut {
    board: [[u8; 16]; 2],
    nyumba: [bool; 2],
    decision: bool,
}

fn step(pos: usize, dir: i8) -> usize {
    ((pos as i32 + dir as i32).rem_euclid(16)) as usize
}

/// Captured seeds are sown starting *in* a kichwa: `a1` clockwise, `a8` counter-clockwise, so
/// the sowing hand starts just before it.
fn before_kichwa(dir: i8) -> usize {
    if dir > 0 {
        15
    } else {
        8
    }
}

/// Empties `p`'s pit `pos` and returns its seeds. Emptying the nyumba costs it its status at
/// once, so the rest of the same sowing already sees an ordinary pit.
fn lift(b: &mut [[u8; 16]; 2], ny: &mut [bool; 2], p: usize, pos: usize) -> u8 {
    if pos == NYUMBA {
        ny[p] = false;
    }
    std::mem::take(&mut b[p][pos])
}

impl BaoGame {
    /// The start position of the rules.
    pub fn start(rules: Rules) -> BaoGame {
        let mut board = [[0u8; 16]; 2];
        let mut hand = [0u8; 2];
        match rules.preset {
            Preset::Kujifunza => board = [[2; 16]; 2],
            Preset::Kiswahili => {
                for side in board.iter_mut() {
                    side[NYUMBA] = if rules.malawi { 8 } else { 6 };
                    side[5] = 2;
                    side[6] = 2;
                }
                hand = if rules.malawi { [20, 20] } else { [22, 22] };
            }
        }
        BaoGame {
            rules,
            board,
            hand,
            nyumba: [rules.kiswahili(); 2],
            to_move: 0,
            takasia: None,
        }
    }

    /// The rules this game is played under.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// Is `p`'s nyumba special right now (on this board)?
    fn functioning(&self, board: &[[u8; 16]; 2], nyumba: &[bool; 2], p: usize) -> bool {
        self.rules.kiswahili()
            && nyumba[p]
            && (self.rules.nyumba_first_sowing || board[p][NYUMBA] >= 6)
    }

    fn is_kimbi(&self, x: usize) -> bool {
        if self.rules.kiswahili() && self.rules.kimbi_narrow {
            matches!(x, 1 | 6)
        } else {
            matches!(x, 0 | 1 | 6 | 7)
        }
    }

    /// Can the mover capture from front pit `x` (after his last seed landed there)?
    fn marker(&self, board: &[[u8; 16]; 2], nyumba: &[bool; 2], me: usize, x: usize) -> bool {
        if x >= 8 || board[me][x] < 2 {
            return false;
        }
        let o = 1 - me;
        let t = 7 - x;
        if board[o][t] == 0 {
            return false;
        }
        !(t == NYUMBA && self.rules.nyumba_protect && self.functioning(board, nyumba, o))
    }

    /// Runs a move on a copy of the board. `None`: the sowing never ends (illegal move).
    fn simulate(&self, mv: &Move) -> Option<SimOut> {
        let me = self.to_move as usize;
        let o = 1 - me;
        let mut b = self.board;
        let mut ny = self.nyumba;
        let mut decision = false;
        let capture_mode = mv.capture;
        let mut dir = mv.dir;
        let mut pos;
        let mut n;
        let start = mv.pit as usize;
        if mv.namua {
            b[me][start] += 1;
        }
        if mv.namua && mv.capture {
            n = lift(&mut b, &mut ny, o, 7 - start);
            pos = before_kichwa(dir);
        } else {
            pos = start;
            if mv.tax {
                n = 2;
                b[me][start] -= 2;
            } else {
                n = lift(&mut b, &mut ny, me, start);
            }
        }
        let phase2 = !mv.namua;
        let mut first = true;
        let mut lifts: u64 = 0;
        let mut tortoise: Option<([[u8; 16]; 2], u8, i8)> = None;
        let mut power: u64 = 1;
        let mut lam: u64 = 0;
        loop {
            let mut touched_takasia = false;
            for _ in 0..n {
                pos = step(pos, dir);
                b[me][pos] += 1;
                if self.takasia == Some(pos as u8) {
                    touched_takasia = true;
                }
            }
            let x = pos;
            if first && phase2 && mv.tax && self.takasia.is_some() && !touched_takasia {
                break;
            }
            first = false;
            if b[me][x] == 1 {
                break;
            }
            if capture_mode && self.marker(&b, &ny, me, x) {
                n = lift(&mut b, &mut ny, o, 7 - x);
                if self.is_kimbi(x) {
                    dir = if x < 4 { 1 } else { -1 };
                }
                pos = before_kichwa(dir);
                continue;
            }
            if x == NYUMBA && self.functioning(&b, &ny, me) {
                let go_on = if !capture_mode {
                    phase2 && !self.rules.takata_nyumba_stops
                } else {
                    match self.rules.nyumba_stop {
                        NyumbaStop::Stop => false,
                        NyumbaStop::Continue => true,
                        NyumbaStop::Choice => {
                            decision = true;
                            !mv.stop
                        }
                    }
                };
                if !go_on {
                    break;
                }
            }
            if self.takasia == Some(x as u8) {
                break;
            }
            // Brent's cycle detection on the lift states (deterministic from here on).
            lifts += 1;
            if self.rules.sowing_limit > 0 && lifts > u64::from(self.rules.sowing_limit) {
                return None;
            }
            let state = (b, x as u8, dir);
            if lifts > LOOP_CHECK_AFTER {
                if tortoise == Some(state) {
                    return None;
                }
                if power == lam {
                    tortoise = Some(state);
                    power *= 2;
                    lam = 0;
                }
                lam += 1;
            }
            n = lift(&mut b, &mut ny, me, x);
        }
        for p in 0..2 {
            if b[p][NYUMBA] == 0 {
                ny[p] = false;
            }
        }
        Some(SimOut {
            board: b,
            nyumba: ny,
            decision,
        })
    }

    /// Phase II starts of `p` (as if `p` moved on `board`) whose first sowing captures.
    fn capture_starts(&self, p: usize, takasia: Option<u8>) -> Vec<(usize, i8)> {
        let b = &self.board;
        let mut out = Vec::new();
        for s in 0..16 {
            let n = b[p][s] as usize;
            if !(2..16).contains(&n) || takasia == Some(s as u8) {
                continue;
            }
            for dir in [1i8, -1] {
                let x = ((s as i32 + dir as i32 * n as i32).rem_euclid(16)) as usize;
                if x < 8 && b[p][x] >= 1 {
                    let mut nb = *b;
                    nb[p][s] = 0;
                    nb[p][x] += 1;
                    if self.marker(&nb, &self.nyumba, p, x) {
                        out.push((s, dir));
                    }
                }
            }
        }
        out
    }

    fn push_move(&self, mv: Move, out: &mut Vec<(Move, BaoGame)>) {
        let Some(r) = self.simulate(&mv) else {
            return;
        };
        let decision = r.decision;
        out.push((mv, self.finish(&mv, r)));
        if decision {
            let smv = Move { stop: true, ..mv };
            if let Some(r2) = self.simulate(&smv) {
                out.push((smv, self.finish(&smv, r2)));
            }
        }
    }

    fn finish(&self, mv: &Move, r: SimOut) -> BaoGame {
        let me = self.to_move as usize;
        let mut g = BaoGame {
            rules: self.rules,
            board: r.board,
            hand: self.hand,
            nyumba: r.nyumba,
            to_move: 1 - self.to_move,
            takasia: None,
        };
        if mv.namua {
            g.hand[me] -= 1;
        }
        if self.rules.kiswahili()
            && self.rules.takasia
            && !mv.namua
            && !mv.capture
            && g.hand == [0, 0]
        {
            g.takasia = g.takasia_after(me);
        }
        g
    }

    /// The takasia pit of the opponent of `me` after `me`'s takata, if any.
    fn takasia_after(&self, me: usize) -> Option<u8> {
        let o = 1 - me;
        let mut threatened: Vec<usize> = Vec::new();
        for (s, dir) in self.capture_starts(me, None) {
            let n = self.board[me][s] as i32;
            let x = (s as i32 + dir as i32 * n).rem_euclid(16) as usize;
            let t = 7 - x;
            if !threatened.contains(&t) {
                threatened.push(t);
            }
        }
        if threatened.len() != 1 || !self.capture_starts(o, None).is_empty() {
            return None;
        }
        let t = threatened[0];
        let row = &self.board[o][0..8];
        let others = row.iter().enumerate().any(|(j, &c)| j != t && c > 0);
        if self.board[o][t] < 2
            || !others
            || (t == NYUMBA && self.functioning(&self.board, &self.nyumba, o))
        {
            return None;
        }
        Some(t as u8)
    }

    /// Number of capturing mtaji-phase starts `p` has on this board (for the evaluation).
    pub(crate) fn threat_count(&self, p: usize) -> usize {
        self.capture_starts(p, None).len()
    }

    /// Kiswahili: the front row may not be emptied even for a moment. Only a lone kichwa sown
    /// outward (straight into the back row) would empty it, so it is sown toward the centre.
    fn takata_dirs(&self, s: usize) -> &'static [i8] {
        let me = self.to_move as usize;
        let alone = || (0..8).all(|j| j == s || self.board[me][j] == 0);
        match s {
            0 if self.rules.kiswahili() && alone() => &[1],
            7 if self.rules.kiswahili() && alone() => &[-1],
            _ => &[1, -1],
        }
    }

    /// The side whose front row is empty, the mover first (he loses even if both are).
    fn empty_front(&self) -> Option<usize> {
        let me = self.to_move as usize;
        [me, 1 - me]
            .into_iter()
            .find(|&p| self.board[p][0..8].iter().all(|&c| c == 0))
    }

    /// Who has lost, if the game is over.
    pub fn loser(&self) -> Option<usize> {
        self.children().is_empty().then(|| self.loser_when_over())
    }

    /// The loser once [`Self::children`] came back empty: the search has the moves already and
    /// must not generate them again.
    pub(crate) fn loser_when_over(&self) -> usize {
        self.empty_front().unwrap_or(self.to_move as usize)
    }

    /// Every legal move with the position it leads to (empty when the game is over).
    pub fn children(&self) -> Vec<(Move, BaoGame)> {
        if self.empty_front().is_some() {
            return Vec::new();
        }
        self.children_raw()
    }

    fn children_raw(&self) -> Vec<(Move, BaoGame)> {
        let me = self.to_move as usize;
        let b = &self.board;
        let namua = self.hand[me] > 0;
        let mut out = Vec::new();
        let push = |pit: usize, dir: i8, capture: bool, tax: bool, out: &mut Vec<_>| {
            let mv = Move {
                pit: pit as u8,
                dir,
                namua,
                capture,
                tax,
                stop: false,
            };
            self.push_move(mv, out);
        };
        let push_takata = |s: usize, tax: bool, out: &mut Vec<_>| {
            for &dir in self.takata_dirs(s) {
                push(s, dir, false, tax, out);
            }
        };
        if namua {
            // Namua: captures first.
            for j in 0..8 {
                if b[me][j] == 0 {
                    continue;
                }
                let mut nb = *b;
                nb[me][j] += 1;
                if !self.marker(&nb, &self.nyumba, me, j) {
                    continue;
                }
                // The outer two columns force the nearest kichwa under every reading:
                // `kimbi-narrow` only changes mtaji-phase captures.
                let dirs: &[i8] = match j {
                    0 | 1 => &[1],
                    6 | 7 => &[-1],
                    _ => &[1, -1],
                };
                for &dir in dirs {
                    push(j, dir, true, false, &mut out);
                }
            }
            if !out.is_empty() {
                return out;
            }
            for j in 0..8 {
                if b[me][j] == 0 {
                    continue;
                }
                let mut nb = *b;
                nb[me][j] += 1;
                let tax = j == NYUMBA && self.functioning(&nb, &self.nyumba, me);
                push_takata(j, tax, &mut out);
            }
            return out;
        }
        // Mtaji phase: capturing starts are compulsory.
        for (s, dir) in self.capture_starts(me, self.takasia) {
            push(s, dir, true, false, &mut out);
        }
        if !out.is_empty() {
            return out;
        }
        let tax_pit = self.functioning(b, &self.nyumba, me) && b[me][NYUMBA] >= 2;
        let ok = |s: usize| b[me][s] >= 2 && self.takasia != Some(s as u8);
        for s in 0..8 {
            if ok(s) && !(tax_pit && s == NYUMBA) {
                push_takata(s, false, &mut out);
            }
        }
        if tax_pit && self.rules.tax_anytime {
            push_takata(NYUMBA, true, &mut out);
        }
        if out.is_empty() {
            for s in 8..16 {
                if ok(s) {
                    push_takata(s, false, &mut out);
                }
            }
        }
        if out.is_empty() && tax_pit && !self.rules.tax_anytime {
            push_takata(NYUMBA, true, &mut out);
        }
        out
    }

    /// Plays a move by name (exact, or a unique prefix of a legal name).
    pub fn play_name(&mut self, name: &str) -> Result<(), BaoError> {
        let kids = self.children();
        if kids.is_empty() {
            return Err(BaoError::GameOver);
        }
        let names: Vec<String> = kids.iter().map(|(m, _)| m.name()).collect();
        let name = name.trim();
        let idx = names.iter().position(|n| n == name).or_else(|| {
            let pre: Vec<usize> = (0..names.len())
                .filter(|&i| !name.is_empty() && names[i].starts_with(name))
                .collect();
            if pre.len() == 1 {
                Some(pre[0])
            } else {
                None
            }
        });
        match idx {
            Some(i) => {
                *self = kids[i].1.clone();
                Ok(())
            }
            None => Err(BaoError::IllegalMove {
                mv: name.to_string(),
                legal: names.join(" "),
            }),
        }
    }
}
