//! Each rule of docs/rules.md, madjnuni and el-akil and el-ghasheem, as a small position -> result
//! test, and each option.

use mancala_forced::*;

/// `--rule` strings as the API takes them.
fn owned(opts: &[&str]) -> Vec<String> {
    opts.iter().map(|s| s.to_string()).collect()
}

fn rules(preset: &str, opts: &[&str]) -> ForcedRules {
    ForcedRules::build(preset, None, None, &owned(opts)).unwrap()
}

fn pos(preset: &str, opts: &[&str], pits: &[u32], to_move: Side) -> ForcedGame {
    ForcedGame::from_position(rules(preset, opts), pits.to_vec(), to_move).unwrap()
}

// ---- the forced pit -------------------------------------------------------------------------

#[test]
fn head_is_the_rightmost_pit() {
    let g = pos("madjnuni", &[], &[3, 2, 2, 2, 2, 5], Side::South);
    assert_eq!(g.forced_move(), Some(2));
    let g = pos("madjnuni", &[], &[3, 2, 2, 2, 2, 5], Side::North);
    assert_eq!(g.forced_move(), Some(2)); // absolute pit 5, North's own index 2
}

#[test]
fn empty_head_takes_the_next_pit_leftward() {
    let g = pos("madjnuni", &[], &[1, 2, 0, 2, 2, 2], Side::South);
    assert_eq!(g.forced_move(), Some(1));
    let g = pos("madjnuni", &[], &[1, 0, 0, 2, 2, 2], Side::South);
    assert_eq!(g.forced_move(), Some(0));
    // North: head 5 empty, then 4 empty, so pit 3 (own index 0).
    let g = pos("el-akil", &[], &[1, 0, 0, 3, 0, 0], Side::North);
    assert_eq!(g.forced_move(), Some(0));
}

#[test]
fn head_empty_wrap_takes_the_leftmost_pit() {
    let wrap = |pits: &[u32]| pos("madjnuni", &["head-empty=wrap"], pits, Side::South);
    assert_eq!(wrap(&[1, 2, 0, 2, 2, 2]).forced_move(), Some(0));
    assert_eq!(wrap(&[0, 2, 0, 2, 2, 2]).forced_move(), Some(1));
    // A non-empty head is still played first.
    assert_eq!(wrap(&[1, 2, 1, 2, 2, 2]).forced_move(), Some(2));
}

#[test]
fn single_unplayable_skips_lone_seeds() {
    let g = pos("el-akil", &[], &[2, 0, 1, 0, 3, 0], Side::South);
    assert_eq!(g.forced_move(), Some(2));
    let unplayable = |pits: &[u32]| pos("el-akil", &["single=unplayable"], pits, Side::South);
    assert_eq!(unplayable(&[2, 0, 1, 0, 3, 0]).forced_move(), Some(0));
    // Nobody can move: each takes his own row.
    let g = unplayable(&[1, 0, 1, 0, 1, 0]);
    assert_eq!(g.end_reason(), Some(EndReason::BothStuck));
    assert_eq!(g.captured(), [2, 1]);
}

// ---- sowing, relay, captures -------------------------------------------------------------------

#[test]
fn last_seed_in_empty_pit_ends_the_move() {
    let mut g = pos("madjnuni", &[], &[0, 0, 1, 0, 0, 5], Side::South);
    let r = g.step().unwrap();
    assert_eq!((r.captured, r.laps), (0, 1));
    assert_eq!(g.board(), &[0, 0, 0, 1, 0, 5]);
    assert_eq!(g.side_to_move(), Side::North);
}

#[test]
fn two_or_four_captures_and_ends_the_move() {
    for (before, after_pit3) in [(1, 2), (3, 4)] {
        let mut g = pos("madjnuni", &[], &[0, 3, 1, before, 0, 5], Side::South);
        let r = g.step().unwrap();
        assert_eq!(r.captured, after_pit3, "pit 3 made {after_pit3}");
        assert_eq!(r.laps, 1);
        assert_eq!(g.board(), &[0, 3, 0, 0, 0, 5]);
        assert_eq!(g.captured(), [after_pit3, 0]);
    }
    // Captures happen on the mover's own half too: North's last seed in South's row... and
    // South's last seed in his own row after a lap.
    let mut g = pos("madjnuni", &[], &[1, 0, 7, 0, 0, 0], Side::South);
    // 7 seeds from pit 2: 3,4,5,0,1,2,3 -> pit 3 gets its second seed.
    let r = g.step().unwrap();
    assert_eq!(r.captured, 2);
    assert_eq!(g.board(), &[2, 1, 1, 0, 1, 1]);
}

#[test]
fn three_relays() {
    let mut g = pos("madjnuni", &[], &[0, 0, 1, 2, 0, 0], Side::South);
    let r = g.step().unwrap();
    // Pit 3 makes 3: lifted and sown 4, 5, 0; pit 0 was empty.
    assert_eq!((r.captured, r.laps), (0, 2));
    assert_eq!(g.board(), &[1, 0, 0, 0, 1, 1]);
}

#[test]
fn five_and_more_relay() {
    let mut g = pos("madjnuni", &[], &[0, 0, 1, 4, 0, 0], Side::South);
    let r = g.step().unwrap();
    // Pit 3 makes 5: sown 4, 5, 0, 1, 2 (the emptied origin) -> 1 there.
    assert_eq!((r.captured, r.laps), (0, 2));
    assert_eq!(g.board(), &[1, 1, 1, 0, 1, 1]);
    let mut g = pos("madjnuni", &[], &[0, 0, 1, 5, 0, 0], Side::South);
    let r = g.step().unwrap();
    // Pit 3 makes 6: sown 4, 5, 0, 1, 2, 3: the origin of the lap is not skipped.
    assert_eq!((r.captured, r.laps), (0, 2));
    assert_eq!(g.board(), &[1, 1, 1, 1, 1, 1]);
}

#[test]
fn madjnuni_serial_capture_goes_forward_across_both_halves() {
    let board = [2, 4, 1, 1, 2, 4];
    let mut g = pos("madjnuni", &[], &board, Side::South);
    // Pit 3 makes 2, then forward 4 (2), 5 (4), 0 (2), 1 (4); pit 2 is the empty origin.
    assert_eq!(g.step().unwrap().captured, 14);
    assert_eq!(g.board(), &[0, 0, 0, 0, 0, 0]);
    let mut g = pos("madjnuni", &["serial-cross=no"], &board, Side::South);
    assert_eq!(g.step().unwrap().captured, 8);
    let mut g = pos("madjnuni", &["chain=one"], &board, Side::South);
    assert_eq!(g.step().unwrap().captured, 4);
    let mut g = pos("madjnuni", &["serial=off"], &board, Side::South);
    assert_eq!(g.step().unwrap().captured, 2);
    // Backward: the pit before 3 is the emptied origin, so nothing more.
    let mut g = pos("madjnuni", &["serial=backward"], &board, Side::South);
    assert_eq!(g.step().unwrap().captured, 2);
}

#[test]
fn el_akil_serial_capture_goes_backward() {
    let board = [1, 3, 1, 0, 0, 3];
    // North sows 0, 1, 2 -> 2, 4, 2: pit 2 captured, then backward 1 (4) and 0 (2).
    let mut g = pos("el-akil", &[], &board, Side::North);
    assert_eq!(g.step().unwrap().captured, 8);
    assert_eq!(g.captured(), [0, 8]);
    assert_eq!(g.end_reason(), Some(EndReason::BoardEmpty));
    let mut g = pos("el-akil", &["chain=one"], &board, Side::North);
    assert_eq!(g.step().unwrap().captured, 6);
    let mut g = pos("el-akil", &["serial=forward"], &board, Side::North);
    assert_eq!(g.step().unwrap().captured, 2);
    // el-ghasheem has el-akil's rules.
    let mut g = pos("el-ghasheem", &[], &board, Side::North);
    assert_eq!(g.step().unwrap().captured, 8);
}

#[test]
fn the_serial_capture_stops_at_a_pit_without_2_or_4() {
    let mut g = pos("madjnuni", &[], &[0, 0, 1, 1, 3, 2], Side::South);
    assert_eq!(g.step().unwrap().captured, 2);
    assert_eq!(g.board(), &[0, 0, 0, 0, 3, 2]);
}

// ---- passes, feeding, starvation -----------------------------------------------------------

#[test]
fn madjnuni_starved_player_passes_and_is_fed() {
    let mut g = pos("madjnuni", &[], &[0, 0, 0, 0, 0, 2], Side::South);
    // South has nothing: he passes, North moves.
    assert_eq!(g.side_to_move(), Side::North);
    assert_eq!(g.starving(), Some(Side::South));
    g.step().unwrap();
    assert_eq!(g.board(), &[1, 1, 0, 0, 0, 0]);
    assert_eq!(g.side_to_move(), Side::South);
    assert_eq!(g.starving(), None);
    assert!(!g.over());
}

#[test]
fn madjnuni_starvation_ends_when_the_next_move_does_not_feed() {
    let mut g = pos("madjnuni", &[], &[0, 0, 0, 1, 0, 0], Side::South);
    assert_eq!(g.side_to_move(), Side::North);
    g.step().unwrap(); // 3 -> 4, South still empty
    assert_eq!(g.end_reason(), Some(EndReason::Starvation));
    assert_eq!(g.captured(), [0, 1]);
    assert_eq!(g.moves_played(), 1);
}

#[test]
fn madjnuni_a_move_that_empties_the_opponent_makes_him_pass() {
    // South's 1 seed from pit 0 lands in pit 1; North has nothing: South moves again.
    let mut g = pos("madjnuni", &[], &[1, 0, 0, 0], Side::South);
    g.step().unwrap();
    assert_eq!(g.side_to_move(), Side::South);
    assert_eq!(g.starving(), Some(Side::North));
    g.step().unwrap(); // pit 1 -> pit 2: North fed
    assert_eq!(g.side_to_move(), Side::North);
}

#[test]
fn el_akil_must_feed_or_the_game_ends() {
    // South is empty; North's forced move (3 -> 4) cannot feed him: the game ends before it.
    let g = pos("el-akil", &[], &[0, 0, 0, 1, 0, 0], Side::South);
    assert_eq!(g.end_reason(), Some(EndReason::NoFeed));
    assert_eq!(g.moves_played(), 0);
    assert_eq!(g.captured(), [0, 1]);
    // A move that feeds is played.
    let mut g = pos("el-akil", &[], &[0, 0, 0, 0, 0, 2], Side::South);
    assert_eq!(g.side_to_move(), Side::North);
    assert_eq!(g.starving(), Some(Side::South));
    g.step().unwrap();
    assert_eq!(g.side_to_move(), Side::South);
    assert!(!g.over());
}

// ---- ends and scoring -------------------------------------------------------------------------

#[test]
fn el_akil_ends_when_one_seed_remains_on_each_half() {
    let mut g = pos("el-akil", &[], &[0, 1, 1, 0, 0, 0], Side::South);
    g.step().unwrap(); // 2 -> 3
    assert_eq!(g.end_reason(), Some(EndReason::OneEach));
    assert_eq!(g.captured(), [1, 1]);
    assert_eq!(g.moves_played(), 1);
    // The rule is el-akil's: madjnuni and singles-end=no play on.
    for (preset, opt) in [("madjnuni", None), ("el-akil", Some("singles-end=no"))] {
        let opts: Vec<&str> = opt.into_iter().collect();
        let mut g = pos(preset, &opts, &[0, 1, 1, 0, 0, 0], Side::South);
        g.step().unwrap();
        assert!(!g.over(), "{preset} {opts:?}");
    }
    // singles-end=yes gives madjnuni the rule.
    let mut g = pos(
        "madjnuni",
        &["singles-end=yes"],
        &[0, 1, 1, 0, 0, 0],
        Side::South,
    );
    g.step().unwrap();
    assert_eq!(g.end_reason(), Some(EndReason::OneEach));
}

#[test]
fn the_board_emptied_ends_the_game() {
    let mut g = pos("madjnuni", &[], &[0, 0, 1, 1, 0, 0], Side::South);
    g.step().unwrap();
    assert_eq!(g.end_reason(), Some(EndReason::BoardEmpty));
    assert_eq!(g.captured(), [2, 0]);
    assert_eq!(g.winner(), Some(Side::South));
}

#[test]
fn madjnuni_fifty_wins_and_49_49_draws() {
    let v = solve_setup(
        "madjnuni",
        None,
        None,
        &[],
        Some("6 7 6 12 6 7 7 10 4 5 8 9 4 7"),
    )
    .unwrap();
    assert_eq!((v.kept.distributor, v.kept.second), (49, 49));
    assert_eq!(v.kept.winner, None);
    assert_eq!(v.kept.winner_str(), "draw");
    assert_eq!((v.swapped.distributor, v.swapped.second), (50, 48));
    assert_eq!(v.swapped.winner, Some(Role::Distributor));
    // The second player keeps the board: 49 beats 48 for him.
    assert!(!v.second_swaps);
    assert_eq!(v.distributor_value, 49);
}

#[test]
fn an_infinite_relay_voids_the_move_and_ends_the_game() {
    // South plays pit 1 (3): 2, 3, 0 -> pit 0 makes 3, relay 1, 2, 3 -> pit 3 makes 3, relay
    // 0, 1, 2 -> pit 2 makes 3, relay 3, 0, 1 -> back to the first state, forever.
    let mut g = pos("madjnuni", &[], &[2, 3, 0, 1], Side::South);
    g.step().unwrap();
    assert_eq!(g.end_reason(), Some(EndReason::InfiniteRelay));
    assert_eq!(g.moves_played(), 0);
    assert_eq!(g.captured(), [5, 1]); // own rows as before the move
    let mut g = new_game("madjnuni", Some(1), Some(7), &[], Some("5,2"), false).unwrap();
    g.run();
    assert_eq!(g.end_reason(), Some(EndReason::InfiniteRelay));
    assert_eq!(g.captured(), [5, 2]);
}

#[test]
fn a_repeated_game_state_ends_the_game_each_side_taking_its_row() {
    // S 0->1, (N passes) S 1->2, N 2->3, (S passes) N 3->0: the start again.
    let mut g = pos("madjnuni", &[], &[1, 0, 0, 0], Side::South);
    g.run();
    assert_eq!(g.end_reason(), Some(EndReason::Cycle));
    assert_eq!(g.moves_played(), 4);
    assert_eq!(g.captured(), [1, 0]);
}

// ---- setups, pie rule ---------------------------------------------------------------------------

#[test]
fn who_moves_first() {
    let g = new_game("madjnuni", None, None, &[], None, false).unwrap();
    assert_eq!(g.side_to_move(), Side::South);
    let g = new_game("madjnuni", None, None, &[], None, true).unwrap();
    assert_eq!(
        g.side_to_move(),
        Side::South,
        "the distributor moves first even after a swap"
    );
    for p in ["el-akil", "el-ghasheem"] {
        let g = new_game(p, None, None, &[], None, false).unwrap();
        assert_eq!(
            g.side_to_move(),
            Side::North,
            "{p}: the second player moves first"
        );
        let g = new_game(p, None, None, &[], None, true).unwrap();
        assert_eq!(
            g.side_to_move(),
            Side::South,
            "{p}: after a swap the distributor does"
        );
    }
}

#[test]
fn a_swap_rotates_the_board() {
    let s = "2 3 4 5 6 7 8 9 10 11 12 13 2 6";
    let g = new_game("madjnuni", None, None, &[], Some(s), true).unwrap();
    assert_eq!(g.board(), &[9, 10, 11, 12, 13, 2, 6, 2, 3, 4, 5, 6, 7, 8]);
    assert_eq!(g.setup(), &[2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 2, 6]);
}

#[test]
fn default_setups() {
    let g = new_game("madjnuni", None, None, &[], None, false).unwrap();
    assert_eq!(g.board(), &[7; 14]);
    let g = new_game("el-ghasheem", None, None, &[], None, false).unwrap();
    assert_eq!(g.board(), &[6; 12]);
    let g = new_game("el-akil", None, None, &[], None, false).unwrap();
    assert_eq!(g.board(), &[0, 9, 9, 9, 9, 0, 0, 9, 9, 9, 9, 0]);
    let g = new_game(
        "el-akil",
        None,
        None,
        &["setup=leftmost".into()],
        None,
        false,
    )
    .unwrap();
    assert_eq!(g.board(), &[36, 0, 0, 0, 0, 0, 36, 0, 0, 0, 0, 0]);
    let g = new_game("madjnuni", Some(3), Some(20), &[], None, false).unwrap();
    assert_eq!(g.board(), &[4, 4, 3, 3, 3, 3]);
    let g = new_game("el-akil", Some(2), Some(5), &[], None, false).unwrap();
    assert_eq!(g.board(), &[2, 1, 1, 1]);
}

fn setup_game(preset: &str, opts: &[&str], setup: &str) -> Result<ForcedGame, ForcedError> {
    new_game(preset, None, None, &owned(opts), Some(setup), false)
}

fn setup_ok(preset: &str, opts: &[&str], setup: &str) -> bool {
    setup_game(preset, opts, setup).is_ok()
}

fn setup_err(preset: &str, opts: &[&str], setup: &str) -> String {
    match setup_game(preset, opts, setup) {
        Err(ForcedError::BadSetup(m)) => m,
        other => panic!("{preset} {setup}: expected a bad setup, got {other:?}"),
    }
}

#[test]
fn setup_validation() {
    // madjnuni: 14 pits, 98 seeds, at least 2 each.
    assert!(setup_err("madjnuni", &[], "7 7 7").contains("exactly 14"));
    assert!(
        setup_err("madjnuni", &[], &["7"; 14].join(" ").replace("7 7", "7 6"))
            .contains("add up to")
    );
    assert!(setup_err("madjnuni", &[], "1 13 7 7 7 7 7 7 7 7 7 7 7 7").contains("at least 2"));
    assert!(setup_err("madjnuni", &[], "7 7 x 7").contains("not a seed count"));
    assert!(setup_err("madjnuni", &[], "7 7 -7 7").contains("not a seed count"));
    assert!(setup_ok("madjnuni", &[], "2,2,2,2,2,2,2,2,2,2,2,2,2,72"));
    // el-ghasheem: at least 4 each, 72.
    assert!(setup_err("el-ghasheem", &[], "3 9 6 6 6 6 6 6 6 6 6 6").contains("at least 4"));
    assert!(setup_ok("el-ghasheem", &[], "4 4 4 4 4 4 4 4 4 4 4 28"));
    // el-akil mirror, opposite pairing: South pit i with 2m-1-i.
    assert!(setup_ok("el-akil", &[], "0 30 0 0 0 0 0 0 0 0 42 0"));
    assert!(setup_err("el-akil", &[], "0 30 0 0 0 0 0 42 0 0 0 0").contains("partner"));
    assert!(setup_err("el-akil", &[], "0 0 0 0 0 0 0 0 0 0 0 0").contains("add up to"));
    // Rotated pairing: South pit i with m+i.
    assert!(setup_ok(
        "el-akil",
        &["pairing=rotated"],
        "0 30 0 0 0 0 0 42 0 0 0 0"
    ));
    assert!(
        setup_err("el-akil", &["pairing=rotated"], "0 30 0 0 0 0 0 0 0 0 42 0").contains("partner")
    );
    // Leftmost: pits 0 and m only.
    assert!(setup_ok(
        "el-akil",
        &["setup=leftmost"],
        "40 0 0 0 0 0 32 0 0 0 0 0"
    ));
    assert!(
        setup_err("el-akil", &["setup=leftmost"], "40 0 0 0 0 0 0 0 0 0 0 32").contains("leftmost")
    );
    assert!(
        setup_err("el-akil", &["setup=leftmost"], "36 0 0 0 0 0 0 36 0 0 0 0").contains("leftmost")
    );
}

#[test]
fn bad_options_and_sizes_are_errors() {
    let e = |p: &str, pits: Option<u32>, total: Option<u32>, o: &[&str]| {
        new_game(p, pits, total, &owned(o), None, false).unwrap_err()
    };
    assert!(matches!(
        e("oware", None, None, &[]),
        ForcedError::UnknownPreset(_)
    ));
    assert!(matches!(
        e("madjnuni", None, None, &["serial=sideways"]),
        ForcedError::BadRuleValue { .. }
    ));
    assert!(matches!(
        e("madjnuni", None, None, &["colour=red"]),
        ForcedError::UnknownRule { .. }
    ));
    assert!(matches!(
        e("madjnuni", None, None, &["setup=leftmost"]),
        ForcedError::UnknownRule { .. }
    ));
    assert!(matches!(
        e("madjnuni", None, None, &["chain"]),
        ForcedError::BadRuleValue { .. }
    ));
    assert!(matches!(
        e("madjnuni", Some(0), None, &[]),
        ForcedError::BadPits { .. }
    ));
    assert!(matches!(
        e("madjnuni", Some(17), None, &[]),
        ForcedError::BadPits { .. }
    ));
    assert!(matches!(
        e("madjnuni", Some(7), Some(27), &[]),
        ForcedError::BadTotal { .. }
    ));
    assert!(matches!(
        e("el-ghasheem", None, Some(47), &[]),
        ForcedError::BadTotal { .. }
    ));
    assert!(matches!(
        e("madjnuni", Some(5), None, &["pits=6"]),
        ForcedError::Conflict { .. }
    ));
    assert!(matches!(
        e("madjnuni", None, None, &["pits=many"]),
        ForcedError::BadRuleValue { .. }
    ));
    // Size as rules, case-insensitive names, bare yes/no options.
    let o = owned(&["pits=3", "seeds=14", "Serial=Backward", "singles-end"]);
    let g = new_game("madjnuni", None, None, &o, None, false).unwrap();
    assert_eq!(
        g.rules().describe(),
        "madjnuni pits=3 total=14 serial=backward singles-end=yes"
    );
    // Messages say what to do.
    let msg = e("madjnuni", None, None, &["colour=red"]).to_string();
    assert!(
        msg.contains("serial") && msg.contains("head-empty"),
        "{msg}"
    );
}

#[test]
fn every_option_changes_the_game() {
    let outcome = |p: &str, o: &[&str], setup: Option<&str>| {
        let v = solve_setup(p, None, None, &owned(o), setup).unwrap();
        (v.kept, v.swapped)
    };
    let cases: &[(&str, &str, Option<&str>)] = &[
        ("madjnuni", "serial=backward", None),
        ("madjnuni", "serial=off", None),
        ("madjnuni", "chain=one", None),
        ("madjnuni", "serial-cross=no", None),
        ("madjnuni", "head-empty=wrap", None),
        ("madjnuni", "single=unplayable", None),
        ("el-akil", "serial=forward", None),
        ("el-akil", "head-empty=wrap", None),
        ("el-akil", "single=unplayable", None),
        ("el-akil", "singles-end=no", None),
        ("el-ghasheem", "chain=one", Some("5,4,7,5,4,7,6,6,6,9,8,5")),
        ("el-ghasheem", "singles-end=no", None),
    ];
    for &(p, o, s) in cases {
        assert_ne!(outcome(p, &[], s), outcome(p, &[o], s), "{p} {o}");
    }
    // setup= and pairing= change which setups are valid (see setup_validation).
}

#[test]
fn describe_lists_the_options_that_differ() {
    let r = rules("el-akil", &["pairing=rotated", "chain=one"]);
    assert_eq!(r.describe(), "el-akil chain=one pairing=rotated");
    assert_eq!(rules("el-ghasheem", &[]).describe(), "el-ghasheem");
}
