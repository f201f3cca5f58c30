//! Building every tier up to a seed count, in order, resuming where a previous run stopped.

use crate::set::peak_rss_mb;
use crate::solve::{progress_units, solve_tier, LowerTiers, Progress};
use crate::table::{tier_path, write_table, Table};
use crate::TableError;
use mancala_index::Indexer;
use mancala_rules::Rules;
use std::path::PathBuf;
use std::time::Instant;

#[derive(Clone, Debug)]
pub struct BuildOptions {
    /// Tables go to `dir/<variant key>/tier-NNN.mtb`.
    pub dir: PathBuf,
    /// Build tiers `0..=max_seeds`.
    pub max_seeds: usize,
    /// Write zstd block-compressed files.
    pub compress: bool,
}

/// What one tier took.
#[derive(Clone, Debug)]
pub struct TierReport {
    pub seeds: usize,
    pub positions: u64,
    pub seconds: f64,
    /// Size of the file on disk.
    pub bytes: u64,
    pub peak_rss_mb: u64,
    /// The tier was already built and valid; nothing was done.
    pub reused: bool,
    pub path: PathBuf,
}

/// Hooks for progress display; the library itself prints nothing.
pub trait BuildObserver: Sync {
    /// A tier starts; `work` progress units will follow.
    fn tier_started(&self, _seeds: usize, _positions: u64, _work: u64) {}
    fn progress(&self, _units: u64) {}
    /// A tier file on disk was unusable and is being rebuilt.
    fn replacing(&self, _err: &TableError) {}
    fn tier_finished(&self, _report: &TierReport) {}
}

impl BuildObserver for () {}

struct Forward<'a>(&'a dyn BuildObserver);
impl Progress for Forward<'_> {
    fn advance(&self, units: u64) {
        self.0.progress(units)
    }
}

/// The finished tiers, as the solver reads them.
struct Lower<'a>(&'a [Table]);

impl LowerTiers for Lower<'_> {
    #[inline]
    fn value(&self, tier: usize, rank: u64) -> i8 {
        self.0[tier].get_raw(rank)
    }

    #[inline]
    fn prefetch(&self, tier: usize, rank: u64) {
        self.0[tier].prefetch(rank)
    }
}

/// Builds every tier `0..=opts.max_seeds` that is not already present and valid.
pub fn build(
    rules: &Rules,
    opts: &BuildOptions,
    obs: &dyn BuildObserver,
) -> Result<Vec<TierReport>, TableError> {
    if opts.max_seeds > rules.max_seeds() || opts.max_seeds > 126 {
        return Err(TableError::TooLarge {
            tier: opts.max_seeds,
            why: format!(
                "this game has {} seeds; tables go up to {}",
                rules.max_seeds(),
                rules.max_seeds().min(126)
            ),
        });
    }
    let ix = Indexer::new(rules, opts.max_seeds)?;
    let key = rules.variant().key();
    let mut tables: Vec<Table> = Vec::new();
    let mut reports = Vec::new();
    for n in 0..=opts.max_seeds {
        let path = tier_path(&opts.dir, &key, n);
        let size = ix.size(n);
        if path.exists() {
            match Table::open(&path, &key, n, size, true) {
                Ok(t) => {
                    let report = TierReport {
                        seeds: n,
                        positions: size,
                        seconds: 0.0,
                        bytes: t.file_bytes(),
                        peak_rss_mb: peak_rss_mb(),
                        reused: true,
                        path: path.clone(),
                    };
                    obs.tier_finished(&report);
                    reports.push(report);
                    tables.push(t.into_fast()?);
                    continue;
                }
                Err(e) => obs.replacing(&e),
            }
        }
        let started = Instant::now();
        obs.tier_started(n, size, progress_units(rules, size));
        let values = solve_tier(rules, &ix, n, &Lower(&tables), &Forward(obs));
        let bytes = write_table(&path, &key, n, &values, opts.compress)?;
        drop(values);
        let report = TierReport {
            seeds: n,
            positions: size,
            seconds: started.elapsed().as_secs_f64(),
            bytes,
            peak_rss_mb: peak_rss_mb(),
            reused: false,
            path: path.clone(),
        };
        obs.tier_finished(&report);
        reports.push(report);
        tables.push(Table::open(&path, &key, n, size, false)?.into_fast()?);
    }
    Ok(reports)
}

/// Rewrites the raw tiers `0..=max` of a rule set in compressed form (or back to raw).
/// Returns (tier, bytes before, bytes after) for each file rewritten.
pub fn pack(
    rules: &Rules,
    dir: &std::path::Path,
    max: usize,
    compress: bool,
) -> Result<Vec<(usize, u64, u64)>, TableError> {
    let ix = Indexer::new(rules, max)?;
    let key = rules.variant().key();
    let mut out = Vec::new();
    for n in 0..=max {
        let path = tier_path(dir, &key, n);
        if !path.exists() {
            continue;
        }
        let t = Table::open(&path, &key, n, ix.size(n), true)?;
        if t.is_compressed() == compress {
            continue;
        }
        let before = t.file_bytes();
        let values = t.values()?;
        drop(t);
        let after = write_table(&path, &key, n, &values, compress)?;
        out.push((n, before, after));
    }
    Ok(out)
}
