//! Board drawings for the terminal.
//!
//! South sits at the bottom and sows left to right; North's row is drawn right to left, so the
//! drawing follows the counter-clockwise sowing. Each row is labelled with its owner's pit
//! indices (0 = the owner's leftmost pit), the numbers `--moves` takes. In a later nam-nam
//! round a player may own pit `j` of the other row: he plays it as move `m + j`.

use crate::{Family, Game};
use std::fmt::Write;

impl Game {
    /// The board with both stores and a status line: who moves and the legal moves, or the
    /// result.
    pub fn draw(&self) -> String {
        draw(self)
    }
}

fn draw(game: &Game) -> String {
    let rules = game.rules();
    let m = rules.pits();
    let pits = game.absolute_pits();
    let [south_store, north_store] = game.stores();
    let kalah = rules.variant().family() == Family::Kalah;
    let cell = |n: u8| format!("[{n:>3}]");
    let label = |i: usize| format!("   {i:<2}");
    let pad = if kalah { "       " } else { "  " };
    let mut s = String::new();
    let north: String = (0..m).rev().map(|i| label(i).to_string()).collect();
    let _ = writeln!(s, "{pad}{}  North", north.trim_end());
    let row: String = (0..m).rev().map(|i| cell(pits[m + i])).collect();
    let _ = writeln!(s, "{pad}{row}");
    if kalah {
        let gap = " ".repeat(5 * m);
        let _ = writeln!(s, "[{north_store:>3}] {gap} [{south_store:>3}]");
    }
    let row: String = (0..m).map(|i| cell(pits[i])).collect();
    let _ = writeln!(s, "{pad}{row}");
    let south: String = (0..m).map(label).collect();
    let _ = writeln!(s, "{pad}{}  South", south.trim_end());
    // A later nam-nam round: say which pits changed hands, and the move that plays each.
    if rules.sided() {
        let owners = rules.variant().owners;
        for i in 0..2 * m {
            let (row, j) = if i < m {
                ("South", i)
            } else {
                ("North", i - m)
            };
            let south_owns = owners >> i & 1 == 1;
            if south_owns != (i < m) {
                let owner = if south_owns { "South" } else { "North" };
                let _ = writeln!(s, "{row}'s pit {j} belongs to {owner} (his move {})", m + j);
            }
        }
    }
    let _ = write!(s, "Stores: South {south_store}, North {north_store}. ");
    if game.is_over() {
        let verdict = match south_store.cmp(&north_store) {
            std::cmp::Ordering::Greater => "South wins",
            std::cmp::Ordering::Less => "North wins",
            std::cmp::Ordering::Equal => "a draw",
        };
        let _ = write!(s, "Game over: {verdict}.");
    } else {
        let legal: Vec<String> = game.legal().iter().map(|p| p.to_string()).collect();
        let _ = write!(
            s,
            "{} to move; legal moves: {}.",
            capitalise(game.to_move().name()),
            legal.join(" ")
        );
    }
    s
}

fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}
