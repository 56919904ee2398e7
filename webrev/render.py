# SPDX-License-Identifier: GPL-2.0-only WITH Classpath-exception-2.0
"""The webrev's pages: markup built with ElementTree (which escapes all
text), highlighting by Pygments, page skeleton from templates/page.html.

Every byte depends only on the patch set and the baseline: no dates, no
host names, files in path order."""

import os
import shutil
from string import Template
from typing import List, Optional, Tuple
from urllib.parse import quote
import xml.etree.ElementTree as ET

from pygments.formatters import HtmlFormatter
from pygments.lexers import DiffLexer, TextLexer, get_lexer_for_filename
from pygments.token import STANDARD_TYPES
from pygments.util import ClassNotFound

from patchset import ENCODING, ERRORS, FileChange, PatchSet, PatchSetError, split_lines

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


# ---------------------------------------------------------------- views

VIEWS = (("sdiff", "Sdiffs", ".sdiff.html"), ("udiff", "Udiffs", ".udiff.html"),
         ("old", "Old", "-.html"), ("new", "New", ".html"), ("patch", "Patch", ".patch"))


def view_name(path: str, view: str) -> str:
    return path + dict((v, suffix) for v, _, suffix in VIEWS)[view]


def nav(change: FileChange, current: str) -> ET.Element:
    """The bar on top of every per-file page: back to the index, the other views."""
    base = os.path.basename(change.path)
    p = el("p", class_="nav")
    link(p, "../" * change.path.count("/") + "index.html", "index")
    for view, label, _ in VIEWS:
        if view == current:
            sub(p, "b", label).tail = " "
        else:
            link(p, view_name(base, view), label)
    return p


def header(change: FileChange, what: str) -> List[ET.Element]:
    h = el("h2", "%s: %s" % (what, change.path))
    src = el("p", "old: %s; new: %s" % (change.old_desc, change.source), class_="src-desc")
    out = [h, nav(change, {"Sdiff": "sdiff", "Udiff": "udiff", "Old": "old",
                            "New": "new"}.get(what, "")), src]
    if not change.complete:
        out.append(el("p", "The upstream file is not at hand (it is not in the base JDK's "
                           "src.zip; run with UPSTREAM=<checkout> to see it whole): "
                           "showing the hunks only.", class_="warn"))
    if change.comment:
        out.append(el("pre", "\n".join(change.comment), class_="comment"))
    return out


def gap_text(change: FileChange, k: int) -> Optional[str]:
    frag = change.fragments[k]
    if change.complete:
        return None
    if k == 0 and frag.old_start <= 1:
        return None
    return ("\u22ef upstream lines not shown; the next hunk starts at old line %d, new line %d"
            % (frag.old_start, frag.new_start))


def sdiff_page(change: FileChange) -> List[ET.Element]:
    table = el("table", class_="sdiff")
    nchange = 0
    for k, frag in enumerate(change.fragments):
        gap = gap_text(change, k)
        if gap:
            tr = sub(table, "tr", class_="gap")
            sub(tr, "td", gap, colspan="4")
        old_hl = highlight(frag.old_lines, change.path)
        new_hl = highlight(frag.new_lines, change.path)
        for tag, i1, i2, j1, j2 in frag.ops:
            if tag != "equal":
                nchange += 1
            first = True
            for n in range(max(i2 - i1, j2 - j1)):
                i, j = i1 + n, j1 + n
                has_old, has_new = i < i2, j < j2
                kind = ("equal" if tag == "equal" else
                        "mod" if has_old and has_new else "del" if has_old else "ins")
                tr = sub(table, "tr", class_=kind)
                if first and tag != "equal":
                    tr.set("id", "c%d" % nchange)
                first = False
                for has, no, hl in ((has_old, frag.old_start + i, old_hl[i] if has_old else None),
                                    (has_new, frag.new_start + j, new_hl[j] if has_new else None)):
                    sub(tr, "td", str(no) if has else "", class_="ln")
                    fill(sub(tr, "td", class_="src"), hl if has else [])
    jump = el("p", "changes: ", class_="jump")
    for n in range(1, nchange + 1):
        link(jump, "#c%d" % n, str(n))
    return header(change, "Sdiff") + [jump, table]


def text_page(change: FileChange, side: str) -> List[ET.Element]:
    what = "Old" if side == "old" else "New"
    body = header(change, what)
    if side == "old" and change.kind == "new":
        body.append(el("p", "New file: it does not exist in the baseline.", class_="warn"))
        return body
    table = el("table", class_="text")
    for k, frag in enumerate(change.fragments):
        gap = gap_text(change, k)
        if gap:
            sub(sub(table, "tr", class_="gap"), "td", gap, colspan="2")
        lines = frag.old_lines if side == "old" else frag.new_lines
        start = frag.old_start if side == "old" else frag.new_start
        for n, pieces in enumerate(highlight(lines, change.path)):
            tr = sub(table, "tr")
            sub(tr, "td", str(start + n), class_="ln")
            fill(sub(tr, "td", class_="src"), pieces)
    body.append(table)
    return body


def udiff_page(change: FileChange) -> List[ET.Element]:
    pre = el("pre", class_="src udiff")
    for pieces in highlight(split_lines(change.patch_text()), "x.patch"):
        line = sub(pre, "span", class_="line")
        fill(line, pieces)
        line.tail = "\n"
    return header(change, "Udiff") + [pre]


def index_page(ps: PatchSet, name: str) -> List[ET.Element]:
    b = ps.baseline
    body = [el("h1", "webrev: java.base patch set against JDK %s" % b.version)]
    info = el("table", class_="summary")
    rows = [("Baseline", "JDK %s" % b.version),
            ("Baseline sources", b.origin),
            ("Compare against",
             b.zip_path + (" and UPSTREAM %s" % b.upstream if b.upstream else "")),
            ("Summary", "%d files: %s" % (len(ps.changes), ps.total().line()))]
    for k, v in rows:
        tr = sub(info, "tr")
        sub(tr, "th", k)
        sub(tr, "td", v)
    tr = sub(info, "tr")
    sub(tr, "th", "Patch")
    link(sub(tr, "td"), name + ".patch", name + ".patch")
    body.append(info)
    body.append(el("p", "Apply the patch from the top of an OpenJDK checkout with git apply, "
                        "or from this repository with make apply UPSTREAM=<checkout>.",
                   class_="hint"))
    files = el("div", class_="files")
    for c in ps.changes:
        div = sub(files, "div", class_="file", id=c.path)
        p = sub(div, "p", class_="links")
        for view, label, _ in VIEWS:
            link(p, view_name(c.path, view), label)
        sub(p, "span", c.path, class_="path")
        kind = {"new": "new file",
                "modified": "whole file, against %s" % c.old_desc,
                "hunks": "hunks from %s, against %s" % (c.source, c.old_desc)}[c.kind]
        sub(div, "p", kind, class_="kind")
        if c.comment:
            # Folded: the index is read at a glance; the views show it open.
            details = sub(div, "details", class_="comment")
            sub(details, "summary", c.comment[0])
            if len(c.comment) > 1:
                sub(details, "pre", "\n".join(c.comment[1:]))
            details.tail = "\n"
        stat = sub(div, "p", c.stats().line(), class_="stat")
        if not c.complete:
            stat.text += " (unchg counts the hunks' context only)"
    body.append(files)
    for f, rule in ps.left_out:
        body.append(el("p", "Left out for this base JDK: %s (%s)" % (f, rule), class_="note"))
    for n in ps.notes:
        body.append(el("p", n, class_="note"))
    body.append(el("p", "This page and the views it links are generated by webrev/webrev.py "
                        "(make webrev); the old side of each view is the baseline's text.",
                   class_="footer"))
    return body


def write_webrev(ps: PatchSet, out: str, name: str) -> None:
    if os.path.exists(out) and os.listdir(out) and not os.path.exists(os.path.join(out, MARKER)):
        raise PatchSetError("%s exists and is not a webrev made by this tool; not replacing it"
                            % out)
    tmp = out + ".tmp"
    if os.path.exists(tmp):
        shutil.rmtree(tmp)
    os.makedirs(tmp)
    w = Writer(tmp)
    for c in ps.changes:
        base = c.path
        w.html(view_name(base, "sdiff"), "Sdiff " + c.path, sdiff_page(c))
        w.html(view_name(base, "udiff"), "Udiff " + c.path, udiff_page(c))
        w.html(view_name(base, "old"), "Old " + c.path, text_page(c, "old"))
        w.html(view_name(base, "new"), "New " + c.path, text_page(c, "new"))
        w.text(view_name(base, "patch"), c.patch_text())
    w.text(name + ".patch", ps.patch_text())
    w.html("index.html", "webrev: java.base patch set", index_page(ps, name))
    with open(os.path.join(HERE, "style.css"), encoding=ENCODING) as f:
        w.text("style.css", "".join(l for l in f))
    w.text("highlight.css", HtmlFormatter(style=STYLE).get_style_defs(".src") + "\n")
    w.text(MARKER, "Generated by webrev/webrev.py; make webrev replaces this directory.\n")
    if os.path.exists(out):
        shutil.rmtree(out)
    os.rename(tmp, out)
