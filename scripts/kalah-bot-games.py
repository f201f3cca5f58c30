#!/usr/bin/env python3
"""How long the Python PerfectBot takes a move over whole Kalah 6x4 games: the games of the
slow test in python/tests/test_openspiel.py (the bot against OpenSpiel's uniform random
player, 20 games, the bot first in the even ones), with each of the bot's moves timed. The
bot's move (`PerfectBot.step`, one `solve`) is timed apart from the test's check of it (a
`query` of the same position, which proves every move's exact value and costs more).

    python scripts/kalah-bot-games.py DIR [--games 20]

DIR holds Kalah tables of 6 pits (`mancala build kalah --max-seeds 28 --dir DIR`: 5.6 GB,
about 5 minutes here). Needs the package installed (`pip install .`) and open_spiel. Prints
each game's promised and final margin, then the median, 90th percentile and slowest move and
the slowest positions, for the bot's moves and for the checks (docs/performance.md has the
figures).
"""

import argparse
import pathlib
import random
import sys
import time

import pyspiel

import mancala
from mancala.openspiel import PerfectBot

# The games are the slow test's own.
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "python" / "tests"))
import test_openspiel  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("dir", help="folder with Kalah tables of 6 pits")
    ap.add_argument("--games", type=int, default=20)
    args = ap.parse_args()

    bot = PerfectBot(pyspiel.load_game("mancala"), mancala.Oracle("mancala", args.dir), seed=7)
    moves = []  # (seconds, position) of each bot move
    checks = []  # (seconds, position) of each check: the test's step less the bot's move
    step = test_openspiel.bot_step
    bot_move = bot.step

    def timed_move(state):
        t = time.perf_counter()
        action = bot_move(state)
        moves.append((time.perf_counter() - t, bot.last["position"]))
        return action

    def timed_step(b, state):
        t = time.perf_counter()
        action = step(b, state)
        checks.append((time.perf_counter() - t - moves[-1][0], b.last["position"]))
        return action

    bot.step = timed_move
    test_openspiel.bot_step = timed_step
    started = time.perf_counter()
    for n in range(args.games):
        promised, margin, result = test_openspiel.kalah_game(bot, random.Random(n), n % 2, 48)
        print(f"game {n}: promised {promised}, margin {margin:+.0f}, result {result:+.0f}")
        assert margin >= promised and result >= 0
    print(f"{len(moves)} bot moves in {time.perf_counter() - started:.1f} s, checks included")
    for name, times in (("bot moves (solve)", moves), ("checks (query)", checks)):
        took = sorted(t for t, _ in times)
        print(
            f"{name}: median {took[len(took) // 2]:.3f} s, 90th percentile "
            f"{took[len(took) * 9 // 10]:.3f} s, slowest {took[-1]:.3f} s"
        )
        for t, position in sorted(times, reverse=True)[:5]:
            print(f"  {t:.2f} s  {' '.join(map(str, position))}")


if __name__ == "__main__":
    main()
