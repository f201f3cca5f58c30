//! The rules engine: a compact board, sowing, captures, passes and the end of the game.

use std::collections::HashSet;

/// The most pits a board can have: 4 players x 6 pits.
pub(crate) const MAX_PITS: usize = 24;

/// Every pit's seeds in seat order (P1's pits left to right, then P2's, ...); unused cells are 0.
pub(crate) type Pits = [u8; MAX_PITS];

/// Per-player amounts (seeds gained, house totals); unused seats are 0.
pub(crate) type Gains = [u32; 4];

/// Seeds in all the pits. They never increase, so a position with fewer cannot repeat one
/// with more: the solver's `fresh` memo rests on this count.
pub(crate) fn pit_seeds(pits: &Pits) -> u32 {
    pits.iter().map(|&c| c as u32).sum()
}

/// Which pits option 10 (`capture-four`) may capture from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FourScope {
    /// Any pit, on any side (the reading of docs/rules.md, mankala-2p, mankala-3p, mankala-4p;
    /// the default).
    Any,
    /// Only the mover's own pits.
    Own,
    /// Only the opponents' pits.
    Opponents,
}

impl FourScope {
    fn allows(self, own_side: bool) -> bool {
        match self {
            FourScope::Any => true,
            FourScope::Own => own_side,
            FourScope::Opponents => !own_side,
        }
    }

    pub(crate) fn name(self) -> &'static str {
        match self {
            FourScope::Any => "any",
            FourScope::Own => "own",
            FourScope::Opponents => "opponents",
        }
    }
}

/// The 10 optional rules of docs/rules.md, mankala-2p, mankala-3p, mankala-4p (all off by
/// default).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// Rule 1: a touched pit must be played. A matter of physical play: no effect on the engine.
    pub touch_move: bool,
    /// Rule 2: 3 seeds per pit at the start.
    pub three_seeds: bool,
    /// Rule 3: the capturing seed stays in its pit; only the opponents' seeds are taken.
    pub capturer_stays: bool,
    /// Rule 4: as soon as any player's pits are all empty the game ends; seeds left in pits
    /// count for nobody.
    pub first_empty_ends: bool,
    /// Rule 5: houses are never sown (not even one's own); captures are the only way to score.
    pub houses_not_sown: bool,
    /// Rule 6 (4 players only): a capture takes only the pit of the player sitting opposite.
    pub one_opposite: bool,
    /// Rule 7: the player before an empty player must feed him; if he cannot, the game ends
    /// and every player banks the seeds in his own pits.
    pub must_feed: bool,
    /// Rule 8: a last seed in an own empty pit whose opposite pits are empty goes to the house.
    pub keep_last_seed: bool,
    /// Rule 9: relay sowing.
    pub relay: bool,
    /// Rule 10: capture by four (replaces the empty-pit capture).
    pub capture_four: Option<FourScope>,
}

/// The result of one legal sowing.
#[derive(Clone, Debug)]
pub(crate) struct Sown {
    pub pits: Pits,
    /// Seeds that went into the mover's house (sown into it or captured).
    pub gain: u32,
    /// The last seed fell into the mover's own house: he moves again.
    pub extra: bool,
}

/// Why a game is over.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum End {
    /// No seed is left in any pit.
    Exhausted,
    /// Option 4: this player (0-based seat) has no seeds left in his pits.
    FirstEmpty(usize),
    /// Option 7: this player (0-based) had to feed the next player and could not; everybody
    /// banked the seeds in his own pits.
    FeedImpossible(usize),
    /// Seeds are left but no player has a legal move (every sowing would relay forever);
    /// everybody banked the seeds in his own pits.
    NoLegalMove,
    /// The position (pits, houses, player to move) occurred before in the game; everybody
    /// banked the seeds in his own pits.
    Repetition,
}

impl End {
    /// Whether the seeds still in the pits go to their owners' houses at this end.
    pub(crate) fn banks(self) -> bool {
        matches!(
            self,
            End::FeedImpossible(_) | End::NoLegalMove | End::Repetition
        )
    }
}

/// Whose turn it is, or why the game is over.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Status {
    Move(usize),
    Over(End),
}

/// A settled position: the status and, when someone moves, his legal moves with their results.
pub(crate) struct Settled {
    pub status: Status,
    pub moves: Vec<(usize, Sown)>,
}

/// The rules of one game: players, pits per player and options.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Rules {
    pub players: usize,
    pub pits: usize,
    pub opts: Options,
}

impl Rules {
    /// Seeds in one player's pits.
    pub(crate) fn seat_seeds(&self, pits: &Pits, seat: usize) -> u32 {
        pits[seat * self.pits..(seat + 1) * self.pits]
            .iter()
            .map(|&c| c as u32)
            .sum()
    }

    /// Array indices of the pits a capture from the mover's pit `j` takes. An iterator, not a
    /// `Vec`: it runs on every capture of move generation, and is walked twice (sum, clear).
    fn opposite(&self, mover: usize, j: usize) -> impl Iterator<Item = usize> + '_ {
        let p = self.pits;
        let only_across = self.opts.one_opposite && self.players == 4;
        (0..self.players).filter_map(move |s| {
            if self.players == 2 {
                // Kalah geometry: South's pit j (from his left) faces North's pit p-1-j.
                (s != mover).then_some(s * p + (p - 1 - j))
            } else if only_across {
                (s == (mover + 2) % 4).then_some(s * p + j)
            } else {
                (s != mover).then_some(s * p + j)
            }
        })
    }

    /// Sows the mover's pit `pit`. `None` when the pit is empty or when relay sowing would
    /// repeat a state inside the move (such a move is illegal).
    pub(crate) fn sow(&self, pits: &Pits, mover: usize, pit: usize) -> Option<Sown> {
        let p = self.pits;
        let ring = self.players * (p + 1);
        let mut b = *pits;
        let first = mover * p + pit;
        let mut hand = b[first] as u32;
        if hand == 0 {
            return None;
        }
        b[first] = 0;
        let mut origin = mover * (p + 1) + pit;
        let mut cur = origin;
        let mut gain = 0u32;
        let mut seen: HashSet<(Pits, usize)> = HashSet::new();
        loop {
            while hand > 0 {
                cur = (cur + 1) % ring;
                let seat = cur / (p + 1);
                let idx = cur % (p + 1);
                if idx == p {
                    if self.opts.houses_not_sown || seat != mover {
                        continue;
                    }
                    gain += 1;
                    hand -= 1;
                } else if cur == origin {
                    continue;
                } else {
                    b[seat * p + idx] += 1;
                    hand -= 1;
                }
            }
            let seat = cur / (p + 1);
            let idx = cur % (p + 1);
            if idx == p {
                return Some(Sown {
                    pits: b,
                    gain,
                    extra: true,
                });
            }
            let at = seat * p + idx;
            let count = b[at];
            if let Some(scope) = self.opts.capture_four {
                if count == 4 && scope.allows(seat == mover) {
                    b[at] = 0;
                    gain += 4;
                    return Some(Sown {
                        pits: b,
                        gain,
                        extra: false,
                    });
                }
            }
            if self.opts.relay && count > 1 {
                if !seen.insert((b, cur)) {
                    return None;
                }
                hand = count as u32;
                b[at] = 0;
                origin = cur;
                continue;
            }
            if self.opts.capture_four.is_none() && seat == mover && count == 1 {
                let taken: u32 = self.opposite(mover, idx).map(|i| b[i] as u32).sum();
                if taken > 0 {
                    for i in self.opposite(mover, idx) {
                        b[i] = 0;
                    }
                    gain += taken;
                    if !self.opts.capturer_stays {
                        b[at] = 0;
                        gain += 1;
                    }
                } else if self.opts.keep_last_seed {
                    b[at] = 0;
                    gain += 1;
                }
            }
            return Some(Sown {
                pits: b,
                gain,
                extra: false,
            });
        }
    }

    /// Every sowing of `seat` that is not an endless relay, lowest pit first.
    pub(crate) fn sowings(&self, pits: &Pits, seat: usize) -> Vec<(usize, Sown)> {
        (0..self.pits)
            .filter_map(|i| self.sow(pits, seat, i).map(|s| (i, s)))
            .collect()
    }

    /// Settles a position after a move: the game may be over, players without a move pass,
    /// `candidate` is the player whose turn it is by seat order.
    pub(crate) fn settle(&self, pits: &Pits, candidate: usize) -> Settled {
        let over = |end| Settled {
            status: Status::Over(end),
            moves: Vec::new(),
        };
        let n = self.players;
        if pits[..n * self.pits].iter().all(|&c| c == 0) {
            return over(End::Exhausted);
        }
        if self.opts.first_empty_ends {
            for k in 0..n {
                let s = (candidate + k) % n;
                if self.seat_seeds(pits, s) == 0 {
                    return over(End::FirstEmpty(s));
                }
            }
        }
        for k in 0..n {
            let s = (candidate + k) % n;
            if self.seat_seeds(pits, s) == 0 {
                continue;
            }
            let moves = self.sowings(pits, s);
            let next = (s + 1) % n;
            if self.opts.must_feed && self.seat_seeds(pits, next) == 0 {
                let feeding: Vec<_> = moves
                    .into_iter()
                    .filter(|(_, sown)| self.seat_seeds(&sown.pits, next) > 0)
                    .collect();
                if feeding.is_empty() {
                    return over(End::FeedImpossible(s));
                }
                return Settled {
                    status: Status::Move(s),
                    moves: feeding,
                };
            }
            if moves.is_empty() {
                continue;
            }
            return Settled {
                status: Status::Move(s),
                moves,
            };
        }
        over(End::NoLegalMove)
    }

    /// Each player's own pit seeds: what he banks at a banking end.
    pub(crate) fn own_pits(&self, pits: &Pits) -> Gains {
        let mut g = [0; 4];
        for (s, slot) in g.iter_mut().enumerate().take(self.players) {
            *slot = self.seat_seeds(pits, s);
        }
        g
    }

    /// What each player gains at the end of the game.
    pub(crate) fn end_gains(&self, pits: &Pits, end: End) -> Gains {
        if end.banks() {
            self.own_pits(pits)
        } else {
            [0; 4]
        }
    }

    /// Settles the position a move reached: the mover again after an extra turn, else the next
    /// seat (passes and ends as in [`Rules::settle`]).
    pub(crate) fn after(&self, mover: usize, sown: &Sown) -> Settled {
        let next = if sown.extra {
            mover
        } else {
            (mover + 1) % self.players
        };
        self.settle(&sown.pits, next)
    }

    /// Move sequences of exactly `depth` plies (a move that ends the game counts only as the
    /// last ply). No history: the repetition rule is not applied.
    pub(crate) fn perft(&self, moves: &[(usize, Sown)], mover: usize, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        if depth == 1 {
            return moves.len() as u64;
        }
        let mut total = 0;
        for (_, sown) in moves {
            let next = self.after(mover, sown);
            if let Status::Move(s) = next.status {
                total += self.perft(&next.moves, s, depth - 1);
            }
        }
        total
    }
}
