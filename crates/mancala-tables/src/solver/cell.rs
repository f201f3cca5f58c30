//! The threshold solver's working state: one 16-bit cell a position.
//!
//! The low byte is the position's value (its best exit until it is decided), the high byte its
//! state: a decided flag and the count of quiet moves whose child is not yet known to be
//! `>= t`. Keeping both in one word means an update touches one cache line and learns the exit
//! from the same atomic operation that counts down.

/// State: one quiet move whose child is not yet known to be `>= t`.
pub(crate) const COUNT_ONE: u16 = 0x0100;
/// State: the mask of the quiet-move count (7 bits, room for every move a position can have).
pub(crate) const COUNT: u16 = 0x7f00;
const _: () = assert!(
    mancala_rules::MAX_MOVES < 0x80,
    "a move count fits the count bits"
);
/// State: the value is final.
pub(crate) const DECIDED: u16 = 0x8000;

/// A cell holding `value` with `quiet` quiet moves still to report.
#[inline(always)]
pub(crate) fn cell(value: i8, quiet: u8) -> u16 {
    (quiet as u16) << 8 | value as u8 as u16
}

/// The value byte of a cell.
#[inline(always)]
pub(crate) fn value(cell: u16) -> i8 {
    cell as u8 as i8
}

/// A cell's final value: what was never decided is endless play, worth 0.
#[inline(always)]
pub(crate) fn final_value(cell: u16) -> u8 {
    if cell & DECIDED != 0 {
        value(cell) as u8
    } else {
        0
    }
}
