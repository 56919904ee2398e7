/*
 * Copyright (c) 2026, the java.base patch set contributors.
 * SPDX-License-Identifier: GPL-2.0-only WITH Classpath-exception-2.0
 */

/*
 * @test
 * @summary A put whose key throws from hashCode or equals gets the exception
 *          and loses nothing: the key's earlier value stays
 * @modules java.base/sun.security.util:+open
 * @run main ThrowingKeyTest
 */

import sun.security.util.Cache;

public class ThrowingKeyTest {

    /** A key whose hashCode or equals throws after {@code calls} calls. */
    static final class Key {
        final String name;
        int hashCalls;          // calls left before hashCode throws
        int equalsCalls;        // calls left before equals throws

        Key(String name, int hashCalls, int equalsCalls) {
            this.name = name;
            this.hashCalls = hashCalls;
            this.equalsCalls = equalsCalls;
        }

        @Override
        public int hashCode() {
            if (hashCalls-- <= 0) {
                throw new IllegalStateException("hashCode");
            }
            return name.hashCode();
        }

        @Override
        public boolean equals(Object o) {
            if (equalsCalls-- <= 0) {
                throw new IllegalStateException("equals");
            }
            return o instanceof Key k && k.name.equals(name);
        }
    }

    public static void main(String[] args) {
        for (boolean soft : new boolean[] {false, true}) {
            for (boolean queue : new boolean[] {false, true}) {
                for (int hashCalls = 0; hashCalls < 3; hashCalls++) {
                    for (int equalsCalls = 0; equalsCalls < 3; equalsCalls++) {
                        check(soft, queue, hashCalls, equalsCalls);
                    }
                }
            }
        }
        System.out.println("passed");
    }

    static void check(boolean soft, boolean queue, int hashCalls,
            int equalsCalls) {
        String what = (soft ? "soft" : "hard") + (queue ? " queue" : "")
                + ", hashCode throws after " + hashCalls
                + ", equals after " + equalsCalls;
        Cache<Key, String> c = CacheProbe.newCache(soft, 10, 3600,
                queue ? 3 : 0, new CacheProbe.ManualClock(0));
        Key good = new Key("k", Integer.MAX_VALUE, Integer.MAX_VALUE);
        String old = "old";
        String neu = "new";
        c.put(good, old, queue);
        Key bad = new Key("k", hashCalls, equalsCalls);
        boolean threw = false;
        try {
            c.put(bad, neu, queue);
        } catch (IllegalStateException e) {
            threw = true;
        }
        Key probe = new Key("k", Integer.MAX_VALUE, Integer.MAX_VALUE);
        String got = c.get(probe);
        if (threw) {
            CacheProbe.checkEquals(old, got, what + ": put threw, old value");
        } else if (queue) {
            CacheProbe.check(old.equals(got) || neu.equals(got),
                    what + ": got " + got);
        } else {
            CacheProbe.checkEquals(neu, got, what + ": put returned");
        }
    }
}
