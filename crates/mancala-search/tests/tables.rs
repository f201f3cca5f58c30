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

/// A compressed set gives the raw set's answers, whether it is decoded up front (what `solve`
/// does) or read one position at a time.
#[test]
fn compressed_tables_give_the_same_answers() {
    for rules in [awari(4), kalah(6, 4, false)] {
        let name = format!("packed-{}", rules.variant().key());
        let raw_dir = scratch(&format!("{name}-raw"));
        let packed_dir = scratch(&format!("{name}-packed"));
        let raw = built(&rules, &raw_dir, 10);
        drop(built(&rules, &packed_dir, 10));
        mancala_tables::pack(&rules, &packed_dir, 10, true).unwrap();
        let packed = Tables::open(&packed_dir, &rules, 10, true).unwrap();
        assert!(packed.tier(10).unwrap().is_compressed());
        let mut decoded = Tables::open(&packed_dir, &rules, 10, true).unwrap();
        decoded.decode_all().unwrap();
        let opts = Options {
            hash_mb: 4,
            threads: 1,
            ..Options::default()
        };
        let mut from_raw = Solver::new(&rules, Some(&raw), opts).unwrap();
        let mut from_packed = Solver::new(&rules, Some(&packed), opts).unwrap();
        let mut from_decoded = Solver::new(&rules, Some(&decoded), opts).unwrap();
        let ix = mancala_index::Indexer::new(&rules, 12).unwrap();
        let mut rng = Lcg(17);
        for n in [11, 12] {
            for i in 0..4 {
                let b = ix.unrank(n, rng.below(ix.size(n)));
                let (want, _) = from_raw.value(b, &()).unwrap();
                let (got, _) = from_decoded.value(b, &()).unwrap();
                assert_eq!(got, want, "{:?}", b.pits(2 * rules.pits()));
                if n == 11 && i == 0 {
                    let (got, _) = from_packed.value(b, &()).unwrap();
                    assert_eq!(got, want, "{:?}", b.pits(2 * rules.pits()));
                }
            }
        }
        let _ = std::fs::remove_dir_all(&raw_dir);
        let _ = std::fs::remove_dir_all(&packed_dir);
    }
}

/// A whole tier above the tables: from a 15-seed Awari position over 14-seed tables, more than
/// 4 million positions are reachable before any capture (the old limit fails), and the
/// reachable-set solver takes them all and finds the table value.
#[test]
fn awari_search_solves_a_whole_tier_above_the_tables() {
    let rules = awari(4);
    let dir = scratch("awari-tier-above");
    let full = built(&rules, &dir, 15);
    let little = Tables::open(&dir, &rules, 14, true).unwrap();
    let b = mancala_rules::parse_position(&rules, "2 2 1 2 0 2 1 1 1 1 0 2").unwrap();
    let want = full.probe(b).unwrap().unwrap() as i32;
    assert_eq!(want, 4);
    let small = Options {
        hash_mb: 16,
        reach_limit: 4_000_000,
        ..Options::default()
    };
    let mut solver = Solver::new(&rules, Some(&little), small).unwrap();
    assert!(matches!(
        solver.value(b, &()),
        Err(mancala_search::SearchError::TooBig { .. })
    ));
    let opts = Options {
        hash_mb: 16,
        ..Options::default()
    };
    let mut solver = Solver::new(&rules, Some(&little), opts).unwrap();
    assert_eq!(solver.value(b, &()).unwrap().0, want);
    let _ = std::fs::remove_dir_all(&dir);
}
