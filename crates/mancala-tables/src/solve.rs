//! Exact values of one tier by parallel retrograde analysis with counters and score thresholds.
//!
//! Lower tiers are final, so every move that banks a seed has a known value; only quiet moves
//! (nothing banked, turn passes) stay inside the tier, and they may form cycles. For each
//! threshold `t = n, n-1, .., 1` we grow two sets as least fixpoints:
//!
//! - `W_t` (value `>= t`): the best exit is worth `>= t`, or some quiet move reaches `L_t`;
//! - `L_t` (value `<= -t`): the best exit is worth `<= -t` and every quiet move reaches `W_t`.
//!
//! Infinite play is worth 0, below every `t >= 1`, so a least fixpoint never credits a cycle.
//! Both sets only grow as `t` falls, so one counter per position (quiet moves whose child is not
//! yet in `W`) serves every threshold. A position first entering `W` at threshold `t` has value
//! exactly `t`, one first entering `L` exactly `-t`; what is left at the end is worth 0.
//!
//! Memory: one byte of value (the best exit until decided) and one of state per position. The
//! values are unique, so the result does not depend on the thread count or on timing.

use crate::prefetch;
use mancala_index::Indexer;
use mancala_rules::{Board, Next, Node, Rules};
use rayon::prelude::*;
use std::sync::atomic::{AtomicU8, Ordering::Relaxed};

/// State byte: bits 0..4 count quiet moves whose child is not yet known to be `>= t`.
const COUNT: u8 = 0x0f;
/// State byte: the value is final.
const DECIDED: u8 = 0x80;
/// A best exit for positions with only quiet moves.
const NO_EXIT: i8 = i8::MIN;
/// Positions a parallel task scans at once.
const CHUNK: u64 = 1 << 15;
/// Chunks seeded together before propagating (64 Mi positions).
const GROUP_CHUNKS: usize = 2048;

/// Progress reports: `done` of `total` work units.
pub trait Progress: Sync {
    fn advance(&self, units: u64);
}

impl Progress for () {
    fn advance(&self, _: u64) {}
}

/// The final values of the tiers below the one being solved, by tier and rank.
pub trait LowerTiers: Sync {
    fn value(&self, tier: usize, rank: u64) -> i8;
    /// Starts fetching a value that will be read soon.
    fn prefetch(&self, _tier: usize, _rank: u64) {}
}

/// Solves tier `n`, given the final values of every lower tier. Returns one signed byte per
/// rank.
pub fn solve_tier<L: LowerTiers>(
    rules: &Rules,
    ix: &Indexer,
    n: usize,
    lower: &L,
    progress: &dyn Progress,
) -> Bytes {
    solve_tier_grouped(rules, ix, n, lower, progress, GROUP_CHUNKS)
}

fn solve_tier_grouped<L: LowerTiers>(
    rules: &Rules,
    ix: &Indexer,
    n: usize,
    lower: &L,
    progress: &dyn Progress,
    group_chunks: usize,
) -> Bytes {
    assert!(n <= 126, "tiers above 126 seeds do not fit a signed byte");
    let size = ix.size(n);
    let mut values_mem = Bytes::zeroed(size as usize);
    let mut state_mem = Bytes::zeroed(size as usize);
    let values = values_mem.atomic();
    let state = state_mem.atomic();
    let ctx = Ctx {
        rules,
        ix,
        n,
        values,
        state,
    };

    let profile = std::env::var_os("MANCALA_PROFILE").is_some();
    let clock = std::time::Instant::now();
    // Phase 1: every position's best exit and its number of quiet moves.
    let chunks: Vec<u64> = (0..size).step_by(CHUNK as usize).collect();
    chunks.par_iter().for_each(|&start| {
        let len = CHUNK.min(size - start);
        let mut exits = Exits::default();
        let mut walk = ix.walk_from(n, start);
        let mut done = 0;
        while done < len {
            // A batch of positions: gather the lower-tier probes and prefetch them, then read.
            let batch = EXIT_BATCH.min(len - done);
            exits.clear();
            for _ in 0..batch {
                let b = walk.next().expect("rank inside the tier");
                exits.add(rules, ix, b, n, lower);
            }
            exits.resolve(lower);
            let first = (start + done) as usize;
            for (i, &(exit, quiet)) in exits.positions.iter().enumerate() {
                values[first + i].store(exit as u8, Relaxed);
                state[first + i].store(quiet, Relaxed);
            }
            done += batch;
        }
        progress.advance(len);
    });

    let phase1 = clock.elapsed();
    let (mut seeding, mut seeded, mut rounds) = (std::time::Duration::ZERO, 0usize, 0usize);
    // Phase 2: thresholds from high to low.
    let per_threshold = size / n.max(1) as u64;
    for t in (1..=n as i8).rev() {
        // Seeds are taken a group of chunks at a time and propagated to closure before the
        // next group, which bounds the frontier's memory on big tiers. The sets are least
        // fixpoints, so the order in which their members are found does not change them.
        for group in chunks.chunks(group_chunks) {
            let c = std::time::Instant::now();
            let (mut wins, mut losses) = ctx.seed(t, group, size);
            seeding += c.elapsed();
            seeded += wins.len() + losses.len();
            while !wins.is_empty() || !losses.is_empty() {
                rounds += 1;
                (wins, losses) = ctx.propagate(t, &wins, &losses);
            }
        }
        progress.advance(per_threshold);
    }
    if profile {
        eprintln!(
            "tier {n}: {size} positions; exits {:.3}s, seeding {:.3}s ({seeded} seeds), propagation {:.3}s ({rounds} rounds)",
            phase1.as_secs_f64(),
            seeding.as_secs_f64(),
            (clock.elapsed() - phase1 - seeding).as_secs_f64()
        );
    }
    progress.advance(size - per_threshold * n as u64);

    // What was never decided is endless play: worth 0.
    let state = state_mem.bytes();
    let out = values_mem.bytes_mut();
    out.par_chunks_mut(CHUNK as usize)
        .zip(state.par_chunks(CHUNK as usize))
        .for_each(|(v, s)| {
            for (v, &s) in v.iter_mut().zip(s) {
                if s & DECIDED == 0 {
                    *v = 0;
                }
            }
        });
    drop(state_mem);
    values_mem
}

/// Positions whose exits are computed together, so their lower-tier probes overlap.
const EXIT_BATCH: u64 = 32;

/// For a batch of positions: the best value among moves that leave the tier (or end the game)
/// and the number of quiet moves. A terminal position's value is its only exit.
#[derive(Default)]
struct Exits {
    /// (best exit so far, quiet moves) per position of the batch.
    positions: Vec<(i8, u8)>,
    /// Exits into lower tiers, waiting for their values.
    probes: Vec<Probe>,
}

struct Probe {
    /// Index into `positions`.
    at: u32,
    tier: u32,
    rank: u64,
    /// The move's value is `gain + sign * v(child)`.
    gain: i32,
    sign: i32,
}

impl Exits {
    fn clear(&mut self) {
        self.positions.clear();
        self.probes.clear();
    }

    fn add<L: LowerTiers>(&mut self, rules: &Rules, ix: &Indexer, b: Board, n: usize, lower: &L) {
        let at = self.positions.len() as u32;
        let entry = match rules.node(b) {
            Node::Terminal { mover, opp } => (mover as i8 - opp as i8, 0),
            Node::Moves(kids) => {
                let mut best = NO_EXIT as i32;
                let mut quiet = 0u8;
                for c in &kids {
                    match c.next {
                        Next::Over => best = best.max(c.value(0)),
                        Next::Opponent if c.gain == 0 && c.opp_gain == 0 => {
                            debug_assert_eq!(c.board.total() as usize, n);
                            quiet += 1;
                        }
                        _ => {
                            let tier = c.board.total() as usize;
                            debug_assert!(tier < n);
                            let rank = ix.rank(c.board).unwrap_or_else(|| {
                                panic!("child {:?} of tier {n} is not indexed", c.board)
                            });
                            lower.prefetch(tier, rank);
                            self.probes.push(Probe {
                                at,
                                tier: tier as u32,
                                rank,
                                gain: c.value(0),
                                sign: if c.next == Next::Mover { 1 } else { -1 },
                            });
                        }
                    }
                }
                (best.max(NO_EXIT as i32) as i8, quiet)
            }
        };
        self.positions.push(entry);
    }

    fn resolve<L: LowerTiers>(&mut self, lower: &L) {
        for p in &self.probes {
            let v = p.gain + p.sign * lower.value(p.tier as usize, p.rank) as i32;
            let e = &mut self.positions[p.at as usize].0;
            *e = (*e as i32).max(v) as i8;
        }
    }
}

struct Ctx<'a> {
    rules: &'a Rules,
    ix: &'a Indexer,
    n: usize,
    values: &'a [AtomicU8],
    state: &'a [AtomicU8],
}

impl Ctx<'_> {
    /// Marks rank `r` decided with value `v`; false if it already was.
    #[inline]
    fn decide(&self, r: usize, v: i8) -> bool {
        let before = self.state[r].fetch_or(DECIDED, Relaxed);
        if before & DECIDED != 0 {
            return false;
        }
        self.values[r].store(v as u8, Relaxed);
        true
    }

    /// Positions entering `W_t` or `L_t` by their own exits (no quiet move needed).
    ///
    /// Each task scans its own chunk, eight exit bytes at a time, and is the only writer of it
    /// while seeding; the boards of the few matches come from a walk that steps forward when
    /// the next match is close and unranks otherwise.
    fn seed(&self, t: i8, chunks: &[u64], size: u64) -> Frontier {
        let hi = u64::from_ne_bytes([t as u8; 8]);
        let lo = u64::from_ne_bytes([(-t) as u8; 8]);
        chunks
            .par_iter()
            .map(|&start| {
                let end = (start + CHUNK).min(size) as usize;
                let (mut w, mut l) = (Vec::new(), Vec::new());
                let mut cursor: Option<(u64, mancala_index::Walk<'_>, Board)> = None;
                let mut board_at = |r: u64| -> Board {
                    match &mut cursor {
                        Some((at, walk, b)) if *at <= r && r - *at <= WALK_GAP => {
                            while *at < r {
                                *b = walk.next().expect("rank inside the tier");
                                *at += 1;
                            }
                            *b
                        }
                        _ => {
                            let mut walk = self.ix.walk_from(self.n, r);
                            let b = walk.next().expect("rank inside the tier");
                            cursor = Some((r, walk, b));
                            b
                        }
                    }
                };
                let mut r = start as usize;
                while r < end {
                    if r + 8 <= end {
                        // SAFETY: the 8 bytes lie inside `values`; no other task writes this
                        // chunk during seeding (chunks are multiples of 8 apart).
                        let word = unsafe {
                            (self.values[r..r + 8].as_ptr() as *const u64).read_unaligned()
                        };
                        if !has_byte(word ^ hi) && !has_byte(word ^ lo) {
                            r += 8;
                            continue;
                        }
                    }
                    let s = self.state[r].load(Relaxed);
                    let exit = self.values[r].load(Relaxed) as i8;
                    if s & DECIDED == 0 {
                        if exit == t {
                            if self.decide(r, t) {
                                w.push(board_at(r as u64));
                            }
                        } else if exit == -t && s & COUNT == 0 && self.decide(r, -t) {
                            l.push(board_at(r as u64));
                        }
                    }
                    r += 1;
                }
                (w, l)
            })
            .reduce(|| (Vec::new(), Vec::new()), merge)
    }

    /// One breadth-first step: the predecessors of newly decided positions.
    ///
    /// Predecessors land anywhere in a tier far bigger than the caches, so their ranks are
    /// gathered in batches and prefetched before the state bytes are updated: the misses then
    /// overlap instead of stalling one by one.
    fn propagate(&self, t: i8, wins: &[Board], losses: &[Board]) -> Frontier {
        let run = |items: &[Board], won: bool| {
            items
                .par_chunks(1024)
                .map(|chunk| {
                    let (mut w, mut l) = (Vec::new(), Vec::new());
                    let mut preds = Vec::new();
                    let mut batch: Vec<(Board, usize)> = Vec::with_capacity(BATCH + 16);
                    for b in chunk {
                        self.rules.predecessors(*b, &mut preds);
                        for &q in &preds {
                            if let Some(rq) = self.ix.rank(q) {
                                prefetch(&self.state[rq as usize]);
                                batch.push((q, rq as usize));
                            }
                        }
                        if batch.len() >= BATCH {
                            self.update(t, won, &batch, &mut w, &mut l);
                            batch.clear();
                        }
                    }
                    self.update(t, won, &batch, &mut w, &mut l);
                    (w, l)
                })
                .reduce(|| (Vec::new(), Vec::new()), merge)
        };
        merge(run(wins, true), run(losses, false))
    }

    /// Applies a batch of predecessor updates: a child entered `W_t` (`won`) or `L_t`.
    #[inline]
    fn update(
        &self,
        t: i8,
        won: bool,
        batch: &[(Board, usize)],
        w: &mut Vec<Board>,
        l: &mut Vec<Board>,
    ) {
        for &(q, rq) in batch {
            if won {
                // One more quiet move of q reaches W_t.
                let before = self.state[rq].fetch_sub(1, Relaxed);
                if before & DECIDED == 0 && before & COUNT == 1 {
                    let exit = self.values[rq].load(Relaxed) as i8;
                    if exit <= -t && self.decide(rq, -t) {
                        l.push(q);
                    }
                }
            } else if self.decide(rq, t) {
                w.push(q);
            }
        }
    }
}

/// A seed this close after the previous one is reached by walking (about 10 ns a step)
/// rather than unranking (about 170 ns).
const WALK_GAP: u64 = 12;

/// Predecessor updates gathered before touching memory.
const BATCH: usize = 64;

/// Newly decided winners and losers.
type Frontier = (Vec<Board>, Vec<Board>);

fn merge((mut w, mut l): Frontier, (w2, l2): Frontier) -> Frontier {
    w.extend(w2);
    l.extend(l2);
    (w, l)
}

/// Does any byte of `x` equal zero?
#[inline(always)]
fn has_byte(x: u64) -> bool {
    x.wrapping_sub(0x0101_0101_0101_0101) & !x & 0x8080_8080_8080_8080 != 0
}

/// A zeroed byte array in anonymous memory, backed by huge pages where the kernel allows:
/// the solver's random accesses then miss the TLB far less often.
pub struct Bytes {
    map: memmap2::MmapMut,
    len: usize,
}

impl Bytes {
    fn zeroed(n: usize) -> Bytes {
        let map = memmap2::MmapMut::map_anon(n.max(1)).expect("allocating the tier's arrays");
        #[cfg(target_os = "linux")]
        let _ = map.advise(memmap2::Advice::HugePage);
        Bytes { map, len: n }
    }

    /// The bytes as atomics, for the parallel phases.
    fn atomic(&mut self) -> &[AtomicU8] {
        let ptr = self.map.as_mut_ptr() as *const AtomicU8;
        // SAFETY: AtomicU8 has the size, alignment and bit validity of u8, the mapping is
        // `len` bytes long, and the exclusive borrow of `self` keeps every other access out
        // for the slice's lifetime.
        unsafe { std::slice::from_raw_parts(ptr, self.len) }
    }

    fn bytes(&self) -> &[u8] {
        &self.map[..self.len]
    }

    fn bytes_mut(&mut self) -> &mut [u8] {
        &mut self.map[..self.len]
    }
}

impl std::ops::Deref for Bytes {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        self.bytes()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use mancala_rules::{Preset, Variant};

    struct Memory(Vec<Vec<u8>>);
    impl LowerTiers for Memory {
        fn value(&self, tier: usize, rank: u64) -> i8 {
            self.0[tier][rank as usize] as i8
        }
    }

    /// Seeding a chunk at a time (many groups) gives the same values as seeding all at once.
    #[test]
    fn seed_groups_do_not_change_values() {
        for preset in [Preset::Awari, Preset::Oware] {
            let rules = Rules::new(Variant::preset(preset));
            let ix = Indexer::new(&rules, 12).unwrap();
            let mut lower = Memory(Vec::new());
            for n in 0..=12 {
                let all = solve_tier_grouped(&rules, &ix, n, &lower, &(), usize::MAX);
                let one = solve_tier_grouped(&rules, &ix, n, &lower, &(), 1);
                assert_eq!(all[..], one[..], "{preset} tier {n}");
                lower.0.push(all.to_vec());
            }
            assert!(ix.size(12) > 10 * CHUNK, "tier 12 spans many chunks");
        }
    }
}
