//! Exact values of Awari-type positions above the tables, where play can cycle.
//!
//! A depth-first search scores a repetition 0 for the current path only, so in a cyclic tier
//! almost nothing it proves may be stored, and its paths grow as long as the tier is wide:
//! it does not finish even on the 12-seed game. Here the game graph is searched breadth-first
//! from the root instead: every position reachable above the tables is collected, then each
//! tier is solved backwards like a table, but only over those positions. Exits (moves that
//! bank seeds or end the game) have exact values from the tables or from a tier solved
//! before; moves inside a tier form the cyclic part, solved by the same thresholds as the
//! builder: for `t = n..1` the sets "value >= t" and "value <= -t" grow as least fixpoints,
//! so endless play is worth 0 exactly as in the tables.

use crate::probe::Probe;
use mancala_rules::{Board, Next, Node, Rules};
use mancala_tables::TableError;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// Boards are already well spread by the table's mix, so hashing is one multiplication.
#[derive(Default)]
struct BoardHasher(u64);

impl Hasher for BoardHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ b as u64).wrapping_mul(0x100_0000_01b3);
        }
    }

    fn write_u128(&mut self, x: u128) {
        self.0 = crate::tt::hash(mancala_rules::Board(x)).key;
    }

    fn write_u32(&mut self, x: u32) {
        self.0 = (x as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    }
}

type Map<K, V> = HashMap<K, V, BuildHasherDefault<BoardHasher>>;

/// No move leaves the tier.
const NO_EXIT: i32 = i32::MIN;

/// Every position reachable from a root above the tables, with its exact value.
pub struct Reach {
    index: Map<Board, u32>,
    values: Vec<i16>,
    /// Positions enumerated plus table probes made.
    pub nodes: u64,
}

impl Reach {
    /// The exact value of a position the enumeration reached.
    pub fn value(&self, b: Board) -> Option<i32> {
        self.index.get(&b).map(|&i| self.values[i as usize] as i32)
    }
}

/// Solves everything reachable from `root` that the tables do not answer, or `None` if that
/// is more than `limit` positions or the deadline passes while they are collected.
pub fn solve(
    rules: &Rules,
    probe: Option<&Probe<'_>>,
    root: Board,
    limit: usize,
    deadline: Option<std::time::Instant>,
) -> Result<Option<Reach>, TableError> {
    let mut nodes = 0u64;
    // Forward: every position not answered by the tables.
    let mut boards = vec![root];
    let mut index = Map::default();
    index.insert(root, 0u32);
    let mut next = 0;
    while next < boards.len() {
        let b = boards[next];
        next += 1;
        nodes += 1;
        if next % 65536 == 0 && deadline.is_some_and(|d| std::time::Instant::now() >= d) {
            return Ok(None);
        }
        if let Node::Moves(kids) = rules.node(b) {
            for c in kids.iter().filter(|c| c.next != Next::Over) {
                if index.contains_key(&c.board) || tabled(probe, c.board, &mut nodes)?.is_some() {
                    continue;
                }
                if boards.len() >= limit {
                    return Ok(None);
                }
                index.insert(c.board, boards.len() as u32);
                boards.push(c.board);
            }
        }
    }
    // Backward, tier by tier from the fewest seeds.
    let mut order: Vec<u32> = (0..boards.len() as u32).collect();
    order.sort_by_key(|&i| boards[i as usize].total());
    let mut rank = vec![0u32; boards.len()];
    for (x, &i) in order.iter().enumerate() {
        rank[i as usize] = x as u32;
    }
    let mut values = vec![0i16; boards.len()];
    let mut start = 0;
    while start < order.len() {
        let n = boards[order[start] as usize].total();
        let end = start + order[start..].partition_point(|&i| boards[i as usize].total() == n);
        let tier = Tier {
            members: &order[start..end],
            first: start as u32,
            rank: &rank,
        };
        solve_tier(rules, &boards, &index, tier, &mut values, probe, &mut nodes)?;
        start = end;
    }
    Ok(Some(Reach {
        index,
        values,
        nodes,
    }))
}

/// The value of a position the tables answer, counting the probe as a node.
fn tabled(probe: Option<&Probe<'_>>, b: Board, nodes: &mut u64) -> Result<Option<i32>, TableError> {
    let Some(v) = probe.map(|p| p.exact(b)).transpose()?.flatten() else {
        return Ok(None);
    };
    *nodes += 1;
    Ok(Some(v as i32))
}

/// The positions of one seed count, and where each position sits among them.
struct Tier<'a> {
    members: &'a [u32],
    /// `rank[i] - first` is position `i`'s place in `members`.
    first: u32,
    rank: &'a [u32],
}

/// Solves the positions of `tier`, given every lower value.
fn solve_tier(
    rules: &Rules,
    boards: &[Board],
    index: &Map<Board, u32>,
    tier: Tier<'_>,
    values: &mut [i16],
    probe: Option<&Probe<'_>>,
    nodes: &mut u64,
) -> Result<(), TableError> {
    let members = tier.members;
    let n = boards[members[0] as usize].total() as i32;
    let local = |i: u32| tier.rank[i as usize] - tier.first;
    let k = members.len();
    let mut exit = vec![NO_EXIT; k];
    // Moves inside the tier, as (from, to) in local numbering.
    let mut edges: Vec<(u32, u32)> = Vec::new();
    for (a, &i) in members.iter().enumerate() {
        let kids = match rules.node(boards[i as usize]) {
            Node::Moves(kids) => kids,
            // A finished game: both rows' seeds are already split.
            Node::Terminal { mover, opp } => {
                exit[a] = mover as i32 - opp as i32;
                continue;
            }
        };
        for c in &kids {
            let inside = c.next == Next::Opponent && c.board.total() as i32 == n;
            let child = index.get(&c.board).copied();
            if inside {
                if let Some(j) = child {
                    edges.push((a as u32, local(j)));
                    continue;
                }
            }
            let w = match (c.next, child) {
                (Next::Over, _) => 0,
                (_, Some(j)) => values[j as usize] as i32,
                (_, None) => tabled(probe, c.board, nodes)?.expect("enumerated or in the tables"),
            };
            exit[a] = exit[a].max(c.value(w));
        }
    }
    // Predecessor lists (compressed rows) and each position's count of inside moves.
    let mut count = vec![0u32; k];
    let mut first = vec![0u32; k + 1];
    for &(a, b) in &edges {
        count[a as usize] += 1;
        first[b as usize + 1] += 1;
    }
    for x in 0..k {
        first[x + 1] += first[x];
    }
    let mut fill = first.clone();
    let mut preds = vec![0u32; edges.len()];
    for &(a, b) in &edges {
        preds[fill[b as usize] as usize] = a;
        fill[b as usize] += 1;
    }
    // Thresholds from the top: a position is decided the first time it enters a set.
    let mut decided = vec![false; k];
    let mut value = vec![0i32; k];
    let mut queue: Vec<(u32, bool)> = Vec::new();
    for t in (1..=n).rev() {
        for a in 0..k {
            if decided[a] {
                continue;
            }
            if exit[a] >= t {
                decided[a] = true;
                value[a] = t;
                queue.push((a as u32, true));
            } else if count[a] == 0 && exit[a] <= -t {
                decided[a] = true;
                value[a] = -t;
                queue.push((a as u32, false));
            }
        }
        while let Some((q, won)) = queue.pop() {
            let q = q as usize;
            for &p in &preds[first[q] as usize..first[q + 1] as usize] {
                let p = p as usize;
                if decided[p] {
                    continue;
                }
                if won {
                    // One more inside move leads to a position worth at least t.
                    count[p] -= 1;
                    if count[p] == 0 && exit[p] <= -t {
                        decided[p] = true;
                        value[p] = -t;
                        queue.push((p as u32, false));
                    }
                } else {
                    // A move to a position worth at most -t: this one is worth t.
                    decided[p] = true;
                    value[p] = t;
                    queue.push((p as u32, true));
                }
            }
        }
    }
    for (a, &i) in members.iter().enumerate() {
        values[i as usize] = value[a] as i16;
    }
    Ok(())
}
