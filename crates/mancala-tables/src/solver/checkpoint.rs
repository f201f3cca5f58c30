//! Checkpoints inside a tier: the threshold solver's state saved between two thresholds, or
//! between two slices of phase 1, so that a build killed in the middle of a big tier resumes
//! there instead of at its start.
//!
//! Between thresholds nothing runs and the state is a closed fixpoint for every threshold
//! done, so the state bytes, the best exits (which do not change after phase 1) and the next
//! threshold are all a resumed build needs; its values are unique, so it ends with the same
//! bytes. Between two slices of phase 1 the state and the exit file hold the finished slices
//! (the exits are in that file, [`super::exit_file`], or in memory and copied there as each
//! slice ends), and phase 1 goes on from the first rank without an exit in the checkpoint. A
//! checkpoint file holds a header and the state; the exits stay in their own file (in the
//! memory plan written at the first checkpoint, or slice by slice when phase 1 is cut in
//! slices), which the header names by length and hash. Files are written under a temporary
//! name, synced and renamed, so a kill leaves either the previous checkpoint or the new one.
//!
//! | offset | bytes | field |
//! |---:|---:|---|
//! | 0 | 8 | magic: `MNCKPT01` between thresholds, `MNCKPT02` within phase 1 |
//! | 8 | 8 | xxh3-64 of the rule set's key and of [`Checkpoint::lower`] |
//! | 16 | 8 | tier |
//! | 24 | 8 | positions |
//! | 32 | 8 | the next threshold to run (`MNCKPT01`), or the ranks whose exits are done (`MNCKPT02`) |
//! | 40 | 8 | xxh3-64 of the state bytes |
//! | 48 | 8 | xxh3-64 of the exit file |
//! | 56 | 8 | xxh3-64 of bytes 0..56 |
//! | 64 | positions | the state bytes |

use super::exit_file::ExitFile;
use crate::bytes::Bytes;
pub use crate::core::Resume;
use crate::store::table::open_regular;
use std::fs;
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU8, Ordering::Relaxed};
use std::time::{Duration, Instant};
use xxhash_rust::xxh3::{xxh3_64, Xxh3};

/// Between thresholds (the only kind before phase 1 was checkpointed, so a build that
/// cannot read the other kind ignores it and starts the tier over).
const MAGIC: &[u8; 8] = b"MNCKPT01";
/// Between slices of phase 1.
const MAGIC_EXITS: &[u8; 8] = b"MNCKPT02";
const HEADER: usize = 64;

/// Where and how often a tier's solver saves its state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Checkpoint {
    /// The checkpoint file; the exits go beside it, with the extension `exits`.
    pub path: PathBuf,
    /// At most one checkpoint in this time (zero: after every threshold).
    pub every: Duration,
    /// What the lower tiers' files are (a hash of their checksums): a checkpoint saved over
    /// other lower tiers (one since rebuilt by `--repair`, say) holds exits worked out from
    /// other values, and is not resumed.
    pub lower: u64,
}

/// What a checkpoint gives back.
pub(crate) struct Resumed {
    pub state: Bytes,
    pub exits: ExitFile,
    pub from: Resume,
}

/// The header's fields.
struct Header {
    key: u64,
    tier: u64,
    size: u64,
    from: Resume,
    state: u64,
    exits: u64,
}

impl Header {
    fn bytes(&self) -> [u8; HEADER] {
        let mut h = [0u8; HEADER];
        let (magic, at) = match self.from {
            Resume::Threshold(t) => (MAGIC, t as i64 as u64),
            Resume::Exits { done } => (MAGIC_EXITS, done),
        };
        h[..8].copy_from_slice(magic);
        let fields = [self.key, self.tier, self.size, at, self.state, self.exits];
        for (i, f) in fields.iter().enumerate() {
            h[8 + 8 * i..16 + 8 * i].copy_from_slice(&f.to_le_bytes());
        }
        let sum = xxh3_64(&h[..56]);
        h[56..].copy_from_slice(&sum.to_le_bytes());
        h
    }

    fn parse(h: &[u8; HEADER]) -> Option<Header> {
        let at = |i: usize| u64::from_le_bytes(h[i..i + 8].try_into().expect("8 bytes"));
        let from = match &h[..8] {
            m if m == MAGIC => Resume::Threshold(i8::try_from(at(32) as i64).ok()?),
            m if m == MAGIC_EXITS => Resume::Exits { done: at(32) },
            _ => return None,
        };
        (at(56) == xxh3_64(&h[..56])).then(|| Header {
            key: at(8),
            tier: at(16),
            size: at(24),
            from,
            state: at(40),
            exits: at(48),
        })
    }
}

impl Checkpoint {
    /// The header's identity of a checkpoint of the rule set `key` over the lower tiers.
    fn identity(&self, key: &str) -> u64 {
        let mut h = Xxh3::new();
        h.update(key.as_bytes());
        h.update(&self.lower.to_le_bytes());
        h.digest()
    }

    /// The exit file that goes with the checkpoint.
    pub fn exits_path(&self) -> PathBuf {
        self.path.with_extension("exits")
    }

    /// Where a valid-looking checkpoint of tier `tier` of `key` resumes, from its header
    /// alone.
    fn peek(&self, key: &str, tier: usize, size: u64) -> Option<Resume> {
        let mut h = [0u8; HEADER];
        open_regular(&self.path).ok()?.read_exact(&mut h).ok()?;
        let h = Header::parse(&h)?;
        // Within the tier: a threshold of it (or 0, all done), at most all its ranks.
        let done_fits = match h.from {
            Resume::Exits { done } => done <= size,
            Resume::Threshold(t) => (0..=tier as i64).contains(&(t as i64)),
        };
        (h.key == self.identity(key) && h.tier == tier as u64 && h.size == size && done_fits)
            .then_some(h.from)
    }

    /// Loads the checkpoint of tier `tier` of `key` if there is a whole, matching one with
    /// its exit file; `None` otherwise (the tier then starts over).
    pub(crate) fn load(&self, key: &str, tier: usize, size: u64) -> Option<Resumed> {
        let from = self.peek(key, tier, size)?;
        let mut f = open_regular(&self.path).ok()?;
        let mut h = [0u8; HEADER];
        f.read_exact(&mut h).ok()?;
        let header = Header::parse(&h)?;
        let mut state = Bytes::zeroed(size as usize).ok()?;
        f.read_exact(state.bytes_mut()).ok()?;
        if xxh3_64(&state) != header.state {
            return None;
        }
        let done = match from {
            Resume::Exits { done } => done,
            Resume::Threshold(_) => size,
        };
        // Phase 1 appends a slice's exits before it saves (when a save is due at all), so
        // the file may hold more than the checkpoint: those are done again.
        let exits = ExitFile::reopen(&self.exits_path(), done).ok()?;
        (exits.hash() == header.exits).then_some(Resumed { state, exits, from })
    }

    /// Saves `states`, to resume `from` there, and the exits: `exits` names the exit file
    /// (already written, as far as `from` says), or gives the exits to write beside the
    /// checkpoint (once: a file with the same hash is kept).
    pub(crate) fn save(
        &self,
        key: &str,
        tier: usize,
        states: &[AtomicU8],
        exits: Exits<'_>,
        from: Resume,
    ) -> io::Result<()> {
        let exits_hash = match exits {
            Exits::File(file) => {
                file.sync()?;
                file.hash()
            }
            Exits::Memory(bytes) => {
                let hash = xxh3_64(bytes);
                let path = self.exits_path();
                let kept = hash_of(&path).is_ok_and(|h| h == hash);
                if !kept {
                    write_atomically(&path, |f| f.write_all(bytes))?;
                }
                hash
            }
        };
        // The state, read a piece at a time (nothing writes it between thresholds).
        let mut hash = Xxh3::new();
        let mut piece = Vec::with_capacity(1 << 20);
        for chunk in states.chunks(1 << 20) {
            piece.clear();
            piece.extend(chunk.iter().map(|s| s.load(Relaxed)));
            hash.update(&piece);
        }
        let header = Header {
            key: self.identity(key),
            tier: tier as u64,
            size: states.len() as u64,
            from,
            state: hash.digest(),
            exits: exits_hash,
        };
        write_atomically(&self.path, |f| {
            f.write_all(&header.bytes())?;
            for chunk in states.chunks(1 << 20) {
                piece.clear();
                piece.extend(chunk.iter().map(|s| s.load(Relaxed)));
                f.write_all(&piece)?;
            }
            Ok(())
        })
    }

    /// Removes the checkpoint and its exit file, and what a save killed midway left (the tier
    /// is done).
    pub fn remove(&self) {
        for path in [self.path.clone(), self.exits_path()] {
            let _ = fs::remove_file(crate::store::files::tmp_path(&path));
            let _ = fs::remove_file(path);
        }
    }
}

/// The exits a checkpoint names.
pub(crate) enum Exits<'a> {
    Memory(&'a [u8]),
    File(&'a ExitFile),
}

/// xxh3-64 of a file's bytes.
fn hash_of(path: &Path) -> io::Result<u64> {
    let mut f = open_regular(path).map_err(std::io::Error::other)?;
    let mut hash = Xxh3::new();
    let mut buf = vec![0u8; 1 << 20];
    loop {
        let n = f.read(&mut buf)?;
        if n == 0 {
            return Ok(hash.digest());
        }
        hash.update(&buf[..n]);
    }
}

use crate::store::files::write_atomically;

/// When the last checkpoint was taken (or the tier started).
pub(crate) struct Clock {
    last: Instant,
}

impl Clock {
    pub fn new() -> Clock {
        Clock {
            last: Instant::now(),
        }
    }

    /// Is a checkpoint due under `c`? Starts the next interval if so.
    pub fn due(&mut self, c: &Checkpoint) -> bool {
        self.due_after(c.every)
    }

    /// Has `every` passed since the last checkpoint? Starts the next interval if so.
    pub fn due_after(&mut self, every: Duration) -> bool {
        if self.last.elapsed() >= every {
            self.last = Instant::now();
            true
        } else {
            false
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Checkpoint, Exits, Resume, HEADER};
    use crate::bytes::Bytes;
    use crate::solver::exit_file::ExitFile;
    use std::time::Duration;

    /// A checkpoint's whole round trip: what is saved comes back, and a checkpoint whose
    /// state, exits, header or tier do not match gives nothing (the tier starts over).
    #[test]
    fn a_checkpoint_gives_back_what_was_saved_or_nothing() {
        let dir = std::env::temp_dir().join(format!("mancala-ckpt-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let c = Checkpoint {
            path: dir.join("tier-005.ckpt"),
            every: Duration::ZERO,
            lower: 77,
        };
        let (key, tier, size) = ("awari-6x4", 5, 1000u64);
        let mut state = Bytes::zeroed(size as usize).unwrap();
        state
            .bytes_mut()
            .iter_mut()
            .enumerate()
            .for_each(|(i, s)| *s = (i % 251) as u8);
        let exits: Vec<u8> = (0..size).map(|i| (i % 7) as u8).collect();

        // Between thresholds, with the exits in memory: written beside the checkpoint.
        let t = Resume::Threshold(3);
        c.save(key, tier, state.atomic_bytes(), Exits::Memory(&exits), t)
            .unwrap();
        let r = c.load(key, tier, size).expect("a whole checkpoint");
        assert_eq!(r.from, t);
        assert_eq!(r.state.bytes(), state.bytes());
        let mut back = vec![0u8; size as usize];
        r.exits.read(0, &mut back).unwrap();
        assert_eq!(back, exits);
        drop(r);
        // Another tier, rule set or size finds nothing.
        assert!(c.load(key, tier + 1, size).is_none());
        assert!(c.load("oware-6x4", tier, size).is_none());
        assert!(c.load(key, tier, size + 1).is_none());
        // Nor does a build over other lower tiers.
        let other = Checkpoint {
            lower: 78,
            ..c.clone()
        };
        assert!(other.load(key, tier, size).is_none());

        // Within phase 1, the exits in their file: the first 600 ranks done.
        let mut file = ExitFile::create(&c.exits_path()).unwrap().for_checkpoint();
        file.append(&exits[..600]).unwrap();
        let e = Resume::Exits { done: 600 };
        c.save(key, tier, state.atomic_bytes(), Exits::File(&file), e)
            .unwrap();
        // Exits appended after the save are cut off when it is loaded.
        file.append(&exits[600..700]).unwrap();
        drop(file);
        let r = c
            .load(key, tier, size)
            .expect("a checkpoint inside phase 1");
        assert_eq!((r.from, r.exits.len()), (e, 600));
        drop(r);

        // A changed state byte, or changed exits, void it.
        let flip = |path: &std::path::Path, at: u64| {
            let mut bytes = std::fs::read(path).unwrap();
            bytes[at as usize] ^= 1;
            std::fs::write(path, bytes).unwrap();
        };
        flip(&c.path, HEADER as u64 + 17);
        assert!(c.load(key, tier, size).is_none(), "a changed state");
        flip(&c.path, HEADER as u64 + 17);
        assert!(c.load(key, tier, size).is_some());
        flip(&c.exits_path(), 3);
        assert!(c.load(key, tier, size).is_none(), "changed exits");
        flip(&c.exits_path(), 3);
        // So does a changed header, and a threshold above the tier (a header that was not
        // written by this solver, with its sum made to match).
        flip(&c.path, 20);
        assert!(c.load(key, tier, size).is_none(), "a changed header");
        flip(&c.path, 20);
        let mut state2 = Bytes::zeroed(size as usize).unwrap();
        let above = Resume::Threshold(tier as i8 + 1);
        c.save(
            key,
            tier,
            state2.atomic_bytes(),
            Exits::Memory(&exits),
            above,
        )
        .unwrap();
        assert!(
            c.load(key, tier, size).is_none(),
            "a threshold above the tier"
        );

        c.remove();
        assert!(!c.path.exists() && !c.exits_path().exists());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
