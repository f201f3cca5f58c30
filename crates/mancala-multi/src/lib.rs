//! Mankala uniwersalna: multi-player Kalah for 2, 3 and 4 players (docs/rules.md, mankala-2p,
//! mankala-3p, mankala-4p), with its 10 optional rules and an exact max-n solver for small
//! boards. Its source is a Polish shop and rules page for the game "Mankala uniwersalna".
//!
//! ```
//! use mancala_multi::{new_game, solve, Playable};
//!
//! // Three players with 6 pits of 4 seeds each; player 1 moves first.
//! let mut g = new_game("mankala-3p", None, None, &[], None).unwrap();
//! assert_eq!(g.pits().iter().sum::<u32>(), 72);
//! assert_eq!(g.to_move(), "player 1");
//!
//! // Pit 2's 4 seeds go into pits 3, 4, 5 and the house: a last seed in the own house moves
//! // again.
//! g.play("2").unwrap();
//! assert_eq!(g.stores(), vec![1, 0, 0]);
//! assert_eq!(g.to_move(), "player 1");
//!
//! // Exact max-n on a small board (3 players, 2 pits, 2 seeds): each player's final house.
//! let small = new_game("mankala-3p", Some(2), Some(2), &[], None).unwrap();
//! let value = solve(&small, 1_000_000).unwrap();
//! assert_eq!(value.scores, vec![5, 4, 3]);
//! assert_eq!(value.best.as_deref(), Some("0"));
//! ```
//!
//! Presets: `mankala-2p`, `mankala-3p`, `mankala-4p` ([`preset_names`]).
//!
//! # Board and geometry
//!
//! `N` players (2..4) sit around a ring. Each has `P` pits (default 6; 1..6 for small boards)
//! and a house on his right. Seats are numbered in turn order, which is also the sowing order:
//!
//! ```text
//! P1 pit 0 .. P1 pit P-1, P1 house, P2 pit 0 .. P2 pit P-1, P2 house, ..., back to P1 pit 0
//! ```
//!
//! Each player's pits are numbered `0..P-1` from his own left to his own right; a move is named
//! by that index (`a`..`f` are accepted on input too). [`Playable::pits`] lists all pits in seat
//! order (P1's pits left to right, then P2's, ...), [`Playable::stores`] the houses in seat order.
//!
//! * **2 players** (South = P1, North = P2) is the usual Kalah board: South's row runs left to
//!   right along the bottom with his house at the right end; North's row continues right to left
//!   along the top (North's left is South's right) with North's house at the left end. South's
//!   pit `j` therefore faces North's pit `P-1-j` (and vice versa): that facing pit is the one a
//!   capture takes, exactly Kalah's "opposite pit".
//! * **3 and 4 players**: the Mankala uniwersalna rules page says the opposite pits are those
//!   "in the same position on the board (e.g. the second pit from the left)", so a capture from
//!   own pit `j` takes pit `j` of **every** other player (2 pits with 3 players, 3 with 4). With
//!   rule 6 (4 players only) it takes pit `j` of the player sitting opposite, seat `mover + 2`.
//!
//! # Base rules
//!
//! * 4 seeds per pit (the `seeds` parameter, 1..10, or rule 2); houses start empty. At most 240
//!   seeds may be in the pits of a position.
//! * A move lifts all seeds of one own pit and sows them one by one along the ring: own pits,
//!   own house and the opponents' pits get a seed; the opponents' houses are skipped and the
//!   origin pit is always skipped (which matters only on a lap).
//! * Last seed in the own house: the same player moves again.
//! * Last seed in an own pit that was empty: if the opposite pit(s) hold seeds, all of them plus
//!   the capturing seed go to the mover's house; if they are all empty nothing is captured and
//!   the seed stays.
//! * A player with no seeds in his pits passes; passes are automatic (the player to move always
//!   has a legal move) and are not plies.
//! * End (the reading of docs/rules.md, mankala-2p, mankala-3p, mankala-4p): play goes on
//!   until no seed is left in any pit; the largest house wins. Scores are the house contents.
//!
//! # The 10 optional rules (`--rule NAME`, or `rule1`..`rule10`; `NAME=off` switches off)
//!
//! 1. `touch-move`: a touched pit must be played. A matter of physical play; accepted and
//!    shown in [`Playable::describe`], but it changes nothing in the engine.
//! 2. `three-seeds`: 3 seeds per pit (conflicts with an explicit other `seeds`).
//! 3. `capturer-stays`: on a capture the capturing seed stays in its pit.
//! 4. `first-empty-ends`: after every move (and in a given position), as soon as any player's
//!    pits are all empty, the game ends; seeds left in the pits count for nobody.
//! 5. `houses-not-sown`: no house is sown, not even one's own (so there is no extra turn);
//!    captures are the only way to score. Whole-game cycles become possible.
//! 6. `one-opposite` (4 players only; rejected for 2-3 players): a capture takes only the
//!    pit of the player sitting opposite (the reading of docs/rules.md, mankala-2p, mankala-3p,
//!    mankala-4p).
//! 7. `must-feed`: when the player after the mover (seat `mover + 1`) has all his pits
//!    empty, only moves that leave at least one seed in that player's pits are legal; if there
//!    is none, the game ends and every player banks the seeds in his own pits (the reading).
//!    A mover without seeds passes as usual.
//! 8. `keep-last-seed`: a last seed in an own empty pit whose opposite pits are all empty goes
//!    to the house anyway. (With rule 3 too: rule 3 governs real captures, rule 8 the empty
//!    ones.)
//! 9. `relay`: when the last seed lands in an occupied pit (any side), that pit is lifted and
//!    sowing goes on from the next position, skipping the pit just lifted; it stops in an
//!    empty pit (where the usual capture rule applies) or in the own house (extra turn). **A
//!    move whose relay would repeat a within-move state (pits, lifting position) would sow
//!    forever: it is illegal** (docs/rules.md, Conventions). A player whose every move is
//!    illegal this way passes; with rule 7 he "cannot feed". If nobody can move, the game ends
//!    and everyone banks his own pits.
//! 10. `capture-four[=any|own|opponents]`: the empty-pit capture is replaced: when the last
//!     seed makes a pit hold exactly 4, those 4 go to the mover's house. Default scope `any`
//!     pit on any side (the reading); `own` and `opponents` are the alternatives. With rule 9
//!     the capture is checked before a relay.
//!
//! # Positions
//!
//! `position` in [`new_game`] is `PITS [/ HOUSES [/ MOVER]]`: `PITS` is the `N*P` pit counts in
//! seat order (spaces or commas), `HOUSES` the `N` house counts (may be left empty: `1 2 3 4 //
//! 2`), `MOVER` the player to move, `1..N` (also `p2`, `player 2`, `south`/`north`). Default:
//! player 1 to move, empty houses. If that player has no move he passes, as in play.
//!
//! # Repetition (cycle) rule
//!
//! With some options (e.g. rule 5, or rule 9) a whole game can cycle. Houses never decrease, so a
//! position repeats exactly when (pits, player to move) repeats. In play and in [`solve`], **the
//! game ends the moment a position occurs a second time, and every player banks the seeds in
//! his own pits** ([`End::Repetition`]). Perft ([`MultiGame::perft`]) has no history and does
//! not apply this rule.
//!
//! # Max-n solving ([`solve`])
//!
//! Each player maximises his own final house total. Values are computed as future gains per
//! player (independent of the houses) and memoised on (pits, player to move).
//!
//! **Tie rule**: among moves giving the mover the same gain, prefer the one with the largest
//! margin of his gain over the largest gain of any other player; then the lowest pit index.
//! Margins are measured on future gains (not house totals) so that memoised values do not
//! depend on the houses.
//!
//! **Cycles and the memo**: a move into a position already on the current line of play is
//! scored by the repetition rule (everyone banks his own pits). Two memos keep this exact:
//!
//! * a value is memoised for every line if the search below it never met a repetition of the
//!   position itself or of a position above it. That happens exactly when the position lies on
//!   no cycle of the game graph, and then its value cannot depend on the path that led to it;
//! * seeds in the pits never increase, so a position reached from a position with more seeds
//!   cannot repeat anything above it: its value with an empty line is memoised separately and
//!   reused whenever it is reached that way again.
//!
//! The tests compare the result (values and best move) with a plain memo-free search.
//! **Limitation**: positions on a cycle reached from the same seed count are searched again
//! for each line, so the work grows with the number of simple paths through a cyclic seed tier.
//! The base game, and rules 3, 4, 6, 7, 8, 10, have no such cycles and solve fast (3 players x 2
//! pits x 2 seeds: ~230 nodes; 2 x 3 x 3: ~25,000). With rule 5 (houses not sown) the whole
//! tier is cyclic: only tiny boards solve (2 players x 2 pits x 1 seed, 3 x 1 x 2, 4 x 1 x 2);
//! 2 players x 2 pits x 2 seeds already passes 20 million nodes. [`solve`] reports
//! [`MultiError::NodeLimit`] then.
//!
//! [`solve`] treats the given position as the start of the game: positions played before it
//! (the game's history) are not on the line.
//!
//! Reported: every player's final house total ([`MaxN::scores`]) and future gains, the best
//! move, a principal variation (re-searched with the variation so far as the line, so it is
//! consistent with the repetition rule), the value of every root move, and the node count.

#![warn(missing_docs)]

mod family;
mod game;
mod rules;
mod solve;

pub use family::MultiFamily;
pub use game::{new_game, options_help, preset_names, summary, MultiGame, MAX_TOTAL_SEEDS};
pub use mancala_rules::Playable;
pub use rules::{End, FourScope, Options};
pub use solve::{solve, MaxN};

/// Everything that can go wrong with user input or a search; each message says what to do.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MultiError {
    /// Not one of `mankala-2p`, `mankala-3p`, `mankala-4p`.
    #[error("unknown preset `{0}`: choose mankala-2p, mankala-3p or mankala-4p")]
    UnknownPreset(String),
    /// Pits per player outside 1..6.
    #[error("{0} pits per player is not supported: choose 1..6")]
    BadPits(u32),
    /// Seeds per pit outside 1..10.
    #[error("{0} seeds per pit is not supported: choose 1..10")]
    BadSeeds(u32),
    /// A rule name that is none of the ten optional rules.
    #[error(
        "unknown rule `{0}`: use touch-move, three-seeds, capturer-stays, first-empty-ends, \
         houses-not-sown, one-opposite, must-feed, keep-last-seed, relay, capture-four or rule1..rule10"
    )]
    UnknownRule(String),
    /// A rule given a value it does not take.
    #[error("rule {rule} does not take the value `{value}`: use {expected}")]
    BadRuleValue {
        /// The rule's name.
        rule: String,
        /// The value as given.
        value: String,
        /// The values it takes.
        expected: &'static str,
    },
    /// A rule that does not apply to this preset (e.g. `one-opposite` without 4 players).
    #[error("rule {rule} does not apply here: {why}")]
    RuleNotForPreset {
        /// The rule's name.
        rule: String,
        /// Why it does not apply.
        why: &'static str,
    },
    /// Two settings that contradict each other (e.g. `three-seeds` with another seed count).
    #[error("conflicting settings: {0}")]
    Conflict(String),
    /// A position string that cannot be read or does not fit the board.
    #[error("bad position: {0} (write `PITS [/ HOUSES [/ MOVER]]`, pits in seat order)")]
    BadPosition(String),
    /// A move that is not legal in this position.
    #[error("`{mv}` is not a legal move here; legal moves: {legal}")]
    IllegalMove {
        /// The move as given.
        mv: String,
        /// The legal moves' names.
        legal: String,
    },
    /// A move asked for after the game ended.
    #[error("the game is over: no move can be played")]
    GameOver,
    /// The max-n search visited more nodes than allowed.
    #[error(
        "the max-n search passed its limit of {} nodes: use a smaller board (fewer pits, \
         seeds or players) or raise the limit",
        mancala_rules::Grouped(*limit as u128)
    )]
    NodeLimit {
        /// The node limit that was passed.
        limit: u64,
    },
}
