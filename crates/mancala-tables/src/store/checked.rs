//! A record of a table set whose payload checksums were read in full, so that a question
//! asked again of the same files does not read every byte again.
//!
//! Checking a payload's checksum reads the whole file: for Kalah tables up to 28 seeds that is
//! 5.6 GB, over a second, while the search the question needs takes a fraction of one. So,
//! as a version-control system trusts a file whose size, times and inode are as they were
//! when it last hashed it, the oracle records those facts of every tier file after a full
//! check (`payloads-checked` in the set's folder), and the next time they are all the same
//! it checks only the headers. Any write to a file changes its change time (which no tool can
//! set back), a new file has a new inode, a file copied over another changes both: then the
//! payloads are read again. The facts are taken before the check, so a file changed while it
//! is being read is never recorded as checked in its new state. On a file system whose clock
//! is coarse, a change in the same tick as the record would leave the change time as it was;
//! so a record only vouches for files whose last change is more than a second older than the
//! record itself (the "racy" files of version control are read again too).
//!
//! The record is only a hint. Missing, unreadable, garbled, a link or a pipe: the files are
//! checked in full. A folder the user cannot write: nothing is recorded, and every question
//! checks in full as before. `verify` never consults it.

use crate::store::files::write_atomically;
use crate::store::tier_files::tier_path;
use std::fs;
use std::io::{Read, Write};
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

/// The record's name in a rule set's folder.
pub const RECORD: &str = "payloads-checked";
/// The record's first line: names the format, so another one is never taken for it.
const FORMAT: &str = "mancala payloads checked, version 1";
/// A record longer than this is not one (a table set has at most a few hundred tiers).
const MAX_RECORD: u64 = 1 << 16;

/// What the files of tiers `0..=max` of one rule set are now: their sizes, times and
/// identities, one line a tier in the record's text form. Tiers without a file are left out.
///
/// A record vouches for any subset of the tiers it lists: a question about a position with
/// fewer seeds opens fewer tiers, and in a game each question has a different count, so a
/// record tied to one exact range would send every other question back to reading gigabytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stamp {
    record: PathBuf,
    dir: PathBuf,
    key: String,
    /// `(tier, line, change time in seconds)` in tier order.
    lines: Vec<(usize, String, i64)>,
    /// The latest change time among the files, in seconds.
    newest: i64,
    /// When the facts were taken, in seconds: a file changed within a second of this may
    /// change again, in place, in the same tick of a coarse clock while it is being checked.
    taken: i64,
}

/// The record line of tier `n`'s file (`tier dev inode length mtime ctime`) and its change
/// time in seconds, if the file is there.
fn tier_line(dir: &Path, key: &str, n: usize) -> Option<(String, i64)> {
    let m = fs::metadata(tier_path(dir, key, n)).ok()?;
    let line = format!(
        "{n} {} {} {} {}.{:09} {}.{:09}",
        m.dev(),
        m.ino(),
        m.len(),
        m.mtime(),
        m.mtime_nsec(),
        m.ctime(),
        m.ctime_nsec()
    );
    Some((line, m.ctime()))
}

impl Stamp {
    /// The facts of the tier files of `key` in `dir` up to `max` seeds, as they are now.
    pub fn now(dir: &Path, key: &str, max: usize) -> Stamp {
        let mut lines = Vec::new();
        let mut newest = i64::MIN;
        for n in 0..=max {
            if let Some((line, changed)) = tier_line(dir, key, n) {
                newest = newest.max(changed);
                lines.push((n, line, changed));
            }
        }
        let taken = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs() as i64);
        Stamp {
            record: dir.join(key).join(RECORD),
            dir: dir.to_path_buf(),
            key: key.to_string(),
            lines,
            newest,
            taken,
        }
    }

    /// Whether the record says these very files had their payloads checked, and was written
    /// more than a second after the last of them changed.
    pub fn recorded(&self) -> bool {
        let Some((text, written)) = read_record(&self.record) else {
            return false;
        };
        let Some(listed) = record_lines(&text) else {
            return false;
        };
        written > self.newest.saturating_add(1)
            && self
                .lines
                .iter()
                .all(|(_, l, _)| listed.contains(&l.as_str()))
    }

    /// Records that the files, as they were when this stamp was taken, were checked in full,
    /// keeping what the record vouched for of the other tiers while their files are as they
    /// were. Best effort: a folder that cannot be written keeps no record.
    pub fn record(&self) {
        // A file changed within a second of the stamp could have been changed again during
        // the check without its facts showing it: it is left out, to be checked again.
        let mut lines: Vec<(usize, &str)> = self
            .lines
            .iter()
            .filter(|(_, _, changed)| changed.saturating_add(1) < self.taken)
            .map(|(n, l, _)| (*n, l.as_str()))
            .collect();
        // Tiers this check covered, and then each tier kept: every tier gets one line.
        let mut seen: Vec<usize> = self.lines.iter().map(|(n, _, _)| *n).collect();
        let old = read_record(&self.record);
        let mut kept = Vec::new();
        if let Some((text, written)) = &old {
            for line in record_lines(text).unwrap_or_default() {
                let Some(n) = line.split(' ').next().and_then(|t| t.parse::<usize>().ok()) else {
                    continue;
                };
                if seen.contains(&n) {
                    continue;
                }
                seen.push(n);
                // Kept only if the old record vouched for it (written more than a second
                // after the file's last change) and the file has not changed since.
                if let Some((now, changed)) = tier_line(&self.dir, &self.key, n) {
                    if now == line && *written > changed.saturating_add(1) {
                        kept.push((n, now));
                    }
                }
            }
        }
        lines.extend(kept.iter().map(|(n, l)| (*n, l.as_str())));
        lines.sort();
        let _ = write_atomically(&self.record, |f| f.write_all(text_of(&lines).as_bytes()));
    }
}

#[cfg(test)]
impl Stamp {
    /// The record's text of every line of the stamp.
    fn text(&self) -> String {
        let lines: Vec<(usize, &str)> = self
            .lines
            .iter()
            .map(|(n, l, _)| (*n, l.as_str()))
            .collect();
        text_of(&lines)
    }
}

/// The record's text for these lines.
fn text_of(lines: &[(usize, &str)]) -> String {
    let mut text = format!("{FORMAT}\n");
    for (_, l) in lines {
        text += l;
        text.push('\n');
    }
    text
}

/// The tier lines of a record's text, `None` if it is not a record.
fn record_lines(text: &str) -> Option<Vec<&str>> {
    let mut lines = text.lines();
    (lines.next() == Some(FORMAT)).then(|| lines.filter(|l| !l.is_empty()).collect())
}

/// The record's text and when it was written (seconds), if it is a small regular file (a link
/// is not followed, a pipe is not waited on). The file is opened without following a link and
/// without waiting, and its type is read from the open file, so nothing swapped in between a
/// look and the open is taken for it.
fn read_record(path: &Path) -> Option<(String, i64)> {
    use std::os::unix::fs::OpenOptionsExt;
    let file = fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
        .open(path)
        .ok()?;
    let meta = file.metadata().ok()?;
    if !meta.is_file() || meta.len() > MAX_RECORD {
        return None;
    }
    let mut text = String::new();
    file.take(MAX_RECORD).read_to_string(&mut text).ok()?;
    Some((text, meta.mtime()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("mancala-checked-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&d);
        fs::create_dir_all(d.join("k")).unwrap();
        d
    }

    #[test]
    fn a_record_holds_until_a_file_changes() {
        let d = scratch("holds");
        fs::write(tier_path(&d, "k", 0), b"zero").unwrap();
        fs::write(tier_path(&d, "k", 2), b"two").unwrap();
        let s = Stamp::now(&d, "k", 2);
        assert!(!s.recorded(), "nothing recorded yet");
        s.record();
        assert!(
            !s.recorded(),
            "files changed within the record's second are read again"
        );
        // Nor are they written into the record: changed again in place within the same tick
        // of a coarse clock, during the check, their facts would not show it.
        let text = fs::read_to_string(d.join("k").join(RECORD)).unwrap();
        assert_eq!(record_lines(&text), Some(vec![]), "{text}");
        std::thread::sleep(std::time::Duration::from_millis(2100));
        let s = Stamp::now(&d, "k", 2);
        s.record();
        assert!(s.recorded());
        assert!(Stamp::now(&d, "k", 2).recorded(), "same files, same stamp");
        // More tiers asked for than were checked: not recorded.
        fs::write(tier_path(&d, "k", 3), b"three").unwrap();
        assert!(!Stamp::now(&d, "k", 3).recorded());
        // A file rewritten with the same length and contents: its change time moved.
        fs::write(tier_path(&d, "k", 2), b"two").unwrap();
        assert!(!Stamp::now(&d, "k", 2).recorded());
        let _ = fs::remove_dir_all(&d);
    }

    /// A question about fewer seeds opens fewer tiers: the record of more vouches for them,
    /// and recording the check of fewer keeps the others while their files are unchanged.
    #[test]
    fn a_record_vouches_for_fewer_tiers_and_keeps_the_rest() {
        let d = scratch("subset");
        for n in 0..=3 {
            fs::write(tier_path(&d, "k", n), format!("tier {n}")).unwrap();
        }
        std::thread::sleep(std::time::Duration::from_millis(2100));
        Stamp::now(&d, "k", 3).record();
        assert!(
            Stamp::now(&d, "k", 1).recorded(),
            "tiers 0..=1 were checked with 0..=3"
        );
        // A check of tiers 0..=1 alone (tier 1 rewritten, so it is read again) keeps 2 and 3.
        fs::write(tier_path(&d, "k", 1), "tier 1").unwrap();
        assert!(!Stamp::now(&d, "k", 1).recorded());
        std::thread::sleep(std::time::Duration::from_millis(2100));
        Stamp::now(&d, "k", 1).record();
        assert!(Stamp::now(&d, "k", 1).recorded());
        assert!(Stamp::now(&d, "k", 3).recorded(), "tiers 2 and 3 kept");
        // A tier changed since the record is dropped at the next recording, and vouched for
        // by neither record.
        fs::write(tier_path(&d, "k", 3), "tier 3").unwrap();
        assert!(!Stamp::now(&d, "k", 3).recorded());
        Stamp::now(&d, "k", 0).record();
        assert!(Stamp::now(&d, "k", 2).recorded());
        assert!(!Stamp::now(&d, "k", 3).recorded());
        let text = fs::read_to_string(d.join("k").join(RECORD)).unwrap();
        assert_eq!(record_lines(&text).unwrap().len(), 3, "{text}");
        let _ = fs::remove_dir_all(&d);
    }

    #[test]
    fn a_planted_record_is_not_followed_or_waited_on() {
        let d = scratch("planted");
        fs::write(tier_path(&d, "k", 0), b"zero").unwrap();
        std::thread::sleep(std::time::Duration::from_millis(2100));
        let s = Stamp::now(&d, "k", 0);
        let record = d.join("k").join(RECORD);
        // A link to a file that holds the right text is still not a record.
        let elsewhere = d.join("elsewhere");
        fs::write(&elsewhere, s.text()).unwrap();
        std::os::unix::fs::symlink(&elsewhere, &record).unwrap();
        assert!(!s.recorded());
        // Recording replaces the link, never writes through it.
        s.record();
        assert!(s.recorded());
        assert!(fs::symlink_metadata(&record).unwrap().is_file());
        assert_eq!(fs::read_to_string(&elsewhere).unwrap(), s.text());
        // A named pipe is not opened (opening it would wait for a writer).
        fs::remove_file(&record).unwrap();
        let c = std::ffi::CString::new(record.to_str().unwrap()).unwrap();
        // SAFETY: a valid C string; mkfifo only creates the pipe.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        assert!(!s.recorded());
        // Garbage is not a record either.
        fs::remove_file(&record).unwrap();
        fs::write(&record, "garbage").unwrap();
        assert!(!s.recorded());
        let _ = fs::remove_dir_all(&d);
    }
}
