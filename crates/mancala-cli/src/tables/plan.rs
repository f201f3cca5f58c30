//! `mancala plan`: what a build needs per tier (memory, disk, time) on a given machine,
//! from the plan the build itself follows.

use super::BuildTiers;
use crate::advice::size_text;
use crate::args::parse_size;
use crate::tiers::group;
use anyhow::{bail, Result};
use clap::Args;
use mancala_rules::Rules;
use mancala_search::projection;
use mancala_tables::plan::{
    default_budget, needed, plan_checkpointed, plan_distributed, Rates, TierPlan, Totals,
    DEFAULT_CHECKPOINT,
};
use mancala_tables::TableError;

#[derive(Args, Debug)]
#[command(mut_arg("max_seeds", |a| a.help("Plan every tier 0..=N (seeds in the pits)")))]
pub struct PlanCmd {
    #[command(flatten)]
    tiers: BuildTiers,

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

    /// Millions of positions a core solves a second with thresholds on tiers of up to 1 G
    /// positions, at two threads (default: the rate measured on the reference machine); tiers
    /// from 4.9 G positions on are planned at 70% of it (0.85 measured at 7.8 G, tiers of 10 G
    /// and more not yet), and each doubling of the threads beyond two at 93% of the rate a
    /// core (docs/performance.md)
    #[arg(long, value_name = "M", allow_negative_numbers = true)]
    rate: Option<f64>,

    /// Disk (or shared file system) reads and writes, gigabytes a second
    #[arg(long, value_name = "GB", allow_negative_numbers = true)]
    disk: Option<f64>,

    /// Also project the search of the start position above the tables (Kalah with 6 pits a
    /// side): the nodes of its proof from a fit of the proofs of Kalah 6x3 to 6x5, and the
    /// time at --node-rate, for the tables up to N and a few smaller sets, so that the sum of
    /// tables and search can be weighed. 6x6 lies beyond the measured boards: a floor
    #[arg(long)]
    search: bool,

    /// Millions of search nodes a core visits a second, at two threads (with --search)
    #[arg(long, value_name = "M", allow_negative_numbers = true)]
    node_rate: Option<f64>,

    /// Print one JSON object: the budget and each tier's plan
    #[arg(long)]
    json: bool,
}
impl PlanCmd {
    pub fn run(&self) -> Result<()> {
        let rules = self.tiers.table.rules()?;
        let threads = match self.threads {
            Some(t) if !(1..=65536).contains(&t) => {
                bail!("--threads {t}: give 1 to 65536 threads of the machine to plan for")
            }
            Some(t) => t,
            None => crate::args::cores(),
        };
        let budget = self.memory.unwrap_or_else(default_budget);
        let rates = self.rates()?;
        let tiers = match self.ranks {
            Some(0) => bail!("--ranks must be at least 1"),
            Some(r) if r > 1 << 20 => bail!("--ranks must be at most {}", 1 << 20),
            Some(r) => plan_distributed(&rules, self.tiers.max_seeds, r, budget, threads, &rates),
            // A build checkpoints big tiers with thresholds inside phase 1 by default.
            None => plan_checkpointed(
                &rules,
                self.tiers.max_seeds,
                budget,
                threads,
                &rates,
                DEFAULT_CHECKPOINT,
            ),
        }
        .map_err(|e| self.tiers.table.advice().table(e))?;
        let ranks = self.ranks.unwrap_or(1);
        let search = match self.search {
            true => Some(self.search_plan(&rules, &tiers, budget, threads)?),
            false => None,
        };
        if self.json {
            let key = rules.variant().key();
            let machine = (budget, threads, ranks);
            let mut out = mancala_oracle::json::plan(&key, machine, &rates, &tiers);
            if let Some(s) = &search {
                out["search"] = s.json();
            }
            println!("{out}");
            return Ok(());
        }
        self.print(&rules, (budget, threads, ranks), &rates, &tiers);
        if let Some(s) = &search {
            s.print();
        }
        Ok(())
    }

    /// The search of the start above each of the last few table sizes of the plan.
    fn search_plan(
        &self,
        rules: &Rules,
        tiers: &[Result<TierPlan, TableError>],
        budget: u64,
        threads: usize,
    ) -> Result<SearchPlan> {
        let v = rules.variant();
        if self.ranks.is_some() {
            bail!("--search: the search runs on one machine; plan it without --ranks");
        }
        let Some(start) = projection::kalah_start_proof(v, 0) else {
            bail!(
                "--search: the search is projected for Kalah with 6 pits a side only (its proofs were measured there); {v} has no projection"
            );
        };
        let rate = match self.node_rate {
            Some(r) if !(LEAST_RATE..=1e4).contains(&r) => {
                bail!("--node-rate must be from {LEAST_RATE} to 10000 (millions of nodes a core a second)")
            }
            Some(r) => r * 1e6,
            None => projection::NODES_PER_CORE_SECOND,
        };
        let mut options = Vec::new();
        let (mut tables_seconds, mut bytes) = (0.0, 0u64);
        let mut fits = true;
        let ix = mancala_index::Indexer::new(rules, tiers.len().saturating_sub(1))?;
        for (n, t) in tiers.iter().enumerate() {
            // A tier no plan fits still takes its bytes (what the row's memory says); its
            // time is unknown, and so are the times of the rows from it on.
            bytes += ix.size(n);
            match t {
                Ok(t) => tables_seconds += t.seconds,
                Err(_) => fits = false,
            }
            // Only the last few sizes are worth weighing: each smaller one multiplies the proof.
            if n + SEARCH_CHOICES <= self.tiers.max_seeds {
                continue;
            }
            let p = projection::kalah_start_proof(v, n).expect("a Kalah 6-pit board");
            options.push(SearchOption {
                tables: n,
                bytes,
                // A probe into tables beyond memory is a disk read: the search needs them all
                // in memory.
                fits: fits && bytes <= budget,
                planned: fits,
                tables_seconds,
                nodes: p.nodes,
                height: p.height,
                search_seconds: p.nodes / (rate * threads as f64),
            });
        }
        Ok(SearchPlan {
            measured: projection::measured(v).collect(),
            seeds: v.total_seeds(),
            rate,
            threads,
            beyond: start.beyond,
            options,
        })
    }

    /// The rates to plan with: the reference machine's, with what the options change.
    fn rates(&self) -> Result<Rates> {
        // Rates below a thousandth gave plans of 300-digit hours (the probe of 2026-12-07).
        if !(LEAST_RATE..=1e6).contains(&self.network) {
            bail!("--network must be from {LEAST_RATE} to 1000000 gigabits a second");
        }
        let default = Rates::default();
        if self.rate.is_some_and(|r| !(LEAST_RATE..=1e4).contains(&r)) {
            bail!(
                "--rate must be from {LEAST_RATE} to 10000 (millions of positions a core a second)"
            );
        }
        if self.disk.is_some_and(|d| !(LEAST_RATE..=1e4).contains(&d)) {
            bail!("--disk must be from {LEAST_RATE} to 10000 gigabytes a second");
        }
        Ok(Rates {
            network: self.network * 1e9 / 8.0,
            threshold_per_core: self.rate.map_or(default.threshold_per_core, |r| r * 1e6),
            disk: self.disk.map_or(default.disk, |d| d * 1e9),
            ..default
        })
    }

    /// The plan as a table, its totals and what its figures mean.
    fn print(
        &self,
        rules: &Rules,
        (budget, threads, ranks): (u64, usize, usize),
        rates: &Rates,
        tiers: &[Result<TierPlan, TableError>],
    ) {
        let totals = Totals::of(tiers);
        if ranks > 1 {
            println!(
                "Plan for {} tiers 0..={} split across {ranks} processes, each with {} of memory, {threads} threads and {} Gbit/s (figures per process, for the largest slice)",
                rules.variant(),
                self.tiers.max_seeds,
                size_text(budget),
                self.network
            );
        } else {
            println!(
                "Plan for {} tiers 0..={} with {} of memory and {threads} threads",
                rules.variant(),
                self.tiers.max_seeds,
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
                Ok(t) => println!("{}", row(t, ranks)),
                Err(_) => println!(
                    "{n:>4} {:>18} {:>10}  over the budget",
                    "",
                    size_text(needed(t).unwrap_or(0))
                ),
            }
        }
        println!(
            "total: {} positions, {} of tables (uncompressed, {} of disk at the fullest), about {}",
            group(totals.positions as u128),
            size_text(totals.positions),
            size_text(totals.peak_disk),
            duration(totals.seconds)
        );
        if let Some(n) = totals.first_over {
            println!(
                "tiers from {n} on do not fit in {}: give --memory {} (the most a tier needs) to plan them all",
                size_text(budget),
                size_text(totals.most_needed)
            );
        }
        println!(
            "(times from rates measured on a 2-core machine: {:.1} M positions a second a core with thresholds and {:.1} M in one pass on tiers up to {:.1} G positions, {:.0}% of that on tiers from {:.1} G on (their phase 1 is cut into slices that each read the lower tiers again, and their random accesses miss more caches; geometric in between), each doubling of the threads beyond two keeping {:.1}% of the rate a core as one to two did, {:.1} GB/s disk; --rate and --disk set others, see docs/performance.md)",
            rates.threshold_per_core / 1e6,
            rates.one_pass_per_core / 1e6,
            Rates::SMALL / 1e9,
            rates.big_tier_share * 100.0,
            Rates::BIG / 1e9,
            rates.doubling_share * 100.0,
            rates.disk / 1e9
        );
        let scans = tiers
            .iter()
            .filter_map(|t| t.as_ref().ok())
            .any(|t| t.layout.scan);
        if self.ranks.is_none() && scans {
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
    }
}

/// The least rate `plan` takes (in each option's unit): below it no plan means anything.
const LEAST_RATE: f64 = 0.001;

/// How many table sizes (the largest planned and those just below) `--search` weighs.
const SEARCH_CHOICES: usize = 5;

/// The search of the start above one table size.
struct SearchOption {
    tables: usize,
    /// Bytes of tables 0..=tables (a byte a position).
    bytes: u64,
    /// Whether every tier is planned within the budget and all of them fit in it together.
    fits: bool,
    /// Whether every tier is planned within the budget (else the tables' time is unknown).
    planned: bool,
    tables_seconds: f64,
    nodes: f64,
    height: u32,
    search_seconds: f64,
}

/// `--search`: the projected proof of the start over each of the last few table sizes.
struct SearchPlan {
    seeds: u32,
    /// Nodes a core a second.
    rate: f64,
    threads: usize,
    /// Seeds a pit beyond the measured boards.
    beyond: u32,
    options: Vec<SearchOption>,
    /// Questions about this start asked here, beyond the fit's data.
    measured: Vec<&'static projection::Measured>,
}

impl SearchPlan {
    /// The table size with the least time in all among those that fit.
    fn best(&self) -> Option<&SearchOption> {
        self.options
            .iter()
            .filter(|o| o.fits)
            .min_by(|a, b| a.total().total_cmp(&b.total()))
    }

    fn print(&self) {
        println!(
            "search of the start ({} seeds), projected at {:.1} M nodes a second a core on {} threads:",
            self.seeds,
            self.rate / 1e6,
            self.threads
        );
        println!(
            "{:>6} {:>6} {:>10} {:>12} {:>14} {:>12} {:>12}",
            "tables", "above", "memory", "tables time", "proof nodes", "search time", "in all"
        );
        for o in &self.options {
            // Tables that cannot be built within the budget have no time to show.
            let (tables_time, in_all) = match o.planned {
                true => (duration(o.tables_seconds), duration(o.total())),
                false => ("-".to_string(), "-".to_string()),
            };
            println!(
                "{:>6} {:>6} {:>10} {:>12} {:>14} {:>12} {:>12}{}",
                o.tables,
                o.height,
                size_text(o.bytes),
                tables_time,
                format!("{:.2e}", o.nodes),
                duration(o.search_seconds),
                in_all,
                if o.fits { "" } else { "  over the memory" }
            );
        }
        match self.best() {
            Some(o) => println!(
                "least in all: tables up to {} seeds, {} {}",
                o.tables,
                if self.beyond > 0 { "at least" } else { "about" },
                duration(o.total())
            ),
            None => println!("no table size here fits in memory with the search"),
        }
        for m in &self.measured {
            println!(
                "measured here: over {}-seed tables, {}: {:.3e} nodes in {} on {} threads{}",
                m.tables,
                m.question,
                m.nodes as f64,
                duration(m.seconds),
                m.threads,
                if m.finished { "" } else { ", stopped" }
            );
        }
        println!(
            "(proof nodes from a fit of the proofs of the starts of Kalah 6x3 to 6x5 over 4- to 28-seed tables, each within {:.1}x of it{}; see docs/performance.md)",
            projection::FIT_SPREAD,
            match self.beyond {
                0 => String::new(),
                k => format!(
                    "; this board is {k} seed{} a pit beyond them, where the fit is a floor to plan from, not a promise",
                    if k == 1 { "" } else { "s" }
                ),
            }
        );
    }

    fn json(&self) -> serde_json::Value {
        let options: Vec<_> = self
            .options
            .iter()
            .map(|o| {
                serde_json::json!({
                    "tables": o.tables,
                    "above": o.height,
                    "bytes": o.bytes,
                    "fits": o.fits,
                    // Unknown (null) where a tier cannot be built within the budget.
                    "tables_seconds": o.planned.then(|| o.tables_seconds.round()),
                    "nodes": o.nodes.round(),
                    "search_seconds": o.search_seconds.round(),
                })
            })
            .collect();
        serde_json::json!({
            "seeds": self.seeds,
            "nodes_per_core_second": self.rate,
            "threads": self.threads,
            "seeds_a_pit_beyond_the_fit": self.beyond,
            "fit_spread": projection::FIT_SPREAD,
            "options": options,
            "best": self.best().map(|o| o.tables),
            "measured": self.measured.iter().map(|m| serde_json::json!({
                "tables": m.tables,
                "question": m.question,
                "nodes": m.nodes,
                "seconds": m.seconds,
                "threads": m.threads,
                "finished": m.finished,
            })).collect::<Vec<_>>(),
        })
    }
}

impl SearchOption {
    fn total(&self) -> f64 {
        self.tables_seconds + self.search_seconds
    }
}

/// A tier's line of the plan.
fn row(t: &TierPlan, ranks: usize) -> String {
    let exits = if t.exits_on_disk() {
        format!("file, {} sl.", t.layout.slices)
    } else if t.layout.scan && t.layout.slices > 1 {
        format!("memory, {} sl.", t.layout.slices)
    } else if t.layout.scan {
        "memory, scan".into()
    } else {
        "memory".into()
    };
    format!(
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
    )
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
