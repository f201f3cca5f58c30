#!/usr/bin/env python3
"""Proves "the value of a Kalah start is at most T" one line of play at a time, resumably; or
proves the claimed values of first moves and lines of play.

Usage: scripts/kalah-first-moves.py MANCALA DIR T JOURNAL [-- OPTION...]
       scripts/kalah-first-moves.py MANCALA DIR CLAIMS JOURNAL [-- OPTION...]
       scripts/kalah-first-moves.py MANCALA DIR POSITION T JOURNAL [--line NAME] [-- OPTION...]

The start is worth at most T exactly when every first move is. A first move whose last seed
falls into the store gives the mover another move, so it stands for each of its follow-ups
(recursively); every other line of play hands the turn over with the stores at some
difference g, and is worth at most T exactly when the opponent's position after it is worth
at least g - T to the opponent. Each of those is one `mancala solve P --at-least g-T`
question over the tables in DIR: a refutation split into independent questions, each a few
minutes to hours, instead of one question whose progress cannot be seen or kept.

Each question's progress (and, with --hash-file, each save) goes to standard error as
`mancala solve` prints it; add -q to the options for none. Each answer is appended to JOURNAL
(JSON lines, with the rules it was found under) as soon as it comes; a later run with the same
journal and rules skips the questions already settled, so a proof can be carried on over
several sessions. Ctrl-C stops the question under way the way it stops `mancala solve` (its
table saved first, with --hash-file) and then the script; it is asked again next time, from
nothing, or with `--hash-file F` among the options from the table last saved in F, where every
question also starts from what the earlier ones proved. Prints each line of play, its question
and its answer, and at the end whether the start is proven at most T, shown above T, or not
yet settled. A reader that leaves early (`... | head`) stops the script quietly at its next
line, with every answer had already in the journal.

OPTION... go to every `mancala solve` (the variant first: kalah, or mancala, the same rules
with 4 seeds a pit; the lines and game ends are scored as Kalah's), e.g.
  scripts/kalah-first-moves.py target/release/mancala D 2 j.jsonl -- kalah --seeds 6 \\
      --empty-capture --tables 31 --hash 4096 --hash-file kalah66.tt
asks whether Kalah 6x6 with empty capture is worth at most +2 (published: exactly +2) over
31-seed tables. The cheapest-looking questions (the moves with the most slack by the
depth-limited search's guess) are not picked first: the order is the lines' own.

CLAIMS, in place of T, proves or refutes claimed values: a comma-separated list of one value
per pit in pit order ('-' for a pit not asked), e.g. +2,+2,0,0,0,-2, or of NAME=V items that
name a first move or a line of play as the output does (pits numbered from 1), e.g. 1-4=0,2=+2.
A move or line is worth exactly v when every line of play it starts is worth at most v (the
same questions as above with T = v) and one of them at least v (the opponent's position after
it not worth at least g - v + 1). Prints, for each claim, "worth exactly v", "worth more than
v", "worth less than v" or what is still open, and at the end how many claims are proven. A
line's question left open (by --max-seconds) is printed with its position and threshold, ready
for the POSITION T form below, which asks it alone or splits it. The forms share the journal:
a question answered for one is not asked again by another.

POSITION and T ask one question, "is POSITION (the side to move's pits first, as `mancala
solve` takes it) worth at least T to the side to move?", journalled like the others; when it
stays open it prints the question of each of its moves, so that a question too long for one
run can be split and its parts asked one by one, even on different days. `--line NAME` names
the question in the journal and the output (e.g. 5,2 for the position after pit 5, then the
opponent's pit 2; "asked" when not given), so that the rows of a split say where they stand.
Whatever the form, a
question is taken from the journal when a row settles it: any row's proven bounds on the same
position (an answer at one threshold settles the thresholds beyond it, and a run stopped by
--max-seconds still proves its bounds), or, up to two moves deep, the rows of the positions
after its moves (yes when one move reaches T, no when none does). An answer found that way is
journalled too, marked "derived", so a split can go on a level deeper. Every row names the
rules it was found under; a row of other rules, or of none, is not used.

Exits with status 0 when every question needed was answered (whatever the answers), 1 when a
`mancala solve` failed or a time limit (`--max-seconds`) left one open, 130 on Ctrl-C (one
question asked by POSITION and T: 0 once it is answered, even if a Ctrl-C or a failed save of
its table came after the answer).
"""
import json
import os
import signal
import subprocess
import sys
import time


# Journal answers are combined this many moves deep (see `known` in `main`).
DERIVE_DEPTH = 2
DERIVED = "from the positions after its moves"
INF = float("inf")


def proven_bounds(row):
    """The bounds a journal row proves on its position's value to the side to move: its
    answer, and the bounds the search reported (proven also when a time limit stopped it)."""
    lo, hi = row.get("bounds") or (-INF, INF)
    if row.get("answer") is True:
        lo = max(lo, row["at_least"])
    elif row.get("answer") is False:
        hi = min(hi, row["at_least"] - 1)
    return lo, hi


class SolveFailed(Exception):
    """A `mancala solve` ended without an answer (its error is above)."""


def parse_claims(text, lines, pits):
    """The (name, moves, value) of each claim in `text`, in its order; exits on a bad one."""
    names = {}
    for moves, _ in lines:
        for k in range(1, len(moves) + 1):
            prefix = tuple(moves[:k])
            names.setdefault("-".join(str(p + 1) for p in prefix), prefix)
    items = [w.strip() for w in text.split(",")]
    claims = []
    if all("=" not in w for w in items):
        if len(items) != pits:
            sys.exit(f"{text!r} claims {len(items)} values, but a side has {pits} pits: give "
                     "one a pit ('-' for a pit not asked), or NAME=V items")
        items = [f"{p}={w}" for p, w in enumerate(items, start=1) if w != "-"]
    for w in items:
        name, _, value = w.partition("=")
        name = name.strip()
        if name not in names:
            sys.exit(f"{name!r} names no first move or line of play here; they are: "
                     + ", ".join(sorted(names, key=lambda n: names[n])))
        try:
            claims.append((name, names[name], int(value)))
        except ValueError:
            sys.exit(f"{w!r}: the value after '=' must be a whole number")
    return claims


def main():
    args = sys.argv[1:]
    extra = []
    if "--" in args:
        extra = args[args.index("--") + 1:]
        args = args[:args.index("--")]
    line_name = "asked"
    if "--line" in args:
        at = args.index("--line")
        if at + 1 == len(args) or not args[at + 1].strip():
            sys.exit("--line needs a name, e.g. --line 5,2")
        line_name = args[at + 1].strip()
        del args[at:at + 2]
        if len(args) != 5:
            sys.exit("--line names one question: it goes with the POSITION T form only")
    if len(args) not in (4, 5) or not extra:
        sys.exit(__doc__)
    asked = None
    if len(args) == 5:
        binary, folder, asked, threshold, journal = args
        # As the journal writes positions: one space between counts.
        asked = " ".join(asked.replace(",", " ").split())
        try:
            threshold = int(threshold)
        except ValueError:
            sys.exit(f"T must be a whole number, not {threshold!r}")
        spec = "0"
    else:
        binary, folder, spec, journal = args
    most = None
    if "," not in spec and "=" not in spec:
        try:
            most = int(spec)
        except ValueError:
            sys.exit(f"T must be a whole number, or CLAIMS a list such as +2,+2,0,0,0,-2 or "
                     f"1-4=0,2=+2; not {spec!r}")
    variant, options = extra[0], extra[1:]
    # A game's end is scored (and an extra move told apart) as Kalah's rules do it.
    if variant not in ("kalah", "mancala"):
        sys.exit(f"{variant!r}: this script proves values under Kalah's rules only (kalah, "
                 "or mancala, Kalah with 4 seeds a pit); ask other games with `mancala solve`")
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
    rules = " ".join([variant, *rule_options])

    # Ctrl-C reaches the command under way too (one process group): a question stops and
    # saves, and this script must wait for that instead of killing it, then stop. Each stop
    # is noted here: True for Ctrl-C, False for a question that failed after its answer.
    interrupted = []
    signal.signal(signal.SIGINT, lambda *_: interrupted.append(True))

    def play(moves, position=None):
        words = [binary, "play", variant, *rule_options, "--json"]
        if position is not None:
            words += ["--position", position]
        if moves:
            words += ["--moves", ",".join(map(str, moves))]
        out = subprocess.run(words, capture_output=True, text=True)
        if out.returncode != 0 and (interrupted or out.returncode in (130, -signal.SIGINT)):
            # Ctrl-C while a move was played: nothing was under way; stop as a question does.
            print("stopped by Ctrl-C; the answers so far are in the journal")
            sys.exit(130)
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
            return state
        for pit in state["legal"]:
            expand(moves + [pit])
        return state

    start = expand([])
    claims = None if most is not None else parse_claims(spec, lines, len(start["pits"]) // 2)

    # Answers are appended as they come: a journal that cannot be written fails now, not
    # after the first hour of search.
    try:
        open(journal, "a").close()
    except OSError as e:
        sys.exit(f"the journal {journal} cannot be written: {e.strerror}")
    # What the journal proves: each position's value (to its mover) bounded from below and
    # above, every row of this game's rules counted.
    facts = {}

    def learn(row):
        lo, hi = proven_bounds(row)
        old_lo, old_hi = facts.get(row["position"], (lo, hi))
        facts[row["position"]] = (max(lo, old_lo), min(hi, old_hi))

    with open(journal) as f:
        for row in f:
            row = json.loads(row)
            # One of other rules is not this game's.
            if row.get("rules") == rules:
                learn(row)

    moves_of = {}

    def children(position):
        """Each move of `position` (its mover's pits first) as (pit, kind, g, child): `g` the
        stores' difference the move makes; kind "over" (then `g` is the game's final
        difference and `child` None), "again" (the mover moves again from `child`) or "pass"
        (`child` is the opponent's position, its pits first). None when it has no move."""
        if position not in moves_of:
            state = play([], position)
            found = None
            if not state["over"] and state["legal"]:
                found = []
                for pit in state["legal"]:
                    after = play([pit], position)
                    south, north = after["stores"]
                    pits = after["pits"]
                    m = len(pits) // 2
                    if after["over"]:
                        found.append((pit, "over",
                                      south - north + sum(pits[:m]) - sum(pits[m:]), None))
                    elif after["to_move"] == "south":
                        found.append((pit, "again", south - north, " ".join(map(str, pits))))
                    else:
                        found.append((pit, "pass", south - north,
                                      " ".join(map(str, pits[m:] + pits[:m]))))
            moves_of[position] = found
        return moves_of[position]

    def known(position, t, depth=DERIVE_DEPTH):
        """Does the journal settle "is `position` worth at least `t` to its mover?": True or
        False and how, or (None, None). A row's bounds settle every threshold they pass; up
        to `depth` moves deep, the answers for the positions after the moves settle it too (a
        question too long for one run split by hand into its moves' questions)."""
        lo, hi = facts.get(position, (-INF, INF))
        if lo >= t or hi < t:
            return lo >= t, "journal"
        moves = children(position) if depth > 0 else None
        if not moves:
            return None, None
        vias = []
        for _, kind, g, child in moves:
            if kind == "over":
                via = g >= t
            elif kind == "again":
                via = known(child, t - g, depth - 1)[0]
            else:
                # The move reaches t exactly when the opponent's position is not worth at
                # least g - t + 1 to the opponent.
                no = known(child, g - t + 1, depth - 1)[0]
                via = None if no is None else not no
            if via:
                return True, DERIVED
            vias.append(via)
        if all(v is False for v in vias):
            return False, DERIVED
        return None, None

    def ask(name, position, threshold):
        """The journal's or a new answer to "is `position` (its mover's pits first) worth at least
        `threshold` to it?": True or False, or None when a time limit left it open, and how it
        was had. Exits on Ctrl-C; raises SolveFailed when `mancala solve` failed."""
        answer, how = known(position, threshold)
        if how == DERIVED:
            row = {"answer": answer, "at_least": threshold, "position": position, "line": name,
                   "rules": rules, "derived": DERIVED}
            with open(journal, "a") as f:
                f.write(json.dumps(row) + "\n")
            learn(row)
        if answer is not None:
            return answer, how
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
            row.update(position=position, line=name, rules=rules,
                       wall=round(time.time() - started, 1))
            with open(journal, "a") as f:
                f.write(json.dumps(row) + "\n")
        answered = row is not None and row.get("answer") is not None
        if not answered and (interrupted or out.returncode == 130):
            print(f"{name:>8}: stopped by Ctrl-C; asked again next time")
            sys.exit(130)
        if not answered and (out.returncode != 0 or row is None):
            print(f"{name:>8}: mancala solve failed (its error is above)")
            raise SolveFailed()
        if out.returncode != 0:
            # Answered, then stopped or failed (its table's save): the answer stands.
            interrupted.append(out.returncode == 130)
        how = f"{row['wall']} s, {row['nodes']:,} nodes"
        learn(row)
        if not answered:
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

    def at_most(moves, state, v):
        """Is the line worth at most `v`? True, False or None (open), printed."""
        name, over, position, g = line_facts(moves, state)
        if over is not None:
            print(f"{name:>8}: game over, worth {over:+}: {'at most' if over <= v else 'above'} "
                  f"{v:+}")
            return over <= v
        ok, how = ask(name, position, g - v)
        question = f"opponent's {position} at least {g - v:+}?"
        if ok is None:
            print(f"{name:>8}: at most {v:+}? not settled ({how}); its question: the "
                  f"{question} (yes: at most {v:+})")
        else:
            print(f"{name:>8}: {question} "
                  f"{'yes' if ok else 'no'} ({how}): the line is worth "
                  f"{'at most' if ok else 'more than'} {v:+}")
        stop_if_interrupted()
        return ok

    def at_least(moves, state, v):
        """Is the line worth at least `v`? True, False or None (open), printed."""
        name, over, position, g = line_facts(moves, state)
        if over is not None:
            print(f"{name:>8}: game over, worth {over:+}: "
                  f"{'at least' if over >= v else 'less than'} {v:+}")
            return over >= v
        no, how = ask(name, position, g - v + 1)
        question = f"opponent's {position} at least {g - v + 1:+}?"
        if no is None:
            print(f"{name:>8}: at least {v:+}? not settled ({how}); its question: the "
                  f"{question} (no: at least {v:+})")
        else:
            print(f"{name:>8}: {question} "
                  f"{'yes' if no else 'no'} ({how}): the line is worth "
                  f"{'less than' if no else 'at least'} {v:+}")
        stop_if_interrupted()
        return None if no is None else not no

    if asked is not None:
        try:
            answer, how = ask(line_name, asked, threshold)
        except SolveFailed:
            sys.exit(1)
        words = {True: "yes", False: "no", None: "not settled"}[answer]
        print(f"{asked} at least {threshold:+}? {words} ({how})")
        if answer is None:
            # How to split it: one question per move, each shorter than the whole.
            print("yes once one move reaches it, no once none does; the moves' questions:")
            for pit, kind, g, child in children(asked) or []:
                if kind == "over":
                    print(f"  pit {pit + 1}: the game ends, worth {g:+}")
                elif kind == "again":
                    print(f"  pit {pit + 1}: moves again; {child} at least {threshold - g:+}? "
                          "yes: it reaches it")
                else:
                    print(f"  pit {pit + 1}: the opponent's {child} at least "
                          f"{g - threshold + 1:+}? no: it reaches it; yes: it does not")
        sys.exit(0 if answer is not None else 1)

    try:
        if claims is None:
            open_lines = bound_start(lines, most, at_most)
        else:
            open_lines = prove_claims(lines, claims, at_most, at_least)
    except SolveFailed:
        sys.exit(1)
    sys.exit(1 if open_lines else 0)


def bound_start(lines, most, at_most):
    """Whether the start is worth at most `most`, line by line; prints the verdict and returns
    whether a line was left open."""
    verdicts = []
    try:
        for moves, state in lines:
            ok = at_most(moves, state, most)
            verdicts.append(ok)
            if ok is False:
                break
    finally:
        if verdicts and all(v is True for v in verdicts) and len(verdicts) == len(lines):
            print(f"the start is worth at most {most:+}: every one of {len(lines)} lines "
                  "proven")
        elif False in verdicts:
            print(f"the start is worth more than {most:+}")
        else:
            done = sum(v is True for v in verdicts)
            print(f"not settled: {done} of {len(lines)} lines proven at most {most:+} so far")
    return None in verdicts


def prove_claims(lines, claims, at_most, at_least):
    """Each claimed value v of a first move or line of play, proven or refuted: every line of
    play it starts worth at most v, and one of them at least v. Prints a verdict for each
    claim and returns whether a question was left open."""
    proven, left_open = 0, False
    done = 0
    try:
        for name, prefix, v in claims:
            own = [(moves, state) for moves, state in lines
                   if tuple(moves[:len(prefix)]) == prefix]
            # At most v: every line; a line left open does not stop the others, one worth
            # more than v settles the claim.
            most = True
            for moves, state in own:
                ok = at_most(moves, state, v)
                if ok is False:
                    most = False
                    break
                if ok is None:
                    most = None
            # At least v: one line (needless once a line is worth more than v).
            least = most is False
            if most is not False:
                for moves, state in own:
                    ok = at_least(moves, state, v)
                    if ok:
                        least = True
                        break
                    if ok is None:
                        least = None
            if most is True and least is True:
                verdict = f"worth exactly {v:+}"
                proven += 1
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
            left_open |= most is None or least is None
            print(f"{name:>8}: {verdict}")
            done += 1
    finally:
        if done < len(claims):
            print(f"{claims[done][0]:>8}: not settled")
        print(f"{proven} of {len(claims)} claimed values proven")
    return left_open


if __name__ == "__main__":
    try:
        try:
            main()
        finally:
            # Output kept in a buffer meets a closed pipe here, inside the handler below.
            sys.stdout.flush()
    except BrokenPipeError:
        # The reader went away (`... | head`): every answer had is in the journal, written
        # before it was printed. Stop quietly, as other commands do, with SIGPIPE's status.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(141)
