/*
 * Copyright (c) 2026, the java.base patch set contributors.
 * SPDX-License-Identifier: GPL-2.0-only WITH Classpath-exception-2.0
 */

/*
 * @test
 * @summary A put whose key throws from hashCode or equals gets the exception
 *          and loses nothing: the key's earlier value and every other entry
 *          stay, also in a full cache that would evict on a put
 * @modules java.base/sun.security.util:+open
 * @run main ThrowingKeyTest
 */

import java.util.HashMap;
import java.util.Map;

import sun.security.util.Cache;

public class ThrowingKeyTest {

    /**
     * A key equal to {@code Key(name)} whose hashCode or equals always
     * throws (consistently, as Object's contract has them answer).
     */
    static final class Key {
        final String name;
        final boolean hashThrows;
        final boolean equalsThrows;

        Key(String name, boolean hashThrows, boolean equalsThrows) {
            this.name = name;
            this.hashThrows = hashThrows;
            this.equalsThrows = equalsThrows;
        }

        @Override
        public int hashCode() {
            if (hashThrows) {
                throw new IllegalStateException("hashCode");
            }
            return name.hashCode();
        }

        @Override
        public boolean equals(Object o) {
            if (equalsThrows) {
                throw new IllegalStateException("equals");
            }
            return o instanceof Key k && k.name.equals(name);
        }

        @Override
        public String toString() {
            return name;
        }
    }

    public static void main(String[] args) {
        for (boolean soft : new boolean[] {false, true}) {
            for (boolean queue : new boolean[] {false, true}) {
                check(soft, queue, true, false);
                check(soft, queue, false, true);
                check(soft, queue, true, true);
            }
        }
        System.out.println("passed");
    }

    static void check(boolean soft, boolean queue, boolean hashThrows,
            boolean equalsThrows) {
        String what = (soft ? "soft" : "hard") + (queue ? " queue" : "")
                + (hashThrows ? ", hashCode throws" : "")
                + (equalsThrows ? ", equals throws" : "");
        // full, so that a put that went through would evict the oldest
        int size = 4;
        Cache<Key, String> c = CacheProbe.newCache(soft, size, 3600,
                queue ? 3 : 0, new CacheProbe.ManualClock(0));
        Map<Key, String> expected = new HashMap<>();
        for (int i = 0; i < size; i++) {
            Key k = new Key("k" + i, false, false);
            c.put(k, "old" + i, queue);
            expected.put(k, "old" + i);
        }
        Key bad = new Key("k0", hashThrows, equalsThrows);
        try {
            c.put(bad, "new", queue);
            throw new AssertionError(what + ": the put did not throw");
        } catch (IllegalStateException e) {
            // the key's own exception
        }
        CacheProbe.checkEquals(expected, CacheProbe.entries(c),
                what + ": entries after the put threw");
        CacheProbe.checkEquals(size, c.size(), what + ": size");
        CacheProbe.checkEquals("old0", c.get(new Key("k0", false, false)),
                what + ": the key's earlier value");
    }
}
