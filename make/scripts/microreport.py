#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only WITH Classpath-exception-2.0
"""JMH benchmarks on several JVMs, interleaved, and one table of the results.

  microreport.py run --dir D --summary S --java J --classpath CP
                     --jvm NAME=JAVA... --filter REGEX [--first-params]
                     [--lock FILE --lock-wait SECONDS] [--no-plots REASON]
                     -- JMH-OPTION...
  microreport.py report --dir D --summary S [--no-plots REASON]

run lists the benchmarks that REGEX selects with their parameters (JMH -lp,
which applies the -p options given), then, for each benchmark and each set
of parameters in JMH's order, runs JMH once per JVM, in the order of the
--jvm options (JMH -jvm, -rf json, -p for every parameter), so that a drift
of the machine during the run falls on every JVM alike. --first-params
takes the first value of each parameter that no -p option gives (a smoke
run). It writes D/plan.json (the JVMs and every run, in order), the runs'
JSON and console logs in D/runs/, and then does what report does.

report reads D/plan.json and the runs' JSON, writes D/<jvm>.json (each JVM's
results in one JMH JSON file), D/table.txt and D/table.md, a plot per
benchmark method (D/<Class>.<method>.png), prints the table and records the counts
in the summary file: a run (one benchmark, one set of parameters, one JVM)
passed when JMH exited with 0 and wrote its result, else it failed.

The table has a row per result and JVM: the score (the median pass for
single-shot runs), its ratio to the first JVM's score, a verdict, and, when
there are sample-time results, JMH's p50, p99, p99.99 and max. The verdict says
faster or slower only when the two scores' confidence intervals are
disjoint, else within error, or - when there is too little data for an
interval, so that a ratio inside the noise is not read as a difference.
"""

import argparse
import datetime
import fcntl
import itertools
import json
import math
import os
import re
import shutil
import subprocess
import sys
import time

# Percentiles shown for sample-time results: JMH's keys and our labels.
PERCENTILES = (("50.0", "p50"), ("99.0", "p99"), ("99.99", "p99.99"),
               ("100.0", "max"))
JMH_MAIN = "org.openjdk.jmh.Main"
NAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*$")


################################################################################
# Reading JMH's results


def short_name(benchmark):
    """org.openjdk.bench.java.security.CacheBench.put -> CacheBench.put"""
    return ".".join(benchmark.split(".")[-2:])


def params_text(params):
    return " ".join(f"{k}={v}" for k, v in sorted(params.items())) or "-"


def number(value):
    """JMH writes NaN as the string "NaN"; None for anything not a number."""
    try:
        value = float(value)
    except (TypeError, ValueError):
        return None
    return None if math.isnan(value) else value


def load_results(path):
    """A JMH JSON result list; [] when the file is missing or empty."""
    if not os.path.exists(path) or os.path.getsize(path) == 0:
        return []
    with open(path, encoding="utf-8") as f:
        data = json.load(f)
    if not isinstance(data, list):
        raise SystemExit(f"{path}: not a JMH JSON result list")
    return data


def result_key(result):
    """(benchmark, mode, params): what a row of the table is about."""
    return (short_name(result["benchmark"]), result["mode"],
            params_text(result.get("params") or {}))


def score_of(result):
    """The number a result is judged by: the median for single-shot runs
    (a pass is short: one preemption by the OS moves a mean, not a
    median)."""
    metric = result["primaryMetric"]
    if result["mode"] == "ss":
        return number((metric.get("scorePercentiles") or {}).get("50.0"))
    return number(metric.get("score"))


def interval(result):
    """The confidence interval of score_of(result), or None.

    Average time and throughput: JMH's own 99.9% interval. Single shot: the
    distribution-free 95% interval of the median, [X_j, X_(n+1-j)] of the
    sorted passes for the largest j with P(Binomial(n, 1/2) < j) <= 0.025.
    Sample time: none (JMH's interval of the mean takes every sample as
    independent; the percentiles are what such a run is read for). None
    also when there is too little data (a single iteration). With one
    fork, an interval covers that JVM's noise only, not the spread between
    JVMs.
    """
    metric = result["primaryMetric"]
    if result["mode"] == "ss":
        raw = sorted(x for fork in metric.get("rawData") or [] for x in fork)
        n = len(raw)
        j, below = 0, 0.0
        while below + math.comb(n, j) / 2 ** n <= 0.025:
            below += math.comb(n, j) / 2 ** n
            j += 1
        if j == 0:
            return None
        return raw[j - 1], raw[n - j]
    if result["mode"] in ("avgt", "thrpt"):
        lo, hi = (number(v) for v in metric.get("scoreConfidence") or (None, None))
        if lo is None or hi is None:
            return None
        return lo, hi
    return None


def verdict(reference, other):
    """faster / slower / within error / - (no interval). Lower is faster,
    except for throughput."""
    s, p = interval(reference), interval(other)
    if s is None or p is None:
        return "-"
    lower, higher = ("slower", "faster") if other["mode"] == "thrpt" else ("faster", "slower")
    if p[1] < s[0]:
        return lower
    if p[0] > s[1]:
        return higher
    return "within error"


def fmt(value):
    if value is None:
        return "-"
    if abs(value) >= 1000:
        return f"{value:,.0f}"
    if abs(value) >= 10:
        return f"{value:.1f}"
    return f"{value:.2f}"


################################################################################
# The report


def load_plan(run_dir):
    path = os.path.join(run_dir, "plan.json")
    if not os.path.exists(path):
        raise SystemExit(f"micro: {path} is missing: no run to report")
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def collect(run_dir, plan):
    """Every run's results: ({jvm: {key: result}}, keys in run order,
    failures as text, number of runs that passed)."""
    jvms = [j["name"] for j in plan["jvms"]]
    results = {j: {} for j in jvms}
    keys, failures = [], []
    passed = 0
    for run in plan["runs"]:
        found = load_results(os.path.join(run_dir, run["json"]))
        for result in found:
            key = result_key(result)
            results[run["jvm"]][key] = result
            if key not in keys:
                keys.append(key)
        what = f"{run['jvm']}: {short_name(run['benchmark'])} {params_text(run['params'])}"
        if run.get("exit") is None:
            failures.append(f"{what}: did not run to its end")
        elif run["exit"] != 0:
            failures.append(f"{what}: JMH exited with status {run['exit']} (see {run['log']})")
        elif not found:
            failures.append(f"{what}: no result (see {run['log']})")
        else:
            passed += 1
    return results, keys, failures, passed


TABLE_HEAD = ("Benchmark", "Mode", "Params", "JVM", "Score", "Unit", "Ratio",
              "Verdict") + tuple(label for _, label in PERCENTILES) + ("Secondary",)
# Columns aligned left; the others are numbers, aligned right.
LEFT = {0, 1, 2, 3, 5, 7, len(TABLE_HEAD) - 1}
# The columns shown only when a row has a value: percentiles, secondary.
OPTIONAL = len(PERCENTILES) + 1


def secondary_text(result):
    """JMH's secondary results (@AuxCounters, profilers such as -prof gc),
    'name=score' each, in JMH's order."""
    metrics = (result.get("secondaryMetrics") or {}).items()
    return " ".join("%s=%s" % (name.lstrip(MIDDLE_DOT), fmt(number(m.get("score"))))
                    for name, m in metrics)


# Some JMH versions start profiler results' names with it.
MIDDLE_DOT = "\u00b7"


def table_rows(results, keys, jvms):
    rows = []
    for key in keys:
        bench, mode, params = key
        reference = results[jvms[0]].get(key)
        ref_score = score_of(reference) if reference else None
        for jvm in jvms:
            result = results[jvm].get(key)
            if result is None:
                rows.append((bench, mode, params, jvm, "-", "", "", "no result")
                            + ("",) * OPTIONAL)
                continue
            metric = result["primaryMetric"]
            score = score_of(result)
            ratio, judged = "", ""
            if jvm != jvms[0]:
                if ref_score and score is not None:
                    ratio = f"{score / ref_score:.2f}"
                judged = verdict(reference, result) if reference else "-"
            tail = ("",) * len(PERCENTILES)
            if mode == "sample":
                pct = metric.get("scorePercentiles") or {}
                tail = tuple(fmt(number(pct.get(p))) for p, _ in PERCENTILES)
            rows.append((bench, mode, params, jvm, fmt(score),
                         metric.get("scoreUnit", ""), ratio, judged) + tail
                        + (secondary_text(result),))
    return rows


def shown_columns(rows):
    """The columns of the table: the percentiles and the secondary results
    only when a result has them."""
    first_tail = len(TABLE_HEAD) - OPTIONAL
    return [i for i in range(len(TABLE_HEAD))
            if i < first_tail or any(row[i] for row in rows)]


def render_text(rows):
    cols = shown_columns(rows)
    widths = {i: max(len(r[i]) for r in [TABLE_HEAD] + rows) for i in cols}
    lines = []
    for n, row in enumerate([TABLE_HEAD] + rows):
        cells = [row[i].ljust(widths[i]) if i in LEFT else row[i].rjust(widths[i])
                 for i in cols]
        lines.append("  ".join(cells).rstrip())
        if n == 0:
            lines.append("  ".join("-" * widths[i] for i in cols))
    return "\n".join(lines) + "\n"


def render_markdown(rows):
    cols = shown_columns(rows)
    md = ["| " + " | ".join(TABLE_HEAD[i] for i in cols) + " |",
          "|" + "|".join("---" if i in LEFT else "---:" for i in cols) + "|"]
    for row in rows:
        md.append("| " + " | ".join(row[i] for i in cols) + " |")
    return "\n".join(md) + "\n"


def header(plan):
    lines = [f"{j['name']}: {j['java']}" for j in plan["jvms"]]
    machine = plan.get("machine") or {}
    for what in ("cpu", "before", "after"):
        if machine.get(what):
            lines.append(f"{what}: {machine[what]}")
    return lines


def plot(results, keys, jvms, run_dir):
    """One PNG per benchmark method and mode; returns the files written."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    groups = {}
    for key in keys:
        groups.setdefault((key[0], key[1]), []).append(key)
    colors = plt.get_cmap("tab10")
    written = []
    for (bench, mode), bkeys in groups.items():
        sample = next(results[j][k] for k in bkeys for j in jvms if k in results[j])
        unit = sample["primaryMetric"]["scoreUnit"]
        if mode == "sample":
            fig, axes = plt.subplots(1, len(bkeys), sharey=True, squeeze=False,
                                     figsize=(4.2 * len(bkeys) + 1, 4.8))
            xs = list(range(len(PERCENTILES)))
            for ax, key in zip(axes[0], bkeys):
                for n, jvm in enumerate(jvms):
                    res = results[jvm].get(key)
                    if not res:
                        continue
                    pct = res["primaryMetric"].get("scorePercentiles") or {}
                    ax.plot(xs, [number(pct.get(p)) for p, _ in PERCENTILES],
                            marker="o", color=colors(n), label=jvm)
                ax.set_xticks(xs)
                ax.set_xticklabels([label for _, label in PERCENTILES])
                ax.set_yscale("log")
                ax.set_title(key[2], fontsize="medium")
                ax.grid(True, which="both", alpha=0.3)
            axes[0][0].set_ylabel(f"latency ({unit})")
            axes[0][0].legend(fontsize="x-small")
            fig.suptitle(f"{bench}: latency percentiles (JMH sample time)")
        else:
            fig, ax = plt.subplots(figsize=(max(6, 0.5 * len(bkeys) * len(jvms) + 2), 4.8))
            width = 0.8 / len(jvms)
            values = []
            for n, jvm in enumerate(jvms):
                xs, ys = [], []
                for i, key in enumerate(bkeys):
                    res = results[jvm].get(key)
                    if res and score_of(res) is not None:
                        xs.append(i + (n - (len(jvms) - 1) / 2) * width)
                        ys.append(score_of(res))
                values += ys
                ax.bar(xs, ys, width, color=colors(n), label=jvm)
            ax.set_xticks(range(len(bkeys)))
            ax.set_xticklabels([k[2].replace(" ", "\n") for k in bkeys], fontsize="x-small")
            # bars read as lengths: linear from zero unless the values span
            # so much that the small ones would vanish
            if values and min(values) > 0 and max(values) / min(values) > 20:
                ax.set_yscale("log")
            else:
                ax.set_ylim(bottom=0)
            ax.set_ylabel(unit)
            better = "higher" if mode == "thrpt" else "lower"
            ax.set_title(f"{bench} ({'median pass' if mode == 'ss' else mode}; {better} is better)")
            ax.grid(True, axis="y", which="both", alpha=0.3)
            ax.legend(fontsize="x-small")
        fig.tight_layout()
        path = os.path.join(run_dir, f"{bench}-{mode}.png"
                            if len({m for b, m in groups if b == bench}) > 1
                            else f"{bench}.png")
        fig.savefig(path, dpi=90)
        plt.close(fig)
        written.append(path)
    return written


def report(run_dir, summary, no_plots):
    plan = load_plan(run_dir)
    jvms = [j["name"] for j in plan["jvms"]]
    results, keys, failures, passed = collect(run_dir, plan)
    if not plan["runs"]:
        print(f"micro: no benchmark matches the filter '{plan.get('filter', '')}'",
              file=sys.stderr)
        return 2

    for jvm in jvms:
        with open(os.path.join(run_dir, f"{jvm}.json"), "w", encoding="utf-8") as f:
            json.dump([results[jvm][k] for k in keys if k in results[jvm]], f, indent=2)
    rows = table_rows(results, keys, jvms)
    text = "\n".join(header(plan)) + "\n\n" + render_text(rows)
    with open(os.path.join(run_dir, "table.txt"), "w", encoding="utf-8") as f:
        f.write(text)
    with open(os.path.join(run_dir, "table.md"), "w", encoding="utf-8") as f:
        f.write(render_markdown(rows))
    print()
    print(text, end="")
    for failure in failures:
        print(f"FAILED {failure}")
    failed = len(failures)

    if no_plots:
        print(f"plots skipped: {no_plots}")
    elif keys:
        try:
            for path in plot(results, keys, jvms, run_dir):
                print(f"plot: {path}")
        except Exception as e:  # pylint: disable=broad-except
            # the report is part of what is checked
            print(f"FAILED report: plots could not be drawn: {e!r}")
            failed += 1

    # The one writer of summary.txt (and of the runner's counts line).
    recorder = os.path.join(os.path.dirname(os.path.abspath(__file__)), "test-summary.sh")
    subprocess.run(["bash", recorder, "record", os.path.dirname(os.path.abspath(summary)),
                    "micro", str(passed), str(failed), "0", "0"], check=True)
    return 0


################################################################################
# The run


def split_params(options):
    """JMH options without their -p NAME=V1,V2 pairs, and those as a dict."""
    rest, given = [], {}
    i = 0
    while i < len(options):
        if options[i] == "-p" and i + 1 < len(options):
            name, _, values = options[i + 1].partition("=")
            given[name] = values.split(",")
            i += 2
        else:
            rest.append(options[i])
            i += 1
    return rest, given


def check_options(options):
    """Refuses what would not run the benchmarks on the JVMs asked for."""
    for i, opt in enumerate(options):
        value = options[i + 1] if i + 1 < len(options) else ""
        if opt == "-f" and value.strip() == "0":
            raise SystemExit("micro: -f 0 would run every benchmark inside the JVM that runs "
                             "JMH, whatever the JVM asked for: use at least one fork")
        if opt in ("-jvm", "-rf", "-rff", "-o"):
            raise SystemExit(f"micro: {opt} is the runner's own option")


def parse_listing(text):
    """JMH -lp output -> [(benchmark, {param: [values]})], in JMH's order."""
    benchmarks = []
    for line in text.splitlines():
        m = re.match(r'^\s+param "([^"]+)" = \{(.*)\}\s*$', line)
        if m and benchmarks:
            values = [v.strip() for v in m.group(2).split(",")] if m.group(2).strip() else []
            benchmarks[-1][1][m.group(1)] = values
        elif re.match(r"^[\w$]+(\.[\w$]+)+$", line.strip()) and not line.startswith(" "):
            benchmarks.append((line.strip(), {}))
    return benchmarks


def parameter_sets(params, given, first_only):
    """Every set of parameter values, in JMH's order (names sorted, the last
    varying fastest). A parameter listed without values is left to JMH."""
    names = sorted(n for n, v in params.items() if v)
    choices = []
    for name in names:
        values = params[name]
        if first_only and name not in given:
            values = values[:1]
        choices.append(values)
    return [dict(zip(names, combo)) for combo in itertools.product(*choices)]


def java_regex(name):
    """A regex that matches exactly one benchmark name."""
    return "^" + re.sub(r"([.$])", r"\\\1", name) + "$"


def machine_now():
    load = open("/proc/loadavg", encoding="ascii").read().split()[:3]
    stamp = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M:%S UTC")
    return f"{stamp}; load average {' '.join(load)}"


def machine_cpu():
    model = "?"
    with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as f:
        for line in f:
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    mem = "?"
    with open("/proc/meminfo", encoding="ascii") as f:
        for line in f:
            if line.startswith("MemTotal:"):
                mem = f"{int(line.split()[1]) / 1048576:.0f} GiB"
    return f"{os.cpu_count()} x {model}; {mem}; {' '.join(os.uname()[i] for i in (0, 2))}"


class JmhLock:
    """JMH's own lock file, held for the whole run (a POSIX lock, as JMH
    takes it), so that no other JMH runs meanwhile; the runs of this one
    are told to ignore it."""

    def __init__(self, path, wait):
        self.path, self.wait, self.f = path, wait, None

    def __enter__(self):
        self.f = open(self.path, "a", encoding="ascii")  # pylint: disable=consider-using-with
        deadline = time.monotonic() + self.wait
        told = False
        while True:
            try:
                fcntl.lockf(self.f, fcntl.LOCK_EX | fcntl.LOCK_NB)
                return self
            except OSError:
                if time.monotonic() > deadline:
                    raise SystemExit(f"micro: another JMH run held {self.path} for more "
                                     f"than {self.wait} s")
                if not told:
                    print(f"micro: waiting for another JMH run to end ({self.path})", flush=True)
                    told = True
                time.sleep(2)

    def __exit__(self, *exc):
        fcntl.lockf(self.f, fcntl.LOCK_UN)
        self.f.close()


def write_plan(run_dir, plan):
    tmp = os.path.join(run_dir, "plan.json.tmp")
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump(plan, f, indent=2)
    os.replace(tmp, os.path.join(run_dir, "plan.json"))


def run(a):
    jvms = []
    for spec in a.jvm:
        name, sep, java = spec.partition("=")
        if not sep or not NAME_RE.match(name) or not java:
            raise SystemExit(f"micro: --jvm {spec}: expected NAME=JAVA, NAME of letters, "
                             "digits, '.', '_' and '-'")
        if not os.access(java, os.X_OK):
            raise SystemExit(f"micro: {name}: {java} is not an executable java launcher")
        if name in (j["name"] for j in jvms):
            raise SystemExit(f"micro: two JVMs named {name}")
        jvms.append({"name": name, "java": java})
    if not jvms:
        raise SystemExit("micro: no JVM to run on (--jvm)")
    options = a.options[1:] if a.options[:1] == ["--"] else a.options
    check_options(options)
    options, given = split_params(options)
    given_opts = [x for n, v in sorted(given.items()) for x in ("-p", f"{n}={','.join(v)}")]
    host = [a.java, "-Djmh.ignoreLock=true", "-cp", a.classpath, JMH_MAIN]

    if os.path.isdir(a.dir):
        shutil.rmtree(a.dir)
    os.makedirs(os.path.join(a.dir, "runs"))

    with JmhLock(a.lock, a.lock_wait):
        run_all(a, host, jvms, options, given, given_opts)
    return report(a.dir, a.summary, a.no_plots)


def run_all(a, host, jvms, options, given, given_opts):
    """Lists the benchmarks, writes the plan, and runs it."""
    listing = subprocess.run(host + ["-lp"] + options + given_opts + [a.filter],
                             capture_output=True, text=True, check=False)
    if listing.returncode != 0:
        print(listing.stdout + listing.stderr, file=sys.stderr)
        raise SystemExit(f"micro: JMH could not list the benchmarks (status {listing.returncode})")
    plan = {"filter": a.filter, "jvms": jvms, "options": options, "runs": [],
            "machine": {"cpu": machine_cpu()}}
    for bench, params in parse_listing(listing.stdout):
        # A parameter listed without values is left to JMH, with the
        # values -p gave it.
        open_params = {k: v for k, v in given.items() if k in params and not params[k]}
        for values in parameter_sets(params, given, a.first_params):
            for jvm in jvms:
                n = len(plan["runs"]) + 1
                plan["runs"].append({
                    "benchmark": bench, "params": values, "open_params": open_params,
                    "jvm": jvm["name"],
                    "json": f"runs/{n:03d}-{jvm['name']}.json",
                    "log": f"runs/{n:03d}-{jvm['name']}.log", "exit": None})
    write_plan(a.dir, plan)
    if not plan["runs"]:
        return

    plan["machine"]["before"] = machine_now()
    total = len(plan["runs"])
    java_of = {j["name"]: j["java"] for j in jvms}
    for n, r in enumerate(plan["runs"], 1):
        bench, values = r["benchmark"], r["params"]
        print(f"\n=== [{n}/{total}] {short_name(bench)} {params_text(values)} "
              f"on {r['jvm']}", flush=True)
        pset = [x for k, v in sorted(values.items()) for x in ("-p", f"{k}={v}")]
        pset += [x for k, v in sorted(r["open_params"].items())
                 for x in ("-p", f"{k}={','.join(v)}")]
        cmd = host + ["-jvm", java_of[r["jvm"]], "-rf", "json",
                      "-rff", os.path.join(a.dir, r["json"])] + options + pset \
            + [java_regex(bench)]
        with open(os.path.join(a.dir, r["log"]), "w", encoding="utf-8") as log, \
                subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                 text=True, errors="replace") as proc:
            for line in proc.stdout:
                sys.stdout.write(line)
                log.write(line)
            r["exit"] = proc.wait()
        sys.stdout.flush()
        write_plan(a.dir, plan)
    plan["machine"]["after"] = machine_now()
    write_plan(a.dir, plan)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog=__doc__.split("\n", 1)[1])
    sp = ap.add_subparsers(dest="cmd", required=True)
    p = sp.add_parser("run")
    p.add_argument("--dir", required=True, help="the run's directory (emptied first)")
    p.add_argument("--summary", required=True, help="summary.txt to record the counts in")
    p.add_argument("--java", required=True, help="the java launcher that runs JMH itself")
    p.add_argument("--classpath", required=True, help="the benchmark jar and JMH's jars")
    p.add_argument("--jvm", action="append", default=[], metavar="NAME=JAVA",
                   help="a JVM to run the benchmarks on; the first is the reference")
    p.add_argument("--filter", required=True, help="JMH's regex of benchmark names")
    p.add_argument("--first-params", action="store_true",
                   help="the first value of each parameter no -p gives")
    p.add_argument("--lock", default="/tmp/jmh.lock")
    p.add_argument("--lock-wait", type=int, default=3600)
    p.add_argument("--no-plots", metavar="REASON")
    p.add_argument("options", nargs=argparse.REMAINDER, help="-- then JMH options")
    p = sp.add_parser("report")
    p.add_argument("--dir", required=True)
    p.add_argument("--summary", required=True)
    p.add_argument("--no-plots", metavar="REASON")
    a = ap.parse_args()
    if a.cmd == "run":
        return run(a)
    return report(a.dir, a.summary, a.no_plots)


if __name__ == "__main__":
    sys.exit(main())
