//! A game in progress: presets, options, positions, the `Playable` interface and the drawing.

use std::collections::HashSet;
use std::error::Error;

use mancala_rules::{switch_word, Playable, Side};

use crate::rules::{End, FourScope, Options, Pits, Rules, Settled, Sown, Status, MAX_PITS};
use crate::MultiError;

const PRESETS: [&str; 3] = ["mankala-2p", "mankala-3p", "mankala-4p"];

/// The most seeds a position may hold in its pits (they are stored in bytes).
pub const MAX_TOTAL_SEEDS: u32 = 240;

/// The presets this crate plays.
pub fn preset_names() -> &'static [&'static str] {
    &PRESETS
}

fn players_of(preset: &str) -> Option<usize> {
    match preset {
        "mankala-2p" => Some(2),
        "mankala-3p" => Some(3),
        "mankala-4p" => Some(4),
        _ => None,
    }
}

/// A one-line description of a preset.
pub fn summary(preset: &str) -> Option<&'static str> {
    match preset {
        "mankala-2p" => Some(
            "Mankala uniwersalna, 2 players: Kalah on a ring of 2 x 6 pits + houses, 4 seeds, \
             origin skipped, play until every pit is empty (docs/rules.md, mankala-2p, mankala-3p, mankala-4p)",
        ),
        "mankala-3p" => Some(
            "Mankala uniwersalna, 3 players: 6 pits + house each around a ring, 4 seeds, \
             a capture takes the same-index pit of both opponents (docs/rules.md, mankala-2p, mankala-3p, mankala-4p)",
        ),
        "mankala-4p" => Some(
            "Mankala uniwersalna, 4 players: 6 pits + house each around a ring, 4 seeds, \
             a capture takes the same-index pit of all three opponents (docs/rules.md, mankala-2p, mankala-3p, mankala-4p)",
        ),
        _ => None,
    }
}

/// The 10 optional rules: (name, rule number, help).
const RULES: [(&str, u32, &str); 10] = [
    (
        "touch-move",
        1,
        "rule 1: a touched pit must be played (physical play only: changes nothing here)",
    ),
    (
        "three-seeds",
        2,
        "rule 2: start with 3 seeds per pit instead of 4",
    ),
    (
        "capturer-stays",
        3,
        "rule 3: the capturing seed stays in its pit; only the opponents' seeds are taken",
    ),
    (
        "first-empty-ends",
        4,
        "rule 4: the game ends as soon as a player's pits are all empty; seeds left in pits count for nobody",
    ),
    (
        "houses-not-sown",
        5,
        "rule 5: no house is sown, not even your own; capturing is the only way to score",
    ),
    (
        "one-opposite",
        6,
        "rule 6 (4 players): a capture takes only the pit of the player sitting opposite",
    ),
    (
        "must-feed",
        7,
        "rule 7: you must put a seed into the next player's pits if they are all empty; if you cannot, the game ends and everyone banks his own pits",
    ),
    (
        "keep-last-seed",
        8,
        "rule 8: a last seed in your empty pit facing only empty pits still goes to your house",
    ),
    (
        "relay",
        9,
        "rule 9: a last seed in an occupied pit lifts it and sows on; a relay that would loop forever is illegal",
    ),
    (
        "capture-four",
        10,
        "rule 10: capture the pit the last seed makes 4 (=any pit, =own or =opponents side) instead of the empty-pit capture",
    ),
];

/// The `--rule` options of a preset: (name, one-line help). `rule1`..`rule10` are aliases.
pub fn options_help(preset: &str) -> Vec<(&'static str, &'static str)> {
    let Some(players) = players_of(preset) else {
        return Vec::new();
    };
    RULES
        .iter()
        .filter(|(name, _, _)| *name != "one-opposite" || players == 4)
        .map(|(name, _, help)| (*name, *help))
        .collect()
}

fn parse_switch(rule: &str, value: Option<&str>) -> Result<bool, MultiError> {
    match value.map(|v| v.to_ascii_lowercase()) {
        None => Ok(true),
        Some(v) => switch_word(&v).ok_or(MultiError::BadRuleValue {
            rule: rule.to_string(),
            value: v,
            expected: "on or off",
        }),
    }
}

fn apply_rule(opts: &mut Options, players: usize, text: &str) -> Result<(), MultiError> {
    let (raw_name, value) = match text.split_once('=') {
        Some((n, v)) => (n.trim(), Some(v.trim())),
        None => (text.trim(), None),
    };
    let lower = raw_name.to_ascii_lowercase();
    let number = lower
        .strip_prefix("rule")
        .filter(|d| !d.is_empty() && d.chars().all(|c| c.is_ascii_digit()))
        .map(|d| d.parse::<u32>().unwrap_or(0));
    let name = RULES
        .iter()
        .find(|(name, n, _)| number.map_or(*name == lower, |k| *n == k))
        .map(|(name, _, _)| *name)
        .ok_or_else(|| MultiError::UnknownRule(raw_name.to_string()))?;
    match name {
        "touch-move" => opts.touch_move = parse_switch(name, value)?,
        "three-seeds" => opts.three_seeds = parse_switch(name, value)?,
        "capturer-stays" => opts.capturer_stays = parse_switch(name, value)?,
        "first-empty-ends" => opts.first_empty_ends = parse_switch(name, value)?,
        "houses-not-sown" => opts.houses_not_sown = parse_switch(name, value)?,
        "one-opposite" => {
            if players != 4 {
                return Err(MultiError::RuleNotForPreset {
                    rule: name.to_string(),
                    why: "it is a 4-player rule (with 2 players a capture already takes one pit; \
                          with 3 nobody sits opposite)",
                });
            }
            opts.one_opposite = parse_switch(name, value)?;
        }
        "must-feed" => opts.must_feed = parse_switch(name, value)?,
        "keep-last-seed" => opts.keep_last_seed = parse_switch(name, value)?,
        "relay" => opts.relay = parse_switch(name, value)?,
        _ => {
            // capture-four
            let lower = value.map(|v| v.to_ascii_lowercase());
            opts.capture_four = match lower.as_deref() {
                None | Some("any") => Some(FourScope::Any),
                Some("own") => Some(FourScope::Own),
                Some("opponents") | Some("opponent") => Some(FourScope::Opponents),
                Some(v) => match switch_word(v) {
                    Some(on) => on.then_some(FourScope::Any),
                    None => {
                        return Err(MultiError::BadRuleValue {
                            rule: name.to_string(),
                            value: v.to_string(),
                            expected: "any, own, opponents or off",
                        })
                    }
                },
            };
        }
    }
    Ok(())
}

/// A game of Mankala uniwersalna in progress.
#[derive(Clone, Debug)]
pub struct MultiGame {
    pub(crate) preset: &'static str,
    pub(crate) rules: Rules,
    /// Seeds per pit at the start of a standard game.
    pub(crate) seeds: u32,
    pub(crate) pits: Pits,
    pub(crate) houses: [u32; 4],
    pub(crate) status: Status,
    /// The legal moves of the player to move, with their results.
    pub(crate) moves: Vec<(usize, Sown)>,
    /// Every (pits, player to move) seen so far in this game (houses never decrease, so equal
    /// pits and mover with the same total mean the same houses).
    history: HashSet<(Pits, u8)>,
}

fn parse_numbers(text: &str, what: &str) -> Result<Vec<u32>, MultiError> {
    text.split(|c: char| c.is_whitespace() || c == ',')
        .filter(|t| !t.is_empty())
        .map(|t| {
            t.parse::<u32>().map_err(|_| {
                MultiError::BadPosition(format!("`{t}` in the {what} is not a seed count"))
            })
        })
        .collect()
}

/// Starts a game. See the crate docs for the position syntax.
pub fn new_game(
    preset: &str,
    pits: Option<u32>,
    seeds: Option<u32>,
    rules: &[String],
    position: Option<&str>,
) -> Result<MultiGame, MultiError> {
    let players = players_of(preset).ok_or_else(|| MultiError::UnknownPreset(preset.into()))?;
    let preset = PRESETS[players - 2];
    let p = pits.unwrap_or(6);
    if !(1..=6).contains(&p) {
        return Err(MultiError::BadPits(p));
    }
    let p = p as usize;
    let mut opts = Options::default();
    for r in rules {
        apply_rule(&mut opts, players, r)?;
    }
    let seeds = match (seeds, opts.three_seeds) {
        (Some(s), true) if s != 3 => {
            return Err(MultiError::Conflict(format!(
                "three-seeds sets 3 seeds per pit but seeds {s} was asked for; drop one of them"
            )))
        }
        (Some(s), _) => s,
        (None, true) => 3,
        (None, false) => 4,
    };
    if !(1..=10).contains(&seeds) {
        return Err(MultiError::BadSeeds(seeds));
    }
    let rules = Rules {
        players,
        pits: p,
        opts,
    };
    let mut board: Pits = [0; MAX_PITS];
    let mut houses = [0u32; 4];
    let mut first = 0usize;
    match position {
        None => {
            for c in board.iter_mut().take(players * p) {
                *c = seeds as u8;
            }
        }
        Some(text) => {
            let parts: Vec<&str> = text.split('/').collect();
            if parts.len() > 3 {
                return Err(MultiError::BadPosition(
                    "at most three parts: `PITS / HOUSES / MOVER`".into(),
                ));
            }
            let counts = parse_numbers(parts[0], "pits")?;
            if counts.len() != players * p {
                return Err(MultiError::BadPosition(format!(
                    "{} pit counts given, {} expected ({players} players x {p} pits, in seat order)",
                    counts.len(),
                    players * p
                )));
            }
            let total: u64 = counts.iter().map(|&c| c as u64).sum();
            if total > MAX_TOTAL_SEEDS as u64 {
                return Err(MultiError::BadPosition(format!(
                    "{total} seeds in the pits; at most {MAX_TOTAL_SEEDS} are supported"
                )));
            }
            for (cell, &c) in board.iter_mut().zip(&counts) {
                *cell = c as u8;
            }
            if let Some(h) = parts.get(1) {
                let hs = parse_numbers(h, "houses")?;
                if !hs.is_empty() {
                    if hs.len() != players {
                        return Err(MultiError::BadPosition(format!(
                            "{} house counts given, {players} expected (one per player)",
                            hs.len()
                        )));
                    }
                    if hs.iter().any(|&h| h > 100_000) {
                        return Err(MultiError::BadPosition(
                            "a house holds more than 100000 seeds".into(),
                        ));
                    }
                    houses[..players].copy_from_slice(&hs);
                }
            }
            if let Some(m) = parts.get(2) {
                let m = m.trim().to_ascii_lowercase();
                let m = if m.is_empty() { "1".to_string() } else { m };
                let m = m
                    .strip_prefix("player")
                    .or_else(|| m.strip_prefix('p'))
                    .unwrap_or(&m)
                    .trim();
                first = match m {
                    "south" if players == 2 => 0,
                    "north" if players == 2 => 1,
                    _ => match m.parse::<usize>() {
                        Ok(k) if (1..=players).contains(&k) => k - 1,
                        _ => {
                            return Err(MultiError::BadPosition(format!(
                                "the player to move must be 1..{players} (or p1.., south/north \
                                 with 2 players), got `{}`",
                                parts[2].trim()
                            )))
                        }
                    },
                };
            }
        }
    }
    Ok(MultiGame::from_parts(
        preset, rules, seeds, board, houses, first,
    ))
}

impl MultiGame {
    fn from_parts(
        preset: &'static str,
        rules: Rules,
        seeds: u32,
        pits: Pits,
        houses: [u32; 4],
        first: usize,
    ) -> MultiGame {
        let settled = rules.settle(&pits, first);
        let mut game = MultiGame {
            preset,
            rules,
            seeds,
            pits,
            houses,
            status: Status::Over(End::Exhausted),
            moves: Vec::new(),
            history: HashSet::new(),
        };
        game.enter(settled);
        game
    }

    /// Installs a settled position: banks at a banking end, records history, detects repetition.
    fn enter(&mut self, settled: Settled) {
        self.status = settled.status;
        self.moves = settled.moves;
        if let Status::Move(s) = self.status {
            if !self.history.insert((self.pits, s as u8)) {
                self.status = Status::Over(End::Repetition);
                self.moves.clear();
            }
        }
        if let Status::Over(end) = self.status {
            if end.banks() {
                let own = self.rules.own_pits(&self.pits);
                for (house, gain) in self.houses.iter_mut().zip(own) {
                    *house += gain;
                }
                self.pits = [0; MAX_PITS];
            }
        }
    }

    /// The same position with no history (as if the game started here): the repetition rule
    /// then only looks at positions from here on, as [`crate::solve`] does.
    pub fn without_history(&self) -> MultiGame {
        let mut g = self.clone();
        g.history.clear();
        if let Status::Move(s) = g.status {
            g.history.insert((g.pits, s as u8));
        }
        g
    }

    /// The position in the syntax of [`new_game`]: `PITS / HOUSES / MOVER` (1-based mover).
    pub fn position(&self) -> String {
        let join = |v: Vec<u32>| {
            v.iter()
                .map(|c| c.to_string())
                .collect::<Vec<_>>()
                .join(" ")
        };
        format!(
            "{} / {} / {}",
            join(Playable::pits(self)),
            join(self.houses()),
            self.mover() + 1
        )
    }

    /// The preset's name.
    pub fn preset(&self) -> &'static str {
        self.preset
    }

    /// Number of players.
    pub fn players(&self) -> usize {
        self.rules.players
    }

    /// Pits per player.
    pub fn pits_per_player(&self) -> usize {
        self.rules.pits
    }

    /// Each player's house, in seat order.
    pub fn houses(&self) -> Vec<u32> {
        self.houses[..self.rules.players].to_vec()
    }

    /// The player to move (0-based seat). Once the game is over: the player who moved last
    /// or would have moved.
    pub fn mover(&self) -> usize {
        match self.status {
            Status::Move(s) => s,
            Status::Over(End::FirstEmpty(s)) | Status::Over(End::FeedImpossible(s)) => s,
            Status::Over(_) => 0,
        }
    }

    /// Why the game ended, or `None` while it goes on.
    pub fn end(&self) -> Option<End> {
        match self.status {
            Status::Over(e) => Some(e),
            Status::Move(_) => None,
        }
    }

    /// The options in force.
    pub fn options(&self) -> &Options {
        &self.rules.opts
    }

    /// Every legal move with the game after it (for cross-checking another engine).
    pub fn children(&self) -> Vec<(String, MultiGame)> {
        self.moves
            .iter()
            .map(|(i, _)| {
                let mut g = self.clone();
                g.play_index(*i);
                (i.to_string(), g)
            })
            .collect()
    }

    /// Move sequences of exactly `depth` plies from here; passes are not plies, a move that
    /// ends the game counts only as the last ply, and the repetition rule is not applied.
    pub fn perft(&self, depth: u32) -> u64 {
        match self.status {
            Status::Move(s) => self.rules.perft(&self.moves, s, depth),
            Status::Over(_) => u64::from(depth == 0),
        }
    }

    fn play_index(&mut self, i: usize) -> bool {
        let Status::Move(mover) = self.status else {
            return false;
        };
        let Some((_, sown)) = self.moves.iter().find(|(j, _)| *j == i) else {
            return false;
        };
        let sown = sown.clone();
        self.pits = sown.pits;
        self.houses[mover] += sown.gain;
        let settled = self.rules.after(mover, &sown);
        self.enter(settled);
        true
    }

    /// Plays a move given by name (`0`..`P-1` or `a`..`f`).
    pub fn play_move(&mut self, mv: &str) -> Result<(), MultiError> {
        if self.is_over() {
            return Err(MultiError::GameOver);
        }
        let t = mv.trim().to_ascii_lowercase();
        let index = match t.parse::<usize>() {
            Ok(i) => Some(i),
            Err(_) => {
                let mut cs = t.chars();
                match (cs.next(), cs.next()) {
                    (Some(c), None) if c.is_ascii_lowercase() => Some(c as usize - 'a' as usize),
                    _ => None,
                }
            }
        };
        if let Some(i) = index {
            if self.play_index(i) {
                return Ok(());
            }
        }
        Err(MultiError::IllegalMove {
            mv: mv.to_string(),
            legal: self.legal().join(" "),
        })
    }

    fn name_of(&self, seat: usize) -> String {
        if self.rules.players == 2 {
            [Side::South, Side::North][seat].name().to_string()
        } else {
            format!("player {}", seat + 1)
        }
    }

    fn status_line(&self) -> String {
        match self.status {
            Status::Move(s) => format!(
                "{} to move; legal moves: {}",
                self.name_of(s),
                self.legal().join(" ")
            ),
            Status::Over(end) => {
                let why = match end {
                    End::Exhausted => "no seeds left in the pits".to_string(),
                    End::FirstEmpty(s) => format!(
                        "{} has emptied his pits (rule 4; seeds left in pits do not count)",
                        self.name_of(s)
                    ),
                    End::FeedImpossible(s) => format!(
                        "{} cannot feed {} (rule 7; everyone banked his own pits)",
                        self.name_of(s),
                        self.name_of((s + 1) % self.rules.players)
                    ),
                    End::NoLegalMove => {
                        "no player has a legal move (everyone banked his own pits)".to_string()
                    }
                    End::Repetition => {
                        "the position repeated (everyone banked his own pits)".to_string()
                    }
                };
                let hs = self.houses();
                let top = hs.iter().copied().max().unwrap_or(0);
                let winners: Vec<String> = (0..hs.len())
                    .filter(|&s| hs[s] == top)
                    .map(|s| self.name_of(s))
                    .collect();
                let result = if winners.len() == 1 {
                    format!("{} wins", winners[0])
                } else {
                    format!("tie between {}", winners.join(" and "))
                };
                let scores: Vec<String> = hs.iter().map(|h| h.to_string()).collect();
                format!("game over: {why}; houses {}; {result}", scores.join(" - "))
            }
        }
    }

    fn draw_two(&self) -> String {
        let p = self.rules.pits;
        let cell = |c: u32| format!("{c:>3}");
        let north: String = (0..p)
            .rev()
            .map(|i| cell(self.pits[p + i] as u32))
            .collect();
        let south: String = (0..p).map(|i| cell(self.pits[i] as u32)).collect();
        let north_idx: String = (0..p).rev().map(|i| format!("{i:>3}")).collect();
        let south_idx: String = (0..p).map(|i| format!("{i:>3}")).collect();
        let width = 3 * p;
        let mut out = String::new();
        out.push_str(&format!(
            "       {north_idx}     north's pits (north sows right to left)\n"
        ));
        out.push_str(&format!("     [{north} ]\n"));
        out.push_str(&format!(
            "{:>4} {:width$}  {:<4}  north's house left, south's house right\n",
            self.houses[1],
            "",
            self.houses[0],
            width = width
        ));
        out.push_str(&format!("     [{south} ]\n"));
        out.push_str(&format!(
            "       {south_idx}     south's pits (south sows left to right)\n"
        ));
        out
    }

    fn draw_ring(&self) -> String {
        let p = self.rules.pits;
        let mut out = String::from(
            "sowing order (a ring): each player's pits 0.. then his house, then the next player\n",
        );
        for s in 0..self.rules.players {
            let pits: Vec<String> = (0..p)
                .map(|i| format!("{:>3}", self.pits[s * p + i]))
                .collect();
            let marker = if self.status == Status::Move(s) {
                "  <- to move"
            } else {
                ""
            };
            out.push_str(&format!(
                "  player {}: pits [{} ]  house {:>3}{marker}\n",
                s + 1,
                pits.join(""),
                self.houses[s]
            ));
        }
        out.push_str(&format!(
            "  (then back to player 1; a capture from pit i takes pit i of {})\n",
            if self.rules.opts.one_opposite {
                "the player opposite"
            } else {
                "every other player"
            }
        ));
        out
    }
}

impl Playable for MultiGame {
    fn describe(&self) -> String {
        let mut parts = Vec::new();
        if self.rules.pits != 6 {
            parts.push(format!("pits {}", self.rules.pits));
        }
        let default_seeds = if self.rules.opts.three_seeds { 3 } else { 4 };
        if self.seeds != default_seeds {
            parts.push(format!("seeds {}", self.seeds));
        }
        let o = &self.rules.opts;
        let flags = [
            (o.touch_move, "touch-move"),
            (o.three_seeds, "three-seeds"),
            (o.capturer_stays, "capturer-stays"),
            (o.first_empty_ends, "first-empty-ends"),
            (o.houses_not_sown, "houses-not-sown"),
            (o.one_opposite, "one-opposite"),
            (o.must_feed, "must-feed"),
            (o.keep_last_seed, "keep-last-seed"),
            (o.relay, "relay"),
        ];
        let mut names: Vec<String> = flags
            .iter()
            .filter(|(on, _)| *on)
            .map(|(_, n)| n.to_string())
            .collect();
        match o.capture_four {
            Some(FourScope::Any) => names.push("capture-four".into()),
            Some(scope) => names.push(format!("capture-four={}", scope.name())),
            None => {}
        }
        if !names.is_empty() {
            parts.push(format!("rules {}", names.join(",")));
        }
        if parts.is_empty() {
            self.preset.to_string()
        } else {
            format!("{} ({})", self.preset, parts.join("; "))
        }
    }

    fn pits(&self) -> Vec<u32> {
        self.pits[..self.rules.players * self.rules.pits]
            .iter()
            .map(|&c| c as u32)
            .collect()
    }

    fn stores(&self) -> Vec<u32> {
        self.houses()
    }

    fn to_move(&self) -> String {
        self.name_of(self.mover())
    }

    fn is_over(&self) -> bool {
        matches!(self.status, Status::Over(_))
    }

    fn legal(&self) -> Vec<String> {
        self.moves.iter().map(|(i, _)| i.to_string()).collect()
    }

    fn play(&mut self, mv: &str) -> Result<(), Box<dyn Error + Send + Sync>> {
        self.play_move(mv).map_err(|e| Box::new(e) as _)
    }

    fn draw(&self) -> String {
        let mut out = if self.rules.players == 2 {
            self.draw_two()
        } else {
            self.draw_ring()
        };
        out.push_str(&self.status_line());
        out.push('\n');
        out
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}
