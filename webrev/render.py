# SPDX-License-Identifier: GPL-2.0-only WITH Classpath-exception-2.0
"""The webrev's pages, rendered from git's diffs of the patched tree
against the release tag: markup built with ElementTree (which escapes all
text), highlighting by Pygments, page skeleton from templates/page.html.

Every byte depends only on the patch set and the baseline: no dates, no
host names, files in path order."""

import os
import re
import shutil
from dataclasses import dataclass
from string import Template
from typing import List, Optional, Tuple
from urllib.parse import quote
import xml.etree.ElementTree as ET

from pygments.formatters import HtmlFormatter
from pygments.lexers import DiffLexer, TextLexer, get_lexer_for_filename
from pygments.token import STANDARD_TYPES
from pygments.util import ClassNotFound

from patchset import ENCODING, ERRORS, FileChange, PatchSet, PatchSetError, View, split_lines

HERE = os.path.dirname(os.path.abspath(__file__))
STYLE = "default"
MARKER = "webrev.txt"        # says a directory is ours to replace

# ---------------------------------------------------------------- highlighting

Pieces = List[Tuple[str, str]]  # (css class or "", text) of one line


def css_class(ttype) -> str:
    while ttype not in STANDARD_TYPES:
        ttype = ttype.parent
    return STANDARD_TYPES[ttype]


def lexer_for(path: str):
    opts = dict(stripnl=False, stripall=False, ensurenl=False)
    if path.endswith(".patch"):
        return DiffLexer(**opts)
    try:
        return get_lexer_for_filename(path, **opts)
    except ClassNotFound:
        return TextLexer(**opts)


def highlight(lines: List[str], path: str) -> List[Pieces]:
    """One list of pieces per line. Falls back to plain text when the lexer
    does not give back exactly the lines it was given (it folds lone CRs)."""
    plain = [[("", l.rstrip("\r\n"))] for l in lines]
    if not lines:
        return []
    out: List[Pieces] = [[]]
    for ttype, value in lexer_for(path).get_tokens("".join(lines)):
        cls = css_class(ttype)
        parts = value.split("\n")
        for k, part in enumerate(parts):
            if k:
                out.append([])
            if part:
                out[-1].append((cls, part))
    if out and not out[-1] and lines[-1].endswith("\n"):
        out.pop()
    if len(out) != len(lines):
        return plain
    return [[(c, t.rstrip("\r")) for c, t in p] for p in out]


def fill(elem: ET.Element, pieces: Pieces) -> ET.Element:
    last: Optional[ET.Element] = None
    for cls, text in pieces:
        if cls:
            last = ET.SubElement(elem, "span", {"class": cls})
            last.text = text
        elif last is None:
            elem.text = (elem.text or "") + text
        else:
            last.tail = (last.tail or "") + text
    return elem


# ---------------------------------------------------------------- page helpers

def el(tag: str, text: Optional[str] = None, **attrs) -> ET.Element:
    e = ET.Element(tag, {k.rstrip("_"): v for k, v in attrs.items()})
    if text is not None:
        e.text = text
    return e


BLOCKS = ("tr", "div", "p", "table")


def sub(parent: ET.Element, tag: str, text: Optional[str] = None, **attrs) -> ET.Element:
    e = el(tag, text, **attrs)
    if tag in BLOCKS:
        e.tail = "\n"      # one row per line keeps the pages readable as text
    parent.append(e)
    return e


def link(parent: ET.Element, href: str, text: str) -> ET.Element:
    a = sub(parent, "a", text, href=quote(href, safe="/#"))
    a.tail = " "
    return a


class Writer:
    def __init__(self, out: str):
        self.out = out
        with open(os.path.join(HERE, "templates", "page.html"), encoding=ENCODING) as f:
            # '##' lines are the template's own comments (its licence header).
            self.page = Template("".join(l for l in f if not l.startswith("##")))

    def html(self, rel: str, title: str, body: List[ET.Element]) -> None:
        root = "../" * rel.count("/")
        text = self.page.substitute(
            title=ET.tostring(el("title", title), encoding="unicode", method="html"),
            root=root,
            body="\n".join(ET.tostring(e, encoding="unicode", method="html") for e in body))
        self.text(rel, text)

    def text(self, rel: str, text: str) -> None:
        dest = os.path.join(self.out, rel)
        os.makedirs(os.path.dirname(dest), exist_ok=True)
        with open(dest, "w", encoding=ENCODING, errors=ERRORS, newline="") as f:
            f.write(text)


# ---------------------------------------------------------------- git's diff

HUNK_RE = re.compile(r"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@(.*)$")


@dataclass
class Hunk:
    old_start: int
    old_count: int
    new_start: int
    new_count: int
    section: str
    lines: List[Tuple[str, str]]    # (' ' | '-' | '+', text without '\n')


def parse_diff(text: str) -> List[Hunk]:
    """The hunks of git's diff of one file."""
    hunks: List[Hunk] = []
    for line in text.split("\n"):
        m = HUNK_RE.match(line)
        if m:
            hunks.append(Hunk(int(m.group(1)), int(m.group(2) or 1), int(m.group(3)),
                              int(m.group(4) or 1), m.group(5), []))
        elif hunks and line[:1] in (" ", "-", "+"):
            hunks[-1].lines.append((line[0], line[1:]))
    return hunks


@dataclass
class Stats:
    ins: int = 0
    dele: int = 0
    mod: int = 0
    unchg: int = 0

    def add(self, other: "Stats") -> None:
        self.ins += other.ins
        self.dele += other.dele
        self.mod += other.mod
        self.unchg += other.unchg

    def line(self) -> str:
        # The wording of OpenJDK's webrev, which reviewers read at a glance.
        return "%d lines changed; %d ins; %d del; %d mod; %d unchg" % (
            self.ins + self.dele + self.mod, self.ins, self.dele, self.mod, self.unchg)


# A row of the side-by-side view: kind, old line number, new line number
# (0 where that side has no line).
Row = Tuple[str, int, int]


def rows_of(hunk: Optional[Hunk]) -> List[Row]:
    """Side-by-side rows of a whole-file hunk: a run of removed lines and the
    added lines after it pair up as "mod", the rest are "del" or "ins"."""
    rows: List[Row] = []
    if hunk is None:
        return rows
    i, j = hunk.old_start if hunk.old_count else 1, hunk.new_start if hunk.new_count else 1
    k, lines = 0, hunk.lines
    while k < len(lines):
        if lines[k][0] == " ":
            rows.append(("equal", i, j))
            i, j, k = i + 1, j + 1, k + 1
            continue
        d = a = 0
        while k + d < len(lines) and lines[k + d][0] == "-":
            d += 1
        while k + d + a < len(lines) and lines[k + d + a][0] == "+":
            a += 1
        for n in range(max(d, a)):
            kind = "mod" if n < d and n < a else "del" if n < d else "ins"
            rows.append((kind, i + n if n < d else 0, j + n if n < a else 0))
        i, j, k = i + d, j + a, k + d + a
    return rows


def stats_of(rows: List[Row]) -> Stats:
    kinds = [kind for kind, _, _ in rows]
    return Stats(ins=kinds.count("ins"), dele=kinds.count("del"), mod=kinds.count("mod"),
                 unchg=kinds.count("equal"))


def context_diff(path: str, ref: str, hunks: List[Hunk]) -> List[str]:
    """git's hunks in context-diff form (`*** a,b ****` / `--- c,d ----`,
    `!` changed, `-` deleted, `+` added), as OpenJDK's webrev shows them."""
    out = ["*** %s:%s" % (ref, path), "--- %s (patched)" % path]
    for h in hunks:
        marks = []
        k = 0
        while k < len(h.lines):
            if h.lines[k][0] == " ":
                marks.append((" ", " ", h.lines[k][1]))
                k += 1
                continue
            run = []
            while k < len(h.lines) and h.lines[k][0] != " ":
                run.append(h.lines[k])
                k += 1
            both = any(op == "-" for op, _ in run) and any(op == "+" for op, _ in run)
            marks += [(op, "!" if both else op, text) for op, text in run]

        def side(start: int, count: int, skip: str) -> List[str]:
            first = start if count else start + 1 if start else 0
            lines = ["%s %s" % (m, t) if m != " " else "  " + t
                     for op, m, t in marks if op != skip]
            if all(op in (" ", skip) for op, _, _ in marks):
                lines = []      # nothing changed on this side: context is shown once
            return ["%d,%d" % (first, first + count - 1) if count > 1 else str(first)] + lines

        old = side(h.old_start, h.old_count, "+")
        new = side(h.new_start, h.new_count, "-")
        out += ["***************", "*** %s ****" % old[0]] + old[1:]
        out += ["--- %s ----" % new[0]] + new[1:]
    return out


# ---------------------------------------------------------------- views

VIEWS = (("cdiff", "Cdiffs", ".cdiff.html"), ("udiff", "Udiffs", ".udiff.html"),
         ("sdiff", "Sdiffs", ".sdiff.html"), ("old", "Old", "-.html"),
         ("new", "New", ".html"), ("patch", "Patch", ".patch"), ("raw", "Raw", ""))
RAW_DIR = "raw_files/new/"


def view_name(path: str, view: str) -> str:
    if view == "raw":
        return RAW_DIR + path
    return path + dict((v, suffix) for v, _, suffix in VIEWS)[view]


@dataclass
class FileView:
    change: FileChange
    ref: str
    section: str            # the file's part of the patch (-U3)
    hunks: List[Hunk]       # its hunks
    old: List[str]
    new: List[str]
    rows: List[Row]         # the whole file, side by side
    old_hl: List[Pieces]    # old and new, highlighted once for all views
    new_hl: List[Pieces]

    @property
    def stats(self) -> Stats:
        return stats_of(self.rows)


def file_view(ps: View, change: FileChange) -> FileView:
    old_text = ps.old_text(change.path)
    new_text = ps.new_text(change.path)
    old = split_lines(old_text or "")
    new = split_lines(new_text)
    section = ps.diff([change.path])
    whole = parse_diff(ps.diff([change.path], context=len(old) + len(new) + 1))
    return FileView(change, ps.baseline.ref, section, parse_diff(section), old, new,
                    rows_of(whole[0] if whole else None), highlight(old, change.path),
                    highlight(new, change.path))


def nav(fv: FileView, current: str) -> ET.Element:
    """The bar on top of every per-file page: back to the index, the other views."""
    up = "../" * fv.change.path.count("/")
    base = os.path.basename(fv.change.path)
    p = el("p", class_="nav")
    link(p, up + "index.html", "index")
    for view, label, _ in VIEWS:
        if view == current:
            sub(p, "b", label).tail = " "
        elif view == "raw":
            link(p, up + view_name(fv.change.path, view), label)
        else:
            link(p, view_name(base, view), label)
    return p


def describe(fv: FileView) -> str:
    c = fv.change
    return {"new": "new file (%s has none); GPL notice in place of our header" % fv.ref,
            "modified": "changed: our whole file %s against %s:%s, upstream's header kept"
                        % (c.source, fv.ref, c.path),
            "hunks": "changed: the hunks of %s against %s:%s" % (c.source, fv.ref, c.path)}[
                c.kind]


def header(fv: FileView, what: str, view: str) -> List[ET.Element]:
    out = [el("h2", "%s: %s" % (what, fv.change.path)), nav(fv, view),
           el("p", describe(fv), class_="src-desc")]
    if fv.change.comment:
        out.append(el("pre", "\n".join(fv.change.comment), class_="comment"))
    return out


def sdiff_page(fv: FileView) -> List[ET.Element]:
    table = el("table", class_="sdiff")
    nchange, prev = 0, "equal"
    for kind, i, j in fv.rows:
        tr = sub(table, "tr", class_=kind)
        if kind != "equal" and prev == "equal":
            nchange += 1
            tr.set("id", "c%d" % nchange)
        prev = kind
        for no, hl in ((i, fv.old_hl), (j, fv.new_hl)):
            sub(tr, "td", str(no) if no else "", class_="ln")
            fill(sub(tr, "td", class_="src"), hl[no - 1] if no else [])
    jump = el("p", "changes: ", class_="jump")
    for n in range(1, nchange + 1):
        link(jump, "#c%d" % n, str(n))
    return header(fv, "Sdiff", "sdiff") + [jump, table]


def text_page(fv: FileView, side: str) -> List[ET.Element]:
    body = header(fv, "Old" if side == "old" else "New", side)
    if side == "old" and fv.change.kind == "new":
        body.append(el("p", "New file: %s does not have it." % fv.ref, class_="warn"))
        return body
    table = el("table", class_="text")
    for n, pieces in enumerate(fv.old_hl if side == "old" else fv.new_hl, 1):
        tr = sub(table, "tr")
        sub(tr, "td", str(n), class_="ln")
        fill(sub(tr, "td", class_="src"), pieces)
    body.append(table)
    return body


def pre_page(fv: FileView, what: str, view: str, lines: List[str]) -> List[ET.Element]:
    pre = el("pre", class_="src " + view)
    for pieces in highlight([l + "\n" for l in lines], "x.patch"):
        line = sub(pre, "span", class_="line")
        fill(line, pieces)
        line.tail = "\n"
    return header(fv, what, view) + [pre]


def index_page(ps: View, views: List[FileView], name: str, total: Stats) -> List[ET.Element]:
    b = ps.baseline
    body = [el("h1", "webrev: %s against %s" % (ps.title, b.ref))]
    link(sub(body[0], "span", " ", class_="up"), "../index.html", "(all topics)")
    info = el("table", class_="summary")
    for k, v in (("Baseline", "%s (%s)" % (b.ref, b.origin)),
                 ("Summary", "%d files: %s" % (len(views), total.line()))):
        tr = sub(info, "tr")
        sub(tr, "th", k)
        sub(tr, "td", v)
    tr = sub(info, "tr")
    sub(tr, "th", "Patch")
    link(sub(tr, "td"), name + ".patch", name + ".patch")
    body.append(info)
    body.append(el("p", "Apply the series from the top of an OpenJDK %s tree with git am "
                        "(or git apply)%s." % (b.ref, ", after the series of topic %s, which "
                                               "it depends on: the old side of each view is "
                                               "the file as that series leaves it"
                                               % ps.depends if ps.depends else ""),
                   class_="hint"))
    files = el("div", class_="files")
    for fv in views:
        c = fv.change
        div = sub(files, "div", class_="file", id=c.path)
        p = sub(div, "p", class_="links")
        for view, label, _ in VIEWS:
            link(p, view_name(c.path, view), label)
        sub(p, "span", c.path, class_="path")
        sub(div, "p", describe(fv), class_="kind")
        if c.comment:
            # Folded: the index is read at a glance; the views show it open.
            details = sub(div, "details", class_="comment")
            sub(details, "summary", c.comment[0])
            if len(c.comment) > 1:
                sub(details, "pre", "\n".join(c.comment[1:]))
            details.tail = "\n"
        sub(div, "p", fv.stats.line(), class_="stat")
    body.append(files)
    for f, rule in ps.left_out:
        body.append(el("p", "Left out for this base JDK: %s (%s)" % (f, rule), class_="note"))
    for n in ps.notes:
        body.append(el("p", n, class_="note"))
    body.append(el("p", "Generated by make webrev from git's diff of the series against %s; "
                        "the old side of each view is that release's text." % b.ref,
                   class_="footer"))
    return body


def write_webrev(ps: View, out: str, name: str) -> str:
    if os.path.exists(out) and os.listdir(out) and not os.path.exists(os.path.join(out, MARKER)):
        raise PatchSetError("%s exists and is not a webrev made by this tool; not replacing it"
                            % out)
    tmp = out + ".tmp"
    if os.path.exists(tmp):
        shutil.rmtree(tmp)
    os.makedirs(tmp)
    w = Writer(tmp)
    views = [file_view(ps, c) for c in ps.changes]
    total = Stats()
    for fv in views:
        p = fv.change.path
        total.add(fv.stats)
        w.html(view_name(p, "sdiff"), "Sdiff " + p, sdiff_page(fv))
        w.html(view_name(p, "udiff"), "Udiff " + p,
               pre_page(fv, "Udiff", "udiff", fv.section.rstrip("\n").split("\n")))
        w.html(view_name(p, "cdiff"), "Cdiff " + p,
               pre_page(fv, "Cdiff", "cdiff", context_diff(p, fv.ref, fv.hunks)))
        w.html(view_name(p, "old"), "Old " + p, text_page(fv, "old"))
        w.html(view_name(p, "new"), "New " + p, text_page(fv, "new"))
        w.text(view_name(p, "patch"), fv.section)
        w.text(view_name(p, "raw"), "".join(fv.new))
    w.text(name + ".patch", ps.patch_text())
    w.html("index.html", "webrev: " + ps.title, index_page(ps, views, name, total))
    with open(os.path.join(HERE, "style.css"), encoding=ENCODING) as f:
        w.text("style.css", f.read())
    w.text("highlight.css", HtmlFormatter(style=STYLE).get_style_defs(".src") + "\n")
    w.text(MARKER, "Generated by webrev/webrev.py; make webrev replaces this directory.\n")
    if os.path.exists(out):
        shutil.rmtree(out)
    os.rename(tmp, out)
    return total.line()


def write_topic_index(ps: PatchSet, views: List[View], out: str) -> None:
    """out/index.html: one line per topic, linking its webrev."""
    w = Writer(out)
    body = [el("h1", "webrev: %d topics against %s" % (len(views), ps.baseline.ref))]
    info = el("table", class_="summary")
    tr = sub(info, "tr")
    sub(tr, "th", "Baseline")
    sub(tr, "td", "%s (%s)" % (ps.baseline.ref, ps.baseline.origin))
    body.append(info)
    files = el("div", class_="files")
    for v in views:
        div = sub(files, "div", class_="file")
        link(sub(div, "p", class_="links"), v.title + "/index.html", v.title)
        sub(div, "p", "%d files; series of %d patch(es)" % (
            len(v.changes), len([p for t in ps.topics if t.name == v.title
                                 for p in t.patches if p.commit])), class_="kind")
    body.append(files)
    w.html("index.html", "webrev: all topics", body)
    with open(os.path.join(HERE, "style.css"), encoding=ENCODING) as f:
        w.text("style.css", f.read())
    w.text(MARKER, "Generated by webrev/webrev.py; make webrev replaces this directory.\n")
