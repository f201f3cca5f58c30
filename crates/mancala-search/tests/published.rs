//! Published values that fit in a test, and the reproducibility `mancala bench` relies on.

mod common;

use common::{built, kalah, scratch};
use mancala_search::{Options, Solver};

/// Kalah 6x3, standard rules: the first player wins by 2 (independent engines agree; see
/// docs/results.md). Solved without tables, on two threads.
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

/// Kalah 6x4: +8 under the standard rules, +10 with empty captures (Irving, Donkers and
/// Uiterwijk 2000), with the best first move, pit 2, under both. Tables up to 20 seeds, as
/// `mancala solve` builds by default for this board; a few seconds each on two threads.
#[test]
fn kalah_6x4_is_plus_eight_and_plus_ten_with_empty_captures() {
    for (empty_capture, want) in [(false, 8), (true, 10)] {
        let rules = kalah(6, 4, empty_capture);
        let dir = scratch(&format!("published-6x4-{empty_capture}"));
        let tables = built(&rules, &dir, 20);
        let opts = Options {
            hash_mb: 256,
            threads: 2,
            ..Options::default()
        };
        let mut solver = Solver::new(&rules, Some(&tables), opts).unwrap();
        let seen = std::sync::Mutex::new(Vec::new());
        let record = |p: &mancala_search::Progress| seen.lock().unwrap().push(*p);
        let s = solver.solve(rules.start(), &record).unwrap();
        assert_eq!(s.value, Some(want), "empty capture: {empty_capture}");
        assert_eq!(s.best, vec![2], "empty capture: {empty_capture}");
        // The reports that came during the proof (one a second) name a move under test and
        // a count of the moves under it within bounds.
        for p in seen.lock().unwrap().iter() {
            if let Some(m) = p.step.and_then(|s| s.on_move) {
                assert!(m.pit < 6 && m.searched <= m.of, "{m:?}");
            }
        }
        drop(tables);
        let _ = std::fs::remove_dir_all(&dir);
    }
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

/// Progress reports in the proof phase say how far its latest root test has come: the
/// question "at least +2?" of Kalah 6x3 (yes) ends with a test at +2 that one move reaches,
/// and an exact solve (+2) ends with the tests that show no move reaches +3.
#[test]
fn progress_tells_how_far_each_root_test_has_come() {
    let rules = kalah(6, 3, false);
    let opts = Options {
        hash_mb: 64,
        threads: 1,
        ..Options::default()
    };
    let mut solver = Solver::new(&rules, None, opts).unwrap();
    let moves = rules.pits();
    let seen = std::sync::Mutex::new(Vec::new());
    let record = |p: &mancala_search::Progress| seen.lock().unwrap().push(*p);
    let s = solver.at_least(rules.start(), 2, &record).unwrap();
    assert!(s.lo >= 2);
    let steps: Vec<_> = seen.lock().unwrap().iter().filter_map(|p| p.step).collect();
    for st in &steps {
        assert!(
            st.below + st.reached <= st.moves && st.moves <= moves,
            "{st:?}"
        );
    }
    let last = steps.last().expect("a root test reported");
    assert_eq!((last.threshold, last.reached), (2, 1), "{last:?}");
    // Every report shows a move that reached a test beside the root bound it proves.
    for p in seen.lock().unwrap().iter() {
        if let Some(st) = p.step.filter(|st| st.reached > 0) {
            assert!(p.lo >= st.threshold, "{p:?}");
        }
    }

    seen.lock().unwrap().clear();
    let s = solver.solve(rules.start(), &record).unwrap();
    assert_eq!(s.value, Some(2));
    let steps: Vec<_> = seen.lock().unwrap().iter().filter_map(|p| p.step).collect();
    let last = steps.last().expect("a root test reported");
    // The last test: every move still open, against the value or one above it, none above.
    assert!(last.threshold == 2 || last.threshold == 3, "{last:?}");
    assert_eq!(last.below + last.reached, last.moves, "{last:?}");
    assert!(steps
        .iter()
        .any(|st| st.threshold == 3 && st.reached == 0 && st.below > 0));
}
