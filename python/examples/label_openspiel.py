#!/usr/bin/env python3
"""Label OpenSpiel positions with their exact values: training data for a value network.

    python python/examples/label_openspiel.py [--game oware] [--houses 4] [--seeds 3]
        [--games 300] [--dir databases] [--out labels.npz]

Plays random games of OpenSpiel's ``oware`` (or ``mancala``: Kalah 6x4), keeps every state
that is not over, and labels each with this engine's exact values: the net future gain of
the player to move (``value``), the final margin under perfect play from there (``margin``:
the stores' difference so far plus the value) and OpenSpiel's actions that achieve it
(``best``, a mask over the actions). The tables are built into ``--dir`` first when missing:
the whole game for a small oware board (4 houses of 3 seeds: 2 seconds), 20 seeds for Kalah
6x4 (about 20 seconds, 225 MB), whose states of more seeds than ``--max-seeds`` (default the
tables' size) are left out (each would be a search of seconds).

Writes ``--out`` (NumPy ``.npz``): ``observations`` (OpenSpiel's observation tensors of player
0), ``positions`` (the engine's, the player to move's pits first), ``players``, ``values``,
``margins`` and ``best``; and prints how many states it labelled and how fast.
"""

import argparse
import random
import time

import numpy as np
import pyspiel

import mancala
from mancala.openspiel import convert, to_action, variant_of


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--game", choices=["oware", "mancala"], default="oware")
    p.add_argument("--houses", type=int, default=4, help="oware: houses a player")
    p.add_argument("--seeds", type=int, default=3, help="oware: seeds a house")
    p.add_argument("--games", type=int, default=300)
    p.add_argument("--max-seeds", type=int, default=None)
    p.add_argument("--dir", default="databases")
    p.add_argument("--out", default="labels.npz")
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args()

    if args.game == "oware":
        params = {"num_houses_per_player": args.houses, "num_seeds_per_house": args.seeds}
        game = pyspiel.load_game("oware", params)
    else:
        game = pyspiel.load_game("mancala")
    variant, options = variant_of(game)
    oracle = mancala.Oracle(variant, args.dir, pits=options["pits"], seeds=options["seeds"])
    total = 2 * options["pits"] * options["seeds"]
    tables = total if variant == "oware" else 20
    if (oracle.tables_up_to or 0) < tables:
        print(f"building the {oracle.key} tables up to {tables} seeds in {args.dir} ...")
        oracle.build(tables)
    most = args.max_seeds if args.max_seeds is not None else (oracle.tables_up_to or 0)

    rng = random.Random(args.seed)
    states = []
    for _ in range(args.games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if sum(convert(state).position) <= most:
                states.append(state.clone())
            state.apply_action(rng.choice(state.legal_actions()))
    converted = [convert(s) for s in states]
    positions = np.array([c.position for c in converted], dtype=np.int8)

    started = time.perf_counter()
    values = oracle.values(positions)
    answers = oracle.query_many(positions)
    seconds = time.perf_counter() - started

    players = np.array([s.current_player() for s in states], dtype=np.int8)
    stores = np.array([c.stores for c in converted], dtype=np.int16)
    lead = np.where(players == 0, stores[:, 0] - stores[:, 1], stores[:, 1] - stores[:, 0])
    best = np.zeros((len(states), game.num_distinct_actions()), dtype=bool)
    for i, (s, a) in enumerate(zip(states, answers)):
        assert a["value"] == values[i]
        best[i, [to_action(s, pit) for pit in a["best"]]] = True
    np.savez_compressed(
        args.out,
        observations=np.array([s.observation_tensor(0) for s in states], dtype=np.float32),
        positions=positions,
        players=players,
        values=values,
        margins=lead + values,
        best=best,
    )
    wins = int((lead + values > 0).sum())
    print(
        f"{len(states)} states of {args.games} random games of {game} labelled in "
        f"{seconds:.3f} s ({len(states) / seconds:,.0f} a second, values and best moves); "
        f"the player to move wins {wins} of them with perfect play; written to {args.out}"
    )


if __name__ == "__main__":
    main()
