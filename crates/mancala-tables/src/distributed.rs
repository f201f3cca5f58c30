//! The distributed build: every tier split across the processes of a [`Cluster`], each
//! holding only its slice's working state, the table files the same as a single process
//! writes (see [`crate::cluster`] for the design).
//!
//! Every process reads the finished lower tiers from the shared folder. A tier is solved
//! slice by slice at once; each process writes its slice's values to a part file beside the
//! table; process 0 streams the parts into the table (header and checksum as
//! [`crate::write_table`] writes them), which appears under its name only when whole. A
//! build that stops (a process killed, a disk full) is run again with the same command and
//! resumes at the first tier that is not built and valid.

use crate::build::{
    load, remove_checkpoint, values_hold, BuildObserver, BuildOptions, Forward, TierReport,
};
use crate::cluster::{split, Cluster};
use crate::error::{FileError, NotDistributed, TableError};
use crate::lock::lock_folder;
use crate::machine::peak_rss_mb;
use crate::plan::{self, Rates};
use crate::set::Decoded;
use crate::solver::{solve_slice, Layout};
use crate::table::{tier_path, write_table_from_parts, Table};
use mancala_index::Indexer;
use mancala_rules::Rules;
use std::cell::Cell;
use std::path::{Path, PathBuf};
use std::time::Instant;

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
    let key = rules.variant().key();
    let refuse = |what| TableError::NotDistributed {
        key: key.clone(),
        what,
    };
    plan::check_tiers(rules, opts.max_seeds)?;
    plan::check_state_tiers(rules, opts.max_seeds)?;
    if !rules.can_unsow() {
        return Err(refuse(NotDistributed::RelaySowing));
    }
    if opts.compress {
        return Err(refuse(NotDistributed::Compression));
    }
    let ix = Indexer::new(rules, opts.max_seeds)?;
    let (me, processes) = (cluster.rank(), cluster.size());
    let threads = rayon::current_num_threads();
    // Every tier is planned before any is built, the same on every process (for the
    // largest slice), so a budget too small stops them all at once.
    let slices: Vec<Vec<u64>> = (0..=opts.max_seeds)
        .map(|n| split(&ix, n, processes, (0, ix.size(n))))
        .collect();
    let plans = match opts.memory {
        Some(budget) => Some(plan::every_tier_or_the_most(
            (0..=opts.max_seeds)
                .map(|n| {
                    let largest = slices[n].windows(2).map(|w| w[1] - w[0]).max();
                    let size = largest.unwrap_or(0);
                    plan::plan_slice(rules, &ix, n, size, budget, threads, &Rates::default())
                })
                .collect(),
        )?),
        None => None,
    };

    // Process 0 holds the folder's lock for them all (the others wait at the first sum).
    let _lock = match me {
        0 => lock_folder(&opts.dir.join(&key), true, |lock| obs.waiting(lock))?,
        _ => None,
    };
    let mut tables: Vec<Option<Table>> = Vec::new();
    let mut reports = Vec::new();
    for n in 0..=opts.max_seeds {
        let path = tier_path(&opts.dir, &key, n);
        let size = ix.size(n);
        // A tier is reused when every process can open it (process 0 checks its payload).
        let opened = path.exists().then(|| {
            Table::open(&path, &key, n, &ix, me == 0)
                .map_err(|e| e.of_tier(&key, n))
                .and_then(|t| load(rules, &ix, n, t, &tables))
                .and_then(|t| match opts.repair && me == 0 {
                    true => values_hold(rules, &ix, n, t, &tables),
                    false => Ok(t),
                })
        });
        let ok = matches!(opened, Some(Ok(_)));
        if cluster.sum(ok as u64) == processes as u64 {
            let t = opened.expect("present").expect("valid");
            let report = TierReport {
                seeds: n,
                positions: size,
                seconds: 0.0,
                bytes: t.file_bytes(),
                peak_rss_mb: cluster.max(peak_rss_mb()),
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
        let bounds = &slices[n];
        let (lo, hi) = (bounds[me], bounds[me + 1]);
        // Every tier is solved with thresholds here: two passes' worth of units.
        obs.tier_started(n, hi - lo, 2 * (hi - lo));
        let mut layout = plans
            .as_ref()
            .map_or_else(Layout::default, |p| p[n].layout.clone());
        if layout.exit_file.is_some() {
            layout.exit_file = Some(path.with_extension(format!("exits-{me}")));
        }
        let counted = Counted {
            inner: cluster,
            sent: Cell::new(0),
        };
        // An error inside the solve leaves the other processes in a collective step: it
        // returns at once, for the caller to stop the whole job.
        let values = solve_slice(
            rules,
            &ix,
            n,
            &Decoded::new(&tables),
            &Forward(obs, n),
            &layout,
            bounds,
            &counted,
        )
        .map_err(|e| {
            let file = layout.exit_file.as_deref().unwrap_or(&path);
            TableError::of_solver(e, key.clone(), n, file)
        })?;
        let part = part_path(&path, me);
        let written = write_part(&part, &values);
        drop(values);
        let failed = cluster.sum(written.is_err() as u64);
        written?;
        if failed > 0 {
            return Err(TableError::Cluster {
                tier: n,
                key,
                why: format!("{failed} other process(es) could not write their slice"),
            });
        }
        // Process 0 puts the table together; the others wait for its word.
        let assembled = if me == 0 {
            let parts: Vec<PathBuf> = (0..processes).map(|r| part_path(&path, r)).collect();
            let done = write_table_from_parts(&path, &key, n, &ix, &parts);
            if done.is_ok() {
                remove_parts(&path);
                // A one-process build of the tier that was killed left it.
                remove_checkpoint(&path);
            }
            done.map(Some)
        } else {
            Ok(None)
        };
        if cluster.sum(assembled.is_err() as u64) > 0 {
            assembled?;
            return Err(TableError::Cluster {
                tier: n,
                key,
                why: "process 0 could not write the table".into(),
            });
        }
        let table = Table::open(&path, &key, n, &ix, false).map_err(|e| e.of_tier(&key, n))?;
        let report = TierReport {
            seeds: n,
            positions: size,
            seconds: started.elapsed().as_secs_f64(),
            bytes: table.file_bytes(),
            peak_rss_mb: cluster.max(peak_rss_mb()),
            reused: false,
            path: path.clone(),
            sent_bytes: cluster.sum(counted.sent.get()),
        };
        obs.tier_finished(&report);
        reports.push(report);
        tables.push(Some(table));
    }
    Ok(reports)
}

/// Removes every part file of the tier whose table is `table`, whatever process wrote it
/// (an earlier run may have had more processes).
fn remove_parts(table: &Path) {
    let (Some(dir), Some(stem)) = (table.parent(), table.file_stem()) else {
        return;
    };
    let prefix = format!("{}.part-", stem.to_string_lossy());
    if let Ok(entries) = std::fs::read_dir(dir) {
        for e in entries.flatten() {
            if e.file_name().to_string_lossy().starts_with(&prefix) {
                let _ = std::fs::remove_file(e.path());
            }
        }
    }
}

/// The file of process `rank`'s slice of the tier whose table is `table`.
fn part_path(table: &Path, rank: usize) -> PathBuf {
    table.with_extension(format!("part-{rank}"))
}

/// Writes a slice's values and makes them durable.
fn write_part(path: &Path, values: &[u8]) -> Result<(), FileError> {
    use std::io::Write;
    let io = |e| FileError::io(path, e);
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).map_err(|e| FileError::io(parent, e))?;
    }
    let mut f = crate::files::create_fresh(path, false).map_err(io)?;
    f.write_all(values).map_err(io)?;
    f.sync_all().map_err(io)
}

/// A cluster that counts the bytes this process sends to the others.
struct Counted<'a> {
    inner: &'a dyn Cluster,
    sent: Cell<u64>,
}

impl Cluster for Counted<'_> {
    fn rank(&self) -> usize {
        self.inner.rank()
    }

    fn size(&self) -> usize {
        self.inner.size()
    }

    fn exchange(&self, out: Vec<Vec<u64>>) -> Vec<Vec<u64>> {
        let me = self.rank();
        let bytes: usize = out
            .iter()
            .enumerate()
            .filter(|&(r, _)| r != me)
            .map(|(_, v)| 8 * v.len())
            .sum();
        self.sent.set(self.sent.get() + bytes as u64);
        self.inner.exchange(out)
    }

    fn sum(&self, x: u64) -> u64 {
        self.inner.sum(x)
    }

    fn max(&self, x: u64) -> u64 {
        self.inner.max(x)
    }
}
