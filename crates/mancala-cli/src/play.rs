//! `mancala play`: apply moves and show the board.

use crate::args::VariantArgs;
use crate::games::{self, Engines};
use crate::searching::progress_printer;
use anyhow::Result;
use clap::Args;
use mancala_oracle::PackedFamily;
use mancala_rules::{Game, GameOption, Playable};
use serde_json::json;
use std::sync::Arc;

#[derive(Args, Debug)]
pub struct PlayCmd {
    #[command(flatten)]
    variant: VariantArgs,

    /// Start from this position (2m counts, South to move, mover's pits first) instead of the
    /// start position. Bao and 3-4 player Mankala have their own formats (see docs/variants.md)
    #[arg(long, value_name = "P", allow_hyphen_values = true)]
    position: Option<String>,

    /// Moves to play, comma-separated: the mover's pit indices, e.g. 0,3,5 (letters a.. also
    /// work); Bao moves in its notation, e.g. a6>,b2< (see docs/variants.md)
    #[arg(long, value_name = "LIST", allow_hyphen_values = true)]
    moves: Option<String>,

    /// Forced-move games (madjnuni, el-akil, el-ghasheem): the distributor's setup, 2m counts
    /// (South's pits left to right, then North's in sowing order). Without --moves the whole
    /// game is simulated
    #[arg(long, value_name = "COUNTS", allow_hyphen_values = true)]
    setup: Option<String>,

    /// Forced-move games: the second player takes the swap (turns the board round)
    #[arg(long)]
    swap: bool,

    /// Play the whole game over its rounds: nam-nam (pits change hands between rounds; the
    /// round's winner names the pits he takes, moves t0..) or el-akil / el-ghasheem (rounds
    /// until a player's captures reach 60, the same --setup every round)
    #[arg(long = "match")]
    whole_match: bool,

    /// Bao engine: search depth in plies, 1 to 12
    #[arg(long, value_name = "PLIES", allow_negative_numbers = true, default_value_t = 6, value_parser = clap::value_parser!(u32).range(1..=12))]
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
        if self.whole_match {
            return self.run_match();
        }
        let mut spec = self.variant.spec()?;
        spec.position = self.position.clone();
        spec.setup = self.setup.clone();
        spec.swapped = self.swap;
        let families = games::families(Engines {
            packed: PackedFamily {
                settings: self.search.settings()?,
                builds: Arc::new(()),
                searches: Arc::new(progress_printer(self.search.quiet)),
            },
            bao_depth: self.depth,
            node_limit: 50_000_000,
        });
        let (family, info) = games::find(&families, &spec.preset)?;
        if let Some(why) = info.unplayable {
            anyhow::bail!("{} cannot be played: {why}", spec.preset);
        }
        let mut game = family.new_game(&spec).map_err(games::game_error)?;
        match &self.moves {
            Some(list) => games::play_moves(game.as_mut(), list)?,
            // A game without choices: play it out.
            None if info.forced => {
                while !game.is_over() {
                    game.play("next").map_err(games::game_error)?;
                }
            }
            None => {}
        }
        if let Some(seat) = self.engine {
            if self.json {
                anyhow::bail!("--json and --engine do not go together");
            }
            let Some(engine) = family.engine(&spec).map_err(games::game_error)? else {
                anyhow::bail!(
                    "{} has no interactive engine; `mancala solve {}` gives its values",
                    spec.preset,
                    spec.preset
                );
            };
            return crate::engine::play(game, engine, seat);
        }
        if self.json {
            println!("{}", to_json(&spec.preset, game.as_ref()));
        } else {
            println!("{}", game.describe());
            println!("{}", game.draw());
        }
        Ok(())
    }

    /// `--match`: nam-nam's rounds move by move, or an el-akil set played out.
    fn run_match(&self) -> Result<()> {
        let name = self.variant.name();
        let spec = self.variant.spec()?;
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
            spec.only(&[GameOption::Pits, GameOption::Seeds])
                .map_err(games::game_error)?;
            let mut game = mancala_rules::NamNamMatch::new(spec.pits, spec.seeds)?;
            if let Some(list) = &self.moves {
                games::play_moves(&mut game, list)?;
            }
            if self.json {
                let mut v = to_json(&name, &game);
                v["round"] = json!(game.round());
                v["owners"] = json!(game.owners_text());
                v["rounds"] = game
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
        spec.only(&[GameOption::Pits, GameOption::Seeds, GameOption::Rule])
            .map_err(games::game_error)?;
        let (pits, seeds) = (spec.pits, spec.seeds);
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
}

/// The `--json` object of `mancala play`: the keys every preset shares. On the packed board a
/// move is a pit, so `legal` lists pit numbers and `variant` is the rule set's table key, as
/// they always have; other games list move names.
pub fn to_json(name: &str, game: &dyn Playable) -> serde_json::Value {
    if let Some(g) = game.as_any().downcast_ref::<Game>() {
        return mancala_oracle::json::game(g);
    }
    json!({
        "variant": name,
        "rules": game.describe(),
        "pits": game.pits(),
        "stores": game.stores(),
        "to_move": game.to_move(),
        "over": game.is_over(),
        "legal": game.legal(),
    })
}
