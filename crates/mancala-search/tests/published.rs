//! Published values that fit in a test, and the reproducibility `mancala bench` relies on.

mod common;

use common::kalah;
use mancala_search::{Options, Solver};

/// Kalah 6x3, standard rules: the first player wins by 2 (independent engines agree; see
/// ../shared/NOTES.md). Solved without tables, on two threads.
#[test]
fn kalah_6x3_is_plus_two() {
    let rules = kalah(6, 3, false);
    let opts = Options {
        hash_mb: 64,
        threads: 2,
        ..Options::default()
    };
    let mut solver = Solver::new(&rules, None, opts).unwrap();
    let s = solver.solve(rules.start(), &()).unwrap();
    assert_eq!(s.value, Some(2));
    assert!(s.best.contains(&s.pv[0]));
}

/// A fixed-depth run on one thread with a fresh table visits the same nodes every time.
#[test]
fn fixed_depth_runs_are_reproducible() {
    let rules = kalah(6, 4, false);
    let opts = Options {
        hash_mb: 4,
        ..Options::default()
    };
    let mut solver = Solver::new(&rules, None, opts).unwrap();
    let first = solver.fixed_depth(rules.start(), 12).unwrap();
    let again = solver.fixed_depth(rules.start(), 12).unwrap();
    assert_eq!(first, again);
    assert!(first.1 > 1000);
}
