//! `mancala query`: the value of a position and of each move, from the tables (by search
//! above them).

use super::{TableArgs, VuDir};
use crate::searching::{
    best_unproven, cut_short, exit_stopped, progress_printer, stop_on_ctrl_c, SearchEffort,
};
use crate::tiers::group;
use anyhow::Result;
use clap::Args;
use mancala_oracle::{Answer, Options, Oracle, OracleError, Settings, TableSize};
use mancala_rules::parse_position;
use mancala_search::SearchError;

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

    /// Above the built tiers, the search's
    #[command(flatten)]
    effort: SearchEffort,

    /// Above the built tiers: prove every move's exact value. Without it a query costs what
    /// `solve` costs: the best moves are exact and every other move is only proven worse
    /// ("at most"); a losing move's exact value can take many times as long
    #[arg(long)]
    exact: bool,

    /// Above the built tiers: stop the search after this many seconds and report the proven
    /// bounds instead of the value (with --exact, once the value is proven, the moves not yet
    /// proven keep their bounds). Ctrl-C stops it the same way, then exits with status 130
    #[arg(long, value_name = "S", allow_negative_numbers = true)]
    max_seconds: Option<f64>,

    /// No search progress on stderr
    #[arg(long, short)]
    quiet: bool,

    #[command(flatten)]
    published: VuDir,
}

impl QueryCmd {
    /// Why an answer came from a search: the tables the oracle used stop below the
    /// position, a missing tier cut them short (the files above it are not used: a search
    /// probes a complete range), or there are no files at all (the oracle then uses only the
    /// trivial tiers it works out in memory, which are no reason to say tables are built).
    fn searched_because(&self, oracle: &Oracle) -> String {
        let dir = &self.table.dir;
        let on_disk = mancala_oracle::highest_tier(dir, oracle.rules());
        match (oracle.tables_up_to(), on_disk) {
            (_, None) => format!(
                "by search: no tables of this rule set are built in {}",
                dir.display()
            ),
            (Some(k), Some(top)) if top > k => format!(
                "by search over tiers 0..={k}: tier {} is missing, so the tiers above it are not used; `{}` builds it",
                k + 1,
                self.table.variant.build_command(top, dir)
            ),
            (Some(k), _) => format!(
                "by search: the position lies above the built tables, which go up to {k} seed{}",
                if k == 1 { "" } else { "s" }
            ),
            (None, Some(_)) => "by search: the tables here do not start at tier 0".into(),
        }
    }

    pub fn run(&self) -> Result<()> {
        let rules = self.table.rules()?;
        let b = parse_position(&rules, &self.position)?;
        let n = b.total() as usize;
        let advice = self.table.advice();
        let settings = Settings {
            dir: self.table.dir.clone(),
            tables: TableSize::Auto,
            search: Options {
                time_limit: crate::args::max_seconds(self.max_seconds)?,
                ..self.effort.options()?
            },
        };
        let mut oracle = Oracle::new(rules, settings);
        match &self.published.vu_dir {
            Some(vu) => oracle.use_published(vu, n),
            None => oracle.open_built(n),
        }
        .map_err(|e| advice.oracle(e, n))?;
        let progress = progress_printer(self.quiet);
        let ctrl_c = stop_on_ctrl_c(&mut oracle);
        let asked = match self.exact {
            true => oracle.query_exact(b, &progress),
            false => oracle.query(b, &progress),
        };
        // Stopped by Ctrl-C, whatever the search came to: status 130 once it is printed.
        let stopped = ctrl_c.is_raised();
        let a = match asked {
            Ok(a) => a,
            // Cut short by --max-seconds or Ctrl-C: what was proven, as `solve` reports it.
            Err(OracleError::Search(SearchError::OutOfTime { lo, hi })) => {
                self.print_bounds(&oracle, n, lo, hi, stopped);
                return match stopped {
                    true => exit_stopped(),
                    false => Ok(()),
                };
            }
            Err(e) => return Err(advice.oracle(e, n)),
        };
        self.print_answer(&oracle, n, &a, stopped);
        if stopped {
            exit_stopped();
        }
        Ok(())
    }

    /// The answer: the value and every move's, as text or JSON.
    fn print_answer(&self, oracle: &Oracle, n: usize, a: &Answer, stopped: bool) {
        if self.json {
            println!("{}", mancala_oracle::json::answer(a, n));
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
                println!("({})", self.searched_because(oracle));
            }
            for m in &a.moves {
                let mark = if a.best.contains(&m.pit) {
                    "  best"
                } else {
                    ""
                };
                println!("  move {}: {m}{mark}", m.pit);
            }
            // Stopped once the value was proven but before a move was proven to reach it
            // (as `solve` says it): the moves above carry their bounds.
            if a.best.is_empty() && !a.moves.is_empty() {
                println!(
                    "best moves: not proven ({})",
                    best_unproven(stopped, oracle.rules())
                );
            } else if self.exact && a.moves.iter().any(|m| m.value().is_none()) {
                println!(
                    "--exact: {} before every move's value was proven; the others carry their proven bounds",
                    cut_short(stopped)
                );
            }
        }
    }

    /// Bounds proven on the value by a search cut short, as `solve` prints them.
    fn print_bounds(&self, oracle: &Oracle, n: usize, lo: i32, hi: i32, stopped: bool) {
        if self.json {
            println!("{}", mancala_oracle::json::bounded_answer(lo, hi, n));
            return;
        }
        println!(
            "{}: {} seeds in the pits",
            oracle.rules().variant(),
            group(n as u128)
        );
        println!(
            "{}: the value lies in [{lo:+}, {hi:+}] (proven bounds)",
            cut_short(stopped)
        );
        println!("({})", self.searched_because(oracle));
    }
}
