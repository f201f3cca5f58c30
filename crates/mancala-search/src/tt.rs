//! The transposition table, shared by every search thread without locks.
//!
//! Clusters of four 16-byte entries fill one cache line, so a probe costs at most one miss.
//! An entry is two words: the data, and the key XOR the data. A reader accepts an entry only if
//! the two agree with its key, so a torn write by another thread reads as a miss, never as a
//! wrong bound (Hyatt's lockless hashing).
//!
//! The solver must be exact, so a key is a full 64-bit word and the cluster index comes from
//! other bits of the same bijective 128-bit mix of the board: two positions are confused only if
//! they agree on `64 + log2(clusters)` bits of that mix, and the entry also records the seed
//! count. At 10^11 probes into a 4-entry cluster the chance of any false match stays below
//! 10^-7.
//!
//! Each entry keeps two kinds of knowledge apart: **proven** bounds, true whatever the search
//! depth, and a **heuristic** bound from a depth-limited search, good only for move ordering and
//! for cutoffs inside searches of at most that depth.

use memmap2::MmapMut;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use mancala_rules::Board;

/// The 64-bit key and the cluster-selecting bits of a board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hash {
    pub key: u64,
    pub index: u64,
}

/// Two odd-constant multiplications with a fold between them: a bijection of `u128`, so
/// distinct boards have distinct mixes, and every output bit depends on every pit.
#[inline(always)]
pub fn hash(b: Board) -> Hash {
    const K1: u128 = 0x9e37_79b9_7f4a_7c15_f39c_c060_5ced_c835;
    const K2: u128 = 0xd6e8_feb8_6659_fd93_a076_1d64_78bd_642f;
    let p = b.0.wrapping_mul(K1);
    let q = (p ^ (p >> 67)).wrapping_mul(K2);
    Hash {
        key: (q >> 64) as u64,
        index: (q >> 32) as u64,
    }
}

/// A fingerprint of how this version hashes a board (its packing included) and lays out an
/// entry and a cluster: a kept table's entries mean what they say only under the same ones, so
/// a file's header carries it (see `kept`). A change to any of them changes it, and the test
/// that pins it says so.
pub(crate) fn layout_fingerprint() -> u64 {
    let h = hash(Board::from_pits(&[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]));
    let e = Entry {
        lo: -3,
        hi: 5,
        heuristic: Some((Bound::Upper, -4, 17)),
        mv: 5,
        work: 33,
    };
    let mut x = xxhash_rust::xxh3::Xxh3::new();
    for w in [
        h.key,
        h.index,
        e.encode(9, 78),
        WAYS as u64,
        std::mem::size_of::<Cluster>() as u64,
    ] {
        x.update(&w.to_le_bytes());
    }
    x.digest()
}

/// What kind of bound a heuristic value is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    Lower,
    Upper,
}

/// No move stored: above every move index (a position has at most
/// [`mancala_rules::MAX_MOVES`] moves, indices `0..16`).
pub const NO_MOVE: u8 = 31;
const _: () = assert!((NO_MOVE as usize) >= mancala_rules::MAX_MOVES && NO_MOVE < 1 << MOVE_BITS);

/// One decoded entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// Proven: the value is at least `lo` and at most `hi`.
    pub lo: i32,
    pub hi: i32,
    /// A bound from a search of `depth` plies with heuristic leaves.
    pub heuristic: Option<(Bound, i32, u8)>,
    /// The move that last refuted a null window here, or [`NO_MOVE`].
    pub mv: u8,
    /// Bit length of the node count of the search that wrote it: what it would cost to redo.
    pub work: u8,
}

// Data word layout. Bit 63 marks a written entry, so an all-zero (empty) slot never matches.
const VALID: u64 = 1 << 63;
const LO: u32 = 0; // i8
const NEG_HI: u32 = 8; // i8: -hi, so both ends of -128..=128 fit
const HVAL: u32 = 16; // i8
const HTYPE: u32 = 24; // 2 bits: 0 none, 1 lower, 2 upper
const HDEPTH: u32 = 26; // 8 bits
const MOVE: u32 = 34; // MOVE_BITS bits
const MOVE_BITS: u32 = 5;
const WORK: u32 = 39; // 6 bits
const GEN: u32 = 45; // 8 bits
const SEEDS: u32 = 53; // 8 bits, up to bit 60; 61 and 62 are free

fn clamp_i8(v: i32) -> u64 {
    (v.clamp(-128, 127) as i8 as u8) as u64
}

fn field(d: u64, shift: u32, bits: u32) -> u64 {
    (d >> shift) & ((1 << bits) - 1)
}

impl Entry {
    fn decode(d: u64) -> Entry {
        let heuristic = match field(d, HTYPE, 2) {
            1 => Some(Bound::Lower),
            2 => Some(Bound::Upper),
            _ => None,
        }
        .map(|b| {
            (
                b,
                field(d, HVAL, 8) as u8 as i8 as i32,
                field(d, HDEPTH, 8) as u8,
            )
        });
        Entry {
            lo: field(d, LO, 8) as u8 as i8 as i32,
            hi: -(field(d, NEG_HI, 8) as u8 as i8 as i32),
            heuristic,
            mv: field(d, MOVE, MOVE_BITS) as u8,
            work: field(d, WORK, 6) as u8,
        }
    }

    fn encode(&self, gen: u8, seeds: u32) -> u64 {
        // Proven bounds only ever widen when clamped, so they stay true.
        let mut d = VALID
            | clamp_i8(self.lo.max(-128)) << LO
            | clamp_i8(-self.hi.min(128)) << NEG_HI
            | (self.mv as u64 & ((1 << MOVE_BITS) - 1)) << MOVE
            | (self.work.min(63) as u64) << WORK
            | (gen as u64) << GEN
            | (seeds as u64 & 0xff) << SEEDS;
        if let Some((b, v, depth)) = self.heuristic {
            let t = match b {
                Bound::Lower => 1,
                Bound::Upper => 2,
            };
            d |= clamp_i8(v) << HVAL | t << HTYPE | (depth as u64) << HDEPTH;
        }
        d
    }
}

/// What a finished node search adds to its entry.
#[derive(Clone, Copy, Debug)]
pub struct Update {
    /// A proven bound (path-independent): merged into the proven interval.
    pub proven: Option<(Bound, i32)>,
    /// A depth-limited (or path-dependent) bound.
    pub heuristic: Option<(Bound, i32, u8)>,
    pub mv: u8,
    pub work: u8,
}

#[repr(C, align(64))]
struct Cluster([AtomicU64; 8]);

const WAYS: usize = 4;

/// The most clusters a table has (64 TiB).
pub(crate) const MAX_CLUSTERS: u64 = 1 << 40;

/// A lock-free transposition table of a power-of-two number of 64-byte clusters.
pub struct Tt {
    // Owns the memory behind `clusters`; never touched otherwise.
    _map: MmapMut,
    clusters: *const Cluster,
    mask: u64,
    gen: AtomicU64,
}

// SAFETY: the clusters are only ever accessed through atomic loads and stores, and the mapping
// lives as long as the table.
unsafe impl Sync for Tt {}
unsafe impl Send for Tt {}

/// The table could not be allocated.
#[derive(Debug, thiserror::Error)]
#[error("cannot allocate a {mb} MB transposition table: {source}")]
pub struct AllocError {
    /// The size asked for, in MiB.
    pub mb: usize,
    /// What the operating system said.
    pub source: std::io::Error,
}

impl Tt {
    /// A table of at most `mb` MiB (the largest power-of-two number of clusters that fits; at
    /// least one cluster).
    pub fn new(mb: usize) -> Result<Tt, AllocError> {
        let bytes = (mb as u128) << 20;
        let mut clusters: u64 = 1;
        while (clusters as u128) * 2 * 64 <= bytes && clusters < MAX_CLUSTERS {
            clusters *= 2;
        }
        Tt::with_clusters(clusters)
    }

    /// An empty table of `clusters` clusters (a power of two, at most [`MAX_CLUSTERS`]).
    pub(crate) fn with_clusters(clusters: u64) -> Result<Tt, AllocError> {
        debug_assert!(clusters.is_power_of_two() && clusters <= MAX_CLUSTERS);
        let len = clusters as usize * std::mem::size_of::<Cluster>();
        let mb = (len >> 20).max(1);
        let mut map = MmapMut::map_anon(len).map_err(|source| AllocError { mb, source })?;
        #[cfg(target_os = "linux")]
        let _ = map.advise(memmap2::Advice::HugePage);
        // Fault every page in now, in order: page faults scattered through the search cost far
        // more (each one zeroes a huge page at a random moment).
        for i in (0..len).step_by(4096) {
            map[i] = 0;
        }
        // An anonymous mapping is page-aligned (so 64-byte aligned), zero-filled, and zero is a
        // valid `AtomicU64`.
        let ptr = map.as_ptr() as *const Cluster;
        Ok(Tt {
            _map: map,
            clusters: ptr,
            mask: clusters - 1,
            gen: AtomicU64::new(0),
        })
    }

    #[inline(always)]
    fn cluster(&self, h: Hash) -> &Cluster {
        // SAFETY: `index & mask` is below the number of clusters the mapping holds.
        unsafe { &*self.clusters.add((h.index & self.mask) as usize) }
    }

    /// The table's size in MiB (at least 1).
    pub fn mb(&self) -> usize {
        (((self.mask + 1) * 64) >> 20).max(1) as usize
    }

    /// Marks the start of a new search: older entries become the first to be replaced.
    pub fn new_search(&self) {
        self.gen.fetch_add(1, Relaxed);
    }

    /// The number of clusters.
    pub(crate) fn clusters(&self) -> u64 {
        self.mask + 1
    }

    /// Every word of the table, cluster after cluster (for keeping it in a file).
    pub(crate) fn words(&self) -> &[AtomicU64] {
        // SAFETY: the mapping holds `clusters` clusters of 8 words each, and lives as long as
        // `self`.
        unsafe {
            std::slice::from_raw_parts(
                self.clusters as *const AtomicU64,
                self.clusters() as usize * 8,
            )
        }
    }

    /// The search counter, of which an entry keeps the low 8 bits as its generation.
    pub(crate) fn search_count(&self) -> u64 {
        self.gen.load(Relaxed)
    }

    /// Sets the search counter: a table read back from a file continues the count it was
    /// saved with, one behind, so that the next search's entries are as current as the saved
    /// ones and the work they stand for is not the first to be replaced.
    pub(crate) fn set_search_count(&self, n: u64) {
        self.gen.store(n, Relaxed);
    }

    fn gen(&self) -> u8 {
        self.gen.load(Relaxed) as u8
    }

    /// Starts loading the cluster of `h` into the cache.
    #[inline(always)]
    pub fn prefetch(&self, h: Hash) {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: a prefetch never faults; SSE is part of x86_64.
        unsafe {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            _mm_prefetch(self.cluster(h) as *const Cluster as *const i8, _MM_HINT_T0);
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = h;
    }

    #[inline(always)]
    fn read(&self, h: Hash, seeds: u32) -> Option<(usize, u64)> {
        let c = self.cluster(h);
        for i in 0..WAYS {
            let x = c.0[2 * i].load(Relaxed);
            let d = c.0[2 * i + 1].load(Relaxed);
            if x ^ d == h.key && d & VALID != 0 && field(d, SEEDS, 8) == seeds as u64 & 0xff {
                return Some((i, d));
            }
        }
        None
    }

    /// The entry of a position with `seeds` seeds in the pits, if stored.
    #[inline(always)]
    pub fn probe(&self, h: Hash, seeds: u32) -> Option<Entry> {
        self.read(h, seeds).map(|(_, d)| Entry::decode(d))
    }

    /// Records what a node search found.
    #[inline]
    pub fn store(&self, h: Hash, seeds: u32, u: Update) {
        let c = self.cluster(h);
        let gen = self.gen();
        let (slot, mut e) = match self.read(h, seeds) {
            Some((i, d)) => (i, Entry::decode(d)),
            None => (
                self.victim(c, gen),
                Entry {
                    lo: -128,
                    hi: 128,
                    heuristic: None,
                    mv: NO_MOVE,
                    work: 0,
                },
            ),
        };
        match u.proven {
            Some((Bound::Lower, v)) => e.lo = e.lo.max(v),
            Some((Bound::Upper, v)) => e.hi = e.hi.min(v),
            None => {}
        }
        if u.heuristic.is_some() {
            e.heuristic = u.heuristic;
        }
        if u.mv != NO_MOVE {
            e.mv = u.mv;
        }
        e.work = e.work.max(u.work);
        let d = e.encode(gen, seeds);
        c.0[2 * slot + 1].store(d, Relaxed);
        c.0[2 * slot].store(h.key ^ d, Relaxed);
    }

    /// The slot to overwrite: an empty one, else the cheapest to recompute, entries of older
    /// searches first.
    fn victim(&self, c: &Cluster, gen: u8) -> usize {
        let mut best = 0;
        let mut best_worth = u64::MAX;
        for i in 0..WAYS {
            let d = c.0[2 * i + 1].load(Relaxed);
            if d & VALID == 0 {
                return i;
            }
            let current = field(d, GEN, 8) as u8 == gen;
            let worth = field(d, WORK, 6) + if current { 64 } else { 0 };
            if worth < best_worth {
                best_worth = worth;
                best = i;
            }
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_round_trip() {
        for (lo, hi) in [(-128, 128), (-3, 7), (5, 5), (-128, -128), (128, 128)] {
            let e = Entry {
                lo,
                hi,
                heuristic: Some((Bound::Upper, -4, 17)),
                mv: 5,
                work: 33,
            };
            let d = e.encode(9, 48);
            let back = Entry::decode(d);
            // 128 does not fit a lower bound byte; it is stored as the weaker 127.
            assert_eq!(back.lo, lo.min(127));
            assert_eq!(back.hi, hi.max(-127));
            assert_eq!(back.heuristic, e.heuristic);
            assert_eq!((back.mv, back.work), (5, 33));
        }
    }

    /// Every move index a position can have (16 in a later 8-pit nam-nam round, where the
    /// mover may own pits of both rows) survives the table, and none reads as "no move".
    #[test]
    fn every_move_index_is_kept() {
        for mv in 0..mancala_rules::MAX_MOVES as u8 {
            let e = Entry {
                lo: -3,
                hi: 5,
                heuristic: None,
                mv,
                work: 7,
            };
            let back = Entry::decode(e.encode(255, 127));
            assert_eq!(back.mv, mv);
            assert_ne!(back.mv, NO_MOVE);
            assert_eq!((back.lo, back.hi, back.work), (-3, 5, 7));
        }
        let tt = Tt::new(1).unwrap();
        let h = hash(Board::from_pits(&[1; 16]));
        let up = |mv| Update {
            proven: None,
            heuristic: None,
            mv,
            work: 1,
        };
        tt.store(h, 16, up(15));
        tt.store(h, 16, up(NO_MOVE));
        assert_eq!(tt.probe(h, 16).unwrap().mv, 15);
    }

    #[test]
    fn store_merges_and_probe_verifies() {
        let tt = Tt::new(1).unwrap();
        let b = Board::from_pits(&[4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4]);
        let h = hash(b);
        assert!(tt.probe(h, 48).is_none());
        let up = |proven, mv| Update {
            proven,
            heuristic: None,
            mv,
            work: 3,
        };
        tt.store(h, 48, up(Some((Bound::Lower, 2)), 3));
        tt.store(h, 48, up(Some((Bound::Upper, 6)), NO_MOVE));
        tt.store(h, 48, up(Some((Bound::Lower, 1)), NO_MOVE));
        let e = tt.probe(h, 48).unwrap();
        assert_eq!((e.lo, e.hi, e.mv), (2, 6, 3));
        // Another seed count, or another key, is a miss.
        assert!(tt.probe(h, 47).is_none());
        assert!(tt
            .probe(
                Hash {
                    key: h.key ^ 1,
                    index: h.index
                },
                48
            )
            .is_none());
    }

    /// Kept tables (`kept.rs`) carry this fingerprint. If this test fails, the board hash
    /// or the entry layout changed: files written before cannot be read any more (they are
    /// refused, as they should be); pin the new value.
    #[test]
    fn the_layout_fingerprint_is_pinned() {
        assert_eq!(layout_fingerprint(), 7_931_581_298_871_460_242);
    }

    #[test]
    fn hash_separates_nearby_boards() {
        let mut seen = std::collections::HashSet::new();
        for a in 0..20u8 {
            for b in 0..20u8 {
                for c in 0..20u8 {
                    let h = hash(Board::from_pits(&[a, b, c, 0, 0, 1]));
                    assert!(seen.insert(h.key));
                }
            }
        }
    }
}
