//! A perfect index of each tier: rank, unrank and an in-order walk.
//!
//! A tier is the set of positions with `n` seeds in the pits. Only positions that can arise are
//! indexed, so tables waste no byte on impossible ones:
//! - Awari type: the side that just moved emptied its origin pit, so the opponent's row (in the
//!   mover-relative layout) holds at least one empty pit. The start position is the one
//!   exception; it gets the last rank of its tier. A capture takes at least 2 seeds, so the tier
//!   just below the start tier (47 seeds in Awari) is never reached and is indexed as empty, as
//!   in the published count.
//! - Kalah type: both rows hold seeds (otherwise the game is already over).
//!
//! Ranks are lexicographic over the pits in mover-relative order, pit 0 most significant, so
//! positions that share a long prefix get close ranks. Counting is a small dynamic programme over
//! (pit, seeds left, "this row's rule is met so far"); ranking adds one precomputed prefix count
//! per pit, and the walk steps to the lexicographic successor, usually in O(1).

use mancala_rules::{Board, Family, Rules};

/// What a row must satisfy for a position to be indexed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RowRule {
    Any,
    /// At least one pit is empty.
    HasEmptyPit,
    /// At least one seed.
    NonEmpty,
}

impl RowRule {
    fn initially_met(self) -> bool {
        self == RowRule::Any
    }

    #[inline(always)]
    fn met_after(self, met: bool, seeds: usize) -> bool {
        met || match self {
            RowRule::Any => true,
            RowRule::HasEmptyPit => seeds == 0,
            RowRule::NonEmpty => seeds > 0,
        }
    }
}

/// Errors from building an index.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum IndexError {
    #[error("tier {tier} has {size} positions, more than a 64-bit rank can address")]
    TooLarge { tier: usize, size: u128 },
}

/// Which positions of a board shape are indexed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Spec {
    /// Pits per side.
    pub pits: usize,
    pub own: RowRule,
    pub opp: RowRule,
    /// A position indexed even though it breaks the row rules (the Awari start position).
    pub extra: Option<Board>,
    /// A tier no game reaches, indexed as empty.
    pub unreachable_tier: Option<usize>,
}

impl Spec {
    pub fn for_rules(rules: &Rules) -> Spec {
        let m = rules.pits();
        match rules.variant().family() {
            Family::Awari => {
                let start = rules.start();
                Spec {
                    pits: m,
                    own: RowRule::Any,
                    opp: RowRule::HasEmptyPit,
                    extra: Some(start),
                    unreachable_tier: rules.max_seeds().checked_sub(1),
                }
            }
            Family::Kalah => Spec {
                pits: m,
                own: RowRule::NonEmpty,
                opp: RowRule::NonEmpty,
                extra: None,
                unreachable_tier: None,
            },
        }
    }

    fn rule(&self, pit: usize) -> RowRule {
        if pit < self.pits {
            self.own
        } else {
            self.opp
        }
    }

    /// The flag after putting `x` seeds in pit `j`, or `None` if the row just completed
    /// breaks its rule.
    #[inline(always)]
    fn step(&self, j: usize, met: bool, x: usize) -> Option<bool> {
        let met = self.rule(j).met_after(met, x);
        if j + 1 == self.pits || j + 1 == 2 * self.pits {
            if !met {
                return None;
            }
            if j + 1 == self.pits {
                return Some(self.opp.initially_met());
            }
        }
        Some(met)
    }

    /// Does `b` (pits beyond `2m` empty) satisfy the row rules?
    pub fn rows_ok(&self, b: Board) -> bool {
        let mut met = self.own.initially_met();
        for j in 0..2 * self.pits {
            match self.step(j, met, b.get(j) as usize) {
                Some(f) => met = f,
                None => return false,
            }
        }
        true
    }

    fn extra_in_tier(&self, n: usize) -> Option<Board> {
        self.extra
            .filter(|b| b.total() as usize == n && !self.rows_ok(*b))
    }

    /// Exact tier sizes `0..=max` (with 128-bit counts, so any board can be listed).
    pub fn tier_sizes(&self, max: usize) -> Vec<u128> {
        let table = CountTable::<u128>::new(self, max);
        (0..=max)
            .map(|n| {
                if self.unreachable_tier == Some(n) {
                    0
                } else {
                    table.get(0, n, self.own.initially_met())
                        + self.extra_in_tier(n).is_some() as u128
                }
            })
            .collect()
    }
}

/// `count(j, r, met)`: the completions of pits `j..2m` holding exactly `r` seeds.
struct CountTable<T> {
    max: usize,
    data: Vec<T>,
}

trait Count: Copy + Default + std::ops::Add<Output = Self> {
    fn one() -> Self;
}
impl Count for u128 {
    fn one() -> Self {
        1
    }
}
impl Count for u64 {
    fn one() -> Self {
        1
    }
}

impl<T: Count> CountTable<T> {
    fn new(spec: &Spec, max: usize) -> Self {
        let pits = 2 * spec.pits;
        let mut t = CountTable {
            max,
            data: vec![T::default(); (pits + 1) * (max + 1) * 2],
        };
        // After the last pit: one way if every seed was placed (the rule was checked on the
        // step into it).
        let at = |j: usize, r: usize, f: bool| (j * (max + 1) + r) * 2 + f as usize;
        for f in [false, true] {
            t.data[at(pits, 0, f)] = T::one();
        }
        for j in (0..pits).rev() {
            for r in 0..=max {
                for f in [false, true] {
                    let mut sum = T::default();
                    for x in 0..=r {
                        if let Some(nf) = spec.step(j, f, x) {
                            sum = sum + t.data[at(j + 1, r - x, nf)];
                        }
                    }
                    t.data[at(j, r, f)] = sum;
                }
            }
        }
        t
    }

    #[inline(always)]
    fn get(&self, j: usize, r: usize, f: bool) -> T {
        self.data[(j * (self.max + 1) + r) * 2 + f as usize]
    }
}

/// The index of every tier `0..=max` of one rule set.
pub struct Indexer {
    spec: Spec,
    max: usize,
    counts: CountTable<u64>,
    /// `less[j][r][f][x]`: completions of pits `j..` with `r` seeds where pit `j` holds fewer
    /// than `x`: the rank contribution of pit `j`.
    less: Vec<u64>,
    sizes: Vec<u64>,
    /// The out-of-rule position indexed at the end of each tier, if any.
    extras: Vec<Option<Board>>,
}

impl Indexer {
    /// The index of tiers `0..=max` (at most the seeds of the game).
    pub fn new(rules: &Rules, max: usize) -> Result<Indexer, IndexError> {
        Indexer::with_spec(Spec::for_rules(rules), max)
    }

    pub fn with_spec(spec: Spec, max: usize) -> Result<Indexer, IndexError> {
        let wide = spec.tier_sizes(max);
        if let Some((tier, &size)) = wide
            .iter()
            .enumerate()
            .find(|(_, &s)| s > u64::MAX as u128 / 2)
        {
            return Err(IndexError::TooLarge { tier, size });
        }
        let counts = CountTable::<u64>::new(&spec, max);
        let pits = 2 * spec.pits;
        let stride = max + 1;
        let mut less = vec![0u64; pits * stride * 2 * stride];
        for j in 0..pits {
            for r in 0..=max {
                for f in [false, true] {
                    let base = ((j * stride + r) * 2 + f as usize) * stride;
                    let mut acc = 0u64;
                    for x in 0..=r {
                        less[base + x] = acc;
                        if let Some(nf) = spec.step(j, f, x) {
                            acc += counts.get(j + 1, r - x, nf);
                        }
                    }
                }
            }
        }
        let sizes = wide.iter().map(|&s| s as u64).collect();
        let extras = (0..=max).map(|n| spec.extra_in_tier(n)).collect();
        Ok(Indexer {
            spec,
            max,
            counts,
            less,
            sizes,
            extras,
        })
    }

    pub fn spec(&self) -> &Spec {
        &self.spec
    }

    /// The largest tier indexed.
    pub fn max_tier(&self) -> usize {
        self.max
    }

    /// Positions in tier `n`.
    pub fn size(&self, n: usize) -> u64 {
        self.sizes[n]
    }

    /// The rank of `b` within its tier, or `None` if it is not indexed.
    #[inline]
    pub fn rank(&self, b: Board) -> Option<u64> {
        let n = b.total() as usize;
        if n > self.max || self.sizes[n] == 0 {
            return None;
        }
        let m = self.spec.pits;
        let stride = self.max + 1;
        // Row by row, with the row's rule fixed, so the loop has no data-dependent branches:
        // every table address depends only on the board, and the loads can overlap.
        let mut r = n;
        let mut rank = 0u64;
        let mut j = 0;
        for (rule, pits) in [(self.spec.own, 0..m), (self.spec.opp, m..2 * m - 1)] {
            let mut f = rule.initially_met();
            for _ in pits {
                let x = b.get(j) as usize;
                rank += self.less[((j * stride + r) * 2 + f as usize) * stride + x];
                f = rule.met_after(f, x);
                r -= x;
                j += 1;
            }
            if j == 2 * m - 1 {
                // The last pit holds what is left; it adds nothing to the rank.
                f = rule.met_after(f, r);
            }
            if !f {
                return self.extra_rank(b, n);
            }
        }
        Some(rank)
    }

    fn extra_rank(&self, b: Board, n: usize) -> Option<u64> {
        (self.extras[n] == Some(b)).then(|| self.sizes[n] - 1)
    }

    /// Is `b` an indexed position?
    pub fn contains(&self, b: Board) -> bool {
        self.rank(b).is_some()
    }

    /// The position of rank `rank` in tier `n` (`rank < size(n)`).
    pub fn unrank(&self, n: usize, mut rank: u64) -> Board {
        assert!(rank < self.sizes[n], "rank {rank} outside tier {n}");
        if let Some(extra) = self.extras[n] {
            if rank == self.sizes[n] - 1 {
                return extra;
            }
        }
        let m = self.spec.pits;
        let stride = self.max + 1;
        let mut pits = [0u8; 16];
        let mut r = n;
        let mut j = 0;
        for (rule, end) in [(self.spec.own, m), (self.spec.opp, 2 * m - 1)] {
            let mut f = rule.initially_met();
            while j < end {
                let base = ((j * stride + r) * 2 + f as usize) * stride;
                let row = &self.less[base..base + r + 1];
                // The largest x whose prefix count is <= rank; pits hold few seeds, so scan up.
                let mut x = 0;
                while x < r && row[x + 1] <= rank {
                    x += 1;
                }
                rank -= row[x];
                pits[j] = x as u8;
                f = rule.met_after(f, x);
                r -= x;
                j += 1;
            }
        }
        pits[2 * m - 1] = r as u8;
        Board(u128::from_le_bytes(pits))
    }

    /// Every position of tier `n` in rank order.
    pub fn walk(&self, n: usize) -> Walk<'_> {
        self.walk_from(n, 0)
    }

    /// The positions of tier `n` from rank `start` on, in rank order.
    pub fn walk_from(&self, n: usize, start: u64) -> Walk<'_> {
        let size = self.sizes[n];
        let extra = self.extras[n];
        let regular = size - extra.is_some() as u64;
        let mut w = Walk {
            ix: self,
            n,
            pits: [0; 16],
            flags: [false; 17],
            next_rank: start,
            started: false,
            regular,
            extra,
            size,
        };
        if start < regular {
            let b = self.unrank(n, start);
            for j in 0..2 * self.spec.pits {
                w.pits[j] = b.get(j);
            }
            w.refresh_flags(0);
        }
        w
    }
}

/// An iterator over a tier in rank order that steps to the successor without unranking.
pub struct Walk<'a> {
    ix: &'a Indexer,
    n: usize,
    pits: [u8; 16],
    /// `flags[j]`: the row flag before pit `j`.
    flags: [bool; 17],
    next_rank: u64,
    /// The current `pits` were returned already; the next call advances first.
    started: bool,
    regular: u64,
    extra: Option<Board>,
    size: u64,
}

impl Walk<'_> {
    fn refresh_flags(&mut self, from: usize) {
        let spec = &self.ix.spec;
        if from == 0 {
            self.flags[0] = spec.own.initially_met();
        }
        for j in from..2 * spec.pits - 1 {
            self.flags[j + 1] = spec
                .step(j, self.flags[j], self.pits[j] as usize)
                .unwrap_or(false);
        }
    }

    fn board(&self) -> Board {
        Board(u128::from_le_bytes(self.pits))
    }

    /// Moves `pits` to the lexicographic successor among indexed positions.
    fn advance(&mut self) {
        let spec = self.ix.spec;
        let last = 2 * spec.pits - 1;
        let mut suffix = self.pits[last] as usize;
        let mut j = last;
        while j > 0 {
            j -= 1;
            // The smallest larger value of pit j that the rest can still complete.
            for more in 1..=suffix {
                let x = self.pits[j] as usize + more;
                if let Some(nf) = spec.step(j, self.flags[j], x) {
                    if self.ix.counts.get(j + 1, suffix - more, nf) > 0 {
                        self.pits[j] = x as u8;
                        self.fill_smallest(j + 1, suffix - more, nf);
                        return;
                    }
                }
            }
            suffix += self.pits[j] as usize;
        }
        unreachable!("advance past the last position of tier {}", self.n);
    }

    /// Puts the lexicographically smallest valid completion of `r` seeds into pits `from..`.
    fn fill_smallest(&mut self, from: usize, mut r: usize, mut f: bool) {
        let spec = self.ix.spec;
        let pits = 2 * spec.pits;
        for j in from..pits {
            self.flags[j] = f;
            if j == pits - 1 {
                self.pits[j] = r as u8;
                break;
            }
            let mut x = 0;
            loop {
                if let Some(nf) = spec.step(j, f, x) {
                    if self.ix.counts.get(j + 1, r - x, nf) > 0 {
                        self.pits[j] = x as u8;
                        f = nf;
                        r -= x;
                        break;
                    }
                }
                x += 1;
            }
        }
    }
}

impl Iterator for Walk<'_> {
    type Item = Board;

    #[inline]
    fn next(&mut self) -> Option<Board> {
        let r = self.next_rank;
        if r >= self.size {
            return None;
        }
        self.next_rank += 1;
        if r >= self.regular {
            return self.extra;
        }
        if self.started {
            self.advance();
        }
        self.started = true;
        Some(self.board())
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = (self.size - self.next_rank.min(self.size)) as usize;
        (left, Some(left))
    }
}
