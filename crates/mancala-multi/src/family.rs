//! Mankala for 2-4 players behind the common game interface: presets, games, and max-n as
//! both engine and solver.

use crate::{new_game, options_help, preset_names, solve, summary, MultiGame};
use mancala_rules::{
    downcast, Choice, Engine, Field, GameError, GameFamily, GameOption, GameSpec, Playable,
    PresetInfo, Report,
};

/// Mankala uniwersalna for 2, 3 and 4 players; its engine is max-n within `node_limit` nodes.
pub struct MultiFamily {
    /// Nodes a max-n search may visit before it gives up.
    pub node_limit: u64,
}

impl GameFamily for MultiFamily {
    fn presets(&self) -> Vec<&'static str> {
        preset_names().to_vec()
    }

    fn info(&self, preset: &str) -> Option<PresetInfo> {
        PresetInfo::find(preset, preset_names(), "multi", summary, options_help)
    }

    fn new_game(&self, spec: &GameSpec) -> Result<Box<dyn Playable>, GameError> {
        Ok(Box::new(game(spec)?))
    }

    fn engine(&self, spec: &GameSpec) -> Result<Option<Box<dyn Engine>>, GameError> {
        game(spec)?;
        Ok(Some(Box::new(MaxNEngine {
            node_limit: self.node_limit,
        })))
    }

    fn solve(&self, spec: &GameSpec, node_limit: u64) -> Result<Report, GameError> {
        let g = game(spec)?;
        let s = solve(&g, node_limit)?;
        let mut lines = vec![
            g.describe(),
            format!("final seeds under max-n play (seat order): {:?}", s.scores),
            format!(
                "best move: {}",
                s.best.as_deref().unwrap_or("none (game over)")
            ),
        ];
        for (m, v) in &s.move_values {
            lines.push(format!("  move {m}: final seeds {v:?}"));
        }
        lines.push(format!("principal variation: {}", s.pv.join(" ")));
        lines.push(format!("{} nodes", s.nodes));
        let moves = s
            .move_values
            .iter()
            .map(|(m, v)| {
                Field::Object(vec![
                    ("move", m.as_str().into()),
                    ("scores", v.clone().into()),
                ])
            })
            .collect();
        Ok(Report {
            lines,
            fields: vec![
                ("scores", s.scores.into()),
                ("gains", s.gains.into()),
                ("best", s.best.into()),
                ("pv", s.pv.into()),
                ("moves", Field::List(moves)),
                ("nodes", s.nodes.into()),
            ],
        })
    }
}

fn game(spec: &GameSpec) -> Result<MultiGame, GameError> {
    spec.only(&[
        GameOption::Pits,
        GameOption::Seeds,
        GameOption::Rule,
        GameOption::Position,
    ])?;
    Ok(new_game(
        &spec.preset,
        spec.pits,
        spec.seeds,
        &spec.rules,
        spec.position.as_deref(),
    )?)
}

/// Max-n play: each player maximises his own final seeds (ties as the crate docs say).
struct MaxNEngine {
    node_limit: u64,
}

impl Engine for MaxNEngine {
    fn choose(&mut self, game: &dyn Playable) -> Result<Choice, GameError> {
        let s = solve(downcast::<MultiGame>(game, "max-n")?, self.node_limit)?;
        let name = s.best.ok_or("the game is over")?;
        Ok(Choice {
            name,
            note: format!("final seeds {:?}", s.scores),
        })
    }

    fn hints(&mut self, game: &dyn Playable) -> Result<Vec<(String, String)>, GameError> {
        let s = solve(downcast::<MultiGame>(game, "max-n")?, self.node_limit)?;
        Ok(s.move_values
            .into_iter()
            .map(|(m, v)| (m, format!("{v:?}")))
            .collect())
    }
}
