#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only WITH Classpath-exception-2.0
"""The latency of a TLS connection (TCP connect, full handshake, a 32-byte
request and a 32-byte response) on loopback between JDKs and independent
peers, each JDK on default sockets (Nagle's algorithm on) and with
TCP_NODELAY on its side, all JVMs interleaved: make tls-matrix
(make/TlsMatrix.gmk).

The JDK's side runs in long-lived JVMs, one client and one server process
per JVM compared (make/src/classes/build/tools/tlsmatrix), warmed up before
anything is measured. The peers: openssl s_server (-num_tickets 0, and its
default of 2), a Go crypto/tls server and client (make/src/tlspeer, Go's
defaults: TCP_NODELAY on), openssl s_client (a process per connection,
timed from its start: see the control rows), and the stock JDK on default
sockets (the mixed pairings: each JVM's client against the stock server,
and the stock client against each JVM's server).

Every measured unit (a row of the table, one JVM, one socket setting) runs
a batch of connections in each round, the units in a new random order each
round, so that the machine's drift falls on all of them alike. The first
connections of each batch are discarded (--discard) and the others are
the samples. Every connection is timed at its client; no connection resumes
a session. Results: <dir>/samples.csv (every connection), <dir>/matrix.md
(medians and 90th percentiles in ms, the checks), also printed.
"""

import argparse
import csv
import math
import os
import random
import re
import select
import shlex
import socket
import statistics
import subprocess
import sys
import time

MESSAGE = 32
REQUEST = b"q" * (MESSAGE - 1) + b"\n"
PROTOCOLS = ("TLSv1.2", "TLSv1.3")
SETTINGS = ("default", "nodelay")
PASSWORD = "changeit"
TIMEOUT = 30.0          # seconds for any one answer of a peer process
NODELAY_MARGIN_MS = 5.0
# A mixed pairing's image counts as no slower than stock<->stock within this
# (medians of the same stall differ by tenths of a ms from run to run).
MIXED_MARGIN_MS = 1.0
CLIENT_TOOL = "build.tools.tlsmatrix.TlsClient"
SERVER_TOOL = "build.tools.tlsmatrix.TlsServer"

S_SERVERS = {
    "s_server-t0": ("openssl s_server -num_tickets 0", ["-num_tickets", "0"]),
    "s_server-t2": ("openssl s_server (its default, 2 tickets)", []),
}


class Row:
    """A row of the table: who the JVM under test is (client or server; a
    control row has no JVM), its peer, the protocol, and for a JDK client
    how its handshake starts."""

    def __init__(self, side, peer, protocol, handshake=None):
        self.side = side
        self.peer = peer
        self.protocol = protocol
        self.handshake = handshake
        parts = [side, peer, protocol] + ([handshake] if handshake else [])
        self.id = "/".join(parts)
        self.mixed = peer == "jdk-stock"

    def title(self):
        p = self.protocol.replace("TLSv", "TLS ")
        if self.side == "client":
            peer = {"go": "Go server", "jdk-stock": "stock JDK server"}.get(
                self.peer, self.peer.replace("-t0", " -num_tickets 0").replace("-t2", ", 2 tickets"))
            return f"JDK client -> {peer}, {p}, {self.handshake}"
        if self.side == "server":
            peer = {"go": "Go client", "jdk-stock": "stock JDK client",
                    "s_client": "s_client*"}[self.peer]
            return f"{peer} -> JDK server, {p}"
        srv = self.peer.replace("s_client-", "")
        srv = srv.replace("-t0", " -num_tickets 0").replace("-t2", ", 2 tickets")
        return f"s_client* -> {srv}, {p}"


def all_rows():
    rows = []
    for peer in ("s_server-t0", "s_server-t2", "go", "jdk-stock"):
        for protocol in PROTOCOLS:
            for handshake in ("implicit", "explicit"):
                rows.append(Row("client", peer, protocol, handshake))
    for peer in ("s_client", "go", "jdk-stock"):
        for protocol in PROTOCOLS:
            rows.append(Row("server", peer, protocol))
    for srv in S_SERVERS:
        for protocol in PROTOCOLS:
            rows.append(Row("control", "s_client-" + srv, protocol))
    return rows


def log(msg):
    print(f"tls-matrix: {msg}", flush=True)


def run(cmd, **kw):
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, **kw)


def make_keys(d, openssl, keytool, key):
    """A self-signed certificate for localhost and 127.0.0.1: PEM files for
    the peers, a PKCS12 keystore for the JDK servers, a PKCS12 truststore
    for the JDK clients."""
    cert, pkey = os.path.join(d, "cert.pem"), os.path.join(d, "key.pem")
    keystore, truststore = os.path.join(d, "server.p12"), os.path.join(d, "trust.p12")
    for f in (cert, pkey, keystore, truststore):
        if os.path.exists(f):
            os.remove(f)
    newkey = (["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256"] if key == "EC"
              else ["-newkey", "rsa:2048"])
    run([openssl, "req", "-x509", *newkey, "-nodes", "-keyout", pkey, "-out", cert,
         "-days", "30", "-subj", "/CN=localhost",
         "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1"])
    run([openssl, "pkcs12", "-export", "-in", cert, "-inkey", pkey, "-out", keystore,
         "-passout", "pass:" + PASSWORD, "-name", "server"])
    run([keytool, "-importcert", "-noprompt", "-file", cert, "-keystore", truststore,
         "-storetype", "PKCS12", "-storepass", PASSWORD, "-alias", "peer"])
    return cert, pkey, keystore, truststore


class LineProcess:
    """A long-lived peer process that answers a line on stdout for each
    line on stdin; its stderr goes to a log file."""

    def __init__(self, name, cmd, logdir):
        self.name = name
        self.log = open(os.path.join(logdir, name + ".log"), "wb")
        self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=self.log, bufsize=0)
        self.buf = b""
        self.first = None

    def readline(self, timeout=TIMEOUT):
        deadline = time.monotonic() + timeout
        while b"\n" not in self.buf:
            left = deadline - time.monotonic()
            ready, _, _ = select.select([self.proc.stdout], [], [], max(left, 0))
            if not ready:
                raise RuntimeError(f"{self.name}: no answer in {timeout:.0f} s "
                                   f"(see {self.log.name})")
            chunk = os.read(self.proc.stdout.fileno(), 65536)
            if not chunk:
                raise RuntimeError(f"{self.name}: exited with {self.proc.wait()} "
                                   f"(see {self.log.name})")
            self.buf += chunk
        line, self.buf = self.buf.split(b"\n", 1)
        return line.decode()

    def ask(self, line, timeout=TIMEOUT):
        self.proc.stdin.write(line.encode() + b"\n")
        return self.readline(timeout)

    def stop(self):
        try:
            self.proc.stdin.close()
        except OSError:
            pass
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self.log.close()


def connections(client, port, protocol, nodelay, explicit, count):
    """count connections by a TlsClient or Go client process: their times
    in ms, None for a failed one."""
    answer = client.ask(f"run 127.0.0.1 {port} {protocol} {int(nodelay)} {int(explicit)} {count}",
                        timeout=TIMEOUT + 12 * count)
    words = answer.split()
    if not words or words[0] != "ok" or len(words) != count + 1:
        raise RuntimeError(f"{client.name}: unexpected answer '{answer}'")
    return [None if int(w) < 0 else int(w) / 1000.0 for w in words[1:]]


def s_client_connection(openssl, cert, port, protocol, errlog):
    """One openssl s_client process, timed from before its start to the
    response line: the time includes starting openssl."""
    version = {"TLSv1.2": "-tls1_2", "TLSv1.3": "-tls1_3"}[protocol]
    start = time.perf_counter_ns()
    p = subprocess.Popen([openssl, "s_client", "-connect", f"127.0.0.1:{port}", version,
                          "-CAfile", cert, "-verify_return_error", "-quiet", "-no_ign_eof"],
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         bufsize=0)
    got = b""
    try:
        p.stdin.write(REQUEST)
        deadline = time.monotonic() + TIMEOUT
        while not got.endswith(b"\n"):
            ready, _, _ = select.select([p.stdout], [], [], max(deadline - time.monotonic(), 0))
            if not ready:
                break
            chunk = os.read(p.stdout.fileno(), 4096)
            if not chunk:
                break
            got += chunk
        end = time.perf_counter_ns()
    finally:
        try:
            _, err = p.communicate(timeout=10)      # closes its stdin: it ends
        except subprocess.TimeoutExpired:
            p.kill()
            _, err = p.communicate()
    if len(got) != MESSAGE or not got.endswith(b"\n"):
        errlog.write(f"s_client to {port} ({protocol}): got {got!r}, exit {p.returncode}\n"
                     f"{err.decode(errors='replace')}\n")
        errlog.flush()
        return None
    return (end - start) / 1e6


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_listening(port, proc, name):
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"{name} exited with {proc.returncode}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(f"{name} is not listening on {port}")


def percentile(sorted_values, p):
    """Nearest rank."""
    return sorted_values[max(0, math.ceil(p * len(sorted_values)) - 1)]


def machine():
    cpu = "?"
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return f"{cpu}, {os.cpu_count()} cores"


def loadavg():
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


class Matrix:
    def __init__(self, args):
        self.args = args
        self.jvms = []
        for spec in args.jvm:
            name, _, java = spec.partition("=")
            if not name or not java:
                sys.exit(f"tls-matrix: --jvm '{spec}' is not <name>=<java>")
            if not os.access(java, os.X_OK):
                sys.exit(f"tls-matrix: {name}: no java launcher at {java}")
            self.jvms.append((name, java))
        names = [n for n, _ in self.jvms]
        if len(set(names)) != len(names):
            sys.exit("tls-matrix: two JVMs of the same name")
        if "stock" not in names:
            sys.exit("tls-matrix: the JVMs must include one named 'stock' (the mixed pairings' peer)")
        pattern = re.compile(args.cells)
        self.rows = [r for r in all_rows() if pattern.search(r.id)]
        self.skipped = []
        if not args.peer:
            self.skipped = [r.id for r in self.rows if r.peer == "go"]
            self.rows = [r for r in self.rows if r.peer != "go"]
        if not self.rows:
            sys.exit(f"tls-matrix: no row matches TLS_MATRIX_CELLS='{args.cells}'; rows:\n  "
                     + "\n  ".join(r.id for r in all_rows()))
        self.procs = []
        self.samples = {}           # (row id, jvm, setting) -> [ms]
        self.errors = {}
        self.order = 0
        self.errlog = None

    def spawn(self, name, cmd, logs):
        """A LineProcess, stopped with the others whatever happens, once it
        has said its first line."""
        p = LineProcess(name, cmd, logs)
        self.procs.append(p)
        p.first = p.readline()
        return p

    def needs(self, peer):
        return any(r.peer == peer or r.peer.endswith(peer) for r in self.rows)

    def start(self):
        a = self.args
        d = a.dir
        os.makedirs(d, exist_ok=True)
        logs = os.path.join(d, "logs")
        os.makedirs(logs, exist_ok=True)
        self.cert, self.key, keystore, truststore = make_keys(d, a.openssl, a.keytool, a.key)
        self.errlog = open(os.path.join(logs, "s_client.log"), "w")
        cp = ["-cp", a.classes]
        opts = shlex.split(a.java_opts)
        self.clients, self.servers, self.versions = {}, {}, {}
        for name, java in self.jvms:
            c = self.spawn(f"client-{name}", [java, *opts, *cp, CLIENT_TOOL, truststore, PASSWORD], logs)
            if not c.first.startswith("ready "):
                raise RuntimeError(f"client-{name}: '{c.first}'")
            self.clients[name] = c
            self.versions[name] = c.first.split(" ", 1)[1]
            s = self.spawn(f"server-{name}", [java, *opts, *cp, SERVER_TOOL, keystore, PASSWORD], logs)
            w = s.first.split()
            if w[0] != "ports":
                raise RuntimeError(f"server-{name}: '{s.first}'")
            self.servers[name] = {"default": int(w[1]), "nodelay": int(w[2])}
        self.s_server_ports = {}
        for key, (_, extra) in S_SERVERS.items():
            if not self.needs(key):
                continue
            port = free_port()
            out = open(os.path.join(logs, key + ".log"), "wb")
            p = subprocess.Popen([a.openssl, "s_server", "-accept", f"127.0.0.1:{port}",
                                  "-cert", self.cert, "-key", self.key, "-rev", "-quiet", *extra],
                                 stdin=subprocess.PIPE, stdout=out, stderr=subprocess.STDOUT)
            self.procs.append(_Plain(p, out))
            wait_listening(port, p, key)    # (its log says "unexpected eof" of this probe)
            self.s_server_ports[key] = port
        if self.needs("go"):
            nagle = ["-nagle"] if a.go_nagle else []
            g = self.spawn("go-server", [a.peer, "server", "-cert", self.cert, "-key", self.key, *nagle], logs)
            self.go_port = int(g.first.split()[1])
            self.go_client = self.spawn("go-client", [a.peer, "client", "-ca", self.cert], logs)
            self.versions["go"] = self.go_client.first.split(" ", 1)[1]

    def stop(self):
        for p in reversed(self.procs):
            p.stop()
        self.procs = []
        if self.errlog:
            self.errlog.close()

    def warm_up(self):
        """Each JDK client against the stock server, each JDK server from the
        stock client, --warmup connections each, all discarded."""
        n = self.args.warmup
        if n <= 0:
            return
        log(f"warming up: {n} connections per JDK client and per JDK server, discarded")
        stock = self.clients["stock"]
        per = max(1, n // (2 * len(PROTOCOLS)))
        for name, _ in self.jvms:
            for protocol in PROTOCOLS:
                for explicit in (False, True):
                    connections(self.clients[name], self.servers["stock"]["default"],
                                protocol, False, explicit, per)
                for setting in SETTINGS:
                    connections(stock, self.servers[name][setting], protocol, False, False, per)

    def units(self):
        units = []
        for r in self.rows:
            if r.side == "control":
                units.append((r, None, None))
            else:
                units.extend((r, name, s) for name, _ in self.jvms for s in SETTINGS)
        return units

    def batch(self, row, jvm, setting, count):
        a = self.args
        if row.side == "client":
            if row.peer in S_SERVERS:
                port = self.s_server_ports[row.peer]
            elif row.peer == "go":
                port = self.go_port
            else:
                port = self.servers["stock"]["default"]
            return connections(self.clients[jvm], port, row.protocol, setting == "nodelay",
                               row.handshake == "explicit", count)
        if row.side == "control":
            port = self.s_server_ports[row.peer.replace("s_client-", "")]
        else:
            port = self.servers[jvm][setting]
            if row.peer == "jdk-stock":
                return connections(self.clients["stock"], port, row.protocol, False, False, count)
            if row.peer == "go":
                return connections(self.go_client, port, row.protocol, not a.go_nagle, False, count)
        # s_client, against a JDK server or (control) s_server
        return [s_client_connection(a.openssl, self.cert, port, row.protocol, self.errlog)
                for _ in range(count)]

    def measure(self, writer):
        a = self.args
        units = self.units()
        rng = random.Random(a.seed)
        for rnd in range(1, a.rounds + 1):
            started = time.monotonic()
            rng.shuffle(units)
            for row, jvm, setting in units:
                self.order += 1
                times = self.batch(row, jvm, setting, a.discard + a.batch)[a.discard:]
                key = (row.id, jvm, setting)
                for i, t in enumerate(times):
                    if t is None:
                        self.errors[key] = self.errors.get(key, 0) + 1
                    else:
                        self.samples.setdefault(key, []).append(t)
                    writer.writerow([rnd, self.order, row.id, jvm or "", setting or "", i,
                                     "" if t is None else f"{t:.3f}", "" if t is not None else "failed"])
            took = time.monotonic() - started
            log(f"round {rnd} of {a.rounds}: {len(units)} batches in {took:.0f} s"
                + (f", about {took * (a.rounds - rnd) / 60:.1f} min to go" if rnd < a.rounds else ""))

    def stats(self, row, jvm, setting):
        v = sorted(self.samples.get((row.id, jvm, setting), []))
        if not v:
            return None
        return statistics.median(v), percentile(v, 0.9), len(v)

    def report(self, header):
        names = [n for n, _ in self.jvms]
        out = list(header)
        out.append("")
        out.append("Each cell: median / 90th percentile in ms of a connection's time at its client "
                   "(TCP connect, full handshake, 32-byte request, 32-byte response); n samples per cell. "
                   "default: the JVM under test's sockets as they come (Nagle on); NODELAY: "
                   "TCP_NODELAY on the JVM under test's side only (the peer keeps its own).")
        out.append("Peers: openssl s_server/s_client on default sockets; Go's crypto/tls with Go's "
                   "defaults (TCP_NODELAY on)" + (" made off (-nagle)" if self.args.go_nagle else "")
                   + "; the stock JDK on default sockets, client handshake implicit (mixed pairings).")
        out.append("* s_client rows: one openssl process per connection, timed from before its start "
                   "to the response line, so they include starting openssl: compare them with the "
                   "control rows (s_client against s_server, no JVM).")
        out.append("")
        cols = names + [n + " NODELAY" for n in names]
        if any(r.side != "control" for r in self.rows):
            out.append("| cell | n | " + " | ".join(cols) + " |")
            out.append("|---|---|" + "---|" * len(cols))
        checks = []
        controls = []
        for row in self.rows:
            if row.side == "control":
                s = self.stats(row, None, None)
                controls.append(f"| {row.title()} | {s[2] if s else 0} | "
                                + (f"{s[0]:.2f} / {s[1]:.2f}" if s else "-") + " |")
                continue
            cells, ns = [], []
            for setting in SETTINGS:
                for name in names:
                    s = self.stats(row, name, setting)
                    cells.append(f"{s[0]:.2f} / {s[1]:.2f}" if s else "-")
                    ns.append(s[2] if s else 0)
            n = str(min(ns)) if min(ns) == max(ns) else f"{min(ns)}-{max(ns)}"
            out.append(f"| {row.title()} | {n} | " + " | ".join(cells) + " |")
            checks.append(self.check(row, names))
        if controls:
            if out[-1]:
                out.append("")
            out.append("Control: openssl s_client against openssl s_server, no JVM (the process "
                       "overhead in the s_client rows):")
            out.append("")
            out.append("| cell | n | median / p90 |")
            out.append("|---|---|---|")
            out.extend(controls)
        if checks:
            out.append("")
            out.append(f"Checks: default-socket median <= NODELAY median + {NODELAY_MARGIN_MS:.0f} ms, "
                       "per JVM; mixed pairings (a stock JDK peer): the image's median <= "
                       f"stock<->stock's + {MIXED_MARGIN_MS:.0f} ms, per setting (difference in ms).")
            out.append("")
            out.append("```")
            out.extend(checks)
            out.append("```")
        failed = sum(self.errors.values())
        if failed or self.skipped:
            out.append("")
        if failed:
            out.append(f"Failed connections (not in the samples): {failed}: "
                       + ", ".join(f"{k[0]} {k[1] or ''} {k[2] or ''}: {v}".replace("  ", " ")
                                   for k, v in sorted(self.errors.items(), key=lambda kv: kv[0][0])))
        if self.skipped:
            out.append("Skipped (no Go peer: " + self.args.no_peer_reason + "): " + ", ".join(self.skipped))
        return out

    def check(self, row, names):
        parts = []
        for name in names:
            d, n = self.stats(row, name, "default"), self.stats(row, name, "nodelay")
            if d and n:
                ok = d[0] <= n[0] + NODELAY_MARGIN_MS
                parts.append(f"{name} {'yes' if ok else 'NO'} ({d[0]:.1f} vs {n[0]:.1f})")
        line = f"{row.title()}: default <= NODELAY+{NODELAY_MARGIN_MS:.0f}: " + ", ".join(parts)
        if row.mixed:
            mixed = []
            for setting in SETTINGS:
                ref = self.stats(row, "stock", setting)
                for name in names:
                    s = self.stats(row, name, setting)
                    if name == "stock" or not (s and ref):
                        continue
                    ok = s[0] <= ref[0] + MIXED_MARGIN_MS
                    mixed.append(f"{name} {setting} {'yes' if ok else 'NO'} "
                                 f"({s[0] - ref[0]:+.1f})")
            if mixed:
                line += (f"\n    image <= stock<->stock+{MIXED_MARGIN_MS:.0f}: "
                         + ", ".join(mixed))
        return line


class _Plain:
    """A peer process that only listens (openssl s_server)."""

    def __init__(self, proc, out):
        self.proc, self.out = proc, out

    def stop(self):
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.out.close()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--dir", required=True, help="output directory")
    ap.add_argument("--classes", required=True, help="the compiled tlsmatrix tools")
    ap.add_argument("--jvm", action="append", default=[], help="<name>=<java launcher>; one is 'stock'")
    ap.add_argument("--java-opts", default="", help="options for every JDK client and server JVM")
    ap.add_argument("--peer", default="", help="the Go peer binary (none: its rows are skipped)")
    ap.add_argument("--no-peer-reason", default="no Go toolchain")
    ap.add_argument("--go-nagle", action="store_true", help="Go peers with TCP_NODELAY off")
    ap.add_argument("--openssl", default="openssl")
    ap.add_argument("--keytool", required=True)
    ap.add_argument("--key", choices=("EC", "RSA2048"), default="EC")
    ap.add_argument("--rounds", type=int, default=10)
    ap.add_argument("--batch", type=int, default=5, help="samples per unit and round")
    ap.add_argument("--discard", type=int, default=1, help="connections discarded before each batch")
    ap.add_argument("--warmup", type=int, default=50, help="connections per JDK process before the rounds")
    ap.add_argument("--cells", default=".", help="regex: the rows whose id it matches")
    ap.add_argument("--seed", default="", help="the shuffle's seed (default: from the clock)")
    ap.add_argument("--list", action="store_true", help="list the rows' ids and exit")
    a = ap.parse_args()
    if a.list:
        for r in all_rows():
            print(r.id)
        return 0
    if a.rounds < 1 or a.batch < 1 or a.discard < 0 or a.warmup < 0:
        sys.exit("tls-matrix: rounds and batch must be positive, discard and warmup not negative")
    a.seed = a.seed or str(time.time_ns())

    m = Matrix(a)
    started = time.monotonic()
    load_before = loadavg()
    csv_path = os.path.join(a.dir, "samples.csv")
    try:
        m.start()
        log(f"{len(m.rows)} rows x {len(m.jvms)} JVMs x 2 settings, {a.rounds} rounds of "
            f"{a.batch} samples (+{a.discard} discarded) per unit; key {a.key}; seed {a.seed}")
        for name, java in m.jvms:
            log(f"  {name} = {java} ({m.versions[name]})")
        m.warm_up()
        with open(csv_path, "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(["round", "batch", "cell", "jvm", "setting", "sample", "ms", "error"])
            m.measure(w)
    finally:
        m.stop()
    minutes = (time.monotonic() - started) / 60
    header = [
        "# make tls-matrix",
        "",
        f"{time.strftime('%Y-%m-%d %H:%M %Z')}; {machine()}; load average {load_before} before, "
        f"{loadavg()} after; {minutes:.1f} min.",
        f"Key {a.key} (self-signed, made by openssl at the run's start); {a.rounds} rounds x "
        f"{a.batch} connections per cell (+{a.discard} discarded per batch), cells shuffled per "
        f"round (seed {a.seed}); {a.warmup} warm-up connections per JDK process; "
        f"rows matching '{a.cells}'.",
        "JVMs: " + "; ".join(f"{n} = {j} ({m.versions[n]})" for n, j in m.jvms)
        + (f"; Go peer {m.versions['go']}" if "go" in m.versions else "")
        + f"; {subprocess.run([a.openssl, 'version'], capture_output=True, text=True).stdout.strip()}.",
        f"Samples: {os.path.relpath(csv_path, a.dir)} (every connection, in the order run).",
    ]
    lines = m.report(header)
    with open(os.path.join(a.dir, "matrix.md"), "w") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines))
    log(f"written {os.path.join(a.dir, 'matrix.md')} and {csv_path}")
    empty = [u for u in m.units() if not m.samples.get((u[0].id, u[1], u[2]))]
    if m.errors or empty:
        log(f"{sum(m.errors.values())} connections failed, {len(empty)} cells without a sample "
            f"(see {os.path.join(a.dir, 'logs')})")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
