# SPDX-License-Identifier: GPL-2.0-only WITH Classpath-exception-2.0
"""`make apply UPSTREAM=<tree>`: `git apply --check` of the whole patch,
then `git apply`, which writes nothing unless every hunk applies."""

import os
import re
from typing import Dict, List, Tuple

from patchset import PatchSetError, decode, git

SECTION_RE = re.compile(r"^diff --git a/(\S+) b/\S+$", re.M)
HUNK_RE = re.compile(r"^@@ -(\d+)(?:,\d+)? \+\d+(?:,\d+)? @@", re.M)


def sections(text: str) -> Dict[str, Tuple[bool, List[Tuple[int, str]]]]:
    """path -> (new file?, [(old start, @@ header)]) for each file of the
    patch; a file that several patches change (of one series, or of two
    topics) has the hunks of all of them, in order."""
    found: Dict[str, Tuple[bool, List[Tuple[int, str]]]] = {}
    starts = [m for m in SECTION_RE.finditer(text)]
    for k, m in enumerate(starts):
        body = text[m.end():starts[k + 1].start() if k + 1 < len(starts) else len(text)]
        new, hunks = found.get(m.group(1), ("\nnew file mode" in body, []))
        found[m.group(1)] = (new, hunks + [(int(h.group(1)), h.group(0))
                                           for h in HUNK_RE.finditer(body)])
    return found


def explain(stderr: str, files, upstream: str) -> List[str]:
    """git apply's errors, with the failing hunk named."""
    out = []
    for line in stderr.splitlines():
        m = re.match(r"^error: patch failed: (.+):(\d+)$", line)
        if m and m.group(1) in files:
            hunks = files[m.group(1)][1]
            at = int(m.group(2))
            n = next((k for k, (start, _) in enumerate(hunks, 1) if start == at), 0)
            out.append("hunk %s of %d of %s does not apply to %s: %s" % (
                n or "?", len(hunks), m.group(1), os.path.join(upstream, m.group(1)),
                hunks[n - 1][1] if n else "at line %d" % at))
            continue
        m = re.match(r"^error: (.+): already exists in working directory$", line)
        if m:
            out.append("%s is new in the patch set but UPSTREAM already has it" % m.group(1))
            continue
        m = re.match(r"^error: (.+): No such file or directory$", line)
        if m:
            out.append("%s: the patch changes it but UPSTREAM does not have it" % m.group(1))
            continue
        if line.startswith(("error:", "fatal:")) and not line.endswith("patch does not apply") \
                and "while searching for" not in line:
            out.append(line)
    return out


def apply(patch_path: str, upstream: str, log=print) -> int:
    if not upstream:
        raise PatchSetError("UPSTREAM is not set: make apply UPSTREAM=<OpenJDK checkout>")
    if not os.path.isdir(os.path.join(upstream, "src", "java.base")):
        raise PatchSetError("UPSTREAM=%s does not look like an OpenJDK checkout "
                            "(no src/java.base)" % upstream)
    patch_path = os.path.abspath(patch_path)   # git runs in UPSTREAM
    with open(patch_path, "rb") as f:
        files = sections(decode(f.read()))
    if not files:
        raise PatchSetError("%s: no 'diff --git' section: not a patch made by make patch"
                            % patch_path)
    log("Checking %d files of %s against %s" % (len(files), patch_path, upstream))
    check = git(["apply", "--check", "--verbose", patch_path], cwd=upstream, check=False)
    if check.returncode != 0:
        if git(["apply", "--check", "--reverse", patch_path], cwd=upstream,
               check=False).returncode == 0:
            raise PatchSetError("the patch set is already applied to %s; nothing changed"
                                % upstream)
        err = decode(check.stderr)
        raise PatchSetError("the patch does not apply to %s; nothing changed:\n  %s"
                            % (upstream, "\n  ".join(explain(err, files, upstream)
                                                     or [err.strip()])))
    done = git(["apply", patch_path], cwd=upstream, check=False)
    if done.returncode != 0:
        raise PatchSetError("git apply failed after a clean check; it applies all or nothing, "
                            "so %s is unchanged:\n%s" % (upstream, decode(done.stderr).strip()))
    for path, (new, _) in sorted(files.items()):
        log("  applied: %s%s" % (path, " (new)" if new else ""))
    log("Applied %d files to %s" % (len(files), upstream))
    return 0
