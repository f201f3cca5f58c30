//! No panic on any user input: every bad argument is an error that says what to do.

use mancala_multi::{new_game, options_help, preset_names, solve, summary, MultiError, Playable};
use proptest::prelude::*;

#[test]
fn presets_and_help() {
    assert_eq!(preset_names(), ["mankala-2p", "mankala-3p", "mankala-4p"]);
    for p in preset_names() {
        assert!(summary(p).is_some());
        let help = options_help(p);
        assert!(help.len() >= 9);
        for (name, _) in &help {
            let g = new_game(p, None, None, &[name.to_string()], None);
            assert!(g.is_ok(), "{p} {name}: {g:?}");
        }
    }
    assert_eq!(options_help("mankala-4p").len(), 10);
    assert!(summary("kalah").is_none());
    assert!(options_help("kalah").is_empty());
    for k in 1..=10 {
        let r = new_game("mankala-4p", None, None, &[format!("rule{k}")], None);
        assert!(r.is_ok(), "rule{k}");
    }
}

#[test]
fn bad_arguments_are_errors() {
    let e = |r: Result<_, MultiError>| r.unwrap_err();
    assert!(matches!(
        e(new_game("kalah", None, None, &[], None)),
        MultiError::UnknownPreset(_)
    ));
    assert!(matches!(
        e(new_game("mankala-2p", Some(0), None, &[], None)),
        MultiError::BadPits(0)
    ));
    assert!(matches!(
        e(new_game("mankala-2p", Some(7), None, &[], None)),
        MultiError::BadPits(7)
    ));
    assert!(matches!(
        e(new_game("mankala-2p", None, Some(0), &[], None)),
        MultiError::BadSeeds(0)
    ));
    assert!(matches!(
        e(new_game("mankala-2p", None, Some(11), &[], None)),
        MultiError::BadSeeds(11)
    ));
    assert!(matches!(
        e(new_game("mankala-2p", None, None, &["rule11".into()], None)),
        MultiError::UnknownRule(_)
    ));
    assert!(matches!(
        e(new_game("mankala-2p", None, None, &["fast".into()], None)),
        MultiError::UnknownRule(_)
    ));
    assert!(matches!(
        e(new_game(
            "mankala-2p",
            None,
            None,
            &["relay=maybe".into()],
            None
        )),
        MultiError::BadRuleValue { .. }
    ));
    assert!(matches!(
        e(new_game(
            "mankala-2p",
            None,
            None,
            &["capture-four=left".into()],
            None
        )),
        MultiError::BadRuleValue { .. }
    ));
    let pos = |s: &str| new_game("mankala-2p", Some(2), None, &[], Some(s));
    assert!(matches!(e(pos("1 2 3")), MultiError::BadPosition(_)));
    assert!(matches!(e(pos("1 2 3 x")), MultiError::BadPosition(_)));
    assert!(matches!(e(pos("1 2 3 -4")), MultiError::BadPosition(_)));
    assert!(matches!(e(pos("1 2 3 4 / 1")), MultiError::BadPosition(_)));
    assert!(matches!(
        e(pos("1 2 3 4 / 1 1 / 3")),
        MultiError::BadPosition(_)
    ));
    assert!(matches!(
        e(pos("1 2 3 4 / 1 1 / 1 / 1")),
        MultiError::BadPosition(_)
    ));
    assert!(matches!(e(pos("200 200 0 0")), MultiError::BadPosition(_)));
    assert!(pos("1 2 3 4 / 1 1 / north").is_ok());
    assert!(pos("1,2,3,4 // p2").is_ok());
    let msg = e(pos("1 2")).to_string();
    assert!(msg.contains("expected"), "{msg}");

    let mut g = new_game("mankala-2p", Some(2), Some(1), &[], None).unwrap();
    let err = g.play("7").unwrap_err().to_string();
    assert!(err.contains("legal moves: 0 1"), "{err}");
    assert!(g.play("").is_err());
    assert!(g.play("zz").is_err());
    assert!(g.play("b").is_ok());
    let mut over = new_game("mankala-2p", Some(2), None, &[], Some("0 0 0 0")).unwrap();
    assert!(over.is_over());
    assert!(over.play("0").is_err());
}

proptest! {
    #[test]
    fn any_input_is_an_error_or_a_game(
        preset in prop::sample::select(vec!["mankala-2p", "mankala-3p", "mankala-4p", "x"]),
        pits in prop::option::of(0u32..9),
        seeds in prop::option::of(0u32..12),
        rules in prop::collection::vec("[a-z0-9=-]{0,16}", 0..3),
        position in prop::option::of("[0-9 /,a-z-]{0,40}"),
        moves in prop::collection::vec("[0-9a-z]{0,2}", 0..20),
    ) {
        if let Ok(mut g) = new_game(preset, pits, seeds, &rules, position.as_deref()) {
            let _ = g.draw();
            let _ = g.describe();
            for m in &moves {
                let _ = g.play(m);
                let _ = g.draw();
            }
            let _ = solve(&g, 2_000);
        }
    }

    #[test]
    fn random_games_keep_the_seeds(
        preset in prop::sample::select(vec!["mankala-2p", "mankala-3p", "mankala-4p"]),
        pits in 1u32..7,
        seeds in 1u32..6,
        rule_bits in 0u32..1024,
        picks in prop::collection::vec(0usize..6, 0..300),
    ) {
        let names = ["touch-move", "three-seeds", "capturer-stays", "first-empty-ends",
            "houses-not-sown", "one-opposite", "must-feed", "keep-last-seed", "relay", "capture-four"];
        let rules: Vec<String> = names.iter().enumerate()
            .filter(|(k, n)| rule_bits & (1 << k) != 0 && (**n != "one-opposite" || preset == "mankala-4p")
                && **n != "three-seeds")
            .map(|(_, n)| n.to_string()).collect();
        let mut g = new_game(preset, Some(pits), Some(seeds), &rules, None).unwrap();
        let total = g.pits().iter().sum::<u32>();
        for p in picks {
            if g.is_over() { break; }
            let legal = g.legal();
            prop_assert!(!legal.is_empty());
            g.play(&legal[p % legal.len()]).unwrap();
            let now = g.pits().iter().sum::<u32>() + g.houses().iter().sum::<u32>();
            prop_assert_eq!(now, total);
        }
    }
}
