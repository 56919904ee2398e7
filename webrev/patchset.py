# SPDX-License-Identifier: GPL-2.0-only WITH Classpath-exception-2.0
"""The patch set as a list of file changes against a baseline.

One model feeds both `make patch` (the git-style patch) and `make webrev`
(the review pages), so the two can never disagree about what changed.

A file of the patch set is either
  - a whole file stored at its upstream path: diffed against the baseline's
    version when the baseline's src.zip holds it, else against /dev/null, or
  - a hunk file `<upstream path>.patch`: unified-diff hunks against an
    upstream file, taken as they are (only the headers are normalised).
"""

import difflib
import hashlib
import os
import re
import subprocess
import zipfile
from dataclasses import dataclass, field
from typing import List, Optional, Tuple

ENCODING = "utf-8"
ERRORS = "surrogateescape"  # round-trips any byte, so a diff never alters text
ZERO_ID = "0" * 40

# The platform directories whose Java sources a Linux JDK's src.zip carries
# (merged under <module>/). Sources of other platforms are not in the zip.
ZIP_PLATFORM_DIRS = ("share", "unix", "linux")


class PatchSetError(Exception):
    """Bad input: the message says which file and what is wrong."""


# ---------------------------------------------------------------- text helpers

def decode(data: bytes) -> str:
    return data.decode(ENCODING, ERRORS)


def encode(text: str) -> bytes:
    return text.encode(ENCODING, ERRORS)


def split_lines(text: str) -> List[str]:
    """Split on '\\n' only, keeping it (str.splitlines also splits on form
    feeds and other characters that old Java sources contain)."""
    if not text:
        return []
    lines = text.split("\n")
    out = [line + "\n" for line in lines[:-1]]
    if lines[-1]:
        out.append(lines[-1])
    return out


def blob_id(data: bytes) -> str:
    """The id git gives a blob, so the patch's index lines let
    `git apply --3way` find the base version in a vendor's repository."""
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


# ---------------------------------------------------------------- hunks

@dataclass
class Hunk:
    old_start: int          # as in the @@ header (0 when old_count is 0)
    old_count: int
    new_start: int
    new_count: int
    section: str            # text after the second @@, may be empty
    lines: List[Tuple[str, str]]  # (' ' | '-' | '+', text; '\n' kept unless at EOF)

    def header(self) -> str:
        return "@@ -%s +%s @@%s\n" % (fmt_range(self.old_start, self.old_count),
                                       fmt_range(self.new_start, self.new_count),
                                       self.section)

    def text(self) -> str:
        out = [self.header()]
        for op, line in self.lines:
            out.append(op + line)
            if not line.endswith("\n"):
                out.append("\n\\ No newline at end of file\n")
        return "".join(out)

    def old_lines(self) -> List[str]:
        return [line for op, line in self.lines if op != "+"]

    def new_lines(self) -> List[str]:
        return [line for op, line in self.lines if op != "-"]

    def ops(self):
        """difflib-style opcodes over (old_lines(), new_lines())."""
        ops = []
        i = j = 0
        k = 0
        lines = self.lines
        while k < len(lines):
            if lines[k][0] == " ":
                start = k
                while k < len(lines) and lines[k][0] == " ":
                    k += 1
                n = k - start
                ops.append(("equal", i, i + n, j, j + n))
                i += n
                j += n
            else:
                d = a = 0
                while k < len(lines) and lines[k][0] != " ":
                    if lines[k][0] == "-":
                        d += 1
                    else:
                        a += 1
                    k += 1
                tag = "replace" if d and a else ("delete" if d else "insert")
                ops.append((tag, i, i + d, j, j + a))
                i += d
                j += a
        return ops


def fmt_range(start: int, count: int) -> str:
    return str(start) if count == 1 else "%d,%d" % (start, count)


HUNK_RE = re.compile(r"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@(.*)$")


def parse_hunks(lines: List[str], pos: int, where: str) -> Tuple[List[Hunk], int]:
    """Parse hunks starting at lines[pos] until a line that starts no hunk.
    Returns the hunks and the index of the first unconsumed line."""
    hunks = []
    while pos < len(lines):
        m = HUNK_RE.match(lines[pos].rstrip("\n"))
        if not m:
            break
        old_start, new_start = int(m.group(1)), int(m.group(3))
        old_count = int(m.group(2)) if m.group(2) is not None else 1
        new_count = int(m.group(4)) if m.group(4) is not None else 1
        hunk_no = len(hunks) + 1
        hlines: List[Tuple[str, str]] = []
        old_seen = new_seen = 0
        pos += 1
        while old_seen < old_count or new_seen < new_count:
            if pos >= len(lines):
                raise PatchSetError(
                    "%s: hunk %d (%s) ends early: expected %d old and %d new lines, found %d and %d"
                    % (where, hunk_no, m.group(0), old_count, new_count, old_seen, new_seen))
            raw = lines[pos]
            op = raw[0]
            if raw in ("\n", "\r\n"):     # an editor stripped the context's blank
                op, raw = " ", " " + raw
            if op not in " -+":
                raise PatchSetError(
                    "%s:%d: hunk %d (%s): line starts with %r, not ' ', '-' or '+' "
                    "(or the @@ counts are wrong: expected %d old and %d new lines, "
                    "found %d and %d)"
                    % (where, pos + 1, hunk_no, m.group(0), op, old_count, new_count,
                       old_seen, new_seen))
            hlines.append((op, raw[1:]))
            if op != "+":
                old_seen += 1
            if op != "-":
                new_seen += 1
            if old_seen > old_count or new_seen > new_count:
                raise PatchSetError(
                    "%s:%d: hunk %d (%s) has more lines than its @@ counts say"
                    % (where, pos + 1, hunk_no, m.group(0)))
            pos += 1
            if pos < len(lines) and lines[pos].startswith("\\"):
                # "\ No newline at end of file" belongs to the line before
                op_, text = hlines[-1]
                hlines[-1] = (op_, text[:-1] if text.endswith("\n") else text)
                pos += 1
        if not hlines or all(op == " " for op, _ in hlines):
            raise PatchSetError("%s: hunk %d (%s) changes nothing" % (where, hunk_no, m.group(0)))
        hunk = Hunk(old_start, old_count, new_start, new_count, m.group(5), hlines)
        if hunks:
            prev = hunks[-1]
            if hunk.old_start < prev.old_start + prev.old_count:
                raise PatchSetError(
                    "%s: hunk %d (%s) overlaps or precedes hunk %d: hunks must be in file order"
                    % (where, hunk_no, m.group(0), hunk_no - 1))
        hunks.append(hunk)
    return hunks, pos


def strip_header_path(raw: str, prefix: str) -> str:
    path = raw.rstrip("\n").split("\t", 1)[0].strip()
    if path.startswith('"'):
        raise PatchSetError("quoted path names are not supported: %s" % path)
    if path != "/dev/null" and path.startswith(prefix):
        path = path[len(prefix):]
    return path


def clean_comment(lines: List[str]) -> List[str]:
    """The hunk file's own words for reviewers: without its licence lines
    (every file has them), a leading '#', or git's header lines."""
    out: List[str] = []
    for line in lines:
        line = line.rstrip("\r\n")
        if line.startswith(("diff --git ", "index ")):
            continue
        if line.startswith("#"):
            line = line[2:] if line.startswith("# ") else line[1:]
        if "SPDX-License-Identifier" in line or line.startswith("Copyright (c)"):
            continue
        if line.strip() or (out and out[-1]):
            out.append(line.rstrip())
    while out and not out[-1]:
        out.pop()
    return out


BASELINES_RE = re.compile(r"^#?\s*Baselines:(.*)$")


def hunk_file_baselines(data: str, source: str) -> Optional[List[str]]:
    """The feature versions a hunk file's `Baselines: 17 25` line (before
    its first `---`) names, or None when it has no such line: hunks that
    exist for some releases only (the file was removed or added upstream)."""
    for line in split_lines(data):
        if line.startswith("--- "):
            break
        m = BASELINES_RE.match(line.rstrip("\r\n"))
        if m:
            names = [n.rstrip("u") for n in re.split(r"[\s,]+", m.group(1).strip()) if n]
            if not names or not all(n.isdigit() for n in names):
                raise PatchSetError("%s: %r: expected feature versions, e.g. 'Baselines: 17 25'"
                                    % (source, line.rstrip("\r\n")))
            return names
    return None


def parse_hunk_file(data: str, source: str, target: str):
    """A `.patch` hunk file: optional comment lines, then `--- `/`+++ `
    headers naming `target` (with or without a/ b/), then hunks."""
    lines = split_lines(data)
    pos = 0
    while pos < len(lines) and not lines[pos].startswith("--- "):
        pos += 1
    if pos >= len(lines):
        raise PatchSetError("%s: no '--- ' header line: a hunk file holds a unified diff of %s"
                            % (source, target))
    comment = clean_comment(lines[:pos])
    if pos + 1 >= len(lines) or not lines[pos + 1].startswith("+++ "):
        raise PatchSetError("%s:%d: '--- ' is not followed by a '+++ ' line" % (source, pos + 2))
    old = strip_header_path(lines[pos][4:], "a/")
    new = strip_header_path(lines[pos + 1][4:], "b/")
    for side, path in (("---", old), ("+++", new)):
        if path != target:
            raise PatchSetError(
                "%s: the %s header names %r; a hunk file stored at %s must patch %s "
                "(headers '--- a/%s' and '+++ b/%s')"
                % (source, side, path, source, target, target, target))
    hunks, end = parse_hunks(lines, pos + 2, source)
    if not hunks:
        raise PatchSetError("%s:%d: no hunk after the headers" % (source, pos + 3))
    rest = [l for l in lines[end:] if l.strip()]
    if rest:
        raise PatchSetError(
            "%s:%d: unexpected text after the last hunk (one hunk file patches one file; "
            "are the @@ counts right?): %r" % (source, end + 1, rest[0].rstrip("\n")))
    return comment, hunks


# ---------------------------------------------------------------- changes

@dataclass
class Fragment:
    """A stretch of the file seen on both sides: the whole file, or one hunk
    when the upstream file is not at hand."""
    old_start: int            # 1-based line number of old_lines[0]
    new_start: int
    old_lines: List[str]
    new_lines: List[str]
    ops: list


@dataclass
class Stats:
    ins: int = 0
    dele: int = 0
    mod: int = 0
    unchg: int = 0

    @property
    def changed(self) -> int:
        return self.ins + self.dele + self.mod

    def add(self, other: "Stats") -> None:
        self.ins += other.ins
        self.dele += other.dele
        self.mod += other.mod
        self.unchg += other.unchg

    def line(self) -> str:
        # The wording of OpenJDK's webrev, which reviewers read at a glance.
        return "%d lines changed; %d ins; %d del; %d mod; %d unchg" % (
            self.changed, self.ins, self.dele, self.mod, self.unchg)


@dataclass
class FileChange:
    path: str                 # upstream path, as in an OpenJDK checkout
    source: str               # our file it comes from (path, or path + ".patch")
    kind: str                 # "new" | "modified" | "hunks"
    old_desc: str             # where the old side comes from
    hunks: List[Hunk]
    fragments: List[Fragment]
    complete: bool            # fragments cover the whole file on both sides
    mode: str = "100644"
    old_id: Optional[str] = None
    new_id: Optional[str] = None
    comment: List[str] = field(default_factory=list)

    def stats(self) -> Stats:
        s = Stats()
        for frag in self.fragments:
            for tag, i1, i2, j1, j2 in frag.ops:
                a, b = i2 - i1, j2 - j1
                if tag == "equal":
                    s.unchg += a
                else:
                    m = min(a, b)
                    s.mod += m
                    s.dele += a - m
                    s.ins += b - m
        return s

    def patch_text(self) -> str:
        p = self.path
        out = ["diff --git a/%s b/%s\n" % (p, p)]
        if self.kind == "new":
            out.append("new file mode %s\n" % self.mode)
            out.append("index %s..%s\n" % (ZERO_ID, self.new_id))
            if not self.hunks:          # an empty new file: git writes no ---/+++
                return "".join(out)
            out.append("--- /dev/null\n+++ b/%s\n" % p)
        else:
            if self.old_id and self.new_id:
                out.append("index %s..%s %s\n" % (self.old_id, self.new_id, self.mode))
            out.append("--- a/%s\n+++ b/%s\n" % (p, p))
        out.extend(h.text() for h in self.hunks)
        return "".join(out)


def diff_whole(old: List[str], new: List[str]) -> Tuple[List[Hunk], list]:
    """Hunks with three lines of context (as git and webrev use) and the
    opcodes over the whole file."""
    sm = difflib.SequenceMatcher(None, old, new, autojunk=False)
    # A copy: get_grouped_opcodes trims the first and last entries of the
    # list get_opcodes caches, which would lose unchanged lines from the stats.
    ops = list(sm.get_opcodes())
    hunks = []
    for group in sm.get_grouped_opcodes(3):
        i1, j1 = group[0][1], group[0][3]
        i2, j2 = group[-1][2], group[-1][4]
        lines = []
        for tag, a1, a2, b1, b2 in group:
            if tag == "equal":
                lines.extend((" ", l) for l in old[a1:a2])
                continue
            lines.extend(("-", l) for l in old[a1:a2])
            lines.extend(("+", l) for l in new[b1:b2])
        oc, nc = i2 - i1, j2 - j1
        hunks.append(Hunk(i1 + 1 if oc else i1, oc, j1 + 1 if nc else j1, nc, "", lines))
    return hunks, ops


def apply_hunks(old: List[str], hunks: List[Hunk], where: str) -> Tuple[List[str], list]:
    """Apply hunks to a full old text (for display only; `make apply` uses
    git apply). Like git, a hunk may sit at an offset from its header line.
    Returns the new text and whole-file opcodes."""
    new: List[str] = []
    ops = []
    i = 0            # next old line not yet copied
    for n, h in enumerate(hunks, 1):
        want = h.old_lines()
        at = find_block(old, want, max(h.old_start - 1, 0), i)
        if at is None:
            raise PatchSetError("%s: hunk %d (%s) does not apply: its context is not in the file"
                                % (where, n, h.header().rstrip()))
        if at > i:
            ops.append(("equal", i, at, len(new), len(new) + at - i))
            new.extend(old[i:at])
        for tag, a1, a2, b1, b2 in h.ops():
            ops.append((tag, at + a1, at + a2, len(new) + b1, len(new) + b2))
        new.extend(h.new_lines())
        i = at + len(want)
    if i < len(old):
        ops.append(("equal", i, len(old), len(new), len(new) + len(old) - i))
        new.extend(old[i:])
    return new, ops


def find_block(lines: List[str], block: List[str], hint: int, lowest: int) -> Optional[int]:
    """Where `block` occurs at or after `lowest`, nearest to `hint` first."""
    n = len(block)
    limit = len(lines) - n
    if limit < lowest:
        return None
    hint = min(max(hint, lowest), limit)
    for delta in range(0, limit - lowest + 1):
        for at in (hint,) if delta == 0 else (hint - delta, hint + delta):
            if lowest <= at <= limit and lines[at:at + n] == block:
                return at
    return None


# ---------------------------------------------------------------- selection

class Rules:
    """`include GLOB` / `exclude GLOB` lines, optionally qualified by the base
    JDK's feature version: `... if jdk17,jdk21` (the rule counts only for
    those) or `... unless jdk17` (it counts for all others). The first rule
    that counts and matches decides; a path no rule matches is left out."""

    def __init__(self, path: str, feature: str = ""):
        self.rules = []
        self.not_counting = []      # (regex, rule text) of rules for other base JDKs
        self.path = path
        with open(path, encoding=ENCODING) as f:
            for no, line in enumerate(f, 1):
                line = line.strip()
                if not line or line.startswith("#"):
                    continue
                parts = line.split()
                ok = (len(parts) in (2, 4) and parts[0] in ("include", "exclude")
                      and (len(parts) == 2 or parts[2] in ("if", "unless")))
                features = []
                if ok and len(parts) == 4:
                    features = parts[3].split(",")
                    ok = all(re.match(r"^jdk[0-9]+$", x) for x in features)
                if not ok:
                    raise PatchSetError(
                        "%s:%d: expected 'include|exclude GLOB [if|unless jdkN[,jdkM...]]', got %r"
                        % (path, no, line))
                counts = True
                if features:
                    if not feature:
                        raise PatchSetError("%s:%d: the rule depends on the base JDK's feature "
                                            "version, which was not given (--feature)" % (path, no))
                    counts = (("jdk" + feature) in features) == (parts[2] == "if")
                    if not counts and parts[0] == "include":
                        self.not_counting.append((glob_re(parts[1]), line))
                if counts:
                    self.rules.append((parts[0] == "include", glob_re(parts[1]),
                                       line if features else None))

    def release_rule(self, path: str) -> Optional[str]:
        """When `path` is left out because of the base JDK's release, the
        rule that says so."""
        for include, rx, conditional in self.rules:
            if rx.match(path):
                if not include and conditional:
                    return conditional
                break
        for rx, line in self.not_counting:
            if rx.match(path):
                return line
        return None

    def selects(self, path: str) -> bool:
        for include, rx, _ in self.rules:
            if rx.match(path):
                return include
        return False


def glob_re(glob: str):
    """'**' matches across directories, '*' and '?' within one."""
    out = []
    i = 0
    while i < len(glob):
        if glob.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
        elif glob.startswith("**", i):
            out.append(".*")
            i += 2
        elif glob[i] == "*":
            out.append("[^/]*")
            i += 1
        elif glob[i] == "?":
            out.append("[^/]")
            i += 1
        else:
            out.append(re.escape(glob[i]))
            i += 1
    return re.compile("^" + "".join(out) + "$")


def list_files(root: str) -> List[str]:
    """Files of the checkout (tracked, or new and not ignored), so a fresh
    clone and a work in progress give the same set; a plain directory tree
    when the root is not a git checkout."""
    try:
        out = subprocess.run(
            ["git", "-C", root, "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
            check=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE).stdout
        top = subprocess.run(["git", "-C", root, "rev-parse", "--show-toplevel"],
                             check=True, stdout=subprocess.PIPE).stdout.decode().strip()
        if os.path.realpath(top) != os.path.realpath(root):
            raise subprocess.CalledProcessError(1, "git")  # root is inside another checkout
        names = {n for n in out.decode(ENCODING, ERRORS).split("\0") if n}
    except (OSError, subprocess.CalledProcessError):
        names = set()
        for dirpath, dirnames, filenames in os.walk(root):
            rel = os.path.relpath(dirpath, root)
            dirnames[:] = [d for d in dirnames if not (rel == "." and d in ("build", ".git"))]
            for fn in filenames:
                names.add(os.path.normpath(os.path.join(rel, fn)).replace(os.sep, "/"))
    return sorted(n for n in names
                  if os.path.isfile(os.path.join(root, n)) or os.path.islink(os.path.join(root, n)))


# ---------------------------------------------------------------- baseline

JAVA_PATH_RE = re.compile(r"^src/(?P<module>[^/]+)/(?P<os>[^/]+)/classes/(?P<rel>.+)$")


class Baseline:
    """The base JDK's Java sources (its src.zip), and optionally an upstream
    checkout for the files the zip does not carry (native code, other
    platforms' classes, tests): used only to show hunk files whole."""

    def __init__(self, zip_path: str, version: str, origin: str, upstream: Optional[str] = None):
        if not zip_path:
            raise PatchSetError(
                "no baseline: BOOT_JDK_SRC_ZIP is empty (the base JDK has no lib/src.zip; "
                "for Debian's OpenJDK 17 install the package openjdk-17-source)")
        if not os.path.isfile(zip_path):
            raise PatchSetError("baseline sources not found: %s (BOOT_JDK_SRC_ZIP)" % zip_path)
        try:
            self.zip = zipfile.ZipFile(zip_path)
        except zipfile.BadZipFile as e:
            raise PatchSetError("baseline sources %s: not a zip file (%s)" % (zip_path, e))
        self.zip_path = zip_path
        self.names = set(self.zip.namelist())
        self.version = version
        self.origin = origin
        self.upstream = upstream

    def zip_entry(self, path: str) -> Optional[str]:
        """The zip entry that answers for `path`, or None when the zip cannot
        say whether upstream has the file."""
        m = JAVA_PATH_RE.match(path)
        if not m or m.group("os") not in ZIP_PLATFORM_DIRS or not path.endswith(".java"):
            return None
        return "%s/%s" % (m.group("module"), m.group("rel"))

    def read_zip(self, entry: str) -> Optional[bytes]:
        return self.zip.read(entry) if entry in self.names else None

    def read_upstream(self, path: str) -> Optional[bytes]:
        if not self.upstream:
            return None
        full = os.path.join(self.upstream, path)
        if not os.path.isfile(full):
            return None
        with open(full, "rb") as f:
            return f.read()


# ---------------------------------------------------------------- the set

class PatchSet:
    def __init__(self, root: str, rules_path: str, baseline: Baseline, feature: str = ""):
        self.root = root
        self.baseline = baseline
        self.rules = Rules(rules_path, feature)
        self.feature = feature
        self.notes: List[str] = []      # things a user should know, not errors
        self.left_out: List[Tuple[str, str]] = []
        self.changes: List[FileChange] = self._collect()

    def _collect(self) -> List[FileChange]:
        listed = list_files(self.root)
        files = [f for f in listed if self.rules.selects(f)]
        chosen = set(files)
        # Said out loud, so that nobody wonders where a file went.
        rules_name = os.path.basename(self.rules.path)
        self.left_out = [(f, "%s: %s" % (rules_name, self.rules.release_rule(f)))
                         for f in listed if f not in chosen and self.rules.release_rule(f)]
        present = set(files)
        changes = []
        for f in files:
            full = os.path.join(self.root, f)
            if os.path.islink(full):
                raise PatchSetError("%s: a symbolic link; the patch set holds regular files only"
                                    % f)
            with open(full, "rb") as fh:
                data = fh.read()
            if b"\0" in data:
                raise PatchSetError("%s: a binary file; the patch set holds text only" % f)
            mode = "100755" if os.access(full, os.X_OK) else "100644"
            if f.endswith(".patch"):
                target = f[:-len(".patch")]
                if target in present:
                    raise PatchSetError(
                        "%s and %s both exist: store a file either whole or as hunks, not both"
                        % (target, f))
                text = decode(data)
                baselines = hunk_file_baselines(text, f)
                if baselines is not None:
                    if not self.feature:
                        raise PatchSetError("%s names its baselines, but the base JDK's feature "
                                            "version was not given (--feature)" % f)
                    if self.feature not in baselines:
                        self.left_out.append((f, "its 'Baselines: %s' line" % " ".join(baselines)))
                        continue
                changes.append(self._hunk_change(f, target, text))
            else:
                ch = self._whole_change(f, data, mode)
                if ch is None:
                    self.notes.append("%s is identical to the baseline; left out" % f)
                else:
                    changes.append(ch)
        changes.sort(key=lambda c: c.path)
        self.left_out.sort()
        return changes

    def _whole_change(self, path: str, data: bytes, mode: str) -> Optional[FileChange]:
        new = split_lines(decode(data))
        entry = self.baseline.zip_entry(path)
        old_data = self.baseline.read_zip(entry) if entry else None
        if old_data is None:
            hunks = []
            if new:
                hunks = [Hunk(0, 0, 1, len(new), "", [("+", l) for l in new])]
            frag = Fragment(1, 1, [], new, [("insert", 0, 0, 0, len(new))] if new else [])
            return FileChange(path, path, "new", "/dev/null", hunks, [frag], True, mode,
                              None, blob_id(data))
        if old_data == data:
            return None
        old = split_lines(decode(old_data))
        hunks, ops = diff_whole(old, new)
        return FileChange(path, path, "modified", "src.zip: %s" % entry, hunks,
                          [Fragment(1, 1, old, new, ops)], True, mode,
                          blob_id(old_data), blob_id(data))

    def _hunk_change(self, source: str, target: str, text: str) -> FileChange:
        comment, hunks = parse_hunk_file(text, source, target)
        old_data, desc = None, None
        entry = self.baseline.zip_entry(target)
        if entry:
            old_data = self.baseline.read_zip(entry)
            desc = "src.zip: %s" % entry
        from_zip = old_data is not None
        if old_data is None:
            old_data = self.baseline.read_upstream(target)
            desc = "UPSTREAM: %s" % target
        if old_data is not None:
            old = split_lines(decode(old_data))
            new, ops = apply_hunks(old, hunks, "%s (against %s)" % (source, desc))
            ch = FileChange(target, source, "hunks", desc, hunks,
                            [Fragment(1, 1, old, new, ops)], True, comment=comment)
            if from_zip:
                # Only the baseline's own text earns index lines: UPSTREAM
                # is for display and must not change the patch's bytes.
                ch.old_id = blob_id(old_data)
                ch.new_id = blob_id(encode("".join(new)))
            return ch
        frags = [Fragment(h.old_start, h.new_start, h.old_lines(), h.new_lines(), h.ops())
                 for h in hunks]
        return FileChange(target, source, "hunks", "upstream file (not at hand: hunks only)",
                          hunks, frags, False, comment=comment)

    def total(self) -> Stats:
        s = Stats()
        for c in self.changes:
            s.add(c.stats())
        return s

    def patch_text(self) -> str:
        b = self.baseline
        head = [
            "java.base patch set, against JDK %s" % b.version,
            "Baseline sources: %s" % b.origin,
            "",
            # No line counts here: "unchg" depends on whether UPSTREAM was
            # at hand, and the patch's bytes must not.
            "%d files:" % len(self.changes),
        ]
        for c in self.changes:
            note = {"new": "new", "modified": "whole file", "hunks": "hunks"}[c.kind]
            # The hunk files' notes are in the webrev; here they would bury the list.
            head.append("  %-10s %s" % (note, c.path))
        if self.left_out:
            head += ["", "Left out for this base JDK:"]
            head += ["  %s   (%s)" % (f, rule) for f, rule in self.left_out]
        head += ["", "Apply from the top of an OpenJDK checkout: git apply <this file>", "", ""]
        # git apply ignores text before the first "diff --git"; keep it free
        # of lines that look like diff headers.
        text = "\n".join(" " + l if l.startswith(("diff", "---", "+++", "@@")) else l
                         for l in head)
        return text + "".join(c.patch_text() for c in self.changes)
