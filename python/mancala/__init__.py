"""Exact values and perfect play for Awari, Oware, Kalah and the other sowing games.

The engine's endgame tables and exact search, through the door its command line and web
oracle use: every dict is the JSON object the command line prints with ``--json``.

>>> import mancala
>>> oracle = mancala.Oracle("awari", dir="databases")
>>> oracle.build(16)                                  # tiers 0..16, seconds, kept on disk
>>> oracle.query("1 1 1 1 1 2 4 2 3 0 0 0")["value"]  # the published example: a draw
0

Positions are the ``2m`` pit counts seen from the side to move: its pits from its left to
its right, then the opponent's in the opponent's sowing order (a string as the command line
takes it, or a sequence of ints; a NumPy array of shape ``(n, 2m)`` for the batch calls).
A value is the net future gain of the side to move under perfect play.

``mancala.openspiel`` converts OpenSpiel's ``oware`` and ``mancala`` states and plays them
perfectly (it needs ``open_spiel``).
"""

from ._mancala import MancalaError, Oracle, TablesMissing, play, variants

__all__ = ["MancalaError", "Oracle", "TablesMissing", "play", "variants"]
