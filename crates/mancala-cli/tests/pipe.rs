//! A closed output pipe (`mancala ... | head -1` once head is done).

use std::process::{Command, Stdio};

/// The reader goes away before the program writes: no panic message, SIGPIPE's status.
///
/// The reading end is closed as soon as the program is started, but a fast program can print
/// everything into the pipe's buffer first and rightly exit 0; so it is run until a run meets
/// the closed pipe (nearly every run does), and no run may panic.
#[test]
fn a_closed_pipe_ends_quietly() {
    let mut met_closed_pipe = 0;
    for _ in 0..20 {
        let mut child = Command::new(env!("CARGO_BIN_EXE_mancala"))
            .args(["tiers", "awari", "--max-seeds", "48"])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("run mancala");
        drop(child.stdout.take());
        let out = child.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!err.contains("panicked"), "{err}");
        match out.status.code() {
            Some(141) => met_closed_pipe += 1,
            Some(0) => {}
            other => panic!("status {other:?}: {err}"),
        }
    }
    assert!(met_closed_pipe > 0, "no run met the closed pipe");
}
