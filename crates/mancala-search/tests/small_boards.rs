//! The searcher agrees with a plain memoised Kalah solver (its own rules, no shared code) on
//! every small board of both capture rules: from the start and along pseudo-random games.

mod common;

use common::{game_positions, kalah, Lcg, PlainKalah};
use mancala_search::{Options, Solver};

fn check(pits: u32, seeds: u32, empty_capture: bool, threads: usize) {
    let rules = kalah(pits, seeds, empty_capture);
    let m = pits as usize;
    let mut plain = PlainKalah::new(m, empty_capture);
    let opts = Options {
        hash_mb: 4,
        threads,
        ..Options::default()
    };
    let mut solver = Solver::new(&rules, None, opts).unwrap();
    let mut rng = Lcg(pits as u64 * 1000 + seeds as u64 * 10 + empty_capture as u64);
    let mut positions = vec![rules.start()];
    for _ in 0..3 {
        positions.extend(game_positions(&rules, rules.start(), &mut rng));
    }
    for b in positions {
        let pitv = b.pits(2 * m);
        let s = solver.solve(b, &()).unwrap();
        let want = plain.value(&pitv);
        assert_eq!(
            s.value,
            Some(want),
            "{pits}x{seeds} ec={empty_capture} {pitv:?}"
        );
        let best: Vec<usize> = (0..m)
            .filter(|&o| pitv[o] > 0 && plain.move_value(&pitv, o) == want)
            .collect();
        assert_eq!(s.best, best, "{pits}x{seeds} ec={empty_capture} {pitv:?}");
        assert_eq!(s.pv.first().copied(), best.first().copied());
        // Every move's interval holds its true value; the best moves are exact, the others
        // proven below the value. Without the line (a query's search), the same holds.
        let q = solver.solve_moves(b, &()).unwrap();
        assert_eq!((q.value, &q.best, q.pv.len()), (s.value, &s.best, 0));
        let legal: Vec<usize> = (0..m).filter(|&o| pitv[o] > 0).collect();
        for moves in [&s.moves, &q.moves] {
            assert_eq!(moves.iter().map(|mv| mv.pit).collect::<Vec<_>>(), legal);
            for mv in moves {
                let truth = plain.move_value(&pitv, mv.pit);
                let at = format!("{pits}x{seeds} ec={empty_capture} {pitv:?} move {}", mv.pit);
                assert!(
                    mv.lo <= truth && truth <= mv.hi,
                    "{at}: {mv:?}, true {truth}"
                );
                match best.contains(&mv.pit) {
                    true => assert_eq!(mv.value(), Some(want), "{at}"),
                    false => assert!(mv.hi < want, "{at}: {mv:?} not below {want}"),
                }
            }
        }
    }
}

#[test]
fn kalah_small_boards_agree_with_a_plain_solver() {
    for pits in 1..=4 {
        for seeds in 1..=3 {
            for ec in [false, true] {
                check(pits, seeds, ec, 1);
            }
        }
    }
}

#[test]
fn two_threads_agree_too() {
    for ec in [false, true] {
        check(4, 3, ec, 2);
        check(3, 4, ec, 2);
    }
}

/// A searcher's memory holds values of one rule set: handed to a searcher of another (the
/// same board under another grand-slam rule, here), it is dropped, and the answer and the
/// work are a fresh searcher's. Kept, Wari's backward solution of one rule would answer for
/// the other.
#[test]
fn memory_of_other_rules_is_never_read() {
    use mancala_rules::{GrandSlam, Options as RuleOptions, Preset, Rules, Variant};
    let wari = |gs: &str| {
        Rules::new(
            Variant::new(
                Preset::Wari,
                RuleOptions {
                    pits: Some(3),
                    seeds: Some(2),
                    grand_slam: Some(gs.parse::<GrandSlam>().unwrap()),
                    ..RuleOptions::default()
                },
            )
            .unwrap(),
        )
    };
    let opts = Options {
        hash_mb: 4,
        ..Options::default()
    };
    let mut differ = 0;
    for (a, b) in [("gs1", "gs3a"), ("gs3a", "gs6"), ("gs6", "gs1")] {
        let (ra, rb) = (wari(a), wari(b));
        let mut first = Solver::new(&ra, None, opts).unwrap();
        let was = first.solve(ra.start(), &()).unwrap();
        let mut reused = Solver::with_memory(&rb, None, opts, first.into_memory()).unwrap();
        let got = reused.solve(rb.start(), &()).unwrap();
        let fresh = Solver::new(&rb, None, opts)
            .unwrap()
            .solve(rb.start(), &())
            .unwrap();
        assert_eq!(
            (got.value, &got.best, got.nodes),
            (fresh.value, &fresh.best, fresh.nodes),
            "{a} then {b}"
        );
        differ += (was.value != fresh.value || was.best != fresh.best) as usize;
        // The same rules again keep what was learned.
        let again = Solver::with_memory(&rb, None, opts, reused.into_memory())
            .unwrap()
            .solve(rb.start(), &())
            .unwrap();
        assert_eq!(again.value, fresh.value);
        assert!(again.nodes < fresh.nodes, "{a} then {b}: memory kept");
    }
    // The rules asked do answer differently, so a memory read across them would show.
    assert!(differ > 0);
}

/// The transposition table grows with the searches a kept memory serves: a small endgame
/// first gets a small table, a bigger search after it a bigger one (what it held is dropped,
/// never misread), and every answer equals a fresh solver's.
#[test]
fn a_kept_table_grows_with_the_search() {
    let rules = kalah(4, 3, false);
    let opts = Options {
        hash_mb: 32,
        ..Options::default()
    };
    let small = mancala_rules::Board::from_pits(&[0, 2, 1, 3, 1, 0, 2, 1]);
    let mut first = Solver::new(&rules, None, opts).unwrap();
    let endgame = first.solve(small, &()).unwrap();
    assert_eq!(first.table_mb(), Some(16));
    let mut kept = Solver::with_memory(&rules, None, opts, first.into_memory()).unwrap();
    let start = kept.solve(rules.start(), &()).unwrap();
    // 24 seeds on the board, no tables: more than 16 MB wanted, capped at the 32 asked for.
    assert_eq!(kept.table_mb(), Some(32));
    for (b, got) in [(small, endgame), (rules.start(), start)] {
        let fresh = Solver::new(&rules, None, opts)
            .unwrap()
            .solve(b, &())
            .unwrap();
        assert_eq!((got.value, &got.best), (fresh.value, &fresh.best), "{b:?}");
    }
}

/// A time-limited search far above its tables brackets the value before MTD(f) (see
/// `driver::Bracket`); given the time to finish, it must still reach the exact value and the
/// same best moves as the unlimited search, with move intervals consistent with its. Kalah 5x4
/// without tables has 40 seeds above them, enough to bracket; its value is +10, first move 1
/// (checked here against the unlimited search, which does not bracket), on one thread and two.
#[test]
fn a_limited_search_that_brackets_reaches_the_same_answer() {
    let rules = kalah(5, 4, false);
    for threads in [1, 2] {
        let solve = |time_limit| {
            let opts = Options {
                hash_mb: 16,
                threads,
                time_limit,
                ..Options::default()
            };
            let mut solver = Solver::new(&rules, None, opts).unwrap();
            solver.solve_moves(rules.start(), &()).unwrap()
        };
        let unlimited = solve(None);
        let limited = solve(Some(3600.0));
        assert_eq!(unlimited.value, Some(10), "{threads} threads");
        assert_eq!(unlimited.best, vec![1], "{threads} threads");
        assert_eq!(limited.value, unlimited.value, "{threads} threads");
        assert_eq!(limited.best, unlimited.best, "{threads} threads");
        if threads == 1 {
            // One thread counts nodes exactly: the brackets' tests came on top.
            assert!(
                limited.nodes > unlimited.nodes,
                "the limited search bracketed"
            );
        }
        // The other moves' intervals may differ (each search proves what it needed), but
        // each must lie below the value, and the two must overlap.
        for (a, b) in limited.moves.iter().zip(&unlimited.moves) {
            assert_eq!(a.pit, b.pit);
            assert!(a.lo <= a.hi && b.lo <= b.hi, "{a:?} {b:?}");
            assert!(
                a.lo <= b.hi && b.lo <= a.hi,
                "{a:?} and {b:?} cannot both hold"
            );
        }
    }
}

/// `at_least` answers "is the value at least t?" as the plain solver's value does, for
/// thresholds on both sides of the value (and at it, the hardest question), with the moves it
/// says reach t each truly worth t, on one thread and two, one solver asked in turn.
#[test]
fn at_least_agrees_with_the_plain_solver_on_both_sides_of_the_value() {
    for (pits, seeds, ec) in [(3, 3, false), (4, 2, true), (4, 3, false)] {
        let rules = kalah(pits, seeds, ec);
        let m = pits as usize;
        let mut plain = PlainKalah::new(m, ec);
        let mut rng = Lcg(7 * pits as u64 + seeds as u64 + ec as u64);
        let mut positions = vec![rules.start()];
        positions.extend(game_positions(&rules, rules.start(), &mut rng));
        for threads in [1, 2] {
            let opts = Options {
                hash_mb: 4,
                threads,
                ..Options::default()
            };
            let mut solver = Solver::new(&rules, None, opts).unwrap();
            for &b in &positions {
                let pitv = b.pits(2 * m);
                let want = plain.value(&pitv);
                for t in [want - 3, want - 1, want, want + 1, want + 2] {
                    let s = solver.at_least(b, t, &()).unwrap();
                    let at = format!("{pits}x{seeds} ec={ec} {pitv:?} at least {t} (value {want})");
                    assert!(s.lo <= want && want <= s.hi, "{at}: [{}, {}]", s.lo, s.hi);
                    assert!(
                        s.lo >= t || s.hi < t,
                        "{at}: not settled [{}, {}]",
                        s.lo,
                        s.hi
                    );
                    let reaching: Vec<usize> = (0..m)
                        .filter(|&o| pitv[o] > 0 && plain.move_value(&pitv, o) >= t)
                        .collect();
                    if want >= t {
                        assert!(!s.best.is_empty(), "{at}: no move given");
                    }
                    for p in &s.best {
                        assert!(reaching.contains(p), "{at}: move {p} does not reach it");
                    }
                    if want < t {
                        assert!(s.best.is_empty(), "{at}: {:?}", s.best);
                    }
                }
            }
        }
    }
}

/// `exact_moves` (`query --exact`) gives every move's exact value, the plain solver's; and
/// stopped as soon as the value is proven, it keeps the value, with bounds that hold each
/// move's true value (it used to give up the value with the first move cut short).
#[test]
fn exact_moves_agree_and_keep_the_value_when_cut_short() {
    use mancala_search::{Interrupt, Progress};
    for (pits, seeds, ec) in [(4, 3, false), (3, 4, true), (4, 2, true)] {
        let rules = kalah(pits, seeds, ec);
        let m = pits as usize;
        let mut plain = PlainKalah::new(m, ec);
        let opts = Options {
            hash_mb: 4,
            threads: 1,
            ..Options::default()
        };
        let mut rng = Lcg(pits as u64 * 77 + seeds as u64);
        let mut positions = vec![rules.start()];
        positions.extend(
            game_positions(&rules, rules.start(), &mut rng)
                .into_iter()
                .take(6),
        );
        for b in positions {
            let pitv = b.pits(2 * m);
            let at = format!("{pits}x{seeds} ec={ec} {pitv:?}");
            let want = plain.value(&pitv);
            let mut solver = Solver::new(&rules, None, opts).unwrap();
            let s = solver.exact_moves(b, &()).unwrap();
            assert_eq!(s.value, Some(want), "{at}");
            for mv in &s.moves {
                let truth = plain.move_value(&pitv, mv.pit);
                assert_eq!(mv.value(), Some(truth), "{at} move {}", mv.pit);
            }
            let best: Vec<usize> = s
                .moves
                .iter()
                .filter(|mv| mv.lo == want)
                .map(|mv| mv.pit)
                .collect();
            assert_eq!(s.best, best, "{at}");
            let stop = Interrupt::new();
            let mut cut = Solver::new(&rules, None, opts).unwrap();
            cut.set_interrupt(Some(stop.clone()));
            let raise = |p: &Progress| {
                if p.lo == p.hi {
                    stop.raise();
                }
            };
            let Ok(s) = cut.exact_moves(b, &raise) else {
                continue;
            };
            if let Some(v) = s.value {
                assert_eq!(v, want, "{at}");
            }
            for mv in &s.moves {
                let truth = plain.move_value(&pitv, mv.pit);
                assert!(
                    mv.lo <= truth && truth <= mv.hi,
                    "{at}: {mv:?}, true {truth}"
                );
            }
        }
    }
}
