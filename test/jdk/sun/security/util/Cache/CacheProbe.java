/*
 * Copyright (c) 2026, the java.base patch set contributors.
 * SPDX-License-Identifier: GPL-2.0-only WITH Classpath-exception-2.0
 */

import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.util.HashMap;
import java.util.Map;
import java.util.function.LongSupplier;

import sun.security.util.Cache;

/**
 * Reaches the package-private test hooks of sun.security.util.MemoryCache:
 * the constructor that takes a clock and the count of examined entries.
 * Tests that use it need {@code @modules java.base/sun.security.util:+open}.
 */
final class CacheProbe {

    static final long SECOND = 1_000_000_000L;

    private static final Constructor<?> CONSTRUCTOR;
    private static final Field EXAMINED;

    static {
        try {
            Class<?> c = Class.forName("sun.security.util.MemoryCache");
            CONSTRUCTOR = c.getDeclaredConstructor(boolean.class, int.class,
                    int.class, int.class, LongSupplier.class);
            CONSTRUCTOR.setAccessible(true);
            EXAMINED = c.getDeclaredField("examined");
            EXAMINED.setAccessible(true);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private CacheProbe() {
    }

    /** A clock that moves only when told to; starts at {@code start}. */
    static final class ManualClock implements LongSupplier {
        private volatile long now;

        ManualClock(long start) {
            now = start;
        }

        @Override
        public long getAsLong() {
            return now;
        }

        void advance(long nanos) {
            now += nanos;
        }

        void advanceSeconds(long seconds) {
            advance(seconds * SECOND);
        }
    }

    /** A cache built like the factories build them, but on {@code clock}. */
    @SuppressWarnings("unchecked")
    static <K,V> Cache<K,V> newCache(boolean soft, int size, int timeout,
            int maxQueueSize, LongSupplier clock) {
        try {
            return (Cache<K,V>) CONSTRUCTOR.newInstance(soft, size, timeout,
                    maxQueueSize, clock);
        } catch (java.lang.reflect.InvocationTargetException e) {
            Throwable t = e.getCause();
            if (t instanceof RuntimeException re) {
                throw re;
            }
            throw new AssertionError(t);
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(e);
        }
    }

    /** How many entries the cache's bounded maintenance has examined. */
    static long examined(Cache<?,?> cache) {
        try {
            synchronized (cache) {
                return EXAMINED.getLong(cache);
            }
        } catch (IllegalAccessException e) {
            throw new AssertionError(e);
        }
    }

    /** An int field of the cache, such as {@code count}. */
    static int intField(Cache<?,?> cache, String name) {
        try {
            Field f = cache.getClass().getDeclaredField(name);
            f.setAccessible(true);
            synchronized (cache) {
                return f.getInt(cache);
            }
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(e);
        }
    }

    /**
     * Does what the GC does to the soft values of the entries whose keys
     * {@code which} accepts: clears each reference and enqueues it on the
     * cache's reference queue, deterministically, without memory pressure.
     * Walks the cache's insertion-ordered list from {@code head}.
     *
     * @return how many references were cleared
     */
    static int clearSoftValues(Cache<?,?> cache,
            java.util.function.Predicate<Object> which) {
        try {
            Field head = cache.getClass().getDeclaredField("head");
            head.setAccessible(true);
            int cleared = 0;
            synchronized (cache) {
                Object n = head.get(cache);
                while (n != null) {
                    java.lang.reflect.Method key = method(n, "key");
                    if (n instanceof java.lang.ref.Reference<?> r
                            && which.test(key.invoke(n))) {
                        r.clear();
                        r.enqueue();
                        cleared++;
                    }
                    n = method(n, "after").invoke(n);
                }
            }
            return cleared;
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(e);
        }
    }

    private static java.lang.reflect.Method method(Object o, String name)
            throws NoSuchMethodException {
        java.lang.reflect.Method m = o.getClass().getDeclaredMethod(name);
        m.setAccessible(true);
        return m;
    }

    /**
     * Checks the shape of every bucket of the cache's table (and of the
     * old table during a growth): a chain has fewer than {@code treeify}
     * nodes, and a tree bin more than {@code untreeify}, so that no bucket
     * pays for a tree it does not need.
     *
     * @return how many buckets are tree bins, and the most nodes in one
     *         bucket
     */
    static Buckets checkBuckets(Cache<?,?> cache, int treeify,
            int untreeify) {
        try {
            int bins = 0;
            int largest = 0;
            synchronized (cache) {
                for (String name : new String[] {"table", "oldTable"}) {
                    Field f = cache.getClass().getDeclaredField(name);
                    f.setAccessible(true);
                    Object[][] table = (Object[][]) f.get(cache);
                    if (table == null) {
                        continue;
                    }
                    for (int seg = 0; seg < table.length; seg++) {
                        Object[] segment = table[seg];
                        if (segment == null) {
                            continue;
                        }
                        for (int i = 0; i < segment.length; i++) {
                            Object b = segment[i];
                            if (b == null) {
                                continue;
                            }
                            String where = name + " segment " + seg
                                    + " bucket " + i;
                            String kind = b.getClass().getSimpleName();
                            if (kind.equals("TreeBin")) {
                                bins++;
                                int n = binNodes(b);
                                largest = Math.max(largest, n);
                                check(n > untreeify, where + ": a tree bin of "
                                        + n + " nodes");
                            } else {
                                int n = chainLength(b);
                                largest = Math.max(largest, n);
                                check(n < treeify, where + ": a chain of "
                                        + n + " nodes");
                            }
                        }
                    }
                }
            }
            return new Buckets(bins, largest);
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(e);
        }
    }

    /** What {@link #checkBuckets} found. */
    record Buckets(int treeBins, int largest) {
    }

    private static int chainLength(Object n)
            throws ReflectiveOperationException {
        int length = 0;
        for (; n != null; n = method(n, "chain").invoke(n)) {
            length++;
        }
        return length;
    }

    private static int binNodes(Object bin)
            throws ReflectiveOperationException {
        Field f = bin.getClass().getDeclaredField("groups");
        f.setAccessible(true);
        int nodes = 0;
        for (Object group : ((Map<?,?>) f.get(bin)).keySet()) {
            nodes += chainLength(group);
        }
        return nodes;
    }

    /** The cache's entries, through {@link Cache#accept}. */
    static <K,V> Map<K,V> entries(Cache<K,V> cache) {
        Map<K,V> copy = new HashMap<>();
        cache.accept(copy::putAll);
        return copy;
    }

    static void check(boolean ok, String what) {
        if (!ok) {
            throw new AssertionError(what);
        }
    }

    static void checkEquals(Object expected, Object actual, String what) {
        if (expected == null ? actual != null : !expected.equals(actual)) {
            throw new AssertionError(what + ": expected " + expected
                    + ", got " + actual);
        }
    }
}
