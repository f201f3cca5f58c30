//! The distributed build under a real `mpirun` on this machine (loopback, oversubscribed):
//! 2 and 3 processes write the single process's files byte for byte, for Awari and Kalah,
//! with exchanges cut into many rounds; a process killed in the middle of a tier stops the
//! whole job with an error, and the same command run again finishes with the same bytes.
//!
//! Needs `--features mpi` and `mpirun` on the PATH (OpenMPI or MPICH):
//! `cargo test --release -p mancala-cli --features mpi --test mpi`.

#![cfg(feature = "mpi")]

mod common;

use common::scratch;
use std::path::Path;
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_mancala");

/// `mpirun -np <processes> mancala <args> --mpi`, allowed to run as root (containers) and
/// to put more processes than cores on this machine.
fn mpirun(processes: usize, args: &[&str], env: &[(&str, &str)]) -> Command {
    let mut c = Command::new("mpirun");
    c.args(["--oversubscribe", "-np", &processes.to_string(), BIN])
        .args(args)
        .arg("--mpi")
        .env("OMPI_ALLOW_RUN_AS_ROOT", "1")
        .env("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
        .envs(env.iter().copied());
    c
}

fn run(c: &mut Command) -> Output {
    let out = c.output().expect("mpirun on the PATH");
    assert!(
        out.status.success(),
        "{c:?} failed: {}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

fn build_args<'a>(variant: &'a [&'a str], max: &'a str, dir: &'a Path) -> Vec<&'a str> {
    let mut args = vec!["build"];
    args.extend_from_slice(variant);
    args.extend(["--max-seeds", max, "--dir", dir.to_str().unwrap(), "-q"]);
    args
}

fn same_files(a: &Path, b: &Path, key: &str, max: usize) {
    for n in 0..=max {
        let file = format!("{key}/tier-{n:03}.mtb");
        let (fa, fb) = (std::fs::read(a.join(&file)), std::fs::read(b.join(&file)));
        assert!(
            fa.unwrap() == fb.unwrap(),
            "{file} differs from the single process's"
        );
    }
}

#[test]
fn two_and_three_processes_write_the_files_of_one() {
    let cases: [(&[&str], usize, &str); 2] = [
        (&["awari"], 16, "awari-6x4"),
        (&["kalah", "--pits", "6", "--seeds", "4"], 14, "kalah-6p"),
    ];
    for (variant, max, key) in cases {
        let m = max.to_string();
        let single = scratch(&format!("mpi-single-{key}"));
        run(Command::new(BIN).args(build_args(variant, &m, &single)));
        for (processes, env) in [
            (2, vec![]),
            // Exchanges cut into rounds of 1,000 updates a pair.
            (3, vec![("MANCALA_MPI_CHUNK", "1000")]),
        ] {
            let dir = scratch(&format!("mpi-{processes}-{key}"));
            let mut args = build_args(variant, &m, &dir);
            args.push("--json");
            let out = run(&mut mpirun(processes, &args, &env));
            // Process 0 alone prints, a line a tier, with the bytes the processes sent.
            let text = String::from_utf8(out.stdout).unwrap();
            let lines: Vec<serde_json::Value> = text
                .lines()
                .map(|l| serde_json::from_str(l).unwrap())
                .collect();
            assert_eq!(lines.len(), max + 1, "{text}");
            assert!(lines[max]["sent_bytes"].as_u64().unwrap() > 0, "{text}");
            same_files(&single, &dir, key, max);
        }
    }
}

/// The `mancala` processes `mpirun` started (its children, or their children).
fn ranks_of(mpirun: &Child) -> Vec<u32> {
    let out = Command::new("ps")
        .args(["-e", "-o", "pid=,ppid=,comm="])
        .output()
        .unwrap();
    let rows: Vec<(u32, u32, String)> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| {
            let mut w = l.split_whitespace();
            Some((
                w.next()?.parse().ok()?,
                w.next()?.parse().ok()?,
                w.next()?.into(),
            ))
        })
        .collect();
    let mut family = vec![mpirun.id()];
    let mut ranks = Vec::new();
    while let Some(p) = family.pop() {
        for (pid, ppid, comm) in &rows {
            if *ppid == p {
                family.push(*pid);
                if comm == "mancala" {
                    ranks.push(*pid);
                }
            }
        }
    }
    ranks
}

#[test]
fn a_process_killed_in_a_tier_stops_the_job_and_a_rerun_ends_with_the_same_bytes() {
    let single = scratch("mpi-kill-single");
    run(Command::new(BIN).args(build_args(&["awari"], "17", &single)));
    let dir = scratch("mpi-kill");
    let args = build_args(&["awari"], "17", &dir);
    let mut job = mpirun(2, &args, &[])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("mpirun on the PATH");
    // Kill process 1 once tier 15 is built (tiers 16 and 17 take a while longer).
    let t15 = dir.join("awari-6x4/tier-015.mtb");
    let start = Instant::now();
    while !t15.exists() {
        assert!(
            start.elapsed() < Duration::from_secs(120),
            "tier 15 never came"
        );
        assert!(job.try_wait().unwrap().is_none(), "the job ended early");
        std::thread::sleep(Duration::from_millis(2));
    }
    let ranks = ranks_of(&job);
    assert_eq!(ranks.len(), 2, "two processes: {ranks:?}");
    let victim = *ranks.iter().max().unwrap();
    Command::new("kill")
        .args(["-KILL", &victim.to_string()])
        .status()
        .unwrap();
    let out = job.wait_with_output().unwrap();
    assert!(!out.status.success(), "the job went on without a process");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!err.contains("panicked"), "{err}");
    assert!(
        !dir.join("awari-6x4/tier-017.mtb").exists(),
        "the job stopped before its last tier"
    );
    // The same command again: the finished tiers are kept and the rest built.
    let out = run(&mut mpirun(2, &args, &[]));
    assert!(out.status.success());
    same_files(&single, &dir, "awari-6x4", 17);
    let left: Vec<String> = std::fs::read_dir(dir.join("awari-6x4"))
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|f| !f.ends_with(".mtb") && f != ".lock")
        .collect();
    // A killed tier's parts may stay until that tier is built again; none are left now.
    assert!(left.is_empty(), "left behind: {left:?}");
}
