//! Best exits kept in a file while a tier's thresholds run, for tiers whose state and exits
//! do not both fit in the memory budget.
//!
//! Phase 2 reads the exits only when a threshold starts, in rank order (see
//! [`super::state`]): a position enters `W_t` when its exit is `t` and becomes eligible for
//! `L_t` when it is `-t`. Most exits are small, so for each chunk of ranks the file's owner
//! keeps a mask of the exit sizes it holds, and a threshold reads only the chunks that hold
//! its size: the large thresholds, which come first, read almost nothing.

use crate::core::{CHUNK, NO_EXIT};
use std::fs::File;
use std::io;
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};
use xxhash_rust::xxh3::Xxh3;

/// The bit of a chunk's mask for an exit: its size (62 for anything larger), or 63 for
/// [`NO_EXIT`].
fn bit(exit: i8) -> u64 {
    if exit == NO_EXIT {
        1 << 63
    } else {
        1 << (exit.unsigned_abs().min(62))
    }
}

/// Exits written in rank order to a temporary file, removed when dropped unless a checkpoint
/// names it ([`super::checkpoint`]): then it stays for the checkpoint when the build is
/// killed or fails (a full disk, say), and the checkpoint removes it when the tier is done.
pub(crate) struct ExitFile {
    path: PathBuf,
    file: File,
    /// Removed when dropped (not a checkpoint's).
    temporary: bool,
    len: u64,
    /// For each chunk of [`CHUNK`] ranks: the [`bit`]s of the exits it holds.
    masks: Vec<u64>,
    /// xxh3-64 of the bytes so far, for a checkpoint to name the file it goes with.
    hash: Xxh3,
}

impl ExitFile {
    /// A new, empty file at `path` (replacing what a killed run left there).
    pub fn create(path: &Path) -> io::Result<ExitFile> {
        Ok(ExitFile {
            path: path.to_path_buf(),
            // Whatever a killed run (or anyone) left at that name goes first: a link is not
            // followed, a named pipe does not stop the build.
            file: crate::store::files::create_fresh(path, true)?,
            temporary: true,
            len: 0,
            masks: Vec::new(),
            hash: Xxh3::new(),
        })
    }

    /// The file, named by a checkpoint from now on: it stays when dropped.
    pub fn for_checkpoint(mut self) -> ExitFile {
        self.temporary = false;
        self
    }

    /// Opens the file a killed build left at `path` with the exits of its first `len` ranks,
    /// reading them once for their masks and hash. Exits past `len` (appended after the
    /// checkpoint that names `len` was saved) are cut off, so that appends go on from there.
    pub fn reopen(path: &Path, len: u64) -> io::Result<ExitFile> {
        // Checked before the file is taken over: a dropped `ExitFile` removes its file.
        let meta = std::fs::metadata(path)?;
        if !meta.is_file() {
            return Err(io::Error::other(format!(
                "{} is not a file",
                path.display()
            )));
        }
        if meta.len() < len {
            return Err(io::Error::other(format!(
                "{} holds fewer than {len} exits",
                path.display()
            )));
        }
        let mut f = ExitFile {
            path: path.to_path_buf(),
            file: std::fs::OpenOptions::new()
                .read(true)
                .write(true)
                .open(path)?,
            temporary: false,
            len: 0,
            masks: Vec::new(),
            hash: Xxh3::new(),
        };
        let mut buf = vec![0u8; 1 << 20];
        while f.len < len {
            let n = buf.len().min((len - f.len) as usize);
            f.file.read_exact_at(&mut buf[..n], f.len)?;
            f.note(&buf[..n]);
        }
        f.file.set_len(len)?;
        Ok(f)
    }

    /// Ranks in the file.
    pub fn len(&self) -> u64 {
        self.len
    }

    /// xxh3-64 of the file's bytes.
    pub fn hash(&self) -> u64 {
        self.hash.digest()
    }

    /// Makes what was appended durable.
    pub fn sync(&self) -> io::Result<()> {
        self.file.sync_data()
    }

    /// Appends the exits of the next ranks (after those of a reopened file too).
    pub fn append(&mut self, exits: &[u8]) -> io::Result<()> {
        self.file.write_all_at(exits, self.len)?;
        self.note(exits);
        Ok(())
    }

    /// Takes the next ranks' exits into the masks, the hash and the length.
    fn note(&mut self, exits: &[u8]) {
        self.hash.update(exits);
        for (i, &e) in exits.iter().enumerate() {
            let chunk = ((self.len + i as u64) / CHUNK) as usize;
            if chunk >= self.masks.len() {
                self.masks.resize(chunk + 1, 0);
            }
            self.masks[chunk] |= bit(e as i8);
        }
        self.len += exits.len() as u64;
    }

    /// Does the chunk starting at rank `start` hold an exit that threshold `t` acts on
    /// (`t`, `-t`, or none at all at the `first` threshold)?
    pub fn may_hold(&self, start: u64, t: i8, first: bool) -> bool {
        let mask = self
            .masks
            .get((start / CHUNK) as usize)
            .copied()
            .unwrap_or(0);
        let want = bit(t) | if first { bit(NO_EXIT) } else { 0 };
        // Sizes past 62 share one bit: any of them may be `t`.
        mask & want != 0
    }

    /// Reads the exits of ranks `start..start + buf.len()`.
    pub fn read(&self, start: u64, buf: &mut [u8]) -> io::Result<()> {
        self.file.read_exact_at(buf, start)
    }
}

impl Drop for ExitFile {
    fn drop(&mut self) {
        if self.temporary {
            let _ = std::fs::remove_file(&self.path);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn masks_name_the_chunks_a_threshold_needs() {
        let dir = std::env::temp_dir().join(format!("mancala-exits-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("exits");
        let mut f = ExitFile::create(&path).unwrap();
        let mut exits = vec![0u8; 3 * CHUNK as usize];
        exits[5] = 7;
        exits[CHUNK as usize + 9] = (-3i8) as u8;
        exits[2 * CHUNK as usize] = NO_EXIT as u8;
        // Appended in uneven pieces: the masks follow absolute ranks.
        f.append(&exits[..100]).unwrap();
        f.append(&exits[100..]).unwrap();
        assert!(f.may_hold(0, 7, false) && !f.may_hold(0, 3, false));
        assert!(f.may_hold(CHUNK, 3, false) && !f.may_hold(CHUNK, 7, false));
        assert!(f.may_hold(2 * CHUNK, 5, true) && !f.may_hold(2 * CHUNK, 5, false));
        let mut buf = vec![0u8; 10];
        f.read(CHUNK, &mut buf).unwrap();
        assert_eq!(buf[9] as i8, -3);
        let hash = f.hash();
        assert_eq!(hash, xxhash_rust::xxh3::xxh3_64(&exits));
        std::mem::forget(f);
        // Asked for more exits than it holds: an error, and the file stays.
        assert!(ExitFile::reopen(&path, exits.len() as u64 + 1).is_err());
        assert!(path.exists());
        let mut again = ExitFile::reopen(&path, exits.len() as u64).unwrap();
        assert_eq!((again.len(), again.hash()), (exits.len() as u64, hash));
        assert!(again.may_hold(CHUNK, 3, false) && !again.may_hold(CHUNK, 7, false));
        // A reopened file goes on after its last rank (a phase 1 resumed between slices).
        let more = [(-9i8) as u8, 4, 0];
        again.append(&more).unwrap();
        let whole = [&exits[..], &more[..]].concat();
        assert_eq!(
            (again.len(), again.hash()),
            (whole.len() as u64, xxhash_rust::xxh3::xxh3_64(&whole))
        );
        let mut buf = vec![0u8; 13];
        again.read(3 * CHUNK - 10, &mut buf).unwrap();
        assert_eq!(buf, whole[whole.len() - 13..]);
        assert_eq!(std::fs::metadata(&path).unwrap().len(), whole.len() as u64);
        assert!(again.may_hold(3 * CHUNK, 9, false) && !again.may_hold(CHUNK, 9, false));
        // Reopened at a shorter length (a checkpoint saved before the last append), the rest
        // is cut off and appends go on from there.
        std::mem::forget(again);
        let mut cut = ExitFile::reopen(&path, CHUNK + 10).unwrap();
        assert_eq!(
            cut.hash(),
            xxhash_rust::xxh3::xxh3_64(&whole[..CHUNK as usize + 10])
        );
        assert!(cut.may_hold(CHUNK, 3, false) && !cut.may_hold(2 * CHUNK, 5, true));
        cut.append(&more).unwrap();
        assert_eq!(std::fs::metadata(&path).unwrap().len(), CHUNK + 13);
        let mut buf = vec![0u8; 3];
        cut.read(CHUNK + 10, &mut buf).unwrap();
        assert_eq!(buf, more);
        // A checkpoint's file stays when dropped; a temporary one goes.
        drop(cut);
        assert!(path.exists(), "a checkpoint's file stays");
        drop(ExitFile::create(&path).unwrap());
        assert!(!path.exists(), "a temporary file is removed when dropped");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
