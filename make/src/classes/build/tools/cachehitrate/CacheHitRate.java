/*
 * Copyright (c) 2026, the java.base patch set contributors.
 * SPDX-License-Identifier: GPL-2.0-only WITH Classpath-exception-2.0
 */

package build.tools.cachehitrate;

import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.function.IntSupplier;

import sun.security.util.Cache;

/**
 * Replays session traces through the sun.security.util.Cache of the JDK it
 * runs on and prints the hit rates, one tab-separated line per trace and
 * cache size. Run it once on the stock JDK (an LRU cache) and once on the
 * patched image (a FIFO cache) to compare the two on the same traces; see
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
 * CacheHitRate.java [requests [population]]}
 */
public final class CacheHitRate {

    private static final long SEED = 20260101L;
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

    private static int positive(String s, String what) {
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

    /** Which cache this JDK has: the patch set's classes, or stock's. */
    private static String implementation() {
        try {
            Class.forName("sun.security.util.MemoryCache$HardNode");
            return "patched-fifo";
        } catch (ClassNotFoundException e) {
            return "stock-lru";
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

    /** Draws ids 0..n-1 with probability proportional to 1 / (rank+1)^s. */
    private static final class ZipfSampler {
        private final double[] cdf;

        ZipfSampler(int n, double s) {
            cdf = new double[n];
            double sum = 0;
            for (int i = 0; i < n; i++) {
                sum += 1 / Math.pow(i + 1, s);
                cdf[i] = sum;
            }
            for (int i = 0; i < n; i++) {
                cdf[i] /= sum;
            }
        }

        int next(SplittableRandom r) {
            int i = Arrays.binarySearch(cdf, r.nextDouble());
            // not found: -(insertion point) - 1; the first cdf >= u wins
            return Math.min(i >= 0 ? i : -i - 1, cdf.length - 1);
        }
    }
}
