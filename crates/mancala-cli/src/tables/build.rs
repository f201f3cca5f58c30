//! `mancala build`: every tier up to a seed count, in one process or split across the
//! processes of an MPI job (`--mpi`).

use super::progress::Display;
use super::{check_memory, Bars, BuildTiers, Workers};
use crate::advice::size_text;
use crate::args::{parse_size, set_threads};
use crate::tiers::{group, seconds_sum};
use anyhow::{bail, Result};
use clap::Args;
use mancala_tables::plan::{default_budget, plan, Rates, DEFAULT_CHECKPOINT};
use mancala_tables::{build, BuildOptions, TierReport};
use std::sync::Mutex;
use std::time::Duration;

#[derive(Args, Debug)]
pub struct BuildCmd {
    #[command(flatten)]
    tiers: BuildTiers,

    #[command(flatten)]
    workers: Workers,

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

    #[command(flatten)]
    bars: Bars,
}

impl BuildCmd {
    pub fn run(&self) -> Result<()> {
        if self.mpi {
            return self.run_distributed();
        }
        let rules = self.tiers.table.rules()?;
        set_threads(self.workers.threads)?;
        let every = self.checkpoint_every()?;
        let budget = self.memory.unwrap_or_else(default_budget);
        check_memory(budget)?;
        let opts = BuildOptions {
            dir: self.tiers.table.dir.clone(),
            max_seeds: self.tiers.max_seeds,
            compress: self.compress,
            memory: Some(budget),
            checkpoint_every: Some(every),
            repair: self.repair,
        };
        let display = Display {
            json: self.json,
            quiet: self.bars.quiet || self.json,
            bar: Mutex::new(None),
        };
        if !self.json {
            println!(
                "Building {} tiers 0..={} in {}",
                rules.variant(),
                self.tiers.max_seeds,
                self.tiers.table.dir.join(rules.variant().key()).display()
            );
        }
        {
            let on_disk: Vec<String> = plan(
                &rules,
                self.tiers.max_seeds,
                budget,
                rayon::current_num_threads(),
                &Rates::default(),
            )
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
        let advice = self.tiers.table.advice();
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
        use mancala_tables::{build_distributed, BuildObserver, Cluster};
        // Everything that can be refused is checked before MPI starts: after, an error on
        // one process must stop them all.
        let rules = self.tiers.table.rules()?;
        self.checkpoint_every()?;
        crate::args::threads(self.workers.threads)?;
        if let Some(m) = self.memory {
            check_memory(m)?;
        }
        let mpi = crate::mpi::Mpi::init()?;
        let (me, processes, here) = (mpi.rank(), mpi.size(), mpi.on_this_machine());
        let stop = |e: anyhow::Error| -> ! {
            eprintln!(
                "error (process {me} of {processes}): {}",
                crate::advice::message(&e)
            );
            mpi.abort(1)
        };
        let cores = crate::args::cores();
        let threads = self.workers.threads.unwrap_or((cores / here).max(1));
        if let Err(e) = set_threads(Some(threads)) {
            stop(e);
        }
        let budget = self.memory.unwrap_or(default_budget() / here as u64);
        let opts = BuildOptions {
            dir: self.tiers.table.dir.clone(),
            max_seeds: self.tiers.max_seeds,
            compress: self.compress,
            memory: Some(budget),
            checkpoint_every: None,
            repair: self.repair,
        };
        let display = Display {
            json: self.json,
            quiet: self.bars.quiet || self.json,
            bar: Mutex::new(None),
        };
        if me == 0 && !self.json {
            println!(
                "Building {} tiers 0..={} in {}, each split across {processes} processes ({threads} threads each, memory budget {} each)",
                rules.variant(),
                self.tiers.max_seeds,
                self.tiers.table.dir.join(rules.variant().key()).display(),
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
            Err(e) => stop(self.tiers.table.advice().table(e)),
        }
    }
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
