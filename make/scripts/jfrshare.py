#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only WITH Classpath-exception-2.0
"""Where a JMH thread's time went, from a JFR recording (JMH's -prof jfr).

  jfrshare.py --jfr JFR_LAUNCHER RECORDING.jfr...

For each recording: the execution samples of JMH's worker threads, the share
of them with a frame of sun.security.util's cache (any method of
MemoryCache), with a frame of its expunge (expungeExpiredEntries), in the
benchmark method itself rather than in its setups (--method), and in the
cache and in its expunge within that method (all as shares of all samples); then the collector's pauses
(jdk.GarbageCollection, sum of pauses) over the recording's length.
A share counts a sample once, whatever its number of matching frames.
"""

import argparse
import datetime
import json
import re
import os
import subprocess
import sys

CACHE = "sun.security.util.MemoryCache"
EXPUNGE = "expungeExpiredEntries"


def seconds(duration):
    """JFR's JSON durations: ISO-8601 such as PT0.0123S or PT1M2.5S."""
    m = re.fullmatch(r"PT(?:(\d+)H)?(?:(\d+)M)?(?:([\d.]+)S)?", duration)
    if not m:
        raise ValueError("not a JFR duration: " + duration)
    h, mi, s = (float(g) if g else 0.0 for g in m.groups())
    return h * 3600 + mi * 60 + s


def instant(timestamp):
    """A JFR timestamp, its fraction cut to microseconds for datetime."""
    m = re.fullmatch(r"([^.]+?)(?:\.(\d+))?(Z|[+-]\d\d:\d\d)", timestamp)
    if not m:
        raise ValueError("not a JFR timestamp: " + timestamp)
    fraction = (m.group(2) or "0")[:6].ljust(6, "0")
    zone = "+00:00" if m.group(3) == "Z" else m.group(3)
    return datetime.datetime.fromisoformat(m.group(1) + "." + fraction + zone)


def label(recording, common):
    """What tells a recording from the others: its path below the common
    directory, without JMH's benchmark name and mode and profile.jfr."""
    rel = os.path.relpath(os.path.abspath(recording), common)
    if rel == ".":
        rel = os.path.basename(recording)
    rel = re.sub(r"[^/]*-(SampleTime|AverageTime|Throughput|SingleShotTime|All)-", "", rel)
    return re.sub(r"/?profile\.jfr$", "", rel) or rel


def events(jfr, recording, types):
    out = subprocess.run([jfr, "print", "--json", "--stack-depth", "256",
                          "--events", ",".join(types), recording],
                         check=True, capture_output=True, text=True).stdout
    return json.loads(out)["recording"]["events"]


def summarize(jfr, recording, method):
    samples = cache = expunge = measured = cache_in_method = expunge_in_method = 0
    truncated = 0
    first = last = None
    gc_pauses = 0.0
    for e in events(jfr, recording, ["jdk.ExecutionSample", "jdk.GarbageCollection"]):
        v = e["values"]
        t = instant(v["startTime"])
        first = t if first is None or t < first else first
        last = t if last is None or t > last else last
        if e["type"] == "jdk.GarbageCollection":
            gc_pauses += seconds(v["sumOfPauses"])
            continue
        if "jmh-worker" not in ((v["sampledThread"] or {}).get("javaName") or ""):
            continue
        truncated += bool(v["stackTrace"].get("truncated"))
        # class names come in internal form: sun/security/util/MemoryCache
        frames = [(f["method"]["type"]["name"].replace("/", "."), f["method"]["name"])
                  for f in v["stackTrace"]["frames"]]
        samples += 1
        in_cache = any(c == CACHE for c, _ in frames)
        in_expunge = any(c == CACHE and m == EXPUNGE for c, m in frames)
        in_method = any(m == method for _, m in frames)
        cache += in_cache
        expunge += in_expunge
        measured += in_method
        cache_in_method += in_method and in_cache
        expunge_in_method += in_method and in_expunge
    if samples == 0:
        raise SystemExit(recording + ": no sample of a JMH worker thread")
    span = (last - first).total_seconds()
    if span <= 0:
        raise SystemExit(recording + ": all events at one instant")
    if truncated:
        print("%s: %d of %d stacks truncated: raise the recording's stack depth"
              % (recording, truncated, samples), file=sys.stderr)
    return (samples, cache, expunge, measured, cache_in_method, expunge_in_method,
            gc_pauses, span)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("--jfr", required=True, help="a JDK's jfr launcher")
    ap.add_argument("--method", default="fullHandshake",
                    help="the benchmark method (default fullHandshake)")
    ap.add_argument("recordings", nargs="+")
    a = ap.parse_args()
    head = "%-40s %8s %7s %8s %9s %9s %9s %7s"
    print(head % ("recording", "samples", "cache", "expunge", "method", "cache", "expunge", "gc"))
    print(head % ("", "", "", "", "", "in method", "in method", ""))
    common = os.path.commonpath([os.path.abspath(r) for r in a.recordings])
    for r in a.recordings:
        n, c, x, m, cm, xm, gc, span = summarize(a.jfr, r, a.method)
        print("%-40s %8d %6.1f%% %7.1f%% %8.1f%% %8.1f%% %8.1f%% %6.1f%%"
              % (label(r, common), n, 100 * c / n, 100 * x / n, 100 * m / n, 100 * cm / n,
                 100 * xm / n, 100 * gc / span))


if __name__ == "__main__":
    main()
