//! What several test files share: every board of a tier, and rule sets by preset and option.
//! Only enumeration lives here; each test keeps its own expectations.

#![allow(dead_code)]

use mancala_rules::{Board, GrandSlam, Options, Preset, Rules, Variant};

/// Every board of `2m` pits holding exactly `n` seeds.
pub fn boards(m: usize, n: usize) -> Vec<Board> {
    fn rec(pits: &mut [u8], i: usize, left: u8, out: &mut Vec<Board>) {
        if i + 1 == pits.len() {
            pits[i] = left;
            out.push(Board::from_pits(pits));
            return;
        }
        for x in 0..=left {
            pits[i] = x;
            rec(pits, i + 1, left - x, out);
        }
        pits[i] = 0;
    }
    let mut out = Vec::new();
    rec(&mut vec![0u8; 2 * m], 0, n as u8, &mut out);
    out
}

/// The rules of `preset` on `pits` pits a side with `seeds` a pit, and the given options.
pub fn rules(
    preset: Preset,
    (pits, seeds): (u32, u32),
    empty_capture: bool,
    grand_slam: Option<GrandSlam>,
) -> Rules {
    let opts = Options {
        pits: Some(pits),
        seeds: Some(seeds),
        empty_capture,
        grand_slam,
        ..Default::default()
    };
    Rules::new(Variant::new(preset, opts).unwrap())
}

/// Wari's grand-slam treatments, every one.
pub const GRAND_SLAMS: [GrandSlam; 7] = GrandSlam::WARI;
