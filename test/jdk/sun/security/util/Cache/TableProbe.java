/*
 * Copyright (c) 2026, the java.base patch set contributors.
 * SPDX-License-Identifier: GPL-2.0-only WITH Classpath-exception-2.0
 */

import java.lang.reflect.Field;
import java.util.IdentityHashMap;
import java.util.Map;

import sun.security.util.Cache;

/**
 * Reads the hash table of sun.security.util.MemoryCache by reflection: its
 * shape is observable no other way than by timing. Tests that use it need
 * {@code @modules java.base/sun.security.util:+open}.
 */
final class TableProbe {

    private TableProbe() {
    }

    /** The number of nodes in the longest bucket. */
    static int longest(Cache<?,?> c) {
        int[] longest = new int[1];
        walk(c, (bucket, n) -> longest[0] = Math.max(longest[0], n));
        return longest[0];
    }

    /**
     * The bucket of every key: an object per bucket (its first node),
     * identical for the keys of one bucket.
     */
    static Map<Object, Object> buckets(Cache<?,?> c) {
        Map<Object, Object> buckets = new IdentityHashMap<>();
        walk(c, null, buckets);
        return buckets;
    }

    private interface BucketVisitor {
        void visit(Object first, int nodes);
    }

    private static void walk(Cache<?,?> c, BucketVisitor visitor) {
        walk(c, visitor, null);
    }

    /**
     * Visits every bucket of the cache's table and, during a migration, of
     * its old table; each table is an array of segments of buckets, and each
     * bucket a chain of nodes linked by their {@code chain} field.
     */
    private static void walk(Cache<?,?> c, BucketVisitor visitor,
            Map<Object, Object> keys) {
        try {
            synchronized (c) {
                for (String name : new String[] {"table", "oldTable"}) {
                    Field f = c.getClass().getDeclaredField(name);
                    f.setAccessible(true);
                    Object[][] table = (Object[][]) f.get(c);
                    if (table == null) {
                        continue;
                    }
                    for (Object[] segment : table) {
                        if (segment == null) {
                            continue;
                        }
                        for (Object first : segment) {
                            int nodes = 0;
                            for (Object n = first; n != null;
                                    n = field(n, "chain")) {
                                nodes++;
                                if (keys != null) {
                                    keys.put(field(n, "key"), first);
                                }
                            }
                            if (visitor != null && nodes > 0) {
                                visitor.visit(first, nodes);
                            }
                        }
                    }
                }
            }
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(e);
        }
    }

    private static Object field(Object o, String name)
            throws ReflectiveOperationException {
        Field f = o.getClass().getDeclaredField(name);
        f.setAccessible(true);
        return f.get(o);
    }

    /** A field of the cache's own (MemoryCache's), such as its layout. */
    static Object state(Cache<?,?> c, String name) {
        try {
            synchronized (c) {
                return field(c, name);
            }
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(e);
        }
    }
}
