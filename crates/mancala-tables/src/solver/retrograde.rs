//! Exact values of one tier by parallel retrograde analysis with counters and score thresholds.
//!
//! Lower tiers are final, so every move that banks a seed has a known value; only quiet moves
//! (nothing banked, turn passes) stay inside the tier, and they may form cycles. For each
//! threshold `t = n, n-1, .., 1` we grow two sets as least fixpoints:
//!
//! - `W_t` (value `>= t`): the best exit is worth `>= t`, or some quiet move reaches `L_t`;
//! - `L_t` (value `<= -t`): the best exit is worth `<= -t` and every quiet move reaches `W_t`.
//!
//! Infinite play is worth 0, below every `t >= 1`, so a least fixpoint never credits a cycle.
//! Both sets only grow as `t` falls, so one counter per position (quiet moves whose child is not
//! yet in `W`) serves every threshold. A position first entering `W` at threshold `t` has value
//! exactly `t`, one first entering `L` exactly `-t`; what is left at the end is worth 0.
//!
//! Memory: one byte of value (the best exit until decided) and one of state per position. The
//! values are unique, so the result does not depend on the thread count or on timing.

use super::cell::{cell, final_value};
use super::propagate::Ctx;
use super::quiet_graph::QuietGraph;
use super::Job;
use crate::bytes::Bytes;
use crate::core::{Exits, LowerTiers, CHUNK};
use rayon::prelude::*;
use std::sync::atomic::Ordering::Relaxed;

/// Chunks seeded together before propagating (64 Mi positions).
pub(crate) const GROUP_CHUNKS: usize = 2048;

/// Solves tier `n` of rules whose quiet moves may cycle, seeding `group_chunks` chunks at a
/// time. Progress: `2 * size` units.
pub(crate) fn solve<L: LowerTiers>(job: Job<'_, L>, group_chunks: usize) -> Bytes {
    let (rules, ix, n, lower) = (job.rules, job.ix, job.n, job.lower);
    let size = ix.size(n);
    let mut mem = Bytes::zeroed(2 * size as usize);
    let cells = mem.cells();
    let graph = (!rules.can_unsow()).then(|| QuietGraph::build(rules, ix, n));
    let ctx = Ctx {
        rules,
        ix,
        n,
        cells,
        graph: graph.as_ref(),
    };

    let profile = std::env::var_os("MANCALA_PROFILE").is_some();
    let clock = std::time::Instant::now();
    // Phase 1: every position's best exit and its number of quiet moves.
    let chunks: Vec<u64> = (0..size).step_by(CHUNK as usize).collect();
    chunks.par_iter().for_each(|&start| {
        let len = CHUNK.min(size - start);
        let mut r = start as usize;
        Exits::new(rules, ix).of_range(n, start, len as usize, lower, |exit, quiet| {
            cells[r].store(cell(exit, quiet), Relaxed);
            r += 1;
        });
        job.progress.advance(len);
    });

    let phase1 = clock.elapsed();
    let (mut seeding, mut seeded, mut rounds) = (std::time::Duration::ZERO, 0usize, 0usize);
    // Phase 2: thresholds from high to low.
    let per_threshold = size / n.max(1) as u64;
    for t in (1..=n as i8).rev() {
        // Seeds are taken a group of chunks at a time and propagated to closure before the
        // next group, which bounds the frontier's memory on big tiers. The sets are least
        // fixpoints, so the order in which their members are found does not change them.
        for group in chunks.chunks(group_chunks) {
            let c = std::time::Instant::now();
            let mut frontier = ctx.seed(t, group);
            seeding += c.elapsed();
            seeded += frontier.len();
            while !frontier.is_empty() {
                rounds += 1;
                frontier = ctx.round(t, &frontier);
            }
        }
        job.progress.advance(per_threshold);
    }
    if profile {
        eprintln!(
            "tier {n}: {size} positions; exits {:.3}s, seeding {:.3}s ({seeded} seeds), propagation {:.3}s ({rounds} rounds)",
            phase1.as_secs_f64(),
            seeding.as_secs_f64(),
            (clock.elapsed() - phase1 - seeding).as_secs_f64()
        );
    }
    job.progress.advance(size - per_threshold * n as u64);

    // What was never decided is endless play: worth 0. The values are packed into the front
    // of the cell array in place: chunk `c` reads bytes `2cS..2(c+1)S` and writes `cS..(c+1)S`,
    // so chunks `L..2L` may run together once chunks `..L` are done.
    let size = size as usize;
    let cs = CHUNK as usize;
    let bytes = mem.bytes_mut();
    let first = cs.min(size);
    for i in 0..first {
        bytes[i] = final_value(u16::from_le_bytes([bytes[2 * i], bytes[2 * i + 1]]));
    }
    let chunks_total = size.div_ceil(cs);
    let mut from = 1;
    while from < chunks_total {
        let to = (2 * from).min(chunks_total);
        let (front, back) = bytes.split_at_mut(2 * from * cs);
        let src = &back[..2 * (to * cs).min(size) - 2 * from * cs];
        front[from * cs..]
            .par_chunks_mut(cs)
            .zip(src.par_chunks(2 * cs))
            .for_each(|(out, cells)| {
                for (v, c) in out.iter_mut().zip(cells.chunks_exact(2)) {
                    *v = final_value(u16::from_le_bytes([c[0], c[1]]));
                }
            });
        from = to;
    }
    mem.truncate(size);
    mem
}
