//! Nam-nam after the first round: pits owned across the board, the side to move carried by
//! the position, and the game over its rounds.
//!
//! The packed engine (mover-relative boards, North's flag) is checked move by move against a
//! plain simulator written here in absolute terms: a ring of pits, each with an owner, sown
//! one seed at a time, a never-ending relay found by remembering every state.

use mancala_rules::{
    Board, Game, NamNamMatch, Next, Node, Options, Phase, Preset, Rules, Side, Variant, PASS,
};
use std::collections::HashSet;

/// What a move does, in absolute terms: pits after it (South's row then North's, in ring
/// order), seeds taken by `[south, north]`, and whether the round is over.
#[derive(Debug, PartialEq, Eq)]
struct Step {
    pits: Vec<u32>,
    taken: [u32; 2],
    over: bool,
}

/// The plain simulator: `south_owns[i]` for ring pit `i`.
struct Plain {
    m: usize,
    south_owns: Vec<bool>,
}

impl Plain {
    fn owner(&self, i: usize) -> usize {
        if self.south_owns[i] {
            0
        } else {
            1
        }
    }

    /// Sows ring pit `o` for `who` (0 South, 1 North); `None` if the relay never ends.
    fn sow(&self, pits: &[u32], o: usize, who: usize) -> Option<Step> {
        let n = 2 * self.m;
        let mut b = pits.to_vec();
        let mut taken = [0u32; 2];
        let mut seen = HashSet::new();
        let mut lift = o;
        loop {
            if !seen.insert((b.clone(), lift)) {
                return None;
            }
            let mut hand = b[lift];
            b[lift] = 0;
            let mut at = lift;
            while hand > 0 {
                at = (at + 1) % n;
                b[at] += 1;
                hand -= 1;
                let left: u32 = b.iter().sum::<u32>() + hand;
                if b[at] == 4 {
                    // The last seed's four is the mover's; any other goes to the pit's owner.
                    let taker = if hand == 0 { who } else { self.owner(at) };
                    if left == 8 {
                        taken[taker] += 8;
                        return Some(Step {
                            pits: vec![0; n],
                            taken,
                            over: true,
                        });
                    }
                    taken[taker] += 4;
                    b[at] = 0;
                    if hand == 0 {
                        let over = b.iter().all(|&x| x == 0);
                        return Some(Step {
                            pits: b,
                            taken,
                            over,
                        });
                    }
                }
            }
            if b[at] == 1 {
                let over = b.iter().all(|&x| x == 0);
                return Some(Step {
                    pits: b,
                    taken,
                    over,
                });
            }
            lift = at;
        }
    }

    /// Every move of `who`: (ring pit, what it does).
    fn moves(&self, pits: &[u32], who: usize) -> Vec<(usize, Step)> {
        (0..2 * self.m)
            .filter(|&i| pits[i] > 0 && self.owner(i) == who)
            .filter_map(|i| self.sow(pits, i, who).map(|s| (i, s)))
            .collect()
    }
}

/// A tiny deterministic generator (xorshift).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

fn round_rules(pits: u32, owners: &str) -> Rules {
    let opts = Options {
        pits: Some(pits),
        owners: Some(Variant::parse_owners(pits, owners).unwrap()),
        ..Options::default()
    };
    Rules::new(Variant::new(Preset::NamNam, opts).unwrap())
}

/// The mover-relative board of absolute pits with `who` to move.
fn packed(pits: &[u32], who: usize, m: usize) -> Board {
    let bytes: Vec<u8> = pits.iter().map(|&x| x as u8).collect();
    let b = Board::from_pits(&bytes);
    let b = if who == 0 { b } else { b.flip(m) };
    b.with_north(who == 1)
}

/// Absolute pits of a mover-relative board.
fn absolute(b: Board, m: usize) -> Vec<u32> {
    let b = if b.north() { b.flip(m) } else { b };
    b.pits(2 * m).iter().map(|&x| x as u32).collect()
}

#[test]
fn every_move_agrees_with_the_plain_simulator() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut checked = (0u64, 0u64, 0u64);
    for (m, owners) in [
        (6, "ssssssnnsnnn"),
        (6, "snnsssnnnnnn"),
        (6, "ssssssnsnsns"),
        (3, "sssnsn"),
        (2, "ssns"),
        // On 8 pits a side North's flag shares a byte with North's last pit.
        (8, "ssssssssnnnnnnns"),
        (8, "snnnnnnnnssssssn"),
    ] {
        let rules = round_rules(m as u32, owners);
        let plain = Plain {
            m,
            south_owns: owners.chars().map(|c| c == 's').collect(),
        };
        for _ in 0..3000 {
            // Random boards with a multiple of four seeds, as in play, up to 4 a pit on average.
            let total = 4 * (1 + rng.next() % (m as u64 * 2)) as u32;
            let mut pits = vec![0u32; 2 * m];
            for _ in 0..total {
                pits[(rng.next() % (2 * m as u64)) as usize] += 1;
            }
            for who in 0..2 {
                let b = packed(&pits, who, m);
                let want = plain.moves(&pits, who);
                let node = rules.node(b);
                if want.is_empty() {
                    // No move: pass if the other player has one, else the round is over with
                    // each taking what he owns.
                    let other = plain.moves(&pits, 1 - who);
                    match node {
                        Node::Moves(k) => {
                            assert!(!other.is_empty(), "{pits:?} {who}: both stuck");
                            assert_eq!(k.len(), 1);
                            assert_eq!(k.as_slice()[0].pit, PASS);
                            assert_eq!(k.as_slice()[0].board, packed(&pits, 1 - who, m));
                            assert!(rules.must_pass(b));
                            checked.1 += 1;
                        }
                        Node::Terminal { mover, opp } => {
                            assert!(other.is_empty(), "{pits:?} {who}: {other:?}");
                            let owned: u32 = (0..2 * m)
                                .filter(|&i| plain.owner(i) == who)
                                .map(|i| pits[i])
                                .sum();
                            assert_eq!((mover as u32, opp as u32), (owned, total - owned));
                            checked.2 += 1;
                        }
                    }
                    continue;
                }
                let Node::Moves(kids) = node else {
                    panic!("{pits:?} {who}: packed has no move, plain has {want:?}");
                };
                // Ring pit i is the mover's pit i (South) or i - m / i + m (North).
                let name = |i: usize| if who == 0 { i } else { (i + m) % (2 * m) };
                let got: Vec<usize> = kids.iter().map(|c| c.pit as usize).collect();
                let mut names: Vec<usize> = want.iter().map(|(i, _)| name(*i)).collect();
                names.sort();
                assert_eq!(got, names, "{owners} {pits:?} who {who}");
                for (i, step) in &want {
                    let c = kids.iter().find(|c| c.pit as usize == name(*i)).unwrap();
                    let taken = [c.gain as u32, c.opp_gain as u32];
                    let taken = if who == 0 {
                        taken
                    } else {
                        [taken[1], taken[0]]
                    };
                    assert_eq!(taken, step.taken, "{owners} {pits:?} who {who} pit {i}");
                    if step.over {
                        assert_eq!(c.next, Next::Over);
                    } else {
                        assert_eq!(c.next, Next::Opponent);
                        assert_eq!(c.board.north(), who == 0, "the turn passes");
                        assert_eq!(absolute(c.board, m), step.pits, "{pits:?} pit {i}");
                    }
                    checked.0 += 1;
                }
            }
        }
    }
    // (Random boards where neither player can move are too rare to ask for here; the
    // cross-check of mankala-multi covers that end.)
    assert!(checked.0 > 50_000 && checked.1 > 0, "{checked:?}");
}

/// South owns North's pit 2: from the start, South may play it (as his move 8) and North
/// may not; a sowing that makes four in it gives the four to South.
#[test]
fn a_pit_won_across_the_board() {
    let rules = round_rules(6, "ssssssnnsnnn");
    let start = rules.start();
    let legal = |b: Board| match rules.node(b) {
        Node::Moves(k) => k.iter().map(|c| c.pit).collect::<Vec<_>>(),
        Node::Terminal { .. } => vec![],
    };
    assert_eq!(legal(start), vec![0, 1, 2, 3, 4, 5, 8]);
    assert_eq!(legal(start.with_north(true)), vec![0, 1, 3, 4, 5]);
    // North sows his pit 0 (one seed) into his pit 1 (three seeds), the last seed makes four:
    // North takes it. Then from a board where North's seed passes South's pit across.
    let b = Board::from_pits(&[1, 3, 0, 0, 0, 0, 0, 0, 0, 0, 1, 4]).with_north(true);
    let Node::Moves(k) = rules.node(b) else {
        panic!()
    };
    assert_eq!((k.as_slice()[0].gain, k.as_slice()[0].opp_gain), (4, 0));
    // South to move sows 5 from his pit 4: seeds into 5, then North's 0, 1, 2 (South's, held
    // 3: the fourth seed passing makes four for South), 3.
    let b = Board::from_pits(&[0, 0, 0, 0, 5, 0, 0, 0, 3, 0, 0, 4]);
    let Node::Moves(k) = rules.node(b) else {
        panic!()
    };
    let c = k.iter().find(|c| c.pit == 4).unwrap();
    assert_eq!((c.gain, c.opp_gain), (4, 0));
    assert_eq!(
        absolute(c.board, 6),
        vec![0, 0, 0, 0, 0, 1, 1, 1, 0, 1, 0, 4]
    );
}

/// A game of the packed engine with North to move starts from the flagged board.
#[test]
fn positions_say_who_moves() {
    let rules = round_rules(6, "ssssssnnsnnn");
    let start = rules.start();
    let g = Game::from_position(rules.clone(), start, Side::North);
    assert!(g.board().north());
    assert_eq!(g.legal(), vec![0, 1, 3, 4, 5]);
    let text = "4 4 4 4 4 4 4 4 4 4 4 4 north";
    assert_eq!(
        mancala_rules::parse_position(&rules, text).unwrap(),
        start.with_north(true)
    );
    // Only a sided game takes a side.
    let plain = Rules::new(Variant::preset(Preset::NamNam));
    assert!(mancala_rules::parse_position(&plain, text).is_err());
    assert!(Variant::parse_owners(6, "ssssssnnsnn").is_err());
    assert!(Variant::parse_owners(6, "ssssssnnxnnn").is_err());
    let all = Options {
        owners: Some(0xfff),
        ..Options::default()
    };
    assert!(Variant::new(Preset::NamNam, all).is_err());
    let awari = Options {
        owners: Some(1),
        ..Options::default()
    };
    assert!(Variant::new(Preset::Awari, awari).is_err());
}

/// Whole games over their rounds, moves chosen at random: every round shares out all the
/// seeds, the winner of a round owns one pit for each pit's worth of seeds he took, the
/// starter alternates, and the game ends only when one player holds every seed (or after the
/// round limit). On 6 pits a side with 4 seeds a pit, and on 8 pits, where North's flag
/// shares a byte with North's last pit in the later rounds.
#[test]
fn matches_follow_the_round_rules() {
    let mut rng = Rng(12345);
    for (pits, seeds, games) in [(6u32, 4u32, 40), (8, 1, 40), (8, 2, 20)] {
        let total = 2 * pits * seeds;
        let mut finished = 0;
        let mut later_rounds = 0;
        for _ in 0..games {
            let mut g = NamNamMatch::new(Some(pits), Some(seeds)).unwrap();
            let mut rounds_seen = 0;
            while !matches!(g.phase(), Phase::Over { .. }) {
                let legal = g.legal();
                assert!(!legal.is_empty());
                let mv = legal[(rng.next() % legal.len() as u64) as usize].clone();
                let round = g.round();
                g.play(&mv).unwrap();
                let new_round = g.round() != round;
                if g.round() > 1 && g.phase() == Phase::Playing {
                    later_rounds += 1;
                    // Every pit the game shows holds at most the seeds of the game.
                    let shown: u32 = g.game().absolute_pits().iter().map(|&x| x as u32).sum();
                    assert!(shown <= total, "{pits}x{seeds}: {shown} seeds shown");
                }
                if g.results().len() > rounds_seen {
                    rounds_seen = g.results().len();
                    let r = g.results().last().unwrap();
                    assert_eq!(r.captured[0] + r.captured[1], total, "{r:?}");
                    if let Phase::Claiming { winner, left } = g.phase() {
                        let w = r.captured[winner as usize];
                        assert!(w > total / 2);
                        assert_eq!(left, w / seeds - pits, "{r:?}");
                    }
                }
                if g.phase() == Phase::Playing && new_round {
                    // The owners of the round in play: the last winner owns w / seeds pits.
                    if let Some(r) = g.results().last().filter(|r| r.round + 1 == g.round()) {
                        let south = g.owners_text().chars().filter(|&c| c == 's').count() as u32;
                        let expect = match r.captured[0].cmp(&r.captured[1]) {
                            std::cmp::Ordering::Greater => r.captured[0] / seeds,
                            std::cmp::Ordering::Less => 2 * pits - r.captured[1] / seeds,
                            std::cmp::Ordering::Equal => {
                                r.owners.chars().filter(|&c| c == 's').count() as u32
                            }
                        };
                        assert_eq!(south, expect, "{r:?} -> {}", g.owners_text());
                        assert_ne!(g.game().to_move(), r.starter, "the starter alternates");
                    }
                }
            }
            let last = g.results().last().unwrap();
            match g.phase() {
                Phase::Over { winner: Some(w) } => {
                    assert_eq!(last.captured[w as usize], total);
                    finished += 1;
                }
                Phase::Over { winner: None } => {
                    assert_eq!(last.round, mancala_rules::MAX_ROUNDS)
                }
                _ => unreachable!(),
            }
            assert!(g.play("0").is_err());
        }
        assert!(finished > 0, "{pits}x{seeds}");
        assert!(later_rounds > 0, "{pits}x{seeds}: later rounds were played");
    }
}

/// The claim moves: the winner takes pits of the loser's row by name, only untaken ones.
#[test]
fn the_winner_claims_pits_by_name() {
    let mut rng = Rng(777);
    // Play random rounds until some round is won by more than 28 seeds (a claim follows).
    for _ in 0..200 {
        let mut g = NamNamMatch::new(None, None).unwrap();
        while g.phase() == Phase::Playing {
            let legal = g.legal();
            let mv = legal[(rng.next() % legal.len() as u64) as usize].clone();
            g.play(&mv).unwrap();
        }
        let Phase::Claiming { winner, left } = g.phase() else {
            continue;
        };
        assert_eq!(g.legal(), vec!["t0", "t1", "t2", "t3", "t4", "t5"]);
        assert!(g.play("0").is_err() && g.play("t6").is_err());
        g.play("t3").unwrap();
        let owners = g.owners_text();
        // South's pit 3 is ring pit 3; North's pit 3 is ring pit 9.
        let taken = match winner {
            Side::South => owners.as_bytes()[9] == b's',
            Side::North => owners.as_bytes()[3] == b'n',
        };
        assert!(taken, "{owners}");
        if left > 1 {
            assert!(!g.legal().contains(&"t3".to_string()));
        } else {
            assert_eq!(g.phase(), Phase::Playing);
            assert_eq!(g.round(), g.results().len() as u32 + 1);
        }
        return;
    }
    panic!("no round was won by enough to claim a pit");
}

/// Perft of a round where South owns North's pit 2, by the packed engine and by the plain
/// simulator (a pass counts as a move), pinned.
#[test]
fn perft_of_a_round_with_a_pit_won_across() {
    fn packed_perft(rules: &Rules, b: Board, depth: u32) -> u64 {
        match rules.node(b) {
            Node::Terminal { .. } => 0,
            Node::Moves(k) if depth == 1 => k.len() as u64,
            Node::Moves(k) => k
                .iter()
                .filter(|c| c.next != Next::Over)
                .map(|c| packed_perft(rules, c.board, depth - 1))
                .sum(),
        }
    }
    fn plain_perft(p: &Plain, pits: &[u32], who: usize, depth: u32) -> u64 {
        let moves = p.moves(pits, who);
        if moves.is_empty() {
            if p.moves(pits, 1 - who).is_empty() || pits.iter().all(|&x| x == 0) {
                return 0;
            }
            return if depth == 1 {
                1
            } else {
                plain_perft(p, pits, 1 - who, depth - 1)
            };
        }
        if depth == 1 {
            return moves.len() as u64;
        }
        moves
            .iter()
            .filter(|(_, s)| !s.over)
            .map(|(_, s)| plain_perft(p, &s.pits, 1 - who, depth - 1))
            .sum()
    }
    let owners = "ssssssnnsnnn";
    let rules = round_rules(6, owners);
    let plain = Plain {
        m: 6,
        south_owns: owners.chars().map(|c| c == 's').collect(),
    };
    let start = vec![4u32; 12];
    let mut got = Vec::new();
    for depth in 1..=5 {
        let a = packed_perft(&rules, rules.start(), depth);
        assert_eq!(a, plain_perft(&plain, &start, 0, depth), "depth {depth}");
        let b = packed_perft(&rules, rules.start().with_north(true), depth);
        assert_eq!(
            b,
            plain_perft(&plain, &start, 1, depth),
            "north, depth {depth}"
        );
        got.push((a, b));
    }
    assert_eq!(got, PINNED);
}

/// `perft_of_a_round_with_a_pit_won_across`: (South to move, North to move) at depths 1..=5.
const PINNED: [(u64, u64); 5] = [(7, 5), (32, 32), (165, 119), (639, 659), (3526, 2593)];
