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
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.util.List;
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
 * algorithm on). {@code key}: the server's key and certificate,
 * {@code EC} {@link TestCertificates}' EC P-256 one, {@code RSA2048} a
 * self-signed RSA 2048 one that the running JDK's keytool makes at setup,
 * with which the server's signature takes longest (e.g. the handshake's
 * cost with {@code TCP_NODELAY} on both sides). Where a side writes one
 * flight in several writes, Nagle's algorithm holds the later ones until
 * the peer acknowledges the first, which the peer delays (40 ms on Linux).
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

    @Param({"EC", "RSA2048"})
    String key;

    private static final char[] PASSWORD = "changeit".toCharArray();

    SSLServerSocket listener;
    SSLSocketFactory clientFactory;
    ExecutorService serverThreads;
    InetSocketAddress address;
    SSLSocket socket;

    @Setup(Level.Trial)
    public void setup() throws Exception {
        KeyManagerFactory kmf = KeyManagerFactory.getInstance("SunX509");
        KeyStore ts;
        if (key.equals("EC")) {
            kmf.init(TestCertificates.getKeyStore(), new char[0]);
            ts = TestCertificates.getTrustStore();
        } else if (key.equals("RSA2048")) {
            KeyStore ks = rsaKeyStore();
            kmf.init(ks, PASSWORD);
            ts = KeyStore.getInstance("PKCS12");
            ts.load(null, null);
            ts.setCertificateEntry("server", ks.getCertificate("server"));
        } else {
            throw new IllegalArgumentException("key " + key);
        }
        SSLContext server = SSLContext.getInstance("TLS");
        server.init(kmf.getKeyManagers(), null, null);
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(
                TrustManagerFactory.getDefaultAlgorithm());
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

    // A self-signed RSA 2048 key for CN=localhost, made by the keytool of
    // the JDK that runs the benchmark in a temporary PKCS12 file.
    private static KeyStore rsaKeyStore() throws Exception {
        Path dir = Files.createTempDirectory("SSLSocketHandshakeLatency");
        Path file = dir.resolve("server.p12");
        try {
            Path keytool = Path.of(System.getProperty("java.home"),
                    "bin", "keytool");
            Process p = new ProcessBuilder(List.of(keytool.toString(),
                    "-genkeypair", "-keystore", file.toString(),
                    "-storetype", "PKCS12", "-storepass", new String(PASSWORD),
                    "-alias", "server", "-keyalg", "RSA", "-keysize", "2048",
                    "-sigalg", "SHA256withRSA", "-dname", "CN=localhost",
                    "-validity", "2"))
                    .redirectErrorStream(true)
                    .start();
            String output = new String(p.getInputStream().readAllBytes());
            if (p.waitFor() != 0) {
                throw new IllegalStateException("keytool failed: " + output);
            }
            KeyStore ks = KeyStore.getInstance("PKCS12");
            try (InputStream in = Files.newInputStream(file)) {
                ks.load(in, PASSWORD);
            }
            String algorithm = ks.getCertificate("server").getPublicKey()
                    .getAlgorithm();
            if (!algorithm.equals("RSA")) {
                throw new IllegalStateException(algorithm + ", not RSA");
            }
            return ks;
        } finally {
            Files.deleteIfExists(file);
            Files.deleteIfExists(dir);
        }
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
