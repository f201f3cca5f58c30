#!/usr/bin/env python3
"""Throughput of the Python package's batch calls from tables in memory: `Oracle.values` on a
NumPy array and `Oracle.query_many`, on random Awari positions that a game can reach.

    python scripts/python-throughput.py [--dir D] [--max-seeds 20] [--values 4000000]
        [--answers 1000000] [--rounds 3]

Needs the package installed (`pip install .`) and NumPy. Builds the Awari tables up to
--max-seeds into --dir first if they are missing (20 seeds: about a minute, 250 MB), reads
every table once so that the figures are of tables in memory, then times each call --rounds
times on the same positions and prints the best round (the machine is shared) and the median.
Goals (docs/performance.md): values 2 M positions a second, query_many 300 thousand.
"""

import argparse
import statistics
import subprocess
import time

import numpy as np

import mancala


def positions(rng: np.random.Generator, count: int, pits: int, most: int) -> np.ndarray:
    """`count` positions of up to `most` seeds, each with an empty pit on the row of the
    side that just moved (the positions the Awari tables hold)."""
    seeds = rng.integers(0, most + 1, size=count)
    rows = np.zeros((count, 2 * pits), dtype=np.uint8)
    empty = pits + rng.integers(0, pits, size=count)
    for i in range(count):
        pit = rng.integers(0, 2 * pits - 1, size=seeds[i])
        pit += pit >= empty[i]
        rows[i] = np.bincount(pit, minlength=2 * pits)
    return rows


def timed(call, rounds: int) -> list:
    times = []
    for _ in range(rounds):
        started = time.perf_counter()
        call()
        times.append(time.perf_counter() - started)
    return times


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--dir", default="databases")
    p.add_argument("--max-seeds", type=int, default=20)
    p.add_argument("--values", type=int, default=4_000_000)
    p.add_argument("--answers", type=int, default=1_000_000)
    p.add_argument("--rounds", type=int, default=3)
    args = p.parse_args()

    oracle = mancala.Oracle("awari", args.dir)
    if (oracle.tables_up_to or 0) < args.max_seeds:
        print(f"building awari tables up to {args.max_seeds} seeds in {args.dir} ...", flush=True)
        oracle.build(args.max_seeds)
    rng = np.random.default_rng(33)
    print("making positions ...", flush=True)
    rows = positions(rng, args.values, oracle.pits, args.max_seeds)
    # Every tier read once: the timings are of tables in memory.
    oracle.values(rows)
    values = timed(lambda: oracle.values(rows), args.rounds)
    answers_rows = rows[: args.answers]
    answers = timed(lambda: oracle.query_many(answers_rows), args.rounds)
    # The same answers, one call a position (a sample: the cost of a call from Python).
    singles = rows[:100_000].tolist()
    single = timed(lambda: [oracle.query(r) for r in singles], 1)

    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True
    ).stdout.strip()
    print(f"commit {commit}, {oracle!r}")
    for name, n, times in [
        ("values (NumPy array)", len(rows), values),
        ("query_many (NumPy array)", len(answers_rows), answers),
        ("query, one call each", len(singles), single),
    ]:
        best, median = n / min(times), n / statistics.median(times)
        print(f"{name:26} {n:>10,} positions: best {best:>12,.0f}/s, median {median:>12,.0f}/s")


if __name__ == "__main__":
    main()
