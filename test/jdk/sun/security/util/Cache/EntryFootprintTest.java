/*
 * Copyright (c) 2026, the java.base patch set contributors.
 * SPDX-License-Identifier: GPL-2.0-only WITH Classpath-exception-2.0
 */

/*
 * @test
 * @summary An entry of the cache costs no more memory than an entry of the
 *          LinkedHashMap-based cache of earlier releases, hard and soft,
 *          with and without compressed references
 * @modules java.base/sun.security.util:+open
 *          java.base/jdk.internal.misc
 * @run main/othervm EntryFootprintTest
 * @run main/othervm -XX:-UseCompressedOops EntryFootprintTest
 */

import java.lang.ref.SoftReference;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;

import jdk.internal.misc.Unsafe;

public class EntryFootprintTest {

    private static final Unsafe U = Unsafe.getUnsafe();

    // The field shapes of the earlier releases' entries: a LinkedHashMap entry
    // that points to a cache entry holding key, value and expiry time, the
    // soft one being a SoftReference to the value.
    static final class LinkedHardEntryShape {
        Object key;
        Object value;
        long expirationTime;
    }

    static final class LinkedSoftEntryShape extends SoftReference<Object> {
        Object key;
        long expirationTime;

        LinkedSoftEntryShape() {
            super(null);
        }
    }

    public static void main(String[] args) throws Exception {
        Class<?> mapEntry = Class.forName("java.util.LinkedHashMap$Entry");
        long linkedHard = size(mapEntry) + size(LinkedHardEntryShape.class);
        long linkedSoft = size(mapEntry) + size(LinkedSoftEntryShape.class);
        // one object per entry: the node is both the map entry and the
        // cache entry
        long hard = size(Class.forName("sun.security.util.MemoryCache$HardNode"));
        long soft = size(Class.forName("sun.security.util.MemoryCache$SoftNode"));
        System.out.printf("bytes per entry: hard %d (LinkedHashMap-based %d), "
                + "soft %d (LinkedHashMap-based %d)%n", hard, linkedHard, soft, linkedSoft);
        if (hard > linkedHard) {
            throw new AssertionError("a hard entry costs " + hard
                    + " bytes, more than the LinkedHashMap-based " + linkedHard);
        }
        if (soft > linkedSoft) {
            throw new AssertionError("a soft entry costs " + soft
                    + " bytes, more than the LinkedHashMap-based " + linkedSoft);
        }
    }

    /** The instance size: the end of the last field, aligned to 8. */
    static long size(Class<?> c) {
        long end = U.ARRAY_INT_BASE_OFFSET;   // at least a header
        for (Class<?> k = c; k != null; k = k.getSuperclass()) {
            for (Field f : k.getDeclaredFields()) {
                if (Modifier.isStatic(f.getModifiers())) {
                    continue;
                }
                long e = U.objectFieldOffset(f) + bytes(f.getType());
                end = Math.max(end, e);
            }
        }
        return (end + 7) & ~7L;
    }

    static long bytes(Class<?> t) {
        if (t == long.class || t == double.class) {
            return 8;
        }
        if (t == int.class || t == float.class) {
            return 4;
        }
        if (t == short.class || t == char.class) {
            return 2;
        }
        if (t == byte.class || t == boolean.class) {
            return 1;
        }
        return U.ARRAY_OBJECT_INDEX_SCALE;    // a reference
    }
}
