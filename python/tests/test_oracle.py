"""The package's oracle against the published figures, the batch calls against single
queries, the answers against the command line's, and every bad input's exception."""

import gc
import json
import os
import random
import shutil
import signal
import subprocess
import threading
import time

import pytest

import mancala
from conftest import AWARI_TABLES, arising_position, random_position

VU_EXAMPLE = "1 1 1 1 1 2 4 2 3 0 0 0"


def test_the_published_example_position(awari):
    a = awari.query(VU_EXAMPLE)
    # The VU Awari database's worked example: a draw, moves 0..5 worth -1 -1 -2 -2 -2 0.
    assert a["value"] == 0
    assert [m["value"] for m in a["moves"]] == [-1, -1, -2, -2, -2, 0]
    assert [m["pit"] for m in a["moves"]] == [0, 1, 2, 3, 4, 5]
    assert a["best"] == [5]
    assert a["seeds"] == 16 and a["source"] == "table"
    # The same position as a sequence of ints.
    assert awari.query([int(x) for x in VU_EXAMPLE.split()]) == a


def test_at_least_answers_as_the_command_line(awari, kalah_tables):
    # From the tables: the published example is worth 0, its moves -1 -1 -2 -2 -2 0.
    assert awari.solve(VU_EXAMPLE, at_least=0)["answer"] is True
    assert awari.solve(VU_EXAMPLE, at_least=0)["best"] == [5]
    assert awari.solve(VU_EXAMPLE, at_least=-1)["best"] == [0, 1, 5]
    assert awari.solve(VU_EXAMPLE, at_least=1)["answer"] is False
    # By search over 6x3's tables: +2 is reached, +3 is not; the same as the command line.
    oracle = mancala.Oracle("kalah", kalah_tables, seeds=3)
    for t, answer in [(2, True), (3, False)]:
        s = oracle.solve(at_least=t)
        c = run_json(
            "solve", "kalah", "--seeds", "3", "--dir", str(kalah_tables),
            "--at-least", str(t), "--json", "-q",
        )
        assert s["answer"] is answer and s["at_least"] == t
        assert (s["bounds"][0] >= t) if answer else (s["bounds"][1] < t)
        # The bounds a search proves beyond the question may differ from run to run on two
        # threads; the answer and the moves proven to reach the threshold may not.
        keys = ("answer", "at_least", "best", "tables")
        assert {k: s[k] for k in keys} == {k: c[k] for k in keys}
        assert s["best"] == ([4] if answer else [])


def test_kalah_6x3_is_worth_two(kalah_tables):
    oracle = mancala.Oracle("kalah", kalah_tables, seeds=3)
    s = oracle.solve()
    # Published: the first player wins 6x3 Kalah by 2.
    assert s["value"] == 2 and s["bounds"] == [2, 2]
    assert s["tables"] == oracle.tables_up_to
    # The principal variation, played out by the rules, ends the game 2 seeds up.
    g = mancala.play("kalah", seeds=3, moves=s["pv"])
    assert g["over"]
    assert g["stores"][0] - g["stores"][1] == 2
    assert s["best"] == oracle.query(oracle_start(oracle))["best"]


def oracle_start(oracle):
    return [3] * (2 * oracle.pits)


def same_answer(a, b):
    """Equal answers; above the tables, a move that is not best may be bounded differently
    by two searches (the second remembers the first), as long as both bounds hold."""
    if a["source"] == "table":
        return a == b
    if any(a[k] != b[k] for k in ("value", "best", "seeds", "source")):
        return False
    for x, y in zip(a["moves"], b["moves"]):
        lo = max(move_bounds(x)[0], move_bounds(y)[0])
        hi = min(move_bounds(x)[1], move_bounds(y)[1])
        if x["pit"] != y["pit"] or lo > hi:
            return False
    return len(a["moves"]) == len(b["moves"])


def move_bounds(m):
    """A move's proven interval: its exact value twice, or the bounds a search gave."""
    return (m["value"], m["value"]) if m["value"] is not None else tuple(m["bounds"])


def batch_matches_single_queries(oracle, positions):
    singles = [oracle.query(p) for p in positions]
    batch = oracle.query_many(positions)
    assert len(batch) == len(singles)
    assert all(same_answer(a, b) for a, b in zip(batch, singles))
    assert gc.isenabled()  # paused while the answers were made, and running again
    assert oracle.values(positions) == [a["value"] for a in singles]
    # Every answer agrees with its own moves: the best are exact, the others below.
    for a in singles:
        if a["moves"]:
            assert a["value"] == max(move_bounds(m)[1] for m in a["moves"])
            assert a["best"] == [m["pit"] for m in a["moves"] if m["value"] == a["value"]]
            for m in a["moves"]:
                assert m["value"] is not None or m["bounds"][1] < a["value"]
    return singles


def test_batches_equal_single_queries_awari(awari):
    rng = random.Random(33)
    positions = [arising_position(rng, 6, rng.randint(0, AWARI_TABLES)) for _ in range(3000)]
    # Finished positions (the mover has no seed) and one no game reaches (the opponent's
    # row full: not in the tables, searched over them).
    positions += [[0] * 6 + [1, 2, 0, 0, 3, 1], [0] * 12, [1, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1]]
    singles = batch_matches_single_queries(awari, positions)
    assert {a["source"] for a in singles} == {"table", "search"}
    # No seed to move: the opponent takes the seeds left.
    assert [a["value"] for a in singles[-3:]] == [-7, 0, -7]


def test_batches_equal_single_queries_kalah(kalah_tables):
    oracle = mancala.Oracle("mancala", kalah_tables)
    rng = random.Random(6)
    positions = [random_position(rng, 6, rng.randint(0, 20)) for _ in range(3000)]
    # An empty row: the game is over, each side takes its own row.
    positions += [[0] * 6 + [1, 2, 0, 0, 3, 1], [2, 0, 0, 0, 0, 1] + [0] * 6]
    positions += [random_position(rng, 6, 23) for _ in range(3)]
    singles = batch_matches_single_queries(oracle, positions)
    assert singles[-5]["value"] == -7 and singles[-4]["value"] == 3
    assert singles[-1]["source"] == "search"
    # exact=True: every move's exact value, inside the bounds the plain query gave.
    for p, a in zip(positions[-3:], singles[-3:]):
        e = oracle.query(p, exact=True)
        assert (e["value"], e["best"]) == (a["value"], a["best"])
        for m, x in zip(a["moves"], e["moves"]):
            lo, hi = move_bounds(m)
            assert x["value"] is not None and lo <= x["value"] <= hi


def test_numpy_in_numpy_out(awari):
    np = pytest.importorskip("numpy")
    rng = random.Random(7)
    rows = [arising_position(rng, 6, rng.randint(0, AWARI_TABLES)) for _ in range(5000)]
    expected = awari.values(rows)
    for dtype in (np.int64, np.int32, np.uint8, np.int8):
        array = np.array(rows, dtype=dtype)
        got = awari.values(array)
        assert isinstance(got, np.ndarray) and got.dtype == np.int16 and got.shape == (5000,)
        assert got.tolist() == expected
    # Not contiguous: every other row of a bigger array.
    assert awari.values(np.array(rows[:100] + rows[:100])[::2]).tolist() == awari.values((rows[:100] + rows[:100])[::2])
    assert awari.query_many(np.array(rows[:50])) == [awari.query(r) for r in rows[:50]]
    assert awari.values(np.zeros((0, 12), dtype=np.int64)).shape == (0,)


def test_play_is_the_rules(awari):
    g = mancala.play("awari", moves=[0, 3, 5])
    assert g["to_move"] == "north" and g["stores"] == [0, 0] and not g["over"]
    assert sum(g["pits"]) == 48
    assert mancala.play("awari", moves="0,3,5") == g == mancala.play("awari", moves=["a", "d", "f"])
    k = mancala.play("kalah", seeds=4, position="4 4 4 4 4 4 4 4 4 4 4 4", moves=[2, 5])
    # Pit 2's four seeds end in the store (another move), pit 5's five sow one into it.
    assert k["stores"] == [2, 0] and k["to_move"] == "north"
    names = {v["name"] for v in mancala.variants()}
    assert {"awari", "oware", "wari", "kalah", "mancala"} <= names


def cli():
    """The command line's binary, if the tests were given it (`MANCALA_BIN`)."""
    path = os.environ.get("MANCALA_BIN")
    if not path:
        pytest.skip("MANCALA_BIN names no binary: the answers are not compared with the command line's")
    return path


def run_json(*args):
    out = subprocess.run([cli(), *args], check=True, capture_output=True, text=True).stdout
    return json.loads(out)


def test_answers_are_the_command_lines(awari, kalah_tables, tables_dir):
    rng = random.Random(1)
    positions = [arising_position(rng, 6, rng.randint(1, AWARI_TABLES)) for _ in range(5)]
    # One no game reaches (the row of the side that just moved full), and a finished one.
    positions += [[1, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1], [0] * 6 + [1, 2, 0, 0, 3, 1]]
    for counts in positions:
        p = " ".join(map(str, counts))
        expected = run_json("query", "awari", p, "--dir", str(tables_dir), "--json")
        assert awari.query(p) == expected
        assert awari.query_many([p]) == [expected]
    s = mancala.Oracle("kalah", kalah_tables, seeds=3).solve()
    t = run_json("solve", "kalah", "--seeds", "3", "--dir", str(kalah_tables), "--json", "-q")
    for d in (s, t):
        del d["seconds"], d["nodes"], d["expanded"]
    assert s == t
    assert mancala.play("kalah", seeds=4, moves=[2, 5]) == run_json(
        "play", "kalah", "--seeds", "4", "--moves", "2,5", "--json"
    )
    assert mancala.variants() == [
        v for v in run_json("variants", "--json") if v["name"] in {w["name"] for w in mancala.variants()}
    ]


def test_bad_inputs_raise_the_documented_exceptions(awari, tables_dir, tmp_path):
    bad_values = [
        lambda: mancala.play("nonesuch"),
        lambda: mancala.play("awari", pits=0),
        lambda: mancala.play("awari", seeds=-3),
        lambda: mancala.play("awari", pits=9),
        lambda: mancala.play("awari", moves=[7]),
        lambda: mancala.play("awari", moves=[-1]),
        lambda: mancala.play("awari", moves="0,0,0"),  # South's pit 0 is empty the second time
        lambda: mancala.play("awari", position="1 2 3"),
        lambda: mancala.play("awari", position=[1] * 11 + [-1]),
        lambda: mancala.play("awari", position="x " * 12),
        lambda: mancala.play("awari", position=[40] * 12),
        lambda: mancala.play("kalah", grand_slam="gs2"),
        lambda: mancala.play("wari", grand_slam="nope"),
        lambda: mancala.play("awari", rules="relay"),
        lambda: mancala.play("awari", owners="ssssssnnnnnn"),
        lambda: mancala.Oracle("awari", tables_dir, threads=0),
        lambda: mancala.Oracle("awari", tables_dir, hash_mb=0),
        lambda: mancala.Oracle("awari", tables_dir, tables=-1),
        lambda: mancala.Oracle("awari", tables_dir, tables=49),
        lambda: mancala.Oracle("awari", tables_dir / "awari-6x4" / "tier-000.mtb"),
        lambda: awari.build(49),
        lambda: awari.build(-1),
        lambda: awari.query("1 1 1"),
        lambda: awari.query([5] * 12),  # 60 seeds in a 48-seed game
        lambda: awari.query("1 1 1 1 1 2 4 2 3 0 0 0 north"),
        lambda: awari.solve(max_seconds=-1),
        lambda: awari.values([[0] * 12, [1] * 11]),
        lambda: awari.query_many(["0 " * 12, "1 " * 13]),
    ]
    for i, call in enumerate(bad_values):
        with pytest.raises(ValueError):
            call()
            pytest.fail(f"bad input #{i} was accepted")
    with pytest.raises(ValueError, match=r"positions\[1\]"):
        awari.values([[0] * 12, [1] * 11])
    for call in [
        lambda: mancala.play("awari", position=3.5),
        lambda: mancala.play("awari", moves=[1.5]),
        lambda: awari.query(None),
        lambda: awari.values([[0] * 12, 7]),
        lambda: mancala.play("awari", rules=[1]),
    ]:
        with pytest.raises(TypeError):
            call()
    with pytest.raises(ValueError, match="positions\\[1\\]"):
        awari.values([[0] * 12, "1 2"])
    # No tables: the missing tier is named.
    empty = mancala.Oracle("awari", tmp_path / "none")
    with pytest.raises(mancala.TablesMissing) as missing:
        empty.query(VU_EXAMPLE)
    assert missing.value.tier == 0 and "tier 0" in str(missing.value)
    assert isinstance(missing.value, mancala.MancalaError)
    (tmp_path / "vu").mkdir()
    with pytest.raises(mancala.TablesMissing):
        mancala.Oracle("awari", vu_dir=tmp_path / "vu").query(VU_EXAMPLE)
    with pytest.raises(ValueError):
        mancala.Oracle("awari", vu_dir=tmp_path / "vu").build(4)
    with pytest.raises(mancala.MancalaError):
        mancala.Oracle("awari", vu_dir=tmp_path / "no-such-folder")
    with pytest.raises(mancala.MancalaError):
        mancala.Oracle("kalah", vu_dir=tmp_path / "vu")  # the published files are Awari's
    # A damaged table is the engine's error, named.
    damaged = tmp_path / "damaged"
    shutil.copytree(tables_dir / "awari-6x4", damaged / "awari-6x4")
    with open(damaged / "awari-6x4" / "tier-003.mtb", "r+b") as f:
        f.write(b"garbage!")
    with pytest.raises(mancala.MancalaError, match="tier-003.mtb") as e:
        mancala.Oracle("awari", damaged)
    assert not isinstance(e.value, mancala.TablesMissing)


def test_numpy_bad_arrays(awari):
    np = pytest.importorskip("numpy")
    with pytest.raises(ValueError, match="shape"):
        awari.values(np.zeros((3, 10), dtype=np.int64))
    with pytest.raises(ValueError, match="shape"):
        awari.values(np.zeros(12, dtype=np.int64))
    with pytest.raises(TypeError):
        awari.values(np.zeros((3, 12), dtype=np.float64))
    rows = np.zeros((3, 12), dtype=np.int64)
    rows[2, 4] = -1
    with pytest.raises(ValueError, match=r"positions\[2\].*negative"):
        awari.values(rows)
    rows[2, 4] = 300
    with pytest.raises(ValueError, match=r"positions\[2\]"):
        awari.query_many(rows)


def test_a_time_limit_gives_bounds(tmp_path):
    oracle = mancala.Oracle("kalah", tmp_path, tables=0)
    s = oracle.solve(max_seconds=0.3)
    assert s["value"] is None
    lo, hi = s["bounds"]
    assert lo <= hi


def test_ctrl_c_stops_a_search(tmp_path):
    # Kalah 6x6 from the start without tables takes hours.
    oracle = mancala.Oracle("kalah", tmp_path, tables=0)
    # A process started in the background by a shell inherits SIGINT ignored, and Python then
    # leaves it ignored: Ctrl-C must be Python's KeyboardInterrupt here, however the tests run.
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    timer = threading.Timer(0.5, signal.raise_signal, (signal.SIGINT,))
    started = time.monotonic()
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            oracle.solve()
    finally:
        timer.cancel()
        signal.signal(signal.SIGINT, previous)
    assert time.monotonic() - started < 5
    # The oracle answers again afterwards.
    assert oracle.solve([0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0])["value"] == 0
