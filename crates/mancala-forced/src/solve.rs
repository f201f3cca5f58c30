//! Valuing a setup under the pie rule, and the exhaustive best-setup search for tiny boards.

use crate::game::{EndReason, ForcedGame};
use crate::rules::{AkilSetup, ForcedRules, Preset};
use crate::setup::{paired_pits, validate_setup};
use crate::ForcedError;
use mancala_rules::Side;

/// A player by role in the pie rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Role {
    /// Laid out the seeds (South in the setup string).
    Distributor,
    /// May swap sides.
    Second,
}

impl Role {
    /// The role of a side: South is always the distributor (a swap rotates the board instead).
    fn of(side: Side) -> Role {
        match side {
            Side::South => Role::Distributor,
            Side::North => Role::Second,
        }
    }

    /// `"distributor"` or `"second"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Role::Distributor => "distributor",
            Role::Second => "second",
        }
    }
}

/// One whole simulated game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// Whether the second player swapped in this game.
    pub swapped: bool,
    /// Who made the first move.
    pub first_mover: Role,
    /// Seeds the distributor captured (including the end-of-game sweep).
    pub distributor: u32,
    /// Seeds the second player captured (including the end-of-game sweep).
    pub second: u32,
    /// The winner, None for a draw.
    pub winner: Option<Role>,
    /// Forced moves played (passes not counted).
    pub moves: u64,
    /// Why the game ended.
    pub end: EndReason,
}

impl Outcome {
    /// `"distributor"`, `"second"` or `"draw"`.
    pub fn winner_str(&self) -> &'static str {
        self.winner.map_or("draw", Role::as_str)
    }
}

/// The value of a setup: both games and the second player's choice.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SetupValue {
    /// The preset with the options that differ from its defaults.
    pub description: String,
    /// The setup as laid out (absolute order, South = distributor).
    pub setup: Vec<u32>,
    /// The game when the second player keeps his side.
    pub kept: Outcome,
    /// The game when the second player swaps.
    pub swapped: Outcome,
    /// The second player swaps iff that gives him strictly more seeds (a tie keeps the board).
    pub second_swaps: bool,
    /// The distributor's seeds after the second player's choice.
    pub distributor_value: u32,
}

impl SetupValue {
    /// The game actually played after the second player's choice.
    pub fn chosen(&self) -> &Outcome {
        if self.second_swaps {
            &self.swapped
        } else {
            &self.kept
        }
    }
}

fn play_out(rules: &ForcedRules, setup: &[u32], swapped: bool) -> Outcome {
    let mut g = ForcedGame::from_setup(rules.clone(), setup.to_vec(), swapped);
    let first = crate::game::first_mover(rules.preset, swapped);
    g.run();
    let [d, s] = g.captured();
    Outcome {
        swapped,
        first_mover: Role::of(first),
        distributor: d,
        second: s,
        winner: g.winner().map(Role::of),
        moves: g.moves_played(),
        end: g.end_reason().expect("run ends the game"),
    }
}

/// Values a validated setup.
pub(crate) fn value_setup(rules: &ForcedRules, setup: &[u32]) -> SetupValue {
    let kept = play_out(rules, setup, false);
    let swapped = play_out(rules, setup, true);
    let second_swaps = swapped.second > kept.second;
    let distributor_value = if second_swaps {
        swapped.distributor
    } else {
        kept.distributor
    };
    SetupValue {
        description: rules.describe(),
        setup: setup.to_vec(),
        kept,
        swapped,
        second_swaps,
        distributor_value,
    }
}

/// The result of [`crate::best_setup`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BestSetup {
    /// The preset with the options that differ from its defaults.
    pub description: String,
    /// Valid setups enumerated.
    pub setups: u64,
    /// The most seeds the distributor can secure, the second player choosing his side.
    pub best_value: u32,
    /// The setups reaching it (at most 20 are listed, in enumeration order).
    pub best: Vec<Vec<u32>>,
    /// How many setups reach it.
    pub best_count: u64,
    /// The full value of the first best setup.
    pub first: SetupValue,
}

/// Calls `f` on every composition of `total` into `k` parts each >= `min`.
fn compositions(k: usize, total: u32, min: u32, f: &mut dyn FnMut(&[u32])) {
    fn rec(parts: &mut Vec<u32>, k: usize, left: u32, min: u32, f: &mut dyn FnMut(&[u32])) {
        if parts.len() + 1 == k {
            parts.push(left);
            f(parts);
            parts.pop();
            return;
        }
        let rest = (k - parts.len() - 1) as u32 * min;
        let mut c = min;
        while c + rest <= left {
            parts.push(c);
            rec(parts, k, left - c, min, f);
            parts.pop();
            c += 1;
        }
    }
    if k == 0 || total < k as u32 * min {
        return;
    }
    rec(&mut Vec::with_capacity(k), k, total, min, f);
}

fn binom(n: u64, k: u64) -> u128 {
    let mut r: u128 = 1;
    for i in 0..k {
        r = r * (n - i) as u128 / (i + 1) as u128;
        if r > u64::MAX as u128 {
            return r;
        }
    }
    r
}

/// Counts the setups of a preset without enumerating (an upper bound for el-akil).
fn count_bound(rules: &ForcedRules) -> u128 {
    let n = 2 * rules.pits as u64;
    let t = rules.total as u64;
    match (rules.preset, rules.setup_kind) {
        (Preset::ElAkil, AkilSetup::Leftmost) => t.saturating_sub(1) as u128,
        (Preset::ElAkil, AkilSetup::Mirror) => {
            // Every composition of `total` into n parts bounds the mirror setups.
            binom(t + n - 1, n - 1)
        }
        (p, _) => {
            let free = t - p.min_per_pit() as u64 * n;
            binom(free + n - 1, n - 1)
        }
    }
}

pub(crate) fn search(rules: &ForcedRules, limit: u64) -> Result<BestSetup, ForcedError> {
    let bound = count_bound(rules);
    if bound > limit as u128 {
        return Err(ForcedError::TooManySetups {
            count: bound,
            limit,
        });
    }
    let n = 2 * rules.pits as usize;
    let m = rules.pits as usize;
    let mut setups = 0u64;
    let mut best_value = 0u32;
    let mut best: Vec<Vec<u32>> = Vec::new();
    let mut best_count = 0u64;
    let mut first: Option<SetupValue> = None;
    let mut consider = |s: &[u32]| {
        if validate_setup(rules, s).is_err() {
            return;
        }
        setups += 1;
        let v = value_setup(rules, s);
        if first.is_none() || v.distributor_value > best_value {
            best_value = v.distributor_value;
            best.clear();
            best_count = 0;
            first = Some(v.clone());
        }
        if v.distributor_value == best_value {
            best_count += 1;
            if best.len() < 20 {
                best.push(s.to_vec());
            }
        }
    };
    match (rules.preset, rules.setup_kind) {
        (Preset::ElAkil, AkilSetup::Mirror) => {
            // Choose the non-empty pairs by bitmask, then split the seeds over their pits.
            for mask in 1u32..(1u32 << m) {
                let south: Vec<usize> = (0..m).filter(|i| mask >> i & 1 == 1).collect();
                let at = paired_pits(rules, &south);
                compositions(at.len(), rules.total, 1, &mut |parts| {
                    let mut s = vec![0; n];
                    for (&i, &c) in at.iter().zip(parts) {
                        s[i] = c;
                    }
                    consider(&s);
                });
            }
        }
        (Preset::ElAkil, AkilSetup::Leftmost) => {
            for a in 1..rules.total {
                let mut s = vec![0; n];
                s[0] = a;
                s[m] = rules.total - a;
                consider(&s);
            }
        }
        (p, _) => compositions(n, rules.total, p.min_per_pit(), &mut consider),
    }
    let first = first.ok_or_else(|| {
        ForcedError::BadSetup("no valid setup exists for this size; add seeds".to_string())
    })?;
    Ok(BestSetup {
        description: rules.describe(),
        setups,
        best_value,
        best,
        best_count,
        first,
    })
}
