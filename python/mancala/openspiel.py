"""OpenSpiel's ``oware`` and ``mancala`` in this engine's terms, and a perfect player.

``convert(state)`` turns an OpenSpiel state into this engine's variant, options and
position; ``PerfectBot`` is a ``pyspiel.Bot`` that plays a best move from the tables or the
search, choosing among equally good moves with a seeded random generator.

OpenSpiel's ``oware`` (any ``num_houses_per_player`` and ``num_seeds_per_house`` the engine
takes: 1..8 each) is the engine's ``oware``: the seeds are sown counter-clockwise skipping the
origin on a lap, the last seed's pit and the run before it on the opponent's row are taken
when they hold 2 or 3, a grand slam captures nothing, a player must feed an opponent without
seeds and takes his own row when he cannot. OpenSpiel's ``mancala`` is Kalah with 6 pits and
4 seeds, the engine's ``mancala``: the extra move, the capture of the pit across (not of an
empty one), and the end when either row is empty, each side taking its own row.

Where the rules differ, and what the bot does there:

- **Repetition (oware).** OpenSpiel ends the game the first time a position (pits, scores,
  player to move) repeats since the last capture, and each player takes the seeds on his own
  row. The engine's values score endless play 0 (the seeds left are split evenly), as the
  published Awari database does, and know nothing of the game's history. The bot plays a move
  of the best value by that convention; it does not steer a repetition towards a good split
  of the rows, nor away from a bad one. Against an opponent who aims for such repetitions, a
  drawn value can end as a small loss.
- **The end of an oware game.** OpenSpiel stops as soon as a player has more than half the
  seeds (or both exactly half) and leaves the pits as they are; on a repetition, or when the
  mover cannot feed or has no seeds, it sweeps the pits into the owners' scores. The engine's
  value is the net gain of playing on to the end; a majority reached is a win whatever
  follows, so the bot's choice is the same. ``mancala.play`` of ``oware`` ends games as
  OpenSpiel does, but sweeps the pits at a majority too: the pits and stores of a finished
  game differ there, the result does not.
- **Game length (mancala).** OpenSpiel's ``mancala`` calls a game a draw after 1000 moves; no
  Kalah game gets near that (every quiet move carries seeds towards the mover's store).

A value here is the net future gain of the side to move: the seeds it will still capture
minus those its opponent will. The final score difference under perfect play is the
difference of the scores so far plus the value.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Tuple

import pyspiel

from ._mancala import MancalaError, Oracle

__all__ = ["Converted", "PerfectBot", "convert", "to_action", "to_pit", "variant_of"]

# OpenSpiel's mancala: board[0] is North's store, board[1..6] South's pits, board[7] South's
# store, board[8..13] North's pits; a move is the board index of the pit.
_KALAH_PITS = 6
_KALAH_SOUTH_STORE = 7


@dataclass(frozen=True)
class Converted:
    """An OpenSpiel state in this engine's terms.

    ``mancala.play(variant, moves=moves, **options)`` replays the game to this state, and
    ``Oracle(variant, **options).query(position)`` values it.
    """

    variant: str
    """The engine's preset: ``oware`` or ``mancala``."""
    options: Dict[str, int]
    """The keyword options that size it, e.g. ``{"pits": 4, "seeds": 3}``."""
    position: List[int]
    """The pit counts seen from the side to move: its pits, then the opponent's."""
    to_move: str
    """``south`` (OpenSpiel's player 0) or ``north`` (player 1)."""
    pits: List[int] = field(default_factory=list)
    """South's pits in sowing order, then North's (as ``mancala.play`` gives them)."""
    stores: List[int] = field(default_factory=list)
    """Seeds captured (stored) so far: ``[south, north]``."""
    moves: List[int] = field(default_factory=list)
    """The moves of the game so far, as the movers' pit indices."""


def variant_of(game: pyspiel.Game) -> Tuple[str, Dict[str, int]]:
    """The engine's preset and size options for an OpenSpiel ``oware`` or ``mancala`` game."""
    name = game.get_type().short_name
    if name == "oware":
        params = game.get_parameters()
        return "oware", {
            "pits": int(params.get("num_houses_per_player", 6)),
            "seeds": int(params.get("num_seeds_per_house", 4)),
        }
    if name == "mancala":
        return "mancala", {"pits": _KALAH_PITS, "seeds": 4}
    raise ValueError(f"OpenSpiel's {name!r} is not one of the games converted here: oware, mancala")


def _board(state: pyspiel.State) -> Tuple[List[int], List[int]]:
    """South's pits then North's, and the stores, read from the observation tensor."""
    game = state.get_game()
    name = game.get_type().short_name
    obs = state.observation_tensor(0)
    if name == "oware":
        _, options = variant_of(game)
        m, total = options["pits"], 2 * options["pits"] * options["seeds"]
        counts = [round(x * total) for x in obs]
        return counts[: 2 * m], counts[2 * m : 2 * m + 2]
    board = [int(round(x)) for x in obs[: 2 * _KALAH_PITS + 2]]
    south = board[1 : _KALAH_PITS + 1]
    north = board[_KALAH_SOUTH_STORE + 1 :]
    return south + north, [board[_KALAH_SOUTH_STORE], board[0]]


def to_pit(state: pyspiel.State, action: int) -> int:
    """The engine's move (the mover's pit index) of OpenSpiel's ``action`` in a game like
    ``state``'s (a Kalah action names its player's row)."""
    if state.get_game().get_type().short_name == "oware":
        return int(action)
    return int(action) - 1 if action <= _KALAH_PITS else int(action) - _KALAH_SOUTH_STORE - 1


def to_action(state: pyspiel.State, pit: int) -> int:
    """OpenSpiel's action for the engine's move ``pit`` of the player to move."""
    if state.get_game().get_type().short_name == "oware":
        return int(pit)
    if state.current_player() == 0:
        return int(pit) + 1
    return int(pit) + _KALAH_SOUTH_STORE + 1


def convert(state: pyspiel.State) -> Converted:
    """The engine's variant, options and position of a state of OpenSpiel's ``oware`` or
    ``mancala`` that is not over (``ValueError`` for one that is, or for another game)."""
    variant, options = variant_of(state.get_game())
    if state.is_terminal():
        raise ValueError("the game is over: a finished state has no side to move")
    pits, stores = _board(state)
    m = options["pits"]
    player = state.current_player()
    south, north = pits[:m], pits[m:]
    position = south + north if player == 0 else north + south
    moves = [to_pit(state, a) for a in state.history()]
    return Converted(
        variant=variant,
        options=options,
        position=position,
        to_move="south" if player == 0 else "north",
        pits=pits,
        stores=stores,
        moves=moves,
    )


class PerfectBot(pyspiel.Bot):
    """Plays a best move of OpenSpiel's ``oware`` or ``mancala`` from this engine's tables or
    search, choosing among the best moves with ``random.Random(seed)``.

    ``oracle`` is used as given, else made as ``Oracle(variant, dir, **options)`` with the
    game's size (its ``solve`` builds the tables its search should probe into ``dir`` the
    first time: for the full 6x4 Kalah about 20 seconds and 300 MB; ``tables=0`` never
    builds). After each step, ``last`` holds the engine's answer: ``position``, ``value``,
    ``best`` and the ``pit`` played.
    """

    def __init__(
        self,
        game: pyspiel.Game,
        oracle: Optional[Oracle] = None,
        *,
        dir: str = "databases",
        seed: Optional[int] = None,
        **options: Any,
    ) -> None:
        pyspiel.Bot.__init__(self)
        variant, size = variant_of(game)
        if oracle is None:
            oracle = Oracle(variant, dir, pits=size["pits"], seeds=size["seeds"], **options)
        self.oracle = oracle
        self.last: Optional[Dict[str, Any]] = None
        self._rng = random.Random(seed)

    def _best(self, state: pyspiel.State) -> List[int]:
        c = convert(state)
        s = self.oracle.solve(c.position)
        if s["value"] is None:
            raise MancalaError(f"no exact value for {c.position}: the value lies in {s['bounds']}")
        pit = self._rng.choice(s["best"])
        self.last = {"position": c.position, "value": s["value"], "best": s["best"], "pit": pit}
        return [to_action(state, p) for p in s["best"]]

    def step(self, state: pyspiel.State) -> int:
        """A best move of the player to move."""
        self._best(state)
        assert self.last is not None
        return to_action(state, self.last["pit"])

    def step_with_policy(self, state: pyspiel.State) -> Tuple[List[Tuple[int, float]], int]:
        """The best moves, equally likely, and the one played."""
        best = self._best(state)
        assert self.last is not None
        return [(a, 1.0 / len(best)) for a in best], to_action(state, self.last["pit"])

    def provides_policy(self) -> bool:
        return True

    def restart_at(self, state: pyspiel.State) -> None:
        """Nothing to forget: the bot looks only at the position."""

    def inform_action(self, state: pyspiel.State, player_id: int, action: int) -> None:
        """Nothing to record: the bot looks only at the position."""
