//! What a request asks, read from its parameters, and the answer for a request that cannot be
//! answered: its status and a message in the API's own words.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use mancala_oracle::OracleError;
use mancala_rules::{
    parse_moves, parse_position, Board, Game, GameOption, GameSpec, Rules, Side, Wording,
};
use mancala_search::SearchError;
use mancala_tables::{FileError, TableError};
use serde_json::json;

/// A request that cannot be answered: its status and what to do.
#[derive(Debug)]
pub struct ApiError {
    pub status: StatusCode,
    pub message: String,
}

impl ApiError {
    /// A 400: the request is wrong, and the message says how.
    pub fn bad(message: impl std::fmt::Display) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, message)
    }

    pub fn new(status: StatusCode, message: impl std::fmt::Display) -> ApiError {
        ApiError {
            status,
            message: message.to_string(),
        }
    }

    /// An oracle's error: a tier not built is the client's to fix (404); a search out of
    /// time or a damaged table is the server's side (503, 500).
    pub fn oracle(e: OracleError, key: &str) -> ApiError {
        if let Some(TableError::Missing { tier, .. }) = e.table() {
            return ApiError::new(
                StatusCode::NOT_FOUND,
                format!(
                    "tier {tier} of {key} is not built on this server: ask for a position with fewer seeds, or build the tables (`mancala build`) into its folder"
                ),
            );
        }
        match e {
            OracleError::Search(SearchError::OutOfTime { lo, hi }) => ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                format!(
                    "no exact answer within the time limit (the value lies in [{lo}, {hi}]): /api/solve gives the bounds, or ask for a position with fewer seeds"
                ),
            ),
            OracleError::Table(TableError::File {
                file: FileError::Changed { .. },
                ..
            }) => ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                format!(
                    "{e}: no answer was given from it; this server opens its tables again for the next request, so ask again (a table is replaced safely by writing a new file and renaming it over the old one, as `mancala build` does)"
                ),
            ),
            OracleError::Table(TableError::File {
                file: FileError::Replaced { .. },
                ..
            }) => ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                format!(
                    "{e}: no answer was given; this server opens its tables again for the next request (checking every byte of them once), so ask again"
                ),
            ),
            OracleError::Table(TableError::File {
                file: FileError::Checksum { .. } | FileError::Corrupt { .. },
                ..
            }) => ApiError::new(
                StatusCode::INTERNAL_SERVER_ERROR,
                format!(
                    "{e}: this server cannot answer from it; its operator repairs it with `mancala build` of {key} into the server's folder (damaged tiers are built again), and the next request opens it again"
                ),
            ),
            OracleError::Search(SearchError::TooBig { .. }) => ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                format!("{e}: this server cannot search it; ask for a position with fewer seeds"),
            ),
            e => ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, e),
        }
    }

    /// Is `e` a table file changed in place under the oracle, or replaced behind it (whose
    /// tables must then be opened again)?
    pub fn changed(e: &OracleError) -> bool {
        matches!(
            e,
            OracleError::Table(TableError::File {
                file: FileError::Changed { .. } | FileError::Replaced { .. },
                ..
            })
        )
    }

    /// The answer's JSON: `{"error": message}`.
    pub fn json(&self) -> serde_json::Value {
        json!({ "error": self.message })
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.status, Json(self.json())).into_response()
    }
}

/// The API's words for the options the libraries' errors name: its parameters.
pub struct ApiWords;

impl Wording for ApiWords {
    fn option(&self, option: GameOption) -> String {
        let param = match option {
            GameOption::Pits => "pits",
            GameOption::Seeds => "seeds",
            GameOption::EmptyCapture => "empty_capture",
            GameOption::GrandSlam => "grand_slam",
            GameOption::Rule => "rule",
            GameOption::Owners => "owners",
            GameOption::Position => "position",
            // Not parameters of the API: the games that take them have no tables.
            GameOption::Setup => "setup",
            GameOption::Swap => "swap",
        };
        param.to_string()
    }

    fn presets(&self) -> Option<&str> {
        Some("/api/variants")
    }
}

/// The query string as pairs (a name may come more than once: `rule`).
pub type Pairs = [(String, String)];

/// The names a request may give.
pub const NAMES: &[&str] = &[
    "variant",
    "pits",
    "seeds",
    "empty_capture",
    "grand_slam",
    "rule",
    "owners",
    "position",
    "to_move",
    "moves",
    "max_seconds",
    "tables_only",
    "exact",
    "at_least",
];

/// Refuses the parameters of `names` that a request gives, each with why (`for_what`: where
/// it applies): an endpoint that took them and ignored them would answer another question
/// than the one asked.
pub fn refuse(p: &Pairs, names: &[&str], here: &str, for_what: &str) -> Result<(), ApiError> {
    match p.iter().find(|(k, _)| names.contains(&k.as_str())) {
        Some((k, _)) => Err(ApiError::bad(format!(
            "{k} does not apply to {here}: {for_what}"
        ))),
        None => Ok(()),
    }
}

/// The one value of `name` (the last one given).
pub fn param<'a>(p: &'a Pairs, name: &str) -> Option<&'a str> {
    p.iter()
        .rev()
        .find(|(k, _)| k == name)
        .map(|(_, v)| v.as_str())
}

/// A yes/no parameter, spelled one way everywhere: `true`/`1` or `false`/`0` (absent or
/// empty: `false`); any other spelling is refused rather than read as one of them.
pub fn flag(p: &Pairs, name: &str) -> Result<bool, ApiError> {
    match param(p, name) {
        None | Some("") | Some("false") | Some("0") => Ok(false),
        Some("true") | Some("1") => Ok(true),
        Some(v) => Err(ApiError::bad(format!(
            "{name} must be true or false (or 1 or 0), not '{v}'"
        ))),
    }
}

/// The variant a request names.
pub fn spec(p: &Pairs) -> Result<GameSpec, ApiError> {
    if let Some((k, _)) = p.iter().find(|(k, _)| !NAMES.contains(&k.as_str())) {
        return Err(ApiError::bad(format!(
            "unknown parameter '{k}': the parameters are {}",
            NAMES.join(", ")
        )));
    }
    let preset = param(p, "variant").ok_or_else(|| {
        ApiError::bad("give variant=NAME (/api/variants lists the presets with tables)")
    })?;
    let count = |name: &str| -> Result<Option<u32>, ApiError> {
        match param(p, name) {
            None | Some("") => Ok(None),
            Some(v) => match v.parse::<u32>() {
                Ok(n @ 1..=1000) => Ok(Some(n)),
                _ => Err(ApiError::bad(format!(
                    "{name} must be a small positive number, not '{v}'"
                ))),
            },
        }
    };
    Ok(GameSpec {
        preset: preset.trim().to_ascii_lowercase(),
        pits: count("pits")?,
        seeds: count("seeds")?,
        empty_capture: flag(p, "empty_capture")?,
        grand_slam: param(p, "grand_slam")
            .filter(|g| !g.is_empty())
            .map(str::to_string),
        rules: p
            .iter()
            .filter(|(k, _)| k == "rule")
            .map(|(_, v)| v.clone())
            .collect(),
        owners: param(p, "owners")
            .filter(|o| !o.is_empty())
            .map(str::to_string),
        ..GameSpec::default()
    })
}

/// The shortest `max_seconds` taken: below it no search gets under way, and a request asking
/// a microsecond was told that every search slot had been busy for the whole time limit.
pub const LEAST_SECONDS: f64 = 0.01;

/// The longest a request's search may take: its `max_seconds`, at least [`LEAST_SECONDS`] and
/// at most `most`.
pub fn seconds(p: &Pairs, most: f64) -> Result<f64, ApiError> {
    match param(p, "max_seconds") {
        None | Some("") => Ok(most),
        Some(v) => match v.parse::<f64>() {
            Ok(s) if (LEAST_SECONDS..=most).contains(&s) => Ok(s),
            _ => Err(ApiError::bad(format!(
                "max_seconds must be a number of seconds from {LEAST_SECONDS} to {most} (this server's limit), not '{v}'"
            ))),
        },
    }
}

/// The threshold of a yes/no question (`at_least`: is the value at least this?), if any.
pub fn at_least(p: &Pairs) -> Result<Option<i32>, ApiError> {
    match param(p, "at_least") {
        None | Some("") => Ok(None),
        Some(v) => v.parse::<i32>().map(Some).map_err(|_| {
            ApiError::bad(format!(
                "at_least must be a whole number of seeds (the value to test), not '{v}'"
            ))
        }),
    }
}

/// The side to move a request gives (`to_move`), if any.
fn side(p: &Pairs) -> Result<Option<Side>, ApiError> {
    match param(p, "to_move") {
        None | Some("") => Ok(None),
        Some("south") => Ok(Some(Side::South)),
        Some("north") => Ok(Some(Side::North)),
        Some(v) => Err(ApiError::bad(format!(
            "to_move must be south or north, not '{v}'"
        ))),
    }
}

/// A position as a query takes it (the side to move's pits first).
pub fn board(rules: &Rules, text: &str) -> Result<Board, ApiError> {
    parse_position(rules, text)
        .map_err(|e| ApiError::bad(format!("position: {}", e.worded(&ApiWords))))
}

/// The game a request describes, and the position a question about it asks about. Its
/// position (the start without one) with `to_move` to move (South by default: a position is
/// the same for either side, which only says where it is drawn), then its moves. Without
/// moves the position asked is the one given, exactly as the command line reads it; after
/// moves it is where they lead ([`Game::position`]).
pub fn game(rules: &Rules, p: &Pairs) -> Result<Asked, ApiError> {
    let given = match param(p, "position").filter(|t| !t.trim().is_empty()) {
        Some(text) => Some(board(rules, text)?),
        None => None,
    };
    let named = side(p)?;
    let start = given.unwrap_or_else(|| rules.start());
    let mover = match (named, start.north()) {
        (_, true) => Side::North,
        (Some(s), false) if !rules.sided() => s,
        (Some(Side::North), false) => {
            return Err(ApiError::bad(
                "to_move: where the players own different pits the side to move is the position's last word (north)",
            ))
        }
        _ => Side::South,
    };
    let mut g = Game::from_position(rules.clone(), start, mover);
    let mut sides = Vec::new();
    let moves = param(p, "moves").filter(|t| !t.trim().is_empty());
    if let Some(text) = moves {
        let moves = parse_moves(rules.move_limit(), text)
            .map_err(|e| ApiError::bad(format!("moves: {e}")))?;
        for (i, &pit) in moves.iter().enumerate() {
            sides.push(g.to_move());
            g.play(pit)
                .map_err(|e| ApiError::bad(format!("move {} of moves: {e}", i + 1)))?;
        }
    }
    let asked = match moves {
        None => start,
        Some(_) => g.position(),
    };
    Ok(Asked {
        game: g,
        position: asked,
        sides,
    })
}

/// A request's game: where its moves lead, the position a question asks about, and who
/// played each move (a Kalah move that ends in the own store is followed by the same side).
pub struct Asked {
    pub game: Game,
    pub position: Board,
    pub sides: Vec<Side>,
}
