//! What the commands that search share: their options, the oracle they make of them, the
//! tables it probes (built first when missing), and progress on stderr.

use crate::advice::Advice;
use crate::args::VariantArgs;
use anyhow::{bail, Result};
use clap::Args;
use mancala_oracle::{Interrupt, Observer, Options, Oracle, Progress, Settings, TableSize};
use mancala_rules::Rules;
use std::io::Write;
use std::path::PathBuf;
use std::sync::Mutex;
use std::time::Instant;

/// Where tables live unless `--dir` says otherwise.
pub const DEFAULT_DIR: &str = "databases";

#[derive(Args, Debug, Clone)]
pub struct SearchArgs {
    /// Table folder (tables are read from and built into it)
    #[arg(long, value_name = "D", default_value = DEFAULT_DIR)]
    pub dir: PathBuf,

    #[command(flatten)]
    pub effort: SearchEffort,

    /// Probe tables up to N seeds, building missing tiers first; 0 = no tables.
    /// Default: the size that answers fastest (kalah and mancala: 12 for 6x3, 18 for 6x4, 26
    /// for 6x5, in between as the position's seeds go, within half the memory; awari, oware
    /// and wari 14), or whatever larger complete set is already built
    #[arg(long, value_name = "N", allow_negative_numbers = true)]
    pub tables: Option<usize>,

    /// Stop after this many seconds and report the proven bounds instead of the value. A
    /// position 40 or more seeds above the tables first has its value bracketed from far out
    /// (at least guess-32, at most guess+32, then 16 and 8), so that a proof that cannot
    /// finish still leaves bounds worth reading
    #[arg(long, value_name = "S", allow_negative_numbers = true)]
    pub max_seconds: Option<f64>,

    /// No progress on stderr
    #[arg(long, short)]
    pub quiet: bool,

    /// Awari type: probe the published Awari database's files (scores.N, any subset) in this
    /// folder instead of the engine's own tables; nothing is built
    #[arg(long, value_name = "D")]
    pub vu_dir: Option<PathBuf>,

    /// Depth-limited iterations (move ordering) before the unlimited proof search
    #[arg(long, value_name = "PLIES", allow_negative_numbers = true, default_value_t = Options::default().id_depth, hide = true)]
    pub id_depth: u32,
}

/// What a search may use: the `solve`, `play` and `query` options.
#[derive(Args, Debug, Clone)]
pub struct SearchEffort {
    /// Transposition table size in MB, at most (rounded down to a power of two); a search a few seeds above the tables takes less (16 MB up to 16 seeds above, doubling every two seeds)
    #[arg(
        long,
        value_name = "MB",
        allow_negative_numbers = true,
        default_value_t = 256
    )]
    pub hash: usize,

    /// Search threads (default: one per core); they share the transposition table
    #[arg(long, value_name = "T", allow_negative_numbers = true)]
    pub threads: Option<usize>,

    /// Awari type: above the tables, solve up to this many reachable positions backwards
    /// (about 30 bytes of memory each); beyond that the search can only bound the value
    #[arg(long, value_name = "N", allow_negative_numbers = true, default_value_t = Options::default().reach_limit)]
    pub reach_limit: usize,
}

impl SearchEffort {
    /// The search options these give (the rest at their defaults), checked.
    pub fn options(&self) -> Result<Options> {
        let most_reach =
            mancala_tables::physical_memory().map_or(usize::MAX, |b| (b / 30) as usize);
        if self.reach_limit > most_reach {
            bail!(
                "--reach-limit {}: give at most {most_reach} (about 30 bytes a position must fit in this machine's memory)",
                self.reach_limit
            );
        }
        Ok(Options {
            hash_mb: crate::args::hash_mb(self.hash)?,
            threads: crate::args::threads(self.threads)?,
            reach_limit: self.reach_limit,
            ..Options::default()
        })
    }
}

impl SearchArgs {
    /// The oracle's settings, checked.
    pub fn settings(&self) -> Result<Settings> {
        crate::args::table_dir(&self.dir)?;
        let max_seconds = crate::args::max_seconds(self.max_seconds)?;
        if self.id_depth > 200 {
            bail!("--id-depth {}: give at most 200 plies", self.id_depth);
        }
        Ok(Settings {
            dir: self.dir.clone(),
            tables: match self.tables {
                None => TableSize::Auto,
                Some(0) => TableSize::Off,
                Some(n) => TableSize::UpTo(n),
            },
            search: Options {
                id_depth: self.id_depth,
                time_limit: max_seconds,
                ..self.effort.options()?
            },
        })
    }

    /// An oracle for `rules` whose tables suit a position of `seeds` seeds, built first when
    /// missing (with a line on stderr unless quiet).
    pub fn oracle(&self, rules: Rules, seeds: usize, variant: &VariantArgs) -> Result<Oracle> {
        let advice = Advice {
            variant,
            dir: &self.dir,
        };
        let top = mancala_tables::top_tier(&rules);
        if let Some(t) = self.tables.filter(|&t| t > top) {
            bail!(
                "--tables {t}: {} has {} seeds, so its tables go up to {top}",
                rules.variant(),
                rules.max_seeds()
            );
        }
        if let Some(t) = self.tables.filter(|&t| t > seeds && !self.quiet) {
            eprintln!(
                "(--tables {t}: the position has {seeds} seeds, so tables up to {seeds} serve it)"
            );
        }
        let mut oracle = Oracle::new(rules, self.settings()?);
        if let Some(vu) = &self.vu_dir {
            oracle
                .use_published(vu, seeds)
                .map_err(|e| advice.oracle(e, seeds))?;
            return Ok(oracle);
        }
        let plan = oracle
            .plan_tables(seeds)
            .map_err(|e| advice.oracle(e, seeds))?;
        let Some(plan) = plan else {
            return Ok(oracle);
        };
        crate::args::set_threads(self.effort.threads).ok();
        let started = Instant::now();
        if plan.build && !self.quiet {
            let ix = mancala_index::Indexer::new(oracle.rules(), plan.up_to)?;
            let positions: u64 = (0..=plan.up_to).map(|n| ix.size(n)).sum();
            eprintln!(
                "building {} tables up to {} seeds in {} for the search: up to {} positions, {} of disk (kept for next time; --tables sets the size; --max-seconds limits the search, not this)",
                plan.key,
                plan.up_to,
                plan.dir.join(&plan.key).display(),
                crate::tiers::group(positions as u128),
                crate::advice::size_text(positions)
            );
        }
        let decoded = oracle
            .use_tables(&plan, &())
            .map_err(|e| advice.oracle(e, seeds))?;
        if !self.quiet {
            if plan.build {
                eprintln!(
                    "built the tables in {:.1} s",
                    started.elapsed().as_secs_f64()
                );
            }
            if decoded > 0 {
                eprintln!(
                    "decoded compressed tables into memory ({} MB)",
                    decoded.div_ceil(1 << 20)
                );
            }
        }
        Ok(oracle)
    }
}

/// Lets Ctrl-C stop a search the way its time limit would: the first press makes the search end
/// with the bounds it has proven (a proof of hours is not thrown away), which the command then
/// prints; a second press quits at once. Returns the flag, raised once Ctrl-C was pressed.
///
/// Meant to be called once per process (the watcher lives until the process ends). A process
/// that inherited SIGINT ignored (a shell's background job, `nohup`) gets no watcher: Ctrl-C
/// typed for the foreground job is not meant for it, and it keeps ignoring it.
pub fn stop_on_ctrl_c(oracle: &mut Oracle) -> Interrupt {
    let interrupt = Interrupt::new();
    oracle.set_interrupt(Some(interrupt.clone()));
    if sigint_ignored() {
        return interrupt;
    }
    let raised = interrupt.clone();
    // Without a watcher (no thread, no runtime) Ctrl-C keeps its default: the process ends.
    watch_signals("ctrl-c", move || async move {
        if tokio::signal::ctrl_c().await.is_err() {
            return;
        }
        // The flag first: the notice may fail (stderr a pipe whose reader the same
        // Ctrl-C ended), and the stop must not depend on it.
        stopped_by(Signal::CtrlC);
        raised.raise();
        let _ = writeln!(
            std::io::stderr(),
            "stopping the search: the bounds proven so far follow (Ctrl-C again to quit at once)"
        );
        if tokio::signal::ctrl_c().await.is_ok() {
            std::process::exit(130);
        }
    });
    interrupt
}

/// The signals that stop a search (which one, the stop's message says).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[repr(u8)]
pub enum Signal {
    CtrlC = 1,
    Term = 2,
}

/// The first signal that stopped this process's search (0: none yet).
static STOPPED_BY: std::sync::atomic::AtomicU8 = std::sync::atomic::AtomicU8::new(0);

/// Records that `signal` stopped the search, unless another did first; called by each
/// watcher before it raises the interrupt, so that the message names the right one.
pub fn stopped_by(signal: Signal) {
    use std::sync::atomic::Ordering::SeqCst;
    let _ = STOPPED_BY.compare_exchange(0, signal as u8, SeqCst, SeqCst);
}

/// Why a search ended before it settled its question, as `solve` and `query` say it: the
/// signal that stopped it (only Ctrl-C for most searches; SIGTERM too where a kept table is
/// saved first), or its time limit.
pub fn cut_short(stopped: bool) -> &'static str {
    use std::sync::atomic::Ordering::SeqCst;
    match (stopped, STOPPED_BY.load(SeqCst)) {
        (false, _) => "out of time",
        (true, by) if by == Signal::Term as u8 => "stopped by SIGTERM",
        (true, _) => "stopped by Ctrl-C",
    }
}

/// Why a search that proved the value did not prove which moves reach it, as `solve` and
/// `query` say it: a signal, a game with cycles searched beyond --reach-limit (its search
/// bounds values without the move list), or the time limit.
pub fn best_unproven(stopped: bool, rules: &Rules) -> &'static str {
    if !stopped && rules.variant().family().has_cycles() {
        return "this search bounds the value without solving every reachable position: raise --reach-limit or build tables that hold the position";
    }
    cut_short(stopped)
}

/// Ends a command whose search Ctrl-C stopped, once what it proved is printed: with status
/// 130, as a shell reports an interrupted run, so that a script does not take the bounds for
/// an answer. Stdout is flushed first (`exit` does not run the destructors that would).
pub fn exit_stopped() -> ! {
    let _ = std::io::stdout().flush();
    std::process::exit(130);
}

/// Runs `watch` (which awaits signals) on a thread of its own with a one-thread runtime.
/// Without the thread or the runtime the signals keep their defaults.
pub fn watch_signals<F>(name: &str, watch: impl FnOnce() -> F + Send + 'static)
where
    F: std::future::Future<Output = ()>,
{
    let _ = std::thread::Builder::new()
        .name(name.into())
        .spawn(move || {
            if let Ok(rt) = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
            {
                rt.block_on(watch());
            }
        });
}

/// Did this process inherit SIGINT ignored?
#[cfg(unix)]
fn sigint_ignored() -> bool {
    // SAFETY: a query of the current disposition (no new action); `old` is plain data.
    unsafe {
        let mut old: libc::sigaction = std::mem::zeroed();
        libc::sigaction(libc::SIGINT, std::ptr::null(), &mut old) == 0
            && old.sa_sigaction == libc::SIG_IGN
    }
}

#[cfg(not(unix))]
fn sigint_ignored() -> bool {
    false
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
        // In the proof, the root test under way ("moves at least +3?", asked of each move
        // still open) and, inside the move the first thread is on, the moves under it
        // searched: an hour-long question moves only there until its answer.
        let step = match (p.depth, p.step) {
            (None, Some(s)) => {
                let yes = if s.reached > 0 {
                    format!(", {} yes", s.reached)
                } else {
                    String::new()
                };
                let on = match s.on_move {
                    Some(m) if m.of > 0 => {
                        format!(
                            "; under move {}: {} of {} searched",
                            m.pit, m.searched, m.of
                        )
                    }
                    _ => String::new(),
                };
                format!(
                    "  moves at least {:+}? {} of {} no{yes}{on}",
                    s.threshold, s.below, s.moves
                )
            }
            _ => String::new(),
        };
        eprintln!(
            "{depth:>9}  value in [{:+}, {:+}]  {:>14} nodes  {:>6.2} M nodes/s  {:>8.1} s{step}",
            p.lo,
            p.hi,
            crate::tiers::group(p.nodes as u128),
            p.nodes_per_second() / 1e6,
            p.seconds
        );
    }
}
