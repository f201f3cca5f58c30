//! `mancala solve`: the exact value of a position by search over the tables.

use crate::advice::Advice;
use crate::args::VariantArgs;
use crate::games::{self, Engines};
use crate::kept;
use crate::searching::{
    best_unproven, cut_short, exit_stopped, progress_printer, stop_on_ctrl_c, SearchArgs,
};
use anyhow::Result;
use clap::Args;
use mancala_rules::{parse_position, Field, Report};
use serde_json::json;
use std::path::PathBuf;

#[derive(Args, Debug)]
#[command(
    about = "The exact value of a position, its best moves and a principal variation, by search",
    long_about = "Find the exact perfect-play value of a position, every move that achieves it, \
and a principal variation.\n\n\
The value is the net future gain of the side to move: the seeds it will still bank minus the \
seeds its opponent will, whatever is already in the stores. From the start position it is the \
first player's winning margin.\n\n\
The search probes the endgame tables for every position whose seed count they cover, and \
builds the missing small tiers first (see --tables). Above them it runs iterative-deepening \
MTD(f) null-window tests with a transposition table, then proves the value without a depth \
limit. Progress (depth, proven bounds, nodes, nodes per second) goes to stderr.\n\n\
Once the search has started, Ctrl-C stops it the way --max-seconds would: the bounds proven so \
far are printed and the command exits with status 130 (a second Ctrl-C quits at once). A value \
proven before the stop is printed with it; best moves not yet sorted out are reported as not \
proven.",
    after_help = "Examples:\n  mancala solve kalah --seeds 3                     # +2 in about a second\n  \
mancala solve kalah --seeds 4 --empty-capture     # +10\n  \
mancala solve mancala \"0 5 5 5 5 4 4 4 4 4 4 4\" --json\n  \
mancala solve awari --seeds 2 --tables 12 --hash 1024"
)]
pub struct SolveCmd {
    #[command(flatten)]
    variant: VariantArgs,

    /// The position: 2m pit counts, side to move's pits first (default: the start position);
    /// with nam-nam --owners, a last word `north` puts North to move
    #[arg(allow_hyphen_values = true)]
    position: Option<String>,

    #[command(flatten)]
    search: SearchArgs,

    /// Ask only whether the value is at least V (one null-window proof, cheaper than the exact
    /// value, which needs a proof on each side of it): `--at-least 1` asks whether the side
    /// to move wins. Prints yes or no with the proven bounds and the moves that reach V
    #[arg(long, value_name = "V", allow_negative_numbers = true)]
    at_least: Option<i32>,

    /// Keep the transposition table in FILE: read back at the start when the file exists (a
    /// table written for the same values, by any position's search; its size wins over
    /// --hash), saved every --save-minutes while the search runs and when it ends or is
    /// stopped (Ctrl-C, or SIGTERM, which then stops the search as Ctrl-C does). A proof too
    /// long for one run, or a run killed, goes on from what was proven. The file is as big as
    /// the table, and a save needs room for a second copy while it is written (the old file
    /// stays whole until the new one is in place)
    #[arg(long, value_name = "FILE")]
    hash_file: Option<PathBuf>,

    /// With --hash-file: minutes between saves while the search runs (0: only at the end)
    #[arg(
        long,
        value_name = "M",
        default_value_t = 10.0,
        requires = "hash_file",
        allow_negative_numbers = true
    )]
    save_minutes: f64,

    /// Print one JSON object: value, bounds, best, pv, nodes, expanded, seconds, tables; with
    /// --at-least also at_least and answer
    #[arg(long)]
    json: bool,

    /// Forced-move games: the setup to value (2m counts; default: the preset's documented
    /// setup). Both the kept and the swapped board are played out
    #[arg(long, value_name = "COUNTS", allow_hyphen_values = true)]
    setup: Option<String>,

    /// 3-4 player Mankala: give up after this many search nodes (1 to 10^13)
    #[arg(long, value_name = "N", allow_negative_numbers = true, default_value_t = 50_000_000, value_parser = clap::value_parser!(u64).range(1..=10_000_000_000_000))]
    node_limit: u64,
}

impl SolveCmd {
    pub fn run(&self) -> Result<()> {
        let mut spec = self.variant.spec()?;
        spec.position = self.position.clone();
        spec.setup = self.setup.clone();
        let families = games::families(Engines::default());
        let (family, info) = games::find(&families, &spec.preset)?;
        if !info.tables {
            if self.at_least.is_some() {
                anyhow::bail!(
                    "--at-least: {} is solved by its own solver, which gives its value only; leave the option out",
                    spec.preset
                );
            }
            if self.hash_file.is_some() {
                anyhow::bail!(
                    "--hash-file: {} is solved by its own solver, which keeps no transposition table; leave the option out",
                    spec.preset
                );
            }
            let report = family
                .solve(&spec, self.node_limit)
                .map_err(games::game_error)?;
            return self.print_report(&report);
        }
        spec.position = None;
        mancala_oracle::game(&spec).map_err(games::game_error)?;
        let rules = self.variant.rules()?;
        let b = match &self.position {
            Some(p) => parse_position(&rules, p)?,
            None => rules.start(),
        };
        let n = b.total() as usize;
        let advice = Advice {
            variant: &self.variant,
            dir: &self.search.dir,
        };
        if !(self.save_minutes.is_finite() && (0.0..=1e6).contains(&self.save_minutes)) {
            anyhow::bail!(
                "--save-minutes {}: give 0 (save only at the end) to 1000000",
                self.save_minutes
            );
        }
        // Claimed before the tables are built: a file that cannot serve fails first, and no
        // other run takes it meanwhile.
        let claim = match &self.hash_file {
            Some(path) => Some(kept::claim(path, &rules)?),
            None => None,
        };
        let mut oracle = self.search.oracle(rules, n, &self.variant)?;
        let quiet = self.search.quiet;
        let kept = match claim {
            Some(c) => Some(kept::open(&mut oracle, c, self.search.effort.hash, quiet)?),
            None => None,
        };
        let printer = progress_printer(quiet);
        let ctrl_c = stop_on_ctrl_c(&mut oracle);
        if kept.is_some() {
            kept::stop_on_sigterm(ctrl_c.clone());
        }
        let mut search = || oracle.solve_or_at_least(b, self.at_least, &printer);
        let searched = match &kept {
            Some(file) => kept::saving_every(file, self.save_minutes, quiet, search),
            None => search(),
        };
        // What the search proved is kept whatever became of it (an answer, a stop, an error),
        // before anything is printed: printing can fail (a closed pipe ends the process), and
        // a failed save does not cost the answer, which is printed all the same.
        let unsaved = kept.as_ref().and_then(|f| kept::save(f, quiet).err());
        let s = match searched {
            Ok(s) => s,
            Err(e) => {
                if let Some(u) = unsaved {
                    eprintln!("error: {u:#}");
                }
                return Err(advice.oracle(e, n));
            }
        };
        // Stopped by Ctrl-C: the bounds go out as a time limit's would, and the exit status
        // says the run was interrupted (130, as a shell reports it), even when the value was
        // proven before the stop: its best moves or its line may be cut short.
        let stopped = ctrl_c.is_raised();
        let end = Ending { stopped, unsaved };
        if self.json {
            let out = mancala_oracle::json::solve_reply(&s, self.at_least, oracle.tables_up_to());
            println!("{out}");
            return end.finish();
        }
        println!("{}: {} seeds in the pits", oracle.rules().variant(), n);
        if let Some(t) = self.at_least {
            return self.print_test(&s, t, end, oracle.tables_up_to());
        }
        match s.value {
            Some(v) => println!(
                "value {v:+} for the side to move (seeds it will gain beyond its opponent with perfect play)"
            ),
            None => println!(
                "{}: the value lies in [{:+}, {:+}] (proven bounds)",
                cut_short(stopped),
                s.lo,
                s.hi
            ),
        }
        // Without a value no move is proven best, and there is no line to show. A stop after
        // the value but before the best moves were sorted out leaves them unproven, and so
        // does an Awari-type search over more positions than --reach-limit, which proves
        // bounds only and may meet at the value without having shown which moves reach it:
        // an empty "best moves:" line would read as "none".
        if s.value.is_some() {
            if s.best.is_empty() && !s.moves.is_empty() {
                println!(
                    "best moves: not proven ({})",
                    best_unproven(stopped, oracle.rules())
                );
            } else {
                println!("best moves: {}", move_list(&s.best));
                println!("principal variation: {}", move_list(&s.pv));
            }
        }
        print_effort(&s, oracle.tables_up_to());
        end.finish()
    }

    /// The answer to `--at-least`: yes or no with the proven bounds, or the bounds alone.
    fn print_test(
        &self,
        s: &mancala_oracle::Solution,
        t: i32,
        end: Ending,
        tables: Option<usize>,
    ) -> Result<()> {
        let stopped = end.stopped;
        match s.answers(t) {
            Some(true) => println!(
                "yes: the value is at least {t:+} (proven bounds [{:+}, {:+}]); moves proven to reach it: {}",
                s.lo,
                s.hi,
                move_list(&s.best)
            ),
            Some(false) => println!(
                "no: the value is below {t:+} (proven bounds [{:+}, {:+}])",
                s.lo, s.hi
            ),
            None => println!(
                "not settled ({}): the value lies in [{:+}, {:+}] (proven bounds)",
                cut_short(stopped),
                s.lo,
                s.hi
            ),
        }
        print_effort(s, tables);
        end.finish()
    }

    /// A family's own answer (max-n values, a setup played both ways), as text or JSON.
    fn print_report(&self, report: &Report) -> Result<()> {
        if self.json {
            println!("{}", json_of(&Field::Object(report.fields.clone())));
        } else {
            for line in &report.lines {
                println!("{line}");
            }
        }
        Ok(())
    }
}

/// A report field as JSON.
fn json_of(f: &Field) -> serde_json::Value {
    match f {
        Field::Null => serde_json::Value::Null,
        Field::Bool(b) => json!(b),
        Field::Int(n) => json!(n),
        Field::Text(s) => json!(s),
        Field::List(l) => l.iter().map(json_of).collect(),
        Field::Object(fields) => fields
            .iter()
            .map(|(k, v)| (k.to_string(), json_of(v)))
            .collect::<serde_json::Map<_, _>>()
            .into(),
    }
}

/// Pits as a line of numbers.
fn move_list(pits: &[usize]) -> String {
    pits.iter()
        .map(|p| p.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

/// The search's nodes, time, rate and tables, the last line of an answer.
fn print_effort(s: &mancala_oracle::Solution, tables: Option<usize>) {
    println!(
        "{} nodes in {:.2} s ({:.2} M nodes/s), tables up to {}",
        crate::tiers::group(s.nodes as u128),
        s.seconds,
        s.nodes as f64 / s.seconds.max(1e-9) / 1e6,
        tables.map_or("none".to_string(), |k| format!("{k} seeds"))
    );
}

/// How a solve whose answer is printed ends.
struct Ending {
    /// Stopped by Ctrl-C.
    stopped: bool,
    /// The last save of `--hash-file`, failed.
    unsaved: Option<anyhow::Error>,
}

impl Ending {
    /// Ends a solve whose answer is printed: normally, with the error of a failed save, or
    /// with status 130 after a Ctrl-C.
    fn finish(self) -> Result<()> {
        if self.stopped {
            if let Some(e) = self.unsaved {
                use std::io::Write;
                let _ = std::io::stdout().flush();
                eprintln!("error: {e:#}");
            }
            exit_stopped();
        }
        match self.unsaved {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }
}
