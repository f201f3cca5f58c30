//! `mancala verify`: every table file's header and checksum, and every value recomputed
//! from the position's moves.

use super::progress::VerifyDisplay;
use super::{check_memory, Bars, TableArgs, VuDir, Workers};
use crate::args::{parse_size, set_threads};
use crate::tiers::group;
use anyhow::{bail, Context, Result};
use clap::Args;
use mancala_rules::Rules;
use mancala_tables::plan::default_budget;
use mancala_tables::{open_checked, verify_with, Tables, TierFiles, VerifyOptions, JOURNAL};
use std::sync::Mutex;

#[derive(Args, Debug)]
pub struct VerifyCmd {
    #[command(flatten)]
    table: TableArgs,

    /// Check tiers 0..=N (default: every tier present)
    #[arg(long, value_name = "N", allow_negative_numbers = true)]
    max_seeds: Option<usize>,

    /// Recompute the values of tiers N and up only; the files below still have their headers
    /// and checksums checked (the top tiers of a big build, checked after it: the tiers below
    /// were checked on the way up)
    #[arg(
        long,
        value_name = "N",
        default_value_t = 0,
        allow_negative_numbers = true
    )]
    min_seeds: usize,

    #[command(flatten)]
    published: VuDir,

    /// Check every value again: by default a verification goes on from what an earlier one
    /// found right in the same files, as the folder's `verify.journal` records it (a killed
    /// verification of big tables resumes), and records what it checks there
    #[arg(long)]
    fresh: bool,

    /// Memory budget (20G, 512M; default: 80% of the physical memory): a tier that does not
    /// fit with every tier below it is checked reading them in order, a slice at a time
    #[arg(long, value_name = "SIZE", allow_hyphen_values = true, value_parser = parse_size)]
    memory: Option<u64>,

    /// Print one JSON object on stdout: `ok`, `key`, `positions`, `earlier` (checked by an
    /// earlier run), `seconds`, `tiers` (`seeds`, `positions`, `earlier`), and `first_bad`
    /// when a value is wrong (the command then fails, as without --json)
    #[arg(long)]
    json: bool,

    #[command(flatten)]
    bars: Bars,

    #[command(flatten)]
    workers: Workers,
}
impl VerifyCmd {
    pub fn run(&self) -> Result<()> {
        let rules = self.table.rules()?;
        set_threads(self.workers.threads)?;
        let key = rules.variant().key();
        let vu_dir = self.published.vu_dir.as_deref();
        let files = match vu_dir {
            Some(dir) => TierFiles::Published { dir },
            None => TierFiles::Built {
                dir: &self.table.dir,
                key: &key,
            },
        };
        if let Some(vu) = vu_dir.filter(|d| !d.is_dir()) {
            bail!(
                "--vu-dir {}: no such folder (it should hold the published database's files scores.0, scores.1, ...)",
                vu.display()
            );
        }
        let max = self.last_tier(&rules, &files)?;
        let min = self.min_seeds;
        if min > max {
            bail!("--min-seeds {min} is above the last tier to check, {max}: give a lower --min-seeds, or a higher --max-seeds");
        }
        let advice = self.table.advice();
        let display = VerifyDisplay {
            quiet: self.bars.quiet,
            bar: Mutex::new(None),
        };
        if let Some(m) = self.memory {
            check_memory(m)?;
        }
        let started = std::time::Instant::now();
        let opts = VerifyOptions {
            budget: self.memory.unwrap_or_else(default_budget),
            resume: !self.fresh,
            record: true,
            observer: &display,
        };
        let report = match vu_dir {
            Some(vu) => Tables::open_published(vu, &rules, max),
            None => open_checked(&rules, &self.table.dir, max),
        }
        .and_then(|t| verify_with(&t, min..=max, &opts))
        .map_err(|e| advice.table(e))?;
        if let Some(bar) = display.bar.lock().unwrap().take() {
            bar.finish_and_clear();
        }
        if self.json {
            let seconds = started.elapsed().as_secs_f64();
            println!(
                "{}",
                mancala_oracle::json::verification(&key, &report, seconds)
            );
        }
        if let Some(bad) = report.first_bad {
            let fix = match vu_dir {
                Some(_) => "download that file again".to_string(),
                None => format!(
                    "`{} --repair` rebuilds every tier whose values are wrong",
                    self.table.variant.build_command(max, &self.table.dir)
                ),
            };
            bail!(
                "{}: tier {} rank {} position {:?} stores {} but its moves give {}; {fix}",
                bad.path.display(),
                bad.tier,
                group(bad.rank as u128),
                bad.position,
                bad.stored,
                bad.recomputed_text()
            );
        }
        if self.json {
            return Ok(());
        }
        let what = match (vu_dir, min) {
            (Some(_), 0) => "every file's size and every value checked".to_string(),
            (None, 0) => "every header, checksum and value checked".to_string(),
            (Some(_), _) => format!("the values of tiers {min}..={max} checked"),
            (None, _) => {
                format!("the values of tiers {min}..={max} checked, every header and checksum")
            }
        };
        let total: u64 = report.tiers.iter().map(|t| t.1).sum();
        let earlier = match report.earlier.iter().map(|t| t.1).sum::<u64>() {
            0 => String::new(),
            e => format!(
                " ({} of them by an earlier run, as {} records; --fresh checks them again)",
                group(e as u128),
                JOURNAL
            ),
        };
        println!(
            "ok: {} tiers of {key}, {} positions, {what}{earlier}",
            report.tiers.len(),
            group(total as u128)
        );
        Ok(())
    }

    /// The last tier to check: `--max-seeds`, every tier up to which must be there, or else
    /// the highest tier there is.
    fn last_tier(&self, rules: &Rules, files: &TierFiles<'_>) -> Result<usize> {
        let key = rules.variant().key();
        let top = mancala_tables::top_tier(rules);
        let folder = files.folder();
        let Some(n) = self.max_seeds else {
            return files.highest(top).with_context(|| {
                format!(
                    "no tables of {key} in {}; build them with `{}`",
                    folder.display(),
                    self.table.variant.build_command(16, &self.table.dir)
                )
            });
        };
        if n > top {
            bail!("--max-seeds {n}: {key} has tiers up to {top}");
        }
        // Every tier asked for must be there to be checked.
        let ix = mancala_index::Indexer::new(rules, n)?;
        let missing: Vec<String> = files
            .missing(&ix, n)
            .iter()
            .map(|t| t.to_string())
            .collect();
        if !missing.is_empty() {
            bail!(
                "tiers {} of {key} are not in {}: build them with `{}`, or check fewer with --max-seeds",
                missing.join(", "),
                folder.display(),
                self.table.variant.build_command(n, &self.table.dir)
            );
        }
        Ok(n)
    }
}
