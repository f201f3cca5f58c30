//! Kalah-type move generation for the hot path, writing into the caller's array.
//!
//! `Rules::node` returns its moves by value in a node enum, which the search then copies; at
//! millions of nodes a second the copies cost as much as the sowing. The sowing path of every
//! pit comes from the rules themselves (`Rules::path`); what happens at the end of a sowing (the
//! extra move, the capture, the end of the game) is the plain Kalah rule of RULES.md. A unit
//! test holds the two generators to the same moves on every position of small tiers.

use mancala_rules::{byte_sum, Board, Child, Next, Rules, STORE};

/// One precomputed sowing: what `k` seeds from pit `o` add to the board.
#[derive(Clone, Copy, Debug, Default)]
struct Sowing {
    add: u128,
    /// The pit the last seed lands in, or [`STORE`].
    last: u8,
    stored: u8,
}

pub struct KalahMoves {
    m: usize,
    stride: usize,
    sowings: Vec<Sowing>,
    empty_capture: bool,
}

/// A placeholder for unused slots of a move array.
pub const NO_CHILD: Child = Child {
    pit: 0,
    board: Board::EMPTY,
    gain: 0,
    opp_gain: 0,
    next: Next::Over,
};

impl KalahMoves {
    pub fn new(rules: &Rules) -> KalahMoves {
        let m = rules.pits();
        let max = rules.max_seeds();
        let stride = max + 1;
        let mut sowings = vec![Sowing::default(); m * stride];
        for o in 0..m {
            let path = rules.path(o);
            let mut s = Sowing::default();
            for k in 1..=max {
                let pos = path[(k - 1) % path.len()];
                if pos == STORE {
                    s.stored += 1;
                } else {
                    s.add += 1u128 << (8 * pos as usize);
                }
                s.last = pos;
                sowings[o * stride + k] = s;
            }
        }
        KalahMoves {
            m,
            stride,
            sowings,
            empty_capture: rules.variant().empty_capture,
        }
    }

    /// The moves of `b`, which must have seeds on both rows, in pit order. Returns how many.
    #[inline(always)]
    pub fn children(&self, b: Board, out: &mut [Child; 8]) -> usize {
        let m = self.m;
        let mut count = 0;
        for o in 0..m {
            let k = b.get(o) as usize;
            if k == 0 {
                continue;
            }
            let s = self.sowings[o * self.stride + k];
            let mut nb = Board(b.0 - ((k as u128) << (8 * o)) + s.add);
            let mut gain = s.stored as u32;
            let mut next = Next::Opponent;
            if s.last == STORE {
                next = Next::Mover;
            } else {
                let last = s.last as usize;
                if last < m && nb.get(last) == 1 {
                    let across = 2 * m - 1 - last;
                    let a = nb.get(across);
                    if a > 0 {
                        gain += 1 + a as u32;
                        nb.set(last, 0);
                        nb.set(across, 0);
                    } else if self.empty_capture {
                        gain += 1;
                        nb.set(last, 0);
                    }
                }
            }
            let own = nb.own(m);
            let opp = nb.opp(m);
            out[count] = if own == 0 || opp == 0 {
                // A row is empty: each side takes its own row and the game is over.
                Child {
                    pit: o as u8,
                    board: Board::EMPTY,
                    gain: (gain + byte_sum(own)) as u8,
                    opp_gain: byte_sum(opp) as u8,
                    next: Next::Over,
                }
            } else {
                Child {
                    pit: o as u8,
                    board: if next == Next::Opponent {
                        nb.flip(m)
                    } else {
                        nb
                    },
                    gain: gain as u8,
                    opp_gain: 0,
                    next,
                }
            };
            count += 1;
        }
        count
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use mancala_rules::{Node, Options, Preset, Variant};

    /// Random positions (mostly sparse rows) of 4 and 6 pits a side, both capture rules.
    #[test]
    fn same_moves_as_the_rules() {
        for (pits, ec) in [(4, false), (4, true), (6, false), (6, true)] {
            let v = Variant::new(
                Preset::Kalah,
                Options {
                    pits: Some(pits),
                    seeds: Some(10),
                    empty_capture: ec,
                    grand_slam: None,
                },
            )
            .unwrap();
            let rules = Rules::new(v);
            let gen = KalahMoves::new(&rules);
            let mut x = 0x2545_f491_4f6c_dd1du64;
            for _ in 0..200_000 {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                let pits: Vec<u8> = (0..2 * pits as usize)
                    .map(|i| ((x >> (5 * i)) % 9) as u8 * ((x >> (3 * i + 1)) % 2) as u8)
                    .collect();
                let b = Board::from_pits(&pits);
                let Node::Moves(kids) = rules.node(b) else {
                    continue;
                };
                let mut out = [NO_CHILD; 8];
                let k = gen.children(b, &mut out);
                assert_eq!(&out[..k], kids.as_slice(), "{pits:?}");
            }
        }
    }
}
