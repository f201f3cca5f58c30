//! Un-sowing ([`Rules::predecessors`]) is the exact inverse of sowing.
//!
//! What this file proves, on EVERY board of small tiers (all compositions of `n` seeds into `2m`
//! pits, reachable or not), for every rule set (awari, oware, wari with each grand-slam
//! treatment, kalah, kalah with empty capture) and several board sizes:
//!
//! * (a) soundness: every `q` in `predecessors(p)` has a legal move (in `node(q)`) that passes
//!   the turn (`Next::Opponent`), banks nothing (`gain == 0`, `opp_gain == 0`) and leads to
//!   exactly `p`;
//! * (b) completeness: for every board `q` and every such quiet child `p` of `q`, `q` is in
//!   `predecessors(p)`;
//! * (c) the output has no duplicates.
//!
//! Retrograde analysis relies on all three: a missing predecessor leaves a position unsolved or
//! wrong, an extra or duplicated one miscounts the children left to resolve.

mod common;

use common::{boards, rules, GRAND_SLAMS};
use mancala_rules::{Board, Family, Next, Node, Preset, Rules};
use std::collections::HashSet;

/// Every rule set, at `pits` pits a side and `seeds` seeds a pit (Kalah only up to 6 pits).
fn rule_sets(pits: u32, seeds: u32) -> Vec<Rules> {
    let size = (pits, seeds);
    let mut v = vec![
        rules(Preset::Awari, size, false, None),
        rules(Preset::Oware, size, false, None),
    ];
    v.extend(GRAND_SLAMS.map(|gs| rules(Preset::Wari, size, false, Some(gs))));
    if pits <= 6 {
        v.push(rules(Preset::Kalah, size, false, None));
        v.push(rules(Preset::Kalah, size, true, None));
    }
    v
}

/// The quiet children of `q`: legal moves that bank nothing and pass the turn.
fn quiet_children(r: &Rules, q: Board) -> Vec<Board> {
    match r.node(q) {
        Node::Terminal { .. } => Vec::new(),
        Node::Moves(kids) => kids
            .iter()
            .filter(|c| c.next == Next::Opponent && c.gain == 0 && c.opp_gain == 0)
            .map(|c| c.board)
            .collect(),
    }
}

/// Checks (a), (b) and (c) on every board of tier `n`; returns (boards, predecessors found).
fn check_tier(r: &Rules, n: usize) -> (usize, usize) {
    let m = r.pits();
    let key = r.variant().key();
    let mut out = Vec::new();
    let mut found = 0;
    let tier = boards(m, n);
    for &p in &tier {
        // (a) and (c).
        r.predecessors(p, &mut out);
        let distinct: HashSet<Board> = out.iter().copied().collect();
        assert_eq!(
            distinct.len(),
            out.len(),
            "{key}: duplicates for {p:?}: {out:?}"
        );
        for &q in &out {
            assert_eq!(
                q.total(),
                p.total(),
                "{key}: {q:?} -> {p:?} changes the tier"
            );
            assert!(
                quiet_children(r, q).contains(&p),
                "{key}: {q:?} is returned as a predecessor of {p:?} but has no quiet move to it"
            );
        }
        found += out.len();
        // (b): every quiet child of p (as a q) finds p among its predecessors.
        for child in quiet_children(r, p) {
            r.predecessors(child, &mut out);
            assert!(
                out.contains(&p),
                "{key}: {p:?} has a quiet move to {child:?} but is not among its predecessors {out:?}"
            );
        }
    }
    (tier.len(), found)
}

/// Runs every rule set of one size over tiers `0..=max_n`.
fn check_size(pits: u32, seeds: u32, max_n: usize) {
    for r in rule_sets(pits, seeds) {
        assert!(max_n <= r.max_seeds());
        let mut total_found = 0;
        for n in 0..=max_n {
            let (_, found) = check_tier(&r, n);
            total_found += found;
        }
        // The check is not vacuous: quiet moves exist in these tiers, except in 1-pit Kalah
        // where every sowing starts with the own store.
        if pits == 1 && r.variant().family() == Family::Kalah {
            assert_eq!(total_found, 0, "{}", r.variant().key());
        } else {
            assert!(total_found > 0, "{}: no predecessors", r.variant().key());
        }
    }
}

#[test]
fn unsow_inverts_sow_1_pit() {
    // Laps of up to 10 seeds round a 2-pit cycle.
    check_size(1, 5, 10);
}

#[test]
fn unsow_inverts_sow_2_pits() {
    check_size(2, 3, 10);
}

#[test]
fn unsow_inverts_sow_3_pits() {
    check_size(3, 2, 10);
}

#[test]
fn unsow_inverts_sow_4_pits() {
    check_size(4, 2, 10);
}

#[test]
fn unsow_inverts_sow_5_pits() {
    check_size(5, 2, 8);
}

#[test]
fn unsow_inverts_sow_6_pits() {
    check_size(6, 4, 8);
}

#[test]
fn unsow_inverts_sow_8_pits() {
    // Awari-type only (Kalah takes at most 6 pits).
    check_size(8, 1, 6);
}

/// Big sowings (laps) on the full-size boards: one heavy pit plus a few sparse seeds, for every
/// tier the standard game can hold. Boards here are not all compositions, but the laps of 11,
/// 12, 13, 22, 23 ... seeds are only reachable with such piles.
#[test]
fn unsow_inverts_big_sowings_on_6_pits() {
    for r in rule_sets(6, 4) {
        let key = r.variant().key();
        let m = r.pits();
        let mut out = Vec::new();
        for k in 1..=r.max_seeds().min(40) {
            for o in 0..m {
                for extra in 0..2 * m {
                    let mut pits = vec![0u8; 2 * m];
                    pits[o] = k as u8;
                    pits[extra] += 1;
                    pits[(extra + 7) % (2 * m)] += 1;
                    let q = Board::from_pits(&pits);
                    if q.total() as usize > r.max_seeds() {
                        continue;
                    }
                    for p in quiet_children(&r, q) {
                        r.predecessors(p, &mut out);
                        assert!(out.contains(&q), "{key}: {q:?} -> {p:?} not un-sown");
                        let distinct: HashSet<Board> = out.iter().copied().collect();
                        assert_eq!(distinct.len(), out.len(), "{key}: duplicates for {p:?}");
                        for &qq in &out {
                            assert!(
                                quiet_children(&r, qq).contains(&p),
                                "{key}: {qq:?} -/-> {p:?}"
                            );
                        }
                    }
                }
            }
        }
    }
}
