//! The one list of game families: every preset name is looked up here, and everything after
//! that goes through the `GameFamily` and `Engine` traits. A new game is its crate and one
//! line in [`families`].

use anyhow::{anyhow, bail, Context, Result};
use mancala_bao::BaoFamily;
use mancala_forced::ForcedFamily;
use mancala_multi::MultiFamily;
use mancala_oracle::PackedFamily;
use mancala_rules::{GameError, GameFamily, GameSpec, Playable, PresetInfo, Report, RulesError};
use std::sync::Arc;

/// What the families need from the command line: the perfect-play engine's settings and
/// observers, Bao's search depth and the max-n node budget.
pub struct Engines {
    pub packed: PackedFamily,
    pub bao_depth: u32,
    pub node_limit: u64,
}

impl Default for Engines {
    fn default() -> Self {
        Engines {
            packed: PackedFamily {
                settings: Default::default(),
                builds: Arc::new(()),
                searches: Arc::new(()),
            },
            bao_depth: 6,
            node_limit: 50_000_000,
        }
    }
}

/// Every family, in the order a preset name is looked up: the packed presets first (they
/// have tables; `mankala-2p` is played there too), then the crates of the other games.
pub fn families(e: Engines) -> Vec<Box<dyn GameFamily>> {
    vec![
        Box::new(e.packed),
        Box::new(MultiFamily {
            node_limit: e.node_limit,
        }),
        Box::new(ForcedFamily),
        Box::new(BaoFamily { depth: e.bao_depth }),
        Box::new(Listed),
    ]
}

/// The family that plays `name`, and what the preset is.
pub fn find<'a>(
    families: &'a [Box<dyn GameFamily>],
    name: &str,
) -> Result<(&'a dyn GameFamily, PresetInfo)> {
    families
        .iter()
        .find_map(|f| f.info(name).map(|info| (f.as_ref(), info)))
        .ok_or_else(|| RulesError::UnknownVariant(name.to_string()).into())
}

/// Fails unless `name` is a preset with tables, saying what the preset is instead.
pub fn check_tables(name: &str) -> Result<()> {
    let families = families(Engines::default());
    let (_, info) = find(&families, name)?;
    if let Some(why) = info.unplayable {
        bail!("{name} cannot be played: {why}");
    }
    if !info.tables {
        bail!(
            "{name} has no endgame tables (tables exist for the two-row games whose seeds leave the board: `mancala variants` marks them); `mancala play {name}` plays it"
        );
    }
    Ok(())
}

/// Gabata is in the sources but cannot be played: its sowing path over the 3x6 board is a
/// diagram missing from the source.
struct Listed;

const GABATA_REASON: &str = "the sowing path over its 3x6 board is a diagram missing from \
the source (docs/rules.md, gabata), so its moves cannot be defined";

impl GameFamily for Listed {
    fn presets(&self) -> Vec<&'static str> {
        vec!["gabata"]
    }

    fn info(&self, preset: &str) -> Option<PresetInfo> {
        (preset == "gabata").then_some(PresetInfo {
            name: "gabata",
            family: "none",
            summary: "Gabata (Ethiopia), three rows of six",
            options: Vec::new(),
            tables: false,
            forced: false,
            unplayable: Some(GABATA_REASON),
        })
    }

    fn new_game(&self, spec: &GameSpec) -> Result<Box<dyn Playable>, GameError> {
        Err(format!("{} cannot be played: {GABATA_REASON}", spec.preset).into())
    }

    fn solve(&self, spec: &GameSpec, _: u64) -> Result<Report, GameError> {
        Err(format!("{} cannot be played: {GABATA_REASON}", spec.preset).into())
    }
}

/// A library error, as the command line shows it (a rules error kept whole, for its words).
pub fn game_error(e: GameError) -> anyhow::Error {
    match e.downcast::<RulesError>() {
        Ok(rules) => anyhow::Error::new(*rules),
        Err(e) => anyhow!("{e}"),
    }
}

/// Applies a comma-separated list of move names.
pub fn play_moves(game: &mut dyn Playable, list: &str) -> Result<()> {
    for (i, mv) in list
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .enumerate()
    {
        let who = game.to_move();
        game.play(mv)
            .map_err(game_error)
            .with_context(|| format!("move #{} ({who} to move)", i + 1))?;
    }
    Ok(())
}
