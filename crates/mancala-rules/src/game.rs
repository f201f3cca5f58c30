//! A game played move by move: stores, absolute sides, repetitions and the end-of-game sweeps.
//!
//! Tables never look at any of this (a position's value does not depend on the stores or the
//! history), so it lives apart from the packed hot path in [`crate::Rules`].

use crate::{Board, Next, Node, PlayEnd, Rules, RulesError};
use std::collections::HashMap;

/// One of the two players, named by where they sit. Sides are absolute: the packed board is
/// always seen from the side to move, so a game needs this to say whose move it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    /// The player who moves first from the start position.
    South,
    /// The player who moves second.
    North,
}

impl Side {
    /// The opponent.
    pub fn other(self) -> Side {
        match self {
            Side::South => Side::North,
            Side::North => Side::South,
        }
    }

    /// The name shown to users: `south` or `north`.
    pub fn name(self) -> &'static str {
        match self {
            Side::South => "south",
            Side::North => "north",
        }
    }

    /// 0 for South, 1 for North: the place of each side in `[south, north]` arrays.
    pub fn index(self) -> usize {
        self as usize
    }
}

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EndReason {
    /// No legal move (or a row ran empty): the remaining seeds were swept.
    NoMoves,
    /// A move ended the game (Kalah's empty row, a grand slam that ends it).
    MoveEnded,
    /// A position occurred too often (3rd time in awari, 2nd in oware/wari).
    Repetition,
    /// A player captured more than half the seeds, or both exactly half (oware/wari).
    Majority,
}

/// A game in progress.
#[derive(Clone, Debug)]
pub struct Game {
    rules: Rules,
    /// Pits in the mover-relative layout of `to_move`.
    board: Board,
    to_move: Side,
    /// Seeds banked by South and North.
    stores: [u32; 2],
    total: u32,
    end: Option<EndReason>,
    /// The board the end-of-game sweep emptied when the mover had no move: that position's
    /// value is what the sweep handed out, so a question about the game asks about it.
    swept: Option<Board>,
    seen: HashMap<(Board, [u32; 2], Side), u32>,
}

impl Game {
    /// A game from the start position, South to move.
    pub fn new(rules: Rules) -> Game {
        let b = rules.start();
        Game::from_position(rules, b, Side::South)
    }

    /// A game from `board` (mover-relative) with `to_move` to move and empty stores.
    pub fn from_position(rules: Rules, board: Board, to_move: Side) -> Game {
        let total = board.total();
        let board = board.with_north(rules.sided() && to_move == Side::North);
        let mut g = Game {
            rules,
            board,
            to_move,
            stores: [0, 0],
            total,
            end: None,
            swept: None,
            seen: HashMap::new(),
        };
        g.settle();
        g
    }

    /// The rules this game is played under.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The pits in the side to move's layout.
    pub fn board(&self) -> Board {
        self.board
    }

    /// The position a question about the game asks about: the board, or, when the game ended
    /// because the mover had no move, the board the sweep emptied (its value is the seeds the
    /// sweep handed out: the empty board after it is worth nothing).
    pub fn position(&self) -> Board {
        self.swept.unwrap_or(self.board)
    }

    /// The side whose turn it is.
    pub fn to_move(&self) -> Side {
        self.to_move
    }

    /// Seeds banked by `[south, north]`.
    pub fn stores(&self) -> [u32; 2] {
        self.stores
    }

    /// Has the game ended? Once it has, [`Game::play`] refuses every move.
    pub fn is_over(&self) -> bool {
        self.end.is_some()
    }

    /// Why the game ended, or `None` while it goes on.
    pub fn end_reason(&self) -> Option<EndReason> {
        self.end
    }

    /// South's pits in sowing order, then North's.
    pub fn absolute_pits(&self) -> Vec<u8> {
        let m = self.rules.pits();
        let b = match self.to_move {
            Side::South => self.board,
            Side::North => self.board.flip(m),
        };
        b.pits(2 * m)
    }

    /// The legal moves (mover's pit indices), empty once the game is over.
    pub fn legal(&self) -> Vec<usize> {
        if self.is_over() {
            return Vec::new();
        }
        match self.rules.node(self.board) {
            Node::Terminal { .. } => Vec::new(),
            Node::Moves(k) => k.iter().map(|c| c.pit as usize).collect(),
        }
    }

    /// Plays the mover's pit `pit`.
    pub fn play(&mut self, pit: usize) -> Result<(), RulesError> {
        if self.is_over() {
            return Err(RulesError::GameOver(pit));
        }
        let kids = match self.rules.node(self.board) {
            Node::Moves(k) => k,
            Node::Terminal { .. } => return Err(RulesError::GameOver(pit)),
        };
        let Some(c) = kids.iter().find(|c| c.pit as usize == pit).copied() else {
            let legal: Vec<String> = kids.iter().map(|c| c.pit.to_string()).collect();
            return Err(RulesError::IllegalMove {
                pit,
                legal: legal.join(", "),
            });
        };
        let me = self.to_move.index();
        self.stores[me] += c.gain as u32;
        self.stores[1 - me] += c.opp_gain as u32;
        self.board = c.board;
        match c.next {
            Next::Over => {
                self.end = Some(EndReason::MoveEnded);
                return Ok(());
            }
            Next::Opponent => self.to_move = self.to_move.other(),
            Next::Mover => {}
        }
        self.settle();
        Ok(())
    }

    /// Applies the end rules that hold in the current position.
    fn settle(&mut self) {
        let half = self.total;
        if self.rules.variant().play_end() == PlayEnd::Majority
            && (2 * self.stores[0] > half
                || 2 * self.stores[1] > half
                || (2 * self.stores[0] == half && 2 * self.stores[1] == half))
        {
            self.sweep_rows(EndReason::Majority);
            return;
        }
        let limit = match self.rules.variant().play_end() {
            PlayEnd::Exhaust => 3,
            PlayEnd::Majority => 2,
            PlayEnd::EmptyRow => u32::MAX,
        };
        let seen = self
            .seen
            .entry((self.board, self.stores, self.to_move))
            .or_insert(0);
        *seen += 1;
        if *seen >= limit {
            self.sweep_rows(EndReason::Repetition);
            return;
        }
        match self.rules.node(self.board) {
            Node::Terminal { mover, opp } => {
                let me = self.to_move.index();
                self.stores[me] += mover as u32;
                self.stores[1 - me] += opp as u32;
                self.swept = Some(self.board);
                self.board = Board::EMPTY;
                self.end = Some(EndReason::NoMoves);
            }
            // A player with no move to sow passes (the sowing family's pass move): no choice
            // to ask.
            Node::Moves(k) if self.rules.must_pass(self.board) => {
                self.board = k.as_slice()[0].board;
                self.to_move = self.to_move.other();
                self.settle();
            }
            Node::Moves(_) => {}
        }
    }

    /// Each side takes the seeds in the pits it owns (its row, but in a later nam-nam round);
    /// the game ends.
    fn sweep_rows(&mut self, why: EndReason) {
        let me = self.to_move.index();
        let (mine, theirs) = self.rules.shares(self.board);
        self.stores[me] += mine;
        self.stores[1 - me] += theirs;
        self.board = Board::EMPTY;
        self.end = Some(why);
    }
}
