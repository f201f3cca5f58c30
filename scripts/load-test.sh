#!/usr/bin/env bash
# Load test of the web oracle on loopback: builds Awari tables up to 16 seeds (once) in DIR,
# starts `mancala serve` on a free port, runs CLIENTS concurrent clients for REQUESTS table
# queries in all, prints throughput and latency percentiles (and a JSON line), stops the
# server.
#
#   scripts/load-test.sh [DIR] [CLIENTS] [REQUESTS]      # defaults: databases 64 100000
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-databases}
clients=${2:-64}
requests=${3:-100000}
cargo build --release -q -p mancala-cli
cargo build --release -q -p mancala-serve --example load
bin=target/release/mancala
$bin build awari --max-seeds 16 --dir "$dir" -q > /dev/null
log=$(mktemp)
$bin serve --dir "$dir" --addr 127.0.0.1:0 > "$log" &
server=$!
trap 'kill $server 2>/dev/null; rm -f "$log"' EXIT
for _ in $(seq 100); do
  grep -q http "$log" && break
  sleep 0.1
done
url=$(grep -o 'http://[0-9.:]*' "$log")
echo "server at $url (commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown))"
target/release/examples/load "$url" "$clients" "$requests"
