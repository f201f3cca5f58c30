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
//!
//! It stays independent of the builder: it only ever sows forwards (the builder un-sows), and
//! it keeps its own lists of the moves inside a tier. Positions are kept as one bit per rank
//! of their tier plus a byte or two per reached position, so a few hundred million fit.

use crate::probe::Probe;
use mancala_index::Indexer;
use mancala_rules::{Board, Next, Node, Rules};
use mancala_tables::TableError;
use mancala_tables::MAX_TIER;

/// A position whose moves all stay inside its tier.
const NO_EXIT: i8 = i8::MIN;
/// Not (yet) in any threshold set.
const UNDECIDED: i8 = i8::MIN;

/// The reached positions of one tier: a bit per rank, and each one's value by its place
/// among them.
///
/// A plain `Vec<u64>`, not a `bitvec::BitVec`: with `BitVec` the same solve took 2% longer
/// (docs/performance.md, "Bit sets").
struct TierSet {
    bits: Vec<u64>,
    /// Reached positions in the words before each word (filled once the tier is complete).
    before: Vec<u32>,
    values: Vec<i8>,
}

impl TierSet {
    fn new(size: u64) -> TierSet {
        TierSet {
            bits: vec![0; size.div_ceil(64) as usize],
            before: Vec::new(),
            values: Vec::new(),
        }
    }

    /// Adds rank `r`; false if it was there.
    fn insert(&mut self, r: u64) -> bool {
        let (w, m) = ((r / 64) as usize, 1u64 << (r % 64));
        let new = self.bits[w] & m == 0;
        self.bits[w] |= m;
        new
    }

    fn contains(&self, r: u64) -> bool {
        self.bits[(r / 64) as usize] & (1 << (r % 64)) != 0
    }

    /// Numbers the reached positions in rank order; returns how many there are.
    fn seal(&mut self) -> usize {
        let mut acc = 0u32;
        self.before = self
            .bits
            .iter()
            .map(|w| {
                let b = acc;
                acc += w.count_ones();
                b
            })
            .collect();
        acc as usize
    }

    /// The place of a reached rank among the reached positions.
    fn local(&self, r: u64) -> usize {
        let w = (r / 64) as usize;
        let below = self.bits[w] & ((1u64 << (r % 64)) - 1);
        self.before[w] as usize + below.count_ones() as usize
    }

    fn ranks(&self) -> impl Iterator<Item = u64> + '_ {
        self.bits.iter().enumerate().flat_map(|(w, &word)| {
            let mut x = word;
            std::iter::from_fn(move || {
                (x != 0).then(|| {
                    let b = x.trailing_zeros() as u64;
                    x &= x - 1;
                    w as u64 * 64 + b
                })
            })
        })
    }

    fn value(&self, r: u64) -> Option<i32> {
        self.contains(r)
            .then(|| self.values.get(self.local(r)).map(|&v| v as i32))
            .flatten()
    }
}

/// Every position reachable from a root above the tables, with its exact value.
pub struct Reach {
    ix: Indexer,
    /// By seed count; `None` below the first tier above the tables.
    tiers: Vec<Option<TierSet>>,
    /// A root outside the index (a start position no move can produce) and its value.
    outside: Option<(Board, i32)>,
    /// Positions enumerated plus table probes made.
    pub nodes: u64,
}

impl Reach {
    /// The exact value of a position the enumeration reached.
    pub fn value(&self, b: Board) -> Option<i32> {
        if let Some((root, v)) = self.outside {
            if root == b {
                return Some(v);
            }
        }
        let t = self.tiers.get(b.total() as usize)?.as_ref()?;
        t.value(self.ix.rank(b)?)
    }

    /// The value of a child: a move that ends the game, a reached position or the tables.
    fn child(
        &self,
        probe: Option<&Probe<'_>>,
        next: Next,
        b: Board,
        nodes: &mut u64,
    ) -> Result<i32, TableError> {
        if next == Next::Over {
            return Ok(0);
        }
        if let Some(v) = self.value(b) {
            return Ok(v);
        }
        Ok(tabled(probe, b, nodes)?.expect("enumerated or in the tables"))
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
    interrupt: Option<&crate::Interrupt>,
) -> Result<Option<Reach>, TableError> {
    let top = root.total() as usize;
    if top > MAX_TIER {
        return Ok(None);
    }
    // Every phase looks at the clock now and then: the collection, and each tier's backward
    // solution (a tier of millions of positions takes seconds).
    let late = || {
        interrupt.is_some_and(crate::Interrupt::is_raised)
            || deadline.is_some_and(|d| std::time::Instant::now() >= d)
    };
    if late() {
        return Ok(None);
    }
    let from = probe.map_or(0, |p| p.max as usize + 1).min(top);
    let Ok(ix) = Indexer::new(rules, top) else {
        return Ok(None);
    };
    let mut reach = Reach {
        tiers: (0..=top)
            .map(|n| (n >= from).then(|| TierSet::new(ix.size(n))))
            .collect(),
        ix,
        outside: None,
        nodes: 0,
    };
    let outside = match reach.ix.rank(root) {
        Some(r) => {
            if let Some(t) = reach.tiers[top].as_mut() {
                t.insert(r);
            }
            false
        }
        None => true,
    };
    // Forward, tier by tier from the top: a tier's positions are all known once the tiers
    // above it and its own moves are done.
    let mut count = 1usize;
    let mut queue: Vec<Board> = Vec::new();
    for n in (from..=top).rev() {
        let tier = reach.tiers[n].as_ref().expect("a tier above the tables");
        queue.extend(tier.ranks().map(|r| reach.ix.unrank(n, r)));
        if outside && n == top {
            queue.push(root);
        }
        while let Some(b) = queue.pop() {
            reach.nodes += 1;
            if reach.nodes.is_multiple_of(65536) && late() {
                return Ok(None);
            }
            let Node::Moves(kids) = rules.node(b) else {
                continue;
            };
            for c in kids.iter().filter(|c| c.next != Next::Over) {
                let k = c.board.total() as usize;
                if k < from {
                    continue;
                }
                // Every move empties its pit, so every child is indexed.
                let r = reach.ix.rank(c.board).expect("a child is indexed");
                let t = reach.tiers[k].as_mut().expect("a tier above the tables");
                if t.insert(r) {
                    count += 1;
                    if count > limit {
                        return Ok(None);
                    }
                    if k == n {
                        queue.push(c.board);
                    }
                }
            }
        }
    }
    // Backward, from the fewest seeds.
    for n in from..=top {
        let mut tier = reach.tiers[n].take().expect("a tier above the tables");
        let Some((values, k)) = solve_tier(rules, probe, &reach, n, &mut tier, &late)? else {
            return Ok(None);
        };
        tier.values = values;
        reach.nodes += k;
        reach.tiers[n] = Some(tier);
    }
    if outside {
        let mut nodes = 0;
        let v = match rules.node(root) {
            Node::Terminal { mover, opp } => mover as i32 - opp as i32,
            Node::Moves(kids) => {
                let mut best = i32::MIN;
                for c in &kids {
                    best = best.max(c.value(reach.child(probe, c.next, c.board, &mut nodes)?));
                }
                best
            }
        };
        reach.nodes += nodes;
        reach.outside = Some((root, v));
    }
    Ok(Some(reach))
}

/// The value of a position the tables answer, counting the probe as a node.
fn tabled(probe: Option<&Probe<'_>>, b: Board, nodes: &mut u64) -> Result<Option<i32>, TableError> {
    let Some(v) = probe.map(|p| p.exact(b)).transpose()?.flatten() else {
        return Ok(None);
    };
    *nodes += 1;
    Ok(Some(v as i32))
}

/// The values of tier `n`'s reached positions and the table probes made, given every lower
/// value (`reach` holds the tiers solved so far; this one is taken out of it); `None` once
/// `late` says the time is up.
fn solve_tier(
    rules: &Rules,
    probe: Option<&Probe<'_>>,
    reach: &Reach,
    n: usize,
    tier: &mut TierSet,
    late: &dyn Fn() -> bool,
) -> Result<Option<(Vec<i8>, u64)>, TableError> {
    /// Positions between looks at the clock.
    const POLL: usize = 1 << 16;
    let k = tier.seal();
    let ix = &reach.ix;
    let mut nodes = 0;
    let inside =
        |c: &mancala_rules::Child| c.next == Next::Opponent && c.board.total() as usize == n;
    // The best exit and the count of inside moves of each position; the inside moves into
    // each position, counted.
    let mut exit = vec![NO_EXIT; k];
    let mut count = vec![0u8; k];
    let mut first = vec![0u32; k + 1];
    for (a, r) in tier.ranks().enumerate() {
        if a % POLL == POLL - 1 && late() {
            return Ok(None);
        }
        match rules.node(ix.unrank(n, r)) {
            // A finished game: both rows' seeds are already split.
            Node::Terminal { mover, opp } => exit[a] = (mover as i32 - opp as i32) as i8,
            Node::Moves(kids) => {
                for c in &kids {
                    if inside(c) {
                        count[a] += 1;
                        first[tier.local(ix.rank(c.board).expect("indexed"))] += 1;
                    } else {
                        let w = reach.child(probe, c.next, c.board, &mut nodes)?;
                        exit[a] = exit[a].max(c.value(w) as i8);
                    }
                }
            }
        }
    }
    // Predecessor lists (compressed rows): `first[j]..first[j + 1]` once filled.
    let mut acc = 0u32;
    for f in first.iter_mut() {
        acc += *f;
        *f = acc;
    }
    let mut preds = vec![0u32; acc as usize];
    for (a, r) in tier.ranks().enumerate() {
        if a % POLL == POLL - 1 && late() {
            return Ok(None);
        }
        if let Node::Moves(kids) = rules.node(ix.unrank(n, r)) {
            for c in kids.iter().filter(|c| inside(c)) {
                let j = tier.local(ix.rank(c.board).expect("indexed"));
                first[j] -= 1;
                preds[first[j] as usize] = a as u32;
            }
        }
    }
    // Thresholds from the top: a position is decided the first time it enters a set.
    let mut value = vec![UNDECIDED; k];
    let mut queue: Vec<(u32, bool)> = Vec::new();
    for t in (1..=n as i32).rev() {
        let t8 = t as i8;
        if late() {
            return Ok(None);
        }
        for a in 0..k {
            if value[a] != UNDECIDED {
                continue;
            }
            if exit[a] != NO_EXIT && exit[a] >= t8 {
                value[a] = t8;
                queue.push((a as u32, true));
            } else if count[a] == 0 && exit[a] <= -t8 {
                value[a] = -t8;
                queue.push((a as u32, false));
            }
        }
        while let Some((q, won)) = queue.pop() {
            let q = q as usize;
            for &p in &preds[first[q] as usize..first[q + 1] as usize] {
                let p = p as usize;
                if value[p] != UNDECIDED {
                    continue;
                }
                if won {
                    // One more inside move leads to a position worth at least t.
                    count[p] -= 1;
                    if count[p] == 0 && exit[p] <= -t8 {
                        value[p] = -t8;
                        queue.push((p as u32, false));
                    }
                } else {
                    // A move to a position worth at most -t: this one is worth t.
                    value[p] = t8;
                    queue.push((p as u32, true));
                }
            }
        }
    }
    // Endless play is worth 0.
    for v in value.iter_mut().filter(|v| **v == UNDECIDED) {
        *v = 0;
    }
    Ok(Some((value, nodes)))
}
