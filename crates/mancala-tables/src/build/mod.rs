//! The one build driver, for a single process and for the processes of a distributed
//! build: it checks the limits, plans every tier before any is built, holds the folder's
//! lock, and then, tier after tier, reuses what is valid or has the tier solved and written
//! (in this process: [`crate::build::single`]'s `solve_here`; split across a cluster:
//! [`crate::build::distributed`]), and reports it.

pub mod cluster;
pub(crate) mod distributed;
pub mod plan;
pub(crate) mod single;

use crate::error::{NotDistributed, TableError};
use crate::machine::peak_rss_mb;
use crate::solver::Layout;
use crate::store::format::Encoding;
use crate::store::lock::lock_folder;
use crate::store::table::Table;
use crate::store::tier_files::tier_path;
use cluster::Cluster;
use distributed::solve_split;
use mancala_index::Indexer;
use mancala_rules::{Grouped, Rules};
use plan::Rates;
use single::{
    load, remove_checkpoint, solve_here, BuildObserver, BuildOptions, Tier, TierReport, Values,
};
use std::time::Instant;

/// Builds every tier `0..=opts.max_seeds` that is not already present and valid.
pub fn build(
    rules: &Rules,
    opts: &BuildOptions,
    obs: &dyn BuildObserver,
) -> Result<Vec<TierReport>, TableError> {
    drive(rules, opts, None, obs)
}

/// Builds every tier `0..=opts.max_seeds` that is not already present and valid, each split
/// across the processes of `cluster`; every process calls it with the same arguments.
/// `obs` sees this process's share (process 0's is the one to show). The reports, the same
/// on every process, give each tier's figures: time, file size, the largest peak memory of
/// any process, and the bytes the processes sent each other.
///
/// `opts.memory` is each process's budget. Compressed output and checkpoints inside a tier
/// are not available here (`mancala pack` compresses afterwards; a stopped build resumes at
/// its first unfinished tier).
pub fn build_distributed(
    rules: &Rules,
    opts: &BuildOptions,
    cluster: &dyn Cluster,
    obs: &dyn BuildObserver,
) -> Result<Vec<TierReport>, TableError> {
    drive(rules, opts, Some(cluster), obs)
}

/// The one build driver, for a single process (`cluster` `None`) and for this process's
/// share of a distributed build: it checks the limits, plans every tier before any is built
/// (so a budget too small fails at once), holds the folder's lock, and then, tier after
/// tier, reuses a tier that every process finds valid or solves and writes it
/// (`solve_here`, or `distributed::solve_split`), and reports it.
fn drive(
    rules: &Rules,
    opts: &BuildOptions,
    cluster: Option<&dyn Cluster>,
    obs: &dyn BuildObserver,
) -> Result<Vec<TierReport>, TableError> {
    let key = rules.variant().key();
    let ix = check_limits(rules, opts, cluster.is_some())?;
    let (me, processes) = cluster.map_or((0, 1), |c| (c.rank(), c.size()));
    let threads = rayon::current_num_threads();
    let plans = plan_build(rules, opts, cluster.map(|_| processes), threads)?;
    if cluster.is_none() {
        check_decoded_memory(rules, opts, &ix, plans.as_deref())?;
    }
    // One build at a time in the folder: a second one waits, then reuses what the first
    // built. Process 0 holds the lock for every process (the others wait at the first sum).
    let _lock = match me {
        0 => lock_folder(&opts.dir.join(&key), true, |lock| obs.waiting(lock))?,
        _ => None,
    };
    // Every process says the same: a sum or a maximum over them.
    let all = |ok: bool| cluster.map_or(ok, |c| c.sum(ok as u64) == processes as u64);
    let most = |x: u64| cluster.map_or(x, |c| c.max(x));
    // Every finished tier, raw or decoded: the solver probes them at random.
    let mut tables: Vec<Option<Table>> = Vec::new();
    let mut reports = Vec::new();
    for n in 0..=opts.max_seeds {
        let path = tier_path(&opts.dir, &key, n);
        let size = ix.size(n);
        // A tier is reused when every process can open it (process 0 checks its payload
        // and, with `repair`, its values).
        let opened = path.exists().then(|| {
            Table::open(&path, &key, n, &ix, me == 0)
                .map_err(|e| e.of_tier(&key, n))
                .and_then(|t| {
                    let values = match opts.repair && me == 0 {
                        true => Values::Checked,
                        false => Values::Trusted,
                    };
                    load(rules, &ix, n, t, &tables, values)
                })
        });
        if all(matches!(opened, Some(Ok(_)))) {
            let t = opened.expect("present").expect("valid");
            if cluster.is_none() {
                // A build killed between writing the tier and removing its checkpoint
                // left that behind.
                remove_checkpoint(&path);
            }
            let report = TierReport {
                seeds: n,
                positions: size,
                seconds: 0.0,
                bytes: t.file_bytes(),
                peak_rss_mb: most(peak_rss_mb()),
                reused: true,
                path: path.clone(),
                sent_bytes: 0,
            };
            obs.tier_finished(&report);
            reports.push(report);
            tables.push(Some(t));
            continue;
        }
        if let Some(Err(e)) = &opened {
            obs.replacing(e);
        }
        drop(opened);
        let started = Instant::now();
        let layout = match (&plans, opts.checkpoint_every) {
            (Some(p), _) => p[n].layout.clone(),
            // Without a plan, phase 1 still goes in the slices a checkpoint needs.
            (None, Some(every)) if cluster.is_none() => Layout {
                slices: plan::checkpoint_slices(size, every, threads),
                ..Layout::default()
            },
            (None, _) => Layout::default(),
        };
        let tier = Tier {
            rules,
            ix: &ix,
            n,
            path: &path,
            lower: &tables,
            layout,
        };
        let solved = match cluster {
            Some(c) => solve_split(tier, c, obs)?,
            None => {
                let beyond_memory = plans.as_ref().is_some_and(|p| p[n].beyond_memory());
                solve_here(tier, opts, beyond_memory, obs)?
            }
        };
        let report = TierReport {
            seeds: n,
            positions: size,
            seconds: started.elapsed().as_secs_f64(),
            bytes: solved.bytes,
            peak_rss_mb: most(peak_rss_mb()),
            reused: false,
            path: path.clone(),
            sent_bytes: solved.sent,
        };
        obs.tier_finished(&report);
        reports.push(report);
        tables.push(Some(solved.table));
    }
    Ok(reports)
}

/// Can tiers `0..=opts.max_seeds` be built this way? Each limit once: the game's seeds and
/// the threshold solver's one-byte state ([`plan::check_tiers`]; in a distributed build,
/// which solves every tier with thresholds, for every rule set); relay sowing, which a
/// distributed build cannot un-sow and a single process keeps as 32-bit ranks; compression,
/// which a distributed build does not write. Gives the index of the tiers.
fn check_limits(
    rules: &Rules,
    opts: &BuildOptions,
    distributed: bool,
) -> Result<Indexer, TableError> {
    let key = rules.variant().key();
    let refuse = |what| TableError::NotDistributed {
        key: key.clone(),
        what,
    };
    plan::check_tiers(rules, opts.max_seeds)?;
    if distributed {
        plan::check_state_tiers(rules, opts.max_seeds)?;
        if !rules.can_unsow() {
            return Err(refuse(NotDistributed::RelaySowing));
        }
        if opts.compress {
            return Err(refuse(NotDistributed::Compression));
        }
    }
    let ix = Indexer::new(rules, opts.max_seeds)?;
    // Relay rules keep each tier's quiet moves as 32-bit ranks (`solver::quiet_graph`).
    if let Some(n) =
        (0..=opts.max_seeds).find(|&n| !rules.can_unsow() && ix.size(n) > u32::MAX as u64)
    {
        return Err(TableError::TooLarge {
            tier: n,
            key,
            why: format!(
                "it has {} positions, and with relay sowing a tier's quiet moves are kept as 32-bit ranks, so a tier holds at most {} positions",
                Grouped(ix.size(n) as u128),
                Grouped(u32::MAX as u128)
            ),
        });
    }
    Ok(ix)
}

/// Every tier's plan, made before any tier is built (so that a budget too small fails at
/// once) and the same on every process: for the largest slice of a distributed build of
/// `processes`, or for a single process with phase 1 in the slices its checkpoints need.
/// It is the plan `mancala plan` shows. No budget, no plan: every tier in memory.
fn plan_build(
    rules: &Rules,
    opts: &BuildOptions,
    processes: Option<usize>,
    threads: usize,
) -> Result<Option<Vec<plan::TierPlan>>, TableError> {
    let Some(budget) = opts.memory else {
        return Ok(None);
    };
    let (max, rates) = (opts.max_seeds, Rates::default());
    let tiers = match (processes, opts.checkpoint_every) {
        (Some(p), _) => plan::plan_distributed(rules, max, p, budget, threads, &rates)?,
        (None, Some(every)) => plan::plan_checkpointed(rules, max, budget, threads, &rates, every)?,
        (None, None) => plan::plan_each(rules, max, budget, threads, &rates)?,
    };
    plan::every_tier_or_the_most(tiers).map(Some)
}

/// Holds a build within the machine's memory where the plan cannot see it: compressed tiers
/// are decoded into memory (the solver probes them at random), every tier of a compressed
/// build and in any build the tiers packed already. The plan, made for files it can map or
/// read in order, does not count them: a tier whose plan reads the tiers below in order
/// holds those besides.
fn check_decoded_memory(
    rules: &Rules,
    opts: &BuildOptions,
    ix: &Indexer,
    plans: Option<&[plan::TierPlan]>,
) -> Result<(), TableError> {
    let (Some(plans), Some(memory)) = (plans, crate::physical_memory()) else {
        return Ok(());
    };
    let key = rules.variant().key();
    let packed = |k: usize| {
        Table::open(&tier_path(&opts.dir, &key, k), &key, k, ix, false)
            .is_ok_and(|t| t.encoding() != Encoding::Raw)
    };
    let mut decoded = vec![0u64; opts.max_seeds + 2];
    for k in 0..=opts.max_seeds {
        let held = if opts.compress || packed(k) {
            ix.size(k)
        } else {
            0
        };
        decoded[k + 1] = decoded[k].saturating_add(held);
    }
    // Nothing decoded (a raw build over raw tiers): the plan is the whole story.
    let nothing = decoded[opts.max_seeds + 1] == 0;
    let holds = |t: &plan::TierPlan| {
        t.memory.saturating_add(if t.lower_resident {
            0
        } else {
            decoded[t.seeds]
        })
    };
    match plans.iter().find(|t| !nothing && holds(t) > memory) {
        Some(t) => Err(TableError::CompressedTooBig {
            tier: t.seeds,
            key,
            needed: holds(t),
            memory,
        }),
        None => Ok(()),
    }
}
