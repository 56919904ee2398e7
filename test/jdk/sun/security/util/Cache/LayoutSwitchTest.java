/*
 * Copyright (c) 2026, the java.base patch set contributors.
 * SPDX-License-Identifier: GPL-2.0-only WITH Classpath-exception-2.0
 */

/*
 * @test
 * @summary The cache's table places keys as HashMap's spread does until a
 *          put finds 8 nodes of other hash codes in its bucket, then moves
 *          to a keyed layout, incrementally: a flood of keys that the
 *          spread puts in one bucket switches the layout, the crowded
 *          bucket holds at most 16 nodes until it is moved and buckets stay
 *          short after; the oldest key of a hash code is still the first
 *          to go after the move; a crowd found during a growth switches
 *          the layout only once the growth has ended, and its bucket stays
 *          bounded meanwhile; no put of a switch allocates more than a few
 *          segments of the new table. Reads the table by reflection
 * @key randomness
 * @modules java.base/sun.security.util:+open
 *          jdk.management
 * @run main/othervm -Xmx1g LayoutSwitchTest
 */

import java.util.ArrayList;
import java.util.List;

import sun.security.util.Cache;

public class LayoutSwitchTest {

    /** The most nodes in a bucket of the identity layout. */
    static final int MAX_IDENTITY_BUCKET = 16;

    /** The most keys of one hash code the cache keeps (MAX_SAME_HASH). */
    static final int CROWD = 8;

    /** A key with a chosen hash code; keys of one hash code differ by id. */
    record HashKey(int hash, int id) {
        @Override
        public int hashCode() {
            return hash;
        }
    }

    public static void main(String[] args) {
        flood();
        for (boolean soft : new boolean[] {false, true}) {
            orderKept(soft);
        }
        deferredByGrowth();
        switchAllocation();
        System.out.println("passed");
    }

    /** HashMap's spread, which the identity layout takes. */
    static int spread(int h) {
        return h ^ (h >>> 16);
    }

    /**
     * A key whose hash code's spread has low {@code bits} bits {@code b}
     * (16 &lt;= bits, b &lt; 2^bits): in bucket b & (length - 1) of any
     * table of up to 2^bits buckets in the identity layout. There are
     * 2^(32 - bits) such hash codes: the n-th key has the (n mod that)-th.
     */
    static HashKey spreadTo(int b, int bits, int n) {
        int j = n & ((1 << (32 - bits)) - 1);
        int h = (j << bits) | (b ^ (j << (bits - 16)) ^ (b >>> 16));
        if ((spread(h) & ((1 << bits) - 1)) != b) {
            throw new AssertionError("spreadTo " + b + ", " + n);
        }
        return new HashKey(h, n);
    }

    static boolean keyed(Cache<?,?> c) {
        return (Boolean) TableProbe.state(c, "keyed");
    }

    static boolean rekeyDue(Cache<?,?> c) {
        return (Boolean) TableProbe.state(c, "rekeyDue");
    }

    static boolean migrating(Cache<?,?> c) {
        return TableProbe.state(c, "oldTable") != null;
    }

    static int tableLength(Cache<?,?> c) {
        return (Integer) TableProbe.state(c, "tableLength");
    }

    static void checkShort(Cache<?,?> c, String what) {
        int longest = TableProbe.longest(c);
        CacheProbe.check(longest <= MAX_IDENTITY_BUCKET, what
                + ": a bucket of " + longest + " nodes");
    }

    /**
     * 90,000 consecutive Integers (a table of 2^17 buckets, each holding
     * one key or none, no growth in progress), then a flood of keys that
     * the spread puts in bucket 89,999, which holds Integer 89,998. The
     * put of the 8th flood key finds 8 other hash codes there: the next
     * put starts the switch, which reaches that bucket some 22,500 puts
     * later. Until then the bucket holds at most 16 nodes, its oldest
     * going first (Integer 89,998, then the oldest flood keys); after
     * that the flood spreads and no key is lost.
     */
    static void flood() {
        Cache<Object, Object> c = Cache.newHardMemoryCache(0);
        int n = 90_000;
        for (int i = 0; i < n; i++) {
            c.put(i, i);
        }
        CacheProbe.check(!keyed(c) && !migrating(c)
                && tableLength(c) == 1 << 17, "a table of 2^17 buckets in"
                + " the identity layout, no growth in progress");
        CacheProbe.checkEquals(1, TableProbe.longest(c),
                "consecutive Integers: the longest bucket");
        int b = 89_999;
        Integer resident = spread(b);           // the spread is its inverse
        int floods = 40_000;
        List<HashKey> keys = new ArrayList<>();
        for (int j = 1; j <= floods; j++) {
            HashKey k = spreadTo(b, 17, j);
            keys.add(k);
            c.put(k, k);
            if (j == CROWD - 1) {
                CacheProbe.check(!rekeyDue(c) && !keyed(c),
                        "7 other hash codes switch nothing");
            } else if (j == CROWD) {
                CacheProbe.check(rekeyDue(c) && !keyed(c),
                        "8 other hash codes make a switch due");
            } else if (j == CROWD + 1) {
                CacheProbe.check(keyed(c) && migrating(c)
                        && !rekeyDue(c), "the put after starts the switch");
            }
            if (j % 2_000 == 0 || j == MAX_IDENTITY_BUCKET
                    || j == MAX_IDENTITY_BUCKET + 1) {
                checkShort(c, j + " flood keys");
            }
        }
        CacheProbe.check(keyed(c) && !migrating(c), "switch finished");
        // 90,008 nodes when the switch started: the table doubled
        CacheProbe.checkEquals(1 << 18, tableLength(c), "table length");
        checkShort(c, "after the switch");
        CacheProbe.checkEquals(null, c.get(resident),
                "the bucket's oldest node went first");
        for (int i = 0; i < n; i++) {
            if (i != resident) {
                CacheProbe.checkEquals(i, c.get(i), "Integer " + i);
            }
        }
        // the bucket is moved within 2^17 / 4 puts of the switch's start;
        // the flood keys lost are older ones, then none
        int lost = 0;
        boolean kept = false;
        for (HashKey k : keys) {
            if (c.get(k) == null) {
                CacheProbe.check(!kept, "a flood key lost after a newer"
                        + " one was kept: " + k);
                lost++;
            } else {
                kept = true;
            }
        }
        CacheProbe.check(lost > 0 && lost <= (1 << 17) / 4, lost
                + " flood keys lost");
        CacheProbe.checkEquals(n - 1 + floods - lost, c.size(), "size");
    }

    /** The i-th of 16 Strings with one hashCode ("Aa" and "BB"). */
    static String collider(int i) {
        StringBuilder sb = new StringBuilder();
        for (int j = 0; j < 4; j++) {
            sb.append((i >>> j & 1) != 0 ? "BB" : "Aa");
        }
        return sb.toString();
    }

    /**
     * Eight keys of one hash code, put in an order that differs from the
     * order of their first puts (c0 is put again after c3), then eight
     * keys of other hash codes in their bucket, which switch the layout;
     * once the switch has moved every bucket, each new key of that hash
     * code makes the oldest one go, in the order of the list.
     */
    static void orderKept(boolean soft) {
        Cache<Object, String> c = soft ? Cache.newSoftMemoryCache(0)
                : Cache.newHardMemoryCache(0);
        List<String> values = new ArrayList<>();     // held strongly
        String[] key = new String[16];
        for (int i = 0; i < 16; i++) {
            key[i] = collider(i);
            values.add("v" + i);
        }
        for (int i = 0; i < 4; i++) {
            c.put(key[i], values.get(i));
        }
        c.put(key[0], values.get(0));
        for (int i = 4; i < CROWD; i++) {
            c.put(key[i], values.get(i));
        }
        // list order, oldest first: c1 c2 c3 c0 c4 c5 c6 c7
        int h = key[0].hashCode();
        int t = spread(h) & 0xFFFF;
        List<Object> others = new ArrayList<>();
        for (int k = 1; others.size() < CROWD; k++) {
            int o = (k << 16) | (t ^ k);
            if (o != h) {
                CacheProbe.checkEquals(t, spread(o) & 0xFFFF, "spread");
                HashKey x = new HashKey(o, k);
                others.add(x);
                c.put(x, "x");
                CacheProbe.check(keyed(c) || rekeyDue(c),
                        "a switch is due once a put finds 8 others");
            }
        }
        for (int i = 0; migrating(c); i++) {
            c.put(i, "i");
        }
        CacheProbe.check(keyed(c), "the keyed layout");
        String[] expectedGone = {key[1], key[2], key[3]};
        for (int n = 0; n < expectedGone.length; n++) {
            c.put(key[CROWD + n], values.get(CROWD + n));
            CacheProbe.checkEquals(null, c.get(expectedGone[n]),
                    "the oldest of the hash code went: " + expectedGone[n]);
        }
        // c0, put again after c3, goes after them, and before c4
        c.put(key[CROWD + 3], values.get(CROWD + 3));
        CacheProbe.checkEquals(null, c.get(key[0]), "c0 went fourth");
        CacheProbe.checkEquals(values.get(4), c.get(key[4]), "c4 is kept");
        for (int i = 4; i < CROWD + 4; i++) {
            CacheProbe.checkEquals(values.get(i), c.get(key[i]), "c" + i);
        }
        for (Object x : others) {
            CacheProbe.checkEquals("x", c.get(x), "other key " + x);
        }
    }

    /**
     * 100,000 consecutive Integers: the table is growing from 2^17 to 2^18
     * buckets (from 98,304 entries on, 2^17 / 4 puts). A flood of keys in
     * a bucket the growth has not moved yet makes a switch due; the
     * switch starts only with the put after the one that ends the growth,
     * and every bucket holds at most 16 nodes throughout. The Integers,
     * none in that bucket, are all kept.
     */
    static void deferredByGrowth() {
        Cache<Object, Object> c = Cache.newHardMemoryCache(0);
        int n = 100_000;
        for (int i = 0; i < n; i++) {
            c.put(i, i);
        }
        CacheProbe.check(migrating(c) && !keyed(c)
                && tableLength(c) == 1 << 18, "a growth to 2^18 buckets in"
                + " progress, in the identity layout");
        int b = 120_000;                        // no Integer below n there
        CacheProbe.check((Integer) TableProbe.state(c, "migrated") < b,
                "the bucket is still in the old table");
        boolean due = false;
        boolean ended = false;                  // the growth, with due set
        boolean started = false;
        List<HashKey> keys = new ArrayList<>();
        for (int j = 1; !started || migrating(c); j++) {
            HashKey k = spreadTo(b, 18, j);
            keys.add(k);
            c.put(k, k);
            boolean keyed = keyed(c);
            boolean migrating = migrating(c);
            if (!due) {
                due = rekeyDue(c);
                CacheProbe.check(!due
                        || migrating && !keyed && j == CROWD + 1,
                        "due after 8 others, during the growth");
            } else if (!ended) {
                CacheProbe.check(!keyed, "no switch during the growth");
                ended = !migrating;
                CacheProbe.check(!ended || rekeyDue(c), "still due");
            } else if (!started) {
                started = keyed && migrating && !rekeyDue(c);
                CacheProbe.check(started,
                        "the switch starts after the growth");
                CacheProbe.checkEquals(1 << 18, tableLength(c),
                        "100,016 nodes: the switch keeps the length");
            }
            if (j % 4_000 == 0) {
                checkShort(c, j + " flood keys");
            }
        }
        CacheProbe.check(keyed(c) && due && ended, "switch finished");
        checkShort(c, "after the switch");
        for (int i = 0; i < n; i++) {
            CacheProbe.checkEquals(i, c.get(i), "Integer " + i);
        }
        // the newest flood keys, put since the bucket was moved, are kept
        for (HashKey k : keys.subList(keys.size() - 10_000, keys.size())) {
            CacheProbe.checkEquals(k, c.get(k), "flood key " + k);
        }
    }

    /**
     * The most bytes one put may allocate, as in GrowthAllocationTest: a
     * few segments of 8192 references, never the many a switch would
     * need at once if it moved crowded buckets whose nodes scatter over
     * the new table before its segments exist.
     */
    static final long LIMIT = 512 * 1024;

    /**
     * 400,000 consecutive Integers (a growth to 2^20 buckets in progress),
     * then 16 buckets of the new table crowded with 16 keys each, every
     * key of another block of 256 hash codes (so that the keyed layout
     * scatters them over the table): the switch, due from the first crowd
     * on, starts when the growth ends. Every put until the switch has
     * ended allocates at most LIMIT bytes.
     */
    static void switchAllocation() {
        AllocationMeter meter = new AllocationMeter();
        Cache<Object, Object> c = Cache.newHardMemoryCache(0);
        int n = 400_000;
        for (int i = 0; i < n; i++) {
            c.put(i, i);
        }
        CacheProbe.check(migrating(c) && tableLength(c) == 1 << 20,
                "a growth to 2^20 buckets in progress");
        int j = 1;
        for (int b = 0; b < 16; b++) {
            for (int k = 0; k < MAX_IDENTITY_BUCKET; k++) {
                HashKey key = spreadTo(b, 20, j++);
                c.put(key, key);
            }
        }
        CacheProbe.check(rekeyDue(c) && !keyed(c), "a switch due");
        long max = 0;
        int at = -1;
        boolean started = false;
        for (int i = n; !started || migrating(c); i++) {
            long before = meter.bytes();
            c.put(i, i);
            long bytes = meter.bytes() - before;
            if (bytes > max) {
                max = bytes;
                at = i;
            }
            started |= keyed(c);
        }
        System.out.println("switch: largest put " + max + " bytes, put of "
                + at);
        CacheProbe.check(max <= LIMIT, "the put of " + at + " allocated "
                + max + " bytes");
        checkShort(c, "after the switch");
    }
}
