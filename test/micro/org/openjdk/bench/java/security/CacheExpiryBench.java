/*
 * Copyright (c) 2026, the java.base patch set contributors.
 * SPDX-License-Identifier: GPL-2.0-only WITH Classpath-exception-2.0
 */

package org.openjdk.bench.java.security;

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
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.Blackhole;

import java.util.concurrent.TimeUnit;

import sun.security.util.Cache;

/**
 * Lookups and removals in a full {@code Cache} of which a given share of
 * the entries has expired but may still be held by the cache.
 *
 * <p>Every operation of a trial uses a key no earlier operation used, so
 * each one finds its key as the setup left it, or as the cache itself has
 * changed it since: dropping expired entries early is part of what is
 * measured. That leaves few operations per trial, too few for time-based
 * iterations: one invocation is a pass of {@link #PASS} operations, timed
 * as a single shot; the passes allocate next to nothing, so the Epsilon
 * collector keeps a collection of the setup's garbage out of them.
 */
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@OperationsPerInvocation(CacheExpiryBench.PASS)
@Warmup(iterations = 5, batchSize = 1)
@Measurement(iterations = 30, batchSize = 1)
@Fork(value = 1, jvmArgsAppend = {
        "--add-exports", "java.base/sun.security.util=ALL-UNNAMED",
        "-XX:+UnlockExperimentalVMOptions", "-XX:+UseEpsilonGC",
        "-Xms4g", "-Xmx4g"})
@State(Scope.Benchmark)
public class CacheExpiryBench {

    /** Operations in one pass: one key of every column (see setup). */
    static final int PASS = 512;

    /**
     * Milliseconds from the moment the last expired entry expires to the
     * moment the first live entry would: the time a trial has.
     */
    static final long WINDOW_MILLIS = 1500;

    /** Capacity of the cache, and the number of entries put in setup. */
    @Param({"20480", "204800", "5120000"})
    int size;

    /** Share of the entries that are expired when the trial starts. */
    @Param({"0", "0.1", "0.25", "0.33", "0.5"})
    double expired;

    private Cache<Integer, Integer> cache;
    private Integer[] keys;
    private int rows;
    private int row;
    private int timeoutSeconds;
    private long liveSinceMillis;
    private long liveSinceNanos;
    private long trialStartNanos;

    /**
     * Builds a cache of {@code size} entries, a share {@code expired} of
     * them expired.
     *
     * <p>Implementations keep time differently (an absolute expiry time
     * from {@code currentTimeMillis}, or the insertion time from
     * {@code nanoTime} against the cache's current timeout), so the only
     * construction that means the same to all of them is a real one: the
     * entries to expire are put first, then, {@link #WINDOW_MILLIS} later,
     * the live ones, and then the setup waits until the timeout has passed
     * since the last entry to expire, on both clocks. All entries are put
     * while none has expired, so the cache holds all of them when the
     * trial starts. The timeout is long enough for the live entries to
     * outlive the trial, which {@link #checkStillLive} checks.
     *
     * <p>The keys form {@code PASS} columns of {@code size / PASS} keys
     * each, column {@code c} holding the keys {@code r * PASS + c}. A
     * column is expired or live as a whole, and the expired columns are
     * spread evenly: {@code floor(PASS * expired)} of them. Pass {@code r}
     * visits row {@code r}, one key of every column.
     *
     * @param params the trial's settings: every pass needs a row of its own
     * @param bh consumes the warm-up's results
     * @throws InterruptedException if a wait is interrupted
     */
    @Setup(Level.Trial)
    public void setup(BenchmarkParams params, Blackhole bh)
            throws InterruptedException {
        if (size < PASS || size % PASS != 0) {
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
            throw new IllegalArgumentException(passes + " passes need more"
                    + " rows of keys than size " + size + " has (" + rows
                    + ")");
        }
        keys = keys(size);
        warmUp(bh);
        row = 0;

        if (expired == 0) {
            // A day: the expiry checks run and never fire.
            timeoutSeconds = 86400;
            cache = Cache.newSoftMemoryCache(size, timeoutSeconds);
            liveSinceMillis = System.currentTimeMillis();
            liveSinceNanos = System.nanoTime();
            fill(false);
            trialStartNanos = System.nanoTime();
            return;
        }

        // The live entries must outlive the window and their own filling;
        // the filling is estimated from a timed fill of a scratch cache,
        // three times over for a larger cache and a busy machine.
        long liveFillMillis = 3 * fillNanosPerEntry()
                * (size - expiredColumns() * rows) / 1_000_000;
        // Whole seconds, more than both: the live entries are all in
        // before the first entry expires.
        timeoutSeconds = (int) ((WINDOW_MILLIS + liveFillMillis) / 1000) + 1;
        cache = Cache.newSoftMemoryCache(size, timeoutSeconds);

        fill(true);
        // A margin of 2 ms past the timeout, whether an implementation
        // compares with > or >=.
        long expiredByMillis = System.currentTimeMillis()
                + timeoutSeconds * 1000L + 2;
        long expiredByNanos = System.nanoTime()
                + TimeUnit.SECONDS.toNanos(timeoutSeconds)
                + TimeUnit.MILLISECONDS.toNanos(2);
        Thread.sleep(WINDOW_MILLIS);
        liveSinceMillis = System.currentTimeMillis();
        liveSinceNanos = System.nanoTime();
        fill(false);
        while (System.currentTimeMillis() < expiredByMillis
                || System.nanoTime() - expiredByNanos < 0) {
            Thread.sleep(5);
        }
        trialStartNanos = System.nanoTime();
    }

    /**
     * Fails the trial if a live entry may have expired before it ended:
     * its numbers would describe another state than the one asked for.
     */
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
                    / 1_000_000 + " ms): the machine was slower than"
                    + " estimated");
        }
    }

    /**
     * One lookup of every column's key in the next row.
     *
     * @param bh consumes the values found
     */
    @Benchmark
    public void get(Blackhole bh) {
        getPass(cache, keys, row++, bh);
    }

    /** One removal of every column's key in the next row. */
    @Benchmark
    public void remove() {
        removePass(cache, keys, row++);
    }

    static void getPass(Cache<Integer, Integer> cache, Integer[] keys,
            int row, Blackhole bh) {
        int base = row * PASS;
        for (int column = 0; column < PASS; column++) {
            bh.consume(cache.get(keys[base + column]));
        }
    }

    static void removePass(Cache<Integer, Integer> cache, Integer[] keys,
            int row) {
        int base = row * PASS;
        for (int column = 0; column < PASS; column++) {
            cache.remove(keys[base + column]);
        }
    }

    /**
     * Boxed keys {@code 0..n-1}, made once, so that no measurement boxes.
     */
    static Integer[] keys(int n) {
        Integer[] keys = new Integer[n];
        for (int i = 0; i < n; i++) {
            keys[i] = i;
        }
        return keys;
    }

    static boolean expiredColumn(int column, double share) {
        return Math.floor((column + 1) * share) > Math.floor(column * share);
    }

    private int expiredColumns() {
        int n = 0;
        for (int column = 0; column < PASS; column++) {
            if (expiredColumn(column, expired)) {
                n++;
            }
        }
        return n;
    }

    /** Puts the keys of the expired columns, or of the live ones. */
    private void fill(boolean expiredColumns) {
        for (int column = 0; column < PASS; column++) {
            if (expiredColumn(column, expired) != expiredColumns) {
                continue;
            }
            for (int r = 0; r < rows; r++) {
                Integer key = keys[r * PASS + column];
                cache.put(key, key);
            }
        }
    }

    /** Nanoseconds per put when filling a scratch cache. */
    private long fillNanosPerEntry() {
        int n = Math.min(size, 1 << 19);
        Cache<Integer, Integer> scratch = Cache.newSoftMemoryCache(n, 3600);
        long start = System.nanoTime();
        for (int i = 0; i < n; i++) {
            scratch.put(keys[i], keys[i]);
        }
        return Math.max(1, (System.nanoTime() - start) / n);
    }

    /**
     * Runs the passes on a scratch cache until the JIT has compiled them:
     * the few measured passes of a trial are too few for it to get there.
     */
    private static void warmUp(Blackhole bh) {
        Integer[] scratchKeys = keys(4 * PASS);
        Cache<Integer, Integer> scratch =
                Cache.newSoftMemoryCache(scratchKeys.length, 3600);
        for (int round = 0; round < 200; round++) {
            for (Integer key : scratchKeys) {
                scratch.put(key, key);
            }
            getPass(scratch, scratchKeys, round & 3, bh);
            removePass(scratch, scratchKeys, round & 3);
        }
    }
}
