#!/usr/bin/env bash
# Builds one tier with two binaries of `mancala`, alternately, on the same lower tiers, and
# prints each run's seconds, its phases (exits, seeding, propagation) and whether the two
# wrote the same bytes. The machine's speed drifts, so the two are compared within one run.
#
#   scripts/compare-builds.sh OLD NEW SRC TIER [RUNS] -- VARIANT ARGS...
#
# OLD, NEW: the two binaries. SRC: the rule set's folder (databases/awari-6x3, say) holding
# the tiers below TIER; they are hard-linked into scratch folders beside it. RUNS: runs of
# each binary (default 2). Example, Awari with 3 seeds a pit, tier 28, against a copy of the
# binary saved before a change (`cp target/release/mancala mancala-before`):
#   scripts/compare-builds.sh mancala-before target/release/mancala databases/awari-6x3 28 -- awari --seeds 3
set -euo pipefail
[ $# -ge 6 ] || { sed -n 2,12p "$0"; exit 2; }
old=$1 new=$2 src=$3 tier=$4
runs=2
if [ "$5" != "--" ]; then runs=$5; shift; fi
shift 5
variant=("$@")
key=$(basename "$src")
scratch=$(dirname "$src")/compare-$$
trap 'rm -rf "$scratch"' EXIT
for r in $(seq 1 "$runs"); do
  for which in old new; do
    bin=${!which}
    d=$scratch/$which/$key
    rm -rf "$scratch/$which"
    mkdir -p "$d"
    for f in "$src"/tier-*.mtb; do
      t=$(basename "$f" .mtb); t=$((10#${t#tier-}))
      [ "$t" -lt "$tier" ] && ln "$f" "$d/"
    done
    line=$(MANCALA_PROFILE=1 "$bin" build "${variant[@]}" --max-seeds "$tier" --dir "$scratch/$which" \
      --json -q 2> "$scratch/$which.err" | tail -1)
    secs=$(sed -n 's/.*"seconds":\([0-9.]*\).*/\1/p' <<< "$line")
    phases=$(grep "^tier $tier:" "$scratch/$which.err" || true)
    echo "run $r $which: $secs s; $phases"
    sum=$(cksum < "$d/tier-$(printf %03d "$tier").mtb")
    eval "sum_$which=\$sum"
  done
  [ "$sum_old" = "$sum_new" ] && echo "run $r: the same bytes" || { echo "run $r: the files differ" >&2; exit 1; }
done
