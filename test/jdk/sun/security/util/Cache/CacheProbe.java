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
