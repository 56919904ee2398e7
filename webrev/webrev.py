#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only WITH Classpath-exception-2.0
"""The patch set as reviewers and vendors take it.

  webrev.py patch   --root R --zip Z --version V --origin O --output FILE
  webrev.py webrev  --root R --zip Z --version V --origin O --name N --output DIR [--upstream U]
  webrev.py apply   --patch FILE --upstream U
  webrev.py synth-upstream --zip Z --output DIR     (test support)
  webrev.py fake-native    --patch FILE --output DIR (test support)
  webrev.py context-line   --patch FILE --path P     (test support)

make/Patch.gmk and make/Webrev.gmk run it; see doc/building.md.
"""

import argparse
import os
import sys
import zipfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

# pylint: disable=wrong-import-position
from patchset import Baseline, PatchSet, PatchSetError, encode  # noqa: E402
import apply as applier  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))


def baseline_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--root", required=True, help="the checkout whose files form the patch set")
    p.add_argument("--rules", default=os.path.join(HERE, "patchset.rules"))
    p.add_argument("--zip", default="", help="the base JDK's src.zip")
    p.add_argument("--version", required=True, help="the base JDK's java.runtime.version")
    p.add_argument("--feature", default="", help="the base JDK's feature version (17, 25)")
    p.add_argument("--origin", required=True, help="where the base JDK's sources came from")
    p.add_argument("--upstream", default="", help="an upstream checkout (optional)")


def load(a) -> PatchSet:
    if not os.path.isdir(a.root):
        raise PatchSetError("--root %s is not a directory" % a.root)
    baseline = Baseline(a.zip, a.version, a.origin, a.upstream or None)
    ps = PatchSet(a.root, a.rules, baseline, a.feature)
    for note in ps.notes:
        print("note: %s" % note)
    if not ps.changes:
        raise PatchSetError("the patch set is empty: no file under %s is selected by %s"
                            % (a.root, a.rules))
    return ps


def write_atomically(path: str, data: bytes) -> None:
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    tmp = path + ".tmp"
    with open(tmp, "wb") as f:
        f.write(data)
    os.replace(tmp, path)


def cmd_patch(a) -> int:
    ps = load(a)
    write_atomically(a.output, encode(ps.patch_text()))
    print("Wrote %s: %d files, %s" % (a.output, len(ps.changes), ps.total().line()))
    return 0


def cmd_webrev(a) -> int:
    try:
        import render  # Pygments is needed here only
    except ImportError as e:
        raise PatchSetError("%s: %s needs Pygments (Debian: apt-get install python3-pygments)"
                            % (e, sys.executable))
    ps = load(a)
    render.write_webrev(ps, a.output, a.name)
    print("Wrote %s: %d files, %s" % (os.path.join(a.output, "index.html"), len(ps.changes),
                                       ps.total().line()))
    return 0


def cmd_apply(a) -> int:
    return applier.apply(a.patch, a.upstream)


def cmd_synth(a) -> int:
    """A stand-in for an OpenJDK checkout: the zip's Java sources at their
    checkout paths (the zip merges share/ and the platform's own classes)."""
    if not a.zip or not os.path.isfile(a.zip):
        raise PatchSetError("--zip %r is not a file" % a.zip)
    n = 0
    with zipfile.ZipFile(a.zip) as z:
        for info in z.infolist():
            name = info.filename
            if info.is_dir() or not name.endswith(".java") or "/" not in name:
                continue
            module, rel = name.split("/", 1)
            dest = os.path.join(a.output, "src", module, "share", "classes", rel)
            os.makedirs(os.path.dirname(dest), exist_ok=True)
            with open(dest, "wb") as f:
                f.write(z.read(info))
            n += 1
    print("Wrote %d Java files under %s" % (n, os.path.join(a.output, "src")))
    return 0


def cmd_fake_native(a) -> int:
    applier.fake_targets(a.patch, a.output)
    return 0


def cmd_context_line(a) -> int:
    line = applier.first_context_line(a.patch, a.path)
    if line is None:
        raise PatchSetError("%s has no hunk with a context line for %s" % (a.patch, a.path))
    print(line)
    return 0


def main(argv) -> int:
    ap = argparse.ArgumentParser(prog="webrev.py", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    sp = ap.add_subparsers(dest="cmd", required=True)
    p = sp.add_parser("patch")
    baseline_args(p)
    p.add_argument("--output", required=True)
    p.set_defaults(fn=cmd_patch)
    p = sp.add_parser("webrev")
    baseline_args(p)
    p.add_argument("--name", required=True, help="file name of the whole patch, without .patch")
    p.add_argument("--output", required=True)
    p.set_defaults(fn=cmd_webrev)
    p = sp.add_parser("apply")
    p.add_argument("--patch", required=True)
    p.add_argument("--upstream", default="")
    p.set_defaults(fn=cmd_apply)
    p = sp.add_parser("synth-upstream")
    p.add_argument("--zip", required=True)
    p.add_argument("--output", required=True)
    p.set_defaults(fn=cmd_synth)
    p = sp.add_parser("fake-native")
    p.add_argument("--patch", required=True)
    p.add_argument("--output", required=True)
    p.set_defaults(fn=cmd_fake_native)
    p = sp.add_parser("context-line")
    p.add_argument("--patch", required=True)
    p.add_argument("--path", required=True)
    p.set_defaults(fn=cmd_context_line)
    a = ap.parse_args(argv)
    try:
        return a.fn(a)
    except PatchSetError as e:
        print("webrev.py %s: error: %s" % (a.cmd, e), file=sys.stderr)
        return 1
    except OSError as e:
        print("webrev.py %s: error: %s" % (a.cmd, e), file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
