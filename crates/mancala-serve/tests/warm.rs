//! Reading a server's tables into memory when it starts (`mancala_serve::warm`): every rule
//! set of the folder is found, read whole (its files' bytes, counted from the folder, not
//! from the tables), smallest first, and those that would overrun the budget are passed over.
//! A server asked afterwards answers as before.

mod common;

use common::{esc, get, start};
use mancala_rules::{Preset, Rules, Variant};
use mancala_tables::{build, BuildOptions};
use std::path::Path;

/// The bytes of the table files (`tier-NNN.mtb`) in `folder`, counted from the folder.
fn file_bytes(folder: &Path) -> u64 {
    std::fs::read_dir(folder)
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().ends_with(".mtb"))
        .map(|e| e.metadata().unwrap().len())
        .sum()
}

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

#[test]
fn every_rule_set_is_read_whole_smallest_first_within_the_budget() {
    let dir = two_sets();
    let (awari_key, kalah_key) = (
        Variant::preset(Preset::Awari).key(),
        Variant::preset(Preset::Kalah).key(),
    );
    let awari = file_bytes(&dir.join(&awari_key));
    let kalah = file_bytes(&dir.join(&kalah_key));
    assert!(awari > 0 && kalah > 0 && awari != kalah);
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
    let (small, big) = if awari < kalah {
        ((awari_key, awari), (kalah_key, kalah))
    } else {
        ((kalah_key, kalah), (awari_key, awari))
    };
    // Room for both: both read, the smaller first, each its files' bytes.
    assert_eq!(
        warm(u64::MAX),
        [
            (small.0.clone(), small.1, true),
            (big.0.clone(), big.1, true)
        ]
    );
    // Room for the smaller only (and a byte to spare): the bigger is passed over.
    assert_eq!(
        warm(small.1 + 1),
        [
            (small.0.clone(), small.1, true),
            (big.0.clone(), big.1, false)
        ]
    );
    // Room for the bigger only: the smaller goes first and leaves too little for it.
    assert_eq!(
        warm(big.1),
        [
            (small.0.clone(), small.1, true),
            (big.0.clone(), big.1, false)
        ]
    );
    // No room: nothing read, every rule set still heard of.
    assert_eq!(warm(0), [(small.0, small.1, false), (big.0, big.1, false)]);

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
