#!/usr/bin/env python3
"""Proves "the value of a Kalah start is at most T" one first move at a time, resumably.

Usage: scripts/kalah-first-moves.py MANCALA DIR T JOURNAL [-- OPTION...]

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
    binary, folder, most, journal = args[0], args[1], int(args[2]), args[3]
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
        return json.loads(subprocess.run(words, capture_output=True, text=True,
                                         check=True).stdout)

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
    verdicts = []
    for moves, state in lines:
        south, north = state["stores"]
        pits = state["pits"]
        m = len(pits) // 2
        name = "-".join(str(p + 1) for p in moves)
        if state["over"]:
            value = south - north + sum(pits[:m]) - sum(pits[m:])
            ok = value <= most
            print(f"{name:>8}: game over, worth {value:+}: {'at most' if ok else 'above'} {most:+}")
            verdicts.append(ok)
            continue
        position = " ".join(map(str, pits[m:] + pits[:m]))  # North to move, its pits first
        g = south - north
        threshold = g - most
        key = (position, threshold)
        if key in settled:
            row = settled[key]
            how = "journal"
        else:
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
                verdicts.append(None)
                break
            if out.returncode != 0:
                # Answered, then stopped or failed (its table's save): the answer stands.
                interrupted.append(out.returncode == 130)
            how = f"{row['wall']} s, {row['nodes']:,} nodes"
            if row.get("answer") is None:
                # A time limit (`--max-seconds`) ran out: go on with the other lines.
                print(f"{name:>8}: not settled ({how}; bounds {row['bounds']})")
                verdicts.append(None)
                continue
        ok = row["answer"]
        print(f"{name:>8}: opponent's {position} at least {threshold:+}? "
              f"{'yes' if ok else 'no'} ({how}): the line is worth "
              f"{'at most' if ok else 'more than'} {most:+}")
        verdicts.append(ok)
        if interrupted:
            print("stopped (Ctrl-C, or a failed save: its error is above); the answers so far "
                  "are in the journal")
            sys.exit(130 if any(interrupted) else 1)
        if not ok:
            break

    if verdicts and all(v is True for v in verdicts) and len(verdicts) == len(lines):
        print(f"the start is worth at most {most:+}: every one of {len(lines)} lines proven")
    elif False in verdicts:
        print(f"the start is worth more than {most:+}")
    else:
        done = sum(v is True for v in verdicts)
        print(f"not settled: {done} of {len(lines)} lines proven at most {most:+} so far")


if __name__ == "__main__":
    main()
