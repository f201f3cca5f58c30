#!/usr/bin/env python3
"""Times `mancala query` on every Kalah 6x4 position within PLIES moves of the start.

Usage: scripts/kalah-early-queries.py MANCALA DIR [PLIES] [COMMAND] [-- OPTION...]

MANCALA is the binary, DIR a table folder with Kalah tables (28 seeds answer these positions
interactively), PLIES defaults to 2, COMMAND to `query` (`solve` times solves instead, and
adds up their nodes; `serve` starts one `mancala serve --dir DIR` and asks its `/api/query` in
turn, as a player's page would, so its searcher keeps what it learnt). Options after `--` go
to every command (to the server for `serve`), e.g.
`-- --tables 28 --threads 1 --hash 16` for reproducible node counts of `solve`. With `query`
and `solve` each position is asked in a fresh process, as a user at the command line asks it:
the times include opening the tables, not building them. Prints the slowest positions and the distribution.
"""
import json
import socket
import subprocess
import sys
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
    if command == "serve":
        # One server for all the questions, asked in turn as a player's page would.
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        server = subprocess.Popen(
            [binary, "serve", "--dir", folder, "--addr", f"127.0.0.1:{port}", *extra],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.1)

    rows = []
    nodes = 0
    try:
        for position, moves in seen.items():
            text = " ".join(map(str, position))
            started = time.time()
            if server:
                query = urllib.parse.urlencode({"variant": "kalah", "seeds": 4, "position": text})
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/query?{query}", timeout=600) as r:
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
        if server:
            server.terminate()
            server.wait()
    rows.sort()
    for seconds, text, moves, value in rows[-8:]:
        print(f"{seconds:6.2f} s  value {value:+}  after {moves}  {text}")
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
