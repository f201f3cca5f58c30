#!/usr/bin/env bash
# Solves Awari with 3 seeds a pit (36 seeds, 47.6 G positions) on one machine, within its
# memory: builds tiers 0..36 (resuming across runs, inside a tier from its last checkpoint),
# appends each tier's figures to DIR/awari3-build.jsonl, and once every tier is built prints
# the start position's value and each move's value from the tables.
#
#   scripts/awari3.sh [DIR] [MEMORY]
#
# DIR defaults to databases/ (about 45 GB of tables), MEMORY to the build's default (80% of
# the physical memory). `mancala plan awari --seeds 3 --max-seeds 36` shows the plan first.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-databases}
memory=${2:-}
cargo build --release -q -p mancala-cli
bin=target/release/mancala
mkdir -p "$dir"
$bin plan awari --seeds 3 --max-seeds 36 ${memory:+--memory "$memory"}
/usr/bin/time -v $bin build awari --seeds 3 --max-seeds 36 --dir "$dir" --json \
  ${memory:+--memory "$memory"} 2> >(tee -a "$dir/awari3-time.txt" >&2) \
  | tee -a "$dir/awari3-build.jsonl"
$bin query awari --seeds 3 "3 3 3 3 3 3 3 3 3 3 3 3" --dir "$dir"
