//! Table probes split in two, rank and read, so a node can start the memory loads of all its
//! table children before it waits for any of them.

use mancala_index::Indexer;
use mancala_rules::Board;
use mancala_tables::{Table, TableError, Tables};

pub struct Probe<'a> {
    ix: &'a Indexer,
    tiers: Vec<&'a Table>,
    /// Positions with at most this many seeds are in the tables.
    pub max: u32,
}

impl<'a> Probe<'a> {
    /// Tiers `0..=max` of `tables`, all of which must be built.
    pub fn new(tables: &'a Tables, max: usize) -> Option<Probe<'a>> {
        let tiers = (0..=max)
            .map(|n| tables.tier(n))
            .collect::<Option<Vec<_>>>()?;
        Some(Probe {
            ix: tables.indexer(),
            tiers,
            max: max as u32,
        })
    }

    /// The rank of an indexed position with `n <= max` seeds, and starts loading its value.
    #[inline(always)]
    pub fn locate(&self, b: Board, n: u32) -> Option<u64> {
        let r = self.ix.rank(b)?;
        self.tiers[n as usize].prefetch(r);
        Some(r)
    }

    #[inline(always)]
    pub fn value(&self, n: u32, rank: u64) -> Result<i8, TableError> {
        self.tiers[n as usize].get(rank)
    }
}
