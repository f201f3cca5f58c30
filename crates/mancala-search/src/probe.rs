//! Table probes split in two, rank and read, so a node can start the memory loads of all its
//! table children before it waits for any of them.
//!
//! Probes land at random all over the tables, so with 4 KiB file pages nearly every probe also
//! misses the TLB. Tiers are therefore copied into anonymous memory advised for huge pages, as
//! long as the copies stay under [`COPY_LIMIT`]; bigger tiers are read through their mapping.

use mancala_index::Indexer;
use mancala_rules::Board;
use mancala_tables::{Table, TableError, Tables};
use memmap2::MmapMut;

/// Bytes of tables copied into huge-page memory at most.
pub const COPY_LIMIT: u64 = 4 << 30;

enum Tier<'a> {
    Copied(MmapMut),
    Mapped(&'a Table),
}

pub struct Probe<'a> {
    ix: &'a Indexer,
    tiers: Vec<Tier<'a>>,
    /// Positions with at most this many seeds are in the tables.
    pub max: u32,
}

impl<'a> Probe<'a> {
    /// Tiers `0..=max` of `tables`, all of which must be built.
    pub fn new(tables: &'a Tables, max: usize) -> Result<Option<Probe<'a>>, TableError> {
        let Some(list) = (0..=max)
            .map(|n| tables.tier(n))
            .collect::<Option<Vec<_>>>()
        else {
            return Ok(None);
        };
        let mut copied = 0u64;
        let mut tiers = Vec::with_capacity(list.len());
        for t in list {
            copied += t.entries();
            let tier = match copy(t, copied <= COPY_LIMIT && !t.is_compressed())? {
                Some(m) => Tier::Copied(m),
                None => Tier::Mapped(t),
            };
            tiers.push(tier);
        }
        Ok(Some(Probe {
            ix: tables.indexer(),
            tiers,
            max: max as u32,
        }))
    }

    /// The rank of an indexed position with `n <= max` seeds, and starts loading its value.
    #[inline(always)]
    pub fn locate(&self, b: Board, n: u32) -> Option<u64> {
        let r = self.ix.rank(b)?;
        match &self.tiers[n as usize] {
            Tier::Copied(m) => prefetch(&m[r as usize]),
            Tier::Mapped(t) => t.prefetch(r),
        }
        Some(r)
    }

    #[inline(always)]
    pub fn value(&self, n: u32, rank: u64) -> Result<i8, TableError> {
        match &self.tiers[n as usize] {
            Tier::Copied(m) => Ok(m[rank as usize] as i8),
            Tier::Mapped(t) => t.get(rank),
        }
    }
}

/// A huge-page copy of a raw table's values, if wanted and possible.
fn copy(t: &Table, wanted: bool) -> Result<Option<MmapMut>, TableError> {
    if !wanted || t.entries() == 0 {
        return Ok(None);
    }
    let Ok(mut m) = MmapMut::map_anon(t.entries() as usize) else {
        return Ok(None);
    };
    #[cfg(target_os = "linux")]
    let _ = m.advise(memmap2::Advice::HugePage);
    t.with_values(|v| m.copy_from_slice(v))?;
    Ok(Some(m))
}

#[inline(always)]
fn prefetch(x: &u8) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch never faults; SSE is part of x86_64.
    unsafe {
        std::arch::x86_64::_mm_prefetch(
            x as *const u8 as *const i8,
            std::arch::x86_64::_MM_HINT_T0,
        );
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = x;
}
