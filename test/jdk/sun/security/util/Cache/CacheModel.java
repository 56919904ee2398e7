/*
 * Copyright (c) 2026, the java.base patch set contributors.
 * SPDX-License-Identifier: GPL-2.0-only WITH Classpath-exception-2.0
 */

/*
 * @test
 * @bug 0000000
 * @summary Cache answers random calls as an access-ordered LinkedHashMap does
 * @key randomness
 * @modules java.base/sun.security.util
 * @library /test/lib
 * @build jdk.test.lib.RandomFactory
 * @run main CacheModel
 */

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;

import jdk.test.lib.RandomFactory;
import sun.security.util.Cache;

/*
 * Without a wall-clock lifetime running out, every result of a cache is
 * determined by its calls: this compares them with a model. Timeouts are
 * long, so only entries put without a lifetime expire: once a lifetime is
 * set, they count as expired.
 */
public class CacheModel {

    private static final int KEYS = 24;
    private static final int TIMEOUT = 86_400;

    /** A value or ticket, and whether it was put without a lifetime. */
    private record Value(String v, boolean noLifetime) { }

    /** A cached entry: one value, or a queue of tickets. */
    private record Entry(boolean queue, ArrayDeque<Value> values) { }

    private final Random rnd;
    private final String kind;
    private final boolean queues;
    private final Cache<String, String> cache;
    private final LinkedHashMap<String, Entry> model =
            new LinkedHashMap<>(16, 0.75f, true);
    private int capacity = 8;
    private int timeout;
    private int step;

    private CacheModel(Random rnd, int kind) {
        this.rnd = rnd;
        this.kind = List.of("hard, no lifetime", "hard", "soft", "queues").get(kind);
        this.queues = kind == 3;
        this.timeout = kind == 0 ? 0 : TIMEOUT;
        cache = switch (kind) {
            case 0 -> Cache.newHardMemoryCache(capacity);
            case 1 -> Cache.newHardMemoryCache(capacity, TIMEOUT);
            case 2 -> Cache.newSoftMemoryCache(capacity, TIMEOUT);
            default -> Cache.newSoftMemoryQueue(capacity, TIMEOUT, 3);
        };
    }

    public static void main(String[] args) {
        Random rnd = RandomFactory.getRandom();
        for (int kind = 0; kind < 4; kind++) {
            new CacheModel(rnd, kind).run(20_000);
        }
    }

    private void run(int steps) {
        for (step = 0; step < steps; step++) {
            String k = "k" + rnd.nextInt(KEYS);
            int op = rnd.nextInt(100);
            if (op < 35) {
                String v = k + "@" + step;
                boolean queued = queues && rnd.nextInt(4) > 0;
                cache.put(k, v, queued);
                put(k, new Value(v, timeout == 0), queued);
            } else if (op < 70) {
                check("get " + k, get(k), cache.get(k));
            } else if (op < 80) {
                cache.remove(k);
                model.remove(k);
            } else if (op < 85 && !queues) {
                // pull and accept on a ticket queue hand out its first
                // ticket, expired or not: the JDK calls neither on queues
                check("pull " + k, pull(k), cache.pull(k));
            } else if (op < 90) {
                expunge();
                check("size", model.size(), cache.size());
            } else if (op < 93 && !queues) {
                Map<String, String> seen = new HashMap<>();
                cache.accept(seen::putAll);
                expunge();
                Map<String, String> expected = new HashMap<>();
                model.forEach((key, e) ->
                        expected.put(key, e.values().peek().v()));
                check("accept", expected, seen);
            } else if (op < 96) {
                capacity = rnd.nextInt(12) - 1;
                cache.setCapacity(capacity);
                expunge();
                evict(capacity);
            } else if (op < 99) {
                // a ticket queue does not go without a lifetime: a full
                // queue drops its oldest ticket, expired or not, where a
                // walk of the whole cache used to drop some expired ones
                int[] timeouts = {3_600, TIMEOUT, 0};
                int next = timeouts[rnd.nextInt(queues ? 2 : 3)];
                if (next == 0) {
                    // expired entries not yet removed are valid again
                    // without a lifetime; which those are depends on when
                    // the cache last removed them: remove them all first
                    cache.size();
                    expunge();
                }
                timeout = next;
                cache.setTimeout(timeout);
            } else {
                cache.clear();
                model.clear();
            }
        }
        System.out.println(kind + ": " + step + " calls agree");
    }

    private void put(String k, Value v, boolean queued) {
        Entry e = model.get(k);
        if (queued && e != null && e.queue()) {
            if (e.values().size() >= 3) {
                e.values().poll();
            }
            e.values().add(v);
        } else {
            e = new Entry(queued, new ArrayDeque<>());
            e.values().add(v);
            model.put(k, e);
        }
        if (capacity > 0 && model.size() > capacity) {
            expunge();
            evict(capacity);
        }
    }

    // An entry's lifetime is that of its newest value
    private String get(String k) {
        Entry e = model.get(k);
        if (e == null) {
            return null;
        }
        ArrayDeque<Value> q = e.values();
        if (expired(q.peekLast())) {
            model.remove(k);
            return null;
        }
        if (!e.queue()) {
            return q.peek().v();
        }
        Value v;
        do {
            v = q.poll();
        } while (expired(v));
        if (q.isEmpty()) {
            model.remove(k);
        }
        return v.v();
    }

    private String pull(String k) {
        Entry e = model.remove(k);
        return e == null || expired(e.values().peek())
                ? null : e.values().peek().v();
    }

    private boolean expired(Value v) {
        return timeout > 0 && v.noLifetime();
    }

    private void expunge() {
        if (timeout > 0) {
            model.values().removeIf(e -> expired(e.values().peekLast()));
        }
    }

    private void evict(int max) {
        Iterator<Entry> it = model.values().iterator();
        for (int n = model.size() - max; max > 0 && n > 0; n--) {
            it.next();
            it.remove();
        }
    }

    private void check(String call, Object expected, Object actual) {
        if (!Objects.equals(expected, actual)) {
            throw new RuntimeException("call " + step + ", " + call
                    + ": expected " + expected + ", got " + actual);
        }
    }
}
