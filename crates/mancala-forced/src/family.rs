//! The forced-move games behind the common game interface. They have no choice during play,
//! so no engine: `solve` values the distributor's setup, played both ways.

use crate::{new_game, options_help, preset_names, solve_setup, summary, Outcome};
use mancala_rules::{
    Field, GameError, GameFamily, GameOption, GameSpec, Playable, PresetInfo, Report, RulesError,
};

/// La'b madjnuni, Leab el-akil and Leab el-ghasheem.
pub struct ForcedFamily;

impl GameFamily for ForcedFamily {
    fn presets(&self) -> Vec<&'static str> {
        preset_names().to_vec()
    }

    fn info(&self, preset: &str) -> Option<PresetInfo> {
        PresetInfo::find(preset, preset_names(), "forced", summary, options_help)
            .map(|i| PresetInfo { forced: true, ..i })
    }

    fn new_game(&self, spec: &GameSpec) -> Result<Box<dyn Playable>, GameError> {
        check(spec)?;
        Ok(Box::new(new_game(
            &spec.preset,
            spec.pits,
            spec.seeds,
            &spec.rules,
            spec.setup.as_deref(),
            spec.swapped,
        )?))
    }

    fn solve(&self, spec: &GameSpec, _node_limit: u64) -> Result<Report, GameError> {
        check(spec)?;
        spec.only(&[
            GameOption::Pits,
            GameOption::Seeds,
            GameOption::Rule,
            GameOption::Setup,
        ])?;
        let v = solve_setup(
            &spec.preset,
            spec.pits,
            spec.seeds,
            &spec.rules,
            spec.setup.as_deref(),
        )?;
        let mut lines = vec![format!("{}: setup {:?}", v.description, v.setup)];
        for (label, o) in [("kept", &v.kept), ("swapped", &v.swapped)] {
            lines.push(format!(
                "  {label:<8} distributor {:>3}, second {:>3}: {} after {} moves ({})",
                o.distributor,
                o.second,
                o.winner_str(),
                o.moves,
                o.end.as_str()
            ));
        }
        lines.push(format!(
            "the second player {} the swap; the distributor ends with {} seeds",
            if v.second_swaps { "takes" } else { "declines" },
            v.distributor_value
        ));
        Ok(Report {
            lines,
            fields: vec![
                ("rules", v.description.into()),
                ("setup", v.setup.into()),
                ("kept", outcome(&v.kept)),
                ("swapped", outcome(&v.swapped)),
                ("second_swaps", v.second_swaps.into()),
                ("distributor_value", v.distributor_value.into()),
            ],
        })
    }
}

/// A forced game starts from a setup, never from a position.
fn check(spec: &GameSpec) -> Result<(), GameError> {
    if spec.position.is_some() {
        return Err(RulesError::SetupNotPosition {
            preset: spec.preset.clone(),
        }
        .into());
    }
    spec.only(&[
        GameOption::Pits,
        GameOption::Seeds,
        GameOption::Rule,
        GameOption::Setup,
        GameOption::Swap,
    ])
}

fn outcome(o: &Outcome) -> Field {
    Field::Object(vec![
        ("swapped", o.swapped.into()),
        ("first_mover", o.first_mover.as_str().into()),
        ("distributor", o.distributor.into()),
        ("second", o.second.into()),
        ("winner", o.winner_str().into()),
        ("moves", o.moves.into()),
        ("end", o.end.as_str().into()),
    ])
}
