# SPDX-License-Identifier: GPL-2.0-only WITH Classpath-exception-2.0
"""Every line bound for upstream speaks of OpenJDK alone.

Checks the text a series adds (its `+` lines, its commit messages and its
cover letter) for what only makes sense in this repository: the paths and
names of files that are not part of the patch set and that upstream does
not have (our docs, scripts, make files), and words that compare with
"stock" or "patched" builds or point at our issues. Once merged, none of
that exists, so a reviewer would rightly reject it.
"""

import os
import re
from typing import List, Set, Tuple

from patchset import decode, git

# Words that only this repository's story explains.
WORDS = [
    (re.compile(r"\bstock\b", re.I), "compares with a 'stock' build"),
    (re.compile(r"\bpatched\b", re.I), "compares with a 'patched' build"),
    (re.compile(r"\bpatch ?set\b", re.I), "speaks of the patch set"),
    (re.compile(r"\bbase JDK\b", re.I), "speaks of the base JDK"),
    (re.compile(r"\b(?:issue|defect|task)s? #?\d+\b", re.I), "points at this repository's issues"),
    (re.compile(r"\bmake/scripts\b"), "points at this repository's make scripts"),
    (re.compile(r"CACHEBENCH-"), "prints for this repository's scripts"),
    (re.compile(r"\bwebrev\.py\b|\bmicroreport\b"), "names this repository's tools"),
]

# Basenames too common to mean our file when a line names them.
COMMON_NAMES = {"README.md", "Makefile", "configure", "run", "conf", "series"}


def repository_names(root: str, upstream_dir: str, ref: str, ours: Set[str],
                     topics: str = "") -> List[str]:
    """Paths (and distinctive basenames) of our files that upstream does not
    have and that are not part of the patch set. A file of a topic's
    directory (`topics`, relative to root) is published with the topic's
    texts (a JBS issue's reproducer): only its path is ours."""
    listed = decode(git(["ls-files", "-z"], cwd=root).stdout).split("\0")
    upstream = decode(git(["ls-tree", "-r", "-z", "--name-only", ref],
                          cwd=upstream_dir).stdout).split("\0")
    upstream_paths = set(upstream)
    upstream_names = {os.path.basename(p) for p in upstream}
    names = set()
    for path in listed:
        if not path or path in ours or path in upstream_paths:
            continue
        names.add(path)
        base = os.path.basename(path)
        published = topics and os.path.dirname(os.path.dirname(path)) == topics
        if base not in upstream_names and base not in COMMON_NAMES and "." in base \
                and not published:
            names.add(base)
    return sorted(names, key=len, reverse=True)


def upstream_bound_lines(text: str) -> List[Tuple[int, str]]:
    """The lines of a format-patch file that upstream would take as ours:
    added lines and the message, not the context, not the diff headers."""
    lines = []
    in_diff = False
    for no, line in enumerate(text.split("\n"), 1):
        if line.startswith("diff --git "):
            in_diff = True
            continue
        if line.startswith("From ") and re.match(r"^From [0-9a-f]{40} ", line):
            in_diff = False
            continue
        if in_diff:
            if line.startswith("+") and not line.startswith("+++ "):
                lines.append((no, line[1:]))
        elif not re.match(r"^(?:From|Date|To|MIME-Version|Content-Type|"
                          r"Content-Transfer-Encoding): ", line) \
                and not re.match(r"^ \S+\s+\|\s+\d+", line):
            lines.append((no, line))
    return lines


def check(files: List[str], names: List[str]) -> List[str]:
    """`file:line: why: text` for every upstream-bound line that speaks of
    this repository."""
    problems = []
    name_res = [(re.compile(r"(?<![\w/.-])" + re.escape(n) + r"(?![\w-])"), n) for n in names]
    for path in files:
        with open(path, "rb") as f:
            text = decode(f.read())
        for no, line in upstream_bound_lines(text):
            for rx, why in WORDS:
                if rx.search(line):
                    problems.append("%s:%d: %s: %s" % (path, no, why, line.strip()))
            for rx, name in name_res:
                if rx.search(line):
                    problems.append("%s:%d: names this repository's %s: %s"
                                    % (path, no, name, line.strip()))
                    break
    return problems
