//! `mancala play`: apply moves and show the board.

use crate::args::VariantArgs;
use crate::draw::draw;
use crate::games::{self, Home};
use anyhow::{Context, Result};
use clap::Args;
use mancala_rules::{parse_moves, parse_position, Game, Side};
use serde_json::json;

#[derive(Args, Debug)]
pub struct PlayCmd {
    #[command(flatten)]
    variant: VariantArgs,

    /// Start from this position (2m counts, South to move, mover's pits first) instead of the
    /// start position. Bao and 3-4 player Mankala have their own formats (see docs/variants.md)
    #[arg(long, value_name = "P")]
    position: Option<String>,

    /// Moves to play, comma-separated: the mover's pit indices, e.g. 0,3,5 (letters a.. also
    /// work); Bao moves in its notation, e.g. a6>,b2< (see docs/variants.md)
    #[arg(long, value_name = "LIST", allow_hyphen_values = true)]
    moves: Option<String>,

    /// Forced-move games (madjnuni, el-akil, el-ghasheem): the distributor's setup, 2m counts
    /// (South's pits left to right, then North's in sowing order). Without --moves the whole
    /// game is simulated
    #[arg(long, value_name = "COUNTS")]
    setup: Option<String>,

    /// Forced-move games: the second player takes the swap (turns the board round)
    #[arg(long)]
    swap: bool,

    /// Bao engine: search depth in plies
    #[arg(long, value_name = "PLIES", default_value_t = 6)]
    depth: u32,

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
        crate::games::check_playable(&self.variant.variant)?;
        if let Some(home) = crate::games::home(&self.variant.variant) {
            return self.run_elsewhere(home);
        }
        if self.setup.is_some() || self.swap {
            anyhow::bail!("--setup and --swap belong to the forced-move games (madjnuni, el-akil, el-ghasheem)");
        }
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

    /// Bao, 3-4 player Mankala and the forced-move games, through their crates.
    fn run_elsewhere(&self, home: Home) -> Result<()> {
        let name = self.variant.variant.trim().to_ascii_lowercase();
        if let Some(seat) = self.engine {
            if home != Home::Bao {
                anyhow::bail!(
                    "{name} has no interactive engine; `mancala solve {name}` gives its values"
                );
            }
            if self.json {
                anyhow::bail!("--json and --engine do not go together");
            }
            let mut game =
                mancala_bao::new_game(&name, &self.variant.rules, self.position.as_deref())?;
            if let Some(list) = &self.moves {
                games::play_moves(&mut game, list)?;
            }
            let seat = match seat {
                crate::engine::Seat::South => "south",
                crate::engine::Seat::North => "north",
                crate::engine::Seat::Both => "both",
            };
            return games::play_bao_engine(&mut game, seat, self.depth.clamp(1, 12));
        }
        let mut game = games::new_game(
            home,
            &self.variant,
            self.position.as_deref(),
            self.setup.as_deref(),
            self.swap,
        )?;
        match &self.moves {
            Some(list) => games::play_moves(game.as_mut(), list)?,
            // A forced-move game has nothing to choose: play it out.
            None if home == Home::Forced => {
                while !game.is_over() {
                    game.play("next").map_err(|e| anyhow::anyhow!("{e}"))?;
                }
            }
            None => {}
        }
        if self.json {
            println!("{}", games::to_json(&name, game.as_ref()));
        } else {
            println!("{}", game.describe());
            println!("{}", game.draw());
        }
        Ok(())
    }
}
