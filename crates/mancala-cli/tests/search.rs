//! The searching commands as a user runs them: `solve`, `query` above the tables, `bench` and
//! `play --engine`, with output shapes, published values and one-line errors.

mod common;

use common::{assert_one_line_errors, bounds, json, mancala, scratch};
#[cfg(unix)]
use common::{interrupt_once, sigint, sigint_in_child, signal_once};
use serde_json::{json, Value};
use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};
#[cfg(unix)]
use std::time::Duration;

/// Runs `mancala` with `input` on stdin (not a terminal) and returns stdout.
fn with_input(args: &[&str], input: &str) -> (bool, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_mancala"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run mancala");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).to_string(),
        String::from_utf8_lossy(&out.stderr).to_string(),
    )
}

/// Kalah 6x3 (standard rules) is +2 for the first player; the small tables it needs are built
/// first, with a message on stderr.
#[test]
fn solve_reproduces_kalah_6x3() {
    let dir = scratch("solve");
    let d = dir.to_str().unwrap();
    let out = mancala(&[
        "solve", "kalah", "--seeds", "3", "--tables", "10", "--dir", d, "--json",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("building kalah-6p tables up to 10 seeds"),
        "{err}"
    );
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["value"], 2);
    assert_eq!(v["bounds"], json!([2, 2]));
    let best = v["best"].as_array().unwrap();
    assert!(best.contains(&v["pv"][0]), "{v}");
    assert!(v["nodes"].as_u64().unwrap() > 0);
    assert!(v["seconds"].as_f64().is_some());
    // The second run reuses the tables: nothing is built.
    let out = mancala(&[
        "solve", "kalah", "--seeds", "3", "--dir", d, "--json", "--tables", "10",
    ]);
    assert!(!String::from_utf8_lossy(&out.stderr).contains("building"));
}

/// `solve --at-least V` answers one question about Kalah 6x3 (+2, published): yes at +2 with
/// a move that reaches it, no at +3 (by parity the value is then at most +2); a position the
/// tables hold, and one where the game is over, answer the same way; a game solved by its own
/// solver refuses the option.
#[test]
fn solve_at_least_answers_yes_or_no() {
    let dir = scratch("at-least");
    let d = dir.to_str().unwrap();
    let base = [
        "solve", "kalah", "--seeds", "3", "--tables", "10", "--dir", d, "-q",
    ];
    let ask = |t: &str, position: Option<&str>| {
        let mut args = [&base[..], &["--json", "--at-least", t]].concat();
        args.extend(position);
        json(&args)
    };
    let yes = ask("2", None);
    assert_eq!(
        (yes["at_least"].clone(), yes["answer"].clone()),
        (json!(2), json!(true))
    );
    assert!(yes["bounds"][0].as_i64().unwrap() >= 2, "{yes}");
    let best = yes["best"].as_array().unwrap();
    assert!(!best.is_empty(), "{yes}");
    // Each move named reaches +2: after it, the exact value agrees.
    let exact = json(&[&base[..], &["--json"]].concat());
    for m in best {
        assert!(
            exact["best"].as_array().unwrap().contains(m),
            "{yes} {exact}"
        );
    }
    let no = ask("3", None);
    assert_eq!(no["answer"], json!(false));
    assert_eq!(no["bounds"][1], json!(2), "{no}");
    assert_eq!(no["best"], json!([]));
    let low = ask("-36", None);
    assert_eq!(low["answer"], json!(true), "{low}");
    // Nine seeds: in the tables. Moves reaching +1 from there are those the tables value so.
    let table = ask("1", Some("0 0 0 0 1 2 1 0 0 0 2 3"));
    assert_eq!(table["bounds"][0], table["bounds"][1], "{table}");
    let v = table["bounds"][0].as_i64().unwrap();
    assert_eq!(table["answer"], json!(v >= 1), "{table}");
    // The game is over: the side to move has no seed, the opponent banks its last one, -1.
    let over = ask("-1", Some("0 0 0 0 0 0 1 0 0 0 0 0"));
    assert_eq!(
        (over["answer"].clone(), over["bounds"].clone()),
        (json!(true), json!([-1, -1]))
    );
    let over = ask("0", Some("0 0 0 0 0 0 1 0 0 0 0 0"));
    assert_eq!(
        (over["answer"].clone(), over["best"].clone()),
        (json!(false), json!([]))
    );
    let text = mancala(&[&base[..], &["--at-least", "3"]].concat());
    let out = String::from_utf8_lossy(&text.stdout);
    assert!(out.contains("no: the value is below +3"), "{out}");
    let refused = mancala(&[
        "solve",
        "mankala-3p",
        "--pits",
        "2",
        "--seeds",
        "2",
        "--at-least",
        "1",
    ]);
    assert!(!refused.status.success());
    assert!(String::from_utf8_lossy(&refused.stderr).contains("--at-least"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// A time limit that runs out reports proven bounds instead of a value.
#[test]
fn solve_reports_bounds_when_out_of_time() {
    let v = json(&[
        "solve",
        "kalah",
        "--seeds",
        "5",
        "--tables",
        "0",
        "--max-seconds",
        "0.2",
        "--json",
        "--hash",
        "16",
    ]);
    assert_eq!(v["value"], Value::Null);
    let (lo, hi) = bounds(&v);
    // The published value, +10, lies within whatever was proven.
    assert!(lo <= 10 && 10 <= hi, "{v}");
}

/// `--hash-file` carries a proof from one run to the next: a question stopped by its time
/// limit and asked again with the same file is answered (Kalah 6x3 is +2, published), and a
/// question already proven costs almost nothing the next time. A file of other rules, or a
/// damaged one, is refused before any table is built, with what to do.
#[test]
fn a_kept_table_carries_a_proof_from_one_run_to_the_next() {
    let dir = scratch("kept-table");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("kalah.tt");
    let f = file.to_str().unwrap();
    // Kalah 6x3 over 4-seed tables built in `dir` (or in `tables`), one thread.
    let run = |tables: &Path, extra: &[&str]| {
        let mut args = vec!["solve", "kalah", "--seeds", "3", "--tables", "4"];
        args.extend_from_slice(&["--dir", tables.to_str().unwrap(), "--threads", "1", "-q"]);
        args.extend_from_slice(extra);
        mancala(&args)
    };
    let ask = |extra: &[&str]| {
        let mut args = vec!["--json", "--hash", "64"];
        args.extend_from_slice(extra);
        let out = run(&dir, &args);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        serde_json::from_slice::<Value>(&out.stdout).expect("valid JSON")
    };
    let at_least_2 = ["--at-least", "2"];
    let fresh = ask(&at_least_2);
    assert_eq!(fresh["answer"], true, "{fresh}");
    let fresh_nodes = fresh["nodes"].as_u64().unwrap();

    let stopped = ask(&[&at_least_2[..], &["--hash-file", f, "--max-seconds", "0.1"]].concat());
    let (lo, hi) = bounds(&stopped);
    assert!(lo <= 2 && 2 <= hi, "{stopped}");
    assert_eq!(
        std::fs::metadata(&file).unwrap().len(),
        256 + (64 << 20),
        "saved when the time ran out"
    );
    let resumed = ask(&[&at_least_2[..], &["--hash-file", f]].concat());
    assert_eq!(resumed["answer"], true, "{resumed}");
    let again = ask(&[&at_least_2[..], &["--hash-file", f]].concat());
    let again_nodes = again["nodes"].as_u64().unwrap();
    assert!(
        again_nodes * 100 < fresh_nodes,
        "a proven question asked again: {again_nodes} nodes against {fresh_nodes} fresh"
    );
    // The exact value from the same file (written by questions about a bound).
    let exact = ask(&["--hash-file", f]);
    assert_eq!(exact["value"], 2, "{exact}");

    // Another rule set's values: refused before its tables are built.
    let other = dir.join("other");
    let out = run(&other, &["--empty-capture", "--hash-file", f]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(
        err.contains("holds values of kalah-6p, not of kalah-6p-empty"),
        "{err}"
    );
    assert!(!other.exists(), "tables were built before the refusal");

    // Cut short: refused, with the advice to delete it.
    let bytes = std::fs::read(&file).unwrap();
    std::fs::write(&file, &bytes[..bytes.len() / 2]).unwrap();
    let out = run(&dir, &["--hash-file", f]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(
        err.contains("is damaged") && err.contains("delete"),
        "{err}"
    );
    assert!(!err.contains("panicked"), "{err}");
}

/// SIGTERM (a `kill`, a shutdown) stops a solve that keeps its table the way Ctrl-C does:
/// the table is saved, the bounds proven so far come out (holding Kalah 6x5's published
/// +10), status 130; and the next run reads that table back.
#[cfg(unix)]
#[test]
fn sigterm_stops_a_solve_that_keeps_its_table_after_saving_it() {
    let dir = scratch("sigterm-kept");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("k.tt");
    let with_file = |options: &str| {
        let mut args: Vec<&str> = "solve kalah --seeds 5 --tables 0 --json"
            .split(' ')
            .collect();
        args.extend(options.split(' '));
        args.extend(["--hash-file", file.to_str().unwrap()]);
        args.into_iter().map(String::from).collect::<Vec<_>>()
    };
    let args = with_file("--hash 16");
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let run = signal_once(&args, "value in", Duration::ZERO, libc::SIGTERM);
    assert!(run.stderr.contains("on SIGTERM"), "{}", run.stderr);
    let (status, err) = (run.status, &run.stderr);
    assert_eq!(status.code(), Some(130), "{status:?}: {err}");
    let v: Value = serde_json::from_str(&run.stdout).unwrap();
    let (lo, hi) = bounds(&v);
    assert!(lo <= 10 && 10 <= hi, "{v}");
    // Saved twice: the new table at the start, and what the search had found at the stop.
    assert_eq!(err.matches("transposition table saved").count(), 2, "{err}");
    assert_eq!(std::fs::metadata(&file).unwrap().len(), 256 + (16 << 20));
    let again = with_file("--max-seconds 0.5");
    let again = mancala(&again.iter().map(String::as_str).collect::<Vec<_>>());
    let err = String::from_utf8_lossy(&again.stderr);
    assert!(err.contains("read back from"), "{err}");
}

/// A stopped search names the signal that stopped it: SIGTERM where it stops one (a solve
/// that keeps its table), Ctrl-C otherwise; never both, as if it did not know.
#[cfg(unix)]
#[test]
fn a_stopped_search_names_the_signal_that_stopped_it() {
    let dir = scratch("signal-named");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("k.tt");
    let solve = "solve kalah --seeds 5 --tables 0 --hash 16";
    let mut kept: Vec<&str> = solve.split(' ').collect();
    kept.extend(["--hash-file", file.to_str().unwrap()]);
    let term = signal_once(&kept, "value in", Duration::ZERO, libc::SIGTERM);
    assert_eq!(term.status.code(), Some(130), "{}", term.stderr);
    assert!(
        term.stdout
            .contains("stopped by SIGTERM: the value lies in ["),
        "{}",
        term.stdout
    );
    let plain: Vec<&str> = solve.split(' ').collect();
    let int = interrupt_once(&plain, "value in", Duration::ZERO);
    assert_eq!(int.status.code(), Some(130), "{}", int.stderr);
    assert!(
        int.stdout
            .contains("stopped by Ctrl-C: the value lies in ["),
        "{}",
        int.stdout
    );
    for out in [&term.stdout, &int.stdout] {
        assert!(!out.contains(" or SIGTERM"), "{out}");
    }
}

/// Ctrl-C during a long solve stops it the way a time limit does: the bounds proven so far
/// come out (holding the published +10 of Kalah 6x5), and the status says it was interrupted.
#[cfg(unix)]
#[test]
fn ctrl_c_stops_a_solve_with_its_proven_bounds() {
    let run = interrupt_once(
        &[
            "solve", "kalah", "--seeds", "5", "--tables", "0", "--json", "--hash", "16",
        ],
        "value in",
        Duration::ZERO,
    );
    assert!(run.stderr.contains("stopping the search"), "{}", run.stderr);
    assert_eq!(run.status.code(), Some(130), "{:?}", run.status);
    let v: Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(v["value"], Value::Null, "{v}");
    let (lo, hi) = bounds(&v);
    assert!(lo <= 10 && 10 <= hi, "{v}");
}

/// A solve that inherited SIGINT ignored (a shell script's `cmd &`, `nohup`) keeps ignoring
/// it: a Ctrl-C typed for the foreground job is not meant for it.
#[cfg(unix)]
#[test]
fn a_solve_started_with_sigint_ignored_keeps_running() {
    let mut command = Command::new(env!("CARGO_BIN_EXE_mancala"));
    command
        .args([
            "solve", "kalah", "--seeds", "5", "--tables", "0", "-q", "--hash", "16",
        ])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    sigint_in_child(&mut command, libc::SIG_IGN);
    let mut child = command.spawn().unwrap();
    // Kalah 6x5 without tables takes many minutes: still running a second after the signal
    // means the signal did nothing.
    std::thread::sleep(Duration::from_millis(1500));
    sigint(&child);
    std::thread::sleep(Duration::from_secs(1));
    let ended = child.try_wait().unwrap();
    let _ = child.kill();
    let _ = child.wait();
    assert!(ended.is_none(), "ended on an ignored SIGINT: {ended:?}");
}

/// In Awari-type games (play can cycle) a solve above the tables first solves every reachable
/// position backwards; Ctrl-C there also leaves proven bounds and status 130, not an error.
/// (Awari 5x2 over 8-seed tables: that backward solution takes 10 s and more; its value is 0.)
#[cfg(unix)]
#[test]
fn ctrl_c_during_a_backward_solution_leaves_bounds() {
    let dir = scratch("ctrl-c-awari");
    let d = dir.to_str().unwrap();
    let variant = ["awari", "--pits", "5", "--seeds", "2"];
    let built = mancala(
        &[
            &["build"],
            &variant[..],
            &["--max-seeds", "8", "--dir", d, "-q"],
        ]
        .concat(),
    );
    assert!(built.status.success(), "{built:?}");
    let run = interrupt_once(
        &[
            &["solve"],
            &variant[..],
            &["--tables", "8", "--dir", d, "--json"],
        ]
        .concat(),
        "",
        Duration::from_secs(1),
    );
    assert_eq!(
        run.status.code(),
        Some(130),
        "{:?} {}",
        run.status,
        run.stderr
    );
    let v: Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(v["value"], Value::Null, "{v}");
    let (lo, hi) = bounds(&v);
    assert!(lo <= 0 && 0 <= hi, "{v}");
}

/// Kalah 6x5's start position over 12-seed tables: a search of many minutes, whose published
/// value is +10 (Irving, Donkers and Uiterwijk, 2000; `docs/results.md`). The questions below
/// are cut short long before it ends; what they report must hold that value.
const KALAH_6X5_START: &str = "5 5 5 5 5 5 5 5 5 5 5 5";

/// Tables of Kalah up to 12 seeds in a scratch folder, for a `query` far above them.
fn kalah_tables(name: &str) -> common::Scratch {
    let dir = scratch(name);
    let built = mancala(&[
        "build",
        "kalah",
        "--max-seeds",
        "12",
        "--dir",
        dir.to_str().unwrap(),
        "-q",
    ]);
    assert!(built.status.success(), "{built:?}");
    dir
}

/// `query --max-seconds` stops a long search as `solve --max-seconds` does: the proven bounds
/// instead of the value (text and JSON), status 0. The bounds hold the published value, with
/// `--exact` too (there the bounds are the position's, gathered from its moves, not those of
/// the move whose search the limit cut).
#[test]
fn query_reports_bounds_when_out_of_time() {
    let dir = kalah_tables("query-max-seconds");
    let d = dir.to_str().unwrap();
    let ask = |extra: &[&str]| {
        let args = [
            &[
                "query",
                "kalah",
                "--seeds",
                "5",
                KALAH_6X5_START,
                "--dir",
                d,
                "--max-seconds",
                "0.5",
                "--threads",
                "1",
                "--hash",
                "16",
                "-q",
            ][..],
            extra,
        ]
        .concat();
        mancala(&args)
    };
    for extra in [&["--json"][..], &["--json", "--exact"]] {
        let out = ask(extra);
        assert!(out.status.success(), "{extra:?}: {out:?}");
        let v: Value = serde_json::from_slice(&out.stdout).expect("valid JSON");
        assert_eq!(v["value"], Value::Null, "{extra:?}: {v}");
        assert_eq!(v["source"], "search", "{v}");
        assert_eq!(v["seeds"], 60, "{v}");
        let (lo, hi) = bounds(&v);
        assert!(lo <= 10 && 10 <= hi, "{extra:?}: {v}");
    }
    let out = ask(&[]);
    assert!(out.status.success(), "{out:?}");
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("out of time: the value lies in [") && text.contains("(proven bounds)"),
        "{text}"
    );
}

/// Ctrl-C stops a `query` as it stops a `solve`: the bounds proven so far are printed (here
/// as JSON) and the status is 130, instead of an end with nothing said.
#[cfg(unix)]
#[test]
fn ctrl_c_stops_a_query_with_its_proven_bounds() {
    let dir = kalah_tables("query-ctrl-c");
    let run = interrupt_once(
        &[
            "query",
            "kalah",
            "--seeds",
            "5",
            KALAH_6X5_START,
            "--dir",
            dir.to_str().unwrap(),
            "--json",
            "--threads",
            "1",
            "--hash",
            "16",
        ],
        "value in",
        Duration::ZERO,
    );
    assert!(run.stderr.contains("stopping the search"), "{}", run.stderr);
    assert_eq!(run.status.code(), Some(130), "{:?}", run.status);
    let v: Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(v["value"], Value::Null, "{v}");
    let (lo, hi) = bounds(&v);
    assert!(lo <= 10 && 10 <= hi, "{v}");
}

/// Above the built tiers, `query` searches; once the tables cover the position, the table
/// answers. The search proves the best moves exactly and the others below the value (each
/// interval holds the table's value); with `--exact` the two agree move by move.
#[test]
fn query_falls_back_to_search_above_the_tables() {
    let dir = scratch("query");
    let d = dir.to_str().unwrap();
    let build = |n: &str| {
        let out = mancala(&["build", "kalah", "--max-seeds", n, "--dir", d, "-q"]);
        assert!(out.status.success());
    };
    build("8");
    let p = "2 0 3 1 0 2 1 2 0 1 0 1";
    let searched = json(&["query", "kalah", p, "--dir", d, "--json", "-q"]);
    let exact = json(&["query", "kalah", p, "--dir", d, "--json", "-q", "--exact"]);
    let text_out =
        String::from_utf8(mancala(&["query", "kalah", p, "--dir", d, "-q"]).stdout).unwrap();
    assert_eq!(searched["source"], "search");
    assert_eq!(searched["seeds"], 13);
    build("13");
    let tabled = json(&["query", "kalah", p, "--dir", d, "--json"]);
    assert_eq!(tabled["source"], "table");
    for key in ["value", "moves", "best"] {
        assert_eq!(exact[key], tabled[key], "{key}");
    }
    for key in ["value", "best"] {
        assert_eq!(searched[key], tabled[key], "{key}");
    }
    let value = tabled["value"].as_i64().unwrap();
    let moves = searched["moves"].as_array().unwrap();
    let mut bounded = 0;
    for (m, t) in moves.iter().zip(tabled["moves"].as_array().unwrap()) {
        assert_eq!(m["pit"], t["pit"]);
        let truth = t["value"].as_i64().unwrap();
        if m["value"].is_null() {
            bounded += 1;
            let (lo, hi) = (
                m["bounds"][0].as_i64().unwrap(),
                m["bounds"][1].as_i64().unwrap(),
            );
            assert!(lo <= truth && truth <= hi && hi < value, "{m} against {t}");
            assert!(
                text_out.contains(&format!("move {}: at most {hi:+}", m["pit"])),
                "{text_out}"
            );
        } else {
            assert_eq!(m["value"], t["value"], "{m}");
        }
    }
    // The position has moves worse than the best, and the search left some of them bounded:
    // otherwise this test would not tell the two kinds of answer apart.
    assert!(bounded > 0, "{searched}");
}

#[test]
fn bench_prints_a_signature() {
    let v = json(&["bench", "--json"]);
    let rows = v["positions"].as_array().unwrap();
    assert_eq!(rows.len(), 8);
    let sum: u64 = rows.iter().map(|r| r["nodes"].as_u64().unwrap()).sum();
    assert_eq!(v["nodes"].as_u64().unwrap(), sum);
    assert!(rows
        .iter()
        .all(|r| r["nodes_per_second"].as_f64().unwrap() > 0.0));
}

/// The engine plays both sides of a small game to its end without any input.
#[test]
fn play_engine_both_finishes_the_game() {
    let dir = scratch("both");
    let d = dir.to_str().unwrap();
    let args = [
        "play", "kalah", "--pits", "3", "--seeds", "2", "--engine", "both", "--dir", d,
    ];
    let (ok, out, err) = with_input(&args, "");
    assert!(ok, "{err}");
    assert!(out.contains("(engine) plays"), "{out}");
    assert!(out.contains("Game over"), "{out}");
}

/// A person's moves, `hint` and `quit` come from stdin; bad input gets a message and the game
/// goes on; the end of the input ends the session.
#[test]
fn play_engine_reads_moves_hints_and_quit() {
    let dir = scratch("north");
    let d = dir.to_str().unwrap();
    let args = [
        "play", "kalah", "--pits", "3", "--seeds", "2", "--engine", "north", "--dir", d,
    ];
    // South's pit 2 sows one seed into the store and one to North: North's turn.
    let (ok, out, err) = with_input(&args, "hint\n7\n2\nquit\n");
    assert!(ok, "{err}");
    assert!(out.contains("move values for south: 0: "), "{out}");
    assert!(out.contains("bad move '7'"), "{out}");
    assert!(out.contains("North (engine) plays"), "{out}");
    assert!(out.contains("(game abandoned)"), "{out}");
    let (ok, out, _) = with_input(&args, "0\n");
    assert!(ok);
    assert!(out.contains("(end of input"), "{out}");
}

/// Every kind of bad input to the new commands: a non-zero exit, one line on stderr, no panic.
#[test]
fn bad_search_input_gets_one_line_and_a_nonzero_exit() {
    let cases: &[(&[&str], &str)] = &[
        (
            &["solve", "kalah", "--threads", "0", "--tables", "0"],
            "--threads",
        ),
        (
            &["solve", "kalah", "--hash", "0", "--tables", "0"],
            "--hash",
        ),
        (
            &["solve", "kalah", "--max-seconds", "-1", "--tables", "0"],
            "--max-seconds",
        ),
        (&["solve", "kalah", "1 2 3"], "expected 12 pit counts"),
        (&["solve", "kalah", "--tables", "x"], "invalid value"),
        (&["solve", "awarri"], "unknown variant"),
        (
            &["play", "kalah", "--engine", "west"],
            "--engine takes south, north or both",
        ),
        (
            &["play", "kalah", "--engine", "both", "--json"],
            "do not go together",
        ),
        (&["bench", "--depth", "3"], "unexpected argument"),
    ];
    assert_one_line_errors(cases);
}
