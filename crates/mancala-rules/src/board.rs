//! The packed board: every pit of a two-row game in one `u128`.
//!
//! Byte `i` holds pit `i` in mover-relative order: bytes `0..m` are the side to move's pits in
//! its own sowing order, bytes `m..2m` the opponent's. With at most 8 pits a side and at most
//! 127 seeds in a game, a byte never overflows, so a whole sowing is one masked add: there is
//! no carry between pits. Passing the turn is a rotation by `m` bytes.

/// Seeds in every pit of a two-row board, one byte per pit, mover-relative.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Board(pub u128);

/// `0x0101..01` over `n` bytes: adding `k * ONES(n)` adds `k` seeds to each of `n` pits.
pub const fn ones(n: usize) -> u128 {
    if n == 0 {
        0
    } else {
        (u128::MAX / 0xff) >> (8 * (16 - n))
    }
}

/// A mask of the low `n` bytes.
pub const fn low_bytes(n: usize) -> u128 {
    if n >= 16 {
        u128::MAX
    } else {
        (1u128 << (8 * n)) - 1
    }
}

/// Bit 127: North is to move (only in games whose players own different pits).
pub const NORTH: u128 = 1 << 127;

impl Board {
    /// Every pit empty and North's flag clear: the board of a game played to exhaustion.
    pub const EMPTY: Board = Board(0);

    /// Is North's flag set (see [`NORTH`])?
    #[inline(always)]
    pub fn north(self) -> bool {
        self.0 & NORTH != 0
    }

    /// The pits alone, without North's flag.
    #[inline(always)]
    pub fn pits_only(self) -> Board {
        Board(self.0 & !NORTH)
    }

    /// The board with North's flag set to `north`.
    #[inline(always)]
    pub fn with_north(self, north: bool) -> Board {
        Board(self.0 & !NORTH | (north as u128) << 127)
    }

    /// Builds a board from pit counts in mover-relative order.
    pub fn from_pits(pits: &[u8]) -> Board {
        debug_assert!(pits.len() <= 16);
        let mut v = 0u128;
        for (i, &p) in pits.iter().enumerate() {
            v |= (p as u128) << (8 * i);
        }
        Board(v)
    }

    /// The counts of the first `n` pits.
    pub fn pits(self, n: usize) -> Vec<u8> {
        (0..n).map(|i| self.get(i)).collect()
    }

    /// The seeds in pit `i` (mover-relative, `0..16`). A pit holds at most 127 seeds, so
    /// the top bit of its byte is never a seed (on 16 pits, pit 15's is North's flag).
    #[inline(always)]
    pub fn get(self, i: usize) -> u8 {
        // A byte load from the spilled word is cheaper than a variable 128-bit shift.
        self.0.to_le_bytes()[i] & 0x7f
    }

    /// Puts `v` (at most 127) seeds into pit `i`, leaving the other pits and North's flag as
    /// they are.
    #[inline(always)]
    pub fn set(&mut self, i: usize, v: u8) {
        debug_assert!(v < 0x80);
        self.0 = (self.0 & !(0x7fu128 << (8 * i))) | ((v as u128) << (8 * i));
    }

    /// The side to move's `m` pits as a word (byte `i` = pit `i`).
    #[inline(always)]
    pub fn own(self, m: usize) -> u64 {
        (self.0 & low_bytes(m)) as u64
    }

    /// The opponent's `m` pits as a word (byte `i` = opponent pit `m + i`; North's flag,
    /// which shares the last byte of 8-pit rows, left out).
    #[inline(always)]
    pub fn opp(self, m: usize) -> u64 {
        (((self.0 & !NORTH) >> (8 * m)) & low_bytes(m)) as u64
    }

    /// The two rows swapped (North's flag, if any, stays as it is).
    #[inline(always)]
    pub fn flip(self, m: usize) -> Board {
        let flag = self.0 & NORTH;
        let pits = self.0 ^ flag;
        let low = pits & low_bytes(m);
        let high = pits >> (8 * m);
        Board(high | (low << (8 * m)) | flag)
    }

    /// Seeds in all pits.
    #[inline(always)]
    pub fn total(self) -> u32 {
        byte_sum(self.0 as u64) + byte_sum((self.0 >> 64) as u64 & (u64::MAX >> 1))
    }

    /// Bit `i` is set when pit `i` (of the first `n`) is empty.
    #[inline(always)]
    pub fn empty_pits(self, n: usize) -> u32 {
        let pits = self.0 & !NORTH;
        let all = zero_bytes(pits as u64) | zero_bytes((pits >> 64) as u64) << 8;
        all & ((1u32 << n) - 1)
    }
}

/// Bit `i` is set when byte `i` of `x` is zero.
#[inline(always)]
fn zero_bytes(x: u64) -> u32 {
    const LOW7: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    // The high bit of each byte is set exactly when the byte is zero: adding 0x7f to the low
    // seven bits carries into the high bit unless they are all zero, and no carry crosses a
    // byte.
    let high = !(((x & LOW7) + LOW7) | x) & !LOW7;
    // Gather the eight high bits (at 8i + 7) into the top byte: bit 8i of `high >> 7` moves to
    // 56 + i, and no two partial products meet.
    ((high >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56) as u32
}

/// Sum of the 8 bytes of a word, each at most 255.
#[inline(always)]
pub fn byte_sum(x: u64) -> u32 {
    let pairs = (x & 0x00ff_00ff_00ff_00ff) + ((x >> 8) & 0x00ff_00ff_00ff_00ff);
    (pairs.wrapping_mul(0x0001_0001_0001_0001) >> 48) as u32
}

impl std::fmt::Debug for Board {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let pits: Vec<u8> = (0..16).map(|i| self.get(i)).collect();
        write!(f, "Board({pits:?})")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flip_swaps_rows() {
        let b = Board::from_pits(&[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
        assert_eq!(
            b.flip(6).pits(12),
            vec![7, 8, 9, 10, 11, 12, 1, 2, 3, 4, 5, 6]
        );
        assert_eq!(b.flip(6).flip(6), b);
        let full: Vec<u8> = (1..=16).collect();
        let b = Board::from_pits(&full);
        assert_eq!(b.flip(8).get(0), 9);
        assert_eq!(b.flip(8).get(15), 8);
        let flagged = Board::from_pits(&[1, 2, 3, 4]).with_north(true);
        assert_eq!(
            flagged.flip(2),
            Board::from_pits(&[3, 4, 1, 2]).with_north(true)
        );
        assert!(flagged.north() && !flagged.pits_only().north());
    }

    #[test]
    fn empty_pit_masks() {
        for pits in [
            vec![0u8, 1, 0, 255, 128, 0, 7, 0, 0, 3, 1, 0, 0, 0, 9, 0],
            vec![1u8; 16],
            vec![0u8; 16],
            vec![128u8, 0, 1, 127, 0x80, 0x7f, 0, 2, 3, 0, 0, 1, 0, 0, 0, 200],
        ] {
            let b = Board::from_pits(&pits);
            for n in 1..=16 {
                let want: u32 = (0..n).filter(|&i| pits[i] == 0).map(|i| 1 << i).sum();
                assert_eq!(b.empty_pits(n), want, "{pits:?} n={n}");
            }
        }
    }

    #[test]
    fn sums_and_sides() {
        let b = Board::from_pits(&[255, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 100]);
        assert_eq!(b.total(), 355);
        let b = Board::from_pits(&[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 127]);
        assert_eq!(b.total(), 127);
        assert_eq!(b.with_north(true).total(), 127);
        let b = Board::from_pits(&[1, 2, 3, 4, 5, 6]);
        assert_eq!(byte_sum(b.own(3)), 6);
        assert_eq!(byte_sum(b.opp(3)), 15);
        assert_eq!(ones(3), 0x010101);
        assert_eq!(ones(16), u128::MAX / 0xff);
    }
}
