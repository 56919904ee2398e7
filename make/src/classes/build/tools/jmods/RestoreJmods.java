/*
 * Copyright (c) 2026, the java.base patch set contributors.
 * SPDX-License-Identifier: GPL-2.0-only WITH Classpath-exception-2.0
 */

package build.tools.jmods;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;
import java.util.spi.ToolProvider;
import java.util.stream.Stream;

import jdk.tools.jlink.internal.runtimelink.ResourceDiff;

/**
 * Turns a linkable run-time image (JEP 493) back into one packaged module (jmod)
 * per module, so that {@code jlink} can link an image in which one module is
 * replaced. A JDK without {@code jmods/} (Temurin 25) offers no other way: jlink
 * links either from jmods or from the running image, never a mix of both.
 *
 * <p>The input is the image's {@code lib/modules} unpacked with
 * {@code jimage extract}. Two records that the JDK build left in {@code jdk.jlink}
 * make the result faithful:
 * <ul>
 * <li>{@code diff_<module>}: what the build's own jlink plugins added, removed or
 *     changed relative to the original jmod; undone here, so that our jlink run
 *     can apply the same plugins again without clashing;</li>
 * <li>{@code fs_<module>_files}: which files outside {@code lib/modules}
 *     (libraries, launchers, configuration, legal notices, headers, man pages)
 *     belong to which module, one {@code type|symlink|hash-or-target|path} line
 *     each, the type being the ordinal of jlink's {@code ResourcePoolEntry.Type}.</li>
 * </ul>
 * Those records describe the stock image, not ours, so they are left out of the
 * restored {@code jdk.jlink}. Finally the module hashes are recorded afresh
 * ({@code jmod hash}), for the same modules as before, since a rebuilt jmod never
 * has the bytes of the original.
 *
 * <p>Usage: {@code RestoreJmods <jdk home> <extracted lib/modules> <output dir>}.
 * Run with {@code --add-exports jdk.jlink/jdk.tools.jlink.internal.runtimelink=ALL-UNNAMED}.
 */
public final class RestoreJmods {

    private static final String RUNTIMELINK = "jdk/tools/jlink/internal/runtimelink/";

    /** jmod section for each ResourcePoolEntry.Type ordinal; null for classes and resources. */
    private static final String[] SECTIONS = {
        null, "--config", "--header-files", "--legal-notices", "--man-pages", "--cmds", "--libs"
    };

    /** Image directory that holds the files of each section, as jlink lays them out. */
    private static final String[] IMAGE_DIRS = {
        null, "conf", "include", "legal", "man", "bin", "lib"
    };

    private final Path jdkHome;
    private final Path extracted;
    private final Path output;
    private final Path records;

    private RestoreJmods(Path jdkHome, Path extracted, Path output) {
        this.jdkHome = jdkHome;
        this.extracted = extracted;
        this.output = output;
        this.records = extracted.resolve("jdk.jlink").resolve(RUNTIMELINK);
    }

    /**
     * Restores every module of the image.
     *
     * @param args the JDK home, the extracted {@code lib/modules}, the output directory
     * @throws Exception if the image is not a linkable run-time image or a tool fails
     */
    public static void main(String[] args) throws Exception {
        if (args.length != 3) {
            throw new IllegalArgumentException(
                    "usage: RestoreJmods <jdk home> <extracted lib/modules> <output dir>");
        }
        new RestoreJmods(Path.of(args[0]), Path.of(args[1]), Path.of(args[2])).run();
    }

    private void run() throws IOException {
        if (!Files.isDirectory(records)) {
            throw new IOException(jdkHome + " is not a linkable run-time image: no "
                    + RUNTIMELINK + " in jdk.jlink");
        }
        Path work = output.resolve("_work");
        Files.createDirectories(work);
        List<String> modules;
        try (Stream<Path> dirs = Files.list(extracted)) {
            modules = dirs.map(p -> p.getFileName().toString()).sorted().toList();
        }
        // Read every record before jdk.jlink's own tree is touched.
        Map<String, List<ResourceDiff>> diffs = new TreeMap<>();
        Map<String, List<String>> files = new TreeMap<>();
        for (String m : modules) {
            diffs.put(m, readDiff(m));
            files.put(m, readLines(records.resolve("fs_" + m + "_files")));
        }
        Map<String, List<String>> createArgs = new TreeMap<>();
        for (String m : modules) {
            Path classes = extracted.resolve(m);
            undoPluginChanges(m, classes, diffs.get(m));
            if (m.equals("jdk.jlink")) {
                dropRuntimeLinkRecords(classes.resolve(RUNTIMELINK));
            }
            List<String> args = new ArrayList<>(List.of("create", "--class-path",
                    classes.toString()));
            args.addAll(copyNativeFiles(m, files.get(m), work.resolve(m)));
            createArgs.put(m, args);
            runTool("jmod", withTarget(args, output.resolve(m + ".jmod")));
        }
        for (String m : modules) {
            rehash(m, createArgs.get(m), work);
        }
        deleteTree(work);
    }

    /**
     * Records afresh, in a module that ties others to itself by hash (java.base),
     * the hashes of exactly the modules the original recorded. The module is
     * created again rather than updated with {@code jmod hash}, which would first
     * check the stale hashes and fail; the stale jmod is moved out of the module
     * path for that, since the module path is searched before the new module.
     */
    private void rehash(String module, List<String> createArgs, Path work) throws IOException {
        Path jmod = output.resolve(module + ".jmod");
        StringWriter description = new StringWriter();
        runTool("jmod", List.of("describe", jmod.toString()), new PrintWriter(description));
        List<String> tied = description.toString().lines()
                .filter(l -> l.startsWith("hashes "))
                .map(l -> Pattern.quote(l.split(" ")[1]))
                .toList();
        if (tied.isEmpty()) {
            return;
        }
        Files.move(jmod, work.resolve(module + ".stale.jmod"));
        List<String> args = new ArrayList<>(createArgs);
        args.addAll(List.of("--module-path", output.toString(),
                "--hash-modules", "^(" + String.join("|", tied) + ")$"));
        runTool("jmod", withTarget(args, jmod));
    }

    private static List<String> withTarget(List<String> args, Path jmod) {
        List<String> all = new ArrayList<>(args);
        all.add(jmod.toString());
        return all;
    }

    private List<ResourceDiff> readDiff(String module) throws IOException {
        Path diff = records.resolve("diff_" + module);
        if (!Files.exists(diff)) {
            return List.of();
        }
        try (InputStream in = Files.newInputStream(diff)) {
            return ResourceDiff.read(in);
        }
    }

    private static List<String> readLines(Path file) throws IOException {
        return Files.exists(file) ? Files.readAllLines(file) : List.of();
    }

    /** Puts back the module's content as its jmod had it before the build's plugins ran. */
    private static void undoPluginChanges(String module, Path classes, List<ResourceDiff> diffs)
            throws IOException {
        String prefix = "/" + module + "/";
        for (ResourceDiff d : diffs) {
            if (!d.getName().startsWith(prefix)) {
                throw new IOException("diff record for " + module + " names " + d.getName());
            }
            Path target = classes.resolve(d.getName().substring(prefix.length()));
            switch (d.getKind()) {
                case ADDED -> Files.deleteIfExists(target);
                case REMOVED, MODIFIED -> {
                    Files.createDirectories(target.getParent());
                    Files.write(target, d.getResourceBytes());
                }
            }
        }
    }

    private static void dropRuntimeLinkRecords(Path dir) throws IOException {
        try (Stream<Path> entries = Files.list(dir)) {
            for (Path p : entries.toList()) {
                if (!p.getFileName().toString().endsWith(".class")) {
                    Files.delete(p);
                }
            }
        }
    }

    /**
     * Copies the module's files outside lib/modules into per-section directories
     * and returns the jmod options naming them.
     */
    private List<String> copyNativeFiles(String module, List<String> lines, Path dest)
            throws IOException {
        TreeMap<Integer, Path> used = new TreeMap<>();
        for (String line : lines) {
            String[] f = line.split("\\|", 4);
            if (f.length != 4) {
                throw new IOException("malformed line in fs_" + module + "_files: " + line);
            }
            int type = Integer.parseInt(f[0]);
            if (type <= 0 || type >= SECTIONS.length) {
                throw new IOException("unknown file type " + type + " in fs_" + module
                        + "_files: " + line);
            }
            // A symbolic link (f[1] == "1") is copied as the file it points to.
            Path inImage = Path.of(f[3]);
            String top = IMAGE_DIRS[type];
            if (!inImage.getName(0).toString().equals(top)) {
                throw new IOException(f[3] + " is not under " + top + "/");
            }
            Path rel = inImage.subpath(1, inImage.getNameCount());
            if (type == 3) { // legal notices live in legal/<module>/ in an image
                rel = rel.subpath(1, rel.getNameCount());
            }
            Path section = dest.resolve(top);
            Path target = section.resolve(rel);
            Files.createDirectories(target.getParent());
            Files.copy(jdkHome.resolve(inImage), target, StandardCopyOption.REPLACE_EXISTING,
                    StandardCopyOption.COPY_ATTRIBUTES);
            used.put(type, section);
        }
        List<String> options = new ArrayList<>();
        used.forEach((type, dir) -> {
            options.add(SECTIONS[type]);
            options.add(dir.toString());
        });
        return options;
    }

    private static void runTool(String name, List<String> args) {
        runTool(name, args, new PrintWriter(System.out, true));
    }

    private static void runTool(String name, List<String> args, PrintWriter out) {
        ToolProvider tool = ToolProvider.findFirst(name).orElseThrow(
                () -> new IllegalStateException("no tool provider named " + name));
        out.flush();
        PrintWriter err = new PrintWriter(System.err, true);
        int rc = tool.run(out, err, args.toArray(String[]::new));
        if (rc != 0) {
            throw new IllegalStateException(name + " " + String.join(" ", args)
                    + " failed with exit code " + rc);
        }
    }

    private static void deleteTree(Path dir) throws IOException {
        try (Stream<Path> all = Files.walk(dir)) {
            all.sorted((a, b) -> b.compareTo(a)).forEach(p -> {
                try {
                    Files.delete(p);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        }
    }
}
