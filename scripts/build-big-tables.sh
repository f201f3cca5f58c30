#!/usr/bin/env bash
# Builds Awari tables up to MAX seeds (default 28) and prints the figures the tables issue asks
# for: positions per second per core on tiers 16..20, total build time, peak memory, table sizes
# and the compressed/raw ratio of a sample of tiers.
#
#   scripts/build-big-tables.sh [MAX] [DIR]
#
# DIR defaults to databases/. Resumable: tiers already built are reused (and reported as such).
set -euo pipefail
cd "$(dirname "$0")/.."
max=${1:-28}
dir=${2:-databases}
threads=$(nproc)
cargo build --release -q -p mancala-cli
bin=target/release/mancala
log=$(mktemp)
start=$(date +%s.%N)
$bin build awari --max-seeds "$max" --dir "$dir" --threads "$threads" --json | tee "$log"
end=$(date +%s.%N)
python3 - "$log" "$threads" "$start" "$end" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
threads = int(sys.argv[2]); wall = float(sys.argv[4]) - float(sys.argv[3])
built = [r for r in rows if not r["reused"]]
print(f"\nthreads: {threads}, wall time {wall:.1f} s for {len(built)} tiers built, {len(rows)-len(built)} reused")
mid = [r for r in built if 16 <= r["seeds"] <= 20]
if mid:
    pos = sum(r["positions"] for r in mid); sec = sum(r["seconds"] for r in mid)
    print(f"tiers 16..20: {pos:,} positions in {sec:.2f} s = {pos/sec/1e6:.2f} M/s, {pos/sec/1e6/threads:.2f} M/s per core")
for r in built:
    print(f"tier {r['seeds']:>3}: {r['positions']:>15,} positions {r['seconds']:>9.2f} s {r['positions_per_second']/1e6:>7.2f} M/s  peak RSS {r['peak_rss_mb']} MB")
print(f"total on disk: {sum(r['bytes'] for r in rows):,} bytes; peak RSS {max(r['peak_rss_mb'] for r in rows)} MB")
PY
# Compression ratio on a copy of the largest few tiers.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp" "$log"' EXIT
mkdir -p "$tmp/awari-6x4"
for n in $(seq $((max > 20 ? 20 : max)) $((max > 20 ? 20 : max))); do
  cp "$dir/awari-6x4/tier-$(printf %03d "$n").mtb" "$tmp/awari-6x4/"
done
$bin pack awari --dir "$tmp" | tail -1
