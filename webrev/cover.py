# SPDX-License-Identifier: GPL-2.0-only WITH Classpath-exception-2.0
"""`make patch`: each topic's series as git format-patch writes it, its
cover letter made from webrev/topics/<topic>/cover-letter.md: the mainline
series, with the JBS issue's text beside it (jbs.md, from the topic's
jbs.md), and the backport series of a release line, whose cover letter is
made here from the mainline's title and the two series.

As OpenJDK splits them, the pull request's body is short (at most
LETTER_LINES lines) and the story, the reproducer and the evidence are the
JBS issue's; backports are the backport letters'.

A topic that depends on another (`depends` in its series) is a dependent
pull request upstream (Skara): it targets the other's `pr/<number>` branch
and is integrated after it. Its series is made against the other's head,
its letter says so (@DEPENDS@ is DEPENDS_SENTENCE; where the source has
none, it opens the body), and its series directory holds a file
`depends`: the topics whose series apply first, one a line, in order, for
what applies the series to a tree (make/scripts/series-lib.sh).

git writes the cover letter itself (--cover-letter
--cover-from-description=subject: the branch description's first paragraph
is the subject, the rest the body, then git's shortlog and diffstat); we
only fill the description's placeholders (series.Cover) from the commits.
"""

import os
import re
import shutil
import textwrap
from typing import Callable, Dict, List, Optional

import series
from patchset import ORACLE_COPYRIGHT_RE, PatchSet, PatchSetError, View, decode, encode, out

COMMENT_RE = re.compile(r"\A(?:<!--.*?-->\s*\n)+", re.S)
LETTER_LINES = 60
# Short: a letter has LETTER_LINES lines, and Skara shows the target branch.
DEPENDS_SENTENCE = "This pull request depends on the one for %s."
DEPENDS_FILE = "depends"


def jtreg_summary(text: str) -> Optional[str]:
    """A jtreg test's @summary, on one line; None for a file with no @test."""
    if not re.search(r"^\s*\*?\s*@test\b", text, re.M):
        return None
    m = re.search(r"@summary\s+(.*?)(?=\n\s*\*\s*@|\n\s*\*/)", text, re.S)
    if not m:
        return ""
    return " ".join(w.strip().lstrip("*").strip() for w in m.group(1).split("\n")).strip()


class TopicCover:
    """The placeholder values of one topic's cover letter."""

    def __init__(self, ps: PatchSet, topic: series.Topic):
        self.ps = ps
        self.topic = topic
        self.view = ps.topic_view(topic)
        self.patches = [p for p in topic.patches if p.commit]
        self.source = topic.cover_source    # the text being rendered

    def values(self) -> Dict[str, Callable[[Optional[str]], str]]:
        return {"BASELINE": lambda _: self.ps.baseline.ref,
                "DEPENDS": lambda _: self.depends(),
                "PATCHES": lambda _: self.patch_list(),
                "TESTS": lambda _: self.tests(),
                "INCLUDE": self.include,
                "NUMSTAT": self.numstat,
                "UNCHANGED": self.unchanged}

    def _patch(self, pid: str) -> series.Patch:
        p = next((x for x in self.topic.patches if x.id == pid), None)
        if p is None:
            raise PatchSetError("%s: no patch %r in topic %s" % (self.topic.cover_source, pid,
                                                                 self.topic.name))
        if not p.commit:
            raise PatchSetError("%s: patch %s is not in this configuration's series (its "
                                "placeholder cannot be filled)" % (self.topic.cover_source, pid))
        return p

    def _args(self, arg: Optional[str], name: str) -> List[str]:
        parts = (arg or "").split()
        if len(parts) != 2:
            raise PatchSetError("%s: @%s <patch id> <path>@ needs two arguments, got %r"
                                % (self.topic.cover_source, name, arg))
        return parts

    def depends(self) -> str:
        """That this pull request depends on another, named by its title."""
        if not self.topic.depends:
            raise PatchSetError("%s: @DEPENDS@, but topic %s depends on no topic (its series "
                                "has no 'depends <topic>' line)" % (self.source, self.topic.name))
        return fill(DEPENDS_SENTENCE % pull_request_title(
            self.ps, next(t for t in self.ps.topics if t.name == self.topic.depends)))

    def _parent(self, p: series.Patch) -> str:
        return out(self.ps.g(["rev-parse", p.commit + "^"]))

    def patch_list(self) -> str:
        lines = []
        for n, p in enumerate(self.patches, 1):
            stat = out(self.ps.g(["diff", "--shortstat", self._parent(p), p.commit]))
            lines.append("%d/%d %s\n    (%s)" % (n, len(self.patches), p.subject, stat))
        return "\n".join(lines)

    def tests(self) -> str:
        lines = []
        for c in self.view.changes:
            if c.path.startswith("test/") and c.path.endswith(".java"):
                summary = jtreg_summary(self.view.new_text(c.path))
                if summary is not None:
                    lines.append(textwrap.fill("%s%s" % (c.path, ": " + summary if summary
                                                         else ""), 76, initial_indent="- ",
                                               subsequent_indent="  ",
                                               break_long_words=False,
                                               break_on_hyphens=False))
        return "\n".join(lines) if lines else "(none)"

    def include(self, arg: Optional[str]) -> str:
        path = (arg or "").strip()
        full = os.path.realpath(os.path.join(self.ps.root, path))
        if not path or not full.startswith(os.path.realpath(self.ps.root) + os.sep) \
                or not os.path.isfile(full):
            raise PatchSetError("%s: @INCLUDE %s@: no such file in the repository"
                                % (self.source, path))
        with open(full, encoding="utf-8") as f:
            text = f.read()
        # Our licence header stays in the repository: a leading comment
        # block that holds it, or the line itself.
        header = re.match(r"\A/\*.*?\*/\s*\n", text, re.S)
        if header and "SPDX-License-Identifier" in header.group(0):
            text = text[header.end():].lstrip("\n")
        return "\n".join(l for l in text.rstrip("\n").split("\n")
                         if "SPDX-License-Identifier" not in l)

    def numstat(self, arg: Optional[str]) -> str:
        pid, path = self._args(arg, "NUMSTAT")
        p = self._patch(pid)
        line = out(self.ps.g(["diff", "--numstat", self._parent(p), p.commit, "--", path]))
        if not line:
            raise PatchSetError("%s: patch %s does not change %s" % (self.topic.cover_source,
                                                                     pid, path))
        added, removed = line.split()[:2]
        return "%s added, %s removed (%d changed lines)" % (added, removed,
                                                           int(added) + int(removed))

    def unchanged(self, arg: Optional[str]) -> str:
        pid, path = self._args(arg, "UNCHANGED")
        p = self._patch(pid)
        old = self.ps.old_text(path)
        if old is None:
            raise PatchSetError("%s: %s is not an upstream file" % (self.topic.cover_source, path))
        kept, total = unchanged_nonblank(self.ps, path, p.commit)
        return "%d of its %d non-blank lines unchanged (%d%%)" % (kept, total,
                                                                 100 * kept // total)

    def render_file(self, source: str) -> str:
        """A letter's source, its placeholders filled."""
        self.source = source
        with open(source, encoding="utf-8") as f:
            text = COMMENT_RE.sub("", f.read())
        try:
            return series.Cover(self.values()).render(source, text).strip("\n")
        except series.SeriesError as e:
            raise PatchSetError(str(e))

    def render(self) -> str:
        text = self.render_file(self.topic.cover_source)
        first, _, rest = text.strip("\n").partition("\n")
        first = first.lstrip("# ").strip()
        if not series.SUBJECT_RE.match(first):
            raise PatchSetError("%s: the first line is the pull request's title, "
                                "'<JBS id>: <summary>', got %r" % (self.topic.cover_source,
                                                                   first))
        rest = rest.strip("\n")
        if self.topic.depends and not uses_depends(self.topic.cover_source):
            rest = self.depends() + "\n\n" + rest
        return first + "\n\n" + rest + "\n"


def uses_depends(source: str) -> bool:
    with open(source, encoding="utf-8") as f:
        return any(m.group(1) == "DEPENDS" for m in series.PLACEHOLDER_RE.finditer(f.read()))


def pull_request_title(ps: PatchSet, topic: series.Topic) -> str:
    """A topic's pull request title: its cover letter's first line, filled."""
    tc = TopicCover(ps, topic)
    with open(topic.cover_source, encoding="utf-8") as f:
        first = COMMENT_RE.sub("", f.read()).lstrip("\n").split("\n", 1)[0]
    try:
        return series.Cover(tc.values()).render(topic.cover_source, first).lstrip("# ").strip()
    except series.SeriesError as e:
        raise PatchSetError(str(e))


def unchanged_nonblank(ps: PatchSet, path: str, commit: str):
    """How many of upstream's non-blank lines of `path` the commit keeps as
    they are, and how many there are: a diff's removed lines, counted."""
    old = ps.old_text(path) or ""
    total = sum(1 for l in old.split("\n") if l.strip())
    diff = decode(ps.g(["diff", "-U0", "--diff-algorithm=myers", ps.baseline.commit, commit,
                        "--", path]).stdout)
    removed = sum(1 for l in diff.split("\n")
                  if l.startswith("-") and not l.startswith("---") and l[1:].strip())
    return total - removed, total


def fill(text: str) -> str:
    """A paragraph as the cover letters wrap theirs."""
    return textwrap.fill(text, 76, break_long_words=False, break_on_hyphens=False)


# OpenJDK's long-term update lines, each a repository of its own
# (jdk<N>u-dev) that takes backports.
LTS_LINES = ["25u", "21u", "17u", "11u", "8u"]


def lts_between(release_lines: List[str]) -> List[str]:
    """`release_lines` (newest first) with the long-term update lines that
    fall between them, in order: 25u 17u -> 25u 21u 17u."""
    def feature(line):
        return int(line.rstrip("u"))
    if not release_lines or not all(l.rstrip("u").isdigit() for l in release_lines):
        return list(release_lines)
    newest, oldest = feature(release_lines[0]), feature(release_lines[-1])
    lines = set(release_lines) | {l for l in LTS_LINES if oldest < feature(l) < newest}
    return sorted(lines, key=feature, reverse=True)


def mainline_letter(ps: PatchSet, topic: series.Topic) -> str:
    """The mainline pull request's description: the topic's cover letter,
    at most LETTER_LINES lines."""
    text = TopicCover(ps, topic).render()
    count = len(text.rstrip("\n").split("\n"))
    if count > LETTER_LINES:
        raise PatchSetError("%s: the pull request's body is %d lines, more than %d: the "
                            "story, the reproducer and the evidence go into jbs.md"
                            % (topic.cover_source, count, LETTER_LINES))
    return text


def jbs_text(ps: PatchSet, topic: series.Topic) -> str:
    """The JBS issue's text: the topic's jbs.md, its placeholders filled."""
    source = os.path.join(topic.directory, "jbs.md")
    if not os.path.isfile(source):
        raise PatchSetError("%s: no jbs.md: every topic has the text of its JBS issue "
                            "(title, component, description, a reproducer)" % topic.directory)
    return TopicCover(ps, topic).render_file(source) + "\n"


def normalized_diffs(ps: PatchSet, p: series.Patch) -> Dict[str, List[str]]:
    """What patch p changes, per file, without what depends on the tree
    alone (blob ids, line numbers): equal for two trees exactly when the
    patch changes their files alike."""
    diff = decode(ps.g(["diff", "--no-color", "--no-renames", "--diff-algorithm=myers", "-U3",
                        p.commit + "^", p.commit]).stdout)
    files: Dict[str, List[str]] = {}
    current: List[str] = []
    for line in diff.split("\n"):
        m = re.match(r"^diff --git a/(.*) b/", line)
        if m:
            current = files.setdefault(m.group(1), [])
        elif line.startswith("index "):
            continue
        elif line.startswith("@@"):
            current.append("@@")
        else:
            current.append(line)
    return files


def backport_difference(ps: PatchSet, mainline: PatchSet, topic: str) -> List[str]:
    """Where the backport of a topic's series differs from its mainline
    series: one line per file whose change is not the mainline's, and per
    patch that only one of them has; empty for a clean backport."""
    ours = next(t for t in ps.topics if t.name == topic)
    theirs = next(t for t in mainline.topics if t.name == topic)
    by_id = {p.id: p for p in theirs.patches}
    lines: List[str] = []
    differing: Dict[str, List[str]] = {}
    copyright_only: Dict[str, bool] = {}

    def years_masked(diff):
        return [ORACLE_COPYRIGHT_RE.sub("Copyright (c) YEARS, Oracle", l) for l in diff or []]
    for p in ours.patches:
        m = by_id.get(p.id)
        if not p.commit or not m or not m.commit:
            if p.commit or (m and m.commit):
                lines.append("- %s: only in the %s" % (
                    p.subject, "backport" if p.commit else "mainline change"))
            continue
        a, b = normalized_diffs(ps, p), normalized_diffs(mainline, m)
        for path in sorted(set(a) | set(b)):
            if a.get(path) != b.get(path):
                differing.setdefault(path, []).append(p.id)
                copyright_only[path] = copyright_only.get(path, True) and \
                    years_masked(a.get(path)) == years_masked(b.get(path))
    for path, ids in sorted(differing.items()):
        # The path whole on the bullet's line, what follows it wrapped.
        words = ("(%s %s)%s" % ("patch" if len(ids) == 1 else "patches", ", ".join(ids),
                                ": its copyright line only" if copyright_only[path] else "")
                 ).split(" ")
        item = "- " + path
        for w in words:
            if len(item.rsplit("\n", 1)[-1]) + 1 + len(w) > 76:
                item += "\n  " + w
            else:
                item += " " + w
        lines.append(item)
    return lines


def backport_letter(ps: PatchSet, mainline: PatchSet, topic: series.Topic, title: str,
                    release_lines: List[str]) -> str:
    """The backport's pull request description: what it backports and
    where it stands in the order of backports, whether it is clean, its
    patches and tests. OpenJDK names a backport by the mainline commit
    ("Backport <hash>"); before there is one, by the mainline change."""
    tc = TopicCover(ps, topic)
    order = ["mainline"] + lts_between(release_lines)
    if ps.line not in order:
        order.append(ps.line)
    position = ", then ".join(order)
    issue = title.split(":", 1)[0]
    missing = [l for l in order[1:] if l not in release_lines]
    no_tree = (" No %s tree was available here, so %s backport is made when it is requested."
               % (" or ".join(missing), "that" if len(missing) == 1 else "each")
               if missing else "")
    text = ["Backport of %s" % title, "",
            fill("Backport of the mainline change %s to %s. The order is %s.%s"
                 % (issue, ps.line, position, no_tree)), ""]
    depends = ""
    if topic.depends:
        depends = pull_request_title(mainline, next(t for t in mainline.topics
                                                    if t.name == topic.depends))
        text += [fill("This backport depends on the backport of %s to %s." % (depends, ps.line)),
                 ""]
    different = backport_difference(ps, mainline, topic.name)
    if different:
        text += [fill("Not clean: the change to these files is made for %s's versions of "
                      "them:" % ps.baseline.ref)] + different
    else:
        text += [fill("Clean: each patch changes %s's files as the mainline patch changes "
                      "mainline's." % ps.baseline.ref)]
    note = os.path.join(topic.directory, "backport-%s.md" % ps.line)
    if os.path.isfile(note):
        text += ["", tc.render_file(note)]
    text += ["", tc.patch_list(), "", "Tests:", tc.tests(), "",
             fill("The series applies to %s%s." % (
                 ps.baseline.ref, " on top of the backport of " + depends if depends else ""))]
    return "\n".join(text) + "\n"


def write_series(ps: PatchSet, output_dir: str, letter: Callable[[series.Topic], str]
                 ) -> List[str]:
    """build/<conf>/patch/<topic>/<line>/: 0000-cover-letter.patch (the
    description `letter` gives), 0001-... for every topic, for the
    mainline the JBS issue's text, jbs.md, and for a topic that depends on
    others the file `depends` (DEPENDS_FILE); returns the directories written.
    A backport's subjects carry its line: [PATCH 25u]."""
    written = []
    prefix = "PATCH %s" % ps.line if ps.is_backport else "PATCH"
    for t in ps.topics:
        if t.head == t.base:
            continue
        description = letter(t)
        ps.g(["config", "branch.%s.description" % t.name, description])
        target = os.path.join(output_dir, t.name, ps.line)
        tmp = target + ".tmp"
        if os.path.exists(tmp):
            shutil.rmtree(tmp)
        ps.g(["format-patch", "--cover-letter", "--cover-from-description=subject",
              "--subject-prefix=" + prefix,
              "--no-signature", "--no-renames", "--full-index", "--diff-algorithm=myers",
              "-o", tmp, "%s..%s" % (t.base, "refs/heads/" + t.name)])
        with open(os.path.join(tmp, "0000-cover-letter.patch"), "rb") as f:
            letter_text = decode(f.read())
        # git prints the branch's commits by author in the shortlog; the
        # list and the stat come from git too. Only To: is ours to add.
        letter_text = letter_text.replace("\nSubject:", "\nTo: %s\nSubject:" % t.mailing_list, 1)
        with open(os.path.join(tmp, "0000-cover-letter.patch"), "wb") as f:
            f.write(encode(letter_text))
        if not ps.is_backport:
            with open(os.path.join(tmp, "jbs.md"), "wb") as f:
                f.write(encode(jbs_text(ps, t)))
        # (a topic with no commits on this tree has no series to apply)
        needed = [n for n in series.dependencies(ps.topics, t.name)
                  if any(x.name == n and x.head != x.base for x in ps.topics)]
        if needed:
            with open(os.path.join(tmp, DEPENDS_FILE), "wb") as f:
                f.write(encode("".join(n + "\n" for n in needed)))
        if os.path.exists(target):
            shutil.rmtree(target)
        os.rename(tmp, target)
        written.append(target)
    return written
