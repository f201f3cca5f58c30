"""Type stubs of the extension module (re-exported by ``mancala``)."""

import os
import pathlib
from typing import Any, Dict, List, Optional, Sequence, Union, overload

Position = Union[str, Sequence[int]]
"""A position: the command line's string ("1 1 1 1 1 2 4 2 3 0 0 0"; where the players own
different pits a last word ``north`` puts North to move) or a sequence of ``2m`` pit counts,
the side to move's pits first."""

Moves = Union[str, Sequence[Union[int, str]]]
"""Moves: "0,3,5" (or "a d f"), or a sequence of the mover's pit indices (or names)."""

Rules = Union[str, Sequence[str]]

class MancalaError(Exception):
    """An error of the engine that is not a bad argument: damaged or foreign tables, a
    search that cannot finish, ..."""

class TablesMissing(MancalaError):
    """A tier the question needs is not built (``Oracle.build`` builds it)."""

    tier: int
    """The seed count of the missing tier."""
    dir: str
    """The table folder (or the published database's folder)."""

def variants() -> List[Dict[str, Any]]:
    """The presets with tables, each as ``mancala variants --json`` lists it: ``name``,
    ``family``, ``description``, ``options``, ``pits``/``seeds`` (defaults),
    ``pits_range``/``seeds_range``, ``table_key``, ..."""

def play(
    variant: str,
    moves: Optional[Moves] = None,
    position: Optional[Position] = None,
    *,
    pits: Optional[int] = None,
    seeds: Optional[int] = None,
    empty_capture: bool = False,
    grand_slam: Optional[str] = None,
    rules: Optional[Rules] = None,
    owners: Optional[str] = None,
) -> Dict[str, Any]:
    """The board after ``moves`` from the start (or from ``position``, South to move), as
    ``mancala play --json`` prints it: ``{"variant": table key, "pits": South's pits then
    North's, "stores": [south, north], "to_move": "south"|"north", "over": bool, "legal":
    [pit, ...]}``.

    Options are the command line's: ``pits`` and ``seeds`` a side and a pit, ``empty_capture``
    (kalah, mancala), ``grand_slam`` (wari: gs1..gs6 or its name), ``rules`` (a rule name or
    several, as ``--rule``), ``owners`` (nam-nam's later rounds).

    Raises ``ValueError`` for an unknown variant, a bad option, position or move (an illegal
    one included), ``TypeError`` for an argument of the wrong kind.
    """

class Oracle:
    """Perfect play for one rule set: the endgame tables in ``dir`` (or, with ``vu_dir``, the
    published Awari database's files ``scores.N``) and an exact search above them.

    The tiers present are opened at once (their headers checked; ``mancala verify`` checks
    every byte). ``build`` adds tiers; ``query``, ``values`` and ``query_many`` read the
    tables and search above them; ``solve`` builds the tables its search should probe first,
    as ``mancala solve`` does (``tables=0``: never).

    Options: those of ``play``, and ``hash_mb`` (the most the search's transposition table
    may take, kept from one question to the next; a search a few seeds above the tables takes
    less), ``threads`` (search threads; default one a core), ``tables``
    (the tiers ``solve`` builds when missing: ``None`` the command line's default size, ``0``
    none, ``N`` up to ``N`` seeds). Long calls release the GIL and stop on Ctrl-C
    (``KeyboardInterrupt``; a build stops once the tier under way is written). One call at a
    time per oracle.

    Raises ``ValueError`` for a bad variant or option, ``MancalaError`` for tables it cannot
    open (damaged, foreign, a missing ``vu_dir``).
    """

    def __init__(
        self,
        variant: str,
        dir: Union[str, os.PathLike[str]] = "databases",
        *,
        pits: Optional[int] = None,
        seeds: Optional[int] = None,
        empty_capture: bool = False,
        grand_slam: Optional[str] = None,
        rules: Optional[Rules] = None,
        owners: Optional[str] = None,
        vu_dir: Optional[Union[str, os.PathLike[str]]] = None,
        hash_mb: int = 256,
        threads: Optional[int] = None,
        tables: Optional[int] = None,
    ) -> None: ...
    @property
    def key(self) -> str:
        """The rule set's table key, e.g. ``awari-6x4``: its tables are in ``dir/<key>``."""
    @property
    def pits(self) -> int:
        """Pits a side: a position has ``2 * pits`` counts."""
    @property
    def tables_up_to(self) -> Optional[int]:
        """The largest seed count up to which every tier is open (``None``: not even tier 0)."""
    @property
    def dir(self) -> pathlib.Path:
        """The table folder."""
    def build(self, max_seeds: int) -> None:
        """Builds the tiers ``0..max_seeds`` that are missing into ``dir`` (as ``mancala
        build``: resumable, one file a tier) and opens them. ``ValueError`` beyond the game's
        seeds or with ``vu_dir``; ``MancalaError`` when the tables cannot be built (disk,
        memory)."""
    def query(self, position: Position, exact: bool = False) -> Dict[str, Any]:
        """The value of ``position`` and of each move, as ``mancala query --json``:
        ``{"value": v, "moves": [{"pit": i, "value": v}, ...], "best": [...], "seeds": n,
        "source": "table"|"search"}``, and ``"cannot_arise": why`` for a position no game
        reaches. Read from the tables when they hold the position and
        every move's; else searched over the tiers that are built (``TablesMissing`` when a
        tier below the position's is missing). A search costs what ``solve`` costs: the best
        moves are exact, and every other move has ``"value": None`` and ``"bounds": [lo,
        hi]`` with ``hi`` below the position's value. ``exact=True`` proves every move's
        exact value (``mancala query --exact``), which can take many times as long."""
    def solve(
        self,
        position: Optional[Position] = None,
        max_seconds: Optional[float] = None,
        at_least: Optional[int] = None,
    ) -> Dict[str, Any]:
        """The exact value (default: of the start position), every best move and a
        principal variation, as ``mancala solve --json``: ``{"value": v or None, "bounds":
        [lo, hi], "best": [...], "pv": [...], "nodes": n, "expanded": e, "seconds": t,
        "tables": k}`` (``expanded``: the inner nodes among ``nodes``).
        With ``max_seconds`` the search stops then and ``value`` is ``None`` if it was not
        proven (``bounds`` are). Missing tables of the planned size are built first.
        ``at_least=v`` asks only whether the value is at least ``v`` (one null-window
        search, cheaper than the value, as ``mancala solve --at-least v --json``): the answer
        adds ``"at_least": v`` and ``"answer": True, False or None`` (None: ``max_seconds``
        ran out first), and ``best`` holds the moves proven to reach ``v``."""
    def query_many(self, positions: Any) -> List[Dict[str, Any]]:
        """``[query(p) for p in positions]``, the table reads on every core: a sequence of
        positions or a NumPy array of shape ``(n, 2m)``. A bad position raises the error of
        ``query`` with ``positions[i]:`` in front."""
    @overload
    def values(self, positions: Sequence[Position]) -> List[int]:
        """``[query(p)["value"] for p in positions]``, from one table read a position where
        the tables index it: a list for a sequence, a NumPy ``int16`` array of shape
        ``(n,)`` for an array of shape ``(n, 2m)`` of any integer type. Errors as
        ``query_many``."""
    @overload
    def values(self, positions: Any) -> Any: ...
