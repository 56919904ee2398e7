/*
 * Copyright (c) 2026, the java.base patch set contributors.
 * SPDX-License-Identifier: GPL-2.0-only WITH Classpath-exception-2.0
 */

package org.openjdk.bench.java.security;

import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.infra.ThreadParams;
import org.openjdk.jmh.runner.IterationType;

import sun.security.util.Cache;

/**
 * Benchmarks of {@code sun.security.util.Cache} as the JDK's security code
 * uses it: a soft-value memory cache of bounded size with an optional
 * timeout. The same jar runs on the stock JDK and on the patched image, so
 * everything here only uses the public API of the cache and wall-clock
 * time; nothing depends on how a given implementation keeps time.
 *
 * <p>Groups of benchmarks:
 * <ul>
 * <li>{@code put}, {@code get}, {@code remove}: average time on a cache
 *     pre-filled to its capacity, with the upstream parameters;</li>
 * <li>{@code putContended}, {@code getContended}: the same with two
 *     threads sharing one cache (the machine has two cores);</li>
 * <li>{@code getExpired}, {@code removeExpired}: average time of one
 *     operation on a cache where a given fraction of the entries is
 *     expired, every operation seeing its key in that state. Each
 *     measured pass is short, so they run without a garbage collector
 *     (they allocate next to nothing; a collection of the set-up garbage
 *     would land in one pass), and the report shows the median pass;</li>
 * <li>{@code putExpiring}: sample time (latency distribution) of
 *     {@code put} on a full cache whose entries expire continuously, run
 *     without a garbage collector so the tail shows the cache, not GC
 *     pauses; {@code putExpiringBaseline} is the same without the put,
 *     the noise floor of the machine.</li>
 * <li>{@code putFill}: sample time of {@code put} while a cache fills
 *     from empty to its capacity (the growth phase: every doubling of the
 *     hash table happens inside the measurement), without a garbage
 *     collector; a filled cache is replaced by a new empty one outside
 *     the measured time. It prints the same all-operation tail counters
 *     as {@code putExpiring}.</li>
 * </ul>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = {
        "--add-exports", "java.base/sun.security.util=ALL-UNNAMED",
        "-Xms4g", "-Xmx4g"})
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class CacheBench {

    /** Creates the benchmark; JMH does that. */
    public CacheBench() {
    }

    /**
     * Boxed keys {@code 0..n-1}, made once so that boxing is never part
     * of a measurement.
     */
    static Integer[] keys(int n) {
        Integer[] keys = new Integer[n];
        for (int i = 0; i < n; i++) {
            keys[i] = i;
        }
        return keys;
    }

    /**
     * One cache shared by all threads of a trial, filled to its capacity
     * with keys {@code 0..size-1}.
     */
    @State(Scope.Benchmark)
    public static class SharedState {
        /** Capacity of the cache, and number of entries put in setup. */
        @Param({"20480", "204800", "5120000"})
        public int size;

        /** Timeout of the cache in seconds; 0 means entries never expire. */
        @Param({"86400", "0"})
        public int timeout;

        Cache<Integer, Integer> cache;
        Integer[] keys;

        /** Creates the state; JMH does that. */
        public SharedState() {
        }

        /** Builds the cache and fills it. */
        @Setup(Level.Trial)
        public void setup() {
            // one key more than the capacity: put then always inserts a
            // new key and evicts one, and get misses once per round
            keys = keys(size + 1);
            cache = Cache.newSoftMemoryCache(size, timeout);
            for (int i = 0; i < size; i++) {
                cache.put(keys[i], keys[i]);
            }
        }
    }

    /**
     * Per-thread position in the key sequence. Threads start half a round
     * apart so that two threads do not work on the same keys in lockstep.
     */
    @State(Scope.Thread)
    public static class Cursor {
        int index;
        int length;

        /** Creates the state; JMH does that. */
        public Cursor() {
        }

        /**
         * Places this thread in the key sequence.
         *
         * @param shared the cache and its keys
         * @param thread which thread this is
         */
        @Setup(Level.Trial)
        public void setup(SharedState shared, ThreadParams thread) {
            length = shared.keys.length;
            index = (int) ((long) length * thread.getThreadIndex()
                    / thread.getThreadCount());
        }

        int next() {
            int i = index;
            index = (i + 1 == length) ? 0 : i + 1;
            return i;
        }
    }

    /**
     * Inserts the key following the last one inserted; the cache is full,
     * so every put also evicts the eldest entry.
     *
     * @param shared the cache
     * @param cursor this thread's position
     */
    @Benchmark
    public void put(SharedState shared, Cursor cursor) {
        Integer key = shared.keys[cursor.next()];
        shared.cache.put(key, key);
    }

    /**
     * Looks up the keys in turn; all but one in {@code size + 1} are hits.
     *
     * @param shared the cache
     * @param cursor this thread's position
     * @return the value found, so that the lookup is not optimised away
     */
    @Benchmark
    public Integer get(SharedState shared, Cursor cursor) {
        return shared.cache.get(shared.keys[cursor.next()]);
    }

    /**
     * {@link #put} with two threads on one cache.
     *
     * @param shared the cache
     * @param cursor this thread's position
     */
    @Benchmark
    @Threads(2)
    public void putContended(SharedState shared, Cursor cursor) {
        Integer key = shared.keys[cursor.next()];
        shared.cache.put(key, key);
    }

    /**
     * {@link #get} with two threads on one cache.
     *
     * @param shared the cache
     * @param cursor this thread's position
     * @return the value found
     */
    @Benchmark
    @Threads(2)
    public Integer getContended(SharedState shared, Cursor cursor) {
        return shared.cache.get(shared.keys[cursor.next()]);
    }

    /**
     * Position for {@link #remove}, which puts the removed entry back
     * after each measured call so the cache stays full. Keys stop short of
     * the spare key so that every remove finds its entry.
     */
    @State(Scope.Thread)
    public static class RemoveCursor {
        SharedState shared;
        int index;

        /** Creates the state; JMH does that. */
        public RemoveCursor() {
        }

        /**
         * Remembers the cache to refill.
         *
         * @param shared the cache
         */
        @Setup(Level.Trial)
        public void setup(SharedState shared) {
            this.shared = shared;
            index = 0;
        }

        /** Puts back the entry just removed, outside the measured time. */
        @TearDown(Level.Invocation)
        public void putBack() {
            Integer key = shared.keys[index];
            shared.cache.put(key, key);
            index = (index + 1 == shared.size) ? 0 : index + 1;
        }
    }

    /**
     * Removes an entry that is present (it is put back outside the
     * measured time).
     *
     * @param shared the cache
     * @param cursor the key to remove
     */
    @Benchmark
    public void remove(SharedState shared, RemoveCursor cursor) {
        shared.cache.remove(shared.keys[cursor.index]);
    }

    /**
     * Operations in one measured pass of {@link #getExpired} and
     * {@link #removeExpired}.
     */
    static final int PASS = 512;

    /**
     * A cache of which a given fraction of the entries is expired, on the
     * stock and on the patched JDK alike.
     *
     * <p>The two implementations keep time differently (stock: absolute
     * expiry in {@code currentTimeMillis}; patched: insertion time in
     * {@code nanoTime} against the cache's current timeout), so the only
     * construction that means the same on both is a real one: the expired
     * entries are put first, then the setup waits until more than the
     * timeout has passed on both clocks, then the live entries are put.
     * The timeout is long enough that the live entries outlive the trial,
     * which the teardown checks; a trial that broke that rule fails
     * instead of reporting a wrong number.
     *
     * <p>The keys form {@code PASS} columns of {@code size / PASS} keys;
     * a column is expired or live as a whole, and the expired columns are
     * spread evenly so that exactly {@code floor(PASS * expired)} of
     * every {@code PASS} consecutive columns are expired. Pass {@code p}
     * visits row {@code p}: one key of every column. Each key is visited
     * once in a trial, so every measured operation finds its key as the
     * setup left it (or as the cache itself changed it since: dropping
     * expired entries early is part of what is measured).
     */
    @State(Scope.Benchmark)
    public static class ExpiredState {
        /** Capacity of the cache, and number of entries put in setup. */
        @Param({"20480", "204800", "5120000"})
        public int size;

        /** Fraction of the entries that are expired when the trial starts. */
        @Param({"0", "0.1", "0.25", "0.33", "0.5"})
        public double expired;

        /**
         * Milliseconds between the last expired and the first live entry,
         * the most a trial may take once the expired entries are expired;
         * half a millisecond per thousand entries is added, for GC at
         * large sizes.
         */
        static final long GAP_MILLIS = 1500;

        Cache<Integer, Integer> cache;
        Integer[] keys;
        int rows;
        int pass;
        int timeoutSeconds;
        long liveSinceMillis;
        long liveSinceNanos;
        long trialStartNanos;

        /** Creates the state; JMH does that. */
        public ExpiredState() {
        }

        static boolean expiredColumn(int column, double fraction) {
            return Math.floor((column + 1) * fraction)
                    > Math.floor(column * fraction);
        }

        /**
         * Builds the cache in the state described above.
         *
         * @param params the trial's settings, to check there are enough
         *        distinct rows for every iteration
         * @throws InterruptedException if the wait is interrupted
         */
        @Setup(Level.Trial)
        public void setup(BenchmarkParams params) throws InterruptedException {
            if (size % PASS != 0 || size < PASS) {
                throw new IllegalArgumentException("size " + size
                        + " is not a positive multiple of " + PASS);
            }
            if (!(expired >= 0 && expired < 1)) {
                throw new IllegalArgumentException("expired " + expired
                        + " is not in [0, 1)");
            }
            rows = size / PASS;
            int passes = params.getWarmup().getCount()
                    * params.getWarmup().getBatchSize()
                    + params.getMeasurement().getCount()
                    * params.getMeasurement().getBatchSize();
            if (passes > rows) {
                throw new IllegalArgumentException(passes
                        + " iterations need more distinct keys than size "
                        + size + " has (" + rows + " rows of " + PASS + ")");
            }
            keys = keys(size);
            warmUpCode();

            pass = 0;
            if (expired == 0) {
                // Nothing has to expire: a timeout that no trial outlives,
                // so the expiry checks run and never fire.
                timeoutSeconds = 86400;
                cache = Cache.newSoftMemoryCache(size, timeoutSeconds);
                liveSinceMillis = System.currentTimeMillis();
                liveSinceNanos = System.nanoTime();
                fill(false);
                return;
            }
            // The live entries must outlive the gap, their own filling and
            // the trial. Filling is estimated from a timed scratch fill,
            // times three for cache misses and GC at full size and for a
            // busy machine; the teardown checks that the estimate held.
            long gapMillis = GAP_MILLIS + size / 2_000;
            long liveFillMillis = 3 * calibrateFillNanos()
                    * (size - expiredCount()) / 1_000_000;
            timeoutSeconds = (int) ((gapMillis + liveFillMillis) / 1000) + 2;
            cache = Cache.newSoftMemoryCache(size, timeoutSeconds);
            fill(true);
            long expiredByMillis = System.currentTimeMillis()
                    + timeoutSeconds * 1000L + 2;
            long expiredByNanos = System.nanoTime()
                    + TimeUnit.SECONDS.toNanos(timeoutSeconds) + 2_000_000;
            // the live entries are this much younger than the expired ones:
            // the time the trial has between the moment the last expired
            // entry is expired and the moment the first live one is
            Thread.sleep(gapMillis);
            liveSinceMillis = System.currentTimeMillis();
            liveSinceNanos = System.nanoTime();
            fill(false);
            while (System.currentTimeMillis() <= expiredByMillis
                    || System.nanoTime() - expiredByNanos <= 0) {
                Thread.sleep(5);
            }
            trialStartNanos = System.nanoTime();
        }

        private int expiredCount() {
            int columns = 0;
            for (int column = 0; column < PASS; column++) {
                if (expiredColumn(column, expired)) {
                    columns++;
                }
            }
            return columns * rows;
        }

        /** Nanoseconds per put when filling a cache like the measured one. */
        private long calibrateFillNanos() {
            int n = Math.min(size, 1 << 19);
            Cache<Integer, Integer> scratch = Cache.newSoftMemoryCache(n, 3600);
            long start = System.nanoTime();
            for (int i = 0; i < n; i++) {
                scratch.put(keys[i], keys[i]);
            }
            return Math.max(1, (System.nanoTime() - start) / n);
        }

        private void fill(boolean expiredColumns) {
            for (int column = 0; column < PASS; column++) {
                if (expiredColumn(column, expired) != expiredColumns) {
                    continue;
                }
                for (int row = 0; row < rows; row++) {
                    Integer key = keys[row * PASS + column];
                    cache.put(key, key);
                }
            }
        }

        /**
         * Compiles the measured loops before the first measured pass: one
         * pass is too short for the JIT to get there on its own. Uses a
         * scratch cache, so the state measured is untouched.
         */
        private void warmUpCode() {
            Cache<Integer, Integer> scratch =
                    Cache.newSoftMemoryCache(PASS * 4, 3600);
            Integer[] scratchKeys = keys(PASS * 4);
            long sink = 0;
            for (int round = 0; round < 200; round++) {
                for (Integer key : scratchKeys) {
                    scratch.put(key, key);
                }
                sink += getPass(scratch, scratchKeys, round & 3, 4);
                removePass(scratch, scratchKeys, round & 3, 4);
            }
            if (sink == 42) {
                System.out.print("");
            }
        }

        /** Checks the live entries were live for the whole trial. */
        @TearDown(Level.Trial)
        public void checkStillLive() {
            long limitMillis = liveSinceMillis + timeoutSeconds * 1000L;
            long limitNanos = liveSinceNanos
                    + TimeUnit.SECONDS.toNanos(timeoutSeconds);
            if (System.currentTimeMillis() >= limitMillis
                    || System.nanoTime() - limitNanos >= 0) {
                throw new IllegalStateException("live entries expired before"
                        + " the trial ended (timeout " + timeoutSeconds
                        + " s, trial " + (System.nanoTime() - trialStartNanos)
                        / 1_000_000 + " ms after the expired entries"
                        + " expired): the machine was slower than estimated");
            }
        }

        int nextRow() {
            return pass++;
        }
    }

    static long getPass(Cache<Integer, Integer> cache, Integer[] keys,
            int row, int width) {
        long hits = 0;
        int base = row * width;
        for (int column = 0; column < width; column++) {
            Integer value = cache.get(keys[base + column]);
            if (value != null) {
                hits++;
            }
        }
        return hits;
    }

    static void removePass(Cache<Integer, Integer> cache, Integer[] keys,
            int row, int width) {
        int base = row * width;
        for (int column = 0; column < width; column++) {
            cache.remove(keys[base + column]);
        }
    }

    /**
     * One lookup of each of {@code PASS} keys spread over the whole cache,
     * a fraction {@code expired} of them expired. Each measured pass uses
     * keys no earlier pass touched.
     *
     * @param state the cache
     * @return the number of hits, so the lookups are not optimised away
     */
    @Benchmark
    @BenchmarkMode(Mode.SingleShotTime)
    @OperationsPerInvocation(PASS)
    @Warmup(iterations = 5, batchSize = 1)
    @Measurement(iterations = 30, batchSize = 1)
    @Fork(value = 1, jvmArgsAppend = {
            "--add-exports", "java.base/sun.security.util=ALL-UNNAMED",
            "-XX:+UnlockExperimentalVMOptions", "-XX:+UseEpsilonGC",
            "-Xms4g", "-Xmx4g"})
    public long getExpired(ExpiredState state) {
        return getPass(state.cache, state.keys, state.nextRow(), PASS);
    }

    /**
     * One removal of each of {@code PASS} keys spread over the whole cache,
     * a fraction {@code expired} of them expired. Each measured pass uses
     * keys no earlier pass touched.
     *
     * @param state the cache
     */
    @Benchmark
    @BenchmarkMode(Mode.SingleShotTime)
    @OperationsPerInvocation(PASS)
    @Warmup(iterations = 5, batchSize = 1)
    @Measurement(iterations = 30, batchSize = 1)
    @Fork(value = 1, jvmArgsAppend = {
            "--add-exports", "java.base/sun.security.util=ALL-UNNAMED",
            "-XX:+UnlockExperimentalVMOptions", "-XX:+UseEpsilonGC",
            "-Xms4g", "-Xmx4g"})
    public void removeExpired(ExpiredState state) {
        removePass(state.cache, state.keys, state.nextRow(), PASS);
    }

    /**
     * A full cache whose entries expire continuously: entries live one
     * second, and puts arrive at a steady rate such that three quarters
     * of the capacity is live at any time. So the cache keeps reaching its
     * capacity with expired entries in it, the regime in which the stock
     * implementation rescans every entry.
     */
    @State(Scope.Thread)
    public static class ExpiringState {
        /** Capacity of the cache. */
        @Param({"20480", "204800", "5120000"})
        public int size;

        /** Share of the capacity that is live in the steady state. */
        static final double LIVE_SHARE = 0.75;

        /** Lifetime of an entry, seconds. */
        static final int TIMEOUT = 1;

        Cache<Integer, Integer> cache;
        Integer[] keys;
        int index;
        long intervalNanos;
        long nextNanos;

        /** Creates the state; JMH does that. */
        public ExpiringState() {
        }

        /** Builds and fills the cache. */
        @Setup(Level.Trial)
        public void setup() {
            // twice the capacity of distinct keys: a put never finds its
            // key still live, as with fresh TLS sessions
            keys = keys(size * 2);
            cache = Cache.newSoftMemoryCache(size, TIMEOUT);
            for (int i = 0; i < size; i++) {
                cache.put(keys[i], keys[i]);
            }
            index = size;
            intervalNanos = Math.round(TimeUnit.SECONDS.toNanos(TIMEOUT)
                    / (LIVE_SHARE * size));
            nextNanos = System.nanoTime();
        }

        /**
         * Holds the arrival rate, outside the measured time. After a
         * stall the schedule catches up, so the average rate (and with it
         * the regime) holds whatever the cache does.
         */
        @Setup(Level.Invocation)
        public void pace() {
            long next = nextNanos;
            long now;
            while ((now = System.nanoTime()) - next < 0) {
                Thread.onSpinWait();
            }
            nextNanos = next + intervalNanos;
            startedNanos = now;
        }

        // JMH samples a subset of the operations once they are many, so a
        // rare stall can be missing from its percentiles; these count every
        // measured operation (time from pace() to done(), which includes
        // JMH's own bookkeeping of some tens of nanoseconds).
        long startedNanos;
        boolean counting;
        long ops;
        long maxNanos;
        long over2us;
        long over100us;
        long over1ms;

        /**
         * Counts only measurement iterations.
         *
         * @param iteration the iteration about to run
         */
        @Setup(Level.Iteration)
        public void startIteration(IterationParams iteration) {
            counting = iteration.getType() == IterationType.MEASUREMENT;
        }

        /** Records the operation just done, outside the measured time. */
        @TearDown(Level.Invocation)
        public void done() {
            if (!counting) {
                return;
            }
            long nanos = System.nanoTime() - startedNanos;
            ops++;
            if (nanos > maxNanos) {
                maxNanos = nanos;
            }
            if (nanos > 2_000) {
                over2us++;
                if (nanos > 100_000) {
                    over100us++;
                    if (nanos > 1_000_000) {
                        over1ms++;
                    }
                }
            }
        }

        /**
         * Prints the counts for the report; see make/scripts.
         *
         * @param params which benchmark ran
         */
        @TearDown(Level.Trial)
        public void report(BenchmarkParams params) {
            String name = params.getBenchmark();
            name = name.substring(name.lastIndexOf('.', name.lastIndexOf('.') - 1) + 1);
            System.out.println("CACHEBENCH-TAIL benchmark=" + name
                    + " param.size=" + size + " ops=" + ops
                    + " max_ns=" + maxNanos + " over_2us=" + over2us
                    + " over_100us=" + over100us + " over_1ms=" + over1ms);
        }

        Integer nextKey() {
            int i = index;
            index = (i + 1 == keys.length) ? 0 : i + 1;
            return keys[i];
        }
    }

    /**
     * Latency of one put on a full cache whose entries expire
     * continuously. Runs on the Epsilon collector (no collection at all,
     * heap touched up front) so that no GC pause is in the distribution.
     *
     * @param state the cache
     */
    @Benchmark
    @BenchmarkMode(Mode.SampleTime)
    @OutputTimeUnit(TimeUnit.NANOSECONDS)
    @Warmup(iterations = 3, time = 1)
    @Measurement(iterations = 8, time = 1)
    @Fork(value = 1, jvmArgsAppend = {
            "--add-exports", "java.base/sun.security.util=ALL-UNNAMED",
            "-XX:+UnlockExperimentalVMOptions", "-XX:+UseEpsilonGC",
            "-Xms10g", "-Xmx10g", "-XX:+AlwaysPreTouch"})
    public void putExpiring(ExpiringState state) {
        Integer key = state.nextKey();
        state.cache.put(key, key);
    }

    /**
     * The control for {@link #putExpiring}: the same pacing, state and
     * measurement without the put, so its tail is the noise floor of the
     * harness, the JVM and the machine at that moment. A put whose tail is
     * no worse than this one's cannot be told from an idle operation here.
     *
     * @param state the cache, left untouched
     * @return the key, so that fetching it is not optimised away
     */
    @Benchmark
    @BenchmarkMode(Mode.SampleTime)
    @OutputTimeUnit(TimeUnit.NANOSECONDS)
    @Warmup(iterations = 3, time = 1)
    @Measurement(iterations = 8, time = 1)
    @Fork(value = 1, jvmArgsAppend = {
            "--add-exports", "java.base/sun.security.util=ALL-UNNAMED",
            "-XX:+UnlockExperimentalVMOptions", "-XX:+UseEpsilonGC",
            "-Xms10g", "-Xmx10g", "-XX:+AlwaysPreTouch"})
    public Integer putExpiringBaseline(ExpiringState state) {
        return state.nextKey();
    }

    /**
     * A cache being filled from empty to its capacity with new keys, so
     * that the puts include every growth of its table. When it is full a
     * new empty cache takes its place, outside the measured time.
     */
    @State(Scope.Thread)
    public static class FillState {
        /** Capacity of the cache: the fill ends there. */
        @Param({"5120000"})
        public int size;

        /** Timeout of the cache in seconds; 0 means entries never expire. */
        @Param({"86400"})
        public int timeout;

        Cache<Integer, Integer> cache;
        Integer[] keys;
        int index;
        int fills;

        long startedNanos;
        boolean counting;
        long ops;
        long maxNanos;
        long over2us;
        long over100us;
        long over1ms;

        /** Creates the state; JMH does that. */
        public FillState() {
        }

        /** Makes the keys. */
        @Setup(Level.Trial)
        public void setup() {
            keys = keys(size);
            index = size;
        }

        /**
         * Counts only measurement iterations.
         *
         * @param iteration the iteration about to run
         */
        @Setup(Level.Iteration)
        public void startIteration(IterationParams iteration) {
            counting = iteration.getType() == IterationType.MEASUREMENT;
        }

        /** Starts a new empty cache when the last one is full. */
        @Setup(Level.Invocation)
        public void begin() {
            if (index == size) {
                cache = Cache.newSoftMemoryCache(size, timeout);
                index = 0;
                fills++;
            }
            startedNanos = System.nanoTime();
        }

        /** Records the operation just done, outside the measured time. */
        @TearDown(Level.Invocation)
        public void done() {
            if (!counting) {
                return;
            }
            long nanos = System.nanoTime() - startedNanos;
            ops++;
            if (nanos > maxNanos) {
                maxNanos = nanos;
            }
            if (nanos > 2_000) {
                over2us++;
                if (nanos > 100_000) {
                    over100us++;
                    if (nanos > 1_000_000) {
                        over1ms++;
                    }
                }
            }
        }

        /**
         * Prints the counts for the report; see make/scripts.
         *
         * @param params which benchmark ran
         */
        @TearDown(Level.Trial)
        public void report(BenchmarkParams params) {
            String name = params.getBenchmark();
            name = name.substring(name.lastIndexOf('.', name.lastIndexOf('.') - 1) + 1);
            System.out.println("CACHEBENCH-TAIL benchmark=" + name
                    + " param.size=" + size + " ops=" + ops
                    + " max_ns=" + maxNanos + " over_2us=" + over2us
                    + " over_100us=" + over100us + " over_1ms=" + over1ms
                    + " fills=" + fills);
        }
    }

    /**
     * Latency of one put while the cache fills and its table grows.
     * Runs on the Epsilon collector, heap touched up front, so that no GC
     * pause is in the distribution; what remains is the cache's own work,
     * including the allocation of its tables.
     *
     * @param state the cache being filled
     */
    @Benchmark
    @BenchmarkMode(Mode.SampleTime)
    @OutputTimeUnit(TimeUnit.NANOSECONDS)
    @Warmup(iterations = 2, time = 1)
    @Measurement(iterations = 5, time = 1)
    @Fork(value = 1, jvmArgsAppend = {
            "--add-exports", "java.base/sun.security.util=ALL-UNNAMED",
            "-XX:+UnlockExperimentalVMOptions", "-XX:+UseEpsilonGC",
            "-Xms10g", "-Xmx10g", "-XX:+AlwaysPreTouch"})
    public void putFill(FillState state) {
        Integer key = state.keys[state.index++];
        state.cache.put(key, key);
    }
}
