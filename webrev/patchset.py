# SPDX-License-Identifier: GPL-2.0-only WITH Classpath-exception-2.0
"""The patch set: which of our files form it, and the patched tree git
builds from them on top of the baseline's release tag.

Ours are the layout rules (patchset.rules, `Baselines:` lines, whole files
and `<path>.patch` hunk files) and the licence headers (headers.py). git
does the rest: a private repository whose objects are the baseline's
(alternates, nothing copied) gets the tag's tree in an index, our whole
files are hashed into it, our hunk files are applied to it with
`git apply --cached`, and each topic's series is `git format-patch` of its
commits against the tag. Topics may change the same file: each is made
alone on the tag (a topic that depends on another, on that one's head),
and all of them together by applying every topic's commits in turn on top
of the topics before it.
"""

import io
import os
import re
import shutil
import subprocess
import tarfile
import textwrap
from dataclasses import dataclass, field
from typing import Callable, Dict, List, Optional, Tuple

import headers
import series

ENCODING = "utf-8"
ERRORS = "surrogateescape"  # round-trips any byte


class PatchSetError(Exception):
    """Bad input or a failed step: the message says which file and why."""


def decode(data: bytes) -> str:
    return data.decode(ENCODING, ERRORS)


def encode(text: str) -> bytes:
    return text.encode(ENCODING, ERRORS)


def split_lines(text: str) -> List[str]:
    """Split on '\\n' only, keeping it (str.splitlines also splits on form
    feeds, which old Java sources contain)."""
    out = [l + "\n" for l in text.split("\n")]
    out[-1] = out[-1][:-1]
    return out if out[-1] else out[:-1]


# ---------------------------------------------------------------- git

def git(args: List[str], git_dir: Optional[str] = None, index: Optional[str] = None,
        cwd: Optional[str] = None, stdin: Optional[bytes] = None,
        check: bool = True, extra_env: Optional[Dict[str, str]] = None
        ) -> subprocess.CompletedProcess:
    """git without the user's or the system's configuration, so that the
    output depends only on the trees."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_") and k != "COLUMNS"}
    env.update(GIT_CONFIG_NOSYSTEM="1", GIT_CONFIG_GLOBAL=os.devnull, LC_ALL="C",
               GIT_AUTHOR_NAME="java.base patch set", GIT_AUTHOR_EMAIL="patchset@invalid",
               GIT_COMMITTER_NAME="java.base patch set",
               GIT_COMMITTER_EMAIL="patchset@invalid")
    env.update(extra_env or {})
    if git_dir:
        env["GIT_DIR"] = git_dir
    if index:
        env["GIT_INDEX_FILE"] = index
    if cwd:
        # cwd may sit inside another checkout (a tree under our build/):
        # git must not take that one for cwd's repository.
        env["GIT_CEILING_DIRECTORIES"] = os.path.dirname(os.path.realpath(cwd))
    p = subprocess.run(["git", "-c", "core.quotePath=false"] + args, cwd=cwd, env=env,
                       input=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if check and p.returncode != 0:
        raise PatchSetError("git %s failed: %s" % (" ".join(args[:2]), decode(p.stderr).strip()))
    return p


def out(p: subprocess.CompletedProcess) -> str:
    return decode(p.stdout).strip()


# ---------------------------------------------------------------- selection

class Rules:
    """`include GLOB` / `exclude GLOB` lines, optionally qualified by the base
    JDK's feature version: `... if jdk17,jdk21` (the rule counts only for
    those) or `... unless jdk17`. The first rule that counts and matches
    decides; a path no rule matches is left out."""

    def __init__(self, path: str, feature: str):
        self.path = path
        self.rules = []          # (include, regex, rule text when release-specific)
        self.not_counting = []   # (regex, text) of include rules for other releases
        with open(path, encoding=ENCODING) as f:
            for no, line in enumerate(f, 1):
                parts = line.split()
                if not parts or parts[0].startswith("#"):
                    continue
                ok = (len(parts) in (2, 4) and parts[0] in ("include", "exclude")
                      and (len(parts) == 2 or parts[2] in ("if", "unless")))
                features = parts[3].split(",") if ok and len(parts) == 4 else []
                if not ok or not all(re.match(r"^jdk[0-9]+$", x) for x in features):
                    raise PatchSetError("%s:%d: expected 'include|exclude GLOB "
                                        "[if|unless jdkN[,jdkM...]]', got %r"
                                        % (path, no, line.strip()))
                text = " ".join(parts)
                counts = not features or (("jdk" + feature) in features) == (parts[2] == "if")
                if counts:
                    self.rules.append((parts[0] == "include", glob_re(parts[1]),
                                       text if features else None))
                elif parts[0] == "include":
                    self.not_counting.append((glob_re(parts[1]), text))

    def selects(self, path: str) -> bool:
        return next((inc for inc, rx, _ in self.rules if rx.match(path)), False)

    def release_rule(self, path: str) -> Optional[str]:
        """When `path` is left out because of the base JDK's release, the rule."""
        for include, rx, conditional in self.rules:
            if rx.match(path):
                if not include and conditional:
                    return conditional
                break
        return next((text for rx, text in self.not_counting if rx.match(path)), None)


def glob_re(glob: str):
    """'**' matches across directories, '*' and '?' within one."""
    rx = re.escape(glob).replace(r"\*\*/", "(?:.*/)?").replace(r"\*\*", ".*")
    return re.compile("^" + rx.replace(r"\*", "[^/]*").replace(r"\?", "[^/]") + "$")


def list_files(root: str) -> List[str]:
    """Files git knows in the checkout (tracked, or new and not ignored)."""
    top = out(git(["rev-parse", "--show-toplevel"], cwd=root, check=False))
    if not top or os.path.realpath(top) != os.path.realpath(root):
        raise PatchSetError("%s is not the top of a git checkout" % root)
    names = decode(git(["ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                       cwd=root).stdout).split("\0")
    return sorted(n for n in names if n and os.path.lexists(os.path.join(root, n)))


BASELINES_RE = re.compile(r"^#?\s*Baselines:(.*)$")


def hunk_file_baselines(text: str, source: str) -> Optional[List[str]]:
    """The feature versions a hunk file's `Baselines: 17 25` line (before its
    first `---`) names, or None when it has none."""
    for line in text.split("\n"):
        if line.startswith("--- "):
            break
        m = BASELINES_RE.match(line.rstrip("\r"))
        if m:
            names = [n.rstrip("u") for n in re.split(r"[\s,]+", m.group(1).strip()) if n]
            if not names or not all(n.isdigit() for n in names):
                raise PatchSetError("%s: %r: expected feature versions, e.g. 'Baselines: 17 25'"
                                    % (source, line))
            return names
    return None


def hunk_file_comment(text: str) -> List[str]:
    """The hunk file's words for reviewers: its lines before `---`, without
    the '#', the licence lines and the Baselines line."""
    lines: List[str] = []
    for line in text.split("\n"):
        if line.startswith("--- "):
            break
        line = re.sub(r"^# ?", "", line.rstrip())
        if headers.SPDX in line or line.startswith("Copyright (c)") or BASELINES_RE.match(line):
            continue
        if line or (lines and lines[-1]):
            lines.append(line)
    while lines and not lines[-1]:
        lines.pop()
    return lines


HEADER_RE = re.compile(r"^(---|\+\+\+) (?:[ab]/)?([^\t\n]+)", re.M)
HUNK_RE = re.compile(r"^@@ -(\d+)(?:,\d+)? \+\d+(?:,\d+)? @@.*$", re.M)


def check_hunk_file(text: str, source: str, target: str) -> int:
    """That the hunk file patches `target` and nothing else; returns the -p
    level git apply needs (headers with or without a/ b/)."""
    names = HEADER_RE.findall(text)
    if not names:
        raise PatchSetError("%s: no '--- '/'+++ ' header lines: a hunk file holds a unified "
                            "diff of %s" % (source, target))
    for side, path in names:
        if path != target:
            raise PatchSetError("%s: the %s header names %r; a hunk file stored at %s must "
                                "patch %s (headers '--- a/%s' and '+++ b/%s')"
                                % (source, side, path, source, target, target, target))
    if not HUNK_RE.search(text):
        raise PatchSetError("%s: no hunk ('@@ ... @@') after the headers" % source)
    return 1 if re.search(r"^--- a/", text, re.M) else 0


def nearest_mismatch(hunk_old: List[str], upstream: List[str]) -> str:
    """Where the old side of a hunk comes closest to upstream's file, the
    first line that differs: what a reviewer needs to fix the hunk."""
    best, at = -1, 0
    for k in range(max(1, len(upstream) - len(hunk_old) + 1)):
        score = sum(a == b for a, b in zip(hunk_old, upstream[k:k + len(hunk_old)]))
        if score > best:
            best, at = score, k
    for n, want in enumerate(hunk_old):
        have = upstream[at + n] if at + n < len(upstream) else None
        if have != want:
            return ("nearest match at line %d; its line %d is %r where the hunk has %r"
                    % (at + 1, at + n + 1, have, want))
    return "its context is not where git looked for it"


def explain_apply_failure(stderr: str, text: str, source: str, target: str, where: str,
                          upstream: Optional[str] = None) -> str:
    """git apply's complaint about one hunk file, naming the hunk and, given
    upstream's text of the file, the line that differs."""
    hunks = [(int(m.group(1)), m.group(0), m.end()) for m in HUNK_RE.finditer(text)]
    for line in stderr.splitlines():
        m = re.match(r"^error: patch failed: .*:(\d+)$", line)
        if m:
            at = int(m.group(1))
            for n, (start, header, end) in enumerate(hunks, 1):
                if start == at:
                    body = text[end + 1:hunks[n][2] if n < len(hunks) else len(text)]
                    old = [l[1:] for l in body.split("\n") if l[:1] in (" ", "-")]
                    why = nearest_mismatch(old, upstream.split("\n")) if upstream else ""
                    return ("%s: hunk %d of %d (%s) does not apply to %s of %s: %s"
                            % (source, n, len(hunks), header, target, where,
                               why or "its context or removed lines are not in that file"))
            return "%s: the hunk at line %d does not apply to %s of %s" % (source, at, target,
                                                                           where)
        if "No such file or directory" in line or "does not exist in index" in line:
            return "%s: %s does not exist in %s" % (source, target, where)
    return "%s: git apply failed on %s of %s: %s" % (source, target, where, stderr.strip())


# ---------------------------------------------------------------- the set

@dataclass
class Baseline:
    upstream: str       # the upstream tree, a git repository
    ref: str            # its release tag (or commit)
    origin: str         # where it came from, for the reader
    commit: str = ""
    objects: str = ""   # its object directory, which the patched tree borrows

    def __post_init__(self):
        if not self.upstream or not os.path.isdir(self.upstream):
            raise PatchSetError("no baseline: UPSTREAM_DIR=%r is not a directory (re-run "
                                "configure)" % self.upstream)
        p = git(["rev-parse", "--verify", "-q", self.ref + "^{commit}"], cwd=self.upstream,
                check=False)
        if p.returncode != 0:
            raise PatchSetError("the baseline %s has no %s (UPSTREAM_REF): re-run configure"
                                % (self.upstream, self.ref))
        self.commit = out(p)
        self.objects = out(git(["rev-parse", "--path-format=absolute", "--git-path", "objects"],
                               cwd=self.upstream))


@dataclass
class FileChange:
    """What one topic does to one path (a path two topics change has two)."""
    path: str           # upstream path
    source: str         # our file(s): the path, or path + ".patch", joined by " + "
    kind: str           # "new" | "modified" (a whole file upstream has) | "hunks"
    comment: List[str] = field(default_factory=list)
    topic: str = ""


@dataclass
class Identity:
    """Who the series is from, and when: the commits' author and date, the
    copyright line of every new file and the year of every touched one."""
    author: str = ""            # "Name <email>"
    copyright_holder: str = ""
    date: str = ""              # ISO 8601; empty: our checkout's last commit

    def __post_init__(self):
        m = re.match(r"^\s*([^<>]*[^<>\s])\s*<([^<>\s]+@[^<>\s]+)>\s*$", self.author)
        if not m:
            raise PatchSetError("author %r: expected 'Name <email>' (configure --with-author)"
                                % self.author)
        self.name, self.email = m.group(1), m.group(2)
        if not self.copyright_holder.strip():
            raise PatchSetError("no copyright holder (configure --with-copyright-holder)")

    @property
    def year(self) -> str:
        return self.date[:4]


# An upstream copyright line: "Copyright (c) 1997, 2024, Oracle and/or its
# affiliates." The last year becomes the change's year, as upstream does.
ORACLE_COPYRIGHT_RE = re.compile(r"(Copyright \(c\) )(\d{4})(?:, (\d{4}))?(, Oracle and/or its "
                                 r"affiliates\.)")


def bump_copyright_year(text: str, year: str) -> str:
    """The first Oracle copyright line of the file's header with `year` as
    its last year (unchanged when it already ends there)."""
    m = ORACLE_COPYRIGHT_RE.search(text, 0, 2000)
    if not m or (m.group(3) or m.group(2)) >= year:
        return text
    return text[:m.start()] + "%s%s, %s%s" % (m.group(1), m.group(2), year, m.group(4)) + \
        text[m.end():]


def copyright_line_as(text: str, other: Optional[str]) -> str:
    """The text with the first Oracle copyright line that `other` has (as
    far as both have one)."""
    m = ORACLE_COPYRIGHT_RE.search(text, 0, 2000)
    n = ORACLE_COPYRIGHT_RE.search(other or "", 0, 2000)
    if not m or not n:
        return text
    return text[:m.start()] + n.group(0) + text[m.end():]


class View:
    """One reviewable change: the baseline against one commit of the
    patched repository, with the files it changes (a topic, or all of them)."""

    def __init__(self, ps: "PatchSet", title: str, head: str, changes: List[FileChange],
                 first: Optional[str] = None, base: str = "", depends: str = ""):
        self.ps = ps
        self.baseline = ps.baseline
        self.title = title
        self.head = head
        # what the change is made on: the tag, or the head of the topic it
        # depends on (`depends`)
        self.base = base or ps.baseline.commit
        self.depends = depends
        self.changes = changes
        self.first = first          # the topic's branch name, for its series
        self.left_out = ps.left_out
        self.notes = ps.notes

    def diff(self, paths: Optional[List[str]] = None, context: int = 3) -> str:
        """git's diff of the patched tree against the tag."""
        return decode(self.ps.g(["diff", "--no-color", "--no-ext-diff", "--no-renames",
                                 "--full-index", "--diff-algorithm=myers", "-U%d" % context,
                                 self.base, self.head, "--"] + (paths or [])).stdout)

    def patch_text(self) -> str:
        """The series as one mbox: git format-patch of every commit."""
        return decode(self.ps.g(["format-patch", "--stdout", "--no-signature", "--no-renames",
                                 "--full-index", "--diff-algorithm=myers", "-U3",
                                 "%s..%s" % (self.base, self.head)]).stdout)

    def old_text(self, path: str) -> Optional[str]:
        return self.ps.old_text(path, self.base)

    def new_text(self, path: str) -> str:
        return decode(self.ps.g(["cat-file", "blob", "%s:%s" % (self.head, path)]).stdout)


MAINLINE = "mainline"


def backport_message(subject: str) -> str:
    """A backport's commit message: the mainline commit's subject, as
    OpenJDK's backports keep it, and a line that says what it backports."""
    return "%s\n\n%s" % (subject, textwrap.fill("Backport of " + subject, 72,
                                                break_long_words=False,
                                                break_on_hyphens=False))


class PatchSet:
    """The patch set on one baseline. `line` is the line of development the
    baseline is of: "mainline", where a change goes first, or a release
    line ("25u") whose series are the mainline series' backports, each
    commit saying so. `feature` chooses the files (patchset.rules, hunk
    files' `Baselines:` lines and `.jdkN` names): the baseline's feature
    version, or, for the mainline, that of the release line whose files are
    the mainline change (the newest). With build=False it only selects the
    files and gives each to its patch (what hunk-save needs), with no git
    work. With unwritten_ok, a series may name a file that does not exist
    yet, and a hunk file may hold only its notes (a hunk file hunk-save is
    about to write): a note, not an error."""

    def __init__(self, root: str, rules_path: str, feature: str, baseline: Baseline,
                 workdir: str, topics_dir: str, identity: Identity, line: str = MAINLINE,
                 build: bool = True, only: Optional[List[str]] = None,
                 unwritten_ok: bool = False):
        self.root = root
        self.feature = feature
        self.baseline = baseline
        self.identity = identity
        self.line = line
        self.rules = Rules(rules_path, feature)
        self.rules_name = os.path.basename(rules_path)
        self.left_out: List[Tuple[str, str]] = []
        self.notes: List[str] = []
        self.git_dir = os.path.join(workdir, "repo.git")
        # One index per run: two makes of one configuration may run at once.
        self.index = os.path.join(workdir, "index.%d" % os.getpid())
        self.changes: List[FileChange] = []
        self.commit = ""
        # (first, last) commit of each topic's series in the history of all
        # topics, refs/heads/patched
        self.stacked: List[Tuple[str, str]] = []
        self.topics_dir = topics_dir
        self.unwritten_ok = unwritten_ok
        try:
            self.topics = series.load_topics(topics_dir, glob_re)
        except series.SeriesError as e:
            raise PatchSetError(str(e))
        if not identity.date:
            identity.date = out(git(["log", "-1", "--format=%cI"], cwd=root, check=False)) \
                or "2000-01-01T00:00:00Z"
        self._select()
        if only:
            # Every file still goes to its patch (_select); only the named
            # topics' series are built.
            unknown = sorted(set(only) - {t.name for t in self.topics})
            if unknown:
                raise PatchSetError("no such topic: %s (topics: %s)" % (
                    ", ".join(unknown), ", ".join(t.name for t in self.topics)))
            # A topic is made on top of the ones it depends on: they come too.
            wanted = set(only)
            for name in only:
                needed = series.dependencies(self.topics, name)
                if set(needed) - set(only):
                    self.notes.append("%s depends on %s: %s made too" % (
                        name, " and ".join(needed), "its series is" if len(needed) == 1
                        else "their series are"))
                wanted.update(needed)
            self.topics = [t for t in self.topics if t.name in wanted]
        if not build:
            return
        try:
            self._build()
        finally:
            if os.path.exists(self.index):
                os.remove(self.index)

    def g(self, args: List[str], **kw) -> subprocess.CompletedProcess:
        ident = self.identity
        env = dict(GIT_AUTHOR_NAME=ident.name, GIT_AUTHOR_EMAIL=ident.email,
                   GIT_COMMITTER_NAME=ident.name, GIT_COMMITTER_EMAIL=ident.email,
                   GIT_AUTHOR_DATE=ident.date, GIT_COMMITTER_DATE=ident.date)
        env.update(kw.pop("extra_env", None) or {})
        return git(args, git_dir=self.git_dir, index=self.index, extra_env=env, **kw)

    def upstream_has(self, path: str) -> bool:
        return self.g(["cat-file", "-e", "%s:%s" % (self.baseline.commit, path)],
                      check=False).returncode == 0

    def _init_repo(self) -> None:
        if not os.path.isdir(self.git_dir):
            git(["init", "-q", "--bare", self.git_dir])
            self.g(["config", "gc.auto", "0"])
        alt = os.path.join(self.git_dir, "objects", "info", "alternates")
        with open(alt, "w", encoding=ENCODING) as f:
            f.write(self.baseline.objects + "\n")

    def _claim(self, chosen: List[str]) -> None:
        """Gives every chosen file to the one patch whose globs match it."""
        owners: Dict[str, List[series.Patch]] = {f: [] for f in chosen}
        for t in self.topics:
            for p in t.patches:
                for glob in p.globs:
                    rx = glob_re(glob)
                    hits = [f for f in chosen if rx.match(f)]
                    if not hits and self.unwritten_ok:
                        self.notes.append("%s/series: patch %s names %s, which matches no "
                                          "file yet" % (t.directory, p.id, glob))
                    elif not hits:
                        raise PatchSetError("%s/series: patch %s names %s, which matches no "
                                            "file of the patch set" % (t.directory, p.id, glob))
                    for f in hits:
                        if p not in owners[f]:
                            owners[f].append(p)
        problems = []
        for f, ps in sorted(owners.items()):
            if not ps:
                problems.append("%s is in no topic's series (webrev/topics/*/series)" % f)
            elif len(ps) > 1:
                problems.append("%s is taken by more than one patch: %s" % (
                    f, ", ".join("%s:%s" % (p.topic, p.id) for p in ps)))
            else:
                ps[0].files.append(f)
        if problems:
            raise PatchSetError("every file of the patch set belongs to exactly one patch:\n  "
                                + "\n  ".join(problems))

    def _select(self) -> None:
        """Which files form the patch set, and which patch takes each."""
        listed = list_files(self.root)
        chosen = [f for f in listed if self.rules.selects(f)]
        self.left_out = [(f, "%s: %s" % (self.rules_name, self.rules.release_rule(f)))
                         for f in listed if f not in set(chosen) and self.rules.release_rule(f)]
        self._claim(chosen)

    def base_of(self, t: series.Topic) -> str:
        """The commit a topic's series is made on: the tag, or the head of
        the topic it depends on (made before it: the topics are in
        dependency order)."""
        if not t.depends:
            return self.baseline.commit
        return next(x.head for x in self.topics if x.name == t.depends)

    def based_on(self, t: series.Topic) -> str:
        """What a topic's series applies to, for the reader: the tag, or the
        tag with the series of the topics it depends on."""
        needed = series.dependencies(self.topics, t.name)
        return self.baseline.ref + ("" if not needed else " with the series of %s" %
                                    " and ".join(needed))

    def _build(self) -> None:
        self._init_repo()
        for t in self.topics:
            parent = t.base = self.base_of(t)
            self.g(["read-tree", parent])
            ids = [p.id for p in t.patches]
            for p in t.patches:
                paths = self._apply_patch(t, p, ids)
                if not paths:
                    self.notes.append("%s: patch %s changes nothing for %s; left out" % (
                        t.name, p.id, self.baseline.ref))
                    continue
                tree = out(self.g(["write-tree"]))
                if tree == out(self.g(["rev-parse", parent + "^{tree}"])):
                    raise PatchSetError("%s: patch %s leaves %s as it was: nothing to review"
                                        % (t.name, p.id, self.based_on(t)))
                p.commit = self._commit(tree, parent, self.message(p))
                parent = p.commit
            t.head = parent
            self.g(["update-ref", "refs/heads/" + t.name, t.head])
        self.left_out.sort()
        # All topics together: what the image, the exported sources and make
        # apply are made of.
        self.commit = self._all_topics()
        self.g(["update-ref", "refs/heads/patched", self.commit])
        self.g(["update-ref", "refs/tags/" + self.baseline.ref.replace(" ", "_"),
                self.baseline.commit], check=False)
        order = {t.name: k for k, t in enumerate(self.topics)}
        changed = {t.name: set(self.changed_paths(t.head, t.base)) for t in self.topics}
        self.changes = sorted((c for c in self.changes if c.path in changed[c.topic]),
                              key=lambda c: (c.path, order[c.topic]))
        if not self.changes:
            raise PatchSetError("the patch set is empty: no file under %s is selected by %s, "
                                "or none differs from %s" % (self.root, self.rules.path,
                                                             self.baseline.ref))

    @property
    def is_backport(self) -> bool:
        return self.line != MAINLINE

    def message(self, p: series.Patch) -> str:
        """The commit message of a patch of the series on this baseline."""
        return backport_message(p.subject) if self.is_backport else p.subject

    def _commit(self, tree: str, parent: str, message: str) -> str:
        return out(self.g(["commit-tree", tree, "-p", parent], stdin=encode(message + "\n")))

    def _all_topics(self) -> str:
        """Every topic's series again, one after the other, each patch applied
        with `git apply --cached` on top of all the patches before it; returns
        the last commit. Where the topics' paths are disjoint, its tree is the
        union of theirs; where two topics change one file, it holds both
        changes, or fails naming the topics and the file."""
        head = self.baseline.commit
        self.g(["read-tree", head])
        changed_by: Dict[str, List[str]] = {}
        for t in self.topics:
            first, parent = head, t.base
            for p in t.patches:
                if p.commit:
                    head = self._restack(t, p, parent, head, changed_by)
                    parent = p.commit
            if head != first:
                self.stacked.append((first, head))
        return head

    def _restack(self, t: series.Topic, p: series.Patch, parent: str, head: str,
                 changed_by: Dict[str, List[str]]) -> str:
        """Applies patch p (its diff from `parent`) to the index of all the
        patches before it and commits the result on `head`."""
        paths = self.changed_paths(p.commit, parent)
        # Each topic sets the year of upstream's copyright line; the diff
        # applies where the line is as before the patch, and sets it again.
        for path in paths:
            self._edit_in_index(path, lambda text, path=path: copyright_line_as(
                text, self.old_text(path, parent)))
        diff = self.g(["diff", "--full-index", "--binary", "--no-renames", parent, p.commit])
        applied = self.g(["apply", "--cached", "--whitespace=nowarn", "-"], stdin=diff.stdout,
                         check=False)
        if applied.returncode != 0:
            err = decode(applied.stderr).strip()
            path = next((x for x in paths if x in err), "a file")
            others = [x for x in changed_by.get(path, []) if x != t.name] or ["an earlier one"]
            raise PatchSetError("%s is changed by topics %s and %s, and their changes conflict: "
                                "patch %s of %s does not apply on top of %s (%s). Each topic "
                                "applies alone; all of them must apply together too" % (
                                    path, ", ".join(others), t.name, p.id, t.name,
                                    " and ".join(others), err.replace("\n", "; ")))
        for path in paths:
            self._bump_year(path)
            if t.name not in changed_by.setdefault(path, []):
                changed_by[path].append(t.name)
        return self._commit(out(self.g(["write-tree"])), head, self.message(p))

    def _apply_patch(self, t: series.Topic, p: series.Patch, ids: List[str]) -> List[str]:
        """Puts the patch's files into the index; returns the paths it changes."""
        index_info: List[str] = []
        hunk_files: List[Tuple[str, str, str]] = []
        paths: List[str] = []
        files = set(p.files)
        for f in p.files:
            full = os.path.join(self.root, f)
            if os.path.islink(full):
                raise PatchSetError("%s: a symbolic link; the patch set holds regular files only"
                                    % f)
            with open(full, "rb") as fh:
                data = fh.read()
            if b"\0" in data:
                raise PatchSetError("%s: a binary file; the patch set holds text only" % f)
            target = series.hunk_target(f, ids)
            if target is not None:
                release = series.hunk_release(f)
                suffix = series.RELEASE_SUFFIX_RE.sub("", f[len(target):-len(".patch")])
                if suffix and suffix != "." + p.id:
                    raise PatchSetError("%s: a hunk file for patch %s, but patch %s of %s takes "
                                        "it" % (f, suffix[1:], p.id, t.name))
                if target in files:
                    raise PatchSetError("%s and %s both exist: store a file either whole or as "
                                        "hunks, not both" % (target, f))
                text = decode(data)
                wanted = [release] if release else hunk_file_baselines(text, f)
                if wanted is not None and self.feature not in wanted:
                    why = "its name" if release else "its 'Baselines: %s' line" % " ".join(wanted)
                    self.left_out.append((f, why))
                    continue
                if self.unwritten_ok and not HEADER_RE.search(text):
                    self.notes.append("%s holds no hunks yet" % f)
                    continue
                twin = next((h[0] for h in hunk_files if h[1] == target), None)
                if twin is not None:
                    raise PatchSetError("%s and %s both change %s for JDK %s in patch %s: give "
                                        "the one for every release a 'Baselines:' line that "
                                        "leaves %s out" % (twin, f, target, self.feature, p.id,
                                                           self.feature))
                hunk_files.append((f, target, text))
                paths.append(target)
                continue
            if any(c.path == f and c.topic == t.name for c in self.changes):
                raise PatchSetError("%s: stored whole, but an earlier patch of %s changes it "
                                    "too; store this patch's change as %s.%s.patch" % (
                                        f, t.name, f, p.id))
            mode = "100755" if os.access(full, os.X_OK) else "100644"
            index_info.append(self._whole_file(f, data, mode, t.name))
            paths.append(f)
        if index_info:
            self.g(["update-index", "--index-info"], stdin=encode("".join(index_info)))
        where = self.based_on(t)
        errors = [e for e in (self._apply_hunk_file(*h, topic=t.name, where=where)
                              for h in hunk_files) if e]
        if errors:
            raise PatchSetError("%d hunk file(s) do not apply to %s; no patch made:\n  %s"
                                % (len(errors), where, "\n  ".join(errors)))
        for path in paths:
            self._bump_year(path)
        return paths

    def _bump_year(self, path: str) -> None:
        if self.upstream_has(path):
            self._edit_in_index(path, lambda text: bump_copyright_year(text,
                                                                       self.identity.year))

    def _edit_in_index(self, path: str, edit: Callable[[str], str]) -> None:
        """Replaces the index's file at path by edit(its text), if it has it."""
        p = self.g(["ls-files", "-s", "--", path])
        if not out(p):
            return
        mode, blob = out(p).split()[:2]
        text = decode(self.g(["cat-file", "blob", blob]).stdout)
        edited = edit(text)
        if edited != text:
            new = out(self.g(["hash-object", "-w", "--stdin"], stdin=encode(edited)))
            self.g(["update-index", "--cacheinfo", "%s,%s,%s" % (mode, new, path)])

    def _whole_file(self, path: str, data: bytes, mode: str, topic: str) -> str:
        new = split_lines(decode(data))
        try:
            if self.upstream_has(path):
                old = split_lines(decode(self.g(["cat-file", "blob", "%s:%s" % (
                    self.baseline.commit, path)]).stdout))
                new = headers.keep_upstream_header(new, old, path)
                kind = "modified"
            else:
                new = headers.with_new_file_notice(new, path, self.identity.copyright_holder)
                kind = "new"
        except headers.HeaderError as e:
            raise PatchSetError(str(e))
        blob = out(self.g(["hash-object", "-w", "--stdin"], stdin=encode("".join(new))))
        self.changes.append(FileChange(path, path, kind, topic=topic))
        return "%s %s\t%s\n" % (mode, blob, path)

    def _apply_hunk_file(self, source: str, target: str, text: str, topic: str,
                         where: str) -> Optional[str]:
        strip = check_hunk_file(text, source, target)
        before = self.g(["ls-files", "-s", "--", target])
        p = self.g(["apply", "--cached", "-p%d" % strip, "--whitespace=nowarn", "-"],
                   stdin=encode(text), check=False)
        if p.returncode != 0:
            current = None
            if out(before):
                current = decode(self.g(["cat-file", "blob", out(before).split()[1]]).stdout)
            return explain_apply_failure(decode(p.stderr), text, source, target, where,
                                         current)
        earlier = next((c for c in self.changes if c.path == target and c.topic == topic),
                       None)
        if earlier:
            earlier.source += " + " + source
            earlier.comment += hunk_file_comment(text)
        else:
            self.changes.append(FileChange(target, source, "hunks", hunk_file_comment(text),
                                           topic=topic))
        return None

    # ------------------------------------------------------------ output

    def changed_paths(self, head: str = "", base: str = "") -> List[str]:
        """The paths that differ between base (the tag) and head (all topics)."""
        names = decode(self.g(["diff", "--name-only", "-z", "--no-renames",
                               base or self.baseline.commit, head or self.commit]).stdout)
        return [n for n in names.split("\0") if n]

    def view(self) -> View:
        """All topics together, as one change: one FileChange per path, the
        topics' sources of a path that several change joined by ' + '."""
        merged: Dict[str, FileChange] = {}
        for c in self.changes:
            m = merged.get(c.path)
            if m is None:
                merged[c.path] = FileChange(c.path, c.source, c.kind, list(c.comment), c.topic)
            else:
                m.source += " + " + c.source
                m.comment += c.comment
                m.topic += " + " + c.topic
        return View(self, "all topics", self.commit, [merged[p] for p in sorted(merged)])

    def topic_view(self, t: series.Topic) -> View:
        return View(self, t.name, t.head, [c for c in self.changes if c.topic == t.name],
                    first=t.name, base=t.base, depends=t.depends)

    def diff(self, paths: Optional[List[str]] = None, context: int = 3) -> str:
        return self.view().diff(paths, context)

    def old_text(self, path: str, commit: str = "") -> Optional[str]:
        """The file at the tag (or at commit); None where it has none."""
        p = self.g(["cat-file", "blob", "%s:%s" % (commit or self.baseline.commit, path)],
                   check=False)
        return decode(p.stdout) if p.returncode == 0 else None

    def new_text(self, path: str) -> str:
        return self.view().new_text(path)

    def patch(self, topic: str, patch_id: str) -> series.Patch:
        """Patch <patch_id> of <topic>, as PATCH=<topic>:<id> names it."""
        t = next((x for x in self.topics if x.name == topic), None)
        if t is None:
            raise PatchSetError("no topic %r (topics: %s)" % (
                topic, ", ".join(x.name for x in self.topics)))
        p = next((x for x in t.patches if x.id == patch_id), None)
        if p is None:
            raise PatchSetError("topic %s has no patch %r (its patches: %s)" % (
                topic, patch_id, ", ".join(x.id for x in t.patches)))
        return p

    def patches_changing(self, path: str) -> List[series.Patch]:
        """The patches that take `path` whole or a hunk file of it (for any
        release), in topic and series order."""
        found = []
        for t in self.topics:
            ids = [p.id for p in t.patches]
            found += [p for p in t.patches
                      if any(f == path or series.hunk_target(f, ids) == path for f in p.files)]
        return found

    def hunk_file_of(self, p: series.Patch, path: str) -> Optional[str]:
        """p's hunk file of `path` for this configuration's release: the one
        named for it (`X.jdk17.patch`), else the one for every release."""
        ids = [x.id for t in self.topics if t.name == p.topic for x in t.patches]
        mine = [f for f in p.files if series.hunk_target(f, ids) == path]
        return next((f for f in mine if series.hunk_release(f) == self.feature),
                    next((f for f in mine if series.hunk_release(f) is None), None))

    def _text_at(self, p: series.Patch, upto: int, path: str) -> Optional[str]:
        """The file as the first `upto` patches of p's topic leave it, on
        top of the topics it depends on (upstream's, with the year the
        series gives it, when none touches it)."""
        t = next(x for x in self.topics if x.name == p.topic)
        commit = next((q.commit for q in reversed(t.patches[:upto]) if q.commit), t.base)
        text = self.old_text(path, commit)
        return text if text is None or commit != t.base else \
            bump_copyright_year(text, self.identity.year)

    def text_before(self, topic: str, patch_id: str, path: str) -> Optional[str]:
        """The file as the patches of `topic` before `patch_id` leave it, on
        top of the topics it depends on: what a hunk file of that patch is
        made against."""
        p = self.patch(topic, patch_id)
        t = next(x for x in self.topics if x.name == topic)
        return self._text_at(p, t.patches.index(p), path)

    def text_after(self, topic: str, patch_id: str, path: str) -> Optional[str]:
        """The file as patch `patch_id` of `topic` leaves it, the topic's
        earlier patches and the topics it depends on included, no other
        topic's."""
        p = self.patch(topic, patch_id)
        t = next(x for x in self.topics if x.name == topic)
        return self._text_at(p, t.patches.index(p) + 1, path)

    def patch_text(self) -> str:
        """Every topic's series, one after the other, each numbered as its own:
        what make apply applies. A topic after the first is its series made on
        top of the topics before it (refs/heads/patched), so that the whole
        applies where a file is changed by two topics: the same diffs, except
        where an earlier topic moved a file's lines or set its copyright year."""
        return "".join(decode(self.g(["format-patch", "--stdout", "--no-signature",
                                      "--no-renames", "--full-index",
                                      "--diff-algorithm=myers", "-U3",
                                      "%s..%s" % (first, last)]).stdout)
                       for first, last in self.stacked)

    def export(self, paths: List[str], output: str, changed_only: bool = False) -> int:
        """Writes the patched tree's files under paths below output (emptied
        first), or only those the patch set changes; returns how many. A path
        the tree does not have is an error."""
        listed = self.g(["ls-tree", "-r", "-z", "--name-only", self.commit, "--"] + paths)
        names = [n for n in decode(listed.stdout).split("\0") if n]
        if changed_only:
            changed = set(self.changed_paths())
            names = [n for n in names if n in changed]
            if not names:
                raise PatchSetError("the patch set changes no file under %s" % " ".join(paths))
        for path in paths:
            prefix = path.rstrip("/") + "/"
            if not any(n == path or n.startswith(prefix) for n in names):
                raise PatchSetError("%s: no such file or directory in %s with the patch set"
                                    % (path, self.baseline.ref))
        if os.path.isdir(output):
            shutil.rmtree(output)
        os.makedirs(output)
        archive = self.g(["archive", "--format=tar", self.commit, "--"] +
                         (names if changed_only else paths))
        with tarfile.open(fileobj=io.BytesIO(archive.stdout)) as tar:
            # git archive of our own tree: regular files and directories only.
            if hasattr(tarfile, "data_filter"):
                tar.extractall(output, filter="data")
            else:
                tar.extractall(output)
        return len(names)

