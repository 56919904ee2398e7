/*
 * Copyright (c) 2026, the java.base patch set contributors.
 * SPDX-License-Identifier: GPL-2.0-only WITH Classpath-exception-2.0
 */

/*
 * @test
 * @bug 0000000 8250521
 * @summary AsynchronousSocketChannel.connect to a closed loopback port fails at once
 * @requires os.family == "windows"
 * @library /test/lib
 * @build jdk.test.lib.Utils jdk.test.lib.net.IPSupport
 * @run main LoopbackConnectRefused
 * @run main/othervm -Djava.net.preferIPv4Stack=true LoopbackConnectRefused
 */

import java.io.IOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketAddress;
import java.nio.channels.AsynchronousSocketChannel;
import java.util.concurrent.ExecutionException;

import jdk.test.lib.Utils;
import jdk.test.lib.net.IPSupport;

public class LoopbackConnectRefused {

    // Scaled for slow runs, but under the ~2 s Windows takes when it retransmits the SYN
    static final long BOUND_MILLIS = Math.min(Utils.adjustTimeout(1000), 1500);

    public static void main(String[] args) throws Exception {
        IPSupport.throwSkippedExceptionIfNonOperational();
        if (IPSupport.hasIPv4()) test(InetAddress.getByName("127.0.0.1"));
        if (IPSupport.hasIPv6()) test(InetAddress.getByName("::1"));
    }

    static void test(InetAddress lo) throws Exception {
        try (ServerSocket listener = new ServerSocket(0, 1, lo); Socket holder = new Socket()) {
            // connects to a listener, so a failure below is the closed port's
            try (var ch = AsynchronousSocketChannel.open()) {
                ch.connect(listener.getLocalSocketAddress()).get();
            }
            // the port of a socket that is bound but never listens stays closed
            holder.bind(new InetSocketAddress(lo, 0));
            SocketAddress target = holder.getLocalSocketAddress();
            refusedMillis(target); // warm-up
            long fastest = Long.MAX_VALUE;
            for (int i = 0; i < 3; i++) {
                fastest = Math.min(fastest, refusedMillis(target));
            }
            System.out.printf("%s refused in %d ms (bound %d)%n", target, fastest, BOUND_MILLIS);
            if (fastest > BOUND_MILLIS) {
                throw new RuntimeException(target + " refused after " + fastest + " ms");
            }
        }
    }

    static long refusedMillis(SocketAddress target) throws Exception {
        try (var ch = AsynchronousSocketChannel.open()) {
            long start = System.nanoTime();
            try {
                ch.connect(target).get();
            } catch (ExecutionException e) {
                // Windows reports the refusal as a plain IOException, not ConnectException
                Throwable cause = e.getCause();
                if (cause.getClass() != IOException.class && !(cause instanceof ConnectException)) {
                    throw new RuntimeException(target + " not refused", cause);
                }
                return (System.nanoTime() - start) / 1_000_000;
            }
            throw new RuntimeException("Connected to " + target);
        }
    }
}
