//! A build killed in the middle of a tier (SIGKILL once inside phase 1, once in the
//! thresholds, then at moments that vary from run to run) resumes from its last checkpoint
//! and ends with the same bytes as a build that was never stopped; it leaves no checkpoint or
//! exit file behind.

mod common;

use common::{mancala, scratch};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant, SystemTime};

const BIN: &str = env!("CARGO_BIN_EXE_mancala");

fn build_args(dir: &Path, max: usize, extra: &[&str]) -> Vec<String> {
    let mut args: Vec<String> = ["build", "awari", "--max-seeds", &max.to_string(), "--dir"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    args.push(dir.to_str().unwrap().into());
    args.extend(extra.iter().map(|s| s.to_string()));
    args
}

/// Builds tiers `0..=max` into `dir`, which must succeed.
fn build_quietly(dir: &Path, max: usize) {
    let args = build_args(dir, max, &["-q"]);
    let out = Command::new(BIN).args(&args).output().unwrap();
    assert!(out.status.success(), "{args:?} failed");
}

/// Starts a build and kills it when `stop` says so (or lets it finish).
fn run_and_kill(
    dir: &Path,
    max: usize,
    extra: &[&str],
    stop: impl FnMut(Duration) -> bool,
) -> bool {
    let mut args = vec!["--checkpoint-minutes", "0", "-q"];
    args.extend(extra);
    spawn_and_kill(&build_args(dir, max, &args), stop)
}

/// Runs `mancala` with `args` and kills it (SIGKILL) when `stop` says so, given the time
/// since it started: true; or lets it finish, which it must do successfully: false.
fn spawn_and_kill<S: AsRef<std::ffi::OsStr>>(
    args: &[S],
    mut stop: impl FnMut(Duration) -> bool,
) -> bool {
    let mut child = Command::new(BIN)
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            assert!(status.success(), "mancala failed: {status}");
            return false;
        }
        if stop(start.elapsed()) {
            child.kill().unwrap(); // SIGKILL
            child.wait().unwrap();
            return true;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// With every tier in memory (phase 1 in slices, each slice's exits copied beside the
/// checkpoint as it ends, so that a checkpoint can fall inside phase 1).
#[test]
fn a_killed_build_resumes_inside_the_tier_with_the_same_bytes() {
    kill_and_resume("resume-memory", &[]);
}

/// With a budget that keeps the top tier's exits in a file: two slices by the plan, which
/// the checkpoint after every threshold (`--checkpoint-minutes 0`) raises to eight, so that
/// phase 1 is checkpointed between them.
#[test]
fn a_killed_budgeted_build_resumes_with_the_same_bytes() {
    kill_and_resume("resume-budget", &["--memory", "75M"]);
}

/// Builds tiers `0..=max` into `dir` without a kill, saving a checkpoint after every
/// threshold as the killed runs do, with `extra` arguments: the run's output.
fn build_to_the_end(dir: &Path, max: usize, extra: &[&str]) -> std::process::Output {
    let mut args = vec!["--checkpoint-minutes", "0"];
    args.extend(extra);
    let args = build_args(dir, max, &args);
    mancala(&args.iter().map(String::as_str).collect::<Vec<_>>())
}

/// The first 8 bytes of a checkpoint (zeros while there is none).
fn magic(ckpt: &Path) -> [u8; 8] {
    use std::io::Read;
    let mut m = [0u8; 8];
    if let Ok(mut f) = std::fs::File::open(ckpt) {
        let _ = f.read_exact(&mut m);
    }
    m
}

fn kill_and_resume(name: &str, extra: &[&str]) {
    let dir = scratch(name);
    let (clean, killed) = (dir.join("clean"), dir.join("killed"));
    let max = 17;
    build_quietly(&clean, max);
    // The tiers below the top one first, so the kills land in the top tier.
    build_quietly(&killed, max - 1);

    let key_dir = killed.join("awari-6x4");
    let ckpt = key_dir.join(format!("tier-{max:03}.ckpt"));
    // Once right after a checkpoint appears...
    assert!(
        run_and_kill(&killed, max, extra, |_| ckpt.exists()),
        "the build ended before its first checkpoint"
    );
    // ...which is one between the slices of phase 1 (with the exits on disk, or in memory
    // and copied to the checkpoint's exit file slice by slice); then once the run that
    // resumes from it has reached the thresholds.
    assert_eq!(magic(&ckpt), *b"MNCKPT02", "a checkpoint inside phase 1");
    assert!(
        run_and_kill(&killed, max, extra, |_| magic(&ckpt) == *b"MNCKPT01"),
        "the resumed build ended before its first checkpoint in the thresholds"
    );
    // ...then at moments that vary from run to run.
    let mut seed = SystemTime::now()
        .duration_since(SystemTime::UNIX_EPOCH)
        .unwrap()
        .subsec_nanos() as u64;
    for _ in 0..4 {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let at = Duration::from_millis(50 + (seed >> 33) % 1500);
        run_and_kill(&killed, max, extra, |t| t >= at);
    }
    // The last run finishes, and says where it resumed when a checkpoint was there (one
    // killed between writing the tier and removing its checkpoint reuses the tier).
    let top = key_dir.join(format!("tier-{max:03}.mtb"));
    let had_checkpoint = ckpt.exists() && !top.exists();
    let last = build_to_the_end(&killed, max, extra);
    assert!(last.status.success());
    let text = String::from_utf8_lossy(&last.stdout);
    if !extra.is_empty() {
        assert!(
            text.contains(&format!("tier {max} keeps the best exits on disk")),
            "{text}"
        );
    }
    assert_eq!(
        text.contains("resuming from its checkpoint"),
        had_checkpoint,
        "{text}"
    );
    for n in 0..=max {
        let name = format!("awari-6x4/tier-{n:03}.mtb");
        let a = std::fs::read(clean.join(&name)).unwrap();
        let b = std::fs::read(killed.join(&name)).unwrap();
        assert!(a == b, "tier {n} differs after the kills");
    }
    let left: Vec<_> = std::fs::read_dir(&key_dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|f| !f.ends_with(".mtb") && f != ".lock")
        .collect();
    assert!(left.is_empty(), "left behind: {left:?}");
}

/// A checkpoint holds best exits worked out from the lower tiers' values: once those files
/// change (here packed, so their checksums differ though the values do not), the killed
/// tier starts over instead of resuming, says so, and ends with the same bytes.
#[test]
fn a_checkpoint_over_other_lower_tiers_is_not_resumed() {
    let dir = scratch("resume-other-lower");
    let (clean, killed) = (dir.join("clean"), dir.join("killed"));
    let max = 17;
    build_quietly(&clean, max);
    build_quietly(&killed, max - 1);
    let ckpt = killed.join("awari-6x4").join(format!("tier-{max:03}.ckpt"));
    assert!(
        run_and_kill(&killed, max, &[], |_| ckpt.exists()),
        "the build ended before its first checkpoint"
    );
    let killed_arg = killed.to_str().unwrap();
    let below = (max - 1).to_string();
    let pack = mancala(&["pack", "awari", "--max-seeds", &below, "--dir", killed_arg]);
    assert!(
        pack.status.success(),
        "{}",
        String::from_utf8_lossy(&pack.stderr)
    );
    let last = build_to_the_end(&killed, max, &[]);
    assert!(last.status.success());
    let (out, err) = (
        String::from_utf8_lossy(&last.stdout),
        String::from_utf8_lossy(&last.stderr),
    );
    assert!(!out.contains("resuming from its checkpoint"), "{out}");
    assert!(err.contains(&format!("tier {max}: its checkpoint is damaged, from another version of mancala, or saved over other lower tiers")), "{err}");
    let name = format!("awari-6x4/tier-{max:03}.mtb");
    assert!(
        std::fs::read(clean.join(&name)).unwrap() == std::fs::read(killed.join(&name)).unwrap(),
        "tier {max} differs"
    );
    assert!(!ckpt.exists());
}

/// A verification of the top tier read in order (a small budget), killed once it has
/// recorded a slice, goes on from its journal, and `--fresh` checks everything again.
#[test]
fn a_killed_verification_goes_on_from_its_journal() {
    let dir = scratch("verify-journal");
    let max = 16;
    build_quietly(&dir, max);
    let journal = dir.join("awari-6x4").join("verify.journal");
    let top = format!("tier={max} ");
    let size = 12_685_179u64;
    let dir_arg = dir.to_str().unwrap();
    // Tier 16 (12.7 M positions) with 20 MB: its best exits by scans, in four slices.
    let args = [
        "verify",
        "awari",
        "--dir",
        dir_arg,
        "--min-seeds",
        "16",
        "--memory",
        "20M",
        "-q",
    ];
    // The most ranks of the top tier the journal says were checked.
    let recorded = || {
        std::fs::read_to_string(&journal)
            .unwrap_or_default()
            .lines()
            .filter(|l| l.contains(&top))
            .filter_map(|l| l.rsplit_once("done=")?.1.parse::<u64>().ok())
            .max()
    };
    assert!(
        spawn_and_kill(&args, |_| recorded().is_some()),
        "the verification ended before it recorded a slice"
    );
    let done = recorded().unwrap();
    assert!(done > 0 && done < size, "{done}");
    // The kill came after the first slice was recorded, and before the rest were.
    assert!(recorded().is_some_and(|d| d < size), "{:?}", recorded());

    let again = mancala(&args);
    assert!(again.status.success());
    let (out, err) = (
        String::from_utf8_lossy(&again.stdout),
        String::from_utf8_lossy(&again.stderr),
    );
    assert!(err.contains("tier  16: "), "{err}");
    assert!(err.contains("were checked by an earlier run"), "{err}");
    assert!(
        out.starts_with("ok: 1 tiers of awari-6x4, 12,685,179 positions"),
        "{out}"
    );
    assert!(out.contains("of them by an earlier run"), "{out}");

    let mut fresh = args.to_vec();
    fresh.push("--fresh");
    let fresh = mancala(&fresh);
    assert!(fresh.status.success());
    let out = String::from_utf8_lossy(&fresh.stdout);
    assert!(out.starts_with("ok: 1 tiers"), "{out}");
    assert!(!out.contains("earlier run"), "{out}");
}

/// A checkpoint the build cannot use (here not one at all) is said so, and the tier is built
/// from its start, with the same bytes, and the file goes.
#[test]
fn a_damaged_checkpoint_starts_the_tier_over() {
    let dir = scratch("resume-damaged");
    let (clean, damaged) = (dir.join("clean"), dir.join("damaged"));
    let max = 12;
    build_quietly(&clean, max);
    build_quietly(&damaged, max - 1);
    let ckpt = damaged.join(format!("awari-6x4/tier-{max:03}.ckpt"));
    std::fs::write(&ckpt, b"MNCKPT01 and then not a checkpoint at all").unwrap();
    let out = build_to_the_end(&damaged, max, &[]);
    assert!(out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(&format!(
            "tier {max}: its checkpoint is damaged, from another version"
        )),
        "{err}"
    );
    assert!(!String::from_utf8_lossy(&out.stdout).contains("resuming"));
    let name = format!("awari-6x4/tier-{max:03}.mtb");
    assert!(
        std::fs::read(clean.join(&name)).unwrap() == std::fs::read(damaged.join(&name)).unwrap()
    );
    assert!(
        !ckpt.exists(),
        "the damaged checkpoint is removed with the tier done"
    );
}
