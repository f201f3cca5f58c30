//! A deliberately plain second implementation of the sowing-family presets, written from
//! docs/rules.md without looking at `src/sowing.rs`: the board is a ring of cells (pits and the
//! mover's store) walked one seed at a time, a never-ending relay is found with a set of every
//! state seen, and the end rules are spelled out per preset. Slow and obvious on purpose.

#![allow(dead_code)]

use mancala_rules::{Preset, Rule, RuleSet};
use std::collections::HashSet;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Cell {
    Pit(usize),
    Store,
}

/// The rule set, read off the preset and options.
#[derive(Clone, Debug)]
pub struct Ref {
    pub m: usize,
    preset: Preset,
    rules: RuleSet,
}

/// What happens after a move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum After {
    /// The opponent moves next, in this (his mover-relative) board.
    Opponent(Vec<u32>),
    /// The mover moves again on this board.
    Mover(Vec<u32>),
    Over,
}

/// One legal move: pit, seeds banked by the mover and by the opponent, what follows.
pub type RefMove = (usize, u32, u32, After);

/// A node: the legal moves, or how the seeds are shared when there is none.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RefNode {
    Over(u32, u32),
    Moves(Vec<RefMove>),
}

impl Ref {
    pub fn new(preset: Preset, m: usize, rules: RuleSet) -> Ref {
        Ref { m, preset, rules }
    }

    fn has(&self, r: Rule) -> bool {
        self.rules.has(r)
    }

    fn stores_sown(&self) -> bool {
        match self.preset {
            Preset::Mankala2p => !self.has(Rule::HousesNotSown),
            Preset::Congkak | Preset::BaoKenya => true,
            _ => false,
        }
    }

    fn relays(&self) -> bool {
        match self.preset {
            Preset::Mankala2p => self.has(Rule::Relay),
            Preset::BaoKenya => false,
            _ => true,
        }
    }

    fn skips_origin(&self) -> bool {
        matches!(self.preset, Preset::Mankala2p | Preset::BaoKenya) || self.has(Rule::OriginSkip)
    }

    fn ring(&self) -> Vec<Cell> {
        let mut r: Vec<Cell> = (0..self.m).map(Cell::Pit).collect();
        if self.stores_sown() {
            r.push(Cell::Store);
        }
        r.extend((self.m..2 * self.m).map(Cell::Pit));
        r
    }

    fn passes(&self) -> bool {
        match self.preset {
            Preset::Mankala2p => !self.has(Rule::FirstEmptyEnds),
            Preset::NamNam => true,
            Preset::Congkak => self.has(Rule::PassWhenEmpty),
            _ => false,
        }
    }

    /// Kalah's end (congkak's default): a row running empty ends the game, rows to owners.
    fn sweeps(&self) -> bool {
        self.preset == Preset::Congkak && !self.has(Rule::PassWhenEmpty)
    }

    fn first_empty_ends(&self) -> bool {
        self.preset == Preset::Mankala2p && self.has(Rule::FirstEmptyEnds)
    }

    /// Plays pit `o`; `None` if the relay never ends.
    fn play(&self, board: &[u32], o: usize) -> Option<(Vec<u32>, u32, u32, bool, bool)> {
        let m = self.m;
        let ring = self.ring();
        let mut b = board.to_vec();
        let (mut mine, mut theirs) = (0u32, 0u32);
        let mut seen: HashSet<(Vec<u32>, usize)> = HashSet::new();
        let mut lift = o;
        loop {
            if !seen.insert((b.clone(), lift)) {
                return None;
            }
            let mut hand = b[lift];
            b[lift] = 0;
            let mut at = ring.iter().position(|&c| c == Cell::Pit(lift)).unwrap();
            let mut last = Cell::Pit(lift);
            while hand > 0 {
                at = (at + 1) % ring.len();
                match ring[at] {
                    Cell::Store => {
                        mine += 1;
                        hand -= 1;
                        last = Cell::Store;
                    }
                    Cell::Pit(i) => {
                        if i == lift && self.skips_origin() {
                            continue;
                        }
                        b[i] += 1;
                        hand -= 1;
                        last = Cell::Pit(i);
                        // Ayo-ayo / nam-nam: a four made on the way is taken at once.
                        let fours = matches!(self.preset, Preset::AyoAyo | Preset::NamNam);
                        if fours && b[i] == 4 && hand > 0 {
                            let to_me = self.preset == Preset::AyoAyo || i < m;
                            let left: u32 = b.iter().sum::<u32>() + hand;
                            let take = if self.preset == Preset::NamNam && left == 8 {
                                8
                            } else {
                                4
                            };
                            if to_me {
                                mine += take;
                            } else {
                                theirs += take;
                            }
                            if take == 8 {
                                return Some((vec![0; 2 * m], mine, theirs, false, true));
                            }
                            b[i] = 0;
                        }
                    }
                }
            }
            let i = match last {
                Cell::Store => return Some((b, mine, theirs, true, false)),
                Cell::Pit(i) => i,
            };
            let four_rule = matches!(self.preset, Preset::AyoAyo | Preset::NamNam)
                || self.preset == Preset::Mankala2p && self.has(Rule::CaptureFour);
            if four_rule && b[i] == 4 {
                let left: u32 = b.iter().sum();
                if self.preset == Preset::NamNam && left == 8 {
                    return Some((vec![0; 2 * m], mine + 8, theirs, false, true));
                }
                b[i] = 0;
                return Some((b, mine + 4, theirs, false, false));
            }
            if b[i] == 1 {
                // Landed in an empty pit: the capture opposite an own empty pit, if any.
                if !four_rule && i < m {
                    let opp = 2 * m - 1 - i;
                    let with_last = match self.preset {
                        Preset::Mankala2p => !self.has(Rule::CapturerStays),
                        _ => self.has(Rule::CaptureWithLast),
                    };
                    if b[opp] > 0 {
                        mine += b[opp];
                        b[opp] = 0;
                        if with_last {
                            mine += 1;
                            b[i] = 0;
                        }
                    } else if self.preset == Preset::Mankala2p && self.has(Rule::KeepLastSeed) {
                        mine += 1;
                        b[i] = 0;
                    }
                }
                return Some((b, mine, theirs, false, false));
            }
            if !self.relays() {
                return Some((b, mine, theirs, false, false));
            }
            lift = i;
        }
    }

    /// Has the mover a pit whose sowing ends?
    fn can_sow(&self, board: &[u32]) -> bool {
        (0..self.m).any(|o| board[o] > 0 && self.play(board, o).is_some())
    }

    pub fn node(&self, board: &[u32]) -> RefNode {
        let m = self.m;
        let own: u32 = board[..m].iter().sum();
        let opp: u32 = board[m..].iter().sum();
        let no_move = |own: u32, opp: u32| -> RefNode {
            if self.preset == Preset::AyoAyo && !self.has(Rule::OpponentTakesRest)
                || self.first_empty_ends()
            {
                RefNode::Over(0, 0)
            } else if matches!(
                self.preset,
                Preset::BaoKenya | Preset::BaoKenyaLaps | Preset::AyoAyo
            ) {
                RefNode::Over(0, own + opp)
            } else {
                RefNode::Over(own, opp)
            }
        };
        if own + opp == 0 {
            return RefNode::Over(0, 0);
        }
        if (self.sweeps() || self.first_empty_ends()) && (own == 0 || opp == 0) {
            return no_move(own, opp);
        }
        let flipped: Vec<u32> = board[m..].iter().chain(&board[..m]).copied().collect();
        // A player without a move passes, if the rules let him and his opponent can move.
        let pass = || {
            (self.passes() && self.can_sow(&flipped))
                .then(|| RefNode::Moves(vec![(0, 0, 0, After::Opponent(flipped.clone()))]))
        };
        if own == 0 {
            return pass().unwrap_or_else(|| no_move(own, opp));
        }
        let any_double = board[..m].iter().any(|&x| x >= 2);
        let mut moves = Vec::new();
        for o in 0..m {
            if board[o] == 0 || self.preset == Preset::BaoKenyaLaps && board[o] == 1 && any_double {
                continue;
            }
            let Some((b, g, og, in_store, round_over)) = self.play(board, o) else {
                continue;
            };
            let (own2, opp2): (u32, u32) = (b[..m].iter().sum(), b[m..].iter().sum());
            // Every game that sows a store gives another move there.
            let extra = in_store;
            let row_ends = (self.sweeps() || self.first_empty_ends()) && (own2 == 0 || opp2 == 0);
            let after = if round_over || own2 + opp2 == 0 || row_ends {
                After::Over
            } else if extra {
                After::Mover(b.clone())
            } else {
                After::Opponent(b[m..].iter().chain(&b[..m]).copied().collect())
            };
            let (g, og) = if after == After::Over && self.sweeps() {
                (g + own2, og + opp2)
            } else {
                (g, og)
            };
            moves.push((o, g, og, after));
        }
        if self.preset == Preset::Mankala2p && self.has(Rule::MustFeed) && opp == 0 {
            // A move feeds when a seed reaches the opponent's row, whoever moves next.
            moves.retain(|(_, _, _, a)| match a {
                After::Opponent(nb) => nb[..m].iter().sum::<u32>() > 0,
                After::Mover(nb) => nb[m..].iter().sum::<u32>() > 0,
                After::Over => false,
            });
            if moves.is_empty() {
                return RefNode::Over(own, 0);
            }
        }
        if moves.is_empty() {
            // Only endless relays.
            return pass().unwrap_or_else(|| no_move(own, opp));
        }
        RefNode::Moves(moves)
    }

    pub fn perft(&self, board: &[u32], depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        match self.node(board) {
            RefNode::Over(..) => 0,
            RefNode::Moves(ms) if depth == 1 => ms.len() as u64,
            RefNode::Moves(ms) => ms
                .iter()
                .map(|(_, _, _, a)| match a {
                    After::Opponent(b) | After::Mover(b) => self.perft(b, depth - 1),
                    After::Over => 0,
                })
                .sum(),
        }
    }
}
