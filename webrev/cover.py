# SPDX-License-Identifier: GPL-2.0-only WITH Classpath-exception-2.0
"""`make patch`: each topic's series as git format-patch writes it, its
cover letter made from webrev/topics/<topic>/cover-letter.md.

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
from patchset import PatchSet, PatchSetError, View, decode, encode, out

COMMENT_RE = re.compile(r"\A(?:<!--.*?-->\s*\n)+", re.S)


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

    def values(self) -> Dict[str, Callable[[Optional[str]], str]]:
        return {"BASELINE": lambda _: self.ps.baseline.ref,
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
                                % (self.topic.cover_source, path))
        with open(full, encoding="utf-8") as f:
            text = f.read()
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

    def render(self) -> str:
        with open(self.topic.cover_source, encoding="utf-8") as f:
            text = COMMENT_RE.sub("", f.read())
        try:
            text = series.Cover(self.values()).render(self.topic.cover_source, text)
        except series.SeriesError as e:
            raise PatchSetError(str(e))
        first, _, rest = text.strip("\n").partition("\n")
        first = first.lstrip("# ").strip()
        if not series.SUBJECT_RE.match(first):
            raise PatchSetError("%s: the first line is the pull request's title, "
                                "'<JBS id>: <summary>', got %r" % (self.topic.cover_source,
                                                                   first))
        return first + "\n\n" + rest.strip("\n") + "\n"


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


def write_series(ps: PatchSet, output_dir: str) -> List[str]:
    """build/<conf>/patch/<topic>/: 0000-cover-letter.patch, 0001-... for
    every topic; returns the directories written."""
    written = []
    for t in ps.topics:
        if t.head == ps.baseline.commit:
            continue
        description = TopicCover(ps, t).render()
        ps.g(["config", "branch.%s.description" % t.name, description])
        target = os.path.join(output_dir, t.name)
        tmp = target + ".tmp"
        if os.path.exists(tmp):
            shutil.rmtree(tmp)
        ps.g(["format-patch", "--cover-letter", "--cover-from-description=subject",
              "--no-signature", "--no-renames", "--full-index", "--diff-algorithm=myers",
              "-o", tmp, "%s..%s" % (ps.baseline.commit, "refs/heads/" + t.name)])
        with open(os.path.join(tmp, "0000-cover-letter.patch"), "rb") as f:
            letter = decode(f.read())
        # git prints the branch's commits by author in the shortlog; the
        # list and the stat come from git too. Only To: is ours to add.
        letter = letter.replace("\nSubject:", "\nTo: %s\nSubject:" % t.mailing_list, 1)
        with open(os.path.join(tmp, "0000-cover-letter.patch"), "wb") as f:
            f.write(encode(letter))
        if os.path.exists(target):
            shutil.rmtree(target)
        os.rename(tmp, target)
        written.append(target)
    return written
