/*
 * Copyright (c) 2026, the java.base patch set contributors.
 * SPDX-License-Identifier: GPL-2.0-only WITH Classpath-exception-2.0
 */

package build.tools.jcheck;

import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.StringJoiner;
import java.util.TreeMap;
import java.util.TreeSet;

import org.openjdk.skara.census.Census;
import org.openjdk.skara.jcheck.CommitIssue;
import org.openjdk.skara.jcheck.Issue;
import org.openjdk.skara.jcheck.JCheck;
import org.openjdk.skara.jcheck.JCheckConfiguration;
import org.openjdk.skara.vcs.Commit;
import org.openjdk.skara.vcs.Repository;
import org.openjdk.skara.vcs.openjdk.CommitMessageParsers;

/**
 * Runs Skara's jcheck, OpenJDK's commit checker, over a range of commits of a
 * git repository, with the {@code .jcheck/conf} each commit carries, as
 * upstream's pull request bot does, and prints every finding.
 *
 * <p>The bot reads the OpenJDK census from the network to know who may
 * review and commit. Here the census is a local one that holds the
 * configuration's project and no one in it: the checks that only people can
 * satisfy, {@code reviewers} (the Reviewed-by lines the bot writes once the
 * change is approved) and {@code committer} (the sponsor who integrates it),
 * are reported as left to the integration and do not count as failures.
 * Every other finding, error or warning, does.
 *
 * <p>Skara's modules must be on the module path; make/Jcheck.gmk compiles
 * them from a Skara checkout. A finding is printed as
 * {@code <commit> <subject>: <severity> [<check>] <description>: <details>},
 * the details being what the finding's class reports about itself.
 *
 * <p>Usage: {@code RunJcheck <repository> <revision range>}; exit code 0 when
 * nothing counts as a failure, 1 when something does, 2 when jcheck could
 * not run.
 */
public final class RunJcheck {

    /** Checks that only a review and a sponsor can satisfy. */
    private static final Set<String> INTEGRATION_CHECKS = Set.of("reviewers", "committer");

    /** Methods every finding has; the details are the others. */
    private static final Set<String> COMMON_METHODS =
            Set.of("accept", "check", "severity", "commit", "message", "hashCode", "toString");

    private RunJcheck() {
    }

    public static void main(String[] args) {
        if (args.length != 2) {
            System.err.println("usage: RunJcheck <repository> <revision range>");
            System.exit(2);
        }
        try {
            System.exit(run(Path.of(args[0]), args[1]));
        } catch (IOException | RuntimeException e) {
            System.err.println("jcheck could not run: " + e);
            e.printStackTrace();
            System.exit(2);
        }
    }

    private static int run(Path dir, String range) throws IOException {
        var repo = Repository.get(dir).orElseThrow(
                () -> new IOException(dir + " is not a git repository"));
        var head = repo.resolve("HEAD").orElseThrow(() -> new IOException(dir + " has no HEAD"));
        var conf = JCheck.parseConfiguration(repo, head, List.of()).orElseThrow(
                () -> new IOException(dir + " has no .jcheck/conf at HEAD"));
        var census = Census.parse(censusOf(conf));

        int failures = 0;
        // check name -> its description and the commits it flagged
        var integration = new TreeMap<String, Set<String>>();
        var described = new TreeMap<String, String>();
        try (var issues = JCheck.check(repo, census, CommitMessageParsers.v1, range, null)) {
            for (Issue issue : issues) {
                var name = issue.check().name();
                if (INTEGRATION_CHECKS.contains(name)) {
                    described.put(name, issue.check().description());
                    integration.computeIfAbsent(name, k -> new TreeSet<>())
                               .add(issue instanceof CommitIssue ci ? ci.commit().hash().abbreviate() : "");
                } else {
                    failures++;
                    System.out.println(describe(issue));
                }
            }
        }
        for (var e : integration.entrySet()) {
            System.out.println("left to the integration: [" + e.getKey() + "] "
                    + described.get(e.getKey()) + " (" + e.getValue().size() + " commit(s))");
        }
        System.out.println(failures + " finding(s) in " + range);
        return failures == 0 ? 0 : 1;
    }

    /**
     * A census that knows the project of the configuration and its sponsoring
     * group, with no one in the project (a group must have a lead):
     * Census.parse reads this XML form.
     */
    private static List<String> censusOf(JCheckConfiguration conf) {
        var project = conf.general().project();
        return List.of(
                "<?xml version=\"1.0\" encoding=\"UTF-8\"?>",
                "<census time=\"2026-01-01T00:00:00Z\">",
                "  <person name=\"lead\"><full-name>Group lead</full-name></person>",
                "  <group name=\"jdk\"><full-name>JDK</full-name>"
                        + "<person ref=\"lead\" role=\"lead\"/></group>",
                "  <project name=\"" + project + "\"><full-name>" + project + "</full-name>"
                        + "<sponsor ref=\"jdk\"/></project>",
                "</census>");
    }

    private static String describe(Issue issue) {
        var sb = new StringBuilder();
        if (issue instanceof CommitIssue ci) {
            sb.append(commitOf(ci.commit())).append(": ");
        }
        sb.append(issue.severity().toString().toLowerCase()).append(" [")
          .append(issue.check().name()).append("] ")
          .append(issue.check().description());
        var details = details(issue);
        if (!details.isEmpty()) {
            sb.append(": ").append(details);
        }
        return sb.toString();
    }

    private static String commitOf(Commit c) {
        var title = c.message().isEmpty() ? "" : " \"" + c.message().get(0) + "\"";
        return c.hash().abbreviate() + title;
    }

    /**
     * What the finding's own class tells about it: its public no-argument
     * methods, by name. Reflection keeps this runner independent of the
     * list of finding classes, which grows with Skara.
     */
    private static String details(Issue issue) {
        var methods = new ArrayList<Method>();
        for (Class<?> c = issue.getClass(); c != Issue.class && c != CommitIssue.class; c = c.getSuperclass()) {
            for (var m : c.getDeclaredMethods()) {
                if (Modifier.isPublic(m.getModifiers()) && !Modifier.isStatic(m.getModifiers())
                        && m.getParameterCount() == 0 && m.getReturnType() != void.class
                        && !COMMON_METHODS.contains(m.getName())) {
                    methods.add(m);
                }
            }
        }
        methods.sort(Comparator.comparing(Method::getName));
        var joiner = new StringJoiner(", ");
        for (var m : methods) {
            joiner.add(m.getName() + "=" + value(m, issue));
        }
        return joiner.toString();
    }

    private static String value(Method m, Issue issue) {
        try {
            var v = m.invoke(issue);
            if (v instanceof Commit c) {
                return c.hash().abbreviate();
            }
            if (v instanceof String s) {
                return "'" + s + "'";
            }
            if (v != null && v.getClass().isArray()) {
                return Arrays.deepToString(new Object[] {v});
            }
            return String.valueOf(v);
        } catch (IllegalAccessException | InvocationTargetException e) {
            return "<" + e + ">";
        }
    }
}
