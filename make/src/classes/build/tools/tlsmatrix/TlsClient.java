/*
 * Copyright (c) 2026, the java.base patch set contributors.
 * SPDX-License-Identifier: GPL-2.0-only WITH Classpath-exception-2.0
 */

package build.tools.tlsmatrix;

import java.io.BufferedReader;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.util.Arrays;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;

/**
 * The JDK as a TLS client, for make tls-matrix: a long-running process
 * that makes connections when make/scripts/tls-matrix.py asks, so that the
 * JVM is warm and its start is never measured. It uses the JDK it runs on
 * only through javax.net.ssl.
 *
 * <p>Each connection: a fresh SSLContext (its session cache empty, so the
 * handshake is a full one), an SSLSocket with TCP_NODELAY as asked and only
 * the asked protocol enabled; then, timed from before the connect to the
 * last byte of the response: connect, startHandshake() if asked (else the
 * first write starts the handshake), a 32-byte request in one write, and
 * the server's 32-byte response. The socket is closed after the time is
 * taken. A connection that negotiated another protocol, or whose response
 * does not end with a newline, fails.
 *
 * <p>Usage: {@code TlsClient <PKCS12 truststore> <password>}. Prints
 * {@code ready <version> <java.home>}, then reads commands on stdin, one a
 * line, and answers each with one line on stdout:
 * <pre>
 *   run &lt;host&gt; &lt;port&gt; &lt;protocol&gt; &lt;nodelay 0|1&gt; &lt;explicit 0|1&gt; &lt;count&gt;
 *       -&gt; ok &lt;microseconds&gt; ... (one per connection, -1 for a failed one,
 *          whose stack trace goes to stderr)
 *   quit (or the end of stdin) -&gt; exits
 * </pre>
 */
public final class TlsClient {

    static final int MESSAGE = 32;
    static final int TIMEOUT_MILLIS = 10_000;

    private final TrustManager[] trustManagers;
    private final byte[] request = new byte[MESSAGE];

    private TlsClient(TrustManager[] trustManagers) {
        this.trustManagers = trustManagers;
        Arrays.fill(request, (byte) 'q');
        request[MESSAGE - 1] = '\n';
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 2) {
            System.err.println("usage: TlsClient <PKCS12 truststore> <password>");
            System.exit(2);
        }
        KeyStore trustStore = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(Path.of(args[0]))) {
            trustStore.load(in, args[1].toCharArray());
        }
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(
                TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(trustStore);
        TlsClient client = new TlsClient(tmf.getTrustManagers());

        PrintStream out = System.out;
        out.println("ready " + Runtime.version() + " "
                + System.getProperty("java.home"));
        out.flush();
        BufferedReader commands = new BufferedReader(
                new InputStreamReader(System.in, StandardCharsets.US_ASCII));
        for (String line; (line = commands.readLine()) != null; ) {
            String[] w = line.trim().split(" +");
            if (w[0].equals("quit")) {
                break;
            } else if (w[0].equals("run") && w.length == 7) {
                InetSocketAddress address = new InetSocketAddress(
                        w[1], Integer.parseInt(w[2]));
                StringBuilder answer = new StringBuilder("ok");
                for (int i = 0, n = Integer.parseInt(w[6]); i < n; i++) {
                    answer.append(' ').append(client.connection(address,
                            w[3], w[4].equals("1"), w[5].equals("1")));
                }
                out.println(answer);
            } else {
                out.println("err unknown command: " + line);
            }
            out.flush();
        }
    }

    // One connection's time in microseconds, or -1 when it failed.
    private long connection(InetSocketAddress address, String protocol,
            boolean noDelay, boolean explicit) {
        try {
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, trustManagers, null);
            byte[] response = new byte[MESSAGE];
            long start, end;
            try (SSLSocket socket = (SSLSocket)
                    context.getSocketFactory().createSocket()) {
                socket.setTcpNoDelay(noDelay);
                socket.setSoTimeout(TIMEOUT_MILLIS);
                socket.setEnabledProtocols(new String[] {protocol});

                start = System.nanoTime();
                socket.connect(address, TIMEOUT_MILLIS);
                if (explicit) {
                    socket.startHandshake();
                }
                socket.getOutputStream().write(request);
                readFully(socket.getInputStream(), response);
                end = System.nanoTime();

                String negotiated = socket.getSession().getProtocol();
                if (!negotiated.equals(protocol)) {
                    throw new IOException("negotiated " + negotiated
                            + ", not " + protocol);
                }
            }
            if (response[MESSAGE - 1] != '\n') {
                throw new IOException("the response does not end with a newline");
            }
            return (end - start) / 1_000;
        } catch (Exception e) {
            System.err.println("connection to " + address + " (" + protocol
                    + ", nodelay " + noDelay + ", explicit " + explicit
                    + ") failed:");
            e.printStackTrace();
            return -1;
        }
    }

    static void readFully(InputStream in, byte[] b) throws IOException {
        for (int off = 0; off < b.length; ) {
            int n = in.read(b, off, b.length - off);
            if (n < 0) {
                throw new EOFException("closed after " + off + " bytes");
            }
            off += n;
        }
    }
}
