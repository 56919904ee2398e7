/*
 * Copyright (c) 2026, the java.base patch set contributors.
 * SPDX-License-Identifier: GPL-2.0-only WITH Classpath-exception-2.0
 */

/*
 * @test
 * @bug 0000000
 * @summary SSLSocket writes each TLS handshake flight in one write without TCP_NODELAY
 * @library /javax/net/ssl/templates
 * @run main/othervm HandshakeFlightWrites
 */

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;

/*
 * Each side of the connection is an SSLSocket layered over a plain Socket
 * whose output stream keeps, for every write, the content types of the TLS
 * records the write holds (22 handshake, 20 change_cipher_spec, 21 alert,
 * 23 application data or TLS 1.3 encrypted records). A flight is what one
 * side sends before it waits for the peer: it must be one write, made of
 * whole records. Application data is still written one record per write.
 * With TCP_NODELAY, where no segment waits for an acknowledgement, each
 * record is written as it is made, so the peer can start on it sooner.
 */
public class HandshakeFlightWrites extends SSLContextTemplate {

    private static final List<String> failures = new ArrayList<>();

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
            // ServerHello..ServerHelloDone | NewSessionTicket,
            // ChangeCipherSpec, Finished
            connect("TLSv1.2 full", "TLSv1.2", false, false,
                    serverContext, clientContext, listener, executor,
                    List.of("22", "22 20 22"),
                    List.of("22 22 22 22", "22 20 22"));

            // ClientHello | ChangeCipherSpec, Finished;
            // ServerHello, NewSessionTicket, ChangeCipherSpec, Finished
            connect("TLSv1.2 resumed", "TLSv1.2", false, false,
                    serverContext, clientContext, listener, executor,
                    List.of("22", "20 22"),
                    List.of("22 22 20 22"));

            // ClientHello | ChangeCipherSpec, Finished;
            // ServerHello, ChangeCipherSpec, EncryptedExtensions,
            // Certificate, CertificateVerify, Finished | NewSessionTicket
            connect("TLSv1.3", "TLSv1.3", false, false,
                    serverContext, clientContext, listener, executor,
                    List.of("22", "20 23"),
                    List.of("22 20 23 23 23 23", "23"));

            // with client authentication (a new client context, so that
            // the handshake is a full one, not a resumption): the client's
            // last flight is ChangeCipherSpec, Certificate,
            // CertificateVerify, Finished; the server's holds a
            // CertificateRequest
            connect("TLSv1.3 client auth", "TLSv1.3", true, false,
                    serverContext, createClientSSLContext(), listener,
                    executor,
                    List.of("22", "20 23 23 23"),
                    List.of("22 20 23 23 23 23 23", "23"));

            // TCP_NODELAY on both sides: a record per write, as made
            connect("TLSv1.2 full, TCP_NODELAY", "TLSv1.2", false, true,
                    serverContext, createClientSSLContext(), listener,
                    executor,
                    List.of("22", "22", "20", "22"),
                    List.of("22", "22", "22", "22", "22", "20", "22"));

            // sockets whose TCP_NODELAY cannot be read (null): held flights
            connect("TLSv1.2 full, TCP_NODELAY unknown", "TLSv1.2", false,
                    null, serverContext, createClientSSLContext(), listener,
                    executor,
                    List.of("22", "22 20 22"),
                    List.of("22 22 22 22", "22 20 22"));
        } finally {
            executor.shutdownNow();
        }
    }

    private static void connect(String name, String protocol,
            boolean clientAuth, Boolean noDelay, SSLContext serverContext,
            SSLContext clientContext, ServerSocket listener,
            ExecutorService executor, List<String> clientFlights,
            List<String> serverFlights) throws Exception {
        Future<List<String>> server = executor.submit(() -> {
            RecordingSocket plain = (RecordingSocket) listener.accept();
            plain.setNoDelay(noDelay);
            try (SSLSocket ssl = (SSLSocket) serverContext.getSocketFactory()
                    .createSocket(plain, null, plain.getPort(), true)) {
                ssl.setUseClientMode(false);
                ssl.setNeedClientAuth(clientAuth);
                ssl.startHandshake();
                List<String> flights = plain.writes();
                exchange(ssl, plain);
                return flights;
            }
        });

        RecordingSocket plain = new RecordingSocket();
        plain.connect(listener.getLocalSocketAddress());
        plain.setNoDelay(noDelay);
        List<String> flights;
        try (SSLSocket ssl = (SSLSocket) clientContext.getSocketFactory()
                .createSocket(plain, "localhost", listener.getLocalPort(),
                        true)) {
            ssl.setEnabledProtocols(new String[] {protocol});
            ssl.startHandshake();
            flights = plain.writes();
            exchange(ssl, plain);
        }

        check(name + ", client", clientFlights, flights);
        check(name + ", server", serverFlights, server.get());
    }

    // One byte each way: a write of application data is one record in one
    // write, as before; reading it takes in what the peer sent after its
    // handshake (a TLS 1.3 NewSessionTicket).
    private static void exchange(SSLSocket ssl, RecordingSocket plain)
            throws IOException {
        int before = plain.writes().size();
        ssl.getOutputStream().write(1);
        List<String> writes = plain.writes();
        if (!writes.subList(before, writes.size()).equals(List.of("23"))) {
            throw new RuntimeException("one byte of application data: "
                    + writes.subList(before, writes.size()));
        }
        if (ssl.getInputStream().read() != 1) {
            throw new RuntimeException("no application data");
        }
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
        private boolean noDelayUnknown;

        // null: getTcpNoDelay() throws, as a socket without the option may
        void setNoDelay(Boolean noDelay) throws IOException {
            noDelayUnknown = noDelay == null;
            setTcpNoDelay(noDelay != null && noDelay);
        }

        @Override
        public boolean getTcpNoDelay() throws SocketException {
            if (noDelayUnknown) {
                throw new SocketException("TCP_NODELAY unknown");
            }
            return super.getTcpNoDelay();
        }

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
