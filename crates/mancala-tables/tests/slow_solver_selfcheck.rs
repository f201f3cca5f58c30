//! Checks of the slow reference solver itself: values derived by hand, closed forms for one-pit
//! boards, an independent exhaustive game-tree search on tiny boards, and the Bellman equation.

mod slow_solver;

use mancala_rules::{Board, Next, Node, Options, Preset, Rules, Variant};
use slow_solver::slow_values;
use std::collections::HashMap;

fn rules(preset: Preset, pits: u32, seeds: u32) -> Rules {
    let opts = Options {
        pits: Some(pits),
        seeds: Some(seeds),
        ..Options::default()
    };
    Rules::new(Variant::new(preset, opts).expect("valid variant"))
}

fn b(pits: &[u8]) -> Board {
    Board::from_pits(pits)
}

fn binomial(n: u64, k: u64) -> u64 {
    (0..k).fold(1, |r, i| r * (n - i) / (i + 1))
}

/// Every board with at most `max` seeds, and only those, is in the map.
fn check_domain(values: &HashMap<Board, i32>, pits: usize, max: usize) {
    // Boards of 2m pits with at most `max` seeds: C(max + 2m, 2m).
    let want = binomial((max + pits) as u64, pits as u64);
    assert_eq!(values.len() as u64, want);
    for (board, v) in values {
        let n = board.total() as i32;
        assert!(n as usize <= max);
        assert!((-n..=n).contains(v), "{board:?} has value {v}");
        if pits < 16 {
            assert_eq!(board.0 >> (8 * pits), 0);
        }
    }
}

/// The value of every position is the best of its moves' values (the Bellman equation).
fn check_bellman(r: &Rules, values: &HashMap<Board, i32>) {
    for (&board, &v) in values {
        let want = match r.node(board) {
            Node::Terminal { mover, opp } => mover as i32 - opp as i32,
            Node::Moves(kids) => kids
                .iter()
                .map(|c| {
                    let cv = if c.next == Next::Over {
                        0
                    } else {
                        values[&c.board]
                    };
                    c.value(cv)
                })
                .max()
                .expect("a position with moves has a move"),
        };
        assert_eq!(v, want, "Bellman equation fails at {board:?}");
    }
}

#[test]
fn tier_zero_is_the_empty_board_worth_zero() {
    for preset in Preset::ALL {
        let (p, s) = preset.default_size();
        let r = rules(preset, p as u32, s as u32);
        let v = slow_values(&r, 0);
        assert_eq!(v.len(), 1, "{preset}");
        assert_eq!(v[&Board::EMPTY], 0, "{preset}");
    }
}

/// Awari with one pit a side, hand-derived. `[0, b]`: the mover has no seeds, the opponent takes
/// `b`: worth `-b`. `[a, b]`, `a >= 1`: the only move sows all `a` seeds into the opponent's pit
/// (the origin is skipped), which then holds `a + b`. If that is 2 or 3 it is captured (a grand
/// slam, legal in awari because the only move starves): worth `a + b`. Otherwise the opponent
/// faces `[a + b, 0]`, from which the same thing happens, forever unless the pit holds 2 or 3:
/// `[c, 0]` is worth `c` for `c` in {2, 3} and is a one-position cycle worth 0 otherwise; so
/// `[a, b]` is worth `-0 = 0`.
#[test]
fn awari_one_pit_closed_form() {
    let r = rules(Preset::Awari, 1, 8);
    let v = slow_values(&r, 16);
    check_domain(&v, 2, 16);
    for a in 0..=16u8 {
        for bb in 0..=16 - a {
            let s = (a + bb) as i32;
            let want = if a == 0 {
                -(bb as i32)
            } else if s == 2 || s == 3 {
                s
            } else {
                0
            };
            assert_eq!(v[&b(&[a, bb])], want, "awari [{a}, {bb}]");
        }
    }
    // The self-loop [1, 0] -> [1, 0] is infinite play.
    assert_eq!(v[&b(&[1, 0])], 0);
}

/// Oware and wari with one pit a side: every capture would be a grand slam, which captures
/// nothing, so `[a, b]` with `a >= 1` only ever cycles: worth 0. `[0, b]` is worth `-b`.
#[test]
fn oware_and_wari_one_pit_closed_form() {
    for preset in [Preset::Oware, Preset::Wari] {
        let r = rules(preset, 1, 8);
        let v = slow_values(&r, 16);
        check_domain(&v, 2, 16);
        for a in 0..=16u8 {
            for bb in 0..=16 - a {
                let want = if a == 0 { -(bb as i32) } else { 0 };
                assert_eq!(v[&b(&[a, bb])], want, "{preset} [{a}, {bb}]");
            }
        }
    }
}

/// Kalah with one pit a side, written from docs/rules.md (kalah and mancala) without
/// `mancala_rules`. The sowing cycle from the only pit is: store, opponent's pit, own pit.
/// Seed `k` (1-based) of a sowing goes to the store if `k % 3 == 1`, the opponent if
/// `k % 3 == 2`, the own pit if `k % 3 == 0`. Every move stores its first seed, so there are no cycles and plain recursion
/// is exact.
fn kalah_one_pit(a: u32, bb: u32) -> i32 {
    if a == 0 || bb == 0 {
        // A side is empty: each player takes his own row.
        return a as i32 - bb as i32;
    }
    let stored = a.div_ceil(3);
    let to_opp = (a + 1) / 3;
    let own = a / 3;
    let opp = bb + to_opp;
    match a % 3 {
        // Last seed in the store: move again (or the game ends if the own row is empty).
        1 => {
            if own == 0 {
                stored as i32 - opp as i32
            } else {
                stored as i32 + kalah_one_pit(own, opp)
            }
        }
        // Last seed in the opponent's pit.
        2 => {
            if own == 0 {
                stored as i32 - opp as i32
            } else {
                stored as i32 - kalah_one_pit(opp, own)
            }
        }
        // Last seed in the own pit: a capture if it was empty (a == 3; the opposite pit holds
        // bb + 1 > 0), which empties the board.
        _ => {
            if own == 1 {
                (stored + 1 + opp) as i32
            } else {
                stored as i32 - kalah_one_pit(opp, own)
            }
        }
    }
}

#[test]
fn kalah_one_pit_closed_form() {
    // Hand-computed: [3, 1]: store, opponent, own pit (empty, now 1) captures the 2 opposite:
    // all 4 seeds. [4, 1]: store, opponent, own, store: 2 stored, move again in [1, 2], which
    // stores 1 and ends the game with the opponent taking 2: 2 + (1 - 2) = 1.
    assert_eq!(kalah_one_pit(3, 1), 4);
    assert_eq!(kalah_one_pit(4, 1), 1);
    assert_eq!(kalah_one_pit(1, 5), -4);
    assert_eq!(kalah_one_pit(2, 5), -5);
    let r = rules(Preset::Kalah, 1, 10);
    let v = slow_values(&r, 20);
    check_domain(&v, 2, 20);
    for a in 0..=20u8 {
        for bb in 0..=20 - a {
            let want = kalah_one_pit(a as u32, bb as u32);
            assert_eq!(v[&b(&[a, bb])], want, "kalah [{a}, {bb}]");
        }
    }
}

/// Six-pit positions computed by hand.
#[test]
fn six_pit_hand_positions() {
    // Awari: the only move sows into the opponent's only seed, making 2: a grand slam, legal
    // because every move starves; worth 2. Oware: the slam captures nothing; the opponent, with
    // 2 seeds and an empty mover facing him, cannot feed, so he takes his 2: worth -2.
    let slam = b(&[0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0]);
    // One seed against an empty row: the move cannot feed. Awari: it is legal (forced), and the
    // opponent, without seeds, loses the 1 seed: worth 1. Oware: no move feeds, the mover takes
    // his own row: also 1.
    let lone = b(&[1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
    // The only move feeds the opponent 1 seed, who then faces `lone` seen from his side: -1.
    let feed = b(&[0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0]);
    let awari = slow_values(&rules(Preset::Awari, 6, 4), 3);
    let oware = slow_values(&rules(Preset::Oware, 6, 4), 3);
    let wari = slow_values(&rules(Preset::Wari, 6, 4), 3);
    check_domain(&awari, 12, 3);
    assert_eq!(awari[&slam], 2);
    assert_eq!(oware[&slam], -2);
    assert_eq!(wari[&slam], -2);
    for v in [&awari, &oware, &wari] {
        assert_eq!(v[&lone], 1);
        assert_eq!(v[&feed], -1);
    }

    // Kalah 6x4, mover [0 0 0 0 1 1], opponent [1 0 0 0 0 0] (the opponent's first pit faces
    // the mover's last). Pit 5 stores its seed and moves again; pit 4 then lands in the empty
    // pit 5 and captures the opposite seed: 1 + 2 = all 3 seeds. (Pit 4 first is worse: -1.)
    let k = slow_values(&rules(Preset::Kalah, 6, 4), 3);
    check_domain(&k, 12, 3);
    assert_eq!(k[&b(&[0, 0, 0, 0, 1, 1, 1, 0, 0, 0, 0, 0])], 3);
    assert_eq!(k[&b(&[0, 0, 0, 0, 1, 0, 1, 0, 0, 0, 0, 0])], 2);
    // Mover [0 0 0 0 0 2] against [0 1 0 0 0 0]: store 1, the second seed feeds the opponent and
    // the mover's row is empty: the opponent takes his 2: 1 - 2 = -1.
    assert_eq!(k[&b(&[0, 0, 0, 0, 0, 2, 0, 1, 0, 0, 0, 0])], -1);
    // The opponent's only move leads there (no capture: the pit opposite is empty): worth 1.
    assert_eq!(k[&b(&[1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2])], 1);
}

#[test]
fn bellman_equation_awari_and_kalah_6x4_up_to_6_seeds() {
    for preset in [Preset::Awari, Preset::Kalah] {
        let r = rules(preset, 6, 4);
        let v = slow_values(&r, 6);
        check_domain(&v, 12, 6);
        check_bellman(&r, &v);
    }
}

/// An independent solver: exhaustive game-tree search in which the game ends, worth 0 from there
/// on, as soon as a state (board, side to move) repeats on the current line. Both players have
/// optimal positional strategies in the infinite game (attractor strategies for a positive
/// threshold, which never revisit a state, and "stay out of the opponent's attractor" otherwise,
/// for which a repetition is worth 0 >= the threshold), so this "first cycle" game has the same
/// value. Exponential: tiny boards only.
fn first_cycle(r: &Rules, board: Board, parity: bool, line: &mut Vec<(Board, bool)>) -> i32 {
    match r.node(board) {
        Node::Terminal { mover, opp } => mover as i32 - opp as i32,
        Node::Moves(kids) => {
            line.push((board, parity));
            let mut best = i32::MIN;
            for c in kids.iter() {
                let cv = match c.next {
                    Next::Over => 0,
                    Next::Mover | Next::Opponent => {
                        let p = if c.next == Next::Mover {
                            parity
                        } else {
                            !parity
                        };
                        if line.contains(&(c.board, p)) {
                            0
                        } else {
                            first_cycle(r, c.board, p, line)
                        }
                    }
                };
                best = best.max(c.value(cv));
            }
            line.pop();
            best
        }
    }
}

#[test]
fn agrees_with_first_cycle_search_on_tiny_boards() {
    // Sizes keep the exponential search to about a second in all (awari 3 pits 4 seeds alone
    // takes a minute: the lines through its cycles are long).
    let cases = [
        (Preset::Awari, 2, 7),
        (Preset::Oware, 2, 6),
        (Preset::Wari, 2, 6),
        (Preset::Awari, 3, 3),
        (Preset::Wari, 3, 3),
        (Preset::Awari, 4, 3),
        (Preset::Oware, 4, 3),
        (Preset::Kalah, 2, 10),
        (Preset::Kalah, 3, 8),
        (Preset::Kalah, 4, 6),
        (Preset::Kalah, 6, 4),
    ];
    for (preset, pits, max) in cases {
        let r = rules(preset, pits, 4);
        let v = slow_values(&r, max);
        check_domain(&v, 2 * pits as usize, max);
        for (&board, &value) in &v {
            let mut line = Vec::new();
            let want = first_cycle(&r, board, false, &mut line);
            assert_eq!(value, want, "{preset} {pits} pits {board:?}");
        }
    }
}
