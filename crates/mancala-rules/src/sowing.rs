//! The sowing family: two-row games sown one seed at a time, for the rules the precomputed
//! single-lap sowings cannot express (relay sowing, captures of four during a sowing, passes, round
//! ends, the single-seed restriction).
//!
//! Everything is in the mover-relative layout: pits `0..m` are the mover's, `m..2m` the opponent's
//! in his sowing order, and a sowing goes `i -> i + 1`, through the mover's store after pit `m - 1`
//! when stores are sown (the opponent's store is always skipped). Congkak sows clockwise with its
//! store on the left: seen in each player's sowing order that is the same cycle, so only the
//! drawing differs.
//!
//! A relay move can go round for ever. Its within-move state (the board and the pit the next lift
//! starts from) is deterministic, so a repeated state means it never ends; such a move is illegal
//! (docs/rules.md, Conventions). Brent's cycle detection finds it with one comparison per lift.

use crate::variant::{Preset, Variant};
use crate::Rule;

/// How a capture happens.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Capture {
    /// The last seed lands in an empty own pit: the opposite pit is taken if it holds seeds.
    Opposite,
    /// Any pit a seed makes four is taken at once (the sowing goes on); by the mover in
    /// ayo-ayo, by the pit's owner in nam-nam, except that the last seed's four is the mover's.
    Fours { owner_takes: bool },
    /// The pit the last seed makes four is taken, and only it (Mankala rule 10).
    LastMakesFour,
}

/// How a game ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum End {
    /// Kalah: once a row is empty after a move, each side banks its own row.
    EmptyRowSweep,
    /// A player without seeds passes; the game ends when the pits are empty.
    Pass,
    /// The first player to empty his pits ends the game; the seeds left count for nobody.
    FirstEmptyEnds,
    /// The player to move without a move loses the seeds left to the opponent.
    OpponentTakesRest,
    /// The player to move without a move ends the game; the seeds left count for nobody.
    NobodyTakesRest,
}

/// A preset's rules, ready for sowing.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Spec {
    pub store: bool,
    pub origin_skip: bool,
    pub relay: bool,
    pub capture: Capture,
    /// `Opposite`: the capturing seed is banked too.
    pub with_last: bool,
    /// `Opposite`: the last seed is banked even when the opposite pit is empty.
    pub keep_last: bool,
    pub extra_turn: bool,
    pub end: End,
    pub must_feed: bool,
    /// A pit holding one seed may start a move only if no own pit holds two.
    pub single_seed_rule: bool,
    /// Seeds on the board at which the next capture takes them all and ends the round
    /// (nam-nam: 8); 0 for none.
    pub round_end: u32,
}

impl Spec {
    /// Does a row running empty end the game (Kalah's sweep, Mankala's rule 4)?
    pub fn empty_row_ends(&self) -> bool {
        matches!(self.end, End::EmptyRowSweep | End::FirstEmptyEnds)
    }

    pub fn new(v: &Variant) -> Spec {
        let r = v.rules;
        let mut s = Spec {
            store: false,
            origin_skip: r.has(Rule::OriginSkip),
            relay: true,
            capture: Capture::Opposite,
            with_last: r.has(Rule::CaptureWithLast),
            keep_last: false,
            extra_turn: false,
            end: End::NobodyTakesRest,
            must_feed: false,
            single_seed_rule: false,
            round_end: 0,
        };
        match v.preset {
            Preset::Mankala2p => {
                s.store = !r.has(Rule::HousesNotSown);
                s.extra_turn = s.store;
                s.origin_skip = true;
                s.relay = r.has(Rule::Relay);
                s.with_last = !r.has(Rule::CapturerStays);
                s.keep_last = r.has(Rule::KeepLastSeed);
                if r.has(Rule::CaptureFour) {
                    s.capture = Capture::LastMakesFour;
                }
                s.end = if r.has(Rule::FirstEmptyEnds) {
                    End::FirstEmptyEnds
                } else {
                    End::Pass
                };
                s.must_feed = r.has(Rule::MustFeed);
            }
            Preset::Congkak => {
                s.store = true;
                s.extra_turn = true;
                s.end = if r.has(Rule::PassWhenEmpty) {
                    End::Pass
                } else {
                    End::EmptyRowSweep
                };
            }
            Preset::BaoKenya => {
                s.store = true;
                s.extra_turn = true;
                s.origin_skip = true;
                s.relay = false;
                s.end = End::OpponentTakesRest;
            }
            Preset::BaoKenyaLaps => {
                s.single_seed_rule = true;
                s.end = End::OpponentTakesRest;
            }
            Preset::AyoAyo => {
                s.capture = Capture::Fours { owner_takes: false };
                if r.has(Rule::OpponentTakesRest) {
                    s.end = End::OpponentTakesRest;
                }
            }
            Preset::NamNam => {
                s.capture = Capture::Fours { owner_takes: true };
                s.end = End::Pass;
                s.round_end = 8;
            }
            _ => unreachable!("{} is not a sowing-family preset", v.preset),
        }
        s
    }
}

/// Where the last seed of a move fell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Landing {
    Pit,
    Store,
    /// A capture at the round-end count took every seed.
    RoundOver,
}

/// What one move did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Outcome {
    pub gain: u32,
    pub opp_gain: u32,
    pub landing: Landing,
}

/// The cycle position after `p` (pits `0..2m`, the store as `2m`).
#[inline]
fn next_pos(p: usize, m: usize, store: bool) -> usize {
    match p {
        _ if p + 1 == m && store => 2 * m,
        _ if p == 2 * m => m,
        _ if p + 1 == 2 * m => 0,
        _ => p + 1,
    }
}

/// Plays the move from pit `origin` on `pits` (mover-relative, `2m` used). `mine` has bit `i`
/// set when pit `i` belongs to the mover (his row, except in later rounds of nam-nam).
/// Returns `None` for a relay that never ends (the move is illegal; `pits` is then garbage).
pub(crate) fn sow(
    spec: &Spec,
    pits: &mut [u8; 16],
    m: usize,
    mine: u16,
    origin: usize,
) -> Option<Outcome> {
    let mut out = Outcome {
        gain: 0,
        opp_gain: 0,
        landing: Landing::Pit,
    };
    let mut on_board: u32 = pits[..2 * m].iter().map(|&x| x as u32).sum();
    let mut from = origin;
    // Brent: the state at the start of the lift `power` lifts ago.
    let (mut saved, mut saved_from, mut power, mut lam) = (*pits, from, 1u32, 0u32);
    loop {
        let mut hand = pits[from] as u32;
        pits[from] = 0;
        let mut pos = from;
        while hand > 0 {
            pos = next_pos(pos, m, spec.store);
            if pos == 2 * m {
                out.gain += 1;
                on_board -= 1;
                hand -= 1;
                continue;
            }
            if spec.origin_skip && pos == from {
                continue;
            }
            pits[pos] += 1;
            hand -= 1;
            if let Capture::Fours { owner_takes } = spec.capture {
                if pits[pos] == 4 && hand > 0 {
                    let to_mover = !owner_takes || mine & (1 << pos) != 0;
                    if take(spec, pits, m, &mut on_board, pos, to_mover, &mut out) {
                        return Some(out);
                    }
                }
            }
        }
        if pos == 2 * m {
            out.landing = Landing::Store;
            return Some(out);
        }
        let c = pits[pos];
        match spec.capture {
            Capture::Fours { .. } | Capture::LastMakesFour if c == 4 => {
                take(spec, pits, m, &mut on_board, pos, true, &mut out);
                return Some(out);
            }
            Capture::Opposite if c == 1 && mine & (1 << pos) != 0 => {
                let across = 2 * m - 1 - pos;
                let a = pits[across] as u32;
                let banked = if a > 0 {
                    pits[across] = 0;
                    a + spec.with_last as u32
                } else {
                    spec.keep_last as u32
                };
                if banked > a {
                    pits[pos] = 0;
                }
                out.gain += banked;
                return Some(out);
            }
            _ => {}
        }
        if c == 1 || !spec.relay {
            return Some(out);
        }
        from = pos;
        // A repeated within-move state (Brent's algorithm) means the relay never ends.
        if *pits == saved && from == saved_from {
            return None;
        }
        lam += 1;
        if lam == power {
            (saved, saved_from, power, lam) = (*pits, from, power * 2, 0);
        }
    }
}

/// Takes the four seeds of `pos` for the mover or his opponent. At the round-end count the
/// taker gets every seed left and the round is over (true).
fn take(
    spec: &Spec,
    pits: &mut [u8; 16],
    m: usize,
    on_board: &mut u32,
    pos: usize,
    to_mover: bool,
    out: &mut Outcome,
) -> bool {
    let (amount, over) = if spec.round_end != 0 && *on_board == spec.round_end {
        pits[..2 * m].fill(0);
        (*on_board, true)
    } else {
        pits[pos] = 0;
        (4, false)
    };
    *on_board -= amount;
    if to_mover {
        out.gain += amount;
    } else {
        out.opp_gain += amount;
    }
    if over {
        out.landing = Landing::RoundOver;
    }
    over
}
