//! The parallel retrograde builder against the slow, independent threshold-attractor solver
//! (`tests/slow_solver`), on every indexed position of every tier up to 10 seeds, for every
//! preset and rule option.

mod slow_solver;

use mancala_index::Indexer;
use mancala_rules::{GrandSlam, Options, Preset, Rules, Variant};
use mancala_tables::{build, BuildOptions, Payload, Tables};

fn check(preset: Preset, opts: Options, max: usize) {
    let rules = Rules::new(Variant::new(preset, opts).unwrap());
    let key = rules.variant().key();
    // `kalah` and `mancala` share a table key, and the tests run in parallel: the folder
    // names the preset too, so neither deletes the other's tables.
    let dir = std::env::temp_dir().join(format!(
        "mancala-slow-{}-{}-{key}",
        std::process::id(),
        preset.name()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    build(
        &rules,
        &BuildOptions {
            dir: dir.clone(),
            max_seeds: max,
            compress: false,
            memory: None,
            checkpoint_every: None,
            repair: false,
        },
        &(),
    )
    .unwrap();
    let slow = slow_solver::slow_values(&rules, max);
    let tables = Tables::open(&dir, &rules, max, Payload::Checked).unwrap();
    let ix = Indexer::new(&rules, max).unwrap();
    let mut checked = 0u64;
    for n in 0..=max {
        for b in ix.walk(n) {
            let fast = tables.probe(b).unwrap().expect("indexed") as i32;
            let want = slow[&b];
            assert_eq!(fast, want, "{key}: position {:?}", b.pits(2 * rules.pits()));
            checked += 1;
        }
    }
    assert!(checked > 0);
    if rules.sided() {
        // The side to move matters: the same pits are worth something else to North.
        let differ = (0..=max)
            .flat_map(|n| ix.walk(n))
            .filter(|b| !b.north() && slow[b] != slow[&b.with_north(true)])
            .count();
        assert!(differ > 0, "{key}: the side to move changed no value");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

fn size(pits: u32, seeds: u32) -> Options {
    Options {
        pits: Some(pits),
        seeds: Some(seeds),
        ..Options::default()
    }
}

#[test]
fn awari_agrees_up_to_10_seeds() {
    check(Preset::Awari, Options::default(), 10);
}

#[test]
fn oware_agrees_up_to_10_seeds() {
    check(Preset::Oware, Options::default(), 10);
}

#[test]
fn wari_agrees_up_to_10_seeds() {
    check(Preset::Wari, Options::default(), 10);
}

#[test]
fn kalah_agrees_up_to_10_seeds() {
    check(Preset::Kalah, Options::default(), 10);
    check(
        Preset::Kalah,
        Options {
            empty_capture: true,
            ..Options::default()
        },
        10,
    );
}

#[test]
fn mancala_agrees_up_to_10_seeds() {
    check(Preset::Mancala, Options::default(), 10);
    check(
        Preset::Mancala,
        Options {
            empty_capture: true,
            ..Options::default()
        },
        10,
    );
}

/// Every grand-slam treatment, and small boards of every preset, where cycles and forced
/// grand slams are frequent.
#[test]
fn every_rule_option_agrees_on_small_boards() {
    for gs in GrandSlam::WARI {
        check(
            Preset::Wari,
            Options {
                grand_slam: Some(gs),
                ..size(3, 2)
            },
            12,
        );
        check(
            Preset::Wari,
            Options {
                grand_slam: Some(gs),
                ..size(6, 4)
            },
            7,
        );
    }
    for (pits, seeds, max) in [(1, 8, 16), (2, 4, 16), (3, 3, 14), (4, 2, 12)] {
        check(Preset::Awari, size(pits, seeds), max);
        check(Preset::Oware, size(pits, seeds), max);
    }
    for (pits, seeds, max) in [(1, 8, 16), (2, 5, 20), (3, 4, 16), (4, 3, 14)] {
        check(Preset::Kalah, size(pits, seeds), max);
        check(
            Preset::Kalah,
            Options {
                empty_capture: true,
                ..size(pits, seeds)
            },
            max,
        );
    }
}

/// The sowing family (relay sowing, captures of four, passes, round ends), whose builder
/// inverts the forward moves instead of un-sowing: every preset and every rule option that
/// changes a value, on small boards.
#[test]
fn sowing_family_agrees_with_every_rule_option() {
    use mancala_rules::{Rule, RuleSet};
    let sowing = Preset::ALL
        .into_iter()
        .filter(|p| p.family() == mancala_rules::Family::Sowing);
    for preset in sowing {
        let mut sets = vec![RuleSet::default()];
        sets.extend(
            Rule::for_preset(preset)
                .filter(|r| r.0.changes_values())
                .map(|r| RuleSet::default().with(r.0)),
        );
        if preset == Preset::Mankala2p {
            sets.push(
                RuleSet::default()
                    .with(Rule::Relay)
                    .with(Rule::HousesNotSown)
                    .with(Rule::MustFeed),
            );
        }
        for rules in sets {
            for (pits, seeds, max) in [(2, 4, 14), (3, 3, 11)] {
                check(
                    preset,
                    Options {
                        rules,
                        ..size(pits, seeds)
                    },
                    max,
                );
            }
        }
    }
}

/// Later nam-nam rounds: the players own different pits, positions carry the side to move,
/// and each tier holds both halves.
#[test]
fn nam_nam_rounds_with_pits_changed_hands_agree() {
    for (pits, seeds, max, owners) in [
        (2, 4, 14, "ssns"),
        (2, 4, 14, "snnn"),
        (3, 3, 11, "sssnsn"),
        (3, 3, 11, "nsnnnn"),
        // 8 pits a side: North's flag shares a byte with North's last pit.
        (8, 1, 6, "ssssssssnnnnnnns"),
        (8, 1, 6, "nsssssssnnnnnnnn"),
    ] {
        let owners = Some(Variant::parse_owners(pits, owners).unwrap());
        check(
            Preset::NamNam,
            Options {
                owners,
                ..size(pits, seeds)
            },
            max,
        );
    }
}
