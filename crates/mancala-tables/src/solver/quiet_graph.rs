//! Quiet-move predecessors found by inverting the forward moves, for rule sets whose moves
//! cannot be un-sown one at a time (relay sowing: a move's path depends on every pit it
//! lifted). Two parallel passes over the tier build a compressed list of each position's
//! quiet predecessors: the first counts them, the second files them.
//!
//! Memory: 8 bytes a position for the offsets and 4 a quiet move, so this suits the small
//! tiers these games are solved on, not the 10^9-position tiers of Awari.

use crate::core::CHUNK;
use mancala_index::Indexer;
use mancala_rules::{Children, Rules};
use rayon::prelude::*;
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering::Relaxed};

/// The quiet predecessors of every position of one tier, by rank.
pub(crate) struct QuietGraph {
    offsets: Vec<u64>,
    preds: Vec<u32>,
}

impl QuietGraph {
    /// Inverts the quiet moves (nothing banked, turn passes) of tier `n`. The tier has at
    /// most `u32::MAX` positions (a predecessor is kept as a 32-bit rank; `build` checks it
    /// for every tier before it starts).
    pub fn build(rules: &Rules, ix: &Indexer, n: usize) -> QuietGraph {
        let size = ix.size(n);
        debug_assert!(size <= u32::MAX as u64, "tier {n} checked by `build`");
        let counts: Vec<AtomicU64> = (0..=size).map(|_| AtomicU64::new(0)).collect();
        for_each_quiet_move(rules, ix, n, |_, to| {
            counts[to as usize].fetch_add(1, Relaxed);
        });
        // Prefix sums turn the counts into each position's first slot (and a cursor).
        let mut total = 0u64;
        for c in &counts {
            let k = c.load(Relaxed);
            c.store(total, Relaxed);
            total += k;
        }
        let preds: Vec<AtomicU32> = (0..total).map(|_| AtomicU32::new(0)).collect();
        for_each_quiet_move(rules, ix, n, |from, to| {
            let slot = counts[to as usize].fetch_add(1, Relaxed);
            preds[slot as usize].store(from as u32, Relaxed);
        });
        // Each cursor now stands at the end of its position's slots, which is where the next
        // position's begin: shifted one place on (a 0 in front, the spare last entry dropped)
        // they are the offsets. The conversions reuse the allocations.
        let mut offsets: Vec<u64> = counts.into_iter().map(AtomicU64::into_inner).collect();
        offsets.rotate_right(1);
        offsets[0] = 0;
        QuietGraph {
            offsets,
            preds: preds.into_iter().map(AtomicU32::into_inner).collect(),
        }
    }

    /// The ranks of the positions with a quiet move into rank `r`.
    pub fn preds(&self, r: u64) -> &[u32] {
        &self.preds[self.offsets[r as usize] as usize..self.offsets[r as usize + 1] as usize]
    }
}

/// Calls `f(from, to)` for every quiet move of tier `n`, by rank, from several threads.
fn for_each_quiet_move(rules: &Rules, ix: &Indexer, n: usize, f: impl Fn(u64, u64) + Sync) {
    let size = ix.size(n);
    let starts: Vec<u64> = (0..size).step_by(CHUNK as usize).collect();
    starts.par_iter().for_each(|&start| {
        let mut kids = Children::new();
        let mut walk = ix.walk_from(n, start);
        for r in start..(start + CHUNK).min(size) {
            let b = walk.next().expect("rank inside the tier");
            if rules.moves_into(b, &mut kids).is_some() {
                continue;
            }
            for c in kids.iter() {
                if c.is_quiet() {
                    let to = ix
                        .rank(c.board)
                        .expect("a quiet move stays in the indexed tier");
                    f(r, to);
                }
            }
        }
    });
}
