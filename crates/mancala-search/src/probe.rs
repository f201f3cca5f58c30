//! Table probes split in two, rank and read, so a node can start the memory loads of all its
//! table children before it waits for any of them.
//!
//! Raw tiers are read as plain bytes. A compressed tier that was not decoded is read through
//! [`Tables::probe`], which unpacks one block and recomputes the position's best exit: slower,
//! but it keeps memory to the compressed size, which is what lets a big set be searched at all.

use mancala_index::Indexer;
use mancala_rules::Board;
use mancala_tables::{FileError, TableError, Tables};

pub struct Probe<'a> {
    tables: &'a Tables,
    ix: &'a Indexer,
    /// Each tier's values when raw or decoded; `None` for a compressed tier.
    tiers: Vec<Option<&'a [u8]>>,
    /// Positions with at most this many seeds are in the tables.
    pub max: u32,
}

impl<'a> Probe<'a> {
    /// Tiers `0..=max` of `tables`, all of which must be built.
    pub fn new(tables: &'a Tables, max: usize) -> Option<Probe<'a>> {
        let empty: &[u8] = &[];
        let tiers = (0..=max)
            .map(|n| match tables.tier(n) {
                Some(t) => Some(t.raw()),
                // A tier without positions has no file.
                None if tables.indexer().size(n) == 0 => Some(Some(empty)),
                None => None,
            })
            .collect::<Option<Vec<_>>>()?;
        Some(Probe {
            tables,
            ix: tables.indexer(),
            tiers,
            max: max as u32,
        })
    }

    /// The rank of an indexed position with `n <= max` seeds, and starts loading its value.
    #[inline(always)]
    pub fn locate(&self, b: Board, n: u32) -> Option<u64> {
        let r = self.ix.rank(b)?;
        if let Some(v) = self.tiers[n as usize] {
            if let Some(x) = v.get(r as usize) {
                mancala_tables::prefetch(x);
            }
        }
        Some(r)
    }

    /// The table value of `b`, or `None` when its seed count lies above the tables or the
    /// index does not hold it.
    #[inline(always)]
    pub fn exact(&self, b: Board) -> Result<Option<i8>, TableError> {
        let n = b.total();
        if n > self.max {
            return Ok(None);
        }
        match self.locate(b, n) {
            Some(r) => self.value(b, n, r).map(Some),
            None => Ok(None),
        }
    }

    /// The value of `b`, which has `n` seeds and rank `rank` (from [`Probe::locate`]).
    #[inline(always)]
    pub fn value(&self, b: Board, n: u32, rank: u64) -> Result<i8, TableError> {
        // A raw tier holds every rank but, in a published database's file, the start
        // position's: that one goes through the tables, which know its value.
        match self.tiers[n as usize].and_then(|v| v.get(rank as usize)) {
            Some(&v) => Ok(v as i8),
            None => self
                .tables
                .probe(b)?
                .ok_or_else(|| unreachable_unindexed(self.tables, b)),
        }
    }
}

/// `locate` found a rank, so the tables index `b`; failing that, the table set is inconsistent.
fn unreachable_unindexed(tables: &Tables, b: Board) -> TableError {
    FileError::Corrupt {
        path: tables.dir().to_path_buf(),
        why: format!("position {b:?} has a rank but the tables do not index it"),
    }
    .into()
}
