//! Kalah-type tiers have no cycles: on every position of small tiers, each quiet move (nothing
//! banked, turn passes) raises the potential that the one-pass tier solver orders by, and
//! Awari-type rules, whose quiet moves do cycle, do not claim the property.

mod common;

use common::boards;
use mancala_rules::{Board, Next, Node, Options, Preset, Rules, Variant};

fn potential(r: &Rules, b: Board) -> u32 {
    let m = r.pits();
    r.row_potential(b.own(m)) + r.row_potential(b.opp(m))
}

#[test]
fn quiet_kalah_moves_raise_the_potential() {
    for empty_capture in [false, true] {
        for pits in [1u32, 2, 4, 6] {
            let r = Rules::new(
                Variant::new(
                    Preset::Kalah,
                    Options {
                        pits: Some(pits),
                        empty_capture,
                        ..Options::default()
                    },
                )
                .unwrap(),
            );
            assert!(r.quiet_moves_raise_potential());
            let mut quiet = 0;
            for n in 1..=7.min(2 * pits as usize * 3) {
                for b in boards(pits as usize, n) {
                    let Node::Moves(kids) = r.node(b) else {
                        continue;
                    };
                    for c in &kids {
                        if c.next == Next::Opponent && c.gain == 0 && c.opp_gain == 0 {
                            assert!(potential(&r, c.board) > potential(&r, b), "{b:?} -> {c:?}");
                            quiet += 1;
                        }
                    }
                }
            }
            // One pit always sows into the store: no quiet move at all.
            assert_eq!(quiet > 0, pits > 1);
        }
    }
}

#[test]
fn awari_type_rules_do_not_claim_it() {
    for preset in [Preset::Awari, Preset::Oware, Preset::Wari] {
        assert!(!Rules::new(Variant::preset(preset)).quiet_moves_raise_potential());
    }
    // And rightly: Awari has a quiet cycle (each side sows one seed round and round).
    let r = Rules::new(Variant::preset(Preset::Awari));
    let b = Board::from_pits(&[0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1]);
    let Node::Moves(kids) = r.node(b) else {
        panic!()
    };
    assert!(kids
        .iter()
        .any(|c| c.gain == 0 && potential(&r, c.board) <= potential(&r, b)));
}
