//! The compiled rules: move generation, sowing and capturing on a packed [`Board`].
//!
//! Every sowing of `k` seeds from pit `o` is precomputed as one `u128` to add, the pit the last
//! seed lands in and the seeds it puts in the store. A move is then a subtract, an add and a
//! capture check, with no loop over seeds. Values follow docs/rules.md, Conventions: the net future
//! gain of the side to move, independent of the stores.

use crate::board::{byte_sum, Board};
use crate::sowing::{self, End, Landing, Spec};
use crate::variant::{CaptureScope, Family, GrandSlam, Starving, Variant};
use std::mem::MaybeUninit;

/// Runs `$body` with `$M` a constant equal to the board width `$m` (1..=8), so hot code (move
/// generation here, ranking in the index) is compiled once per width, with immediate shifts
/// and masks.
#[macro_export]
macro_rules! by_width {
    ($m:expr, $M:ident => $body:expr) => {
        match $m {
            1 => {
                const $M: usize = 1;
                $body
            }
            2 => {
                const $M: usize = 2;
                $body
            }
            3 => {
                const $M: usize = 3;
                $body
            }
            4 => {
                const $M: usize = 4;
                $body
            }
            5 => {
                const $M: usize = 5;
                $body
            }
            6 => {
                const $M: usize = 6;
                $body
            }
            7 => {
                const $M: usize = 7;
                $body
            }
            _ => {
                const $M: usize = 8;
                $body
            }
        }
    };
}

/// [`Board::flip`] for a board of width `M`.
#[inline(always)]
fn flip<const M: usize>(b: Board) -> Board {
    let row = (1u128 << (8 * M)) - 1;
    Board(b.0 >> (8 * M) | (b.0 & row) << (8 * M))
}

/// The last seed of a sowing went into the mover's store (Kalah type).
pub const STORE: u8 = 0xff;

/// The pit that names a pass: the only move of a player without seeds in the games where he
/// passes (mankala-2p, nam-nam, congkak with `pass-when-empty`). Pit 0 is empty then.
pub const PASS: u8 = 0;

/// The bits of pit `i` in a board.
const PIT: [u128; 16] = {
    let mut t = [0u128; 16];
    let mut i = 0;
    while i < 16 {
        t[i] = 0xff << (8 * i);
        i += 1;
    }
    t
};

/// Who moves after a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Next {
    /// The turn passes; the child is in the opponent's layout (rows swapped).
    Opponent,
    /// The mover moves again (Kalah's store, GS6); the child keeps the mover's layout.
    Mover,
    /// The game is over; every seed left was banked and the child board is empty.
    Over,
}

/// What one pit's move does in a position ([`Rules::move_at`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveAt {
    /// The move is legal: its result.
    Move(Child),
    /// The pit is empty, or the rules forbid its move here.
    NotLegal,
    /// The game is over in this position: each side's share of the seeds left.
    GameOver {
        /// Seeds the player to move banks.
        mover: u8,
        /// Seeds his opponent banks.
        opp: u8,
    },
}

/// The result of one legal move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Child {
    /// The mover's pit index, `0..m`.
    pub pit: u8,
    /// The position after the move, in the layout of whoever moves next.
    pub board: Board,
    /// Seeds the mover banks with this move.
    pub gain: u8,
    /// Seeds the opponent banks with this move (end-of-game sweeps only).
    pub opp_gain: u8,
    /// Who moves after it, which decides how its value combines with the child's.
    pub next: Next,
}

impl Child {
    /// The move's value for the mover, given the value of the child position for whoever
    /// moves there (ignored when the game is over).
    #[inline(always)]
    pub fn value(&self, child_value: i32) -> i32 {
        let g = self.gain as i32 - self.opp_gain as i32;
        match self.next {
            Next::Opponent => g - child_value,
            Next::Mover => g + child_value,
            Next::Over => g,
        }
    }

    /// Is this a quiet move: nothing banked by either side and the turn passes? Only quiet
    /// moves stay inside their tier (every other move banks seeds or ends the game), so they
    /// are the moves a tier solver follows inside the tier, and the ones un-sowing inverts.
    #[inline(always)]
    pub fn is_quiet(&self) -> bool {
        self.next == Next::Opponent && self.gain == 0 && self.opp_gain == 0
    }

    /// Does this move leave the opponent without seeds?
    fn starves(&self, m: usize) -> bool {
        match self.next {
            Next::Opponent => self.board.own(m) == 0,
            Next::Mover => self.board.opp(m) == 0,
            Next::Over => true,
        }
    }
}

/// Moves a position can have: a pit a move, and in a later nam-nam round the mover may own
/// pits of both rows.
pub const MAX_MOVES: usize = 16;

/// The legal moves of a position, in increasing pit order.
#[derive(Clone, Copy)]
pub struct Children {
    /// The first `len` are the moves; the rest are never read, and left uninitialised: a
    /// search makes a list at every node, and filling its 512 bytes there (then copying them
    /// into place) was 4% of a Kalah proof's samples; leaving them saved 1 to 3% of the time.
    items: [MaybeUninit<Child>; MAX_MOVES],
    len: u8,
}

impl Children {
    /// An empty list, filled by move generation. Only `len` is written: built as a struct
    /// literal, the list's uninitialised items and its zero length were merged by the
    /// compiler into one 513-byte `memset` at every search node (4 to 5% of a Kalah 6x6
    /// proof's samples).
    #[inline(always)]
    pub fn new() -> Self {
        let mut list = MaybeUninit::<Children>::uninit();
        // SAFETY: `items` are `MaybeUninit` and need no value; `len`, the only other field,
        // is written before the list is taken as initialised.
        unsafe {
            std::ptr::addr_of_mut!((*list.as_mut_ptr()).len).write(0);
            list.assume_init()
        }
    }

    #[inline(always)]
    fn clear(&mut self) {
        self.len = 0;
    }

    #[inline(always)]
    fn push(&mut self, c: Child) {
        self.items[self.len as usize] = MaybeUninit::new(c);
        self.len += 1;
    }

    /// The moves as a slice.
    #[inline(always)]
    pub fn as_slice(&self) -> &[Child] {
        let moves = &self.items[..self.len as usize];
        // SAFETY: `push` and `retain` write a slot before `len` covers it, so the first `len`
        // items are initialised; `MaybeUninit<Child>` has the layout of `Child`.
        unsafe { &*(moves as *const [MaybeUninit<Child>] as *const [Child]) }
    }

    /// How many legal moves there are.
    pub fn len(&self) -> usize {
        self.len as usize
    }

    /// No legal move at all?
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The moves in increasing pit order.
    pub fn iter(&self) -> std::slice::Iter<'_, Child> {
        self.as_slice().iter()
    }

    /// Bit `i` is set when pit `i` is a legal move.
    pub fn mask(&self) -> u8 {
        self.iter().fold(0, |m, c| m | 1 << c.pit)
    }

    fn retain(&mut self, keep: impl Fn(&Child) -> bool) {
        let mut n = 0;
        for i in 0..self.len as usize {
            let c = self.as_slice()[i];
            if keep(&c) {
                self.items[n] = MaybeUninit::new(c);
                n += 1;
            }
        }
        self.len = n as u8;
    }
}

impl std::fmt::Debug for Children {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

impl Default for Children {
    fn default() -> Self {
        Children::new()
    }
}

impl<'a> IntoIterator for &'a Children {
    type Item = &'a Child;
    type IntoIter = std::slice::Iter<'a, Child>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

/// A position is either over before any move, or has legal moves.
// The move list lives inline: boxing it would put an allocation on the hottest path.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Copy, Debug)]
pub enum Node {
    /// No move can be made; each side takes the given seeds from the pits.
    Terminal {
        /// Seeds the side to move takes.
        mover: u8,
        /// Seeds the opponent takes.
        opp: u8,
    },
    /// At least one legal move; the game goes on.
    Moves(Children),
}

impl Node {
    /// The value of a terminal position (mover's seeds minus the opponent's).
    pub fn terminal_value(&self) -> Option<i32> {
        match *self {
            Node::Terminal { mover, opp } => Some(mover as i32 - opp as i32),
            Node::Moves(_) => None,
        }
    }
}

/// One precomputed sowing: what `k` seeds from pit `o` add to the board.
#[derive(Clone, Copy, Debug, Default)]
struct Sowing {
    add: u128,
    last: u8,
    stored: u8,
}

/// Rules compiled for fast play on packed boards.
#[derive(Clone, Debug)]
pub struct Rules {
    variant: Variant,
    m: usize,
    max_seeds: usize,
    /// `sowings[o * (max_seeds + 1) + k]`.
    sowings: Vec<Sowing>,
    /// The sowing path from each origin, one full cycle (pits, or [`STORE`]).
    paths: Vec<Vec<u8>>,
    /// One row's bits (`8 * m`) and their mask: passing the turn swaps the rows.
    row_bits: u32,
    row_mask: u128,
    /// The sowing family's rules (sown seed by seed, no precomputed sowings).
    spec: Option<Spec>,
    /// The pits the mover owns, mover-relative: `[South to move, North to move]`. His own
    /// row both times except in later nam-nam rounds.
    mine: [u16; 2],
    /// [`Variant::sided`], kept at hand for the move loop.
    sided: bool,
}

impl Rules {
    /// Compiles `variant`: its sowing paths and, for the single-lap families, every sowing of
    /// `k` seeds from each pit, so that a move needs no loop over seeds.
    pub fn new(variant: Variant) -> Rules {
        let m = variant.pits as usize;
        let max_seeds = variant.total_seeds() as usize;
        let spec = (variant.family() == Family::Sowing).then(|| Spec::new(&variant));
        let stores_sown = match spec {
            Some(s) => s.store,
            None => variant.family() == Family::Kalah,
        };
        let paths: Vec<Vec<u8>> = (0..m)
            .map(|o| sowing_path(variant.family(), m, o, stores_sown))
            .collect();
        let mut sowings = Vec::new();
        // The sowing family sows seed by seed: no table of sowings.
        if spec.is_none() {
            sowings = vec![Sowing::default(); m * (max_seeds + 1)];
        }
        for (o, path) in paths.iter().enumerate().filter(|_| spec.is_none()) {
            let mut s = Sowing::default();
            for k in 1..=max_seeds {
                let pos = path[(k - 1) % path.len()];
                if pos == STORE {
                    s.stored += 1;
                } else {
                    s.add += 1u128 << (8 * pos as usize);
                }
                s.last = pos;
                sowings[o * (max_seeds + 1) + k] = s;
            }
        }
        // North's pits, seen from North: the rows of the complement swap.
        let full = (1u32 << (2 * m)) - 1;
        let theirs = !(variant.owners as u32) & full;
        let mine = [variant.owners, ((theirs >> m | theirs << m) & full) as u16];
        Rules {
            variant,
            m,
            max_seeds,
            sowings,
            paths,
            row_bits: 8 * m as u32,
            row_mask: (1u128 << (8 * m)) - 1,
            spec,
            mine,
            sided: variant.sided(),
        }
    }

    /// The rule set these tables were compiled from.
    pub fn variant(&self) -> &Variant {
        &self.variant
    }

    /// Pits per side.
    pub fn pits(&self) -> usize {
        self.m
    }

    /// Seeds in the game at the start: the largest tier.
    pub fn max_seeds(&self) -> usize {
        self.max_seeds
    }

    /// Does a position say whose turn it is ([`crate::NORTH`])? Only when the players own
    /// different pits (see [`Variant::sided`]).
    pub fn sided(&self) -> bool {
        self.sided
    }

    /// Moves are named by pit indices below this: the mover's row, or both rows where a
    /// player may own pits in the other row (nam-nam rounds after the first).
    pub fn move_limit(&self) -> usize {
        if self.sided() {
            2 * self.m
        } else {
            self.m
        }
    }

    /// Does the player to move have to pass (no move of his can be sown, and the rules let
    /// him pass)?
    pub fn must_pass(&self, b: Board) -> bool {
        let Some(spec) = self.spec.as_ref().filter(|s| s.end == End::Pass) else {
            return false;
        };
        let mut kids = Children::new();
        self.sowing_moves(spec, b.pits_only(), b.north(), &mut kids);
        kids.is_empty() && b.total() > 0
    }

    /// Seeds in the pits the player to move owns and in his opponent's.
    pub fn shares(&self, b: Board) -> (u32, u32) {
        let mine = self.owned(b.pits_only(), b.north());
        (mine, b.total() - mine)
    }

    /// Seeds in the pits of `pits` that the player to move (North if `north`) owns.
    fn owned(&self, pits: Board, north: bool) -> u32 {
        let mine = self.mine[north as usize];
        let bytes = pits.0.to_le_bytes();
        (0..2 * self.m)
            .filter(|&i| mine >> i & 1 == 1)
            .map(|i| bytes[i] as u32)
            .sum()
    }

    /// The start position (South to move).
    pub fn start(&self) -> Board {
        Board::from_pits(&vec![self.variant.seeds; 2 * self.m])
    }

    /// The pits one seed after another visits when sown from `origin`: one full cycle.
    pub fn path(&self, origin: usize) -> &[u8] {
        &self.paths[origin]
    }

    /// The position's legal moves with their results, or how the game ends here.
    #[inline]
    pub fn node(&self, b: Board) -> Node {
        let mut kids = Children::new();
        match self.moves_into(b, &mut kids) {
            Some((mover, opp)) => Node::Terminal { mover, opp },
            None => Node::Moves(kids),
        }
    }

    /// [`Rules::node`] for hot loops: fills `kids` with the legal moves in place (a move list
    /// is a few hundred bytes, worth not copying), or returns `Some((mover, opp))`, each
    /// side's share of the seeds left, when the game is over here.
    #[inline]
    pub fn moves_into(&self, b: Board, kids: &mut Children) -> Option<(u8, u8)> {
        kids.clear();
        match self.variant.family() {
            Family::Awari => by_width!(self.m, M => self.awari_node::<M>(b, kids)),
            Family::Kalah => by_width!(self.m, M => self.kalah_node::<M>(b, kids)),
            Family::Sowing => self.sowing_node(b, kids),
        }
    }

    /// The move from pit `pit` of `b` alone, for Awari-type rules ([`Rules::sows_own_row_alone`]):
    /// what [`Rules::moves_into`] would list for that pit, without generating the others
    /// unless the move starves the opponent (only then does its legality depend on them).
    #[inline]
    pub fn move_at(&self, b: Board, pit: usize) -> MoveAt {
        assert_eq!(self.variant.family(), Family::Awari, "Awari-type rules");
        let m = self.m;
        let quick = (pit < m && b.get(pit) > 0)
            .then(|| by_width!(m, M => self.awari_move::<M>(b, pit)))
            .flatten();
        if let Some(c) = quick.filter(|c| !c.starves(m)) {
            return MoveAt::Move(c);
        }
        let mut kids = Children::new();
        match self.moves_into(b, &mut kids) {
            Some((mover, opp)) => MoveAt::GameOver { mover, opp },
            None => match kids.iter().find(|c| c.pit as usize == pit) {
                Some(c) => MoveAt::Move(*c),
                None => MoveAt::NotLegal,
            },
        }
    }

    /// Is the mover's row after a move a function of his row and the pit alone (so every
    /// position sharing the mover's row sends a move from one pit to children sharing the
    /// opponent's row)? True of the Awari type, where sowing skips the origin and captures
    /// take only from the opponent's row; a grand slam that lets the mover move again keeps
    /// the layout, and its child is the exception ([`Next::Mover`]).
    pub fn sows_own_row_alone(&self) -> bool {
        self.variant.family() == Family::Awari
    }

    /// The mover's row (the low `m` pits) after sowing pit `pit` of `row`, whatever the
    /// opponent's row ([`Rules::sows_own_row_alone`]).
    #[inline]
    pub fn row_after_sowing(&self, row: u64, pit: usize) -> u64 {
        debug_assert!(self.sows_own_row_alone());
        let (b, _, _) = self.sow(Board(row as u128), pit);
        (b.0 & self.row_mask) as u64
    }

    /// Can [`Rules::predecessors`] un-sow this rule set's quiet moves? Not the sowing family
    /// (relay moves cannot be un-sown one by one): its builder inverts the forward moves.
    pub fn can_unsow(&self) -> bool {
        self.spec.is_none()
    }

    /// Which rows of a sowing-family position always hold seeds once a move has been made:
    /// `(mover's, opponent's)`. A row running empty ends some games; those positions are never
    /// reached and are not indexed.
    pub fn rows_never_empty(&self) -> (bool, bool) {
        let ends = self.spec.is_some_and(|s| s.empty_row_ends());
        (ends, ends)
    }

    /// The sowing family's moves: each sown seed by seed (see `crate::sowing`).
    fn sowing_node(&self, b: Board, kids: &mut Children) -> Option<(u8, u8)> {
        let spec = self.spec.as_ref().expect("sowing-family rules");
        let m = self.m;
        let north = b.north();
        let b = b.pits_only();
        let own = byte_sum(b.own(m));
        let opp = byte_sum(b.opp(m));
        // In a later nam-nam round a player's pits are not his row.
        let owned = if self.sided() {
            self.owned(b, north)
        } else {
            own
        };
        // What each side takes when the player to move has no move.
        let stuck = match spec.end {
            End::OpponentTakesRest => (0, (own + opp) as u8),
            End::NobodyTakesRest | End::FirstEmptyEnds => (0, 0),
            End::EmptyRowSweep | End::Pass => (owned as u8, (own + opp - owned) as u8),
        };
        if (own == 0 || opp == 0) && spec.empty_row_ends() || own + opp == 0 {
            return Some(stuck);
        }
        if owned != 0 {
            self.sowing_moves(spec, b, north, kids);
        }
        if spec.must_feed && opp == 0 && owned != 0 {
            // Feed the empty opponent if any move does (one that gives another move too); if
            // none does, each banks his own.
            kids.retain(|c| match c.next {
                Next::Opponent => c.board.own(m) != 0,
                Next::Mover => c.board.opp(m) != 0,
                Next::Over => false,
            });
            if kids.is_empty() {
                return Some((own as u8, 0));
            }
        }
        if kids.is_empty() {
            // Where neither player can move, the game is over.
            if spec.end != End::Pass || self.must_pass(self.pass_turn(b, north)) {
                return Some(stuck);
            }
            // A player with no move (no seeds, or only endless relays) passes. The pass is
            // named by pit 0: the turn goes over, the seeds stay. Keeping it a move of its
            // own (rather than letting the previous mover go on) means every move that stays
            // in a tier passes the turn.
            kids.push(Child {
                pit: PASS,
                board: self.pass_turn(b, north),
                gain: 0,
                opp_gain: 0,
                next: Next::Opponent,
            });
        }
        None
    }

    /// The moves that can be sown from `b` (its pits only; `north` says who moves in a
    /// sided game): every owned non-empty pit whose sowing ends.
    fn sowing_moves(&self, spec: &Spec, b: Board, north: bool, kids: &mut Children) {
        let m = self.m;
        let mine = self.mine[north as usize];
        let start = b.0.to_le_bytes();
        let single_only = spec.single_seed_rule && start[..m].iter().all(|&x| x < 2);
        for o in 0..self.move_limit() {
            if start[o] == 0
                || mine >> o & 1 == 0
                || (spec.single_seed_rule && start[o] == 1 && !single_only)
            {
                continue;
            }
            let mut pits = start;
            let Some(out) = sowing::sow(spec, &mut pits, m, mine, o) else {
                continue;
            };
            let nb = Board(u128::from_le_bytes(pits));
            kids.push(self.sowing_child(spec, o, nb, north, out));
        }
    }

    /// The child of one sowing-family move, after the end-of-move rules.
    fn sowing_child(
        &self,
        spec: &Spec,
        o: usize,
        nb: Board,
        north: bool,
        out: sowing::Outcome,
    ) -> Child {
        let m = self.m;
        let mut c = Child {
            pit: o as u8,
            board: nb,
            gain: out.gain as u8,
            opp_gain: out.opp_gain as u8,
            next: if out.landing == Landing::Store && spec.extra_turn {
                Next::Mover
            } else {
                Next::Opponent
            },
        };
        let own = byte_sum(nb.own(m));
        let opp = byte_sum(nb.opp(m));
        let over = out.landing == Landing::RoundOver
            || own + opp == 0
            || (own == 0 || opp == 0) && spec.empty_row_ends();
        if over {
            if spec.end == End::EmptyRowSweep {
                c.gain += own as u8;
                c.opp_gain += opp as u8;
            }
            c.board = Board::EMPTY;
            c.next = Next::Over;
            return c;
        }
        c.board = match c.next {
            Next::Opponent => self.pass_turn(nb, north),
            _ => nb.with_north(north && self.sided()),
        };
        c
    }

    /// The board seen by the other player, who is North if `north` was not (sided games).
    #[inline(always)]
    fn pass_turn(&self, b: Board, north: bool) -> Board {
        self.flip(b).with_north(!north && self.sided())
    }

    /// Sows the seeds of own pit `o` (which must be non-empty); returns the new board and the
    /// pit (or [`STORE`]) the last seed landed in, plus seeds stored.
    #[inline(always)]
    fn sow(&self, b: Board, o: usize) -> (Board, u8, u8) {
        let k = b.get(o) as usize;
        let s = self.sowings[o * (self.max_seeds + 1) + k];
        // The origin is one of the mover's pits, in the low word.
        let v = b.0 - ((k as u64) << (8 * o)) as u128 + s.add;
        (Board(v), s.last, s.stored)
    }

    /// [`Board::flip`] with the shift and mask of this board size precomputed.
    #[inline(always)]
    fn flip(&self, b: Board) -> Board {
        Board(b.0 >> self.row_bits | (b.0 & self.row_mask) << self.row_bits)
    }

    #[inline(always)]
    fn awari_node<const M: usize>(&self, b: Board, kids: &mut Children) -> Option<(u8, u8)> {
        let m = M;
        let own = b.own(m);
        if own == 0 {
            return Some((0, b.total() as u8));
        }
        let opp_empty = b.opp(m) == 0;
        let mut starving = 0u32;
        let mut pits = !b.empty_pits(m) & ((1 << m) - 1);
        while pits != 0 {
            let o = pits.trailing_zeros() as usize;
            pits &= pits - 1;
            if let Some(c) = self.awari_move::<M>(b, o) {
                starving |= (c.starves(m) as u32) << kids.len();
                kids.push(c);
            }
        }
        if starving != 0 {
            let all = (1u32 << kids.len()) - 1;
            let drop = match self.variant.starving {
                Starving::IllegalUnlessForced => starving != all,
                Starving::MustFeed => opp_empty,
            };
            if drop {
                kids.retain(|c| !c.starves(m));
            }
        }
        if kids.is_empty() {
            // Must-feed with no move that feeds: the mover takes his own row.
            return Some((b.total() as u8, 0));
        }
        None
    }

    /// One Awari-type move, or `None` if it is a forbidden grand slam (GS1).
    #[inline(always)]
    fn awari_move<const M: usize>(&self, b: Board, o: usize) -> Option<Child> {
        let m = M;
        let (mut nb, last, _) = self.sow(b, o);
        let last = last as usize;
        let mut child = Child {
            pit: o as u8,
            board: nb,
            gain: 0,
            opp_gain: 0,
            next: Next::Opponent,
        };
        let lv = nb.get(last);
        if last >= m && (lv == 2 || lv == 3) {
            let (mut mask, mut cap) = self.capture_set::<M>(nb, last);
            let grand_slam = byte_sum(nb.opp(m)) == cap;
            if grand_slam {
                match self.variant.grand_slam {
                    GrandSlam::Capture => {}
                    GrandSlam::Forbidden => return None,
                    GrandSlam::NoCapture => mask = 0,
                    GrandSlam::TakeAll => {
                        child.gain = nb.total() as u8;
                        child.board = Board::EMPTY;
                        child.next = Next::Over;
                        return Some(child);
                    }
                    GrandSlam::VictimTakesRest => {
                        child.gain = cap as u8;
                        child.opp_gain = (nb.total() - cap) as u8;
                        child.board = Board::EMPTY;
                        child.next = Next::Over;
                        return Some(child);
                    }
                    GrandSlam::SpareLast | GrandSlam::SpareFirst => {
                        let spared = if self.variant.grand_slam == GrandSlam::SpareLast {
                            2 * m - 1
                        } else {
                            m
                        };
                        mask &= !(0xffu128 << (8 * spared));
                    }
                    GrandSlam::ExtraMove => child.next = Next::Mover,
                }
                cap = Board(nb.0 & mask).total();
            }
            nb.0 &= !mask;
            child.gain = cap as u8;
        }
        child.board = if child.next == Next::Opponent {
            flip::<M>(nb)
        } else {
            nb
        };
        Some(child)
    }

    /// The pits (as a byte mask) and seeds a capture ending in opponent pit `last` takes.
    #[inline(always)]
    fn capture_set<const M: usize>(&self, nb: Board, last: usize) -> (u128, u32) {
        let m = M;
        let mut mask = 0u128;
        let mut cap = 0u32;
        match self.variant.capture_scope {
            CaptureScope::Contiguous => {
                let mut i = last;
                loop {
                    let v = nb.get(i);
                    if v != 2 && v != 3 {
                        break;
                    }
                    mask |= 0xffu128 << (8 * i);
                    cap += v as u32;
                    if i == m {
                        break;
                    }
                    i -= 1;
                }
            }
            CaptureScope::AllOpponentPits => {
                for i in m..2 * m {
                    let v = nb.get(i);
                    if v == 2 || v == 3 {
                        mask |= 0xffu128 << (8 * i);
                        cap += v as u32;
                    }
                }
            }
        }
        (mask, cap)
    }

    #[inline(always)]
    fn kalah_node<const M: usize>(&self, b: Board, kids: &mut Children) -> Option<(u8, u8)> {
        let m = M;
        let own = b.own(M);
        let opp = b.opp(M);
        if own == 0 || opp == 0 {
            return Some((byte_sum(own) as u8, byte_sum(opp) as u8));
        }
        let mut pits = !b.empty_pits(m) & ((1 << m) - 1);
        while pits != 0 {
            let o = pits.trailing_zeros() as usize;
            pits &= pits - 1;
            kids.push(self.kalah_move::<M>(b, o));
        }
        None
    }

    #[inline(always)]
    fn kalah_move<const M: usize>(&self, b: Board, o: usize) -> Child {
        let m = M;
        let (mut nb, last, stored) = self.sow(b, o);
        let mut gain = stored as u32;
        let mut next = Next::Opponent;
        if last == STORE {
            next = Next::Mover;
        } else {
            let last = last as usize;
            if last < m && nb.get(last) == 1 {
                let across = 2 * m - 1 - last;
                let a = nb.get(across);
                if a > 0 {
                    gain += 1 + a as u32;
                    nb.0 &= !(PIT[last] | PIT[across]);
                } else if self.variant.empty_capture {
                    gain += 1;
                    nb.0 &= !PIT[last];
                }
            }
        }
        let own = nb.own(M);
        let opp = nb.opp(M);
        if own == 0 || opp == 0 {
            return Child {
                pit: o as u8,
                board: Board::EMPTY,
                gain: (gain + byte_sum(own)) as u8,
                opp_gain: byte_sum(opp) as u8,
                next: Next::Over,
            };
        }
        Child {
            pit: o as u8,
            board: if next == Next::Opponent {
                flip::<M>(nb)
            } else {
                nb
            },
            gain: gain as u8,
            opp_gain: 0,
            next,
        }
    }

    /// The in-tier predecessors of `p`: every position `q` (in its own mover's layout) with a
    /// legal move that captures and stores nothing and passes the turn into exactly `p`.
    /// Positions outside the tier index are included; the caller filters them.
    ///
    /// Un-sowing `k` seeds into origin `o` takes one seed back from each pit the sowing reached,
    /// which is possible exactly while those pits all hold seeds: the run of non-empty pits
    /// along the sowing path bounds `k`, and the precomputed sowing gives the candidate in one
    /// subtraction. A candidate whose last seed could have captured is confirmed by sowing it
    /// forward.
    pub fn predecessors(&self, p: Board, out: &mut Vec<Board>) {
        out.clear();
        if !self.can_unsow() {
            return;
        }
        let m = self.m;
        // The board right after the move, before the turn passed: the previous mover's layout.
        let after = self.flip(p);
        // The move fed (or did not starve) the side now to move: legal under every rule set.
        let fed = p.own(m) != 0;
        let family = self.variant.family();
        let bytes = after.0.to_le_bytes();
        let empty = after.empty_pits(2 * m);
        let stride = self.max_seeds + 1;
        for o in 0..m {
            if empty & (1 << o) == 0 {
                continue;
            }
            // Pits along the path before the first empty one (the first lap at most).
            let run = match family {
                // The path visits o+1, .., 2m-1, 0, .., o-1: the empty mask rotated.
                Family::Awari => {
                    let len = 2 * m - 1;
                    let rotated = (empty >> (o + 1)) | (empty << (len - o));
                    ((rotated | 1 << len).trailing_zeros() as usize).min(len)
                }
                // A quiet sowing stops before the store: own pits o+1..m-1 only.
                Family::Kalah => {
                    let len = m - 1 - o;
                    ((empty >> (o + 1) | 1 << len).trailing_zeros() as usize).min(len)
                }
                Family::Sowing => unreachable!("the sowing family is not un-sown"),
            };
            let sowings = &self.sowings[o * stride..(o + 1) * stride];
            for (k, s) in sowings.iter().enumerate().take(run + 1).skip(1) {
                let cand = Board(after.0 - s.add + ((k as u128) << (8 * o)));
                let last = bytes[s.last as usize];
                // The last seed clearly captured nothing: `cand` sows into `after` exactly.
                let surely_quiet = match family {
                    Family::Awari => (s.last as usize) < m || (last != 2 && last != 3),
                    Family::Kalah => last != 1,
                    Family::Sowing => unreachable!("the sowing family is not un-sown"),
                };
                if (surely_quiet && fed) || self.quietly_reaches(cand, o, p, fed) {
                    out.push(cand);
                }
            }
            if family == Family::Awari && run == 2 * m - 1 {
                self.lapped_predecessors(p, after, o, fed, out);
            }
        }
    }

    /// Awari-type predecessors that sowed more than one lap from origin `o` (every other pit
    /// of `after` holds seeds): taken back seed by seed, each confirmed by sowing forward.
    fn lapped_predecessors(
        &self,
        p: Board,
        after: Board,
        o: usize,
        fed: bool,
        out: &mut Vec<Board>,
    ) {
        let path = &self.paths[o];
        let lap = path.len();
        let mut q = Board(after.0 - self.sowings[o * (self.max_seeds + 1) + lap].add);
        for k in lap + 1..=self.max_seeds {
            let pos = path[(k - 1) % lap] as usize;
            if q.get(pos) == 0 {
                break;
            }
            q.0 -= 1u128 << (8 * pos);
            let cand = Board(q.0 | (k as u128) << (8 * o));
            if self.quietly_reaches(cand, o, p, fed) {
                out.push(cand);
            }
        }
    }

    /// Is pit `o` a legal move of `q` that banks nothing and passes the turn into `p`?
    #[inline]
    fn quietly_reaches(&self, q: Board, o: usize, p: Board, fed: bool) -> bool {
        let c = match self.variant.family() {
            Family::Awari => match by_width!(self.m, M => self.awari_move::<M>(q, o)) {
                Some(c) => c,
                None => return false,
            },
            Family::Kalah => by_width!(self.m, M => self.kalah_move::<M>(q, o)),
            Family::Sowing => return false,
        };
        if !c.is_quiet() || c.board != p {
            return false;
        }
        // A move that leaves the opponent without seeds is legal only in some positions.
        fed || match self.node(q) {
            Node::Terminal { .. } => false,
            Node::Moves(kids) => kids.iter().any(|k| k.pit as usize == o),
        }
    }
}

/// The cycle of pits a sowing from `origin` visits (through the own store if `store`).
fn sowing_path(family: Family, m: usize, origin: usize, store: bool) -> Vec<u8> {
    match family {
        // All pits but the origin, which is skipped on laps.
        Family::Awari => (1..2 * m).map(|d| ((origin + d) % (2 * m)) as u8).collect(),
        // Own pits after the origin, the own store (Kalah; some of the sowing family), the
        // opponent's pits, own pits up to the origin (no skip).
        Family::Kalah | Family::Sowing => {
            let mut p: Vec<u8> = (origin + 1..m).map(|i| i as u8).collect();
            if store {
                p.push(STORE);
            }
            p.extend((m..2 * m).map(|i| i as u8));
            p.extend((0..=origin).map(|i| i as u8));
            p
        }
    }
}

impl Rules {
    /// Does every quiet move (nothing banked, the turn passes) raise the potential of
    /// [`Rules::row_potential`]? Then no tier has a cycle, and a tier can be solved in one
    /// pass in decreasing order of potential. True for the Kalah type: a quiet sowing stays in
    /// the mover's row and carries every seed it lifts toward the store. Awari-type sowings go
    /// round the board, so their tiers have cycles.
    pub fn quiet_moves_raise_potential(&self) -> bool {
        self.variant.family() == Family::Kalah
    }

    /// The potential of one row (a word, one byte per pit, in the owner's sowing order):
    /// each seed weighs its pit's place, 1..=m. A position's potential is the sum over both
    /// rows, so passing the turn does not change it.
    #[inline]
    pub fn row_potential(&self, row: u64) -> u32 {
        (0..self.m)
            .map(|i| (i as u32 + 1) * ((row >> (8 * i)) & 0xff) as u32)
            .sum()
    }

    /// Move sequences of exactly `depth` plies from `b` (each move is a ply, extra moves too).
    /// A move that ends the game counts only as the last ply; a finished position counts 0.
    pub fn perft(&self, b: Board, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        match self.node(b) {
            Node::Terminal { .. } => 0,
            Node::Moves(kids) if depth == 1 => kids.len() as u64,
            Node::Moves(kids) => kids
                .iter()
                .filter(|c| c.next != Next::Over)
                .map(|c| self.perft(c.board, depth - 1))
                .sum(),
        }
    }
}
