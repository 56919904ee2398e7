/*
 * Copyright (c) 2026, the java.base patch set contributors.
 * SPDX-License-Identifier: GPL-2.0-only WITH Classpath-exception-2.0
 */

/*
 * @test
 * @bug 0000000
 * @summary SSLSocket reads while another thread's write is blocked
 * @library /javax/net/ssl/templates
 * @run main/othervm FullDuplexTransfer
 */

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import javax.net.ssl.SSLServerSocket;
import javax.net.ssl.SSLSocket;

/*
 * Both sides write far more than the socket buffers hold while another
 * thread of each side reads. A write blocks until the peer reads, so the
 * transfer completes only if a read never waits for a write in progress.
 * A guard, which passes without the change too: a reader that wrote, or
 * waited for, the records another thread holds would hang here.
 */
public class FullDuplexTransfer extends SSLContextTemplate {

    private static final int CHUNK = 1 << 20;
    private static final int CHUNKS = 8;
    private static final int BUFFER = 8 << 10;

    public static void main(String[] args) throws Exception {
        new FullDuplexTransfer().run();
    }

    private void run() throws Exception {
        ExecutorService executor = Executors.newCachedThreadPool();
        try (SSLServerSocket listener = (SSLServerSocket) createServerSSLContext()
                .getServerSocketFactory().createServerSocket()) {
            listener.setReceiveBufferSize(BUFFER);
            listener.bind(new InetSocketAddress(
                    InetAddress.getLoopbackAddress(), 0));
            Future<SSLSocket> accepted =
                    executor.submit(() -> (SSLSocket) listener.accept());
            try (SSLSocket client = (SSLSocket) createClientSSLContext()
                    .getSocketFactory().createSocket()) {
                client.setSendBufferSize(BUFFER);
                client.setReceiveBufferSize(BUFFER);
                client.connect(listener.getLocalSocketAddress());
                try (SSLSocket server = accepted.get()) {
                    server.setSendBufferSize(BUFFER);
                    List<Future<?>> transfers = List.of(
                            executor.submit(() -> write(client)),
                            executor.submit(() -> read(client)),
                            executor.submit(() -> write(server)),
                            executor.submit(() -> read(server)));
                    for (Future<?> transfer : transfers) {
                        try {
                            // generous: the transfer takes about a second
                            transfer.get(60, TimeUnit.SECONDS);
                        } catch (TimeoutException e) {
                            throw new RuntimeException("the transfer "
                                    + "stalled: a read waits for a write", e);
                        }
                    }
                }
            }
        } finally {
            executor.shutdownNow();
        }
    }

    private static Void write(SSLSocket socket) throws IOException {
        OutputStream out = socket.getOutputStream();
        byte[] chunk = new byte[CHUNK];
        for (int i = 0; i < CHUNKS; i++) {
            out.write(chunk);
        }
        return null;
    }

    private static Void read(SSLSocket socket) throws IOException {
        InputStream in = socket.getInputStream();
        byte[] buffer = new byte[64 << 10];
        long left = (long) CHUNK * CHUNKS;
        while (left > 0) {
            int n = in.read(buffer);
            if (n < 0) {
                throw new IOException(left + " bytes missing");
            }
            left -= n;
        }
        return null;
    }
}
