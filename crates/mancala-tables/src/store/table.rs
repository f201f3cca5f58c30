//! Reading and writing one tier's table file.

use crate::error::FileError;
use crate::store::format::{self, Encoding, Header, BLOCK, HEADER_LEN, VERSION};
use crate::store::mapped::FileMap;
use mancala_index::Indexer;
use mancala_rules::Grouped;
use memmap2::Mmap;
use std::fs::{self, File};
use std::io::{Read, Seek, SeekFrom, Write};
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};
use xxhash_rust::xxh3::Xxh3;

/// Whether a table's map is watched for its file changed in place (see `mapped`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Watching {
    /// Not watched: a read of a file changed under it faults, as a process that writes what
    /// it reads (a build, an import, a verification) must, rather than go on from zeros.
    Off,
    /// Watched from the start: for a reader that must survive a file changed in place under
    /// it (a server, a question). A file changed while it is checked or read makes
    /// [`FileError::Changed`], never a fault.
    On,
}

/// An open table, probed by rank.
pub struct Table {
    path: PathBuf,
    header: Header,
    data: Data,
    /// Where the values begin in the mapping: after the header, or at 0 in a published file.
    start: usize,
    /// The last position's value when the file stops one short (a published file's tier
    /// with the start position).
    extra: Option<i8>,
    /// What tells whether a watched file is still the one opened ([`Table::unchanged`]).
    opened: Opened,
}

/// What a file was when it was opened, to tell whether it changed in place since (see
/// `mapped`).
#[derive(Clone)]
enum Opened {
    /// A table file's header, byte for byte: a file cut short or overwritten with another
    /// file (another tier, another build) has another header, or none. Beside it what `stat`
    /// said of the file when it was opened: a payload written over in place, or a new file
    /// renamed over the path, leaves the header as it was (see [`Table::replaced`]).
    Header(Box<[u8; HEADER_LEN]>, Option<Identity>),
    /// A headerless file (the published database's): its size, inode and time of change.
    Stat(Option<Identity>),
    /// Values in memory: nothing changes them.
    Memory,
}

/// What `stat` says of a file that changes when it is written (or is replaced).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Identity {
    len: u64,
    dev: u64,
    ino: u64,
    mtime: (i64, i64),
    /// The time of the last change of the file's inode, which no one can set back (a
    /// payload written over and its time of modification restored still shows here).
    ctime: (i64, i64),
}

impl Identity {
    fn of(m: &fs::Metadata) -> Identity {
        use std::os::unix::fs::MetadataExt;
        Identity {
            len: m.len(),
            dev: m.dev(),
            ino: m.ino(),
            mtime: (m.mtime(), m.mtime_nsec()),
            ctime: (m.ctime(), m.ctime_nsec()),
        }
    }

    /// The file at `path` now (`None` if it is gone).
    pub fn at(path: &Path) -> Option<Identity> {
        fs::metadata(path).ok().as_ref().map(Identity::of)
    }
}

enum Data {
    /// Raw values, memory-mapped: a probe is one byte read.
    Mapped(FileMap),
    /// Raw values in memory (a compressed table once decoded).
    Owned(Vec<u8>),
    /// A raw file's values copied into anonymous memory on huge pages (see
    /// [`Table::resident`]).
    Resident(crate::bytes::Bytes),
    /// Compressed blocks, memory-mapped; decoding needs the rules and the lower tiers, so it
    /// happens in [`crate::Tables`] and the builder.
    Blocks(FileMap),
}

impl Table {
    /// Opens and checks a table of tier `tier` of the rule set `key`, indexed by `ix`:
    /// header, variant key, tier, entry count, order, length and (if `check_payload`) the
    /// payload checksum.
    pub fn open(
        path: &Path,
        key: &str,
        tier: usize,
        ix: &Indexer,
        check_payload: bool,
    ) -> Result<Table, FileError> {
        Table::open_as(path, key, tier, ix, check_payload, Watching::Off)
    }

    /// [`Table::open`], the map watched from the start or not ([`Watching`]).
    pub(crate) fn open_as(
        path: &Path,
        key: &str,
        tier: usize,
        ix: &Indexer,
        check_payload: bool,
        watch: Watching,
    ) -> Result<Table, FileError> {
        let file = open_regular(path)?;
        let identity = file.metadata().ok().as_ref().map(Identity::of);
        // SAFETY: table files are written once under a temporary name and renamed into place;
        // this program never modifies them while they are mapped. One changed by someone else
        // is caught where the map is watched (see `mapped`), and faults where it is not.
        let map = unsafe { Mmap::map(&file) }.map_err(|e| FileError::io(path, e))?;
        let mut map = FileMap::new(map);
        if watch == Watching::On {
            map.watch();
        }
        let checked = Table::check(path, key, tier, ix, check_payload, map);
        match checked {
            Err((_, Some(map))) if map.faulted() => Err(FileError::Changed {
                path: path.to_path_buf(),
            }),
            Err((e, _)) => Err(e),
            Ok(mut t) => {
                if let Opened::Header(_, id) = &mut t.opened {
                    *id = identity;
                }
                t.unchanged().map(|()| t)
            }
        }
    }

    /// [`Table::open`]'s checks of the file mapped as `map` (given back with an error, to
    /// tell whether it faulted).
    fn check(
        path: &Path,
        key: &str,
        tier: usize,
        ix: &Indexer,
        check_payload: bool,
        map: FileMap,
    ) -> Result<Table, (FileError, Option<FileMap>)> {
        match Table::checked(path, key, tier, ix, check_payload, &map) {
            Ok((header, opened)) => {
                let data = match header.encoding {
                    Encoding::Raw => Data::Mapped(map),
                    Encoding::Residual | Encoding::Zstd => Data::Blocks(map),
                };
                Ok(Table {
                    path: path.to_path_buf(),
                    header,
                    data,
                    start: HEADER_LEN,
                    extra: None,
                    opened,
                })
            }
            Err(e) => Err((e, Some(map))),
        }
    }

    /// The header of a table file mapped as `map`, checked, and the bytes it was read from.
    fn checked(
        path: &Path,
        key: &str,
        tier: usize,
        ix: &Indexer,
        check_payload: bool,
        map: &FileMap,
    ) -> Result<(Header, Opened), FileError> {
        let entries = ix.size(tier);
        let header = Header::parse(map, path)?;
        if header.key != key {
            return Err(FileError::WrongVariant {
                path: path.to_path_buf(),
                found: header.key,
                expected: key.to_string(),
            });
        }
        let corrupt = |why: String| FileError::corrupt(path, why);
        if header.order != ix.order() {
            // Only Awari-type tiers changed their order (format version 3): they are read
            // from that version on.
            return Err(FileError::Version {
                path: path.to_path_buf(),
                found: header.version,
                first: VERSION,
                last: VERSION,
            });
        }
        if header.tier as usize != tier || header.entries != entries {
            return Err(corrupt(format!(
                "holds tier {} with {} positions, expected tier {tier} with {}",
                header.tier,
                Grouped(header.entries as u128),
                Grouped(entries as u128)
            )));
        }
        let have = (map.len() - HEADER_LEN) as u64;
        if have != header.payload_len {
            return Err(corrupt(format!(
                "payload is {} bytes, the header says {} (truncated or padded)",
                Grouped(have as u128),
                Grouped(header.payload_len as u128)
            )));
        }
        let payload = &map[HEADER_LEN..];
        if header.encoding == Encoding::Raw && header.payload_len != entries {
            return Err(corrupt(
                "raw payload length differs from the entry count".into(),
            ));
        }
        if header.encoding != Encoding::Raw && header.block as usize != BLOCK {
            return Err(corrupt(format!(
                "{} positions a block, this program reads {BLOCK}",
                header.block
            )));
        }
        if check_payload {
            if format::checksum(payload) != header.checksum {
                return Err(FileError::Checksum {
                    path: path.to_path_buf(),
                });
            }
            // The check read every page: hand them back, so that checking many big tiers
            // does not hold them all (they are read from the file again when probed).
            // SAFETY: as in `release_below`: a read-only map of a file nothing modifies.
            let _ = unsafe {
                map.map()
                    .unchecked_advise(memmap2::UncheckedAdvice::DontNeed)
            };
        }
        let mut bytes = Box::new([0u8; HEADER_LEN]);
        bytes.copy_from_slice(&map[..HEADER_LEN]);
        Ok((header, Opened::Header(bytes, None)))
    }

    /// Opens a file of the published Awari database (`scores.N`, see [`crate::store::published`]):
    /// tier `tier` of the rule set `key`, indexed by `ix` in the published order, one signed
    /// byte a position and no header, so it is checked by its size. Where the tier holds the
    /// start position, which the file leaves out, its value is to be set with
    /// [`Table::with_extra`].
    pub fn open_published(
        path: &Path,
        key: &str,
        tier: usize,
        ix: &Indexer,
    ) -> Result<Table, FileError> {
        Table::open_published_as(path, key, tier, ix, Watching::Off)
    }

    /// [`Table::open_published`], the map watched from the start or not ([`Watching`]).
    pub(crate) fn open_published_as(
        path: &Path,
        key: &str,
        tier: usize,
        ix: &Indexer,
        watch: Watching,
    ) -> Result<Table, FileError> {
        let io = |e| FileError::io(path, e);
        let file = open_regular(path)?;
        let identity = file.metadata().ok().as_ref().map(Identity::of);
        // SAFETY: as in `open_as`.
        let map = unsafe { Mmap::map(&file) }.map_err(io)?;
        let mut map = FileMap::new(map);
        if watch == Watching::On {
            map.watch();
        }
        let want = crate::store::tier_files::published_len(ix, tier);
        if map.len() as u64 != want {
            return Err(FileError::corrupt(
                path,
                format!(
                    "{} bytes, but tier {tier} of {key} has {} positions in the published order (truncated, or another tier's file)",
                    Grouped(map.len() as u128),
                    Grouped(want as u128)
                ),
            ));
        }
        let header = Header {
            version: VERSION,
            tier: tier as u32,
            entries: ix.size(tier),
            encoding: Encoding::Raw,
            block: 0,
            order: ix.order(),
            payload_len: want,
            checksum: 0,
            key: key.to_string(),
        };
        Ok(Table {
            path: path.to_path_buf(),
            header,
            data: Data::Mapped(map),
            start: 0,
            extra: None,
            opened: Opened::Stat(identity),
        })
    }

    /// Is a watched file still the one opened? Not if a read of its map faulted (the file
    /// was cut short under it: what was read since is zeros), if its header is no longer the
    /// one opened (overwritten with another file), or, for a published file, which has no
    /// header, if its size, inode or time of change are not. Tables whose values are in
    /// memory, and maps not watched, are not looked at (reading the header of a map not
    /// watched could fault).
    pub fn unchanged(&self) -> Result<(), FileError> {
        let (Data::Mapped(m) | Data::Blocks(m)) = &self.data else {
            return Ok(());
        };
        let changed = m.faulted()
            || (m.watched()
                && match &self.opened {
                    Opened::Header(h, _) => m.get(..HEADER_LEN) != Some(&h[..]),
                    Opened::Stat(id) => Identity::at(&self.path) != *id,
                    Opened::Memory => false,
                });
        match changed {
            true => Err(FileError::Changed {
                path: self.path.clone(),
            }),
            false => Ok(()),
        }
    }

    /// Is the file at this table's path no longer the one opened: written since (its time of
    /// change), another file renamed over it (its inode), or gone? The map still reads the
    /// file it was opened on, so a long-lived reader would go on answering from the old
    /// values (or, for a payload written over in place, from bytes no checksum vouched for)
    /// without ever seeing a header change. One `stat`: [`crate::Tables::unchanged`] asks
    /// now and then, not after every answer. Only watched maps are looked at.
    pub(crate) fn replaced(&self) -> bool {
        let (Data::Mapped(m) | Data::Blocks(m)) = &self.data else {
            return false;
        };
        m.watched()
            && match &self.opened {
                Opened::Header(_, id) | Opened::Stat(id) => Identity::at(&self.path) != *id,
                Opened::Memory => false,
            }
    }

    /// The same table, with the value of the position its file leaves out.
    pub(crate) fn with_extra(mut self, value: i8) -> Table {
        self.extra = Some(value);
        self
    }

    /// The file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The file's header.
    pub fn header(&self) -> &Header {
        &self.header
    }

    /// Positions in the tier.
    pub fn entries(&self) -> u64 {
        self.header.entries
    }

    /// Is the file compressed (whether or not it was decoded since)?
    pub fn is_compressed(&self) -> bool {
        self.header.encoding != Encoding::Raw
    }

    /// Hands back the memory of the mapped values below rank `rank` (whole pages): they are
    /// read from the file again if needed. Only a raw file's mapping has any to hand back.
    pub(crate) fn release_below(&self, rank: u64) {
        const PAGE: usize = 4096;
        if let Data::Mapped(m) = &self.data {
            let end = (self.start + rank as usize).min(m.len()) / PAGE * PAGE;
            if end > 0 {
                // SAFETY: the mapping is a read-only map of a file that nothing modifies while
                // it is mapped (tables are written under another name and renamed); pages
                // given back are read from the file again on the next access.
                let _ = unsafe {
                    m.map()
                        .unchecked_advise_range(memmap2::UncheckedAdvice::DontNeed, 0, end)
                };
            }
        }
    }

    /// How the file holds the values.
    pub fn encoding(&self) -> Encoding {
        self.header.encoding
    }

    /// Reads the file into memory ([`FileMap::warm`]), `step` bytes at a time, calling
    /// `done` with the bytes read after each step; false if it stopped short. Values already
    /// in memory need nothing.
    pub(crate) fn warm(&self, step: usize, done: &mut dyn FnMut(u64)) -> bool {
        match &self.data {
            Data::Mapped(m) | Data::Blocks(m) => m.warm(step, done),
            Data::Owned(_) | Data::Resident(_) => true,
        }
    }

    /// The bytes [`Table::warm`] reads: the mapped file's, none for values in memory.
    pub(crate) fn mapped_bytes(&self) -> u64 {
        match &self.data {
            Data::Mapped(m) | Data::Blocks(m) => m.len() as u64,
            Data::Owned(_) | Data::Resident(_) => 0,
        }
    }

    /// Size of the file on disk.
    pub fn file_bytes(&self) -> u64 {
        self.start as u64 + self.header.payload_len
    }

    /// The values, when stored raw or already decoded.
    pub fn raw(&self) -> Option<&[u8]> {
        match &self.data {
            Data::Mapped(m) => Some(&m[self.start..]),
            Data::Owned(v) => Some(v),
            Data::Resident(b) => Some(b),
            Data::Blocks(_) => None,
        }
    }

    /// The value of rank `rank` of a raw or decoded table (`None` for a compressed one, or
    /// past the tier).
    #[inline]
    pub fn get(&self, rank: u64) -> Option<i8> {
        match self.raw()?.get(rank as usize) {
            Some(&v) => Some(v as i8),
            None if rank + 1 == self.header.entries => self.extra,
            None => None,
        }
    }

    /// Starts fetching the value of rank `rank` (of a raw or decoded table), to be read soon.
    pub fn prefetch(&self, rank: u64) {
        if let Some(v) = self.raw().and_then(|raw| raw.get(rank as usize)) {
            crate::prefetch(v);
        }
    }

    /// The value of the tier's last position when the file does not hold it: the start
    /// position, which a published database file leaves out.
    pub fn extra(&self) -> Option<i8> {
        self.extra
    }

    /// The number of compressed blocks.
    pub(crate) fn blocks(&self) -> usize {
        format::blocks_for(self.header.entries)
    }

    /// The compressed bytes of block `i`.
    pub(crate) fn block(&self, i: usize) -> Result<&[u8], FileError> {
        let Data::Blocks(m) = &self.data else {
            unreachable!("only compressed tables have blocks")
        };
        let payload = &m[self.start..];
        let (a, b) = format::block_range(payload, self.blocks(), i)
            .ok_or_else(|| FileError::corrupt(&self.path, "bad block offset table"))?;
        Ok(&payload[a..b])
    }

    /// A copy of this raw or decoded table with its values in anonymous memory on huge
    /// pages, and this table's mapped pages handed back. Why: a tier read at random through
    /// its file's mapping, whose pages were pushed out of the page cache by passes over other
    /// tiers and read back one fault at a time, sits on small pages, so nearly every probe of
    /// a tier of gigabytes misses the TLB as well as the caches, and a prefetch of a page not
    /// yet mapped does nothing; a resident copy is read back in order once and stays. `None`
    /// for a table still compressed, or when the memory cannot be had.
    pub(crate) fn resident(&self) -> Option<Table> {
        let bytes = crate::bytes::Bytes::copy_of(self.raw()?).ok()?;
        self.release_below(self.header.entries);
        Some(Table {
            path: self.path.clone(),
            header: self.header.clone(),
            data: Data::Resident(bytes),
            start: 0,
            extra: self.extra,
            opened: Opened::Memory,
        })
    }

    /// The same table with its values decoded into memory.
    pub(crate) fn decoded(self, values: Vec<u8>) -> Table {
        debug_assert_eq!(values.len() as u64, self.header.entries);
        Table {
            path: self.path,
            header: self.header,
            data: Data::Owned(values),
            start: 0,
            extra: None,
            opened: Opened::Memory,
        }
    }
}

/// Writes a table under a temporary name, syncs it, and renames it into place, so a reader
/// never sees a partial file. `payload` is the raw values or the compressed form (see
/// `codec`). Returns the file size.
pub fn write_table(
    path: &Path,
    key: &str,
    tier: usize,
    ix: &Indexer,
    encoding: Encoding,
    payload: &[u8],
) -> Result<u64, FileError> {
    write_with(path, key, tier, ix, encoding, |f, hash| {
        f.write_all(payload)?;
        hash.update(payload);
        Ok(payload.len() as u64)
    })
}

/// [`write_table`] of a payload given in pieces, written in order and never joined in
/// memory (a compressed tier's offset table, then its blocks).
pub fn write_table_pieces<'a>(
    path: &Path,
    key: &str,
    tier: usize,
    ix: &Indexer,
    encoding: Encoding,
    pieces: impl IntoIterator<Item = &'a [u8]>,
) -> Result<u64, FileError> {
    write_with(path, key, tier, ix, encoding, |f, hash| {
        let mut len = 0;
        for piece in pieces {
            f.write_all(piece)?;
            hash.update(piece);
            len += piece.len() as u64;
        }
        Ok(len)
    })
}

/// Feeds what tells the files of `tiers` apart into `h`: each one's payload checksum and
/// entries, or its absence. What was worked out from them (a checkpoint's exits, a
/// verification's journal) is tied to that.
pub(crate) fn hash_files<'a>(h: &mut Xxh3, tiers: impl IntoIterator<Item = Option<&'a Table>>) {
    for t in tiers {
        match t {
            Some(t) => {
                h.update(&[1]);
                h.update(&t.header().checksum.to_le_bytes());
                h.update(&t.entries().to_le_bytes());
            }
            None => h.update(&[0]),
        }
    }
}

/// Writes a compressed table of tier `tier` whose payload is an offset table and then `count`
/// blocks, which `blocks` gives in order as they are made (a batch at a time: a tier of any
/// size is never in memory whole, raw or compressed). The offset table goes last into the
/// room left for it, and the checksum is then taken reading the payload back in order (from
/// the page cache, as it was just written). Returns the file size.
pub(crate) fn write_table_blocks(
    path: &Path,
    key: &str,
    tier: usize,
    ix: &Indexer,
    encoding: Encoding,
    count: usize,
    blocks: impl IntoIterator<Item = std::io::Result<Vec<u8>>>,
) -> Result<u64, FileError> {
    write_with(path, key, tier, ix, encoding, |w, hash| {
        let table_len = 8 * (count + 1);
        w.write_all(&vec![0u8; table_len])?;
        let mut table = Vec::with_capacity(table_len);
        let mut end = 0u64;
        for block in blocks {
            let block = block?;
            table.extend_from_slice(&end.to_le_bytes());
            w.write_all(&block)?;
            end += block.len() as u64;
        }
        table.extend_from_slice(&end.to_le_bytes());
        if table.len() != table_len {
            return Err(std::io::Error::other(format!(
                "{} blocks made for a table of {count}",
                table.len() / 8 - 1
            )));
        }
        w.flush()?;
        let f = w.get_ref();
        f.write_all_at(&table, HEADER_LEN as u64)?;
        let len = table_len as u64 + end;
        let mut buf = vec![0u8; 1 << 20];
        let mut at = 0u64;
        while at < len {
            let k = (len - at).min(buf.len() as u64) as usize;
            f.read_exact_at(&mut buf[..k], HEADER_LEN as u64 + at)?;
            hash.update(&buf[..k]);
            at += k as u64;
        }
        Ok(len)
    })
}

/// Writes the raw table of tier `tier` from the files `parts`, which hold its values in
/// rank order (the slices of a distributed build), as [`write_table`] does; the parts are
/// streamed, never held in memory whole. Returns the file size.
pub fn write_table_from_parts(
    path: &Path,
    key: &str,
    tier: usize,
    ix: &Indexer,
    parts: &[PathBuf],
) -> Result<u64, FileError> {
    write_with(path, key, tier, ix, Encoding::Raw, |f, hash| {
        let mut buf = vec![0u8; 4 << 20];
        let mut len = 0u64;
        for part in parts {
            let mut r = File::open(part).map_err(|e| with_path(part, e))?;
            loop {
                let k = r.read(&mut buf).map_err(|e| with_path(part, e))?;
                if k == 0 {
                    break;
                }
                f.write_all(&buf[..k])?;
                hash.update(&buf[..k]);
                len += k as u64;
            }
        }
        Ok(len)
    })
}

/// Opens `path` for reading if it is a regular file (following links): anything else there
/// (a folder, a FIFO, whose open would block until a writer came, a device) is an error that
/// names it.
pub(crate) fn open_regular(path: &Path) -> Result<File, FileError> {
    let meta = fs::metadata(path).map_err(|e| FileError::io(path, e))?;
    if !meta.is_file() {
        return Err(FileError::NotAFile {
            path: path.to_path_buf(),
            what: file_kind(&meta),
        });
    }
    File::open(path).map_err(|e| FileError::io(path, e))
}

/// What a path that is not a regular file is.
fn file_kind(meta: &fs::Metadata) -> &'static str {
    crate::store::files::kind_of(meta)
}

/// An I/O error that names the file it happened on (for errors about another file than the
/// one being written).
fn with_path(path: &Path, e: std::io::Error) -> std::io::Error {
    std::io::Error::new(e.kind(), format!("{}: {e}", path.display()))
}

/// Writes a table whose payload `write` streams into the file (updating the hash, and
/// returning the payload's length) under a temporary name: the header is written last, once
/// the payload's length and checksum are known; then the file is synced and renamed into
/// place ([`crate::store::files::replace`]).
pub(crate) fn write_with(
    path: &Path,
    key: &str,
    tier: usize,
    ix: &Indexer,
    encoding: Encoding,
    write: impl FnOnce(&mut std::io::BufWriter<&File>, &mut Xxh3) -> std::io::Result<u64>,
) -> Result<u64, FileError> {
    if let Some(parent) = path.parent() {
        crate::store::files::make_folder(parent)?;
    }
    if let Ok(meta) = fs::symlink_metadata(path) {
        if meta.is_dir() {
            return Err(FileError::NotAFile {
                path: path.to_path_buf(),
                what: "a folder",
            });
        }
    }
    crate::store::files::replace(path, true, FileError::io, |f, tmp| {
        let io = |e| FileError::io(tmp, e);
        // Readable: a payload whose start is written last is read back for its checksum.
        let mut hash = Xxh3::new();
        let payload_len = {
            let mut w = std::io::BufWriter::with_capacity(1 << 20, &*f);
            w.seek(SeekFrom::Start(HEADER_LEN as u64)).map_err(io)?;
            let len = write(&mut w, &mut hash).map_err(io)?;
            w.flush().map_err(io)?;
            len
        };
        let entries = ix.size(tier);
        if encoding == Encoding::Raw && payload_len != entries {
            return Err(FileError::corrupt(
                path,
                format!(
                    "{} values written for a tier of {} positions",
                    Grouped(payload_len as u128),
                    Grouped(entries as u128)
                ),
            ));
        }
        let header = Header {
            version: VERSION,
            tier: tier as u32,
            entries,
            encoding,
            order: ix.order(),
            block: if encoding != Encoding::Raw {
                BLOCK as u32
            } else {
                0
            },
            payload_len,
            checksum: hash.digest(),
            key: key.to_string(),
        };
        f.write_all_at(&header.to_bytes(), 0).map_err(io)?;
        Ok(HEADER_LEN as u64 + payload_len)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use mancala_rules::{Options, Preset, Rules, Variant};

    /// A compressed table written a block at a time, its offset table last, is byte for byte
    /// the table written with its offset table first; too few blocks is an error, not a file.
    #[test]
    fn blocks_written_as_they_come_make_the_same_file() {
        let rules = Rules::new(Variant::new(Preset::Awari, Options::default()).unwrap());
        let ix = Indexer::new(&rules, 9).unwrap();
        let n = 9;
        let count = format::blocks_for(ix.size(n));
        let blocks: Vec<Vec<u8>> = (0..count)
            .map(|i| (0..100 + 37 * i).map(|j| (i * 7 + j) as u8).collect())
            .collect();
        let dir = std::env::temp_dir().join(format!("mancala-blocks-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let (a, b) = (dir.join("a.mtb"), dir.join("b.mtb"));
        let table = crate::store::codec::offset_table(&blocks);
        let pieces = std::iter::once(&table[..]).chain(blocks.iter().map(Vec::as_slice));
        write_table_pieces(&a, "k", n, &ix, Encoding::Zstd, pieces).unwrap();
        let streamed = blocks.iter().cloned().map(Ok);
        write_table_blocks(&b, "k", n, &ix, Encoding::Zstd, count, streamed).unwrap();
        assert!(fs::read(&a).unwrap() == fs::read(&b).unwrap());
        let short = blocks[1..].iter().cloned().map(Ok);
        assert!(write_table_blocks(&b, "k", n, &ix, Encoding::Zstd, count, short).is_err());
        fs::remove_dir_all(&dir).unwrap();
    }
}
