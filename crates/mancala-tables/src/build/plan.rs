//! Planning a build within a memory budget: for each tier, how it is laid out, and what
//! memory, disk and time it needs.
//!
//! The threshold solver (tiers with cycles) keeps one state byte a position in memory. Its
//! best exits, one byte more, stay in memory when both fit; otherwise they wait in a file and
//! are read once a threshold, chunks that cannot matter skipped. Phase 1 then takes the tier
//! in slices, each a pass over the lower tiers in order ([`crate::solver`]'s scan), so only a
//! slice's exits are in memory. Where the rules or the order do not allow the scan, and for
//! the one-pass solver, the lower tiers are read at random: they must fit in memory as well.
//! (One exception reads a few children at random during the scan: Wari's grand slam that
//! moves again, whose child keeps the mover, so it does not lie in the run of the row it
//! sows into. Such moves are rare; their pages come through the lower tiers' mappings.)
//!
//! The fastest plan that fits is taken: everything in memory, else the fewest slices.

use crate::error::TableError;
use crate::solver::{Layout, MAX_STATE_TIER};
use crate::MAX_TIER;
use mancala_index::{Indexer, Order};
use mancala_rules::Rules;
use std::path::Path;

/// Rates measured on the reference machine (2-core AMD EPYC VM, docs/performance.md), from
/// which the plan estimates times.
#[derive(Clone, Copy, Debug)]
pub struct Rates {
    /// Positions a core solves a second with thresholds on tiers up to [`Rates::SMALL`]
    /// positions (Awari tiers 16..20 on 2026-11-25: 2.9 to 3.4 M a core; 4 M on quieter days).
    pub threshold_per_core: f64,
    /// Positions a core solves a second in one pass (Kalah tiers). Kalah 6x5 tiers 25 and 26
    /// (0.60 and 0.85 G positions) on 2026-11-28: 22.9 and 22.7 M a core, tiers 0..26 in
    /// 59.0 s, on a fast day; the same host ran the builders at half that speed on slow days
    /// (2026-11-27), so the plan takes 16 M, between the two.
    pub one_pass_per_core: f64,
    /// Sequential disk reads and writes, bytes a second.
    pub disk: f64,
    /// Predecessor updates a position of a tier sends in all (Awari tiers 20..24 with 2
    /// processes: 12.4 to 13.7 bytes a position crossed, 8 bytes an update, about half of
    /// them crossing).
    pub updates_per_position: f64,
    /// What each process of a distributed build can send a second, bytes.
    pub network: f64,
    /// The share of the rates above that tiers (or slices) of [`Rates::BIG`] positions and
    /// more reach: their random accesses miss every cache, and their phase 1 reads the lower
    /// tiers in order, in slices. Before phase 1 took its sowings in tiles, Awari's tiers of
    /// 4.9 G positions and more ran at 0.43 to 0.52 of the rate of tiers of 0.4 G; since,
    /// Oware 7x2's tier 26 (7.78 G, 4 slices) ran at 0.85 of tier 21's (0.91 G) in one
    /// session (2026-11-28). Tiers of 10 G and more are not measured with the tiles yet (the
    /// propagation's share there was 0.71 at 16.7 G), so the plan takes 0.7. Between
    /// [`Rates::SMALL`] and [`Rates::BIG`] the share falls geometrically (measured against tier
    /// 24 of the same build or session: 0.92 at 1.1 G, 0.85 to 0.886 at 1.5 G, 0.82 to 0.85 at
    /// 2.0 G positions, where the curve gives 0.98, 0.91 and 0.86). What still falls is the
    /// propagation: a bigger tier has more predecessor updates a position (13.5% more on Awari's
    /// tier 29 than on tier 24) and each costs a little more (1.19 times), see
    /// docs/performance.md.
    pub big_tier_share: f64,
    /// The share of the per-core rate each doubling of the threads keeps. The rates above are
    /// per core with two threads; Awari tier 29 (2.0 G positions) took 1,150 s on one thread
    /// and 615 and 625 s on two, 1.86 times as fast: 0.93 a doubling. Beyond two threads this
    /// is an assumption (untested here), and the weakest in a cluster's projection.
    pub doubling_share: f64,
}

impl Rates {
    /// Tiers up to this many positions run at the full rates.
    pub const SMALL: f64 = 1.0e9;
    /// Tiers from this many positions on run at `big_tier_share` of them.
    pub const BIG: f64 = 4.9e9;

    /// What `threads` threads do, in cores at the per-core rates (which are two threads'
    /// rates a core): `threads` times [`Rates::doubling_share`] for each doubling beyond two.
    pub fn cores(&self, threads: usize) -> f64 {
        let t = threads.max(1) as f64;
        t * self.doubling_share.powf(t.log2() - 1.0)
    }

    /// The share of the rates a tier (or slice) of `positions` runs at.
    pub fn share(&self, positions: u64) -> f64 {
        let p = positions as f64;
        if p <= Self::SMALL {
            1.0
        } else if p >= Self::BIG {
            self.big_tier_share
        } else {
            let t = (p / Self::SMALL).ln() / (Self::BIG / Self::SMALL).ln();
            self.big_tier_share.powf(t)
        }
    }
}

impl Default for Rates {
    fn default() -> Rates {
        Rates {
            threshold_per_core: 3.0e6,
            one_pass_per_core: 16.0e6,
            disk: 1.0e9,
            updates_per_position: 3.2,
            network: 25e9 / 8.0,
            big_tier_share: 0.7,
            doubling_share: 0.93,
        }
    }
}

/// How one tier is built, and what it needs.
#[derive(Clone, Debug)]
pub struct TierPlan {
    /// The tier.
    pub seeds: usize,
    /// Its positions.
    pub positions: u64,
    /// How the solver lays it out (the exit file's path is filled in by the builder).
    pub layout: Layout,
    /// Peak memory, bytes: the solver's arrays, its other working sets, and the lower tiers
    /// when they are read at random.
    pub memory: u64,
    /// Disk the tier needs at its peak, bytes: while it is solved, its checkpoint (a byte a
    /// position) and its exits (a byte a position, on disk from the first checkpoint, from
    /// phase 1 on when it is checkpointed in slices, or all along); then its file
    /// (uncompressed), once those are gone.
    pub disk: u64,
    /// Bytes read from the lower tiers (once a slice when they are read in order).
    pub lower_reads: u64,
    /// Bytes of the lower tiers: what one pass over them reads.
    pub lower: u64,
    /// Do the lower tiers stay in memory through the tier (counted in `memory`)? They do
    /// where phase 1 reads them at random, and where it scans a big tier only because the
    /// scan is faster ([`SCAN_FROM`]); they pass through where the budget cannot hold them.
    pub lower_resident: bool,
    /// Seconds one more pass over the lower tiers adds (a scan's pass from disk; zero when
    /// they are read at random, or stay in the page cache).
    pub pass_seconds: f64,
    /// Estimated wall-clock seconds with `threads` threads.
    pub seconds: f64,
    /// Processes the tier is split across (1: a single-process build).
    pub processes: usize,
    /// Positions of the largest slice, which the memory and time above are for (the tier's
    /// positions in a single-process build).
    pub slice: u64,
    /// Bytes the process of the largest slice sends the others during the tier.
    pub sent: u64,
}

impl TierPlan {
    /// Are the best exits kept in a file?
    pub fn exits_on_disk(&self) -> bool {
        self.layout.exit_file.is_some()
    }

    /// Does the tier's build keep something beyond memory: the lower tiers, read in order,
    /// or its best exits? A compressed form whose reading probes the lower tiers at random
    /// does not suit such a tier.
    pub fn beyond_memory(&self) -> bool {
        !self.lower_resident || self.exits_on_disk()
    }

    /// The plan as a build that saves a checkpoint at most every `every` with `threads`
    /// threads takes it: phase 1 in slices of about `every` of work each, or the plan's when
    /// they are more, so that a checkpoint can fall inside it ([`checkpoint_slices`]). When
    /// phase 1 scans, each slice more is one more pass over the lower tiers.
    pub fn checkpointed(mut self, every: std::time::Duration, threads: usize) -> TierPlan {
        let before = self.layout.slices.max(1);
        let slices = checkpoint_slices(self.slice, every, threads);
        if slices > before {
            self.layout.slices = slices;
            if self.layout.scan {
                let more = (slices - before) as u64;
                self.lower_reads = self
                    .lower_reads
                    .saturating_add(self.lower.saturating_mul(more));
                self.seconds += self.pass_seconds * more as f64;
            }
        }
        self
    }
}

/// Positions from which phase 1 scans the lower tiers in order even where they stay in
/// memory: on tiers this big the walk's random reads into gigabytes of lower tiers cost
/// more than the scan's passes (Awari's tier 28, 1.48 G positions, lower tiers in the page
/// cache, paired on 2026-11-28: 62 to 70 s against 91 to 94 s for phase 1, the same file;
/// tier 20, 80 M positions: the walk 3.1 s against 3.2 s). From 1 G, where every
/// measurement so far has the scan at least as fast as the walk.
pub const SCAN_FROM: u64 = 1 << 30;

/// How often a build saves a checkpoint inside a tier unless told otherwise (`mancala build
/// --checkpoint-minutes`): a kill loses at most about this much work.
pub const DEFAULT_CHECKPOINT: std::time::Duration = std::time::Duration::from_secs(600);

/// The most slices phase 1 takes a tier in (each reads every lower tier once).
pub const MAX_SLICES: usize = 64;

/// The most slices phase 1 takes a tier whose exits stay in memory in.
pub const MAX_CHECKPOINT_SLICES: usize = 8;

/// Positions a thread takes through phase 1 a second. Since the scan takes its sowings in
/// tiles (2026-11-28): 13.5 M on Oware 7x2's tier 26 (7.78 G positions, 4 slices, 287 s on 2
/// threads) and 13.7 M on Awari's tier 28 made to scan in 2 slices, on a fast day; the same
/// host ran half as fast on slow days, so the plan takes 6 M (before the tiles: 2 M, from
/// Awari's tier 36 with 3 seeds a pit).
pub const PHASE1_PER_THREAD: f64 = 6.0e6;

/// The slices phase 1 of a tier of `size` positions whose exits stay in memory is cut in,
/// so that a checkpoint saved about every `every` can fall inside it: a kill then loses at
/// most a slice, not the whole phase (ten minutes on a tier of 8 G positions here). Each
/// slice of a scan reads the lower tiers once more (tier 34 of Awari: 2 slices, one more
/// read of 25 GB, about half a minute at 1 GB/s, which the plan's time leaves out), so
/// slices are about `every` of work each, at most [`MAX_CHECKPOINT_SLICES`] (as many as that
/// with `every` zero). Threads count as [`Rates::cores`] does (two threads: two cores).
pub fn checkpoint_slices(size: u64, every: std::time::Duration, threads: usize) -> usize {
    slices_of_work(size, every, threads, PHASE1_PER_THREAD)
}

/// The slices, at most [`MAX_CHECKPOINT_SLICES`], that cut `size` positions of work done at
/// `per_thread` positions a thread a second into pieces of about `every` each.
pub fn slices_of_work(
    size: u64,
    every: std::time::Duration,
    threads: usize,
    per_thread: f64,
) -> usize {
    let per_slice = every.as_secs_f64() * per_thread * Rates::default().cores(threads);
    let slices = (size as f64 / per_slice.max(1.0)).ceil();
    (slices as usize).clamp(1, MAX_CHECKPOINT_SLICES)
}

/// Plans tiers `0..=max` of `rules` for `budget` bytes of memory and `threads` threads.
/// Fails with [`TableError::Memory`] naming the first tier that no plan fits and the most
/// any tier needs: a user who gives that much does not fail again on a higher tier.
pub fn plan(
    rules: &Rules,
    max: usize,
    budget: u64,
    threads: usize,
    rates: &Rates,
) -> Result<Vec<TierPlan>, TableError> {
    every_tier_or_the_most(plan_each(rules, max, budget, threads, rates)?)
}

/// Every tier's plan, or the first tier no plan fits as a [`TableError::Memory`] that names
/// the most any of them needs.
pub fn every_tier_or_the_most(
    tiers: Vec<Result<TierPlan, TableError>>,
) -> Result<Vec<TierPlan>, TableError> {
    let most = tiers
        .iter()
        .filter_map(|t| match t {
            Err(TableError::Memory { needed, .. }) => Some(*needed),
            _ => None,
        })
        .max();
    tiers
        .into_iter()
        .map(|t| match t {
            Err(TableError::Memory {
                tier, key, budget, ..
            }) => Err(TableError::Memory {
                tier,
                key,
                needed: most.unwrap_or(budget),
                budget,
            }),
            t => t,
        })
        .collect()
}

/// Plans every tier `0..=max` of `rules` whatever fits: each tier's plan, or for a tier no
/// plan fits, the [`TableError::Memory`] that names what it needs (for a planner to show
/// them all). Fails only when the tiers cannot be built at all.
pub fn plan_each(
    rules: &Rules,
    max: usize,
    budget: u64,
    threads: usize,
    rates: &Rates,
) -> Result<Vec<Result<TierPlan, TableError>>, TableError> {
    check_tiers(rules, max)?;
    let ix = Indexer::new(rules, max)?;
    Ok((0..=max)
        .map(|n| plan_tier(rules, &ix, n, budget, threads, rates))
        .collect())
}

/// Every tier's plan as a single-process build that checkpoints every `every` takes it:
/// [`plan_each`], with phase 1 of the tiers with cycles in the slices a checkpoint needs
/// ([`TierPlan::checkpointed`]; the one-pass solver has no phase 1 to cut).
pub fn plan_checkpointed(
    rules: &Rules,
    max: usize,
    budget: u64,
    threads: usize,
    rates: &Rates,
    every: std::time::Duration,
) -> Result<Vec<Result<TierPlan, TableError>>, TableError> {
    let one_pass = rules.quiet_moves_raise_potential();
    Ok(plan_each(rules, max, budget, threads, rates)?
        .into_iter()
        .map(|t| match one_pass {
            true => t,
            false => t.map(|t| t.checkpointed(every, threads)),
        })
        .collect())
}

/// The memory a tier that no plan fits would need ([`TableError::Memory`]), or `None`.
pub fn needed(tier: &Result<TierPlan, TableError>) -> Option<u64> {
    match tier {
        Err(TableError::Memory { needed, .. }) => Some(*needed),
        _ => None,
    }
}

/// What the tiers of a plan add up to.
#[derive(Clone, Debug, PartialEq)]
pub struct Totals {
    /// Positions of the tiers that fit (also the bytes of their raw tables).
    pub positions: u64,
    /// Their estimated seconds (0 for none).
    pub seconds: f64,
    /// Disk at its fullest: the tiers below, and the tier being solved at its peak.
    pub peak_disk: u64,
    /// The first tier that no plan fits.
    pub first_over: Option<usize>,
    /// The most memory a tier that no plan fits needs (0 when every tier fits).
    pub most_needed: u64,
}

impl Totals {
    /// The totals of `tiers` (from [`plan_each`], [`plan_checkpointed`] or
    /// [`plan_distributed`]).
    pub fn of(tiers: &[Result<TierPlan, TableError>]) -> Totals {
        let fitting: Vec<&TierPlan> = tiers.iter().filter_map(|t| t.as_ref().ok()).collect();
        Totals {
            positions: fitting
                .iter()
                .fold(0u64, |a, t| a.saturating_add(t.positions)),
            // A fold from 0.0, not `sum`: a sum of no `f64` is -0.0.
            seconds: fitting.iter().fold(0.0, |a, t| a + t.seconds),
            peak_disk: fitting
                .iter()
                .scan(0u64, |below, t| {
                    let peak = below.saturating_add(t.disk);
                    *below = below.saturating_add(t.positions);
                    Some(peak)
                })
                .max()
                .unwrap_or(0),
            first_over: tiers.iter().position(|t| t.is_err()),
            most_needed: tiers.iter().filter_map(needed).max().unwrap_or(0),
        }
    }
}

/// Can tiers `0..=max` of `rules` be built at all (whatever the memory)? The game's seeds
/// bound its tiers, and the threshold solver's one-byte state bounds tiers with cycles.
pub fn check_tiers(rules: &Rules, max: usize) -> Result<(), TableError> {
    let key = rules.variant().key();
    let top = rules.max_seeds().min(MAX_TIER);
    if max > top {
        return Err(TableError::TooLarge {
            tier: max,
            key,
            why: format!(
                "this game has {} seeds, so its tiers go up to {top}",
                rules.max_seeds()
            ),
        });
    }
    // Tiers with cycles keep one state byte a position, which holds values up to ±64.
    if !rules.quiet_moves_raise_potential() && max > MAX_STATE_TIER {
        return Err(TableError::TooLarge {
            tier: max,
            key,
            why: format!(
                "the solver's one-byte state holds values up to {MAX_STATE_TIER} seeds, so tables of this game go up to tier {MAX_STATE_TIER}"
            ),
        });
    }
    Ok(())
}

/// Plans tier `n` (see [`plan`]).
pub fn plan_tier(
    rules: &Rules,
    ix: &Indexer,
    n: usize,
    budget: u64,
    threads: usize,
    rates: &Rates,
) -> Result<TierPlan, TableError> {
    let one_pass = rules.quiet_moves_raise_potential();
    plan_positions(rules, ix, n, ix.size(n), one_pass, (budget, threads, rates))
}

/// Plans one process's slice of tier `n`, `size` positions, in a distributed build (which
/// solves every tier with thresholds, see [`crate::build::cluster`]).
pub fn plan_slice(
    rules: &Rules,
    ix: &Indexer,
    n: usize,
    size: u64,
    budget: u64,
    threads: usize,
    rates: &Rates,
) -> Result<TierPlan, TableError> {
    plan_positions(rules, ix, n, size, false, (budget, threads, rates))
}

/// Plans `size` positions of tier `n` solved by one process, in one pass or with
/// thresholds, within a budget of bytes with some threads at some rates.
fn plan_positions(
    rules: &Rules,
    ix: &Indexer,
    n: usize,
    size: u64,
    one_pass: bool,
    (budget, threads, rates): (u64, usize, &Rates),
) -> Result<TierPlan, TableError> {
    // Saturating sums: a game too big for any machine plans as needing "everything", not
    // as a sum that wrapped round to something small.
    let lower = (0..n).fold(0u64, |a, k| a.saturating_add(ix.size(k)));
    let add = |parts: &[u64]| parts.iter().fold(0u64, |a, &b| a.saturating_add(b));
    let threads = rates.cores(threads);
    let scan = !one_pass && rules.sows_own_row_alone() && ix.order() == Order::Published;
    let cpu = |rate: f64| size as f64 / (rate * rates.share(size) * threads);
    let disk = |bytes: u64| bytes as f64 / rates.disk;
    let fits = |memory: u64| memory <= budget;
    let mut plan = TierPlan {
        seeds: n,
        positions: ix.size(n),
        layout: Layout::default(),
        memory: 0,
        disk: size,
        lower_reads: 0,
        lower,
        lower_resident: true,
        pass_seconds: 0.0,
        seconds: 0.0,
        processes: 1,
        slice: size,
        sent: 0,
    };
    if size == 0 {
        // Nothing to solve (Awari's 47 seeds): no memory, no time, no file.
        plan.disk = 0;
        return Ok(plan);
    }
    let needed;
    if one_pass {
        // One byte a position, and the lower tiers at random.
        plan.memory = add(&[size, lower]);
        plan.lower_reads = lower;
        plan.seconds = cpu(rates.one_pass_per_core);
        needed = plan.memory;
        if fits(plan.memory) {
            return Ok(plan);
        }
    } else {
        plan.lower_reads = lower;
        plan.seconds = cpu(rates.threshold_per_core);
        // At the fullest, the exits and the checkpoint beside them, with either the next
        // checkpoint being written (it replaces the last one only once it is whole) or the
        // tier's file (the checkpoint goes only once the file is written).
        plan.disk = size.saturating_mul(3);
        // Fastest where it fits: the state, the exits and the lower tiers all in memory, the
        // best exits worked out position by position (random reads of the lower tiers), or
        // for a big tier by the scan over the lower tiers held in memory all the same.
        let twice = size.saturating_mul(2);
        let faster_scan = scan && size >= SCAN_FROM;
        plan.memory = add(&[twice, working_sets(rules, ix, n, size, faster_scan), lower]);
        if fits(plan.memory) {
            plan.layout.scan = faster_scan;
            return Ok(plan);
        }
        // Else the lower tiers read in order, passing through: the scan.
        let fixed = working_sets(rules, ix, n, size, scan);
        let resident = if scan { 0 } else { lower };
        plan.layout.scan = scan;
        plan.lower_resident = !scan;
        plan.memory = add(&[twice, fixed, resident]);
        if fits(plan.memory) {
            // They come from disk once unless what the budget leaves over holds them in
            // the page cache.
            if scan && size > 0 && lower > budget - plan.memory {
                plan.pass_seconds = disk(lower);
                plan.seconds += plan.pass_seconds;
            }
            return Ok(plan);
        }
        // The exits in a file: a slice of them in memory during phase 1.
        let slices_needed = |slices: u64| add(&[size, size.div_ceil(slices), fixed, resident]);
        let most = if scan { MAX_SLICES as u64 } else { 1 };
        needed = slices_needed(most);
        if let Some(slices) = (1..=most).find(|&k| fits(slices_needed(k))) {
            plan.layout = Layout {
                slices: slices as usize,
                exit_file: Some(Path::new("exits").to_path_buf()),
                checkpoint: None,
                scan,
            };
            plan.memory = slices_needed(slices);
            plan.lower_reads = lower.saturating_mul(slices);
            // The exit file is written once and read in part at each threshold (about a
            // third of it a threshold, as measured on Awari tiers); the lower tiers come
            // from disk once a slice.
            let exit_reads = size as f64 * (n as f64).max(1.0) / 3.0;
            plan.pass_seconds = disk(lower);
            plan.seconds += (size as f64 + exit_reads) / rates.disk + disk(plan.lower_reads);
            return Ok(plan);
        }
    }
    Err(TableError::Memory {
        tier: n,
        key: rules.variant().key(),
        needed,
        budget,
    })
}

/// Plans tiers `0..=max` of `rules` split across `processes` processes, each with `budget`
/// bytes and `threads` threads (see [`crate::build::cluster`]): for each tier, the plan of its
/// largest slice, with the bytes that slice sends the other processes and the time that
/// takes at `rates.network` added to its time. As [`plan_each`], a tier no plan fits is
/// the [`TableError::Memory`] that names what it needs.
pub fn plan_distributed(
    rules: &Rules,
    max: usize,
    processes: usize,
    budget: u64,
    threads: usize,
    rates: &Rates,
) -> Result<Vec<Result<TierPlan, TableError>>, TableError> {
    check_tiers(rules, max)?;
    check_state_tiers(rules, max)?;
    let ix = Indexer::new(rules, max)?;
    let processes = processes.max(1);
    Ok((0..=max)
        .map(|n| {
            let bounds = crate::build::cluster::split(&ix, n, processes, (0, ix.size(n)));
            let slice = bounds.windows(2).map(|w| w[1] - w[0]).max().unwrap_or(0);
            let mut plan = plan_slice(rules, &ix, n, slice, budget, threads, rates)?;
            // Predecessors fall anywhere in the tier: all but a process's share of its
            // updates go to the others, 8 bytes each.
            let away = (processes - 1) as f64 / processes as f64;
            plan.sent = (slice as f64 * rates.updates_per_position * away * 8.0) as u64;
            plan.seconds += plan.sent as f64 / rates.network;
            plan.processes = processes;
            Ok(plan)
        })
        .collect())
}

/// Memory the threshold solver needs besides its state and exits, bytes: the scan's list of
/// (row, pit) sowings, the quiet-move graph of relay rules, and the frontiers of the
/// thresholds (bounded by the solver's seeding groups).
fn working_sets(rules: &Rules, ix: &Indexer, n: usize, size: u64, scan: bool) -> u64 {
    if size == 0 {
        return 0;
    }
    let mut bytes = 8 << 20;
    if scan {
        let rows: u64 = (0..=n).map(|a| ix.own_rows().count(a)).sum();
        bytes += rows * rules.pits() as u64 * 24;
    }
    if !rules.can_unsow() {
        let moves = size.saturating_mul(rules.move_limit() as u64);
        bytes = bytes
            .saturating_add(size.saturating_mul(8))
            .saturating_add(moves.saturating_mul(4));
    }
    // Frontiers: 16 bytes a newly decided position, about one position in sixteen of a
    // seeding group at once (measured on Awari tiers 16..24), at most 64 Mi positions a group.
    bytes += size.min(64 << 20);
    bytes
}

/// The default memory budget: most of the physical memory, leaving room for the system and
/// the page cache of the files being read and written.
pub fn default_budget() -> u64 {
    crate::physical_memory().map_or(8 << 30, |m| m / 10 * 8)
}

/// The largest tier a distributed build solves: its threshold solver's one-byte state holds
/// values up to [`MAX_STATE_TIER`] for every rule set (Kalah-type ones included, which a
/// single process solves otherwise).
pub(crate) fn check_state_tiers(rules: &Rules, max: usize) -> Result<(), TableError> {
    if max > MAX_STATE_TIER {
        return Err(TableError::TooLarge {
            tier: max,
            key: rules.variant().key(),
            why: format!(
                "a distributed build solves with thresholds, whose one-byte state holds values up to {MAX_STATE_TIER} seeds (build the tiers above in one process)"
            ),
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::{checkpoint_slices, plan, Rates, MAX_CHECKPOINT_SLICES, SCAN_FROM};
    use mancala_rules::{Preset, Rules, Variant};
    use std::time::Duration;

    /// With room for everything, tiers below [`SCAN_FROM`] positions read their lower tiers
    /// at random and bigger ones scan them, but both keep them in memory (so neither counts
    /// as built beyond memory, which would change the compressed form); with a budget that
    /// cannot hold the lower tiers beside the top tier, the scan lets them pass through.
    #[test]
    fn big_tiers_scan_lower_tiers_held_in_memory() {
        let r = Rules::new(Variant::preset(Preset::Awari));
        let plans = plan(&r, 29, u64::MAX, 2, &Rates::default()).unwrap();
        for t in &plans {
            let big = t.positions >= SCAN_FROM;
            assert_eq!(t.layout.scan, big, "tier {}", t.seeds);
            assert!(t.lower_resident && !t.beyond_memory(), "tier {}", t.seeds);
            assert!(t.memory >= t.lower + 2 * t.positions, "tier {}", t.seeds);
        }
        assert!(plans[29].layout.scan && !plans[26].layout.scan);
        // 8 GB hold tier 29 (2 G positions: state, exits and 5.4 GB of lower tiers) only if
        // the lower tiers pass through.
        let tight = &plan(&r, 29, 8 << 30, 2, &Rates::default()).unwrap()[29];
        assert!(tight.layout.scan && !tight.lower_resident && tight.beyond_memory());
        assert!(tight.memory < tight.lower);
    }

    /// Phase 1 is cut so that a checkpoint due every 10 minutes can fall inside it: tier 36
    /// of Awari (14.26 G positions, 2 threads at 6 M a second each: 7.2 G in 10 minutes) in 2
    /// slices, Oware 7x2's tier 28 (16.7 G) in 3, a tier of minutes in one, never more than
    /// the cap.
    #[test]
    fn phase1_is_sliced_by_the_checkpoint_interval() {
        let ten = Duration::from_secs(600);
        assert_eq!(checkpoint_slices(14_257_671_650, ten, 2), 2);
        assert_eq!(checkpoint_slices(16_692_092_601, ten, 2), 3);
        assert_eq!(checkpoint_slices(7_200_000_000, ten, 2), 1);
        assert_eq!(checkpoint_slices(7_200_000_001, ten, 2), 2);
        assert_eq!(checkpoint_slices(2_742_236_068, ten, 2), 1);
        assert_eq!(checkpoint_slices(14_257_671_650, ten, 64), 1);
        assert_eq!(
            checkpoint_slices(1_000, Duration::ZERO, 2),
            MAX_CHECKPOINT_SLICES
        );
        assert_eq!(checkpoint_slices(u64::MAX, ten, 0), MAX_CHECKPOINT_SLICES);
    }

    /// Small tiers run at the full rates, big ones at the measured share, and the share
    /// falls without a jump in between.
    #[test]
    fn big_tiers_are_planned_slower() {
        let r = Rates::default();
        assert_eq!(r.share(1_000), 1.0);
        assert_eq!(r.share(Rates::SMALL as u64), 1.0);
        assert_eq!(r.share(Rates::BIG as u64), r.big_tier_share);
        assert_eq!(r.share(200_000_000_000), r.big_tier_share);
        let mut last = 1.0;
        for step in 0..=100 {
            let p = Rates::SMALL + (Rates::BIG - Rates::SMALL) * step as f64 / 100.0;
            let s = r.share(p as u64);
            assert!(
                s <= last + 1e-12 && last - s < 0.02,
                "{p}: {s} after {last}"
            );
            last = s;
        }
        assert!((last - r.big_tier_share).abs() < 1e-9);
    }

    /// The rates are two threads' rates a core: two threads are two cores' worth, one thread
    /// does a little more than a core's share, and each doubling beyond two keeps the
    /// measured share, so more threads always plan faster but never linearly.
    #[test]
    fn threads_scale_by_the_measured_share() {
        let r = Rates::default();
        assert!((r.cores(2) - 2.0).abs() < 1e-12);
        assert!((r.cores(1) - 1.0 / r.doubling_share).abs() < 1e-12);
        assert!((r.cores(4) - 4.0 * r.doubling_share).abs() < 1e-12);
        assert!((r.cores(32) - 32.0 * r.doubling_share.powi(4)).abs() < 1e-9);
        assert_eq!(r.cores(0), r.cores(1));
        let mut last = 0.0;
        for t in 1..=1024 {
            let c = r.cores(t);
            assert!(c > last && c <= t as f64 + 0.1, "{t} threads: {c} cores");
            last = c;
        }
    }
}
