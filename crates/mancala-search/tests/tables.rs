//! The search, probing only small tables, agrees with the values of bigger tables (built by
//! the retrograde builder) on positions sampled across their top tiers.

mod common;

use common::{awari, built, kalah, scratch, Lcg};
use mancala_rules::Rules;
use mancala_search::{Options, Solver};
use mancala_tables::Tables;

/// Samples `count` positions of each tier in `tiers`, searches them with tables up to
/// `small`, and compares with the full tables.
fn agree(
    rules: &Rules,
    name: &str,
    tiers: std::ops::RangeInclusive<usize>,
    small: usize,
    count: usize,
    threads: usize,
) {
    let dir = scratch(name);
    let full = built(rules, &dir, *tiers.end());
    let little = Tables::open(&dir, rules, small, true).unwrap();
    let opts = Options {
        hash_mb: 16,
        threads,
        ..Options::default()
    };
    let mut solver = Solver::new(rules, Some(&little), opts).unwrap();
    let ix = full.indexer();
    let mut rng = Lcg(*tiers.end() as u64 * 31 + small as u64);
    for n in tiers {
        for _ in 0..count {
            let b = ix.unrank(n, rng.below(ix.size(n)));
            let want = full.probe(b).unwrap().unwrap() as i32;
            let (got, _) = solver.value(b, &()).unwrap();
            assert_eq!(
                got,
                want,
                "{name}: {:?} ({n} seeds)",
                b.pits(2 * rules.pits())
            );
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn kalah_search_agrees_with_table_values() {
    agree(&kalah(6, 4, false), "kalah", 11..=13, 6, 12, 1);
    agree(&kalah(6, 4, true), "kalah-ec", 11..=13, 6, 12, 2);
}

#[test]
fn awari_search_agrees_with_table_values() {
    agree(&awari(4), "awari", 9..=10, 5, 5, 1);
}
