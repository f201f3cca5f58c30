//! A perfect index of each tier: rank, unrank and an in-order walk. Endgame tables store one
//! value per rank, so this is what turns a position into its place in a table file and back.
//!
//! ```
//! use mancala_index::Indexer;
//! use mancala_rules::{parse_position, Preset, Rules, Variant};
//!
//! let rules = Rules::new(Variant::preset(Preset::Awari));
//! let index = Indexer::new(&rules, 8).unwrap();
//! // Tier 8 of Awari: C(19, 11) - C(13, 11) positions whose opponent row has an empty pit.
//! assert_eq!(index.size(8), 75_504);
//! assert_eq!(index.walk(8).count(), 75_504);
//!
//! // Rank and unrank are inverse.
//! let b = parse_position(&rules, "1 1 1 1 1 2 0 1 0 0 0 0").unwrap();
//! let rank = index.rank(b).unwrap();
//! assert!(rank < index.size(8));
//! assert_eq!(index.unrank(8, rank), b);
//!
//! // The side that just moved emptied the pit it sowed from, so a position whose opponent
//! // row has no empty pit cannot arise and gets no rank.
//! let full = parse_position(&rules, "1 1 0 0 0 0 1 1 1 1 1 1").unwrap();
//! assert_eq!(index.rank(full), None);
//! ```
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
//! Awari-type tiers are in the order of the published Awari database ([`Order::Published`]),
//! so that a tier's table is the database's file of that tier byte for byte: lexicographic
//! over all `2m` pits with the last pit (the opponent's last, `2m - 1`) most significant,
//! smaller counts first. All positions with the same opponent's row are one contiguous block,
//! in which the mover's rows follow lexicographically (pit `m - 1` most significant):
//!
//! `rank = offset(n, opp row) + rank of the mover's row among rows of its seeds`,
//!
//! with the block offset in closed form (see `published.rs`). The start position, which the
//! database does not store, is the last rank of its tier, one past the database's file.
//!
//! Every other rule set ([`Order::MoverFirst`]) orders by the seeds `a` on the mover's row,
//! then by the mover's row, then by the opponent's row (each row lexicographic, pit 0 most
//! significant, see [`Rows`]):
//!
//! `rank = base[n][a] + rank_own(own row) * count_opp(n - a) + rank_opp(opp row)`.
//!
//! Where the two players own different pits (a later nam-nam round) a position also says who
//! is to move (the board's `NORTH` flag): such a tier holds every South-to-move position, then
//! the same positions with North to move, `rank = flag * half + rank of the pits`.
//!
//! So a rank is two short independent chains of table lookups. In the mover-first order a
//! solver that already knows the ranks of both rows (because it moves whole rows through
//! precomputed tables) gets a position's rank with one multiply-add; in either order the walk
//! usually steps only the row that varies fastest.

#![warn(missing_docs)]

mod published;
mod rows;

pub use rows::{RowRule, Rows};

use published::{has_empty_pit, reversed, Published};

use mancala_rules::{byte_sum, Board, Family, Rules, NORTH};

/// Errors from building an index.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum IndexError {
    /// A tier has more positions than a 64-bit rank can address.
    #[error("tier {tier} has {} positions, more than a 64-bit rank can address", mancala_rules::Grouped(*size))]
    TooLarge {
        /// The first tier that is too large.
        tier: usize,
        /// Its number of positions.
        size: u128,
    },
}

/// Why a position cannot arise in a game of its rules ([`Spec::cannot_arise`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Unreachable {
    /// The row of the side that just moved has no empty pit, but a move empties the pit it
    /// is sown from (the Awari type).
    #[error("the side that just moved always leaves a pit of its row empty (the one it sowed from), but here all its pits (the position's last {0} numbers) hold seeds")]
    NoEmptyPit(usize),
    /// No position with this many seeds in the pits arises.
    #[error("no position with {0} seeds in the pits arises (a capture takes at least two seeds, so one fewer than the game's never occurs)")]
    Tier(usize),
}

/// Which positions of a board shape are indexed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Spec {
    /// Pits per side.
    pub pits: usize,
    /// What the side to move's row must satisfy.
    pub own: RowRule,
    /// What the row of the side that just moved must satisfy.
    pub opp: RowRule,
    /// A position indexed even though it breaks the row rules (the Awari start position).
    pub extra: Option<Board>,
    /// A tier no game reaches, indexed as empty.
    pub unreachable_tier: Option<usize>,
    /// Positions carry the side to move (see the module docs): every tier is two halves.
    pub sided: bool,
    /// How the positions of a tier are ordered.
    pub order: Order,
}

/// How the positions of a tier are ordered (the module docs give both).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Order {
    /// By the seeds on the mover's row, then the mover's row, then the opponent's row.
    MoverFirst,
    /// The published Awari database's order: lexicographic over every pit, the last pit
    /// (`2m - 1`) most significant; positions sharing the opponent's row are contiguous. Only
    /// for the Awari rows: any mover's row, an opponent's row with an empty pit.
    Published,
}

impl Spec {
    /// The positions the game of `rules` can reach: for the Awari type an empty pit in the
    /// opponent's row (plus the start position), for the Kalah type seeds in both rows, and
    /// for the sowing family whatever its rules guarantee.
    pub fn for_rules(rules: &Rules) -> Spec {
        let m = rules.pits();
        match rules.variant().family() {
            Family::Awari => Spec {
                pits: m,
                own: RowRule::Any,
                opp: RowRule::HasEmptyPit,
                extra: Some(rules.start()),
                unreachable_tier: rules.max_seeds().checked_sub(1),
                sided: false,
                order: Order::Published,
            },
            Family::Kalah => Spec {
                pits: m,
                own: RowRule::NonEmpty,
                opp: RowRule::NonEmpty,
                extra: None,
                unreachable_tier: None,
                sided: false,
                order: Order::MoverFirst,
            },
            Family::Sowing => {
                let rule = |never_empty| {
                    if never_empty {
                        RowRule::NonEmpty
                    } else {
                        RowRule::Any
                    }
                };
                let (own, opp) = rules.rows_never_empty();
                Spec {
                    pits: m,
                    own: rule(own),
                    opp: rule(opp),
                    extra: None,
                    unreachable_tier: None,
                    sided: rules.sided(),
                    order: Order::MoverFirst,
                }
            }
        }
    }

    /// Why `b` cannot arise in a game, if it cannot: a row rule that only a position no move
    /// leads to breaks (an opponent's row without an empty pit, but the start position), or
    /// a tier no game reaches. A row that the rules say runs empty only when the game ends
    /// is not one of those: such a position is a finished game, and arises.
    pub fn cannot_arise(&self, b: Board) -> Option<Unreachable> {
        let b = b.pits_only();
        let n = b.total() as usize;
        if self.unreachable_tier == Some(n) {
            return Some(Unreachable::Tier(n));
        }
        let m = self.pits;
        let broken =
            |rule: RowRule, row: u64| rule == RowRule::HasEmptyPit && !row_ok(rule, row, m);
        if self.extra == Some(b) {
            return None;
        }
        (broken(self.own, b.own(m)) || broken(self.opp, b.opp(m)))
            .then_some(Unreachable::NoEmptyPit(m))
    }

    /// Does `b` (pits beyond `2m` empty) satisfy the row rules?
    pub fn rows_ok(&self, b: Board) -> bool {
        let m = self.pits;
        row_ok(self.own, b.own(m), m) && row_ok(self.opp, b.opp(m), m)
    }

    fn extra_in_tier(&self, n: usize) -> Option<Board> {
        self.extra
            .filter(|b| b.total() as usize == n && !self.rows_ok(*b))
    }

    /// Exact tier sizes `0..=max` (with 128-bit counts, so any board can be listed).
    pub fn tier_sizes(&self, max: usize) -> Vec<u128> {
        let own = rows::wide_counts(self.pits, self.own, max);
        let opp = rows::wide_counts(self.pits, self.opp, max);
        (0..=max)
            .map(|n| {
                if self.unreachable_tier == Some(n) {
                    return 0;
                }
                let regular: u128 = (0..=n).map(|a| own[a] * opp[n - a]).sum();
                let half = regular + self.extra_in_tier(n).is_some() as u128;
                half << self.sided as u32
            })
            .collect()
    }
}

fn row_ok(rule: RowRule, row: u64, m: usize) -> bool {
    match rule {
        RowRule::Any => true,
        RowRule::NonEmpty => row != 0,
        RowRule::HasEmptyPit => (0..m).any(|j| (row >> (8 * j)) & 0xff == 0),
    }
}

/// The index of every tier `0..=max` of one rule set.
pub struct Indexer {
    spec: Spec,
    max: usize,
    own: Rows,
    opp: Rows,
    /// `base[n * (max + 2) + a]`: the first rank of tier `n` whose mover's row holds `a` seeds;
    /// `a = n + 1` gives the number of regular positions.
    base: Vec<u64>,
    sizes: Vec<u64>,
    /// The out-of-rule position indexed at the end of each tier, if any.
    extras: Vec<Option<Board>>,
    /// The low `8 * pits` bits, and that many bits: a row's place in a board.
    row_mask: u64,
    row_bits: u32,
    /// The tables of [`Order::Published`], when the tiers are in that order.
    published: Option<Published>,
}

impl Indexer {
    /// The index of tiers `0..=max` (at most the seeds of the game).
    pub fn new(rules: &Rules, max: usize) -> Result<Indexer, IndexError> {
        Indexer::with_spec(Spec::for_rules(rules), max)
    }

    /// The index of tiers `0..=max` of any board shape and row rules, e.g. for tests on
    /// shapes no preset has. Fails if a tier is too large for a 64-bit rank.
    pub fn with_spec(spec: Spec, max: usize) -> Result<Indexer, IndexError> {
        let wide = spec.tier_sizes(max);
        if let Some((tier, &size)) = wide
            .iter()
            .enumerate()
            .find(|(_, &s)| s > u64::MAX as u128 / 2)
        {
            return Err(IndexError::TooLarge { tier, size });
        }
        let published = (spec.order == Order::Published).then(|| {
            assert!(
                spec.own == RowRule::Any && spec.opp == RowRule::HasEmptyPit && !spec.sided,
                "the published order is defined for the Awari rows"
            );
            Published::new(spec.pits, max)
        });
        let own = Rows::new(spec.pits, spec.own, max);
        let opp = Rows::new(spec.pits, spec.opp, max);
        let mut base = vec![0u64; (max + 1) * (max + 2)];
        for n in 0..=max {
            let mut acc = 0u64;
            for a in 0..=n + 1 {
                base[n * (max + 2) + a] = acc;
                if a <= n {
                    acc += own.count(a) * opp.count(n - a);
                }
            }
        }
        let sizes = wide.iter().map(|&s| s as u64).collect();
        let extras = (0..=max).map(|n| spec.extra_in_tier(n)).collect();
        Ok(Indexer {
            spec,
            max,
            own,
            opp,
            base,
            sizes,
            extras,
            row_mask: u64::MAX >> (64 - 8 * spec.pits),
            row_bits: 8 * spec.pits as u32,
            published,
        })
    }

    /// Which positions are indexed.
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

    /// The rows of the side to move.
    pub fn own_rows(&self) -> &Rows {
        &self.own
    }

    /// The rows of the side that just moved.
    pub fn opp_rows(&self) -> &Rows {
        &self.opp
    }

    /// The first rank of tier `n` whose mover's row holds `a` seeds (`a <= n + 1`).
    #[inline(always)]
    pub fn base(&self, n: usize, a: usize) -> u64 {
        self.base[n * (self.max + 2) + a]
    }

    /// The rank of the position with mover's row of rank `own` (holding `a` seeds) and
    /// opponent's row of rank `opp`, in tier `n`: for solvers that track row ranks
    /// ([`Order::MoverFirst`] only).
    #[inline(always)]
    pub fn rank_of_rows(&self, n: usize, a: usize, own: u64, opp: u64) -> u64 {
        debug_assert!(
            self.published.is_none(),
            "row ranks are of the mover-first order"
        );
        self.base(n, a) + own * self.opp.count(n - a) + opp
    }

    /// The tier's order.
    pub fn order(&self) -> Order {
        self.spec.order
    }

    /// The position indexed at the last rank of tier `n` although it breaks the row rules
    /// (the Awari start position), if any.
    pub fn extra(&self, n: usize) -> Option<Board> {
        self.extras.get(n).copied().flatten()
    }

    /// The rank of `b` within its tier, or `None` if it is not indexed.
    #[inline]
    pub fn rank(&self, b: Board) -> Option<u64> {
        if self.spec.sided {
            let pits = b.pits_only();
            let r = mancala_rules::by_width!(self.spec.pits, M => self.rank_m::<M>(pits))?;
            return Some(r + b.north() as u64 * self.half(pits.total() as usize));
        }
        mancala_rules::by_width!(self.spec.pits, M => self.rank_m::<M>(b))
    }

    /// Positions of tier `n` with one side to move (all of them unless [`Spec::sided`]).
    #[inline(always)]
    pub fn half(&self, n: usize) -> u64 {
        self.sizes[n] >> self.spec.sided as u32
    }

    /// [`Indexer::rank`] for boards of width `M`: the rows come out with immediate shifts and
    /// are ranked by code unrolled for the width.
    #[inline(always)]
    fn rank_m<const M: usize>(&self, b: Board) -> Option<u64> {
        let mask = u64::MAX >> (64 - 8 * M);
        let (own, opp) = (b.0 as u64 & mask, (b.0 >> (8 * M)) as u64 & mask);
        let a = byte_sum(own) as usize;
        let n = a + byte_sum(opp) as usize;
        if n > self.max || self.sizes[n] == 0 {
            return None;
        }
        if let Some(p) = &self.published {
            return if has_empty_pit(opp, M) {
                Some(p.offset::<M>(n, opp) + self.own.rank_m::<M>(reversed(own, M), a)?)
            } else {
                (self.extras[n] == Some(b)).then(|| self.half(n) - 1)
            };
        }
        match (
            self.own.rank_m::<M>(own, a),
            self.opp.rank_m::<M>(opp, n - a),
        ) {
            (Some(ro), Some(rp)) => Some(self.rank_of_rows(n, a, ro, rp)),
            _ => (self.extras[n] == Some(b)).then(|| self.half(n) - 1),
        }
    }

    /// The mover's and the opponent's rows of `b`.
    #[inline(always)]
    pub fn rows_of(&self, b: Board) -> (u64, u64) {
        (
            b.0 as u64 & self.row_mask,
            (b.0 >> self.row_bits) as u64 & self.row_mask,
        )
    }

    /// What positions of tier `n` with opponent's row `row` share in their ranks, for
    /// [`Indexer::rank_sharing_opp`]: the row's rank among the opponent's rows of its seeds
    /// ([`Order::MoverFirst`]) or its block's first rank ([`Order::Published`]); `None` when
    /// the rules do not allow the row there.
    #[inline]
    pub fn opp_key(&self, n: usize, row: u64) -> Option<u64> {
        let m = self.spec.pits;
        match &self.published {
            Some(p) => (has_empty_pit(row, m) && byte_sum(row) as usize <= n)
                .then(|| mancala_rules::by_width!(m, M => p.offset::<M>(n, row))),
            None => self.opp.rank(row),
        }
    }

    /// [`Indexer::rank`] for a solver that ranks many positions of one tier that may share
    /// one opponent's row: when `b`'s opponent's row is `row`, only the mover's row is ranked.
    /// `key` holds that row's part of the rank ([`Indexer::opp_key`] of the tier), worked out
    /// the first time a position needs it: pass the same slot (`None` at first) for every
    /// position that may share `row`.
    #[inline]
    pub fn rank_sharing_opp(
        &self,
        b: Board,
        row: u64,
        key: &mut Option<Option<u64>>,
    ) -> Option<u64> {
        let (own, opp) = self.rows_of(b);
        if opp != row || self.spec.sided {
            return self.rank(b);
        }
        let a = byte_sum(own) as usize;
        let n = a + byte_sum(opp) as usize;
        if n > self.max || self.sizes[n] == 0 {
            return None;
        }
        let key = *key.get_or_insert_with(|| self.opp_key(n, row));
        if self.published.is_some() {
            let m = self.spec.pits;
            return match key {
                Some(offset) => Some(offset + self.own.rank_of(reversed(own, m), a)?),
                None => (self.extras[n] == Some(b)).then(|| self.half(n) - 1),
            };
        }
        match (self.own.rank_of(own, a), key) {
            (Some(ro), Some(rp)) => Some(self.rank_of_rows(n, a, ro, rp)),
            _ => (self.extras[n] == Some(b)).then(|| self.half(n) - 1),
        }
    }

    /// The mover's rows holding `a` seeds, in the order they follow one another within a
    /// block of the published order ([`Order::Published`]), as board rows.
    pub fn mover_rows(&self, a: usize) -> impl Iterator<Item = u64> + '_ {
        let m = self.spec.pits;
        let first = (self.own.count(a) > 0).then(|| self.own.first(a));
        std::iter::successors(first, |&x| self.own.next(x)).map(move |x| reversed(x, m))
    }

    /// The place of mover's row `own` (holding `a` seeds) within its block of the published
    /// order: [`Indexer::rank`] is the block's first rank plus this.
    #[inline]
    pub fn mover_rank(&self, own: u64, a: usize) -> Option<u64> {
        debug_assert!(
            self.published.is_some(),
            "blocks are of the published order"
        );
        self.own.rank_of(reversed(own, self.spec.pits), a)
    }

    /// The blocks of tier `n` in the published order, in rank order: each opponent's row
    /// with its block's first rank (the start position, if the tier has it, comes after them
    /// all, alone).
    pub fn blocks(&self, n: usize) -> impl Iterator<Item = (u64, u64)> + '_ {
        let p = self
            .published
            .as_ref()
            .expect("blocks are of the published order");
        let size = self.half(n) - self.extras[n].is_some() as u64;
        let mut next = (size > 0).then_some((0u64, 0u64));
        std::iter::from_fn(move || {
            let (row, start) = next?;
            let per = self.own.count(n - byte_sum(row) as usize);
            next = p.next_row(row, n).map(|r| (r, start + per));
            Some((row, start))
        })
    }

    /// Is `b` an indexed position?
    pub fn contains(&self, b: Board) -> bool {
        self.rank(b).is_some()
    }

    /// The position of rank `rank` in tier `n` (`rank < size(n)`).
    pub fn unrank(&self, n: usize, rank: u64) -> Board {
        assert!(rank < self.sizes[n], "rank {rank} outside tier {n}");
        let half = self.half(n);
        if rank >= half {
            return self.unrank(n, rank - half).with_north(true);
        }
        if let Some(extra) = self.extras[n] {
            if rank == self.half(n) - 1 {
                return extra;
            }
        }
        if let Some(p) = &self.published {
            let (opp, start) = p.locate(n, rank);
            let a = n - byte_sum(opp) as usize;
            let own = reversed(self.own.unrank(a, rank - start), self.spec.pits);
            return self.board(own, opp);
        }
        let bases = &self.base[n * (self.max + 2)..n * (self.max + 2) + n + 2];
        // The last a whose block starts at or before `rank` (empty blocks share a start).
        let a = bases.partition_point(|&b| b <= rank) - 1;
        let q = rank - bases[a];
        let per = self.opp.count(n - a);
        let own = self.own.unrank(a, q / per);
        let opp = self.opp.unrank(n - a, q % per);
        self.board(own, opp)
    }

    #[inline(always)]
    fn board(&self, own: u64, opp: u64) -> Board {
        Board(own as u128 | (opp as u128) << self.row_bits)
    }

    /// Every position of tier `n` in rank order.
    pub fn walk(&self, n: usize) -> Walk<'_> {
        self.walk_from(n, 0)
    }

    /// The positions of tier `n` from rank `start` on, in rank order.
    pub fn walk_from(&self, n: usize, start: u64) -> Walk<'_> {
        let size = self.half(n);
        let extra = self.extras[n];
        let regular = size - extra.is_some() as u64;
        // A sided tier is walked as two halves: South to move, then North.
        let (flag, start) = if self.spec.sided && start >= size {
            (NORTH, start - size)
        } else {
            (0, start)
        };
        let mut w = Walk {
            flag,
            north_follows: self.spec.sided && flag == 0,
            ix: self,
            n,
            a: 0,
            own: 0,
            opp: 0,
            row_start: 0,
            next_rank: start,
            started: false,
            regular,
            extra,
            size,
        };
        if start < regular {
            w.jump(start);
        }
        w
    }
}

/// An iterator over a tier in rank order that steps to the successor without unranking.
pub struct Walk<'a> {
    ix: &'a Indexer,
    /// [`NORTH`] while walking the North-to-move half of a sided tier, else 0. Ranks below
    /// are within the half.
    flag: u128,
    /// A sided tier's North half is still to come.
    north_follows: bool,
    n: usize,
    /// Seeds on the mover's row.
    a: usize,
    own: u64,
    opp: u64,
    /// The rank of the first position of the current block: the current mover's row
    /// ([`Order::MoverFirst`]) or opponent's row ([`Order::Published`]).
    row_start: u64,
    next_rank: u64,
    /// The current rows were returned already; the next call advances first.
    started: bool,
    regular: u64,
    extra: Option<Board>,
    size: u64,
}

impl Walk<'_> {
    /// Steps to the successor among regular positions: the opponent's row first, then the
    /// mover's row, then the seed split ([`Order::MoverFirst`]); or the mover's row first,
    /// then the opponent's ([`Order::Published`]).
    #[inline]
    fn advance(&mut self) {
        let ix = self.ix;
        if let Some(p) = &ix.published {
            let m = ix.spec.pits;
            if let Some(own) = ix.own.next(reversed(self.own, m)) {
                self.own = reversed(own, m);
                return;
            }
            self.row_start += ix.own.count(self.a);
            self.opp = p
                .next_row(self.opp, self.n)
                .unwrap_or_else(|| panic!("advance past the end of tier {}", self.n));
            self.a = self.n - byte_sum(self.opp) as usize;
            self.own = reversed(ix.own.first(self.a), m);
            return;
        }
        if let Some(opp) = ix.opp.next(self.opp) {
            self.opp = opp;
            return;
        }
        self.row_start += ix.opp.count(self.n - self.a);
        if let Some(own) = ix.own.next(self.own) {
            self.own = own;
            self.opp = ix.opp.first(self.n - self.a);
            return;
        }
        loop {
            self.a += 1;
            assert!(self.a <= self.n, "advance past the end of tier {}", self.n);
            if ix.own.count(self.a) > 0 && ix.opp.count(self.n - self.a) > 0 {
                self.own = ix.own.first(self.a);
                self.opp = ix.opp.first(self.n - self.a);
                return;
            }
        }
    }

    /// The board the walk holds.
    #[inline(always)]
    fn held(&self) -> Board {
        Board(self.ix.board(self.own, self.opp).0 | self.flag)
    }

    /// Moves on to the North half of a sided tier, before its first position.
    fn enter_north_half(&mut self) {
        self.flag = NORTH;
        self.north_follows = false;
        self.next_rank = 0;
        self.started = false;
        if self.regular > 0 {
            self.jump(0);
        }
    }

    /// Puts the walk on regular rank `rank`, which lies past the current block (of `per`
    /// positions): in the published order by stepping over the next few blocks, whose sizes
    /// are known (unranking there walks the opponent's pits seed by seed), else by unranking.
    fn skip_to(&mut self, rank: u64, per: u64) {
        /// Blocks stepped over before unranking instead.
        const BLOCKS: usize = 16;
        let ix = self.ix;
        if let Some(p) = &ix.published {
            let (mut start, mut per, mut opp) = (self.row_start, per, self.opp);
            for _ in 0..BLOCKS {
                start += per;
                opp = match p.next_row(opp, self.n) {
                    Some(row) => row,
                    None => break,
                };
                let a = self.n - byte_sum(opp) as usize;
                per = ix.own.count(a);
                if rank < start + per {
                    self.opp = opp;
                    self.a = a;
                    self.row_start = start;
                    self.own = reversed(ix.own.unrank(a, rank - start), ix.spec.pits);
                    return;
                }
            }
        }
        self.jump(rank);
    }

    /// Puts the walk on regular rank `rank` (unranking).
    fn jump(&mut self, rank: u64) {
        let ix = self.ix;
        let n = self.n;
        if let Some(p) = &ix.published {
            let (opp, start) = p.locate(n, rank);
            self.opp = opp;
            self.a = n - byte_sum(opp) as usize;
            self.own = reversed(ix.own.unrank(self.a, rank - start), ix.spec.pits);
            self.row_start = start;
            return;
        }
        let bases = &ix.base[n * (ix.max + 2)..n * (ix.max + 2) + n + 2];
        self.a = bases.partition_point(|&b| b <= rank) - 1;
        let per = ix.opp.count(n - self.a);
        let q = rank - bases[self.a];
        self.own = ix.own.unrank(self.a, q / per);
        self.opp = ix.opp.unrank(n - self.a, q % per);
        self.row_start = rank - q % per;
    }

    /// The position of rank `rank`, at or after the last one returned (or the start), moving
    /// the walk there: by stepping when it is close, by unranking only the opponent's row when
    /// the mover's row is the same, and by unranking otherwise. The walk goes on from there.
    pub fn seek(&mut self, rank: u64) -> Option<Board> {
        /// Steps cost a few ns each, a row's unrank some 50.
        const STEPS: u64 = 12;
        // Ranks of a sided tier's North half are past the South half.
        let rank = match (self.flag != 0, rank.checked_sub(self.size)) {
            (true, Some(r)) => r,
            (true, None) => return None,
            (false, Some(r)) if self.north_follows => {
                self.enter_north_half();
                r
            }
            (false, _) => rank,
        };
        // The rank of the rows held now.
        let held = self.next_rank - self.started as u64;
        if rank < held || rank >= self.size {
            return None;
        }
        if rank == held && self.started {
            return Some(self.held());
        }
        if rank >= self.regular || rank - held <= STEPS {
            let mut b = self.next();
            while self.next_rank <= rank {
                b = self.next();
            }
            return b;
        }
        // Within the block the walk is in, only the row that varies there is unranked.
        let ix = self.ix;
        let per = match ix.published {
            Some(_) => ix.own.count(self.a),
            None => ix.opp.count(self.n - self.a),
        };
        if rank >= self.row_start + per {
            self.skip_to(rank, per);
        } else if ix.published.is_some() {
            let own = ix.own.unrank(self.a, rank - self.row_start);
            self.own = reversed(own, ix.spec.pits);
        } else {
            self.opp = ix.opp.unrank(self.n - self.a, rank - self.row_start);
        }
        self.started = true;
        self.next_rank = rank + 1;
        Some(self.held())
    }
}

impl Iterator for Walk<'_> {
    type Item = Board;

    #[inline]
    fn next(&mut self) -> Option<Board> {
        let mut r = self.next_rank;
        if r >= self.size {
            if !self.north_follows || self.size == 0 {
                return None;
            }
            self.enter_north_half();
            r = 0;
        }
        self.next_rank += 1;
        if r >= self.regular {
            return self.extra;
        }
        if self.started {
            self.advance();
        }
        self.started = true;
        Some(self.held())
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = (self.size - self.next_rank.min(self.size)) as usize
            + self.north_follows as usize * self.size as usize;
        (left, Some(left))
    }
}
