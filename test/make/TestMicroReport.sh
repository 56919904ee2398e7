#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only WITH Classpath-exception-2.0
#
# make/scripts/microreport.py, on JMH results made up here.
#
# report: the table of three JVMs (the first the reference) from fixture JMH
# JSON: each JVM's row in the JVMs' order, the ratio to the reference, the
# Verdict column, which calls a difference faster or slower only beyond both
# runs' confidence intervals (JMH's interval for average time and
# throughput, where higher is faster; the order-statistics interval of the
# median for single-shot runs) and says within error or - otherwise; JMH's
# p50, p99, p99.99 and max of sample-time results; a run without a result
# counted as failed.
#
# run: with a stand-in for JMH, that each benchmark and each set of
# parameters runs on every JVM in turn (interleaved, in JMH's order of the
# parameters), each run with its own -p values and an exact regex, the
# smoke run's first parameter values and -p overrides, JMH's lock held
# meanwhile, and a -f 0 refused.
set -euo pipefail

# shellcheck source=test/make/lib/TestLib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/TestLib.sh"

PYTHON="$(spec_var PYTHON)"
[[ -n "$PYTHON" ]] || fail "no PYTHON in the spec"
REPORT=$TOPDIR/make/scripts/microreport.py
# The report's output in the log, set apart (its FAILED lines are fixtures).
show() { while IFS= read -r line; do printf '  | %s\n' "$line"; done; }
dir=$TEST_WORK_DIR/report
mkdir -p "$dir/runs"

################################################################################
# report

# One JMH result as JMH's JSON writes it (the fields the report reads).
avgt() { # NAME SCORE LOW HIGH [MODE]
    printf '{"benchmark": "x.Bench.%s", "mode": "%s", "params": {"size": "1"},
  "primaryMetric": {"score": %s, "scoreConfidence": [%s, %s], "scoreUnit": "%s",
                    "scorePercentiles": {}, "rawData": [[%s]]}}' \
        "$1" "${5:-avgt}" "$2" "$3" "$4" "$([[ "${5:-}" == thrpt ]] && echo ops/s || echo ns/op)" "$2"
}
single() { # NAME PASSES (comma-separated)
    local median
    median=$(tr ',' '\n' <<<"$2" | sort -g | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}')
    printf '{"benchmark": "x.Bench.%s", "mode": "ss", "params": {"size": "1"},
  "primaryMetric": {"score": 1, "scoreConfidence": [0, 0], "scoreUnit": "ns/op",
                    "scorePercentiles": {"50.0": %s}, "rawData": [[%s]]}}' "$1" "$median" "$2"
}
sample() { # NAME MEAN P50 P99 P99.99 MAX
    printf '{"benchmark": "x.Bench.%s", "mode": "sample", "params": {"size": "1"},
  "primaryMetric": {"score": %s, "scoreConfidence": [1, 1000], "scoreUnit": "ns/op",
                    "scorePercentiles": {"0.0": 1, "50.0": %s, "90.0": 2, "99.0": %s,
                                         "99.9": 3, "99.99": %s, "100.0": %s}}}' "$@"
}
passes() { # FROM STEP: 30 passes FROM, FROM+STEP, ...
    seq -s, "$1" "$2" $(($1 + 29 * $2))
}

# The results of one run: its plan entry and its JSON file.
runs=()
result() { # JVM BENCH JSON...
    local jvm=$1 bench=$2 n=$((${#runs[@]} + 1))
    shift 2
    local file
    file=$(printf 'runs/%03d-%s' "$n" "$jvm")
    runs+=("{\"benchmark\": \"x.Bench.$bench\", \"params\": {\"size\": \"1\"}, \"jvm\": \"$jvm\",
             \"json\": \"$file.json\", \"log\": \"$file.log\", \"exit\": 0}")
    if (($# > 0)); then
        local IFS=,
        printf '[%s]\n' "$*" > "$dir/$file.json"
    fi
}
# Interleaved, as run writes them; img2 has no result for "broken".
result stock get "$(avgt get 100 98 102)"
result img1 get "$(avgt get 80 79 81)"
result img2 get "$(avgt get 120 119 121)"
result stock remove "$(avgt remove 100 90 110)"
result img1 remove "$(avgt remove 105 100 110)"
result img2 remove "$(avgt remove 50 NaN NaN)"
result stock drain "$(single drain "$(passes 100 1)")"
result img1 drain "$(single drain "$(passes 200 1)")"
result img2 drain "$(single drain "$(passes 90 1)")"
result stock ops "$(avgt ops 1000 990 1010 thrpt)"
result img1 ops "$(avgt ops 1200 1190 1210 thrpt)"
result img2 ops "$(avgt ops 800 790 810 thrpt)"
result stock put "$(sample put 150 100 400 30000 5000000)"
result img1 put "$(sample put 120 90 300 20000 40000)"
result img2 put "$(sample put 110 80 250 12345 987654)"
result stock broken "$(avgt broken 100 98 102)"
result img1 broken "$(avgt broken 100 98 102)"
result img2 broken
{
    printf '{"filter": "Bench", "jvms": [{"name": "stock", "java": "/s/java"},
             {"name": "img1", "java": "/1/java"}, {"name": "img2", "java": "/2/java"}],
     "machine": {"cpu": "2 x fixture"}, "runs": [\n'
    (IFS=,; printf '%s\n' "${runs[*]}")
    printf ']}\n'
} > "$dir/plan.json"

out=$("$PYTHON" "$REPORT" report --dir "$dir" --summary "$dir/summary/summary.txt" \
    --no-plots "fixture" 2>&1) || fail "microreport.py report failed: $out"
show <<<"$out"

row() { # BENCH JVM: the table row of x.Bench.BENCH on JVM
    grep -E "^Bench\\.$1 .* $2 " <<<"$out" || true
}
verdict_of() { # BENCH JVM EXPECTED
    [[ "$(row "$1" "$2")" =~ [[:space:]]$3$ ]] || { echo "row: $(row "$1" "$2")"; return 1; }
}
has() { # BENCH JVM REGEX: the row matches REGEX
    grep -qE -- "$3" <<<"$(row "$1" "$2")" || { echo "row: $(row "$1" "$2")"; return 1; }
}
order() { # the JVM column of the rows of x.Bench.$1, in order
    grep -E "^Bench\\.$1 " <<<"$out" | awk '{print $4}' | paste -sd' '
}

check "the table's columns" grep -qE 'Benchmark +Mode +Params +JVM +Score +Unit +Ratio +Verdict +p50 +p99 +p99\.99 +max$' <<<"$out"
check "one row per JVM, in the JVMs' order" [ "$(order get)" = "stock img1 img2" ]
check "the benchmarks in the order they ran" \
    [ "$(grep -oE '^Bench\.[a-z]+' <<<"$out" | uniq | paste -sd' ')" = "Bench.get Bench.remove Bench.drain Bench.ops Bench.put Bench.broken" ]
check "the JVMs are named in the header" grep -qx 'img2: /2/java' <<<"$out"
check "the reference row has no ratio nor verdict" has get stock ' 100\.0 +ns/op$'
check "a lower time beyond both intervals is faster, ratio to the reference 0.80" has get img1 ' 80\.0 +ns/op +0\.80 +faster$'
check "a higher time beyond both intervals is slower (1.20)" verdict_of get img2 slower
check "overlapping intervals are within error, whatever the ratio (1.05)" verdict_of remove img1 'within error'
check "no interval: no verdict" verdict_of remove img2 -
check "single shot: the median, 214.5 vs 114.5, disjoint intervals: slower" has drain img1 ' 214\.5 +ns/op +1\.87 +slower$'
check "single shot: medians 104.5 vs 114.5, overlapping intervals: within error" verdict_of drain img2 'within error'
check "throughput: higher beyond both intervals is faster" verdict_of ops img1 faster
check "throughput: lower beyond both intervals is slower" verdict_of ops img2 slower
check "sample time: no verdict, and JMH's p50, p99, p99.99 and max" \
    has put stock ' 150\.0 +ns/op +100\.0 +400\.0 +30,000 +5,000,000$'
check "sample time: each JVM's own percentiles" has put img2 ' 0\.73 +- +80\.0 +250\.0 +12,345 +987,654$'
check "a run without a result is a row of its own" has broken img2 'no result'
check "and a FAILED line" grep -qx 'FAILED img2: Bench.broken size=1: no result (see runs/018-img2.log)' <<<"$out"
check "the summary counts runs: 17 passed, 1 failed" grep -qx 'passed=17 failed=1 error=0 skipped=0' "$dir/summary/summary.txt"
check "the Markdown table has the same columns" grep -q '| Ratio | Verdict | p50 | p99 | p99.99 | max |' "$dir/table.md"
check "each JVM's results in one JMH JSON file" \
    "$PYTHON" -c 'import json, sys; r = json.load(open(sys.argv[1])); sys.exit(len(r) != 5)' "$dir/img2.json"

################################################################################
# run, with a stand-in for JMH

fake=$TEST_WORK_DIR/fake
mkdir -p "$fake"
cat > "$fake/jmh.py" <<'EOF'
# Answers as JMH does, to what microreport.py run asks: -lp lists two
# benchmarks (with -p applied), a run writes a result whose score says which
# JVM ran it. Every call is appended to calls.txt.
import fcntl, json, os, re, sys

args = sys.argv[1:]
here = os.path.dirname(os.path.abspath(__file__))
args = args[args.index("org.openjdk.jmh.Main") + 1:]
with open(os.path.join(here, "calls.txt"), "a") as f:
    f.write(" ".join(args) + "\n")
given, i = {}, 0
while i < len(args):
    if args[i] == "-p":
        k, _, v = args[i + 1].partition("=")
        given[k] = v.split(",")
    i += 1
# The runner holds JMH's lock for the whole run.
lock = open(os.environ["FAKE_LOCK"], "a")
try:
    fcntl.lockf(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    state = "free"
except OSError:
    state = "held"
with open(os.path.join(here, "lock.txt"), "a") as f:
    f.write(state + "\n")
if "-lp" in args:
    params = {"size": given.get("size", ["1", "2"]), "kind": given.get("kind", ["a", "b"])}
    print("Benchmarks: ")
    print("x.Bench.alpha")
    for k in sorted(params):
        print(f'  param "{k}" = {{{", ".join(params[k])}}}')
    print("x.Bench.beta")
    sys.exit(0)
jvm = args[args.index("-jvm") + 1].split("/")[-2]
out = args[args.index("-rff") + 1]
name = args[-1].strip("^$").replace("\\", "")
if name == "x.Bench.beta" and jvm == "2":
    print("<failure>")
    sys.exit(1)
score = {"s": 100, "1": 90, "2": 110}[jvm]
print(f"# Benchmark: {name}")
json.dump([{"benchmark": name, "mode": "avgt",
            "params": {k: v[0] for k, v in given.items()} or None,
            "primaryMetric": {"score": score, "scoreConfidence": [score - 1, score + 1],
                              "scoreUnit": "ns/op", "scorePercentiles": {},
                              "rawData": [[score]]}}], open(out, "w"))
EOF
printf '#!/usr/bin/env bash\nexec %q %q "$@"\n' "$PYTHON" "$fake/jmh.py" > "$fake/java"
mkdir -p "$fake/s" "$fake/1" "$fake/2"
for j in s 1 2; do
    printf '#!/bin/sh\n' > "$fake/$j/java"
done
chmod +x "$fake/java" "$fake"/*/java
export FAKE_LOCK=$fake/jmh.lock

runner() { # RUN-OPTIONS... -- JMH-OPTIONS...
    rm -f "$fake/calls.txt" "$fake/lock.txt"
    "$PYTHON" "$REPORT" run --dir "$TEST_WORK_DIR/run" --summary "$TEST_WORK_DIR/run-summary/summary.txt" \
        --java "$fake/java" --classpath bench.jar --lock "$FAKE_LOCK" --lock-wait 5 \
        --jvm "stock=$fake/s/java" --jvm "img1=$fake/1/java" --jvm "img2=$fake/2/java" \
        --no-plots fixture --filter 'Bench' "$@" 2>&1
}
# The benchmark, its -p values and the JVM of each run, in order.
runs_called() {
    grep -v -- '-lp' "$fake/calls.txt" | "$PYTHON" -c '
import re, sys
for line in sys.stdin:
    a = line.split()
    ps = [a[i + 1] for i, x in enumerate(a) if x == "-p"]
    jvm = a[a.index("-jvm") + 1].split("/")[-2]
    print(a[-1], " ".join(ps), jvm)'
}

run_out=$(runner -- -f 1 -i 2) || fail "microreport.py run failed: $run_out"
show <<<"$run_out"
expected="^x\\.Bench\\.alpha\$ kind=a size=1 s
^x\\.Bench\\.alpha\$ kind=a size=1 1
^x\\.Bench\\.alpha\$ kind=a size=1 2
^x\\.Bench\\.alpha\$ kind=a size=2 s
^x\\.Bench\\.alpha\$ kind=a size=2 1
^x\\.Bench\\.alpha\$ kind=a size=2 2
^x\\.Bench\\.alpha\$ kind=b size=1 s
^x\\.Bench\\.alpha\$ kind=b size=1 1
^x\\.Bench\\.alpha\$ kind=b size=1 2
^x\\.Bench\\.alpha\$ kind=b size=2 s
^x\\.Bench\\.alpha\$ kind=b size=2 1
^x\\.Bench\\.alpha\$ kind=b size=2 2
^x\\.Bench\\.beta\$  s
^x\\.Bench\\.beta\$  1
^x\\.Bench\\.beta\$  2"
check "interleaved: each set of parameters on stock, img1, img2 in turn, names sorted, the last varying fastest" \
    [ "$(runs_called)" = "$expected" ]
check "the JMH options reach every run" [ "$(grep -c -- ' -f 1 -i 2 ' "$fake/calls.txt")" = 16 ]
check "every run writes JSON to its own file" [ "$(grep -c -- '-rf json -rff .*/runs/0[0-9][0-9]-[a-z0-9]*\.json' "$fake/calls.txt")" = 15 ]
check "JMH's lock is held by the runner throughout" [ "$(sort -u "$fake/lock.txt")" = held ]
check "without sample-time results, no percentile columns" grep -qE 'Ratio +Verdict$' <<<"$run_out"
check "the interleaved runs make one table: ratio to stock" grep -qE '^Bench\.alpha +avgt +kind=b size=2 +img1 +90\.0 +ns/op +0\.90 +faster$' <<<"$run_out"
check "a failed run is reported" grep -q 'FAILED img2: Bench.beta -: JMH exited with status 1' <<<"$run_out"
check "the summary counts the 15 runs" grep -qx 'passed=14 failed=1 error=0 skipped=0' "$TEST_WORK_DIR/run-summary/summary.txt"

runner --first-params -- -f 1 > /dev/null || true
check "smoke: the first value of each parameter" \
    [ "$(runs_called | awk 'NF == 4 {print $2, $3}' | sort -u | paste -sd';')" = "kind=a size=1" ]

runner --first-params -- -f 1 -p size=7,8 > /dev/null || true
check "smoke: a -p option gives its values" \
    [ "$(runs_called | awk 'NF == 4 {print $2, $3}' | uniq | paste -sd';')" = "kind=a size=7;kind=a size=8" ]

refused=$(runner -- -f 0) && fail "-f 0 was accepted"
check "-f 0 is refused: the benchmarks would run in JMH's own JVM" grep -q -- '-f 0 would run' <<<"$refused"
finish
