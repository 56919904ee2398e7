/*
 * SPDX-License-Identifier: GPL-2.0-only WITH Classpath-exception-2.0
 * Copyright (c) 2026, the java.base patch set contributors.
 */

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.StandardProtocolFamily;
import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousServerSocketChannel;
import java.nio.channels.AsynchronousSocketChannel;
import java.nio.channels.DatagramChannel;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.rmi.registry.LocateRegistry;
import java.security.Provider;
import java.security.SecureRandomSpi;
import java.security.Security;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The Windows loopback connect, checked on a real Windows JVM under Wine.
 *
 * <pre>
 * java.exe -agentpath:icmp_denied_agent.dll WindowsLoopbackConnect connect &gt; out.txt
 *          (under WINEDEBUG=+winsock, trace on stderr)
 * java     WindowsLoopbackConnect check out.txt trace.txt
 * java.exe WindowsLoopbackConnect smoke &lt;scratch dir&gt;
 * </pre>
 *
 * {@code connect} makes each connect of java.base that must get the fast
 * loopback treatment to a closed loopback port (a socket bound to
 * 127.0.0.1 that never listens, so no other process can take the port), one
 * port per path, and prints {@code CASE <name> <expect> <port>} for each:
 * {@code rto} for a TCP connect to a loopback address, {@code none} for the
 * controls (UDP, a non-loopback destination). Ports tell the connects apart
 * in the trace (the two isReachable cases share the echo port 7).
 *
 * {@code check} (on any JVM) reads that list and Wine's winsock trace, finds
 * each case's connect by its port, the socket it was made on, and whether a
 * {@code WSAIoctl(SIO_TCP_INITIAL_RTO)} (Wine prints {@code _WSAIOW(IOC_VENDOR, 17)})
 * reached that socket between its creation and that connect. It prints
 * {@code PASS}/{@code FAIL} per case and exits 1 on any failure.
 *
 * {@code smoke} proves the libraries whole, not only the patched functions:
 * an echo over Socket, SocketChannel and AsynchronousSocketChannel, a
 * datagram round trip, file I/O through FileChannel. No Selector, no
 * NetworkInterface, no getLoopbackAddress(): Wine 8 lacks the iphlpapi call
 * they need and crashes the stock libraries too.
 */
public class WindowsLoopbackConnect {

    // Literal addresses: InetAddress.getLoopbackAddress() crashes under Wine 8.
    static final String LOOPBACK4 = "127.0.0.1";
    static final String LOOPBACK4_OTHER = "127.0.0.2";
    static final String LOOPBACK6 = "::1";
    // TEST-NET-1 (RFC 5737): never routed. Only its connect call matters; the
    // channel is closed at once, whatever the connect did.
    static final String NOT_LOOPBACK = "192.0.2.1";

    public static void main(String[] args) throws Exception {
        switch (args.length == 0 ? "" : args[0]) {
            case "connect" -> connect();
            case "check" -> System.exit(check(Path.of(args[1]), Path.of(args[2])));
            case "smoke" -> System.exit(smoke(Path.of(args[1])));
            default -> {
                System.err.println("usage: WindowsLoopbackConnect connect | check <out> <trace> | smoke <dir>");
                System.exit(2);
            }
        }
    }

    // ---------------------------------------------------------------- connect

    interface Connect {
        void to(InetSocketAddress sa) throws Exception;
    }

    static final List<Socket> HOLDERS = new ArrayList<>();

    /** A port on addr with no listener, held for the whole run. */
    static int closedPort(String addr) throws IOException {
        Socket holder = new Socket();
        holder.bind(new InetSocketAddress(InetAddress.getByName(addr), 0));
        HOLDERS.add(holder);
        return holder.getLocalPort();
    }

    static void refused(String name, String addr, Connect c) throws Exception {
        int port = closedPort(addr);
        System.out.println("CASE " + name + " rto " + port);
        try {
            c.to(new InetSocketAddress(InetAddress.getByName(addr), port));
            System.out.println("NOTE " + name + ": connected to a port nobody listens on");
        } catch (Exception e) {
            Throwable t = e instanceof ExecutionException ? e.getCause() : e;
            System.out.println("NOTE " + name + ": " + t);
        }
        System.out.flush();
    }

    static void reachable(String name, String addr) throws IOException {
        System.out.println("CASE " + name + " rto 7");
        System.out.println("NOTE " + name + ": " + InetAddress.getByName(addr).isReachable(10_000));
        System.out.flush();
    }

    static void connect() throws Exception {
        refused("Socket", LOOPBACK4, sa -> {
            try (Socket s = new Socket()) {
                s.connect(sa);
            }
        });
        refused("Socket-timed", LOOPBACK4, sa -> {
            try (Socket s = new Socket()) {
                s.connect(sa, 10_000);
            }
        });
        refused("SocketChannel-blocking", LOOPBACK4, sa -> {
            try (SocketChannel sc = SocketChannel.open()) {
                sc.connect(sa);
            }
        });
        refused("SocketChannel-nonblocking", LOOPBACK4, sa -> {
            try (SocketChannel sc = SocketChannel.open()) {
                sc.configureBlocking(false);
                if (!sc.connect(sa)) {
                    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                    while (!sc.finishConnect() && System.nanoTime() < deadline) {
                        Thread.sleep(10);
                    }
                }
            }
        });
        refused("AsynchronousSocketChannel", LOOPBACK4, sa -> {
            try (AsynchronousSocketChannel ch = AsynchronousSocketChannel.open()) {
                ch.connect(sa).get(30, TimeUnit.SECONDS);
            }
        });
        refused("AsynchronousSocketChannel-127.0.0.2", LOOPBACK4_OTHER, sa -> {
            try (AsynchronousSocketChannel ch = AsynchronousSocketChannel.open()) {
                ch.connect(sa).get(30, TimeUnit.SECONDS);
            }
        });
        if (!Boolean.getBoolean("java.net.preferIPv4Stack")) {
            refused("Socket-::1", LOOPBACK6, sa -> {
                try (Socket s = new Socket()) {
                    s.connect(sa);
                }
            });
            refused("AsynchronousSocketChannel-::1", LOOPBACK6, sa -> {
                try (AsynchronousSocketChannel ch = AsynchronousSocketChannel.open()) {
                    ch.connect(sa).get(30, TimeUnit.SECONDS);
                }
            });
        }
        // RMI's UID seeds a SecureRandom, whose seed reads the network
        // adapters: that crashes under Wine 8. A first-choice SecureRandom
        // that needs no seed avoids it; the connect is what is checked here.
        Security.insertProviderAt(new WineSafeRandomProvider(), 1);
        refused("RMI-registry-lookup", LOOPBACK4, sa ->
                LocateRegistry.getRegistry(LOOPBACK4, sa.getPort()).lookup("nothing"));

        // isReachable: its TCP echo fallback (to port 7) runs when ICMP is
        // denied; under Wine, the run's icmp_denied_agent denies it.
        // "Refused" counts as reachable there.
        reachable("isReachable-127.0.0.1", LOOPBACK4);
        if (!Boolean.getBoolean("java.net.preferIPv4Stack")) {
            reachable("isReachable-::1", LOOPBACK6);
        }

        // Controls: no RTO ioctl on UDP, nor for a destination off loopback.
        int udp = closedPort(LOOPBACK4);
        System.out.println("CASE DatagramChannel none " + udp);
        try (DatagramChannel dc = DatagramChannel.open(StandardProtocolFamily.INET)) {
            dc.connect(new InetSocketAddress(InetAddress.getByName(LOOPBACK4), udp));
        }
        udp = closedPort(LOOPBACK4);
        System.out.println("CASE DatagramSocket none " + udp);
        try (DatagramSocket ds = new DatagramSocket()) {
            ds.connect(new InetSocketAddress(InetAddress.getByName(LOOPBACK4), udp));
        }
        System.out.println("CASE SocketChannel-not-loopback none 9");
        try (SocketChannel sc = SocketChannel.open()) {
            sc.configureBlocking(false);
            sc.connect(new InetSocketAddress(InetAddress.getByName(NOT_LOOPBACK), 9));
        } catch (IOException e) {
            System.out.println("NOTE SocketChannel-not-loopback: " + e);
        }
        System.out.println("CASE AsynchronousSocketChannel-not-loopback none 13");
        try (AsynchronousSocketChannel ch = AsynchronousSocketChannel.open()) {
            ch.connect(new InetSocketAddress(InetAddress.getByName(NOT_LOOPBACK), 13));
        } catch (IOException e) {
            System.out.println("NOTE AsynchronousSocketChannel-not-loopback: " + e);
        }
        System.out.println("DONE");
        System.out.flush();
        for (Socket h : HOLDERS) {
            h.close();
        }
    }

    /** A SecureRandom without seed gathering; for the RMI case only, under Wine. */
    public static final class WineSafeRandom extends SecureRandomSpi {
        private static final long serialVersionUID = 1L;
        private final Random random = new Random(1);

        public WineSafeRandom() { }

        @Override
        protected void engineSetSeed(byte[] seed) { }

        @Override
        protected void engineNextBytes(byte[] bytes) {
            random.nextBytes(bytes);
        }

        @Override
        protected byte[] engineGenerateSeed(int n) {
            byte[] b = new byte[n];
            random.nextBytes(b);
            return b;
        }
    }

    static final class WineSafeRandomProvider extends Provider {
        private static final long serialVersionUID = 1L;

        WineSafeRandomProvider() {
            super("WineSafeRandom", "1", "SecureRandom without seed gathering, for Wine 8");
            put("SecureRandom.WineSafeRandom", WineSafeRandom.class.getName());
        }
    }

    // ------------------------------------------------------------------ check

    record Case(String name, String expect, int port) { }

    // One call of the trace: thread, function, what it was given.
    static final Pattern CALL = Pattern.compile("^[0-9a-f]+:trace:winsock:(\\w+) (.*)$");
    static final Pattern CREATED = Pattern.compile("^created (0x[0-9a-f]+)");
    static final Pattern CLOSED = Pattern.compile("^(0x[0-9a-f]+)$");
    static final Pattern RTO_IOCTL = Pattern.compile("^socket (0x[0-9a-f]+), _WSAIOW\\(IOC_VENDOR, 17\\),");
    static final Pattern CONNECT = Pattern.compile("^socket (0x[0-9a-f]+), .*\\bport (\\d+)\\b");

    static int check(Path out, Path trace) throws IOException {
        List<Case> cases = new ArrayList<>();
        boolean done = false;
        for (String l : Files.readAllLines(out)) {
            String[] f = l.split(" ");
            if (f[0].equals("CASE")) {
                cases.add(new Case(f[1], f[2], Integer.parseInt(f[3])));
            } else if (f[0].equals("DONE")) {
                done = true;
            }
        }
        // Per socket handle: whether SIO_TCP_INITIAL_RTO reached it since it
        // was made. Handles are reused, so a new socket or a close resets it.
        Map<String, Boolean> rto = new LinkedHashMap<>();
        // Per port: the connects to it, "<handle> rto|none", in trace order.
        Map<Integer, List<String>> connects = new LinkedHashMap<>();
        for (String l : Files.readAllLines(trace, StandardCharsets.ISO_8859_1)) {
            Matcher m = CALL.matcher(l);
            if (!m.matches()) {
                continue;
            }
            String fn = m.group(1), a = m.group(2);
            Matcher h;
            switch (fn) {
                case "WSASocketW" -> {
                    if ((h = CREATED.matcher(a)).find()) {
                        rto.put(h.group(1), false);
                    }
                }
                case "closesocket" -> {
                    if ((h = CLOSED.matcher(a)).find()) {
                        rto.remove(h.group(1));
                    }
                }
                case "WSAIoctl" -> {
                    if ((h = RTO_IOCTL.matcher(a)).find()) {
                        rto.put(h.group(1), true);
                    }
                }
                case "connect", "WSAConnect", "WS2_ConnectEx" -> {
                    if ((h = CONNECT.matcher(a)).find()) {
                        connects.computeIfAbsent(Integer.parseInt(h.group(2)), k -> new ArrayList<>())
                                .add(h.group(1) + " " + (rto.getOrDefault(h.group(1), false) ? "rto" : "none"));
                    }
                }
                default -> { }
            }
        }
        int failed = 0, passed = 0;
        if (!done) {
            System.out.println("FAIL the connect run did not finish (no DONE line)");
            failed++;
        }
        for (Case c : cases) {
            List<String> seen = connects.getOrDefault(c.port(), List.of());
            String verdict;
            boolean ok = !seen.isEmpty() && seen.stream().allMatch(s -> s.endsWith(" " + c.expect()));
            verdict = c.name() + ": expected " + c.expect() + ", connects to port " + c.port()
                    + " (socket ioctl) " + (seen.isEmpty() ? "none in the trace" : seen);
            System.out.println((ok ? "PASS " : "FAIL ") + verdict);
            if (ok) {
                passed++;
            } else {
                failed++;
            }
        }
        if (cases.isEmpty()) {
            System.out.println("FAIL no cases");
            failed++;
        }
        System.out.println(passed + " passed, " + failed + " failed");
        return failed == 0 ? 0 : 1;
    }

    // ------------------------------------------------------------------ smoke

    static int failures = 0;

    static void result(String name, boolean ok, String detail) {
        System.out.println((ok ? "PASS " : "FAIL ") + name + (detail.isEmpty() ? "" : ": " + detail));
        if (!ok) {
            failures++;
        }
    }

    interface Check {
        String run() throws Exception;
    }

    static void smokeCase(String name, Check c) {
        try {
            String got = c.run();
            result(name, got.equals("ok"), got);
        } catch (Throwable t) {
            result(name, false, t.toString());
        }
    }

    static final byte[] MESSAGE = "hello over loopback".getBytes(StandardCharsets.US_ASCII);

    static int smoke(Path dir) {
        InetAddress lo;
        try {
            lo = InetAddress.getByName(LOOPBACK4);
        } catch (IOException e) {
            result("resolve", false, e.toString());
            return 1;
        }
        smokeCase("Socket echo", () -> {
            try (ServerSocket ss = new ServerSocket(0, 50, lo)) {
                Thread t = echoServer(ss);
                try (Socket s = new Socket(lo, ss.getLocalPort())) {
                    s.setSoTimeout(30_000);
                    OutputStream o = s.getOutputStream();
                    o.write(MESSAGE);
                    o.flush();
                    byte[] got = new InputStream[] {s.getInputStream()}[0].readNBytes(MESSAGE.length);
                    t.join(30_000);
                    return java.util.Arrays.equals(got, MESSAGE) ? "ok" : "echo mismatch";
                }
            }
        });
        smokeCase("SocketChannel echo", () -> {
            try (ServerSocketChannel ssc = ServerSocketChannel.open()) {
                ssc.bind(new InetSocketAddress(lo, 0));
                try (SocketChannel c = SocketChannel.open(ssc.getLocalAddress());
                     SocketChannel a = ssc.accept()) {
                    c.write(ByteBuffer.wrap(MESSAGE));
                    ByteBuffer b = ByteBuffer.allocate(MESSAGE.length);
                    while (b.hasRemaining() && a.read(b) >= 0) { }
                    b.flip();
                    a.write(b);
                    ByteBuffer r = ByteBuffer.allocate(MESSAGE.length);
                    while (r.hasRemaining() && c.read(r) >= 0) { }
                    return java.util.Arrays.equals(r.array(), MESSAGE) ? "ok" : "echo mismatch";
                }
            }
        });
        smokeCase("AsynchronousSocketChannel echo", () -> {
            try (AsynchronousServerSocketChannel ss = AsynchronousServerSocketChannel.open()) {
                ss.bind(new InetSocketAddress(lo, 0));
                try (AsynchronousSocketChannel c = AsynchronousSocketChannel.open()) {
                    var accepted = ss.accept();
                    c.connect(ss.getLocalAddress()).get(30, TimeUnit.SECONDS);
                    try (AsynchronousSocketChannel a = accepted.get(30, TimeUnit.SECONDS)) {
                        c.write(ByteBuffer.wrap(MESSAGE)).get(30, TimeUnit.SECONDS);
                        ByteBuffer b = ByteBuffer.allocate(MESSAGE.length);
                        while (b.hasRemaining() && a.read(b).get(30, TimeUnit.SECONDS) >= 0) { }
                        b.flip();
                        a.write(b).get(30, TimeUnit.SECONDS);
                        ByteBuffer r = ByteBuffer.allocate(MESSAGE.length);
                        while (r.hasRemaining() && c.read(r).get(30, TimeUnit.SECONDS) >= 0) { }
                        return java.util.Arrays.equals(r.array(), MESSAGE) ? "ok" : "echo mismatch";
                    }
                }
            }
        });
        smokeCase("DatagramChannel round trip", () -> {
            try (DatagramChannel a = DatagramChannel.open(StandardProtocolFamily.INET);
                 DatagramChannel b = DatagramChannel.open(StandardProtocolFamily.INET)) {
                a.bind(new InetSocketAddress(lo, 0));
                b.bind(new InetSocketAddress(lo, 0));
                b.connect(a.getLocalAddress());
                b.write(ByteBuffer.wrap(MESSAGE));
                ByteBuffer got = ByteBuffer.allocate(64);
                var from = a.receive(got);
                a.send(got.flip(), from);
                ByteBuffer back = ByteBuffer.allocate(64);
                b.read(back);
                back.flip();
                byte[] r = new byte[back.remaining()];
                back.get(r);
                return java.util.Arrays.equals(r, MESSAGE) ? "ok" : "datagram mismatch";
            }
        });
        smokeCase("Socket refused", () -> {
            int port = closedPort(LOOPBACK4);
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress(lo, port));
                return "connected to a port nobody listens on";
            } catch (ConnectException e) {
                return "ok";
            }
        });
        smokeCase("file I/O", () -> {
            Path f = dir.resolve("smoke.bin");
            byte[] data = new byte[1 << 20];
            for (int i = 0; i < data.length; i++) {
                data[i] = (byte) (i * 31);
            }
            try (var ch = java.nio.channels.FileChannel.open(f, StandardOpenOption.CREATE,
                    StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE, StandardOpenOption.READ)) {
                ch.write(ByteBuffer.wrap(data));
                ch.force(true);
                ByteBuffer back = ByteBuffer.allocate(data.length);
                ch.read(back, 0);
                try (var lock = ch.lock()) {
                    if (!lock.isValid()) {
                        return "lock not valid";
                    }
                }
                if (!java.util.Arrays.equals(back.array(), data)) {
                    return "read back differs";
                }
            }
            if (!java.util.Arrays.equals(Files.readAllBytes(f), data)) {
                return "Files.readAllBytes differs";
            }
            Files.delete(f);
            return Files.exists(f) ? "not deleted" : "ok";
        });
        for (Socket h : HOLDERS) {
            try {
                h.close();
            } catch (IOException e) {
                // the run is over
            }
        }
        System.out.println((6 - failures) + " passed, " + failures + " failed");
        return failures == 0 ? 0 : 1;
    }

    static Thread echoServer(ServerSocket ss) {
        Thread t = new Thread(() -> {
            try (Socket a = ss.accept()) {
                a.getOutputStream().write(a.getInputStream().readNBytes(MESSAGE.length));
            } catch (IOException e) {
                // the client reports the mismatch
            }
        });
        t.setDaemon(true);
        t.start();
        return t;
    }
}
