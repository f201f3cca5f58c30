//! Reading a server's tables into memory when it starts (`mancala_serve::warm`): every rule
//! set of the folder is found and read (its files' bytes, counted from the folder, not from
//! the tables), smallest first, each lowest tier first, until the budget runs out. A server
//! asked afterwards answers as before.

mod common;

use common::{esc, get, start};
use mancala_rules::{Preset, Rules, Variant};
use mancala_tables::{build, BuildOptions};
use std::path::Path;

/// Awari up to 10 seeds and Kalah (6 pits) up to 12 in one folder, with a folder beside
/// them that is no rule set's.
fn two_sets() -> std::path::PathBuf {
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("warm-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    for (preset, max_seeds) in [(Preset::Awari, 10), (Preset::Kalah, 12)] {
        let opts = BuildOptions {
            dir: dir.clone(),
            max_seeds,
            compress: false,
            memory: None,
            checkpoint_every: None,
            repair: false,
        };
        build(&Rules::new(Variant::preset(preset)), &opts, &()).unwrap();
    }
    std::fs::create_dir_all(dir.join("not-a-rule-set")).unwrap();
    dir
}

/// The sizes of the tier files of `folder`, tier 0 first.
fn tier_sizes(folder: &Path) -> Vec<u64> {
    (0..)
        .map(|n| folder.join(format!("tier-{n:03}.mtb")))
        .take_while(|p| p.exists())
        .map(|p| std::fs::metadata(p).unwrap().len())
        .collect()
}

#[test]
fn every_rule_set_is_read_smallest_first_lowest_tier_first_within_the_budget() {
    let dir = two_sets();
    let (awari_key, kalah_key) = (
        Variant::preset(Preset::Awari).key(),
        Variant::preset(Preset::Kalah).key(),
    );
    let awari = tier_sizes(&dir.join(&awari_key));
    let kalah = tier_sizes(&dir.join(&kalah_key));
    assert_eq!((awari.len(), kalah.len()), (11, 13));
    let (a, k) = (awari.iter().sum::<u64>(), kalah.iter().sum::<u64>());
    assert_ne!(a, k);
    let config = mancala_serve::Config {
        dir: dir.clone(),
        ..mancala_serve::Config::default()
    };
    let warm = |budget: u64| {
        let mut seen = Vec::new();
        mancala_serve::warm(&config, budget, &mut |w| {
            seen.push((w.key.clone(), w.bytes, w.read))
        });
        seen
    };
    let ((small_key, small), (big_key, big)) = if a < k {
        ((awari_key, awari), (kalah_key, kalah))
    } else {
        ((kalah_key, kalah), (awari_key, awari))
    };
    let (s, b) = (small.iter().sum::<u64>(), big.iter().sum::<u64>());
    // Room for both: both read whole, the smaller first.
    assert_eq!(
        warm(u64::MAX),
        [(small_key.clone(), s, s), (big_key.clone(), b, b)]
    );
    // Room for the smaller and a byte: the bigger's tier 0 does not fit.
    assert_eq!(
        warm(s + 1),
        [(small_key.clone(), s, s), (big_key.clone(), b, 0)]
    );
    // Room for the bigger alone: the smaller goes first, and the bigger gets the tiers that
    // fit in what is left, lowest first.
    let left = b - s;
    let fitting: u64 = big
        .iter()
        .scan(0u64, |sum, &t| {
            *sum += t;
            Some(*sum)
        })
        .take_while(|&sum| sum <= left)
        .last()
        .unwrap_or(0);
    assert!(0 < fitting && fitting < b, "{fitting} of {b}");
    assert_eq!(
        warm(b),
        [(small_key.clone(), s, s), (big_key.clone(), b, fitting)]
    );
    // No room: nothing read, every rule set still heard of.
    assert_eq!(warm(0), [(small_key, s, 0), (big_key, b, 0)]);

    // A server over the warmed folder answers from the tables as before.
    let url = start(&dir);
    let (status, a) = get(&format!(
        "{url}/api/query?variant=kalah&seeds=1&position={}",
        esc("1 1 1 1 1 1 1 1 1 1 1 1")
    ));
    assert_eq!(status, 200, "{a}");
    assert_eq!(a["source"], "table", "{a}");
    let _ = std::fs::remove_dir_all(&dir);
}
