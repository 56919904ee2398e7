# SPDX-License-Identifier: GPL-2.0-only WITH Classpath-exception-2.0
"""Topics and their series: how the patch set is cut for upstream.

Upstream takes one JBS issue per pull request, on the list that owns the
code, so the patch set is one series of commits per topic. A topic is a
directory webrev/topics/<topic>/ with two files:

  series           the topic's patches in the order a reviewer reads them:
                       list <mailing list>
                       depends <topic>   (optional, before the first patch)
                       patch <id> <subject>
                           <glob>        repository files this patch takes
                           ...
                   `#` starts a comment line. Every file of the patch set
                   (patchset.rules) is taken by exactly one patch.
  cover-letter.md  the pull request's description: its first line is the
                   cover letter's subject, the rest its body; @NAME@
                   placeholders are filled from the series (see Cover).

A hunk file `<path>.patch` changes upstream's file; `<path>.<id>.patch`
changes the file as the earlier patches of its series left it, in patch
<id> (upstream's file, when no earlier one changes it). So one file can
change step by step and every step stays a diff, and two topics can change
one upstream file, each applying without the other: `<path>.patch` in one,
`<path>.<id>.patch` in the other.
A topic that builds on another one's change names it: `depends <topic>`
(at most one; it must exist, and no topic may depend on itself, even
through others). Upstream, its pull request is a dependent one: it targets
the other's `pr/<id>` branch and is integrated after it. Its commits are
made on top of the other topic's series (applied first, with whatever that
one depends on), not on the release tag: its hunk files are diffs against
the file as the other topic's series and its own earlier patches leave it,
its series is `git format-patch` against the other's head, and topics are
made in dependency order (a topic after the one it depends on, else by
name).
Where releases differ in a file, a hunk file for one release only carries
its feature version last: `<path>[.<id>].jdk17.patch` is taken for the
17 baseline alone (the backport's hunks), and the hunk file without it
must then leave 17 out with a `Baselines:` line.
"""

import os
import re
from dataclasses import dataclass, field
from typing import List, Optional

ENCODING = "utf-8"
ID_RE = re.compile(r"^[a-z][a-z0-9-]*$")
SUBJECT_RE = re.compile(r"^(?:[0-9]{7}|NNNNNNN): \S")
# The JBS id a subject carries until the issue is filed; the submitter
# replaces it (doc/building.md).
PLACEHOLDER_ID = "NNNNNNN"


class SeriesError(Exception):
    """A series file that cannot be read as one: the message names the line."""


@dataclass
class Patch:
    topic: str
    id: str
    subject: str
    globs: List[str]
    files: List[str] = field(default_factory=list)   # repository files it takes
    commit: str = ""


@dataclass
class Topic:
    name: str
    directory: str
    mailing_list: str
    patches: List[Patch]
    head: str = ""          # the commit of its last patch (in this configuration)
    depends: str = ""       # the topic it is made on top of, or ""
    depends_where: str = ""  # its series file and line, for errors
    base: str = ""          # the commit its series is made on: the tag, or the
                            # head of the topic it depends on

    @property
    def cover_source(self) -> str:
        return os.path.join(self.directory, "cover-letter.md")


def parse_series(path: str, topic: str, glob_re) -> Topic:
    patches: List[Patch] = []
    mailing_list = ""
    depends, depends_where = "", ""
    with open(path, encoding=ENCODING) as f:
        for no, raw in enumerate(f, 1):
            line = raw.rstrip("\n")
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            where = "%s:%d" % (path, no)
            if line[0].isspace():
                if not patches:
                    raise SeriesError("%s: a file before the first 'patch' line" % where)
                glob = line.strip()
                if " " in glob:
                    raise SeriesError("%s: one path or glob per line, got %r" % (where, glob))
                glob_re(glob)
                patches[-1].globs.append(glob)
                continue
            word, _, rest = line.partition(" ")
            if word == "list":
                mailing_list = rest.strip()
            elif word == "depends":
                name = rest.strip()
                if patches:
                    raise SeriesError("%s: 'depends' after a 'patch' line: name the topic this "
                                      "one builds on before its patches" % where)
                if depends:
                    raise SeriesError("%s: a second 'depends' line: a topic depends on one "
                                      "other at most (%s already), as a pull request targets "
                                      "one branch" % (where, depends))
                if not ID_RE.match(name):
                    raise SeriesError("%s: expected 'depends <topic>', got %r" % (where, line))
                if name == topic:
                    raise SeriesError("%s: topic %s depends on itself" % (where, topic))
                depends, depends_where = name, where
            elif word == "patch":
                pid, _, subject = rest.strip().partition(" ")
                subject = subject.strip()
                if not ID_RE.match(pid):
                    raise SeriesError("%s: patch id %r: lower-case letters, digits and '-'"
                                      % (where, pid))
                if any(p.id == pid for p in patches):
                    raise SeriesError("%s: a second patch %r" % (where, pid))
                if not SUBJECT_RE.match(subject):
                    raise SeriesError("%s: subject %r: expected '<JBS id>: <summary>', with "
                                      "%s until the issue is filed" % (where, subject,
                                                                      PLACEHOLDER_ID))
                patches.append(Patch(topic, pid, subject, []))
            else:
                raise SeriesError("%s: expected 'list <address>', 'depends <topic>', "
                                  "'patch <id> <subject>' or an indented path, got %r"
                                  % (where, line))
    if not patches:
        raise SeriesError("%s: no 'patch' line" % path)
    for p in patches:
        if not p.globs:
            raise SeriesError("%s: patch %s takes no file" % (path, p.id))
    if not mailing_list:
        raise SeriesError("%s: no 'list <mailing list>' line" % path)
    return Topic(topic, os.path.dirname(path), mailing_list, patches, depends=depends,
                 depends_where=depends_where)


def load_topics(topics_dir: str, glob_re) -> List[Topic]:
    if not os.path.isdir(topics_dir):
        raise SeriesError("%s: no such directory: the patch set needs its topics" % topics_dir)
    topics = []
    for name in sorted(os.listdir(topics_dir)):
        path = os.path.join(topics_dir, name, "series")
        if os.path.isfile(path):
            if not ID_RE.match(name):
                raise SeriesError("%s: a topic's name is lower-case letters, digits and '-'"
                                  % os.path.join(topics_dir, name))
            topics.append(parse_series(path, name, glob_re))
    if not topics:
        raise SeriesError("%s holds no <topic>/series file" % topics_dir)
    return dependency_order(topics)


def dependency_order(topics: List[Topic]) -> List[Topic]:
    """The topics by name, but each after the topic it depends on; an
    unknown topic or a cycle is an error naming the `depends` line."""
    by_name = {t.name: t for t in topics}
    for t in topics:
        if t.depends and t.depends not in by_name:
            raise SeriesError("%s: depends on %s, which is no topic (topics: %s)" % (
                t.depends_where, t.depends, ", ".join(sorted(by_name))))
    ordered: List[Topic] = []
    for t in topics:
        chain: List[Topic] = []
        while t is not None and t not in ordered:
            if t in chain:
                cycle = chain[chain.index(t):] + [t]
                raise SeriesError("%s: depends on %s: a cycle (%s)" % (
                    t.depends_where, t.depends, " -> ".join(x.name for x in cycle)))
            chain.append(t)
            t = by_name.get(t.depends) if t.depends else None
        ordered += reversed(chain)
    return ordered


def dependencies(topics: List[Topic], name: str) -> List[str]:
    """The topics `name` is made on top of, the farthest first."""
    by_name = {t.name: t for t in topics}
    chain: List[str] = []
    t = by_name[name]
    while t.depends:
        chain.insert(0, t.depends)
        t = by_name[t.depends]
    return chain


RELEASE_SUFFIX_RE = re.compile(r"\.jdk([0-9]+)$")


def hunk_release(path: str) -> Optional[str]:
    """The feature version a hunk file is for alone (`X.jdk17.patch` ->
    "17"), or None for a hunk file of every release."""
    m = RELEASE_SUFFIX_RE.search(path[:-len(".patch")]) if path.endswith(".patch") else None
    return m.group(1) if m else None


def hunk_target(path: str, patch_ids: List[str]) -> Optional[str]:
    """The upstream path a hunk file patches: `X.patch` -> X, and
    `X.<id>.patch` -> X for the id of a patch of its topic; either may end
    in a release suffix, `X.jdk17.patch` -> X."""
    if not path.endswith(".patch"):
        return None
    stem = RELEASE_SUFFIX_RE.sub("", path[:-len(".patch")])
    for pid in patch_ids:
        if stem.endswith("." + pid):
            return stem[:-len(pid) - 1]
    return stem


# ---------------------------------------------------------------- the cover letter

PLACEHOLDER_RE = re.compile(r"@([A-Z_]+)(?: ([^@\n]+))?@")


class Cover:
    """The cover letter's text from its source. Placeholders:
      @BASELINE@              the release tag the series applies to
      @DEPENDS@               a topic that depends on another: the sentence
                              that says so, naming that pull request's title
                              (without it, the letter opens with it)
      @PATCHES@               the patches, one line each: subject and stat
      @TESTS@                 the jtreg tests the series adds, with @summary
      @INCLUDE <path>@        a committed file's text (a benchmark table)
      @NUMSTAT <id> <path>@   lines added and removed in <path> by patch <id>
      @UNCHANGED <id> <path>@ how many of upstream's non-blank lines of <path>
                              patch <id> keeps, of how many
    Every value is computed from the series when it is made, so the letter
    never disagrees with the patches it introduces."""

    def __init__(self, values):
        self.values = values   # name -> callable(argument or None) -> str

    def render(self, source: str, text: str) -> str:
        def one(m):
            name, arg = m.group(1), m.group(2)
            fn = self.values.get(name)
            if fn is None:
                raise SeriesError("%s: unknown placeholder @%s@ (known: %s)" % (
                    source, name, ", ".join(sorted(self.values))))
            return fn(arg)
        return PLACEHOLDER_RE.sub(one, text)
