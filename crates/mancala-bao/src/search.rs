//! Alpha-beta player: negamax with iterative deepening, a small transposition table and
//! capture-first move ordering.

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};
use std::time::{Duration, Instant};

use crate::game::BaoGame;

const WIN: i32 = 1_000_000;
const TT_BITS: u32 = 16;
/// Default time cap of [`best_move`]: keeps interactive play responsive.
const DEFAULT_BUDGET: Duration = Duration::from_millis(1500);

/// Static evaluation from the side to move's view: seeds owned (on the board and in hand),
/// front-row seeds (what keeps a player alive and is what captures), and capture threats.
pub fn evaluate(g: &BaoGame) -> i32 {
    let me = g.to_move as usize;
    let o = 1 - me;
    let front = |p: usize| g.board[p][0..8].iter().map(|&c| c as i32).sum::<i32>();
    let busy = |p: usize| g.board[p][0..8].iter().filter(|&&c| c > 0).count() as i32;
    let threats = |p: usize| g.threat_count(p) as i32;
    10 * (owned(g, me) - owned(g, o))
        + 2 * (front(me) - front(o))
        + 3 * (busy(me) - busy(o))
        + 6 * threats(me)
        - 4 * threats(o)
}

#[derive(Clone, Copy, Default)]
struct Entry {
    key: u64,
    depth: u8,
    flag: u8, // 0 exact, 1 lower, 2 upper
    score: i32,
    best: u8,
}

struct Searcher {
    tt: Vec<Entry>,
    nodes: u64,
    deadline: Instant,
    stopped: bool,
}

fn key(g: &BaoGame) -> u64 {
    let mut h = DefaultHasher::new();
    g.board.hash(&mut h);
    g.hand.hash(&mut h);
    g.nyumba.hash(&mut h);
    g.to_move.hash(&mut h);
    g.takasia.hash(&mut h);
    h.finish() | 1
}

impl Searcher {
    fn negamax(&mut self, g: &BaoGame, depth: u32, mut alpha: i32, beta: i32, ply: i32) -> i32 {
        self.nodes += 1;
        if self.nodes & 255 == 0 && Instant::now() >= self.deadline {
            self.stopped = true;
        }
        if self.stopped {
            return 0;
        }
        if depth == 0 {
            return static_score(g, ply);
        }
        // The table is read before the moves are generated: only positions that had moves are
        // stored, and a cutoff then costs no move generation.
        let k = key(g);
        let slot = (k as usize) & ((1 << TT_BITS) - 1);
        let e = self.tt[slot];
        let mut first = None;
        if e.key == k {
            if e.depth as u32 >= depth {
                match e.flag {
                    0 => return e.score,
                    1 if e.score >= beta => return e.score,
                    2 if e.score <= alpha => return e.score,
                    _ => {}
                }
            }
            first = Some(e.best as usize);
        }
        let kids = g.children();
        if kids.is_empty() {
            return over_score(g, g.loser_when_over(), ply);
        }
        // Order: TT move, then captures, then the rest by a quick evaluation.
        let mut order: Vec<(i32, usize)> = kids
            .iter()
            .enumerate()
            .map(|(i, (m, c))| {
                let mut s = -evaluate_fast(c);
                if m.capture {
                    s += 1000;
                }
                if Some(i) == first {
                    s += 1_000_000;
                }
                (s, i)
            })
            .collect();
        order.sort_by_key(|x| std::cmp::Reverse(x.0));
        let alpha0 = alpha;
        let mut best = -WIN - 1;
        let mut best_i = order[0].1;
        for &(_, i) in &order {
            let v = -self.negamax(&kids[i].1, depth - 1, -beta, -alpha, ply + 1);
            if self.stopped {
                return 0;
            }
            if v > best {
                best = v;
                best_i = i;
            }
            if v > alpha {
                alpha = v;
            }
            if alpha >= beta {
                break;
            }
        }
        let flag = if best <= alpha0 {
            2
        } else if best >= beta {
            1
        } else {
            0
        };
        self.tt[slot] = Entry {
            key: k,
            depth: depth.min(255) as u8,
            flag,
            score: best,
            best: best_i.min(255) as u8,
        };
        best
    }
}

/// The result of a finished game from the side to move's view; sooner wins score higher.
fn over_score(g: &BaoGame, loser: usize, ply: i32) -> i32 {
    if loser == g.to_move as usize {
        -WIN + ply
    } else {
        WIN - ply
    }
}

/// Game result (from the side to move's view) if `g` is over, else the evaluation.
fn static_score(g: &BaoGame, ply: i32) -> i32 {
    match g.loser() {
        Some(l) => over_score(g, l, ply),
        None => evaluate(g),
    }
}

/// Seeds `p` owns, on the board and in hand.
fn owned(g: &BaoGame, p: usize) -> i32 {
    g.board[p].iter().map(|&c| c as i32).sum::<i32>() + g.hand[p] as i32
}

/// Material-only evaluation for move ordering.
fn evaluate_fast(g: &BaoGame) -> i32 {
    let me = g.to_move as usize;
    owned(g, me) - owned(g, 1 - me)
}

fn search(g: &BaoGame, max_depth: u32, budget: Duration) -> Option<(String, i32)> {
    let kids = g.children();
    if kids.is_empty() {
        return None;
    }
    let mut s = Searcher {
        tt: vec![Entry::default(); 1 << TT_BITS],
        nodes: 0,
        deadline: Instant::now() + budget,
        stopped: false,
    };
    // Depth-0 fallback: the best move by one-ply evaluation. Moves are kept as indices into
    // `kids` and named once at the end.
    let mut best = kids
        .iter()
        .enumerate()
        .map(|(i, (_, c))| (i, -static_score(c, 1)))
        .max_by_key(|x| x.1)?;
    if kids.len() == 1 {
        return Some((kids[best.0].0.name(), best.1));
    }
    for depth in 1..=max_depth.max(1) {
        let mut alpha = -WIN - 1;
        let mut cur: Option<(usize, i32)> = None;
        // Root ordering: previous best first.
        let mut idx: Vec<usize> = (0..kids.len()).collect();
        idx.sort_by_key(|&i| i != best.0);
        for i in idx {
            let v = -s.negamax(&kids[i].1, depth - 1, -WIN - 1, -alpha, 1);
            if s.stopped {
                break;
            }
            if cur.is_none_or(|c| v > c.1) {
                cur = Some((i, v));
            }
            alpha = alpha.max(v);
        }
        if s.stopped {
            // A partial iteration still counts if it improved on the previous best move.
            if let Some(c) = cur {
                if c.0 == best.0 || c.1 > best.1 {
                    best = c;
                }
            }
            break;
        }
        if let Some(c) = cur {
            best = c;
        }
        if best.1.abs() > WIN - 1000 {
            break;
        }
    }
    Some((kids[best.0].0.name(), best.1))
}

/// The best move found searching up to `depth` plies (iterative deepening), with its score for
/// the side to move (positive is good; `±(1_000_000 - plies)` is a forced win/loss). The search
/// also stops after about 1.5 s and then returns the best move of the deepest finished
/// iteration. `None` when the game is over.
pub fn best_move(game: &BaoGame, depth: u32) -> Option<(String, i32)> {
    search(game, depth, DEFAULT_BUDGET)
}

/// The best move found within `millis` milliseconds (iterative deepening up to 64 plies).
pub fn best_move_timed(game: &BaoGame, millis: u64) -> Option<(String, i32)> {
    search(game, 64, Duration::from_millis(millis))
}
