//! Move ordering: the move that refuted this node before, then extra moves and captures, then
//! the rest.

use mancala_rules::{Child, Next};

/// Larger keys are searched first.
#[inline(always)]
pub fn key(c: &Child, tt_move: u8) -> i32 {
    if c.pit == tt_move {
        return 1 << 20;
    }
    // An extra move from the pit nearest the store leaves the other extra moves in place.
    let extra = if c.next == Next::Mover { 1 << 16 } else { 0 };
    // Quiet moves from the pits nearest the store first: the other way round, proofs grow
    // by orders of magnitude.
    extra + ((c.gain as i32) << 8) + c.pit as i32
}
