//! The distributed build, with processes played by threads ([`LocalCluster`]): the table
//! files are byte for byte a single process's, whatever the number of processes and the
//! per-process budget; a stopped build resumes; a damaged tier is rebuilt; rule sets it
//! cannot build are refused with the reason.

use mancala_rules::{Options, Preset, Rules, Variant};
use mancala_tables::cluster::LocalCluster;
use mancala_tables::{build, build_distributed, tier_path, BuildOptions, TableError, TierReport};
use std::path::{Path, PathBuf};

fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("mancala-dist-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

fn options(dir: &Path, max: usize, memory: Option<u64>) -> BuildOptions {
    BuildOptions {
        dir: dir.to_path_buf(),
        max_seeds: max,
        compress: false,
        memory,
        checkpoint_every: None,
        repair: false,
    }
}

/// Runs a distributed build with `processes` threads; returns each process's result.
fn run(
    processes: usize,
    rules: &Rules,
    opts: &BuildOptions,
) -> Vec<Result<Vec<TierReport>, TableError>> {
    let members = LocalCluster::new(processes);
    std::thread::scope(|s| {
        let handles: Vec<_> = members
            .iter()
            .map(|c| s.spawn(move || build_distributed(rules, opts, c, &())))
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    })
}

fn same_files(a: &Path, b: &Path, rules: &Rules, max: usize, what: &str) {
    let key = rules.variant().key();
    for n in 0..=max {
        let fa = std::fs::read(tier_path(a, &key, n)).unwrap();
        let fb = std::fs::read(tier_path(b, &key, n)).unwrap();
        assert!(fa == fb, "{key} tier {n} differs: {what}");
    }
}

fn kalah() -> Rules {
    let opts = Options {
        pits: Some(4),
        ..Default::default()
    };
    Rules::new(Variant::new(Preset::Kalah, opts).unwrap())
}

/// Awari and Kalah tables built by 2 and 3 processes, with the whole budget and with one
/// so small that each process keeps its exits in a file, are the single process's files.
#[test]
fn processes_write_the_files_of_one_process() {
    let sets = [
        (Rules::new(Variant::preset(Preset::Awari)), 14),
        (kalah(), 13),
    ];
    for (rules, max) in sets {
        let single = scratch("single");
        build(&rules, &options(&single, max, None), &()).unwrap();
        for (processes, memory) in [(2, None), (3, Some(30 << 20))] {
            let dir = scratch(&format!("p{processes}"));
            let results = run(processes, &rules, &options(&dir, max, memory));
            let reports: Vec<Vec<TierReport>> = results.into_iter().map(Result::unwrap).collect();
            // Every process reports the same tiers; some updates crossed slices.
            assert!(reports.iter().all(|r| r.len() == max + 1));
            let sent: u64 = reports[0].iter().map(|r| r.sent_bytes).sum();
            assert!(sent > 0, "the slices exchanged updates");
            assert_eq!(reports[1][max].sent_bytes, reports[0][max].sent_bytes);
            let what = format!("{processes} processes, budget {memory:?}");
            same_files(&single, &dir, &rules, max, &what);
            let leftovers: Vec<_> = std::fs::read_dir(dir.join(rules.variant().key()))
                .unwrap()
                .map(|e| e.unwrap().file_name().into_string().unwrap())
                .filter(|f| !f.ends_with(".mtb") && f != ".lock")
                .collect();
            assert!(
                leftovers.is_empty(),
                "parts and exits removed: {leftovers:?}"
            );
            let _ = std::fs::remove_dir_all(&dir);
        }
        let _ = std::fs::remove_dir_all(&single);
    }
}

/// A build run again reuses the finished tiers and rebuilds the missing and damaged ones,
/// ending with the same bytes.
#[test]
fn a_stopped_build_resumes_and_a_damaged_tier_is_rebuilt() {
    let rules = Rules::new(Variant::preset(Preset::Awari));
    let key = rules.variant().key();
    let single = scratch("resume-single");
    build(&rules, &options(&single, 12, None), &()).unwrap();
    let dir = scratch("resume");
    run(2, &rules, &options(&dir, 9, None))
        .into_iter()
        .for_each(|r| assert!(r.unwrap().iter().all(|t| !t.reused)));
    // Tier 8 damaged in its payload, as a disk might.
    let t8 = tier_path(&dir, &key, 8);
    let mut bytes = std::fs::read(&t8).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 1;
    std::fs::write(&t8, bytes).unwrap();
    let results = run(3, &rules, &options(&dir, 12, None));
    for r in results {
        let reused: Vec<bool> = r.unwrap().iter().map(|t| t.reused).collect();
        // Tier 9 stays valid: its values do not change when tier 8 is rebuilt.
        let want: Vec<bool> = (0..=12).map(|n| n <= 9 && n != 8).collect();
        assert_eq!(reused, want);
    }
    same_files(&single, &dir, &rules, 12, "resumed with 3 processes");
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_dir_all(&single);
}

/// Relay sowing cannot be un-sown, and the distributed build writes raw tables: both are
/// refused before anything is built, on every process.
#[test]
fn what_it_cannot_build_is_refused_with_the_reason() {
    let dir = scratch("refused");
    let relay = Rules::new(
        Variant::new(
            Preset::Mankala2p,
            Options {
                pits: Some(4),
                ..Default::default()
            },
        )
        .unwrap(),
    );
    for r in run(2, &relay, &options(&dir, 6, None)) {
        let e = r.unwrap_err().to_string();
        assert!(e.contains("relay sowing cannot be un-sown"), "{e}");
    }
    let awari = Rules::new(Variant::preset(Preset::Awari));
    let mut opts = options(&dir, 6, None);
    opts.compress = true;
    for r in run(2, &awari, &opts) {
        let e = r.unwrap_err().to_string();
        assert!(e.contains("writes raw tables"), "{e}");
    }
    assert!(!dir.exists(), "nothing written");
}
