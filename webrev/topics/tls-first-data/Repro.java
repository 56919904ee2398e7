/*
 * Copyright (c) 2026, the java.base patch set contributors.
 * SPDX-License-Identifier: GPL-2.0-only WITH Classpath-exception-2.0
 */

import java.io.File;
import java.io.FileInputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.util.Arrays;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLServerSocket;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;

/*
 * java SSLFirstRequestDelay.java [connections]
 *
 * Times new TLS 1.3 connections between an SSLSocket and an
 * SSLServerSocket over loopback: from the connect to the response, a
 * fresh full handshake, started by the client's first write (a one-byte
 * request), and a one-byte response (100 connections unless given, after
 * 50 of warm-up); prints the median of two cases:
 *  - "no tickets": the server sends no NewSessionTicket
 *    (jdk.tls.server.newSessionTicketCount=0, as a server with session
 *    tickets off), both sides with the sockets' defaults;
 *  - "client TCP_NODELAY": the server sends its ticket, and the client
 *    has TCP_NODELAY on.
 *
 * The server's key, a self-signed EC P-256 certificate, is made by this
 * JDK's keytool in a temporary directory, and the client trusts it.
 */
public class SSLFirstRequestDelay {

    static final char[] PASSWORD = "changeit".toCharArray();

    public static void main(String[] args) throws Exception {
        int connections = args.length > 0 ? Integer.parseInt(args[0]) : 100;
        System.out.printf("%s %s (%s), %s %s, %d CPUs%n",
                System.getProperty("java.vm.name"), System.getProperty("java.runtime.version"),
                System.getProperty("java.vendor"), System.getProperty("os.name"),
                System.getProperty("os.arch"), Runtime.getRuntime().availableProcessors());
        SSLContext context = context();
        // Each case in a JVM of its own: the server reads the property once.
        if (args.length > 1) {
            boolean noTickets = args[1].equals("no-tickets");
            time(context, 50, !noTickets);  // warm-up, not counted
            double[] ms = time(context, connections, !noTickets);
            Arrays.sort(ms);
            System.out.printf("%s: %d connections, median %.2f ms (min %.2f, max %.2f)%n",
                    noTickets ? "no tickets" : "client TCP_NODELAY", ms.length,
                    median(ms), ms[0], ms[ms.length - 1]);
            return;
        }
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String source = "SSLFirstRequestDelay.java";  // run in its directory
        for (String c : new String[] {"no-tickets", "client-nodelay"}) {
            Process p = new ProcessBuilder(java,
                    "-Djdk.tls.server.newSessionTicketCount=" + (c.equals("no-tickets") ? 0 : 1),
                    source, String.valueOf(connections), c)
                    .redirectErrorStream(true).start();
            String[] lines = new String(p.getInputStream().readAllBytes()).split("\n");
            System.out.println(lines[lines.length - 1]);
            if (p.waitFor() != 0) {
                throw new IllegalStateException(String.join("\n", lines));
            }
        }
    }

    static double median(double[] sorted) {
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }

    /* A key store with a self-signed certificate, made by keytool. */
    static SSLContext context() throws Exception {
        Path dir = Files.createTempDirectory("sslfirstrequestdelay");
        File store = dir.resolve("server.p12").toFile();
        String keytool = Path.of(System.getProperty("java.home"), "bin", "keytool").toString();
        Process p = new ProcessBuilder(keytool, "-genkeypair", "-keyalg", "EC",
                "-groupname", "secp256r1", "-sigalg", "SHA256withECDSA",
                "-alias", "server", "-dname", "CN=localhost", "-validity", "2",
                "-storetype", "PKCS12", "-keystore", store.toString(),
                "-storepass", new String(PASSWORD))
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start();
        if (p.waitFor() != 0) {
            throw new IllegalStateException("keytool failed: " + p.exitValue());
        }
        KeyStore ks = KeyStore.getInstance("PKCS12");
        try (InputStream in = new FileInputStream(store)) {
            ks.load(in, PASSWORD);
        }
        store.delete();
        dir.toFile().delete();
        KeyManagerFactory kmf = KeyManagerFactory.getInstance("PKIX");
        kmf.init(ks, PASSWORD);
        TrustManagerFactory tmf = TrustManagerFactory.getInstance("PKIX");
        tmf.init(ks);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(kmf.getKeyManagers(), tmf.getTrustManagers(), null);
        return context;
    }

    /* The time of each of `count` new connections, in ms. */
    static double[] time(SSLContext context, int count, boolean clientNoDelay)
            throws Exception {
        InetAddress loopback = InetAddress.getLoopbackAddress();
        double[] ms = new double[count];
        try (SSLServerSocket server = (SSLServerSocket) context.getServerSocketFactory()
                .createServerSocket(0, 50, loopback)) {
            server.setEnabledProtocols(new String[] {"TLSv1.3"});
            Thread serving = new Thread(() -> serve(server, count));
            serving.start();
            for (int i = 0; i < count; i++) {
                long start = System.nanoTime();
                try (SSLSocket s = (SSLSocket) context.getSocketFactory()
                        .createSocket(loopback, server.getLocalPort())) {
                    s.setEnabledProtocols(new String[] {"TLSv1.3"});
                    s.setTcpNoDelay(clientNoDelay);
                    OutputStream out = s.getOutputStream();
                    out.write(1);  // the handshake, then the request
                    out.flush();
                    if (s.getInputStream().read() != 1) {
                        throw new IllegalStateException("no response");
                    }
                    ms[i] = (System.nanoTime() - start) / 1e6;
                    s.getSession().invalidate();  // the next handshake is a full one
                }
            }
            serving.join();
        }
        return ms;
    }

    static void serve(SSLServerSocket server, int count) {
        for (int i = 0; i < count; i++) {
            try (Socket s = server.accept()) {
                int b = s.getInputStream().read();
                s.getOutputStream().write(b);
                s.getOutputStream().flush();
            } catch (Exception e) {
                e.printStackTrace();
                return;
            }
        }
    }
}
