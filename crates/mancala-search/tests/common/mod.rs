//! Helpers shared by the search tests: an independent Kalah solver and small utilities.

#![allow(dead_code)]

use mancala_rules::{Board, GrandSlam, Next, Node, Options, Preset, Rules, Variant};
use mancala_tables::{build, BuildOptions, Tables};
use std::collections::HashMap;
use std::path::Path;

/// Kalah rules written out plainly on a pit array, independent of `mancala_rules`: the side to
/// move's `m` pits, then the opponent's `m` pits in the opponent's sowing order.
pub struct PlainKalah {
    pub m: usize,
    pub empty_capture: bool,
    memo: HashMap<Vec<u8>, i32>,
}

impl PlainKalah {
    pub fn new(m: usize, empty_capture: bool) -> PlainKalah {
        PlainKalah {
            m,
            empty_capture,
            memo: HashMap::new(),
        }
    }

    /// The final store difference (side to move minus opponent) under perfect play, counting
    /// only seeds still in the pits.
    pub fn value(&mut self, pits: &[u8]) -> i32 {
        if let Some(&v) = self.memo.get(pits) {
            return v;
        }
        let m = self.m;
        let own: i32 = pits[..m].iter().map(|&x| x as i32).sum();
        let opp: i32 = pits[m..].iter().map(|&x| x as i32).sum();
        let v = if own == 0 || opp == 0 {
            own - opp
        } else {
            (0..m)
                .filter(|&o| pits[o] > 0)
                .map(|o| self.move_value(pits, o))
                .max()
                .unwrap()
        };
        self.memo.insert(pits.to_vec(), v);
        v
    }

    /// The value of sowing own pit `o`.
    pub fn move_value(&mut self, pits: &[u8], o: usize) -> i32 {
        let m = self.m;
        let mut p = pits.to_vec();
        let mut seeds = p[o];
        p[o] = 0;
        let mut gain = 0i32;
        // Positions along the cycle: 0..m own pits, m = own store, m+1..=2m opponent pits.
        let mut at = o;
        let mut last_store = false;
        while seeds > 0 {
            at = (at + 1) % (2 * m + 1);
            seeds -= 1;
            if at == m {
                gain += 1;
                last_store = seeds == 0;
            } else if at < m {
                p[at] += 1;
            } else {
                p[at - 1] += 1;
            }
        }
        if !last_store && at < m && p[at] == 1 {
            let across = 2 * m - 1 - at;
            if p[across] > 0 {
                gain += 1 + p[across] as i32;
                p[at] = 0;
                p[across] = 0;
            } else if self.empty_capture {
                gain += 1;
                p[at] = 0;
            }
        }
        let own: i32 = p[..m].iter().map(|&x| x as i32).sum();
        let opp: i32 = p[m..].iter().map(|&x| x as i32).sum();
        if own == 0 || opp == 0 {
            return gain + own - opp;
        }
        if last_store {
            gain + self.value(&p)
        } else {
            let mut q = p[m..].to_vec();
            q.extend_from_slice(&p[..m]);
            gain - self.value(&q)
        }
    }
}

pub fn kalah(pits: u32, seeds: u32, empty_capture: bool) -> Rules {
    Rules::new(
        Variant::new(
            Preset::Kalah,
            Options {
                pits: Some(pits),
                seeds: Some(seeds),
                empty_capture,
                grand_slam: None,
                ..Default::default()
            },
        )
        .unwrap(),
    )
}

pub fn awari(seeds: u32) -> Rules {
    awari_type(Preset::Awari, seeds, None)
}

pub fn awari_type(preset: Preset, seeds: u32, grand_slam: Option<GrandSlam>) -> Rules {
    Rules::new(
        Variant::new(
            preset,
            Options {
                seeds: Some(seeds),
                grand_slam,
                ..Default::default()
            },
        )
        .unwrap(),
    )
}

/// Builds tiers `0..=max` with the retrograde builder (a method independent of the search).
pub fn built(rules: &Rules, dir: &Path, max: usize) -> Tables {
    let opts = BuildOptions {
        dir: dir.to_path_buf(),
        max_seeds: max,
        compress: false,
        memory: None,
        checkpoint_every: None,
        repair: false,
    };
    build(rules, &opts, &()).unwrap();
    Tables::open(dir, rules, max, true).unwrap()
}

/// The value of `b` and of each move, read from tables that cover them.
pub fn table_moves(tables: &Tables, b: Board) -> (i32, Vec<(usize, i32)>) {
    match tables.rules().node(b) {
        Node::Terminal { mover, opp } => (mover as i32 - opp as i32, Vec::new()),
        Node::Moves(kids) => {
            let moves: Vec<(usize, i32)> = kids
                .iter()
                .map(|c| {
                    let w = match c.next {
                        Next::Over => 0,
                        _ => tables.probe(c.board).unwrap().unwrap() as i32,
                    };
                    (c.pit as usize, c.value(w))
                })
                .collect();
            (moves.iter().map(|m| m.1).max().unwrap(), moves)
        }
    }
}

/// A small deterministic generator (no external crates).
pub struct Lcg(pub u64);

impl Lcg {
    pub fn below(&mut self, n: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 33) % n
    }
}

/// Positions along a pseudo-random game from `b` (every position before the end).
pub fn game_positions(rules: &Rules, mut b: Board, rng: &mut Lcg) -> Vec<Board> {
    let mut out = Vec::new();
    while let Node::Moves(kids) = rules.node(b) {
        out.push(b);
        let c = kids.as_slice()[rng.below(kids.len() as u64) as usize];
        if c.next == mancala_rules::Next::Over {
            break;
        }
        b = c.board;
    }
    out
}

/// A scratch folder for tables, removed first.
pub fn scratch(name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("mancala-search-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}
