"""The repository's scripts that drive the command line, run as a user runs them."""

import json
import os
import pathlib
import subprocess
import sys

from test_oracle import cli, run_json

SCRIPTS = pathlib.Path(__file__).resolve().parents[2] / "scripts"
START = "3 3 3 3 3 3 3 3 3 3 3 3"
# The opponent's position after line 4-1 of Kalah 6x3 (pit 4 ends in the store, then pit 1).
AFTER_4_1 = "3 3 0 3 3 3 0 4 4 0 4 4"


def first_moves(tables, t, journal, binary=None, rules=("--seeds", "3"), status=0):
    """`scripts/kalah-first-moves.py` on Kalah (6x3 unless told): its printed lines."""
    out = subprocess.run(
        [sys.executable, str(SCRIPTS / "kalah-first-moves.py"), binary or cli(), str(tables),
         t, str(journal), "--", "kalah", *rules, "-q"],
        capture_output=True, text=True,
    )
    assert out.returncode == status, out.stdout + out.stderr
    return out.stdout.splitlines()


def verdict(name, words):
    return f"{name:>8}: {words}"


def cli_except(path, pattern, body):
    """A binary at `path` that runs the shell `body` when its arguments match the `case`
    pattern `pattern`, and is the command line's binary otherwise."""
    path.write_text(f'#!/bin/sh\ncase "$*" in {pattern}) {body} ;; esac\n'
                    f'exec "{pathlib.Path(cli()).resolve()}" "$@"\n')
    path.chmod(0o755)
    return str(path)


def test_first_move_values_agree_with_the_exact_query(kalah_tables, tmp_path):
    # Independent of the script's questions (one null-window proof per line of play, the
    # lines of an extra move apart): the root's exact classification of every move.
    exact = run_json("query", "kalah", "--seeds", "3", START, "--exact", "--dir",
                     str(kalah_tables), "--json", "-q")
    values = [m["value"] for m in sorted(exact["moves"], key=lambda m: m["pit"])]
    assert exact["value"] == 2 and max(values) == 2 and len(values) == 6
    # Pit 4 ends in the store: its value is the best of five lines, worth different amounts.
    assert values[3] == -2
    journal = tmp_path / "journal.jsonl"
    claims = ",".join(f"{v:+}" for v in values)
    out = first_moves(kalah_tables, claims, journal)
    for pit, v in enumerate(values, start=1):
        assert verdict(str(pit), f"worth exactly {v:+}") in out
    assert out[-1] == "6 of 6 claimed values proven"

    # Claims one off either way are refuted; '-' skips a move; a line of play by its name.
    off = [f"{v + 1:+}" if pit == 5 else f"{v - 1:+}" if pit == 1 else "-"
           for pit, v in enumerate(values, start=1)]
    out = first_moves(kalah_tables, ",".join(off), journal)
    assert verdict("1", f"worth more than {values[0] - 1:+}") in out
    assert verdict("5", f"worth less than {values[4] + 1:+}") in out
    assert not any(line.startswith(" " * 7 + "2") for line in out)
    assert out[-1] == "0 of 2 claimed values proven"
    out = first_moves(kalah_tables, "4=-1,4-5=-2,4-1=-2", journal)
    # Every line of pit 4 is shown below -1, line 4-5 exactly -2, line 4-1 below it.
    assert verdict("4", "worth less than -1") in out
    assert verdict("4-5", "worth exactly -2") in out
    assert verdict("4-1", "worth less than -2") in out
    assert out[-1] == "1 of 3 claimed values proven"

    # The bound on the start, from the same journal: the value and one below it.
    assert first_moves(kalah_tables, "2", journal)[-1] == (
        "the start is worth at most +2: every one of 10 lines proven")
    assert first_moves(kalah_tables, "1", journal)[-1] == "the start is worth more than +1"
    rows = [json.loads(r) for r in journal.read_text().splitlines()]
    # Every question asked once: the journal answered the repeated ones.
    assert len({(r["position"], r["at_least"]) for r in rows}) == len(rows)
    assert {r["rules"] for r in rows} == {"kalah --seeds 3"}
    # The journal's answers are not taken for another game's.
    other = tmp_path / "other.jsonl"
    other.write_text("".join(json.dumps(dict(r, rules="kalah --seeds 3 --empty-capture")) + "\n"
                             for r in rows))
    out = first_moves(kalah_tables, "2", other)
    assert "(journal)" not in "\n".join(out) and "after its moves" not in "\n".join(out)
    assert out[-1].startswith("the start is worth at most")


def test_first_moves_with_lines_that_end_the_game(kalah_tables, tmp_path):
    # Kalah with 2 pits and 2 seeds: line 1-2 ends the game (worth -4), move 2 is best (-2).
    rules = ("--pits", "2", "--seeds", "2")
    exact = run_json("query", "kalah", *rules, "2 2 2 2", "--exact", "--dir", str(kalah_tables),
                     "--json", "-q")
    assert [m["value"] for m in sorted(exact["moves"], key=lambda m: m["pit"])] == [-4, -2]
    out = first_moves(kalah_tables, "-4,-2", tmp_path / "j.jsonl", rules=rules)
    assert verdict("1-2", "game over, worth -4: at most -4") in out
    assert verdict("1", "worth exactly -4") in out and verdict("2", "worth exactly -2") in out


def test_first_moves_when_a_question_is_left_open_or_fails(kalah_tables, tmp_path):
    # A binary that answers every question but one as the real one does: for the position
    # after line 4-1 it either runs out of time (no answer) or fails.
    def wrapper(name, body):
        return cli_except(tmp_path / name, f'"solve "*"{AFTER_4_1}"*', body)

    open_one = wrapper("timeout.sh", 'echo \'{"answer": null, "bounds": [-36, 36], "nodes": 7, '
                                     '"seconds": 0.0}\'; exit 0')
    failing = wrapper("fails.sh", "echo 'error: a table file is damaged' >&2; exit 1")
    # Pit 4 is worth -2: claimed -3, the open line 4-1 does not keep the others from
    # refuting it; claimed -2, its "at most" is left open by 4-1.
    out = first_moves(kalah_tables, "4=-3", tmp_path / "a.jsonl", binary=open_one)
    # The open question is printed ready to be asked alone (the POSITION T form): line 4-1
    # hands the turn over with the stores 5 apart (the extra move's seed, then a capture of
    # 3 + 1), so "at most -3" asks whether the opponent reaches 5 - (-3) = +8.
    assert verdict("4-1", "at most -3? not settled (0.0 s, 7 nodes; bounds [-36, 36]); its "
                          f"question: the opponent's {AFTER_4_1} at least +8? (yes: at most -3)"
                   ) in out
    assert verdict("4", "worth more than -3") in out
    out = first_moves(kalah_tables, "4=-2", tmp_path / "b.jsonl", binary=open_one, status=1)
    assert verdict("4", "worth at least -2; at most -2 not settled") in out
    out = first_moves(kalah_tables, "4=-2,5=+2", tmp_path / "c.jsonl", binary=failing, status=1)
    assert verdict("4-1", "mancala solve failed (its error is above)") in out
    assert verdict("4", "not settled") in out
    assert out[-1] == "0 of 2 claimed values proven"
    out = first_moves(kalah_tables, "2", tmp_path / "d.jsonl", binary=failing, status=1)
    assert out[-1].startswith("not settled: 3 of 10 lines proven at most +2")


def test_first_moves_stopped_by_ctrl_c_while_a_move_is_played(tmp_path):
    # Ctrl-C reaches the whole process group. A binary that sends it while the script plays
    # a position's moves (before any question is asked) stops the script with 130, as a
    # Ctrl-C during a question does, not as a failed command (1).
    binary = cli_except(tmp_path / "ctrl-c.sh", '"play "*"--position"*', "kill -INT 0; sleep 1")
    out = subprocess.run(
        [sys.executable, str(SCRIPTS / "kalah-first-moves.py"), binary, str(tmp_path),
         START, "2", str(tmp_path / "j.jsonl"), "--", "kalah", "--seeds", "3", "-q"],
        capture_output=True, text=True, start_new_session=True,
    )
    assert out.returncode == 130, out.stdout + out.stderr
    assert out.stdout.splitlines() == [
        "stopped by Ctrl-C; the answers so far are in the journal"]


def test_first_moves_into_a_pipe_closed_early(kalah_tables, tmp_path):
    # A reader that has gone (`... | head`): the first line printed meets a closed pipe. The
    # script stops with SIGPIPE's status and no traceback, and the answer it had before it
    # printed is in the journal.
    journal = tmp_path / "journal.jsonl"
    read, write = os.pipe()
    os.close(read)
    try:
        out = subprocess.run(
            [sys.executable, str(SCRIPTS / "kalah-first-moves.py"), cli(), str(kalah_tables),
             START, "2", str(journal), "--", "kalah", "--seeds", "3", "-q"],
            stdout=write, stderr=subprocess.PIPE, text=True,
        )
    finally:
        os.close(write)
    assert (out.returncode, out.stderr) == (141, "")
    rows = [json.loads(line) for line in journal.read_text().splitlines()]
    assert [(r["position"], r["at_least"], r["answer"]) for r in rows] == [(START, 2, True)]


def test_first_moves_refuses_a_game_of_other_rules(tmp_path):
    # Its lines and game ends are Kalah's: Awari is refused before anything is played.
    out = subprocess.run(
        [sys.executable, str(SCRIPTS / "kalah-first-moves.py"), "no-such-binary", str(tmp_path),
         "0", str(tmp_path / "j.jsonl"), "--", "awari", "--seeds", "3"],
        capture_output=True, text=True,
    )
    assert out.returncode == 1
    assert out.stderr.startswith("'awari': this script proves values under Kalah's rules only")
    assert not (tmp_path / "j.jsonl").exists()


def test_answers_derived_from_the_positions_after_the_moves(kalah_tables, tmp_path):
    # A journal that holds only the exact values of the positions two moves after the start
    # of Kalah 6x3 (from `query --exact`, independent of the script) settles the start's
    # questions without a search: the start at least +2 (its value) and not at least +3, and
    # the start at most +2 line by line. A binary that refuses to solve shows none is asked.
    rules = ("--seeds", "3")

    def after(position, pit):
        state = run_json("play", "kalah", *rules, "--position", position, "--moves",
                         str(pit), "--json")
        m = len(state["pits"]) // 2
        if state["over"]:
            return None
        pits = state["pits"] if state["to_move"] == "south" else state["pits"][m:] + state["pits"][:m]
        return " ".join(map(str, pits))

    def moves(position):
        return run_json("play", "kalah", *rules, "--position", position, "--json")["legal"]

    rows = {}
    for pit in moves(START):
        child = after(START, pit)
        rows[pit] = []
        for reply in moves(child) if child else []:
            grandchild = after(child, reply)
            if grandchild:
                v = run_json("query", "kalah", *rules, grandchild, "--exact", "--dir",
                             str(kalah_tables), "--json", "-q")["value"]
                rows[pit].append({"position": grandchild, "at_least": v, "answer": True,
                                  "bounds": [v, v], "rules": "kalah --seeds 3", "line": "t"})
    journal = tmp_path / "journal.jsonl"

    def keep(pits):
        journal.write_text("".join(json.dumps(r) + "\n" for p in pits for r in rows[p]))

    keep(rows)
    no_solve = tmp_path / "no-solve.sh"
    no_solve.write_text('#!/bin/sh\ncase "$1" in solve) echo "asked to solve" >&2; exit 1 ;; '
                        f'esac\nexec "{pathlib.Path(cli()).resolve()}" "$@"\n')
    no_solve.chmod(0o755)

    def ask(t, status=0):
        out = subprocess.run(
            [sys.executable, str(SCRIPTS / "kalah-first-moves.py"), str(no_solve),
             str(kalah_tables), START, str(t), str(journal), "--", "kalah", *rules, "-q"],
            capture_output=True, text=True,
        )
        assert out.returncode == status, out.stdout + out.stderr
        return out.stdout.splitlines()

    derived = "(from the positions after its moves)"
    assert ask(2) == [f"{START} at least +2? yes {derived}"]
    assert ask(3) == [f"{START} at least +3? no {derived}"]
    assert first_moves(kalah_tables, "2", journal, binary=str(no_solve))[-1] == (
        "the start is worth at most +2: every one of 10 lines proven")
    # Derived answers are journalled, so a split can go a level deeper.
    start_rows = [r for r in map(json.loads, journal.read_text().splitlines())
                  if r["position"] == START]
    assert [(r["at_least"], r["answer"], r["derived"]) for r in start_rows] == [
        (2, True, derived[1:-1]), (3, False, derived[1:-1])]
    journal.write_text("".join(json.dumps(r) + "\n" for r in start_rows))
    assert ask(2) == [f"{START} at least +2? yes (journal)"]
    # Pit 4 ends in the store and is worth -2 (the test above): with the rows under it
    # alone, the start is at least -2 by it, and "at least -1" stays open (the other moves
    # unknown), so it is asked.
    keep([3])
    assert ask(-2) == [f"{START} at least -2? yes {derived}"]
    assert ask(-1, status=1)[-1] == verdict("asked", "mancala solve failed (its error is above)")
    # Without the journal the question is asked (and here refused).
    journal.write_text("")
    assert ask(2, status=1)[-1] == verdict("asked", "mancala solve failed (its error is above)")
    # A row proves bounds on its position: answers at other thresholds follow from it.
    journal.write_text(json.dumps({"position": START, "at_least": 3, "answer": False,
                                   "bounds": [-36, 2], "rules": "kalah --seeds 3"}) + "\n")
    assert ask(5) == [f"{START} at least +5? no (journal)"]
    assert ask(-36) == [f"{START} at least -36? yes (journal)"]
    assert ask(2, status=1)[-1].endswith("mancala solve failed (its error is above)")


def test_a_question_asked_by_position_carries_the_name_given(kalah_tables, tmp_path):
    # The value from `query --exact`, independent of the script; the question at that value
    # is a yes, journalled under the name given instead of "asked".
    exact = run_json("query", "kalah", "--seeds", "3", AFTER_4_1, "--exact", "--dir",
                     str(kalah_tables), "--json", "-q")
    v = exact["value"]
    journal = tmp_path / "j.jsonl"

    def run(*args, status=0):
        """The script with ARGS between the tables and `--`."""
        out = subprocess.run(
            [sys.executable, str(SCRIPTS / "kalah-first-moves.py"), cli(), str(kalah_tables),
             *args, "--", "kalah", "--seeds", "3", "-q"],
            capture_output=True, text=True,
        )
        assert out.returncode == status, out.stdout + out.stderr
        return out

    out = run(AFTER_4_1, str(v), str(journal), "--line", "4,1")
    assert out.stdout.splitlines()[-1].startswith(f"{AFTER_4_1} at least {v:+}? yes (")
    rows = [json.loads(r) for r in journal.read_text().splitlines()]
    assert [(r["line"], r["at_least"], r["answer"]) for r in rows] == [("4,1", v, True)]
    # A name needs a value, and names one question only.
    out = run(AFTER_4_1, str(v), str(journal), "--line", status=1)
    assert "--line needs a name" in out.stderr
    out = run("2", str(journal), "--line", "x", status=1)
    assert "goes with the POSITION T form only" in out.stderr
    assert len(journal.read_text().splitlines()) == 1


def test_the_kept_6x6_journal_proves_every_published_value(tmp_path):
    # docs/kalah-6x6-ec-first-moves.jsonl holds the answers of the hours-long 6x6 questions
    # (docs/results.md). From it alone, with no search (a binary that refuses every `solve`),
    # the script proves each value Rawlings published for Kalah 6x6 with empty capture: the
    # six first moves, pit 1's five follow-ups, and both halves of the start's +2.
    binary = cli_except(tmp_path / "no-search.sh", '"solve "*', 'echo "no search here" >&2; exit 1')
    kept = SCRIPTS.parent / "docs" / "kalah-6x6-ec-first-moves.jsonl"
    journal = tmp_path / "journal.jsonl"
    journal.write_bytes(kept.read_bytes())
    rules = ("--seeds", "6", "--empty-capture", "--tables", "31")
    claims = "1-2=+2,1-3=+2,1-4=0,1-5=0,1-6=0,2=+2,3=0,4=0,5=0,6=-2"
    out = first_moves(tmp_path, claims, journal, binary=binary, rules=rules)
    for claim in claims.split(","):
        name, v = claim.split("=")
        assert verdict(name, f"worth exactly {int(v):+d}") in out, name
    assert out[-1] == "10 of 10 claimed values proven"
    out = first_moves(tmp_path, "+2,+2,0,0,0,-2", journal, binary=binary, rules=rules)
    assert out[-1] == "6 of 6 claimed values proven"
    # The start is worth at most +2 (every line), and pit 1, a move of it, exactly +2.
    out = first_moves(tmp_path, "2", journal, binary=binary, rules=rules)
    assert out[-1] == "the start is worth at most +2: every one of 10 lines proven"
    # A claim the journal refutes is not proven: pit 6 is not worth -1 (the opponent's
    # position after it reaches +3).
    out = first_moves(tmp_path, "6=-1", journal, binary=binary, rules=rules)
    assert verdict("6", "worth less than -1") in out
