/*
 * Copyright (c) 2026, the java.base patch set contributors.
 * SPDX-License-Identifier: GPL-2.0-only WITH Classpath-exception-2.0
 */

package sun.security.ssl;

import java.net.InetAddress;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLServerSocket;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;
import sun.security.tools.keytool.CertAndKeyGen;
import sun.security.x509.X500Name;

/*
 * A thread holds a handshake record of its own, not yet written, and the
 * output lock, as a thread does between making a record and writing it,
 * or while its write blocks until the peer reads. Another thread's read
 * of the peer's application data must not wait for that lock: the peer
 * may write everything before it reads.
 */
public class ForeignFlight {

    public static void main(String[] args) throws Exception {
        SSLContext context = context();
        InetAddress loopback = InetAddress.getLoopbackAddress();
        ExecutorService executor = Executors.newCachedThreadPool();
        try (SSLServerSocket listener = (SSLServerSocket) context
                .getServerSocketFactory().createServerSocket(0, 1, loopback);
             SSLSocket client = (SSLSocket) context.getSocketFactory()
                .createSocket(loopback, listener.getLocalPort())) {
            client.setEnabledProtocols(new String[] {"TLSv1.3"});
            Future<SSLSocket> accepted = executor.submit(() -> {
                SSLSocket server = (SSLSocket) listener.accept();
                server.getOutputStream().write(1);
                return server;
            });
            client.startHandshake();
            try (SSLSocket server = accepted.get()) {
                OutputRecord output =
                        ((SSLSocketImpl) client).conContext.outputRecord;
                CountDownLatch held = new CountDownLatch(1);
                CountDownLatch release = new CountDownLatch(1);
                executor.submit(() -> {
                    output.recordLock.lock();
                    try {
                        // KeyUpdate, update_not_requested
                        output.encodeHandshake(
                                new byte[] {24, 0, 0, 1, 0}, 0, 5);
                        output.flush();
                        held.countDown();
                        release.await();
                    } finally {
                        output.recordLock.unlock();
                    }
                    return null;
                });
                held.await();
                Future<Integer> read = executor.submit(
                        () -> client.getInputStream().read());
                try {
                    if (read.get(60, TimeUnit.SECONDS) != 1) {
                        throw new RuntimeException("not the server's byte");
                    }
                } catch (TimeoutException e) {
                    throw new RuntimeException(
                            "the read waits for another thread's flight", e);
                } finally {
                    release.countDown();
                }
            }
        } finally {
            executor.shutdownNow();
        }
    }

    // A self-signed EC key for "localhost", which both sides trust.
    private static SSLContext context() throws Exception {
        CertAndKeyGen keys = new CertAndKeyGen("EC", "SHA256withECDSA");
        keys.generate(256);
        Certificate cert = keys.getSelfCertificate(
                new X500Name("CN=localhost"), 3600);
        KeyStore store = KeyStore.getInstance("PKCS12");
        store.load(null, null);
        char[] password = "password".toCharArray();
        store.setKeyEntry("server", keys.getPrivateKey(), password,
                new Certificate[] {cert});
        KeyManagerFactory kmf = KeyManagerFactory.getInstance("SunX509");
        kmf.init(store, password);
        TrustManagerFactory tmf = TrustManagerFactory.getInstance("PKIX");
        tmf.init(store);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(kmf.getKeyManagers(), tmf.getTrustManagers(), null);
        return context;
    }
}
