//! What `mancala play` needs from any game, whatever its board: the presets outside the packed
//! two-row fast path (4-row Bao, 3-4 players, forced-move games) implement this in their own
//! crates, and the CLI drives them all the same way.

use crate::{parse_moves, Game};
use std::any::Any;
use std::error::Error;

/// A game played move by move.
///
/// Conventions every implementation keeps (they are the `--json` keys of `mancala play`):
/// - [`Playable::pits`] is row-major: rows from the top of the drawing (North's far row) to
///   the bottom (South's near row), each read left to right as South sees the board. Two-row
///   games list South's pits then North's in sowing order, as the packed games do.
/// - [`Playable::stores`] holds one entry per player: the seeds that player has captured or
///   stored (seeds still on his side of a board that never loses seeds are not counted).
/// - [`Playable::legal`] lists move names exactly as [`Playable::play`] accepts them.
pub trait Playable {
    /// The preset with every option that differs from its default, for headers and JSON.
    fn describe(&self) -> String;
    /// Every pit's seeds, row-major (see the trait docs).
    fn pits(&self) -> Vec<u32>;
    /// Each player's captured or stored seeds, in seat order.
    fn stores(&self) -> Vec<u32>;
    /// Who moves: `south`, `north`, or `player N` (1-based) for more players.
    fn to_move(&self) -> String;
    /// Has the game ended (no move can be played any more)?
    fn is_over(&self) -> bool;
    /// The legal moves' names; empty when the game is over.
    fn legal(&self) -> Vec<String>;
    /// Plays one move given by name; the error says what the legal moves are.
    fn play(&mut self, mv: &str) -> Result<(), Box<dyn Error + Send + Sync>>;
    /// A terminal drawing of the board with a status line (who moves, legal moves or result).
    fn draw(&self) -> String;
    /// The game itself, for the engine of its family (see [`crate::Engine`]).
    fn as_any(&self) -> &dyn Any;
}

/// The packed two-row games: a move is the mover's pit index (a letter also works).
impl Playable for Game {
    fn describe(&self) -> String {
        self.rules().variant().to_string()
    }

    fn pits(&self) -> Vec<u32> {
        self.absolute_pits().into_iter().map(u32::from).collect()
    }

    fn stores(&self) -> Vec<u32> {
        self.stores().to_vec()
    }

    fn to_move(&self) -> String {
        self.to_move().name().to_string()
    }

    fn is_over(&self) -> bool {
        self.is_over()
    }

    fn legal(&self) -> Vec<String> {
        self.legal().iter().map(usize::to_string).collect()
    }

    fn play(&mut self, mv: &str) -> Result<(), Box<dyn Error + Send + Sync>> {
        match parse_moves(self.rules().move_limit(), mv)?[..] {
            [pit] => Ok(self.play(pit)?),
            _ => Err(format!("'{mv}': one move at a time").into()),
        }
    }

    fn draw(&self) -> String {
        self.draw()
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}
