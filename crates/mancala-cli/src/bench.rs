//! `mancala bench`: fixed-depth searches of a fixed suite, whose node total is a signature.

use crate::tiers::group;
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

/// The Kalah solving suite (`--solve`): exact values over tables of this many seeds, which
/// build in about a second.
const SOLVE_TABLES: usize = 12;
/// Transposition table of every solve: fixed, for the same reason as [`BENCH_HASH_MB`].
const SOLVE_HASH_MB: usize = 64;

/// Positions the searcher proves exactly in seconds over 12-seed tables: the published
/// 6x3 start (+2) and Kalah middle games of both capture rules, where a proof spends its
/// nodes. The depth field is not used.
const SOLVE_SUITE: [Case; 4] = [
    case("kalah 6x3 start", Preset::Kalah, (6, 3, false), "", 0),
    case("kalah 6x3 ec start", Preset::Kalah, (6, 3, true), "", 0),
    case(
        "kalah 6x4 middle",
        Preset::Kalah,
        (6, 4, false),
        "2,5,0,3,1,4,3,2",
        0,
    ),
    case(
        "kalah 6x4 ec middle",
        Preset::Kalah,
        (6, 4, true),
        "3,1,4,0,5",
        0,
    ),
];

#[derive(Args, Debug)]
#[command(
    about = "Fixed-depth searches of a fixed suite: nodes, nodes per second and a node-count signature",
    long_about = "Run fixed-depth searches of a fixed suite of positions on one thread, without \
tables, each with a fresh 16 MB transposition table, and print the nodes and nodes per second of \
each. The node total is a signature of the search: a change that alters the search changes it, \
whatever the machine. Nodes per second measure the machine and the build.\n\n\
With --solve, the Kalah solving suite instead: exact values of fixed positions over Kalah tables \
of up to 12 seeds (built first into --dir, or a scratch folder), on one thread with a fresh \
64 MB table each: the value, the nodes and the time of each, and the node total as the \
signature of the proof search."
)]
pub struct BenchCmd {
    /// Print one JSON object: positions (name, depth, value, nodes, seconds, nodes_per_second),
    /// nodes, seconds, nodes_per_second
    #[arg(long)]
    json: bool,

    /// The Kalah solving suite: exact values over 12-seed tables (see above)
    #[arg(long)]
    solve: bool,

    /// With --solve: the table folder to build the 12-seed tables in and keep (default: a
    /// scratch folder, removed after)
    #[arg(long, value_name = "D")]
    dir: Option<std::path::PathBuf>,
}

/// The board of a suite case: its variant's start after its moves.
fn case_position(c: &Case) -> Result<(Rules, mancala_rules::Board)> {
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
    let b = game.board();
    Ok((rules, b))
}

impl BenchCmd {
    pub fn run(&self) -> Result<()> {
        if self.solve {
            return self.run_solve();
        }
        let mut rows = Vec::new();
        let (mut nodes, mut seconds) = (0u64, 0f64);
        for c in &SUITE {
            let (rules, board) = case_position(c)?;
            let opts = Options {
                hash_mb: BENCH_HASH_MB,
                threads: 1,
                ..Options::default()
            };
            let mut solver = Solver::new(&rules, None, opts)?;
            let started = std::time::Instant::now();
            let (value, k) = solver.fixed_depth(board, c.depth)?;
            let t = started.elapsed().as_secs_f64();
            nodes += k;
            seconds += t;
            if !self.json {
                println!(
                    "{:<22} depth {:>2}  value {:>+3}  {:>12} nodes  {:>7.3} s  {:>6.2} M nodes/s",
                    c.name,
                    c.depth,
                    value,
                    group(k as u128),
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
        self.print_total(json!({}), rows, nodes, seconds, "signature");
        Ok(())
    }

    /// The Kalah solving suite: exact values over 12-seed tables.
    fn run_solve(&self) -> Result<()> {
        let scratch = std::env::temp_dir().join(format!("mancala-bench-{}", std::process::id()));
        let dir = self.dir.clone().unwrap_or_else(|| scratch.clone());
        let out = self.solve_over(&dir);
        if self.dir.is_none() {
            let _ = std::fs::remove_dir_all(&scratch);
        }
        out
    }

    fn solve_over(&self, dir: &std::path::Path) -> Result<()> {
        let mut rows = Vec::new();
        let (mut nodes, mut seconds) = (0u64, 0f64);
        for c in &SOLVE_SUITE {
            let (rules, board) = case_position(c)?;
            let opts = mancala_tables::BuildOptions {
                dir: dir.to_path_buf(),
                max_seeds: SOLVE_TABLES,
                compress: false,
                memory: None,
                checkpoint_every: None,
                repair: false,
            };
            mancala_tables::build(&rules, &opts, &())?;
            let tables = mancala_tables::Tables::open(
                dir,
                &rules,
                SOLVE_TABLES,
                mancala_tables::Payload::Unchecked,
            )?;
            let opts = Options {
                hash_mb: SOLVE_HASH_MB,
                threads: 1,
                ..Options::default()
            };
            let mut solver = Solver::new(&rules, Some(&tables), opts)?;
            let started = std::time::Instant::now();
            let s = solver.solve(board, &())?;
            let t = started.elapsed().as_secs_f64();
            let value = s.value.unwrap_or(i32::MIN);
            nodes += s.nodes;
            seconds += t;
            if !self.json {
                println!(
                    "{:<22} {:>2} seeds  value {:>+3}  best {:?}  {:>12} nodes  {:>7.3} s  {:>6.2} M nodes/s",
                    c.name,
                    board.total(),
                    value,
                    s.best,
                    group(s.nodes as u128),
                    t,
                    s.nodes as f64 / t.max(1e-9) / 1e6
                );
            }
            rows.push(json!({
                "name": c.name,
                "seeds": board.total(),
                "value": s.value,
                "best": s.best,
                "nodes": s.nodes,
                "seconds": (t * 1000.0).round() / 1000.0,
                "nodes_per_second": (s.nodes as f64 / t.max(1e-9)).round(),
            }));
        }
        let head = json!({ "tables": SOLVE_TABLES });
        self.print_total(head, rows, nodes, seconds, "solve signature");
        Ok(())
    }

    /// A suite's total: one JSON object (`head`'s fields, then the positions and the totals)
    /// or a line that names the node total as the suite's `signature`.
    fn print_total(
        &self,
        head: serde_json::Value,
        rows: Vec<serde_json::Value>,
        nodes: u64,
        seconds: f64,
        signature: &str,
    ) {
        let rate = nodes as f64 / seconds.max(1e-9);
        if self.json {
            let mut v = head;
            v["positions"] = json!(rows);
            v["nodes"] = json!(nodes);
            v["seconds"] = json!((seconds * 1000.0).round() / 1000.0);
            v["nodes_per_second"] = json!(rate.round());
            println!("{v}");
        } else {
            let nodes = group(nodes as u128);
            println!(
                "total: {nodes} nodes in {seconds:.3} s, {:.2} M nodes/s ({signature} {nodes})",
                rate / 1e6
            );
        }
    }
}
