//! What every tier solver, the codec and the probing code share: how lower tiers are read,
//! how progress is reported, a position's best exit, and the sizes every pass agrees on.
//!
//! A tier `n` holds the positions with `n` seeds in the pits. A move that banks seeds (or ends
//! the game) leaves the tier for a lower one, whose values are final before tier `n` starts:
//! such a move is an *exit*, and its value is known at once. Only *quiet* moves (nothing
//! banked, the turn passes: [`mancala_rules::Child::is_quiet`]) stay inside the tier, and they
//! are all a tier solver has to work out.

use mancala_index::Indexer;
use mancala_rules::{Board, Children, Next, Rules};

/// The largest tier any table holds: the most seeds a board can hold (one byte a pit with its
/// top bit kept free). A value of tier `n` lies in `-n..=n`, so every value, and the mark
/// [`NO_EXIT`] below them all, fits a signed byte.
pub const MAX_TIER: usize = mancala_rules::MAX_SEEDS as usize;

/// The highest tier `rules` can have: every seed of the game on the board, within
/// [`MAX_TIER`].
pub fn top_tier(rules: &Rules) -> usize {
    rules.max_seeds().min(MAX_TIER)
}

/// The best exit of a position whose every move is quiet: below every real value.
pub const NO_EXIT: i8 = i8::MIN;

/// Positions a parallel task takes at once when it walks a tier in rank order: big enough
/// that starting a walk (an unrank) costs nothing, small enough to share the work out.
pub(crate) const CHUNK: u64 = 1 << 15;

/// The final values of the tiers below the one being solved, by tier and rank.
pub trait LowerTiers: Sync {
    /// The value of rank `rank` of tier `tier` (which must be below the tier being solved).
    fn value(&self, tier: usize, rank: u64) -> i8;
    /// Starts fetching a value that will be read soon.
    fn prefetch(&self, _tier: usize, _rank: u64) {}
    /// No rank of tier `tier` below `rank` will be read again by the current pass: the
    /// memory holding them may be handed back.
    fn release_below(&self, _tier: usize, _rank: u64) {}
}

/// Where a tier's solve goes on from a checkpoint inside it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Resume {
    /// Phase 1, whose best exits of the first `done` ranks are in the exit file.
    Exits {
        /// Ranks whose exits and states are done.
        done: u64,
    },
    /// The thresholds, at this one (the highest still to run).
    Threshold(i8),
}

/// Progress reports of a long pass: `units` more work units done.
pub trait Progress: Sync {
    /// Adds `units` to the work done.
    fn advance(&self, units: u64);
    /// The pass entered a phase (`what` names it for a progress display).
    fn phase(&self, _what: &str) {}
    /// The pass goes on from a checkpoint (`Some`: the work it had done is already
    /// advanced, so a display can restart its rate there), or found one it cannot use
    /// (`None`: damaged, or saved by another version) and starts over.
    fn resumed(&self, _from: Option<Resume>) {}
}

impl Progress for () {
    fn advance(&self, _: u64) {}
}

/// Positions whose exits are computed together, so that their lower-tier reads overlap.
pub(crate) const EXIT_BATCH: usize = 32;

/// The best exits of a batch of positions: the best value among each one's moves that leave
/// the tier, and how many quiet moves it has. A terminal position's value is its only exit.
///
/// This is the one place that works a best exit out: the threshold solver starts from it, the
/// codec predicts values with it, and a compressed table is read through it. Lower-tier reads
/// are queued and prefetched as the batch's moves are generated, then resolved together, so
/// the cache misses of a batch overlap instead of stalling one by one.
pub(crate) struct Exits<'a> {
    rules: &'a Rules,
    ix: &'a Indexer,
    /// (best exit so far, quiet moves) per position of the batch, in the order added.
    pub positions: Vec<(i8, u8)>,
    /// Exits into lower tiers, waiting for their values.
    probes: Vec<Probe>,
    /// Scratch space for move generation.
    kids: Children,
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

impl<'a> Exits<'a> {
    /// An empty batch for positions of `rules` indexed by `ix`.
    pub fn new(rules: &'a Rules, ix: &'a Indexer) -> Exits<'a> {
        Exits {
            rules,
            ix,
            positions: Vec::with_capacity(EXIT_BATCH),
            probes: Vec::new(),
            kids: Children::new(),
        }
    }

    /// Empties the batch.
    pub fn clear(&mut self) {
        self.positions.clear();
        self.probes.clear();
    }

    /// Adds position `b` of tier `n` to the batch, starting the reads of its lower children.
    pub fn add<L: LowerTiers>(&mut self, b: Board, n: usize, lower: &L) {
        let at = self.positions.len() as u32;
        let kids = &mut self.kids;
        let entry = match self.rules.moves_into(b, kids) {
            Some((mover, opp)) => (mover as i8 - opp as i8, 0),
            None => {
                let mut best = NO_EXIT as i32;
                let mut quiet = 0u8;
                for c in kids.iter() {
                    if c.is_quiet() {
                        debug_assert_eq!(c.board.total() as usize, n);
                        quiet += 1;
                    } else if c.next == Next::Over {
                        best = best.max(c.value(0));
                    } else {
                        let tier = c.board.total() as usize;
                        debug_assert!(tier < n);
                        let rank = self.ix.rank(c.board).unwrap_or_else(|| {
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
                (best as i8, quiet)
            }
        };
        self.positions.push(entry);
    }

    /// Reads the queued lower children and folds their values into the best exits.
    pub fn resolve<L: LowerTiers>(&mut self, lower: &L) {
        for p in &self.probes {
            let v = p.gain + p.sign * lower.value(p.tier as usize, p.rank) as i32;
            let e = &mut self.positions[p.at as usize].0;
            *e = (*e as i32).max(v) as i8;
        }
    }

    /// The best exits and quiet-move counts of the `len` positions of tier `n` from rank
    /// `start` on, in rank order.
    pub fn of_range<L: LowerTiers>(
        &mut self,
        n: usize,
        start: u64,
        len: usize,
        lower: &L,
        mut out: impl FnMut(i8, u8),
    ) {
        let mut walk = self.ix.walk_from(n, start);
        let mut done = 0;
        while done < len {
            let batch = EXIT_BATCH.min(len - done);
            self.clear();
            for _ in 0..batch {
                let b = walk.next().expect("rank inside the tier");
                self.add(b, n, lower);
            }
            self.resolve(lower);
            for &(exit, quiet) in &self.positions {
                out(exit, quiet);
            }
            done += batch;
        }
    }
}

/// Does `b` have a move that leaves the tier (or is the game over)? Rules only: no value is
/// read, which is what lets a reader of a compressed block count positions cheaply.
pub(crate) fn has_exit(rules: &Rules, b: Board, kids: &mut Children) -> bool {
    match rules.moves_into(b, kids) {
        Some(_) => true,
        None => kids.iter().any(|c| !c.is_quiet()),
    }
}
