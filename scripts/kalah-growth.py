#!/usr/bin/env python3
"""How the proof of a Kalah start position grows with the seeds above the tables.

Usage: scripts/kalah-growth.py MANCALA DIR [CASE...]

Solves the start of Kalah 6x3, 6x4 and 6x5 (standard and empty capture) exactly over several
table sizes, each in a fresh process on one thread (node counts then repeat exactly), with
tables up to 28 seeds already built in DIR (`mancala build kalah [--empty-capture]
--max-seeds 28 --dir DIR`). A CASE is `SEEDSxTABLES` with an `e` for empty capture, e.g. `4x20`
or `5ex28`; the default list keeps every run under about two minutes. Prints each solve, then
the least-squares fit

    log(nodes) = a + b * height + c * seeds_a_pit     (height: seeds above the tables)

per capture rule, and what it gives for Kalah 6x6 over 28- and 34-seed tables. Those are
extrapolations far outside the data (docs/performance.md says how far to trust them).
"""
import json
import math
import subprocess
import sys
import time

DEFAULT = [
    "3x4", "3x8", "3x12", "3x16",
    "4x16", "4x20", "4x24", "4x28",
    "5x28",
    "3ex4", "3ex8", "3ex12", "3ex16",
    "4ex16", "4ex20", "4ex24", "4ex28",
    "5ex28",
]


def fit(rows):
    """Least squares for y = a + b h + c s by the normal equations (3x3, Cramer's rule)."""
    xs = [(1.0, h, s) for h, s, _ in rows]
    ys = [math.log(n) for _, _, n in rows]
    m = [[sum(x[i] * x[j] for x in xs) for j in range(3)] for i in range(3)]
    v = [sum(x[i] * y for x, y in zip(xs, ys)) for i in range(3)]

    def det(a):
        return (a[0][0] * (a[1][1] * a[2][2] - a[1][2] * a[2][1])
                - a[0][1] * (a[1][0] * a[2][2] - a[1][2] * a[2][0])
                + a[0][2] * (a[1][0] * a[2][1] - a[1][1] * a[2][0]))

    d = det(m)
    if abs(d) < 1e-9:
        return None
    out = []
    for k in range(3):
        mk = [row[:] for row in m]
        for i in range(3):
            mk[i][k] = v[i]
        out.append(det(mk) / d)
    return out


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    binary, folder = sys.argv[1], sys.argv[2]
    cases = sys.argv[3:] or DEFAULT
    rows = {False: [], True: []}
    seconds = 0.0
    nodes = 0
    for case in cases:
        ec = "e" in case
        seeds, tables = (int(x) for x in case.replace("e", "").split("x"))
        args = [binary, "solve", "kalah", "--seeds", str(seeds), "--dir", folder,
                "--tables", str(tables), "--threads", "1", "--json", "-q"]
        if ec:
            args.insert(5, "--empty-capture")
        started = time.time()
        out = subprocess.run(args, capture_output=True, text=True, check=True)
        took = time.time() - started
        a = json.loads(out.stdout)
        height = 12 * seeds - tables
        rows[ec].append((height, seeds, a["nodes"]))
        seconds += a["seconds"]
        nodes += a["nodes"]
        print(f"6x{seeds}{' ec' if ec else '   '} over {tables:2} ({height:2} above): "
              f"value {a['value']:+}, {a['nodes']:>13,} nodes, {a['expanded']:>13,} inner, "
              f"{a['seconds']:7.2f} s search, {took:7.2f} s in all", flush=True)
    rate = nodes / seconds if seconds else 0
    print(f"\n{rate / 1e6:.2f} M nodes a second on one thread over all solves")
    for ec, got in rows.items():
        if len(got) < 4:
            continue
        f = fit(got)
        if f is None:
            continue
        a, b, c = f
        name = "empty capture" if ec else "standard"
        print(f"{name}: nodes = exp({a:.3f}) x {math.exp(b):.4f}^height x {math.exp(c):.4f}^seeds")
        worst = max(abs(math.log(n) - (a + b * h + c * s)) for h, s, n in got)
        print(f"  the worst point is off by a factor of {math.exp(worst):.2f}")
        for tables in (28, 34):
            h = 72 - tables
            n = math.exp(a + b * h + c * 6)
            print(f"  Kalah 6x6 {name} over {tables}-seed tables ({h} above): about {n:.3g} "
                  f"nodes, {n / rate / 86400 if rate else 0:.3g} days on one thread at that rate")


if __name__ == "__main__":
    main()
