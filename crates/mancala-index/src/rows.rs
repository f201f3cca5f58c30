//! The rows of one side: every way to put `s` seeds into `m` pits that satisfies a row rule,
//! ranked lexicographically (pit 0 most significant).
//!
//! A row is a little-endian word, one byte per pit, as in [`mancala_rules::Board`]. Counting is
//! a small dynamic programme over (pit, seeds left, "the rule is met so far"); `less` folds it
//! into one lookup per pit, so a rank is `m - 1` independent-address loads and an unrank a short
//! scan per pit. The last pit never adds to a rank: it holds whatever is left.

/// What a row must satisfy to be indexed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RowRule {
    /// Every row.
    Any,
    /// At least one pit is empty.
    HasEmptyPit,
    /// At least one seed.
    NonEmpty,
}

impl RowRule {
    #[inline(always)]
    pub(crate) fn initially_met(self) -> bool {
        self == RowRule::Any
    }

    #[inline(always)]
    pub(crate) fn met_after(self, met: bool, seeds: usize) -> bool {
        met || match self {
            RowRule::Any => true,
            RowRule::HasEmptyPit => seeds == 0,
            RowRule::NonEmpty => seeds > 0,
        }
    }
}

/// Exact row counts in 128 bits, for listing tier sizes of any board.
pub(crate) fn wide_counts(m: usize, rule: RowRule, max: usize) -> Vec<u128> {
    let dp = Dp::<u128>::new(m, rule, max);
    (0..=max)
        .map(|s| dp.get(0, s, rule.initially_met()))
        .collect()
}

/// `count(j, r, f)`: completions of pits `j..m` holding exactly `r` seeds, given the flag `f`.
struct Dp<T> {
    max: usize,
    data: Vec<T>,
}

impl<T: Copy + Default + std::ops::Add<Output = T> + From<u8>> Dp<T> {
    fn new(m: usize, rule: RowRule, max: usize) -> Self {
        let mut dp = Dp {
            max,
            data: vec![T::default(); (m + 1) * (max + 1) * 2],
        };
        // Past the last pit: one way, if every seed was placed and the rule is met.
        let end = dp.at(m, 0, true);
        dp.data[end] = T::from(1);
        for j in (0..m).rev() {
            for r in 0..=max {
                for f in [false, true] {
                    let mut sum = T::default();
                    for x in 0..=r {
                        sum = sum + dp.data[dp.at(j + 1, r - x, rule.met_after(f, x))];
                    }
                    let i = dp.at(j, r, f);
                    dp.data[i] = sum;
                }
            }
        }
        dp
    }

    #[inline(always)]
    fn at(&self, j: usize, r: usize, f: bool) -> usize {
        (j * (self.max + 1) + r) * 2 + f as usize
    }

    #[inline(always)]
    fn get(&self, j: usize, r: usize, f: bool) -> T {
        self.data[self.at(j, r, f)]
    }
}

/// The rows of one side with at most `max` seeds, ranked within each seed count.
#[derive(Clone, Debug)]
pub struct Rows {
    m: usize,
    max: usize,
    rule: RowRule,
    /// `counts[(j, r, f)]`: completions of pits `j..` (see [`Dp`]).
    counts: Vec<u64>,
    /// `less[(j, f, r, x)]`: completions of pits `j..` with `r` seeds whose pit `j` holds
    /// fewer than `x`: the rank contribution of pit `j`.
    less: Vec<u64>,
    /// Where the plane of pit `j` and flag `f` starts in `less`, at `2j + f`.
    planes: [usize; 16],
}

impl Rows {
    /// Rows of `m` pits (1..=8: a row is one word) with at most `max` seeds (at most 255, so
    /// a byte holds any pit); counts must fit 64 bits (checked by the caller through
    /// `wide_counts`).
    pub fn new(m: usize, rule: RowRule, max: usize) -> Rows {
        assert!((1..=8).contains(&m) && max <= 255, "{m} pits, {max} seeds");
        let dp = Dp::<u64>::new(m, rule, max);
        let stride = max + 1;
        let mut less = vec![0u64; m * stride * 2 * stride];
        for j in 0..m {
            for r in 0..=max {
                for f in [false, true] {
                    let base = ((2 * j + f as usize) * stride + r) * stride;
                    let mut acc = 0u64;
                    for x in 0..=r {
                        less[base + x] = acc;
                        acc += dp.get(j + 1, r - x, rule.met_after(f, x));
                    }
                }
            }
        }
        let mut planes = [0; 16];
        for (i, p) in planes.iter_mut().enumerate().take(2 * m) {
            *p = i * stride * stride;
        }
        Rows {
            m,
            max,
            rule,
            counts: dp.data,
            less,
            planes,
        }
    }

    /// Pits in a row.
    pub fn pits(&self) -> usize {
        self.m
    }

    /// The rule every row counted here satisfies.
    pub fn rule(&self) -> RowRule {
        self.rule
    }

    /// Valid rows holding `s` seeds.
    #[inline(always)]
    pub fn count(&self, s: usize) -> u64 {
        self.completions(0, s, self.rule.initially_met())
    }

    #[inline(always)]
    fn completions(&self, j: usize, r: usize, f: bool) -> u64 {
        self.counts[(j * (self.max + 1) + r) * 2 + f as usize]
    }

    /// Where `less[(j, r, f), 0..]` starts: laid out by pit, flag, seeds left, then `x`.
    #[inline(always)]
    fn less_row(&self, j: usize, r: usize, f: bool) -> usize {
        let w = self.max + 1;
        ((2 * j + f as usize) * w + r) * w
    }

    /// The rank of `row` among valid rows with as many seeds, or `None` if it breaks the rule
    /// or holds more than `max` seeds.
    #[inline]
    pub fn rank(&self, row: u64) -> Option<u64> {
        let s = mancala_rules::byte_sum(row) as usize;
        if s > self.max {
            return None;
        }
        self.rank_of(row, s)
    }

    /// [`Rows::rank`] of a row known to hold `s <= max` seeds.
    #[inline(always)]
    pub(crate) fn rank_of(&self, row: u64, s: usize) -> Option<u64> {
        mancala_rules::by_width!(self.m, M => self.rank_m::<M>(row, s))
    }

    /// [`Rows::rank`] for rows of `M` pits (`M` must be this side's width), for code that is
    /// already compiled per width: unrolled and inlined.
    #[inline(always)]
    pub fn rank_width<const M: usize>(&self, row: u64) -> Option<u64> {
        // The row's seeds: the top byte of the prefix sums `rank_fixed` multiplies out too.
        let s = ((row.wrapping_mul(0x0101_0101_0101_0101) >> (8 * (M - 1))) & 0xff) as usize;
        if s > self.max {
            return None;
        }
        self.rank_m::<M>(row, s)
    }

    /// [`Rows::rank_of`] for rows of `M` pits (`M` = this side's width). With a seed left to
    /// place a non-empty row is always still possible, so for `Any` and `NonEmpty` the flag
    /// never changes a count: rank as if it were met.
    #[inline(always)]
    pub(crate) fn rank_m<const M: usize>(&self, row: u64, s: usize) -> Option<u64> {
        assert!(M == self.m && s <= self.max);
        debug_assert_eq!(mancala_rules::byte_sum(row) as usize, s);
        match self.rule {
            RowRule::NonEmpty if s == 0 => None,
            RowRule::HasEmptyPit => self.rank_fixed::<M, true>(row, s),
            _ => self.rank_fixed::<M, false>(row, s),
        }
    }

    /// The rank of a row of `M` pits. The seeds before each pit come from one multiply (byte
    /// `j` of `row * 0x0101..01` sums pits `0..=j`; a row holds at most 255 seeds, so bytes
    /// never carry) rather than a running subtraction, so every lookup's address is known at
    /// once and the loads overlap. With `HAS_EMPTY` the row must have an empty pit, and the
    /// flag before pit `j` says whether one of the pits before it is.
    #[inline(always)]
    fn rank_fixed<const M: usize, const HAS_EMPTY: bool>(&self, row: u64, s: usize) -> Option<u64> {
        let prefix = row.wrapping_mul(0x0101_0101_0101_0101);
        let empty = if HAS_EMPTY { zero_bytes(row, M) } else { 0 };
        let mut rank = 0u64;
        for j in 0..M - 1 {
            let x = pit(row, j);
            let before = if j == 0 { 0 } else { pit(prefix, j - 1) };
            let f = !HAS_EMPTY || empty & ((1 << j) - 1) != 0;
            let at = self.planes[2 * j + f as usize] + (s - before) * (self.max + 1) + x;
            debug_assert!(before + x <= s && at < self.less.len());
            // SAFETY: the pits sum to `s <= max` (checked by the callers), so
            // `x <= s - before <= max` and `at < (2j + 2) * (max + 1)^2 <= less.len()`.
            rank += unsafe { *self.less.get_unchecked(at) };
        }
        (!HAS_EMPTY || empty != 0).then_some(rank)
    }

    /// The valid row of rank `k` among those with `s` seeds (`k < count(s)`).
    pub fn unrank(&self, s: usize, mut k: u64) -> u64 {
        debug_assert!(k < self.count(s));
        let mut r = s;
        let mut f = self.rule.initially_met();
        let mut row = 0u64;
        for j in 0..self.m - 1 {
            let base = self.less_row(j, r, f);
            let less = &self.less[base..base + r + 1];
            // The largest x whose prefix count is <= k; pits hold few seeds, so scan up.
            let mut x = 0;
            while x < r && less[x + 1] <= k {
                x += 1;
            }
            k -= less[x];
            row |= (x as u64) << (8 * j);
            f = self.rule.met_after(f, x);
            r -= x;
        }
        row | (r as u64) << (8 * (self.m - 1))
    }

    /// The first valid row with `s` seeds (`count(s) > 0`).
    pub fn first(&self, s: usize) -> u64 {
        self.fill_smallest(0, 0, s, self.rule.initially_met())
    }

    /// The next valid row after `row` with as many seeds, in rank order, or `None` after the
    /// last one.
    #[inline]
    pub fn next(&self, row: u64) -> Option<u64> {
        let m = self.m;
        // The next row of any kind: the rightmost pit with seeds to its right takes one more,
        // and the rest of those seeds go to the last pit.
        let mut suffix = pit(row, m - 1);
        let mut j = m - 1;
        while j > 0 {
            j -= 1;
            if suffix > 0 {
                let next = ((row & low_bytes(j + 1)) + (1u64 << (8 * j)))
                    | (((suffix - 1) as u64) << (8 * (m - 1)));
                // Every row with seeds is non-empty; a row with an empty pit usually follows
                // one.
                if self.rule != RowRule::HasEmptyPit || has_empty_pit(next, m) {
                    return Some(next);
                }
                return self.next_valid(row);
            }
            suffix += pit(row, j);
        }
        None
    }

    /// [`Rows::next`] for rules that the next row of any kind may break.
    fn next_valid(&self, row: u64) -> Option<u64> {
        let m = self.m;
        // The flag before each pit.
        let mut flags = [false; 16];
        let mut f = self.rule.initially_met();
        for (j, flag) in flags.iter_mut().enumerate().take(m) {
            *flag = f;
            f = self.rule.met_after(f, pit(row, j));
        }
        // From the right: the last pit that can take more seeds from its suffix.
        let mut suffix = pit(row, m - 1);
        let mut j = m - 1;
        while j > 0 {
            j -= 1;
            let x = pit(row, j);
            for more in 1..=suffix {
                let nf = self.rule.met_after(flags[j], x + more);
                if self.completions(j + 1, suffix - more, nf) > 0 {
                    let prefix = row & low_bytes(j) | ((x + more) as u64) << (8 * j);
                    return Some(self.fill_smallest(prefix, j + 1, suffix - more, nf));
                }
            }
            suffix += x;
        }
        None
    }

    /// `prefix` (pits `..from`) completed by the smallest valid way to put `r` seeds in
    /// pits `from..`.
    fn fill_smallest(&self, mut row: u64, from: usize, mut r: usize, mut f: bool) -> u64 {
        let m = self.m;
        for j in from..m - 1 {
            let mut x = 0;
            while self.completions(j + 1, r - x, self.rule.met_after(f, x)) == 0 {
                x += 1;
            }
            row |= (x as u64) << (8 * j);
            f = self.rule.met_after(f, x);
            r -= x;
        }
        row | (r as u64) << (8 * (m - 1))
    }
}

#[inline(always)]
fn pit(row: u64, j: usize) -> usize {
    ((row >> (8 * j)) & 0xff) as usize
}

#[inline(always)]
fn has_empty_pit(row: u64, m: usize) -> bool {
    zero_bytes(row, m) != 0
}

/// Bit `j` is set when pit `j` (of the first `m`) is empty.
#[inline(always)]
fn zero_bytes(row: u64, m: usize) -> u32 {
    mancala_rules::Board(row as u128).empty_pits(m)
}

#[inline(always)]
fn low_bytes(j: usize) -> u64 {
    if j >= 8 {
        u64::MAX
    } else {
        (1u64 << (8 * j)) - 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every row of small sizes, in lexicographic order, checked against the rules directly.
    #[test]
    fn rows_rank_unrank_and_step_in_lexicographic_order() {
        for rule in [RowRule::Any, RowRule::HasEmptyPit, RowRule::NonEmpty] {
            for m in 1..=5 {
                let rows = Rows::new(m, rule, 9);
                for s in 0..=9 {
                    // Brute force: all rows of m pits with s seeds, lexicographic, filtered.
                    let mut all: Vec<Vec<usize>> = Vec::new();
                    let mut cur = vec![0usize; m];
                    fn rec(cur: &mut Vec<usize>, j: usize, left: usize, out: &mut Vec<Vec<usize>>) {
                        if j + 1 == cur.len() {
                            cur[j] = left;
                            out.push(cur.clone());
                            return;
                        }
                        for x in 0..=left {
                            cur[j] = x;
                            rec(cur, j + 1, left - x, out);
                        }
                    }
                    rec(&mut cur, 0, s, &mut all);
                    let valid: Vec<u64> = all
                        .iter()
                        .filter(|p| match rule {
                            RowRule::Any => true,
                            RowRule::HasEmptyPit => p.contains(&0),
                            RowRule::NonEmpty => p.iter().any(|&x| x > 0),
                        })
                        .map(|p| {
                            p.iter()
                                .enumerate()
                                .map(|(j, &x)| (x as u64) << (8 * j))
                                .sum()
                        })
                        .collect();
                    assert_eq!(rows.count(s), valid.len() as u64, "{rule:?} m={m} s={s}");
                    let mut walk = (!valid.is_empty()).then(|| rows.first(s));
                    for (k, &row) in valid.iter().enumerate() {
                        assert_eq!(rows.rank(row), Some(k as u64));
                        assert_eq!(rows.unrank(s, k as u64), row);
                        assert_eq!(walk, Some(row));
                        walk = rows.next(row);
                    }
                    assert_eq!(walk, None);
                    for p in &all {
                        let row = p
                            .iter()
                            .enumerate()
                            .map(|(j, &x)| (x as u64) << (8 * j))
                            .sum();
                        if !valid.contains(&row) {
                            assert_eq!(rows.rank(row), None);
                        }
                    }
                }
            }
        }
    }
}
