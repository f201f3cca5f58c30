#![allow(dead_code)]
//! A deliberately slow, obviously correct game-value solver, used as the oracle that the fast
//! retrograde table builder is checked against. Std and `mancala_rules` only; no index crate,
//! no predecessor generation, no counters.
//!
//! # What is computed
//!
//! The table value of docs/rules.md (Conventions): the net future gain of the side
//! to move under perfect play. A move that gains `g` and passes the turn to a child of value `v`
//! is worth `g - v`; one that keeps the turn (`Next::Mover`) is worth `g + v`; one that ends the
//! game (`Next::Over`) is worth `gain - opp_gain`; [`Child::value`] encodes exactly this. A
//! terminal position (`Node::Terminal { mover, opp }`) is worth `mover - opp`. Infinite play (a
//! cycle of positions that neither side leaves) is worth 0.
//!
//! # Tiers
//!
//! Tier `n` is the set of boards with `n` seeds in the pits: every composition of `n` into `2m`
//! pits, enumerated directly here. A move either
//! * is *quiet*: `gain == 0`, `opp_gain == 0`, `next == Next::Opponent`; its child has the same
//!   total, i.e. it stays in tier `n`, and it is worth `-v(child)`; or
//! * *exits*: it banks seeds, so its child is in a lower tier (or the game is over). Its value
//!   `Child::value(v(child))` is then known exactly once the lower tiers are solved.
//!
//! Both facts are asserted for every move (together with seed conservation). Tiers are therefore
//! solved from 0 upwards and a tier only ever waits on itself.
//!
//! # Solving one tier: threshold attractors
//!
//! Inside tier `n` only quiet moves are free, and they bank nothing, so a play that stays in the
//! tier forever has net gain 0, and a play that leaves it through an exit move at position `q`
//! has net gain (for the side to move at the start) `±e`, where `e` is the exit value for the
//! side to move at `q`. Terminal positions of the tier are treated like exits with a fixed value.
//!
//! Fix two players, Max and Min, and look at the game on states (board, who moves). For a
//! threshold `s >= 1`, Max's objective "the net gain for Max is at least `s`" is a pure
//! *reachability* objective: infinite play gives 0 < s, so Max must actually reach an exit (or a
//! terminal) worth at least `s` to him. Define
//! * `A_s` = boards where Max, *being the side to move*, can force net gain `>= s`;
//! * `B_s` = boards where Max, *the side NOT to move* (Min moves), can force net gain `>= s`.
//!
//! The classic attractor characterisation of a turn-based reachability game says that the pair
//! `(A_s, B_s)` is the *least* fixpoint of the monotone operator
//! * `p ∈ A_s` iff `p` is terminal with value `>= s`, or SOME move of `p` either exits with value
//!   `>= s` or is quiet into a child `c ∈ B_s` (Min to move at `c`);
//! * `p ∈ B_s` iff `p` is terminal with value `<= -s` (the side to move at `p`, Min, nets
//!   `<= -s`), or `p` is non-terminal and EVERY move of `p` either exits with value `<= -s` (for
//!   Min, the mover) or is quiet into a child `c ∈ A_s` (Max to move at `c`).
//!
//! (Least fixpoint = the states from which Max can force reaching the target in finitely many
//! steps. By induction on the round in which a state enters, Max has a strategy that gets there.
//! Conversely, outside the least fixpoint every Max move exits below `s` or stays outside, and
//! at every Min state outside it Min has a move that exits below `s` (for Max) or stays outside;
//! so Min can keep the play outside forever (net 0 < s) or let it end below `s`.)
//! Since positions are mover-relative and the rules are the same for both sides, `A_s` and `B_s`
//! are sets of boards: whether Max or Min is the mover only decides which set a board is in.
//!
//! Reachability games are determined, so for every `s >= 1`:
//! * `v(p) >= s` iff `p ∈ A_s` (the side to move can force `>= s`);
//! * `v(p) <= -s` iff `p ∈ B_s` (the opponent can force the mover's net to be `<= -s`).
//!
//! Hence `v(p) = max { s : p ∈ A_s }` if `p ∈ A_1`, `-max { s : p ∈ B_s }` if `p ∈ B_1`, and 0
//! otherwise (neither side can force a positive net: both can hold the other to `<= 0`; this is
//! where "infinite play is worth 0" enters). Values lie in `-n..=n`, so `s` runs over `1..=n`.
//!
//! # Computing a least fixpoint
//!
//! Start from `A = B = ∅` (plus the terminal positions, whose membership is fixed), then sweep
//! the whole tier again and again, adding any board whose condition holds given the current
//! sets, until a whole sweep adds nothing. Sets are updated in place during a sweep. This gives
//! exactly the least fixpoint `μ`: (1) the sets only grow and stay inside `μ`, because the
//! operator `F` is monotone — if `X ⊆ μ` then `F(X) ⊆ F(μ) = μ`; (2) when a sweep adds nothing,
//! `F(X) ⊆ X`, and every element of `X` was added because it was in `F(Y)` for some `Y ⊆ X`, so
//! `X ⊆ F(X)`; thus `X` is a fixpoint inside `μ`, i.e. `X = μ`. It terminates because the tier is
//! finite and each sweep that does not stop adds at least one board.
//!
//! As a last safety net every tier is checked against the Bellman equation
//! `v(p) = max over moves of Child::value(v(child))` (true values satisfy it; it does not by
//! itself pin them down when there are cycles, which is why it is only a check).

use mancala_rules::{Board, Next, Node, Rules};
use std::collections::HashMap;

/// One move of a position of the tier being solved.
#[derive(Clone, Copy, Debug)]
enum Move {
    /// Leaves the tier (banks seeds or ends the game): its exact value for the mover.
    Exit(i32),
    /// Quiet move into the tier position with this index; worth `-v(child)`.
    Quiet(usize),
}

/// A position of the tier being solved.
#[derive(Clone, Debug)]
enum Pos {
    Terminal(i32),
    Moves(Vec<Move>),
}

/// Every composition of `n` seeds into `pits` pits, as boards.
fn compositions(pits: usize, n: usize) -> Vec<Board> {
    fn rec(pits: usize, i: usize, left: usize, cur: &mut Vec<u8>, out: &mut Vec<Board>) {
        if i + 1 == pits {
            cur[i] = left as u8;
            out.push(Board::from_pits(cur));
            return;
        }
        for k in 0..=left {
            cur[i] = k as u8;
            rec(pits, i + 1, left - k, cur, out);
        }
        cur[i] = 0;
    }
    let mut out = Vec::new();
    let mut cur = vec![0u8; pits];
    rec(pits, 0, n, &mut cur, &mut out);
    out
}

/// Binomial coefficient, to check the enumeration's size.
fn binomial(n: u64, k: u64) -> u64 {
    let mut r = 1u64;
    for i in 0..k {
        r = r * (n - i) / (i + 1);
    }
    r
}

/// Values of every position reachable from the positions with total <= max_seeds, keyed by board.
///
/// That is every board whose pits hold at most `max_seeds` seeds in all (the children of such
/// boards have at most as many seeds), including terminal ones and the empty board.
pub fn slow_values(rules: &Rules, max_seeds: usize) -> HashMap<Board, i32> {
    assert!(
        max_seeds <= rules.max_seeds(),
        "max_seeds {max_seeds} exceeds the {} seeds of this game",
        rules.max_seeds()
    );
    let pits = 2 * rules.pits();
    let mut values: HashMap<Board, i32> = HashMap::new();
    for n in 0..=max_seeds {
        let mut tier = compositions(pits, n);
        assert_eq!(
            tier.len() as u64,
            binomial((n + pits - 1) as u64, (pits - 1) as u64),
            "tier {n} enumeration"
        );
        // Where the players own different pits, each board is two positions: South or
        // North to move.
        if rules.sided() {
            let north: Vec<Board> = tier.iter().map(|b| b.with_north(true)).collect();
            tier.extend(north);
        }
        let tier_values = solve_tier(rules, n, &tier, &values);
        for (b, v) in tier.iter().zip(tier_values) {
            assert!(
                values.insert(*b, v).is_none(),
                "board {b:?} enumerated twice"
            );
        }
    }
    values
}

/// The exact values of tier `n` (boards `tier`), given the final values of every lower tier.
fn solve_tier(rules: &Rules, n: usize, tier: &[Board], lower: &HashMap<Board, i32>) -> Vec<i32> {
    let index: HashMap<Board, usize> = tier.iter().enumerate().map(|(i, b)| (*b, i)).collect();
    let ni = n as i32;
    // Some sowing-family games end with seeds that count for nobody (ayo-ayo, Mankala's
    // rule 4); everywhere else every seed goes to someone.
    let conserved = rules.variant().family() != mancala_rules::Family::Sowing;

    // The move graph of the tier, with every exit valued from the lower tiers.
    let positions: Vec<Pos> = tier
        .iter()
        .map(|&b| {
            assert_eq!(b.total() as usize, n);
            match rules.node(b) {
                Node::Terminal { mover, opp } => {
                    let shared = mover as usize + opp as usize;
                    assert!(shared == n || !conserved && shared < n, "terminal of {b:?}");
                    Pos::Terminal(mover as i32 - opp as i32)
                }
                Node::Moves(kids) => {
                    assert!(!kids.is_empty(), "non-terminal {b:?} without moves");
                    let moves = kids
                        .iter()
                        .map(|c| {
                            let left = c.board.total() as usize;
                            let accounted = left + c.gain as usize + c.opp_gain as usize;
                            assert!(
                                accounted == n
                                    || !conserved && c.next == Next::Over && accounted < n,
                                "seeds not conserved by move {} of {b:?}",
                                c.pit
                            );
                            let quiet = c.gain == 0 && c.opp_gain == 0 && c.next == Next::Opponent;
                            if quiet {
                                assert_eq!(left, n);
                                Move::Quiet(index[&c.board])
                            } else {
                                assert!(left < n, "move {} of {b:?} banks and stays", c.pit);
                                if c.next == Next::Over {
                                    assert_eq!(c.board, Board::EMPTY);
                                }
                                let cv = if c.next == Next::Over {
                                    0
                                } else {
                                    lower[&c.board]
                                };
                                let e = c.value(cv);
                                assert!(-ni <= e && e <= ni, "exit value {e} out of range");
                                Move::Exit(e)
                            }
                        })
                        .collect();
                    Pos::Moves(moves)
                }
            }
        })
        .collect();

    // a[s][p]: p ∈ A_s; b[s][p]: p ∈ B_s (index 0 unused).
    let mut a_sets: Vec<Vec<bool>> = vec![Vec::new()];
    let mut b_sets: Vec<Vec<bool>> = vec![Vec::new()];
    for s in 1..=ni {
        let (a, b) = attractors(&positions, s);
        a_sets.push(a);
        b_sets.push(b);
    }

    let values: Vec<i32> = (0..tier.len())
        .map(|p| {
            let up = (1..=ni).filter(|&s| a_sets[s as usize][p]).max();
            let down = (1..=ni).filter(|&s| b_sets[s as usize][p]).max();
            // The sets are nested (A_{s+1} ⊆ A_s) and A_1, B_1 are disjoint.
            for s in 1..ni {
                assert!(!a_sets[s as usize + 1][p] || a_sets[s as usize][p]);
                assert!(!b_sets[s as usize + 1][p] || b_sets[s as usize][p]);
            }
            match (up, down) {
                (Some(_), Some(_)) => panic!("{:?} is both >= 1 and <= -1", tier[p]),
                (Some(s), None) => s,
                (None, Some(s)) => -s,
                (None, None) => 0,
            }
        })
        .collect();

    // Safety net: the Bellman equation holds for the result.
    for (p, pos) in positions.iter().enumerate() {
        let want = match pos {
            Pos::Terminal(t) => *t,
            Pos::Moves(moves) => moves
                .iter()
                .map(|mv| match *mv {
                    Move::Exit(e) => e,
                    Move::Quiet(c) => -values[c],
                })
                .max()
                .expect("non-empty"),
        };
        assert_eq!(values[p], want, "Bellman equation fails at {:?}", tier[p]);
    }
    values
}

/// The least fixpoint `(A_s, B_s)` for threshold `s >= 1`, by plain repeated sweeps.
fn attractors(positions: &[Pos], s: i32) -> (Vec<bool>, Vec<bool>) {
    let len = positions.len();
    let mut a = vec![false; len];
    let mut b = vec![false; len];
    for (p, pos) in positions.iter().enumerate() {
        if let Pos::Terminal(t) = *pos {
            a[p] = t >= s;
            b[p] = t <= -s;
        }
    }
    loop {
        let mut changed = false;
        for (p, pos) in positions.iter().enumerate() {
            let Pos::Moves(moves) = pos else { continue };
            if !a[p] {
                // Some move gets the mover at least s.
                let ok = moves.iter().any(|mv| match *mv {
                    Move::Exit(e) => e >= s,
                    Move::Quiet(c) => b[c],
                });
                if ok {
                    a[p] = true;
                    changed = true;
                }
            }
            if !b[p] {
                // Every move leaves the mover at most -s.
                let ok = moves.iter().all(|mv| match *mv {
                    Move::Exit(e) => e <= -s,
                    Move::Quiet(c) => a[c],
                });
                if ok {
                    b[p] = true;
                    changed = true;
                }
            }
        }
        if !changed {
            return (a, b);
        }
    }
}
