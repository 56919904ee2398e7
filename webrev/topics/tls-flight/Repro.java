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
 * java SSLFlightDelay.java [connections] [nodelay]
 *
 * Times new connections between an SSLSocket and an SSLServerSocket over
 * loopback, both with the sockets' defaults (Nagle's algorithm on): from
 * the connect to the response, a fresh full handshake and a one-byte
 * request and response, for TLS 1.2 and TLS 1.3 (100 connections each
 * unless given, after 50 of warm-up), and prints the median.
 * With "nodelay", both sides set TCP_NODELAY first.
 *
 * The server's key, a self-signed EC P-256 certificate, is made by this
 * JDK's keytool in a temporary directory, and the client trusts it.
 */
public class SSLFlightDelay {

    static final char[] PASSWORD = "changeit".toCharArray();

    public static void main(String[] args) throws Exception {
        int connections = args.length > 0 ? Integer.parseInt(args[0]) : 100;
        boolean noDelay = args.length > 1 && args[1].equals("nodelay");
        SSLContext context = context();
        System.out.printf("%s %s (%s), %s %s, %d CPUs, %s%n",
                System.getProperty("java.vm.name"), System.getProperty("java.runtime.version"),
                System.getProperty("java.vendor"), System.getProperty("os.name"),
                System.getProperty("os.arch"), Runtime.getRuntime().availableProcessors(),
                noDelay ? "TCP_NODELAY on both sides" : "default socket options");
        for (String protocol : new String[] {"TLSv1.2", "TLSv1.3"}) {
            time(context, protocol, 50, noDelay);  // warm-up, not counted
            double[] ms = time(context, protocol, connections, noDelay);
            Arrays.sort(ms);
            System.out.printf("%s: %d connections, median %.2f ms (min %.2f, max %.2f)%n",
                    protocol, ms.length, median(ms), ms[0], ms[ms.length - 1]);
        }
    }

    static double median(double[] sorted) {
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }

    /* A key store with a self-signed certificate, made by keytool. */
    static SSLContext context() throws Exception {
        Path dir = Files.createTempDirectory("sslflightdelay");
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
    static double[] time(SSLContext context, String protocol, int count, boolean noDelay)
            throws Exception {
        InetAddress loopback = InetAddress.getLoopbackAddress();
        double[] ms = new double[count];
        try (SSLServerSocket server = (SSLServerSocket) context.getServerSocketFactory()
                .createServerSocket(0, 50, loopback)) {
            server.setEnabledProtocols(new String[] {protocol});
            Thread serving = new Thread(() -> serve(server, count, noDelay));
            serving.start();
            for (int i = 0; i < count; i++) {
                long start = System.nanoTime();
                try (SSLSocket s = (SSLSocket) context.getSocketFactory()
                        .createSocket(loopback, server.getLocalPort())) {
                    s.setEnabledProtocols(new String[] {protocol});
                    if (noDelay) {
                        s.setTcpNoDelay(true);
                    }
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

    static void serve(SSLServerSocket server, int count, boolean noDelay) {
        for (int i = 0; i < count; i++) {
            try (Socket s = server.accept()) {
                if (noDelay) {
                    s.setTcpNoDelay(true);
                }
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
