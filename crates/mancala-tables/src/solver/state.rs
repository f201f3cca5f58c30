//! The threshold solver's working state: one byte a position.
//!
//! A decided position's byte is its value as a signed byte, so the finished state is the
//! tier's table once the undecided bytes are turned into 0 (endless play). An undecided
//! position's byte lies in `0x80..=0xbf`, which no value of a tier up to [`MAX_STATE_TIER`]
//! can take: its low five bits count the quiet moves whose child is not yet known to be
//! `>= t`, and [`ELIGIBLE`] says that its best exit is `<= -t` for the current threshold `t`
//! (so it enters `L_t` when the count reaches 0).
//!
//! The best exits themselves are not part of the state: they are only read when a threshold
//! starts (a position enters `W_t` by its exit when the exit is `t`, and becomes eligible for
//! `L_t` when it is `-t`), in rank order, so they can live apart, in memory or in a file.

/// The largest tier whose values (`-n..=n`) stay clear of the undecided bytes.
pub const MAX_STATE_TIER: usize = 64;

/// Undecided: the top two bits are `10`.
const UNDECIDED: u8 = 0x80;
const KIND: u8 = 0xc0;
/// Undecided: the best exit is `<= -t`.
pub(crate) const ELIGIBLE: u8 = 0x20;
/// Undecided: the quiet moves whose child is not yet known to be `>= t`.
pub(crate) const COUNT: u8 = 0x1f;
const _: () = assert!(
    mancala_rules::MAX_MOVES <= COUNT as usize,
    "a move count fits the count bits"
);
const _: () = assert!(
    (-(MAX_STATE_TIER as i8)) as u8 & KIND != UNDECIDED && MAX_STATE_TIER as u8 & KIND != UNDECIDED,
    "no value collides with an undecided byte"
);

/// An undecided position with `quiet` quiet moves to report, not yet eligible for `L`.
#[inline(always)]
pub(crate) fn undecided(quiet: u8) -> u8 {
    debug_assert!(quiet <= COUNT);
    UNDECIDED | quiet
}

/// Is the position still undecided?
#[inline(always)]
pub(crate) fn is_undecided(state: u8) -> bool {
    state & KIND == UNDECIDED
}

/// The byte of a position decided with value `v`.
#[inline(always)]
pub(crate) fn decided(v: i8) -> u8 {
    v as u8
}

/// A state's final value: what was never decided is endless play, worth 0.
#[inline(always)]
pub(crate) fn final_value(state: u8) -> u8 {
    if is_undecided(state) {
        0
    } else {
        state
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_and_undecided_bytes_do_not_meet() {
        let n = MAX_STATE_TIER as i8;
        for v in -n..=n {
            assert!(!is_undecided(decided(v)), "value {v}");
            assert_eq!(final_value(decided(v)) as i8, v);
        }
        for quiet in 0..=COUNT {
            for e in [0, ELIGIBLE] {
                let s = undecided(quiet) | e;
                assert!(is_undecided(s));
                assert_eq!(s & COUNT, quiet);
                assert_eq!(final_value(s), 0);
            }
        }
    }
}
