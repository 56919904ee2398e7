/*
 * Copyright (c) 2026, the java.base patch set contributors.
 * SPDX-License-Identifier: GPL-2.0-only WITH Classpath-exception-2.0
 */

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

import sun.security.util.Cache;

/*
 * java -Xms2g -Xmx2g -XX:+AlwaysPreTouch \
 *     --add-exports java.base/sun.security.util=ALL-UNNAMED Repro.java
 *
 * (a heap touched beforehand keeps page faults out of the times)
 *
 * Puts fresh keys at a steady rate into a full cache whose entries expire
 * continuously: a lifetime of 1 s, three quarters of the capacity live, as
 * a server session cache with rate x timeout near its size. Counts the
 * puts that take over 1 ms of the putting thread's CPU time (not wall
 * time, which the VM's and the machine's own stalls would inflate).
 */
public class Repro {

    public static void main(String[] args) {
        int capacity = 204_800;
        long interval = (long) (1e9 / (0.75 * capacity));
        Cache<Integer, Integer> cache = Cache.newSoftMemoryCache(capacity, 1);
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long start = System.nanoTime();
        long measureFrom = start + 4_000_000_000L;  // full, and expiring
        long end = measureFrom + 8_000_000_000L;
        long due = start;
        int puts = 0, slow = 0;
        long slowest = 0;
        for (int key = 0; due - end < 0; key++) {
            while (System.nanoTime() - due < 0) {
                Thread.onSpinWait();
            }
            due += interval;
            long cpu = threads.getCurrentThreadCpuTime();
            cache.put(key, key);
            cpu = threads.getCurrentThreadCpuTime() - cpu;
            if (due - measureFrom > 0) {
                puts++;
                slowest = Math.max(slowest, cpu);
                if (cpu > 1_000_000) {
                    slow++;
                }
            }
        }
        System.out.printf("%s: %d puts in 8 s, %d over 1 ms of CPU time,"
                + " the slowest %d us%n", System.getProperty("java.runtime.version"),
                puts, slow, slowest / 1000);
    }
}
