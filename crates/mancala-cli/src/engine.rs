//! `mancala play --engine`: a game in the terminal against an engine, for every game that has
//! one (perfect play, Bao's alpha-beta, max-n).
//!
//! Commands are read line by line from stdin, so a script can play too: the game ends at
//! `quit` or at the end of the input.

use crate::games::game_error;
use anyhow::{bail, Result};
use mancala_rules::{Engine, Playable};
use std::io::{BufRead, IsTerminal, Write};

/// Who the engine plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Seat {
    South,
    North,
    Both,
}

impl std::str::FromStr for Seat {
    type Err = anyhow::Error;
    fn from_str(s: &str) -> Result<Seat> {
        match s.trim().to_ascii_lowercase().as_str() {
            "south" | "s" => Ok(Seat::South),
            "north" | "n" => Ok(Seat::North),
            "both" | "all" => Ok(Seat::Both),
            other => bail!("--engine takes south, north or both, not '{other}'"),
        }
    }
}

impl Seat {
    /// Does the engine move for `side` (as [`Playable::to_move`] names it)?
    fn plays(self, side: &str) -> bool {
        match self {
            Seat::Both => true,
            Seat::South => side == "south",
            Seat::North => side == "north",
        }
    }
}

const HELP: &str = "Type a move (the legal moves are listed under the board; on a two-row board \
0 is your leftmost pit, and letters a.. also work), `hint` for the engine's view of every move, \
`help`, or `quit`.";

/// Plays `game` to its end with `engine` in `seat`, reading the person's moves from stdin.
pub fn play(mut game: Box<dyn Playable>, mut engine: Box<dyn Engine>, seat: Seat) -> Result<()> {
    let stdin = std::io::stdin();
    let interactive = stdin.is_terminal();
    let mut lines = stdin.lock().lines();
    println!("{}", game.describe());
    println!("{}", game.draw());
    if seat != Seat::Both {
        println!("{HELP}");
    }
    while !game.is_over() {
        let side = game.to_move();
        if seat.plays(&side) {
            let choice = engine.choose(game.as_ref()).map_err(game_error)?;
            game.play(&choice.name).map_err(game_error)?;
            println!(
                "{} (engine) plays {}: {}",
                capitalised(&side),
                choice.name,
                choice.note
            );
            println!("{}", game.draw());
            continue;
        }
        if interactive {
            print!("{side}> ");
            std::io::stdout().flush()?;
        }
        let Some(line) = lines.next() else {
            println!("(end of input: the game is left unfinished)");
            return Ok(());
        };
        // A line that is not text is a bad move, not the end of the game.
        let Ok(line) = line else {
            println!("(that line is not text: type a move, `hint`, `help` or `quit`)");
            continue;
        };
        let word = line.trim();
        match word.to_ascii_lowercase().as_str() {
            "" => continue,
            "quit" | "q" | "exit" => {
                println!("(game abandoned)");
                return Ok(());
            }
            "help" | "?" => println!("{HELP}"),
            "hint" => {
                let hints = engine.hints(game.as_ref()).map_err(game_error)?;
                let list: Vec<String> = hints.iter().map(|(m, v)| format!("{m}: {v}")).collect();
                println!("move values for {side}: {}", list.join(", "));
            }
            _ => match game.play(word) {
                Ok(()) => println!("{}", game.draw()),
                Err(e) => println!("{e}. {HELP}"),
            },
        }
    }
    Ok(())
}

fn capitalised(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}
