/*
 * Copyright (c) 2026, the java.base patch set contributors.
 * SPDX-License-Identifier: GPL-2.0-only WITH Classpath-exception-2.0
 */

/*
 * @test
 * @summary Over real TLS 1.2 and 1.3 connections on loopback, with the
 *          session caches that sun.security.util.Cache implements: a second
 *          connection resumes the session, after setSessionTimeout expiry it
 *          does not, and setSessionCacheSize(n) bounds getIds()
 * @library /javax/net/ssl/templates
 * @run main/othervm/timeout=240
 *      -Djdk.tls.server.enableSessionTicketExtension=false
 *      ResumptionTimeoutAndSize
 */

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.security.Principal;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import javax.net.ssl.KeyManager;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLServerSocket;
import javax.net.ssl.SSLSessionContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.X509ExtendedKeyManager;

/*
 * The server keeps its sessions in its own cache rather than in stateless
 * tickets (jdk.tls.server.enableSessionTicketExtension=false), so that the
 * connections go through all three caches of the JSSE: the server's session
 * cache (get for TLS 1.2, pull for TLS 1.3), the client's session cache and
 * the client's per-host queue of TLS 1.3 tickets (put(k, v, true), get).
 *
 * Why this test waits for real time: the caches under test are created
 * inside SSLSessionContextImpl with the default System.nanoTime clock, which
 * no public or test API can replace, and JSSE checks session age against
 * System.currentTimeMillis besides (SSLSessionContextImpl.isTimedout, the
 * ticket lifetime). The shortest timeout the API accepts is 1 s, so the
 * expiry step sleeps 1.5 s, once per protocol. Everything else is driven
 * by the connections themselves.
 */
public class ResumptionTimeoutAndSize extends SSLContextTemplate {

    SSLContext serverContext;
    CountingKeyManager serverKeys;   // set by createServerKeyManager()

    public static void main(String[] args) throws Exception {
        new ResumptionTimeoutAndSize().run();
    }

    void run() throws Exception {
        for (String protocol : new String[] {"TLSv1.3", "TLSv1.2"}) {
            System.out.println("=== " + protocol);
            serverContext = createServerSSLContext();
            try (Server server = new Server(serverContext, protocol)) {
                resumeThenExpire(server);
                cacheSizeBoundsIds(server);
            }
        }
        System.out.println("passed");
    }

    /** The first connection is full, the second resumes, expiry ends it. */
    void resumeThenExpire(Server server) throws Exception {
        SSLContext client = clientContext();
        check(connect(client, server, "localhost"), true, "first connection");
        check(connect(client, server, "localhost"), false, "second connection");

        for (SSLSessionContext c : List.of(client.getClientSessionContext(),
                serverContext.getServerSessionContext())) {
            c.setSessionTimeout(1);
        }
        Thread.sleep(1500);             // see the comment at the top
        check(connect(client, server, "localhost"), true,
                "connection after the timeout expired");

        // Caching goes on after an expiry. With a long timeout again, so
        // that nothing here has to finish within a second, a new client
        // makes a full connection and then resumes it.
        for (SSLSessionContext c : List.of(client.getClientSessionContext(),
                serverContext.getServerSessionContext())) {
            c.setSessionTimeout(3600);
        }
        SSLContext again = clientContext();
        check(connect(again, server, "localhost"), true,
                "first connection of a new client after the expiry");
        check(connect(again, server, "localhost"), false,
                "second connection of a new client after the expiry");
    }

    /** setSessionCacheSize(n) bounds the sessions getIds() reports. */
    void cacheSizeBoundsIds(Server server) throws Exception {
        final int n = 3;
        final int sessions = 7;
        SSLContext client = clientContext();
        SSLSessionContext clientSessions = client.getClientSessionContext();
        SSLSessionContext serverSessions =
                serverContext.getServerSessionContext();
        serverSessions.setSessionTimeout(3600);
        clientSessions.setSessionCacheSize(n);
        serverSessions.setSessionCacheSize(n);
        List<String> clientIds = new ArrayList<>();
        for (int i = 0; i < sessions; i++) {
            // a host name the client has no session for: a full handshake
            // and a new session in both caches
            String host = "host" + i + ".invalid";
            check(connect(client, server, host), true, "session " + i);
            clientIds.add(lastClientSessionId);
        }
        List<String> ids = hex(clientSessions.getIds());
        checkSize(ids, n, "client getIds() with cache size " + n);
        // FIFO: the newest n sessions remain. Only TLS 1.2 caches the
        // handshake's own session; TLS 1.3 caches a copy per ticket, under
        // an id of its own.
        List<String> newest = clientIds.subList(sessions - n, sessions);
        if (server.protocol.equals("TLSv1.2") && !ids.containsAll(newest)) {
            throw new AssertionError("client cache kept " + ids
                    + ", not the newest " + newest);
        }
        checkSize(hex(serverSessions.getIds()), n,
                "server getIds() with cache size " + n);
        clientSessions.setSessionCacheSize(1);
        checkSize(hex(clientSessions.getIds()), 1, "after shrinking to 1");
    }

    static void checkSize(List<String> ids, int n, String what) {
        System.out.println(what + ": " + ids.size() + " ids");
        if (ids.size() != n) {
            throw new AssertionError(what + ": " + ids.size()
                    + " ids, expected " + n);
        }
    }

    static List<String> hex(java.util.Enumeration<byte[]> e) {
        List<String> l = new ArrayList<>();
        for (byte[] id : Collections.list(e)) {
            l.add(HexFormat.of().formatHex(id));
        }
        return l;
    }

    static void check(boolean full, boolean expectFull, String what) {
        System.out.println(what + ": " + (full ? "full" : "resumed"));
        if (full != expectFull) {
            throw new AssertionError(what + ": expected a "
                    + (expectFull ? "full handshake" : "resumed session")
                    + ", got a " + (full ? "full handshake" : "resumed one"));
        }
    }

    String lastClientSessionId;

    /**
     * One connection; returns whether the handshake was full. A resumed
     * handshake, in TLS 1.2 and 1.3 alike, sends no certificate, so the
     * server never asks its key manager for one.
     */
    boolean connect(SSLContext client, Server server, String host)
            throws IOException {
        int before = serverKeys.chosen.get();
        Socket tcp = new Socket(InetAddress.getLoopbackAddress(), server.port());
        try (SSLSocket s = (SSLSocket) client.getSocketFactory()
                .createSocket(tcp, host, server.port(), true)) {
            s.setSoTimeout(60_000);
            s.setEnabledProtocols(new String[] {server.protocol});
            s.startHandshake();
            // read the server's byte, so that a TLS 1.3 client also takes in
            // the NewSessionTicket sent before it
            OutputStream out = s.getOutputStream();
            InputStream in = s.getInputStream();
            out.write(1);
            out.flush();
            if (in.read() != 2) {
                throw new IOException("unexpected reply");
            }
            lastClientSessionId = HexFormat.of().formatHex(s.getSession().getId());
        }
        server.awaitHandled();
        return serverKeys.chosen.get() != before;
    }

    /** A client with session caches of its own. */
    SSLContext clientContext() throws Exception {
        return createClientSSLContext();
    }

    @Override
    protected KeyManager createServerKeyManager() throws Exception {
        serverKeys = new CountingKeyManager(
                (X509ExtendedKeyManager) super.createServerKeyManager());
        return serverKeys;
    }

    /** Counts how often the server picks a certificate: once per full one. */
    static final class CountingKeyManager extends X509ExtendedKeyManager {
        final AtomicInteger chosen = new AtomicInteger();
        private final X509ExtendedKeyManager delegate;

        CountingKeyManager(X509ExtendedKeyManager delegate) {
            this.delegate = delegate;
        }

        @Override
        public String chooseServerAlias(String type, Principal[] issuers,
                Socket socket) {
            String alias = delegate.chooseServerAlias(type, issuers, socket);
            if (alias != null) {
                chosen.incrementAndGet();
            }
            return alias;
        }

        @Override
        public String chooseEngineServerAlias(String type, Principal[] issuers,
                SSLEngine engine) {
            throw new AssertionError("the test uses sockets only");
        }

        @Override
        public String[] getClientAliases(String type, Principal[] issuers) {
            return delegate.getClientAliases(type, issuers);
        }

        @Override
        public String chooseClientAlias(String[] type, Principal[] issuers,
                Socket socket) {
            return delegate.chooseClientAlias(type, issuers, socket);
        }

        @Override
        public String[] getServerAliases(String type, Principal[] issuers) {
            return delegate.getServerAliases(type, issuers);
        }

        @Override
        public X509Certificate[] getCertificateChain(String alias) {
            return delegate.getCertificateChain(alias);
        }

        @Override
        public PrivateKey getPrivateKey(String alias) {
            return delegate.getPrivateKey(alias);
        }
    }

    /** Accepts connections one at a time on loopback, in its own thread. */
    static final class Server implements AutoCloseable {
        final String protocol;
        private final SSLServerSocket socket;
        private final Thread thread;
        private final java.util.concurrent.Semaphore handled =
                new java.util.concurrent.Semaphore(0);
        private volatile Throwable failure;

        Server(SSLContext context, String protocol) throws IOException {
            this.protocol = protocol;
            socket = (SSLServerSocket) context.getServerSocketFactory()
                    .createServerSocket(0, 50, InetAddress.getLoopbackAddress());
            socket.setEnabledProtocols(new String[] {protocol});
            thread = new Thread(this::serve, "tls-server");
            thread.setDaemon(true);
            thread.start();
        }

        int port() {
            return socket.getLocalPort();
        }

        private void serve() {
            while (!socket.isClosed()) {
                try (SSLSocket s = (SSLSocket) socket.accept()) {
                    s.setSoTimeout(60_000);
                    InputStream in = s.getInputStream();
                    if (in.read() != 1) {
                        throw new IOException("unexpected request");
                    }
                    s.getOutputStream().write(2);
                    s.getOutputStream().flush();
                    // wait for the client to close, so its side is complete
                    in.read();
                } catch (IOException e) {
                    if (socket.isClosed()) {
                        return;
                    }
                    failure = e;
                } finally {
                    handled.release();
                }
            }
        }

        void awaitHandled() throws IOException {
            try {
                if (!handled.tryAcquire(60, java.util.concurrent.TimeUnit.SECONDS)) {
                    throw new IOException("server did not finish a connection");
                }
            } catch (InterruptedException e) {
                throw new IOException(e);
            }
            if (failure != null) {
                throw new IOException("server failed", failure);
            }
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }
}
