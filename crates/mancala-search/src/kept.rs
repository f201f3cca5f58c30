//! A transposition table kept in a file (`mancala solve --hash-file`), so that a proof too long
//! for one run goes on from what earlier runs proved instead of starting again.
//!
//! Why this is sound: a search decides a value only from *proven* bounds, and a proven bound is
//! true of its position whatever search wrote it, so a table written by one run may serve any
//! later search of the same values: the same rule set's key ([`mancala_rules::Variant::key`],
//! the name its endgame tables go by), whatever the position asked, the tables probed or the
//! threads. The heuristic half of an entry only orders moves. A snapshot taken while the search
//! threads write is as safe as a probe during the search: an entry half overwritten fails its
//! key check (the key is stored XORed with the data) and reads as a miss. What the entries mean
//! depends on this version's hash of a board and its layout of an entry, so the header carries
//! a fingerprint of both ([`crate::tt::layout_fingerprint`]): a file of a version that hashes
//! or packs differently is refused, never misread.
//!
//! Why it pays: entries are replaced cheapest-to-recompute first (`work`), so the roots of the
//! big finished subtrees stay, and a resumed search cuts them off at once. A table read back
//! continues its search count, so its entries count as current and are not the first to go.
//!
//! The file is a 256-byte header and the clusters as they lie in memory (little-endian words):
//!
//! | offset | size | field |
//! |---:|---:|---|
//! | 0 | 8 | magic `MNCLTT\r\n` |
//! | 8 | 4 | format version (1) |
//! | 12 | 4 | length of the key |
//! | 16 | 8 | clusters (a power of two) |
//! | 24 | 8 | search count |
//! | 32 | 8 | XXH3-64 of the header (this field zero) and the clusters |
//! | 40 | 8 | fingerprint of the board hash and the entry layout |
//! | 48 | 208 | the rule set's key, zero-padded |
//!
//! It is written under a temporary name, synced and renamed into place, so a run killed while
//! saving leaves the previous file whole; one process at a time uses a file (an advisory lock
//! on `F.lock`, held from opening to the end), so two runs cannot interleave their saves.
//! Written and read through the page cache in steps that are dropped from it as they go: a
//! table of several GB must not push the endgame tables the search probes out of memory.

use crate::tt::{layout_fingerprint, Tt, MAX_CLUSTERS};
use crate::{AllocError, Memory};
use mancala_rules::Rules;
use std::fs::{File, OpenOptions, TryLockError};
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::os::unix::fs::OpenOptionsExt;
use std::os::unix::io::AsRawFd;
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering::Relaxed;
use std::sync::Arc;
use std::time::Instant;
use xxhash_rust::xxh3::Xxh3;

const MAGIC: &[u8; 8] = b"MNCLTT\r\n";
const VERSION: u32 = 1;
const HEADER: usize = 256;
const CHECKSUM_AT: usize = 32;
const KEY_AT: usize = 48;
/// The longest rule-set key a header holds.
pub const MAX_KEY: usize = HEADER - KEY_AT;
/// Bytes written or read, hashed and dropped from the page cache at a time.
const STEP: usize = 64 << 20;

/// Why a kept table could not be read or written. Each names the file; the CLI adds what to do.
#[derive(Debug, thiserror::Error)]
pub enum KeepError {
    /// Reading, writing, syncing or renaming failed.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// What the operating system said.
        source: io::Error,
    },
    /// Something other than a regular file stands at the path.
    #[error("{} is {what}, not a transposition table file", path.display())]
    NotAFile {
        /// The path.
        path: PathBuf,
        /// What it is.
        what: &'static str,
    },
    /// Another process holds the file's lock.
    #[error("{} is in use by another process (its lock {} is held)", path.display(), lock.display())]
    Busy {
        /// The file.
        path: PathBuf,
        /// Its lock file.
        lock: PathBuf,
    },
    /// The file does not start like a kept table, or is of a format (or a board hash, or an
    /// entry layout) this version cannot read.
    #[error("{} is not a transposition table this version of mancala wrote ({why})", path.display())]
    Foreign {
        /// The file.
        path: PathBuf,
        /// What was found.
        why: String,
    },
    /// The table holds values of other rules.
    #[error("{} holds values of {found}, not of {wanted}", path.display())]
    OtherRules {
        /// The file.
        path: PathBuf,
        /// The key it was written for.
        found: String,
        /// The key of the rules searched now.
        wanted: String,
    },
    /// The file is shorter or longer than its header says, or its contents do not match their
    /// checksum.
    #[error("{} is damaged: {why}", path.display())]
    Damaged {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        why: String,
    },
    /// The table is bigger than the memory free.
    #[error("{} holds a table of {bytes} bytes, more than the {memory} bytes of memory free", path.display())]
    TooBig {
        /// The file.
        path: PathBuf,
        /// The table's size.
        bytes: u64,
        /// The machine's memory.
        memory: u64,
    },
    /// The rule set's key is too long for a header.
    #[error("the rule set {key} has a name of {} bytes; a kept table's header holds {MAX_KEY}", key.len())]
    KeyTooLong {
        /// The key.
        key: String,
    },
    /// The table does not fit the machine's memory.
    #[error(transparent)]
    Alloc(#[from] AllocError),
}

impl KeepError {
    fn io(path: &Path) -> impl Fn(io::Error) -> KeepError + '_ {
        move |source| KeepError::Io {
            path: path.to_path_buf(),
            source,
        }
    }
}

/// How a kept table came to be.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Opened {
    /// The file did not exist: an empty table, written at the first save.
    Fresh,
    /// Read back from the file.
    Read {
        /// Its size in bytes.
        bytes: u64,
        /// Seconds it took to read and check.
        seconds: f64,
    },
}

/// One save.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Saved {
    /// Bytes written.
    pub bytes: u64,
    /// Seconds it took.
    pub seconds: f64,
}

/// A transposition table tied to a file: claimed with [`TableFile::claim`] and opened (read
/// back, or made empty) with [`Claim::open`], which also gives the [`Memory`] a solver searches
/// with; saved with [`TableFile::save`], from any thread, also while a search runs. The file's
/// lock is held as long as this lives.
pub struct TableFile {
    path: PathBuf,
    key: String,
    tt: Arc<Tt>,
    _lock: File,
}

/// A kept table's file claimed by this process: its lock held, its header (if the file exists)
/// checked, and a file known to be writable beside it, all without reading the table. Claim
/// before anything long (a build of the tables the search needs), so that a file that cannot
/// serve fails first and no other run takes it meanwhile; then [`Claim::open`].
pub struct Claim {
    path: PathBuf,
    key: String,
    lock: File,
}

impl TableFile {
    /// Claims the file at `path` for a table of `rules`' values: refused if another process
    /// holds it, if it is not a regular file, if its header names other values, another
    /// format, another board hash or entry layout, a length it does not have or a size
    /// beyond the memory free, or if no file can be written beside it.
    pub fn claim(path: &Path, rules: &Rules) -> Result<Claim, KeepError> {
        let key = key_of(rules)?;
        // What stands at the path first: no lock file is made beside a folder or a pipe.
        open_existing(path)?;
        let lock = lock(path)?;
        if let Some(f) = open_existing(path)? {
            read_header(path, f, &key)?;
        }
        let tmp = mancala_tables::files::tmp_path(path);
        mancala_tables::files::create_fresh(&tmp, false).map_err(KeepError::io(&tmp))?;
        let _ = std::fs::remove_file(&tmp);
        Ok(Claim {
            path: path.to_path_buf(),
            key,
            lock,
        })
    }

    /// The file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The table's size in bytes, as saved.
    pub fn bytes(&self) -> u64 {
        HEADER as u64 + self.tt.clusters() * 64
    }

    /// Writes the table as it is now to the file (replacing it whole, never in part; a link
    /// standing at the file's name is replaced by the file, never followed).
    pub fn save(&self) -> Result<Saved, KeepError> {
        let started = Instant::now();
        let io = |p: &Path, e| KeepError::io(p)(e);
        mancala_tables::files::replace(&self.path, false, io, |f, tmp| {
            write(f, &self.tt, &self.key).map_err(KeepError::io(tmp))
        })?;
        Ok(Saved {
            bytes: self.bytes(),
            seconds: started.elapsed().as_secs_f64(),
        })
    }
}

impl Claim {
    /// The file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The claimed file's table for `rules` (those it was claimed for): read back if the file
    /// exists (its size wins over `mb`), else an empty one of at most `mb` MiB. The memory
    /// returned holds the table for every search of a solver made with it, whatever size the
    /// search would pick on its own.
    pub fn open(self, rules: &Rules, mb: usize) -> Result<(TableFile, Memory, Opened), KeepError> {
        let key = key_of(rules)?;
        if key != self.key {
            return Err(KeepError::OtherRules {
                path: self.path,
                found: self.key,
                wanted: key,
            });
        }
        let started = Instant::now();
        let (tt, opened) = match open_existing(&self.path)? {
            None => (Tt::new(mb)?, Opened::Fresh),
            Some(f) => {
                let tt = read(&self.path, f, &key)?;
                let bytes = HEADER as u64 + tt.clusters() * 64;
                let seconds = started.elapsed().as_secs_f64();
                (tt, Opened::Read { bytes, seconds })
            }
        };
        let tt = Arc::new(tt);
        let memory = Memory::holding(*rules.variant(), tt.clone());
        let file = TableFile {
            path: self.path,
            key,
            tt,
            _lock: self.lock,
        };
        Ok((file, memory, opened))
    }
}

/// The rule set's key, if a header holds it.
fn key_of(rules: &Rules) -> Result<String, KeepError> {
    let key = rules.variant().key();
    if key.len() > MAX_KEY {
        return Err(KeepError::KeyTooLong { key });
    }
    Ok(key)
}

/// Takes the lock of the file at `path` (`path` with `.lock` added, made if missing, never
/// removed: removing it would race a process waiting on it).
fn lock(path: &Path) -> Result<File, KeepError> {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(".lock");
    let at = path.with_file_name(name);
    let file = match mancala_tables::files::open_own(&at, false) {
        Ok(f) => f,
        // Another user's lock file, readable only: a lock on it needs no more.
        Err(e) if e.kind() == io::ErrorKind::PermissionDenied => OpenOptions::new()
            .read(true)
            .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK | libc::O_CLOEXEC)
            .open(&at)
            .map_err(KeepError::io(&at))?,
        Err(e) => return Err(KeepError::io(&at)(e)),
    };
    match file.try_lock() {
        Ok(()) => Ok(file),
        Err(TryLockError::WouldBlock) => Err(KeepError::Busy {
            path: path.to_path_buf(),
            lock: at,
        }),
        Err(TryLockError::Error(e)) => Err(KeepError::io(&at)(e)),
    }
}

/// The file at `path` opened for reading, or `None` if nothing is there. Never waits on a
/// named pipe; anything but a regular file (a link to one is fine) is refused.
fn open_existing(path: &Path) -> Result<Option<File>, KeepError> {
    let f = match OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK | libc::O_CLOEXEC)
        .open(path)
    {
        Ok(f) => f,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(KeepError::io(path)(e)),
    };
    let meta = f.metadata().map_err(KeepError::io(path))?;
    if !meta.is_file() {
        return Err(KeepError::NotAFile {
            path: path.to_path_buf(),
            what: mancala_tables::files::kind_of(&meta),
        });
    }
    Ok(Some(f))
}

fn header(clusters: u64, count: u64, key: &str, checksum: u64) -> [u8; HEADER] {
    let mut h = [0u8; HEADER];
    h[..8].copy_from_slice(MAGIC);
    h[8..12].copy_from_slice(&VERSION.to_le_bytes());
    h[12..16].copy_from_slice(&(key.len() as u32).to_le_bytes());
    h[16..24].copy_from_slice(&clusters.to_le_bytes());
    h[24..32].copy_from_slice(&count.to_le_bytes());
    h[CHECKSUM_AT..CHECKSUM_AT + 8].copy_from_slice(&checksum.to_le_bytes());
    h[40..48].copy_from_slice(&layout_fingerprint().to_le_bytes());
    h[KEY_AT..KEY_AT + key.len()].copy_from_slice(key.as_bytes());
    h
}

/// Writes the header (its checksum left zero) and the clusters, then the header again with
/// the checksum: the table is read once, and the file is only renamed into place after.
fn write(f: &mut File, tt: &Tt, key: &str) -> io::Result<()> {
    // The count when the copy starts: a search that moves on meanwhile writes entries of the
    // same or a later generation, which a reader counts as current either way.
    let count = tt.search_count();
    let blank = header(tt.clusters(), count, key, 0);
    f.write_all(&blank)?;
    let mut hasher = Xxh3::new();
    hasher.update(&blank);
    let mut buf = Vec::with_capacity(STEP);
    let mut at = HEADER as i64;
    for chunk in tt.words().chunks(STEP / 8) {
        buf.clear();
        for w in chunk {
            buf.extend_from_slice(&w.load(Relaxed).to_le_bytes());
        }
        hasher.update(&buf);
        f.write_all(&buf)?;
        // Written out and dropped from the page cache: see the module's comment.
        f.sync_data()?;
        drop_cached(f, at, buf.len());
        at += buf.len() as i64;
    }
    f.seek(SeekFrom::Start(0))?;
    f.write_all(&header(tt.clusters(), count, key, hasher.digest()))?;
    Ok(())
}

/// Asks the kernel to drop `len` bytes at `at` of `f` from the page cache (advice: a failure
/// only leaves them cached).
fn drop_cached(f: &File, at: i64, len: usize) {
    // SAFETY: posix_fadvise only reads its arguments.
    unsafe {
        libc::posix_fadvise(f.as_raw_fd(), at, len as i64, libc::POSIX_FADV_DONTNEED);
    }
}

/// A kept table's header, checked.
struct Header {
    clusters: u64,
    count: u64,
    checksum: u64,
    /// The header's bytes with the checksum zeroed, as hashed.
    blank: [u8; HEADER],
}

/// Reads and checks the header of a kept table for `key`, and the file's length; the file is
/// left at the first cluster.
fn read_header(path: &Path, mut f: File, key: &str) -> Result<(Header, File), KeepError> {
    let damaged = |why: String| KeepError::Damaged {
        path: path.to_path_buf(),
        why,
    };
    let foreign = |why: String| KeepError::Foreign {
        path: path.to_path_buf(),
        why,
    };
    let len = f.metadata().map_err(KeepError::io(path))?.len();
    let mut h = [0u8; HEADER];
    if len < HEADER as u64 {
        return Err(foreign(format!("{len} bytes, shorter than a header")));
    }
    f.read_exact(&mut h).map_err(KeepError::io(path))?;
    if &h[..8] != MAGIC {
        return Err(foreign("it does not start with the magic bytes".into()));
    }
    let word = |at: usize| u64::from_le_bytes(h[at..at + 8].try_into().expect("8 bytes"));
    let version = u32::from_le_bytes(h[8..12].try_into().expect("4 bytes"));
    if version != VERSION {
        return Err(foreign(format!(
            "format version {version}, this one reads {VERSION}"
        )));
    }
    if word(40) != layout_fingerprint() {
        return Err(foreign(
            "written by a version that hashes boards or packs entries differently".into(),
        ));
    }
    let key_len = u32::from_le_bytes(h[12..16].try_into().expect("4 bytes")) as usize;
    let found = match h.get(KEY_AT..KEY_AT + key_len).map(std::str::from_utf8) {
        Some(Ok(found)) if key_len > 0 => found.to_string(),
        _ => {
            return Err(damaged(format!(
                "a rule set's name of {key_len} bytes that do not read as one"
            )))
        }
    };
    if found != key {
        return Err(KeepError::OtherRules {
            path: path.to_path_buf(),
            found,
            wanted: key.to_string(),
        });
    }
    let clusters = word(16);
    if !clusters.is_power_of_two() || clusters > MAX_CLUSTERS {
        return Err(damaged(format!(
            "{clusters} clusters, not a power of two up to 2^40"
        )));
    }
    let want = HEADER as u64 + clusters * 64;
    if len != want {
        return Err(damaged(format!(
            "{len} bytes where its header says {want} (cut short, or written to by something else)"
        )));
    }
    // The memory free now (page cache counts as free: the tables' pages give way), within
    // a container's limit; the whole machine's where that cannot be read.
    let free = mancala_tables::available_memory().or_else(mancala_tables::physical_memory);
    if let Some(memory) = free.filter(|&m| clusters * 64 > m) {
        return Err(KeepError::TooBig {
            path: path.to_path_buf(),
            bytes: clusters * 64,
            memory,
        });
    }
    let header = Header {
        clusters,
        count: word(24),
        checksum: word(CHECKSUM_AT),
        blank: {
            let mut b = h;
            b[CHECKSUM_AT..CHECKSUM_AT + 8].fill(0);
            b
        },
    };
    Ok((header, f))
}

/// Reads a kept table for `key`, checking its header, length and checksum.
fn read(path: &Path, f: File, key: &str) -> Result<Tt, KeepError> {
    let (header, mut f) = read_header(path, f, key)?;
    let tt = Tt::with_clusters(header.clusters)?;
    let mut hasher = Xxh3::new();
    hasher.update(&header.blank);
    let mut buf = vec![0u8; STEP];
    let mut at = HEADER as i64;
    for chunk in tt.words().chunks(STEP / 8) {
        let bytes = &mut buf[..chunk.len() * 8];
        f.read_exact(bytes).map_err(KeepError::io(path))?;
        hasher.update(bytes);
        for (w, b) in chunk.iter().zip(bytes.chunks_exact(8)) {
            w.store(u64::from_le_bytes(b.try_into().expect("8 bytes")), Relaxed);
        }
        drop_cached(&f, at, bytes.len());
        at += bytes.len() as i64;
    }
    if hasher.digest() != header.checksum {
        return Err(KeepError::Damaged {
            path: path.to_path_buf(),
            why: "its contents do not match their checksum".into(),
        });
    }
    // One behind, so that the next search counts the entries read as its own.
    tt.set_search_count(header.count.saturating_sub(1));
    Ok(tt)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tt::{hash, Bound, Entry, Update, NO_MOVE};
    use mancala_rules::{Board, Options, Preset, Variant};

    fn open(
        path: &Path,
        rules: &Rules,
        mb: usize,
    ) -> Result<(TableFile, Memory, Opened), KeepError> {
        TableFile::claim(path, rules)?.open(rules, mb)
    }

    fn scratch(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("mancala-kept-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    fn kalah(empty_capture: bool) -> Rules {
        let o = Options {
            pits: Some(6),
            seeds: Some(4),
            empty_capture,
            ..Default::default()
        };
        Rules::new(Variant::new(Preset::Kalah, o).unwrap())
    }

    fn boards() -> Vec<Board> {
        (0..2000u32)
            .map(|i| Board::from_pits(&[(i % 7) as u8, (i / 7 % 9) as u8, (i / 63) as u8, 1, 0, 2]))
            .collect()
    }

    fn fill(tt: &Tt) {
        tt.new_search();
        for (i, b) in boards().into_iter().enumerate() {
            let v = i as i32 % 20 - 10;
            let u = Update {
                proven: Some((
                    if i % 2 == 0 {
                        Bound::Lower
                    } else {
                        Bound::Upper
                    },
                    v,
                )),
                heuristic: None,
                mv: (i % 6) as u8,
                work: (i % 40) as u8,
            };
            tt.store(hash(b), b.total(), u);
        }
    }

    fn entries(tt: &Tt) -> Vec<Option<Entry>> {
        boards()
            .into_iter()
            .map(|b| tt.probe(hash(b), b.total()))
            .collect()
    }

    /// A table saved after `fill`, at `path`.
    fn saved(path: &Path) -> (Vec<Option<Entry>>, u64) {
        let (file, _, opened) = open(path, &kalah(false), 1).unwrap();
        assert_eq!(opened, Opened::Fresh);
        assert!(!path.exists(), "nothing is written before the first save");
        fill(&file.tt);
        file.save().unwrap();
        (entries(&file.tt), file.tt.search_count())
    }

    #[test]
    fn a_saved_table_reads_back_entry_for_entry_and_counts_as_current() {
        let d = scratch("round-trip");
        let path = d.join("t.tt");
        let (before, count) = saved(&path);
        assert!(before.iter().filter(|e| e.is_some()).count() > 1000);
        let len = std::fs::metadata(&path).unwrap().len();
        assert_eq!(len, HEADER as u64 + (1 << 20));
        // The file's size wins over the size asked for.
        let (back, _, opened) = open(&path, &kalah(false), 64).unwrap();
        assert!(matches!(opened, Opened::Read { bytes, .. } if bytes == len));
        assert_eq!(back.tt.clusters(), 1 << 14);
        assert_eq!(entries(&back.tt), before);
        assert!(back
            .tt
            .probe(hash(Board::from_pits(&[9, 9, 9, 9, 9, 9])), 54)
            .is_none());
        back.tt.new_search();
        assert_eq!(back.tt.search_count(), count);
        // Saving again replaces the file whole, and leaves no temporary file.
        back.save().unwrap();
        drop(back);
        let mut names: Vec<_> = std::fs::read_dir(&d)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        names.sort();
        assert_eq!(names, ["t.tt", "t.tt.lock"]);
        let _ = std::fs::remove_dir_all(&d);
    }

    #[test]
    fn a_table_of_other_rules_a_damaged_one_and_other_files_are_refused() {
        let d = scratch("refused");
        let path = d.join("t.tt");
        saved(&path);
        let good = std::fs::read(&path).unwrap();
        let refusal = |bytes: &[u8]| {
            std::fs::write(&path, bytes).unwrap();
            let e = TableFile::claim(&path, &kalah(false)).map(|_| ()).err();
            let e2 = open(&path, &kalah(false), 1).err().unwrap();
            (e, e2)
        };
        let err = open(&path, &kalah(true), 1).err().unwrap();
        assert!(
            matches!(&err, KeepError::OtherRules { found, wanted, .. }
            if found == "kalah-6p" && wanted == "kalah-6p-empty"),
            "{err}"
        );
        assert!(TableFile::claim(&path, &kalah(true)).map(|_| ()).is_err());
        assert!(TableFile::claim(&path, &kalah(false)).map(|_| ()).is_ok());

        // A flipped bit in a cluster, or in the header's search count: the checksum.
        for at in [HEADER + 4096 + 3, 24] {
            let mut flipped = good.clone();
            flipped[at] ^= 0x10;
            let (_, err) = refusal(&flipped);
            assert!(err.to_string().contains("checksum"), "{err}");
        }
        // Another board hash or entry layout: refused before anything is read.
        let mut other = good.clone();
        other[40] ^= 1;
        let (checked, err) = refusal(&other);
        assert!(matches!(err, KeepError::Foreign { .. }), "{err}");
        assert!(checked.is_some());
        // A name that does not read as one.
        let mut nameless = good.clone();
        nameless[12..16].copy_from_slice(&0u32.to_le_bytes());
        assert!(matches!(refusal(&nameless).1, KeepError::Damaged { .. }));
        nameless[12..16].copy_from_slice(&9999u32.to_le_bytes());
        assert!(matches!(refusal(&nameless).1, KeepError::Damaged { .. }));

        let (checked, err) = refusal(&good[..good.len() - 64]);
        assert!(matches!(err, KeepError::Damaged { .. }), "{err}");
        assert!(err.to_string().contains("cut short"), "{err}");
        assert!(checked.is_some(), "check reads the length too");

        let (_, err) = refusal(b"tier-020.mtb is not a transposition table, as this is not");
        assert!(matches!(err, KeepError::Foreign { .. }), "{err}");

        // A header that claims more memory than the machine has (a sparse file of that
        // length): refused before anything is allocated.
        let mut huge = good[..HEADER].to_vec();
        huge[16..24].copy_from_slice(&(1u64 << 33).to_le_bytes());
        std::fs::write(&path, &huge).unwrap();
        let f = OpenOptions::new().write(true).open(&path).unwrap();
        // A file system without sparse files of that size skips this part.
        let sparse = f.set_len(HEADER as u64 + (1 << 33) * 64).is_ok();
        drop(f);
        if sparse && mancala_tables::physical_memory().is_some_and(|m| m < 1 << 39) {
            let err = open(&path, &kalah(false), 1).err().unwrap();
            assert!(matches!(err, KeepError::TooBig { .. }), "{err}");
        }
        std::fs::remove_file(&path).unwrap();

        // A named pipe is refused at once (no wait for a writer), and so is a folder.
        let fifo = d.join("fifo");
        let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
        // SAFETY: a valid C string.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        let err = open(&fifo, &kalah(false), 1).err().unwrap();
        assert!(err.to_string().contains("named pipe"), "{err}");
        let err = open(&d, &kalah(false), 1).err().unwrap();
        assert!(err.to_string().contains("folder"), "{err}");
        let beside = d.with_file_name(format!("{}.lock", d.file_name().unwrap().to_str().unwrap()));
        assert!(!beside.exists(), "no lock file made beside a folder");
        assert!(!d.join("fifo.lock").exists(), "nor beside a pipe");
        let _ = std::fs::remove_dir_all(&d);
    }

    /// One process at a time: a second opening (or check) while the first holds the file
    /// is refused, and succeeds once the first is gone.
    #[test]
    fn a_file_in_use_is_refused_until_its_user_is_done() {
        let d = scratch("busy");
        let path = d.join("t.tt");
        let (first, _, _) = open(&path, &kalah(false), 1).unwrap();
        first.save().unwrap();
        let err = open(&path, &kalah(false), 1).err().unwrap();
        assert!(matches!(err, KeepError::Busy { .. }), "{err}");
        assert!(err.to_string().contains("t.tt.lock"), "{err}");
        assert!(matches!(
            TableFile::claim(&path, &kalah(false)).map(|_| ()),
            Err(KeepError::Busy { .. })
        ));
        drop(first);
        // A claim holds the file from the start: nobody takes it between the claim and the
        // opening (a command builds its tables in between).
        let claim = TableFile::claim(&path, &kalah(false)).unwrap();
        assert!(matches!(
            open(&path, &kalah(false), 1),
            Err(KeepError::Busy { .. })
        ));
        let err = claim.open(&kalah(true), 1).err().unwrap();
        assert!(matches!(err, KeepError::OtherRules { .. }), "{err}");
        assert!(open(&path, &kalah(false), 1).is_ok());
        let _ = std::fs::remove_dir_all(&d);
    }

    /// A link planted at the temporary name is replaced, never written through, and a save
    /// over a link writes a file of its own in the link's place.
    #[test]
    fn a_save_never_writes_through_a_planted_link() {
        let d = scratch("links");
        let path = d.join("t.tt");
        let victim = d.join("victim");
        std::fs::write(&victim, b"keep me").unwrap();
        std::os::unix::fs::symlink(&victim, d.join("t.tt.tmp")).unwrap();
        let (file, _, _) = open(&path, &kalah(false), 1).unwrap();
        fill(&file.tt);
        file.save().unwrap();
        assert_eq!(std::fs::read(&victim).unwrap(), b"keep me");
        assert!(std::fs::symlink_metadata(&path).unwrap().is_file());
        assert!(!d.join("t.tt.tmp").exists());
        let _ = std::fs::remove_dir_all(&d);
    }

    #[test]
    fn a_snapshot_while_another_thread_writes_reads_back_only_true_entries() {
        let d = scratch("snapshot");
        let path = d.join("t.tt");
        let (file, _, _) = open(&path, &kalah(false), 1).unwrap();
        let stop = std::sync::atomic::AtomicBool::new(false);
        let written = std::sync::atomic::AtomicU32::new(0);
        let board = |i: u32| Board::from_pits(&[(i % 11) as u8, (i / 11 % 13) as u8, 3, 0, 0, 1]);
        std::thread::scope(|s| {
            s.spawn(|| {
                let mut i = 0u32;
                while !stop.load(Relaxed) {
                    let b = board(i);
                    let u = Update {
                        proven: Some((Bound::Lower, b.total() as i32)),
                        heuristic: None,
                        mv: NO_MOVE,
                        work: (i % 50) as u8,
                    };
                    file.tt.store(hash(b), b.total(), u);
                    i = i.wrapping_add(1);
                    written.store(i, Relaxed);
                }
            });
            // Every board written at least once before the first save.
            while written.load(Relaxed) < 11 * 13 {
                std::thread::yield_now();
            }
            for _ in 0..3 {
                file.save().unwrap();
            }
            stop.store(true, Relaxed);
        });
        drop(file);
        let (back, _, _) = open(&path, &kalah(false), 1).unwrap();
        let mut found = 0;
        for i in 0..11 * 13 {
            let b = board(i);
            if let Some(e) = back.tt.probe(hash(b), b.total()) {
                assert_eq!(e.lo, b.total() as i32);
                found += 1;
            }
        }
        assert!(found > 0, "the snapshot kept none of the entries written");
        let _ = std::fs::remove_dir_all(&d);
    }
}
