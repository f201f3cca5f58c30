//! The swap valuation, the best-setup search, the Playable interface, conservation and
//! robustness against bad input.

use mancala_forced::*;
use mancala_rules::Playable;
use proptest::prelude::*;

#[test]
fn swap_valuation_checked_by_hand() {
    // madjnuni on a 2x1 board with 5 seeds, setup South 3, North 2.
    // Kept (board 3 | 2, South first):
    //   S: 3 from pit 0 -> 1, 0, 1: pit 1 makes 4, captured (S 4); forward pit 0 holds 1: stop.
    //   N is empty and passes; S: 1 -> pit 1. N: 1 -> pit 0. S: 1 -> pit 1, and the state
    //   (0 | 1, North to move) repeats: cycle, North keeps his 1. S 4, N 1, 4 moves.
    // Swapped (board 2 | 3, South first):
    //   S: 2 -> 1, 0: pit 0 makes 1. N: 4 -> 0, 1, 0, 1: pit 1 makes 2, captured (N 2).
    //   S: 3 -> 1, 0, 1: pit 1 makes 2, captured (S 2). N passes; S: 1 -> 1; N: 1 -> 0;
    //   S: 1 -> 1, state repeats: cycle, North keeps 1. S 2, N 3, 6 moves.
    let v = solve_setup("madjnuni", Some(1), Some(5), &[], Some("3 2")).unwrap();
    assert_eq!(
        (v.kept.distributor, v.kept.second, v.kept.moves, v.kept.end),
        (4, 1, 4, EndReason::Cycle)
    );
    assert_eq!(
        (
            v.swapped.distributor,
            v.swapped.second,
            v.swapped.moves,
            v.swapped.end
        ),
        (2, 3, 6, EndReason::Cycle)
    );
    assert_eq!(v.kept.first_mover, Role::Distributor);
    assert_eq!(v.swapped.first_mover, Role::Distributor);
    assert!(v.second_swaps, "3 seeds beat 1 for the second player");
    assert_eq!(v.distributor_value, 2);
    assert_eq!(v.chosen().winner, Some(Role::Second));
    // The other setup is the same two games with the roles of kept/swapped exchanged.
    let w = solve_setup("madjnuni", Some(1), Some(5), &[], Some("2 3")).unwrap();
    assert_eq!(
        w.kept,
        Outcome {
            swapped: false,
            ..v.swapped.clone()
        }
    );
    assert!(!w.second_swaps);
    assert_eq!(w.distributor_value, 2);
    // So the best the distributor can do on this board is 2 seeds, with either setup.
    let b = best_setup("madjnuni", Some(1), Some(5), &[], None).unwrap();
    assert_eq!((b.setups, b.best_value, b.best_count), (2, 2, 2));
    assert_eq!(b.best, vec![vec![2, 3], vec![3, 2]]);
}

#[test]
fn a_tie_keeps_the_board() {
    // A rotation-symmetric madjnuni setup gives the same game either way: no swap.
    let v = solve_setup("madjnuni", None, None, &[], None).unwrap();
    assert_eq!(v.kept.second, v.swapped.second);
    assert!(!v.second_swaps);
    assert_eq!((v.kept.distributor, v.kept.second), (54, 44));
    assert_eq!(v.kept.winner, Some(Role::Distributor));
}

#[test]
fn el_akil_first_mover_and_swap() {
    let v = solve_setup("el-akil", None, None, &[], None).unwrap();
    assert_eq!(v.kept.first_mover, Role::Second);
    assert_eq!(v.swapped.first_mover, Role::Distributor);
    // The default setup is symmetric, so moving first is the whole difference: 43 vs 29 for
    // whoever moves second here; the second player swaps to get 43.
    assert_eq!((v.kept.distributor, v.kept.second), (43, 29));
    assert_eq!((v.swapped.distributor, v.swapped.second), (29, 43));
    assert!(v.second_swaps);
    assert_eq!(v.distributor_value, 29);
    // (`mancala solve el-akil --json` prints these; tests/cli.rs of mancala-cli checks it.)
    assert_eq!(v.description, "el-akil");
    assert_eq!(v.setup, [0, 9, 9, 9, 9, 0, 0, 9, 9, 9, 9, 0]);
    assert_eq!(v.kept.end.as_str(), "one-each");
}

#[test]
fn best_setup_on_tiny_boards() {
    for (p, m, t) in [
        ("madjnuni", 2, 8),
        ("madjnuni", 3, 14),
        ("el-akil", 2, 6),
        ("el-ghasheem", 2, 18),
    ] {
        let b = best_setup(p, Some(m), Some(t), &[], None).unwrap();
        assert!(b.setups > 0 && b.best_count > 0);
        assert_eq!(b.first.distributor_value, b.best_value);
        // Re-valuing a listed best setup gives the same value.
        let s: Vec<String> = b.best[0].iter().map(|c| c.to_string()).collect();
        let v = solve_setup(p, Some(m), Some(t), &[], Some(&s.join(" "))).unwrap();
        assert_eq!(v.distributor_value, b.best_value);
    }
    // madjnuni 2x2 with 8 seeds has a single setup (2 everywhere).
    let b = best_setup("madjnuni", Some(2), Some(8), &[], None).unwrap();
    assert_eq!(b.setups, 1);
    // Too big: refused.
    assert!(matches!(
        best_setup("madjnuni", None, None, &[], None),
        Err(ForcedError::TooManySetups { .. })
    ));
}

#[test]
fn playable_interface() {
    let mut g = new_game("madjnuni", None, None, &[], None, false).unwrap();
    assert_eq!(g.pits(), vec![7; 14]);
    assert_eq!(g.stores(), vec![0, 0]);
    assert_eq!(g.to_move(), "south");
    assert_eq!(g.legal(), vec!["6".to_string()]);
    assert!(!g.is_over());
    let d = g.draw();
    assert!(
        d.contains("[  7]") && d.contains("barn") && d.contains("south to move"),
        "{d}"
    );
    g.play("next").unwrap();
    assert_eq!(
        g.pits(),
        vec![10, 10, 1, 10, 10, 10, 3, 0, 10, 10, 10, 0, 10, 2]
    );
    assert_eq!(g.stores(), vec![2, 0]);
    assert_eq!(g.to_move(), "north");
    assert_eq!(g.legal(), vec!["6".to_string()]);
    g.play("6").unwrap();
    let legal = g.legal();
    assert_eq!(legal.len(), 1);
    // A letter works too.
    let letter = ((b'a' + legal[0].parse::<u8>().unwrap()) as char).to_string();
    g.play(&letter).unwrap();
    while !g.is_over() {
        let mv = g.legal()[0].clone();
        g.play(&mv).unwrap();
    }
    assert!(g.legal().is_empty());
    assert_eq!(g.pits().iter().sum::<u32>(), 0);
    assert_eq!(g.stores(), vec![54, 44]);
    assert!(g.draw().contains("game over (starvation)"));
    assert!(g.play("next").is_err());
    let g = new_game("el-akil", None, None, &["chain=one".into()], None, true).unwrap();
    assert_eq!(g.describe(), "el-akil chain=one swapped");
    assert_eq!(g.to_move(), "south");
}

#[test]
fn bad_move_names_are_errors() {
    let mut g = new_game("madjnuni", None, None, &[], None, false).unwrap();
    for bad in [
        "",
        "x",
        "-1",
        "7",
        "99999999999999999999",
        "h",
        "next move",
        "é",
    ] {
        let e = g.play(bad).unwrap_err().to_string();
        assert!(e.contains("forced"), "{bad}: {e}");
    }
    let e = g.play("3").unwrap_err().to_string();
    assert!(e.contains("only legal move is 6"), "{e}");
    assert_eq!(g.moves_played(), 0);
}

fn setup_strategy() -> impl Strategy<Value = (String, u32, Vec<u32>, bool)> {
    (
        0usize..3,
        1u32..5,
        proptest::collection::vec(0u32..6, 10),
        any::<bool>(),
    )
        .prop_map(|(p, m, extra, swapped)| {
            let preset = ["madjnuni", "el-akil", "el-ghasheem"][p];
            let n = 2 * m as usize;
            let mut s: Vec<u32> = match preset {
                "madjnuni" => vec![2; n],
                "el-ghasheem" => vec![4; n],
                _ => {
                    let mut v = vec![0; n];
                    v[0] = 1;
                    v[n - 1] = 1;
                    v
                }
            };
            for (k, e) in extra.iter().enumerate() {
                let i = if preset == "el-akil" {
                    if k % 2 == 0 {
                        0
                    } else {
                        n - 1
                    }
                } else {
                    (k * 7 + *e as usize) % n
                };
                s[i] += e;
            }
            (preset.to_string(), m, s, swapped)
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn seeds_are_conserved((preset, m, setup, swapped) in setup_strategy(),
                           opt in 0usize..6) {
        let opts = ["serial=backward", "chain=one", "head-empty=wrap", "single=unplayable",
                    "serial-cross=no", "singles-end=no"];
        let total: u32 = setup.iter().sum();
        let txt: Vec<String> = setup.iter().map(|c| c.to_string()).collect();
        let rules = vec![opts[opt].to_string()];
        let mut g = new_game(&preset, Some(m), Some(total), &rules, Some(&txt.join(",")), swapped)
            .unwrap();
        let mut steps = 0;
        while !g.over() {
            let before = g.captured();
            g.step().unwrap();
            let on_board: u32 = g.board().iter().sum();
            let [s, n] = g.captured();
            prop_assert_eq!(on_board + s + n, total);
            prop_assert!(s >= before[0] && n >= before[1]);
            steps += 1;
            prop_assert!(steps < 1_000_000);
        }
        prop_assert_eq!(g.board().iter().sum::<u32>(), 0);
        let [s, n] = g.captured();
        prop_assert_eq!(s + n, total);
    }

    #[test]
    fn random_positions_conserve_and_end(pits in proptest::collection::vec(0u32..7, 2..9),
                                         p in 0usize..3, north in any::<bool>()) {
        let mut pits = pits;
        if pits.len() % 2 == 1 { pits.pop(); }
        let total: u32 = pits.iter().sum();
        let r = ForcedRules::new([Preset::Madjnuni, Preset::ElAkil, Preset::ElGhasheem][p]);
        let side = if north { Side::North } else { Side::South };
        let mut g = ForcedGame::from_position(r, pits, side).unwrap();
        g.run();
        let [s, n] = g.captured();
        prop_assert_eq!(s + n, total);
    }

    #[test]
    fn bad_input_never_panics(setup in ".{0,40}", rule in ".{0,20}", mv in ".{0,6}",
                              pits in proptest::option::of(0u32..40),
                              total in proptest::option::of(0u32..200), p in 0usize..4) {
        let preset = ["madjnuni", "el-akil", "el-ghasheem", "nope"][p];
        let rules = vec![rule.clone()];
        let _ = solve_setup(preset, pits, total, &rules, Some(&setup));
        if let Ok(mut g) = new_game(preset, pits, total, &[], None, false) {
            let _ = g.play(&mv);
            let _ = g.draw();
        }
        let _ = summary(&setup);
        let _ = options_help(&setup);
    }
}

#[test]
fn constructor_listings() {
    assert_eq!(preset_names(), &["madjnuni", "el-akil", "el-ghasheem"]);
    for p in preset_names() {
        assert!(summary(p).is_some());
        let names: Vec<&str> = options_help(p).iter().map(|(n, _)| *n).collect();
        for o in [
            "pits",
            "total",
            "serial",
            "chain",
            "serial-cross",
            "head-empty",
            "single",
            "singles-end",
        ] {
            assert!(names.contains(&o), "{p} lacks {o}");
        }
        assert_eq!(names.contains(&"setup"), *p == "el-akil");
        assert_eq!(names.contains(&"pairing"), *p == "el-akil");
    }
    assert!(summary("awari").is_none());
    assert!(options_help("awari").is_empty());
}
