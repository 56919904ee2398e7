/*
 * Copyright (c) 2026, the java.base patch set contributors.
 * SPDX-License-Identifier: GPL-2.0-only WITH Classpath-exception-2.0
 */

/*
 * @test
 * @summary The tests run on the patched java.base: every class compiled from
 *          src/java.base is, byte for byte, the class the running JDK holds in
 *          its run-time image, and no --patch-module is in effect.
 * @run main PatchedJavaBaseTest
 */

import java.io.IOException;
import java.net.URI;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;

public class PatchedJavaBaseTest {

    /** Set by make test: the digests recorded when the classes were compiled. */
    private static final String DIGESTS_PROPERTY = "patchset.java.base.digests";

    public static void main(String[] args) throws Exception {
        String digests = System.getProperty(DIGESTS_PROPERTY);
        if (digests == null) {
            throw new RuntimeException("-D" + DIGESTS_PROPERTY + " is not set: run this test"
                    + " with make test, which names build/<conf>/support/java.base/classes.sha256");
        }
        if (System.getProperty("jdk.module.patch.0") != null) {
            throw new RuntimeException("java.base is patched at run time (--patch-module): the"
                    + " tests must run on the image itself");
        }
        List<String> lines = Files.readAllLines(Path.of(digests));
        if (lines.isEmpty()) {
            throw new RuntimeException(digests + " lists no class");
        }
        FileSystem image = FileSystems.getFileSystem(URI.create("jrt:/"));
        MessageDigest sha256 = MessageDigest.getInstance("SHA-256");
        for (String line : lines) {
            checkClass(image, sha256, line);
        }
        System.out.println(lines.size() + " class(es) of " + System.getProperty("java.home")
                + " match the ones built from src/java.base");
    }

    /** A line of sha256sum output: the hex digest, two spaces, the class file's path. */
    private static void checkClass(FileSystem image, MessageDigest sha256, String line)
            throws IOException, NoSuchAlgorithmException {
        String[] fields = line.split("  ", 2);
        if (fields.length != 2 || fields[0].length() != 64) {
            throw new RuntimeException("not a sha256sum line: " + line);
        }
        Path inImage = image.getPath("/modules/java.base", fields[1]);
        if (!Files.exists(inImage)) {
            throw new RuntimeException(fields[1] + " is not in the running java.base");
        }
        String actual = HexFormat.of().formatHex(sha256.digest(Files.readAllBytes(inImage)));
        if (!actual.equals(fields[0])) {
            throw new RuntimeException(fields[1] + " in the running java.base has digest "
                    + actual + ", the one built from src/java.base has " + fields[0]);
        }
    }
}
