#!/usr/bin/env python3
"""Times the answers for every Kalah 6x4 position within PLIES moves of the start.

Usage: scripts/kalah-early-queries.py MANCALA DIR [PLIES] [COMMAND] [-- OPTION...]

MANCALA is the binary, DIR a table folder with Kalah tables (28 seeds answer these positions
interactively), PLIES defaults to 2, COMMAND to `query` (`solve` times solves instead, and
adds up their nodes; `serve` starts one `mancala serve --dir DIR`, waits until it has read
its tables into memory, and asks its `/api/query` in turn, as a player's page would, so its
searcher keeps what it learnt). Options after `--` go to every command, e.g. `-- --tables
28 --threads 1 --hash 16` for reproducible node counts of `solve`, or to the server for
`serve` (`-- --hash 256`, or `-- --no-warm` to ask at once, the tables read as needed).
With `query` and `solve` each position is asked in a fresh process, as a user at the command
line asks it: the times include opening the tables, not building them. Prints the slowest
positions and the distribution.
"""
import json
import re
import subprocess
import sys
import threading
import time
import urllib.parse
import urllib.request


def main():
    if len(sys.argv) < 3 or sys.argv[1] == "--" or sys.argv[2] == "--":
        sys.exit(__doc__)
    args, extra = sys.argv[1:], []
    if "--" in args:
        extra = args[args.index("--") + 1:]
        args = args[:args.index("--")]
    binary, folder = args[0], args[1]
    plies = int(args[2]) if len(args) > 2 else 2
    command = args[3] if len(args) > 3 else "query"

    def play(moves):
        args = [binary, "play", "kalah", "--seeds", "4", "--json"]
        if moves:
            args += ["--moves", ",".join(map(str, moves))]
        out = subprocess.run(args, capture_output=True, text=True, check=True)
        return json.loads(out.stdout)

    # Every position within `plies` moves, the side to move's pits first, with a line to it.
    seen = {}
    frontier = [[]]
    for depth in range(plies + 1):
        following = []
        for moves in frontier:
            state = play(moves)
            if state["over"]:
                continue
            pits = state["pits"]
            m = len(pits) // 2
            position = tuple(pits if state["to_move"] == "south" else pits[m:] + pits[:m])
            seen.setdefault(position, moves)
            if depth < plies:
                following += [moves + [pit] for pit in state["legal"]]
        frontier = following

    server = None
    base = None
    rows = []
    nodes = 0
    try:
        if command == "serve":
            # One server for all the questions, asked in turn as a player's page would. It
            # picks a free port and says which on its first line.
            server = subprocess.Popen(
                [binary, "serve", "--dir", folder, "--addr", "127.0.0.1:0", *extra],
                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            )
            line = server.stdout.readline()
            found = re.search(r"on (http://\S+?)/? ", line)
            if not found:
                server.kill()
                sys.exit(f"mancala serve did not start: {line}{server.stderr.read()}")
            base = found.group(1)
            # The server reads its tables into memory as it starts (unless `--no-warm`):
            # ask once it has, as a player who comes later would. Its standard error says
            # when; a thread keeps draining it so that it never blocks the server.
            ready = threading.Event()

            def drain(stream=server.stderr):
                for said in stream:
                    if said.startswith("tables in memory"):
                        ready.set()
                ready.set()

            threading.Thread(target=drain, daemon=True).start()
            if "--no-warm" not in extra and not ready.wait(timeout=300):
                print("the server had not read its tables after 300 s; asking anyway",
                      file=sys.stderr)
        for position, moves in seen.items():
            text = " ".join(map(str, position))
            started = time.time()
            if server is not None:
                query = urllib.parse.urlencode({"variant": "kalah", "seeds": 4, "position": text})
                with urllib.request.urlopen(f"{base}/api/query?{query}", timeout=600) as r:
                    answer = json.loads(r.read())
            else:
                out = subprocess.run(
                    [binary, command, "kalah", text, "--dir", folder, "--json", "-q", *extra],
                    capture_output=True, text=True, check=True,
                )
                answer = json.loads(out.stdout)
            seconds = time.time() - started
            nodes += answer.get("nodes", 0)
            rows.append((seconds, text, moves, answer["value"]))
    finally:
        if server is not None:
            server.terminate()
            try:
                server.wait(timeout=10)
            except subprocess.TimeoutExpired:
                server.kill()
    rows.sort()
    for seconds, text, moves, value in rows[-8:]:
        # A server's search stops at its time limit (`--max-seconds`, 5 s by default) with
        # bounds only.
        shown = "unsettled" if value is None else f"{value:+}"
        print(f"{seconds:6.2f} s  value {shown}  after {moves}  {text}")
    times = [r[0] for r in rows]
    print(
        f"{command}: {len(times)} positions within {plies} plies, {sum(times):.2f} s in all: "
        f"median {times[len(times) // 2]:.2f} s, 90th percentile {times[int(len(times) * 0.9)]:.2f} s, "
        f"slowest {times[-1]:.2f} s, {sum(t > 1 for t in times)} over a second"
    )
    if nodes:
        print(f"{nodes:,} nodes in all")


if __name__ == "__main__":
    main()
