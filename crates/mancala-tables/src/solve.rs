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

use crate::bytes::Bytes;
use crate::graph::QuietGraph;
use crate::rounds::{cell, value, Ctx, CHUNK, DECIDED};
use mancala_index::Indexer;
use mancala_rules::{Board, Children, Next, Rules};
use rayon::prelude::*;
use std::sync::atomic::Ordering::Relaxed;

/// A best exit for positions with only quiet moves.
pub(crate) const NO_EXIT: i8 = i8::MIN;
/// Chunks seeded together before propagating (64 Mi positions).
const GROUP_CHUNKS: usize = 2048;

/// Progress reports: `done` of `total` work units.
pub trait Progress: Sync {
    fn advance(&self, units: u64);
}

impl Progress for () {
    fn advance(&self, _: u64) {}
}

/// The final values of the tiers below the one being solved, by tier and rank.
pub trait LowerTiers: Sync {
    fn value(&self, tier: usize, rank: u64) -> i8;
    /// Starts fetching a value that will be read soon.
    fn prefetch(&self, _tier: usize, _rank: u64) {}
}

/// Solves tier `n`, given the final values of every lower tier. Returns one signed byte per
/// rank. Tiers without cycles (Kalah type) are solved in one pass by potential
/// (see `levels`); the others by retrograde analysis with thresholds.
///
/// Progress: `2 * size` units for the retrograde analysis (one pass over the positions and
/// one over the thresholds), `size` for one pass.
pub fn solve_tier<L: LowerTiers>(
    rules: &Rules,
    ix: &Indexer,
    n: usize,
    lower: &L,
    progress: &dyn Progress,
) -> Bytes {
    if rules.quiet_moves_raise_potential() {
        crate::levels::solve_levels(rules, ix, n, lower, progress)
    } else {
        solve_tier_grouped(rules, ix, n, lower, progress, GROUP_CHUNKS)
    }
}

/// The work units [`solve_tier`] reports for tier `n` of `size` positions.
pub fn progress_units(rules: &Rules, size: u64) -> u64 {
    if rules.quiet_moves_raise_potential() {
        size
    } else {
        2 * size
    }
}

fn solve_tier_grouped<L: LowerTiers>(
    rules: &Rules,
    ix: &Indexer,
    n: usize,
    lower: &L,
    progress: &dyn Progress,
    group_chunks: usize,
) -> Bytes {
    assert!(n <= 126, "tiers above 126 seeds do not fit a signed byte");
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
        let mut exits = Exits::default();
        let mut walk = ix.walk_from(n, start);
        let mut done = 0;
        while done < len {
            // A batch of positions: gather the lower-tier probes and prefetch them, then read.
            let batch = EXIT_BATCH.min(len - done);
            exits.clear();
            for _ in 0..batch {
                let b = walk.next().expect("rank inside the tier");
                exits.add(rules, ix, b, n, lower);
            }
            exits.resolve(lower);
            let first = (start + done) as usize;
            for (i, &(exit, quiet)) in exits.positions.iter().enumerate() {
                cells[first + i].store(cell(exit, quiet), Relaxed);
            }
            done += batch;
        }
        progress.advance(len);
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
        progress.advance(per_threshold);
    }
    if profile {
        eprintln!(
            "tier {n}: {size} positions; exits {:.3}s, seeding {:.3}s ({seeded} seeds), propagation {:.3}s ({rounds} rounds)",
            phase1.as_secs_f64(),
            seeding.as_secs_f64(),
            (clock.elapsed() - phase1 - seeding).as_secs_f64()
        );
    }
    progress.advance(size - per_threshold * n as u64);

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

/// A cell's final value: what was never decided is endless play, worth 0.
#[inline(always)]
fn final_value(cell: u16) -> u8 {
    if cell & DECIDED != 0 {
        value(cell) as u8
    } else {
        0
    }
}

/// Positions whose exits are computed together, so their lower-tier probes overlap.
const EXIT_BATCH: u64 = 32;

/// For a batch of positions: the best value among moves that leave the tier (or end the game)
/// and the number of quiet moves. A terminal position's value is its only exit.
#[derive(Default)]
pub(crate) struct Exits {
    /// (best exit so far, quiet moves) per position of the batch.
    pub positions: Vec<(i8, u8)>,
    /// Exits into lower tiers, waiting for their values.
    probes: Vec<Probe>,
    /// Scratch space for move generation.
    kids: Children,
}

struct Probe {
    /// Index into `positions`.
    at: u32,
    tier: u32,
    rank: u64,
    /// The move's value is `gain + sign * v(child)`.
    gain: i32,
    sign: i32,
}

impl Exits {
    pub fn clear(&mut self) {
        self.positions.clear();
        self.probes.clear();
    }

    pub fn add<L: LowerTiers>(
        &mut self,
        rules: &Rules,
        ix: &Indexer,
        b: Board,
        n: usize,
        lower: &L,
    ) {
        let at = self.positions.len() as u32;
        let kids = &mut self.kids;
        let entry = match rules.moves_into(b, kids) {
            Some((mover, opp)) => (mover as i8 - opp as i8, 0),
            None => {
                let mut best = NO_EXIT as i32;
                let mut quiet = 0u8;
                for c in kids.iter() {
                    match c.next {
                        Next::Over => best = best.max(c.value(0)),
                        Next::Opponent if c.gain == 0 && c.opp_gain == 0 => {
                            debug_assert_eq!(c.board.total() as usize, n);
                            quiet += 1;
                        }
                        _ => {
                            let tier = c.board.total() as usize;
                            debug_assert!(tier < n);
                            let rank = ix.rank(c.board).unwrap_or_else(|| {
                                panic!("child {:?} of tier {n} is not indexed", c.board)
                            });
                            lower.prefetch(tier, rank);
                            self.probes.push(Probe {
                                at,
                                tier: tier as u32,
                                rank,
                                gain: c.value(0),
                                sign: if c.next == Next::Mover { 1 } else { -1 },
                            });
                        }
                    }
                }
                (best.max(NO_EXIT as i32) as i8, quiet)
            }
        };
        self.positions.push(entry);
    }

    pub fn resolve<L: LowerTiers>(&mut self, lower: &L) {
        for p in &self.probes {
            let v = p.gain + p.sign * lower.value(p.tier as usize, p.rank) as i32;
            let e = &mut self.positions[p.at as usize].0;
            *e = (*e as i32).max(v) as i8;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use mancala_rules::{Preset, Variant};

    struct Memory(Vec<Vec<u8>>);
    impl LowerTiers for Memory {
        fn value(&self, tier: usize, rank: u64) -> i8 {
            self.0[tier][rank as usize] as i8
        }
    }

    /// The one-pass solver of Kalah-type tiers and the retrograde analysis agree byte for
    /// byte on every tier up to 14 seeds, for both capture rules.
    #[test]
    fn levels_agree_with_retrograde_analysis_on_kalah() {
        for empty_capture in [false, true] {
            for pits in [3u32, 6] {
                let opts = mancala_rules::Options {
                    pits: Some(pits),
                    empty_capture,
                    ..Default::default()
                };
                let rules = Rules::new(Variant::new(Preset::Kalah, opts).unwrap());
                let ix = Indexer::new(&rules, 14).unwrap();
                let mut lower = Memory(Vec::new());
                for n in 0..=14 {
                    let one_pass = crate::levels::solve_levels(&rules, &ix, n, &lower, &());
                    let retro = solve_tier_grouped(&rules, &ix, n, &lower, &(), GROUP_CHUNKS);
                    assert_eq!(one_pass[..], retro[..], "kalah {pits} pits tier {n}");
                    lower.0.push(retro.to_vec());
                }
            }
        }
    }

    /// Kalah-type moves worked out on whole rows give the rules' move generator's values,
    /// byte for byte, on every tier up to 14 seeds of every board width and both capture
    /// rules.
    #[test]
    fn row_moves_agree_with_the_move_generator() {
        for empty_capture in [false, true] {
            for pits in 1u32..=6 {
                let opts = mancala_rules::Options {
                    pits: Some(pits),
                    empty_capture,
                    ..Default::default()
                };
                let rules = Rules::new(Variant::new(Preset::Kalah, opts).unwrap());
                let max = rules.max_seeds().min(if pits <= 4 { 16 } else { 13 });
                let ix = Indexer::new(&rules, max).unwrap();
                let mut lower = Memory(Vec::new());
                for n in 0..=max {
                    let rows = crate::levels::solve_levels_with(&rules, &ix, n, &lower, &(), true);
                    let generic =
                        crate::levels::solve_levels_with(&rules, &ix, n, &lower, &(), false);
                    assert_eq!(rows[..], generic[..], "kalah {pits} pits tier {n}");
                    lower.0.push(generic.to_vec());
                }
            }
        }
    }

    /// Seeding a chunk at a time (many groups) gives the same values as seeding all at once.
    #[test]
    fn seed_groups_do_not_change_values() {
        for preset in [Preset::Awari, Preset::Oware] {
            let rules = Rules::new(Variant::preset(preset));
            let ix = Indexer::new(&rules, 12).unwrap();
            let mut lower = Memory(Vec::new());
            for n in 0..=12 {
                let all = solve_tier_grouped(&rules, &ix, n, &lower, &(), usize::MAX);
                let one = solve_tier_grouped(&rules, &ix, n, &lower, &(), 1);
                assert_eq!(all[..], one[..], "{preset} tier {n}");
                lower.0.push(all.to_vec());
            }
            assert!(ix.size(12) > 10 * CHUNK, "tier 12 spans many chunks");
        }
    }
}
