# SPDX-License-Identifier: GPL-2.0-only WITH Classpath-exception-2.0
"""`make apply UPSTREAM=<checkout>`: check the whole patch, then apply it with
git apply, which writes nothing unless every hunk applies.

Native sources are not in a JDK's src.zip, and the zip merges the Java
sources of its own platform into one tree, so a tree made from it has
src/<module>/share/classes only. The rule: a file under
src/<module>/<os>/native/ or src/<module>/<os other than share>/classes/ is
checked and applied when UPSTREAM has that directory (a real checkout does);
otherwise it is reported as "not checked" and left out, new files included
(a helper without its call sites would only mislead). Every other file must
apply.
"""

import os
import re
import subprocess
from dataclasses import dataclass
from typing import List, Optional

from patchset import PatchSetError, decode, parse_hunks, split_lines, Hunk

NATIVE_RE = re.compile(r"^(src/[^/]+/(?:[^/]+/native|(?!share/)[^/]+/classes))/")


@dataclass
class Section:
    path: str
    new: bool
    hunks: List[Hunk]


def parse_patch(text: str, where: str) -> List[Section]:
    """The file sections of a git-style patch (as `make patch` writes it)."""
    lines = split_lines(text)
    sections = []
    pos = 0
    while pos < len(lines):
        m = re.match(r"^diff --git a/(\S+) b/(\S+)$", lines[pos].rstrip("\n"))
        if not m:
            if sections and lines[pos].strip():
                raise PatchSetError("%s:%d: unexpected line between file sections: %r"
                                    % (where, pos + 1, lines[pos].rstrip("\n")))
            pos += 1
            continue
        path, new = m.group(2), False
        pos += 1
        while pos < len(lines) and not lines[pos].startswith(("--- ", "diff --git ")):
            if lines[pos].startswith("new file mode"):
                new = True
            pos += 1
        hunks: List[Hunk] = []
        if pos < len(lines) and lines[pos].startswith("--- "):
            if pos + 1 >= len(lines) or not lines[pos + 1].startswith("+++ "):
                raise PatchSetError("%s:%d: '--- ' without '+++ '" % (where, pos + 1))
            hunks, pos = parse_hunks(lines, pos + 2, "%s (%s)" % (where, path))
        sections.append(Section(path, new, hunks))
    if not sections:
        raise PatchSetError("%s: no 'diff --git' section: not a patch made by make patch" % where)
    return sections


def git(upstream: str, args: List[str]) -> subprocess.CompletedProcess:
    env = dict(os.environ)
    # UPSTREAM may sit inside another checkout (a synthetic tree under our
    # build/): stop git from finding that one, or it would take paths as
    # relative to the wrong top directory. UPSTREAM's own .git still counts.
    env["GIT_CEILING_DIRECTORIES"] = os.path.dirname(os.path.realpath(upstream))
    env["LC_ALL"] = "C"
    return subprocess.run(["git"] + args, cwd=upstream, env=env,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def explain(stderr: str, sections: List[Section], upstream: str) -> List[str]:
    """Turn git apply's errors into ones that name the hunk."""
    by_path = {s.path: s for s in sections}
    out = []
    for line in stderr.splitlines():
        m = re.match(r"^error: patch failed: (.+):(\d+)$", line)
        if m and m.group(1) in by_path:
            sec, at = by_path[m.group(1)], int(m.group(2))
            for n, h in enumerate(sec.hunks, 1):
                if h.old_start == at:
                    out.append("hunk %d of %d of %s does not apply to %s: %s"
                               % (n, len(sec.hunks), sec.path,
                                  os.path.join(upstream, sec.path), h.header().rstrip()))
                    break
            else:
                out.append("a hunk of %s at line %d does not apply" % (sec.path, at))
            continue
        m = re.match(r"^error: (.+): already exists in working directory$", line)
        if m:
            out.append("%s is new in the patch set but UPSTREAM already has it" % m.group(1))
            continue
        m = re.match(r"^error: (.+): No such file or directory$", line)
        if m and m.group(1) in by_path:
            out.append("%s: the patch changes it but UPSTREAM does not have it" % m.group(1))
            continue
        if (line.startswith(("error:", "fatal:")) and "does not apply" not in line
                and "while searching for" not in line):
            out.append(line)
    return out


def apply(patch_path: str, upstream: str, log=print) -> int:
    if not upstream:
        raise PatchSetError("UPSTREAM is not set: make apply UPSTREAM=<OpenJDK checkout>")
    if not os.path.isdir(upstream):
        raise PatchSetError("UPSTREAM=%s is not a directory" % upstream)
    if not os.path.isdir(os.path.join(upstream, "src", "java.base")):
        raise PatchSetError("UPSTREAM=%s does not look like an OpenJDK checkout "
                            "(no src/java.base)" % upstream)
    patch_path = os.path.abspath(patch_path)   # git runs in UPSTREAM
    with open(patch_path, "rb") as f:
        sections = parse_patch(decode(f.read()), patch_path)

    not_checked: List[str] = []
    for s in sections:
        m = NATIVE_RE.match(s.path)
        if m and not os.path.isdir(os.path.join(upstream, m.group(1))):
            not_checked.append(s.path)
    excludes = ["--exclude=" + p for p in not_checked]
    checked = [s for s in sections if s.path not in not_checked]

    log("Checking %d files of %s against %s" % (len(checked), patch_path, upstream))
    for p in not_checked:
        log("  not checked: %s (UPSTREAM has no %s)" % (p, NATIVE_RE.match(p).group(1)))
    if not checked:
        raise PatchSetError("nothing to apply: every file of the patch was left out")

    check = git(upstream, ["apply", "--check", "--verbose"] + excludes + [patch_path])
    if check.returncode != 0:
        back = git(upstream, ["apply", "--check", "--reverse"] + excludes + [patch_path])
        if back.returncode == 0:
            raise PatchSetError("the patch set is already applied to %s; nothing changed"
                                % upstream)
        reasons = explain(decode(check.stderr), checked, upstream)
        raise PatchSetError("the patch does not apply to %s; nothing changed:\n  %s"
                            % (upstream, "\n  ".join(reasons or [decode(check.stderr).strip()])))

    done = git(upstream, ["apply"] + excludes + [patch_path])
    if done.returncode != 0:
        # git apply writes nothing when any hunk fails; say so plainly.
        raise PatchSetError("git apply failed after a clean check; it applies all or nothing, "
                            "so %s is unchanged:\n%s" % (upstream, decode(done.stderr).strip()))
    for s in checked:
        log("  applied: %s%s" % (s.path, " (new)" if s.new else ""))
    log("Applied %d files to %s%s" % (
        len(checked), upstream,
        "; %d native files not checked" % len(not_checked) if not_checked else ""))
    return 0


def fake_targets(patch_path: str, out: str, log=print) -> None:
    """Test support: for every changed (not new) file under a native
    directory, write a stand-in upstream file that holds each hunk's old side
    at its line, filler elsewhere, so the native hunks can be checked without
    upstream's text in this repository."""
    with open(patch_path, "rb") as f:
        sections = parse_patch(decode(f.read()), patch_path)
    for s in sections:
        if s.new or not NATIVE_RE.match(s.path):
            continue
        lines: List[str] = []
        for h in s.hunks:
            while len(lines) < h.old_start - 1:
                lines.append("/* stand-in line %d */\n" % (len(lines) + 1))
            lines.extend(h.old_lines())
        if not lines or lines[-1].endswith("\n"):
            lines.extend("/* stand-in tail %d */\n" % n for n in range(1, 4))
        dest = os.path.join(out, s.path)
        os.makedirs(os.path.dirname(dest), exist_ok=True)
        with open(dest, "w", encoding="utf-8", errors="surrogateescape", newline="") as f:
            f.write("".join(lines))
        log("wrote stand-in %s" % dest)


def first_context_line(patch_path: str, path: str) -> Optional[int]:
    """Test support: the line number in the old file of the first context
    line of `path`'s first hunk, to break that hunk on purpose."""
    with open(patch_path, "rb") as f:
        sections = parse_patch(decode(f.read()), patch_path)
    for s in sections:
        if s.path == path and s.hunks:
            h = s.hunks[0]
            line = h.old_start
            for op, _ in h.lines:
                if op == " ":
                    return line
                if op == "-":
                    line += 1
            return None
    return None
