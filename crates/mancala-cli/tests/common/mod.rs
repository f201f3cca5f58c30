//! What the command-line tests share: running the binary and scratch folders.

#![allow(dead_code)]

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Output};
use std::time::{Duration, Instant};

pub mod process_folder;

/// Runs `mancala` with `args` and collects its output.
pub fn mancala(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_mancala"))
        .args(args)
        .output()
        .expect("run mancala")
}

/// Waits for `child` to end, killing it (and failing, naming `what`) if it runs longer than
/// `limit`. A child writing to a pipe nobody reads blocks once the pipe is full (64 KiB), and
/// would be reported as still running: drain its piped output on other threads meanwhile (as
/// [`interrupt_once`] does).
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

/// What an interrupted run left: its exit status, stdout, and stderr.
pub struct Interrupted {
    pub status: ExitStatus,
    pub stdout: String,
    pub stderr: String,
}

/// Runs `mancala` with `args`, sends it SIGINT (as Ctrl-C does) once a line of its stderr
/// contains `cue` (or `after` has passed since the start, when `cue` is empty), and collects
/// what it printed. Fails, killing it, if the cue does not come within two minutes or the
/// run does not end within one after the signal. Both pipes are read on their own threads,
/// so a chatty run cannot block on them.
#[cfg(unix)]
pub fn interrupt_once(args: &[&str], cue: &str, after: Duration) -> Interrupted {
    signal_once(args, cue, after, libc::SIGINT)
}

/// [`interrupt_once`] with another signal (SIGTERM, as `kill` sends).
#[cfg(unix)]
pub fn signal_once(args: &[&str], cue: &str, after: Duration, signal: libc::c_int) -> Interrupted {
    use std::io::{BufRead, BufReader, Read};
    use std::process::Stdio;
    use std::sync::mpsc;
    let mut command = Command::new(env!("CARGO_BIN_EXE_mancala"));
    command
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    // A test run started in the background (SIGINT inherited ignored, which `mancala` then
    // keeps) must still test Ctrl-C as a terminal delivers it.
    sigint_in_child(&mut command, libc::SIG_DFL);
    let mut child = command.spawn().expect("run mancala");
    let mut out = child.stdout.take().expect("piped stdout");
    let stdout = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = out.read_to_string(&mut s);
        s
    });
    let err = BufReader::new(child.stderr.take().expect("piped stderr"));
    let (tx, lines) = mpsc::channel();
    let stderr = std::thread::spawn(move || {
        for line in err.lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    // Without a cue the signal goes at `after`; with one, the cue must come within two minutes.
    let deadline = Instant::now()
        + if cue.is_empty() {
            after
        } else {
            Duration::from_secs(120)
        };
    let mut seen = String::new();
    loop {
        match lines.recv_timeout(deadline.saturating_duration_since(Instant::now())) {
            Ok(line) => {
                seen.push_str(&line);
                seen.push('\n');
                if !cue.is_empty() && line.contains(cue) {
                    break;
                }
            }
            Err(mpsc::RecvTimeoutError::Timeout) if cue.is_empty() => break,
            Err(e) => {
                let _ = child.kill();
                panic!("{args:?}: no '{cue}' on stderr ({e}): {seen}");
            }
        }
    }
    send(&child, signal);
    let status = wait_within(
        &mut child,
        Duration::from_secs(60),
        "the run, after the signal,",
    );
    stderr.join().expect("stderr reader");
    seen.extend(lines.try_iter().map(|l| l + "\n"));
    Interrupted {
        status,
        stdout: stdout.join().expect("stdout reader"),
        stderr: seen,
    }
}

/// Gives SIGINT the disposition `action` (`libc::SIG_DFL` or `libc::SIG_IGN`) in the process
/// `command` starts, whatever this one has.
#[cfg(unix)]
pub fn sigint_in_child(command: &mut Command, action: libc::sighandler_t) {
    use std::os::unix::process::CommandExt;
    // SAFETY: between fork and exec only `signal`, which is async-signal-safe, runs.
    unsafe {
        command.pre_exec(move || {
            libc::signal(libc::SIGINT, action);
            Ok(())
        });
    }
}

/// Sends `child` SIGINT, as Ctrl-C at a terminal does.
#[cfg(unix)]
pub fn sigint(child: &Child) {
    send(child, libc::SIGINT);
}

/// Sends `child` the signal `signal`.
#[cfg(unix)]
pub fn send(child: &Child, signal: libc::c_int) {
    let pid = libc::pid_t::try_from(child.id()).expect("a pid");
    // SAFETY: a signal to a child this test started and has not yet waited for.
    assert_eq!(
        unsafe { libc::kill(pid, signal) },
        0,
        "signal {signal} to {pid}"
    );
}

/// The proven bounds of a `solve --json` answer.
pub fn bounds(answer: &Value) -> (i64, i64) {
    let end = |i: usize| answer["bounds"][i].as_i64().expect("a bound");
    (end(0), end(1))
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

/// A folder of this test process (not yet made), removed with what is in it when dropped, at
/// the end of its test whether the test passed or failed (a panic unwinds through the drop).
pub struct Scratch(PathBuf);

impl std::ops::Deref for Scratch {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.0
    }
}

impl AsRef<Path> for Scratch {
    fn as_ref(&self) -> &Path {
        &self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// An empty folder of this test process, removed when the returned guard is dropped.
pub fn scratch(name: &str) -> Scratch {
    let d = std::env::temp_dir().join(format!("mancala-cli-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    Scratch(d)
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
