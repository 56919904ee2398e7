/*
 * Copyright (c) 2026, the java.base patch set contributors.
 * SPDX-License-Identifier: GPL-2.0-only WITH Classpath-exception-2.0
 */

package build.tools.cachehitrate;

import java.util.Arrays;
import java.util.SplittableRandom;

/** Draws ids 0..n-1 with probability proportional to 1 / (rank+1)^s. */
public final class ZipfSampler {
    private final double[] cdf;

    public ZipfSampler(int n, double s) {
        cdf = new double[n];
        double sum = 0;
        for (int i = 0; i < n; i++) {
            sum += 1 / Math.pow(i + 1, s);
            cdf[i] = sum;
        }
        for (int i = 0; i < n; i++) {
            cdf[i] /= sum;
        }
    }

    public int next(SplittableRandom r) {
        int i = Arrays.binarySearch(cdf, r.nextDouble());
        // not found: -(insertion point) - 1; the first cdf >= u wins
        return Math.min(i >= 0 ? i : -i - 1, cdf.length - 1);
    }
}
