/*
 * Copyright (c) 2026, the java.base patch set contributors.
 * SPDX-License-Identifier: GPL-2.0-only WITH Classpath-exception-2.0
 */

import java.lang.ref.SoftReference;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayDeque;
import java.util.Collections;
import java.util.Deque;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.LongSupplier;
import java.util.function.Predicate;

import sun.security.util.Cache;

/**
 * Reaches the package-private constructor of sun.security.util.MemoryCache
 * that takes a clock, so that tests control time.
 * Tests that use it need {@code @modules java.base/sun.security.util:+open}.
 */
final class CacheProbe {

    static final long SECOND = 1_000_000_000L;

    private static final Constructor<?> CONSTRUCTOR;

    static {
        try {
            Class<?> c = Class.forName("sun.security.util.MemoryCache");
            CONSTRUCTOR = c.getDeclaredConstructor(boolean.class, int.class,
                    int.class, int.class, LongSupplier.class);
            CONSTRUCTOR.setAccessible(true);
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

    /**
     * Does what the GC does to soft values: clears each soft reference
     * inside the cache whose value {@code which} accepts and, if
     * {@code enqueue}, puts it on its reference queue, deterministically
     * and without memory pressure. Finds the references by walking the
     * cache's object graph (its own classes and the java.util collections
     * it may use), so it does not depend on how the cache stores them.
     * Tests that use it need {@code @modules java.base/java.util:+open
     * java.base/java.util.concurrent:+open}.
     *
     * @return how many references were cleared
     */
    static int clearSoftValues(Cache<?,?> cache, Predicate<Object> which,
            boolean enqueue) {
        synchronized (cache) {
            int cleared = 0;
            Set<Object> seen = Collections.newSetFromMap(new IdentityHashMap<>());
            Deque<Object> work = new ArrayDeque<>(List.of(cache));
            while (!work.isEmpty()) {
                Object o = work.pop();
                if (!seen.add(o)) {
                    continue;
                }
                if (o instanceof SoftReference<?> r && r.get() != null
                        && which.test(r.get())) {
                    r.clear();
                    if (enqueue) {
                        r.enqueue();
                    }
                    cleared++;
                }
                if (o instanceof Object[] array) {
                    for (Object e : array) {
                        if (e != null) {
                            work.push(e);
                        }
                    }
                    continue;
                }
                for (Class<?> c = o.getClass(); c != null && walked(c);
                        c = c.getSuperclass()) {
                    for (Field f : c.getDeclaredFields()) {
                        if (Modifier.isStatic(f.getModifiers())
                                || f.getType().isPrimitive()) {
                            continue;
                        }
                        try {
                            f.setAccessible(true);
                            Object v = f.get(o);
                            if (v != null) {
                                work.push(v);
                            }
                        } catch (ReflectiveOperationException e) {
                            throw new AssertionError(e);
                        }
                    }
                }
            }
            return cleared;
        }
    }

    private static boolean walked(Class<?> c) {
        String p = c.getPackageName();
        return p.equals("sun.security.util") || p.equals("java.util")
                || p.equals("java.util.concurrent");
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
