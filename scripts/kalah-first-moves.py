#!/usr/bin/env python3
"""Proves "the value of a Kalah start is at most T" one first move at a time, resumably; or
proves each first move's claimed value.

Usage: scripts/kalah-first-moves.py MANCALA DIR T JOURNAL [-- OPTION...]
       scripts/kalah-first-moves.py MANCALA DIR V1,V2,...,Vm JOURNAL [-- OPTION...]

The start is worth at most T exactly when every first move is. A first move whose last seed
falls into the store gives the mover another move, so it stands for each of its follow-ups
(recursively); every other line of play hands the turn over with the stores at some
difference g, and is worth at most T exactly when the opponent's position after it is worth
at least g - T to the opponent. Each of those is one `mancala solve P --at-least g-T`
question over the tables in DIR: a refutation split into independent questions, each a few
minutes to hours, instead of one question whose progress cannot be seen or kept.

Each question's progress (and, with --hash-file, each save) goes to standard error as
`mancala solve` prints it; add -q to the options for none. Each answer is appended to JOURNAL
(JSON lines) as soon as it comes; a later run with the same journal skips the questions
already settled, so a proof can be carried on over several sessions. Ctrl-C stops the question
under way the way it stops `mancala solve` (its table saved first, with --hash-file) and then
the script; it is asked again next time, from nothing, or with `--hash-file F` among the
options from the table last saved in F, where every question also starts from what the
earlier ones proved. Prints each line of play, its question and its answer, and at the end
whether the start is proven at most T, shown above T, or not yet settled.

OPTION... go to every `mancala solve` (the variant first), e.g.
  scripts/kalah-first-moves.py target/release/mancala D 2 j.jsonl -- kalah --seeds 6 \\
      --empty-capture --tables 31 --hash 4096 --hash-file kalah66.tt
asks whether Kalah 6x6 with empty capture is worth at most +2 (published: exactly +2) over
31-seed tables. The cheapest-looking questions (the moves with the most slack by the
depth-limited search's guess) are not picked first: the order is the lines' own.

With a list of values instead of T (one a pit, '-' for a move not asked), each first move's
claimed value v is proven or refuted: every line of play starting with the move at most v
(the same questions as above with T = v) and one of them at least v (the opponent's position
after it not worth g - v + 1). Prints, for each move, "worth exactly v", "worth more than v",
"worth less than v" or what is still open. The same journal serves both forms: an answer
found for one is not asked again by the other. E.g. with the options above and the
published first-move values of Kalah 6x6 with empty capture, T = +2,+2,0,0,0,-2.
"""
import json
import signal
import subprocess
import sys
import time


def main():
    args = sys.argv[1:]
    extra = []
    if "--" in args:
        extra = args[args.index("--") + 1:]
        args = args[:args.index("--")]
    if len(args) != 4 or not extra:
        sys.exit(__doc__)
    binary, folder, journal = args[0], args[1], args[3]
    # T is a bound on the start, or one claimed value a first move ('-' for a move not asked).
    most, claims = None, None
    try:
        if "," in args[2]:
            claims = [None if w.strip() == "-" else int(w) for w in args[2].split(",")]
        else:
            most = int(args[2])
    except ValueError:
        sys.exit(f"T must be a whole number or a list such as +2,+2,0,0,0,-2, not {args[2]!r}")
    variant, options = extra[0], extra[1:]
    # `play` takes the rule options only; `solve` all of them.
    rule_options, i = [], 0
    while i < len(options):
        if options[i] in ("--seeds", "--pits"):
            rule_options += options[i:i + 2]
            i += 2
        elif options[i] == "--empty-capture":
            rule_options.append(options[i])
            i += 1
        else:
            i += 1

    def play(moves):
        words = [binary, "play", variant, *rule_options, "--json"]
        if moves:
            words += ["--moves", ",".join(map(str, moves))]
        out = subprocess.run(words, capture_output=True, text=True)
        if out.returncode != 0:
            # The rules given after `--` are wrong (or MANCALA is not the binary): its words.
            sys.exit(f"{' '.join(words)} failed:\n{out.stderr.strip()}")
        return json.loads(out.stdout)

    # Every line of play from the start that ends the root player's turn.
    lines = []

    def expand(moves):
        state = play(moves)
        if moves and (state["over"] or state["to_move"] != "south"):
            lines.append((moves, state))
            return
        for pit in state["legal"]:
            expand(moves + [pit])

    expand([])

    # Answers are appended as they come: a journal that cannot be written fails now, not
    # after the first hour of search.
    try:
        open(journal, "a").close()
    except OSError as e:
        sys.exit(f"the journal {journal} cannot be written: {e.strerror}")
    settled = {}
    try:
        with open(journal) as f:
            for row in f:
                row = json.loads(row)
                if row.get("answer") is not None:
                    settled[(row["position"], row["at_least"])] = row
    except FileNotFoundError:
        pass

    # Ctrl-C reaches the question under way too (one process group): it stops and saves,
    # and this script must wait for that instead of killing it, then stop. Each stop is
    # noted here: True for Ctrl-C, False for a question that failed after its answer.
    interrupted = []
    signal.signal(signal.SIGINT, lambda *_: interrupted.append(True))

    def ask(name, position, threshold):
        """The journal's or a new answer to "is the opponent's `position` worth at least
        `threshold` to it?": (True/False, how it was had), (None, how) when a time limit ran
        out; exits on Ctrl-C; None when `mancala solve` failed."""
        key = (position, threshold)
        if key in settled:
            return settled[key]["answer"], "journal"
        if interrupted:
            # Ctrl-C between two questions: the next is not started.
            print(f"{name:>8}: stopped by Ctrl-C before it was asked")
            sys.exit(130)
        started = time.time()
        out = subprocess.run(
            [binary, "solve", variant, position, "--dir", folder, "--at-least",
             str(threshold), "--json", *options],
            stdout=subprocess.PIPE, text=True,
        )
        try:
            row = json.loads(out.stdout)
        except ValueError:
            row = None
        # An answer printed is journalled, even if the command failed after it (its
        # table's last save): hours of search are not asked for again.
        if row is not None and (row.get("answer") is not None or out.returncode == 0):
            row.update(position=position, line=name, wall=round(time.time() - started, 1))
            with open(journal, "a") as f:
                f.write(json.dumps(row) + "\n")
        answered = row is not None and row.get("answer") is not None
        if not answered and (interrupted or out.returncode == 130):
            print(f"{name:>8}: stopped by Ctrl-C; asked again next time")
            sys.exit(130)
        if not answered and (out.returncode != 0 or row is None):
            print(f"{name:>8}: mancala solve failed (its error is above)")
            return None
        if out.returncode != 0:
            # Answered, then stopped or failed (its table's save): the answer stands.
            interrupted.append(out.returncode == 130)
        how = f"{row['wall']} s, {row['nodes']:,} nodes"
        if answered:
            settled[key] = row
        else:
            # A time limit (`--max-seconds`) ran out.
            how += f"; bounds {row['bounds']}"
        return row.get("answer"), how

    def stop_if_interrupted():
        if interrupted:
            print("stopped (Ctrl-C, or a failed save: its error is above); the answers so far "
                  "are in the journal")
            sys.exit(130 if any(interrupted) else 1)

    def line_facts(moves, state):
        """The line's name, and either its exact value (a game over) or the opponent's
        position (North to move, its pits first) and the stores' difference g."""
        south, north = state["stores"]
        pits = state["pits"]
        m = len(pits) // 2
        name = "-".join(str(p + 1) for p in moves)
        if state["over"]:
            return name, south - north + sum(pits[:m]) - sum(pits[m:]), None, None
        return name, None, " ".join(map(str, pits[m:] + pits[:m])), south - north

    if claims is not None:
        prove_claims(lines, claims, ask, line_facts, stop_if_interrupted)
        return

    verdicts = []
    for moves, state in lines:
        name, over, position, g = line_facts(moves, state)
        if over is not None:
            ok = over <= most
            print(f"{name:>8}: game over, worth {over:+}: {'at most' if ok else 'above'} {most:+}")
            verdicts.append(ok)
            continue
        threshold = g - most
        got = ask(name, position, threshold)
        if got is None:
            verdicts.append(None)
            break
        ok, how = got
        if ok is None:
            # A time limit ran out: go on with the other lines.
            print(f"{name:>8}: not settled ({how})")
            verdicts.append(None)
            continue
        print(f"{name:>8}: opponent's {position} at least {threshold:+}? "
              f"{'yes' if ok else 'no'} ({how}): the line is worth "
              f"{'at most' if ok else 'more than'} {most:+}")
        verdicts.append(ok)
        stop_if_interrupted()
        if not ok:
            break

    if verdicts and all(v is True for v in verdicts) and len(verdicts) == len(lines):
        print(f"the start is worth at most {most:+}: every one of {len(lines)} lines proven")
    elif False in verdicts:
        print(f"the start is worth more than {most:+}")
    else:
        done = sum(v is True for v in verdicts)
        print(f"not settled: {done} of {len(lines)} lines proven at most {most:+} so far")


def prove_claims(lines, claims, ask, line_facts, stop_if_interrupted):
    """Each claimed first move's value v, proven exactly or refuted: every line of play that
    starts with the move worth at most v (the opponent's position after it worth at least
    g - v), and one of them at least v (the opponent's worth at most g - v, that is, not at
    least g - v + 1). Prints each answer and a verdict for each first move."""
    verdicts = []
    for pit, v in enumerate(claims, start=1):
        if v is None:
            continue
        own = [(moves, state) for moves, state in lines if moves[0] + 1 == pit]
        if not own:
            print(f"  move {pit}: not a legal first move")
            verdicts.append(None)
            continue
        # At most v: every line.
        most = True
        for moves, state in own:
            name, over, position, g = line_facts(moves, state)
            if over is not None:
                ok = over <= v
                print(f"{name:>8}: game over, worth {over:+}")
            else:
                got = ask(name, position, g - v)
                if got is None:
                    return
                ok, how = got
                if ok is None:
                    print(f"{name:>8}: at most {v:+}? not settled ({how})")
                else:
                    print(f"{name:>8}: opponent's {position} at least {g - v:+}? "
                          f"{'yes' if ok else 'no'} ({how}): the line is worth "
                          f"{'at most' if ok else 'more than'} {v:+}")
                stop_if_interrupted()
            if ok is not True:
                most = ok
                break
        # At least v: one line (needless once a line is worth more than v).
        least = True if most is False else False
        for moves, state in own if most is not False else []:
            name, over, position, g = line_facts(moves, state)
            if over is not None:
                ok = over >= v
            else:
                got = ask(name, position, g - v + 1)
                if got is None:
                    return
                no, how = got
                ok = None if no is None else not no
                if ok is None:
                    print(f"{name:>8}: at least {v:+}? not settled ({how})")
                else:
                    print(f"{name:>8}: opponent's {position} at least {g - v + 1:+}? "
                          f"{'no' if ok else 'yes'} ({how}): the line is worth "
                          f"{'at least' if ok else 'less than'} {v:+}")
                stop_if_interrupted()
            if ok:
                least = True
                break
            if ok is None:
                least = None
        if most is True and least is True:
            verdict = f"worth exactly {v:+}"
        elif most is False:
            verdict = f"worth more than {v:+}"
        elif least is False:
            verdict = f"worth less than {v:+}"
        elif most is True:
            verdict = f"worth at most {v:+}; at least {v:+} not settled"
        elif least is True:
            verdict = f"worth at least {v:+}; at most {v:+} not settled"
        else:
            verdict = "not settled"
        print(f"  move {pit}: {verdict}")
        verdicts.append(most is True and least is True)
    proven = sum(v is True for v in verdicts)
    print(f"{proven} of {len(verdicts)} claimed first-move values proven")

if __name__ == "__main__":
    main()
