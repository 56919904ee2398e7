#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only WITH Classpath-exception-2.0
#
# make/scripts/microreport.py's table, on fixture JMH results: the ratio, and
# the Verdict column, which calls a difference faster or slower only beyond
# both runs' confidence intervals (JMH's interval of the mean for average
# time, the order-statistics interval of the median for single-shot runs),
# and says within error or - (too little data) otherwise.
set -euo pipefail

# shellcheck source=test/make/lib/TestLib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/TestLib.sh"

PYTHON="$(spec_var PYTHON)"
[[ -n "$PYTHON" ]] || fail "no PYTHON in the spec"
dir=$TEST_WORK_DIR/report
mkdir -p "$dir"

# One JMH result as JMH's JSON writes it (the fields the report reads).
# avgt: score and its interval; ss: the passes of one fork.
avgt() { # NAME SIZE SCORE LOW HIGH
    printf '{"benchmark": "x.Bench.%s", "mode": "avgt", "params": {"size": "%s"},
  "primaryMetric": {"score": %s, "scoreConfidence": [%s, %s], "scoreUnit": "ns/op",
                    "scorePercentiles": {}, "rawData": [[%s]]}}' "$1" "$2" "$3" "$4" "$5" "$3"
}
single() { # NAME SIZE PASSES (comma-separated)
    local median
    median=$(tr ',' '\n' <<<"$3" | sort -g | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}')
    printf '{"benchmark": "x.Bench.%s", "mode": "ss", "params": {"size": "%s"},
  "primaryMetric": {"score": %s, "scoreConfidence": [0, 0], "scoreUnit": "ns/op",
                    "scorePercentiles": {"50.0": %s}, "rawData": [[%s]]}}' "$1" "$2" "$median" "$median" "$3"
}
passes() { # FROM STEP: 30 passes FROM, FROM+STEP, ...
    seq -s, "$1" "$2" $(($1 + 29 * $2))
}

cat > "$dir/r-stock.json" <<EOF
[$(avgt get 1 100 98 102), $(avgt put 1 100 98 102), $(avgt remove 1 100 90 110),
 $(avgt one 1 100 NaN NaN),
 $(single drain 1 "$(passes 100 1)"), $(single spread 1 "$(passes 100 1)")]
EOF
cat > "$dir/r-patched.json" <<EOF
[$(avgt get 1 80 79 81), $(avgt put 1 120 119 121), $(avgt remove 1 105 100 110),
 $(avgt one 1 50 NaN NaN),
 $(single drain 1 "$(passes 200 1)"), $(single spread 1 "$(passes 90 1)")]
EOF
: > "$dir/r-stock.log"
: > "$dir/r-patched.log"

out=$("$PYTHON" "$TOPDIR/make/scripts/microreport.py" --dir "$dir" --name r \
    --summary "$dir/summary/summary.txt" --no-plots "fixture") \
    || fail "microreport.py failed: $out"

row() { # BENCH: the table row of x.Bench.BENCH, or nothing
    grep -E "^Bench\\.$1 " <<<"$out" || true
}
verdict_of() { # BENCH EXPECTED
    local line
    line=$(row "$1")
    [[ "$line" =~ [[:space:]]$2$ ]] || { echo "row: $line"; return 1; }
}

check "the table has a Verdict column" grep -q 'Patched/Stock  *Unit  *Verdict' <<<"$out"
check "a lower time beyond both intervals is faster (0.80)" verdict_of get faster
check "a higher time beyond both intervals is slower (1.20)" verdict_of put slower
check "overlapping intervals are within error, whatever the ratio (1.05)" verdict_of remove 'within error'
check "no interval (one iteration): no verdict" verdict_of one -
check "single shot: medians 114.5 vs 214.5, disjoint intervals: slower" verdict_of drain slower
check "single shot: medians 114.5 vs 104.5, overlapping intervals: within error" verdict_of spread 'within error'
check "the ratio is patched over stock" grep -qE '^Bench\.get .* 0\.80  ns/op' <<<"$out"
check "the Markdown table has the column too" grep -q '| Unit | Verdict |' "$dir/r-table.md"
finish
