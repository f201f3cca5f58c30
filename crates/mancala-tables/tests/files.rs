//! Table files: thread-count independence, compression, and rejection of every kind of bad
//! file (truncated, bit-flipped, wrong variant, wrong version), plus the verifier catching a
//! wrong value whose checksum was patched to match.

use mancala_rules::{Options, Preset, Rules, Variant};
use mancala_tables::plan::{checkpoint_slices, plan, Rates, TierPlan};
use mancala_tables::{
    build, format, open_checked, pack, tier_path, verify, verify_with, verify_within, BuildOptions,
    FileError, Payload, Table, TableError, Tables, VerifyObserver, VerifyOptions, JOURNAL,
};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::time::Duration;

const HOUR: Duration = Duration::from_secs(3600);

fn rules(preset: Preset) -> Rules {
    Rules::new(Variant::new(preset, Options::default()).unwrap())
}

fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("mancala-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

fn build_in(dir: &Path, r: &Rules, max: usize, threads: usize, compress: bool) {
    build_with(dir, r, max, threads, compress, None, None);
}

/// A build within `memory` bytes, saving a checkpoint at most every `checkpoint_every` (a
/// checkpoint cuts phase 1 in slices of about that much work, at least the plan's: zero makes
/// the most, [`mancala_tables::plan::MAX_CHECKPOINT_SLICES`]).
fn build_with(
    dir: &Path,
    r: &Rules,
    max: usize,
    threads: usize,
    compress: bool,
    memory: Option<u64>,
    checkpoint_every: Option<Duration>,
) {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap();
    let opts = BuildOptions {
        dir: dir.to_path_buf(),
        max_seeds: max,
        compress,
        memory,
        checkpoint_every,
        repair: false,
    };
    pool.install(|| build(r, &opts, &())).unwrap();
}

#[test]
fn one_and_two_threads_write_identical_files() {
    for preset in [Preset::Awari, Preset::Kalah] {
        let r = rules(preset);
        let (a, b) = (scratch("t1"), scratch("t2"));
        build_in(&a, &r, 13, 1, false);
        build_in(&b, &r, 13, 2, false);
        let key = r.variant().key();
        for n in 0..=13 {
            let fa = std::fs::read(tier_path(&a, &key, n)).unwrap();
            let fb = std::fs::read(tier_path(&b, &key, n)).unwrap();
            assert!(fa == fb, "{key} tier {n} differs between 1 and 2 threads");
        }
        let _ = std::fs::remove_dir_all(&a);
        let _ = std::fs::remove_dir_all(&b);
    }
}

/// A budget too small for the lower tiers to stay in memory makes phase 1 scan them in
/// order, and one too small to keep the best exits in memory makes the builder keep them in
/// a file and take phase 1 in slices, each a scan: the files come out byte for byte as in
/// memory, for every Awari-type rule set and slice count (the budget is what the plan asks
/// for the tier at the end).
#[test]
fn budgeted_plans_write_the_same_files() {
    let wari = Rules::new(
        Variant::new(
            Preset::Wari,
            mancala_rules::Options {
                grand_slam: Some(mancala_rules::GrandSlam::ExtraMove),
                ..Default::default()
            },
        )
        .unwrap(),
    );
    for (r, max) in [
        (rules(Preset::Awari), 14),
        (rules(Preset::Oware), 13),
        (wari, 13),
    ] {
        let key = r.variant().key();
        let free = scratch("free");
        build_in(&free, &r, max, 2, false);
        // With room for it all, the top tier reads the lower tiers at random.
        let walk = &plan(&r, max, u64::MAX, 2, &Rates::default()).unwrap()[max];
        assert!(!walk.layout.scan && !walk.exits_on_disk(), "{key}");
        // Without a checkpoint, and with one too rare to add slices, phase 1 takes the plan's
        // slices; with one after every threshold (exits file and all), 64 slices stay 64.
        for (slices, every) in [(2u64, None), (3, Some(HOUR)), (64, Some(Duration::ZERO))] {
            // The least budget with which the top tier's exits fit in that many slices.
            let budget = least_budget(&r, max, |t| t.layout.slices as u64 <= slices);
            let planned = plan(&r, max, budget, 2, &Rates::default()).unwrap();
            assert!(planned[max].exits_on_disk(), "{key}: {budget} bytes");
            assert_eq!(planned[max].layout.slices as u64, slices, "{key}");
            let added = every.map_or(1, |e| checkpoint_slices(planned[max].positions, e, 2));
            assert!(
                added as u64 <= slices,
                "{key}: the checkpoint makes {added} slices"
            );
            let dir = scratch(&format!("budget{slices}"));
            build_with(&dir, &r, max, 2, false, Some(budget), every);
            for n in 0..=max {
                let a = std::fs::read(tier_path(&free, &key, n)).unwrap();
                let b = std::fs::read(tier_path(&dir, &key, n)).unwrap();
                assert!(a == b, "{key} tier {n} differs with {slices} slices");
            }
            let left: Vec<_> = std::fs::read_dir(dir.join(&key))
                .unwrap()
                .map(|e| e.unwrap().file_name())
                .filter(|f| !f.to_string_lossy().ends_with(".mtb") && f != ".lock")
                .collect();
            assert!(left.is_empty(), "{key}: {left:?} left behind");
            let _ = std::fs::remove_dir_all(&dir);
        }
        let _ = std::fs::remove_dir_all(&free);
    }
}

/// The least memory budget whose plan of tier `max` is `good` (and every tier fits).
fn least_budget(r: &Rules, max: usize, good: impl Fn(&TierPlan) -> bool) -> u64 {
    let ok = |b: u64| plan(r, max, b, 2, &Rates::default()).is_ok_and(|p| good(&p[max]));
    let (mut lo, mut hi) = (0u64, 1u64 << 40);
    assert!(ok(hi));
    while lo + 1 < hi {
        let mid = lo + (hi - lo) / 2;
        if ok(mid) {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    hi
}

/// A compressed tier built beyond memory is stored as zstd blocks of its values, which read
/// back without the lower tiers; the tiers below keep the smaller residual form. Every
/// position reads back as built raw, one at a time and decoded whole.
#[test]
fn tiers_beyond_memory_compress_to_blocks_read_back_alone() {
    use mancala_tables::format::Encoding;
    let r = rules(Preset::Awari);
    let key = r.variant().key();
    let max = 13;
    let raw = scratch("beyond-raw");
    build_in(&raw, &r, max, 2, false);
    // The least budget that builds at all keeps the top tier's exits on disk.
    let budget = least_budget(&r, max, |_| true);
    let top = &plan(&r, max, budget, 2, &Rates::default()).unwrap()[max];
    assert!(top.exits_on_disk(), "{budget}");
    let packed = scratch("beyond-packed");
    build_with(
        &packed,
        &r,
        max,
        2,
        true,
        Some(budget),
        Some(Duration::ZERO),
    );
    let ix = mancala_index::Indexer::new(&r, max).unwrap();
    let open = |dir: &Path, n| Table::open(&tier_path(dir, &key, n), &key, n, &ix, true).unwrap();
    assert_eq!(open(&packed, max).encoding(), Encoding::Zstd);
    assert_eq!(open(&packed, max - 1).encoding(), Encoding::Residual);
    let (a, b) = (
        open(&raw, max).file_bytes(),
        open(&packed, max).file_bytes(),
    );
    assert!(b * 10 < a * 6, "{b} bytes compressed of {a}");
    let values = open(&raw, max).raw().unwrap().to_vec();
    let tables = Tables::open(&packed, &r, max, Payload::Checked).unwrap();
    for (rank, board) in ix.walk(max).enumerate() {
        assert_eq!(
            tables.probe(board).unwrap(),
            Some(values[rank] as i8),
            "{board:?}"
        );
    }
    let mut decoded = Tables::open(&packed, &r, max, Payload::Checked).unwrap();
    decoded.decode_up_to(max).unwrap();
    assert_eq!(decoded.values(max).unwrap(), &values[..]);
    drop((tables, decoded));
    // Packing again rewrites nothing; unpacking writes every tier raw (the top one a batch
    // of blocks at a time, never decoded whole), byte for byte the raw build's files.
    assert_eq!(pack(&r, &packed, max, true).unwrap(), vec![]);
    let unpacked = pack(&r, &packed, max, false).unwrap();
    assert!(unpacked.iter().any(|t| t.0 == max), "{unpacked:?}");
    for n in 0..=max {
        let a = std::fs::read(tier_path(&raw, &key, n)).unwrap();
        let b = std::fs::read(tier_path(&packed, &key, n)).unwrap();
        assert!(a == b, "tier {n} differs after unpacking");
    }
    let _ = std::fs::remove_dir_all(&raw);
    let _ = std::fs::remove_dir_all(&packed);
}

/// `pack` up to the game's top tier (what `mancala pack` does without `--max-seeds`) writes
/// the same files as `pack` up to the top built tier, and as `build --compress`: the tiers
/// that are there are planned on their own, not all taken as beyond memory because the
/// game's biggest tiers would not fit this machine.
#[test]
fn pack_without_a_bound_packs_as_the_build_would() {
    use mancala_tables::format::Encoding;
    let r = rules(Preset::Awari);
    let key = r.variant().key();
    let max = 10;
    let (all, bounded, built) = (
        scratch("pack-all"),
        scratch("pack-bounded"),
        scratch("pack-built"),
    );
    build_in(&all, &r, max, 2, false);
    build_in(&bounded, &r, max, 2, false);
    build_in(&built, &r, max, 2, true);
    let top = mancala_tables::top_tier(&r);
    assert!(top > max + 20, "{top}");
    pack(&r, &all, top, true).unwrap();
    pack(&r, &bounded, max, true).unwrap();
    let ix = mancala_index::Indexer::new(&r, max).unwrap();
    for n in 0..=max {
        let a = std::fs::read(tier_path(&all, &key, n)).unwrap();
        let b = std::fs::read(tier_path(&bounded, &key, n)).unwrap();
        let c = std::fs::read(tier_path(&built, &key, n)).unwrap();
        assert!(a == b && b == c, "tier {n} differs");
    }
    let t = Table::open(&tier_path(&all, &key, max), &key, max, &ix, true).unwrap();
    assert_eq!(t.encoding(), Encoding::Residual);
    for d in [all, bounded, built] {
        let _ = std::fs::remove_dir_all(d);
    }
}

/// A budget below what a tier needs fails before anything is built, naming the size.
#[test]
fn a_budget_too_small_fails_at_once_with_the_size_needed() {
    let r = rules(Preset::Awari);
    let dir = scratch("tiny");
    let opts = BuildOptions {
        dir: dir.clone(),
        max_seeds: 12,
        compress: false,
        memory: Some(1 << 20),
        checkpoint_every: None,
        repair: false,
    };
    let err = build(&r, &opts, &()).unwrap_err();
    match &err {
        mancala_tables::TableError::Memory { needed, budget, .. } => {
            assert!(*needed > 1 << 20 && *budget == 1 << 20)
        }
        e => panic!("wrong error: {e}"),
    }
    assert!(err.to_string().contains("MB of memory"), "{err}");
    assert!(!dir.join(r.variant().key()).exists(), "nothing built");
}

/// Compressed tables give every value back: read one position at a time straight from the
/// files, decoded whole, and turned back into raw files byte for byte; and they are small.
#[test]
fn compressed_tables_read_the_same_and_are_small() {
    for preset in [Preset::Awari, Preset::Kalah] {
        let r = rules(preset);
        let max = 14;
        let (raw, packed) = (scratch("raw"), scratch("packed"));
        build_in(&raw, &r, max, 2, false);
        build_in(&packed, &r, max, 2, true);
        let key = r.variant().key();
        let raw_tables = Tables::open(&raw, &r, max, Payload::Checked).unwrap();
        let mut packed_tables = Tables::open(&packed, &r, max, Payload::Checked).unwrap();
        let ix = raw_tables.indexer();
        // One position at a time, from the compressed files.
        for n in 0..=max {
            assert!(packed_tables.tier(n).unwrap().is_compressed());
            for b in ix.walk(n).step_by(997) {
                assert_eq!(
                    raw_tables.probe(b).unwrap(),
                    packed_tables.probe(b).unwrap()
                );
            }
        }
        // Whole tiers.
        packed_tables.decode_all().unwrap();
        let (mut raw_bytes, mut packed_bytes) = (0, 0);
        for n in 0..=max {
            assert_eq!(
                raw_tables.values(n),
                packed_tables.values(n),
                "{key} tier {n}"
            );
            if n >= 10 {
                raw_bytes += raw_tables.tier(n).unwrap().file_bytes();
                packed_bytes += packed_tables.tier(n).unwrap().file_bytes();
            }
        }
        // Measured on tiers 10..14: about 0.28 (Awari) and 0.21 (Kalah) of the raw size.
        assert!(
            packed_bytes * 3 <= raw_bytes,
            "{key}: compressed {packed_bytes} bytes is more than a third of {raw_bytes}"
        );
        eprintln!(
            "{key}: tiers 10..{max} compress to {:.3}",
            packed_bytes as f64 / raw_bytes as f64
        );
        // Unpacking gives the raw files back, byte for byte.
        drop(packed_tables);
        pack(&r, &packed, max, false).unwrap();
        for n in 0..=max {
            let a = std::fs::read(tier_path(&raw, &key, n)).unwrap();
            let b = std::fs::read(tier_path(&packed, &key, n)).unwrap();
            assert!(a == b, "{key} tier {n} differs after unpacking");
        }
        let _ = std::fs::remove_dir_all(&raw);
        let _ = std::fs::remove_dir_all(&packed);
    }
}

/// Rewrites a header field and re-seals the header checksum, as a careless tool would.
fn patch_header(path: &Path, at: usize, bytes: &[u8]) {
    let mut f = std::fs::read(path).unwrap();
    f[at..at + bytes.len()].copy_from_slice(bytes);
    let sum = xxhash_rust::xxh3::xxh3_64(&f[..120]);
    f[120..128].copy_from_slice(&sum.to_le_bytes());
    std::fs::write(path, f).unwrap();
}

#[test]
fn bad_files_are_rejected_with_clear_errors() {
    let r = rules(Preset::Awari);
    let dir = scratch("bad");
    build_in(&dir, &r, 9, 2, false);
    let key = r.variant().key();
    let n = 9;
    let path = tier_path(&dir, &key, n);
    let ix = mancala_index::Indexer::new(&r, 9).unwrap();
    let good = std::fs::read(&path).unwrap();
    let open = || Table::open(&path, &key, n, &ix, true);
    assert!(open().is_ok());

    // Truncated.
    std::fs::write(&path, &good[..good.len() - 10]).unwrap();
    let e = open().err().unwrap();
    assert!(matches!(e, FileError::Corrupt { .. }), "{e}");
    assert!(e.to_string().contains("truncated"), "{e}");
    std::fs::write(&path, &good[..50]).unwrap();
    assert!(matches!(open().err().unwrap(), FileError::Corrupt { .. }));

    // One bit flipped in the payload, and one in the header.
    let mut flipped = good.clone();
    flipped[format::HEADER_LEN + 1000] ^= 0x04;
    std::fs::write(&path, &flipped).unwrap();
    let e = open().err().unwrap();
    assert!(matches!(e, FileError::Checksum { .. }), "{e}");
    let mut flipped = good.clone();
    flipped[16] ^= 0x01;
    std::fs::write(&path, &flipped).unwrap();
    assert!(matches!(open().err().unwrap(), FileError::Corrupt { .. }));

    // Another rule set's table in this folder.
    std::fs::write(&path, &good).unwrap();
    let e = Table::open(&path, "oware-6x4", n, &ix, true).err().unwrap();
    assert!(matches!(e, FileError::WrongVariant { .. }), "{e}");
    assert!(e.to_string().contains("awari-6x4"), "{e}");

    // Another format version.
    patch_header(&path, 8, &99u32.to_le_bytes());
    let e = open().err().unwrap();
    assert!(matches!(e, FileError::Version { found: 99, .. }), "{e}");
    assert!(e.to_string().contains("reads versions 2 and 3"), "{e}");

    // Not a table at all.
    std::fs::write(&path, vec![7u8; 4096]).unwrap();
    assert!(open().err().unwrap().to_string().contains("magic"));

    // A missing tier is named with its rule set and folder; what to run is the caller's to
    // say (the command line writes out the build command).
    std::fs::remove_file(&path).unwrap();
    let tables = Tables::open(&dir, &r, 9, Payload::Checked).unwrap();
    let e = tables
        .probe(r.start().flip(6))
        .err()
        .unwrap_or_else(|| tables.missing(48));
    assert!(matches!(e, TableError::Missing { tier: 48, .. }), "{e}");
    let m = tables.missing(9).to_string();
    assert!(m.contains("tier 9 of awari-6x4"), "{m}");
    assert!(m.contains(dir.to_str().unwrap()), "{m}");
    assert!(!m.contains("mancala build"), "{m}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_damaged_tier_is_rebuilt_and_the_verifier_catches_wrong_values() {
    let r = rules(Preset::Oware);
    let dir = scratch("verify");
    build_in(&dir, &r, 10, 2, false);
    let key = r.variant().key();
    assert!(verify(&r, &dir, 0..=10).unwrap().first_bad.is_none());

    // Change one value and re-seal the checksum: only recomputation can see it.
    let path = tier_path(&dir, &key, 10);
    let rank = 12_345;
    plant_wrong_value(&path, rank);
    let report = verify(&r, &dir, 0..=10).unwrap();
    let bad = report.first_bad.expect("the changed value is found");
    assert_eq!(bad.tier, 10);
    assert_eq!(bad.path, path);
    assert!(bad.rank <= rank as u64);
    // Checking the top tier alone finds the same entry, and reports that tier alone.
    let top = verify(&r, &dir, 10..=10).unwrap();
    assert_eq!(top.tiers.len(), 1);
    assert_eq!(top.tiers[0].0, 10);
    let b = top.first_bad.expect("found checking tier 10 alone");
    assert_eq!((b.tier, b.rank, b.stored), (bad.tier, bad.rank, bad.stored));
    // With too little memory for the tiers at random, the verifier reads the lower tiers in
    // order, a slice at a time, and finds the same entry (and nothing in sound tiers).
    let tables = Tables::open(&dir, &r, 10, Payload::Checked).unwrap();
    // (360,000 bytes: the tier's own values are read through its mapping; 600,000: the tier
    // fits beside its slices, and a resident copy serves them.)
    for budget in [360_000u64, 600_000, 1_000_000, 3_000_000] {
        let scanned = verify_within(&tables, 0..=10, budget).unwrap();
        let b = scanned.first_bad.expect("found reading in order");
        assert_eq!(
            (b.tier, b.rank, b.stored, b.recomputed),
            (bad.tier, bad.rank, bad.stored, bad.recomputed)
        );
        assert!(verify_within(&tables, 0..=9, budget)
            .unwrap()
            .first_bad
            .is_none());
    }
    drop(tables);
    // A lower tier gone: the top tier read in order names it (at random, its first position
    // whose moves lead there is the bad entry).
    let gone = tier_path(&dir, &key, 6);
    let kept = std::fs::read(&gone).unwrap();
    std::fs::remove_file(&gone).unwrap();
    let tables = Tables::open(&dir, &r, 10, Payload::Checked).unwrap();
    match verify_within(&tables, 10..=10, 360_000) {
        Err(TableError::Missing { tier: 6, .. }) => {}
        other => panic!("expected tier 6 missing, got {other:?}"),
    }
    drop(tables);
    std::fs::write(&gone, kept).unwrap();

    // A flipped bit makes the builder rebuild that tier, and only that tier.
    let mut f = std::fs::read(&path).unwrap();
    f[format::HEADER_LEN + rank] ^= 0x10;
    std::fs::write(&path, &f).unwrap();
    let reports = build(
        &r,
        &BuildOptions {
            dir: dir.clone(),
            max_seeds: 10,
            compress: false,
            memory: None,
            checkpoint_every: None,
            repair: false,
        },
        &(),
    )
    .unwrap();
    let rebuilt: Vec<usize> = reports
        .iter()
        .filter(|t| !t.reused)
        .map(|t| t.seeds)
        .collect();
    assert_eq!(rebuilt, vec![10]);
    assert!(verify(&r, &dir, 0..=10).unwrap().first_bad.is_none());
    let _ = std::fs::remove_dir_all(&dir);
}

/// Counts the progress a verification reports.
#[derive(Default)]
struct Count(AtomicU64);

impl VerifyObserver for Count {
    fn progress(&self, units: u64) {
        self.0.fetch_add(units, Relaxed);
    }
}

/// Changes the value at `rank` of the tier in `path` and re-seals the file's checksums, so that only a
/// recomputation can see it.
fn plant_wrong_value(path: &Path, rank: usize) {
    let mut f = std::fs::read(path).unwrap();
    f[format::HEADER_LEN + rank] = f[format::HEADER_LEN + rank].wrapping_add(2);
    let sum = format::checksum(&f[format::HEADER_LEN..]);
    f[40..48].copy_from_slice(&sum.to_le_bytes());
    let hsum = xxhash_rust::xxh3::xxh3_64(&f[..120]);
    f[120..128].copy_from_slice(&hsum.to_le_bytes());
    std::fs::write(path, &f).unwrap();
}

/// A verification records what it found right, stretch by stretch, and the next one goes
/// on from there while the files are the same; a file changed since (even with its
/// checksums re-sealed) is checked again.
#[test]
fn a_verification_goes_on_from_its_journal() {
    let r = rules(Preset::Awari);
    let dir = scratch("journal");
    let max = 12;
    build_in(&dir, &r, max, 2, false);
    let key = r.variant().key();
    let journal = dir.join(&key).join(JOURNAL);
    let sizes: Vec<u64> = {
        let t = open_checked(&r, &dir, max).unwrap();
        (0..=max).map(|n| t.indexer().size(n)).collect()
    };
    let total: u64 = sizes.iter().sum();
    let run = |resume: bool, budget: u64| {
        let count = Count::default();
        let tables = open_checked(&r, &dir, max).unwrap();
        let opts = VerifyOptions {
            budget,
            resume,
            record: true,
            observer: &count,
        };
        let report = verify_with(&tables, 0..=max, &opts).unwrap();
        (report, count.0.load(Relaxed))
    };
    let roomy = 1 << 30;

    // Without the journal: every value checked, every tier recorded whole.
    let (report, units) = run(false, roomy);
    assert!(report.first_bad.is_none() && report.earlier.is_empty());
    assert_eq!(units, total);
    let text = std::fs::read_to_string(&journal).unwrap();
    for (n, size) in sizes.iter().enumerate().filter(|t| *t.1 > 0) {
        assert!(text.contains(&format!("tier={n} ")), "{text}");
        assert!(text.contains(&format!(" done={size}\n")), "{text}");
    }
    // Again: nothing left to check.
    let (report, units) = run(true, roomy);
    assert!(report.first_bad.is_none());
    assert_eq!(report.earlier.iter().map(|t| t.1).sum::<u64>(), total);
    assert_eq!(units, 0);
    // Tables opened without their payloads checked neither use the journal nor add to it.
    let unchecked = Tables::open(&dir, &r, max, Payload::Unchecked).unwrap();
    let opts = VerifyOptions {
        resume: true,
        record: true,
        ..VerifyOptions::default()
    };
    let report = verify_with(&unchecked, 0..=max, &opts).unwrap();
    assert!(report.first_bad.is_none() && report.earlier.is_empty());
    assert_eq!(std::fs::read_to_string(&journal).unwrap(), text);
    drop(unchecked);

    // A journal that stops in the middle of the top tier (a killed run): the next run goes
    // on from the block that holds that rank, reading the lower tiers in order (each position
    // counted twice: its exit, then its check).
    let cut = sizes[max] / 2 + 7;
    let kept: String = text
        .lines()
        .filter(|l| !l.contains(&format!("tier={max} ")))
        .map(|l| format!("{l}\n"))
        .collect();
    let top = text
        .lines()
        .find(|l| l.contains(&format!("tier={max} ")))
        .unwrap();
    let partial = top.replace(&format!("done={}", sizes[max]), &format!("done={cut}"));
    std::fs::write(&journal, format!("{kept}{partial}\n")).unwrap();
    let (report, units) = run(true, 2_000_000);
    assert!(report.first_bad.is_none());
    let (n, earlier) = *report.earlier.last().unwrap();
    assert_eq!(n, max);
    assert!(earlier > 0 && earlier <= cut, "{earlier} of {cut}");
    assert_eq!(units, 2 * (sizes[max] - earlier));

    // A value changed in the top tier, the file re-sealed: its records no longer hold (the
    // tiers below still do), and the changed value is found.
    let path = tier_path(&dir, &key, max);
    plant_wrong_value(&path, 2 * cut as usize / 3);
    for budget in [roomy, 2_000_000] {
        let (report, _) = run(true, budget);
        assert!(
            report.earlier.iter().all(|t| t.0 < max),
            "{:?}",
            report.earlier
        );
        let bad = report.first_bad.expect("the changed value is found");
        assert_eq!(bad.tier, max);
        assert!(bad.rank <= 2 * cut / 3);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Format version 3 records the order of the positions. A version-2 file is still read where
/// the order did not change (every rule set but the Awari type) and rejected where it did.
#[test]
fn version_two_files_are_read_where_the_order_is_the_same() {
    let dir = scratch("v2");
    for (preset, readable) in [(Preset::Kalah, true), (Preset::Awari, false)] {
        let r = rules(preset);
        build_in(&dir, &r, 6, 1, false);
        let key = r.variant().key();
        let path = tier_path(&dir, &key, 6);
        let ix = mancala_index::Indexer::new(&r, 6).unwrap();
        assert!(Table::open(&path, &key, 6, &ix, true).is_ok());
        patch_header(&path, 8, &2u32.to_le_bytes());
        patch_header(&path, 25, &[0]);
        let opened = Table::open(&path, &key, 6, &ix, true);
        match readable {
            true => assert!(opened.is_ok(), "{preset}"),
            false => assert!(
                matches!(opened, Err(FileError::Version { found: 2, .. })),
                "{preset}"
            ),
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A game started with 3 seeds a pit has the same tiers below its start's as the 4-seed game
/// (the rules do not depend on the start, and such a tier holds every position of its seeds
/// that can arise in either game), so its tables hold the same values; the files differ in
/// their rule set's key and cannot stand in for each other. This is what lets a 3-seeds build
/// give Awari's tiers 0..34 (docs/results.md; the start's tier 36 holds one position more,
/// the start itself).
#[test]
fn three_seeds_a_pit_gives_the_four_seed_games_tiers() {
    for preset in [Preset::Awari, Preset::Oware] {
        let four = rules(preset);
        let three = Rules::new(
            Variant::new(
                preset,
                Options {
                    seeds: Some(3),
                    ..Options::default()
                },
            )
            .unwrap(),
        );
        let (a, b) = (scratch("four"), scratch("three"));
        let max = 13;
        build_in(&a, &four, max, 2, false);
        build_in(&b, &three, max, 2, false);
        let fours = Tables::open(&a, &four, max, Payload::Checked).unwrap();
        let threes = Tables::open(&b, &three, max, Payload::Checked).unwrap();
        for n in 0..=max {
            let (x, y) = (fours.values(n).unwrap(), threes.values(n).unwrap());
            assert!(!x.is_empty() || n == 0);
            assert!(x == y, "{preset:?} tier {n}");
        }
        assert_ne!(four.variant().key(), three.variant().key());
        let wrong = Table::open(
            &tier_path(&b, &three.variant().key(), max),
            &four.variant().key(),
            max,
            &mancala_index::Indexer::new(&four, max).unwrap(),
            true,
        );
        assert!(
            wrong.is_err(),
            "a 3-seeds file is not opened as a 4-seed one"
        );
        let _ = std::fs::remove_dir_all(&a);
        let _ = std::fs::remove_dir_all(&b);
    }
}

/// The machine's memory, for the tests of the guards that go by it; `None`, said on stderr,
/// where it is unknown (not Linux), and the test then checks nothing.
fn physical_memory_or_skip() -> Option<u64> {
    let memory = mancala_tables::physical_memory();
    if memory.is_none() {
        eprintln!("skipped: the physical memory is unknown here");
    }
    memory
}

/// Writes a compressed tier `k` of `r` into `dir` that holds only a header and an offset table
/// of empty blocks: a file of any tier's size on paper, for the guards that read headers
/// alone (decoding it fails).
fn write_empty_packed_tier(dir: &Path, r: &Rules, ix: &mancala_index::Indexer, k: usize) {
    let key = r.variant().key();
    std::fs::create_dir_all(dir.join(&key)).unwrap();
    let offsets = vec![0u8; 8 * (format::blocks_for(ix.size(k)) + 1)];
    let path = tier_path(dir, &key, k);
    mancala_tables::write_table(&path, &key, k, ix, format::Encoding::Residual, &offsets).unwrap();
}

/// A compressed build holds the tiers below decoded in memory: where that would not fit in
/// the machine's memory it is refused before anything is built, not left to run out of it.
#[test]
fn a_compressed_build_beyond_the_machines_memory_is_refused_at_once() {
    let r = rules(Preset::Awari);
    let Some(memory) = physical_memory_or_skip() else {
        return;
    };
    let budget = mancala_tables::plan::default_budget();
    let ix = mancala_index::Indexer::new(&r, 40).unwrap();
    let lower = |n: usize| (0..n).map(|k| ix.size(k)).sum::<u64>();
    // The first build whose plan fits the budget but whose decoded tiers would not fit.
    let Some(max) = (20..=40).find(|&max| {
        plan(&r, max, budget, 2, &Rates::default()).is_ok_and(|p| {
            p.iter()
                .any(|t| !t.lower_resident && t.memory + lower(t.seeds) > memory)
        })
    }) else {
        // A machine whose memory holds every tier up to 40 decoded.
        eprintln!("skipped: this machine's memory holds every tier up to 40 decoded");
        return;
    };
    let dir = scratch("compress-too-big");
    let opts = BuildOptions {
        dir: dir.clone(),
        max_seeds: max,
        compress: true,
        memory: Some(budget),
        checkpoint_every: None,
        repair: false,
    };
    match build(&r, &opts, &()) {
        Err(TableError::CompressedTooBig {
            needed, memory: m, ..
        }) => {
            assert!(needed > m && m == memory)
        }
        other => panic!("not refused: {other:?}"),
    }
    assert!(!dir.join(r.variant().key()).exists(), "nothing built");
}

/// A raw build over tiers packed already decodes them into memory too: a packed lower tier
/// too big to hold beside the plan of a tier that scans is refused before anything is built.
/// (The packed tier is a header and an offset table of empty blocks: only its header is read.)
#[test]
fn a_build_over_packed_tiers_beyond_the_machines_memory_is_refused_at_once() {
    let r = rules(Preset::Awari);
    let Some(memory) = physical_memory_or_skip() else {
        return;
    };
    let budget = mancala_tables::plan::default_budget();
    let ix = mancala_index::Indexer::new(&r, 44).unwrap();
    // A tier whose lower tiers pass through, and a tier below it that would not fit beside
    // its plan decoded.
    let found = (20..=44).find_map(|max| {
        let plans = plan(&r, max, budget, 2, &Rates::default()).ok()?;
        plans.iter().filter(|t| !t.lower_resident).find_map(|top| {
            let k = (0..top.seeds).find(|&k| top.memory + ix.size(k) > memory)?;
            Some((top.seeds, k))
        })
    });
    let Some((max, k)) = found else {
        // A machine whose memory holds every tier up to 44 decoded.
        eprintln!("skipped: this machine's memory holds every tier up to 44 decoded");
        return;
    };
    let dir = scratch("packed-too-big");
    let key = r.variant().key();
    write_empty_packed_tier(&dir, &r, &ix, k);
    let opts = BuildOptions {
        dir: dir.clone(),
        max_seeds: max,
        compress: false,
        memory: Some(budget),
        checkpoint_every: None,
        repair: false,
    };
    match build(&r, &opts, &()) {
        Err(TableError::CompressedTooBig {
            tier,
            needed,
            memory: m,
            ..
        }) => assert!(tier <= max && needed > m && m == memory),
        other => panic!("not refused: {other:?}"),
    }
    assert!(!tier_path(&dir, &key, 0).exists(), "nothing built");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Reading compressed tables whose decoded tiers would not fit in the machine's memory is
/// refused at once with the size, not left to run out of memory (the packed tier is a
/// header and an offset table of empty blocks: nothing of it is decoded).
#[test]
fn compressed_tables_too_big_to_decode_are_refused_at_once() {
    let r = rules(Preset::Awari);
    let Some(memory) = physical_memory_or_skip() else {
        return;
    };
    let ix = mancala_index::Indexer::new(&r, 48).unwrap();
    let Some(k) = (0..=48).find(|&k| ix.size(k) > memory) else {
        // A machine whose memory holds Awari's biggest tier.
        eprintln!("skipped: this machine's memory holds Awari's biggest tier");
        return;
    };
    let dir = scratch("too-big-to-decode");
    write_empty_packed_tier(&dir, &r, &ix, k);
    let mut tables = Tables::open(&dir, &r, k, Payload::Unchecked).unwrap();
    match tables.decode_all() {
        Err(TableError::TooBigToDecode {
            needed, memory: m, ..
        }) => {
            assert!(needed == ix.size(k) && m == memory)
        }
        other => panic!("not refused: {other:?}"),
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// What a progress display is told while a tier with cycles is built: the tier, its work,
/// the phases (best exits, then each threshold from the top), and all the work done.
#[test]
fn a_build_reports_its_phases_and_work() {
    use mancala_tables::{BuildObserver, TierReport};
    use std::sync::Mutex;
    #[derive(Default)]
    struct Seen {
        started: Mutex<Vec<(usize, u64)>>,
        phases: Mutex<Vec<String>>,
        done: AtomicU64,
    }
    impl BuildObserver for Seen {
        fn tier_started(&self, seeds: usize, _positions: u64, work: u64) {
            self.started.lock().unwrap().push((seeds, work));
            self.done.store(0, Relaxed);
            self.phases.lock().unwrap().clear();
        }
        fn progress(&self, units: u64) {
            self.done.fetch_add(units, Relaxed);
        }
        fn phase(&self, what: &str) {
            self.phases.lock().unwrap().push(what.to_string());
        }
        fn tier_finished(&self, _report: &TierReport) {}
    }
    let r = rules(Preset::Awari);
    let dir = scratch("phases");
    let seen = Seen::default();
    let opts = BuildOptions {
        dir: dir.clone(),
        max_seeds: 9,
        compress: false,
        memory: None,
        checkpoint_every: None,
        repair: false,
    };
    build(&r, &opts, &seen).unwrap();
    let started = seen.started.lock().unwrap().clone();
    assert_eq!(
        started.iter().map(|s| s.0).collect::<Vec<_>>(),
        (0..=9).collect::<Vec<_>>()
    );
    // The last tier's phases, and its work all reported.
    let phases = seen.phases.lock().unwrap().clone();
    let thresholds: Vec<String> = (1..=9).rev().map(|t| format!("threshold {t}/9")).collect();
    assert_eq!(phases[0], "best exits");
    assert_eq!(phases[1..], thresholds[..]);
    assert_eq!(seen.done.load(Relaxed), started[9].1);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Pages of `path` in the page cache, and pages in all (`mincore` over a map of it).
#[cfg(target_os = "linux")]
fn resident_pages(path: &Path) -> (usize, usize) {
    use std::os::fd::AsRawFd;
    let f = std::fs::File::open(path).unwrap();
    let len = f.metadata().unwrap().len() as usize;
    let page = 4096;
    let pages = len.div_ceil(page);
    // SAFETY: a read-only shared map of a whole open file, unmapped below; `mincore` writes
    // one byte a page into a vector of that many.
    unsafe {
        let p = libc::mmap(
            std::ptr::null_mut(),
            len,
            libc::PROT_READ,
            libc::MAP_SHARED,
            f.as_raw_fd(),
            0,
        );
        assert_ne!(p, libc::MAP_FAILED);
        let mut v = vec![0u8; pages];
        assert_eq!(libc::mincore(p, len, v.as_mut_ptr()), 0);
        libc::munmap(p, len);
        (v.iter().filter(|&&b| b & 1 == 1).count(), pages)
    }
}

/// Writes `files` out and lets the page cache go of them; the pages let go.
#[cfg(target_os = "linux")]
fn evict(files: &[PathBuf]) -> usize {
    use std::os::fd::AsRawFd;
    let mut evicted = 0;
    for p in files {
        let f = std::fs::File::open(p).unwrap();
        f.sync_all().unwrap();
        // SAFETY: advice about an open file's cached pages.
        unsafe { libc::posix_fadvise(f.as_raw_fd(), 0, 0, libc::POSIX_FADV_DONTNEED) };
        let (cached, pages) = resident_pages(p);
        evicted += pages - cached;
    }
    evicted
}

#[cfg(target_os = "linux")]
#[test]
fn warm_reads_the_tiers_into_the_page_cache_within_its_budget() {
    // On disk, not in a memory file system, whose pages cannot be let go.
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("warm-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let r = rules(Preset::Awari);
    build_in(&dir, &r, 14, 2, false);
    let files: Vec<PathBuf> = (0..=14)
        .map(|n| tier_path(&dir, &r.variant().key(), n))
        .filter(|p| p.exists())
        .collect();
    let sizes: Vec<u64> = files
        .iter()
        .map(|p| std::fs::metadata(p).unwrap().len())
        .collect();
    let total: u64 = sizes.iter().sum();
    // Opened first: opening reads each header, and the kernel reads ahead around it.
    let t = Tables::open(&dir, &r, 14, Payload::Unchecked).unwrap();
    assert_eq!(t.mapped_bytes(), total);
    let evicted = evict(&files);
    let pages: usize = files.iter().map(|p| resident_pages(p).1).sum();
    if evicted < pages / 2 {
        eprintln!(
            "skipped: this file system kept {evicted} of {pages} pages it was told to let go"
        );
        let _ = std::fs::remove_dir_all(&dir);
        return;
    }
    // A budget for the tiers up to 13: those are read, tier 14 is not.
    let lower: u64 = sizes[..sizes.len() - 1].iter().sum();
    let mut read = 0;
    assert_eq!(t.warm(lower + 1, &mut |b| read += b), lower);
    assert_eq!(read, lower);
    let (cached, top) = resident_pages(files.last().unwrap());
    assert!(cached < top, "tier 14 was read: {cached} of {top} pages");
    // No limit: every tier whole.
    evict(&files);
    let mut read = 0;
    assert_eq!(t.warm(u64::MAX, &mut |b| read += b), total);
    assert_eq!(read, total);
    for p in &files {
        let (cached, pages) = resident_pages(p);
        assert_eq!(cached, pages, "{} not all read in", p.display());
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[cfg(target_os = "linux")]
#[test]
fn warm_stops_at_a_file_cut_short_under_it_watched_or_not() {
    let r = rules(Preset::Awari);
    for watching in [mancala_tables::Watching::On, mancala_tables::Watching::Off] {
        let dir = scratch(&format!("warm-cut-{watching:?}"));
        build_in(&dir, &r, 12, 2, false);
        let t = Tables::open_with(&dir, &r, 12, Payload::Unchecked, watching).unwrap();
        let top = tier_path(&dir, &r.variant().key(), 12);
        let whole = t.mapped_bytes();
        let cut = std::fs::metadata(&top).unwrap().len();
        std::fs::OpenOptions::new()
            .write(true)
            .open(&top)
            .unwrap()
            .set_len(100)
            .unwrap();
        // The tiers below are read whole; the cut one stops the reading, and nothing faults.
        let read = t.warm(u64::MAX, &mut |_| {});
        assert!(
            read >= whole - cut && read < whole,
            "{watching:?}: {read} of {whole}"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// A watched set notices, within its look at the files, what no header shows: a file renamed
/// over a tier (as a build's repair does), a payload written over in place, a tier removed, and
/// a missing tier put in place. A set not watched (a build's own) is never told.
#[test]
fn a_watched_set_notices_files_replaced_behind_it() {
    use mancala_tables::{FileError, TableError, Watching};
    let r = rules(Preset::Awari);
    let key = r.variant().key();
    let dir = scratch("replaced");
    build_in(&dir, &r, 10, 2, false);
    let tier = |n: usize| tier_path(&dir, &key, n);
    let spare = dir.join("spare.mtb");
    let open = |w| Tables::open_with(&dir, &r, 10, Payload::Unchecked, w).unwrap();
    // Past the set's look at the files (every 100 ms).
    let later = || std::thread::sleep(std::time::Duration::from_millis(150));
    let replaced = |t: &Tables, n: usize| match t.unchanged() {
        Err(TableError::File {
            file: FileError::Replaced { path },
            ..
        }) => assert_eq!(path, tier(n)),
        other => panic!("tier {n}: {other:?}"),
    };
    let put = |n: usize| {
        std::fs::copy(tier(n), &spare).unwrap();
        std::fs::rename(&spare, tier(n)).unwrap();
    };

    // Renamed over, the same bytes: the file is another.
    let t = open(Watching::On);
    t.unchanged().unwrap();
    put(9);
    later();
    replaced(&t, 9);
    let quiet = open(Watching::Off);
    // Written over in place, the header kept.
    let t = open(Watching::On);
    let t9 = std::fs::read(tier(9)).unwrap();
    std::fs::write(tier(9), &t9).unwrap();
    later();
    replaced(&t, 9);
    // Removed, and a missing one put back.
    std::fs::rename(tier(8), &spare).unwrap();
    let t = open(Watching::On);
    t.unchanged().unwrap();
    later();
    t.unchanged().unwrap();
    std::fs::rename(&spare, tier(8)).unwrap();
    later();
    replaced(&t, 8);
    let t = open(Watching::On);
    std::fs::remove_file(tier(10)).unwrap();
    later();
    replaced(&t, 10);
    // Not watched: nothing is looked at.
    later();
    quiet.unchanged().unwrap();
    let _ = std::fs::remove_dir_all(&dir);
}
