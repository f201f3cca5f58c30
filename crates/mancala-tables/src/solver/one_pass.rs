//! One-pass solving of tiers without cycles (Kalah type).
//!
//! When every quiet move raises a potential ([`Rules::quiet_moves_raise_potential`]), a
//! position's quiet children all have a higher potential than it has, and its other children
//! lie in lower, finished tiers. Taking the positions of a tier level by level, from the
//! highest potential down, every child is final by the time its parent is reached: each value
//! is the best move's value, computed once. No thresholds, counters or predecessors, and one
//! byte a position.
//!
//! A position's potential is the sum of its two rows' potentials, so the positions of a level
//! are the pairs (mover's row, opponent's row) whose potentials add up to it. The rows of each
//! seed count are listed once, grouped by potential, and a level walks matching groups. A
//! position's rank comes straight from its rows' ranks. Positions of one level do not depend
//! on each other, so a level is solved in parallel, and the result does not depend on the
//! thread count.

use super::kalah_rows::{self, Mover, Outcome, PitMove, Theirs};
use super::Job;
use crate::bytes::Bytes;
use crate::core::{LowerTiers, NO_EXIT};
use crate::prefetch;
use mancala_index::{Indexer, Rows};
use mancala_rules::{byte_sum, Board, Child, Children, Family, Next, Rules};
use rayon::prelude::*;
use std::sync::atomic::{AtomicU8, Ordering::Relaxed};

/// Positions whose children are ranked and prefetched before any is read. 32 against 16:
/// Kalah 6x5 tiers 0..25 0.92 of the time (8: 1.15, 64 like 32 on tier 23).
const BATCH: usize = 32;
// A position's place in its batch is a `u8`.
const _: () = assert!(BATCH <= 256);
/// Positions a parallel task aims at: a group of mover's rows is cut into tasks of about this
/// many positions (a task holds at least one mover's row against every opponent's row of the
/// group, so a group with more opponent's rows than this makes bigger tasks). A task plays
/// all its mover's rows against one opponent's row before the next, and most children (quiet
/// moves, captures, overflows) of one opponent's row lie in one block of a tier, ranked by
/// what the mover's row became: the more mover's rows a task holds, the more of those
/// children share a cache line. Whole groups (this bound rarely splits one) against tasks of
/// 4,096 positions: Kalah 6x5 tiers 0..24 from nothing 0.93 of the time, the same files
/// (docs/performance.md).
const TASK: usize = 1 << 16;

/// A row, its rank among the valid rows of its side with as many seeds, and its rank as a
/// row of the other side (when the other side's rule admits it).
#[derive(Clone, Copy)]
struct Row {
    word: u64,
    rank: u64,
    as_other: Option<u64>,
}

/// Every valid row of one side with `0..=max` seeds, grouped by seed count, then potential.
struct Catalog {
    /// For each seed count: (potential, rows with it), by increasing potential.
    groups: Vec<Vec<(u32, Vec<Row>)>>,
}

impl Catalog {
    fn new(rules: &Rules, rows: &Rows, other: &Rows, max: usize) -> Catalog {
        let groups = (0..=max)
            .map(|s| {
                let mut by_potential: std::collections::BTreeMap<u32, Vec<Row>> =
                    Default::default();
                let mut word = (rows.count(s) > 0).then(|| rows.first(s));
                let mut rank = 0;
                while let Some(w) = word {
                    by_potential
                        .entry(rules.row_potential(w))
                        .or_default()
                        .push(Row {
                            word: w,
                            rank,
                            as_other: other.rank(w),
                        });
                    rank += 1;
                    word = rows.next(w);
                }
                by_potential.into_iter().collect()
            })
            .collect();
        Catalog { groups }
    }

    /// The rows with `s` seeds and potential `p` (empty if none).
    fn group(&self, s: usize, p: u32) -> &[Row] {
        let groups = &self.groups[s];
        match groups.binary_search_by_key(&p, |g| g.0) {
            Ok(i) => &groups[i].1,
            Err(_) => &[],
        }
    }
}

/// Solves tier `n` of rules whose quiet moves raise the potential, with Kalah-type moves
/// worked out on whole rows or by the rules' move generator (the two must agree). Returns
/// one signed byte per rank, or the error of its memory. Progress: `size` units.
pub(crate) fn solve<L: LowerTiers>(job: Job<'_, L>, row_moves: bool) -> std::io::Result<Bytes> {
    solve_in_tasks(job, row_moves, TASK)
}

/// [`solve`] with parallel tasks of about `task` positions (the tests vary it: the values
/// must not depend on how the work is cut).
pub(crate) fn solve_in_tasks<L: LowerTiers>(
    job: Job<'_, L>,
    row_moves: bool,
    task: usize,
) -> std::io::Result<Bytes> {
    let (rules, ix, n, lower) = (job.rules, job.ix, job.n, job.lower);
    assert!(rules.quiet_moves_raise_potential());
    let size = ix.size(n) as usize;
    let mut mem = Bytes::zeroed(size)?;
    let values = mem.atomic_bytes();
    let own = Catalog::new(rules, ix.own_rows(), ix.opp_rows(), n);
    let opp = Catalog::new(rules, ix.opp_rows(), ix.own_rows(), n);
    let m = rules.pits();
    // Kalah-type moves are worked out on whole rows (see `kalah_rows`).
    let kalah = rules.variant().family() == Family::Kalah && row_moves;
    // A row with s seeds has potential s..=m*s; a position of tier n, n..=m*n.
    for level in (n as u32..=(m * n) as u32).rev() {
        // The level's work: each mover's row against the opponent's rows that complete it.
        let mut work: Vec<(usize, &[Row], &[Row])> = Vec::new();
        for a in 0..=n {
            for (p, mine) in &own.groups[a] {
                if *p > level {
                    break;
                }
                let theirs = opp.group(n - a, level - p);
                if theirs.is_empty() {
                    continue;
                }
                // Several tasks per group only when the group is very big (see `TASK`).
                let per = (task / theirs.len()).max(1);
                work.extend(mine.chunks(per).map(|c| (a, c, theirs)));
            }
        }
        let done: u64 = work
            .par_iter()
            .map(|&(a, mine, theirs)| {
                let mut batch = Batch::new();
                let tier = Tier {
                    rules,
                    ix,
                    n,
                    values,
                };
                mancala_rules::by_width!(m, M => {
                    if kalah {
                        // Opponent's rows outside: what a move leaves of one is ranked once
                        // for all the mover's rows, and the quiet children of one opponent's
                        // row lie together.
                        let movers: Vec<Mover> =
                            mine.iter().map(|r| Mover::new::<M>(ix, r.word, a)).collect();
                        let extra = extra_moves(ix, n, a, &movers, theirs, lower);
                        // No value is `NO_EXIT`: every entry is written below.
                        let mut out = vec![NO_EXIT; extra.len()];
                        let per_opp = extra.chunks(mine.len()).zip(out.chunks_mut(mine.len()));
                        for (opp, (extra, out)) in theirs.iter().zip(per_opp) {
                            let mut left = Theirs::new(opp.word);
                            let chunks = mine.chunks(BATCH).zip(movers.chunks(BATCH));
                            let outs = extra.chunks(BATCH).zip(out.chunks_mut(BATCH));
                            for ((rows, moves), (extra, out)) in chunks.zip(outs) {
                                batch.solve_rows::<M, L>(
                                    &tier, a, rows, moves, extra, out, opp, &mut left, lower,
                                );
                            }
                        }
                        // Stored mover's row by mover's row: each row's positions lie in one
                        // block, in rank order.
                        for (i, mover) in mine.iter().enumerate() {
                            let start = ix.rank_of_rows(n, a, mover.rank, 0) as usize;
                            for (j, opp) in theirs.iter().enumerate() {
                                let v = out[j * mine.len() + i];
                                debug_assert_ne!(v, NO_EXIT, "a position left unsolved");
                                values[start + opp.rank as usize].store(v as u8, Relaxed);
                            }
                        }
                    } else {
                        for mover in mine {
                            batch.rows_left = [None; 16];
                            for chunk in theirs.chunks(BATCH) {
                                batch.solve::<M, L>(&tier, a, mover, chunk, lower);
                            }
                        }
                    }
                });
                (mine.len() * theirs.len()) as u64
            })
            .sum();
        job.progress.advance(done);
    }
    Ok(mem)
}

/// The tier being solved.
struct Tier<'a> {
    rules: &'a Rules,
    ix: &'a Indexer,
    n: usize,
    values: &'a [AtomicU8],
}

/// A child to read: (position in the batch, tier, rank, gain, sign).
type Probe = (u8, u32, u64, i32, i32);
/// The most children a batch can queue.
const PROBES: usize = BATCH * mancala_rules::MAX_MOVES;

/// Scratch space for a batch of positions that share a row: the mover's in [`Batch::solve`],
/// the opponent's in [`Batch::solve_rows`].
struct Batch {
    kids: Children,
    /// (rank of the position, best so far) for each position of the batch; the rank is
    /// `usize::MAX` in [`Batch::solve_rows`], whose caller stores the values itself.
    positions: Vec<(usize, i32)>,
    /// Children to read, a fixed array: a `Vec`'s push loaded its length and capacity again
    /// at every child (Kalah 6x5 tier 23: 0.96 of the time without).
    probes: Box<[Probe; PROBES]>,
    /// How many of `probes` are queued.
    queued: usize,
    /// For the current mover's row, by pit and by who moves next: the row the move left
    /// behind and its rank (see [`child_rank`]).
    rows_left: [Option<(u64, u64)>; 16],
}

impl Batch {
    fn new() -> Batch {
        Batch {
            kids: Children::new(),
            positions: Vec::with_capacity(BATCH),
            probes: Box::new([(0, 0, 0, 0, 0); PROBES]),
            queued: 0,
            rows_left: [None; 16],
        }
    }

    /// Solves the positions (`mover`, each of `theirs`): ranks every child and prefetches it,
    /// then reads them and stores each position's best move.
    #[inline(always)]
    fn solve<const M: usize, L: LowerTiers>(
        &mut self,
        t: &Tier,
        a: usize,
        mover: &Row,
        theirs: &[Row],
        lower: &L,
    ) {
        self.positions.clear();
        self.queued = 0;
        for opp in theirs {
            let board = kalah_rows::board::<M>(mover.word, opp.word);
            let rank = t.ix.rank_of_rows(t.n, a, mover.rank, opp.rank) as usize;
            debug_assert_eq!(t.ix.rank(board), Some(rank as u64));
            let at = self.positions.len() as u8;
            let best = self.generic_moves::<M, L>(t, at, opp, board, None, lower);
            self.positions.push((rank, best));
        }
        self.read_children(t, lower);
        for &(rank, best) in &self.positions {
            t.values[rank].store(best as i8 as u8, Relaxed);
        }
    }

    /// [`Batch::solve`] for Kalah-type rules: the positions (each of `mine`, `opp`), with the
    /// mover's rows' moves worked out in `moves` and their extra moves' best in `extra`;
    /// their values go to `out`, in the same order.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn solve_rows<const M: usize, L: LowerTiers>(
        &mut self,
        t: &Tier,
        a: usize,
        mine: &[Row],
        moves: &[Mover],
        extra: &[i16],
        out: &mut [i8],
        opp: &Row,
        left: &mut Theirs,
        lower: &L,
    ) {
        let empty_capture = t.rules.variant().empty_capture;
        let as_mover = opp.as_other.expect("Kalah rows with seeds can move");
        self.positions.clear();
        self.queued = 0;
        for ((mover, rows), &extra) in mine.iter().zip(moves).zip(extra) {
            let at = self.positions.len() as u8;
            // The extra moves that leave a position were read already (`extra_moves`).
            let mut best = if extra == NO_EXTRA {
                i32::MIN
            } else {
                extra as i32
            };
            let mut laps = 0u32;
            for (o, &mv) in rows.moves[..M].iter().enumerate() {
                if let PitMove::Empty | PitMove::Store { left: Some(_) } = mv {
                    continue;
                }
                match kalah_rows::outcome::<M>(
                    t.ix,
                    empty_capture,
                    t.n,
                    a,
                    mv,
                    left,
                    opp.rank,
                    as_mover,
                ) {
                    Outcome::Over(v) => best = best.max(v),
                    Outcome::Child {
                        tier,
                        rank,
                        gain,
                        sign,
                    } => self.probe(t, at, tier, rank, gain, sign, lower),
                    Outcome::Lap => laps |= 1 << o,
                }
            }
            if laps != 0 {
                self.rows_left = [None; 16];
                let board = kalah_rows::board::<M>(mover.word, opp.word);
                let v = self.generic_moves::<M, L>(t, at, opp, board, Some(laps), lower);
                best = best.max(v);
            }
            // The caller stores the values (`out`): no rank needed.
            self.positions.push((usize::MAX, best));
        }
        self.read_children(t, lower);
        for (o, &(_, best)) in out.iter_mut().zip(&self.positions) {
            *o = best as i8;
        }
    }

    /// Generates the moves of `board` (position `at` of the batch, opponent's row `opp`) by
    /// the rules, only those whose pit is in `only` if given: returns the best of those that
    /// end the game, and queues the others' children.
    #[inline(always)]
    fn generic_moves<const M: usize, L: LowerTiers>(
        &mut self,
        t: &Tier,
        at: u8,
        opp: &Row,
        board: Board,
        only: Option<u32>,
        lower: &L,
    ) -> i32 {
        match t.rules.moves_into(board, &mut self.kids) {
            Some((mine, theirs)) => mine as i32 - theirs as i32,
            None => {
                let mut best = i32::MIN;
                for i in 0..self.kids.len() {
                    let c = self.kids.as_slice()[i];
                    if only.is_some_and(|pits| pits & (1 << c.pit) == 0) {
                        continue;
                    }
                    if c.next == Next::Over {
                        best = best.max(c.value(0));
                        continue;
                    }
                    let (tier, r) = child_rank::<M>(&mut self.rows_left, t.ix, opp, &c);
                    debug_assert_eq!(t.ix.rank(c.board), Some(r));
                    debug_assert!(tier < t.n || c.next == Next::Opponent && c.gain == 0);
                    let sign = if c.next == Next::Mover { 1 } else { -1 };
                    self.probe(t, at, tier, r, c.value(0), sign, lower);
                }
                best
            }
        }
    }

    /// Queues a child to read for position `at`, fetching it meanwhile.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn probe<L: LowerTiers>(
        &mut self,
        t: &Tier,
        at: u8,
        tier: usize,
        rank: u64,
        gain: i32,
        sign: i32,
        lower: &L,
    ) {
        if tier == t.n {
            prefetch(&t.values[rank as usize]);
        } else {
            lower.prefetch(tier, rank);
        }
        self.probes[self.queued] = (at, tier as u32, rank, gain, sign);
        self.queued += 1;
    }

    /// Reads the queued children into each position's best move.
    #[inline(always)]
    fn read_children<L: LowerTiers>(&mut self, t: &Tier, lower: &L) {
        for &(at, tier, r, gain, sign) in &self.probes[..self.queued] {
            let v = if tier as usize == t.n {
                t.values[r as usize].load(Relaxed) as i8
            } else {
                lower.value(tier as usize, r)
            };
            let best = &mut self.positions[at as usize].1;
            *best = (*best).max(gain + sign * v as i32);
        }
    }
}

/// No extra move leads to a position of the tiers (in [`extra_moves`]' answer).
const NO_EXTRA: i16 = i16::MIN;

/// The best extra move into a position of the tiers (last seed in the store, seeds left in
/// the mover's row) of each pair (mover's row of `movers`, opponent's row of `theirs`),
/// opponent's row major; [`NO_EXTRA`] where there is none.
///
/// Read apart from the other moves because its child keeps the mover first: its rank is
/// (row left, opponent's row), so one mover's row against the opponent's rows in turn reads
/// one block of the lower tier in rank order, where the main loop (opponent's row outside)
/// would miss the cache once per child.
fn extra_moves<L: LowerTiers>(
    ix: &Indexer,
    n: usize,
    a: usize,
    movers: &[Mover],
    theirs: &[Row],
    lower: &L,
) -> Vec<i16> {
    let mut best = vec![NO_EXTRA; movers.len() * theirs.len()];
    for (i, mover) in movers.iter().enumerate() {
        for mv in &mover.moves {
            let PitMove::Store { left: Some(row) } = *mv else {
                continue;
            };
            // Seeds are left on the row after the last went into the store.
            debug_assert!(a > 1);
            let base = ix.rank_of_rows(n - 1, a - 1, row, 0);
            for (j, opp) in theirs.iter().enumerate() {
                let v = 1 + lower.value(n - 1, base + opp.rank) as i16;
                let b = &mut best[j * movers.len() + i];
                *b = (*b).max(v);
            }
        }
    }
    best
}

/// The tier and rank of `c`, a child of the position (current mover's row, `opp`).
///
/// The row the mover leaves behind depends on little but his row and the pit, so its rank is
/// cached by pit (and by who moves next); the opponent's row is often untouched, and then its
/// rank is known. So a child costs at most one row rank, often none, instead of a full rank.
#[inline]
fn child_rank<const M: usize>(
    cache: &mut [Option<(u64, u64)>; 16],
    ix: &Indexer,
    opp: &Row,
    c: &Child,
) -> (usize, u64) {
    let first = c.board.0 as u64 & (u64::MAX >> (64 - 8 * M));
    let second = (c.board.0 >> (8 * M)) as u64;
    let a = byte_sum(first) as usize;
    let tier = a + byte_sum(second) as usize;
    let slot = 2 * c.pit as usize + (c.next == Next::Mover) as usize;
    let mut cached = |word: u64, rows: &Rows| match cache[slot] {
        Some((w, rank)) if w == word => rank,
        _ => {
            let rank = rows
                .rank_width::<M>(word)
                .expect("children of indexed positions are indexed");
            cache[slot] = Some((word, rank));
            rank
        }
    };
    let rank = |word: u64, rows: &Rows| {
        rows.rank_width::<M>(word)
            .expect("children of indexed positions are indexed")
    };
    let (own, theirs) = if c.next == Next::Mover {
        // The mover moves again: his row comes first.
        let own = cached(first, ix.own_rows());
        let theirs = if second == opp.word {
            opp.rank
        } else {
            rank(second, ix.opp_rows())
        };
        (own, theirs)
    } else {
        // The turn passed: the opponent's row comes first, the mover's row second.
        let theirs = cached(second, ix.opp_rows());
        let own = match opp.as_other {
            Some(r) if first == opp.word => r,
            _ => rank(first, ix.own_rows()),
        };
        (own, theirs)
    };
    (tier, ix.rank_of_rows(tier, a, own, theirs))
}
