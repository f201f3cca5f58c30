//! An independent, deliberately simple reference for Mankala uniwersalna, written separately
//! from the crate: one flat `ring` vector holds pits and houses in sowing order (player s owns
//! ring cells s*(P+1) .. s*(P+1)+P-1, his house is s*(P+1)+P), sowing walks one cell at a time,
//! nothing is cached. Used by the perft and solver cross-checks.
#![allow(dead_code)]

#[derive(Clone, Debug, Default)]
pub struct Ref {
    pub n: usize,
    pub p: usize,
    pub capturer_stays: bool,
    pub first_empty_ends: bool,
    pub houses_not_sown: bool,
    pub one_opposite: bool,
    pub must_feed: bool,
    pub keep_last_seed: bool,
    pub relay: bool,
    /// capture-four: None, or Some("any" | "own" | "opponents").
    pub four: Option<&'static str>,
}

/// What a position leads to: someone moves (seat, legal moves as (pit, ring after, extra turn)),
/// or the game is over with these final houses.
pub enum State {
    ToMove(usize, Vec<(usize, Vec<u32>, bool)>),
    Over(Vec<u32>),
}

impl Ref {
    /// The reference for the rule set of a game of the crate (its options read back).
    pub fn for_game(game: &mancala_multi::MultiGame) -> Ref {
        use mancala_multi::FourScope;
        let o = game.options();
        Ref {
            n: game.players(),
            p: game.pits_per_player(),
            capturer_stays: o.capturer_stays,
            first_empty_ends: o.first_empty_ends,
            houses_not_sown: o.houses_not_sown,
            one_opposite: o.one_opposite,
            must_feed: o.must_feed,
            keep_last_seed: o.keep_last_seed,
            relay: o.relay,
            four: o.capture_four.map(|s| match s {
                FourScope::Any => "any",
                FourScope::Own => "own",
                FourScope::Opponents => "opponents",
            }),
        }
    }

    pub fn new(n: usize, p: usize) -> Ref {
        Ref {
            n,
            p,
            ..Ref::default()
        }
    }

    /// Builds a ring from pits in seat order and houses.
    pub fn ring(&self, pits: &[u32], houses: &[u32]) -> Vec<u32> {
        let mut ring = Vec::new();
        for s in 0..self.n {
            for i in 0..self.p {
                ring.push(pits[s * self.p + i]);
            }
            ring.push(houses[s]);
        }
        ring
    }

    pub fn cell(&self, seat: usize, pit: usize) -> usize {
        seat * (self.p + 1) + pit
    }

    pub fn house(&self, seat: usize) -> usize {
        seat * (self.p + 1) + self.p
    }

    pub fn houses(&self, ring: &[u32]) -> Vec<u32> {
        (0..self.n).map(|s| ring[self.house(s)]).collect()
    }

    pub fn row_sum(&self, ring: &[u32], seat: usize) -> u32 {
        (0..self.p).map(|i| ring[self.cell(seat, i)]).sum()
    }

    fn is_house(&self, c: usize) -> bool {
        c % (self.p + 1) == self.p
    }

    /// The cells a capture from the mover's pit `i` empties.
    fn facing(&self, mover: usize, i: usize) -> Vec<usize> {
        let mut out = Vec::new();
        for s in 0..self.n {
            if s == mover {
                continue;
            }
            let take = if self.n == 2 {
                // the pit across the table: counted from the other player's left
                out.push(self.cell(s, self.p - 1 - i));
                continue;
            } else if self.one_opposite {
                s == (mover + 2) % self.n
            } else {
                true
            };
            if take {
                out.push(self.cell(s, i));
            }
        }
        out
    }

    /// Plays `pit` for `mover`: None if empty or an endless relay.
    pub fn sow(&self, ring: &[u32], mover: usize, pit: usize) -> Option<(Vec<u32>, bool)> {
        let len = ring.len();
        let mut r = ring.to_vec();
        let mut from = self.cell(mover, pit);
        if r[from] == 0 {
            return None;
        }
        let mut history: Vec<(Vec<u32>, usize)> = Vec::new();
        let mut at = from;
        loop {
            let mut hand = r[from];
            r[from] = 0;
            while hand > 0 {
                at = (at + 1) % len;
                if at == from {
                    continue;
                }
                if self.is_house(at) && (self.houses_not_sown || at != self.house(mover)) {
                    continue;
                }
                r[at] += 1;
                hand -= 1;
            }
            if at == self.house(mover) {
                return Some((r, true));
            }
            let owner = at / (self.p + 1);
            let index = at % (self.p + 1);
            if let Some(scope) = self.four {
                let ok = match scope {
                    "any" => true,
                    "own" => owner == mover,
                    _ => owner != mover,
                };
                if r[at] == 4 && ok {
                    r[self.house(mover)] += 4;
                    r[at] = 0;
                    return Some((r, false));
                }
            }
            if self.relay && r[at] > 1 {
                let state = (r.clone(), at);
                if history.contains(&state) {
                    return None;
                }
                history.push(state);
                from = at;
                continue;
            }
            if self.four.is_none() && owner == mover && r[at] == 1 {
                let facing = self.facing(mover, index);
                let loot: u32 = facing.iter().map(|&c| r[c]).sum();
                let h = self.house(mover);
                if loot > 0 {
                    for &c in &facing {
                        r[c] = 0;
                    }
                    r[h] += loot;
                    if !self.capturer_stays {
                        r[at] = 0;
                        r[h] += 1;
                    }
                } else if self.keep_last_seed {
                    r[at] = 0;
                    r[h] += 1;
                }
            }
            return Some((r, false));
        }
    }

    fn banked(&self, ring: &[u32]) -> Vec<u32> {
        (0..self.n)
            .map(|s| ring[self.house(s)] + self.row_sum(ring, s))
            .collect()
    }

    /// Settles the turn of `candidate` (passes, end of game).
    pub fn state(&self, ring: &[u32], candidate: usize) -> State {
        let seeds: u32 = (0..self.n).map(|s| self.row_sum(ring, s)).sum();
        if seeds == 0 {
            return State::Over(self.houses(ring));
        }
        if self.first_empty_ends && (0..self.n).any(|s| self.row_sum(ring, s) == 0) {
            return State::Over(self.houses(ring));
        }
        for k in 0..self.n {
            let s = (candidate + k) % self.n;
            if self.row_sum(ring, s) == 0 {
                continue;
            }
            let mut moves = Vec::new();
            for i in 0..self.p {
                if let Some((r, extra)) = self.sow(ring, s, i) {
                    moves.push((i, r, extra));
                }
            }
            let hungry = (s + 1) % self.n;
            if self.must_feed && self.row_sum(ring, hungry) == 0 {
                moves.retain(|(_, r, _)| self.row_sum(r, hungry) > 0);
                if moves.is_empty() {
                    return State::Over(self.banked(ring));
                }
                return State::ToMove(s, moves);
            }
            if !moves.is_empty() {
                return State::ToMove(s, moves);
            }
        }
        State::Over(self.banked(ring))
    }

    pub fn perft(&self, ring: &[u32], candidate: usize, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        match self.state(ring, candidate) {
            State::Over(_) => 0,
            State::ToMove(s, moves) => moves
                .iter()
                .map(|(_, r, extra)| {
                    if depth == 1 {
                        1
                    } else {
                        let next = if *extra { s } else { (s + 1) % self.n };
                        match self.state(r, next) {
                            State::Over(_) => 0,
                            State::ToMove(..) => self.perft(r, next, depth - 1),
                        }
                    }
                })
                .sum(),
        }
    }

    /// Plain recursive max-n with no memo: final houses and the best pit, with the crate's tie
    /// rule (own gain, then own gain minus the best other gain, then lowest pit) and the
    /// repetition rule (a position met again on the line ends the game, each player banks his
    /// own pits). `line` holds (ring, mover) of the positions above.
    pub fn maxn(
        &self,
        ring: &[u32],
        candidate: usize,
        line: &mut Vec<(Vec<u32>, usize)>,
        nodes: &mut u64,
    ) -> (Vec<u32>, Option<usize>) {
        *nodes += 1;
        let (s, moves) = match self.state(ring, candidate) {
            State::Over(h) => return (h, None),
            State::ToMove(s, m) => (s, m),
        };
        if line.contains(&(ring.to_vec(), s)) {
            return (self.banked(ring), None);
        }
        line.push((ring.to_vec(), s));
        let now = self.houses(ring);
        let mut best: Option<(Vec<u32>, usize)> = None;
        for (i, r, extra) in moves {
            let next = if extra { s } else { (s + 1) % self.n };
            let (fin, _) = self.maxn(&r, next, line, nodes);
            let better = match &best {
                None => true,
                Some((b, _)) => {
                    let gain = |v: &Vec<u32>, k: usize| v[k] as i64 - now[k] as i64;
                    let margin = |v: &Vec<u32>| {
                        gain(v, s)
                            - (0..self.n)
                                .filter(|&o| o != s)
                                .map(|o| gain(v, o))
                                .max()
                                .unwrap()
                    };
                    gain(&fin, s) > gain(b, s)
                        || (gain(&fin, s) == gain(b, s) && margin(&fin) > margin(b))
                }
            };
            if better {
                best = Some((fin, i));
            }
        }
        line.pop();
        let (fin, i) = best.unwrap();
        (fin, Some(i))
    }

    /// Two-player zero-sum negamax: the future (own gain - other's gain) of `candidate`, with a
    /// memo on (pits, candidate). Only for rule sets whose games cannot repeat a position (it
    /// panics if one does).
    pub fn negamax(
        &self,
        ring: &[u32],
        candidate: usize,
        line: &mut Vec<Vec<u32>>,
        memo: &mut std::collections::HashMap<(Vec<u32>, usize), i64>,
    ) -> i64 {
        assert_eq!(self.n, 2);
        let pits: Vec<u32> = (0..2)
            .flat_map(|s| (0..self.p).map(move |i| (s, i)))
            .map(|(s, i)| ring[self.cell(s, i)])
            .collect();
        if let Some(&v) = memo.get(&(pits.clone(), candidate)) {
            return v;
        }
        let value = match self.state(ring, candidate) {
            State::Over(h) => {
                let now = self.houses(ring);
                let c = candidate;
                (h[c] as i64 - now[c] as i64) - (h[1 - c] as i64 - now[1 - c] as i64)
            }
            State::ToMove(s, moves) => {
                assert!(!line.contains(&pits), "negamax: a position repeated");
                line.push(pits.clone());
                let mut best = i64::MIN;
                for (_, r, extra) in moves {
                    let gain = r[self.house(s)] as i64 - ring[self.house(s)] as i64;
                    let next = if extra { s } else { 1 - s };
                    let child = self.negamax(&r, next, line, memo);
                    best = best.max(if next == s {
                        gain + child
                    } else {
                        gain - child
                    });
                }
                line.pop();
                if s == candidate {
                    best
                } else {
                    -best
                }
            }
        };
        memo.insert((pits, candidate), value);
        value
    }
}
