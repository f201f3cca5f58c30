//! Kalah-type moves on whole rows, for the one-pass solver: the same values as the rules'
//! move generator, at a fraction of the cost.
//!
//! A Kalah sowing of `k` seeds from pit `o` does the same to the mover's row whatever the
//! opponent's row holds, as long as it does not lap: it stays in the row (`k < m - o`), ends
//! in the store (`k = m - o`), or passes the store into the opponent's first pits. So the
//! solver works out, once per mover's row, the row each pit leaves behind and that row's rank,
//! and per position only looks at the opponent's row: the pit facing a capture, the row a
//! capture or an overflow leaves. Laps (rare in the tiers worth solving) go to the rules.
//!
//! The solver's tests check this against the rules' move generator byte for byte on whole tiers.

use mancala_index::{Indexer, Rows};
use mancala_rules::Board;

/// What one pit's move does to the mover's row.
#[derive(Clone, Copy, Debug)]
pub(crate) enum PitMove {
    /// The pit is empty.
    Empty,
    /// The sowing stays in the row and ends in pit `last`. `left` is the rank of the row left
    /// behind as the next mover's opponent's row. If `last` was empty it may capture: then
    /// `captured` is the rank of the row without the last seed (`None` if that row is empty).
    Inside {
        left: u64,
        last: u8,
        was_empty: bool,
        captured: Option<u64>,
    },
    /// The last seed goes into the store and the mover moves again with a row of rank `left`
    /// (as the mover's row; `None` if it is empty).
    Store { left: Option<u64> },
    /// One seed into the store and `into` into the opponent's first pits; the row left has
    /// rank `left` as the next mover's opponent's row (`None` if it is empty).
    Overflow { into: u8, left: Option<u64> },
    /// The sowing laps the board: the rules do it.
    Lap,
}

/// A mover's row with every pit's move worked out.
pub(crate) struct Mover {
    pub moves: [PitMove; 8],
}

impl Mover {
    /// Works out the moves of the mover's row `row` (holding `a` seeds) on a board of width `M`.
    pub fn new<const M: usize>(ix: &Indexer, row: u64, a: usize) -> Mover {
        let own_rank = |w: u64| rank::<M>(ix.own_rows(), w);
        let opp_rank = |w: u64| rank::<M>(ix.opp_rows(), w);
        let mut moves = [PitMove::Empty; 8];
        for (o, mv) in moves.iter_mut().enumerate().take(M) {
            let k = pit(row, o);
            if k == 0 {
                continue;
            }
            let to_store = M - o;
            let emptied = row & !(0xff << (8 * o));
            // One seed into each of the pits o+1 .. o+j.
            let spread = |j: usize| -> u64 { (1..=j).map(|i| 1u64 << (8 * (o + i))).sum() };
            *mv = if k < to_store {
                let last = o + k;
                let left = emptied + spread(k);
                let was_empty = pit(row, last) == 0;
                PitMove::Inside {
                    left: opp_rank(left).expect("a row with seeds"),
                    last: last as u8,
                    was_empty,
                    captured: if was_empty && a > 1 {
                        opp_rank(left - (1 << (8 * last)))
                    } else {
                        None
                    },
                }
            } else if k == to_store {
                let left = emptied + spread(k - 1);
                PitMove::Store {
                    left: (a > 1).then(|| own_rank(left).expect("a row with seeds")),
                }
            } else if k <= to_store + M {
                let left = emptied + spread(to_store - 1);
                let seeds = a - k + to_store - 1;
                PitMove::Overflow {
                    into: (k - to_store) as u8,
                    left: (seeds > 0).then(|| opp_rank(left).expect("a row with seeds")),
                }
            } else {
                PitMove::Lap
            };
        }
        Mover { moves }
    }
}

/// The opponent's rows that moves against one opponent's row leave, ranked as the next
/// mover's rows: once each, however many of the mover's rows play against it.
pub(crate) struct Theirs {
    word: u64,
    /// After a capture of the pit (by index), and after an overflow of `j` seeds (by `j`).
    captured: [Option<u64>; 8],
    overflowed: [Option<u64>; 9],
}

impl Theirs {
    pub fn new(word: u64) -> Theirs {
        Theirs {
            word,
            captured: [None; 8],
            overflowed: [None; 9],
        }
    }

    #[inline(always)]
    fn captured<const M: usize>(&mut self, ix: &Indexer, facing: usize) -> u64 {
        let word = self.word & !(0xff << (8 * facing));
        *self.captured[facing]
            .get_or_insert_with(|| rank::<M>(ix.own_rows(), word).expect("a row with seeds"))
    }

    #[inline(always)]
    fn overflowed<const M: usize>(&mut self, ix: &Indexer, into: usize) -> u64 {
        let word = self.word + (0..into).map(|i| 1u64 << (8 * i)).sum::<u64>();
        *self.overflowed[into]
            .get_or_insert_with(|| rank::<M>(ix.own_rows(), word).expect("a row with seeds"))
    }
}

/// What a move leads to: a final value, or a child position to read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Outcome {
    /// The game is over: the move is worth this.
    Over(i32),
    /// The move is worth `gain + sign * value(child)`, the child being rank `rank` of tier
    /// `tier`.
    Child {
        tier: usize,
        rank: u64,
        gain: i32,
        sign: i32,
    },
    /// The rules must play this move.
    Lap,
}

/// The outcome of pit move `mv` in tier `n`, against the opponent's row `theirs` (holding
/// `b` seeds, rank `opp_rank` as an opponent's row and `opp_as_mover` as a mover's row); `a`
/// is the seeds on the mover's row.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
pub(crate) fn outcome<const M: usize>(
    ix: &Indexer,
    empty_capture: bool,
    n: usize,
    a: usize,
    mv: PitMove,
    theirs: &mut Theirs,
    opp_rank: u64,
    opp_as_mover: u64,
) -> Outcome {
    let opp = theirs.word;
    let b = n - a;
    match mv {
        PitMove::Empty => unreachable!("empty pits have no move"),
        PitMove::Lap => Outcome::Lap,
        PitMove::Inside {
            left,
            last,
            was_empty,
            captured,
        } => {
            let facing = M - 1 - last as usize;
            let x = pit(opp, facing);
            if was_empty && x > 0 {
                // Capture: the last seed and the facing pit go to the store.
                let gain = 1 + x;
                match captured {
                    Some(mine) if b > x => {
                        let tier = n - gain;
                        let theirs = theirs.captured::<M>(ix, facing);
                        Outcome::Child {
                            tier,
                            rank: ix.rank_of_rows(tier, b - x, theirs, mine),
                            gain: gain as i32,
                            sign: -1,
                        }
                    }
                    // A row ran empty: each side keeps its own row.
                    _ => Outcome::Over((gain + a - 1) as i32 - (b - x) as i32),
                }
            } else if was_empty && empty_capture {
                match captured {
                    Some(mine) => Outcome::Child {
                        tier: n - 1,
                        rank: ix.rank_of_rows(n - 1, b, opp_as_mover, mine),
                        gain: 1,
                        sign: -1,
                    },
                    None => Outcome::Over(1 - b as i32),
                }
            } else {
                Outcome::Child {
                    tier: n,
                    rank: ix.rank_of_rows(n, b, opp_as_mover, left),
                    gain: 0,
                    sign: -1,
                }
            }
        }
        PitMove::Store { left } => match left {
            // The one-pass solver reads these extra moves in a sweep of their own
            // (`one_pass::extra_moves`) and does not ask for them here; the arm is kept so
            // that this function tells every move's outcome.
            Some(mine) => Outcome::Child {
                tier: n - 1,
                rank: ix.rank_of_rows(n - 1, a - 1, mine, opp_rank),
                gain: 1,
                sign: 1,
            },
            None => Outcome::Over(1 - b as i32),
        },
        PitMove::Overflow { into, left } => {
            let into = into as usize;
            match left {
                Some(mine) => {
                    let theirs = theirs.overflowed::<M>(ix, into);
                    Outcome::Child {
                        tier: n - 1,
                        rank: ix.rank_of_rows(n - 1, b + into, theirs, mine),
                        gain: 1,
                        sign: -1,
                    }
                }
                None => Outcome::Over(1 - (b + into) as i32),
            }
        }
    }
}

#[inline(always)]
fn rank<const M: usize>(rows: &Rows, word: u64) -> Option<u64> {
    rows.rank_width::<M>(word)
}

#[inline(always)]
fn pit(row: u64, i: usize) -> usize {
    ((row >> (8 * i)) & 0xff) as usize
}

/// The board of a mover's row and an opponent's row.
#[inline(always)]
pub(crate) fn board<const M: usize>(own: u64, opp: u64) -> Board {
    Board(own as u128 | (opp as u128) << (8 * M))
}
