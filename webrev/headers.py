# SPDX-License-Identifier: GPL-2.0-only WITH Classpath-exception-2.0
"""Licence headers as the generated patch must carry them.

Our files start with a short header holding our SPDX line. In the patch:
  - a file upstream has keeps upstream's own leading comment (its copyright
    and licence) untouched: ours is replaced by it;
  - a file new upstream gets the GPLv2 + Classpath-exception notice of
    templates/new-file-notice.txt, with a copyright line that names the
    configured holder (configure --with-copyright-holder) with our line's
    years; a test (under test/) gets it without the Classpath-exception sentence, as
    upstream's tests have it: they are not linked into anything.
"""

import os
import re
from typing import List, Optional, Tuple

HERE = os.path.dirname(os.path.abspath(__file__))
NOTICE = os.path.join(HERE, "templates", "new-file-notice.txt")
SPDX = "SPDX-License-Identifier"
C_STYLE = (".java", ".c", ".h", ".cpp", ".hpp", ".m", ".js", ".css")


class HeaderError(Exception):
    """A file whose header cannot be made upstream-shaped."""


def leading_comment(lines: List[str], path: str) -> Optional[Tuple[int, int]]:
    """[start, end) of the file's first comment block, before any code:
    `/* ... */` in C-like files, a run of `#` lines (after a `#!`) otherwise."""
    i = 0
    while i < len(lines) and not lines[i].strip():
        i += 1
    if path.endswith(C_STYLE):
        if i >= len(lines) or not lines[i].lstrip().startswith("/*"):
            return None
        for j in range(i, len(lines)):
            if "*/" in lines[j]:
                return i, j + 1
        return None
    if i < len(lines) and lines[i].startswith("#!"):
        i += 1
    j = i
    while j < len(lines) and lines[j].startswith("#"):
        j += 1
    return (i, j) if j > i else None


def ours(lines: List[str], path: str) -> Optional[Tuple[int, int]]:
    """Our header: the leading comment, if it holds our SPDX line."""
    span = leading_comment(lines, path)
    if span and any(SPDX in l for l in lines[span[0]:span[1]]):
        return span
    return None


def keep_upstream_header(new: List[str], old: List[str], path: str) -> List[str]:
    """`new` (our whole file) with our header replaced by upstream's."""
    mine = ours(new, path)
    theirs = leading_comment(old, path)
    if mine is None:
        return new
    if theirs is None:
        raise HeaderError("%s: upstream's file has no leading comment to keep in place of ours"
                          % path)
    return new[:mine[0]] + old[theirs[0]:theirs[1]] + new[mine[1]:]


# The template's Classpath-exception sentence: its first line, and how many
# lines it takes.
CLASSPATH_EXCEPTION_FIRST = "published by the Free Software Foundation.  Oracle designates this"
CLASSPATH_EXCEPTION_LINES = 3


def notice_lines(copyright_line: str, classpath_exception: bool = True) -> List[str]:
    with open(NOTICE, encoding="utf-8") as f:
        text = [l.rstrip("\n") for l in f if not l.startswith("##")]
    if not classpath_exception:
        k = text.index(CLASSPATH_EXCEPTION_FIRST)
        text[k:k + CLASSPATH_EXCEPTION_LINES] = ["published by the Free Software Foundation."]
    return [copyright_line if l == "@COPYRIGHT@" else l for l in text]


def with_new_file_notice(new: List[str], path: str, holder: str) -> List[str]:
    """`new` (a file new upstream) with our header replaced by the notice,
    whose copyright line names `holder` with the years of our own line."""
    mine = ours(new, path)
    if mine is None:
        raise HeaderError("%s: new upstream, but it has no leading comment with an %s line "
                          "to replace by the GPL notice" % (path, SPDX))
    years = None
    for l in new[mine[0]:mine[1]]:
        m = re.search(r"Copyright \(c\) (\d{4}(?:, \d{4})?)", l)
        if m:
            years = m.group(1)
    if years is None:
        raise HeaderError("%s: its header has no 'Copyright (c) <year>' line to take the year "
                          "from" % path)
    copyright_line = "Copyright (c) %s, %s. All rights reserved." % (years, holder.rstrip("."))
    body = notice_lines(copyright_line, classpath_exception=not path.startswith("test/"))
    if path.endswith(C_STYLE):
        block = ["/*\n"] + [(" * " + l).rstrip() + "\n" for l in body] + [" */\n"]
    else:
        block = [("# " + l).rstrip() + "\n" for l in body]
    return new[:mine[0]] + block + new[mine[1]:]
