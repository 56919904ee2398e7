/*
 * Copyright (c) 2026, the java.base patch set contributors.
 * SPDX-License-Identifier: GPL-2.0-only WITH Classpath-exception-2.0
 */

/*
 * @test
 * @bug 0000000 8250521
 * @summary Loopback connects to a closed port are refused at once on Windows
 * @requires os.family == "windows"
 * @library /test/lib
 * @build jdk.test.lib.net.IPSupport
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
import java.nio.channels.SocketChannel;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import jdk.test.lib.net.IPSupport;

/**
 * Guards that Windows does not retransmit the SYN of a TCP connect to a
 * loopback address when it is answered with a reset: the channel sets
 * SIO_TCP_INITIAL_RTO before it connects. AsynchronousSocketChannel connects
 * with ConnectEx, SocketChannel (JDK-8250521) with connect.
 */
public class LoopbackConnectRefused {

    // With the SYN retransmitted, a refusal takes about 2 s (JDK-8250521).
    // Before Windows 10 1709 one retransmission remains.
    static final long BOUND_MILLIS = 1500;
    static final int ATTEMPTS = 10;        // passes on the first under the bound
    static final long HANG_SECONDS = 60;   // a connect that never ends fails the test

    interface Connect { void to(SocketAddress target) throws Exception; }

    public static void main(String[] args) throws Exception {
        IPSupport.throwSkippedExceptionIfNonOperational();
        if (IPSupport.hasIPv4()) test(InetAddress.getByName("127.0.0.1"));
        if (IPSupport.hasIPv6()) test(InetAddress.getByName("::1"));
    }

    static void test(InetAddress lo) throws Exception {
        try (ServerSocket listener = new ServerSocket(0, 1, lo); Socket holder = new Socket()) {
            // connects to a listener, so a failure below is the closed port's
            asyncConnect(listener.getLocalSocketAddress());
            // the port of a socket that is bound but never listens stays closed
            holder.bind(new InetSocketAddress(lo, 0));
            SocketAddress target = holder.getLocalSocketAddress();
            check("AsynchronousSocketChannel", target, LoopbackConnectRefused::asyncConnect);
            check("SocketChannel", target, t -> SocketChannel.open(t).close());
        }
    }

    static void asyncConnect(SocketAddress target) throws Exception {
        try (var ch = AsynchronousSocketChannel.open()) {
            ch.connect(target).get(HANG_SECONDS, TimeUnit.SECONDS);
        }
    }

    static void check(String channel, SocketAddress target, Connect connect) {
        for (int attempt = 1; attempt <= ATTEMPTS; attempt++) {
            long start = System.nanoTime();
            Throwable failure = null;
            try {
                connect.to(target);
            } catch (Exception e) {
                failure = (e instanceof ExecutionException) ? e.getCause() : e;
            }
            long millis = (System.nanoTime() - start) / 1_000_000;
            System.out.println(channel + " " + target + ": " + millis + " ms, " + failure);
            // a refusal: ConnectException, or the plain IOException with which
            // the completion port reports a refused ConnectEx
            boolean refused = failure instanceof ConnectException
                    || (failure != null && failure.getClass() == IOException.class);
            if (!refused) {
                throw new RuntimeException(channel + " " + target + ": not refused", failure);
            }
            if (millis <= BOUND_MILLIS) return;
        }
        throw new RuntimeException(channel + " " + target + ": no refusal within " + BOUND_MILLIS
                + " ms");
    }
}
