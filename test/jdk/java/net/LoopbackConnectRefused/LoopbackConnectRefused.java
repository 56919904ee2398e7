/*
 * Copyright (c) 2026, the java.base patch set contributors.
 * SPDX-License-Identifier: GPL-2.0-only WITH Classpath-exception-2.0
 */

/*
 * @test
 * @summary A connect to a closed loopback port is refused at once on every
 *          connect path: Socket (untimed and timed), SocketChannel (blocking,
 *          and non-blocking with finishConnect), AsynchronousSocketChannel and
 *          an RMI registry lookup, to 127.0.0.1, 127.0.0.2, ::1 and
 *          ::ffff:127.0.0.1; and InetAddress.isReachable of a loopback
 *          address answers true at once.
 *          Windows used to retry the refused SYN for about 2 s per connect.
 *          A Windows test: elsewhere a refused loopback connect is always
 *          immediate, so it passes without the fix and guards nothing.
 * @requires os.family == "windows"
 * @modules java.rmi
 * @run main/othervm/timeout=300 LoopbackConnectRefused
 * @run main/othervm/timeout=300 -Djava.net.preferIPv4Stack=true LoopbackConnectRefused
 */

import java.io.IOException;
import java.net.ConnectException;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.channels.AsynchronousSocketChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.rmi.registry.LocateRegistry;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The Windows regression test for JDK-8250521 and its extension to
 * AsynchronousSocketChannel and InetAddress.isReachable: on Windows without
 * SIO_TCP_INITIAL_RTO, every refused loopback connect took about 2 s of SYN
 * retransmissions. On Linux and macOS a refused loopback connect is immediate
 * whatever the JDK does, so there this test passes without the fix too and
 * guards nothing; run it on Windows, with and without the fix.
 *
 * <p>Ten connects per path and destination to ports that nobody listens on.
 * Each must fail as refused, and the ten together must take well under the
 * ~20 s that Windows needed when it retried every refused SYN (JDK-8250521
 * measured 20.7 s for ten RMI lookups on 127.0.0.1). The bound is the
 * behaviour under test, so it is checked; it is generous for a loaded
 * machine and for Windows releases before 10 1709, where a refused
 * loopback connect still takes about 500 ms with the option set, and a
 * path stops early once it is exceeded.
 *
 * <p>The closed port: a socket bound to the loopback address but never
 * listening holds the port for the whole attempt. Taking a free port from a
 * ServerSocket and closing it would leave a window in which another process
 * may bind and listen on that port, and the connect would then succeed; a
 * bound socket leaves no such window, and a SYN to a port without a listener
 * is answered with a reset on every OS.
 *
 * <p>InetAddress.isReachable: on Windows it sends an ICMP echo whenever the
 * process may open an ICMP handle, and only when that is denied does it fall
 * back to a TCP connect to the echo port (7), where a refused connect means
 * "reachable". Without the fast loopback connect, that refusal came after
 * about 2 s, so isReachable(loopback, 1500) answered false. Which of the two
 * runs cannot be forced from Java: a test process may normally use ICMP, so
 * the TCP fallback is exercised only where ICMP is denied to the process.
 * Either way the answer must be true, within the same bound as the connects.
 */
public class LoopbackConnectRefused {

    /** Connects per path and destination. */
    private static final int ATTEMPTS = 10;

    /** Upper bound for the ten attempts of one path, in nanoseconds. */
    private static final long BOUND_NANOS = TimeUnit.SECONDS.toNanos(8);

    /** How long one attempt may wait for an outcome at all. */
    private static final long ATTEMPT_TIMEOUT_MILLIS = 60_000;

    /**
     * The timeout of each isReachable: well under the ~2 s of a refused
     * connect with SYN retransmissions, and far above a loopback answer.
     */
    private static final int REACHABLE_TIMEOUT_MILLIS = 1500;

    private static final boolean IS_WINDOWS =
        System.getProperty("os.name", "").toLowerCase(Locale.ROOT).startsWith("windows");

    /** One way of connecting; throws what the path throws on refusal. */
    private interface ConnectPath {
        void connect(InetSocketAddress target) throws Exception;
    }

    /** A path: its name, how it connects, and what counts as "refused". */
    private static final class Path {
        final String name;
        final ConnectPath how;
        final Class<? extends Exception> refused;

        Path(String name, ConnectPath how, Class<? extends Exception> refused) {
            this.name = name;
            this.how = how;
            this.refused = refused;
        }
    }

    /**
     * A destination: the address to dial, where the holder binds, a label,
     * and whether isReachable of the address is checked.
     */
    private static final class Destination {
        final String label;
        final InetAddress dial;
        final InetAddress bindHolder;
        final String rmiHost;
        final boolean pinged;

        Destination(String label, InetAddress dial, InetAddress bindHolder,
                    String rmiHost, boolean pinged) {
            this.label = label;
            this.dial = dial;
            this.bindHolder = bindHolder;
            this.rmiHost = rmiHost;
            this.pinged = pinged;
        }
    }

    private static final List<String> failures = new ArrayList<>();

    public static void main(String[] args) throws Exception {
        System.out.printf("os.name=%s, java.version=%s, preferIPv4Stack=%s%n",
                System.getProperty("os.name"), System.getProperty("java.version"),
                System.getProperty("java.net.preferIPv4Stack"));

        List<Destination> destinations = destinations();
        for (Destination d : destinations) {
            for (Path p : paths(d)) {
                run(p, d);
            }
            if (d.pinged) {
                reachable(d);
            }
        }

        if (!failures.isEmpty()) {
            failures.forEach(f -> System.out.println("FAILED: " + f));
            throw new RuntimeException(failures.size() + " check(s) failed, first: "
                    + failures.get(0));
        }
        System.out.println("All paths refused every attempt within the bound");
    }

    /** 127.0.0.1 always; 127.0.0.2, ::1 and ::ffff:127.0.0.1 where usable. */
    private static List<Destination> destinations() throws IOException {
        InetAddress v4 = InetAddress.getByAddress(new byte[] {127, 0, 0, 1});
        List<Destination> list = new ArrayList<>();
        list.add(new Destination("127.0.0.1", v4, v4, "127.0.0.1", true));

        // The rest of 127.0.0.0/8 is loopback too (not configured on macOS).
        InetAddress v4other = InetAddress.getByAddress(new byte[] {127, 0, 0, 2});
        String why = unusable(v4other, v4other);
        if (why == null) {
            list.add(new Destination("127.0.0.2", v4other, v4other, "127.0.0.2", true));
        } else {
            System.out.println("SKIPPED 127.0.0.2: " + why);
        }

        InetAddress v6 = InetAddress.getByName("::1");
        why = unusable(v6, v6);
        if (why == null) {
            list.add(new Destination("::1", v6, v6, "::1", true));
        } else {
            System.out.println("SKIPPED ::1: " + why);
        }

        byte[] mapped = new byte[16];
        mapped[10] = (byte) 0xff;
        mapped[11] = (byte) 0xff;
        mapped[12] = 127;
        mapped[15] = 1;
        // getByAddress(byte[]) would turn this into 127.0.0.1; this keeps it IPv6.
        Inet6Address v4mapped =
            Inet6Address.getByAddress(null, mapped, (NetworkInterface) null);
        why = unusable(v4mapped, v4);
        if (why == null) {
            // RMI takes a host name, and Java reads "::ffff:127.0.0.1" as
            // 127.0.0.1; on a dual-stack socket that is dialled as the
            // mapped address anyway. isReachable is not asked: this
            // Inet6Address would be pinged with ICMPv6, which an IPv4-mapped
            // address does not answer, while InetAddress.getByName gives
            // 127.0.0.1 for it, checked above.
            list.add(new Destination("::ffff:127.0.0.1", v4mapped, v4,
                                     "::ffff:127.0.0.1", false));
        } else {
            System.out.println("SKIPPED ::ffff:127.0.0.1: " + why);
        }
        return list;
    }

    /** Null when a listener on listenOn is reachable by dialling dial. */
    private static String unusable(InetAddress dial, InetAddress listenOn) {
        try (ServerSocket server = new ServerSocket()) {
            server.bind(new InetSocketAddress(listenOn, 0));
            try (Socket probe = new Socket()) {
                probe.connect(new InetSocketAddress(dial, server.getLocalPort()), 10_000);
            }
            return null;
        } catch (IOException | RuntimeException e) {
            return "this stack cannot reach " + listenOn.getHostAddress()
                    + " through " + dial.getHostAddress() + " (" + e + ")";
        }
    }

    private static List<Path> paths(Destination d) {
        List<Path> list = new ArrayList<>();
        list.add(new Path("Socket.connect", target -> {
            try (Socket s = new Socket()) {
                s.connect(target);
            }
        }, ConnectException.class));
        list.add(new Path("Socket.connect(timeout)", target -> {
            try (Socket s = new Socket()) {
                s.connect(target, (int) ATTEMPT_TIMEOUT_MILLIS);
            }
        }, ConnectException.class));
        list.add(new Path("SocketChannel blocking", target -> {
            try (SocketChannel sc = SocketChannel.open()) {
                sc.connect(target);
            }
        }, ConnectException.class));
        list.add(new Path("SocketChannel non-blocking + finishConnect",
                          LoopbackConnectRefused::nonBlockingConnect,
                          ConnectException.class));
        list.add(new Path("AsynchronousSocketChannel", LoopbackConnectRefused::asyncConnect,
                          IOException.class));
        list.add(new Path("RMI LocateRegistry.getRegistry(host, port).lookup", target ->
                LocateRegistry.getRegistry(d.rmiHost, target.getPort()).lookup("anything"),
                java.rmi.ConnectException.class));
        return list;
    }

    private static void nonBlockingConnect(InetSocketAddress target) throws Exception {
        try (SocketChannel sc = SocketChannel.open();
             Selector selector = Selector.open()) {
            sc.configureBlocking(false);
            // A refusal may come straight from connect (ConnectException).
            if (sc.connect(target)) {
                return;
            }
            sc.register(selector, SelectionKey.OP_CONNECT);
            if (selector.select(ATTEMPT_TIMEOUT_MILLIS) == 0) {
                throw new TimeoutException("no connect event in "
                        + ATTEMPT_TIMEOUT_MILLIS + " ms");
            }
            sc.finishConnect();
        }
    }

    private static void asyncConnect(InetSocketAddress target) throws Exception {
        try (AsynchronousSocketChannel ch = AsynchronousSocketChannel.open()) {
            ch.connect(target).get(ATTEMPT_TIMEOUT_MILLIS, TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            // ConnectException on Linux and macOS. On Windows the completion
            // port reports the failure as a plain IOException carrying the
            // system's text for ERROR_CONNECTION_REFUSED; the channel's
            // contract is IOException.
            if (cause instanceof ConnectException
                    || (IS_WINDOWS && cause != null && cause.getClass() == IOException.class)) {
                throw (IOException) cause;
            }
            throw e;
        }
    }

    /** ATTEMPTS times isReachable of the destination: true, within the bound. */
    private static void reachable(Destination d) {
        String what = "InetAddress.isReachable(" + REACHABLE_TIMEOUT_MILLIS + ") of " + d.label;
        long total = 0;
        for (int i = 1; i <= ATTEMPTS; i++) {
            long start = System.nanoTime();
            boolean answer;
            try {
                answer = d.dial.isReachable(REACHABLE_TIMEOUT_MILLIS);
            } catch (IOException e) {
                failures.add(what + ": attempt " + i + " threw " + e);
                return;
            }
            total += System.nanoTime() - start;
            if (!answer) {
                failures.add(what + ": attempt " + i + " answered false after "
                        + total / 1_000_000 + " ms in all");
                return;
            }
            if (total > BOUND_NANOS) {
                failures.add(String.format("%s: %d attempt(s) took %d ms, over the "
                        + "%d ms bound for %d", what, i, total / 1_000_000,
                        BOUND_NANOS / 1_000_000, ATTEMPTS));
                return;
            }
        }
        System.out.printf("%-55s %-17s %2d/%d reachable in %5d ms%n", "InetAddress.isReachable",
                d.label, ATTEMPTS, ATTEMPTS, total / 1_000_000);
    }

    private static void run(Path path, Destination d) {
        String what = path.name + " to " + d.label;
        long total = 0;
        int refused = 0;
        for (int i = 1; i <= ATTEMPTS; i++) {
            try (Socket holder = new Socket()) {
                holder.bind(new InetSocketAddress(d.bindHolder, 0));
                InetSocketAddress target = new InetSocketAddress(d.dial, holder.getLocalPort());
                long start = System.nanoTime();
                Exception outcome = null;
                try {
                    path.how.connect(target);
                } catch (Exception e) {
                    outcome = e;
                }
                total += System.nanoTime() - start;

                if (outcome == null) {
                    failures.add(what + ": attempt " + i + " connected to port "
                            + target.getPort() + ", which nobody listens on");
                } else if (!path.refused.isInstance(outcome)) {
                    failures.add(what + ": attempt " + i + " threw " + outcome
                            + ", expected " + path.refused.getName());
                    outcome.printStackTrace(System.out);
                } else {
                    refused++;
                    if (i == 1) {
                        System.out.println("  " + what + ": " + outcome);
                    }
                }
            } catch (IOException e) {
                failures.add(what + ": cannot hold a closed port on " + d.bindHolder
                        + ": " + e);
                return;
            }
            if (total > BOUND_NANOS) {
                failures.add(String.format("%s: %d attempt(s) took %d ms, over the "
                        + "%d ms bound for %d", what, i, total / 1_000_000,
                        BOUND_NANOS / 1_000_000, ATTEMPTS));
                return;
            }
        }
        System.out.printf("%-55s %-17s %2d/%d refused in %5d ms%n", path.name, d.label,
                refused, ATTEMPTS, total / 1_000_000);
    }
}
