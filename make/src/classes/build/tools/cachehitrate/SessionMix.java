/*
 * Copyright (c) 2026, the java.base patch set contributors.
 * SPDX-License-Identifier: GPL-2.0-only WITH Classpath-exception-2.0
 */

package build.tools.cachehitrate;

import java.io.File;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.ByteBuffer;
import java.security.KeyStore;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.locks.LockSupport;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLEngineResult.HandshakeStatus;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLSessionContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * A mixed TLS 1.2 workload against the server session cache of the JDK it
 * runs on: clients of Zipf popularity connect at a fixed rate, whatever a
 * handshake costs, to one server (SSLEngine pairs in memory). A client that
 * holds a session offers it; the server resumes it when its cache still has
 * it, and otherwise does a full handshake that puts a new session.
 *
 * <p>The run first fills the server's cache: it connects until the server
 * has put {@code capacity} sessions, at that rate and at least for one
 * timeout (so that the first sessions have expired) when the timeout is at
 * most 600 s, as fast as it can when it is longer (nothing expires during
 * a run then). Then it measures for the given seconds. It prints one tab-separated line: the
 * connections, resumptions, new sessions, those that started more than 10
 * ms behind the schedule, the mean wall and CPU time per connection and the
 * 99th percentile of the CPU time, the regime (new sessions per second
 * times the timeout over the capacity), and the sessions cached at the end.
 * The server runs with stateful sessions (the make target sets
 * {@code -Djdk.tls.server.enableSessionTicketExtension=false}).
 *
 * <p>Usage: {@code SessionMix <keystore.p12> <password> <capacity>
 * <timeout s> <population> <zipf s> <connections/s> <measured s>}
 */
public final class SessionMix {

    private static final long SEED = 20260101L;
    private static final long LATE_NANOS = 10_000_000L;
    /** Longer timeouts do not expire during a run: the fill is not paced. */
    private static final int MAX_EXPIRING_TIMEOUT = 600;

    private final ByteBuffer empty = ByteBuffer.allocate(0);
    private final ByteBuffer app = ByteBuffer.allocate(1 << 16);
    private final ByteBuffer toServer = ByteBuffer.allocate(1 << 16);
    private final ByteBuffer toClient = ByteBuffer.allocate(1 << 16);
    private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    private final Map<Integer, byte[]> held = new HashMap<>();
    private final SSLContext server;
    private final SSLContext client;

    private SessionMix(SSLContext server, SSLContext client) {
        this.server = server;
        this.client = client;
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 8) {
            throw new IllegalArgumentException("usage: SessionMix <keystore.p12> <password>"
                    + " <capacity> <timeout s> <population> <zipf s> <connections/s> <measured s>");
        }
        char[] password = args[1].toCharArray();
        KeyStore keys = KeyStore.getInstance(new File(args[0]), password);
        int capacity = CacheHitRate.positive(args[2], "capacity");
        int timeout = CacheHitRate.positive(args[3], "timeout");
        int population = CacheHitRate.positive(args[4], "population");
        double s = Double.parseDouble(args[5]);
        int rate = CacheHitRate.positive(args[6], "connections/s");
        int measured = CacheHitRate.positive(args[7], "measured s");
        if (population <= 2 * capacity) {
            // the fill needs capacity new sessions: with few more clients
            // than sessions, every client resumes and it would never end
            throw new IllegalArgumentException("population (" + population
                    + ") must be more than twice the capacity (" + capacity + ")");
        }

        KeyManagerFactory kmf = KeyManagerFactory.getInstance("SunX509");
        kmf.init(keys, password);
        SSLContext server = SSLContext.getInstance("TLSv1.2");
        server.init(kmf.getKeyManagers(), null, null);
        SSLSessionContext serverCache = server.getServerSessionContext();
        serverCache.setSessionCacheSize(capacity);
        serverCache.setSessionTimeout(timeout);
        TrustManagerFactory tmf = TrustManagerFactory.getInstance("PKIX");
        tmf.init(keys);
        SSLContext client = SSLContext.getInstance("TLSv1.2");
        client.init(null, tmf.getTrustManagers(), null);
        client.getClientSessionContext().setSessionCacheSize(0);
        client.getClientSessionContext().setSessionTimeout(0);

        new SessionMix(server, client).run(capacity, timeout,
                new ZipfSampler(population, s), rate, measured);
    }

    private void run(int capacity, int timeout, ZipfSampler zipf, int rate,
            int measured) throws SSLException {
        SplittableRandom random = new SplittableRandom(SEED);
        long start = System.nanoTime();
        long interval = 1_000_000_000L / rate;
        boolean expires = timeout <= MAX_EXPIRING_TIMEOUT;
        long newSessions = 0;
        for (long n = 1; newSessions < capacity
                || (expires && System.nanoTime() - start < timeout * 1_000_000_000L); n++) {
            if (expires) {
                awaitTurn(start + n * interval);
            }
            if (!connect(zipf.next(random))) {
                newSessions++;
            }
        }
        // the first sessions expired, or none will during the run
        long filled = System.nanoTime();
        long count = (long) measured * rate;
        long[] cpu = new long[(int) count];
        long resumed = 0;
        long late = 0;
        long wall = 0;
        for (int i = 0; i < count; i++) {
            if (awaitTurn(filled + (i + 1) * interval) > LATE_NANOS) {
                late++;
            }
            long cpu0 = threads.getCurrentThreadCpuTime();
            long wall0 = System.nanoTime();
            boolean resumption = connect(zipf.next(random));
            wall += System.nanoTime() - wall0;
            cpu[i] = threads.getCurrentThreadCpuTime() - cpu0;
            if (resumption) {
                resumed++;
            }
        }
        double elapsed = (System.nanoTime() - filled) / 1e9;
        long cpuTotal = Arrays.stream(cpu).sum();
        Arrays.sort(cpu);
        System.out.println("# impl\t" + CacheHitRate.implementation());
        System.out.println("capacity\ttimeout\tconnections\tresumed\tnew\tlate"
                + "\twall_us\tcpu_us\tcpu_p99_us\tregime\tcached");
        System.out.printf("%d\t%d\t%d\t%d\t%d\t%d\t%.0f\t%.0f\t%.0f\t%.2f\t%d%n",
                capacity, timeout, count, resumed, count - resumed, late,
                wall / 1e3 / count, cpuTotal / 1e3 / count, cpu[(int) (count * 99 / 100)] / 1e3,
                (count - resumed) / elapsed * timeout / capacity,
                Collections.list(server.getServerSessionContext().getIds()).size());
    }

    /** Waits until the given time; returns how late it was when called. */
    private static long awaitTurn(long due) {
        long late = System.nanoTime() - due;
        for (long wait = -late; wait > 0; wait = due - System.nanoTime()) {
            LockSupport.parkNanos(wait); // may return early
        }
        return late;
    }

    /** One connection of a client; true if it resumed the session it held. */
    private boolean connect(int id) throws SSLException {
        SSLEngine c = client.createSSLEngine("client" + id, 443);
        SSLEngine s = server.createSSLEngine();
        handshake(c, s);
        byte[] session = c.getSession().getId();
        if (!Arrays.equals(session, s.getSession().getId())) {
            throw new IllegalStateException("the two ends have different sessions");
        }
        return Arrays.equals(held.put(id, session), session);
    }

    private void handshake(SSLEngine c, SSLEngine s) throws SSLException {
        c.setUseClientMode(true);
        s.setUseClientMode(false);
        toServer.clear();
        toClient.clear();
        c.beginHandshake();
        for (int round = 0; round < 10; round++) {
            flow(c, s, toServer);
            flow(s, c, toClient);
            if (c.getHandshakeStatus() == HandshakeStatus.NOT_HANDSHAKING
                    && s.getHandshakeStatus() == HandshakeStatus.NOT_HANDSHAKING) {
                return;
            }
        }
        throw new SSLException("handshake not done");
    }

    private void flow(SSLEngine from, SSLEngine to, ByteBuffer net) throws SSLException {
        while (tasks(from) == HandshakeStatus.NEED_WRAP
                && from.wrap(empty, net).bytesProduced() > 0) {
        }
        net.flip();
        while (net.hasRemaining() && to.unwrap(net, app).bytesConsumed() > 0) {
            tasks(to);
            app.clear();
        }
        net.compact();
    }

    private static HandshakeStatus tasks(SSLEngine engine) {
        for (Runnable task; (task = engine.getDelegatedTask()) != null; ) {
            task.run();
        }
        return engine.getHandshakeStatus();
    }
}
