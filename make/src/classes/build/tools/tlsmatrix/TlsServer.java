/*
 * Copyright (c) 2026, the java.base patch set contributors.
 * SPDX-License-Identifier: GPL-2.0-only WITH Classpath-exception-2.0
 */

package build.tools.tlsmatrix;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.util.Arrays;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLServerSocket;
import javax.net.ssl.SSLSocket;

/**
 * The JDK as a TLS server, for make tls-matrix: a long-running process
 * with two listeners on 127.0.0.1, the first handing its connections the
 * sockets' defaults (Nagle's algorithm on), the second TCP_NODELAY. It uses
 * the JDK it runs on only through javax.net.ssl, with its default
 * protocols (TLS 1.3 and 1.2; the client picks one).
 *
 * <p>Each connection, one at a time per listener: TCP_NODELAY as that
 * listener says, a read of the client's 32-byte request (the handshake runs
 * first), a 32-byte response (ending with a newline) in one write, then
 * reads until the client closes.
 *
 * <p>Usage: {@code TlsServer <PKCS12 keystore> <password>}. Prints
 * {@code ports <default> <nodelay> <version> <java.home>} once listening,
 * and exits when its stdin ends (when make/scripts/tls-matrix.py goes).
 */
public final class TlsServer {

    static final int MESSAGE = 32;
    static final int TIMEOUT_MILLIS = 10_000;

    public static void main(String[] args) throws Exception {
        if (args.length != 2) {
            System.err.println("usage: TlsServer <PKCS12 keystore> <password>");
            System.exit(2);
        }
        char[] password = args[1].toCharArray();
        KeyStore keyStore = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(Path.of(args[0]))) {
            keyStore.load(in, password);
        }
        KeyManagerFactory kmf = KeyManagerFactory.getInstance(
                KeyManagerFactory.getDefaultAlgorithm());
        kmf.init(keyStore, password);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(kmf.getKeyManagers(), null, null);

        InetAddress loopback = InetAddress.getByName("127.0.0.1");
        SSLServerSocket plain = (SSLServerSocket) context
                .getServerSocketFactory().createServerSocket(0, 50, loopback);
        SSLServerSocket noDelay = (SSLServerSocket) context
                .getServerSocketFactory().createServerSocket(0, 50, loopback);
        start(plain, false);
        start(noDelay, true);
        System.out.println("ports " + plain.getLocalPort() + " "
                + noDelay.getLocalPort() + " " + Runtime.version() + " "
                + System.getProperty("java.home"));
        System.out.flush();

        // Serve until the parent closes our stdin.
        while (System.in.read() >= 0) {
            // nothing is asked on stdin
        }
        System.exit(0);
    }

    private static void start(SSLServerSocket listener, boolean noDelay) {
        Thread t = new Thread(() -> serve(listener, noDelay),
                noDelay ? "nodelay" : "default");
        t.setDaemon(true);
        t.start();
    }

    private static void serve(SSLServerSocket listener, boolean noDelay) {
        byte[] response = new byte[MESSAGE];
        Arrays.fill(response, (byte) 'r');
        response[MESSAGE - 1] = '\n';
        byte[] request = new byte[MESSAGE];
        while (true) {
            try (SSLSocket s = (SSLSocket) listener.accept()) {
                s.setTcpNoDelay(noDelay);
                s.setSoTimeout(TIMEOUT_MILLIS);
                InputStream in = s.getInputStream();
                TlsClient.readFully(in, request);
                s.getOutputStream().write(response);
                while (in.read(request) >= 0) {
                    // until the client closes
                }
            } catch (IOException e) {
                System.err.println("connection on the "
                        + (noDelay ? "nodelay" : "default") + " listener failed:");
                e.printStackTrace();
            }
        }
    }
}
