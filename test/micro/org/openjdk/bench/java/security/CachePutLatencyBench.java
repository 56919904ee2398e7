/*
 * Copyright (c) 2026, the java.base patch set contributors.
 * SPDX-License-Identifier: GPL-2.0-only WITH Classpath-exception-2.0
 */

package org.openjdk.bench.java.security;

import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.concurrent.TimeUnit;

import sun.security.util.Cache;

/**
 * The latency distribution of {@code Cache.put}: on a full cache whose
 * entries expire continuously, and while a cache fills up and its table
 * grows. What matters is the tail: a put that does work proportional to
 * the size of the cache stalls its caller (a TLS handshake) once in a
 * while, which an average hides.
 *
 * <p>Puts arrive at a steady rate, paced outside the measured time, so
 * that every implementation sees the same load whatever a put costs;
 * after a stall the pacing catches up. The Epsilon collector, with a heap
 * touched up front, keeps GC pauses and first-touch page faults out of
 * the distribution. The sample mode times every put only while there are
 * fewer than about 20 per millisecond, and a random subset beyond that:
 * a stall rarer than the sampling can be missing from the maximum.
 * The {@code *Counted} benchmarks count every slow put instead: in wall
 * time, and in the putting thread's CPU time (bounded by the wall time),
 * which leaves out what the machine does meanwhile (preemption, compiler
 * threads), beside the same counts for a control that does no put.
 */
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 8, time = 1)
@Fork(value = 1, jvmArgsAppend = {
        "--add-exports", "java.base/sun.security.util=ALL-UNNAMED",
        "-XX:+UnlockExperimentalVMOptions", "-XX:+UseEpsilonGC",
        "-Xms4g", "-Xmx4g", "-XX:+AlwaysPreTouch"})
public class CachePutLatencyBench {

    /**
     * Puts per second at most: well within what one thread sustains at
     * every size, and a bound on what a trial allocates.
     */
    static final int MAX_RATE = 1_000_000;

    /**
     * A pacer of puts: {@link #await} returns at the next arrival time,
     * or at once when behind schedule, so that the average rate holds.
     */
    static final class Pacer {
        private final long intervalNanos;
        private long next;

        Pacer(double perSecond) {
            intervalNanos = Math.max(1,
                    Math.round(TimeUnit.SECONDS.toNanos(1) / perSecond));
            next = System.nanoTime();
        }

        void await() {
            long due = next;
            while (System.nanoTime() - due < 0) {
                Thread.onSpinWait();
            }
            next = due + intervalNanos;
        }
    }

    /**
     * A full cache whose entries expire continuously: fresh keys arrive
     * at a rate such that three quarters of the capacity is live at any
     * time, so the cache keeps reaching its capacity with expired entries
     * in it. The timeout is one second, or, where that rate would exceed
     * {@link #MAX_RATE}, the whole number of seconds that keeps the rate
     * below it.
     */
    @State(Scope.Thread)
    public static class Expiring {
        /** Share of the capacity that is live in the steady state. */
        static final double LIVE_SHARE = 0.75;

        /** Capacity of the cache. */
        @Param({"20480", "204800", "5120000"})
        int size;

        Cache<Integer, Integer> cache;
        Integer[] keys;
        int index;
        Pacer pacer;

        /**
         * Fills the cache, then puts at the steady rate until every entry
         * of the fill has expired: the trial starts in the steady state,
         * entries of every age up to the timeout in the cache.
         */
        @Setup(Level.Trial)
        public void setup() {
            int timeout = (int) Math.ceil(LIVE_SHARE * size / MAX_RATE);
            double rate = LIVE_SHARE * size / timeout;
            // Twice the capacity in distinct keys: a key comes back long
            // after the cache has dropped it.
            keys = CacheExpiryBench.keys(2 * size);
            cache = Cache.newSoftMemoryCache(size, timeout);
            for (index = 0; index < size; index++) {
                cache.put(keys[index], keys[index]);
            }
            long steady = System.nanoTime()
                    + TimeUnit.SECONDS.toNanos(timeout)
                    + TimeUnit.MILLISECONDS.toNanos(100);
            pacer = new Pacer(rate);
            while (System.nanoTime() - steady < 0) {
                pace();
                put();
            }
        }

        /** Waits for the next put's arrival, outside the measured time. */
        @Setup(Level.Invocation)
        public void pace() {
            pacer.await();
        }

        Integer nextKey() {
            Integer key = keys[index];
            index = (index + 1 == keys.length) ? 0 : index + 1;
            return key;
        }

        void put() {
            Integer key = nextKey();
            cache.put(key, key);
        }
    }

    /**
     * One put of a fresh key into a full cache whose entries expire
     * continuously.
     *
     * @param state the cache
     */
    @Benchmark
    public void expiring(Expiring state) {
        state.put();
    }

    /**
     * The control for {@link #expiring}: the same state and pacing, no
     * put. Its tail is that of the harness, the JVM and the machine at
     * the time; a put whose tail is no worse cannot be told from doing
     * nothing.
     *
     * @param state the cache, untouched
     * @return the next key, so that fetching it is not optimised away
     */
    @Benchmark
    public Integer expiringControl(Expiring state) {
        return state.nextKey();
    }

    /**
     * A cache filling up from empty to its capacity with fresh keys, so
     * that every growth of its table is among the measured puts; a full
     * cache is replaced by an empty one outside the measured time.
     */
    @State(Scope.Thread)
    public static class Filling {
        /** A day: no entry expires while a cache fills. */
        static final int TIMEOUT = 86400;

        /** Capacity of the cache: a fill ends there. */
        @Param({"20480", "204800", "5120000"})
        int size;

        Cache<Integer, Integer> cache;
        Integer[] keys;
        int index;
        Pacer pacer;

        /** Makes the keys; the first invocation makes the cache. */
        @Setup(Level.Trial)
        public void setup() {
            keys = CacheExpiryBench.keys(size);
            index = size;
            pacer = new Pacer(MAX_RATE);
        }

        /**
         * Starts a new empty cache when the last one is full, and waits
         * for the next put's arrival, outside the measured time.
         */
        @Setup(Level.Invocation)
        public void next() {
            if (index == size) {
                cache = Cache.newSoftMemoryCache(size, TIMEOUT);
                index = 0;
            }
            pacer.await();
        }
    }

    /**
     * One put while a cache fills and its table grows.
     *
     * @param state the cache being filled
     */
    @Benchmark
    public void filling(Filling state) {
        Integer key = state.keys[state.index++];
        state.cache.put(key, key);
    }

    /**
     * Counts, over a measurement, the operations slower than the limits:
     * in wall time, and in the thread's CPU time bounded by wall time.
     * JMH sums each counter over the iterations.
     */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.EVENTS)
    public static class SlowOps {
        /** Wall time above which an operation counts as slow. */
        static final long WALL_LIMIT_NANOS = 100_000;
        /** CPU (and wall) time above which an operation counts as slow. */
        static final long CPU_LIMIT_NANOS = 200_000;

        private static final ThreadMXBean THREADS =
                ManagementFactory.getThreadMXBean();

        /** Operations that took more than 100 us of wall time. */
        public long over100usWall;
        /**
         * Operations that took more than 200 us of the thread's CPU time
         * and more than 200 us of wall time. The CPU time read around an
         * operation may jump by more than the wall time that passed (on a
         * virtual machine the thread's clock was seen to jump by a
         * millisecond in a microsecond), which no work of a single
         * thread can do: the smaller of the two bounds the work.
         */
        public long over200usCpu;

        long wallStart;
        long cpuStart;

        /** Starts to time one operation. */
        void start() {
            cpuStart = THREADS.getCurrentThreadCpuTime();
            wallStart = System.nanoTime();
        }

        /** Counts the operation started last, if it was slow. */
        void stop() {
            long wall = System.nanoTime() - wallStart;
            long cpu = THREADS.getCurrentThreadCpuTime() - cpuStart;
            if (wall > WALL_LIMIT_NANOS) {
                over100usWall++;
            }
            if (Math.min(cpu, wall) > CPU_LIMIT_NANOS) {
                over200usCpu++;
            }
        }

        /** Each iteration counts anew. */
        @Setup(Level.Iteration)
        public void reset() {
            over100usWall = 0;
            over200usCpu = 0;
        }
    }

    /**
     * {@link #expiring}, every put timed and the slow ones counted.
     *
     * @param state the cache
     * @param slow the counters
     */
    @Benchmark
    @BenchmarkMode(Mode.Throughput)
    @OutputTimeUnit(TimeUnit.SECONDS)
    public void expiringCounted(Expiring state, SlowOps slow) {
        slow.start();
        state.put();
        slow.stop();
    }

    /**
     * The control for {@link #expiringCounted}: the same timing and
     * counting, no put.
     *
     * @param state the cache, untouched
     * @param slow the counters
     * @return the next key, so that fetching it is not optimised away
     */
    @Benchmark
    @BenchmarkMode(Mode.Throughput)
    @OutputTimeUnit(TimeUnit.SECONDS)
    public Integer expiringControlCounted(Expiring state, SlowOps slow) {
        slow.start();
        Integer key = state.nextKey();
        slow.stop();
        return key;
    }

    /**
     * {@link #filling}, every put timed and the slow ones counted.
     *
     * @param state the cache being filled
     * @param slow the counters
     */
    @Benchmark
    @BenchmarkMode(Mode.Throughput)
    @OutputTimeUnit(TimeUnit.SECONDS)
    public void fillingCounted(Filling state, SlowOps slow) {
        Integer key = state.keys[state.index++];
        slow.start();
        state.cache.put(key, key);
        slow.stop();
    }
}
