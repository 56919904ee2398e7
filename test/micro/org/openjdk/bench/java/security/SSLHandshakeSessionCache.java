/*
 * Copyright (c) 2026, the java.base patch set contributors.
 * SPDX-License-Identifier: GPL-2.0-only WITH Classpath-exception-2.0
 */

package org.openjdk.bench.java.security;

import org.openjdk.jmh.annotations.*;
import org.openjdk.jmh.infra.BenchmarkParams;

import java.nio.ByteBuffer;
import java.util.Collections;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import javax.net.ssl.*;
import javax.net.ssl.SSLEngineResult.HandshakeStatus;

/**
 * Full TLS 1.2 handshakes, as in {@link SSLHandshake}, against a server
 * whose session cache is full and whose sessions expire continuously.
 * Sessions arrive at {@link #RATE} per second whatever a handshake costs:
 * one in {@link #PER_HANDSHAKE} is a measured handshake, the others TLS 1.3
 * tickets cached by the server outside the measured time. The timeout is
 * {@code ratio * cacheSize / RATE} seconds. {@code late} counts handshakes
 * that started after the next one's turn. {@link #noCache}: the control,
 * the same load with a cache that holds one session.
 */
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 5, time = 5)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx2g",
        "-Djdk.tls.server.enableSessionTicketExtension=false"})
@State(Scope.Thread)
@AuxCounters(AuxCounters.Type.EVENTS)
public class SSLHandshakeSessionCache {

    static final int RATE = 5120;
    static final int PER_HANDSHAKE = 64;

    @Param({"20480", "102400"})
    int cacheSize;

    @Param({"1", "0.5", "2", "10"})
    double ratio;

    public long late;

    final ByteBuffer empty = ByteBuffer.allocate(0);
    final ByteBuffer app = ByteBuffer.allocate(1 << 16);
    final ByteBuffer toServer = ByteBuffer.allocate(1 << 16);
    final ByteBuffer toClient = ByteBuffer.allocate(1 << 16);
    SSLContext server, client, ticketClient;
    SSLEngine ticketServer;
    int ticketsLeft;
    long start, arrivals;

    @Setup(Level.Trial)
    public void setup(BenchmarkParams params) throws Exception {
        KeyManagerFactory kmf = KeyManagerFactory.getInstance("SunX509");
        kmf.init(TestCertificates.getKeyStore(), new char[0]);
        server = SSLContext.getInstance("TLS");
        server.init(kmf.getKeyManagers(), null, null);
        client = client("TLSv1.2");
        ticketClient = client("TLSv1.3");
        SSLSessionContext cache = server.getServerSessionContext();
        int timeout = (int) Math.max(1, Math.round(ratio * cacheSize / RATE));
        int capacity = params.getBenchmark().endsWith("noCache") ? 1 : cacheSize;
        cache.setSessionTimeout(timeout);
        cache.setSessionCacheSize(capacity);
        start = System.nanoTime();
        while (arrivals < Math.max(cacheSize, (long) timeout * RATE)) {
            awaitTurn(++arrivals);
            ticket();
            if (arrivals == 100 && Collections.list(cache.getIds()).size()
                    != Math.min(100, capacity)) {
                throw new IllegalStateException("the server caches no tickets");
            }
        }
    }

    static SSLContext client(String protocol) throws Exception {
        TrustManagerFactory tmf = TrustManagerFactory.getInstance("PKIX");
        tmf.init(TestCertificates.getTrustStore());
        SSLContext context = SSLContext.getInstance(protocol);
        context.init(null, tmf.getTrustManagers(), null);
        context.getClientSessionContext().setSessionCacheSize(1);
        return context;
    }

    /** Waits for an arrival's turn; returns how late it is. */
    long awaitTurn(long arrival) {
        long wait = start + arrival * 1_000_000_000L / RATE - System.nanoTime();
        LockSupport.parkNanos(wait);
        return -wait;
    }

    @Setup(Level.Invocation)
    public void arrive() throws SSLException {
        while (++arrivals % PER_HANDSHAKE != 0) {
            awaitTurn(arrivals);
            ticket();
        }
        if (awaitTurn(arrivals) > PER_HANDSHAKE * 1_000_000_000L / RATE) {
            late++;
        }
    }

    void ticket() throws SSLException { // a new session in the server's cache
        if (ticketsLeft-- == 0) {
            ticketServer = server.createSSLEngine();
            handshake(ticketClient.createSSLEngine(), ticketServer);
            ticketsLeft = 99;
            return;
        }
        ticketServer.getSession().putValue("n", ticketsLeft);
        ticketServer.wrap(ByteBuffer.allocate(1), toClient);
        flow(ticketServer, null, toClient);
        toClient.clear();
    }

    @Benchmark
    public void fullHandshake() throws SSLException {
        handshake(client.createSSLEngine(), server.createSSLEngine());
    }

    @Benchmark
    public void noCache() throws SSLException {
        fullHandshake();
    }

    void handshake(SSLEngine c, SSLEngine s) throws SSLException {
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

    void flow(SSLEngine from, SSLEngine to, ByteBuffer net) throws SSLException {
        while (tasks(from) == HandshakeStatus.NEED_WRAP
                && from.wrap(empty, net).bytesProduced() > 0) {
        }
        net.flip();
        while (to != null && net.hasRemaining()
                && to.unwrap(net, app).bytesConsumed() > 0) {
            tasks(to);
            app.clear();
        }
        net.compact();
    }

    static HandshakeStatus tasks(SSLEngine engine) {
        for (Runnable task; (task = engine.getDelegatedTask()) != null; ) {
            task.run();
        }
        return engine.getHandshakeStatus();
    }
}
