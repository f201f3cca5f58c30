#!/usr/bin/env bash
# Solves Awari or Oware with 3 seeds a pit (36 seeds, 47,581,435,825 positions) on one
# machine, within its memory: builds tiers 0..36 (resuming across runs, inside a tier from its
# last checkpoint), appends each tier's figures to DIR/GAME3-build.jsonl and `time -v` to
# DIR/GAME3-time.txt, then prints the start position's value and each move's value from the
# tables, the search's answer at the root (with its principal variation), and recomputes the
# values of the two top tiers (`verify --min-seeds 34`, which also resumes where a killed run
# stopped). Run it again after a kill: the build and the verification go on from what is
# done (the query and the root search, a few minutes, run again).
#
#   scripts/three-seeds.sh GAME [DIR] [MEMORY]      GAME: awari or oware
#
# DIR defaults to databases/ (45 GB of tables, 71 GB of disk at the fullest), MEMORY to the
# build's default (80% of the physical memory). `mancala plan GAME --seeds 3 --max-seeds 36`
# shows the plan first; on 2 cores the build takes about 2 hours (1.85 h for Awari on 2026-11-28).
set -euo pipefail
cd "$(dirname "$0")/.."
game=${1:-}
case $game in
  awari | oware) ;;
  *) echo "usage: scripts/three-seeds.sh awari|oware [DIR] [MEMORY]" >&2; exit 2 ;;
esac
dir=${2:-databases}
memory=${3:-}
cargo build --release -q -p mancala-cli
bin=target/release/mancala
start="3 3 3 3 3 3 3 3 3 3 3 3"
mkdir -p "$dir"
$bin plan "$game" --seeds 3 --max-seeds 36 ${memory:+--memory "$memory"}
/usr/bin/time -v $bin build "$game" --seeds 3 --max-seeds 36 --dir "$dir" --json \
  ${memory:+--memory "$memory"} 2> >(tee -a "$dir/${game}3-time.txt" >&2) \
  | tee -a "$dir/${game}3-build.jsonl"
$bin query "$game" --seeds 3 "$start" --dir "$dir"
$bin solve "$game" --seeds 3 "$start" --dir "$dir" --tables 36 --json
/usr/bin/time -v $bin verify "$game" --seeds 3 --min-seeds 34 --dir "$dir" \
  ${memory:+--memory "$memory"}
