/*
 * Copyright (c) 2026, the java.base patch set contributors.
 * SPDX-License-Identifier: GPL-2.0-only WITH Classpath-exception-2.0
 */

package org.openjdk.bench.java.security;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.nio.ByteBuffer;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.util.Collections;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLEngineResult;
import javax.net.ssl.SSLEngineResult.HandshakeStatus;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLSession;
import javax.net.ssl.SSLSessionContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * TLS handshakes against a server whose session cache is full and whose
 * sessions expire continuously, the state of a busy server's cache once
 * it has run for longer than its session timeout. As in
 * {@link SSLHandshake}, one thread drives a client and a server
 * {@code SSLEngine} through a handshake in memory; here the server's
 * session cache is in that state, and each handshake is timed on its own
 * ({@code SampleTime}), so that the percentiles and the maximum show any
 * handshake that pays for work on the whole cache. Throughput is the
 * reciprocal of the mean.
 *
 * <p>The steady state: new sessions arrive at {@code rate} per second and
 * the server's session timeout is {@code cacheSize / rate} seconds, so a
 * cache of {@code cacheSize} sessions is just full, and its oldest session
 * expires as each new one arrives. The arrivals keep to a schedule. In
 * {@link #statefulFull} each measured handshake is one, and waits for its
 * turn when it is early; in {@link #statefulResumed} none is, as a
 * resumption adds no session (TLS 1.2 renews the session it resumes,
 * TLS 1.3 replaces the ticket it redeems). Before each measured handshake,
 * outside the measured time, the sessions that are due and have not
 * arrived are issued as tickets (below), so the cache is in the same state
 * however fast or slow the measured handshakes are.
 *
 * <p>The fill. The cache stamps a session with the time it caches it, so a
 * cache whose sessions are to expire one by one takes one timeout to fill:
 * a cache filled in a burst expires in a burst. The trial's setup puts
 * {@code cacheSize} sessions into the server's cache on that schedule, so
 * it takes one timeout per trial (and JVM), 26 s for the default 20480
 * sessions and 128 s for 102400 at the default rate of 800, using less
 * than a tenth of one CPU meanwhile; it fails the trial if it ends later
 * than a tenth of the timeout (or 1 s) after its schedule.
 * {@code -p cacheSize=100 -p rate=100} makes a one-second fill, for a
 * smoke run. The sessions are TLS 1.3 stateful tickets, issued by the
 * server's own code through public API for a small fraction of the cost
 * of a handshake: a TLS 1.3 server issues a new ticket when the
 * application binds a value to the session and then writes
 * ({@code SSLSession.putValue}, {@code SSLEngine.wrap}). Each ticket is a
 * session of its own in the server's cache, as a full handshake makes. A
 * connection gives out 100 of them before the next takes over, within
 * 1/8 s at the default rate; they share the connection's creation time,
 * which JSSE checks besides the cache's expiry. So the cache holds TLS 1.3
 * tickets whatever protocol is measured, as the cache of a server that
 * takes both does.
 *
 * <p>{@code -prof gc} gives the allocation per handshake plus that of the
 * tickets issued before it, about 10 KB each: per resumption, {@code rate}
 * divided by the resumptions per second; per full handshake, none while
 * the handshakes keep up with {@code rate} (a mean below 1250 us at the
 * default), else {@code rate} divided by the handshakes per second, less
 * one. No other thread runs while JMH measures.
 *
 * <p>{@link #statefulFull} and {@link #statefulResumed} run with the
 * server's session ticket extension off
 * ({@code jdk.tls.server.enableSessionTicketExtension=false}, a JVM
 * argument of their forks), so that TLS 1.2 resumes by session id and
 * TLS 1.3 by stateful tickets, both from the server's cache. The control,
 * {@link #statelessFull} and {@link #statelessResumed}, runs with the
 * default, stateless tickets: the server caches nothing, so it shows the
 * same handshakes without any work on the server's cache. Each setup
 * checks that the server caches one session per full handshake and per
 * ticket (none, for the control), and that a resumption resumes.
 *
 * <p>The warm-up is as long as that of {@link SSLHandshake}. The fill
 * runs the code of TLS 1.3 full handshakes and tickets, not that of the
 * measured handshakes: a TLS 1.2 resumption, some 15,000 a second, keeps
 * a compiler thread busy for the first 5 to 7 seconds it runs, and the
 * handshakes timed meanwhile run partly in code that is interpreted or
 * not yet fully optimized, at up to several times their steady time.
 */
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 5, time = 5)
@Measurement(iterations = 5, time = 2)
public class SSLHandshakeSessionCache {

    /** Server session tickets off: TLS 1.2 ids, TLS 1.3 stateful tickets. */
    static final String STATEFUL =
            "-Djdk.tls.server.enableSessionTicketExtension=false";

    /**
     * The server's host name as the client knows it: the name in the
     * server certificate of {@link TestCertificates}.
     */
    static final String SERVER_HOST = "client";
    static final int SERVER_PORT = 443;

    /** Tickets a connection issues before the next takes over. */
    static final int TICKETS_PER_CONNECTION = 100;

    /** Most tickets issued before one measured handshake. */
    static final int MAX_OVERDUE = 100;

    /**
     * A client's connection to the server, in memory: the buffers the
     * records travel through, and the loop that drives a client and a
     * server engine through a handshake.
     */
    static final class Wire {
        /** A handshake here takes a handful of flights. */
        private static final int MAX_ROUNDS = 16;

        private final ByteBuffer nothing = ByteBuffer.allocate(0);
        private final ByteBuffer oneByte = ByteBuffer.allocate(1);
        private final ByteBuffer toServer = ByteBuffer.allocate(1 << 16);
        private final ByteBuffer toClient = ByteBuffer.allocate(1 << 16);
        private final ByteBuffer received = ByteBuffer.allocate(1 << 16);

        /**
         * Runs a handshake between two new engines until neither has
         * anything more to send, the TLS 1.3 NewSessionTicket included.
         *
         * @return the length of the server's first flight: in a full
         *         handshake it carries the server's certificate chain, in
         *         a resumption not
         */
        int handshake(SSLEngine client, SSLEngine server)
                throws SSLException {
            toServer.clear();
            toClient.clear();
            client.beginHandshake();
            server.beginHandshake();
            int firstFlight = 0;
            for (int round = 0; round < MAX_ROUNDS; round++) {
                int clientBytes = send(client, server, toServer);
                int sent = send(server, client, toClient);
                if (firstFlight == 0) {
                    firstFlight = sent;
                }
                if (clientBytes == 0 && sent == 0
                        && toServer.position() == 0
                        && toClient.position() == 0) {
                    if (client.getHandshakeStatus()
                                != HandshakeStatus.NOT_HANDSHAKING
                            || server.getHandshakeStatus()
                                != HandshakeStatus.NOT_HANDSHAKING) {
                        throw new SSLException("handshake stalled: client "
                                + client.getHandshakeStatus() + ", server "
                                + server.getHandshakeStatus());
                    }
                    return firstFlight;
                }
            }
            throw new SSLException("handshake not done after "
                    + MAX_ROUNDS + " rounds");
        }

        /**
         * Has the server write one byte of application data and whatever
         * that makes it send besides, which no client reads.
         */
        void serverWrites(SSLEngine server) throws SSLException {
            oneByte.clear();
            toClient.clear();
            check(server.wrap(oneByte, toClient));
            wrapAll(server, toClient);
            toClient.clear();
        }

        /**
         * Wraps all that {@code from} has to send into {@code net}, then
         * has {@code to} unwrap as much of it as it takes now; the rest
         * stays in {@code net} for the next round.
         *
         * @return the number of bytes {@code from} produced
         */
        private int send(SSLEngine from, SSLEngine to, ByteBuffer net)
                throws SSLException {
            int produced = wrapAll(from, net);
            net.flip();
            while (net.hasRemaining()) {
                received.clear();
                SSLEngineResult result = to.unwrap(net, received);
                check(result);
                runTasks(to);
                if (result.bytesConsumed() == 0) {
                    break;
                }
            }
            net.compact();
            return produced;
        }

        private int wrapAll(SSLEngine from, ByteBuffer net)
                throws SSLException {
            int produced = 0;
            for (int i = 0; i < MAX_ROUNDS; i++) {
                if (runTasks(from) != HandshakeStatus.NEED_WRAP) {
                    return produced;
                }
                SSLEngineResult result = from.wrap(nothing, net);
                check(result);
                produced += result.bytesProduced();
            }
            throw new SSLException("still wrapping after " + MAX_ROUNDS
                    + " records");
        }

        private static HandshakeStatus runTasks(SSLEngine engine) {
            HandshakeStatus status;
            while ((status = engine.getHandshakeStatus())
                    == HandshakeStatus.NEED_TASK) {
                Runnable task;
                while ((task = engine.getDelegatedTask()) != null) {
                    task.run();
                }
            }
            return status;
        }

        private static void check(SSLEngineResult result)
                throws SSLException {
            if (result.getStatus() != SSLEngineResult.Status.OK) {
                throw new SSLException("unexpected " + result);
            }
        }
    }

    /**
     * What every state has: a server context, the clients, and the checks
     * that the server caches sessions as the benchmark expects.
     */
    abstract static class Endpoints {
        SSLContext server;
        /** The client of full handshakes: never resumes. */
        SSLContext freshClient;
        /** The client of resumed handshakes: resumes its last session. */
        SSLContext resumingClient;
        /** The encoded length of the server's certificate chain. */
        int chainBytes;
        final Wire wire = new Wire();

        void createContexts(String protocol) throws Exception {
            KeyStore keys = TestCertificates.getKeyStore();
            KeyManagerFactory kmf = KeyManagerFactory.getInstance(
                    KeyManagerFactory.getDefaultAlgorithm());
            kmf.init(keys, new char[0]);
            server = SSLContext.getInstance("TLS");
            server.init(kmf.getKeyManagers(), null, null);
            chainBytes = 0;
            for (Certificate c : keys.getCertificateChain("server")) {
                chainBytes += c.getEncoded().length;
            }
            freshClient = client(protocol);
            // It resumes nothing, so it need keep no more than one session.
            freshClient.getClientSessionContext().setSessionCacheSize(1);
            resumingClient = client(protocol);
        }

        static SSLContext client(String protocol) throws Exception {
            TrustManagerFactory tmf = TrustManagerFactory.getInstance(
                    TrustManagerFactory.getDefaultAlgorithm());
            tmf.init(TestCertificates.getTrustStore());
            SSLContext client = SSLContext.getInstance(protocol);
            client.init(null, tmf.getTrustManagers(), null);
            return client;
        }

        SSLEngine serverEngine() {
            SSLEngine engine = server.createSSLEngine();
            engine.setUseClientMode(false);
            return engine;
        }

        /**
         * An engine of a client that resumes no session: it names no
         * server, so its context finds none for it.
         */
        static SSLEngine freshEngine(SSLContext client) {
            SSLEngine engine = client.createSSLEngine();
            engine.setUseClientMode(true);
            return engine;
        }

        /** A full handshake; checks that it was one. */
        SSLSession full() throws SSLException {
            SSLEngine client = freshEngine(freshClient);
            if (wire.handshake(client, serverEngine()) < chainBytes) {
                throw new IllegalStateException(
                        "a new client resumed a session");
            }
            return client.getSession();
        }

        /** A handshake that resumes the last session, if it can. */
        SSLSession resumed() throws SSLException {
            SSLEngine client = resumingClient.createSSLEngine(
                    SERVER_HOST, SERVER_PORT);
            client.setUseClientMode(true);
            wire.handshake(client, serverEngine());
            return client.getSession();
        }

        int cachedSessions() {
            return Collections.list(
                    server.getServerSessionContext().getIds()).size();
        }

        /**
         * Checks, on a cache that is still small, that a full handshake
         * makes the server cache {@code expected} sessions.
         */
        void checkCaching(int expected) throws SSLException {
            int before = cachedSessions();
            full();
            int added = cachedSessions() - before;
            if (added != expected) {
                throw new IllegalStateException("a full handshake made the"
                        + " server cache " + added + " sessions, not "
                        + expected + ": the forks of the stateful"
                        + " benchmarks, and only they, run with "
                        + STATEFUL);
            }
        }

        /**
         * Gives the resuming client a session, then checks that its next
         * handshake resumes it.
         */
        void primeResumption() throws SSLException {
            resumed();
            SSLEngine client = resumingClient.createSSLEngine(
                    SERVER_HOST, SERVER_PORT);
            client.setUseClientMode(true);
            int flight = wire.handshake(client, serverEngine());
            if (flight >= chainBytes) {
                throw new IllegalStateException("the client did not resume:"
                        + " the server's first flight has " + flight
                        + " bytes, its certificate chain " + chainBytes);
            }
        }
    }

    /**
     * A server that caches its sessions (TLS 1.2 session ids, TLS 1.3
     * stateful tickets), its cache full and expiring continuously.
     */
    @State(Scope.Thread)
    public static class Stateful extends Endpoints {
        /** The highest TLS version the client offers. */
        @Param({"TLSv1.2", "TLSv1.3"})
        public String protocol;

        /** Capacity of the server's session cache, and its sessions. */
        @Param({"20480", "102400"})
        public int cacheSize;

        /** New sessions per second. */
        @Param({"800"})
        public int rate;

        int timeoutSeconds;
        long timeoutNanos;
        /**
         * Start of the schedule: session {@code i} is due
         * {@code i * timeout / cacheSize} after it.
         */
        long startNanos;
        /** Sessions arrived so far, the fill's included. */
        long arrivals;

        /** The client of the connections that issue tickets. */
        private SSLContext ticketClient;
        private SSLEngine ticketServer;
        private int ticketsLeft;

        /** Creates the state; JMH does that. */
        public Stateful() {
        }

        /**
         * Makes the server, checks that it caches its sessions, and fills
         * its cache.
         *
         * @throws Exception if a handshake fails or the fill falls behind
         */
        @Setup(Level.Trial)
        public void setup() throws Exception {
            if (cacheSize < 1 || rate < 1) {
                throw new IllegalArgumentException("cacheSize " + cacheSize
                        + " and rate " + rate + " must be positive");
            }
            createContexts(protocol);
            ticketClient = client("TLSv1.3");
            ticketClient.getClientSessionContext().setSessionCacheSize(1);
            timeoutSeconds = Math.max(1,
                    (int) Math.round((double) cacheSize / rate));
            timeoutNanos = TimeUnit.SECONDS.toNanos(timeoutSeconds);
            SSLSessionContext cache = server.getServerSessionContext();
            cache.setSessionCacheSize(cacheSize);
            cache.setSessionTimeout(timeoutSeconds);
            checkCaching(1);
            fill();
            primeResumption();
        }

        /**
         * Puts {@code cacheSize} sessions into the cache, session
         * {@code i} at {@code i * timeout / cacheSize} after the start.
         * A late session makes the next ones follow at once until the
         * schedule is met again.
         */
        private void fill() throws SSLException {
            newSession();
            int before = cachedSessions();
            newSession();
            if (cachedSessions() != before + 1) {
                throw new IllegalStateException("a ticket made the server"
                        + " cache " + (cachedSessions() - before)
                        + " sessions, not one");
            }
            startNanos = System.nanoTime();
            for (int i = 0; i < cacheSize; i++) {
                awaitNanos(dueNanos(i));
                newSession();
            }
            long lateNanos = System.nanoTime() - dueNanos(cacheSize - 1);
            if (lateNanos > Math.max(timeoutNanos / 10,
                    TimeUnit.SECONDS.toNanos(1))) {
                throw new IllegalStateException("the fill ended "
                        + lateNanos / 1_000_000 + " ms late: this machine"
                        + " cannot keep up with rate " + rate
                        + "; give a lower -p rate");
            }
            arrivals = cacheSize;
        }

        /**
         * Makes the server cache one new session: a new ticket on the
         * current connection, or a new connection, whose handshake ends
         * with a ticket.
         */
        private void newSession() throws SSLException {
            if (ticketsLeft == 0) {
                ticketServer = serverEngine();
                wire.handshake(freshEngine(ticketClient), ticketServer);
                ticketsLeft = TICKETS_PER_CONNECTION;
            } else {
                ticketServer.getSession().putValue("ticket", ticketsLeft);
                wire.serverWrites(ticketServer);
                ticketsLeft--;
            }
        }

        long dueNanos(long i) {
            return startNanos + i * timeoutNanos / cacheSize;
        }

        /**
         * Issues as tickets the sessions that are due by now and have not
         * arrived, at most {@code MAX_OVERDUE} at a time.
         */
        void issueOverdue() throws SSLException {
            long now = System.nanoTime();
            for (int n = 0; n < MAX_OVERDUE && dueNanos(arrivals) - now <= 0;
                    n++) {
                newSession();
                arrivals++;
            }
        }

        static void awaitNanos(long due) {
            long wait;
            while ((wait = due - System.nanoTime()) > 0) {
                LockSupport.parkNanos(wait);
            }
        }
    }

    /**
     * The server of {@link #statefulFull}: each measured handshake is an
     * arrival, and tickets make up for those that come late.
     */
    @State(Scope.Thread)
    public static class FullHandshakes extends Stateful {
        /** Creates the state; JMH does that. */
        public FullHandshakes() {
        }

        /**
         * Outside the measured time: issues the sessions that are overdue
         * as tickets, then waits until the measured handshake is due.
         *
         * @throws SSLException if a ticket cannot be issued
         */
        @Setup(Level.Invocation)
        public void pace() throws SSLException {
            issueOverdue();
            awaitNanos(dueNanos(arrivals++));
        }
    }

    /**
     * The server of {@link #statefulResumed}: a resumption is no arrival,
     * so tickets are all of them.
     */
    @State(Scope.Thread)
    public static class Resumptions extends Stateful {
        /** Creates the state; JMH does that. */
        public Resumptions() {
        }

        /**
         * Outside the measured time: issues the sessions that are due as
         * tickets.
         *
         * @throws SSLException if a ticket cannot be issued
         */
        @Setup(Level.Invocation)
        public void pace() throws SSLException {
            issueOverdue();
        }
    }

    /**
     * A server with stateless session tickets: it caches nothing.
     */
    @State(Scope.Thread)
    public static class Stateless extends Endpoints {
        /** The highest TLS version the client offers. */
        @Param({"TLSv1.3"})
        public String protocol;

        /** Creates the state; JMH does that. */
        public Stateless() {
        }

        /**
         * Makes the server and checks that it caches nothing.
         *
         * @throws Exception if a handshake fails
         */
        @Setup(Level.Trial)
        public void setup() throws Exception {
            createContexts(protocol);
            checkCaching(0);
            primeResumption();
        }
    }

    /**
     * A full handshake from a new client, which the server caches.
     *
     * @param server the server
     * @return the client's session
     * @throws SSLException if the handshake fails
     */
    @Benchmark
    @Fork(value = 1, jvmArgsAppend = {STATEFUL, "-Xms2g", "-Xmx2g"})
    public SSLSession statefulFull(FullHandshakes server)
            throws SSLException {
        return server.full();
    }

    /**
     * A resumed handshake: the server finds the session in its cache.
     *
     * @param server the server
     * @return the client's session
     * @throws SSLException if the handshake fails
     */
    @Benchmark
    @Fork(value = 1, jvmArgsAppend = {STATEFUL, "-Xms2g", "-Xmx2g"})
    public SSLSession statefulResumed(Resumptions server)
            throws SSLException {
        return server.resumed();
    }

    /**
     * The control for {@link #statefulFull}: a full handshake, the server
     * issuing a stateless ticket instead of caching the session.
     *
     * @param server the server
     * @return the client's session
     * @throws SSLException if the handshake fails
     */
    @Benchmark
    @Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
    public SSLSession statelessFull(Stateless server) throws SSLException {
        return server.full();
    }

    /**
     * The control for {@link #statefulResumed}: the server resumes from
     * the client's stateless ticket.
     *
     * @param server the server
     * @return the client's session
     * @throws SSLException if the handshake fails
     */
    @Benchmark
    @Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
    public SSLSession statelessResumed(Stateless server) throws SSLException {
        return server.resumed();
    }
}
