//! The table file: a fixed header, then one signed byte per position at offset = rank
//! (raw), or zstd blocks behind an offset table (compressed).
//!
//! The header (128 bytes, little endian: magic, version, tier, entries, encoding, order, block
//! size, payload length and checksum, variant key, and a checksum of the header itself) is
//! laid out in docs/table-format.md, "Header", the one description of it; [`Header::to_bytes`]
//! and [`Header::parse`] are its one implementation, and `tests/format_fixture.rs` pins the
//! bytes of small built tiers.
//!
//! Values are the net future gain of the side to move (docs/rules.md, Conventions), `-n..=n`
//! for tier `n`.

use crate::error::FileError;
use mancala_index::Order;
use std::path::Path;
use xxhash_rust::xxh3::xxh3_64;

/// The first 8 bytes of every table file.
pub const MAGIC: [u8; 8] = *b"MNCLTBL\0";
/// 2: positions ordered by the seeds on the mover's row, then by each row (1 was lexicographic
/// over all pits).
/// The format version this program writes. 3 records the order of the positions (Awari-type
/// tiers took the published database's order); version 2 files, all in the mover-first
/// order, are still read where that is the order (every rule set but the Awari type).
pub const VERSION: u32 = 3;
/// The oldest version still read.
const FIRST_READ: u32 = 2;
/// Bytes before the payload.
pub const HEADER_LEN: usize = 128;
/// Positions per compressed block: one probe decompresses at most this many bytes.
pub const BLOCK: usize = 1 << 16;

/// How the payload holds the values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Encoding {
    /// One signed byte a position, at offset = rank.
    Raw = 0,
    /// Exit residuals in zstd blocks (see `codec`): the smallest, but reading a position
    /// back reads its best exit from the lower tiers.
    Residual = 1,
    /// The raw values in zstd blocks: larger, but read back without the lower tiers (the
    /// form of the tiers built beyond memory, whose lower tiers are on disk).
    Zstd = 2,
}

/// A table file's header (see the module docs for its layout).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    /// Format version.
    pub version: u32,
    /// Seeds in the pits of every position of the tier.
    pub tier: u32,
    /// Positions in the tier.
    pub entries: u64,
    /// How the payload holds the values.
    pub encoding: Encoding,
    /// Positions a compressed block (0 when raw).
    pub block: u32,
    /// The order of the positions.
    pub order: Order,
    /// Payload bytes after the header.
    pub payload_len: u64,
    /// xxh3-64 of the payload as stored.
    pub checksum: u64,
    /// The rule set's key.
    pub key: String,
}

impl Header {
    /// The header as written, its own checksum included.
    pub fn to_bytes(&self) -> [u8; HEADER_LEN] {
        let mut h = [0u8; HEADER_LEN];
        h[0..8].copy_from_slice(&MAGIC);
        h[8..12].copy_from_slice(&self.version.to_le_bytes());
        h[12..16].copy_from_slice(&self.tier.to_le_bytes());
        h[16..24].copy_from_slice(&self.entries.to_le_bytes());
        h[24] = self.encoding as u8;
        h[25] = match self.order {
            Order::MoverFirst => 0,
            Order::Published => 1,
        };
        h[28..32].copy_from_slice(&self.block.to_le_bytes());
        h[32..40].copy_from_slice(&self.payload_len.to_le_bytes());
        h[40..48].copy_from_slice(&self.checksum.to_le_bytes());
        let key = self.key.as_bytes();
        h[48..48 + key.len().min(64)].copy_from_slice(&key[..key.len().min(64)]);
        let sum = xxh3_64(&h[..120]);
        h[120..128].copy_from_slice(&sum.to_le_bytes());
        h
    }

    /// Parses and checks a header; `path` only names the file in errors.
    pub fn parse(bytes: &[u8], path: &Path) -> Result<Header, FileError> {
        let bad = |why: String| FileError::corrupt(path, why);
        if bytes.len() < HEADER_LEN {
            return Err(bad(format!(
                "only {} bytes, shorter than the {HEADER_LEN}-byte header (truncated)",
                bytes.len()
            )));
        }
        if bytes[0..8] != MAGIC {
            return Err(bad("not a mancala table (wrong magic number)".into()));
        }
        let u32_at = |o: usize| u32::from_le_bytes(bytes[o..o + 4].try_into().unwrap());
        let u64_at = |o: usize| u64::from_le_bytes(bytes[o..o + 8].try_into().unwrap());
        let version = u32_at(8);
        if !(FIRST_READ..=VERSION).contains(&version) {
            return Err(FileError::Version {
                path: path.to_path_buf(),
                found: version,
                first: FIRST_READ,
                last: VERSION,
            });
        }
        if u64_at(120) != xxh3_64(&bytes[..120]) {
            return Err(bad(
                "header checksum mismatch (the header is damaged)".into()
            ));
        }
        let encoding = match bytes[24] {
            0 => Encoding::Raw,
            1 => Encoding::Residual,
            2 => Encoding::Zstd,
            e => return Err(bad(format!("unknown value encoding {e}"))),
        };
        let order = match bytes[25] {
            0 => Order::MoverFirst,
            1 if version >= 3 => Order::Published,
            o => return Err(bad(format!("unknown order of the positions {o}"))),
        };
        let key_bytes = &bytes[48..112];
        let end = key_bytes.iter().position(|&b| b == 0).unwrap_or(64);
        let key = std::str::from_utf8(&key_bytes[..end])
            .map_err(|_| bad("variant key is not UTF-8".into()))?
            .to_string();
        Ok(Header {
            version,
            tier: u32_at(12),
            entries: u64_at(16),
            encoding,
            block: u32_at(28),
            order,
            payload_len: u64_at(32),
            checksum: u64_at(40),
            key,
        })
    }
}

/// The checksum of a payload.
pub fn checksum(payload: &[u8]) -> u64 {
    xxh3_64(payload)
}

/// The byte range of block `i` inside a compressed payload: `u64` offsets (blocks + 1 of
/// them, relative to the end of the offset table), then the blocks.
pub fn block_range(payload: &[u8], blocks: usize, i: usize) -> Option<(usize, usize)> {
    let table = 8 * (blocks + 1);
    let at = |k: usize| -> Option<u64> {
        Some(u64::from_le_bytes(
            payload.get(8 * k..8 * k + 8)?.try_into().ok()?,
        ))
    };
    let (a, b) = (
        usize::try_from(at(i)?).ok()?,
        usize::try_from(at(i + 1)?).ok()?,
    );
    // Offsets come from the file: a damaged one must not wrap round to a range that looks
    // sound.
    let end = table.checked_add(b)?;
    if a > b || end > payload.len() {
        return None;
    }
    Some((table + a, end))
}

/// Number of blocks for `entries` positions.
pub fn blocks_for(entries: u64) -> usize {
    (entries as usize).div_ceil(BLOCK)
}
