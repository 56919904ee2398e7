/*
 * Copyright (c) 2026, the java.base patch set contributors.
 * SPDX-License-Identifier: GPL-2.0-only WITH Classpath-exception-2.0
 */

/*
 * @test
 * @bug 0000000
 * @summary Cache.EqualByteArray is Comparable consistently with equals
 * @modules java.base/sun.security.util
 * @run main ComparableKeys
 */

import java.lang.reflect.ParameterizedType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import sun.security.util.Cache.EqualByteArray;

/*
 * HashMap finds a key among keys of one hash code with a logarithmic number
 * of comparisons when the keys are Comparable to their own class. "Aa" and
 * "BB" have one hash code, and so have all their concatenations of one
 * length: the test compares every pair of those up to three blocks long.
 */
public class ComparableKeys {

    public static void main(String[] args) {
        // what HashMap looks for: "class C implements Comparable<C>"
        boolean selfComparable = Arrays.stream(
                EqualByteArray.class.getGenericInterfaces()).anyMatch(t ->
                t instanceof ParameterizedType p
                        && p.getRawType() == Comparable.class
                        && p.getActualTypeArguments()[0] == EqualByteArray.class);
        if (!selfComparable) {
            throw new RuntimeException("not Comparable to itself");
        }
        List<byte[]> arrays = new ArrayList<>();
        for (int blocks = 1; blocks <= 3; blocks++) {
            for (int n = 0; n < 1 << blocks; n++) {
                byte[] b = new byte[2 * blocks];
                for (int i = 0; i < blocks; i++) {
                    boolean bb = (n >>> i & 1) != 0;
                    b[2 * i] = (byte) (bb ? 'B' : 'A');
                    b[2 * i + 1] = (byte) (bb ? 'B' : 'a');
                }
                arrays.add(b);
            }
        }
        for (byte[] a : arrays) {
            for (byte[] b : arrays) {
                EqualByteArray x = new EqualByteArray(a);
                EqualByteArray y = new EqualByteArray(b.clone());
                int order = Integer.signum(x.compareTo(y));
                if ((order == 0) != x.equals(y)
                        || order != Integer.signum(Arrays.compare(a, b))
                        || order != -Integer.signum(y.compareTo(x))) {
                    throw new RuntimeException(new String(a) + " vs "
                            + new String(b) + ": compareTo " + order);
                }
            }
        }
        System.out.println(arrays.size() + " arrays: every pair agrees");
    }
}
