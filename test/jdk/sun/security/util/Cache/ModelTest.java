/*
 * Copyright (c) 2026, the java.base patch set contributors.
 * SPDX-License-Identifier: GPL-2.0-only WITH Classpath-exception-2.0
 */

/*
 * @test
 * @key randomness
 * @summary Random sequences of every public operation (put, queued put,
 *          get, pull, remove, clear, size, accept, setTimeout, setCapacity)
 *          on an injected clock, checked step by step against a simple
 *          reference model, with fixed seeds; keys share hash codes and
 *          the table grows and shrinks
 * @modules java.base/sun.security.util:+open
 * @run main ModelTest
 */

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import sun.security.util.Cache;

public class ModelTest {

    static final long SECOND = CacheProbe.SECOND;
    static final int OPS = 6000;

    /** A key of no known order whose hashCode collides with KEYS' strings. */
    record Odd(int id) {
        @Override
        public int hashCode() {
            return "AaAaAaAa".hashCode();
        }
    }

    static final List<Object> KEYS = new ArrayList<>();
    static {
        // 8 keys with one hash code (6 Strings, 2 Odd): as many as a
        // cache must keep of one hash code, so the model needs no limit
        for (int i = 0; i < 6; i++) {
            StringBuilder sb = new StringBuilder();
            for (int j = 0; j < 4; j++) {
                sb.append((i >>> j & 1) != 0 ? "BB" : "Aa");
            }
            KEYS.add(sb.toString());
        }
        for (int i = 0; i < 2; i++) {
            KEYS.add(new Odd(i));
        }
        for (int i = 0; i < 24; i++) {
            KEYS.add("k" + i);
        }
        KEYS.add(null);
    }

    // ---- the model: everything eager, nothing bounded

    static final class Ticket {
        final String value;
        long time;

        Ticket(String value, long time) {
            this.value = value;
            this.time = time;
        }
    }

    static final class Entry {
        String value;
        ArrayDeque<Ticket> tickets;     // null unless a queued key
        long time;
    }

    static final class Model {
        final boolean soft;
        final int maxQueueSize;
        final LinkedHashMap<Object, Entry> map = new LinkedHashMap<>();
        int maxSize;
        long lifetime;
        long now;

        Model(boolean soft, int size, int timeout, int maxQueueSize,
                long now) {
            this.soft = soft;
            this.maxSize = Math.max(size, 0);
            this.lifetime = timeout > 0 ? timeout * SECOND : 0;
            this.maxQueueSize = maxQueueSize;
            this.now = now;
        }

        boolean expired(long time) {
            return lifetime > 0 && now - time >= lifetime;
        }

        /** Drops the expired entries: none of them is observable again. */
        void purge() {
            map.values().removeIf(e -> expired(e.time));
        }

        void evict() {
            Iterator<Entry> it = map.values().iterator();
            while (maxSize > 0 && map.size() > maxSize) {
                it.next();
                it.remove();
            }
        }

        void put(Object k, String v, boolean canQueue) {
            purge();
            Entry old = map.remove(k);
            if (v == null && soft) {
                return;
            }
            if (canQueue && maxQueueSize > 0) {
                if (old != null && old.tickets != null) {
                    if (old.tickets.size() >= maxQueueSize) {
                        old.tickets.removeFirst();
                    }
                    old.tickets.addLast(new Ticket(v, now));
                    old.time = now;
                    map.put(k, old);
                    return;
                }
                Entry e = new Entry();
                e.tickets = new ArrayDeque<>();
                e.tickets.add(new Ticket(v, now));
                e.time = now;
                map.put(k, e);
            } else {
                Entry e = new Entry();
                e.value = v;
                e.time = now;
                map.put(k, e);
            }
            evict();
        }

        String take(Object k, Entry e) {
            while (!e.tickets.isEmpty()) {
                Ticket t = e.tickets.removeFirst();
                if (!expired(t.time)) {
                    return t.value;
                }
            }
            return null;
        }

        String get(Object k) {
            purge();
            Entry e = map.get(k);
            if (e == null) {
                return null;
            }
            if (e.tickets == null) {
                return e.value;
            }
            String v = take(k, e);
            if (e.tickets.isEmpty()) {
                map.remove(k);
            }
            return v;
        }

        String pull(Object k) {
            purge();
            Entry e = map.remove(k);
            if (e == null) {
                return null;
            }
            return e.tickets == null ? e.value : take(k, e);
        }

        void remove(Object k) {
            map.remove(k);
        }

        void clear() {
            map.clear();
        }

        int size() {
            purge();
            return map.size();
        }

        Map<Object, String> snapshot() {
            purge();
            Map<Object, String> m = new HashMap<>();
            for (Map.Entry<Object, Entry> me : map.entrySet()) {
                Entry e = me.getValue();
                if (e.tickets == null) {
                    m.put(me.getKey(), e.value);
                } else {
                    for (Ticket t : e.tickets) {
                        if (!expired(t.time)) {
                            m.put(me.getKey(), t.value);
                            break;
                        }
                    }
                }
            }
            return m;
        }

        void setCapacity(int size) {
            purge();
            maxSize = Math.max(size, 0);
            evict();
        }

        void setTimeout(int timeout) {
            long next = timeout > 0 ? timeout * SECOND : 0;
            if (lifetime > 0) {
                // what has expired stays expired: entries and tickets
                purge();
                for (Entry e : map.values()) {
                    if (e.tickets != null) {
                        e.tickets.removeIf(t -> expired(t.time));
                    }
                }
                map.values().removeIf(e -> e.tickets != null
                        && e.tickets.isEmpty());
            } else if (next > 0) {
                // nothing aged without a lifetime: all count as put now
                for (Entry e : map.values()) {
                    e.time = now;
                    if (e.tickets != null) {
                        for (Ticket t : e.tickets) {
                            t.time = now;
                        }
                    }
                }
            }
            lifetime = next;
        }
    }

    // ---- the run

    public static void main(String[] args) {
        long seed0 = 20261123L;
        int runs = 0;
        for (boolean soft : new boolean[] {false, true}) {
            for (int q : new int[] {0, 1, 3}) {
                for (int size : new int[] {0, 6, 30}) {
                    for (long start : new long[] {0, Long.MAX_VALUE - 20 * SECOND}) {
                        long seed = seed0 + runs++;
                        run(seed, soft, q, size, start);
                    }
                }
            }
        }
        System.out.println("passed: " + runs + " runs of " + OPS + " operations");
    }

    static void run(long seed, boolean soft, int q, int size, long start) {
        Random rnd = new Random(seed);
        int timeout = rnd.nextInt(3) * 2;           // 0, 2 or 4 s
        CacheProbe.ManualClock clock = new CacheProbe.ManualClock(start);
        Cache<Object, String> c = CacheProbe.newCache(soft, size, timeout, q,
                clock);
        Model m = new Model(soft, size, timeout, q, start);
        List<String> trace = new ArrayList<>();
        int values = 0;
        try {
            for (int op = 0; op < OPS; op++) {
                Object k = KEYS.get(rnd.nextInt(KEYS.size()));
                int r = rnd.nextInt(100);
                String what;
                if (r < 30) {
                    String v = rnd.nextInt(20) == 0 ? null : "v" + values++;
                    what = "put(" + k + ", " + v + ")";
                    c.put(k, v);
                    m.put(k, v, false);
                } else if (r < 42) {
                    String v = "t" + values++;
                    what = "put(" + k + ", " + v + ", true)";
                    c.put(k, v, true);
                    m.put(k, v, true);
                } else if (r < 60) {
                    what = "get(" + k + ")";
                    same(m.get(k), c.get(k), what);
                } else if (r < 66) {
                    what = "pull(" + k + ")";
                    same(m.pull(k), c.pull(k), what);
                } else if (r < 72) {
                    what = "remove(" + k + ")";
                    c.remove(k);
                    m.remove(k);
                } else if (r < 84) {
                    long d = rnd.nextInt(4) == 0 ? rnd.nextInt(6) * SECOND
                            : rnd.nextInt(1000) * 1_000_000L;
                    what = "advance " + d;
                    clock.advance(d);
                    m.now += d;
                } else if (r < 88) {
                    int t = rnd.nextInt(5) - 1;         // -1 .. 3 s
                    what = "setTimeout(" + t + ")";
                    c.setTimeout(t);
                    m.setTimeout(t);
                } else if (r < 91) {
                    int s = rnd.nextInt(12) - 1;
                    what = "setCapacity(" + s + ")";
                    c.setCapacity(s);
                    m.setCapacity(s);
                } else if (r < 95) {
                    what = "accept";
                    same(m.snapshot(), CacheProbe.entries(c), what);
                } else if (r < 99) {
                    what = "size";
                    same(m.size(), c.size(), what);
                } else {
                    what = "clear";
                    c.clear();
                    m.clear();
                }
                trace.add(what);
                if (trace.size() > 30) {
                    trace.remove(0);
                }
            }
            same(m.snapshot(), CacheProbe.entries(c), "final accept");
            same(m.size(), c.size(), "final size");
        } catch (AssertionError e) {
            throw new AssertionError("seed " + seed + " soft " + soft + " q " + q
                    + " size " + size + " start " + start + " timeout " + timeout
                    + "; last operations: " + trace, e);
        }
    }

    static void same(Object expected, Object actual, String what) {
        CacheProbe.checkEquals(expected, actual, what);
    }
}
