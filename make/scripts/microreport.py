#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only WITH Classpath-exception-2.0
"""Side-by-side report of two JMH runs of the same benchmarks (stock and
patched JDK): a table with ratios, plots, and the runner's summary.txt.

Reads <dir>/<name>-stock.json, -patched.json (JMH -rf json) and the matching
.log files (JMH console output). A benchmark run is one benchmark method with
one set of parameters on one JVM; it passed when the JSON has its result, it
failed when the log shows it started (or the other JVM ran it) and the JSON
has no result for it.

Writes <dir>/<name>-table.txt and <name>-table.md, a plot per benchmark
method (<name>-<method>.png), and the summary file. The table's Verdict
column says whether the patched score is faster or slower than stock beyond
both runs' confidence intervals, or within error, so that a ratio inside
the noise is not read as a difference.
"""

import argparse
import json
import math
import os
import re
import subprocess
import sys

JVMS = ("stock", "patched")
# Percentiles shown for sample-time benchmarks: JMH's keys and our labels.
PERCENTILES = (("50.0", "p50"), ("99.0", "p99"), ("99.9", "p99.9"),
               ("99.99", "p99.99"), ("100.0", "max"))
TAIL_LINE = re.compile(r"^tail: (benchmark=.*)")


def short_name(benchmark):
    """org.openjdk.bench.java.security.CacheBench.put -> CacheBench.put"""
    parts = benchmark.split(".")
    return ".".join(parts[-2:])


def params_text(params):
    return " ".join(f"{k}={v}" for k, v in sorted(params.items())) or "-"


def load_results(path):
    """JMH JSON -> {(benchmark, params_text): result}; missing file -> {}."""
    if not os.path.exists(path) or os.path.getsize(path) == 0:
        return {}
    with open(path, encoding="utf-8") as f:
        data = json.load(f)
    if not isinstance(data, list):
        raise SystemExit(f"{path}: not a JMH JSON result list")
    results = {}
    for entry in data:
        key = (short_name(entry["benchmark"]),
               params_text(entry.get("params") or {}))
        results[key] = entry
    return results


def started_runs(path):
    """Runs whose header the JMH log shows, as (benchmark, params_text)."""
    runs = []
    if not os.path.exists(path):
        return runs
    bench = None
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            if line.startswith("# Benchmark: "):
                bench = short_name(line[len("# Benchmark: "):].strip())
                runs.append((bench, "-"))
            elif line.startswith("# Parameters: (") and bench and runs:
                inner = line.strip()[len("# Parameters: ("):-1]
                params = {}
                for item in inner.split(", "):
                    k, _, v = item.partition(" = ")
                    params[k.strip()] = v.strip()
                runs[-1] = (bench, params_text(params))
    return runs


def tail_counters(path):
    """Extra lines the benchmarks print (all-operation tail counters)."""
    found = {}
    if not os.path.exists(path):
        return found
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            m = TAIL_LINE.search(line)
            if not m:
                continue
            fields = dict(item.split("=", 1) for item in m.group(1).split())
            bench = fields.pop("benchmark", "?")
            params = {k[len("param."):]: v for k, v in fields.items()
                      if k.startswith("param.")}
            values = {k: v for k, v in fields.items()
                      if not k.startswith("param.")}
            found[(bench, params_text(params))] = values
    return found


def number(value):
    """JMH writes NaN as the string "NaN"; None for anything not a number."""
    try:
        value = float(value)
    except (TypeError, ValueError):
        return None
    return None if math.isnan(value) else value


def fmt(value):
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "-"
    if value >= 1000:
        return f"{value:,.0f}"
    if value >= 10:
        return f"{value:.1f}"
    return f"{value:.2f}"


def score_of(result):
    """The number a run is judged by: the median for single-shot runs."""
    metric = result["primaryMetric"]
    if result["mode"] == "ss":
        return number(metric["scorePercentiles"]["50.0"])
    return number(metric["score"])


def interval(result):
    """The confidence interval of the score a run is judged by, or None.

    Average time: JMH's own 99.9% interval of the mean. Single shot: the
    distribution-free 95% interval of the median, [X_j, X_(n+1-j)] of the
    sorted passes for the largest j with P(Binomial(n, 1/2) < j) <= 0.025.
    None when there is too little data for one (a single iteration).
    Average time over one fork covers that JVM's noise only, not the
    spread between JVMs: judge cells by runs with several forks.
    """
    metric = result["primaryMetric"]
    if result["mode"] == "ss":
        raw = sorted(x for fork in metric.get("rawData") or [] for x in fork)
        n = len(raw)
        if n < 6:
            return None
        j, below = 0, 0.0
        while below + math.comb(n, j) / 2 ** n <= 0.025:
            below += math.comb(n, j) / 2 ** n
            j += 1
        if j == 0:
            return None
        return raw[j - 1], raw[n - j]
    if result["mode"] == "avgt":
        lo, hi = (number(v) for v in metric.get("scoreConfidence") or (None, None))
        if lo is None or hi is None:
            return None
        return lo, hi
    return None


def verdict(stock, patched):
    """faster / slower (lower time is faster) / within error / - (no data)."""
    if not stock or not patched:
        return "-"
    s, p = interval(stock), interval(patched)
    if s is None or p is None:
        return "-"
    if p[1] < s[0]:
        return "faster"
    if p[0] > s[1]:
        return "slower"
    return "within error"


def rows_for(key, stock, patched):
    """Table rows (benchmark, params, stock, patched, unit, verdict)."""
    any_result = stock or patched
    mode = any_result["mode"]
    unit = any_result["primaryMetric"]["scoreUnit"]
    bench, params = key
    rows = []
    if mode == "sample":
        for pkey, label in PERCENTILES:
            s = number(stock["primaryMetric"]["scorePercentiles"][pkey]) if stock else None
            p = number(patched["primaryMetric"]["scorePercentiles"][pkey]) if patched else None
            rows.append((f"{bench} {label}", params, s, p, unit, "-"))
    elif mode == "ss":
        # Single-shot passes are short: one preemption of the benchmark
        # thread by the OS moves the mean, not the median.
        s = number(stock["primaryMetric"]["scorePercentiles"]["50.0"]) if stock else None
        p = number(patched["primaryMetric"]["scorePercentiles"]["50.0"]) if patched else None
        rows.append((f"{bench} (median)", params, s, p, unit,
                     verdict(stock, patched)))
    else:
        s = number(stock["primaryMetric"]["score"]) if stock else None
        p = number(patched["primaryMetric"]["score"]) if patched else None
        rows.append((bench, params, s, p, unit, verdict(stock, patched)))
    return rows


def ratio(s, p):
    if s is None or p is None or s == 0:
        return None
    return p / s


def write_tables(rows, tails, out_txt, out_md, header_lines):
    head = ("Benchmark", "Params", "Stock", "Patched", "Patched/Stock", "Unit",
            "Verdict")
    table = [head]
    for bench, params, s, p, unit, judged in rows:
        r = ratio(s, p)
        table.append((bench, params, fmt(s), fmt(p),
                      "-" if r is None else f"{r:.2f}", unit, judged))
    widths = [max(len(row[i]) for row in table) for i in range(len(head))]
    lines = []
    for n, row in enumerate(table):
        cells = [row[i].ljust(widths[i]) if i < 2 or i == 6
                 else row[i].rjust(widths[i]) for i in range(len(row))]
        lines.append("  ".join(cells).rstrip())
        if n == 0:
            lines.append("  ".join("-" * w for w in widths))
    text = "\n".join(header_lines + [""] + lines) + "\n"
    if tails:
        text += "\nEvery operation, not sampled (counted by the benchmark itself):\n"
        for (bench, params), jvms in sorted(tails.items()):
            for jvm in JVMS:
                if jvm in jvms:
                    values = " ".join(f"{k}={v}" for k, v in jvms[jvm].items())
                    text += f"  {bench} {params} {jvm}: {values}\n"
    with open(out_txt, "w", encoding="utf-8") as f:
        f.write(text)
    md = ["| " + " | ".join(head) + " |",
          "|" + "|".join(["---", "---", "---:", "---:", "---:", "---", "---"]) + "|"]
    for row in table[1:]:
        md.append("| " + " | ".join(row) + " |")
    if tails:
        md.append("")
        md.append("| Benchmark | Params | JVM | Every operation |")
        md.append("|---|---|---|---|")
        for (bench, params), jvms in sorted(tails.items()):
            for jvm in JVMS:
                if jvm in jvms:
                    values = " ".join(f"{k}={v}" for k, v in jvms[jvm].items())
                    md.append(f"| {bench} | {params} | {jvm} | {values} |")
    with open(out_md, "w", encoding="utf-8") as f:
        f.write("\n".join(md) + "\n")
    return text


def plot(keys, results, outdir, name):
    """One PNG per benchmark method; returns the files written."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    by_bench = {}
    for key in keys:
        by_bench.setdefault(key[0], []).append(key)
    written = []
    colors = {"stock": "#7f7f7f", "patched": "#1f77b4"}
    for bench, bkeys in sorted(by_bench.items()):
        sample = next(results[j][k] for k in bkeys for j in JVMS
                      if k in results[j])
        unit = sample["primaryMetric"]["scoreUnit"]
        mode = sample["mode"]
        if mode == "sample":
            if bench.endswith("Baseline") and bench[:-len("Baseline")] in by_bench:
                continue  # drawn into the figure of the benchmark it controls
            baseline = by_bench.get(bench + "Baseline", [])
            fig, axes = plt.subplots(1, len(bkeys), sharey=True,
                                     figsize=(4.2 * len(bkeys) + 1, 4.8),
                                     squeeze=False)
            xs = list(range(len(PERCENTILES)))
            for ax, key in zip(axes[0], bkeys):
                lines = [(key, jvm, "-" if jvm == "patched" else "--", jvm)
                         for jvm in JVMS]
                for bkey in baseline:
                    if bkey[1] == key[1]:
                        lines += [(bkey, jvm, ":", f"{jvm}, no put (noise floor)")
                                  for jvm in JVMS]
                for k, jvm, style, label in lines:
                    res = results[jvm].get(k)
                    if not res:
                        continue
                    pct = res["primaryMetric"]["scorePercentiles"]
                    ax.plot(xs, [number(pct[p]) for p, _ in PERCENTILES],
                            marker="o" if style != ":" else ".",
                            color=colors[jvm], linestyle=style, label=label)
                ax.set_xticks(xs)
                ax.set_xticklabels([label for _, label in PERCENTILES])
                ax.set_yscale("log")
                ax.set_title(key[1], fontsize="medium")
                ax.grid(True, which="both", alpha=0.3)
            axes[0][0].set_ylabel(f"latency ({unit})")
            axes[0][0].legend(fontsize="x-small")
            fig.suptitle(f"{bench}: latency percentiles (JMH sample)")
        else:
            fig, ax = plt.subplots(figsize=(max(6, 0.7 * len(bkeys) + 2), 4.8))
            width = 0.38
            for i, jvm in enumerate(JVMS):
                xs, ys, errs = [], [], []
                for n, key in enumerate(bkeys):
                    res = results[jvm].get(key)
                    if not res:
                        continue
                    xs.append(n + (i - 0.5) * width)
                    ys.append(score_of(res))
                    if mode == "ss":
                        errs.append(0)  # a median: no symmetric error
                    else:
                        errs.append(number(res["primaryMetric"].get("scoreError")) or 0)
                ax.bar(xs, ys, width, yerr=errs, color=colors[jvm], label=jvm,
                       capsize=2)
            ax.set_xticks(range(len(bkeys)))
            ax.set_xticklabels([k[1].replace(" ", "\n") for k in bkeys],
                               fontsize="x-small")
            values = [score_of(results[j][k])
                      for k in bkeys for j in JVMS if k in results[j]]
            values = [v for v in values if v]
            # bars read as lengths: linear from zero unless the values span
            # so much that the small ones would vanish
            if values and max(values) / min(values) > 20:
                ax.set_yscale("log")
            else:
                ax.set_ylim(bottom=0)
            ax.set_ylabel(unit)
            ax.set_title(f"{bench} ({'median pass' if mode == 'ss' else mode}; lower is better"
                         f"{'' if 'ops/' not in unit else ' - no: higher'})")
            ax.grid(True, axis="y", which="both", alpha=0.3)
            ax.legend()
        fig.tight_layout()
        path = os.path.join(outdir, f"{name}-{bench.split('.')[-1]}.png")
        fig.savefig(path, dpi=90)
        plt.close(fig)
        written.append(path)
    return written


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--dir", required=True)
    ap.add_argument("--name", required=True)
    ap.add_argument("--summary", required=True)
    ap.add_argument("--no-plots", metavar="REASON")
    ap.add_argument("--stock-jdk", default="?")
    ap.add_argument("--patched-jdk", default="?")
    args = ap.parse_args()

    results, started, tails = {}, {}, {}
    for jvm in JVMS:
        base = os.path.join(args.dir, f"{args.name}-{jvm}")
        results[jvm] = load_results(base + ".json")
        started[jvm] = started_runs(base + ".log")
        for key, values in tail_counters(base + ".log").items():
            tails.setdefault(key, {})[jvm] = values

    keys = []
    for jvm in JVMS:
        for key in started[jvm] + list(results[jvm]):
            if key not in keys:
                keys.append(key)
    if not keys:
        print(f"micro: no benchmark ran on either JVM (see {args.dir}/"
              f"{args.name}-*.log): does the filter match a benchmark?",
              file=sys.stderr)
        return 2

    passed = failed = 0
    failures = []
    for key in keys:
        for jvm in JVMS:
            if key in results[jvm]:
                passed += 1
            else:
                failed += 1
                failures.append(f"{jvm}: {key[0]} {key[1]}")

    rows = []
    for key in keys:
        if key in results["stock"] or key in results["patched"]:
            rows.extend(rows_for(key, results["stock"].get(key),
                                 results["patched"].get(key)))
    header = [f"stock:   {args.stock_jdk}", f"patched: {args.patched_jdk}"]
    machine = os.path.join(args.dir, f"{args.name}-machine.txt")
    if os.path.exists(machine):
        with open(machine, encoding="utf-8") as f:
            header += [line.rstrip("\n") for line in f]
    text = write_tables(rows, tails,
                        os.path.join(args.dir, f"{args.name}-table.txt"),
                        os.path.join(args.dir, f"{args.name}-table.md"),
                        header)
    print()
    print(text, end="")
    for failure in failures:
        print(f"FAILED (no result) {failure}")

    if args.no_plots:
        print(f"plots skipped: {args.no_plots}")
    elif rows:
        try:
            for path in plot([k for k in keys if k in results["stock"]
                              or k in results["patched"]],
                             results, args.dir, args.name):
                print(f"plot: {path}")
        except Exception as e:  # the report is part of what is checked
            print(f"FAILED report: plots could not be drawn: {e!r}")
            failed += 1

    # The one writer of summary.txt (and of the runner's counts line).
    recorder = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                            "test-summary.sh")
    subprocess.run(["bash", recorder, "record", os.path.dirname(args.summary),
                    "micro", str(passed), str(failed), "0", "0"], check=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
