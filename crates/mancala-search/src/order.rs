//! Move ordering: the move that refuted this node before, then extra moves, then by seeds
//! banked, then the moves that hand the opponent the fewest seeds, then the pits nearest the
//! store.
//!
//! Proof sizes hang on this order more than on anything else in the search; measured with
//! `mancala bench --solve` and the Kalah 6x4 starts over 20-seed tables (docs/performance.md):
//! taking quiet moves from the far pits first makes proofs orders of magnitude bigger, and so
//! does letting a history of cutoffs outrank extra moves. Among quiet moves, keeping seeds on
//! one's own side first shrank the 6x4 proofs by a third to a half (the seeds handed over are
//! the opponent's material for captures and extra moves).

use mancala_rules::{Child, Next};

/// Larger keys are searched first. `seeds` is the number of seeds in the move's pit before
/// the move and `m` the number of pits a side.
#[inline(always)]
pub fn key(c: &Child, tt_move: u8, seeds: u8, m: usize) -> i32 {
    if c.pit == tt_move {
        return 1 << 24;
    }
    // An extra move from the pit nearest the store leaves the other extra moves in place.
    let extra = if c.next == Next::Mover { 1 << 20 } else { 0 };
    // Seeds sown past the store land in the opponent's pits (laps included: a heuristic).
    let handed = (seeds as i32 - (m as i32 - c.pit as i32)).clamp(0, 63);
    extra + ((c.gain as i32) << 12) + ((63 - handed) << 6) + c.pit as i32
}

#[cfg(test)]
mod tests {
    use super::*;
    use mancala_rules::Board;

    fn child(pit: u8, gain: u8, next: Next) -> Child {
        Child {
            pit,
            board: Board::from_pits(&[0; 12]),
            gain,
            opp_gain: 0,
            next,
        }
    }

    #[test]
    fn order_of_the_keys() {
        let m = 6;
        let quiet_far = key(&child(0, 0, Next::Opponent), 31, 3, m);
        let quiet_near = key(&child(4, 0, Next::Opponent), 31, 1, m);
        // Pit 3 with 7 seeds hands the opponent 4 of them; pit 1 with 2 seeds none.
        let handing = key(&child(3, 1, Next::Opponent), 31, 7, m);
        let capture = key(&child(1, 5, Next::Opponent), 31, 2, m);
        let banking = key(&child(2, 1, Next::Opponent), 31, 4, m);
        let extra = key(&child(2, 1, Next::Mover), 31, 4, m);
        assert!(quiet_near > quiet_far);
        assert!(banking > handing);
        assert!(capture > banking);
        assert!(extra > capture);
        assert!(key(&child(0, 0, Next::Opponent), 0, 3, m) > extra);
    }
}
