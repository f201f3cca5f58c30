//! The published Awari database's order ([`crate::Order::Published`]): every board of a tier
//! in lexicographic order with the last pit (`2m - 1`, the opponent's last) most significant
//! and smaller counts first, among the boards whose opponent's row has an empty pit.
//!
//! Positions that share the opponent's row are then one contiguous block, in which the
//! mover's rows follow in lexicographic order, pit `m - 1` most significant. So a rank is
//! the block's offset, which depends on the opponent's row and the tier, plus the mover's
//! row's rank among the rows with its seeds:
//!
//! `offset(n, opp) = sum over opponent pits p = 2m-1 .. m of G(p, N_p, b_p)`, minus, for each
//! pit of the leading run of non-empty opponent pits, `G(p, N_p - (p - m + 1), b_p - 1)`;
//!
//! where `N_p = b_0 + .. + b_p` and `G(p, N, s) = F_p(N) - F_p(N - s)` counts the ways to put
//! `N` seeds into pits `0..=p` with fewer than `s` in pit `p`, `F_p(x) = C(x + p, p)` (0 for
//! `x < 0`). The correction takes out the boards counted whose opponent's row is full. The
//! mover's row's part is the same sum over the mover's pits, which is the rank of the
//! reversed row among rows of its seeds: the order `Rows` ranks in.

/// The counting tables of the published order for one board width.
pub(crate) struct Published {
    m: usize,
    /// `f[p * width + x]` = `F_p(x)` = C(x + p, p), for `x` in `0..width`.
    f: Vec<u64>,
    width: usize,
    /// What opponent's pit `m + j` holding `b` adds to a block's offset, with `left` seeds in
    /// pits `0..=m + j` and `full` = every opponent's pit above it is non-empty:
    /// `terms[((j * 2 + full) << 2 * shift) + (left << shift) + b]` (the sum's term and its
    /// correction in one lookup, so an offset is `m` loads; a power-of-two stride makes the
    /// address a few shifts).
    terms: Vec<u64>,
    shift: u32,
}

/// The pits of an `m`-pit row in reverse order (pit `m - 1` first).
#[inline(always)]
pub(crate) fn reversed(row: u64, m: usize) -> u64 {
    row.swap_bytes() >> (64 - 8 * m)
}

/// Does the `m`-pit row have an empty pit? (Each pit holds under 128 seeds.)
#[inline(always)]
pub(crate) fn has_empty_pit(row: u64, m: usize) -> bool {
    let x = row | !(u64::MAX >> (64 - 8 * m));
    x.wrapping_sub(0x0101_0101_0101_0101) & !x & 0x8080_8080_8080_8080 != 0
}

impl Published {
    /// Tables for boards of `m` pits a side and tiers up to `max` seeds.
    pub fn new(m: usize, max: usize) -> Published {
        let width = max + 2;
        let mut f = vec![0u64; 2 * m * width];
        for p in 0..2 * m {
            for x in 0..width {
                // C(x + p, p) = C(x + p - 1, p - 1) + C(x + p - 1, p).
                f[p * width + x] = if p == 0 || x == 0 {
                    1
                } else {
                    f[(p - 1) * width + x].saturating_add(f[p * width + x - 1])
                };
            }
        }
        let shift = width.next_power_of_two().trailing_zeros();
        let mut t = Published {
            m,
            f,
            width,
            terms: Vec::new(),
            shift,
        };
        let mut terms = vec![0u64; (m * 2) << (2 * shift)];
        for j in 0..m {
            let p = m + j;
            for full in 0..2 {
                for left in 0..width {
                    for b in 0..=left {
                        let (n, s) = (left as i64, b as i64);
                        let mut v = t.fewer(p, n, s);
                        if full == 1 && b > 0 {
                            v -= t.fewer(p, n - (p - m + 1) as i64, s - 1);
                        }
                        terms[((j * 2 + full) << (2 * shift)) + (left << shift) + b] = v;
                    }
                }
            }
        }
        t.terms = terms;
        t
    }

    /// `F_p(x)`: the ways to put `x` seeds into pits `0..=p` (0 when `x < 0`).
    #[inline(always)]
    fn ways(&self, p: usize, x: i64) -> u64 {
        if x < 0 {
            0
        } else {
            self.f[p * self.width + x as usize]
        }
    }

    /// The boards of `N` seeds in pits `0..=p` with fewer than `s` in pit `p`.
    fn fewer(&self, p: usize, n: i64, s: i64) -> u64 {
        if n < 0 || s <= 0 {
            0
        } else {
            self.ways(p, n) - self.ways(p, n - s)
        }
    }

    /// The first rank of the block of opponent's row `opp` (which has an empty pit and at
    /// most `n` seeds) in tier `n`, on a board of `M` pits a side.
    #[inline(always)]
    pub fn offset<const M: usize>(&self, n: usize, opp: u64) -> u64 {
        debug_assert_eq!(M, self.m);
        let s = self.shift;
        let mut left = n;
        let mut full = 1;
        let mut r = 0;
        for j in (0..M).rev() {
            let b = ((opp >> (8 * j)) & 0xff) as usize;
            r += self.terms[((j * 2 + full) << (2 * s)) + (left << s) + b];
            full &= (b != 0) as usize;
            left -= b;
        }
        r
    }

    /// The opponent's row whose block holds regular rank `rank` of tier `n`, and the block's
    /// first rank.
    pub fn locate(&self, n: usize, rank: u64) -> (u64, u64) {
        let m = self.m;
        let mut left = n as i64;
        let mut row = 0u64;
        let mut start = 0u64;
        let mut full_so_far = true;
        for j in (0..m).rev() {
            let p = m + j;
            // Boards with pit p = v: the pits below take `left - v`; while the row is full so
            // far, those whose lower opponent pits are all non-empty too are not indexed.
            let block = |v: i64| -> u64 {
                let all = self.ways(p - 1, left - v);
                if full_so_far && v >= 1 {
                    all - self.ways(p - 1, left - v - (p - m) as i64)
                } else {
                    all
                }
            };
            let mut v = 0i64;
            loop {
                let k = block(v);
                if start + k > rank || v == left {
                    break;
                }
                start += k;
                v += 1;
            }
            row |= (v as u64) << (8 * j);
            if v == 0 {
                full_so_far = false;
            }
            left -= v;
        }
        (row, start)
    }

    /// The next opponent's row after `row` in tier `n` (at most `n` seeds and an empty pit),
    /// or `None` after the last.
    #[inline]
    pub fn next_row(&self, mut row: u64, n: usize) -> Option<u64> {
        let m = self.m;
        loop {
            // An odometer whose least significant digit is pit `m` (byte 0): raise the lowest
            // pit that can take a seed once the pits below it are emptied.
            let mut sum = mancala_rules::byte_sum(row) as usize;
            let mut j = 0;
            loop {
                if j == m {
                    return None;
                }
                if sum < n {
                    row += 1 << (8 * j);
                    break;
                }
                sum -= ((row >> (8 * j)) & 0xff) as usize;
                row &= !(0xff << (8 * j));
                j += 1;
            }
            if (0..m).any(|k| (row >> (8 * k)) & 0xff == 0) {
                return Some(row);
            }
        }
    }
}
