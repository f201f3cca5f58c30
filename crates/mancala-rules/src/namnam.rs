//! Oware Nam-nam as a whole game: rounds, and pits changing hands between them
//! (docs/rules.md, nam-nam).
//!
//! A round is an ordinary packed [`Game`] whose [`Variant::owners`] says who owns which pit, so
//! its positions are the ones the tables of that ownership hold. Between rounds the board is
//! refilled: the player with more seeds owns his row plus, for every further pit's worth of
//! seeds, a pit of the other row that he chooses (moves `t0`..: take the loser's pit `j`).
//! The game is won by the player who holds every seed at the end of a round.
//!
//! Readings where the source is silent (docs/variants.md):
//! - South starts the first round ("guess which fist holds a seed"); the rounds after it are
//!   started by the other player in turn.
//! - A round that repeats a position a third time ends with each player taking the seeds of
//!   the pits he owns. The count then need not be a multiple of four: the winner owns as many
//!   pits as his seeds fill (`seeds / 4`, rounded down), the loser the rest.
//! - A drawn round (24:24) changes no pit's owner (the reading in docs/rules.md, nam-nam).
//! - After [`MAX_ROUNDS`] rounds without a winner the game is a draw.

use crate::{Game, Options, Playable, Preset, Rules, RulesError, Side, Variant};
use std::any::Any;
use std::error::Error;

/// Rounds after which an undecided game is called a draw.
pub const MAX_ROUNDS: u32 = 100;

/// One finished round.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RoundResult {
    /// The round's number, from 1.
    pub round: u32,
    /// Who owned which pit ([`Variant::owners_text`]).
    pub owners: String,
    /// Who moved first.
    pub starter: Side,
    /// Seeds taken by `[south, north]`.
    pub captured: [u32; 2],
}

/// Where the game stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// A round is being played.
    Playing,
    /// `winner` took more seeds and chooses `left` more pits of the other row.
    Claiming {
        /// The side that took more seeds in the round and now claims pits.
        winner: Side,
        /// How many more pits of the other row it claims.
        left: u32,
    },
    /// Over: the winner holds every seed (`None`: a draw after [`MAX_ROUNDS`]).
    Over {
        /// The side holding every seed, `None` for a draw.
        winner: Option<Side>,
    },
}

/// A game of nam-nam over all its rounds.
#[derive(Clone, Debug)]
pub struct NamNamMatch {
    pits: u32,
    seeds: u32,
    round: u32,
    starter: Side,
    /// South's pits for the round being played or prepared (bit `i`: pit `i` in position
    /// order, South to move).
    owners: u16,
    game: Game,
    phase: Phase,
    results: Vec<RoundResult>,
}

impl NamNamMatch {
    /// A new game: round 1, each player owning his own row, South to move.
    pub fn new(pits: Option<u32>, seeds: Option<u32>) -> Result<NamNamMatch, RulesError> {
        let opts = Options {
            pits,
            seeds,
            ..Options::default()
        };
        let v = Variant::new(Preset::NamNam, opts)?;
        let owners = v.owners;
        Ok(NamNamMatch {
            pits: v.pits as u32,
            seeds: v.seeds as u32,
            round: 1,
            starter: Side::South,
            owners,
            game: Game::new(Rules::new(v)),
            phase: Phase::Playing,
            results: Vec::new(),
        })
    }

    /// The round being played (or the last one, once over).
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The number of the round being played or prepared, from 1.
    pub fn round(&self) -> u32 {
        self.round
    }

    /// Where the game stands: in a round, between rounds, or over.
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// Every finished round, oldest first.
    pub fn results(&self) -> &[RoundResult] {
        &self.results
    }

    /// Who owns which pit in the round being played or prepared.
    pub fn owners_text(&self) -> String {
        Variant::owners_to_text(self.pits, self.owners)
    }

    /// The side whose decision is awaited (none once over).
    pub fn to_move(&self) -> Option<Side> {
        match self.phase {
            Phase::Playing => Some(self.game.to_move()),
            Phase::Claiming { winner, .. } => Some(winner),
            Phase::Over { .. } => None,
        }
    }

    /// The legal moves' names: pit numbers in a round, `tJ` while claiming.
    pub fn legal(&self) -> Vec<String> {
        match self.phase {
            Phase::Playing => self.game.legal().iter().map(|p| p.to_string()).collect(),
            Phase::Claiming { winner, .. } => (0..self.pits)
                .filter(|&j| self.claimable(winner, j))
                .map(|j| format!("t{j}"))
                .collect(),
            Phase::Over { .. } => Vec::new(),
        }
    }

    /// Plays a move by name (see [`NamNamMatch::legal`]).
    pub fn play(&mut self, mv: &str) -> Result<(), RulesError> {
        let mv = mv.trim();
        match self.phase {
            Phase::Over { .. } => Err(RulesError::BadMatchMove(format!(
                "the game is over; no move '{mv}' can be played"
            ))),
            Phase::Claiming { winner, left } => {
                let j = mv
                    .strip_prefix('t')
                    .and_then(|j| j.parse::<u32>().ok())
                    .filter(|&j| self.claimable(winner, j))
                    .ok_or_else(|| {
                        RulesError::BadMatchMove(format!(
                            "'{mv}': {} chooses a pit of the other row to own, one of [{}]",
                            winner.name(),
                            self.legal().join(", ")
                        ))
                    })?;
                // North's pit j is pit m + j in South's order; South's pit j is pit j.
                match winner {
                    Side::South => self.owners |= 1 << (self.pits + j),
                    Side::North => self.owners &= !(1 << j),
                }
                self.phase = match left - 1 {
                    0 => self.start_round()?,
                    left => Phase::Claiming { winner, left },
                };
                Ok(())
            }
            Phase::Playing => {
                let limit = self.game.rules().move_limit();
                let pit = crate::parse_moves(limit, mv)?;
                let [pit] = pit[..] else {
                    return Err(RulesError::BadMatchMove(format!(
                        "'{mv}': one move at a time"
                    )));
                };
                self.game.play(pit)?;
                if self.game.is_over() {
                    self.end_round()?;
                }
                Ok(())
            }
        }
    }

    /// Can `winner` still take the loser's pit `j`?
    fn claimable(&self, winner: Side, j: u32) -> bool {
        j < self.pits
            && match winner {
                Side::South => self.owners >> (self.pits + j) & 1 == 0,
                Side::North => self.owners >> j & 1 == 1,
            }
    }

    /// Books the finished round and prepares the next: the refill, or the end of the game.
    fn end_round(&mut self) -> Result<(), RulesError> {
        let captured = self.game.stores();
        self.results.push(RoundResult {
            round: self.round,
            owners: self.owners_text(),
            starter: self.starter,
            captured,
        });
        let total = 2 * self.pits * self.seeds;
        if let Some(w) = [Side::South, Side::North]
            .into_iter()
            .find(|s| captured[s.index()] == total)
        {
            self.phase = Phase::Over { winner: Some(w) };
            return Ok(());
        }
        if self.round == MAX_ROUNDS {
            self.phase = Phase::Over { winner: None };
            return Ok(());
        }
        let (winner, seeds) = match captured[0].cmp(&captured[1]) {
            std::cmp::Ordering::Equal => {
                self.phase = self.start_round()?;
                return Ok(());
            }
            std::cmp::Ordering::Greater => (Side::South, captured[0]),
            std::cmp::Ordering::Less => (Side::North, captured[1]),
        };
        // Every player starts the refill owning his own row; the winner then takes one pit of
        // the other row for each further pit his seeds fill.
        self.owners = (1 << self.pits) - 1;
        let extra = (seeds / self.seeds).saturating_sub(self.pits);
        self.phase = match extra {
            0 => self.start_round()?,
            left => Phase::Claiming { winner, left },
        };
        Ok(())
    }

    /// Starts the next round on a full board with the current owners.
    fn start_round(&mut self) -> Result<Phase, RulesError> {
        let opts = Options {
            pits: Some(self.pits),
            seeds: Some(self.seeds),
            owners: Some(self.owners),
            ..Options::default()
        };
        let rules = Rules::new(Variant::new(Preset::NamNam, opts)?);
        self.round += 1;
        self.starter = self.starter.other();
        let start = rules.start();
        self.game = Game::from_position(rules, start, self.starter);
        Ok(Phase::Playing)
    }
}

/// A whole nam-nam game, played round after round (`mancala play nam-nam --match`).
impl Playable for NamNamMatch {
    fn describe(&self) -> String {
        let g = self.game().rules().variant();
        format!(
            "nam-nam match ({} pits x {} seeds), round {}, owners {}",
            g.pits,
            g.seeds,
            self.round(),
            self.owners_text()
        )
    }

    fn pits(&self) -> Vec<u32> {
        Playable::pits(self.game())
    }

    fn stores(&self) -> Vec<u32> {
        self.game().stores().to_vec()
    }

    fn to_move(&self) -> String {
        self.to_move().map_or("none", |s| s.name()).to_string()
    }

    fn is_over(&self) -> bool {
        matches!(self.phase(), Phase::Over { .. })
    }

    fn legal(&self) -> Vec<String> {
        self.legal()
    }

    fn play(&mut self, mv: &str) -> Result<(), Box<dyn Error + Send + Sync>> {
        Ok(self.play(mv)?)
    }

    fn draw(&self) -> String {
        let mut s = String::new();
        for r in self.results() {
            s += &format!(
                "round {}: South {} - North {} (owners {}, {} started)\n",
                r.round,
                r.captured[0],
                r.captured[1],
                r.owners,
                r.starter.name()
            );
        }
        match self.phase() {
            Phase::Playing => s += &self.game().draw(),
            Phase::Claiming { winner, left } => {
                s += &format!(
                    "{} won the round: he owns his row and chooses {left} more pit(s) of the other row: {}",
                    winner.name(),
                    self.legal().join(" ")
                );
            }
            Phase::Over { winner: Some(w) } => {
                s += &format!("Game over: {} holds every seed and wins.", w.name())
            }
            Phase::Over { winner: None } => {
                s += &format!("Game over: a draw, no winner after {MAX_ROUNDS} rounds.")
            }
        }
        s
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}
