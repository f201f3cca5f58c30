//! Tier solver benchmarks: positions per second of `solve_tier` on whole tiers, with every lower
//! tier already solved in memory (so the figure is the solver's, not the disk's).
//!
//! The big-tier figures of docs/performance.md come from `build --json` through
//! `scripts/build-big-tables.sh`; this bench tracks the same code on tiers that fit a quick run.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use mancala_index::Indexer;
use mancala_rules::{Preset, Rules, Variant};
use mancala_tables::{solve_tier, Layout, LowerTiers};
use std::hint::black_box;

/// Lower tiers held as plain byte vectors.
struct Memory(Vec<Vec<u8>>);

impl LowerTiers for Memory {
    fn value(&self, tier: usize, rank: u64) -> i8 {
        self.0[tier][rank as usize] as i8
    }
}

/// Solves tiers `0..n` once, returning them and the indexer.
fn lower_tiers(rules: &Rules, n: usize) -> (Indexer, Memory) {
    let ix = Indexer::new(rules, n).expect("index fits");
    let mut lower = Memory(Vec::new());
    for k in 0..n {
        let values = solve_tier(rules, &ix, k, &lower, &(), &Layout::default()).expect("in memory");
        lower.0.push(values.to_vec());
    }
    (ix, lower)
}

fn tier_solver(c: &mut Criterion) {
    let mut g = c.benchmark_group("solve_tier");
    g.sample_size(10);
    for (preset, n) in [(Preset::Awari, 15), (Preset::Kalah, 16)] {
        let rules = Rules::new(Variant::preset(preset));
        let (ix, lower) = lower_tiers(&rules, n);
        g.throughput(Throughput::Elements(ix.size(n)));
        g.bench_function(format!("{} tier {n}", preset.name()), |b| {
            b.iter(|| {
                solve_tier(&rules, &ix, black_box(n), &lower, &(), &Layout::default())
                    .expect("in memory")
                    .len()
            })
        });
    }
    g.finish();
}

criterion_group!(benches, tier_solver);
criterion_main!(benches);
