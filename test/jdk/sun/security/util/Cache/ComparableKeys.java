/*
 * Copyright (c) 2026, the java.base patch set contributors.
 * SPDX-License-Identifier: GPL-2.0-only WITH Classpath-exception-2.0
 */

/*
 * @test
 * @bug 0000000
 * @summary EqualByteArray and SessionId are Comparable consistently with equals
 * @key randomness
 * @modules java.base/sun.security.util java.base/sun.security.ssl:+open
 * @library /test/lib
 * @run main ComparableKeys
 */

import java.lang.reflect.Constructor;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.util.Arrays;
import java.util.Random;
import java.util.function.Function;

import jdk.test.lib.RandomFactory;
import sun.security.util.Cache;

/*
 * HashMap keeps keys of one hash code in a tree, and finds one with a
 * logarithmic number of comparisons, when the keys' class C implements
 * Comparable<C> consistently with equals. Keys of one hash code are easy
 * to make for byte arrays: "Aa" and "BB" have one hash code, and so do all
 * their concatenations; the test compares such arrays.
 */
public class ComparableKeys {

    private static final Random RND = RandomFactory.getRandom();

    public static void main(String[] args) throws Exception {
        Constructor<?> sid = Class.forName("sun.security.ssl.SessionId")
                .getDeclaredConstructor(byte[].class);
        sid.setAccessible(true);
        check(Cache.EqualByteArray.class, Cache.EqualByteArray::new);
        check(sid.getDeclaringClass(), b -> {
            try {
                return sid.newInstance((Object) b);
            } catch (ReflectiveOperationException e) {
                throw new RuntimeException(e);
            }
        });
    }

    // The class is Comparable to itself, and its order agrees with equals
    @SuppressWarnings({"unchecked", "rawtypes"})
    private static void check(Class<?> c, Function<byte[], Object> key) {
        boolean selfComparable = false;
        for (Type t : c.getGenericInterfaces()) {
            selfComparable |= t instanceof ParameterizedType p
                    && p.getRawType() == Comparable.class
                    && p.getActualTypeArguments()[0] == c;
        }
        if (!selfComparable) {
            throw new RuntimeException(c + " is not Comparable<" + c + ">");
        }
        for (int i = 0; i < 10_000; i++) {
            byte[] a = colliding(1 + RND.nextInt(4), RND.nextInt(16));
            byte[] b = RND.nextInt(8) == 0 ? a.clone()
                    : colliding(1 + RND.nextInt(4), RND.nextInt(16));
            Comparable x = (Comparable) key.apply(a);
            Object y = key.apply(b);
            int order = Integer.signum(x.compareTo(y));
            if ((order == 0) != x.equals(y)
                    || order != Integer.signum(Arrays.compare(a, b))
                    || order != -Integer.signum(
                            ((Comparable) y).compareTo(x))) {
                throw new RuntimeException(c.getSimpleName() + ": "
                        + Arrays.toString(a) + " vs " + Arrays.toString(b));
            }
        }
    }

    // Blocks of "Aa" or "BB", chosen by the bits of n
    private static byte[] colliding(int blocks, int n) {
        byte[] b = new byte[2 * blocks];
        for (int i = 0; i < blocks; i++) {
            boolean bb = (n >>> i & 1) != 0;
            b[2 * i] = (byte) (bb ? 'B' : 'A');
            b[2 * i + 1] = (byte) (bb ? 'B' : 'a');
        }
        return b;
    }
}
