#!/usr/bin/env bash
# Awari with 1 and 2 seeds a pit: the start position's value from the full tables and from the
# search, each with its time.
#
#   scripts/awari-small.sh [SEEDS...]     (default: 1 2)
#
# For each seed count: builds every tier into a scratch folder (the full tables) and reads the
# start position from them; then solves it by search in another folder, with tables up to SMALL
# seeds (default: 6 for one seed a pit; 23 for two, whose top tier then leaves some 10^8
# positions reachable above the tables, solved backwards with --reach-limit REACH, default
# 400 million, about 12 GB) under a time limit of LIMIT seconds (default: none).
set -euo pipefail
cd "$(dirname "$0")/.."
seeds_list=("$@")
[ ${#seeds_list[@]} -eq 0 ] && seeds_list=(1 2)
reach=${REACH:-400000000}
cargo build --release -q -p mancala-cli
bin=$PWD/target/release/mancala
base=$(mktemp -d)
trap 'rm -rf "$base"' EXIT
for s in "${seeds_list[@]}"; do
  max=$((12 * s))
  start_pos=$(python3 -c "print(' '.join(['$s'] * 12))")
  t0=$(date +%s.%N)
  "$bin" build awari --seeds "$s" --max-seeds "$max" --dir "$base/full" -q >/dev/null
  t1=$(date +%s.%N)
  table=$("$bin" query awari --seeds "$s" "$start_pos" --dir "$base/full" --json)
  t2=$(date +%s.%N)
  small=${SMALL:-$([ "$s" -ge 2 ] && echo $((12 * s - 1)) || echo 6)}
  args=(solve awari --seeds "$s" --tables "$small" --dir "$base/small" --reach-limit "$reach" --json -q)
  [ -n "${LIMIT:-}" ] && args+=(--max-seconds "$LIMIT")
  search=$("$bin" "${args[@]}")
  t3=$(date +%s.%N)
  python3 - "$s" "$t0" "$t1" "$t2" "$t3" "$table" "$search" <<'PY'
import json, sys
s = sys.argv[1]
t0, t1, t2, t3 = map(float, sys.argv[2:6])
table, search = json.loads(sys.argv[6]), json.loads(sys.argv[7])
print(f"awari 6x{s}: full tables (tiers 0..{12 * int(s)}) built in {t1 - t0:.1f} s: value {table['value']:+}, best {table['best']}")
if search["value"] is None:
    lo, hi = search["bounds"]
    print(f"awari 6x{s}: search (tables up to {search['tables']}) proved the value in [{lo:+}, {hi:+}] in {t3 - t2:.1f} s, {search['nodes']:,} nodes")
else:
    same = search["value"] == table["value"] and search["best"] == table["best"]
    print(f"awari 6x{s}: search (tables up to {search['tables']}) value {search['value']:+}, best {search['best']} in {t3 - t2:.1f} s, {search['nodes']:,} nodes: {'AGREE' if same else 'DISAGREE'}")
    sys.exit(0 if same else 1)
PY
done
