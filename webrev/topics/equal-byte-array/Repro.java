/*
 * Copyright (c) 2026, the java.base patch set contributors.
 * SPDX-License-Identifier: GPL-2.0-only WITH Classpath-exception-2.0
 */

import java.util.Arrays;

import sun.security.util.Cache;

/*
 * java --add-exports java.base/sun.security.util=ALL-UNNAMED Repro.java
 *
 * 750 certificate-sized keys of one hash code in a cache of the size
 * X509Factory's: for a byte array, raising one byte by 1 and lowering the
 * next by 31 keeps Arrays.hashCode, so ten such pairs give 1,024 distinct
 * arrays of one hash code. Times a lookup of each, many times over.
 */
public class Repro {

    public static void main(String[] args) {
        int count = 750, length = 1000;
        Cache<Object, Object> cache = Cache.newSoftMemoryCache(count);
        Cache.EqualByteArray[] keys = new Cache.EqualByteArray[count];
        for (int k = 0; k < count; k++) {
            byte[] b = new byte[length];
            Arrays.fill(b, (byte) 64);
            for (int bit = 0; bit < 10; bit++) {
                if ((k & (1 << bit)) != 0) {
                    int i = length - 20 + 2 * bit;
                    b[i] += 1;
                    b[i + 1] -= 31;
                }
            }
            keys[k] = new Cache.EqualByteArray(b);
            cache.put(keys[k], b);
        }
        if (Arrays.stream(keys).map(Object::hashCode).distinct().count() != 1) {
            throw new AssertionError("the keys' hash codes differ");
        }
        long best = Long.MAX_VALUE;
        for (int round = 0; round < 50; round++) {
            long t = System.nanoTime();
            for (Cache.EqualByteArray key : keys) {
                if (cache.get(key) == null) {
                    throw new AssertionError("a key was not found");
                }
            }
            best = Math.min(best, (System.nanoTime() - t) / count);
        }
        System.out.printf("%s: a lookup among %d keys of one hash code takes"
                + " %d ns (the best of 50 rounds)%n",
                System.getProperty("java.runtime.version"), count, best);
    }
}
