//! `solve --hash-file`: the search's transposition table kept in a file, read back at the
//! start, saved every few minutes while the search runs and once more when it ends, so that a
//! proof too long for one run goes on from what earlier runs proved.

use crate::tiers::bytes_text;
use anyhow::Result;
use mancala_oracle::{KeepError, Opened, Oracle, TableFile};
use mancala_rules::Rules;
use std::path::Path;
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::Duration;

/// Checks before anything long starts (the tables' build) that the file at `path` can keep
/// the table of `rules`: a table of theirs, or a name a file can be created at.
pub fn check(path: &Path, rules: &Rules) -> Result<()> {
    TableFile::check(path, rules).map_err(|e| advice(e, path))
}

/// Ties the oracle's searches to the table kept at `path` (read back if the file exists), and
/// says so on stderr unless `quiet`. A new table is saved at once, empty, so that a folder
/// without room for it fails now, not after hours of search.
pub fn open(oracle: &mut Oracle, path: &Path, quiet: bool) -> Result<TableFile> {
    let (file, opened) = oracle.keep_table(path).map_err(|e| advice(e, path))?;
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
                eprintln!(
                    "transposition table read back from {}: {} in {seconds:.1} s",
                    path.display(),
                    bytes_text(bytes)
                );
            }
        }
    }
    Ok(file)
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
        KeepError::Io { .. } => format!(
            "check that the folder of {p} is writable and has room for the table (as big as --hash)"
        ),
        KeepError::Alloc(_) => "try a smaller --hash, or a file written with one".into(),
    };
    crate::advice::with_hint(e.into(), hint)
}
