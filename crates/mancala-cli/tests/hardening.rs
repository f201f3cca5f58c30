//! What a careless user or an attacker does: numbers far out of range, special files where a
//! table should be, two builds into one folder, forged values, options that name nothing.
//! Every case ends within seconds with one line that says what to do, or does the right
//! thing; nothing panics or hangs.

mod common;

use common::{assert_one_line_errors, json, mancala, scratch, wait_within};
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_mancala");

/// Runs `mancala args`, killing it (and failing) if it takes longer than `limit`.
fn within(limit: Duration, args: &[&str]) -> Output {
    let mut child = Command::new(BIN)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    wait_within(&mut child, limit, &format!("{args:?}"));
    child.wait_with_output().unwrap()
}

fn text(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

fn build(dir: &Path, max: &str) {
    let out = mancala(&[
        "build",
        "awari",
        "--max-seeds",
        max,
        "--dir",
        dir.to_str().unwrap(),
        "-q",
    ]);
    assert!(out.status.success(), "{}", text(&out));
}

#[test]
fn numbers_out_of_range_get_one_line_each() {
    let dir = scratch("numbers");
    let d = dir.to_str().unwrap();
    let cases: &[(&[&str], &str)] = &[
        (
            &[
                "solve",
                "kalah",
                "--seeds",
                "3",
                "--tables",
                "0",
                "--max-seconds",
                "1e30",
            ],
            "--max-seconds",
        ),
        (
            &[
                "solve",
                "kalah",
                "--seeds",
                "3",
                "--tables",
                "0",
                "--max-seconds",
                "-1",
            ],
            "--max-seconds",
        ),
        (
            &[
                "solve",
                "kalah",
                "--seeds",
                "3",
                "--tables",
                "0",
                "--max-seconds",
                "NaN",
            ],
            "--max-seconds",
        ),
        (
            &[
                "play",
                "kalah",
                "--seeds",
                "3",
                "--engine",
                "north",
                "--max-seconds",
                "1e30",
            ],
            "--max-seconds",
        ),
        (
            &[
                "build",
                "awari",
                "--max-seeds",
                "8",
                "--threads",
                "10000",
                "--dir",
                d,
            ],
            "--threads 10000",
        ),
        (
            &[
                "build",
                "awari",
                "--max-seeds",
                "8",
                "--threads",
                "0",
                "--dir",
                d,
            ],
            "--threads 0",
        ),
        (
            &[
                "build",
                "awari",
                "--max-seeds",
                "8",
                "--threads",
                "-3",
                "--dir",
                d,
            ],
            "--threads",
        ),
        (
            &[
                "build",
                "awari",
                "--max-seeds",
                "99999999999999999999",
                "--dir",
                d,
            ],
            "--max-seeds",
        ),
        (
            &["build", "awari", "--max-seeds", "60", "--dir", d],
            "tiers go up to 48",
        ),
        (
            &["build", "awari", "--memory", "900T", "--dir", d],
            "--memory",
        ),
        (
            &["build", "awari", "--memory", "-5G", "--dir", d],
            "--memory",
        ),
        (
            &["build", "awari", "--checkpoint-minutes", "1e12", "--dir", d],
            "--checkpoint-minutes",
        ),
        (
            &["solve", "awari", "--tables", "200", "--dir", d],
            "--tables 200",
        ),
        (
            &["solve", "awari", "--hash", "99999999", "--dir", d],
            "--hash",
        ),
        (&["solve", "awari", "--hash", "0", "--dir", d], "--hash"),
        (
            &[
                "solve",
                "awari",
                "--reach-limit",
                "99999999999999",
                "--dir",
                d,
            ],
            "--reach-limit",
        ),
        (
            &[
                "query",
                "awari",
                "1 1 1 1 1 2 4 2 3 0 0 0",
                "--threads",
                "100000",
                "--dir",
                d,
            ],
            "--threads",
        ),
        (
            &["verify", "awari", "--threads", "100000", "--dir", d],
            "--threads",
        ),
        (&["play", "awari", "--pits", "99999999999"], "--pits"),
        (&["play", "awari", "--seeds", "-4"], "--seeds"),
        (
            &[
                "play",
                "bao-kiswahili",
                "--engine",
                "north",
                "--depth",
                "99",
            ],
            "--depth",
        ),
        (
            &[
                "solve",
                "mankala-4p",
                "--pits",
                "1",
                "--seeds",
                "2",
                "--node-limit",
                "0",
            ],
            "--node-limit",
        ),
        (
            &["plan", "awari", "--max-seeds", "48", "--threads", "0"],
            "--threads",
        ),
        (
            &["plan", "awari", "--max-seeds", "48", "--ranks", "0"],
            "--ranks",
        ),
        (
            &["plan", "awari", "--max-seeds", "48", "--network", "-1"],
            "--network",
        ),
        (
            &["plan", "awari", "--max-seeds", "48", "--rate", "1e-300"],
            "--rate must be from 0.001",
        ),
        (
            &["plan", "awari", "--max-seeds", "48", "--network", "0"],
            "--network must be from 0.001",
        ),
        (
            &["serve", "--max-seconds", "1e30", "--dir", d],
            "--max-seconds",
        ),
        // Below the least a request may ask for, every request would be refused.
        (
            &["serve", "--max-seconds", "0.005", "--dir", d],
            "--max-seconds must be from 0.01",
        ),
        (&["serve", "--threads", "100000", "--dir", d], "--threads"),
        (&["serve", "--searches", "0", "--dir", d], "--searches"),
        (&["serve", "--hash", "0", "--dir", d], "--hash"),
    ];
    let start = Instant::now();
    assert_one_line_errors(cases);
    assert!(
        start.elapsed() < Duration::from_secs(30),
        "{:?}",
        start.elapsed()
    );
    assert!(!dir.exists(), "nothing was built");
}

#[test]
fn special_files_at_a_tables_path_are_errors_that_name_them() {
    let dir = scratch("special");
    build(&dir, "10");
    let d = dir.to_str().unwrap();
    let tier = dir.join("awari-6x4/tier-010.mtb");
    let named = tier.display().to_string();
    // A named pipe: opening it would wait for a writer for ever.
    std::fs::remove_file(&tier).unwrap();
    let made = Command::new("mkfifo").arg(&tier).status().unwrap();
    assert!(made.success());
    let limit = Duration::from_secs(20);
    for args in [
        vec!["query", "awari", "0 0 1 2 0 3 1 0 0 2 0 1", "--dir", d],
        vec!["verify", "awari", "--dir", d],
        vec!["info", "--dir", d],
    ] {
        let out = within(limit, &args);
        let t = text(&out);
        assert!(!out.status.success(), "{args:?}: {t}");
        assert!(
            t.contains(&named) && t.contains("named pipe"),
            "{args:?}: {t}"
        );
    }
    // A build replaces it with the tier, saying so.
    let out = within(
        limit,
        &["build", "awari", "--max-seeds", "10", "--dir", d, "-q"],
    );
    assert!(out.status.success(), "{}", text(&out));
    assert!(text(&out).contains("named pipe"));
    assert!(std::fs::metadata(&tier).unwrap().is_file());
    // A folder: the build stops, naming it, and leaves no temporary file.
    std::fs::remove_file(&tier).unwrap();
    std::fs::create_dir(&tier).unwrap();
    let out = within(
        limit,
        &["build", "awari", "--max-seeds", "10", "--dir", d, "-q"],
    );
    let t = text(&out);
    assert!(!out.status.success());
    assert!(
        t.contains(&named) && t.contains("is a folder") && t.contains("remove it"),
        "{t}"
    );
    let tmp: Vec<_> = std::fs::read_dir(dir.join("awari-6x4"))
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|f| f.ends_with(".tmp"))
        .collect();
    assert!(tmp.is_empty(), "{tmp:?}");
}

#[test]
fn two_builds_into_one_folder_both_end_with_the_same_files() {
    let single = scratch("concurrent-single");
    build(&single, "15");
    for run in 0..3 {
        let dir = scratch(&format!("concurrent-{run}"));
        let d = dir.to_str().unwrap();
        let args = ["build", "awari", "--max-seeds", "15", "--dir", d, "-q"];
        let a = Command::new(BIN).args(args).output_async();
        let b = Command::new(BIN).args(args).output_async();
        let (a, b) = (a.join().unwrap(), b.join().unwrap());
        assert!(a.status.success(), "{}", text(&a));
        assert!(b.status.success(), "{}", text(&b));
        for n in 0..=15 {
            let f = format!("awari-6x4/tier-{n:03}.mtb");
            assert!(
                std::fs::read(single.join(&f)).unwrap() == std::fs::read(dir.join(&f)).unwrap(),
                "{f}"
            );
        }
    }
}

/// Starting a command without waiting for it.
trait Async {
    fn output_async(&mut self) -> std::thread::JoinHandle<Output>;
}

impl Async for Command {
    fn output_async(&mut self) -> std::thread::JoinHandle<Output> {
        let child = self
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        std::thread::spawn(move || child.wait_with_output().unwrap())
    }
}

#[test]
fn a_forged_value_is_found_by_verify_and_repaired_by_build_repair() {
    let dir = scratch("forged");
    build(&dir, "9");
    let d = dir.to_str().unwrap();
    let tier = dir.join("awari-6x4/tier-009.mtb");
    let good = std::fs::read(&tier).unwrap();
    // One value changed, and the header's checksum made to match (see docs/table-format.md).
    let mut bytes = good.clone();
    bytes[128 + 1000] = (bytes[128 + 1000] as i8 + 1) as u8;
    let sum = xxh3(&bytes[128..]);
    bytes[40..48].copy_from_slice(&sum.to_le_bytes());
    let head = xxh3(&bytes[..120]);
    bytes[120..128].copy_from_slice(&head.to_le_bytes());
    std::fs::write(&tier, &bytes).unwrap();
    // A plain build trusts a file whose checksum holds.
    build(&dir, "9");
    assert_eq!(std::fs::read(&tier).unwrap(), bytes);
    let out = mancala(&["verify", "awari", "--dir", d]);
    let t = text(&out);
    assert!(!out.status.success());
    assert!(
        t.contains("tier 9 rank 1,000") && t.contains("--repair"),
        "{t}"
    );
    // The same as JSON for scripts, and the command still fails.
    let out = mancala(&["verify", "awari", "--dir", d, "--json"]);
    assert!(!out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["ok"], false);
    assert_eq!(
        (
            v["first_bad"]["tier"].as_u64(),
            v["first_bad"]["rank"].as_u64()
        ),
        (Some(9), Some(1000))
    );
    assert_eq!(
        v["first_bad"]["stored"].as_i64().unwrap(),
        v["first_bad"]["recomputed"].as_i64().unwrap() + 1
    );
    // The top tier alone finds it too; a bottom above the top is refused.
    let t = text(&mancala(&[
        "verify",
        "awari",
        "--min-seeds",
        "9",
        "--dir",
        d,
    ]));
    assert!(t.contains("tier 9 rank 1,000"), "{t}");
    let out = mancala(&["verify", "awari", "--min-seeds", "10", "--dir", d]);
    assert!(!out.status.success());
    assert!(
        text(&out).contains("--min-seeds 10 is above"),
        "{}",
        text(&out)
    );
    let out = mancala(&[
        "build",
        "awari",
        "--max-seeds",
        "9",
        "--dir",
        d,
        "--repair",
        "-q",
    ]);
    assert!(out.status.success(), "{}", text(&out));
    assert!(text(&out).contains("rebuilding"), "{}", text(&out));
    assert_eq!(std::fs::read(&tier).unwrap(), good);
    assert!(mancala(&["verify", "awari", "--dir", d]).status.success());
    // What that run checked is in its journal: the next one has nothing left, unless fresh.
    let v = json(&["verify", "awari", "--dir", d, "--json"]);
    assert_eq!(v["ok"], true);
    assert_eq!(v["tiers"].as_array().unwrap().len(), 10);
    assert!(v["positions"].as_u64().unwrap() > 100_000);
    assert_eq!(v["earlier"], v["positions"]);
    assert!(v["first_bad"].is_null());
    let v = json(&["verify", "awari", "--dir", d, "--json", "--fresh"]);
    assert_eq!(
        (v["ok"].as_bool(), v["earlier"].as_u64()),
        (Some(true), Some(0))
    );
    let out = mancala(&["verify", "awari", "--min-seeds", "8", "--dir", d]);
    assert!(out.status.success(), "{}", text(&out));
    assert!(
        text(&out).contains("ok: 2 tiers") && text(&out).contains("tiers 8..=9"),
        "{}",
        text(&out)
    );
}

/// xxh3-64, as the table format uses it (the tests of this crate keep no hash dependency).
fn xxh3(bytes: &[u8]) -> u64 {
    xxhash_rust::xxh3::xxh3_64(bytes)
}

/// A tier deleted from the middle of a set: `pack` refuses the set before it rewrites a
/// file, names the missing tier and the build that fills it, and fails, rather than pack the
/// tiers below the gap and report success. Once the build is run, pack packs every tier.
#[test]
fn pack_names_a_missing_tier_and_the_build_that_fills_it() {
    let dir = scratch("pack-gap");
    let d = dir.to_str().unwrap();
    let built = mancala(&["build", "kalah", "--max-seeds", "12", "--dir", d, "-q"]);
    assert!(built.status.success(), "{}", text(&built));
    let folder = dir.join("kalah-6p");
    std::fs::remove_file(folder.join("tier-005.mtb")).unwrap();
    let tier = |n: usize| std::fs::read(folder.join(format!("tier-{n:03}.mtb"))).unwrap();
    let (low, high) = (tier(4), tier(12));
    let build = format!("mancala build kalah --max-seeds 5 --dir {d}");
    assert_one_line_errors(&[(&["pack", "kalah", "--dir", d], &build)]);
    let out = mancala(&["pack", "kalah", "--dir", d]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(out.stdout.is_empty(), "{}", text(&out));
    let err = text(&out);
    for needle in [
        "tier 5 of kalah-6p is not built",
        "up to tier 12",
        "nothing was rewritten",
        "--max-seeds 4",
    ] {
        assert!(err.contains(needle), "'{err}' lacks '{needle}'");
    }
    assert!(tier(4) == low && tier(12) == high, "a tier was rewritten");
    // The advice works: the build fills the gap, and pack then packs every tier.
    let words: Vec<&str> = build.split(' ').skip(1).collect();
    let filled = mancala(&words);
    assert!(filled.status.success(), "{}", text(&filled));
    let packed = mancala(&["pack", "kalah", "--dir", d]);
    assert!(packed.status.success(), "{}", text(&packed));
    assert!(
        String::from_utf8_lossy(&packed.stdout).contains("13 files rewritten"),
        "{}",
        text(&packed)
    );
}

#[test]
fn every_message_leads_to_a_fix() {
    let dir = scratch("messages");
    build(&dir, "14");
    let d = dir.to_str().unwrap();
    let file = dir.join("a-file");
    std::fs::write(&file, b"not a folder").unwrap();
    let f = file.to_str().unwrap();
    let empty = dir.join("empty");
    let e = empty.to_str().unwrap();
    let cases: &[(&[&str], &str)] = &[
        // The build suggested repeats every option given.
        (
            &[
                "query",
                "nam-nam",
                "--owners",
                "ssssssnnsnnn",
                "1 1 1 1 1 1 1 1 1 1 1 1 north",
                "--dir",
                e,
            ],
            "mancala build nam-nam --owners ssssssnnsnnn --max-seeds 12",
        ),
        (
            &[
                "query",
                "mankala-2p",
                "--pits",
                "4",
                "--rule",
                "relay",
                "1 1 1 1 1 1 1 1",
                "--dir",
                e,
            ],
            "mancala build mankala-2p --pits 4 --rule relay --max-seeds 8",
        ),
        // Presets without tables say so (and how to play them), not "unknown variant".
        (&["tiers", "mankala-3p"], "mankala-3p has no endgame tables"),
        (
            &["build", "bao-kiswahili", "--dir", d],
            "`mancala play bao-kiswahili` plays it",
        ),
        (
            &["query", "madjnuni", "1 2", "--dir", d],
            "madjnuni has no endgame tables",
        ),
        (&["tiers", "gabata"], "gabata cannot be played"),
        // A file given as the table folder.
        (&["pack", "awari", "--dir", f], "is a file, not a folder"),
        (
            &["query", "awari", "1 1 1 1 1 2 4 2 3 0 0 0", "--dir", f],
            "is a file, not a folder",
        ),
        (
            &["build", "awari", "--max-seeds", "4", "--dir", f],
            "is a file, not a folder",
        ),
        (&["solve", "awari", "--dir", f], "is a file, not a folder"),
        // A negative count is a bad position, not an unknown flag.
        (
            &["query", "awari", "-1 1 1 1 1 2 4 2 3 0 0 0", "--dir", d],
            "negative count",
        ),
        (
            &["play", "awari", "--position", "-1 1 1 1 1 2 4 2 3 0 0 0"],
            "negative count",
        ),
        // Tiers asked for but missing are named, not passed over.
        (
            &["verify", "awari", "--max-seeds", "16", "--dir", d],
            "tiers 15, 16 of awari-6x4 are not in",
        ),
        // An OS error is said once.
        (&["pack", "awari", "--dir", e], "not built"),
    ];
    assert_one_line_errors(cases);
    let out = mancala(&[
        "query",
        "awari",
        "1 1 1 1 1 2 4 2 3 0 0 0",
        "--dir",
        "/nonexistent/tables",
    ]);
    let t = text(&out);
    assert_eq!(
        t.matches("os error").count(),
        t.contains("os error") as usize,
        "{t}"
    );
    // A damaged tier makes info fail after listing the rest.
    let tier = dir.join("awari-6x4/tier-014.mtb");
    let mut bytes = std::fs::read(&tier).unwrap();
    bytes.truncate(bytes.len() - 10);
    std::fs::write(&tier, bytes).unwrap();
    let out = mancala(&["info", "--dir", d]);
    assert!(!out.status.success(), "{}", text(&out));
    assert!(
        text(&out).contains("cannot be read as tables"),
        "{}",
        text(&out)
    );
}

#[test]
fn a_line_that_is_not_text_is_a_bad_move_not_the_end_of_the_game() {
    use std::io::Write;
    let mut child = Command::new(BIN)
        .args([
            "play", "kalah", "--seeds", "1", "--pits", "2", "--engine", "north", "--tables", "0",
            "-q",
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(b"\xff\xfe\n0\nquit\n").unwrap();
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    let t = text(&out);
    assert!(out.status.success(), "{t}");
    assert!(t.contains("not text"), "{t}");
    assert!(
        t.contains("South plays 0") || t.contains("(engine) plays"),
        "{t}"
    );
}

/// Links planted in a shared table folder at the names the commands write (a tier's
/// temporary file, the verification journal, an exported file's temporary name) are never
/// written through: the files they point at stay as they were, and each command does its
/// work or says which file is in the way.
#[test]
fn writes_never_follow_links_planted_in_the_folder() {
    let dir = scratch("links");
    let d = dir.to_str().unwrap();
    build(&dir, "8");
    let precious = dir.join("precious");
    std::fs::write(&precious, "keep me").unwrap();
    let folder = dir.join("awari-6x4");
    let plant = |name: &str| {
        let at = folder.join(name);
        let _ = std::fs::remove_file(&at);
        std::os::unix::fs::symlink(&precious, &at).unwrap();
    };
    // build: tier 9's temporary file is a link.
    plant("tier-009.mtb.tmp");
    build(&dir, "9");
    assert_eq!(std::fs::read_to_string(&precious).unwrap(), "keep me");
    assert!(folder.join("tier-009.mtb").is_file());
    // pack: every tier's temporary file.
    for n in 0..=9 {
        plant(&format!("tier-{n:03}.mtb.tmp"));
    }
    let out = mancala(&["pack", "awari", "--dir", d]);
    assert!(out.status.success(), "{}", text(&out));
    assert_eq!(std::fs::read_to_string(&precious).unwrap(), "keep me");
    // export: the published file's temporary name.
    let vu = dir.join("vu");
    std::fs::create_dir_all(&vu).unwrap();
    std::os::unix::fs::symlink(&precious, vu.join("scores.5.tmp")).unwrap();
    let out = mancala(&[
        "export",
        "awari",
        "--vu",
        "--out",
        vu.to_str().unwrap(),
        "--dir",
        d,
    ]);
    assert!(out.status.success(), "{}", text(&out));
    assert_eq!(std::fs::read_to_string(&precious).unwrap(), "keep me");
    assert!(vu.join("scores.5").is_file());
    // verify: the journal is a link. The check is done and says the journal was not
    // written, naming it; the target is untouched.
    plant("verify.journal");
    let out = within(Duration::from_secs(60), &["verify", "awari", "--dir", d]);
    let t = text(&out);
    assert!(out.status.success(), "{t}");
    assert!(
        t.contains("verify.journal") && t.contains("symbolic link"),
        "{t}"
    );
    assert_eq!(std::fs::read_to_string(&precious).unwrap(), "keep me");
    // A named pipe as the journal does not hang it either.
    std::fs::remove_file(folder.join("verify.journal")).unwrap();
    let made = Command::new("mkfifo")
        .arg(folder.join("verify.journal"))
        .status()
        .unwrap();
    assert!(made.success());
    let out = within(Duration::from_secs(60), &["verify", "awari", "--dir", d]);
    let t = text(&out);
    assert!(out.status.success() && t.contains("named pipe"), "{t}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Things in the way of a file a command writes get a message that says what to do: a file
/// where `export --out` wants a folder, a folder where a build saves a checkpoint.
#[test]
fn what_stands_in_the_way_of_a_write_is_named() {
    let dir = scratch("in-the-way");
    let d = dir.to_str().unwrap();
    build(&dir, "8");
    let file = dir.join("a-file");
    std::fs::write(&file, "x").unwrap();
    common::assert_one_line_errors(&[(
        &[
            "export",
            "awari",
            "--vu",
            "--dir",
            d,
            "--out",
            file.to_str().unwrap(),
        ],
        "a file is there, not a folder",
    )]);
    // A file where a rule set's folder goes (the probe of 2026-12-07: "File exists (os error
    // 17)", and "Not a directory (os error 20)" for a --dir that is a file).
    let beside = scratch("in-the-way-kalah");
    std::fs::create_dir_all(&beside).unwrap();
    std::fs::write(beside.join("kalah-6p"), "x").unwrap();
    let b = beside.to_str().unwrap();
    let out = mancala(&["build", "kalah", "--max-seeds", "4", "--dir", b, "-q"]);
    let t = text(&out);
    assert!(!out.status.success(), "{t}");
    assert!(
        t.contains("kalah-6p is a file, not a folder") && t.contains("out of the way"),
        "{t}"
    );
    assert!(!t.contains("os error"), "{t}");
    let out = mancala(&["bench", "--solve", "--dir", file.to_str().unwrap()]);
    let t = text(&out);
    assert!(
        !out.status.success() && t.contains("a-file is a file, not a folder"),
        "{t}"
    );
    std::fs::remove_dir_all(&beside).unwrap();
    std::fs::create_dir(dir.join("awari-6x4/tier-009.ckpt")).unwrap();
    let out = within(
        Duration::from_secs(60),
        &[
            "build",
            "awari",
            "--max-seeds",
            "10",
            "--dir",
            d,
            "-q",
            "--memory",
            "10M",
            "--checkpoint-minutes",
            "0",
        ],
    );
    let t = text(&out);
    assert!(!out.status.success(), "{t}");
    assert!(
        t.contains("tier-009.ckpt") && t.contains("remove or rename it"),
        "{t}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Numbers are echoed as a person would write them: a huge time limit in exponent form, not
/// 300 digits; a budget below a megabyte in kilobytes, not "0 MB".
#[test]
fn numbers_are_echoed_readably() {
    let dir = scratch("echo");
    let d = dir.to_str().unwrap();
    common::assert_one_line_errors(&[(
        &[
            "solve",
            "kalah",
            "--seeds",
            "3",
            "--tables",
            "0",
            "--max-seconds",
            "1e300",
            "-q",
        ],
        "--max-seconds 1e300:",
    )]);
    let out = mancala(&[
        "build",
        "awari",
        "--max-seeds",
        "4",
        "--memory",
        "1K",
        "--dir",
        d,
        "-q",
    ]);
    let t = text(&out);
    assert!(!out.status.success(), "{t}");
    assert!(
        t.contains("budget of 1 KB") && t.contains("memory budget 1K"),
        "{t}"
    );
    assert!(!t.contains("0 MB"), "{t}");
}

/// A position no game reaches (an Awari position whose last mover left no pit of its row
/// empty) is said to be so, in text and in JSON, with its value still worked out; it was
/// said to lie "above the built tables", which were there and held its tier. A position that
/// arises says nothing of the kind.
#[test]
fn a_position_that_cannot_arise_is_said_to_be_so() {
    let dir = scratch("arise");
    let d = dir.to_str().unwrap();
    build(&dir, "8");
    let impossible = "1 1 0 0 0 0 1 1 1 1 1 1";
    let out = mancala(&["query", "awari", impossible, "--dir", d, "-q"]);
    let t = text(&out);
    assert!(out.status.success(), "{t}");
    assert!(
        t.contains("cannot arise in a game of awari") && t.contains("all its pits"),
        "{t}"
    );
    assert!(!t.contains("above the built tables"), "{t}");
    let v = json(&["query", "awari", impossible, "--dir", d, "--json", "-q"]);
    assert!(v["cannot_arise"].as_str().unwrap().contains("empty"), "{v}");
    assert_eq!(v["value"], -8, "{v}");
    // Without a move, too.
    let v = json(&[
        "query",
        "awari",
        "0 0 0 0 0 0 1 1 1 1 1 1",
        "--dir",
        d,
        "--json",
    ]);
    assert!(v["cannot_arise"].is_string(), "{v}");
    // A position that arises, from the tables and above them.
    for (p, source) in [
        ("1 1 0 0 0 0 1 1 1 1 1 0", "table"),
        ("2 2 2 2 1 0 0 0 1 0 0 0", "search"),
    ] {
        let v = json(&["query", "awari", p, "--dir", d, "--json", "-q"]);
        assert_eq!(v["source"], source, "{v}");
        assert!(v.get("cannot_arise").is_none(), "{v}");
    }
    let out = mancala(&[
        "query",
        "awari",
        "2 2 2 2 1 0 0 0 1 0 0 0",
        "--dir",
        d,
        "-q",
    ]);
    let t = text(&out);
    assert!(
        t.contains("above the built tables, which go up to 8 seeds"),
        "{t}"
    );
    assert!(!t.contains("cannot arise"), "{t}");
}

/// Why an answer was searched says what is on disk (the probe of 2026-12-07): with no table
/// files Kalah's answer claimed "the built tables, which go up to 1 seeds" (the tiers the
/// oracle works out in memory), and with tier 5 of 0..12 missing it said the tables go up to
/// 4 seeds, though tier 12 is there. Both answers are the same values either way.
#[test]
fn why_a_question_was_searched_names_what_is_on_disk() {
    let dir = scratch("why-searched");
    let d = dir.to_str().unwrap();
    let p = "1 1 1 1 1 2 0 2 3 0 0 0";
    let ask = |d: &str| {
        let out = mancala(&["query", "kalah", "--seeds", "3", p, "--dir", d, "-q"]);
        assert!(out.status.success(), "{}", text(&out));
        text(&out)
    };
    let none = ask(d);
    assert!(
        none.contains(&format!("no tables of this rule set are built in {d}")),
        "{none}"
    );
    let out = mancala(&["build", "kalah", "--max-seeds", "12", "--dir", d, "-q"]);
    assert!(out.status.success(), "{}", text(&out));
    let whole = ask(d);
    assert!(!whole.contains("by search"), "{whole}");
    std::fs::remove_file(dir.join("kalah-6p/tier-005.mtb")).unwrap();
    let gap = ask(d);
    assert!(
        gap.contains("by search over tiers 0..=4: tier 5 is missing")
            && gap.contains("--max-seeds 12"),
        "{gap}"
    );
    // The value and the best moves are the same whichever way they came (a search proves the
    // other moves only worse: "at most -2" where the table says -2).
    let moves = |t: &str| {
        t.lines()
            .filter(|l| l.contains("value ") || l.contains("best"))
            .map(String::from)
            .collect::<Vec<_>>()
    };
    assert_eq!(moves(&none), moves(&whole));
    assert_eq!(moves(&gap), moves(&whole));
    let _ = std::fs::remove_dir_all(&dir);
}

/// An Awari-type search held to fewer reachable positions than it meets proves bounds only;
/// when they meet at the value it printed "best moves: " with nothing after it (the probe of
/// 2026-12-07), read as "no best move". It now says the best moves are not proven, and the
/// value is the one the full solve gives.
#[test]
fn a_value_without_its_best_moves_says_they_are_not_proven() {
    let dir = scratch("unproven-best");
    let d = dir.to_str().unwrap();
    let p = "2 0 1 2 1 0";
    let base = [
        "solve", "awari", p, "--pits", "3", "--seeds", "3", "--tables", "0",
    ];
    let ask = |more: &[&str]| {
        let args: Vec<&str> = base.iter().chain(more).copied().collect();
        let out = mancala(&args);
        assert!(out.status.success(), "{}", text(&out));
        text(&out)
    };
    let full = ask(&["--dir", d, "-q"]);
    let held = ask(&["--reach-limit", "1", "--max-seconds", "5", "--dir", d, "-q"]);
    let value = |t: &str| {
        t.lines()
            .find(|l| l.starts_with("value "))
            .map(String::from)
    };
    assert!(value(&full).is_some(), "{full}");
    assert_eq!(value(&held), value(&full), "{held}");
    assert!(full.contains("best moves: 0 2"), "{full}");
    assert!(held.contains("best moves: not proven"), "{held}");
    assert!(held.contains("raise --reach-limit"), "{held}");
    assert!(!held.contains("best moves: \n"), "{held}");
    // `query` takes --reach-limit too (its advice names it), and held to it lists every
    // legal move with its bounds, never "no legal moves" (the docs check of 2026-12-08:
    // the empty move list read as a game over).
    let built = mancala(&[
        "build",
        "awari",
        "--pits",
        "3",
        "--seeds",
        "3",
        "--max-seeds",
        "2",
        "--dir",
        d,
        "-q",
    ]);
    assert!(built.status.success(), "{}", text(&built));
    let query = |more: &[&str]| {
        let mut args = vec![
            "query", "awari", p, "--pits", "3", "--seeds", "3", "--dir", d,
        ];
        args.extend(more);
        let out = mancala(&args);
        assert!(out.status.success(), "{}", text(&out));
        text(&out)
    };
    let held = query(&["--reach-limit", "1", "--max-seconds", "5", "-q"]);
    assert_eq!(value(&held), value(&full), "{held}");
    assert!(!held.contains("game is over"), "{held}");
    assert!(held.contains("move 0: at most +3"), "{held}");
    assert!(held.contains("move 2: at most +3"), "{held}");
    assert!(
        held.contains("best moves: not proven (this search bounds"),
        "{held}"
    );
    let json: serde_json::Value = serde_json::from_str(&query(&[
        "--reach-limit",
        "1",
        "--max-seconds",
        "5",
        "--json",
        "-q",
    ]))
    .unwrap();
    let pits: Vec<u64> = json["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["pit"].as_u64().unwrap())
        .collect();
    assert_eq!(pits, [0, 2], "{json}");
    let whole = query(&["-q"]);
    assert!(whole.contains("move 0: +3  best"), "{whole}");
    assert!(whole.contains("move 2: +3  best"), "{whole}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A published database's file that disagrees with its moves is named in its own folder, with
/// the position as a command takes it and advice that fits (the probe of 2026-12-07: the
/// message named the default table folder, printed `Board([3, 0, ...])` and advised `verify`,
/// which does not read those files).
#[test]
fn an_inconsistent_published_file_is_named_in_its_folder() {
    let dir = scratch("vu-inconsistent");
    build(&dir, "4");
    let vu = dir.join("vu");
    let out = mancala(&[
        "export",
        "awari",
        "--vu",
        "--out",
        vu.to_str().unwrap(),
        "--dir",
        dir.to_str().unwrap(),
        "--max-seeds",
        "4",
    ]);
    assert!(out.status.success(), "{}", text(&out));
    let three = vu.join("scores.3");
    let len = std::fs::metadata(&three).unwrap().len() as usize;
    std::fs::write(&three, vec![0x7f; len]).unwrap();
    let out = mancala(&[
        "query",
        "awari",
        "3 0 0 0 0 0 0 0 0 0 0 0",
        "--vu-dir",
        vu.to_str().unwrap(),
    ]);
    let t = text(&out);
    assert!(!out.status.success(), "{t}");
    assert!(
        t.contains(vu.to_str().unwrap()) && t.contains("'3 0 0 0 0 0 0 0 0 0 0 0'"),
        "{t}"
    );
    assert!(t.contains("download them again"), "{t}");
    assert!(!t.contains("Board(") && !t.contains("databases"), "{t}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// No "-0.00 s": a build that reuses every tier took 0.00 s (the sum of no durations was
/// -0.0), and so does a plan in which no tier fits, in text and JSON.
#[test]
fn no_negative_zero_is_printed() {
    let dir = scratch("negzero");
    let d = dir.to_str().unwrap();
    build(&dir, "6");
    let out = mancala(&["build", "awari", "--max-seeds", "6", "--dir", d, "-q"]);
    let t = text(&out);
    assert!(t.contains("0 tiers built (0 positions in 0.00 s)"), "{t}");
    let plan = ["plan", "awari", "--max-seeds", "20", "--memory", "1K"];
    let t = text(&mancala(&plan));
    assert!(t.contains("about 0.0 s") && !t.contains("-0"), "{t}");
    let out = mancala(&[&plan[..], &["--json"]].concat());
    let raw = String::from_utf8_lossy(&out.stdout);
    assert!(
        raw.contains("\"seconds\":0") && !raw.contains("-0.0"),
        "{raw}"
    );
}

/// Counts in text are grouped by thousands everywhere ("1,255 nodes" beside "29,775,109
/// positions"); JSON numbers stay plain.
#[test]
fn counts_are_grouped_in_text_and_plain_in_json() {
    // One thread: the two runs below must count the same nodes (two threads share the work
    // differently from run to run).
    let args = [
        "solve",
        "kalah",
        "--pits",
        "4",
        "--seeds",
        "2",
        "--tables",
        "0",
        "--threads",
        "1",
        "-q",
    ];
    let v = json(&[&args[..], &["--json"]].concat());
    let nodes = v["nodes"].as_u64().unwrap();
    assert!(nodes >= 1000, "{v}");
    let t = text(&mancala(&args));
    let grouped = mancala_rules::Grouped(nodes as u128).to_string();
    assert!(grouped.contains(','), "{grouped}");
    assert!(t.contains(&format!("{grouped} nodes in")), "{t}");
    // A library's message too: a limit of the search.
    let e = mancala_search::SearchError::TooBig { limit: 32_000_000 }.to_string();
    assert!(e.contains("than the 32,000,000 the search"), "{e}");
}

/// `info` over a folder that also holds other folders lists the tables and names the others
/// as skipped, and succeeds (the probe of 2026-12-08: each counted as damaged tables, exit
/// 1, advice to rebuild them); a tier missing below built ones is named with what fills it,
/// in the JSON as `missing`.
#[test]
fn info_skips_other_folders_and_names_a_missing_tier() {
    let dir = scratch("info-others");
    build(&dir, "6");
    let d = dir.to_str().unwrap();
    std::fs::create_dir_all(dir.join("notavariant")).unwrap();
    std::fs::create_dir_all(dir.join("kalah-99p")).unwrap();
    std::fs::remove_file(dir.join("awari-6x4/tier-004.mtb")).unwrap();
    let out = mancala(&["info", "--dir", d]);
    let t = text(&out);
    assert!(out.status.success(), "{t}");
    assert!(t.contains("skipped: kalah-99p, notavariant"), "{t}");
    assert!(
        t.contains("tier 4 is missing") && t.contains("--max-seeds 6"),
        "{t}"
    );
    let v = json(&["info", "--dir", d, "--json"]);
    let sets = v.as_array().unwrap();
    assert_eq!(sets.len(), 1, "{v}");
    assert_eq!(sets[0]["missing"], serde_json::json!([4]), "{v}");
    assert_eq!(sets[0]["tiers"].as_array().unwrap().len(), 6, "{v}");
    let _ = std::fs::remove_dir_all(&dir);
}
