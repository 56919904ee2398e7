/*
 * Copyright (c) 2026, the java.base patch set contributors.
 * SPDX-License-Identifier: GPL-2.0-only WITH Classpath-exception-2.0
 */

package build.tools.cachehitrate;

import java.io.ByteArrayInputStream;
import java.io.File;
import java.math.BigInteger;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateEncodingException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The certificate path: a stream of X.509 certificates parsed by the
 * CertificateFactory of the JDK it runs on, whose X509Factory keeps the
 * certificates it parsed in a sun.security.util.Cache of 750 entries. Each
 * chain of the stream is a leaf seen once (a certificate whose serial number
 * is made unique; its signature no longer matches, which parsing does not
 * check) and one of a few intermediates, which recur. A parse is a
 * hit when the factory returns the instance it returned before for the same
 * bytes. Prints one tab-separated line: the chains, the parses and hits of
 * the recurring intermediates, and the leaves that hit when parsed again at
 * once (all of them, on any cache).
 * Everything is seeded: the same arguments give the same stream on every JDK.
 *
 * <p>Usage: {@code CertHits <keystore of CA certificates> <password>
 * [chains [intermediates]]}, e.g. a JDK's lib/security/cacerts.
 */
public final class CertHits {

    private static final long SEED = 20260101L;

    private CertHits() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 2 || args.length > 4) {
            throw new IllegalArgumentException(
                    "usage: CertHits <keystore> <password> [chains [intermediates]]");
        }
        KeyStore store = KeyStore.getInstance(new File(args[0]), args[1].toCharArray());
        int chains = args.length > 2 ? CacheHitRate.positive(args[2], "chains") : 20_000;
        int hot = args.length > 3 ? CacheHitRate.positive(args[3], "intermediates") : 8;
        List<X509Certificate> cas = new ArrayList<>();
        for (String alias : Collections.list(store.aliases())) {
            if (store.getCertificate(alias) instanceof X509Certificate x) {
                cas.add(x);
            }
        }
        if (cas.size() <= hot) {
            throw new IllegalArgumentException("need more than " + hot
                    + " certificates in " + args[0]);
        }
        // the same order on every JDK, also where subjects repeat
        cas.sort(Comparator.comparing((X509Certificate x) ->
                x.getSubjectX500Principal().getName()).thenComparing(CertHits::encoding,
                        Arrays::compare));
        // the leaves' template: the first other certificate whose serial
        // number has room for a count in its last 4 bytes, after a first
        // byte that stays as it is (its sign, no leading zero byte made)
        X509Certificate model = cas.stream().skip(hot)
                .filter(x -> x.getSerialNumber().toByteArray().length >= 6
                        && x.getSerialNumber().toByteArray()[0] != 0)
                .findFirst().orElseThrow(() -> new IllegalArgumentException(
                        "no certificate with a serial number of 6 bytes or more in " + args[0]));
        byte[] template = model.getEncoded();
        int serialEnd = serialEnd(template, model.getSerialNumber());

        CertificateFactory factory = CertificateFactory.getInstance("X.509");
        Certificate[] last = new Certificate[hot];
        SplittableRandom random = new SplittableRandom(SEED);
        long hotParses = 0;
        long hotHits = 0;
        long leafHits = 0;
        for (int chain = 0; chain < chains; chain++) {
            byte[] leaf = template.clone();
            for (int i = 0; i < 4; i++) { // a serial number of its own
                leaf[serialEnd - 1 - i] = (byte) (chain >>> (8 * i));
            }
            Certificate parsed = factory.generateCertificate(new ByteArrayInputStream(leaf));
            if (parsed == factory.generateCertificate(new ByteArrayInputStream(template))) {
                throw new IllegalStateException("a leaf is not unique");
            }
            int i = random.nextInt(hot);
            Certificate ca = factory.generateCertificate(
                    new ByteArrayInputStream(cas.get(i).getEncoded()));
            hotParses++;
            if (ca == last[i]) {
                hotHits++;
            }
            last[i] = ca;
            if (factory.generateCertificate(new ByteArrayInputStream(leaf)) == parsed) {
                leafHits++; // a leaf seen again at once: the cache still has it
            }
        }
        System.out.println("# impl\t" + CacheHitRate.implementation());
        System.out.println("chains\tintermediates\tparses\thits\tleaf_rehits");
        System.out.printf("%d\t%d\t%d\t%d\t%d%n", chains, hot, hotParses, hotHits, leafHits);
    }

    private static byte[] encoding(X509Certificate x) {
        try {
            return x.getEncoded();
        } catch (CertificateEncodingException e) {
            throw new IllegalArgumentException(e);
        }
    }

    /** The index after the last byte of the serial number in a certificate's encoding. */
    private static int serialEnd(byte[] der, BigInteger serial) {
        byte[] value = serial.toByteArray();
        for (int i = 0; i + 2 + value.length <= der.length; i++) {
            if (der[i] == 0x02 && der[i + 1] == value.length) {
                boolean match = true;
                for (int j = 0; j < value.length && match; j++) {
                    match = der[i + 2 + j] == value[j];
                }
                if (match) {
                    return i + 2 + value.length;
                }
            }
        }
        throw new IllegalArgumentException("serial number not found in the encoding");
    }
}
