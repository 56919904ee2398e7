/*
 * Copyright (c) 2026, the java.base patch set contributors.
 * SPDX-License-Identifier: GPL-2.0-only WITH Classpath-exception-2.0
 */

/*
 * @test
 * @bug 0000000
 * @summary SSLSocket writes each TLS handshake flight with one write
 * @library /javax/net/ssl/templates
 * @run main/othervm HandshakeFlightWrites
 */

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.reflect.Method;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;

/*
 * Each side of the connection is an SSLSocket layered over a plain Socket
 * whose output stream keeps, for every write, the content types of the TLS
 * records the write holds (22 handshake, 20 change_cipher_spec, 21 alert,
 * 23 application data or TLS 1.3 encrypted records). A flight is what one
 * side sends before it waits for the peer: it must be one write, made of
 * whole records, whatever TCP_NODELAY says. The server's ServerHello is a
 * write of its own, the rest of its flight the next. Application data is
 * still written one record per write.
 */
public class HandshakeFlightWrites extends SSLContextTemplate {

    private static final List<String> failures = new ArrayList<>();
    private static final Method SET_NAMED_GROUPS = setNamedGroups();

    public static void main(String[] args) throws Exception {
        new HandshakeFlightWrites().run();
        if (!failures.isEmpty()) {
            throw new RuntimeException(String.join("; ", failures));
        }
    }

    private void run() throws Exception {
        SSLContext serverContext = createServerSSLContext();
        SSLContext clientContext = createClientSSLContext();
        ExecutorService executor = Executors.newSingleThreadExecutor();
        try (ServerSocket listener = new RecordingServerSocket()) {
            listener.bind(new InetSocketAddress(
                    InetAddress.getLoopbackAddress(), 0));

            // ClientHello | ClientKeyExchange, ChangeCipherSpec, Finished;
            // ServerHello | Certificate..ServerHelloDone |
            // NewSessionTicket, ChangeCipherSpec, Finished
            connect("TLSv1.2 full", "TLSv1.2", Case.PLAIN,
                    serverContext, clientContext, listener, executor,
                    List.of("22", "22 20 22", "23", "21"),
                    List.of("22", "22 22 22", "22 20 22", "23", "21"));

            // ClientHello | ChangeCipherSpec, Finished;
            // ServerHello | NewSessionTicket, ChangeCipherSpec, Finished
            connect("TLSv1.2 resumed", "TLSv1.2", Case.PLAIN,
                    serverContext, clientContext, listener, executor,
                    List.of("22", "20 22", "23", "21"),
                    List.of("22", "22 20 22", "23", "21"));

            // ClientHello | ChangeCipherSpec, Finished;
            // ServerHello | ChangeCipherSpec, EncryptedExtensions,
            // Certificate, CertificateVerify, Finished | NewSessionTicket
            connect("TLSv1.3", "TLSv1.3", Case.PLAIN,
                    serverContext, clientContext, listener, executor,
                    List.of("22", "20 23", "23", "23"),
                    List.of("22", "20 23 23 23 23", "23", "23", "23", "23"));

            // with client authentication (a new client context, so that
            // the handshake is a full one, not a resumption): the client's
            // last flight is ChangeCipherSpec, Certificate,
            // CertificateVerify, Finished; the server's holds a
            // CertificateRequest
            connect("TLSv1.3 client auth", "TLSv1.3", Case.CLIENT_AUTH,
                    serverContext, createClientSSLContext(), listener,
                    executor,
                    List.of("22", "20 23 23 23", "23", "23"),
                    List.of("22", "20 23 23 23 23 23", "23", "23", "23", "23"));

            // TCP_NODELAY on both sides: the same writes
            connect("TLSv1.2 full, TCP_NODELAY", "TLSv1.2", Case.NO_DELAY,
                    serverContext, createClientSSLContext(), listener,
                    executor,
                    List.of("22", "22 20 22", "23", "21"),
                    List.of("22", "22 22 22", "22 20 22", "23", "21"));

            // the server asks for another key share: ClientHello |
            // ClientHello | ChangeCipherSpec, Finished; HelloRetryRequest |
            // its ChangeCipherSpec, which waits for a handshake message,
            // and ServerHello | ChangeCipherSpec, EncryptedExtensions..
            if (SET_NAMED_GROUPS != null) {
                connect("TLSv1.3 HelloRetryRequest", "TLSv1.3", Case.RETRY,
                        serverContext, createClientSSLContext(), listener,
                        executor,
                        List.of("22", "22", "20 23", "23", "23"),
                        List.of("22", "20 22", "20 23 23 23 23", "23", "23",
                                "23", "23"));
            } else {
                System.out.println("No HelloRetryRequest case: "
                        + "SSLParameters.setNamedGroups() is JDK 20's");
            }

            // after the handshake, the client's startHandshake() sends a
            // KeyUpdate, and the server answers with its own when it reads
            // it, before its application data
            connect("TLSv1.3 KeyUpdate", "TLSv1.3", Case.KEY_UPDATE,
                    serverContext, createClientSSLContext(), listener,
                    executor,
                    List.of("22", "20 23", "23", "23", "23"),
                    List.of("22", "20 23 23 23 23", "23", "23", "23", "23",
                            "23"));

            // a session value set after the handshake: the server sends a
            // NewSessionTicket after its application data
            connect("TLSv1.3 new ticket", "TLSv1.3", Case.NEW_TICKET,
                    serverContext, createClientSSLContext(), listener,
                    executor,
                    List.of("22", "20 23", "23", "23"),
                    List.of("22", "20 23 23 23 23", "23", "23", "23", "23",
                            "23"));
        } finally {
            executor.shutdownNow();
        }
    }

    private static Method setNamedGroups() {
        try {
            return SSLParameters.class.getMethod(
                    "setNamedGroups", String[].class);
        } catch (NoSuchMethodException e) {
            return null;
        }
    }

    private enum Case {
        PLAIN, CLIENT_AUTH, NO_DELAY, RETRY, KEY_UPDATE, NEW_TICKET
    }

    // Each side's writes: the handshake, one byte of application data each
    // way (the server reads first), then the server's close (close_notify;
    // in TLS 1.3 user_canceled first) and the client's close_notify reply.
    private static void connect(String name, String protocol, Case c,
            SSLContext serverContext, SSLContext clientContext,
            ServerSocket listener, ExecutorService executor,
            List<String> clientWrites, List<String> serverWrites)
            throws Exception {
        Future<List<String>> server = executor.submit(() -> {
            RecordingSocket plain = (RecordingSocket) listener.accept();
            plain.setTcpNoDelay(c == Case.NO_DELAY);
            try (SSLSocket ssl = (SSLSocket) serverContext.getSocketFactory()
                    .createSocket(plain, null, plain.getPort(), true)) {
                ssl.setUseClientMode(false);
                ssl.setNeedClientAuth(c == Case.CLIENT_AUTH);
                if (c == Case.RETRY) {
                    SSLParameters params = ssl.getSSLParameters();
                    SET_NAMED_GROUPS.invoke(params,
                            (Object) new String[] {"secp384r1"});
                    ssl.setSSLParameters(params);
                }
                ssl.startHandshake();
                if (c == Case.NEW_TICKET) {
                    ssl.getSession().putValue("name", "value");
                }
                if (ssl.getInputStream().read() != 1) {
                    throw new RuntimeException("no application data");
                }
                ssl.getOutputStream().write(1);
            }
            return plain.writes();              // close_notify the last
        });

        RecordingSocket plain = new RecordingSocket();
        plain.connect(listener.getLocalSocketAddress());
        plain.setTcpNoDelay(c == Case.NO_DELAY);
        List<String> writes;
        try (SSLSocket ssl = (SSLSocket) clientContext.getSocketFactory()
                .createSocket(plain, "localhost", listener.getLocalPort(),
                        true)) {
            ssl.setEnabledProtocols(new String[] {protocol});
            ssl.startHandshake();
            if (c == Case.KEY_UPDATE) {
                ssl.startHandshake();
            }
            ssl.getOutputStream().write(1);
            if (ssl.getInputStream().read() != 1
                    || ssl.getInputStream().read() != -1) {
                throw new RuntimeException("not one byte, then close_notify");
            }
            writes = plain.writes();
        }

        check(name + ", client", clientWrites, writes);
        check(name + ", server", serverWrites, server.get());
    }

    private static void check(String name, List<String> expected,
            List<String> actual) {
        System.out.println(name + ": " + actual);
        if (!expected.equals(actual)) {
            failures.add(name + ": writes " + actual
                    + ", expected " + expected);
        }
    }

    // Content types of the records in b[off..off+len), or "partial" where
    // the write ends inside a record.
    private static String recordTypes(byte[] b, int off, int len) {
        StringBuilder types = new StringBuilder();
        int end = off + len;
        while (off < end) {
            if (end - off < 5) {
                return types.append("partial").toString();
            }
            types.append(b[off]).append(' ');
            off += 5 + (((b[off + 3] & 0xFF) << 8) | (b[off + 4] & 0xFF));
        }
        return off == end ? types.toString().trim()
                : types.append("partial").toString();
    }

    private static final class RecordingSocket extends Socket {
        private final List<String> writes = new ArrayList<>();
        private OutputStream recorder;
        synchronized List<String> writes() {
            return new ArrayList<>(writes);
        }

        @Override
        public synchronized OutputStream getOutputStream()
                throws IOException {
            if (recorder == null) {
                recorder = new FilterOutputStream(super.getOutputStream()) {
                    @Override
                    public void write(int b) throws IOException {
                        write(new byte[] {(byte) b}, 0, 1);
                    }

                    @Override
                    public void write(byte[] b, int off, int len)
                            throws IOException {
                        synchronized (RecordingSocket.this) {
                            writes.add(recordTypes(b, off, len));
                        }
                        out.write(b, off, len);
                    }
                };
            }
            return recorder;
        }
    }

    private static final class RecordingServerSocket extends ServerSocket {
        RecordingServerSocket() throws IOException {
        }

        @Override
        public Socket accept() throws IOException {
            Socket socket = new RecordingSocket();
            implAccept(socket);
            return socket;
        }
    }
}
