#!/usr/bin/env bash
# Proof that the budgeted plans write the in-memory builder's files: builds Awari tiers
# 0..MAX twice, once with the whole memory and once within BUDGET (small enough that the big
# tiers keep their exits on disk and scan the lower tiers in slices), and compares every file
# byte for byte. `mancala plan` shows each tier's layout under the budget first.
#
#   scripts/budget-identical.sh [MAX] [BUDGET] [DIR]       # defaults: 24 600M a temporary folder
set -euo pipefail
cd "$(dirname "$0")/.."
max=${1:-24}
budget=${2:-600M}
dir=${3:-$(mktemp -d)}
cargo build --release -q -p mancala-cli
bin=target/release/mancala
$bin plan awari --max-seeds "$max" --memory "$budget" | tail -n 12
$bin build awari --max-seeds "$max" --dir "$dir/memory" -q --json > "$dir/memory.jsonl"
$bin build awari --max-seeds "$max" --dir "$dir/budget" -q --json --memory "$budget" > "$dir/budget.jsonl"
status=0
for n in $(seq 0 "$max"); do
  f=$(printf "awari-6x4/tier-%03d.mtb" "$n")
  if ! cmp -s "$dir/memory/$f" "$dir/budget/$f"; then
    echo "tier $n differs"
    status=1
  fi
done
[ $status = 0 ] && echo "tiers 0..$max: the files built within $budget are the in-memory build's, byte for byte"
exit $status
