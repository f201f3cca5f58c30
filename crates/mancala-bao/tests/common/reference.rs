//! A deliberately simple, separately written move generator for the default rules of both
//! presets, working directly on the 4 x 8 grid of `pits()` (row 0 = North's back row, row 3 =
//! South's back row). It is slow and straightforward on purpose: it is only used to check the
//! engine's move generation and the pinned perft counts.

#![allow(dead_code, clippy::needless_range_loop)]

use std::collections::HashSet;

/// The default sowing limit (relay lifts) of the engine, a rule: longer sowings are illegal.
pub const LIMIT: usize = 10_000;

pub type Cell = (usize, usize);

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RefPos {
    pub g: [[u32; 8]; 4],
    pub hand: [u32; 2],
    pub ny: [bool; 2],
    pub mover: usize,
    pub takasia: Option<Cell>,
    pub kis: bool,
}

/// The mover's 16 cells in clockwise order (front row from his left to his right, then back).
pub fn path(p: usize) -> Vec<Cell> {
    let mut v = Vec::new();
    if p == 0 {
        for c in 0..8 {
            v.push((2, c));
        }
        for c in (0..8).rev() {
            v.push((3, c));
        }
    } else {
        for c in (0..8).rev() {
            v.push((1, c));
        }
        for c in 0..8 {
            v.push((0, c));
        }
    }
    v
}

fn front(p: usize) -> usize {
    if p == 0 {
        2
    } else {
        1
    }
}

fn across(cell: Cell) -> Cell {
    (3 - cell.0, cell.1)
}

fn name_of(p: usize, cell: Cell) -> String {
    let i = path(p).iter().position(|&x| x == cell).unwrap();
    if i < 8 {
        format!("a{}", i + 1)
    } else {
        format!("b{}", 16 - i)
    }
}

impl RefPos {
    pub fn new_start(kis: bool) -> RefPos {
        let mut g = [[0u32; 8]; 4];
        let mut hand = [0, 0];
        if kis {
            for p in 0..2 {
                let pa = path(p);
                let (r, c) = pa[4];
                g[r][c] = 6;
                let (r, c) = pa[5];
                g[r][c] = 2;
                let (r, c) = pa[6];
                g[r][c] = 2;
            }
            hand = [22, 22];
        } else {
            g = [[2; 8]; 4];
        }
        RefPos {
            g,
            hand,
            ny: [kis, kis],
            mover: 0,
            takasia: None,
            kis,
        }
    }

    fn at(&self, c: Cell) -> u32 {
        self.g[c.0][c.1]
    }

    fn nyumba_special(&self, p: usize) -> bool {
        self.kis && self.ny[p] && self.at(path(p)[4]) >= 6
    }

    /// Can player `p` capture from `cell` (his last seed just landed there)?
    fn can_capture(&self, p: usize, cell: Cell) -> bool {
        if cell.0 != front(p) || self.at(cell) < 2 {
            return false;
        }
        let t = across(cell);
        if self.at(t) == 0 {
            return false;
        }
        !(t == path(1 - p)[4] && self.nyumba_special(1 - p))
    }

    pub fn to_string_pos(&self) -> String {
        let mut s: Vec<String> = Vec::new();
        for r in 0..4 {
            for c in 0..8 {
                s.push(self.g[r][c].to_string());
            }
        }
        s.push(format!("hand={},{}", self.hand[0], self.hand[1]));
        s.push(if self.mover == 0 { "south" } else { "north" }.into());
        if self.kis {
            s.push(format!("nyumba={}{}", self.ny[0] as u8, self.ny[1] as u8));
        }
        if let Some(t) = self.takasia {
            s.push(format!("takasia={}", name_of(self.mover, t)));
        }
        s.join(" ")
    }

    fn front_empty(&self, p: usize) -> bool {
        (0..8).all(|c| self.g[front(p)][c] == 0)
    }

    /// All legal moves, named as the engine names them, with the positions they lead to.
    pub fn moves(&self) -> Vec<(String, RefPos)> {
        if self.front_empty(0) || self.front_empty(1) {
            return vec![];
        }
        let p = self.mover;
        let pa = path(p);
        let mut out = vec![];
        if self.hand[p] > 0 {
            for i in 0..8 {
                if self.at(pa[i]) == 0 {
                    continue;
                }
                let mut q = self.clone();
                q.g[pa[i].0][pa[i].1] += 1;
                if !q.can_capture(p, pa[i]) {
                    continue;
                }
                let lefts: Vec<bool> = match i {
                    0 | 1 => vec![true],
                    6 | 7 => vec![false],
                    _ => vec![true, false],
                };
                for left in lefts {
                    let base = format!("a{}{}", i + 1, if left { "L" } else { "R" });
                    q.run_all(Kind::NamuaCapture(i, left), &base, &mut out);
                }
            }
            if !out.is_empty() {
                return out;
            }
            for i in 0..8 {
                if self.at(pa[i]) == 0 {
                    continue;
                }
                let mut q = self.clone();
                q.g[pa[i].0][pa[i].1] += 1;
                let tax = i == 4 && q.nyumba_special(p);
                for cw in q.dirs_allowed(i, tax) {
                    let base = format!(
                        "a{}{}{}",
                        i + 1,
                        if tax { "t" } else { "" },
                        if cw { ">" } else { "<" }
                    );
                    q.run_all(Kind::NamuaTakata(i, cw, tax), &base, &mut out);
                }
            }
            return out;
        }
        // Hands empty.
        for i in 0..16 {
            let n = self.at(pa[i]);
            if !(2..=15).contains(&n) || self.takasia == Some(pa[i]) {
                continue;
            }
            for cw in [true, false] {
                let end = if cw {
                    (i + n as usize) % 16
                } else {
                    (i + 16 - n as usize) % 16
                };
                let mut q = self.clone();
                q.g[pa[i].0][pa[i].1] = 0;
                q.g[pa[end].0][pa[end].1] += 1;
                if q.can_capture(p, pa[end]) {
                    let base = format!("{}{}", name_of(p, pa[i]), if cw { ">" } else { "<" });
                    self.run_all(Kind::Start(i, cw, true, false), &base, &mut out);
                }
            }
        }
        if !out.is_empty() {
            return out;
        }
        let special = self.nyumba_special(p);
        let ok = |i: usize| self.at(pa[i]) >= 2 && self.takasia != Some(pa[i]);
        for i in 0..8 {
            if ok(i) && !(special && i == 4) {
                for cw in self.dirs_allowed(i, false) {
                    let base = format!("a{}{}", i + 1, if cw { ">" } else { "<" });
                    self.run_all(Kind::Start(i, cw, false, false), &base, &mut out);
                }
            }
        }
        if out.is_empty() {
            for i in 8..16 {
                if ok(i) {
                    for cw in [true, false] {
                        let base = format!("b{}{}", 16 - i, if cw { ">" } else { "<" });
                        self.run_all(Kind::Start(i, cw, false, false), &base, &mut out);
                    }
                }
            }
        }
        if out.is_empty() && special {
            for cw in self.dirs_allowed(4, true) {
                let base = format!("a5t{}", if cw { ">" } else { "<" });
                self.run_all(Kind::Start(4, cw, false, true), &base, &mut out);
            }
        }
        out
    }

    /// Kiswahili: a lone front-row kichwa must be sown toward the centre.
    fn dirs_allowed(&self, i: usize, tax: bool) -> Vec<bool> {
        let p = self.mover;
        let pa = path(p);
        if self.kis && !tax {
            let alone = (0..8).all(|j| j == i || self.at(pa[j]) == 0);
            if alone && i == 0 {
                return vec![true];
            }
            if alone && i == 7 {
                return vec![false];
            }
        }
        vec![true, false]
    }

    fn run_all(&self, kind: Kind, base: &str, out: &mut Vec<(String, RefPos)>) {
        if let Some((q, asked)) = self.run(kind, false) {
            out.push((base.to_string(), q));
            if asked {
                if let Some((q2, _)) = self.run(kind, true) {
                    out.push((format!("{base}s"), q2));
                }
            }
        }
    }

    /// Plays one move; `None` if it never ends. Also says whether a nyumba stop choice came up.
    fn run(&self, kind: Kind, stop_in_nyumba: bool) -> Option<(RefPos, bool)> {
        let p = self.mover;
        let pa = path(p);
        let mut q = self.clone();
        let mut asked = false;
        let (mut idx, mut cw, mut hand, capturing, namua, mut taxed_first);
        match kind {
            Kind::NamuaCapture(i, left) => {
                let t = across(pa[i]);
                hand = q.at(t);
                q.g[t.0][t.1] = 0;
                (idx, cw) = from_kichwa(left);
                capturing = true;
                namua = true;
                taxed_first = false;
            }
            Kind::NamuaTakata(i, c, tax) | Kind::Start(i, c, _, tax) => {
                hand = if tax { 2 } else { q.at(pa[i]) };
                q.g[pa[i].0][pa[i].1] -= hand;
                if i == 4 && !tax {
                    q.ny[p] = false;
                }
                idx = i;
                cw = c;
                capturing = matches!(kind, Kind::Start(_, _, true, _));
                namua = matches!(kind, Kind::NamuaTakata(..));
                // Only a mtaji-phase taxed move stops short of a takasia it does not reach.
                taxed_first = tax && !namua;
            }
        }
        let mut seen = HashSet::new();
        loop {
            let mut met_takasia = false;
            while hand > 0 {
                idx = if cw { (idx + 1) % 16 } else { (idx + 15) % 16 };
                let c = pa[idx];
                q.g[c.0][c.1] += 1;
                hand -= 1;
                if Some(c) == self.takasia {
                    met_takasia = true;
                }
            }
            let c = pa[idx];
            if taxed_first && self.takasia.is_some() && !met_takasia {
                break;
            }
            taxed_first = false;
            if q.at(c) == 1 {
                break;
            }
            if capturing && q.can_capture(p, c) {
                let t = across(c);
                hand = q.at(t);
                q.g[t.0][t.1] = 0;
                if t == path(1 - p)[4] {
                    q.ny[1 - p] = false;
                }
                let left = match idx {
                    0 | 1 => true,
                    6 | 7 => false,
                    _ => cw,
                };
                (idx, cw) = from_kichwa(left);
                continue;
            }
            if idx == 4 && q.nyumba_special(p) {
                if !capturing {
                    if namua {
                        break;
                    }
                } else {
                    asked = true;
                    if stop_in_nyumba {
                        break;
                    }
                }
            }
            if Some(c) == self.takasia {
                break;
            }
            if !seen.insert((q.g, idx, cw)) || seen.len() > LIMIT {
                return None;
            }
            hand = q.at(c);
            q.g[c.0][c.1] = 0;
            if idx == 4 {
                q.ny[p] = false;
            }
        }
        for pl in 0..2 {
            if q.at(path(pl)[4]) == 0 {
                q.ny[pl] = false;
            }
        }
        if namua {
            q.hand[p] -= 1;
        }
        q.mover = 1 - p;
        q.takasia = None;
        if q.kis && !namua && !capturing && q.hand == [0, 0] {
            q.takasia = q.find_takasia(p);
        }
        Some((q, asked))
    }

    /// Opponent front cells that player `p` could capture with a first sowing.
    fn threatened_by(&self, p: usize) -> Vec<Cell> {
        let pa = path(p);
        let mut v = vec![];
        for i in 0..16 {
            let n = self.at(pa[i]) as usize;
            if !(2..=15).contains(&n) {
                continue;
            }
            for end in [(i + n) % 16, (i + 16 - n) % 16] {
                let mut q = self.clone();
                q.g[pa[i].0][pa[i].1] = 0;
                q.g[pa[end].0][pa[end].1] += 1;
                if q.can_capture(p, pa[end]) && !v.contains(&across(pa[end])) {
                    v.push(across(pa[end]));
                }
            }
        }
        v
    }

    fn find_takasia(&self, p: usize) -> Option<Cell> {
        let th = self.threatened_by(p);
        if th.len() != 1 || !self.threatened_by(1 - p).is_empty() {
            return None;
        }
        let t = th[0];
        let o = 1 - p;
        let others = (0..8).any(|c| (front(o), c) != t && self.g[front(o)][c] > 0);
        if self.at(t) < 2 || !others || (t == path(o)[4] && self.nyumba_special(o)) {
            return None;
        }
        Some(t)
    }
}

/// Where the sowing of captured seeds starts: just before kichwa a1 going clockwise (`left`),
/// or just before a8 going counter-clockwise.
fn from_kichwa(left: bool) -> (usize, bool) {
    if left {
        (15, true)
    } else {
        (8, false)
    }
}

#[derive(Clone, Copy)]
enum Kind {
    /// front index, left kichwa
    NamuaCapture(usize, bool),
    /// front index, clockwise, taxed
    NamuaTakata(usize, bool, bool),
    /// path index, clockwise, capturing, taxed
    Start(usize, bool, bool, bool),
}

pub fn perft(p: &RefPos, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    p.moves().iter().map(|(_, q)| perft(q, depth - 1)).sum()
}

/// Parses the engine's position format (default rules only).
pub fn parse(s: &str, kis: bool) -> RefPos {
    let t: Vec<&str> = s.split_whitespace().collect();
    let mut g = [[0u32; 8]; 4];
    for i in 0..32 {
        g[i / 8][i % 8] = t[i].parse().unwrap();
    }
    let mut r = RefPos {
        g,
        hand: [0, 0],
        ny: [false, false],
        mover: 0,
        takasia: None,
        kis,
    };
    let mut ny = None;
    let mut tk = None;
    for x in &t[32..] {
        if let Some(h) = x.strip_prefix("hand=") {
            let v: Vec<u32> = h.split(',').map(|y| y.parse().unwrap()).collect();
            r.hand = [v[0], v[1]];
        } else if *x == "north" {
            r.mover = 1;
        } else if *x == "south" {
            r.mover = 0;
        } else if let Some(n) = x.strip_prefix("nyumba=") {
            let b: Vec<bool> = n.chars().map(|c| c == '1').collect();
            ny = Some([b[0] && kis, b[1] && kis]);
        } else if let Some(k) = x.strip_prefix("takasia=a") {
            tk = Some(k.parse::<usize>().unwrap() - 1);
        }
    }
    r.ny = ny.unwrap_or([kis && r.at(path(0)[4]) > 0, kis && r.at(path(1)[4]) > 0]);
    r.takasia = tk.map(|i| path(r.mover)[i]);
    r
}
