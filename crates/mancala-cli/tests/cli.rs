//! The `mancala` binary as a user runs it: output shapes, published figures, one-line errors
//! for bad input, and a build that is killed and resumed.

mod common;

use common::{assert_one_line_errors, json, mancala, move_values, scratch};
use serde_json::Value;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// `--help` shows each command's long text, not only its one-line summary (a doc comment on a
/// subcommand's variant once replaced the long texts of these four with nothing), and `-h`
/// the summary.
#[test]
fn long_help_teaches_each_command() {
    let top = mancala(&["--help"]);
    let top = String::from_utf8_lossy(&top.stdout);
    for (command, long, short) in [
        (
            "solve",
            "Ctrl-C stops it",
            "The exact value of a position, its best moves and a principal variation",
        ),
        (
            "bench",
            "The node total is a signature",
            "Fixed-depth searches of a fixed suite",
        ),
        (
            "export",
            "byte for byte",
            "Write the published Awari database's files",
        ),
        (
            "import",
            "with headers and checksums",
            "Turn the published Awari database's files",
        ),
    ] {
        let out = mancala(&[command, "--help"]);
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "{command} --help");
        assert!(
            text.contains(long),
            "{command} --help lacks '{long}': {text}"
        );
        let out = mancala(&[command, "-h"]);
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(text.starts_with(short), "{command} -h: {text}");
        assert!(
            top.contains(short),
            "mancala --help lacks {command}'s summary"
        );
    }
}

#[test]
fn variants_lists_the_presets() {
    let v = json(&["variants", "--json"]);
    let names: Vec<&str> = v
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "awari",
            "oware",
            "wari",
            "kalah",
            "mancala",
            "mankala-2p",
            "congkak",
            "bao-kenya",
            "bao-kenya-laps",
            "ayo-ayo",
            "nam-nam",
            "mankala-3p",
            "mankala-4p",
            "madjnuni",
            "el-akil",
            "el-ghasheem",
            "bao-kujifunza",
            "bao-kiswahili",
            "gabata"
        ]
    );
    assert_eq!(v[3]["seeds"], 6);
    assert_eq!(v[4]["seeds"], 4);
    assert_eq!(v[6]["pits"], 7, "congkak's documented default board is 2x7");
    assert_eq!(v[6]["seeds"], 7);
    let gabata = &v[18];
    assert_eq!(gabata["playable"], false);
    assert!(gabata["reason"].as_str().unwrap().contains("sowing path"));
}

/// Every playable preset plays from its start with the shared JSON keys; multi-row boards
/// list their pits row-major.
#[test]
fn every_preset_plays_with_the_shared_json_keys() {
    let v = json(&["variants", "--json"]);
    for p in v
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["playable"] == true)
    {
        let name = p["name"].as_str().unwrap();
        let g = json(&["play", name, "--json"]);
        for key in ["pits", "stores", "to_move", "over", "legal"] {
            assert!(!g[key].is_null(), "{name}: no {key}");
        }
        let pits: u64 = g["pits"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_u64().unwrap())
            .sum();
        let stores: u64 = g["stores"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_u64().unwrap())
            .sum();
        match name {
            "bao-kujifunza" => assert_eq!((pits, g["pits"].as_array().unwrap().len()), (64, 32)),
            "bao-kiswahili" => assert_eq!(
                (pits + stores, g["pits"].as_array().unwrap().len()),
                (64, 32)
            ),
            "mankala-3p" => assert_eq!(pits, 72),
            "mankala-4p" => assert_eq!(pits, 96),
            // The forced-move games are played out: every seed ends in a barn.
            "madjnuni" => assert_eq!((pits, stores, g["over"].as_bool()), (0, 98, Some(true))),
            "el-akil" | "el-ghasheem" => assert_eq!((pits, stores), (0, 72)),
            _ => assert!(
                !g["legal"].as_array().unwrap().is_empty(),
                "{name}: no legal move"
            ),
        }
    }
    let e = mancala(&["play", "gabata"]);
    assert!(!e.status.success());
    assert!(String::from_utf8_lossy(&e.stderr).contains("sowing path"));
}

#[test]
fn play_prints_the_board_as_json() {
    let v = json(&["play", "awari", "--json"]);
    assert_eq!(v["pits"], serde_json::json!(vec![4; 12]));
    assert_eq!(v["stores"], serde_json::json!([0, 0]));
    assert_eq!(v["to_move"], "south");
    assert_eq!(v["over"], false);
    assert_eq!(v["legal"], serde_json::json!([0, 1, 2, 3, 4, 5]));

    // South sows pit 0; North sows its pit 3 into its 4, 5 and South's 0, 1.
    let v = json(&["play", "awari", "--moves", "0,3", "--json"]);
    assert_eq!(
        v["pits"],
        serde_json::json!([1, 6, 5, 5, 5, 4, 4, 4, 4, 0, 5, 5])
    );
    assert_eq!(v["to_move"], "south");

    // Kalah 6x4: pit 2 ends in the store, so South moves again.
    let v = json(&["play", "mancala", "--moves", "2", "--json"]);
    assert_eq!(v["stores"], serde_json::json!([1, 0]));
    assert_eq!(v["to_move"], "south");
    assert_eq!(v["legal"], serde_json::json!([0, 1, 3, 4, 5]));

    // From a position: North's turn after one move; a finished game sweeps the pits.
    let v = json(&[
        "play",
        "kalah",
        "--position",
        "0 0 0 0 0 1 3 0 0 0 0 0",
        "--moves",
        "5",
        "--json",
    ]);
    assert_eq!(v["over"], true);
    assert_eq!(v["stores"], serde_json::json!([1, 3]));
    assert_eq!(v["pits"], serde_json::json!(vec![0; 12]));
    assert_eq!(v["legal"], serde_json::json!([]));

    let text = mancala(&["play", "kalah", "--moves", "2,5"]);
    assert!(text.status.success());
    let s = String::from_utf8_lossy(&text.stdout);
    assert!(s.contains("North") && s.contains("South"), "{s}");
}

#[test]
fn tiers_prints_the_published_counts() {
    let v = json(&["tiers", "awari", "--json"]);
    let list = v.as_array().unwrap();
    assert_eq!(list.len(), 49);
    assert_eq!(list[0], serde_json::json!({"seeds": 0, "positions": 1}));
    let total: u64 = list.iter().map(|t| t["positions"].as_u64().unwrap()).sum();
    assert_eq!(total, 889_063_398_406);

    let v = json(&["tiers", "kalah", "--max-seeds", "34", "--json"]);
    let total: u64 = v
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["positions"].as_u64().unwrap())
        .sum();
    assert_eq!(total, 38_902_940_896);
}

/// Every kind of bad input: a non-zero exit, one line on stderr, no panic.
#[test]
fn bad_input_gets_one_line_and_a_nonzero_exit() {
    let cases: &[(&[&str], &str)] = &[
        (&["play", "awarri"], "unknown variant"),
        (
            &["play", "awari", "--position", "1 2 3"],
            "expected 12 pit counts",
        ),
        (
            &["play", "awari", "--position", "1 1 1 1 1 1 1 1 1 1 1 x"],
            "whole number",
        ),
        (
            &["play", "awari", "--position", "1 1 1 1 1 1 1 1 1 1 1 -1"],
            "negative",
        ),
        (
            &["play", "awari", "--position", "1 1 1 1 1 1 1 1 1 1 1 999"],
            "seeds",
        ),
        (&["play", "awari", "--pits", "9"], "1..=8 pits"),
        (&["play", "kalah", "--pits", "7"], "1..=6 pits"),
        (&["play", "awari", "--pits", "-3"], "positive"),
        (&["play", "awari", "--seeds", "0"], "positive"),
        (&["play", "awari", "--moves", "0,9"], "bad move"),
        (&["play", "awari", "--moves", "0,x"], "bad move"),
        (&["play", "kalah", "--moves", "0,0,0"], "illegal move 0"),
        (&["play", "awari", "--empty-capture"], "does not apply"),
        (&["play", "wari", "--grand-slam", "gs9"], "grand-slam"),
        (&["play", "oware", "--grand-slam", "gs1"], "does not apply"),
        (&["tiers", "awari", "--max-seeds", "99"], "at most 48"),
        (
            &[
                "query",
                "awari",
                "4 4 4 4 4 4 4 4 4 4 4 4",
                "--dir",
                "/nonexistent/x",
            ],
            "mancala build awari",
        ),
    ];
    assert_one_line_errors(cases);
    // The illegal-move error lists the legal moves (Kalah 6x6: after 0 then North's 0, South's
    // pit 0 is empty).
    let out = mancala(&["play", "kalah", "--moves", "0,0,0"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("legal moves are [1, 2, 3, 4, 5]"), "{err}");
}

/// Usage errors keep clap's whole message (what is missing, a similar option, the usage and
/// the subcommand's help), with exit code 2; a position typed without quotes gets a hint.
#[test]
fn usage_errors_say_everything_clap_knows() {
    let cases: &[(&[&str], &[&str])] = &[
        (
            &["frobnicate"],
            &["unrecognized subcommand 'frobnicate'", "Usage:"],
        ),
        (
            &["query", "awari"],
            &["required arguments", "<POSITION>", "Usage: mancala query"],
        ),
        (
            &["build", "awari", "--max-seed", "3"],
            &[
                "a similar argument exists: '--max-seeds'",
                "Usage: mancala build",
            ],
        ),
        (
            &[
                "query", "awari", "1", "1", "1", "1", "1", "2", "4", "2", "3", "0", "0", "0",
            ],
            &["unexpected argument '1'", "quote its pit counts"],
        ),
    ];
    for &(args, needles) in cases {
        let out = mancala(args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        for needle in needles {
            assert!(err.contains(needle), "{args:?}: '{err}' lacks '{needle}'");
        }
    }
    // A quoted position is no usage error, so no hint.
    let out = mancala(&["query", "awari", "--pits", "x", "1 1 1"]);
    assert!(!String::from_utf8_lossy(&out.stderr).contains("quote"));
}

/// The main job end to end: build, kill mid-way, resume, verify, and the published example.
#[test]
fn a_killed_build_resumes_and_answers_the_published_example() {
    let dir = scratch("resume");
    let d = dir.to_str().unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_mancala"))
        .args(["build", "awari", "--max-seeds", "16", "--dir", d, "-q"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // Kill it once a middle tier is done.
    let marker = dir.join("awari-6x4").join("tier-012.mtb");
    let t0 = Instant::now();
    while !marker.exists() && t0.elapsed() < Duration::from_secs(120) {
        std::thread::sleep(Duration::from_millis(20));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let files: Vec<String> = std::fs::read_dir(dir.join("awari-6x4"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().to_string())
        .collect();
    assert!(files.iter().any(|f| f == "tier-012.mtb"), "{files:?}");

    let out = mancala(&["build", "awari", "--max-seeds", "16", "--dir", d, "--json"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let tiers: Vec<Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(tiers.len(), 17);
    for t in &tiers[..=12] {
        assert_eq!(t["reused"], true, "{t}");
    }
    assert_eq!(tiers[16]["reused"], false);
    assert_eq!(tiers[16]["positions"], 12_685_179);
    for key in ["seeds", "positions", "seconds", "bytes", "peak_rss_mb"] {
        assert!(tiers[16].get(key).is_some(), "missing {key}");
    }
    // No temporary file is left behind.
    assert!(std::fs::read_dir(dir.join("awari-6x4")).unwrap().all(|e| !e
        .unwrap()
        .file_name()
        .to_string_lossy()
        .ends_with(".tmp")));

    let out = mancala(&["verify", "awari", "--dir", d]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );

    let v = json(&[
        "query",
        "awari",
        "1 1 1 1 1 2 4 2 3 0 0 0",
        "--dir",
        d,
        "--json",
    ]);
    assert_eq!(v["value"], 0);
    assert_eq!(move_values(&v), [-1, -1, -2, -2, -2, 0]);
    assert_eq!(v["best"], serde_json::json!([5]));
    assert_eq!(v["seeds"], 16);
    assert_eq!(v["source"], "table");

    // Above the built tiers: an error that prints the build command.
    let out = mancala(&["query", "awari", "2 2 2 2 2 2 2 2 2 2 2 0", "--dir", d]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("--max-seeds 22"));

    let info = json(&["info", "--dir", d, "--json"]);
    assert_eq!(info[0]["key"], "awari-6x4");
    assert_eq!(info[0]["tiers"].as_array().unwrap().len(), 17);
    let t0 = &info[0]["tiers"][0];
    assert_eq!(
        (t0["win"].as_u64(), t0["draw"].as_u64()),
        (Some(0), Some(1))
    );
}

/// A forced-move game's setup valued with and without the swap, as JSON.
#[test]
fn solve_values_a_forced_setup_and_the_swap() {
    let v = json(&["solve", "el-akil", "--json"]);
    assert_eq!(v["rules"], "el-akil");
    assert_eq!(
        v["setup"],
        serde_json::json!([0, 9, 9, 9, 9, 0, 0, 9, 9, 9, 9, 0])
    );
    assert_eq!(v["second_swaps"], true);
    assert_eq!(v["kept"]["end"], "one-each");
    assert_eq!(
        (
            v["kept"]["distributor"].as_u64(),
            v["kept"]["second"].as_u64()
        ),
        (Some(43), Some(29))
    );
    assert_eq!(v["distributor_value"], 29);
}

/// A later nam-nam round (`--owners`): tables, queries for either side to move, and the
/// whole game over its rounds (`play --match`).
#[test]
fn nam_nam_rounds_from_the_command_line() {
    let dir = scratch("nam-nam-owners");
    let d = dir.to_str().unwrap();
    let round = ["--pits", "3", "--owners", "sssnsn", "--dir", d];
    let mut build = vec!["build", "nam-nam", "--max-seeds", "12", "-q"];
    build.extend(round);
    assert!(mancala(&build).status.success());
    let query = |pos: &str| {
        let mut args = vec!["query", "nam-nam", pos, "--json"];
        args.extend(round);
        json(&args)
    };
    // The same pits, worth +12 to South (who owns North's middle pit, his move 4) and -12 to
    // North, who owns only his pits 0 and 2.
    let south = query("2 2 2 2 2 2");
    assert_eq!(south["value"], 12);
    let pits: Vec<u64> = south["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["pit"].as_u64().unwrap())
        .collect();
    assert_eq!(pits, vec![0, 1, 2, 4]);
    let north = query("2 2 2 2 2 2 north");
    assert_eq!(north["value"], -12);
    assert_eq!(north["moves"].as_array().unwrap().len(), 2);

    let v = json(&["play", "nam-nam", "--match", "--moves", "0,1,2", "--json"]);
    for key in [
        "pits", "stores", "to_move", "over", "legal", "round", "owners",
    ] {
        assert!(!v[key].is_null(), "{key}");
    }
    assert_eq!(v["round"], 1);
    assert_eq!(v["owners"], "ssssssnnnnnn");
    assert_eq!(v["stores"], serde_json::json!([0, 4]));
    assert_eq!(v["to_move"], "north");

    assert_one_line_errors(&[
        (
            &["play", "awari", "--owners", "ss"],
            "does not apply to awari",
        ),
        (&["play", "nam-nam", "--owners", "sss"], "12 letters"),
        (
            &["play", "awari", "--match"],
            "nam-nam, el-akil, el-ghasheem",
        ),
        (
            &["play", "kalah", "--position", "4 4 4 4 4 4 4 4 4 4 4 4 n"],
            "own different pits",
        ),
        (
            &["play", "awari", "--pits", "8", "--seeds", "8"],
            "at most 127 seeds",
        ),
    ]);
}

/// `play el-akil --match`: rounds until a player's captures reach 60.
#[test]
fn el_akil_match_to_sixty() {
    let v = json(&["play", "el-akil", "--match", "--json"]);
    assert_eq!(v["target"], 60);
    assert_eq!(v["winner"], "b");
    assert_eq!(v["decided_in"], 2);
    assert_eq!(v["totals"], serde_json::json!([43, 61]));
    let rounds = v["rounds"].as_array().unwrap();
    assert_eq!(rounds.len(), 2);
    assert_eq!(rounds[0]["distributor"], "a");
    assert_eq!(rounds[1]["distributor"], "b");
    assert_eq!(rounds[0]["captured"], serde_json::json!([29, 43]));
}

/// `--version` says which binary this is (the commit, the features built in, the minimum
/// Rust); `completions` and `manpage` come from clap's own generators and know every command.
#[test]
fn version_completions_and_manual() {
    let out = mancala(&["--version"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    let commit = text
        .lines()
        .find_map(|l| l.strip_prefix("commit: "))
        .unwrap_or_default();
    assert!(!commit.is_empty(), "{text}");
    assert!(text.contains("features: "), "{text}");
    assert!(text.contains("minimum Rust: 1."), "{text}");
    for (shell, mark) in [
        ("bash", "_mancala()"),
        ("zsh", "#compdef mancala"),
        ("fish", "complete -c mancala"),
    ] {
        let out = mancala(&["completions", shell]);
        let script = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success() && script.contains(mark),
            "{shell}: {script}"
        );
        for command in ["build", "query", "serve", "solve", "completions"] {
            assert!(script.contains(command), "{shell} lacks {command}");
        }
    }
    let out = mancala(&["manpage"]);
    let page = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success() && page.contains(".TH mancala 1"),
        "{page}"
    );
    assert!(page.contains("serve") && page.contains("verify"), "{page}");
}
