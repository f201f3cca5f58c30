//! Reading and writing one tier's table file.

use crate::format::{self, Encoding, Header, BLOCK, HEADER_LEN, VERSION};
use crate::TableError;
use memmap2::Mmap;
use std::fs::{self, File};
use std::io::Write;
use std::path::{Path, PathBuf};

/// The file of tier `tier` of the rule set `key` under `dir`.
pub fn tier_path(dir: &Path, key: &str, tier: usize) -> PathBuf {
    dir.join(key).join(format!("tier-{tier:03}.mtb"))
}

/// An open table, probed by rank.
pub struct Table {
    path: PathBuf,
    header: Header,
    data: Data,
}

enum Data {
    /// Raw values, memory-mapped: a probe is one byte read.
    Mapped(Mmap),
    /// Raw values in memory (a compressed table loaded whole for building).
    Owned(Vec<u8>),
    /// Compressed blocks, memory-mapped: a probe decompresses one block.
    Blocks(Mmap),
}

impl Table {
    /// Opens and checks a table: header, variant key, tier, entry count, length and (if
    /// `check_payload`) the payload checksum.
    pub fn open(
        path: &Path,
        key: &str,
        tier: usize,
        entries: u64,
        check_payload: bool,
    ) -> Result<Table, TableError> {
        let io = |e| TableError::io(path, e);
        let file = File::open(path).map_err(io)?;
        // SAFETY: table files are written once under a temporary name and renamed into place;
        // nothing modifies them while they are mapped.
        let map = unsafe { Mmap::map(&file) }.map_err(io)?;
        let header = Header::parse(&map, path)?;
        if header.key != key {
            return Err(TableError::WrongVariant {
                path: path.to_path_buf(),
                found: header.key,
                expected: key.to_string(),
            });
        }
        if header.tier as usize != tier || header.entries != entries {
            return Err(TableError::Corrupt {
                path: path.to_path_buf(),
                why: format!(
                    "holds tier {} with {} positions, expected tier {tier} with {entries}",
                    header.tier, header.entries
                ),
            });
        }
        let have = (map.len() - HEADER_LEN) as u64;
        if have != header.payload_len {
            return Err(TableError::Corrupt {
                path: path.to_path_buf(),
                why: format!(
                    "payload is {have} bytes, the header says {} (truncated or padded)",
                    header.payload_len
                ),
            });
        }
        let payload = &map[HEADER_LEN..];
        if header.encoding == Encoding::Raw && header.payload_len != entries {
            return Err(TableError::Corrupt {
                path: path.to_path_buf(),
                why: "raw payload length differs from the entry count".into(),
            });
        }
        if check_payload && format::checksum(payload) != header.checksum {
            return Err(TableError::Checksum {
                path: path.to_path_buf(),
            });
        }
        let data = match header.encoding {
            Encoding::Raw => Data::Mapped(map),
            Encoding::Zstd => Data::Blocks(map),
        };
        Ok(Table {
            path: path.to_path_buf(),
            header,
            data,
        })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    pub fn header(&self) -> &Header {
        &self.header
    }

    pub fn entries(&self) -> u64 {
        self.header.entries
    }

    pub fn is_compressed(&self) -> bool {
        self.header.encoding == Encoding::Zstd
    }

    /// Size of the file on disk.
    pub fn file_bytes(&self) -> u64 {
        HEADER_LEN as u64 + self.header.payload_len
    }

    /// The value of the position of rank `rank`.
    #[inline]
    pub fn get(&self, rank: u64) -> Result<i8, TableError> {
        match &self.data {
            Data::Mapped(m) => Ok(m[HEADER_LEN + rank as usize] as i8),
            Data::Owned(v) => Ok(v[rank as usize] as i8),
            Data::Blocks(m) => {
                let block = self.block(&m[HEADER_LEN..], rank as usize / BLOCK)?;
                Ok(block[rank as usize % BLOCK] as i8)
            }
        }
    }

    /// The value of rank `rank` of a table known to be raw or loaded (the builder's fast path).
    #[inline(always)]
    pub fn get_raw(&self, rank: u64) -> i8 {
        match &self.data {
            Data::Mapped(m) => m[HEADER_LEN + rank as usize] as i8,
            Data::Owned(v) => v[rank as usize] as i8,
            Data::Blocks(_) => self.get(rank).unwrap_or(0),
        }
    }

    /// Starts fetching the value of `rank` (raw or loaded tables).
    #[inline(always)]
    pub fn prefetch(&self, rank: u64) {
        match &self.data {
            Data::Mapped(m) => crate::prefetch(&m[HEADER_LEN + rank as usize]),
            Data::Owned(v) => crate::prefetch(&v[rank as usize]),
            Data::Blocks(_) => {}
        }
    }

    fn block(&self, payload: &[u8], i: usize) -> Result<Vec<u8>, TableError> {
        let blocks = format::blocks_for(self.header.entries);
        let corrupt = |why: &str| TableError::Corrupt {
            path: self.path.clone(),
            why: why.to_string(),
        };
        let (a, b) = format::block_range(payload, blocks, i)
            .ok_or_else(|| corrupt("bad block offset table"))?;
        let want = BLOCK.min(self.header.entries as usize - i * BLOCK);
        let out = zstd::bulk::decompress(&payload[a..b], BLOCK)
            .map_err(|e| corrupt(&format!("block {i} does not decompress: {e}")))?;
        if out.len() != want {
            return Err(corrupt(&format!(
                "block {i} holds {} values, expected {want}",
                out.len()
            )));
        }
        Ok(out)
    }

    /// All values, decompressed if needed.
    pub fn values(&self) -> Result<Vec<u8>, TableError> {
        match &self.data {
            Data::Mapped(m) => Ok(m[HEADER_LEN..].to_vec()),
            Data::Owned(v) => Ok(v.clone()),
            Data::Blocks(m) => {
                let blocks = format::blocks_for(self.header.entries);
                let mut out = Vec::with_capacity(self.header.entries as usize);
                for i in 0..blocks {
                    out.extend(self.block(&m[HEADER_LEN..], i)?);
                }
                Ok(out)
            }
        }
    }

    /// Runs `f` on the raw values without copying a mapped raw table.
    pub fn with_values<R>(&self, f: impl FnOnce(&[u8]) -> R) -> Result<R, TableError> {
        match &self.data {
            Data::Mapped(m) => Ok(f(&m[HEADER_LEN..])),
            Data::Owned(v) => Ok(f(v)),
            Data::Blocks(_) => Ok(f(&self.values()?)),
        }
    }

    /// A compressed table becomes an in-memory raw one, so probes are single reads.
    pub fn into_fast(self) -> Result<Table, TableError> {
        if let Data::Blocks(_) = self.data {
            let v = self.values()?;
            return Ok(Table {
                path: self.path,
                header: self.header,
                data: Data::Owned(v),
            });
        }
        Ok(self)
    }
}

/// Writes a table under a temporary name, syncs it, and renames it into place, so a reader
/// never sees a partial file. Returns the file size.
pub fn write_table(
    path: &Path,
    key: &str,
    tier: usize,
    values: &[u8],
    compress: bool,
) -> Result<u64, TableError> {
    let io = |e| TableError::io(path, e);
    let (encoding, payload): (Encoding, std::borrow::Cow<[u8]>) = if compress {
        (
            Encoding::Zstd,
            format::compress(values, 9).map_err(io)?.into(),
        )
    } else {
        (Encoding::Raw, values.into())
    };
    let header = Header {
        version: VERSION,
        tier: tier as u32,
        entries: values.len() as u64,
        encoding,
        block: if compress { BLOCK as u32 } else { 0 },
        payload_len: payload.len() as u64,
        checksum: format::checksum(&payload),
        key: key.to_string(),
    };
    if let Some(parent) = path.parent() {
        fs::create_dir_all(parent).map_err(|e| TableError::io(parent, e))?;
    }
    let tmp = path.with_extension("mtb.tmp");
    {
        let mut f = File::create(&tmp).map_err(|e| TableError::io(&tmp, e))?;
        f.write_all(&header.to_bytes())
            .map_err(|e| TableError::io(&tmp, e))?;
        f.write_all(&payload).map_err(|e| TableError::io(&tmp, e))?;
        f.sync_all().map_err(|e| TableError::io(&tmp, e))?;
    }
    fs::rename(&tmp, path).map_err(io)?;
    Ok(HEADER_LEN as u64 + payload.len() as u64)
}
