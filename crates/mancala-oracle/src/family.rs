//! The packed two-row presets behind the common game interface, with perfect play as their
//! engine.

use crate::{Oracle, Settings};
use mancala_rules::{
    downcast, parse_position, Choice, Engine, Family, Game, GameError, GameFamily, GameOption,
    GameSpec, Playable, Preset, PresetInfo, Rule, Side,
};
use mancala_search::Observer;
use mancala_tables::BuildObserver;
use std::sync::Arc;

/// Awari, Oware, Wari, Kalah, Mancala and the sowing family on the packed board: the presets
/// with tables. Their engine is an [`Oracle`] with these settings.
pub struct PackedFamily {
    /// How the engine's oracle answers.
    pub settings: Settings,
    /// Sees the tables the engine builds before its first move.
    pub builds: Arc<dyn BuildObserver + Send + Sync>,
    /// Sees the engine's searches.
    pub searches: Arc<dyn Observer + Send + Sync>,
}

/// The options of a packed preset: (name, help), as `mancala variants` lists them.
pub fn preset_options(p: Preset) -> Vec<(&'static str, &'static str)> {
    let mut options = Vec::new();
    match p.family() {
        Family::Kalah => options.push((
            "--empty-capture",
            "the last seed in an empty own pit is stored even if the opposite pit is empty",
        )),
        Family::Awari if p == Preset::Wari => options.push((
            "--grand-slam",
            "forbidden (gs1), no-capture (gs2, default), take-all (gs3a), victim-takes-rest (gs3b), spare-last (gs4), spare-first (gs5), extra-move (gs6)",
        )),
        Family::Awari => {}
        Family::Sowing => options.extend(Rule::for_preset(p).map(|r| (r.1, r.4))),
    }
    if p == Preset::NamNam {
        options.push(("--owners", "a later round: who owns each pit, s or n a pit, South's then North's (e.g. ssssssnnsnnn); positions then end with the side to move"));
        options.push((
            "--match",
            "play: every round, the winner taking pits of the other row (t0..)",
        ));
    }
    options
}

/// The rule family's name, as `mancala variants` prints it.
pub fn family_name(f: Family) -> &'static str {
    match f {
        Family::Awari => "awari",
        Family::Kalah => "kalah",
        Family::Sowing => "sowing",
    }
}

impl GameFamily for PackedFamily {
    fn presets(&self) -> Vec<&'static str> {
        Preset::ALL.iter().map(|p| p.name()).collect()
    }

    fn info(&self, preset: &str) -> Option<PresetInfo> {
        let p: Preset = preset.parse().ok()?;
        Some(PresetInfo {
            name: p.name(),
            family: family_name(p.family()),
            summary: p.summary(),
            options: preset_options(p),
            tables: true,
            forced: false,
            unplayable: None,
        })
    }

    fn new_game(&self, spec: &GameSpec) -> Result<Box<dyn Playable>, GameError> {
        Ok(Box::new(game(spec)?))
    }

    fn engine(&self, spec: &GameSpec) -> Result<Option<Box<dyn Engine>>, GameError> {
        let g = game(spec)?;
        let mut oracle = Oracle::new(g.rules().clone(), self.settings.clone());
        // Tables sized for the position the game starts from serve every later one.
        if let Some(plan) = oracle.plan_tables(g.board().total() as usize)? {
            oracle.use_tables(&plan, self.builds.as_ref())?;
        }
        Ok(Some(Box::new(PerfectPlay {
            oracle,
            searches: self.searches.clone(),
        })))
    }
}

/// A packed game from the user's options, at its start or at `spec.position` (South to move,
/// unless the position says North).
pub fn game(spec: &GameSpec) -> Result<Game, GameError> {
    use GameOption::*;
    spec.only(&[Pits, Seeds, EmptyCapture, GrandSlam, Rule, Owners, Position])?;
    let rules = mancala_rules::Rules::new(spec.variant()?);
    Ok(match &spec.position {
        Some(p) => {
            let b = parse_position(&rules, p)?;
            let side = if b.north() { Side::North } else { Side::South };
            Game::from_position(rules, b, side)
        }
        None => Game::new(rules),
    })
}

/// Perfect play: the oracle's best move, every move's exact value as a hint.
struct PerfectPlay {
    oracle: Oracle,
    searches: Arc<dyn Observer + Send + Sync>,
}

impl Engine for PerfectPlay {
    fn choose(&mut self, game: &dyn Playable) -> Result<Choice, GameError> {
        let g = downcast::<Game>(game, "perfect-play")?;
        let s = self.oracle.solve(g.board(), self.searches.as_ref())?;
        let (Some(value), Some(&pit)) = (s.value, s.best.first()) else {
            return Err(format!(
                "the engine ran out of time (the value lies in [{:+}, {:+}])",
                s.lo, s.hi
            )
            .into());
        };
        Ok(Choice {
            name: pit.to_string(),
            note: format!("value {value:+} for {}", g.to_move().name()),
        })
    }

    fn hints(&mut self, game: &dyn Playable) -> Result<Vec<(String, String)>, GameError> {
        let g = downcast::<Game>(game, "perfect-play")?;
        let a = self.oracle.query(g.board(), self.searches.as_ref())?;
        Ok(a.moves
            .iter()
            .map(|m| {
                let mark = if a.best.contains(&m.pit) {
                    " (best)"
                } else {
                    ""
                };
                (m.pit.to_string(), format!("{m}{mark}"))
            })
            .collect())
    }
}
