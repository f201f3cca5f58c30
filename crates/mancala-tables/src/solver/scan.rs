//! Phase 1 of an Awari-type tier in the lower tiers' order: every position's best exit and
//! number of quiet moves, reading each lower tier front to back.
//!
//! Walking the tier in rank order sends each position's captures to random places in the
//! lower tiers: one cache miss a move in memory, one disk seek a move beyond it. But where a
//! move from one pit leaves the mover's row depends on that row and the pit alone
//! ([`Rules::sows_own_row_alone`]), and that row is the child's opponent's row, which is
//! what the published order ranks first. So the moves are taken grouped by the row they
//! leave, in that row's order: all the children of a group lie in one block of each lower
//! tier, and the groups visit the blocks of every lower tier in order (in rounds: within a
//! round's pieces the order is the tiles', below). The tier being solved takes the scattered
//! writes instead, in memory; they are kept close together by taking a tile of sowings block
//! by block ([`Scan::tile`]): phase 1 of tiers of gigabytes took 0.33 to 0.74 of the time of
//! one sowing through every block.
//!
//! The results equal the rank-order walk's ([`crate::core::Exits`]) byte for byte: the tests
//! of the solver compare the two.

use super::state::undecided;
use super::Job;
use crate::core::{Exits, LowerTiers, NO_EXIT};
use crate::prefetch;
use mancala_index::Indexer;
use mancala_rules::{byte_sum, Board, MoveAt, Next, Rules};
use rayon::prelude::*;
use std::sync::atomic::{AtomicI8, AtomicU8, Ordering::Relaxed};

/// One pit of one mover's row, and the row its sowing leaves him.
#[derive(Clone, Copy)]
struct Sowing {
    /// The mover's row after the move: the children's opponent's row.
    after: u64,
    /// The mover's row.
    own: u64,
    /// The pit.
    pit: u8,
    /// Seeds in `own`.
    seeds: u8,
}

/// For the ranks `lo..hi` of tier `job.n` (of Awari-type rules in the published order;
/// `lo` and `hi` at block starts or the tier's end): counts each position's quiet moves into
/// `states[rank - lo]` (each undecided with count 0 to begin with) and stores its best exit
/// ([`NO_EXIT`] if none) at `exits[rank - lo]`. Progress: `hi - lo` units.
///
/// One call reads every lower tier once, in order; a tier taken in several slices reads them
/// once a slice.
pub(crate) fn exits_and_counts<L: LowerTiers>(
    job: &Job<'_, L>,
    states: &[AtomicU8],
    exits: &[AtomicI8],
    (lo, hi): (u64, u64),
) {
    let (rules, ix, n, lower) = (job.rules, job.ix, job.n, job.lower);
    assert!(rules.sows_own_row_alone(), "Awari-type rules");
    let size = ix.size(n);
    let m = rules.pits();
    debug_assert_eq!(exits.len() as u64, hi - lo);
    debug_assert_eq!(states.len() as u64, hi - lo);
    exits.par_iter().for_each(|e| e.store(NO_EXIT, Relaxed));

    // The blocks of the slice by the seeds of their opponent's row.
    let mut blocks: Vec<Vec<(u64, u64)>> = vec![Vec::new(); n + 1];
    for (opp, start) in ix.blocks(n).filter(|&(_, start)| lo <= start && start < hi) {
        blocks[byte_sum(opp) as usize].push((opp, start));
    }
    // Positions without the moves below: the mover's row is empty (the game is over), or the
    // tier's start position, whose opponent's row has no empty pit.
    let mut single: Vec<(Board, u64)> = blocks[n]
        .iter()
        .map(|&(opp, start)| (board(0, opp, m), start))
        .collect();
    single.extend(
        ix.extra(n)
            .map(|b| (b, size - 1))
            .filter(|&(_, r)| lo <= r && r < hi),
    );
    let mut batch = Exits::new(rules, ix);
    for &(b, rank) in &single {
        batch.clear();
        batch.add(b, n, lower);
        batch.resolve(lower);
        let (exit, quiet) = batch.positions[0];
        exits[(rank - lo) as usize].store(exit, Relaxed);
        states[(rank - lo) as usize].store(undecided(quiet), Relaxed);
    }

    // Every (mover's row, pit) of the tier, by the row the sowing leaves.
    let mut sowings: Vec<Sowing> = (1..=n)
        .filter(|&a| !blocks[n - a].is_empty())
        .flat_map(|a| ix.mover_rows(a).map(move |own| (a, own)))
        .flat_map(|(a, own)| {
            (0..m)
                .filter(move |&pit| (own >> (8 * pit)) & 0xff != 0)
                .map(move |pit| Sowing {
                    after: rules.row_after_sowing(own, pit),
                    own,
                    pit: pit as u8,
                    seeds: a as u8,
                })
        })
        .collect();
    sowings.par_sort_unstable_by_key(|s| s.after);
    let work = |s: &Sowing| blocks[n - s.seeds as usize].len() as u64;
    let total: u64 = sowings.iter().map(work).sum::<u64>().max(1);

    // Rounds of pieces in the rows' order: the pieces of a round run in parallel, and once a
    // round is done no later one reads below the last block it used in any lower tier, so
    // those pages are handed back (they would otherwise stay mapped until the system needs
    // the memory, and count as the process's).
    const ROUNDS: usize = 64;
    let pieces = 8 * rayon::current_num_threads();
    let round = sowings.len().div_ceil(ROUNDS).max(1);
    let mut reported = 0u64;
    for sowings in sowings.chunks(round) {
        let per = sowings.len().div_ceil(pieces).max(1);
        let done: Vec<(u64, Vec<u64>)> = sowings
            .par_chunks(per)
            .map(|piece| {
                let mut scan = Scan {
                    rules,
                    ix,
                    n,
                    lower,
                    states,
                    exits,
                    lo,
                    ranks: Vec::with_capacity(TILE),
                    offsets: Vec::with_capacity(TILE * n),
                    used: vec![0; n],
                };
                // Tiles of sowings with as many seeds, so that they share their blocks;
                // the sort is stable, so each keeps the rows' order.
                let mut order: Vec<&Sowing> = piece.iter().collect();
                order.sort_by_key(|s| s.seeds);
                for same in order.chunk_by(|x, y| x.seeds == y.seeds) {
                    for tile in same.chunks(TILE) {
                        scan.tile(tile, &blocks[n - tile[0].seeds as usize]);
                    }
                }
                let units = (hi - lo) * piece.iter().map(work).sum::<u64>() / total;
                job.progress.advance(units);
                (units, scan.used)
            })
            .collect();
        for t in 0..n {
            let below = done.iter().map(|(_, used)| used[t]).max().unwrap_or(0);
            if below > 0 {
                lower.release_below(t, below);
            }
        }
        reported += done.iter().map(|(units, _)| units).sum::<u64>();
    }
    job.progress.advance((hi - lo) - reported.min(hi - lo));
}

/// A task's share of the scan.
struct Scan<'a, L> {
    rules: &'a Rules,
    ix: &'a Indexer,
    n: usize,
    lower: &'a L,
    /// The states and exits of ranks `lo..`.
    states: &'a [AtomicU8],
    exits: &'a [AtomicI8],
    lo: u64,
    /// The tile's mover's rows' places in their blocks, one a sowing.
    ranks: Vec<u64>,
    /// The blocks of the tile's children: `offsets[j * n + t]` is the first rank in lower
    /// tier `t` of the block of sowing `j`'s row after the move.
    offsets: Vec<Option<u64>>,
    /// For each lower tier, the highest first rank of a block this task read from.
    used: Vec<u64>,
}

/// Sowings taken together over each block of the tier (see [`Scan::tile`]). Phase 1 of
/// Oware 7x2's tier 23 took as long with 128, 512 and 2048; 32 was 5% slower and 8 a third.
/// The tests' tiers are too small to fill a tile: there it is 3, so that the sowings of one
/// piece with as many seeds are cut into several tiles, as in big tiers.
#[cfg(not(test))]
const TILE: usize = 128;
#[cfg(test)]
const TILE: usize = 3;

impl<L: LowerTiers> Scan<'_, L> {
    /// The moves of every sowing of `tile` (all with the same seeds in the mover's row) in
    /// every position of the tier with that mover's row: one position in each of `blocks`
    /// (opponent's row, first rank).
    ///
    /// Block by block, each block's sowings together: a sowing's position in a block is at
    /// the place of its mover's row there, so the tile's bytes written in one block lie
    /// within that block (tens of kilobytes), not one a block all over the tier as when
    /// each sowing went through every block in turn. Each sowing's children still lie in
    /// one block of each lower tier, so the reads stay where they were. Phase 1 of Oware
    /// 7x2's tier 23 (2.24 G positions) went from 123-146 s to 76-80 s.
    fn tile(&mut self, tile: &[&Sowing], blocks: &[(u64, u64)]) {
        let (ix, n) = (self.ix, self.n);
        self.ranks.clear();
        self.ranks.extend(tile.iter().map(|s| {
            ix.mover_rank(s.own, s.seeds as usize)
                .expect("a mover's row of the tier")
        }));
        self.offsets.clear();
        for s in tile {
            self.offsets.extend((0..n).map(|t| ix.opp_key(t, s.after)));
        }
        for (i, &(opp, start)) in blocks.iter().enumerate() {
            // The same sowing's parent one block on: a tile's length ahead.
            let next = blocks.get(i + 1).map(|&(_, start)| start);
            for (j, s) in tile.iter().enumerate() {
                let own_rank = self.ranks[j];
                if let Some(ahead) = next {
                    let r = (ahead + own_rank - self.lo) as usize;
                    prefetch(&self.states[r]);
                    prefetch(&self.exits[r]);
                }
                let parent = (start + own_rank - self.lo) as usize;
                self.play(s, j, opp, parent);
            }
        }
    }

    /// The move of sowing `s` (the tile's `j`th) in the position with opponent's row `opp`,
    /// at `parent`: counted if quiet, else its value raises the position's best exit.
    #[inline(always)]
    fn play(&mut self, s: &Sowing, j: usize, opp: u64, parent: usize) {
        let (ix, m) = (self.ix, self.rules.pits());
        let b = board(s.own, opp, m);
        let exit = match self.rules.move_at(b, s.pit as usize) {
            MoveAt::NotLegal => return,
            MoveAt::GameOver { mover, opp } => mover as i32 - opp as i32,
            MoveAt::Move(c) if c.is_quiet() => {
                self.states[parent].fetch_add(1, Relaxed);
                return;
            }
            MoveAt::Move(c) if c.next == Next::Over => c.value(0),
            MoveAt::Move(c) => {
                let t = c.board.total() as usize;
                debug_assert!(t < self.n);
                let rank = match (c.next, self.offsets[j * self.n + t]) {
                    (Next::Opponent, Some(offset)) => {
                        self.used[t] = self.used[t].max(offset);
                        let own = c.board.0 as u64 & (u64::MAX >> (64 - 8 * m));
                        offset
                            + ix.mover_rank(own, t - byte_sum(s.after) as usize)
                                .expect("a child's mover's row")
                    }
                    // A grand slam that moves again keeps the layout: its child lies
                    // elsewhere (rare, and read at random).
                    _ => ix
                        .rank(c.board)
                        .expect("children of indexed positions are indexed"),
                };
                c.value(self.lower.value(t, rank) as i32)
            }
        };
        self.exits[parent].fetch_max(exit as i8, Relaxed);
    }
}

#[inline(always)]
fn board(own: u64, opp: u64, m: usize) -> Board {
    Board(own as u128 | (opp as u128) << (8 * m))
}
