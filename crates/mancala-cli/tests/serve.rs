//! `mancala serve` against the command line: one server, asked about one game after another
//! (every option that changes the start: seeds, pits, rules, grand slam, owners), must give
//! for each what `mancala play`, `query` and `solve` give for it. A server once answered
//! Kalah with 4 seeds a pit with the rules of the 3-seed game asked before it, because it
//! kept rule sets by table key, which leaves the seeds out.

mod common;

use common::{json, scratch};
use serde_json::Value;
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};

/// A `mancala serve` process on a free port of 127.0.0.1, stopped when dropped.
struct Server {
    child: Child,
    url: String,
}

impl Server {
    fn start(dir: &Path, extra: &[&str]) -> Server {
        Server::started(spawn(dir, extra, Stdio::null()))
    }

    /// The server `child` (from [`spawn`]) once it says its address.
    fn started(mut child: Child) -> Server {
        let url = address(&mut child);
        Server { child, url }
    }

    /// GETs `path` (with its query string): the status and the JSON body.
    fn get(&self, path: &str) -> (u16, Value) {
        let agent: ureq::Agent = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .build()
            .into();
        let mut r = agent.get(&format!("{}{path}", self.url)).call().unwrap();
        let status = r.status().as_u16();
        (status, r.body_mut().read_json().unwrap())
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The address a server just started says on its first line of standard output.
fn address(child: &mut Child) -> String {
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    line.split_whitespace()
        .find(|w| w.starts_with("http://"))
        .unwrap_or_else(|| panic!("no address in '{line}'"))
        .trim_end_matches('/')
        .to_string()
}

/// A query string's value, escaped.
fn esc(text: &str) -> String {
    text.replace(' ', "%20")
}

/// The query string of a variant given as command-line words (`--pits 4` -> `pits=4`).
fn params(variant: &str, args: &[&str]) -> String {
    let mut q = format!("variant={variant}");
    let mut i = 0;
    while i < args.len() {
        let name = args[i].trim_start_matches("--").replace('-', "_");
        if args[i] == "--empty-capture" {
            q.push_str("&empty_capture=true");
            i += 1;
        } else {
            q.push_str(&format!("&{name}={}", args[i + 1]));
            i += 2;
        }
    }
    q
}

/// The games asked one after another: rule sets that share a table key (Kalah's leaves out
/// the seeds, the sowing family's too) follow each other with other starts.
const GAMES: &[(&str, &[&str])] = &[
    ("kalah", &["--pits", "4", "--seeds", "3"]),
    ("kalah", &["--pits", "4", "--seeds", "4"]),
    ("kalah", &["--pits", "4", "--seeds", "2"]),
    ("kalah", &["--pits", "4", "--seeds", "3", "--empty-capture"]),
    ("kalah", &["--pits", "3", "--seeds", "3"]),
    ("mancala", &["--pits", "4"]),
    ("kalah", &["--pits", "4", "--seeds", "3"]),
    ("awari", &["--pits", "3", "--seeds", "2"]),
    ("awari", &["--pits", "3", "--seeds", "3"]),
    ("oware", &["--pits", "3", "--seeds", "2"]),
    (
        "wari",
        &["--pits", "3", "--seeds", "2", "--grand-slam", "gs1"],
    ),
    (
        "wari",
        &["--pits", "3", "--seeds", "2", "--grand-slam", "gs3a"],
    ),
    (
        "wari",
        &["--pits", "3", "--seeds", "2", "--grand-slam", "gs6"],
    ),
    ("ayo-ayo", &["--pits", "3", "--seeds", "2"]),
    ("ayo-ayo", &["--pits", "3", "--seeds", "1"]),
    ("mankala-2p", &["--pits", "3", "--seeds", "2"]),
    (
        "mankala-2p",
        &["--pits", "3", "--seeds", "2", "--rule", "relay"],
    ),
    ("nam-nam", &["--pits", "3", "--seeds", "2"]),
    (
        "nam-nam",
        &["--pits", "3", "--seeds", "2", "--owners", "ssnsnn"],
    ),
];

/// The CLI's answer for `cmd` of the game, `--json`, over its own table folder.
fn cli(cmd: &str, variant: &str, args: &[&str], position: Option<&str>, dir: &Path) -> Value {
    let mut words = vec![cmd, variant];
    words.extend_from_slice(args);
    if let Some(p) = position {
        words.push(p);
    }
    words.extend_from_slice(&["--json", "--dir", dir.to_str().unwrap()]);
    if cmd != "play" {
        words.push("--quiet");
    }
    json(&words)
}

#[test]
fn one_server_answers_every_game_asked_in_turn_as_the_command_line_does() {
    let served = scratch("serve-seq");
    std::fs::create_dir_all(&served).unwrap();
    let own = scratch("serve-seq-cli");
    let server = Server::start(&served, &[]);
    // Twice round: the second time every rule set is open already, with its searcher's memory.
    for round in 0..2 {
        for &(variant, args) in GAMES {
            let what = format!("round {round}: {variant} {args:?}");
            let q = params(variant, args);
            let (status, board) = server.get(&format!("/api/play?{q}"));
            assert_eq!(status, 200, "{what}: {board}");
            let start = cli("play", variant, args, None, &own);
            for field in ["pits", "stores", "to_move", "legal", "over"] {
                assert_eq!(board[field], start[field], "{what}: {field}");
            }
            let position = board["position"].as_str().unwrap().to_string();
            let (status, solved) = server.get(&format!("/api/solve?{q}"));
            assert_eq!(status, 200, "{what}: {solved}");
            let want = cli("solve", variant, args, Some(&position), &own);
            assert!(want["value"].is_i64(), "{what}: {want}");
            for field in ["value", "bounds", "best"] {
                assert_eq!(solved[field], want[field], "{what}: {field}");
            }
            let (status, asked) =
                server.get(&format!("/api/query?{q}&position={}", esc(&position)));
            assert_eq!(status, 200, "{what}: {asked}");
            let want = cli("query", variant, args, Some(&position), &own);
            for field in ["value", "best", "seeds"] {
                assert_eq!(asked[field], want[field], "{what}: {field}");
            }
            // Every move's exact value, as `--exact` gives it; the plain answer's bounds (which
            // depend on what each searcher remembered) hold them.
            let (status, exact) = server.get(&format!(
                "/api/query?{q}&position={}&exact=true",
                esc(&position)
            ));
            assert_eq!(status, 200, "{what}: {exact}");
            let mut words = args.to_vec();
            words.push("--exact");
            let want = cli("query", variant, &words, Some(&position), &own);
            for field in ["value", "moves", "best", "seeds"] {
                assert_eq!(exact[field], want[field], "{what}: exact {field}");
            }
            let exact_moves = exact["moves"].as_array().unwrap();
            for (m, e) in asked["moves"].as_array().unwrap().iter().zip(exact_moves) {
                let truth = e["value"].as_i64().unwrap();
                match m["value"].as_i64() {
                    Some(v) => assert_eq!(v, truth, "{what}: {m}"),
                    None => {
                        let lo = m["bounds"][0].as_i64().unwrap();
                        let hi = m["bounds"][1].as_i64().unwrap();
                        assert!(lo <= truth && truth <= hi, "{what}: {m} against {e}");
                    }
                }
            }
        }
    }
}

#[test]
fn positions_without_a_move_are_valued_as_the_command_line_values_them() {
    let served = scratch("serve-ends");
    std::fs::create_dir_all(&served).unwrap();
    let own = scratch("serve-ends-cli");
    let server = Server::start(&served, &[]);
    // The mover has no seeds (or no move): the game ends, and the seeds left go as the rules
    // say. Awari's -8 was once answered 0 with "seeds": 0 (the board after the sweep).
    let cases: &[(&str, &[&str], &str, i64)] = &[
        ("awari", &[], "0 0 0 0 0 0 5 3 0 0 0 0", -8),
        ("oware", &[], "0 0 0 0 0 0 5 3 0 0 0 0", -8),
        ("wari", &[], "0 0 0 0 0 0 1 1 0 0 0 0", -2),
        ("kalah", &["--seeds", "4"], "0 0 0 0 0 0 5 3 0 0 0 0", -8),
        (
            "kalah",
            &["--seeds", "4", "--empty-capture"],
            "0 0 0 0 0 0 1 0 0 0 0 0",
            -1,
        ),
        ("ayo-ayo", &[], "0 0 0 0 0 0 2 1 0 0 0 0", 0),
    ];
    for &(variant, args, position, _) in cases {
        let q = params(variant, args);
        let what = format!("{variant} {args:?} {position}");
        let want = cli("query", variant, args, Some(position), &own);
        let (status, asked) = server.get(&format!("/api/query?{q}&position={}", esc(position)));
        assert_eq!(status, 200, "{what}: {asked}");
        for field in ["value", "moves", "best", "seeds"] {
            assert_eq!(asked[field], want[field], "{what}: {field}");
        }
        let want = cli("solve", variant, args, Some(position), &own);
        let (status, solved) = server.get(&format!("/api/solve?{q}&position={}", esc(position)));
        assert_eq!(status, 200, "{what}: {solved}");
        for field in ["value", "bounds", "best"] {
            assert_eq!(solved[field], want[field], "{what}: {field}");
        }
    }
    // The values themselves, independent of both: the seeds left go to the side that owns
    // them (Awari, Oware, Kalah), or to nobody where ayo-ayo's rules say so.
    for &(variant, args, position, value) in cases.iter().take(4) {
        let q = params(variant, args);
        let (_, asked) = server.get(&format!("/api/query?{q}&position={}", esc(position)));
        assert_eq!(asked["value"], value, "{variant} {position}");
    }
}

/// A question's time limit bounds its whole answer: the backward solution of the positions
/// above the tables, and then each move's search, share one deadline. (Each part once had its
/// own: a 1-second query of this position took 2.1 s, and more moves could take more.)
#[test]
fn a_time_limit_bounds_the_whole_answer() {
    let dir = scratch("serve-limit");
    let d = dir.to_str().unwrap();
    let out = common::mancala(&["build", "awari", "--max-seeds", "12", "--dir", d, "-q"]);
    assert!(out.status.success());
    let server = Server::start(&dir, &[]);
    // 17 seeds above 12-seed tables: the positions it reaches are too many to solve in time.
    let position = esc("3 2 2 2 1 1 1 1 1 1 1 1");
    for api in ["query", "solve"] {
        let started = std::time::Instant::now();
        let (status, a) = server.get(&format!(
            "/api/{api}?variant=awari&position={position}&max_seconds=2"
        ));
        let took = started.elapsed().as_secs_f64();
        assert!(took < 3.5, "{api}: {took:.2} s for a 2 s limit: {a}");
        match api {
            "query" => assert_eq!(status, 503, "{a}"),
            _ => assert_eq!((status, a["value"].is_null()), (200, true), "{a}"),
        }
    }
}

/// A client that goes away takes its search with it: the server's one search slot is free
/// for the next question at once, instead of after the first search's whole time limit.
#[test]
fn a_dropped_request_cancels_its_search() {
    let dir = scratch("serve-drop");
    let d = dir.to_str().unwrap();
    let out = common::mancala(&["build", "awari", "--max-seeds", "12", "--dir", d, "-q"]);
    assert!(out.status.success());
    let server = Server::start(&dir, &[]);
    // A search that would run for the whole minute, given up by its client after half a
    // second (the connection closed).
    let impatient: ureq::Agent = ureq::Agent::config_builder()
        .timeout_global(Some(std::time::Duration::from_millis(500)))
        .build()
        .into();
    let long = format!(
        "{}/api/solve?variant=awari&position={}",
        server.url,
        esc("3 2 2 2 1 1 1 1 1 1 1 1")
    );
    assert!(impatient.get(&long).call().is_err(), "given up");
    // The next search gets the slot: it is answered well within its own 10 seconds.
    let started = std::time::Instant::now();
    let (status, s) = server.get("/api/solve?variant=kalah&seeds=3&max_seconds=10");
    assert_eq!((status, s["value"].as_i64()), (200, Some(2)), "{s}");
    assert!(
        started.elapsed().as_secs_f64() < 8.0,
        "{:?}",
        started.elapsed()
    );
}

/// `mancala serve` over `dir` on a free port of 127.0.0.1 with `extra` options, its standard
/// output piped (its first line says the address) and its standard error to `stderr`.
fn spawn(dir: &Path, extra: &[&str], stderr: Stdio) -> Child {
    Command::new(env!("CARGO_BIN_EXE_mancala"))
        .args(["serve", "--addr", "127.0.0.1:0", "--max-seconds", "60"])
        .arg("--dir")
        .arg(dir)
        .args(extra)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(stderr)
        .spawn()
        .expect("mancala serve starts")
}

/// A server's first lines on standard error, up to one holding `until` (at most `lines`).
fn stderr_lines(dir: &Path, until: &str, lines: usize) -> Vec<String> {
    let mut child = spawn(dir, &[], Stdio::piped());
    let mut out = Vec::new();
    for line in BufReader::new(child.stderr.take().unwrap())
        .lines()
        .take(lines)
    {
        let line = line.unwrap();
        let done = line.contains(until);
        out.push(line);
        if done {
            break;
        }
    }
    let _ = child.kill();
    let _ = child.wait();
    out
}

#[test]
fn the_server_reads_its_tables_into_memory_when_it_starts_unless_told_not_to() {
    let dir = scratch("serve-warm");
    let d = dir.to_str().unwrap();
    let built = common::mancala(&["build", "awari", "--max-seeds", "8", "--dir", d, "-q"]);
    assert!(built.status.success(), "{built:?}");
    let said = stderr_lines(&dir, "tables in memory", 4);
    assert!(
        said.iter()
            .any(|l| l.starts_with("tables of awari") && l.contains("read into memory")),
        "{said:?}"
    );
    assert!(
        said.last()
            .is_some_and(|l| l.starts_with("tables in memory")),
        "{said:?}"
    );
    // Told not to, it reads nothing: asked a question first (which gives a server that
    // would read time to say so), it has said no such line when stopped.
    let mut child = spawn(&dir, &["--no-warm"], Stdio::piped());
    let stderr = child.stderr.take().unwrap();
    let server = Server::started(child);
    let (status, answer) = server
        .get("/api/query?variant=awari&position=1%200%200%200%200%200%200%200%200%200%200%201");
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["source"], "table", "{answer}");
    drop(server); // stopped: its standard error ends
    let mut rest = String::new();
    std::io::Read::read_to_string(&mut { stderr }, &mut rest).unwrap();
    assert!(!rest.lines().any(|l| l.starts_with("tables ")), "{rest}");
}
