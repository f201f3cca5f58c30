//! Rules and index micro-benchmarks, in ns per operation.
//!
//! Positions come from a fixed pseudo-random sample of Awari tier 20 (and Kalah 6x4 tier 20),
//! so every run measures the same work.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use mancala_index::Indexer;
use mancala_rules::{Board, Node, Preset, Rules, Variant};
use std::hint::black_box;

fn sample(rules: &Rules, ix: &Indexer, n: usize, count: u64) -> Vec<Board> {
    let size = ix.size(n);
    // A fixed multiplicative stride over the tier.
    (0..count)
        .map(|i| ix.unrank(n, (i.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 1) % size))
        .filter(|b| matches!(rules.node(*b), Node::Moves(_)))
        .collect()
}

fn rules_benches(c: &mut Criterion) {
    for preset in [Preset::Awari, Preset::Kalah] {
        let rules = Rules::new(Variant::preset(preset));
        let ix = Indexer::new(&rules, 20).unwrap();
        let boards = sample(&rules, &ix, 20, 4096);
        let name = preset.name();
        let mut g = c.benchmark_group(name);
        g.throughput(Throughput::Elements(boards.len() as u64));
        g.bench_function("movegen+sow+capture (all children)", |b| {
            b.iter(|| {
                let mut acc = 0u64;
                for &p in &boards {
                    if let Node::Moves(k) = rules.node(black_box(p)) {
                        acc += k.len() as u64;
                    }
                }
                acc
            })
        });
        g.bench_function("predecessors (un-sow)", |b| {
            let mut out = Vec::new();
            b.iter(|| {
                let mut acc = 0usize;
                for &p in &boards {
                    rules.predecessors(black_box(p), &mut out);
                    acc += out.len();
                }
                acc
            })
        });
        let ranks: Vec<u64> = boards.iter().map(|&b| ix.rank(b).unwrap()).collect();
        g.bench_function("rank", |b| {
            b.iter(|| {
                boards
                    .iter()
                    .map(|&p| ix.rank(black_box(p)).unwrap())
                    .sum::<u64>()
            })
        });
        g.bench_function("unrank", |b| {
            b.iter(|| {
                ranks
                    .iter()
                    .map(|&r| ix.unrank(20, black_box(r)).0 as u64)
                    .sum::<u64>()
            })
        });
        g.finish();
        let mut g = c.benchmark_group(name);
        g.throughput(Throughput::Elements(100_000));
        g.bench_function("tier walk (per position)", |b| {
            b.iter(|| {
                ix.walk_from(20, 1_000_000)
                    .take(100_000)
                    .map(|b| b.0 as u64)
                    .sum::<u64>()
            })
        });
        g.finish();
    }
}

criterion_group!(benches, rules_benches);
criterion_main!(benches);
