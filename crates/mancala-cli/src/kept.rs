//! `solve --hash-file`: the search's transposition table kept in a file, read back at the
//! start, saved every few minutes while the search runs and once more when it ends, so that a
//! proof too long for one run goes on from what earlier runs proved.

use crate::tiers::bytes_text;
use anyhow::Result;
pub use mancala_oracle::TableFile;
use mancala_oracle::{Claim, Interrupt, KeepError, Opened, Oracle};
use mancala_rules::Rules;
use std::path::Path;
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::Duration;

/// Claims the file at `path` for the table of `rules` before anything long starts (the tables'
/// build): its lock taken, its header checked, a file writable beside it.
pub fn claim(path: &Path, rules: &Rules) -> Result<Claim> {
    TableFile::claim(path, rules).map_err(|e| advice(e, path))
}

/// Ties the oracle's searches to the claimed file's table (read back if the file exists), and
/// says so on stderr unless `quiet` (and that the file's size is used, where `hash_mb` asked
/// for another). A new table is saved at once, empty, so that a folder without room for it
/// fails now, not after hours of search.
pub fn open(oracle: &mut Oracle, claim: Claim, hash_mb: usize, quiet: bool) -> Result<TableFile> {
    let path = claim.path().to_path_buf();
    let (file, opened) = oracle.keep_table(claim).map_err(|e| advice(e, &path))?;
    match opened {
        Opened::Fresh => {
            if !quiet {
                eprintln!(
                    "transposition table kept in {}: a new one of {}",
                    path.display(),
                    bytes_text(file.bytes())
                );
            }
            save(&file, quiet)?;
        }
        Opened::Read { bytes, seconds } => {
            if !quiet {
                // The table --hash would have made: the largest power of two MiB within it.
                let asked = 1u64 << hash_mb.max(1).ilog2();
                let size = if bytes >> 20 == asked {
                    String::new()
                } else {
                    format!(" (the file's own size: --hash {hash_mb} applies only to a new one)")
                };
                eprintln!(
                    "transposition table read back from {}: {} in {seconds:.1} s{size}",
                    path.display(),
                    bytes_text(bytes)
                );
            }
        }
    }
    Ok(file)
}

/// Stops the search on SIGTERM (a `kill`, a shutdown) as Ctrl-C does, so that what it proved
/// is saved before the process ends; a second SIGTERM ends it at once. Only for a search with a
/// kept table: without one there is nothing to save, and SIGTERM keeps its default.
pub fn stop_on_sigterm(interrupt: Interrupt) {
    // Without the watcher SIGTERM keeps its default, and the periodic saves bound the loss.
    crate::searching::watch_signals("sigterm", move || async move {
        use tokio::signal::unix::{signal, SignalKind};
        let Ok(mut term) = signal(SignalKind::terminate()) else {
            return;
        };
        if term.recv().await.is_none() {
            return;
        }
        crate::searching::stopped_by(crate::searching::Signal::Term);
        interrupt.raise();
        eprintln!(
            "stopping the search on SIGTERM: the table is saved, then the bounds proven so far follow (SIGTERM again to quit at once)"
        );
        if term.recv().await.is_some() {
            std::process::exit(143);
        }
    });
}

/// Runs `search`, saving `file` every `minutes` (none if 0) on a thread of its own meanwhile.
/// A save that fails is reported and the search goes on: the next save, or the last one,
/// may still succeed.
pub fn saving_every<T>(
    file: &TableFile,
    minutes: f64,
    quiet: bool,
    search: impl FnOnce() -> T,
) -> T {
    if minutes <= 0.0 {
        return search();
    }
    let every = Duration::from_secs_f64(minutes * 60.0);
    let (done, wait) = mpsc::channel::<()>();
    std::thread::scope(|s| {
        s.spawn(move || loop {
            match wait.recv_timeout(every) {
                Err(RecvTimeoutError::Timeout) => {
                    if let Err(e) = save(file, quiet) {
                        eprintln!("warning: {e:#}");
                    }
                }
                _ => return,
            }
        });
        let out = search();
        drop(done);
        out
    })
}

/// Saves `file` now, with a line on stderr unless `quiet`.
pub fn save(file: &TableFile, quiet: bool) -> Result<()> {
    let saved = file.save().map_err(|e| advice(e, file.path()))?;
    if !quiet {
        eprintln!(
            "transposition table saved to {}: {} in {:.1} s",
            file.path().display(),
            bytes_text(saved.bytes),
            saved.seconds
        );
    }
    Ok(())
}

/// A kept table's error with what to do about it.
fn advice(e: KeepError, path: &Path) -> anyhow::Error {
    let p = path.display();
    let hint = match &e {
        KeepError::OtherRules { found, .. } => format!(
            "each rule set's values need a file of their own: give another --hash-file, or use this one to solve {found}"
        ),
        KeepError::Foreign { .. } | KeepError::Damaged { .. } => format!(
            "delete {p} (the search then starts afresh and writes a new one) or give another --hash-file"
        ),
        KeepError::NotAFile { .. } => {
            "give the name of a file (it is created when missing)".into()
        }
        KeepError::Busy { .. } => format!(
            "another mancala solve is using {p}: wait for it to end, or give another --hash-file"
        ),
        KeepError::Io { .. } => format!(
            "check that {p} can be read and its folder written, with room for two copies of the table (each as big as --hash)"
        ),
        KeepError::TooBig { .. } => format!(
            "use it on a machine with that much memory, or delete {p} and start afresh with a --hash that fits"
        ),
        KeepError::KeyTooLong { .. } => "solve without --hash-file".into(),
        KeepError::Alloc(_) => "try a smaller --hash, or a file written with one".into(),
    };
    crate::advice::with_hint(e.into(), hint)
}
