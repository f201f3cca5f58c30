#!/usr/bin/env bash
# Reproduces the published Kalah values from nothing: each case starts with an empty table
# folder, so the time includes building the tables `mancala solve` needs.
#
#   scripts/solve-kalah.sh [CASE...]        CASE: 6x3 6x4 6x4e 6x5 6x5e (default: 6x3 6x4 6x4e)
#
# Environment: TABLES (default: the solve command's own default), HASH in MB (default 256),
# THREADS (default: nproc), DIR (scratch folder, default a temporary one, removed after).
# Prints one line per case: expected and found value, seconds, nodes, and PASS or FAIL.
set -euo pipefail
cd "$(dirname "$0")/.."
cases=("$@")
[ ${#cases[@]} -eq 0 ] && cases=(6x3 6x4 6x4e)
hash=${HASH:-256}
threads=${THREADS:-$(nproc)}
cargo build --release -q -p mancala-cli
bin=$PWD/target/release/mancala
base=${DIR:-$(mktemp -d)}
[ -z "${DIR:-}" ] && trap 'rm -rf "$base"' EXIT
status=0
for c in "${cases[@]}"; do
  case $c in
    6x3) seeds=3; ec=""; want=2 ;;
    6x4) seeds=4; ec=""; want=8 ;;
    6x4e) seeds=4; ec="--empty-capture"; want=10 ;;
    6x5) seeds=5; ec=""; want=10 ;;
    6x5e) seeds=5; ec="--empty-capture"; want=12 ;;
    *) echo "unknown case $c (6x3 6x4 6x4e 6x5 6x5e)" >&2; exit 2 ;;
  esac
  dir=$base/$c
  rm -rf "$dir"
  args=(solve kalah --seeds "$seeds" $ec --dir "$dir" --hash "$hash" --threads "$threads" --json -q)
  [ -n "${TABLES:-}" ] && args+=(--tables "$TABLES")
  start=$(date +%s.%N)
  out=$("$bin" "${args[@]}")
  end=$(date +%s.%N)
  python3 - "$c" "$want" "$start" "$end" "$out" <<'PY' || status=1
import json, sys
case, want, start, end, out = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4]), sys.argv[5]
v = json.loads(out)
ok = v["value"] == want
print(f"kalah {case:<5} expected {want:+3} found {v['value']:+3}  {end - start:8.2f} s from nothing "
      f"(search {v['seconds']:.2f} s, {v['nodes']:,} nodes, tables up to {v['tables']})  best {v['best']}  "
      f"{'PASS' if ok else 'FAIL'}")
sys.exit(0 if ok else 1)
PY
done
exit $status
