#!/usr/bin/env bash
# Builds Awari tables up to MAX seeds (default 28) and prints the figures the tables issue asks
# for: positions per second per core on tiers 16..20, total build time, peak memory, table
# sizes, and the compressed size of the whole set (packed in a scratch copy).
#
#   scripts/build-big-tables.sh [MAX] [DIR] [PACK]
#
# DIR defaults to databases/. Resumable: tiers already built are reused (and reported as such).
# PACK (default yes) = no skips the compression figure (it needs as much disk again as the set).
set -euo pipefail
cd "$(dirname "$0")/.."
max=${1:-28}
dir=${2:-databases}
do_pack=${3:-yes}
threads=$(nproc)
cargo build --release -q -p mancala-cli
bin=target/release/mancala
log=$(mktemp)
trap 'rm -f "$log"' EXIT
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
if [ "$do_pack" = yes ]; then
  # The compressed size of the whole set, on a copy (compressing reads every lower tier).
  tmp=$(mktemp -d "${dir%/}/scratch-pack.XXXXXX")
  trap 'rm -rf "$tmp" "$log"' EXIT
  cp -r "$dir/awari-6x4" "$tmp/"
  /usr/bin/time -f "pack: %e s" $bin pack awari --dir "$tmp" --max-seeds "$max" | tail -3
fi
