//! `mancala bench`: fixed-depth searches of a fixed suite, whose node total is a signature.

use anyhow::{bail, Result};
use clap::Args;
use mancala_rules::{parse_moves, Game, Options as RuleOptions, Preset, Rules, Variant};
use mancala_search::{Options, Solver};
use serde_json::json;

/// Transposition table of every bench search: fixed, because its size changes node counts.
const BENCH_HASH_MB: usize = 16;

/// One bench position: a variant, the moves from its start, and a depth in plies.
struct Case {
    name: &'static str,
    preset: Preset,
    pits: u32,
    seeds: u32,
    empty_capture: bool,
    moves: &'static str,
    depth: u32,
}

const fn case(
    name: &'static str,
    preset: Preset,
    (pits, seeds, empty_capture): (u32, u32, bool),
    moves: &'static str,
    depth: u32,
) -> Case {
    Case {
        name,
        preset,
        pits,
        seeds,
        empty_capture,
        moves,
        depth,
    }
}

/// Mostly Kalah middle games, where the searcher spends its time; two Awari positions for the
/// cycle handling.
const SUITE: [Case; 8] = [
    case("kalah 6x4 start", Preset::Kalah, (6, 4, false), "", 18),
    case(
        "kalah 6x4 middle",
        Preset::Kalah,
        (6, 4, false),
        "2,5,0,3,1,4",
        20,
    ),
    case(
        "kalah 6x4 ec middle",
        Preset::Kalah,
        (6, 4, true),
        "3,1,4,0,5",
        20,
    ),
    case(
        "kalah 6x5 middle",
        Preset::Kalah,
        (6, 5, false),
        "4,0,2,5,1",
        18,
    ),
    case("kalah 6x6 start", Preset::Kalah, (6, 6, false), "", 16),
    case(
        "kalah 6x6 middle",
        Preset::Kalah,
        (6, 6, true),
        "0,1,5,2,4,3",
        17,
    ),
    case("awari start", Preset::Awari, (6, 4, false), "", 14),
    case(
        "awari middle",
        Preset::Awari,
        (6, 4, false),
        "2,3,1,4,0,5,3",
        14,
    ),
];

#[derive(Args, Debug)]
#[command(
    long_about = "Run fixed-depth searches of a fixed suite of positions on one thread, without \
tables, each with a fresh 16 MB transposition table, and print the nodes and nodes per second of \
each. The node total is a signature of the search: a change that alters the search changes it, \
whatever the machine. Nodes per second measure the machine and the build."
)]
pub struct BenchCmd {
    /// Print one JSON object: positions (name, depth, value, nodes, seconds, nodes_per_second),
    /// nodes, seconds, nodes_per_second
    #[arg(long)]
    json: bool,
}

impl BenchCmd {
    pub fn run(&self) -> Result<()> {
        let mut rows = Vec::new();
        let (mut nodes, mut seconds) = (0u64, 0f64);
        for c in &SUITE {
            let variant = Variant::new(
                c.preset,
                RuleOptions {
                    pits: Some(c.pits),
                    seeds: Some(c.seeds),
                    empty_capture: c.empty_capture,
                    ..Default::default()
                },
            )?;
            let rules = Rules::new(variant);
            let mut game = Game::new(rules.clone());
            for pit in parse_moves(rules.pits(), c.moves)? {
                game.play(pit)?;
            }
            if game.is_over() {
                bail!("bench position '{}' is over", c.name);
            }
            let opts = Options {
                hash_mb: BENCH_HASH_MB,
                threads: 1,
                ..Options::default()
            };
            let mut solver = Solver::new(&rules, None, opts)?;
            let started = std::time::Instant::now();
            let (value, k) = solver.fixed_depth(game.board(), c.depth)?;
            let t = started.elapsed().as_secs_f64();
            nodes += k;
            seconds += t;
            if !self.json {
                println!(
                    "{:<22} depth {:>2}  value {:>+3}  {:>12} nodes  {:>7.3} s  {:>6.2} M nodes/s",
                    c.name,
                    c.depth,
                    value,
                    k,
                    t,
                    k as f64 / t.max(1e-9) / 1e6
                );
            }
            rows.push(json!({
                "name": c.name,
                "depth": c.depth,
                "value": value,
                "nodes": k,
                "seconds": (t * 1000.0).round() / 1000.0,
                "nodes_per_second": (k as f64 / t.max(1e-9)).round(),
            }));
        }
        let rate = nodes as f64 / seconds.max(1e-9);
        if self.json {
            let v = json!({
                "positions": rows,
                "nodes": nodes,
                "seconds": (seconds * 1000.0).round() / 1000.0,
                "nodes_per_second": rate.round(),
            });
            println!("{v}");
        } else {
            println!(
                "total: {nodes} nodes in {seconds:.3} s, {:.2} M nodes/s (signature {nodes})",
                rate / 1e6
            );
        }
        Ok(())
    }
}
