/*
 * Copyright (c) 2026, the java.base patch set contributors.
 * SPDX-License-Identifier: GPL-2.0-only WITH Classpath-exception-2.0
 */

package org.openjdk.bench.java.security;

import org.openjdk.jmh.annotations.*;

import java.util.concurrent.TimeUnit;

import sun.security.util.Cache;

/**
 * The costs the cache change names instead of removing, on calls the JDK
 * does not make in a loop: {@code setTimeout} from no lifetime to one while
 * the cache holds entries put without one (it links them, a walk of the
 * map), and an overflowing {@code put} with many lifetimes in use (one
 * look at each list).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {
        "--add-exports", "java.base/sun.security.util=ALL-UNNAMED"})
@State(Scope.Thread)
public class CacheCornerBench {

    @Param({"200000"})
    int size;

    @Param({"20000"})
    int lifetimes;

    Cache<Integer, Integer> unlinked, manyLifetimes;
    int next;

    @Setup(Level.Trial)
    public void setup() {
        unlinked = Cache.newHardMemoryCache(size);
        for (int i = 0; i < size; i++) {
            unlinked.put(i, i);
        }
        // one entry per lifetime, the last put under the longest; full
        manyLifetimes = Cache.newHardMemoryCache(lifetimes);
        for (int i = 0; i < lifetimes; i++) {
            manyLifetimes.setTimeout(86_400 + lifetimes - i);
            manyLifetimes.put(-1 - i, i);
        }
    }

    /** An entry put without a lifetime, then setTimeout(86400). */
    @Benchmark
    public void setTimeoutAfterNone() {
        unlinked.setTimeout(0);
        unlinked.put(next, next);
        next = next + 1 == size ? 0 : next + 1;
        unlinked.setTimeout(86_400);
    }

    /** A put of a new key into the full cache: nothing has expired. */
    @Benchmark
    public void putManyLifetimes() {
        manyLifetimes.put(next++, next);
    }
}
