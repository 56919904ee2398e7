/*
 * Copyright (c) 2026, the java.base patch set contributors.
 * SPDX-License-Identifier: GPL-2.0-only WITH Classpath-exception-2.0
 */

package org.openjdk.bench.java.security;

import org.openjdk.jmh.annotations.*;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.lang.reflect.Field;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

import sun.security.util.Cache;

/**
 * {@code Cache.put} into a full cache whose entries expire continuously:
 * fresh keys at a steady rate, three quarters of the capacity live. The
 * control, {@code expiring=false}: a cache whose entries do not expire.
 * Epsilon and a pre-touched heap keep GC and page faults out.
 */
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 8, time = 1)
@Fork(value = 1, jvmArgsAppend = {
        "--add-exports", "java.base/sun.security.util=ALL-UNNAMED",
        "--add-opens", "java.base/sun.security.util=ALL-UNNAMED",
        "-XX:+UnlockExperimentalVMOptions", "-XX:+UseEpsilonGC",
        "-Xms3g", "-Xmx3g", "-XX:+AlwaysPreTouch"})
@State(Scope.Thread)
@AuxCounters(AuxCounters.Type.EVENTS)
public class CachePutLatencyBench {

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    @Param({"204800", "5120000"})
    int size;

    @Param({"true", "false"})
    boolean expiring;

    public long slowPuts; // over 200 us of wall and of the thread's CPU time

    Cache<Integer, Integer> cache;
    Integer[] keys;
    int next;
    long interval, due, wallStart, cpuStart;

    /** Fills the cache, then puts until every entry of the fill has expired. */
    @Setup(Level.Trial)
    public void setup() {
        // The shortest timeout that keeps the rate at 500,000 puts/s or below.
        int timeout = (int) Math.ceil(0.75 * size / 500_000);
        interval = (long) (timeout * 1e9 / (0.75 * size));
        cache = Cache.newSoftMemoryCache(size, expiring ? timeout : 86400);
        keys = IntStream.range(0, 2 * size).boxed().toArray(Integer[]::new);
        while (next < size) {
            put();
        }
        due = System.nanoTime();
        long steady = due + timeout * 1_000_000_000L + 100_000_000L;
        while (System.nanoTime() - steady < 0) {
            start();
            put();
        }
    }

    @Setup(Level.Invocation)
    public void start() {
        while (System.nanoTime() - due < 0) {
            Thread.onSpinWait();
        }
        due += interval;
        cpuStart = THREADS.getCurrentThreadCpuTime();
        wallStart = System.nanoTime();
    }

    @TearDown(Level.Invocation)
    public void stop() {
        if (System.nanoTime() - wallStart > 200_000
                && THREADS.getCurrentThreadCpuTime() - cpuStart > 200_000) {
            slowPuts++;
        }
    }

    /**
     * Prints how many expired entries the cache holds: its map's size less
     * the entries put within the last timeout, three quarters of the
     * capacity (read through reflection: size() would remove them).
     */
    @TearDown(Level.Iteration)
    public void held() throws ReflectiveOperationException {
        Field f = cache.getClass().getDeclaredField("cacheMap");
        f.setAccessible(true);
        int mapSize = ((Map<?, ?>) f.get(cache)).size();
        System.out.println("expired entries held: "
                + (expiring ? mapSize - Math.round(0.75 * size) : 0));
    }

    @Benchmark
    public void put() {
        Integer key = keys[next];
        next = next + 1 == keys.length ? 0 : next + 1;
        cache.put(key, key);
    }
}
