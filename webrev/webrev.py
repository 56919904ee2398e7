#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only WITH Classpath-exception-2.0
"""The patch set as reviewers and vendors take it.

  webrev.py patch  BASELINE --output-dir DIR --name N [MAINLINE]
  webrev.py check-text BASELINE FILE...
  webrev.py webrev BASELINE --name N --output DIR
  webrev.py apply  --patch FILE --upstream TREE
  webrev.py hunk-edit BASELINE --file PATH --output FILE [--patch TOPIC:ID]
  webrev.py hunk-save BASELINE --file PATH --edited FILE [--patch TOPIC:ID] [--check TREE...]
  webrev.py export BASELINE --output DIR PATH...

BASELINE: --root R --rules F --topics D --feature N --upstream-dir U --ref TAG
--origin O --workdir W --author A --copyright-holder H [--line L]
[--only-topics "T..."] (with the topics they depend on); L is
"mainline" (the default) or the release line (25u) whose series are the
backports of the mainline series. MAINLINE, for the patch of a release
line: --mainline-dir U --mainline-ref TAG --mainline-origin O
--mainline-workdir W --mainline-name N --mainline-files-of FEATURE
[--release-lines "25u 17u"]: the mainline series are written first, against
that tree, with the files chosen as for FEATURE. make/Patch.gmk and
make/Webrev.gmk run it; make/Micro.gmk and make/Windows.gmk run export; see
doc/building.md.
"""

import argparse
import os
import shutil
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

# pylint: disable=wrong-import-position
from patchset import MAINLINE, Baseline, Identity, PatchSet, PatchSetError, encode  # noqa: E402
import apply as applier  # noqa: E402
import cover  # noqa: E402
import hunks  # noqa: E402
import upstream_text  # noqa: E402


def baseline_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--root", required=True, help="the checkout whose files form the patch set")
    p.add_argument("--rules", required=True, help="patchset.rules")
    p.add_argument("--feature", required=True, help="the base JDK's feature version (17, 25)")
    p.add_argument("--upstream-dir", required=True, help="the baseline tree (a git repository)")
    p.add_argument("--ref", required=True, help="the baseline's release tag in it")
    p.add_argument("--origin", required=True, help="where the baseline came from")
    p.add_argument("--workdir", required=True, help="where the patched tree is built")
    p.add_argument("--topics", required=True, help="webrev/topics: a series per topic")
    p.add_argument("--author", required=True, help="'Name <email>' of the series' commits")
    p.add_argument("--copyright-holder", required=True, help="named by every new file")
    p.add_argument("--line", default=MAINLINE, help="the baseline's line: mainline, or the "
                   "release line (25u) of which the series are backports")
    p.add_argument("--only-topics", default="", help="space-separated topic names: the "
                   "patched tree holds only their series and those of the topics they "
                   "depend on (an image of one pull request)")


def load(a, build: bool = True) -> PatchSet:
    """The patch set on the baseline; without build, only which patch takes
    which file (no git work, so it works where a hunk file does not apply)."""
    if not os.path.isdir(a.root):
        raise PatchSetError("--root %s is not a directory" % a.root)
    ps = PatchSet(a.root, a.rules, a.feature, Baseline(a.upstream_dir, a.ref, a.origin),
                  a.workdir, a.topics, Identity(a.author, a.copyright_holder), a.line, build,
                  a.only_topics.split(), getattr(a, "unwritten_ok", False))
    for note in ps.notes:
        print("note: %s" % note)
    return ps


def load_mainline(a) -> PatchSet:
    """The patch set on the mainline tree, its files chosen as for the
    release line whose files are the mainline change."""
    ps = PatchSet(a.root, a.rules, a.mainline_files_of,
                  Baseline(a.mainline_dir, a.mainline_ref, a.mainline_origin),
                  a.mainline_workdir, a.topics, Identity(a.author, a.copyright_holder), MAINLINE,
                  only=a.only_topics.split())
    for note in ps.notes:
        print("note: mainline: %s" % note)
    return ps


def write_atomically(path: str, data: bytes) -> None:
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    with open(path + ".tmp", "wb") as f:
        f.write(data)
    os.replace(path + ".tmp", path)


def cmd_patch(a) -> int:
    """Writes the series in a scratch directory, checks their text, and only
    then replaces the output: a stale or rejected series is worse than none.
    Mainline first: for a release line, the mainline series are made too,
    and the release line's are their backports."""
    lines = (a.release_lines or "").split()
    ps = load(a)
    mainline = ps
    if ps.is_backport:
        if not a.mainline_dir:
            raise PatchSetError("the %s series are backports, but no mainline tree is given "
                                "(MAINLINE_DIR; re-run configure)" % ps.line)
        mainline = load_mainline(a)
    tmp = a.output_dir.rstrip("/") + ".tmp"
    if os.path.exists(tmp):
        shutil.rmtree(tmp)
    titles = {}

    def letter(t):
        text = cover.mainline_letter(mainline, t)
        titles[t.name] = text.split("\n", 1)[0]
        return text
    written = [(mainline, cover.write_series(mainline, tmp, letter))]
    if ps.is_backport:
        write_atomically(os.path.join(tmp, a.mainline_name + ".patch"),
                         encode(mainline.patch_text()))
        written.append((ps, cover.write_series(ps, tmp, lambda t: cover.backport_letter(
            ps, mainline, t, titles[t.name], lines))))
    write_atomically(os.path.join(tmp, a.name + ".patch"), encode(ps.patch_text()))
    for f, why in ps.left_out:
        print("  left out: %s (%s)" % (f, why))
    failed = sum(check_text(p, series_files(dirs)) for p, dirs in written)
    if os.path.exists(a.output_dir):
        shutil.rmtree(a.output_dir)
    if failed:
        shutil.rmtree(tmp)
        return 1
    os.rename(tmp, a.output_dir)
    for p, dirs in written:
        for d in dirs:
            d = os.path.join(a.output_dir, os.path.relpath(d, tmp))
            n = len([f for f in os.listdir(d) if f.endswith(".patch")]) - 1
            t = next(x for x in p.topics if x.name == os.path.basename(os.path.dirname(d)))
            print("Wrote %s: a cover letter and %d %s against %s" % (
                d, n, "backport(s) of the mainline patches" if p.is_backport else "patch(es)",
                p.based_on(t)))
    if ps.is_backport:
        print("Wrote %s: every topic's mainline series in one file (%d files)"
              % (os.path.join(a.output_dir, a.mainline_name + ".patch"),
                 len(mainline.changed_paths())))
    print("Wrote %s: every topic's %s series in one file, for make apply (%d files)"
          % (os.path.join(a.output_dir, a.name + ".patch"), ps.line, len(ps.changed_paths())))
    return 0


def series_files(dirs):
    return [os.path.join(d, f) for d in dirs for f in sorted(os.listdir(d))
            if f.endswith(".patch") or f == "jbs.md"]


def check_text(ps: PatchSet, files) -> int:
    ours = {f for t in ps.topics for p in t.patches for f in p.files}
    names = upstream_text.repository_names(ps.root, ps.baseline.upstream, ps.baseline.commit,
                                           ours, os.path.relpath(ps.topics_dir, ps.root))
    problems = upstream_text.check(files, names)
    if problems:
        print("error: %d line(s) bound for upstream speak of this repository:\n  %s"
              % (len(problems), "\n  ".join(problems)), file=sys.stderr)
        return 1
    print("Checked %d files: every added line speaks of OpenJDK alone" % len(files))
    return 0


def cmd_check_text(a) -> int:
    return check_text(load(a), a.files)


def cmd_webrev(a) -> int:
    try:
        import render  # pylint: disable=import-outside-toplevel  # Pygments only here
    except ImportError as e:
        raise PatchSetError("%s: %s needs Pygments (Debian: apt-get install python3-pygments)"
                            % (e, sys.executable))
    out = a.output.rstrip("/")
    if os.path.exists(out) and os.listdir(out) and \
            not os.path.exists(os.path.join(out, render.MARKER)):
        raise PatchSetError("%s exists and is not a webrev made by this tool; not replacing it"
                            % out)
    ps = load(a)
    views = [ps.topic_view(t) for t in ps.topics if t.head != t.base]
    # Made aside and put in place whole: a topic that left leaves no pages.
    tmp = out + ".tmp"
    if os.path.exists(tmp):
        shutil.rmtree(tmp)
    for v in views:
        total = render.write_webrev(v, os.path.join(tmp, v.title), v.title)
        print("Wrote %s: %d files, %s" % (os.path.join(out, v.title, "index.html"),
                                          len(v.changes), total))
    render.write_topic_index(ps, views, tmp)
    if os.path.exists(out):
        shutil.rmtree(out)
    os.rename(tmp, out)
    print("Wrote %s" % os.path.join(out, "index.html"))
    return 0


def cmd_export(a) -> int:
    """The patched tree's files under PATH... (files or directories), as the
    patch makes them, written below --output: what the benchmark jar and the
    Windows libraries are compiled from, so that they build what the patch
    holds and nothing else decides which hunk applies."""
    ps = load(a)
    count = ps.export(a.paths, a.output, a.changed)
    print("Exported %d files of %s with the patch set to %s" % (count, ps.baseline.ref,
                                                               a.output))
    return 0


def cmd_hunk_save(a) -> int:
    """The hunk file of the patch PATCH names (or of the one patch that
    changes FILE): against upstream's file when no earlier patch of its topic
    and no topic it depends on changes FILE, checked on every tree; else
    against the file as those patches leave it."""
    selection = load(a, build=False)
    p = hunks.chosen_patch(selection, a.file, a.patch)
    hunk_file = hunks.hunk_file_name(selection, p, a.file)
    if p is None or not hunks.earlier_in_topic(selection, p, a.file):
        return hunks.save(Baseline(a.upstream_dir, a.ref, a.origin), a.root, a.file, a.edited,
                          a.check, a.mainline, a.mainline_files_of, hunk_file)
    base = load(a).text_before(p.topic, p.id, a.file)
    if base is None:
        raise PatchSetError("%s: no such file before patch %s of %s" % (a.file, p.id, p.topic))
    return hunks.save_stacked(base, a.file, p.id, a.edited, hunk_file)


def main(argv) -> int:
    ap = argparse.ArgumentParser(prog="webrev.py", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    sp = ap.add_subparsers(dest="cmd", required=True)
    p = sp.add_parser("patch")
    baseline_args(p)
    p.add_argument("--output-dir", required=True, help="build/<conf>/patch")
    p.add_argument("--name", required=True, help="the file of all series, without .patch")
    p.add_argument("--mainline-dir", default="", help="the mainline tree (a git repository)")
    p.add_argument("--mainline-ref", default="", help="its tag (or commit)")
    p.add_argument("--mainline-origin", default="", help="where it came from")
    p.add_argument("--mainline-workdir", default="", help="where its patched tree is built")
    p.add_argument("--mainline-name", default="", help="the file of all mainline series, "
                   "without .patch")
    p.add_argument("--mainline-files-of", default="", help="the feature version whose "
                   "files the mainline series take (the newest release line's)")
    p.add_argument("--release-lines", default="", help="the release lines the mainline "
                   "change is backported to, in order: '25u 17u'")
    p.set_defaults(fn=cmd_patch)
    p = sp.add_parser("check-text")
    baseline_args(p)
    p.add_argument("files", nargs="+", help="format-patch files")
    p.set_defaults(fn=cmd_check_text)
    p = sp.add_parser("webrev")
    baseline_args(p)
    p.add_argument("--name", required=True, help="file name of the whole patch, without .patch")
    p.add_argument("--output", required=True)
    p.set_defaults(fn=cmd_webrev)
    p = sp.add_parser("apply")
    p.add_argument("--patch", required=True)
    p.add_argument("--upstream", default="")
    p.set_defaults(fn=lambda a: applier.apply(a.patch, a.upstream))
    p = sp.add_parser("hunk-edit")
    baseline_args(p)
    p.add_argument("--file", required=True, help="the upstream path of a hunk file's file")
    p.add_argument("--output", required=True)
    p.add_argument("--patch", default="", help="TOPIC:ID: the file as that patch leaves it "
                   "(needed when several patches change it)")
    # (a series may name the hunk file hunk-save is to write: a new topic's)
    p.set_defaults(fn=lambda a: hunks.edit(load(a), a.file, a.output, a.patch),
                   unwritten_ok=True)
    p = sp.add_parser("hunk-save")
    baseline_args(p)
    p.add_argument("--file", required=True, help="the upstream path of a hunk file's file")
    p.add_argument("--edited", required=True, help="the whole edited file")
    p.add_argument("--check", nargs="*", default=[], help="more trees it must apply to")
    p.add_argument("--mainline", default="", help="the one of them that is the mainline tree")
    p.add_argument("--mainline-files-of", default="", help="the feature version whose files "
                   "the mainline series take")
    p.add_argument("--patch", default="", help="TOPIC:ID: a hunk file of that patch, made "
                   "against the file as the topic's earlier patches leave it (needed when "
                   "several patches change it)")
    p.set_defaults(fn=cmd_hunk_save, unwritten_ok=True)
    p = sp.add_parser("export")
    baseline_args(p)
    p.add_argument("--output", required=True, help="a directory; what it held is replaced")
    p.add_argument("--changed", action="store_true",
                   help="only the files the patch set changes")
    p.add_argument("paths", nargs="+", help="paths of the tree, files or directories")
    p.set_defaults(fn=cmd_export)
    a = ap.parse_args(argv)
    try:
        return a.fn(a)
    except (PatchSetError, OSError) as e:
        print("webrev.py %s: error: %s" % (a.cmd, e), file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
