//! What `verify` has already checked, so that a verification of big tables that was killed
//! (a recomputation of tiers 34 and 36 of Awari with 3 seeds a pit takes hours here) goes on
//! where it stopped instead of starting over.
//!
//! The journal is a text file beside the tables, one line for each stretch of a tier whose
//! values were found right, appended and synced as it is finished:
//!
//! ```text
//! mancala-verify-1 tier=36 files=0123456789abcdef done=2037000000
//! ```
//!
//! `done` counts the ranks `0..done` checked. `files` is a hash of the rule set's key and the
//! header checksums of tiers `0..=tier`: a tier's values are checked against the values of
//! the tiers below it, so a line stands only while none of those files changed. Every file's
//! header and payload checksum is checked whenever `verify` opens the tables, so the same
//! checksums stand for the same bytes, and values found right then are right now. A line
//! that does not parse (cut by a kill, say) is passed over.

use crate::set::Tables;
use crate::store::table::open_regular;
use std::fs::File;
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use xxhash_rust::xxh3::Xxh3;

const MAGIC: &str = "mancala-verify-1";

/// The journal's name in a rule set's table folder.
pub const JOURNAL: &str = "verify.journal";

/// The lines of a journal read back, and the file to append to.
pub(crate) struct Journal {
    path: PathBuf,
    lines: Vec<Line>,
    file: Option<File>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Line {
    tier: usize,
    files: u64,
    done: u64,
}

impl Line {
    fn parse(s: &str) -> Option<Line> {
        let mut words = s.split_ascii_whitespace();
        if words.next()? != MAGIC {
            return None;
        }
        let mut field = |name: &str| words.next()?.strip_prefix(name)?.strip_prefix('=');
        let tier = field("tier")?.parse().ok()?;
        let files = u64::from_str_radix(field("files")?, 16).ok()?;
        let done = field("done")?.parse().ok()?;
        words.next().is_none().then_some(Line { tier, files, done })
    }
}

impl Journal {
    /// The journal at `path` as far as it can be read (none, or an unreadable one: empty).
    pub fn read(path: &Path) -> Journal {
        // Only a regular file is read (a FIFO of that name would block); a line that is not
        // text is passed over like any other that does not parse.
        let mut bytes = Vec::new();
        if let Ok(mut f) = open_regular(path) {
            let _ = f.read_to_end(&mut bytes);
        }
        Journal {
            path: path.to_path_buf(),
            lines: bytes
                .split(|&b| b == b'\n')
                .filter_map(|l| Line::parse(std::str::from_utf8(l).ok()?))
                .collect(),
            file: None,
        }
    }

    /// Ranks `0..done` of tier `tier` were found right against the same files.
    pub fn done(&self, tier: usize, files: u64) -> u64 {
        self.lines
            .iter()
            .filter(|l| l.tier == tier && l.files == files)
            .map(|l| l.done)
            .max()
            .unwrap_or(0)
    }

    /// Records that ranks `0..done` of tier `tier` are right against `files`, synced to disk.
    pub fn record(&mut self, tier: usize, files: u64, done: u64) -> io::Result<()> {
        if self.file.is_none() {
            // Never through a link or into a pipe planted in the folder.
            let mut f = crate::store::files::open_own(&self.path, true)?;
            // A line cut by a kill is ended, so that the next one starts on a line of its own.
            let len = f.metadata()?.len();
            let mut last = [b'\n'];
            if len > 0 {
                std::os::unix::fs::FileExt::read_exact_at(&f, &mut last, len - 1)?;
            }
            if last[0] != b'\n' {
                f.write_all(b"\n")?;
            }
            self.file = Some(f);
        }
        let f = self.file.as_mut().expect("opened above");
        // One write a line, so that two runs appending at once do not interleave them.
        let line = format!("{MAGIC} tier={tier} files={files:016x} done={done}\n");
        f.write_all(line.as_bytes())?;
        f.sync_data()?;
        self.lines.push(Line { tier, files, done });
        Ok(())
    }

    /// Where the journal is.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

/// The hash that ties a line to the files of tiers `0..=n` of `tables`.
pub(crate) fn files_hash(tables: &Tables, n: usize) -> u64 {
    let mut h = Xxh3::new();
    h.update(tables.rules().variant().key().as_bytes());
    crate::store::table::hash_files(&mut h, (0..=n).map(|k| tables.tier(k)));
    h.digest()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs::OpenOptions;

    #[test]
    fn lines_are_read_back_and_cut_lines_are_passed_over() {
        let dir = std::env::temp_dir().join(format!("mancala-journal-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(JOURNAL);
        let _ = std::fs::remove_file(&path);
        let mut j = Journal::read(&path);
        assert_eq!(j.done(36, 7), 0);
        j.record(36, 7, 1000).unwrap();
        j.record(36, 7, 5000).unwrap();
        j.record(34, 7, 99).unwrap();
        j.record(36, 8, 9000).unwrap();
        // A kill in the middle of a line, and a line of something else.
        let mut f = OpenOptions::new().append(true).open(&path).unwrap();
        f.write_all(b"garbage \xff line\nmancala-verify-1 tier=36 files=0000000000000007 do")
            .unwrap();
        drop(f);
        let mut again = Journal::read(&path);
        assert_eq!(again.done(36, 7), 5000);
        // The next line starts on a line of its own.
        again.record(36, 7, 6000).unwrap();
        assert_eq!(Journal::read(&path).done(36, 7), 6000);
        assert_eq!(again.done(34, 7), 99);
        assert_eq!(again.done(36, 8), 9000);
        assert_eq!(again.done(35, 7), 0);
        assert_eq!(again.path(), path);
        for bad in [
            "mancala-verify-1 tier=36 files=7 done=5 extra",
            "mancala-verify-2 tier=36 files=7 done=5",
            "mancala-verify-1 tier=x files=7 done=5",
            "mancala-verify-1 files=7 tier=36 done=5",
        ] {
            assert_eq!(Line::parse(bad), None, "{bad}");
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
