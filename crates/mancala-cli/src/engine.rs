//! `mancala play --engine`: a game in the terminal against perfect play.
//!
//! Commands are read line by line from stdin, so a script can play too: the game ends at
//! `quit` or at the end of the input.

use crate::draw::draw;
use crate::searching::{progress_printer, SearchArgs};
use anyhow::{bail, Result};
use mancala_rules::{parse_moves, Game, Side};
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
            "both" => Ok(Seat::Both),
            other => bail!("--engine takes south, north or both, not '{other}'"),
        }
    }
}

impl Seat {
    fn plays(self, side: Side) -> bool {
        match self {
            Seat::Both => true,
            Seat::South => side == Side::South,
            Seat::North => side == Side::North,
        }
    }
}

const HELP: &str = "Type a pit number (0 = your leftmost pit; letters a.. also work), `hint` for \
the value of every move, `help`, or `quit`.";

/// Plays `game` to its end with the engine in `seat`, reading the person's moves from stdin.
pub fn play(mut game: Game, seat: Seat, search: &SearchArgs) -> Result<()> {
    let rules = game.rules().clone();
    let m = rules.move_limit();
    let tables = search.tables(&rules, game.board().total() as usize)?;
    let mut solver = search.solver(&rules, tables.as_ref())?;
    let printer = progress_printer(search.quiet);
    let stdin = std::io::stdin();
    let interactive = stdin.is_terminal();
    let mut lines = stdin.lock().lines();
    println!("{}", rules.variant());
    println!("{}", draw(&game));
    if !seat.plays(game.to_move()) || seat != Seat::Both {
        println!("{HELP}");
    }
    while !game.is_over() {
        let side = game.to_move();
        if seat.plays(side) {
            let s = solver.solve(game.board(), &printer)?;
            let (Some(value), Some(&pit)) = (s.value, s.best.first()) else {
                bail!(
                    "the engine ran out of time (the value lies in [{:+}, {:+}]); drop --max-seconds",
                    s.lo,
                    s.hi
                );
            };
            game.play(pit)?;
            println!(
                "{} (engine) plays {pit}: value {:+} for {}",
                capitalised(side),
                value,
                side.name()
            );
            println!("{}", draw(&game));
            continue;
        }
        if interactive {
            print!("{}> ", side.name());
            std::io::stdout().flush()?;
        }
        let Some(line) = lines.next() else {
            println!("(end of input: the game is left unfinished)");
            return Ok(());
        };
        let line = line?;
        let word = line.trim();
        match word.to_ascii_lowercase().as_str() {
            "" => continue,
            "quit" | "q" | "exit" => {
                println!("(game abandoned)");
                return Ok(());
            }
            "help" | "?" => println!("{HELP}"),
            "hint" => {
                let moves = solver.move_values(game.board(), &printer)?;
                let best = moves.iter().map(|m| m.1).max().unwrap_or(0);
                let list: Vec<String> = moves
                    .iter()
                    .map(|(p, v)| {
                        let mark = if *v == best { " (best)" } else { "" };
                        format!("{p}: {v:+}{mark}")
                    })
                    .collect();
                println!("move values for {}: {}", side.name(), list.join(", "));
            }
            _ => match parse_moves(m, word) {
                Ok(pits) if pits.len() == 1 => match game.play(pits[0]) {
                    Ok(()) => println!("{}", draw(&game)),
                    Err(e) => println!("{e}"),
                },
                Ok(_) => println!("one move at a time, please. {HELP}"),
                Err(e) => println!("{e}. {HELP}"),
            },
        }
    }
    Ok(())
}

fn capitalised(side: Side) -> &'static str {
    match side {
        Side::South => "South",
        Side::North => "North",
    }
}
