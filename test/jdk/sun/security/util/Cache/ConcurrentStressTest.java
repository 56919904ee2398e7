/*
 * Copyright (c) 2026, the java.base patch set contributors.
 * SPDX-License-Identifier: GPL-2.0-only WITH Classpath-exception-2.0
 */

/*
 * @test
 * @key randomness
 * @summary Threads using one cache at once: no exception, no deadlock, the
 *          capacity never exceeded as size() sees it, no live entry lost and
 *          no wrong value returned
 * @modules java.base/sun.security.util:+open
 * @run main/othervm/timeout=300 ConcurrentStressTest
 */

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import sun.security.util.Cache;

public class ConcurrentStressTest {

    static final int THREADS = 4;
    static final int KEYS_PER_THREAD = 500;
    static final int OPS = 200_000;

    public static void main(String[] args) throws Exception {
        for (boolean soft : new boolean[] {false, true}) {
            noLostEntries(soft);
            boundedAndExpiring(soft);
        }
        System.out.println("passed");
    }

    /**
     * Unbounded, no expiry: every thread owns its keys and keeps a model of
     * them; what it reads must match the model, and at the end the cache
     * holds exactly the union of the models.
     */
    static void noLostEntries(boolean soft) throws Exception {
        Cache<Integer, String> c = CacheProbe.newCache(soft, 0, 0, 0, null);
        List<Map<Integer, String>> models = run(t -> {
            Random r = new Random(42 + t);
            Map<Integer, String> model = new HashMap<>();
            for (int i = 0; i < OPS; i++) {
                int k = t * KEYS_PER_THREAD + r.nextInt(KEYS_PER_THREAD);
                switch (r.nextInt(6)) {
                    case 0, 1 -> {
                        String v = k + "#" + i;
                        c.put(k, v);
                        model.put(k, v);
                    }
                    case 2 -> {
                        c.remove(k);
                        model.remove(k);
                    }
                    case 3 -> CacheProbe.checkEquals(model.remove(k),
                            c.pull(k), "pull " + k);
                    case 4 -> CacheProbe.check(c.size() >= 0, "size");
                    default -> CacheProbe.checkEquals(model.get(k), c.get(k),
                            "get " + k);
                }
            }
            return model;
        });
        Map<Integer, String> all = new HashMap<>();
        models.forEach(all::putAll);
        CacheProbe.checkEquals(all, CacheProbe.entries(c), "final contents");
        CacheProbe.checkEquals(all.size(), c.size(), "final size");
    }

    /**
     * Small capacity and a clock that every operation advances, so entries
     * are evicted and expire all the time while setCapacity and setTimeout
     * change underneath.
     */
    static void boundedAndExpiring(boolean soft) throws Exception {
        final int cap = 64;
        AtomicLong time = new AtomicLong();
        Cache<Integer, String> c = CacheProbe.newCache(soft, cap, 1, 0,
                () -> time.addAndGet(100_000));     // 0.1 ms per read
        run(t -> {
            Random r = new Random(7 + t);
            for (int i = 0; i < OPS; i++) {
                int k = r.nextInt(4 * cap);
                switch (r.nextInt(10)) {
                    case 0, 1, 2, 3 -> c.put(k, "v" + k);
                    case 4 -> c.remove(k);
                    case 5 -> {
                        int size = c.size();
                        CacheProbe.check(size <= cap && size >= 0,
                                "size " + size + " within " + cap);
                    }
                    case 6 -> CacheProbe.check(CacheProbe.entries(c).size()
                            <= cap, "visited within capacity");
                    case 7 -> {
                        if (i % 1000 == 0) {
                            c.setTimeout(1 + r.nextInt(3));
                        }
                        String v = c.pull(k);
                        CacheProbe.check(v == null || v.equals("v" + k),
                                "pulled value of " + k + ": " + v);
                    }
                    default -> {
                        String v = c.get(k);
                        CacheProbe.check(v == null || v.equals("v" + k),
                                "value of " + k + ": " + v);
                    }
                }
            }
            return null;
        });
        c.setCapacity(cap);
        CacheProbe.check(c.size() <= cap, "capacity at the end");
    }

    interface Body<T> {
        T run(int thread) throws Exception;
    }

    static <T> List<T> run(Body<T> body) throws Exception {
        ExecutorService ex = Executors.newFixedThreadPool(THREADS);
        try {
            CyclicBarrier start = new CyclicBarrier(THREADS);
            List<Future<T>> fs = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                int id = t;
                Callable<T> task = () -> {
                    start.await();
                    return body.run(id);
                };
                fs.add(ex.submit(task));
            }
            List<T> results = new ArrayList<>();
            for (Future<T> f : fs) {
                // a deadlock shows as a timeout here, well before jtreg's
                results.add(f.get(200, TimeUnit.SECONDS));
            }
            return results;
        } finally {
            ex.shutdownNow();
        }
    }
}
