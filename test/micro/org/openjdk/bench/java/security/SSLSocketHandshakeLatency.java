/*
 * Copyright (c) 2026, the java.base patch set contributors.
 * SPDX-License-Identifier: GPL-2.0-only WITH Classpath-exception-2.0
 */

package org.openjdk.bench.java.security;

import org.openjdk.jmh.annotations.*;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.security.KeyStore;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.*;

/**
 * A fresh full TLS handshake between an {@code SSLSocket} client and an
 * {@code SSLServerSocket} server over loopback, each in its own thread, as
 * a client making one request sees it: from the connect to the response,
 * one byte of application data each way after the handshake (so that both
 * sides' flights count). The client's session is invalidated after each
 * handshake, so none is resumed. {@code nodelay}: which side sets
 * {@code TCP_NODELAY} ({@code none} are the sockets' defaults, Nagle's
 * algorithm on). The certificate is {@link TestCertificates}' EC P-256
 * one. Where a side writes one flight in several writes, Nagle's
 * algorithm holds the later ones until the peer acknowledges the first,
 * which the peer delays (40 ms on Linux).
 */
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2, time = 3)
@Measurement(iterations = 5, time = 3)
@Fork(1)
@State(Scope.Thread)
public class SSLSocketHandshakeLatency {

    @Param({"TLSv1.2", "TLSv1.3"})
    String protocol;

    @Param({"none", "both", "client", "server"})
    String nodelay;

    SSLServerSocket listener;
    SSLSocketFactory clientFactory;
    ExecutorService serverThreads;
    InetSocketAddress address;
    SSLSocket socket;

    @Setup(Level.Trial)
    public void setup() throws Exception {
        KeyManagerFactory kmf = KeyManagerFactory.getInstance("SunX509");
        kmf.init(TestCertificates.getKeyStore(), new char[0]);
        SSLContext server = SSLContext.getInstance("TLS");
        server.init(kmf.getKeyManagers(), null, null);
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(
                TrustManagerFactory.getDefaultAlgorithm());
        KeyStore ts = TestCertificates.getTrustStore();
        tmf.init(ts);
        SSLContext client = SSLContext.getInstance("TLS");
        client.init(null, tmf.getTrustManagers(), null);
        clientFactory = client.getSocketFactory();

        InetAddress loopback = InetAddress.getLoopbackAddress();
        listener = (SSLServerSocket) server.getServerSocketFactory()
                .createServerSocket(0, 50, loopback);
        address = new InetSocketAddress(loopback, listener.getLocalPort());
        boolean serverNoDelay = nodelay.equals("both")
                || nodelay.equals("server");
        serverThreads = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "server");
            t.setDaemon(true);
            return t;
        });
        serverThreads.submit(() -> {
            while (!listener.isClosed()) {
                SSLSocket s;
                try {
                    s = (SSLSocket) listener.accept();
                } catch (IOException e) {
                    return null;    // closed
                }
                serverThreads.submit(() -> serve(s, serverNoDelay));
            }
            return null;
        });
    }

    // The server's side of one connection: its handshake, the request,
    // the response, then it waits for the client to close.
    private static Void serve(SSLSocket s, boolean noDelay) throws IOException {
        try (s) {
            s.setTcpNoDelay(noDelay);
            InputStream in = s.getInputStream();
            int request = in.read();    // handshakes first
            s.getOutputStream().write(request);
            in.read();
        }
        return null;
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        listener.close();
        serverThreads.shutdownNow();
    }

    @Benchmark
    public int handshake() throws IOException {
        socket = (SSLSocket) clientFactory.createSocket();
        socket.setTcpNoDelay(nodelay.equals("both")
                || nodelay.equals("client"));
        socket.setEnabledProtocols(new String[] {protocol});
        socket.connect(address);
        socket.getOutputStream().write(1);    // handshakes first
        return socket.getInputStream().read();
    }

    @TearDown(Level.Invocation)
    public void close() throws IOException {
        SSLSession session = socket.getSession();
        if (!session.getProtocol().equals(protocol)) {
            throw new IllegalStateException(session.getProtocol());
        }
        session.invalidate();
        socket.close();
    }
}
