//! `mancala play`: apply moves and show the board.

use crate::args::VariantArgs;
use crate::draw::draw;
use crate::games::{self, Home};
use anyhow::{Context, Result};
use clap::Args;
use mancala_rules::{parse_moves, parse_position, Game, Playable, Side};
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

    /// Play the whole game over its rounds: nam-nam (pits change hands between rounds; the
    /// round's winner names the pits he takes, moves t0..) or el-akil / el-ghasheem (rounds
    /// until a player's captures reach 60, the same --setup every round)
    #[arg(long = "match")]
    whole_match: bool,

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
        if self.whole_match {
            return self.run_match();
        }
        if let Some(home) = crate::games::home(&self.variant.variant) {
            return self.run_elsewhere(home);
        }
        if self.setup.is_some() || self.swap {
            anyhow::bail!("--setup and --swap belong to the forced-move games (madjnuni, el-akil, el-ghasheem)");
        }
        let rules = self.variant.rules()?;
        let m = rules.move_limit();
        let mut game = match &self.position {
            Some(p) => {
                let b = parse_position(&rules, p)?;
                let side = if b.north() { Side::North } else { Side::South };
                Game::from_position(rules, b, side)
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

    /// `--match`: nam-nam's rounds move by move, or an el-akil set played out.
    fn run_match(&self) -> Result<()> {
        let name = self.variant.variant.trim().to_ascii_lowercase();
        if self.engine.is_some() || self.position.is_some() {
            anyhow::bail!(
                "--match starts from the start of the game: drop --engine and --position"
            );
        }
        if name == "nam-nam" {
            let v = &self.variant;
            if !v.rules.is_empty() || v.owners.is_some() {
                anyhow::bail!("--match plays nam-nam's own rounds: drop --rule and --owners");
            }
            let (pits, seeds) = games::sizes(v)?;
            let mut game = games::NamNamPlay(mancala_rules::NamNamMatch::new(pits, seeds)?);
            if let Some(list) = &self.moves {
                games::play_moves(&mut game, list)?;
            }
            if self.json {
                let mut v = games::to_json(&name, &game);
                v["round"] = json!(game.0.round());
                v["owners"] = json!(game.0.owners_text());
                v["rounds"] = game
                    .0
                    .results()
                    .iter()
                    .map(|r| json!({"round": r.round, "owners": r.owners, "starter": r.starter.name(), "captured": r.captured}))
                    .collect();
                println!("{v}");
            } else {
                println!("{}", game.describe());
                println!("{}", game.draw());
            }
            return Ok(());
        }
        if !matches!(name.as_str(), "el-akil" | "el-ghasheem") {
            anyhow::bail!(
                "--match is for the games played in rounds: nam-nam, el-akil, el-ghasheem"
            );
        }
        if self.moves.is_some() {
            anyhow::bail!("{name} has no choices during play: drop --moves");
        }
        let (pits, seeds) = games::sizes(&self.variant)?;
        let opts = mancala_forced::MatchOptions {
            swap: self.swap.then_some(true),
            ..Default::default()
        };
        let r = mancala_forced::play_match(
            &name,
            pits,
            seeds,
            &self.variant.rules,
            self.setup.as_deref(),
            &opts,
        )?;
        if self.json {
            let rounds: Vec<_> = r
                .rounds
                .iter()
                .map(|x| {
                    json!({
                        "round": x.number,
                        "distributor": x.distributor.as_str(),
                        "swapped": x.swapped,
                        "first_mover": x.first_mover.as_str(),
                        "captured": x.captured,
                        "totals": x.totals,
                        "moves": x.moves,
                    })
                })
                .collect();
            let v = json!({
                "variant": name,
                "rules": r.description,
                "target": r.target,
                "winner": r.winner_str(),
                "decided_in": r.decided_in,
                "totals": r.totals,
                "rounds": rounds,
            });
            println!("{v}");
            return Ok(());
        }
        println!("{} — a set to {} captured seeds", r.description, r.target);
        for x in &r.rounds {
            println!(
                "round {}: {} distributes{}, captures A {} B {}, totals A {} B {}",
                x.number,
                x.distributor.as_str().to_uppercase(),
                if x.swapped {
                    ", the board is swapped"
                } else {
                    ""
                },
                x.captured[0],
                x.captured[1],
                x.totals[0],
                x.totals[1]
            );
        }
        match r.winner {
            Some(w) => println!(
                "{} wins the set in round {} ({} to {}).",
                w.as_str().to_uppercase(),
                r.decided_in,
                r.totals[w.index()],
                r.totals[w.other().index()]
            ),
            None => println!("The set is drawn ({} each).", r.totals[0]),
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
