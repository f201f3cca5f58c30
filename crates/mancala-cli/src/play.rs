//! `mancala play`: apply moves and show the board.

use crate::args::VariantArgs;
use crate::draw::draw;
use anyhow::{Context, Result};
use clap::Args;
use mancala_rules::{parse_moves, parse_position, Game, Side};
use serde_json::json;

#[derive(Args, Debug)]
pub struct PlayCmd {
    #[command(flatten)]
    variant: VariantArgs,

    /// Start from this position (2m counts, South to move, mover's pits first) instead of the
    /// start position
    #[arg(long, value_name = "P")]
    position: Option<String>,

    /// Moves to play, as the mover's pit indices, e.g. 0,3,5 (letters a.. also work)
    #[arg(long, value_name = "LIST", allow_hyphen_values = true)]
    moves: Option<String>,

    /// Print one JSON object: pits, stores, to_move, over, legal
    #[arg(long)]
    json: bool,

    /// Play against perfect play: the engine takes south, north or both sides, and you type
    /// your moves (or `hint`, `quit`) on stdin, after --position and --moves are applied
    #[arg(long, value_name = "SIDE")]
    engine: Option<crate::engine::Seat>,

    #[command(flatten)]
    search: crate::searching::SearchArgs,
}

impl PlayCmd {
    pub fn run(&self) -> Result<()> {
        let rules = self.variant.rules()?;
        let m = rules.pits();
        let mut game = match &self.position {
            Some(p) => {
                let b = parse_position(&rules, p)?;
                Game::from_position(rules, b, Side::South)
            }
            None => Game::new(rules),
        };
        if let Some(list) = &self.moves {
            for (i, pit) in parse_moves(m, list)?.into_iter().enumerate() {
                let side = game.to_move().name();
                game.play(pit)
                    .with_context(|| format!("move #{} ({side} to move)", i + 1))?;
            }
        }
        if let Some(seat) = self.engine {
            if self.json {
                anyhow::bail!("--json and --engine do not go together");
            }
            return crate::engine::play(game, seat, &self.search);
        }
        if self.json {
            let v = json!({
                "variant": game.rules().variant().key(),
                "pits": game.absolute_pits(),
                "stores": game.stores(),
                "to_move": game.to_move().name(),
                "over": game.is_over(),
                "legal": game.legal(),
            });
            println!("{v}");
        } else {
            println!("{}", game.rules().variant());
            println!("{}", draw(&game));
        }
        Ok(())
    }
}
