/*
 * Copyright (c) 2026, the java.base patch set contributors.
 * SPDX-License-Identifier: GPL-2.0-only WITH Classpath-exception-2.0
 */

/*
 * @test
 * @bug 0000000
 * @summary An SSLSocket read does not wait for a flight another thread holds
 * @modules java.base/sun.security.ssl java.base/sun.security.tools.keytool
 *          java.base/sun.security.x509
 * @compile/module=java.base sun/security/ssl/ForeignFlight.java
 * @run main/othervm java.base/sun.security.ssl.ForeignFlight
 */
public class ForeignFlightDriver {
}
