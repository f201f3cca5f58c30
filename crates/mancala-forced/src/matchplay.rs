//! El-akil / el-ghasheem match play: rounds until one player's captures add up to the target.

use crate::game::{first_mover, EndReason, ForcedGame};
use crate::rules::{ForcedRules, Preset};
use crate::solve::value_setup;
use crate::ForcedError;
use mancala_rules::Side;

/// Seeds a player must capture over the rounds to win the set: «Первый игрок, который
/// последовательно доводил счёт захваченных камней до шестидесяти, выигрывал весь сет» (the
/// el-akil text of the Russian rules compilation).
pub const MATCH_TARGET: u32 = 60;

/// The default cap on the rounds of a match. Every round puts all of its seeds into the barns,
/// so with the default target and any valid seed total a match is over within 60 rounds; the cap
/// only matters for a raised target.
pub const MATCH_ROUND_LIMIT: u32 = 1000;

/// A player of a match. `A` distributes in round 1, `B` in round 2, and so on alternately.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MatchPlayer {
    /// The player who distributes in odd rounds.
    A,
    /// The player who distributes in even rounds.
    B,
}

impl MatchPlayer {
    /// The other player.
    pub fn other(self) -> MatchPlayer {
        match self {
            MatchPlayer::A => MatchPlayer::B,
            MatchPlayer::B => MatchPlayer::A,
        }
    }

    /// `"a"` or `"b"`.
    pub fn as_str(self) -> &'static str {
        match self {
            MatchPlayer::A => "a",
            MatchPlayer::B => "b",
        }
    }

    /// The index of this player in the `[A, B]` arrays of [`MatchRound`] and [`MatchReport`].
    pub fn index(self) -> usize {
        match self {
            MatchPlayer::A => 0,
            MatchPlayer::B => 1,
        }
    }

    /// Who distributes in round `number` (1-based): A in odd rounds, B in even ones.
    pub fn distributor_of_round(number: u32) -> MatchPlayer {
        if number % 2 == 1 {
            MatchPlayer::A
        } else {
            MatchPlayer::B
        }
    }
}

/// How a match is played, beyond the game's rules and setup.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatchOptions {
    /// The second player's swap in every round: `None` (default) lets him choose with the
    /// crate's valuation ([`crate::solve_setup`]: he swaps iff the round played swapped gives
    /// him strictly more seeds); `Some(b)` fixes it for every round.
    pub swap: Option<bool>,
    /// Captured seeds that win the set (default [`MATCH_TARGET`]); at least 1.
    pub target: u32,
    /// The most rounds played before giving up with [`ForcedError::RoundLimit`] (default
    /// [`MATCH_ROUND_LIMIT`]).
    pub round_limit: u32,
}

impl Default for MatchOptions {
    fn default() -> Self {
        MatchOptions {
            swap: None,
            target: MATCH_TARGET,
            round_limit: MATCH_ROUND_LIMIT,
        }
    }
}

/// One round of a match. Arrays are indexed `[A, B]` ([`MatchPlayer::index`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatchRound {
    /// 1-based.
    pub number: u32,
    /// The layout, absolute order with the distributor as South (the same every round).
    pub setup: Vec<u32>,
    /// Who laid out the seeds this round (and played South).
    pub distributor: MatchPlayer,
    /// Whether the other player swapped.
    pub swapped: bool,
    /// Who made the first move (the pie rule: the non-distributor unless he swapped).
    pub first_mover: MatchPlayer,
    /// Seeds each player captured in this round, including the end-of-round sweep when the
    /// round was played out; for a round cut short by the target, the count at that moment.
    pub captured: [u32; 2],
    /// Cumulative captures after this round (or at the moment the target was reached).
    pub totals: [u32; 2],
    /// Forced moves played in this round.
    pub moves: u64,
    /// How the round ended; `None` when it was stopped because a capture reached the target
    /// (seeds still on the board, and any sweep that move would have caused, are not counted).
    pub end: Option<EndReason>,
}

/// How the deciding round reached the target.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Reached {
    /// By the winner's capture in forced move number `moves` of the round (1-based).
    Capture {
        /// The forced move's number in the round, from 1.
        moves: u64,
    },
    /// By the seeds the players took when the round ended (the sweep of `one-each`, `no-feed`,
    /// `cycle`, ...), which may bring both players to the target at once.
    EndOfRound,
}

/// A whole match.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatchReport {
    /// The preset with the options that differ from its defaults.
    pub description: String,
    /// The captured seeds that won the set.
    pub target: u32,
    /// Every round played, the deciding one last.
    pub rounds: Vec<MatchRound>,
    /// The set's winner; `None` when both players reached the target at the same moment (an
    /// end-of-round sweep) with equal totals.
    pub winner: Option<MatchPlayer>,
    /// The round in which the target was reached (= the number of rounds played).
    pub decided_in: u32,
    /// How the deciding round reached the target.
    pub reached: Reached,
    /// Final cumulative captures `[A, B]`.
    pub totals: [u32; 2],
}

impl MatchReport {
    /// `"a"`, `"b"` or `"draw"`.
    pub fn winner_str(&self) -> &'static str {
        self.winner.map_or("draw", MatchPlayer::as_str)
    }
}

/// Plays a match of a validated setup; see [`crate::play_match`], which has already refused
/// madjnuni (before the setup is parsed, so that refusal comes first).
pub(crate) fn run_match(
    rules: &ForcedRules,
    setup: &[u32],
    opts: &MatchOptions,
) -> Result<MatchReport, ForcedError> {
    debug_assert_ne!(rules.preset, Preset::Madjnuni);
    if opts.target == 0 {
        return Err(ForcedError::BadTarget { got: opts.target });
    }
    let target = opts.target;
    // The same setup every round, so the second player's choice is the same every round.
    let swapped = opts
        .swap
        .unwrap_or_else(|| value_setup(rules, setup).second_swaps);
    let mut totals = [0u32; 2];
    let mut rounds = Vec::new();
    for number in 1..=opts.round_limit {
        let distributor = MatchPlayer::distributor_of_round(number);
        // South is always the round's distributor.
        let player = |side: Side| match side {
            Side::South => distributor,
            Side::North => distributor.other(),
        };
        // A per-side count `[South, North]` as `[A, B]`.
        let by_player = |s: [u32; 2]| {
            let mut out = [0; 2];
            out[player(Side::South).index()] = s[0];
            out[player(Side::North).index()] = s[1];
            out
        };
        let base = totals;
        let add = |c: [u32; 2]| [base[0] + c[0], base[1] + c[1]];
        let mut g = ForcedGame::from_setup(rules.clone(), setup.to_vec(), swapped);
        let mut round = MatchRound {
            number,
            setup: setup.to_vec(),
            distributor,
            swapped,
            first_mover: player(first_mover(rules.preset, swapped)),
            captured: [0; 2],
            totals: base,
            moves: 0,
            end: None,
        };
        let mut decided: Option<(Option<MatchPlayer>, Reached)> = None;
        while !g.over() {
            let before = g.captured();
            let rep = g.step()?;
            if rep.captured == 0 {
                continue;
            }
            // The capture itself, before any sweep the same move caused.
            let mut at_capture = before;
            at_capture[rep.side.index()] += rep.captured;
            let now = add(by_player(at_capture));
            let mover = player(rep.side);
            if now[mover.index()] >= target {
                round.captured = by_player(at_capture);
                round.totals = now;
                round.moves = g.moves_played();
                decided = Some((
                    Some(mover),
                    Reached::Capture {
                        moves: g.moves_played(),
                    },
                ));
                break;
            }
        }
        if decided.is_none() {
            round.captured = by_player(g.captured());
            round.totals = add(round.captured);
            round.moves = g.moves_played();
            round.end = g.end_reason();
            let [a, b] = round.totals;
            if a >= target || b >= target {
                let winner = match a.cmp(&b) {
                    std::cmp::Ordering::Greater => Some(MatchPlayer::A),
                    std::cmp::Ordering::Less => Some(MatchPlayer::B),
                    std::cmp::Ordering::Equal => None,
                };
                decided = Some((winner, Reached::EndOfRound));
            }
        }
        totals = round.totals;
        rounds.push(round);
        if let Some((winner, reached)) = decided {
            return Ok(MatchReport {
                description: rules.describe(),
                target,
                rounds,
                winner,
                decided_in: number,
                reached,
                totals,
            });
        }
    }
    Err(ForcedError::RoundLimit {
        limit: opts.round_limit,
        target,
        a: totals[0],
        b: totals[1],
    })
}
