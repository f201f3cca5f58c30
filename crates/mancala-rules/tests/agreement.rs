//! The packed engine against the deliberately simple reference implementation
//! (`tests/reference`), on every position of small tiers, for every rule set.

mod common;
mod reference;

use common::{rules, GRAND_SLAMS};
use mancala_rules::{Board, Next, Node, Preset, Rules};
use reference::*;

/// Every rule set of the five presets, paired with its reference twin.
pub fn rule_sets(pits: u32, seeds: u32) -> Vec<(Rules, RefRules)> {
    let size = (pits, seeds);
    let mut v = vec![
        (rules(Preset::Awari, size, false, None), ref_awari()),
        (rules(Preset::Oware, size, false, None), ref_oware()),
    ];
    let twins = [
        RefGrandSlam::Forbidden,
        RefGrandSlam::NoCapture,
        RefGrandSlam::TakeAll,
        RefGrandSlam::VictimTakesRest,
        RefGrandSlam::SpareLast,
        RefGrandSlam::SpareFirst,
        RefGrandSlam::ExtraMove,
    ];
    for (gs, rgs) in GRAND_SLAMS.into_iter().zip(twins) {
        v.push((rules(Preset::Wari, size, false, Some(gs)), ref_wari(rgs)));
    }
    if pits <= 6 {
        v.push((rules(Preset::Kalah, size, false, None), ref_kalah(false)));
        v.push((rules(Preset::Kalah, size, true, None), ref_kalah(true)));
    }
    v
}

/// Calls `f` on every board of `2m` pits holding exactly `n` seeds.
fn each_board(m: usize, n: usize, f: &mut impl FnMut(&[u8])) {
    fn rec(pits: &mut Vec<u8>, len: usize, left: usize, f: &mut impl FnMut(&[u8])) {
        if pits.len() == len - 1 {
            pits.push(left as u8);
            f(pits);
            pits.pop();
            return;
        }
        for x in 0..=left {
            pits.push(x as u8);
            rec(pits, len, left - x, f);
            pits.pop();
        }
    }
    rec(&mut Vec::new(), 2 * m, n, f);
}

fn same_node(r: &Rules, rr: RefRules, pits: &[u8]) {
    let m = r.pits();
    let b = Board::from_pits(pits);
    let mine = r.node(b);
    let theirs = ref_node(rr, pits);
    let key = r.variant().key();
    match (mine, theirs) {
        (Node::Terminal { mover, opp }, RefNode::Terminal { mover: rm, opp: ro }) => {
            assert_eq!((mover as u32, opp as u32), (rm, ro), "{key} {pits:?}");
        }
        (Node::Moves(kids), RefNode::Moves(rk)) => {
            assert_eq!(kids.len(), rk.len(), "{key} {pits:?}: legal moves differ");
            for (c, rc) in kids.iter().zip(&rk) {
                assert_eq!(c.pit as usize, rc.pit, "{key} {pits:?}");
                assert_eq!(
                    c.board.pits(2 * m),
                    rc.next,
                    "{key} {pits:?} pit {}",
                    rc.pit
                );
                assert_eq!(
                    c.gain as u32, rc.mover_gain,
                    "{key} {pits:?} pit {}",
                    rc.pit
                );
                assert_eq!(
                    c.opp_gain as u32, rc.opp_gain,
                    "{key} {pits:?} pit {}",
                    rc.pit
                );
                let kind = match c.next {
                    Next::Opponent => RefNext::Opponent,
                    Next::Mover => RefNext::Mover,
                    Next::Over => RefNext::Over,
                };
                assert_eq!(kind, rc.kind, "{key} {pits:?} pit {}", rc.pit);
            }
        }
        (a, b) => panic!("{key} {pits:?}: engine {a:?}, reference {b:?}"),
    }
}

#[test]
fn every_position_of_small_tiers_agrees_with_the_reference() {
    for (m, seeds, max) in [(1, 4, 8), (2, 4, 10), (3, 3, 10), (4, 2, 9), (6, 4, 7)] {
        for (r, rr) in rule_sets(m, seeds) {
            for n in 0..=max.min(r.max_seeds()) {
                each_board(m as usize, n, &mut |p| same_node(&r, rr, p));
            }
        }
    }
}

#[test]
fn big_sowings_agree_with_the_reference() {
    // Laps: one pit holding up to every seed of the game, the rest sparse.
    for (r, rr) in rule_sets(6, 4) {
        let m = r.pits();
        for k in 1..=r.max_seeds().min(40) {
            for o in 0..m {
                for extra in 0..2 * m {
                    let mut p = vec![0u8; 2 * m];
                    p[o] = k as u8;
                    if extra != o && k + 2 <= r.max_seeds() {
                        p[extra] += 1;
                        p[(extra + 5) % (2 * m)] += 1;
                    }
                    same_node(&r, rr, &p);
                }
            }
        }
    }
}

#[test]
fn perft_agrees_with_the_reference_to_depth_6() {
    for (m, seeds) in [(6, 4), (6, 3), (4, 3)] {
        for (r, rr) in rule_sets(m, seeds) {
            let start = r.start();
            let rs = ref_start(m as usize, seeds as u8);
            for d in 0..=6 {
                assert_eq!(
                    r.perft(start, d),
                    ref_perft(rr, &rs, d),
                    "{} depth {d}",
                    r.variant().key()
                );
            }
        }
    }
}
