//! The two 4-row Bao presets: `bao-kujifunza` (docs/rules.md, bao-kujifunza) and
//! `bao-kiswahili` (docs/rules.md, bao-kiswahili). Their seeds never leave the board, so they
//! have no endgame tables: this crate gives the rules, a game to play move by move
//! ([`BaoGame`]) and an alpha-beta search ([`best_move`]).
//!
//! ```
//! use mancala_bao::new_game;
//! use mancala_rules::Playable;
//!
//! let mut g = new_game("bao-kujifunza", &[], None).unwrap();
//! // 2 seeds in each of the 32 pits, South to move. Captures are compulsory: the legal moves
//! // are the 16 (pit, direction) starts whose first sowing captures.
//! assert_eq!(g.pits(), vec![2; 32]);
//! assert_eq!(g.to_move(), "south");
//! assert_eq!(g.legal_names().len(), 16);
//!
//! // a1 clockwise ends in a3, facing an occupied North pit: a capture, and the captured seeds
//! // are sown on South's side. Seeds change sides but never leave the board.
//! g.play_name("a1>").unwrap();
//! assert_eq!(g.to_move(), "north");
//! assert_eq!(g.pits().iter().sum::<u32>(), 64);
//! assert_eq!(g.pits()[..16].iter().sum::<u32>(), 24); // North's two rows
//!
//! // Bao la Kiswahili starts with 22 seeds in each hand (the namua phase).
//! let k = new_game("bao-kiswahili", &[], None).unwrap();
//! assert_eq!(k.stores(), vec![22, 22]);
//! ```
//!
//! # Board and pits
//! A 4 x 8 board; each player owns two rows, a front (inner) row facing the opponent and a back
//! row. All sowing stays in the mover's own 16-pit loop. **Clockwise** (`>`) runs along one's front
//! row from one's left to one's right, then back along the back row; **counter-clockwise** (`<`)
//! is the reverse. Seeds never leave the board: captured seeds are re-sown on the capturer's side.
//!
//! # Move notation ([`NOTATION`])
//! Pits are named from the mover's own view: front row `a1..a8`, back row `b1..b8`, each from his
//! left to his right. The nyumba is `a5`, the kichwa are `a1` (left) and `a8` (right).
//! - mtaji phase: the start pit and a direction, `a5>` or `b2<`;
//! - namua (seeds in hand): the pit where the seed is placed, then `L`/`R` for a capture (the kichwa
//!   the captured seeds are sown from: `L` = `a1` clockwise, `R` = `a8` counter-clockwise; forced
//!   kichwa captures still carry their letter) or `>`/`<` for a takata;
//! - `t` after the pit: a taxed nyumba move (only two seeds are sown from `a5`), e.g. `a5t<`;
//! - a trailing `s`: stop in the nyumba where the rules let the player choose, e.g. `a3>s`.
//!
//! `play` also accepts a unique prefix of a legal name (`a3` when only `a3L` is legal).
//!
//! # Infinite sowing
//! A move whose relay sowing would repeat a within-move state (both players' pits, the pit about
//! to be lifted and the direction; the seeds in the sowing hand follow from these) never ends.
//! Such a move is **illegal** and is not listed (docs/rules.md, Conventions). Detection is exact
//! and uses O(1) memory: after the first 256 relay lifts of a move, Brent's cycle detection runs
//! on the lift states (the sowing is deterministic, so a repeat proves a cycle).
//!
//! Cycles can be astronomically long: in the `bao-kujifunza` position
//! `0 1 4 0 2 1 1 1 0 0 0 0 5 1 8 1 0 5 4 13 0 0 4 4 1 0 1 0 1 4 1 1 south`, one capturing move
//! first repeats a state after 214,905,792 relay lifts (cycle length 80,687,808), and another
//! ran for more than a minute without a repeat. So, following the Ugandan practical rule that
//! the Skiryuk text reports (docs/rules.md, bao-kiswahili: a sowing not finished in two minutes
//! counts as infinite), a sowing still going after `sowing-limit` relay lifts (default 10,000)
//! also counts as infinite and the move is illegal. This is the one place where the engine adds
//! a rule: a sowing that would end after more than 10,000 lifts is treated as endless.
//! `sowing-limit=0` removes the limit (exact detection only; move generation can then take
//! minutes in such positions). If every capturing start is illegal this way, captures are not
//! compulsory and takata starts are used; likewise back-row takata starts are allowed when every
//! front-row takata is illegal.
//!
//! # Rules as implemented (both presets)
//! - A start pit needs at least 2 seeds. In the mtaji phase a capturing start (its first sowing
//!   ends in an occupied own front pit facing a non-empty opponent front pit) must be played if one
//!   exists; a start with 16 or more seeds is always takata (rule of 16).
//! - Captured seeds are sown starting *in* a kichwa toward the centre: the nearest kichwa when the
//!   capturing pit is in a kimbi (the two outer columns on each side), otherwise the kichwa that
//!   keeps the current direction. Then the mtaji loop: ending in an empty pit ends the move; in
//!   a capturing front pit captures again; otherwise the pit is lifted and sowing goes on (relay,
//!   back-row pits included).
//! - Takata (no capture possible): relay until a sowing ends in an empty pit, no captures, no
//!   change of direction; it starts from the front row if any front pit has 2+ seeds, otherwise
//!   from the back row.
//! - End: the side to move loses when his front row is empty or he has no legal move (a player
//!   who empties his own front row loses as well).
//!
//! # Kujifunza
//! 2 seeds in every pit, no seeds in hand, no nyumba, South moves first. Its capture rule (two
//! left columns: sow from the left kichwa clockwise; two right columns: from the right kichwa;
//! central columns: the kichwa of the sowing direction) is the kimbi rule above. A pit with
//! 16+ seeds starts a takata (the Wikipedia text's "more than 15" and the "mtaji = 2-15 seeds"
//! of the translated English page in the Russian rules compilation).
//! Only option: `sowing-limit`.
//!
//! # Kiswahili defaults (the Skiryuk text) and the options for the other readings
//! The defaults follow Skiryuk's Bao text in the Russian rules compilation; the options give
//! the readings of the Wikipedia text (a Russian translation of the Wikipedia article "Bao
//! (game)"). docs/rules.md, bao-kiswahili, lists where the two differ.
//! - Namua: 22 seeds in hand each, `a5` = 6, `a6` = `a7` = 2 (`malawi`: 8 in the nyumba, 20 in
//!   hand). Each namua move places one seed in an occupied own front pit; a capture is compulsory;
//!   the capturing pit stays; the player chooses the kichwa except in a kichwa/kimbi pit. A namua
//!   takata lifts the pit (with the placed seed) and sows with relay, no captures.
//! - Nyumba: special while it holds 6+ and has never been emptied (`nyumba-status=first-sowing`:
//!   the Wikipedia text, special until first sown out). A special nyumba cannot be captured
//!   (`nyumba-protect=off`: the Wikipedia text). A namua takata in it sows only 2 (tax); a namua
//!   takata ending in it stops. A capturing sowing ending in it lets the player stop (`s`) or sow
//!   it out (`nyumba-stop=stop|continue` for the "some versions" readings of the Skiryuk and the
//!   Wikipedia text). A mtaji-phase takata ending in it sows it out (`takata-nyumba=stop`: the
//!   Wikipedia text). A mtaji-phase takata from it is taxed (2 seeds) and allowed only when there
//!   is no other move (`tax=anytime`: the Wikipedia text's variation). A capture from it sows all.
//! - The front row may not be emptied even for a moment: a lone kichwa is sown toward the centre.
//! - Takasia (the Skiryuk text, on; `takasia=off`): after a mtaji-phase takata, if exactly one
//!   opponent front pit is threatened and the opponent threatens nothing, that pit (unless it is a
//!   special nyumba, holds one seed, or is the only non-empty pit of its row) is takasia for his
//!   next move: he cannot start from it, a relay ending in it stops, and a taxed nyumba move stops
//!   after its first sowing unless that sowing reached it.
//! - `kimbi-narrow`: kimbi = `a2`, `a7` only; a mtaji capture in a kichwa then follows the
//!   direction (a namua capture in a kichwa still uses that kichwa).
//! - `wikipedia`: shorthand for the Wikipedia text's readings (`nyumba-status=first-sowing
//!   nyumba-protect=off takata-nyumba=stop tax=anytime`).
//!
//! # `pits()`, `stores()`, positions
//! `pits()` is row-major: North's back row, North's front row, South's front row, South's back
//! row, each left to right as South sees the board. `stores()` returns the seeds in hand
//! `[south, north]` (namua): nothing is ever captured off the board. See [`POSITION_FORMAT`].

#![warn(missing_docs)]

mod family;
mod game;
mod search;

use std::error::Error;

use mancala_rules::{Playable, Side};

pub use family::BaoFamily;
use game::NYUMBA;
pub use game::{BaoGame, Move, NyumbaStop, Preset, Rules};
pub use search::{best_move, best_move_timed, evaluate};

/// Help text for the move notation (printed by the CLI).
pub const NOTATION: &str =
    "Bao moves (pits from the mover's view: front row a1..a8, back row b1..b8, \
left to right; a5 = nyumba): start pit + direction, `>` clockwise (along the front row to the \
right), `<` counter-clockwise, e.g. `a5>` `b2<`. Namua (seeds in hand): placement pit + `L`/`R` \
for a capture (sow the captured seeds from kichwa a1 / a8) or `>`/`<` for a takata, e.g. `a3L`. \
`t` after the pit = taxed nyumba move (only 2 seeds sown), e.g. `a5t<`; a trailing `s` = stop in \
the nyumba when allowed to continue, e.g. `a3>s`. A unique prefix of a legal name is accepted.";

/// Help text for position strings.
pub const POSITION_FORMAT: &str = "32 pit counts row-major (North back, North front, South front, \
South back; each left to right as South sees the board), then optional tokens: `hand=S,N` (seeds \
in hand, default 0,0), `south`/`north` (side to move, default south), `nyumba=SN` with S,N in 0/1 \
(nyumba still has its status; default 1 where a5 is non-empty, Kiswahili only), `takasia=aK` \
(takasia pit of the side to move). At most 64 seeds in all (fewer is allowed for study positions); bao-kujifunza takes no seeds in hand. Example: `2 2 ... 2 hand=0,0 north`.";

/// Everything that can go wrong when building or playing a game.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum BaoError {
    /// The preset is not one of the two Bao games.
    #[error("unknown preset `{0}`: use `bao-kujifunza` or `bao-kiswahili`")]
    UnknownPreset(String),
    /// A rule option the preset does not have.
    #[error("unknown rule option `{name}` for {preset}; valid options: {valid}")]
    UnknownOption {
        /// The option as given.
        name: String,
        /// The preset's name.
        preset: String,
        /// The preset's options, comma-separated.
        valid: String,
    },
    /// A rule option with a value it does not take.
    #[error("bad value `{value}` for rule option `{name}`; use one of: {expected}")]
    BadOptionValue {
        /// The option's name.
        name: String,
        /// The value as given.
        value: String,
        /// The values it takes, comma-separated.
        expected: String,
    },
    /// A position string that does not follow [`POSITION_FORMAT`] or breaks the rules.
    #[error("bad position: {0}. Format: {POSITION_FORMAT}")]
    BadPosition(String),
    /// A move that is not legal in this position.
    #[error("illegal move `{mv}`; legal moves: {legal}")]
    IllegalMove {
        /// The move as given.
        mv: String,
        /// The legal moves' names.
        legal: String,
    },
    /// A move asked for after the game ended.
    #[error("the game is over: no move can be played")]
    GameOver,
}

const PRESETS: [&str; 2] = ["bao-kujifunza", "bao-kiswahili"];

/// The preset names this crate provides.
pub fn preset_names() -> &'static [&'static str] {
    &PRESETS
}

/// One line describing a preset (for `mancala variants`).
pub fn summary(preset: &str) -> Option<&'static str> {
    match preset {
        "bao-kujifunza" => Some(
            "Bao la Kujifunza: 4x8, 2 seeds per pit, relay sowing around your own two rows, \
             compulsory captures re-sown from a kichwa; win by emptying the opponent's front row",
        ),
        "bao-kiswahili" => Some(
            "Bao la Kiswahili: 4x8, namua phase with 22 seeds in hand, then mtaji phase; nyumba, \
             kimbi, takasia; win by emptying the opponent's front row or blocking him",
        ),
        _ => None,
    }
}

const SOWING_LIMIT_HELP: (&str, &str) = (
    "sowing-limit",
    "relay lifts after which a sowing counts as infinite (illegal move); 0 = none (default 10000)",
);

const KISWAHILI_OPTIONS: [(&str, &str); 10] = [
    SOWING_LIMIT_HELP,
    (
        "malawi",
        "Malawi setup: 8 seeds in the nyumba and 20 in hand (default 6 and 22)",
    ),
    (
        "kimbi-narrow",
        "kimbi are a2 and a7 only (default a1, a2, a7, a8)",
    ),
    ("takasia", "takasia rule, on|off (default on, the Skiryuk text)"),
    (
        "nyumba-protect",
        "a functioning nyumba cannot be captured, on|off (default on, the Skiryuk text)",
    ),
    (
        "nyumba-status",
        "count (default: special while 6+ and never emptied) | first-sowing (the Wikipedia text)",
    ),
    (
        "nyumba-stop",
        "capturing sowing ending in the nyumba: choice (default) | stop | continue",
    ),
    (
        "takata-nyumba",
        "mtaji-phase takata ending in the nyumba: sow (default, the Skiryuk text) | stop (the Wikipedia text)",
    ),
    (
        "tax",
        "taxed nyumba takata: last-resort (default, the Skiryuk text) | anytime (the Wikipedia text's variation)",
    ),
    (
        "wikipedia",
        "the Wikipedia text's readings: nyumba-status=first-sowing nyumba-protect=off takata-nyumba=stop tax=anytime",
    ),
];

/// The rule options of a preset: (name, one-line help).
pub fn options_help(preset: &str) -> Vec<(&'static str, &'static str)> {
    match preset {
        "bao-kiswahili" => KISWAHILI_OPTIONS.to_vec(),
        "bao-kujifunza" => vec![SOWING_LIMIT_HELP],
        _ => Vec::new(),
    }
}

fn parse_onoff(name: &str, v: Option<&str>) -> Result<bool, BaoError> {
    match v {
        None => Ok(true),
        Some(word) => mancala_rules::switch_word(word).ok_or_else(|| BaoError::BadOptionValue {
            name: name.to_string(),
            value: word.to_string(),
            expected: "on, off".to_string(),
        }),
    }
}

fn pick<T: Copy>(name: &str, v: Option<&str>, choices: &[(&str, T)]) -> Result<T, BaoError> {
    let bad = || BaoError::BadOptionValue {
        name: name.to_string(),
        value: v.unwrap_or("").to_string(),
        expected: choices.iter().map(|c| c.0).collect::<Vec<_>>().join(", "),
    };
    let v = v.ok_or_else(bad)?;
    choices
        .iter()
        .find(|c| c.0 == v)
        .map(|c| c.1)
        .ok_or_else(bad)
}

/// Parses the rules of a preset from `name` / `name=value` option strings.
pub fn parse_rules(preset: &str, rules: &[String]) -> Result<Rules, BaoError> {
    let p = match preset {
        "bao-kujifunza" => Preset::Kujifunza,
        "bao-kiswahili" => Preset::Kiswahili,
        other => return Err(BaoError::UnknownPreset(other.to_string())),
    };
    let mut r = Rules::new(p);
    for opt in rules {
        let opt = opt.trim();
        let (name, value) = match opt.split_once('=') {
            Some((n, v)) => (n.trim(), Some(v.trim())),
            None => (opt, None),
        };
        let unknown = || BaoError::UnknownOption {
            name: name.to_string(),
            preset: preset.to_string(),
            valid: if p == Preset::Kiswahili {
                KISWAHILI_OPTIONS
                    .iter()
                    .map(|o| o.0)
                    .collect::<Vec<_>>()
                    .join(", ")
            } else {
                SOWING_LIMIT_HELP.0.to_string()
            },
        };
        if name == SOWING_LIMIT_HELP.0 {
            r.sowing_limit =
                value
                    .and_then(|v| v.parse().ok())
                    .ok_or_else(|| BaoError::BadOptionValue {
                        name: name.to_string(),
                        value: value.unwrap_or("").to_string(),
                        expected: "a number of relay lifts, e.g. 10000 (0 = no limit)".to_string(),
                    })?;
            continue;
        }
        if p == Preset::Kujifunza {
            return Err(unknown());
        }
        match name {
            "malawi" => r.malawi = parse_onoff(name, value)?,
            "kimbi-narrow" => r.kimbi_narrow = parse_onoff(name, value)?,
            "takasia" => r.takasia = parse_onoff(name, value)?,
            "nyumba-protect" => r.nyumba_protect = parse_onoff(name, value)?,
            "nyumba-status" => {
                r.nyumba_first_sowing =
                    pick(name, value, &[("count", false), ("first-sowing", true)])?
            }
            "nyumba-stop" => {
                r.nyumba_stop = pick(
                    name,
                    value,
                    &[
                        ("choice", NyumbaStop::Choice),
                        ("stop", NyumbaStop::Stop),
                        ("continue", NyumbaStop::Continue),
                    ],
                )?
            }
            "takata-nyumba" => {
                r.takata_nyumba_stops = pick(name, value, &[("sow", false), ("stop", true)])?
            }
            "tax" => {
                r.tax_anytime = pick(name, value, &[("last-resort", false), ("anytime", true)])?
            }
            "wikipedia" => {
                if parse_onoff(name, value)? {
                    r.nyumba_first_sowing = true;
                    r.nyumba_protect = false;
                    r.takata_nyumba_stops = true;
                    r.tax_anytime = true;
                }
            }
            _ => return Err(unknown()),
        }
    }
    Ok(r)
}

/// Loop index (`[player][pos]`) of each of the 32 row-major pits.
fn row_major_slots() -> [(usize, usize); 32] {
    let mut out = [(0, 0); 32];
    for c in 0..8 {
        out[c] = (1, 8 + c);
        out[8 + c] = (1, 7 - c);
        out[16 + c] = (0, c);
        out[24 + c] = (0, 15 - c);
    }
    out
}

fn parse_position(rules: Rules, s: &str) -> Result<BaoGame, BaoError> {
    let bad = |m: String| BaoError::BadPosition(m);
    let toks: Vec<&str> = s.split_whitespace().collect();
    if toks.len() < 32 {
        return Err(bad(format!(
            "found {} tokens, need 32 pit counts",
            toks.len()
        )));
    }
    let mut g = BaoGame::start(rules);
    g.board = [[0; 16]; 2];
    g.hand = [0, 0];
    let slots = row_major_slots();
    let mut total: u32 = 0;
    for (i, t) in toks[..32].iter().enumerate() {
        let v: u32 = t
            .parse()
            .map_err(|_| bad(format!("pit {} is `{t}`, not a number", i + 1)))?;
        if v > 64 {
            return Err(bad(format!("pit {} holds {v} seeds (max 64)", i + 1)));
        }
        total += v;
        let (p, pos) = slots[i];
        g.board[p][pos] = v as u8;
    }
    let mut nyumba_given = None;
    let mut takasia = None;
    for t in &toks[32..] {
        if let Some(h) = t.strip_prefix("hand=") {
            let parts: Vec<&str> = h.split(',').collect();
            let nums: Vec<Option<u32>> = parts.iter().map(|x| x.parse().ok()).collect();
            match nums.as_slice() {
                [Some(a), Some(b)] if *a <= 64 && *b <= 64 => {
                    g.hand = [*a as u8, *b as u8];
                    total += a + b;
                }
                _ => return Err(bad(format!("`{t}`: expected hand=S,N"))),
            }
        } else if *t == "south" || *t == "move=south" {
            g.to_move = 0;
        } else if *t == "north" || *t == "move=north" {
            g.to_move = 1;
        } else if let Some(n) = t.strip_prefix("nyumba=") {
            let c: Vec<char> = n.chars().collect();
            match c.as_slice() {
                [a, b] if "01".contains(*a) && "01".contains(*b) => {
                    nyumba_given = Some([*a == '1', *b == '1'])
                }
                _ => return Err(bad(format!("`{t}`: expected nyumba=SN with 0/1 digits"))),
            }
        } else if let Some(k) = t.strip_prefix("takasia=") {
            match k.strip_prefix('a').and_then(|d| d.parse::<u8>().ok()) {
                Some(d) if (1..=8).contains(&d) => takasia = Some(d - 1),
                _ => return Err(bad(format!("`{t}`: expected takasia=a1..a8"))),
            }
        } else {
            return Err(bad(format!("unknown token `{t}`")));
        }
    }
    if !rules.kiswahili() && g.hand != [0, 0] {
        return Err(bad(
            "bao-kujifunza has no seeds in hand; drop the hand= token".into(),
        ));
    }
    if total > 64 {
        return Err(bad(format!("{total} seeds in all; the game has 64")));
    }
    let kis = rules.kiswahili();
    g.nyumba = match nyumba_given {
        Some(n) => [n[0] && kis, n[1] && kis],
        None => [kis && g.board[0][NYUMBA] > 0, kis && g.board[1][NYUMBA] > 0],
    };
    g.takasia = takasia;
    Ok(g)
}

/// Builds a game of `preset` with rule options `rules` (`name` or `name=value`), from the start
/// position or from `position` (see [`POSITION_FORMAT`]).
pub fn new_game(
    preset: &str,
    rules: &[String],
    position: Option<&str>,
) -> Result<BaoGame, BaoError> {
    let r = parse_rules(preset, rules)?;
    match position {
        None => Ok(BaoGame::start(r)),
        Some(s) => parse_position(r, s),
    }
}

impl BaoGame {
    /// The position in [`POSITION_FORMAT`] (round-trips through `new_game`).
    pub fn position_string(&self) -> String {
        let mut s: Vec<String> = self.pits().iter().map(|v| v.to_string()).collect();
        s.push(format!("hand={},{}", self.hand[0], self.hand[1]));
        s.push(side_name(self.to_move as usize).to_string());
        if self.rules.kiswahili() {
            s.push(format!(
                "nyumba={}{}",
                self.nyumba[0] as u8, self.nyumba[1] as u8
            ));
        }
        if let Some(t) = self.takasia {
            s.push(format!("takasia=a{}", t + 1));
        }
        s.join(" ")
    }

    /// The winner's seat (0 = South, 1 = North) if the game is over.
    pub fn winner(&self) -> Option<usize> {
        self.loser().map(|l| 1 - l)
    }

    /// Side to move: 0 = South, 1 = North.
    pub fn side_to_move(&self) -> usize {
        self.to_move as usize
    }

    /// Legal move names.
    pub fn legal_names(&self) -> Vec<String> {
        self.children().iter().map(|(m, _)| m.name()).collect()
    }

    fn phase_name(&self) -> &'static str {
        if self.hand[self.to_move as usize] > 0 {
            "namua"
        } else {
            "mtaji"
        }
    }
}

/// Seat 0 is South; the names come from `mancala-rules` so every game spells them alike.
fn side_name(p: usize) -> &'static str {
    if p == 0 { Side::South } else { Side::North }.name()
}

impl Playable for BaoGame {
    fn describe(&self) -> String {
        let r = &self.rules;
        let mut s = match r.preset {
            Preset::Kujifunza => "bao-kujifunza".to_string(),
            Preset::Kiswahili => "bao-kiswahili".to_string(),
        };
        let mut opts = Vec::new();
        if r.sowing_limit != game::DEFAULT_SOWING_LIMIT {
            opts.push(format!("sowing-limit={}", r.sowing_limit));
        }
        if r.kiswahili() {
            if r.malawi {
                opts.push("malawi".to_string());
            }
            if r.kimbi_narrow {
                opts.push("kimbi-narrow".to_string());
            }
            if !r.takasia {
                opts.push("takasia=off".to_string());
            }
            if !r.nyumba_protect {
                opts.push("nyumba-protect=off".to_string());
            }
            if r.nyumba_first_sowing {
                opts.push("nyumba-status=first-sowing".to_string());
            }
            match r.nyumba_stop {
                NyumbaStop::Choice => {}
                NyumbaStop::Stop => opts.push("nyumba-stop=stop".to_string()),
                NyumbaStop::Continue => opts.push("nyumba-stop=continue".to_string()),
            }
            if r.takata_nyumba_stops {
                opts.push("takata-nyumba=stop".to_string());
            }
            if r.tax_anytime {
                opts.push("tax=anytime".to_string());
            }
        }
        if !opts.is_empty() {
            s.push_str(&format!(" ({})", opts.join(", ")));
        }
        s
    }

    fn pits(&self) -> Vec<u32> {
        row_major_slots()
            .iter()
            .map(|&(p, pos)| self.board[p][pos] as u32)
            .collect()
    }

    fn stores(&self) -> Vec<u32> {
        vec![self.hand[0] as u32, self.hand[1] as u32]
    }

    fn to_move(&self) -> String {
        side_name(self.to_move as usize).to_string()
    }

    fn is_over(&self) -> bool {
        self.loser().is_some()
    }

    fn legal(&self) -> Vec<String> {
        self.legal_names()
    }

    fn play(&mut self, mv: &str) -> Result<(), Box<dyn Error + Send + Sync>> {
        self.play_name(mv).map_err(|e| Box::new(e) as _)
    }

    fn draw(&self) -> String {
        let pits = self.pits();
        let me = self.to_move as usize;
        let mut out = String::new();
        // Column numbers in the mover's notation.
        let cols: Vec<String> = (0..8)
            .map(|c| format!("{:>3}", if me == 0 { c + 1 } else { 8 - c }))
            .collect();
        let label = |p: usize, front: bool| -> String {
            let r = if front { "a" } else { "b" };
            if p == me {
                format!("{} {r} (mover)", side_name(p))
            } else {
                format!("{} {r}", side_name(p))
            }
        };
        out.push_str(&format!("{:>16} {}\n", "", cols.join("")));
        let rows = [(1, false), (1, true), (0, true), (0, false)];
        for (i, &(p, front)) in rows.iter().enumerate() {
            let cells: Vec<String> = pits[i * 8..i * 8 + 8]
                .iter()
                .enumerate()
                .map(|(c, v)| {
                    // Mark the nyumba of each side while it keeps its status.
                    let ny_col = if p == 0 { 4 } else { 3 };
                    if front && c == ny_col && self.nyumba[p] {
                        format!("{v:>2}*")
                    } else {
                        format!("{v:>3}")
                    }
                })
                .collect();
            out.push_str(&format!("{:>16} {}\n", label(p, front), cells.join("")));
            if i == 1 {
                out.push_str(&format!("{:>16} {}\n", "", "-".repeat(24)));
            }
        }
        out.push_str(&format!(
            "in hand: south {}, north {}; phase ({} to move): {}",
            self.hand[0],
            self.hand[1],
            side_name(me),
            self.phase_name()
        ));
        if self.nyumba.iter().any(|&n| n) {
            out.push_str("; * = nyumba");
        }
        if let Some(t) = self.takasia {
            out.push_str(&format!("; takasia: a{}", t + 1));
        }
        out.push('\n');
        match self.winner() {
            Some(w) => out.push_str(&format!("game over: {} wins\n", side_name(w))),
            None => out.push_str(&format!(
                "{} to move; legal: {}\n",
                side_name(me),
                self.legal_names().join(" ")
            )),
        }
        out
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}
