//! The published Awari database (Romein & Bal; Vrije Universiteit Amsterdam, released 2024):
//! one file `scores.N` per number of seeds on the board, one signed byte per position at the
//! offset of the position's rank in the published order ([`mancala_index::Order::Published`]),
//! no header. Awari-type tiers are built in that order, so a table file's raw payload is the
//! database's file of that tier byte for byte; the one difference is the start position,
//! which the database leaves out and a table keeps as the last byte of its tier (48 seeds in
//! Awari). Files of other sizes follow the same rule (`--pits`, `--seeds`).
//!
//! [`export`] writes `scores.N` files from built tables, [`import`] turns such files into
//! tables (with headers and checksums), and [`crate::Tables::open_published`] reads them
//! directly.

use crate::error::{FileError, TableError};
use crate::set::{Payload, Tables};
use crate::store::table::{write_table_pieces, Table};
use crate::store::tier_files::tier_path;
use mancala_index::Order;
use mancala_rules::Rules;
use std::io::Write;
use std::path::{Path, PathBuf};

pub use crate::store::tier_files::{published_len as file_len, published_path as file_path};

/// One file written by [`export`] or [`import`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Written {
    /// The tier.
    pub tier: usize,
    /// The file.
    pub path: PathBuf,
    /// Its size.
    pub bytes: u64,
}

/// Writes `out/scores.N` for every tier `0..=max` built in `dir` (compressed tiers are
/// decoded first), stopping at the first tier that is not built. Tiers no game reaches (47
/// seeds in Awari) have no file, as in the database.
pub fn export(
    rules: &Rules,
    dir: &Path,
    out: &Path,
    max: usize,
) -> Result<Vec<Written>, TableError> {
    let mut tables = Tables::open(dir, rules, max, Payload::Checked)?;
    if tables.indexer().order() != Order::Published {
        return Err(TableError::NotPublished {
            key: rules.variant().key(),
        });
    }
    let top = tables.complete_up_to().ok_or_else(|| tables.missing(0))?;
    tables.decode_up_to(top)?;
    crate::store::files::make_folder(out)?;
    let mut written = Vec::new();
    for n in 0..=top {
        let ix = tables.indexer();
        if ix.size(n) == 0 {
            continue;
        }
        let values = tables.values(n).expect("decoded");
        let len = file_len(ix, n) as usize;
        let path = file_path(out, n);
        write_atomically(&path, &values[..len])?;
        written.push(Written {
            tier: n,
            path,
            bytes: len as u64,
        });
    }
    Ok(written)
}

/// Turns the published files `from/scores.N` of tiers `0..=max` into tables in `dir`, with
/// headers and checksums (the start position's value worked out from its moves). Every
/// file found is imported; tiers whose file is missing are left alone.
pub fn import(
    rules: &Rules,
    from: &Path,
    dir: &Path,
    max: usize,
) -> Result<Vec<Written>, TableError> {
    let tables = Tables::open_published(from, rules, max)?;
    let key = rules.variant().key();
    let ix = tables.indexer();
    let mut written = Vec::new();
    for n in 0..=max {
        let Some(t) = tables.tier(n) else {
            continue;
        };
        // The published file's bytes streamed from its mapping, then the start position's
        // value where the tier has it: never the whole tier in memory (tier 48: 204 GB).
        let extra = t.extra().map(|v| [v as u8]);
        check_range(
            t.raw().expect("published files are raw"),
            n,
            &file_path(from, n),
        )?;
        let pieces = [
            t.raw().expect("published files are raw"),
            extra.as_ref().map_or(&[][..], |e| &e[..]),
        ];
        let path = tier_path(dir, &key, n);
        let bytes = write_table_pieces(
            &path,
            &key,
            n,
            ix,
            crate::store::format::Encoding::Raw,
            pieces,
        )?;
        // The file as written must open and check like any table.
        Table::open(&path, &key, n, ix, true).map_err(|e| e.of_tier(&key, n))?;
        written.push(Written {
            tier: n,
            path,
            bytes,
        });
    }
    Ok(written)
}

/// Every value of a tier of `n` seeds lies in `-n..=n` (nobody gains more than the seeds
/// left): a published file with a value outside is damaged or forged, and is refused naming
/// the first such value, before anything is written (a checksum made over it would vouch for
/// it).
fn check_range(values: &[u8], n: usize, path: &Path) -> Result<(), FileError> {
    use rayon::prelude::*;
    const RUN: usize = 1 << 22;
    let n = n.min(127) as i8;
    let bad = values
        .par_chunks(RUN)
        .enumerate()
        .find_map_first(|(k, run)| {
            run.iter()
                .position(|&v| !(-n..=n).contains(&(v as i8)))
                .map(|i| (k * RUN + i, run[i] as i8))
        });
    match bad {
        None => Ok(()),
        Some((rank, v)) => Err(FileError::corrupt(
            path,
            format!(
                "the value at rank {} is {v}, outside -{n}..={n} (a position of {n} seeds cannot be worth more than its seeds): the file is damaged or not the published database's",
                mancala_rules::Grouped(rank as u128)
            ),
        )),
    }
}

/// Writes `bytes` to `path` under a temporary name and renames it into place (see
/// [`crate::store::files::write_atomically`]: nothing planted at the temporary name is written through).
fn write_atomically(path: &Path, bytes: &[u8]) -> Result<(), FileError> {
    crate::store::files::write_atomically(path, |f| f.write_all(bytes))
        .map_err(|e| FileError::io(path, e))
}
