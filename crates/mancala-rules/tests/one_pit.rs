//! One pit's move ([`Rules::move_at`]) is what the full move generator lists for that pit,
//! and the mover's row after it is [`Rules::row_after_sowing`] of his row, whatever the
//! opponent's: the two facts the builder's capture scan stands on. Checked on every board of
//! small tiers, for every Awari-type rule set.

mod common;

use common::{boards, rules, GRAND_SLAMS};
use mancala_rules::{Children, MoveAt, Next, Preset, Rules};

fn awari_types(pits: u32, seeds: u32) -> Vec<Rules> {
    let size = (pits, seeds);
    let mut v = vec![
        rules(Preset::Awari, size, false, None),
        rules(Preset::Oware, size, false, None),
    ];
    v.extend(GRAND_SLAMS.map(|gs| rules(Preset::Wari, size, false, Some(gs))));
    v
}

#[test]
fn one_pit_moves_agree_with_the_move_generator() {
    let mut moves = 0;
    for (pits, seeds, max) in [(2u32, 4u32, 10usize), (3, 4, 9), (6, 4, 5)] {
        for rules in awari_types(pits, seeds) {
            let m = rules.pits();
            let mut kids = Children::new();
            for n in 0..=max {
                for b in boards(m, n) {
                    let over = rules.moves_into(b, &mut kids);
                    for pit in 0..m {
                        let want = match over {
                            Some((mover, opp)) => MoveAt::GameOver { mover, opp },
                            None => match kids.iter().find(|c| c.pit as usize == pit) {
                                Some(c) => MoveAt::Move(*c),
                                None => MoveAt::NotLegal,
                            },
                        };
                        let got = rules.move_at(b, pit);
                        assert_eq!(got, want, "{} {b:?} pit {pit}", rules.variant().key());
                        if let MoveAt::Move(c) = got {
                            moves += 1;
                            let row = b.0 as u64 & (u64::MAX >> (64 - 8 * m));
                            let after = rules.row_after_sowing(row, pit);
                            let opp_row = (c.board.0 >> (8 * m)) as u64;
                            match c.next {
                                Next::Opponent => assert_eq!(opp_row, after, "{b:?} pit {pit}"),
                                // The grand slam that moves again keeps the layout.
                                Next::Mover => {
                                    assert_eq!(c.board.0 as u64 & (u64::MAX >> (64 - 8 * m)), after)
                                }
                                Next::Over => {}
                            }
                        }
                    }
                }
            }
        }
    }
    assert!(moves > 100_000, "{moves} moves checked");
}
