"""Shared tables for the tests: built once a session into a temporary folder (or into
$MANCALA_TEST_TABLES, kept between runs), each in seconds."""

import os
import pathlib
import random

import pytest

import mancala

# Kalah type, 6 pits: the default size for 6x4 (48 seeds), which the 6x3 solve uses too.
KALAH_TABLES = 20
# Awari: the published example position has 16 seeds.
AWARI_TABLES = 16


@pytest.fixture(scope="session")
def tables_dir(tmp_path_factory) -> pathlib.Path:
    given = os.environ.get("MANCALA_TEST_TABLES")
    if given:
        path = pathlib.Path(given)
        path.mkdir(parents=True, exist_ok=True)
        return path
    return tmp_path_factory.mktemp("tables")


@pytest.fixture(scope="session")
def awari(tables_dir) -> mancala.Oracle:
    oracle = mancala.Oracle("awari", tables_dir)
    oracle.build(AWARI_TABLES)
    return oracle


@pytest.fixture(scope="session")
def kalah_tables(tables_dir) -> pathlib.Path:
    """Kalah-type tables of 6 pits (every seed count shares them) up to 20 seeds."""
    mancala.Oracle("mancala", tables_dir).build(KALAH_TABLES)
    return tables_dir


def random_position(rng: random.Random, pits: int, seeds: int) -> list:
    """`seeds` seeds dropped at random into the 2 * `pits` pits."""
    counts = [0] * (2 * pits)
    for _ in range(seeds):
        counts[rng.randrange(2 * pits)] += 1
    return counts


def arising_position(rng: random.Random, pits: int, seeds: int) -> list:
    """An Awari-type position a game can reach: the side that just moved (the opponent of
    the side to move) emptied the pit it sowed from. (The search of positions no game
    reaches, over complete tables, can take seconds each.)"""
    counts = [0] * (2 * pits)
    empty = pits + rng.randrange(pits)
    for _ in range(seeds):
        i = rng.randrange(2 * pits - 1)
        counts[i if i < empty else i + 1] += 1
    return counts
