//! Max-n search with a memo that stays exact when positions repeat (see the crate docs).

use std::collections::HashMap;

use crate::rules::{pit_seeds, Gains, Pits, Rules, Sown, Status};
use crate::{MultiError, MultiGame};

/// The max-n value of a position: every player's final seeds when each maximises his own.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MaxN {
    /// Each player's final house total (seat order): houses now plus `gains`.
    pub scores: Vec<u32>,
    /// Each player's future gain from this position (what the memo stores).
    pub gains: Vec<u32>,
    /// The mover's best move (pit index as text); `None` when the game is over.
    pub best: Option<String>,
    /// The principal variation: the moves played from here to the end of the game.
    pub pv: Vec<String>,
    /// Who plays each move of `pv` (0-based seat).
    pub pv_movers: Vec<usize>,
    /// Every root move with the final house totals it leads to (lowest pit first).
    pub move_values: Vec<(String, Vec<u32>)>,
    /// Search nodes visited (interior nodes, game ends and repetitions), PV included.
    pub nodes: u64,
    /// Positions in the memo at the end.
    pub memo_entries: usize,
}

/// Whether `a` is strictly better than `b` for `mover` (the tie rule of the crate docs).
fn better(players: usize, mover: usize, a: &Gains, b: &Gains) -> bool {
    if a[mover] != b[mover] {
        return a[mover] > b[mover];
    }
    let margin = |g: &Gains| {
        let best_other = (0..players)
            .filter(|&s| s != mover)
            .map(|s| g[s])
            .max()
            .unwrap_or(0);
        g[mover] as i64 - best_other as i64
    };
    margin(a) > margin(b)
}

type Key = (Pits, u8);

struct Node {
    gains: Gains,
    best: Option<usize>,
    /// The shallowest depth of the current line that this subtree repeated (usize::MAX: none).
    hit: usize,
}

struct Solver<'a> {
    rules: &'a Rules,
    /// Values of positions on no cycle: valid whatever the line above.
    memo: HashMap<Key, (Gains, Option<usize>)>,
    /// Values of positions searched with no position of their seed count on the line above
    /// (V(x, empty line)); valid whenever every position above has more seeds in its pits.
    fresh: HashMap<Key, (Gains, Option<usize>)>,
    line: HashMap<Key, usize>,
    nodes: u64,
    limit: u64,
    root_values: Vec<(usize, Gains)>,
}

impl Solver<'_> {
    fn tick(&mut self) -> Result<(), MultiError> {
        self.nodes += 1;
        if self.nodes > self.limit {
            return Err(MultiError::NodeLimit { limit: self.limit });
        }
        Ok(())
    }

    /// `fresh`: every position on the line above has more seeds in its pits than this one
    /// (seeds in pits never increase, so none of them can occur below).
    fn search(
        &mut self,
        pits: &Pits,
        mover: usize,
        moves: &[(usize, Sown)],
        fresh: bool,
    ) -> Result<Node, MultiError> {
        self.tick()?;
        let key = (*pits, mover as u8);
        let found = match self.memo.get(&key) {
            Some(e) => Some(*e),
            None if fresh => self.fresh.get(&key).copied(),
            None => None,
        };
        if let Some((gains, best)) = found {
            return Ok(Node {
                gains,
                best,
                hit: usize::MAX,
            });
        }
        let seeds = pit_seeds(pits);
        let depth = self.line.len();
        self.line.insert(key, depth);
        let mut best: Option<(usize, Gains)> = None;
        let mut hit = usize::MAX;
        for (i, sown) in moves {
            let next = self.rules.after(mover, sown);
            let (mut g, h) = match next.status {
                Status::Over(end) => {
                    self.tick()?;
                    (self.rules.end_gains(&sown.pits, end), usize::MAX)
                }
                Status::Move(s) => {
                    let ck = (sown.pits, s as u8);
                    if let Some(&d) = self.line.get(&ck) {
                        self.tick()?;
                        (self.rules.own_pits(&sown.pits), d)
                    } else {
                        // On an error the solver is dropped, so `line` needs no cleanup.
                        let fresh = pit_seeds(&sown.pits) < seeds;
                        let child = self.search(&sown.pits, s, &next.moves, fresh)?;
                        (child.gains, child.hit)
                    }
                }
            };
            g[mover] += sown.gain;
            hit = hit.min(h);
            if depth == 0 {
                self.root_values.push((*i, g));
            }
            let replace = match &best {
                None => true,
                Some((_, b)) => better(self.rules.players, mover, &g, b),
            };
            if replace {
                best = Some((*i, g));
            }
        }
        self.line.remove(&key);
        let (best_move, gains) = match best {
            Some((i, g)) => (Some(i), g),
            None => (None, [0; 4]),
        };
        if hit > depth {
            self.memo.insert(key, (gains, best_move));
        } else if fresh {
            self.fresh.insert(key, (gains, best_move));
        }
        Ok(Node {
            gains,
            best: best_move,
            hit,
        })
    }
}

/// Max-n value of the game's position (see the crate docs for the tie and cycle rules).
///
/// Fails with [`MultiError::NodeLimit`] once more than `node_limit` nodes are visited.
pub fn solve(game: &MultiGame, node_limit: u64) -> Result<MaxN, MultiError> {
    let rules = &game.rules;
    let n = rules.players;
    let houses = game.houses();
    let mut solver = Solver {
        rules,
        memo: HashMap::new(),
        fresh: HashMap::new(),
        line: HashMap::new(),
        nodes: 0,
        limit: node_limit,
        root_values: Vec::new(),
    };
    let Status::Move(root_mover) = game.status else {
        return Ok(MaxN {
            scores: houses,
            gains: vec![0; n],
            best: None,
            pv: Vec::new(),
            pv_movers: Vec::new(),
            move_values: Vec::new(),
            nodes: 0,
            memo_entries: 0,
        });
    };
    let root = solver.search(&game.pits, root_mover, &game.moves, true)?;
    let best = root.best.map(|i| i.to_string());
    let move_values = solver
        .root_values
        .iter()
        .map(|(i, g)| (i.to_string(), (0..n).map(|s| houses[s] + g[s]).collect()))
        .collect();

    // The principal variation: re-search each PV position with the PV so far as the line
    // (the memo makes this cheap, and the values are the same as in the root search).
    let mut pv = Vec::new();
    let mut pv_movers = Vec::new();
    let mut pits = game.pits;
    let mut mover = root_mover;
    let mut moves = game.moves.clone();
    let mut choice = root.best;
    let mut on_line: Vec<Key> = Vec::new();
    while let Some(i) = choice {
        let Some((_, sown)) = moves.iter().find(|(j, _)| *j == i) else {
            break;
        };
        let sown = sown.clone();
        pv.push(i.to_string());
        pv_movers.push(mover);
        on_line.push((pits, mover as u8));
        let next = rules.after(mover, &sown);
        let Status::Move(s) = next.status else {
            break;
        };
        let key = (sown.pits, s as u8);
        if on_line.contains(&key) {
            break;
        }
        solver.line = on_line.iter().enumerate().map(|(d, k)| (*k, d)).collect();
        let fresh = pit_seeds(&sown.pits) < pit_seeds(&pits);
        let node = solver.search(&sown.pits, s, &next.moves, fresh)?;
        pits = sown.pits;
        mover = s;
        moves = next.moves;
        choice = node.best;
    }

    Ok(MaxN {
        scores: (0..n).map(|s| houses[s] + root.gains[s]).collect(),
        gains: root.gains[..n].to_vec(),
        best,
        pv,
        pv_movers,
        move_values,
        nodes: solver.nodes,
        memo_entries: solver.memo.len() + solver.fresh.len(),
    })
}
