/*
 * Copyright (c) 2026, the java.base patch set contributors.
 * SPDX-License-Identifier: GPL-2.0-only WITH Classpath-exception-2.0
 */

package build.tools.cachehitrate;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.IntSupplier;

import sun.security.util.Cache;

/**
 * Replays session traces through the sun.security.util.Cache of the JDK it
 * runs on and prints the hit rates, one tab-separated line per trace and
 * cache size. Run it once on the stock JDK (an LRU cache) and once on the
 * image (the patch set's cache) to compare the two on the same traces; see
 * make/CacheHitRate.gmk, which does both and prints them side by side.
 *
 * <p>A trace is a sequence of client ids. Each request looks its session up
 * (get); a miss is a full handshake that caches a new session (put), like
 * SSLSessionContextImpl does. The caches are hard caches without timeout,
 * so that the garbage collector and the clock play no part and the
 * difference is the eviction order alone. Everything is seeded: the same
 * arguments give the same traces on every JDK.
 *
 * <p>Usage: {@code java --add-exports java.base/sun.security.util=ALL-UNNAMED
 * [-Dcachehitrate.digests=<classes.sha256>] -cp <this package's classes>
 * build.tools.cachehitrate.CacheHitRate [requests [population]]}; the
 * other tools of this package print the same "# impl" line.
 */
public final class CacheHitRate {

    private static final long SEED = 20260101L;
    /** The "sha256  path" lines of the classes make java.base compiled. */
    private static final String DIGESTS_PROPERTY = "cachehitrate.digests";
    private static final int[] CAPACITIES = {1024, 4096, 20480};

    private CacheHitRate() {
    }

    public static void main(String[] args) {
        int requests = args.length > 0 ? positive(args[0], "requests") : 2_000_000;
        int population = args.length > 1 ? positive(args[1], "population") : 200_000;
        System.out.println("# impl\t" + implementation());
        System.out.println("# requests\t" + requests + "\tpopulation\t"
                + population + "\tseed\t" + SEED);
        System.out.println("trace\tcapacity\thits\thit_rate");
        for (double s : new double[] {0.8, 1.0}) {
            ZipfSampler zipf = new ZipfSampler(population, s);
            for (int capacity : CAPACITIES) {
                SplittableRandom r = new SplittableRandom(SEED);
                replay("zipf-" + s, capacity, requests, () -> zipf.next(r));
            }
        }
        for (int capacity : CAPACITIES) {
            SplittableRandom r = new SplittableRandom(SEED);
            replay("uniform", capacity, requests, () -> r.nextInt(population));
        }
    }

    /** A positive int argument, or a clear error naming it. */
    static int positive(String s, String what) {
        int n;
        try {
            n = Integer.parseInt(s);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(what + " is not a number: " + s);
        }
        if (n <= 0) {
            throw new IllegalArgumentException(what + " must be positive: " + s);
        }
        return n;
    }

    /**
     * Which cache this JDK has, from the classes named by the digests file
     * (-Dcachehitrate.digests): "image" if this JDK's java.base holds every
     * one of them as make java.base compiled it, "other" if not (stock's
     * classes: some, e.g. an unchanged interface, may compile alike);
     * "unknown" without the property.
     */
    static String implementation() {
        String digests = System.getProperty(DIGESTS_PROPERTY);
        if (digests == null) {
            return "unknown";
        }
        List<String> lines;
        try {
            lines = Files.readAllLines(Path.of(digests));
        } catch (IOException e) {
            throw new UncheckedIOException("-D" + DIGESTS_PROPERTY + "=" + digests, e);
        }
        int same = 0;
        for (String line : lines) {
            String[] fields = line.split("  ", 2);
            if (fields.length != 2 || fields[0].length() != 64) {
                throw new IllegalArgumentException(digests + ": not a sha256sum line: " + line);
            }
            if (fields[0].equals(digestInJavaBase(fields[1]))) {
                same++;
            }
        }
        return lines.isEmpty() ? "unknown" : same == lines.size() ? "image" : "other";
    }

    /** The SHA-256 of a class file of java.base as this JDK has it, or null. */
    private static String digestInJavaBase(String path) {
        try (InputStream in = Object.class.getModule().getResourceAsStream(path)) {
            if (in == null) {
                return null;
            }
            return HexFormat.of().formatHex(
                    MessageDigest.getInstance("SHA-256").digest(in.readAllBytes()));
        } catch (IOException e) {
            throw new UncheckedIOException(path, e);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void replay(String trace, int capacity, int requests,
            IntSupplier ids) {
        Cache<Integer, Object> cache = Cache.newHardMemoryCache(capacity);
        Object session = new Object();
        long hits = 0;
        for (int i = 0; i < requests; i++) {
            Integer id = ids.getAsInt();
            if (cache.get(id) != null) {
                hits++;
            } else {
                cache.put(id, session);
            }
        }
        System.out.printf("%s\t%d\t%d\t%.4f%n", trace, capacity, hits,
                (double) hits / requests);
    }
}
