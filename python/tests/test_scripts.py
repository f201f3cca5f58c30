"""The repository's scripts that drive the command line, run as a user runs them."""

import json
import pathlib
import subprocess
import sys

from test_oracle import cli, run_json

SCRIPTS = pathlib.Path(__file__).resolve().parents[2] / "scripts"
START = "3 3 3 3 3 3 3 3 3 3 3 3"


def first_moves(tables, t, journal):
    """`scripts/kalah-first-moves.py` on Kalah 6x3: its printed lines."""
    out = subprocess.run(
        [sys.executable, str(SCRIPTS / "kalah-first-moves.py"), cli(), str(tables), t,
         str(journal), "--", "kalah", "--seeds", "3", "-q"],
        check=True, capture_output=True, text=True,
    ).stdout
    return out.splitlines()


def test_first_move_values_agree_with_the_exact_query(kalah_tables, tmp_path):
    # Independent of the script's questions (one null-window proof per line of play, the
    # lines of an extra move apart): the root's exact classification of every move.
    exact = run_json("query", "kalah", "--seeds", "3", START, "--exact", "--dir",
                     str(kalah_tables), "--json", "-q")
    values = [m["value"] for m in sorted(exact["moves"], key=lambda m: m["pit"])]
    assert exact["value"] == 2 and max(values) == 2 and len(values) == 6
    journal = tmp_path / "journal.jsonl"
    claims = ",".join(f"{v:+}" for v in values)
    out = first_moves(kalah_tables, claims, journal)
    for pit, v in enumerate(values, start=1):
        assert f"  move {pit}: worth exactly {v:+}" in out
    assert out[-1] == "6 of 6 claimed first-move values proven"

    # Claims one off either way are refuted; '-' skips a move.
    off = [f"{v + 1:+}" if pit == 5 else f"{v - 1:+}" if pit == 1 else "-"
           for pit, v in enumerate(values, start=1)]
    out = first_moves(kalah_tables, ",".join(off), journal)
    assert f"  move 1: worth more than {values[0] - 1:+}" in out
    assert f"  move 5: worth less than {values[4] + 1:+}" in out
    assert not any(line.startswith("  move 2") for line in out)
    assert out[-1] == "0 of 2 claimed first-move values proven"

    # The bound on the start, from the same journal: the value and one below it.
    assert first_moves(kalah_tables, "2", journal)[-1] == (
        "the start is worth at most +2: every one of 10 lines proven")
    assert first_moves(kalah_tables, "1", journal)[-1] == "the start is worth more than +1"
    rows = [json.loads(r) for r in journal.read_text().splitlines()]
    # Every question asked once: the journal answered the repeated ones.
    assert len({(r["position"], r["at_least"]) for r in rows}) == len(rows)
