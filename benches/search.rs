//! Searcher benchmarks: nodes per second of fixed-depth searches (no tables), and whole exact
//! solves of small games.
//!
//! Every run starts from a fresh transposition table, so each iteration does the same work.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use mancala_rules::{parse_moves, Game, Options as RuleOptions, Preset, Rules, Variant};
use mancala_search::{Options, Solver};
use std::hint::black_box;

fn rules(preset: Preset, pits: u32, seeds: u32, empty_capture: bool) -> Rules {
    let opts = RuleOptions {
        pits: Some(pits),
        seeds: Some(seeds),
        empty_capture,
        ..Default::default()
    };
    Rules::new(Variant::new(preset, opts).unwrap())
}

fn after(rules: &Rules, moves: &str) -> mancala_rules::Board {
    let mut g = Game::new(rules.clone());
    for pit in parse_moves(rules.pits(), moves).unwrap() {
        g.play(pit).unwrap();
    }
    g.board()
}

fn one_thread(hash_mb: usize) -> Options {
    Options {
        hash_mb,
        threads: 1,
        ..Options::default()
    }
}

/// Kalah middle games at a fixed depth: the throughput figure of docs/performance.md.
fn fixed_depth(c: &mut Criterion) {
    let cases = [
        (
            "kalah 6x4 middle d16",
            rules(Preset::Kalah, 6, 4, false),
            "2,5,0,3,1,4",
            16,
        ),
        (
            "kalah 6x6 middle d14",
            rules(Preset::Kalah, 6, 6, true),
            "0,1,5,2,4,3",
            14,
        ),
    ];
    let mut g = c.benchmark_group("search");
    g.sample_size(10);
    for (name, r, moves, depth) in &cases {
        let b = after(r, moves);
        let mut solver = Solver::new(r, None, one_thread(16)).unwrap();
        let (_, nodes) = solver.fixed_depth(b, *depth).unwrap();
        g.throughput(Throughput::Elements(nodes));
        g.bench_function(*name, |bench| {
            bench.iter(|| solver.fixed_depth(black_box(b), *depth).unwrap())
        });
    }
    g.finish();
}

/// Exact solves of small games without tables: Kalah 6x3 (+2) and Awari with one seed a pit
/// (its positions reachable above the tables solved backwards).
fn exact(c: &mut Criterion) {
    let mut g = c.benchmark_group("solve");
    g.sample_size(10);
    let kalah = rules(Preset::Kalah, 6, 3, false);
    g.bench_function("kalah 6x3 exact, no tables", |bench| {
        bench.iter(|| {
            let mut s = Solver::new(&kalah, None, one_thread(64)).unwrap();
            s.value(black_box(kalah.start()), &()).unwrap()
        })
    });
    let awari = rules(Preset::Awari, 6, 1, false);
    g.bench_function("awari 6x1 exact, no tables", |bench| {
        bench.iter(|| {
            let mut s = Solver::new(&awari, None, one_thread(1)).unwrap();
            s.value(black_box(awari.start()), &()).unwrap()
        })
    });
    g.finish();
}

criterion_group!(benches, fixed_depth, exact);
criterion_main!(benches);
