//! `mancala build`, `query`, `verify`, `info` and `pack`: the endgame tables.

use crate::advice::{size_text, Advice};
use crate::args::{parse_size, set_threads, VariantArgs};
use crate::games::check_tables;
use crate::searching::{progress_printer, DEFAULT_DIR};
use crate::tiers::{group, seconds_sum};
use anyhow::{bail, Context, Result};
use clap::Args;
use indicatif::{ProgressBar, ProgressState, ProgressStyle};
use mancala_oracle::{Options, Oracle, Settings, TableSize};
use mancala_rules::{parse_position, Rules};
use mancala_tables::plan::{
    default_budget, plan, plan_distributed, plan_each, Rates, TierPlan, DEFAULT_CHECKPOINT,
};
use mancala_tables::{
    build, open_checked, pack, published, tier_path, verify_with, BuildObserver, BuildOptions,
    Resume, TableError, Tables, TierReport, VerifyObserver, VerifyOptions, JOURNAL, MAX_TIER,
};
use serde_json::json;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Duration;

/// The variant and the table folder: what every command on tables names.
#[derive(Args, Debug)]
pub struct TableArgs {
    #[command(flatten)]
    variant: VariantArgs,

    /// Table folder; each rule set gets its own subfolder
    #[arg(long, value_name = "D", default_value = DEFAULT_DIR)]
    dir: PathBuf,
}

impl TableArgs {
    /// The rule set, which must be one with tables, and a table folder that is not a file.
    fn rules(&self) -> Result<Rules> {
        check_tables(&self.variant.name())?;
        crate::args::table_dir(&self.dir)?;
        self.variant.rules()
    }

    fn advice(&self) -> Advice<'_> {
        Advice {
            variant: &self.variant,
            dir: &self.dir,
        }
    }
}

#[derive(Args, Debug)]
pub struct BuildCmd {
    #[command(flatten)]
    table: TableArgs,

    /// Build every tier 0..=N (seeds in the pits)
    #[arg(
        long,
        value_name = "N",
        allow_negative_numbers = true,
        default_value_t = 16
    )]
    max_seeds: usize,

    /// Worker threads (default: one per core)
    #[arg(long, value_name = "T", allow_negative_numbers = true)]
    threads: Option<usize>,

    /// Memory budget (20G, 1T, 512M; default: 80% of the physical memory). Each tier is
    /// planned within it before the build starts (see `mancala plan`): a tier whose state
    /// and best exits do not both fit keeps its exits in a file beside the tables
    #[arg(long, value_name = "SIZE", allow_hyphen_values = true, value_parser = parse_size)]
    memory: Option<u64>,

    /// Save a tier's state at most every M minutes (0: at every chance), between thresholds
    /// and between slices of its best exits (a tier of more than about M minutes' work is
    /// taken in up to 8 slices for that), so a killed build resumes inside the tier; the
    /// saves go beside the tables and are removed when the tier is done
    #[arg(
        long,
        value_name = "M",
        allow_negative_numbers = true,
        default_value_t = DEFAULT_CHECKPOINT.as_secs_f64() / 60.0
    )]
    checkpoint_minutes: f64,

    /// Write compressed tables: about a third of the raw size (each value stored as its
    /// difference from what the lower tiers predict, in zstd blocks), or for tiers built
    /// beyond memory about 45% (the values in zstd blocks, read back without the lower
    /// tiers). Reading one position unpacks one block; the builder and the searcher decode
    /// whole tiers into memory (`mancala pack --unpack` makes raw files again)
    #[arg(long)]
    compress: bool,

    /// Check every value of the tiers already built against their moves before keeping them,
    /// and rebuild those with a wrong value (a build otherwise trusts a file whose checksum
    /// holds; `mancala verify` says when this is needed)
    #[arg(long)]
    repair: bool,

    /// Distributed build: run under `mpirun -np N`, every process with the same arguments
    /// and a folder they all share; each tier is split across the processes, and --memory
    /// and --threads are per process (default: this machine's share). Needs a binary built
    /// with `--features mpi`
    #[arg(long)]
    mpi: bool,

    /// Print one JSON object per tier on stdout instead of summary lines
    #[arg(long)]
    json: bool,

    /// No progress bars
    #[arg(long, short)]
    quiet: bool,
}

/// A progress bar of `len` for tier `tier`, drawn by `template` (the tier is its prefix).
fn tier_bar(len: u64, tier: usize, template: &str) -> ProgressBar {
    let bar = ProgressBar::new(len);
    let style = ProgressStyle::with_template(template)
        .expect("valid template")
        .with_key("rate", |s: &ProgressState, w: &mut dyn std::fmt::Write| {
            let _ = write!(w, "{:.2} M/s", s.per_sec() / 1e6);
        });
    bar.set_style(style.progress_chars("=> "));
    bar.set_prefix(tier.to_string());
    bar
}

/// Progress bars on stderr and a line (or JSON object) per tier on stdout.
struct Display {
    json: bool,
    quiet: bool,
    /// The current tier's bar, its total work units and the units done.
    bar: Mutex<Option<(ProgressBar, u64, u64)>>,
}

impl BuildObserver for Display {
    fn tier_started(&self, seeds: usize, positions: u64, work: u64) {
        if self.quiet || positions < 1_000_000 {
            return;
        }
        // The bar counts positions; the solver reports work units (two passes' worth).
        let bar = tier_bar(
            positions,
            seeds,
            "tier {prefix:>3} [{bar:30}] {percent:>3}% {msg}, {human_pos}/{human_len} positions, {rate}, ETA {eta}",
        );
        *self.bar.lock().unwrap() = Some((bar, work.max(1), 0));
    }

    fn progress(&self, units: u64) {
        if let Some((bar, work, done)) = self.bar.lock().unwrap().as_mut() {
            *done += units;
            let len = bar.length().unwrap_or(0);
            bar.set_position((*done as u128 * len as u128 / *work as u128) as u64);
        }
    }

    fn phase(&self, what: &str) {
        if let Some((bar, _, _)) = self.bar.lock().unwrap().as_ref() {
            bar.set_message(what.to_string());
        }
    }

    fn resuming(&self, seeds: usize, from: Resume) {
        // The work done before the kill came in one step: the rate and the ETA start here.
        if let Some((bar, _, _)) = self.bar.lock().unwrap().as_ref() {
            bar.reset_eta();
        }
        if self.json {
            return;
        }
        match from {
            Resume::Threshold(t) => {
                println!("tier {seeds:>3}: resuming from its checkpoint at threshold {t}")
            }
            Resume::Exits { done } => println!(
                "tier {seeds:>3}: resuming from its checkpoint in the best exits, {} positions done",
                group(done as u128)
            ),
        }
    }

    fn starting_over(&self, seeds: usize) {
        let say = || {
            eprintln!(
                "tier {seeds}: its checkpoint is damaged, from another version of mancala, or saved over other lower tiers: building the tier from its start (the next save replaces the file)"
            )
        };
        match self.bar.lock().unwrap().as_ref() {
            Some((bar, _, _)) => bar.suspend(say),
            None => say(),
        }
    }

    fn replacing(&self, err: &TableError) {
        eprintln!("rebuilding: {err}");
    }

    fn waiting(&self, lock: &Path) {
        eprintln!(
            "another build is writing {} (it holds {}): waiting for it to finish, then going on from what it built (Ctrl-C to stop)",
            lock.parent().unwrap_or(lock).display(),
            lock.display()
        );
    }

    fn tier_finished(&self, r: &TierReport) {
        if let Some((bar, _, _)) = self.bar.lock().unwrap().take() {
            bar.finish_and_clear();
        }
        let rate = if r.seconds > 0.0 {
            r.positions as f64 / r.seconds
        } else {
            0.0
        };
        if self.json {
            let v = json!({
                "seeds": r.seeds,
                "positions": r.positions,
                "seconds": (r.seconds * 1000.0).round() / 1000.0,
                "bytes": r.bytes,
                "peak_rss_mb": r.peak_rss_mb,
                "positions_per_second": rate.round(),
                "reused": r.reused,
                "sent_bytes": r.sent_bytes,
            });
            println!("{v}");
        } else if r.reused {
            println!(
                "tier {:>3}: {:>15} positions, already built ({})",
                r.seeds,
                group(r.positions as u128),
                r.path.display()
            );
        } else {
            println!(
                "tier {:>3}: {:>15} positions in {:>8.2} s ({:>6.2} M/s), {} bytes, peak RSS {} MB",
                r.seeds,
                group(r.positions as u128),
                r.seconds,
                rate / 1e6,
                group(r.bytes as u128),
                r.peak_rss_mb
            );
        }
    }
}

impl BuildCmd {
    pub fn run(&self) -> Result<()> {
        if self.mpi {
            return self.run_distributed();
        }
        let rules = self.table.rules()?;
        set_threads(self.threads)?;
        let every = self.checkpoint_every()?;
        let budget = self.memory.unwrap_or_else(default_budget);
        check_memory(budget)?;
        let opts = BuildOptions {
            dir: self.table.dir.clone(),
            max_seeds: self.max_seeds,
            compress: self.compress,
            memory: Some(budget),
            checkpoint_every: Some(every),
            repair: self.repair,
        };
        let display = Display {
            json: self.json,
            quiet: self.quiet || self.json,
            bar: Mutex::new(None),
        };
        if !self.json {
            println!(
                "Building {} tiers 0..={} in {}",
                rules.variant(),
                self.max_seeds,
                self.table.dir.join(rules.variant().key()).display()
            );
        }
        {
            let on_disk: Vec<String> =
                plan(&rules, self.max_seeds, budget, threads(), &Rates::default())
                    .map(|p| {
                        p.iter()
                            .filter(|t| t.exits_on_disk())
                            .map(|t| t.seeds.to_string())
                            .collect()
                    })
                    .unwrap_or_default();
            let line = format!(
                "memory budget {}{}{}",
                size_text(budget),
                if self.memory.is_none() {
                    " (80% of the physical memory; --memory to change)"
                } else {
                    ""
                },
                if on_disk.is_empty() {
                    String::new()
                } else {
                    let (noun, verb) = if on_disk.len() == 1 {
                        ("tier", "keeps")
                    } else {
                        ("tiers", "keep")
                    };
                    format!(
                        "; {noun} {} {verb} the best exits on disk",
                        on_disk.join(", ")
                    )
                }
            );
            // With --json, stdout is the tiers' objects: the budget goes to stderr.
            if self.json {
                eprintln!("{line}");
            } else {
                println!("{line}");
            }
        }
        let advice = self.table.advice();
        let reports = build(&rules, &opts, &display).map_err(|e| advice.table(e))?;
        if !self.json {
            summary(&reports);
        }
        Ok(())
    }

    fn checkpoint_every(&self) -> Result<Duration> {
        if !(0.0..=525_600.0).contains(&self.checkpoint_minutes) {
            bail!("--checkpoint-minutes must be between 0 and 525600 (a year)");
        }
        Ok(Duration::from_secs_f64(self.checkpoint_minutes * 60.0))
    }

    #[cfg(not(feature = "mpi"))]
    fn run_distributed(&self) -> Result<()> {
        bail!(
            "this mancala was built without MPI: build it with `cargo build --release -p mancala-cli --features mpi` (needs OpenMPI or MPICH, and libclang) and start it with `mpirun -np N target/release/mancala build ... --mpi`"
        )
    }

    /// `--mpi`: this process's share of a distributed build. Process 0 prints; an error on
    /// any process stops the whole job.
    #[cfg(feature = "mpi")]
    fn run_distributed(&self) -> Result<()> {
        use mancala_tables::{build_distributed, Cluster};
        // Everything that can be refused is checked before MPI starts: after, an error on
        // one process must stop them all.
        let rules = self.table.rules()?;
        self.checkpoint_every()?;
        crate::args::threads(self.threads)?;
        if let Some(m) = self.memory {
            check_memory(m)?;
        }
        let mpi = crate::mpi::Mpi::init()?;
        let (me, processes, here) = (mpi.rank(), mpi.size(), mpi.on_this_machine());
        let stop = |e: anyhow::Error| -> ! {
            eprintln!("error (process {me} of {processes}): {e:#}");
            mpi.abort(1)
        };
        let cores = crate::args::cores();
        let threads = self.threads.unwrap_or((cores / here).max(1));
        if let Err(e) = set_threads(Some(threads)) {
            stop(e);
        }
        let budget = self.memory.unwrap_or(default_budget() / here as u64);
        let opts = BuildOptions {
            dir: self.table.dir.clone(),
            max_seeds: self.max_seeds,
            compress: self.compress,
            memory: Some(budget),
            checkpoint_every: None,
            repair: self.repair,
        };
        let display = Display {
            json: self.json,
            quiet: self.quiet || self.json,
            bar: Mutex::new(None),
        };
        if me == 0 && !self.json {
            println!(
                "Building {} tiers 0..={} in {}, each split across {processes} processes ({threads} threads each, memory budget {} each)",
                rules.variant(),
                self.max_seeds,
                self.table.dir.join(rules.variant().key()).display(),
                size_text(budget)
            );
        }
        let obs: &dyn BuildObserver = if me == 0 { &display } else { &() };
        match build_distributed(&rules, &opts, &mpi, obs) {
            Ok(reports) => {
                if me == 0 && !self.json {
                    summary(&reports);
                    let sent: u64 = reports.iter().map(|r| r.sent_bytes).sum();
                    let pos: u64 = reports
                        .iter()
                        .filter(|r| !r.reused)
                        .map(|r| r.positions)
                        .sum();
                    println!(
                        "the processes sent each other {} bytes ({:.2} a position built)",
                        group(sent as u128),
                        sent as f64 / pos.max(1) as f64
                    );
                }
                Ok(())
            }
            Err(e) => stop(self.table.advice().table(e)),
        }
    }
}

/// `--memory` of a build: at most this machine's memory (`mancala plan` plans for others).
fn check_memory(budget: u64) -> Result<()> {
    if let Some(have) = mancala_tables::physical_memory() {
        if budget > have {
            bail!(
                "--memory {}: this machine has {}; give at most that (`mancala plan --memory` plans for bigger machines)",
                size_text(budget),
                size_text(have)
            );
        }
    }
    Ok(())
}

/// The last line of a build: what was built and reused.
fn summary(reports: &[TierReport]) {
    let built: Vec<&TierReport> = reports.iter().filter(|r| !r.reused).collect();
    let secs = seconds_sum(built.iter().map(|r| r.seconds));
    let pos: u64 = built.iter().map(|r| r.positions).sum();
    let bytes: u64 = reports.iter().map(|r| r.bytes).sum();
    println!(
        "done: {} tiers built ({} positions in {:.2} s), {} reused; {} bytes on disk",
        built.len(),
        group(pos as u128),
        secs,
        reports.len() - built.len(),
        group(bytes as u128)
    );
}

#[derive(Args, Debug)]
pub struct QueryCmd {
    #[command(flatten)]
    table: TableArgs,

    /// The position: 2m pit counts, side to move's pits first; with nam-nam --owners, a last
    /// word `north` puts North to move
    #[arg(allow_hyphen_values = true)]
    position: String,

    /// Print one JSON object: value, moves, best, seeds, source
    #[arg(long)]
    json: bool,

    /// Above the built tiers: transposition table size in MB for the search
    #[arg(
        long,
        value_name = "MB",
        allow_negative_numbers = true,
        default_value_t = 256
    )]
    hash: usize,

    /// Above the built tiers: search threads (default: one per core)
    #[arg(long, value_name = "T", allow_negative_numbers = true)]
    threads: Option<usize>,

    /// No search progress on stderr
    #[arg(long, short)]
    quiet: bool,

    /// Awari type: read the published Awari database's files (scores.N, any subset) in this
    /// folder instead of the engine's own tables
    #[arg(long, value_name = "D")]
    vu_dir: Option<PathBuf>,
}

impl QueryCmd {
    pub fn run(&self) -> Result<()> {
        let rules = self.table.rules()?;
        let b = parse_position(&rules, &self.position)?;
        let n = b.total() as usize;
        let advice = self.table.advice();
        let threads = crate::args::threads(self.threads)?;
        let settings = Settings {
            dir: self.table.dir.clone(),
            tables: TableSize::Auto,
            search: Options {
                hash_mb: crate::args::hash_mb(self.hash)?,
                threads,
                ..Options::default()
            },
        };
        let mut oracle = Oracle::new(rules, settings);
        match &self.vu_dir {
            Some(vu) => oracle.use_published(vu, n),
            None => oracle.open_built(n),
        }
        .map_err(|e| advice.oracle(e, n))?;
        let a = oracle
            .query(b, &progress_printer(self.quiet))
            .map_err(|e| advice.oracle(e, n))?;
        if self.json {
            println!("{}", mancala_oracle::json::answer(&a, n));
        } else {
            println!(
                "{}: {} seeds in the pits",
                oracle.rules().variant(),
                group(n as u128)
            );
            println!(
                "value {:+} for the side to move (seeds it will gain beyond its opponent with perfect play)",
                a.value
            );
            if let Some(why) = a.cannot_arise {
                println!(
                    "this position cannot arise in a game of {}: {why}; no table holds it (its value is that of play from it)",
                    oracle.rules().variant().preset.name()
                );
            }
            if a.moves.is_empty() {
                println!("no legal moves: the game is over");
            } else if a.source == mancala_oracle::Source::Search && a.cannot_arise.is_none() {
                match oracle.tables_up_to() {
                    Some(k) => println!(
                        "(by search: the position lies above the built tables, which go up to {k} seeds)"
                    ),
                    None => println!("(by search: no tables of this rule set are built)"),
                }
            }
            for (p, v) in &a.moves {
                let mark = if *v == a.value { "  best" } else { "" };
                println!("  move {p}: {v:+}{mark}");
            }
        }
        Ok(())
    }
}

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

    /// Awari type: read the published Awari database's files (scores.N, any subset) in this
    /// folder instead of the engine's own tables
    #[arg(long, value_name = "D")]
    vu_dir: Option<PathBuf>,

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

    /// No progress bars
    #[arg(long, short)]
    quiet: bool,

    /// Worker threads (default: one per core)
    #[arg(long, value_name = "T", allow_negative_numbers = true)]
    threads: Option<usize>,
}

/// A progress bar a tier on stderr for `verify`.
struct VerifyDisplay {
    quiet: bool,
    bar: Mutex<Option<ProgressBar>>,
}

impl VerifyObserver for VerifyDisplay {
    fn tier_started(&self, tier: usize, positions: u64, done: u64, work: u64) {
        if let Some(bar) = self.bar.lock().unwrap().take() {
            bar.finish_and_clear();
        }
        if done > 0 && done < positions {
            eprintln!(
                "tier {tier:>3}: {} of {} positions were checked by an earlier run (same files); going on from there",
                group(done as u128),
                group(positions as u128)
            );
        }
        if self.quiet || work < 1_000_000 {
            return;
        }
        let bar = tier_bar(
            work,
            tier,
            "verify tier {prefix:>3} [{bar:30}] {percent:>3}%, {rate}, ETA {eta}",
        );
        *self.bar.lock().unwrap() = Some(bar);
    }

    fn progress(&self, units: u64) {
        if let Some(bar) = self.bar.lock().unwrap().as_ref() {
            bar.inc(units);
        }
    }

    fn cannot_record(&self, path: &Path, err: &std::io::Error) {
        use std::io::ErrorKind::{PermissionDenied, ReadOnlyFilesystem, StorageFull};
        let fix = match err.kind() {
            PermissionDenied | ReadOnlyFilesystem => " (make the folder writable)",
            StorageFull => " (free some disk)",
            _ => "",
        };
        eprintln!(
            "warning: cannot record progress in {}: {err}{fix}; the check goes on, but if it is stopped, what it checked from here on will be checked again",
            path.display()
        );
    }
}

impl VerifyCmd {
    pub fn run(&self) -> Result<()> {
        let rules = self.table.rules()?;
        set_threads(self.threads)?;
        let key = rules.variant().key();
        let folder = self.vu_dir.as_deref().unwrap_or(&self.table.dir);
        let file = |d: &Path, n: usize| match self.vu_dir {
            Some(_) => published::file_path(d, n),
            None => tier_path(d, &key, n),
        };
        if let Some(vu) = self.vu_dir.as_deref().filter(|d| !d.is_dir()) {
            bail!(
                "--vu-dir {}: no such folder (it should hold the published database's files scores.0, scores.1, ...)",
                vu.display()
            );
        }
        let max = match self.max_seeds {
            Some(n) if n > rules.max_seeds().min(MAX_TIER) => bail!(
                "--max-seeds {n}: {key} has tiers up to {}",
                rules.max_seeds().min(MAX_TIER)
            ),
            Some(n) => {
                // Every tier asked for must be there to be checked.
                let ix = mancala_index::Indexer::new(&rules, n)?;
                let missing: Vec<String> = (0..=n)
                    .filter(|&t| ix.size(t) > 0 && !file(folder, t).exists())
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
                n
            }
            None => (0..=rules.max_seeds().min(MAX_TIER))
                .rev()
                .find(|&n| file(folder, n).exists())
                .with_context(|| {
                    format!(
                        "no tables of {key} in {}; build them with `{}`",
                        folder.display(),
                        self.table.variant.build_command(16, &self.table.dir)
                    )
                })?,
        };
        let min = self.min_seeds;
        if min > max {
            bail!("--min-seeds {min} is above the last tier to check, {max}: give a lower --min-seeds, or a higher --max-seeds");
        }
        let advice = self.table.advice();
        let display = VerifyDisplay {
            quiet: self.quiet,
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
        let report = match &self.vu_dir {
            Some(vu) => Tables::open_published(vu, &rules, max),
            None => open_checked(&rules, &self.table.dir, max),
        }
        .and_then(|t| verify_with(&t, min..=max, &opts))
        .map_err(|e| advice.table(e))?;
        if let Some(bar) = display.bar.lock().unwrap().take() {
            bar.finish_and_clear();
        }
        let total: u64 = report.tiers.iter().map(|t| t.1).sum();
        let earlier: u64 = report.earlier.iter().map(|t| t.1).sum();
        if self.json {
            let earlier_of = |n: usize| report.earlier.iter().find(|e| e.0 == n).map_or(0, |e| e.1);
            let tiers: Vec<serde_json::Value> = report
                .tiers
                .iter()
                .map(|&(n, p)| json!({"seeds": n, "positions": p, "earlier": earlier_of(n)}))
                .collect();
            let first_bad = report.first_bad.as_ref().map(|b| {
                json!({
                    "path": b.path,
                    "tier": b.tier,
                    "rank": b.rank,
                    "position": b.position,
                    "stored": b.stored,
                    "recomputed": b.recomputed,
                })
            });
            println!(
                "{}",
                json!({
                    "ok": first_bad.is_none(),
                    "key": key,
                    "positions": total,
                    "earlier": earlier,
                    "seconds": (started.elapsed().as_secs_f64() * 1000.0).round() / 1000.0,
                    "tiers": tiers,
                    "first_bad": first_bad,
                })
            );
        }
        if let Some(bad) = report.first_bad {
            let fix = match self.vu_dir {
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
        let what = match (&self.vu_dir, min) {
            (Some(_), 0) => "every file's size and every value checked".to_string(),
            (None, 0) => "every header, checksum and value checked".to_string(),
            (Some(_), _) => format!("the values of tiers {min}..={max} checked"),
            (None, _) => {
                format!("the values of tiers {min}..={max} checked, every header and checksum")
            }
        };
        if self.json {
            return Ok(());
        }
        let earlier = match earlier {
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
}

#[derive(Args, Debug)]
pub struct InfoCmd {
    /// Table folder
    #[arg(long, value_name = "D", default_value = DEFAULT_DIR)]
    dir: PathBuf,

    /// Print JSON
    #[arg(long)]
    json: bool,
}

impl InfoCmd {
    pub fn run(&self) -> Result<()> {
        let entries = match std::fs::read_dir(&self.dir) {
            Ok(e) => e,
            Err(e) => bail!(
                "cannot read {}: {e}; build tables with `mancala build`",
                self.dir.display()
            ),
        };
        let mut dirs: Vec<PathBuf> = entries
            .filter_map(|e| e.ok())
            .map(|e| e.path())
            .filter(|p| p.is_dir())
            .collect();
        dirs.sort();
        let sets: Vec<serde_json::Value> = dirs.iter().map(|d| describe_set(d)).collect();
        if self.json {
            println!("{}", serde_json::to_string_pretty(&sets)?);
            if sets.iter().any(|s| s.get("error").is_some()) {
                bail!("some folders cannot be read as tables (their \"error\" says why)");
            }
            return Ok(());
        }
        let damaged = sets.iter().filter(|s| s.get("error").is_some()).count();
        if sets.is_empty() {
            println!("no tables in {}", self.dir.display());
        }
        for s in &sets {
            println!("{}", s["key"].as_str().unwrap_or("?"));
            if let Some(e) = s.get("error") {
                println!("  {}", e.as_str().unwrap_or("?"));
                continue;
            }
            println!(
                "  tier       positions         bytes  form          win         draw         lose"
            );
            for t in s["tiers"].as_array().into_iter().flatten() {
                println!(
                    "  {:>4} {:>15} {:>13}  {:<5} {:>12} {:>12} {:>12}",
                    t["seeds"],
                    group(t["positions"].as_u64().unwrap_or(0) as u128),
                    group(t["bytes"].as_u64().unwrap_or(0) as u128),
                    if t["compressed"].as_bool() == Some(true) {
                        "zstd"
                    } else {
                        "raw"
                    },
                    group(t["win"].as_u64().unwrap_or(0) as u128),
                    group(t["draw"].as_u64().unwrap_or(0) as u128),
                    group(t["lose"].as_u64().unwrap_or(0) as u128),
                );
            }
        }
        if damaged > 0 {
            bail!(
                "{damaged} of the folders above cannot be read as tables (see their lines): `mancala build` of that rule set into {} rebuilds damaged tiers, `mancala verify` names them",
                self.dir.display()
            );
        }
        Ok(())
    }
}

/// One rule set's folder: every tier's size, form and win/draw/lose counts (for the side to
/// move), or what is wrong with it.
fn describe_set(dir: &Path) -> serde_json::Value {
    let key = dir
        .file_name()
        .unwrap_or_default()
        .to_string_lossy()
        .to_string();
    let inner = || -> Result<Vec<serde_json::Value>> {
        let variant = mancala_rules::Variant::from_key(&key)
            .with_context(|| format!("'{key}' does not name a rule set; not a table folder"))?;
        let rules = mancala_rules::Rules::new(variant);
        let max = (0..=rules.max_seeds().min(MAX_TIER))
            .rev()
            .find(|&n| tier_path(dir.parent().unwrap_or(dir), &key, n).exists())
            .context("no table files")?;
        // Watched: a file changed in place while it is counted is said to be so, not a fault.
        let mut tables = Tables::open_watched(dir.parent().unwrap_or(dir), &rules, max, true)?;
        tables.decode_all()?;
        let mut tiers = Vec::new();
        for n in 0..=max {
            let (Some(t), Some(values)) = (tables.tier(n), tables.values(n)) else {
                continue;
            };
            let (win, draw, lose) =
                values.iter().fold((0u64, 0u64, 0u64), |(w, d, l), &x| {
                    match (x as i8).signum() {
                        1 => (w + 1, d, l),
                        0 => (w, d + 1, l),
                        _ => (w, d, l + 1),
                    }
                });
            tiers.push(json!({
                "seeds": n,
                "positions": t.entries(),
                "bytes": t.file_bytes(),
                "compressed": t.is_compressed(),
                "win": win, "draw": draw, "lose": lose,
            }));
        }
        tables.unchanged()?;
        Ok(tiers)
    };
    match inner() {
        Ok(tiers) => json!({"key": key, "tiers": tiers}),
        Err(e) => json!({"key": key, "error": format!("{e:#}")}),
    }
}

#[derive(Args, Debug)]
pub struct PackCmd {
    #[command(flatten)]
    table: TableArgs,

    /// Rewrite tiers 0..=N (default: all)
    #[arg(long, value_name = "N", allow_negative_numbers = true)]
    max_seeds: Option<usize>,

    /// Turn compressed tables back into raw ones
    #[arg(long)]
    unpack: bool,
}

impl PackCmd {
    pub fn run(&self) -> Result<()> {
        let rules = self.table.rules()?;
        let max = self
            .max_seeds
            .unwrap_or(rules.max_seeds())
            .min(rules.max_seeds())
            .min(MAX_TIER);
        let advice = self.table.advice();
        let done = pack(&rules, &self.table.dir, max, !self.unpack).map_err(|e| advice.table(e))?;
        for (n, before, after) in &done {
            println!(
                "tier {n:>3}: {} -> {} bytes ({:.1}%)",
                group(*before as u128),
                group(*after as u128),
                100.0 * *after as f64 / (*before).max(1) as f64
            );
        }
        let (b, a) = done.iter().fold((0, 0), |(b, a), t| (b + t.1, a + t.2));
        println!(
            "{} files rewritten: {} -> {} bytes",
            done.len(),
            group(b as u128),
            group(a as u128)
        );
        Ok(())
    }
}

/// Threads the pool runs (after `set_threads`).
fn threads() -> usize {
    rayon::current_num_threads()
}

#[derive(Args, Debug)]
pub struct PlanCmd {
    #[command(flatten)]
    table: TableArgs,

    /// Plan every tier 0..=N (seeds in the pits)
    #[arg(
        long,
        value_name = "N",
        allow_negative_numbers = true,
        default_value_t = 16
    )]
    max_seeds: usize,

    /// Memory of the machine to plan for (20G, 1T; default: 80% of this machine's)
    #[arg(long, value_name = "SIZE", allow_hyphen_values = true, value_parser = parse_size)]
    memory: Option<u64>,

    /// Threads of the machine to plan for (default: this machine's cores)
    #[arg(long, value_name = "T", allow_negative_numbers = true)]
    threads: Option<usize>,

    /// Plan a distributed build (`build --mpi`) split across R processes, one a machine:
    /// --memory and --threads are then each machine's, and the plan adds the bytes each
    /// process sends the others
    #[arg(long, value_name = "R", allow_negative_numbers = true)]
    ranks: Option<usize>,

    /// Network speed of each machine in a distributed build, gigabits a second
    #[arg(
        long,
        value_name = "GBIT",
        allow_negative_numbers = true,
        default_value_t = 25.0
    )]
    network: f64,

    /// Millions of positions a core solves a second with thresholds on tiers of up to 0.55 G
    /// positions (default: the rate measured on the reference machine); tiers from 1.1 G
    /// positions on are planned at half of it, as measured there (docs/performance.md)
    #[arg(long, value_name = "M", allow_negative_numbers = true)]
    rate: Option<f64>,

    /// Disk (or shared file system) reads and writes, gigabytes a second
    #[arg(long, value_name = "GB", allow_negative_numbers = true)]
    disk: Option<f64>,

    /// Print one JSON object: the budget and each tier's plan
    #[arg(long)]
    json: bool,
}

impl PlanCmd {
    pub fn run(&self) -> Result<()> {
        let rules = self.table.rules()?;
        let threads = match self.threads {
            Some(t) if !(1..=65536).contains(&t) => {
                bail!("--threads {t}: give 1 to 65536 threads of the machine to plan for")
            }
            Some(t) => t,
            None => crate::args::cores(),
        };
        let budget = self.memory.unwrap_or_else(default_budget);
        if !(self.network > 0.0 && self.network <= 1e6) {
            bail!("--network must be between 0 and 1000000 gigabits a second");
        }
        let default = Rates::default();
        if self.rate.is_some_and(|r| !(r > 0.0 && r <= 1e4)) {
            bail!(
                "--rate must be above 0 and at most 10000 (millions of positions a core a second)"
            );
        }
        if self.disk.is_some_and(|d| !(d > 0.0 && d <= 1e4)) {
            bail!("--disk must be above 0 and at most 10000 gigabytes a second");
        }
        let rates = Rates {
            network: self.network * 1e9 / 8.0,
            threshold_per_core: self.rate.map_or(default.threshold_per_core, |r| r * 1e6),
            disk: self.disk.map_or(default.disk, |d| d * 1e9),
            ..default
        };
        let tiers = match self.ranks {
            Some(0) => bail!("--ranks must be at least 1"),
            Some(r) if r > 1 << 20 => bail!("--ranks must be at most {}", 1 << 20),
            Some(r) => plan_distributed(&rules, self.max_seeds, r, budget, threads, &rates),
            // A build checkpoints big tiers with thresholds inside phase 1 by default: the
            // slices that takes (the one-pass solver has no phase 1 to cut).
            None => plan_each(&rules, self.max_seeds, budget, threads, &rates).map(|tiers| {
                let one_pass = rules.quiet_moves_raise_potential();
                tiers
                    .into_iter()
                    .map(|t| match one_pass {
                        true => t,
                        false => t.map(|t| t.checkpointed(DEFAULT_CHECKPOINT, threads)),
                    })
                    .collect()
            }),
        }
        .map_err(|e| self.table.advice().table(e))?;
        let ranks = self.ranks.unwrap_or(1);
        // A tier no plan fits: what it would need.
        let over = |t: &Result<TierPlan, TableError>| match t {
            Err(TableError::Memory { needed, .. }) => Some(*needed),
            _ => None,
        };
        let fitting: Vec<&TierPlan> = tiers.iter().filter_map(|t| t.as_ref().ok()).collect();
        let positions = fitting
            .iter()
            .fold(0u64, |a, t| a.saturating_add(t.positions));
        let seconds = seconds_sum(fitting.iter().map(|t| t.seconds));
        let first_over = tiers.iter().position(|t| t.is_err());
        // Disk at its fullest: the tiers below, and the tier being solved at its peak.
        let peak_disk = fitting
            .iter()
            .scan(0u64, |below, t| {
                let peak = below.saturating_add(t.disk);
                *below = below.saturating_add(t.positions);
                Some(peak)
            })
            .max()
            .unwrap_or(0);
        if self.json {
            let rows: Vec<_> = tiers
                .iter()
                .enumerate()
                .map(|(n, t)| match t {
                    Ok(t) => json!({
                        "seeds": t.seeds,
                        "positions": t.positions,
                        "fits": true,
                        "memory": t.memory,
                        "disk": t.disk,
                        "exits_on_disk": t.exits_on_disk(),
                        "scan": t.layout.scan,
                        "slices": t.layout.slices.max(1),
                        "lower_reads": t.lower_reads,
                        "seconds": (t.seconds * 10.0).round() / 10.0,
                        "slice": t.slice,
                        "sent_bytes": t.sent,
                    }),
                    Err(e) => json!({
                        "seeds": n,
                        "fits": false,
                        "memory": over(t),
                        "error": e.to_string(),
                    }),
                })
                .collect();
            let v = json!({
                "variant": rules.variant().key(),
                "memory": budget,
                "threads": threads,
                "ranks": ranks,
                "rates": {
                    "threshold_positions_per_core_second": rates.threshold_per_core,
                    "one_pass_positions_per_core_second": rates.one_pass_per_core,
                    "disk_bytes_per_second": rates.disk,
                    "updates_per_position": rates.updates_per_position,
                    "network_bytes_per_second": rates.network,
                    "big_tier_share": rates.big_tier_share,
                    "small_tier_positions": Rates::SMALL,
                    "big_tier_positions": Rates::BIG,
                },
                "tiers": rows,
                "fits": first_over.is_none(),
                "positions": positions,
                "table_bytes": positions,
                "peak_disk": peak_disk,
                "seconds": seconds.round(),
            });
            println!("{v}");
            return Ok(());
        }
        if ranks > 1 {
            println!(
                "Plan for {} tiers 0..={} split across {ranks} processes, each with {} of memory, {threads} threads and {} Gbit/s (figures per process, for the largest slice)",
                rules.variant(),
                self.max_seeds,
                size_text(budget),
                self.network
            );
        } else {
            println!(
                "Plan for {} tiers 0..={} with {} of memory and {threads} threads",
                rules.variant(),
                self.max_seeds,
                size_text(budget)
            );
        }
        println!(
            "{:>4} {:>18} {:>10} {:>10} {:>14} {:>12}{}",
            "tier",
            "positions",
            "memory",
            "disk",
            "exits",
            "time",
            if ranks > 1 { "         sent" } else { "" }
        );
        for (n, t) in tiers.iter().enumerate() {
            match t {
                Ok(t) => {
                    let exits = if t.exits_on_disk() {
                        format!("file, {} sl.", t.layout.slices)
                    } else if t.layout.scan && t.layout.slices > 1 {
                        format!("memory, {} sl.", t.layout.slices)
                    } else if t.layout.scan {
                        "memory, scan".into()
                    } else {
                        "memory".into()
                    };
                    println!(
                        "{:>4} {:>18} {:>10} {:>10} {:>14} {:>12}{}",
                        t.seeds,
                        group(t.positions as u128),
                        size_text(t.memory),
                        size_text(t.disk),
                        exits,
                        duration(t.seconds),
                        if ranks > 1 {
                            format!(" {:>12}", size_text(t.sent))
                        } else {
                            String::new()
                        }
                    );
                }
                Err(_) => println!(
                    "{n:>4} {:>18} {:>10}  over the budget",
                    "",
                    size_text(over(t).unwrap_or(0))
                ),
            }
        }
        println!(
            "total: {} positions, {} of tables (uncompressed, {} of disk at the fullest), about {}",
            group(positions as u128),
            size_text(positions),
            size_text(peak_disk),
            duration(seconds)
        );
        if let Some(n) = first_over {
            println!(
                "tiers from {n} on do not fit in {}: give --memory {} (the most a tier needs) to plan them all",
                size_text(budget),
                size_text(tiers.iter().filter_map(over).max().unwrap_or(0))
            );
        }
        println!(
            "(times from rates measured on a 2-core machine, assumed to hold at any thread count: {:.1} M positions a second a core with thresholds and {:.1} M in one pass on tiers up to {:.2} G positions, {:.0}% of that on tiers from {:.1} G on (their random accesses miss every cache), {:.1} GB/s disk; --rate and --disk set others, see docs/performance.md)",
            rates.threshold_per_core / 1e6,
            rates.one_pass_per_core / 1e6,
            Rates::SMALL / 1e9,
            rates.big_tier_share * 100.0,
            Rates::BIG / 1e9,
            rates.disk / 1e9
        );
        if self.ranks.is_none() && fitting.iter().any(|t| t.layout.scan) {
            println!(
                "(exits: where a tier's best exits wait, in memory or in a file; \"N sl.\": phase 1 in N slices, at least as many as a checkpoint every {} needs, each reading the lower tiers in order once where they are read in order; \"scan\": read in order once)",
                duration(DEFAULT_CHECKPOINT.as_secs_f64())
            );
        }
        if ranks > 1 {
            println!(
                "(a distributed build solves every tier with thresholds; each position sends about {:.2} updates of 8 bytes, of which all but a process's share cross the network; every process reads each lower tier once a slice)",
                rates.updates_per_position
            );
        }
        Ok(())
    }
}

/// Seconds as a short human duration.
fn duration(secs: f64) -> String {
    if secs < 60.0 {
        format!("{secs:.1} s")
    } else if secs < 3600.0 {
        format!("{:.1} min", secs / 60.0)
    } else {
        format!("{:.1} h", secs / 3600.0)
    }
}
