//! Bao behind the common game interface: its presets, games and the alpha-beta engine.

use crate::{best_move, new_game, options_help, preset_names, summary, BaoGame};
use mancala_rules::{
    downcast, Choice, Engine, GameError, GameFamily, GameOption, GameSpec, Playable, PresetInfo,
    RulesError,
};

/// The two 4-row Bao presets, played by an alpha-beta search of `depth` plies.
pub struct BaoFamily {
    /// Search depth of the engine in plies (1..=12).
    pub depth: u32,
}

impl GameFamily for BaoFamily {
    fn presets(&self) -> Vec<&'static str> {
        preset_names().to_vec()
    }

    fn info(&self, preset: &str) -> Option<PresetInfo> {
        PresetInfo::find(preset, preset_names(), "bao", summary, options_help)
    }

    fn new_game(&self, spec: &GameSpec) -> Result<Box<dyn Playable>, GameError> {
        Ok(Box::new(game(spec)?))
    }

    fn engine(&self, spec: &GameSpec) -> Result<Option<Box<dyn Engine>>, GameError> {
        game(spec)?;
        Ok(Some(Box::new(AlphaBeta {
            depth: self.depth.clamp(1, 12),
        })))
    }

    fn solve(&self, spec: &GameSpec, _node_limit: u64) -> Result<mancala_rules::Report, GameError> {
        Err(format!(
            "{} keeps every seed on the board, so it has no exact solution here; its engine \
             (play --engine) plays it by alpha-beta search",
            spec.preset
        )
        .into())
    }
}

/// A Bao game from the user's options: the board is fixed at 4x8.
fn game(spec: &GameSpec) -> Result<BaoGame, GameError> {
    if spec.pits.is_some() || spec.seeds.is_some() {
        return Err(RulesError::FixedBoard {
            preset: spec.preset.clone(),
            board: "4x8",
        }
        .into());
    }
    spec.only(&[GameOption::Rule, GameOption::Position])?;
    Ok(new_game(
        &spec.preset,
        &spec.rules,
        spec.position.as_deref(),
    )?)
}

/// Alpha-beta to a fixed depth with the crate's evaluation.
struct AlphaBeta {
    depth: u32,
}

impl Engine for AlphaBeta {
    fn choose(&mut self, game: &dyn Playable) -> Result<Choice, GameError> {
        let (name, score) = best_move(downcast::<BaoGame>(game, "Bao")?, self.depth)
            .ok_or("the engine found no move in a position that is not over")?;
        Ok(Choice {
            name,
            note: format!("evaluation {score:+}"),
        })
    }

    fn hints(&mut self, game: &dyn Playable) -> Result<Vec<(String, String)>, GameError> {
        let g = downcast::<BaoGame>(game, "Bao")?;
        let mut out = Vec::new();
        for name in g.legal_names() {
            let mut after = g.clone();
            after.play_name(&name)?;
            // The opponent's best reply, from his side; a finished game is scored by its end.
            let score = match after.winner() {
                Some(w) if w == g.side_to_move() => "wins".to_string(),
                Some(_) => "loses".to_string(),
                None => match best_move(&after, self.depth.saturating_sub(1).max(1)) {
                    Some((_, s)) if after.side_to_move() == g.side_to_move() => format!("{s:+}"),
                    Some((_, s)) => format!("{:+}", -s),
                    None => "?".to_string(),
                },
            };
            out.push((name, score));
        }
        Ok(out)
    }
}
