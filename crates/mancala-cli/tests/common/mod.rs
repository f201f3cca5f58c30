//! What the command-line tests share: running the binary and scratch folders.

#![allow(dead_code)]

use serde_json::Value;
use std::path::PathBuf;
use std::process::{Child, Command, ExitStatus, Output};
use std::time::{Duration, Instant};

/// Runs `mancala` with `args` and collects its output.
pub fn mancala(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_mancala"))
        .args(args)
        .output()
        .expect("run mancala")
}

/// Waits for `child` to end, killing it (and failing, naming `what`) if it runs longer than
/// `limit`.
pub fn wait_within(child: &mut Child, limit: Duration, what: &str) -> ExitStatus {
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status;
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            panic!("{what} still ran after {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// Runs `mancala`, which must succeed, and parses its stdout as JSON.
pub fn json(args: &[&str]) -> Value {
    let out = mancala(args);
    assert!(
        out.status.success(),
        "{args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("valid JSON")
}

/// An empty folder of this test process.
pub fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("mancala-cli-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

/// Each command must fail with one line on stderr that contains its needle (a usage error:
/// clap's message, whose first line does), and no panic.
pub fn assert_one_line_errors(cases: &[(&[&str], &str)]) {
    for &(args, needle) in cases {
        let out = mancala(args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{args:?} succeeded");
        assert!(!err.contains("panicked"), "{args:?} panicked: {err}");
        // A usage error (exit code 2) is clap's whole message: its first line names the
        // problem, the last says where the help is. Any other error is one line.
        let lines = err.trim_end().lines().count();
        if out.status.code() == Some(2) {
            assert!(
                err.lines().next().is_some_and(|l| l.contains(needle)),
                "{args:?}: {err}"
            );
            assert!(err.contains("--help"), "{args:?}: {err}");
        } else {
            assert_eq!(lines, 1, "{args:?}: {err}");
        }
        assert!(err.contains(needle), "{args:?}: '{err}' lacks '{needle}'");
    }
}

/// The values of the moves of a `query --json` answer, in pit order.
pub fn move_values(answer: &Value) -> Vec<i64> {
    answer["moves"]
        .as_array()
        .expect("moves")
        .iter()
        .map(|m| m["value"].as_i64().expect("a value"))
        .collect()
}
