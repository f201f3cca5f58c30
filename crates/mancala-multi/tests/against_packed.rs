//! Two-player Mankala uniwersalna is implemented twice: here (`mankala-2p` on a ring of seats,
//! absolute layout, automatic passes, max-n) and in the packed sowing family of
//! `mancala-rules` (preset `mankala-2p`, mover-relative boards, an explicit PASS move,
//! negamax values). This file checks one against the other.
//!
//! Option sets: none, each of the 9 options both crates have (rules 1-5 and 7-10; rule 6 is
//! for 4 players only), and 12 combinations. What is compared:
//!
//! * moves, one at a time: the legal pits and, after each move, the pits (the packed
//!   mover-relative board mapped to seat order), both houses, and who moves next (after any
//!   pass) or that the game is over. Positions: start positions, random playouts, random
//!   boards, and every small board;
//! * whole random games played with the packed [`Game`] and [`MultiGame`] side by side;
//! * values on small boards: this crate's max-n gains, best move and root move values against
//!   a 2-player max-n with the same tie rule and a negamax, both over the packed engine.
//!
//! Repetition: this crate ends a game at the 2nd occurrence of a position, the packed `Game`
//! at the 3rd. Single moves are compared on games built fresh from the position (no history),
//! so only a move back to the position itself could repeat; such children would be skipped and
//! counted, but none occurs. Whole games are compared up to the first repetition. Values are
//! compared only without houses-not-sown: then the game graph is acyclic (a move that banks
//! nothing stays in the mover's row and carries its seeds towards his house), and both
//! searches check this.
//!
//! Every difference fails. This test found two disagreements, both fixed in the packed
//! engine: under must-feed it dropped a feeding move that ends in the mover's house, and it
//! ended the game when every move of a player with seeds was an endless relay instead of
//! passing his turn. The last two tests pin them.

use std::collections::{HashMap, HashSet};

use mancala_multi::{new_game, solve, End, MultiGame, Playable};
use mancala_rules::{
    Board, Child, Game, Next, Node, Options, Preset, Rule, RuleSet, Rules, Side, Variant, PASS,
};

/// A small deterministic PRNG (splitmix64).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// The options both crates have: this crate's name and the packed rule.
const COMMON: [(&str, Rule); 9] = [
    ("touch-move", Rule::TouchMove),
    ("three-seeds", Rule::ThreeSeeds),
    ("capturer-stays", Rule::CapturerStays),
    ("first-empty-ends", Rule::FirstEmptyEnds),
    ("houses-not-sown", Rule::HousesNotSown),
    ("must-feed", Rule::MustFeed),
    ("keep-last-seed", Rule::KeepLastSeed),
    ("relay", Rule::Relay),
    ("capture-four", Rule::CaptureFour),
];

/// The option sets compared: none, each single option, and combinations.
fn option_sets() -> Vec<Vec<Rule>> {
    use Rule::*;
    let mut sets = vec![vec![]];
    sets.extend(COMMON.iter().map(|&(_, r)| vec![r]));
    sets.extend([
        vec![Relay, HousesNotSown],
        vec![Relay, CaptureFour],
        vec![Relay, MustFeed],
        vec![Relay, FirstEmptyEnds],
        vec![Relay, CapturerStays, KeepLastSeed],
        vec![CapturerStays, KeepLastSeed],
        vec![HousesNotSown, MustFeed],
        vec![HousesNotSown, CaptureFour],
        vec![HousesNotSown, KeepLastSeed, CapturerStays],
        vec![FirstEmptyEnds, MustFeed, KeepLastSeed],
        vec![CaptureFour, MustFeed, FirstEmptyEnds],
        vec![Relay, HousesNotSown, MustFeed, CaptureFour],
    ]);
    sets
}

fn multi_name(r: Rule) -> &'static str {
    COMMON.iter().find(|c| c.1 == r).map(|c| c.0).unwrap()
}

fn describe(set: &[Rule]) -> String {
    let names: Vec<&str> = set.iter().map(|&r| multi_name(r)).collect();
    format!("[{}]", names.join(","))
}

/// One option set in both crates, for boards of `m` pits a side.
struct Pair {
    set: Vec<Rule>,
    m: usize,
    rules: Rules,
    multi_rules: Vec<String>,
}

fn packed_rules(set: &[Rule], m: usize, seeds: Option<u32>) -> Rules {
    let rules = set.iter().fold(RuleSet::default(), |s, &r| s.with(r));
    let variant = Variant::new(
        Preset::Mankala2p,
        Options {
            pits: Some(m as u32),
            seeds,
            rules,
            ..Options::default()
        },
    )
    .unwrap();
    Rules::new(variant)
}

impl Pair {
    fn new(set: &[Rule], m: usize, seeds: Option<u32>) -> Pair {
        Pair {
            set: set.to_vec(),
            m,
            rules: packed_rules(set, m, seeds),
            multi_rules: set.iter().map(|&r| multi_name(r).to_string()).collect(),
        }
    }

    fn has(&self, r: Rule) -> bool {
        self.set.contains(&r)
    }

    /// This crate's game from its own start position.
    fn multi_start(&self, seeds: Option<u32>) -> MultiGame {
        new_game(
            "mankala-2p",
            Some(self.m as u32),
            seeds,
            &self.multi_rules,
            None,
        )
        .unwrap()
    }

    /// This crate's game at a position (fresh: no history before it).
    fn multi(&self, p: &Pos) -> MultiGame {
        let pits: Vec<String> = p.pits.iter().map(|c| c.to_string()).collect();
        let text = format!(
            "{} / {} {} / {}",
            pits.join(" "),
            p.houses[0],
            p.houses[1],
            p.mover + 1
        );
        new_game(
            "mankala-2p",
            Some(self.m as u32),
            None,
            &self.multi_rules,
            Some(&text),
        )
        .unwrap()
    }
}

/// A position in absolute terms: pits in seat order (P1 = South's row, then P2 = North's,
/// each in its owner's sowing order), houses, the player to move (0 = P1/South).
#[derive(Clone, Debug, PartialEq, Eq)]
struct Pos {
    pits: Vec<u32>,
    houses: [u32; 2],
    mover: usize,
}

/// What a position or move leads to, in absolute terms.
#[derive(Clone, Debug, PartialEq, Eq)]
enum State {
    Move(Pos),
    /// Game over with these final houses. (Under rule 4 this crate leaves the uncounted seeds
    /// in the pits and the packed engine empties the board: only the houses are compared.)
    Over([u32; 2]),
    /// Packed only: both players pass, so the node after the two passes is the one before
    /// them (this crate ends such a game).
    EndlessPasses,
}

/// The packed board (mover-relative) of a position.
fn packed_board(p: &Pos, m: usize) -> Board {
    let bytes: Vec<u8> = p.pits.iter().map(|&c| c as u8).collect();
    let b = Board::from_pits(&bytes);
    if p.mover == 0 {
        b
    } else {
        b.flip(m)
    }
}

/// The seat-order pits of a packed board whose side to move is `mover`.
fn absolute(b: Board, mover: usize, m: usize) -> Vec<u32> {
    let b = if mover == 0 { b } else { b.flip(m) };
    b.pits(2 * m).iter().map(|&c| c as u32).collect()
}

/// A settled packed position: the state and the legal moves.
struct Settled {
    state: State,
    kids: Vec<Child>,
}

/// Packed: settles a position (a pass, or the end) and returns it with the legal moves.
fn packed_settle(pair: &Pair, mut b: Board, mut mover: usize, mut houses: [u32; 2]) -> Settled {
    let m = pair.m;
    for _ in 0..2 {
        match pair.rules.node(b) {
            Node::Terminal { mover: a, opp } => {
                houses[mover] += a as u32;
                houses[1 - mover] += opp as u32;
                return Settled {
                    state: State::Over(houses),
                    kids: Vec::new(),
                };
            }
            Node::Moves(kids) if !pair.rules.must_pass(b) => {
                let pos = Pos {
                    pits: absolute(b, mover, m),
                    houses,
                    mover,
                };
                return Settled {
                    state: State::Move(pos),
                    kids: kids.as_slice().to_vec(),
                };
            }
            Node::Moves(kids) => {
                // The explicit pass of a player without a move (no seeds, or only endless
                // relays): his only move.
                assert_eq!(kids.len(), 1);
                let k = kids.as_slice()[0];
                assert_eq!(
                    (k.pit, k.gain, k.opp_gain, k.next),
                    (PASS, 0, 0, Next::Opponent)
                );
                assert_eq!(k.board, b.flip(m));
                b = k.board;
                mover = 1 - mover;
            }
        }
    }
    Settled {
        state: State::EndlessPasses,
        kids: Vec::new(),
    }
}

/// Packed: the settled position after move `k` of `mover`.
fn packed_after(pair: &Pair, mover: usize, houses: [u32; 2], k: &Child) -> Settled {
    let mut h = houses;
    h[mover] += k.gain as u32;
    h[1 - mover] += k.opp_gain as u32;
    match k.next {
        Next::Over => {
            assert_eq!(k.board, Board::EMPTY);
            Settled {
                state: State::Over(h),
                kids: Vec::new(),
            }
        }
        Next::Mover => packed_settle(pair, k.board, mover, h),
        Next::Opponent => packed_settle(pair, k.board, 1 - mover, h),
    }
}

fn multi_state(g: &MultiGame) -> State {
    let h = g.houses();
    if g.is_over() {
        State::Over([h[0], h[1]])
    } else {
        State::Move(Pos {
            pits: g.pits(),
            houses: [h[0], h[1]],
            mover: g.mover(),
        })
    }
}

/// What the comparisons covered.
#[derive(Default)]
struct Tally {
    positions: usize,
    moves: usize,
    passes: usize,
    over: usize,
    repetition_skipped: usize,
    diffs: Vec<String>,
}

impl Tally {
    fn report(&self, what: &str) {
        for d in self.diffs.iter().take(20) {
            println!("DIFF {d}");
        }
        println!(
            "{what}: {} positions, {} moves, {} passes, {} game ends, {} repetitions skipped, \
             {} differences",
            self.positions,
            self.moves,
            self.passes,
            self.over,
            self.repetition_skipped,
            self.diffs.len()
        );
        assert!(
            self.diffs.is_empty(),
            "{} differences, first: {}",
            self.diffs.len(),
            self.diffs[0]
        );
    }
}

/// Compares one position in both crates: the settled state, the legal moves and every move's
/// result.
fn compare_position(pair: &Pair, p: &Pos, t: &mut Tally) {
    let m = pair.m;
    let multi = pair.multi(p);
    let root = packed_settle(pair, packed_board(p, m), p.mover, p.houses);
    let mstate = multi_state(&multi);
    let where_ = format!("{} m={m} {p:?}", describe(&pair.set));
    t.positions += 1;
    match &root.state {
        State::Move(q) if q.mover != p.mover => t.passes += 1,
        State::Move(_) => {}
        State::Over(_) => t.over += 1,
        State::EndlessPasses => {}
    }
    if root.state != mstate {
        let what = format!("{where_}: packed {:?}, multi {mstate:?}", root.state);
        t.diffs.push(what);
        return;
    }
    let State::Move(q) = &root.state else {
        return;
    };
    let mut multi_kids: Vec<(usize, MultiGame)> = multi
        .children()
        .into_iter()
        .map(|(name, g)| (name.parse().unwrap(), g))
        .collect();
    let packed_pits: Vec<usize> = root.kids.iter().map(|k| k.pit as usize).collect();
    let multi_pits: Vec<usize> = multi_kids.iter().map(|k| k.0).collect();
    if packed_pits != multi_pits {
        let what = format!("{where_}: legal packed {packed_pits:?}, multi {multi_pits:?}");
        t.diffs.push(what);
        return;
    }
    for (k, (pit, child)) in root.kids.iter().zip(multi_kids.drain(..)) {
        t.moves += 1;
        if child.end() == Some(End::Repetition) {
            t.repetition_skipped += 1;
            continue;
        }
        let after = packed_after(pair, q.mover, q.houses, k);
        let ms = multi_state(&child);
        if after.state != ms {
            let what = format!(
                "{where_} move {pit}: packed {:?}, multi {ms:?}",
                after.state
            );
            t.diffs.push(what);
        }
    }
}

/// Positions of random playouts from `start` (moves chosen among the packed engine's).
fn playout_positions(pair: &Pair, start: Board, rng: &mut Rng, games: usize) -> Vec<Pos> {
    let mut out = Vec::new();
    for _ in 0..games {
        let mut s = packed_settle(pair, start, 0, [0, 0]);
        // Houses-not-sown games can go round for ever: cut them off.
        for _ in 0..120 {
            let State::Move(p) = &s.state else { break };
            out.push(p.clone());
            let k = s.kids[rng.below(s.kids.len())];
            s = packed_after(pair, p.mover, p.houses, &k);
        }
    }
    out
}

/// A random board: `m` pits a side, up to `most` seeds a pit (empty pits often, so passes,
/// captures and empty rows come up), random houses and mover.
fn random_position(rng: &mut Rng, m: usize, most: usize) -> Pos {
    let pits = (0..2 * m)
        .map(|_| {
            if rng.below(3) == 0 {
                0
            } else {
                rng.below(most + 1) as u32
            }
        })
        .collect();
    Pos {
        pits,
        houses: [rng.below(20) as u32, rng.below(20) as u32],
        mover: rng.below(2),
    }
}

/// Every board of `2m` pits holding at most `most` seeds in all.
fn all_boards(m: usize, most: u32) -> Vec<Vec<u32>> {
    let mut out = vec![vec![]];
    for _ in 0..2 * m {
        let mut next = Vec::new();
        for b in &out {
            let used: u32 = b.iter().sum();
            for c in 0..=most - used {
                let mut nb = b.clone();
                nb.push(c);
                next.push(nb);
            }
        }
        out = next;
    }
    out
}

#[test]
fn moves_and_results_agree() {
    let mut rng = Rng(0x5eed_2024);
    let mut t = Tally::default();
    let sets = option_sets();
    for set in &sets {
        let three = set.contains(&Rule::ThreeSeeds);
        for m in 1..=6usize {
            for seeds in 1..=4u32 {
                // Rule 2 fixes 3 seeds a pit (this crate rejects another explicit count).
                let seeds_opt = (!three).then_some(seeds);
                let want = if three { 3 } else { seeds };
                let pair = Pair::new(set, m, seeds_opt);
                // The start position, built by each crate.
                let start = pair.rules.start();
                assert_eq!(absolute(start, 0, m), vec![want; 2 * m]);
                let multi_start = pair.multi_start(seeds_opt);
                let settled = packed_settle(&pair, start, 0, [0, 0]);
                if settled.state != multi_state(&multi_start) {
                    let what = format!(
                        "{} m={m} seeds={want} start: packed {:?}, multi {:?}",
                        describe(set),
                        settled.state,
                        multi_state(&multi_start)
                    );
                    t.diffs.push(what);
                }
                let mut positions = vec![Pos {
                    pits: vec![want; 2 * m],
                    houses: [0, 0],
                    mover: 1,
                }];
                positions.extend(playout_positions(&pair, start, &mut rng, 8));
                for _ in 0..25 {
                    positions.push(random_position(&mut rng, m, 2 * want as usize + 1));
                }
                for p in &positions {
                    compare_position(&pair, p, &mut t);
                }
            }
        }
        // Every small board, both sides to move.
        for (m, most) in [(1usize, 12u32), (2, 9), (3, 7), (4, 5)] {
            let pair = Pair::new(set, m, None);
            for pits in all_boards(m, most) {
                for mover in 0..2 {
                    let p = Pos {
                        pits: pits.clone(),
                        houses: [3, 5],
                        mover,
                    };
                    compare_position(&pair, &p, &mut t);
                }
            }
        }
    }
    println!("{} option sets", sets.len());
    t.report("single moves");
    assert!(t.positions > 250_000 && t.moves > 450_000 && t.passes > 5_000);
}

/// Random games played move by move with the packed [`Game`] and [`MultiGame`]: the same
/// legal moves, pits, houses and player to move after every move, and the same final houses.
/// Under houses-not-sown a game is compared up to the first repetition (this crate ends the
/// game there, the packed `Game` only at the third occurrence).
#[test]
fn whole_games_agree() {
    let mut rng = Rng(0x0bad_cafe);
    let mut t = Tally::default();
    let (mut games, mut repeated) = (0, 0);
    for set in option_sets() {
        let three = set.contains(&Rule::ThreeSeeds);
        for m in 1..=6usize {
            for seeds in 1..=4u32 {
                let seeds_opt = (!three).then_some(seeds);
                let pair = Pair::new(&set, m, seeds_opt);
                'game: for _ in 0..4 {
                    games += 1;
                    let mut packed = Game::new(pair.rules.clone());
                    let mut multi = pair.multi_start(seeds_opt);
                    let mut played = Vec::new();
                    loop {
                        if multi.end() == Some(End::Repetition) {
                            assert!(pair.has(Rule::HousesNotSown));
                            repeated += 1;
                            continue 'game;
                        }
                        let stores = packed.stores();
                        let where_ =
                            format!("{} m={m} seeds={seeds} moves {played:?}", describe(&set));
                        if packed.is_over() || multi.is_over() {
                            let both = packed.is_over() && multi.is_over();
                            if !both || stores.to_vec() != multi.houses() {
                                let what = format!(
                                    "{where_}: over packed {} {stores:?}, multi {} {:?}",
                                    packed.is_over(),
                                    multi.is_over(),
                                    multi.houses()
                                );
                                t.diffs.push(what);
                            } else {
                                t.over += 1;
                            }
                            continue 'game;
                        }
                        t.positions += 1;
                        let side = match packed.to_move() {
                            Side::South => 0,
                            Side::North => 1,
                        };
                        let legal: Vec<String> =
                            packed.legal().iter().map(|i| i.to_string()).collect();
                        let same = side == multi.mover()
                            && packed
                                .absolute_pits()
                                .iter()
                                .map(|&c| c as u32)
                                .collect::<Vec<_>>()
                                == multi.pits()
                            && stores.to_vec() == multi.houses()
                            && legal == multi.legal();
                        if !same {
                            let what = format!(
                                "{where_}: packed {side} {:?} {stores:?} {legal:?}, multi {}",
                                packed.absolute_pits(),
                                multi.position()
                            );
                            t.diffs.push(what);
                            continue 'game;
                        }
                        let pit = legal[rng.below(legal.len())].parse::<usize>().unwrap();
                        let Node::Moves(kids) = pair.rules.node(packed.board()) else {
                            unreachable!()
                        };
                        let kid = kids.iter().find(|k| k.pit as usize == pit).unwrap();
                        t.moves += 1;
                        played.push(pit);
                        packed.play(pit).unwrap();
                        multi.play_move(&pit.to_string()).unwrap();
                        let again = packed.to_move() == [Side::South, Side::North][side];
                        if !packed.is_over() && again != (kid.next == Next::Mover) {
                            t.passes += 1;
                        }
                    }
                }
            }
        }
    }
    println!("{games} games, {repeated} compared up to a repetition");
    t.report("whole games");
    assert!(t.over > 1500 && t.passes > 100, "{} {}", t.over, t.passes);
}

/// A max-n result: (mover's gain, opponent's gain), the best pit.
type MaxNValue = ((u32, u32), Option<u8>);

/// Exact values over the packed engine, for option sets without houses-not-sown (acyclic).
struct Search<'a> {
    pair: &'a Pair,
    /// Negamax: the mover's future gain minus the opponent's.
    nega: HashMap<Board, i32>,
    /// 2-player max-n with this crate's tie rule: (mover's gain, opponent's gain), best pit.
    maxn: HashMap<Board, MaxNValue>,
    /// Positions on the current line: a repeat would be a cycle.
    line: HashSet<Board>,
}

impl<'a> Search<'a> {
    fn new(pair: &'a Pair) -> Search<'a> {
        assert!(!pair.has(Rule::HousesNotSown));
        Search {
            pair,
            nega: HashMap::new(),
            maxn: HashMap::new(),
            line: HashSet::new(),
        }
    }

    fn enter(&mut self, b: Board) {
        assert!(self.line.insert(b), "cycle through {b:?}");
    }

    /// The negamax value.
    fn negamax(&mut self, b: Board) -> i32 {
        if let Some(&v) = self.nega.get(&b) {
            return v;
        }
        let v = match self.pair.rules.node(b) {
            Node::Terminal { mover, opp } => mover as i32 - opp as i32,
            Node::Moves(kids) => {
                self.enter(b);
                let mut best = i32::MIN;
                for k in &kids {
                    let child = match k.next {
                        Next::Over => 0,
                        _ => self.negamax(k.board),
                    };
                    best = best.max(k.value(child));
                }
                self.line.remove(&b);
                best
            }
        };
        self.nega.insert(b, v);
        v
    }

    /// The gains (mover, opponent) a move leads to.
    fn move_gains(&mut self, k: &Child) -> (u32, u32) {
        let (g, o) = (k.gain as u32, k.opp_gain as u32);
        match k.next {
            Next::Over => (g, o),
            Next::Mover => {
                let ((a, c), _) = self.max_n(k.board);
                (g + a, o + c)
            }
            Next::Opponent => {
                let ((a, c), _) = self.max_n(k.board);
                (g + c, o + a)
            }
        }
    }

    /// Max-n for two players: each maximises his own gain; ties go to the larger margin, then
    /// to the lowest pit (this crate's rule). Returns the gains and the best pit.
    fn max_n(&mut self, b: Board) -> MaxNValue {
        if let Some(&v) = self.maxn.get(&b) {
            return v;
        }
        let v = match self.pair.rules.node(b) {
            Node::Terminal { mover, opp } => ((mover as u32, opp as u32), None),
            Node::Moves(kids) => {
                self.enter(b);
                let mut best: Option<((u32, u32), u8)> = None;
                for k in &kids {
                    let g = self.move_gains(k);
                    let key = |g: (u32, u32)| (g.0, g.0 as i64 - g.1 as i64);
                    if best.is_none_or(|(bg, _)| key(g) > key(bg)) {
                        best = Some((g, k.pit));
                    }
                }
                self.line.remove(&b);
                let (g, pit) = best.unwrap();
                (g, Some(pit))
            }
        };
        self.maxn.insert(b, v);
        v
    }
}

/// This crate's max-n solution against max-n and negamax over the packed engine, from the
/// start and from playout positions of small boards, for every option set without
/// houses-not-sown (where the game graph is acyclic; the searches assert it). Compared:
/// each player's gains and final houses, the best move, every root move's final houses, and
/// (where every seed ends in a house, i.e. without first-empty-ends) the negamax margin.
#[test]
fn values_agree_on_small_boards() {
    let mut rng = Rng(0xfeed_f00d);
    let (mut compared, mut root_moves, mut nodes) = (0usize, 0usize, 0u64);
    let mut nonzero = 0;
    let sets: Vec<Vec<Rule>> = option_sets()
        .into_iter()
        .filter(|s| !s.contains(&Rule::HousesNotSown))
        .collect();
    for set in &sets {
        let three = set.contains(&Rule::ThreeSeeds);
        for (m, seeds) in [
            (1, 1),
            (1, 3),
            (1, 4),
            (2, 1),
            (2, 2),
            (3, 1),
            (3, 2),
            (4, 1),
            (2, 3),
            (5, 1),
        ] {
            // Rule 2 means 3 seeds a pit: 1 x 3 and 2 x 3 only.
            if three && (seeds != 1 || m > 2) {
                continue;
            }
            let pair = Pair::new(set, m, (!three).then_some(seeds));
            let start = pair.rules.start();
            let mut positions = vec![Pos {
                pits: absolute(start, 0, m),
                houses: [0, 0],
                mover: 0,
            }];
            positions.extend(playout_positions(&pair, start, &mut rng, 3));
            // Random boards with no more seeds than the start.
            let want = positions.len() + 8;
            while positions.len() < want {
                let p = random_position(&mut rng, m, seeds as usize + 1);
                if p.pits.iter().sum::<u32>() <= (2 * m) as u32 * seeds {
                    positions.push(p);
                }
            }
            let mut search = Search::new(&pair);
            for p in &positions {
                let b = packed_board(p, m);
                let ((own, opp), best) = search.max_n(b);
                let margin = search.negamax(b);
                let game = pair.multi(p);
                let v = solve(&game, 5_000_000).unwrap();
                nodes += v.nodes;
                let what = format!("{} m={m} {p:?}: multi {v:?}", describe(set));
                let mut gains = [0u32; 2];
                gains[p.mover] = own;
                gains[1 - p.mover] = opp;
                // A game over at once has banked its seeds already (no future gains).
                let future = if game.is_over() { [0, 0] } else { gains };
                assert_eq!(v.gains, future.to_vec(), "{what}");
                let scores: Vec<u32> = (0..2).map(|s| p.houses[s] + gains[s]).collect();
                assert_eq!(v.scores, scores, "{what}");
                if !pair.has(Rule::FirstEmptyEnds) {
                    // Every seed left ends in a house: max-n is negamax.
                    let seeds_left: u32 = p.pits.iter().sum();
                    assert_eq!(own + opp, seeds_left, "{what}");
                    assert_eq!(own as i32 - opp as i32, margin, "{what}");
                }
                nonzero += usize::from(margin != 0);
                compared += 1;
                // The best move and each root move's value, when the mover has a choice.
                let Node::Moves(kids) = pair.rules.node(b) else {
                    assert_eq!(v.best, None, "{what}");
                    continue;
                };
                if pair.rules.must_pass(b) {
                    continue; // the root mover passes: this crate solves from the opponent
                }
                assert_eq!(v.best, best.map(|p| p.to_string()), "{what}");
                assert_eq!(v.move_values.len(), kids.len(), "{what}");
                for (k, (name, fin)) in kids.iter().zip(&v.move_values) {
                    let (a, c) = search.move_gains(k);
                    let mut g = [0u32; 2];
                    g[p.mover] = a;
                    g[1 - p.mover] = c;
                    let want: Vec<u32> = (0..2).map(|s| p.houses[s] + g[s]).collect();
                    assert_eq!((name, fin), (&k.pit.to_string(), &want), "{what}");
                    root_moves += 1;
                }
            }
        }
    }
    println!(
        "{} option sets: {compared} positions solved by both ({nonzero} with a nonzero \
         margin, {root_moves} root moves, {nodes} max-n nodes)",
        sets.len()
    );
    assert!(compared > 1000 && nonzero > 300 && root_moves > 1500);
}

/// Hand-worked positions both crates must agree on, to pin the layout mapping.
#[test]
fn worked_examples() {
    // 3 pits: South [1 0 0], North [0 2 5] (North's pit 2, its right, faces South's pit 0).
    // South's pit 0 sows into his empty pit 1, which faces North's pit 1 (2 seeds): South
    // banks 2 + 1; North is to move with [0 0 5].
    let pair = Pair::new(&[], 3, None);
    let p = Pos {
        pits: vec![1, 0, 0, 0, 2, 5],
        houses: [0, 0],
        mover: 0,
    };
    let s = packed_settle(&pair, packed_board(&p, 3), 0, [0, 0]);
    let after = packed_after(&pair, 0, [0, 0], &s.kids[0]).state;
    let q = Pos {
        pits: vec![0, 0, 0, 0, 0, 5],
        houses: [3, 0],
        mover: 1,
    };
    let want = State::Move(q.clone());
    assert_eq!(after, want);
    let mut multi = pair.multi(&p);
    multi.play_move("0").unwrap();
    assert_eq!(multi_state(&multi), want);
    // North sows the 5 seeds of his pit 2: his house, South's pits 0, 1, 2, his own pit 0.
    // That pit was empty and faces South's pit 2 (1 seed): North banks 1 + 1, plus the 1 sown
    // into his house.
    let s = packed_settle(&pair, packed_board(&q, 3), 1, [3, 0]);
    let State::Move(qq) = &s.state else { panic!() };
    assert_eq!(qq.mover, 1);
    let after = packed_after(&pair, 1, [3, 0], &s.kids[0]).state;
    let want = State::Move(Pos {
        pits: vec![1, 1, 0, 0, 0, 0],
        houses: [3, 3],
        mover: 0,
    });
    assert_eq!(after, want);
    multi.play_move("2").unwrap();
    assert_eq!(multi_state(&multi), want);
}

/// Disagreement 1, found by this test and fixed in the packed engine (rule 7, must-feed). One pit a
/// side, South [3], North [0], South to move. South's only move sows his house, North's pit, (his
/// own pit skipped) his house: it feeds North and gives South another turn. Rule 7 (docs/rules.md,
/// mankala-2p, mankala-3p, mankala-4p) asks for "a move that puts at least one seed into his empty
/// pits": this move does, so it stays legal (South banks 2; South, now empty, passes; North cannot
/// feed South, so the game ends and North banks his 1 seed: 2-1). The packed engine used to keep
/// only feeding moves that pass the turn, found none, and ended the game 3-0.
#[test]
fn must_feed_extra_turn_move_feeds() {
    let pair = Pair::new(&[Rule::MustFeed], 1, None);
    let p = Pos {
        pits: vec![3, 0],
        houses: [0, 0],
        mover: 0,
    };
    // This crate: the move is legal and the game ends 2-1.
    let mut multi = pair.multi(&p);
    assert_eq!(multi.legal(), vec!["0".to_string()]);
    multi.play_move("0").unwrap();
    assert_eq!(multi.houses(), vec![2, 1]);
    assert_eq!(multi.end(), Some(End::FeedImpossible(1)));
    // The packed engine: the same move, feeding North and ending in South's house.
    let packed = packed_settle(&pair, packed_board(&p, 1), 0, [0, 0]);
    assert_eq!(packed.state, multi_state(&pair.multi(&p)));
    assert_eq!(packed.kids.len(), 1);
    let k = packed.kids[0];
    assert_eq!((k.pit, k.next), (0, Next::Mover));
    assert_ne!(k.board.opp(1), 0);
    let after = packed_after(&pair, 0, [0, 0], &k);
    assert_eq!(after.state, State::Over([2, 1]));
    assert_eq!(after.state, multi_state(&multi));
}

/// Disagreement 2, found by this test and fixed in the packed engine (rules 5 + 9,
/// houses-not-sown + relay). Two pits a side, South [2 0], North [2 1] (seat order
/// `2 0 2 1`), South to move. South's only move (pit 0) relays for ever (it is back at "5
/// seeds, lifting North's pit 0 with S [0 1] N [3 1]" after six lifts), so it is illegal, and
/// South has no move although he has seeds. His turn passes (North moves next), as the
/// Mankala uniwersalna rules page does for a player with nothing to sow («jego tura jest
/// pomijana») and as docs/variants.md says ("the preset's rule for a player without a move
/// applies"; for mankala-2p that is the pass). The packed engine used to end the game instead,
/// each side banking his own row (2-3); it now gives South an explicit PASS move.
#[test]
fn stuck_relay_player_passes() {
    let pair = Pair::new(&[Rule::HousesNotSown, Rule::Relay], 2, None);
    let p = Pos {
        pits: vec![2, 0, 2, 1],
        houses: [0, 0],
        mover: 0,
    };
    let multi = pair.multi(&p);
    assert_eq!(multi.mover(), 1);
    assert!(!multi.is_over());
    assert_eq!(multi.legal(), vec!["0".to_string(), "1".to_string()]);
    // The packed engine: South's only move is the pass, with his seeds still on the board.
    let b = packed_board(&p, 2);
    assert!(pair.rules.must_pass(b));
    let Node::Moves(kids) = pair.rules.node(b) else {
        panic!("game over")
    };
    assert_eq!(kids.len(), 1);
    let k = kids.as_slice()[0];
    assert_eq!(
        (k.pit, k.gain, k.opp_gain, k.next, k.board),
        (PASS, 0, 0, Next::Opponent, b.flip(2))
    );
    let packed = packed_settle(&pair, b, 0, [0, 0]);
    assert_eq!(packed.state, multi_state(&multi));
    let pits: Vec<String> = packed.kids.iter().map(|k| k.pit.to_string()).collect();
    assert_eq!(pits, multi.legal());
}

/// A remaining disagreement (rules 5 + 9, houses-not-sown + relay). One pit a side, one seed
/// each (the start), South to move. Each player's only move relays for ever, so neither can
/// move. This crate ends the game, each banking his own row (1-1). The packed engine gives
/// South a PASS to North's view of the same board, where North must pass back: the node
/// never ends (its `Game` stops the loop only by its repetition rule, with the same 1-1).
#[test]
fn both_players_stuck_end_game() {
    let pair = Pair::new(&[Rule::HousesNotSown, Rule::Relay], 1, Some(1));
    let p = Pos {
        pits: vec![1, 1],
        houses: [0, 0],
        mover: 0,
    };
    let multi = pair.multi(&p);
    assert_eq!(multi.end(), Some(End::NoLegalMove));
    assert_eq!(multi_state(&multi), State::Over([1, 1]));
    let b = packed_board(&p, 1);
    assert!(
        matches!(pair.rules.node(b), Node::Terminal { mover: 1, opp: 1 }),
        "packed {:?}",
        pair.rules.node(b)
    );
}
