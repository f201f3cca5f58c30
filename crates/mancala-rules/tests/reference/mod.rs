//! A deliberately simple REFERENCE implementation of the two-row mancala rules
//! (`awari`, `oware`, `wari` with its grand-slam options, `kalah` / `mancala`).
//!
//! It is written from the rules as docs/rules.md, awari, oware, wari and kalah
//! and mancala, state them, independently of the fast engine, and is used by
//! tests to cross-check that engine.  Speed is not a goal: boards are plain
//! `Vec<u8>`, everything is explicit index loops.
//!
//! Board convention (mover-relative): `pits.len() == 2m`; indices `0..m` are
//! the side to move's pits in its own sowing order, `m..2m` the opponent's pits
//! in the opponent's sowing order.  Sowing goes `i -> i+1 -> ... -> 2m-1 -> 0`.
//! The pit opposite own pit `j` is `2m-1-j`.  Stores are not part of a position.
//!
//! Readings chosen where docs/rules.md leaves a case open (see also each function):
//! * Feeding / starving rules look at the opponent's side of the position
//!   *after* the whole move, including grand-slam resolution.  A child of kind
//!   `Over` counts as leaving the opponent with no seeds (every pit is zero).
//! * `AwariType` with `must_feed == false` and grand-slam option `Forbidden`:
//!   grand slams are removed from the candidates first; if no candidate
//!   remains the mover takes every seed (`Terminal { mover: all, opp: 0 }`),
//!   as in the `must_feed` case.
//! * `ref_perft`: a child of kind `Over` counts as 1 at the last ply and 0
//!   before it (the all-zero board is a terminal node).

#![allow(dead_code)]
#![allow(clippy::needless_range_loop)]

/// What happens to a capture that would take every seed on the opponent's side
/// (docs/rules.md, wari).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RefGrandSlam {
    /// Captures normally (plain `awari`; as on the translated English page of the Russian
    /// rules compilation, where the victim then cannot move).
    Capture,
    /// GS1: the move is illegal.
    Forbidden,
    /// GS2: the move is legal but captures nothing.
    NoCapture,
    /// GS3a: the slammer takes every seed on the board; game over.
    TakeAll,
    /// GS3b: the slammer takes the capture, the victim takes the rest; game over.
    VictimTakesRest,
    /// GS4: capture everything except the opponent's last pit (index 2m-1).
    SpareLast,
    /// GS5: capture everything except the opponent's first pit (index m).
    SpareFirst,
    /// GS6: capture everything, then the slammer moves again.
    ExtraMove,
}

/// A rule set for the reference implementation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RefRules {
    /// Awari-type: capture chain contiguous (false) or every opponent pit with 2/3 (true, Wari);
    /// must_feed false = `awari` starving rule, true = `oware`/`wari` feeding rule.
    AwariType {
        all_pits_capture: bool,
        must_feed: bool,
        grand_slam: RefGrandSlam,
    },
    /// Kalah-type: stores in the sowing cycle, extra move, opposite-pit capture.
    KalahType { empty_capture: bool },
}

/// The `awari` preset (Romein & Bal): contiguous capture, starving rule, grand slam captures.
pub fn ref_awari() -> RefRules {
    RefRules::AwariType {
        all_pits_capture: false,
        must_feed: false,
        grand_slam: RefGrandSlam::Capture,
    }
}

/// The `oware` preset (Abapa): contiguous capture, must feed, grand slam captures nothing.
pub fn ref_oware() -> RefRules {
    RefRules::AwariType {
        all_pits_capture: false,
        must_feed: true,
        grand_slam: RefGrandSlam::NoCapture,
    }
}

/// The `wari` preset: capture every opponent pit with 2/3, must feed, chosen grand-slam option.
pub fn ref_wari(gs: RefGrandSlam) -> RefRules {
    RefRules::AwariType {
        all_pits_capture: true,
        must_feed: true,
        grand_slam: gs,
    }
}

/// The `kalah` / `mancala` presets (the seed count is a property of the start position).
pub fn ref_kalah(empty_capture: bool) -> RefRules {
    RefRules::KalahType { empty_capture }
}

/// Who moves after a child move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RefNext {
    /// The opponent moves next; `next` is rotated to the opponent's view.
    Opponent,
    /// The same player moves again; `next` is not rotated.
    Mover,
    /// The game is over; `next` is all zeros.
    Over,
}

/// One legal move and its result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RefChild {
    /// The mover's pit index `0..m`.
    pub pit: usize,
    /// The resulting position in the layout of whoever moves next.
    pub next: Vec<u8>,
    /// Seeds the mover banks by this move.
    pub mover_gain: u32,
    /// Seeds the opponent banks by this move.
    pub opp_gain: u32,
    /// Who moves next.
    pub kind: RefNext,
}

/// A position: either over before any move, or its legal moves in increasing pit order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RefNode {
    /// Game over; `mover` / `opp` are the seeds each side takes from the pits.
    Terminal { mover: u32, opp: u32 },
    /// The legal moves, in increasing pit order.
    Moves(Vec<RefChild>),
}

// ---------------------------------------------------------------------------
// Small helpers
// ---------------------------------------------------------------------------

/// Number of pits per side.
fn side_len(pits: &[u8]) -> usize {
    let m = pits.len() / 2;
    assert!(
        m >= 1 && 2 * m == pits.len(),
        "board must have 2m pits, m >= 1"
    );
    m
}

/// Sum of `pits[from..to]` as u32.
fn sum_range(pits: &[u8], from: usize, to: usize) -> u32 {
    let mut total = 0u32;
    for i in from..to {
        total += pits[i] as u32;
    }
    total
}

/// Seeds on the mover's side (indices 0..m).
fn own_seeds(pits: &[u8]) -> u32 {
    let m = side_len(pits);
    sum_range(pits, 0, m)
}

/// Seeds on the opponent's side (indices m..2m).
fn opp_seeds(pits: &[u8]) -> u32 {
    let m = side_len(pits);
    sum_range(pits, m, 2 * m)
}

/// The board seen from the other side: new[i] = old[(i + m) % 2m].
fn rotate(pits: &[u8]) -> Vec<u8> {
    let n = pits.len();
    let m = n / 2;
    let mut out = vec![0u8; n];
    for i in 0..n {
        out[i] = pits[(i + m) % n];
    }
    out
}

/// Seeds the OPPONENT OF THE MOVER holds in the position after `child`.
/// (`next` is in the layout of whoever moves next, so where the mover's
/// opponent sits depends on the kind.)
fn victim_seeds_after(child: &RefChild) -> u32 {
    match child.kind {
        // Rotated: the mover's opponent is now the side to move, indices 0..m.
        RefNext::Opponent => own_seeds(&child.next),
        // Not rotated: the opponent is still at m..2m.
        RefNext::Mover => opp_seeds(&child.next),
        // Everything was banked.
        RefNext::Over => 0,
    }
}

/// A start position: `m` pits per side, `seeds` in every pit.
pub fn ref_start(m: usize, seeds: u8) -> Vec<u8> {
    vec![seeds; 2 * m]
}

/// Parses a whitespace-separated position string like `"1 1 1 1 1 2 4 2 3 0 0 0"`.
pub fn ref_parse(text: &str) -> Vec<u8> {
    let mut out = Vec::new();
    for word in text.split_whitespace() {
        out.push(
            word.parse::<u8>()
                .expect("pit count must be a number 0..=255"),
        );
    }
    out
}

// ---------------------------------------------------------------------------
// Awari type (awari / oware / wari)
// ---------------------------------------------------------------------------

/// Sows the seeds of own pit `origin` awari-style (origin skipped on laps).
/// Returns the board after sowing (no capture yet) and the index of the last pit.
fn awari_sow(pits: &[u8], origin: usize) -> (Vec<u8>, usize) {
    let n = pits.len();
    let mut board = pits.to_vec();
    let mut hand = board[origin];
    board[origin] = 0;
    let mut pos = origin;
    while hand > 0 {
        pos = (pos + 1) % n;
        if pos == origin {
            // The origin pit is skipped on every lap.
            pos = (pos + 1) % n;
        }
        board[pos] += 1;
        hand -= 1;
    }
    (board, pos)
}

/// True if a pit holding `count` seeds is capturable (2 or 3).
fn capturable(count: u8) -> bool {
    count == 2 || count == 3
}

/// The list of opponent pits the last seed would capture (empty if none),
/// on the board after sowing.
fn awari_capture_set(board: &[u8], last: usize, all_pits_capture: bool) -> Vec<usize> {
    let m = side_len(board);
    let mut set = Vec::new();
    if last < m || !capturable(board[last]) {
        return set;
    }
    if all_pits_capture {
        // Wari: the last pit qualifies, so take every opponent pit with 2 or 3.
        for p in m..2 * m {
            if capturable(board[p]) {
                set.push(p);
            }
        }
    } else {
        // Contiguous chain backwards from the last pit, staying on the opponent's side.
        let mut p = last;
        loop {
            if p < m || !capturable(board[p]) {
                break;
            }
            set.push(p);
            if p == m {
                break;
            }
            p -= 1;
        }
    }
    set
}

/// Result of one awari-type move before legality filtering.
/// `None` means the move is a grand slam under `Forbidden` (not a candidate).
fn awari_move(
    pits: &[u8],
    origin: usize,
    all_pits_capture: bool,
    grand_slam: RefGrandSlam,
) -> Option<RefChild> {
    let m = side_len(pits);
    let n = 2 * m;
    let (mut board, last) = awari_sow(pits, origin);
    let set = awari_capture_set(&board, last, all_pits_capture);

    // How many seeds the capture would take.
    let mut would_take = 0u32;
    for &p in &set {
        would_take += board[p] as u32;
    }
    // Grand slam: a capture that would leave the opponent's side with zero seeds.
    let is_grand_slam = !set.is_empty() && would_take == opp_seeds(&board);

    // Which pits are actually captured, and what happens afterwards.
    let mut take: Vec<usize> = set.clone();
    let mut kind = RefNext::Opponent;
    if is_grand_slam {
        match grand_slam {
            RefGrandSlam::Capture => {}
            RefGrandSlam::Forbidden => return None,
            RefGrandSlam::NoCapture => take.clear(),
            RefGrandSlam::TakeAll => {
                // The slammer takes every seed on the board; game over.
                let all = sum_range(&board, 0, n);
                return Some(RefChild {
                    pit: origin,
                    next: vec![0u8; n],
                    mover_gain: all,
                    opp_gain: 0,
                    kind: RefNext::Over,
                });
            }
            RefGrandSlam::VictimTakesRest => {
                // The slammer takes the capture (all of the opponent's side);
                // the victim takes what is left (the mover's side); game over.
                let rest = own_seeds(&board);
                return Some(RefChild {
                    pit: origin,
                    next: vec![0u8; n],
                    mover_gain: would_take,
                    opp_gain: rest,
                    kind: RefNext::Over,
                });
            }
            RefGrandSlam::SpareLast => take.retain(|&p| p != n - 1),
            RefGrandSlam::SpareFirst => take.retain(|&p| p != m),
            RefGrandSlam::ExtraMove => kind = RefNext::Mover,
        }
    }

    let mut gain = 0u32;
    for &p in &take {
        gain += board[p] as u32;
        board[p] = 0;
    }

    let next = match kind {
        RefNext::Opponent => rotate(&board),
        _ => board,
    };
    Some(RefChild {
        pit: origin,
        next,
        mover_gain: gain,
        opp_gain: 0,
        kind,
    })
}

fn awari_node(
    pits: &[u8],
    all_pits_capture: bool,
    must_feed: bool,
    grand_slam: RefGrandSlam,
) -> RefNode {
    let m = side_len(pits);
    let all = sum_range(pits, 0, 2 * m);
    let own = own_seeds(pits);

    // The side to move has no seeds: game over, the opponent takes everything.
    if own == 0 {
        return RefNode::Terminal { mover: 0, opp: all };
    }

    // Candidates: every non-empty own pit (minus grand slams under Forbidden).
    let mut candidates: Vec<RefChild> = Vec::new();
    for i in 0..m {
        if pits[i] == 0 {
            continue;
        }
        if let Some(child) = awari_move(pits, i, all_pits_capture, grand_slam) {
            candidates.push(child);
        }
    }

    let legal: Vec<RefChild> = if must_feed {
        // oware / wari: if the opponent is empty before the move, the mover
        // must leave him at least one seed.
        if opp_seeds(pits) == 0 {
            let mut keep = Vec::new();
            for child in candidates {
                if victim_seeds_after(&child) > 0 {
                    keep.push(child);
                }
            }
            keep
        } else {
            candidates
        }
    } else {
        // awari: a move leaving the opponent empty is illegal unless every
        // candidate does so, in which case all candidates are legal.
        let mut keep = Vec::new();
        for child in &candidates {
            if victim_seeds_after(child) > 0 {
                keep.push(child.clone());
            }
        }
        if keep.is_empty() {
            candidates
        } else {
            keep
        }
    };

    if legal.is_empty() {
        // Cannot feed (or every move is a forbidden grand slam):
        // the mover takes every seed left.
        return RefNode::Terminal { mover: all, opp: 0 };
    }
    RefNode::Moves(legal)
}

// ---------------------------------------------------------------------------
// Kalah type (kalah / mancala)
// ---------------------------------------------------------------------------

/// One Kalah move from own pit `origin`.
///
/// The sowing cycle has 2m+1 slots: slot s < m is own pit s, slot m is the
/// mover's store, slot s > m is pit s-1 (opponent pits m..2m-1).  The
/// opponent's store is simply not in the cycle (it is skipped).
fn kalah_move(pits: &[u8], origin: usize, empty_capture: bool) -> RefChild {
    let m = side_len(pits);
    let n = 2 * m;
    let slots = n + 1;
    let store_slot = m;

    let mut board = pits.to_vec();
    let mut hand = board[origin];
    board[origin] = 0;
    let mut mover_gain = 0u32;
    let mut opp_gain = 0u32;

    // Sow; no origin skip.
    let mut slot = origin; // slot index of own pit `origin` equals `origin`
    while hand > 0 {
        slot = (slot + 1) % slots;
        if slot == store_slot {
            mover_gain += 1;
        } else if slot < m {
            board[slot] += 1;
        } else {
            board[slot - 1] += 1;
        }
        hand -= 1;
    }

    let last_in_store = slot == store_slot;

    // Capture: last seed in an own pit that now holds exactly 1 (it was empty).
    if slot < m && board[slot] == 1 {
        let j = slot;
        let opposite = n - 1 - j;
        if board[opposite] > 0 {
            mover_gain += board[opposite] as u32 + 1;
            board[opposite] = 0;
            board[j] = 0;
        } else if empty_capture {
            mover_gain += 1;
            board[j] = 0;
        }
    }

    // Game end: either side empty -> each side banks its own seeds.
    let own = own_seeds(&board);
    let opp = opp_seeds(&board);
    if own == 0 || opp == 0 {
        mover_gain += own;
        opp_gain += opp;
        return RefChild {
            pit: origin,
            next: vec![0u8; n],
            mover_gain,
            opp_gain,
            kind: RefNext::Over,
        };
    }

    if last_in_store {
        RefChild {
            pit: origin,
            next: board,
            mover_gain,
            opp_gain,
            kind: RefNext::Mover,
        }
    } else {
        RefChild {
            pit: origin,
            next: rotate(&board),
            mover_gain,
            opp_gain,
            kind: RefNext::Opponent,
        }
    }
}

fn kalah_node(pits: &[u8], empty_capture: bool) -> RefNode {
    let m = side_len(pits);
    let own = own_seeds(pits);
    let opp = opp_seeds(pits);
    if own == 0 || opp == 0 {
        return RefNode::Terminal { mover: own, opp };
    }
    let mut moves = Vec::new();
    for i in 0..m {
        if pits[i] > 0 {
            moves.push(kalah_move(pits, i, empty_capture));
        }
    }
    RefNode::Moves(moves)
}

// ---------------------------------------------------------------------------
// Public entry points
// ---------------------------------------------------------------------------

/// The node for `pits` (mover-relative) under `rules`.
pub fn ref_node(rules: RefRules, pits: &[u8]) -> RefNode {
    match rules {
        RefRules::AwariType {
            all_pits_capture,
            must_feed,
            grand_slam,
        } => awari_node(pits, all_pits_capture, must_feed, grand_slam),
        RefRules::KalahType { empty_capture } => kalah_node(pits, empty_capture),
    }
}

/// Number of sequences of exactly `depth` legal moves from `pits`.
/// Every child is one ply (extra moves included).  A child of kind `Over`
/// counts only at the last ply; a terminal node before `depth` counts 0.
pub fn ref_perft(rules: RefRules, pits: &[u8], depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    match ref_node(rules, pits) {
        RefNode::Terminal { .. } => 0,
        RefNode::Moves(children) => {
            let mut total = 0u64;
            for child in &children {
                if depth == 1 {
                    total += 1;
                } else if child.kind == RefNext::Over {
                    // The game ended before the depth was reached.
                } else {
                    total += ref_perft(rules, &child.next, depth - 1);
                }
            }
            total
        }
    }
}

/// Sanity helper: checks seed conservation for every child of `pits`
/// (seeds in `next` + gains == seeds in `pits`) and that a terminal node
/// accounts for every seed.  Returns a description of the first violation.
pub fn ref_check_conservation(rules: RefRules, pits: &[u8]) -> Result<(), String> {
    let n = pits.len();
    let all = sum_range(pits, 0, n);
    match ref_node(rules, pits) {
        RefNode::Terminal { mover, opp } => {
            if mover + opp != all {
                return Err(format!(
                    "terminal {pits:?}: mover {mover} + opp {opp} != {all}"
                ));
            }
        }
        RefNode::Moves(children) => {
            for child in &children {
                let left = sum_range(&child.next, 0, n);
                if left + child.mover_gain + child.opp_gain != all {
                    return Err(format!("{pits:?} pit {}: {child:?} loses seeds", child.pit));
                }
                if child.kind == RefNext::Over && left != 0 {
                    return Err(format!("{pits:?} pit {}: Over with seeds left", child.pit));
                }
            }
        }
    }
    Ok(())
}
