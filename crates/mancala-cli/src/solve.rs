//! `mancala solve`: the exact value of a position by search over the tables.

use crate::args::VariantArgs;
use crate::games::Home;
use crate::searching::{progress_printer, SearchArgs};
use anyhow::Result;
use clap::Args;
use mancala_rules::parse_position;
use serde_json::json;

#[derive(Args, Debug)]
#[command(
    long_about = "Find the exact perfect-play value of a position, every move that achieves it, \
and a principal variation.\n\n\
The value is the net future gain of the side to move: the seeds it will still bank minus the \
seeds its opponent will, whatever is already in the stores. From the start position it is the \
first player's winning margin.\n\n\
The search probes the endgame tables for every position whose seed count they cover, and \
builds the missing small tiers first (see --tables). Above them it runs iterative-deepening \
MTD(f) null-window tests with a transposition table, then proves the value without a depth \
limit. Progress (depth, proven bounds, nodes, nodes per second) goes to stderr.",
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
    position: Option<String>,

    #[command(flatten)]
    search: SearchArgs,

    /// Print one JSON object: value, best, pv, nodes, seconds
    #[arg(long)]
    json: bool,

    /// Forced-move games: the setup to value (2m counts; default: the preset's documented
    /// setup). Both the kept and the swapped board are played out
    #[arg(long, value_name = "COUNTS")]
    setup: Option<String>,

    /// 3-4 player Mankala: give up after this many search nodes
    #[arg(long, value_name = "N", default_value_t = 50_000_000)]
    node_limit: u64,
}

impl SolveCmd {
    pub fn run(&self) -> Result<()> {
        crate::games::check_playable(&self.variant.variant)?;
        if let Some(home) = crate::games::home(&self.variant.variant) {
            return self.run_elsewhere(home);
        }
        if self.setup.is_some() {
            anyhow::bail!(
                "--setup belongs to the forced-move games (madjnuni, el-akil, el-ghasheem)"
            );
        }
        let rules = self.variant.rules()?;
        let b = match &self.position {
            Some(p) => parse_position(&rules, p)?,
            None => rules.start(),
        };
        let tables = self.search.tables(&rules, b.total() as usize)?;
        let mut solver = self.search.solver(&rules, tables.as_ref())?;
        let printer = progress_printer(self.search.quiet);
        let s = solver.solve(b, &printer)?;
        printer.done();
        if self.json {
            let v = json!({
                "value": s.value,
                "bounds": [s.lo, s.hi],
                "best": s.best,
                "pv": s.pv,
                "nodes": s.nodes,
                "seconds": (s.seconds * 1000.0).round() / 1000.0,
                "tables": solver.tables_up_to(),
            });
            println!("{v}");
        } else {
            println!("{}: {} seeds in the pits", rules.variant(), b.total());
            match s.value {
                Some(v) => println!(
                    "value {v:+} for the side to move (seeds it will gain beyond its opponent with perfect play)"
                ),
                None => println!(
                    "out of time: the value lies in [{:+}, {:+}] (proven bounds)",
                    s.lo, s.hi
                ),
            }
            let list = |v: &[usize]| {
                v.iter()
                    .map(|p| p.to_string())
                    .collect::<Vec<_>>()
                    .join(" ")
            };
            println!("best moves: {}", list(&s.best));
            println!("principal variation: {}", list(&s.pv));
            println!(
                "{} nodes in {:.2} s ({:.2} M nodes/s), tables up to {}",
                s.nodes,
                s.seconds,
                s.nodes as f64 / s.seconds.max(1e-9) / 1e6,
                solver
                    .tables_up_to()
                    .map_or("none".to_string(), |k| format!("{k} seeds"))
            );
        }
        Ok(())
    }

    /// Max-n values of 3-4 player Mankala; the value of a forced-move game's setup.
    fn run_elsewhere(&self, home: Home) -> Result<()> {
        let name = self.variant.variant.trim().to_ascii_lowercase();
        match home {
            Home::Bao => anyhow::bail!(
                "{name} keeps every seed on the board, so it has no exact solution here; \
                 `mancala play {name} --engine north` plays it with the alpha-beta searcher"
            ),
            Home::Multi => {
                let (pits, seeds) = crate::games::sizes(&self.variant)?;
                let g = mancala_multi::new_game(
                    &name,
                    pits,
                    seeds,
                    &self.variant.rules,
                    self.position.as_deref(),
                )?;
                let s = mancala_multi::solve(&g, self.node_limit)?;
                if self.json {
                    let moves: Vec<_> = s
                        .move_values
                        .iter()
                        .map(|(m, v)| json!({"move": m, "scores": v}))
                        .collect();
                    println!(
                        "{}",
                        json!({"scores": s.scores, "gains": s.gains, "best": s.best, "pv": s.pv, "moves": moves, "nodes": s.nodes})
                    );
                } else {
                    println!("{}", mancala_rules::Playable::describe(&g));
                    println!("final seeds under max-n play (seat order): {:?}", s.scores);
                    println!(
                        "best move: {}",
                        s.best.as_deref().unwrap_or("none (game over)")
                    );
                    for (m, v) in &s.move_values {
                        println!("  move {m}: final seeds {v:?}");
                    }
                    println!("principal variation: {}", s.pv.join(" "));
                    println!("{} nodes", s.nodes);
                }
            }
            Home::Forced => {
                if self.position.is_some() {
                    anyhow::bail!("{name} starts from a setup: give --setup \"c1 c2 ..\"");
                }
                let (pits, seeds) = crate::games::sizes(&self.variant)?;
                let v = mancala_forced::solve_setup(
                    &name,
                    pits,
                    seeds,
                    &self.variant.rules,
                    self.setup.as_deref(),
                )?;
                if self.json {
                    let outcome = |o: &mancala_forced::Outcome| {
                        json!({
                            "swapped": o.swapped,
                            "first_mover": o.first_mover.as_str(),
                            "distributor": o.distributor,
                            "second": o.second,
                            "winner": o.winner_str(),
                            "moves": o.moves,
                            "end": o.end.as_str(),
                        })
                    };
                    let v = json!({
                        "rules": v.description,
                        "setup": v.setup,
                        "kept": outcome(&v.kept),
                        "swapped": outcome(&v.swapped),
                        "second_swaps": v.second_swaps,
                        "distributor_value": v.distributor_value,
                    });
                    println!("{v}");
                } else {
                    println!("{}: setup {:?}", v.description, v.setup);
                    for (label, o) in [("kept", &v.kept), ("swapped", &v.swapped)] {
                        println!(
                            "  {label:<8} distributor {:>3}, second {:>3}: {} after {} moves ({})",
                            o.distributor,
                            o.second,
                            o.winner_str(),
                            o.moves,
                            o.end.as_str()
                        );
                    }
                    println!(
                        "the second player {} the swap; the distributor ends with {} seeds",
                        if v.second_swaps { "takes" } else { "declines" },
                        v.distributor_value
                    );
                }
            }
        }
        Ok(())
    }
}
