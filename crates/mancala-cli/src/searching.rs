//! What the commands that search share: options, the tables they probe (built first when
//! small and missing), and progress on stderr.

use crate::tables::{evaluate, set_threads, DEFAULT_DIR};
use anyhow::{bail, Context, Result};
use clap::Args;
use mancala_rules::{Board, Family, Next, Node, Rules};
use mancala_search::{Observer, Options, Progress, SearchError, Solver};
use mancala_tables::{build, BuildOptions, Tables};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Instant;

/// Kalah-type tables built by default before a search: every tier up to a third of the
/// position's seeds plus 4 (16 for 6x3, 20 for 6x4), at most this many. Each tier two more
/// halves the search on the published boards while the build stays short: tiers 0..24 take
/// about 40 s and 1.2 GB.
pub const KALAH_TABLES: usize = 24;
/// The same for Awari-type games, whose cyclic tiers cost more to build and help less.
pub const AWARI_TABLES: usize = 14;

/// The default table size for a search of a position with `seeds` seeds.
fn default_tables(rules: &Rules, seeds: usize) -> usize {
    match rules.variant().family() {
        Family::Kalah => (seeds / 3 + 4).min(KALAH_TABLES),
        Family::Awari | Family::Sowing => AWARI_TABLES,
    }
}

#[derive(Args, Debug, Clone)]
pub struct SearchArgs {
    /// Table folder (tables are read from and built into it)
    #[arg(long, value_name = "D", default_value = DEFAULT_DIR)]
    pub dir: PathBuf,

    /// Transposition table size in MB (rounded down to a power of two)
    #[arg(long, value_name = "MB", default_value_t = 256)]
    pub hash: usize,

    /// Search threads (default: one per core); they share the transposition table
    #[arg(long, value_name = "T")]
    pub threads: Option<usize>,

    /// Probe tables up to N seeds, building missing tiers first; 0 = no tables.
    /// Default: kalah and mancala a third of the position's seeds plus 4, at most 24 (20 for
    /// 6x4: seconds to build once); awari, oware and wari 14; or whatever larger complete set
    /// is already built
    #[arg(long, value_name = "N")]
    pub tables: Option<usize>,

    /// Stop after this many seconds and report the proven bounds instead of the value
    #[arg(long, value_name = "S", allow_negative_numbers = true)]
    pub max_seconds: Option<f64>,

    /// No progress on stderr
    #[arg(long, short)]
    pub quiet: bool,

    /// Awari type: above the tables, solve up to this many reachable positions backwards
    /// (about 30 bytes of memory each); beyond that the search can only bound the value
    #[arg(long, value_name = "N", default_value_t = Options::default().reach_limit)]
    pub reach_limit: usize,

    /// Depth-limited iterations (move ordering) before the unlimited proof search
    #[arg(long, value_name = "PLIES", default_value_t = Options::default().id_depth, hide = true)]
    pub id_depth: u32,
}

impl SearchArgs {
    pub fn threads(&self) -> Result<usize> {
        match self.threads {
            Some(0) => bail!("--threads must be at least 1"),
            Some(t) => Ok(t),
            None => Ok(std::thread::available_parallelism().map_or(1, |n| n.get())),
        }
    }

    pub fn solver<'a>(&self, rules: &'a Rules, tables: Option<&'a Tables>) -> Result<Solver<'a>> {
        if self.hash == 0 {
            bail!("--hash must be at least 1 (MB)");
        }
        if self
            .max_seconds
            .is_some_and(|t| !(t >= 0.0 && t.is_finite()))
        {
            bail!("--max-seconds must be a number of seconds, at least 0");
        }
        let opts = Options {
            hash_mb: self.hash,
            threads: self.threads()?,
            id_depth: self.id_depth,
            time_limit: self.max_seconds,
            reach_limit: self.reach_limit,
        };
        Ok(Solver::new(rules, tables, opts)?)
    }

    /// The tables a search of a position with `seeds` seeds probes: the requested (or default)
    /// size, built first if missing, or a larger complete set already on disk.
    pub fn tables(&self, rules: &Rules, seeds: usize) -> Result<Option<Tables>> {
        let default = default_tables(rules, seeds);
        let cap = seeds.min(rules.max_seeds()).min(126);
        let want = self.tables.unwrap_or(default).min(cap);
        if self.tables == Some(0) {
            return Ok(None);
        }
        let present = Tables::open(&self.dir, rules, cap, false)?.complete_up_to();
        let use_up_to = match present {
            // Reuse a larger complete set unless a size was asked for.
            Some(k) if self.tables.is_none() && k >= want => k,
            Some(k) if k >= want => want,
            _ => {
                self.build(rules, want)?;
                want
            }
        };
        let mut t = Tables::open(&self.dir, rules, use_up_to, true)?;
        decode_for_search(&mut t, self.quiet)?;
        Ok(Some(t))
    }

    fn build(&self, rules: &Rules, max: usize) -> Result<()> {
        let key = rules.variant().key();
        let place = self.dir.join(&key);
        if !self.quiet {
            eprintln!(
                "building {key} tables up to {max} seeds in {} for the search (kept for next time; --tables sets the size)",
                place.display()
            );
        }
        set_threads(self.threads).ok();
        let started = Instant::now();
        let opts = BuildOptions {
            dir: self.dir.clone(),
            max_seeds: max,
            compress: false,
        };
        let reports = build(rules, &opts, &())
            .with_context(|| format!("building tables in {}", display(&self.dir)))?;
        if !self.quiet {
            let positions: u64 = reports
                .iter()
                .filter(|r| !r.reused)
                .map(|r| r.positions)
                .sum();
            eprintln!(
                "built {positions} positions in {:.1} s",
                started.elapsed().as_secs_f64()
            );
        }
        Ok(())
    }
}

/// The search probes millions of positions: compressed tiers are decoded into memory first
/// (their raw size), so that each probe is one byte read rather than a block to unpack and a
/// best exit to recompute.
fn decode_for_search(tables: &mut Tables, quiet: bool) -> Result<()> {
    // Only the complete range is probed (see `Solver::new`).
    let Some(max) = tables.complete_up_to() else {
        return Ok(());
    };
    let packed: u64 = (0..=max)
        .filter_map(|n| tables.tier(n))
        .filter(|tier| tier.is_compressed() && tier.raw().is_none())
        .map(|tier| tier.entries())
        .sum();
    if packed > 0 {
        if !quiet {
            eprintln!(
                "decoding compressed tables into memory ({} MB)",
                packed.div_ceil(1 << 20)
            );
        }
        tables.decode_up_to(max)?;
    }
    Ok(())
}

fn display(p: &Path) -> String {
    p.display().to_string()
}

/// Prints progress lines on stderr, at most about one a second.
pub struct Printer {
    quiet: bool,
    last: Mutex<Option<Instant>>,
}

pub fn progress_printer(quiet: bool) -> Printer {
    Printer {
        quiet,
        last: Mutex::new(None),
    }
}

impl Printer {
    /// The search is over (nothing to print yet; kept for symmetry with progress bars).
    pub fn done(&self) {}
}

impl Observer for Printer {
    fn progress(&self, p: &Progress) {
        if self.quiet {
            return;
        }
        let mut last = self.last.lock().unwrap_or_else(|e| e.into_inner());
        // Quick searches print nothing; long ones a line about once a second.
        if p.seconds < 1.0 || last.is_some_and(|t| t.elapsed().as_secs_f64() < 1.0) {
            return;
        }
        *last = Some(Instant::now());
        let depth = p
            .depth
            .map_or("proof".to_string(), |d| format!("depth {d}"));
        eprintln!(
            "{depth:>9}  value in [{:+}, {:+}]  {:>14} nodes  {:>6.2} M nodes/s  {:>8.1} s",
            p.lo,
            p.hi,
            p.nodes,
            p.nodes_per_second() / 1e6,
            p.seconds
        );
    }
}

/// A query's answer: the value, each move's value, and where they came from.
pub struct Answer {
    pub value: i32,
    pub moves: Vec<(usize, i32)>,
    pub source: &'static str,
}

/// How `mancala query` searches when the tables do not cover a position.
pub struct Fallback {
    pub hash: usize,
    pub threads: Option<usize>,
    pub quiet: bool,
}

impl Fallback {
    /// The value of `b` and of each move: from the tables when they hold the position and
    /// every position a move leads to, else by search over the tiers that are built (with
    /// no tier built at all, the error that says how to build them).
    pub fn answer(&self, tables: &mut Tables, b: Board) -> Result<Answer> {
        let n = b.total() as usize;
        if covered(tables, b, n) {
            let (value, moves) = evaluate(tables, b)?;
            return Ok(Answer {
                value,
                moves,
                source: "table",
            });
        }
        if tables.complete_up_to().is_none() {
            return Err(tables.missing(n).into());
        }
        decode_for_search(tables, self.quiet)?;
        let tables = &*tables;
        let rules = tables.rules();
        let args = SearchArgs {
            dir: tables.dir().to_path_buf(),
            hash: self.hash,
            threads: self.threads,
            tables: None,
            max_seconds: None,
            quiet: self.quiet,
            reach_limit: Options::default().reach_limit,
            id_depth: Options::default().id_depth,
        };
        let mut solver = args.solver(rules, Some(tables))?;
        let printer = progress_printer(self.quiet);
        let moves = match solver.move_values(b, &printer) {
            Ok(m) => m,
            Err(e @ SearchError::TooBig { .. }) => {
                bail!("{e}: {}", tables.missing(n))
            }
            Err(e) => return Err(e.into()),
        };
        let value = match rules.node(b) {
            Node::Terminal { mover, opp } => mover as i32 - opp as i32,
            Node::Moves(_) => moves.iter().map(|m| m.1).max().unwrap_or(0),
        };
        Ok(Answer {
            value,
            moves,
            source: "search",
        })
    }
}

/// Do the tables hold `b` and every position its moves lead to?
fn covered(tables: &Tables, b: Board, n: usize) -> bool {
    if tables.complete_up_to().is_none_or(|k| k < n) {
        return false;
    }
    let ix = tables.indexer();
    match tables.rules().node(b) {
        Node::Terminal { .. } => true,
        Node::Moves(kids) => {
            ix.contains(b)
                && kids
                    .iter()
                    .all(|c| c.next == Next::Over || ix.contains(c.board))
        }
    }
}
