/*
 * SPDX-License-Identifier: GPL-2.0-only WITH Classpath-exception-2.0
 * Copyright (c) 2026, the java.base patch set contributors.
 */

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.channels.AsynchronousSocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Whether each connect the patch set changes sets SIO_TCP_INITIAL_RTO, seen
 * in a real Windows JVM under Wine, where the timing itself cannot be seen.
 *
 * <pre>
 * java.exe -agentpath:icmp_denied_agent.dll WindowsLoopbackConnect connect &gt; out.txt
 *          (under WINEDEBUG=+winsock, trace on stderr)
 * java     WindowsLoopbackConnect check out.txt trace.txt
 * </pre>
 *
 * {@code connect} makes the connects of the three hunks, each to a closed
 * loopback port (of a socket bound to the address that never listens), and
 * prints {@code CASE <name> <expect> <address> <port> <native file>} for
 * each: {@code rto} for a loopback connect, with the file whose hunk adds the
 * call; {@code none} and {@code -} for the control, a connect off loopback.
 * isReachable's TCP fallback connects to the echo port 7; it runs because
 * icmp_denied_agent denies ICMP, as Windows does to some processes.
 *
 * {@code check} (on any JVM) reads that list and Wine's trace, finds each
 * case's connects by address and port, the socket each was made on, and
 * whether {@code WSAIoctl(SIO_TCP_INITIAL_RTO)} (Wine prints
 * {@code _WSAIOW(IOC_VENDOR, 17)}) reached that socket between its creation
 * and the connect. It prints {@code PASS}/{@code FAIL} per case (a failure
 * names the case's native file) and exits 1 on any failure.
 *
 * No Selector, NetworkInterface or getLoopbackAddress(): Wine 8 lacks the
 * iphlpapi call they need and the JVM crashes, with the stock DLLs too.
 */
public class WindowsLoopbackConnect {

    public static void main(String[] args) throws Exception {
        switch (args.length == 0 ? "" : args[0]) {
            case "connect" -> connect();
            case "check" -> System.exit(check(Path.of(args[1]), Path.of(args[2])));
            default -> {
                System.err.println("usage: WindowsLoopbackConnect connect | check <out> <trace>");
                System.exit(2);
            }
        }
    }

    // ---------------------------------------------------------------- connect

    static final String ASYNC = "WindowsAsynchronousSocketChannelImpl.c";

    static void asyncRefused(String addr) throws Exception {
        InetAddress a = InetAddress.getByName(addr);
        try (Socket closed = new Socket()) {
            closed.bind(new InetSocketAddress(a, 0));
            System.out.printf("CASE AsynchronousSocketChannel-%s rto %s %d %s%n",
                    addr, addr, closed.getLocalPort(), ASYNC);
            try (AsynchronousSocketChannel ch = AsynchronousSocketChannel.open()) {
                ch.connect(new InetSocketAddress(a, closed.getLocalPort())).get(30, TimeUnit.SECONDS);
                System.out.println("NOTE connected to a port nobody listens on");
            } catch (ExecutionException e) {
                System.out.println("NOTE " + e.getCause());
            }
        }
    }

    static void reachable(String addr, String file) throws IOException {
        System.out.printf("CASE isReachable-%s rto %s 7 %s%n", addr, addr, file);
        System.out.println("NOTE " + InetAddress.getByName(addr).isReachable(10_000));
    }

    static void connect() throws Exception {
        boolean ipv6 = !Boolean.getBoolean("java.net.preferIPv4Stack");
        asyncRefused("127.0.0.1");
        if (ipv6) {
            asyncRefused("::1");
        }
        // An IPv4 address goes to Inet4AddressImpl's isReachable0 on dual-stack too.
        reachable("127.0.0.1", "Inet4AddressImpl.c");
        if (ipv6) {
            reachable("::1", "Inet6AddressImpl.c");
        }
        // The control: TEST-NET-1 (RFC 5737) is never routed; only the
        // ConnectEx call matters, the channel is closed at once.
        System.out.println("CASE AsynchronousSocketChannel-192.0.2.1 none 192.0.2.1 13 -");
        try (AsynchronousSocketChannel ch = AsynchronousSocketChannel.open()) {
            ch.connect(new InetSocketAddress(InetAddress.getByName("192.0.2.1"), 13));
        }
        System.out.println("DONE");
    }

    // ------------------------------------------------------------------ check

    record Case(String name, String expect, String address, int port, String file) {
        /** A connect to this case's address: the trace shows IPv4 on a dual-stack socket mapped. */
        boolean dials(String traced, int tracedPort) {
            return tracedPort == port && (traced.equals(address) || traced.equals("::ffff:" + address));
        }
    }

    record Connect(String address, int port, String socket, boolean rto) { }

    // One call of the trace: thread, function, what it was given.
    static final Pattern CALL = Pattern.compile("^[0-9a-f]+:trace:winsock:(\\w+) (.*)$");
    static final Pattern CREATED = Pattern.compile("^created (0x[0-9a-f]+)");
    static final Pattern CLOSED = Pattern.compile("^(0x[0-9a-f]+)$");
    static final Pattern RTO_IOCTL = Pattern.compile("^socket (0x[0-9a-f]+), _WSAIOW\\(IOC_VENDOR, 17\\),");
    static final Pattern CONNECT =
            Pattern.compile("^socket (0x[0-9a-f]+), .*\\baddress ([0-9a-f:.]+), .*\\bport (\\d+)\\b");

    static int check(Path out, Path trace) throws IOException {
        List<Case> cases = new ArrayList<>();
        boolean done = false;
        for (String l : Files.readAllLines(out)) {
            String[] f = l.split(" ");
            if (f[0].equals("CASE")) {
                cases.add(new Case(f[1], f[2], f[3], Integer.parseInt(f[4]), f[5]));
            } else if (f[0].equals("DONE")) {
                done = true;
            }
        }
        // Per socket handle: whether SIO_TCP_INITIAL_RTO reached it since it
        // was made. Handles are reused, so a new socket or a close resets it.
        Map<String, Boolean> rto = new HashMap<>();
        List<Connect> connects = new ArrayList<>();
        for (String l : Files.readAllLines(trace, StandardCharsets.ISO_8859_1)) {
            Matcher m = CALL.matcher(l);
            if (!m.matches()) {
                continue;
            }
            String a = m.group(2);
            Matcher h;
            switch (m.group(1)) {
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
                        connects.add(new Connect(h.group(2), Integer.parseInt(h.group(3)), h.group(1),
                                rto.getOrDefault(h.group(1), false)));
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
            List<String> seen = connects.stream().filter(k -> c.dials(k.address(), k.port()))
                    .map(k -> k.address() + " " + k.socket() + " " + (k.rto() ? "rto" : "none"))
                    .toList();
            boolean ok = !seen.isEmpty() && seen.stream().allMatch(s -> s.endsWith(" " + c.expect()));
            System.out.println((ok ? "PASS " : "FAIL ") + c.name() + ": expected " + c.expect()
                    + " (" + c.file() + "), connects to " + c.address() + " port " + c.port()
                    + " (address socket ioctl): " + (seen.isEmpty() ? "none in the trace" : seen));
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
}
