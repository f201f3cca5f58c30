//! Position -> result tests for the rule statements of docs/rules.md, bao-kiswahili and
//! bao-kujifunza, and for each rule option. "The Skiryuk text" and "the Wikipedia text" are the
//! two Bao sources named there: Skiryuk's Bao article in the Russian rules compilation, and the
//! Russian translation of the Wikipedia article "Bao (game)".

mod common;

use common::Rng;
use mancala_bao::{new_game, BaoError, BaoGame};
use mancala_rules::Playable;

/// A position string from each row in its owner's own view (`x[0]` = that player's a1 / b1).
fn pos(nb: [u8; 8], na: [u8; 8], sa: [u8; 8], sb: [u8; 8], extra: &str) -> String {
    let mut v: Vec<String> = Vec::new();
    v.extend(nb.iter().rev().map(|x| x.to_string()));
    v.extend(na.iter().rev().map(|x| x.to_string()));
    v.extend(sa.iter().map(|x| x.to_string()));
    v.extend(sb.iter().map(|x| x.to_string()));
    format!("{} {extra}", v.join(" "))
}

fn game(preset: &str, opts: &[&str], p: &str) -> BaoGame {
    let o: Vec<String> = opts.iter().map(|s| s.to_string()).collect();
    new_game(preset, &o, Some(p)).unwrap()
}

fn legal(g: &BaoGame) -> Vec<String> {
    let mut v = g.legal_names();
    v.sort();
    v
}

/// The game after playing `mv`.
fn after(g: &BaoGame, mv: &str) -> BaoGame {
    let mut c = g.clone();
    c.play_name(mv).unwrap();
    c
}

/// South's front row (a1..a8) after playing `mv`.
fn south_front_after(g: &BaoGame, mv: &str) -> Vec<u32> {
    after(g, mv).pits()[16..24].to_vec()
}

const Z: [u8; 8] = [0; 8];
const TWOS: [u8; 8] = [2; 8];

#[test]
fn capture_in_a_central_column_is_sown_from_the_kichwa_of_the_direction() {
    // a3 (2) clockwise ends in a5 (occupied), facing North a4 (3): capture, sown from a1.
    let p = pos(
        TWOS,
        [1, 0, 0, 3, 0, 0, 0, 0],
        [0, 0, 2, 0, 1, 0, 0, 0],
        Z,
        "",
    );
    let g = game("bao-kujifunza", &[], &p);
    assert_eq!(legal(&g), vec!["a3>"]);
    assert_eq!(south_front_after(&g, "a3>"), vec![1, 1, 1, 1, 2, 0, 0, 0]);
    // Mirror: a6 counter-clockwise ends in a4, facing North a5: sown from a8.
    let p = pos(
        TWOS,
        [1, 0, 0, 0, 3, 0, 0, 0],
        [0, 0, 0, 1, 0, 2, 0, 0],
        Z,
        "",
    );
    let g = game("bao-kujifunza", &[], &p);
    assert_eq!(legal(&g), vec!["a6<"]);
    assert_eq!(south_front_after(&g, "a6<"), vec![0, 0, 0, 2, 1, 1, 1, 1]);
}

#[test]
fn kimbi_capture_uses_the_nearest_kichwa() {
    // a4 (2) counter-clockwise ends in a2 (kimbi), facing North a7 (2): the captured seeds go
    // to a1 and clockwise (not to a8), then a2 relays.
    let p = pos(
        TWOS,
        [1, 0, 0, 0, 0, 0, 2, 0],
        [0, 1, 0, 2, 0, 0, 0, 0],
        Z,
        "",
    );
    for preset in ["bao-kujifunza", "bao-kiswahili"] {
        let g = game(preset, &[], &p);
        assert_eq!(legal(&g), vec!["a4<"]);
        assert_eq!(south_front_after(&g, "a4<"), vec![1, 0, 2, 1, 1, 0, 0, 0]);
    }
}

#[test]
fn rule_of_16_makes_it_takata() {
    // a1 holds 17: clockwise its last seed ends in a2 (occupied) facing North a7, but a start
    // with 16+ seeds is takata: no capture, both directions allowed.
    let p = pos(
        TWOS,
        [1, 0, 0, 0, 0, 0, 2, 0],
        [17, 1, 0, 0, 0, 0, 0, 0],
        Z,
        "",
    );
    let g = game("bao-kujifunza", &[], &p);
    assert_eq!(legal(&g), vec!["a1<", "a1>"]);
    assert_eq!(after(&g, "a1>").pits()[1], 2, "North a7 was not captured");
    // With 15 seeds, a1 counter-clockwise passes b1..b8, a8..a3 and ends in a2 (occupied),
    // facing North a7: a capture, and compulsory.
    let p = pos(
        TWOS,
        [1, 0, 0, 0, 0, 0, 2, 0],
        [15, 1, 0, 0, 0, 0, 0, 0],
        Z,
        "",
    );
    let g = game("bao-kujifunza", &[], &p);
    assert_eq!(legal(&g), vec!["a1<"]);
    assert_eq!(after(&g, "a1<").pits()[9], 0, "North a7 was captured");
}

#[test]
fn single_seed_pits_cannot_start() {
    let p = pos(
        TWOS,
        [1, 0, 0, 0, 0, 0, 0, 0],
        [1, 1, 1, 1, 1, 1, 1, 2],
        [1; 8],
        "",
    );
    let g = game("bao-kujifunza", &[], &p);
    let l = legal(&g);
    assert!(!l.is_empty());
    assert!(l.iter().all(|m| m.starts_with("a8")), "{l:?}");
    // All pits single: no move, the player to move loses.
    let p = pos(TWOS, [1, 0, 0, 0, 0, 0, 0, 0], [1; 8], [1; 8], "");
    let g = game("bao-kujifunza", &[], &p);
    assert!(g.is_over());
    assert_eq!(g.winner(), Some(1));
}

#[test]
fn takata_from_the_back_row_only_without_a_front_row_takata() {
    let sb = [3, 0, 0, 0, 0, 0, 0, 0];
    let p = pos(
        TWOS,
        [1, 0, 0, 0, 0, 0, 0, 0],
        [2, 0, 0, 0, 0, 0, 0, 0],
        sb,
        "",
    );
    let g = game("bao-kujifunza", &[], &p);
    assert_eq!(legal(&g), vec!["a1<", "a1>"]);
    // Kiswahili: the front row may not be emptied even for a moment: a lone kichwa is sown
    // toward the centre.
    let g = game("bao-kiswahili", &[], &format!("{p} nyumba=00"));
    assert_eq!(legal(&g), vec!["a1>"]);
    // No front pit with 2+: the back row may start.
    let p = pos(
        TWOS,
        [1, 0, 0, 0, 0, 0, 0, 0],
        [1, 0, 0, 0, 0, 0, 0, 0],
        sb,
        "",
    );
    let g = game("bao-kujifunza", &[], &p);
    assert_eq!(legal(&g), vec!["b1<", "b1>"]);
}

#[test]
fn loss_when_the_front_row_is_empty() {
    let p = pos(TWOS, [1, 0, 0, 0, 0, 0, 0, 0], Z, [5; 8], "");
    for preset in ["bao-kujifunza", "bao-kiswahili"] {
        let g = game(preset, &[], &p);
        assert!(g.is_over());
        assert_eq!(g.winner(), Some(1));
        assert!(g.legal().is_empty());
        assert!(g.draw().contains("north wins"));
    }
}

#[test]
fn namua_start_and_placement() {
    let g = new_game("bao-kiswahili", &[], None).unwrap();
    assert_eq!(g.stores(), vec![22, 22]);
    assert_eq!(g.pits()[16..24], [0, 0, 0, 0, 6, 2, 2, 0]);
    assert_eq!(g.pits()[8..16], [0, 2, 2, 6, 0, 0, 0, 0]);
    assert_eq!(legal(&g), vec!["a5t<", "a5t>", "a6<", "a6>", "a7<", "a7>"]);
    // Placing in a6 makes 3; the takata sows a7, a8, b8 and ends in the empty b8.
    let c = after(&g, "a6>");
    assert_eq!(c.stores(), vec![21, 22]);
    assert_eq!(c.pits()[16..24], [0, 0, 0, 0, 6, 0, 3, 1]);
    assert_eq!(c.pits()[31], 1, "b8");
    assert_eq!(c.to_move(), "north");
    // The nyumba tax: a seed placed in the nyumba (7) sows only two seeds.
    let c = after(&g, "a5t<");
    assert_eq!(c.pits()[16..24], [0, 0, 1, 1, 5, 2, 2, 0]);
    // Seeds never leave the board.
    let total: u32 = c.pits().iter().sum::<u32>() + c.stores().iter().sum::<u32>();
    assert_eq!(total, 64);
}

#[test]
fn namua_capture_keeps_the_capturing_pit_and_offers_the_kichwa() {
    // South places in a3 (1 -> 2), facing North a6 (3): compulsory capture; central column, so
    // the player chooses the kichwa.
    let p = pos(
        TWOS,
        [1, 0, 0, 0, 0, 3, 0, 0],
        [0, 0, 1, 0, 0, 0, 0, 0],
        Z,
        "hand=10,10 nyumba=00",
    );
    let g = game("bao-kiswahili", &[], &p);
    assert_eq!(legal(&g), vec!["a3L", "a3R"]);
    // From a1: a1, a2, a3 (now 3, facing an empty pit): relay a4, a5, a6.
    assert_eq!(south_front_after(&g, "a3L"), vec![1, 1, 0, 1, 1, 1, 0, 0]);
    // From a8: a8, a7, a6 (empty): the move ends; a3 keeps its 2 seeds.
    assert_eq!(south_front_after(&g, "a3R"), vec![0, 0, 2, 0, 0, 1, 1, 1]);
    // In a kimbi the nearest kichwa is forced.
    let p = pos(
        TWOS,
        [1, 0, 0, 0, 0, 0, 2, 0],
        [0, 1, 0, 0, 0, 0, 0, 0],
        Z,
        "hand=10,10 nyumba=00",
    );
    let g = game("bao-kiswahili", &[], &p);
    assert_eq!(legal(&g), vec!["a2L"]);
    // A unique prefix is accepted.
    let mut c = g.clone();
    c.play("a2").unwrap();
}

#[test]
fn namua_takata_ending_in_the_nyumba_stops() {
    let p = pos(
        TWOS,
        [1, 0, 0, 0, 0, 0, 0, 0],
        [0, 0, 1, 0, 6, 0, 0, 0],
        Z,
        "hand=5,5 nyumba=10",
    );
    let g = game("bao-kiswahili", &[], &p);
    assert_eq!(legal(&g), vec!["a3<", "a3>", "a5t<", "a5t>"]);
    assert_eq!(south_front_after(&g, "a3>"), vec![0, 0, 0, 1, 7, 0, 0, 0]);
}

#[test]
fn option_nyumba_protect() {
    // South a4 faces North's nyumba (North a5, 6 seeds).
    let p = pos(
        TWOS,
        [0, 0, 0, 0, 6, 0, 0, 0],
        [0, 0, 0, 1, 0, 0, 0, 0],
        Z,
        "hand=5,5 nyumba=01",
    );
    let g = game("bao-kiswahili", &[], &p);
    assert_eq!(legal(&g), vec!["a4<", "a4>"]);
    let g = game("bao-kiswahili", &["nyumba-protect=off"], &p);
    assert_eq!(legal(&g), vec!["a4L", "a4R"]);
}

#[test]
fn option_tax() {
    // Mtaji phase, no capture: a1 can takata, so the taxed nyumba move is not allowed (the
    // Skiryuk text).
    let p = pos(
        TWOS,
        [1, 0, 0, 0, 0, 0, 0, 0],
        [2, 0, 0, 0, 8, 0, 0, 0],
        Z,
        "nyumba=10",
    );
    let g = game("bao-kiswahili", &[], &p);
    assert_eq!(legal(&g), vec!["a1<", "a1>"]);
    let g = game("bao-kiswahili", &["tax=anytime"], &p);
    assert_eq!(legal(&g), vec!["a1<", "a1>", "a5t<", "a5t>"]);
    // Nothing else: the tax is the only move; two seeds sown, the nyumba keeps 6.
    let p = pos(
        TWOS,
        [1, 0, 0, 0, 0, 0, 0, 0],
        [1, 0, 0, 0, 8, 0, 0, 0],
        Z,
        "nyumba=10",
    );
    let g = game("bao-kiswahili", &[], &p);
    assert_eq!(legal(&g), vec!["a5t<", "a5t>"]);
    assert_eq!(south_front_after(&g, "a5t<"), vec![1, 0, 1, 1, 6, 0, 0, 0]);
}

#[test]
fn option_nyumba_stop() {
    // a1 (2) clockwise ends in a3 facing North a6 (5): capture 5, sown a1..a5; the last seed
    // ends in the nyumba (8 -> 9) facing nothing.
    let p = pos(
        TWOS,
        [1, 0, 0, 0, 0, 5, 0, 0],
        [2, 0, 1, 0, 8, 0, 0, 0],
        Z,
        "nyumba=10",
    );
    let g = game("bao-kiswahili", &[], &p);
    assert_eq!(legal(&g), vec!["a1>", "a1>s"]);
    assert_eq!(south_front_after(&g, "a1>s"), vec![1, 2, 3, 1, 9, 0, 0, 0]);
    assert_eq!(south_front_after(&g, "a1>"), vec![1, 2, 3, 1, 0, 1, 1, 1]);
    let g2 = game("bao-kiswahili", &["nyumba-stop=stop"], &p);
    assert_eq!(legal(&g2), vec!["a1>"]);
    assert_eq!(south_front_after(&g2, "a1>"), vec![1, 2, 3, 1, 9, 0, 0, 0]);
    let g3 = game("bao-kiswahili", &["nyumba-stop=continue"], &p);
    assert_eq!(legal(&g3), vec!["a1>"]);
    assert_eq!(south_front_after(&g3, "a1>"), vec![1, 2, 3, 1, 0, 1, 1, 1]);
}

#[test]
fn option_takata_nyumba() {
    // Mtaji-phase takata a3 clockwise ends in the nyumba (7 -> 8).
    let p = pos(
        TWOS,
        [1, 0, 0, 0, 0, 0, 0, 0],
        [0, 0, 2, 0, 7, 0, 0, 0],
        Z,
        "nyumba=10",
    );
    let g = game("bao-kiswahili", &[], &p);
    assert_eq!(legal(&g), vec!["a3<", "a3>"]);
    // The Skiryuk text: it must be sown out (8 seeds: a6, a7, a8, b8..b4).
    assert_eq!(south_front_after(&g, "a3>"), vec![0, 0, 0, 1, 0, 1, 1, 1]);
    let g = game("bao-kiswahili", &["takata-nyumba=stop"], &p);
    assert_eq!(south_front_after(&g, "a3>"), vec![0, 0, 0, 1, 8, 0, 0, 0]);
}

#[test]
fn option_nyumba_status() {
    // A never-emptied nyumba holding 3: ordinary under the Skiryuk text (count < 6), special
    // under the Wikipedia text.
    let p = pos(
        TWOS,
        [1, 0, 0, 0, 0, 0, 0, 0],
        [0, 0, 0, 0, 3, 0, 0, 0],
        Z,
        "hand=5,5 nyumba=10",
    );
    let g = game("bao-kiswahili", &[], &p);
    assert_eq!(legal(&g), vec!["a5<", "a5>"]);
    let g = game("bao-kiswahili", &["nyumba-status=first-sowing"], &p);
    assert_eq!(legal(&g), vec!["a5t<", "a5t>"]);
    let g = game("bao-kiswahili", &["wikipedia"], &p);
    assert_eq!(legal(&g), vec!["a5t<", "a5t>"]);
}

#[test]
fn option_kimbi_narrow() {
    // a3 (2) counter-clockwise ends in a1 (kichwa) facing North a8 (2).
    let p = pos(
        TWOS,
        [0, 0, 0, 1, 0, 0, 0, 2],
        [1, 0, 2, 0, 0, 0, 0, 0],
        Z,
        "nyumba=00",
    );
    let g = game("bao-kiswahili", &[], &p);
    assert_eq!(legal(&g), vec!["a3<"]);
    // Default: a1 is a kimbi, so the nearest kichwa (a1) and clockwise.
    assert_eq!(south_front_after(&g, "a3<"), vec![3, 0, 1, 1, 0, 0, 0, 0]);
    // Narrow kimbi: the kichwa of the direction (a8), counter-clockwise.
    let g = game("bao-kiswahili", &["kimbi-narrow"], &p);
    assert_eq!(south_front_after(&g, "a3<"), vec![2, 1, 0, 0, 0, 0, 1, 1]);
}

#[test]
fn option_malawi() {
    let g = new_game("bao-kiswahili", &["malawi".to_string()], None).unwrap();
    assert_eq!(g.stores(), vec![20, 20]);
    assert_eq!(g.pits()[16..24], [0, 0, 0, 0, 8, 2, 2, 0]);
    assert!(g.describe().contains("malawi"));
}

#[test]
fn option_takasia_changes_play() {
    // Find, along random games, takata moves that set a takasia pit; the opponent may not start
    // from it, and with takasia=off his moves differ somewhere.
    let mut rng = Rng(31337);
    let mut seen = 0;
    let mut differs = 0;
    for _ in 0..200 {
        let mut g = new_game("bao-kiswahili", &[], None).unwrap();
        loop {
            let kids = g.children();
            if kids.is_empty() {
                break;
            }
            for (_, c) in &kids {
                let s = c.position_string();
                if let Some(i) = s.find("takasia=") {
                    seen += 1;
                    let t = &s[i + 8..i + 10];
                    assert!(c.legal_names().iter().all(|m| !m.starts_with(t)), "{s}");
                    let off = s[..i].trim_end().to_string();
                    let c2 = game("bao-kiswahili", &["takasia=off"], &off);
                    if legal(c) != legal(&c2) {
                        differs += 1;
                    }
                }
            }
            g = kids[rng.below(kids.len())].1.clone();
        }
        if differs >= 3 {
            break;
        }
    }
    assert!(seen > 0 && differs > 0, "seen {seen}, differs {differs}");
    // And a game with takasia=off never sets one.
    let g = new_game("bao-kiswahili", &["takasia=off".into()], None).unwrap();
    assert!(!g.position_string().contains("takasia"));
}

#[test]
fn infinite_sowing_is_illegal() {
    // South's a8 (2) counter-clockwise relays through a cycle of 52 lifts that repeats the
    // position exactly: that move is illegal; clockwise is fine.
    let p = pos(
        [1, 2, 2, 2, 2, 2, 2, 2],
        [0, 0, 0, 0, 0, 0, 0, 1],
        [0, 3, 6, 1, 4, 5, 2, 2],
        [5, 2, 3, 5, 4, 3, 2, 1],
        "",
    );
    let g = game("bao-kujifunza", &[], &p);
    let l = legal(&g);
    assert!(l.contains(&"a8>".to_string()), "{l:?}");
    assert!(!l.contains(&"a8<".to_string()), "{l:?}");
    // Exact detection needs no limit for this cycle.
    let g = game("bao-kujifunza", &["sowing-limit=0"], &p);
    assert!(!legal(&g).contains(&"a8<".to_string()));
    // A very low limit makes long (finite) sowings illegal too.
    let g = game("bao-kujifunza", &["sowing-limit=1"], &p);
    assert!(legal(&g).len() < l.len());
}

#[test]
fn names_are_unique_and_playable_and_seeds_stay() {
    let mut rng = Rng(4242);
    for preset in ["bao-kujifunza", "bao-kiswahili"] {
        for _ in 0..20 {
            let mut g = new_game(preset, &[], None).unwrap();
            loop {
                let names = g.legal();
                let mut u = names.clone();
                u.sort();
                u.dedup();
                assert_eq!(u.len(), names.len(), "{names:?}");
                let total: u32 = g.pits().iter().sum::<u32>() + g.stores().iter().sum::<u32>();
                assert_eq!(total, 64);
                assert_eq!(g.pits().len(), 32);
                let pos = g.position_string();
                let back = new_game(preset, &[], Some(&pos)).unwrap();
                assert_eq!(back, g);
                if names.is_empty() {
                    assert!(g.is_over());
                    break;
                }
                let mv = &names[rng.below(names.len())];
                g.play(mv).unwrap();
                assert!(!g.draw().is_empty());
            }
        }
    }
}

#[test]
fn bad_input_is_an_error() {
    let k = "bao-kujifunza";
    assert!(matches!(
        new_game("bao-x", &[], None),
        Err(BaoError::UnknownPreset(_))
    ));
    let e = new_game("bao-kiswahili", &["nope".into()], None).unwrap_err();
    assert!(e.to_string().contains("takasia"), "{e}");
    assert!(matches!(
        new_game(k, &["malawi".into()], None),
        Err(BaoError::UnknownOption { .. })
    ));
    assert!(new_game("bao-kiswahili", &["takasia=maybe".into()], None).is_err());
    assert!(new_game("bao-kiswahili", &["nyumba-stop".into()], None).is_err());
    assert!(new_game(k, &["sowing-limit=x".into()], None).is_err());
    for bad in [
        "",
        "1 2 3",
        &"x ".repeat(32),
        &"3 ".repeat(32),
        &format!("{} hand=1", "1 ".repeat(32)),
        &format!("{} hand=a,b", "1 ".repeat(32)),
        &format!("{} nyumba=12", "1 ".repeat(32)),
        &format!("{} takasia=b3", "1 ".repeat(32)),
        &format!("{} takasia=a9", "1 ".repeat(32)),
        &format!("{} east", "1 ".repeat(32)),
        &format!("{} hand=1,1", "1 ".repeat(32)),
        &format!("{} -1", "1 ".repeat(31)),
        &format!("{} 99999999999", "1 ".repeat(31)),
    ] {
        assert!(
            matches!(new_game(k, &[], Some(bad)), Err(BaoError::BadPosition(_))),
            "{bad}"
        );
    }
    let mut g = new_game(k, &[], None).unwrap();
    for mv in ["", "zz", "a9>", "a", "a1>>", "b3?", "\u{1F600}"] {
        let e = g.play(mv);
        assert!(e.is_err(), "{mv}");
    }
    let e = g.play("q").unwrap_err().to_string();
    assert!(e.contains("legal moves"), "{e}");
    // A finished game refuses moves.
    let p = pos(TWOS, [1, 0, 0, 0, 0, 0, 0, 0], Z, [5; 8], "");
    let mut over = game(k, &[], &p);
    assert!(over.play("a1>").is_err());
}
