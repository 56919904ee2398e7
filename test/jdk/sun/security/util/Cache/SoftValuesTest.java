/*
 * Copyright (c) 2026, the java.base patch set contributors.
 * SPDX-License-Identifier: GPL-2.0-only WITH Classpath-exception-2.0
 */

/*
 * @test
 * @summary Values of a soft cache that the GC cleared are purged through the
 *          reference queue, so size() and accept() no longer count them, and
 *          they are never returned; hard values survive the same pressure
 * @modules java.base/sun.security.util:+open
 *          java.base/java.lang.ref:open
 * @library /test/lib
 * @build jdk.test.whitebox.WhiteBox
 * @run driver jdk.test.lib.helpers.ClassFileInstaller jdk.test.whitebox.WhiteBox
 * @run main/othervm -Xbootclasspath/a:. -XX:+UnlockDiagnosticVMOptions
 *                   -XX:+WhiteBoxAPI SoftValuesTest
 */

import java.util.Map;
import java.util.function.LongSupplier;

import jdk.test.whitebox.WhiteBox;
import sun.security.util.Cache;

public class SoftValuesTest {

    static final int N = 200;

    public static void main(String[] args) throws InterruptedException {
        LongSupplier clock = System::nanoTime;
        Cache<Integer, byte[]> soft = CacheProbe.newCache(true, 0, 0, 0, clock);
        Cache<Integer, byte[]> timed = CacheProbe.newCache(true, 0, 3600, 0, clock);
        Cache<Integer, byte[]> hard = CacheProbe.newCache(false, 0, 0, 0, clock);
        Cache<String, byte[]> tickets = Cache.newSoftMemoryQueue(0, 3600, 5);
        byte[] kept = new byte[16];       // strongly held: must survive
        for (int i = 0; i < N; i++) {
            soft.put(i, new byte[1024]);
            timed.put(i, new byte[1024]);
            hard.put(i, new byte[1024]);
        }
        soft.put(-1, kept);
        for (int i = 0; i < 3; i++) {
            tickets.put("host:443", new byte[1024], true);
        }
        tickets.put("other:443", kept, true);
        CacheProbe.checkEquals(N + 1, soft.size(), "filled");

        // A full GC from the WhiteBox API clears every softly reachable
        // object; then wait until the cleared references are enqueued.
        WhiteBox wb = WhiteBox.getWhiteBox();
        wb.fullGC();
        while (wb.waitForReferenceProcessing()) {
            // more were pending
        }

        // Neither get nor pull has touched the cleared entries: size() sees
        // them gone only if the reference queue was drained.
        CacheProbe.checkEquals(1, soft.size(), "soft: only the kept value");
        CacheProbe.checkEquals(0, timed.size(), "soft with timeout: none");
        CacheProbe.checkEquals(N, hard.size(), "hard: all survive");
        CacheProbe.checkEquals(1, tickets.size(), "tickets: emptied key gone");
        CacheProbe.checkEquals(Map.of(-1, kept), CacheProbe.entries(soft),
                "soft: visited");
        for (int i = 0; i < N; i++) {
            CacheProbe.checkEquals(null, soft.get(i), "soft " + i);
            CacheProbe.checkEquals(null, timed.pull(i), "timed " + i);
            CacheProbe.check(hard.get(i) != null, "hard " + i);
        }
        CacheProbe.check(soft.get(-1) == kept, "kept value still there");
        CacheProbe.checkEquals(null, tickets.get("host:443"), "no ticket");
        CacheProbe.check(tickets.get("other:443") == kept, "kept ticket");
        System.out.println("passed");
    }
}
