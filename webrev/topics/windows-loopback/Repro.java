/*
 * Copyright (c) 2026, the java.base patch set contributors.
 * SPDX-License-Identifier: GPL-2.0-only WITH Classpath-exception-2.0
 */

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketAddress;
import java.nio.channels.AsynchronousSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * Times connects to a closed port of 127.0.0.1: with AsynchronousSocketChannel,
 * then with SocketChannel, which JDK-8250521 made fail fast on Windows.
 * Argument: the number of attempts of each (default 5).
 */
public class Repro {

    interface Connect { void to(SocketAddress target) throws Exception; }

    public static void main(String[] args) throws Exception {
        int attempts = args.length > 0 ? Integer.parseInt(args[0]) : 5;
        System.out.println(System.getProperty("java.runtime.version") + " on "
                + System.getProperty("os.name") + " " + System.getProperty("os.version"));
        try (Socket holder = new Socket()) {
            // A socket that is bound but never listens: its port refuses connects.
            holder.bind(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 0));
            SocketAddress closed = holder.getLocalSocketAddress();
            time("AsynchronousSocketChannel", closed, attempts, target -> {
                try (AsynchronousSocketChannel ch = AsynchronousSocketChannel.open()) {
                    ch.connect(target).get(60, TimeUnit.SECONDS);
                }
            });
            time("SocketChannel", closed, attempts, target -> SocketChannel.open(target).close());
        }
    }

    static void time(String channel, SocketAddress target, int attempts, Connect connect) {
        for (int i = 1; i <= attempts; i++) {
            long start = System.nanoTime();
            Throwable failure = null;
            try {
                connect.to(target);
            } catch (ExecutionException e) {
                failure = e.getCause();
            } catch (Exception e) {
                failure = e;
            }
            long millis = (System.nanoTime() - start) / 1_000_000;
            System.out.println(channel + " " + target + " #" + i + ": " + millis + " ms, "
                    + (failure == null ? "connected" : failure));
        }
    }
}
