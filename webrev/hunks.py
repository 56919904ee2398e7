# SPDX-License-Identifier: GPL-2.0-only WITH Classpath-exception-2.0
"""Editing a hunk file through the whole file it makes.

  make hunk-edit FILE=<upstream path> [PATCH=<topic>:<id>]
                       writes the file as the patch leaves it (its topic's
                       earlier patches and the topics it depends on
                       included, no other topic's) to
                       build/<conf>/hunk-edit/<path>
  make hunk-save FILE=<upstream path> [PATCH=<topic>:<id>] [EDITED=<file>]
                       makes the patch's hunk file the diff from the file
                       before the patch to the edited one, keeping the hunk
                       file's notes: when no earlier patch of its topic
                       and no topic it depends on changes the file, from
                       upstream's file, and checks that it applies to every
                       baseline

PATCH may be left out when at most one patch changes the file (none: the
hunk file is a new <path>.patch). Where several do (two topics, or two
patches of one topic), both commands need it: the file with every patch
applied is no patch's result, and its diff from upstream's would take one
patch's hunks into another's hunk file. The hunk file is the patch's own for
this configuration's release (<path>[.<id>][.jdk17].patch, as its series
names it), or, for a patch that does not change the file yet, a new
<path>.<id>.patch for its series to take.

A hunk file never changes the copyright year of upstream's header: the
series does that when it is made (patchset.bump_copyright_year), so the
edited file's copyright line is put back as the base has it first.
"""

import os
import re
import tempfile
from typing import List, Optional

import series
from patchset import (ORACLE_COPYRIGHT_RE, PatchSet, PatchSetError, Baseline, decode, encode,
                      git, hunk_file_baselines)


def chosen_patch(ps: PatchSet, path: str, spec: str) -> Optional[series.Patch]:
    """The patch whose change of `path` is edited: PATCH=<topic>:<id>, or
    the one patch that changes it; None when none does."""
    if spec:
        topic, _, pid = spec.partition(":")
        return ps.patch(topic, pid)
    changing = ps.patches_changing(path)
    if len(changing) > 1:
        raise PatchSetError(
            "%s is changed by %d patches (%s): name the one to edit with PATCH=<topic>:<id>. "
            "make hunk-edit FILE=%s PATCH=%s writes the file as that patch leaves it (its "
            "topic's earlier patches and the topics it depends on included, no other topic's), "
            "and make hunk-save with the same PATCH stores the edit in that patch's hunk file" % (
                path, len(changing), ", ".join("%s:%s" % (p.topic, p.id) for p in changing),
                path, "%s:%s" % (changing[0].topic, changing[0].id)))
    return changing[0] if changing else None


def earlier_in_topic(ps: PatchSet, p: series.Patch, path: str, below: bool = True) -> bool:
    """Whether a patch of p's topic before p, or (below) of a topic it
    depends on, changes `path`: then p's hunk file is made against their
    result."""
    t = next(x for x in ps.topics if x.name == p.topic)
    under = series.dependencies(ps.topics, p.topic) if below else []
    return any(q.topic in under or
               (q.topic == p.topic and t.patches.index(q) < t.patches.index(p))
               for q in ps.patches_changing(path))


def hunk_file_name(ps: PatchSet, p: Optional[series.Patch], path: str) -> str:
    """Where the hunk file of p's change of `path` is (see above)."""
    if p is None:
        return release_hunk_file(ps.root, path, ps.feature)
    own = ps.hunk_file_of(p, path)
    if own and series.hunk_release(own) is None:
        with open(os.path.join(ps.root, own), "rb") as f:
            wanted = hunk_file_baselines(decode(f.read()), own)
        if wanted is not None and ps.feature not in wanted:
            # Its 'Baselines:' line leaves this release out: the release's own
            # hunk file, not that one, takes the edit.
            name = os.path.join(ps.root, "%s.jdk%s.patch" % (own[:-len(".patch")], ps.feature))
            print("note: %s leaves JDK %s out: writing %s; add it to patch %s of %s in its "
                  "series" % (own, ps.feature, os.path.relpath(name, ps.root), p.id, p.topic))
            return name
    if own:
        return os.path.join(ps.root, own)
    name = release_hunk_file(ps.root, "%s.%s" % (path, p.id), ps.feature)
    print("note: patch %s of %s has no hunk file of %s: add %s to it in its series" % (
        p.id, p.topic, path, os.path.relpath(name, ps.root)))
    return name


def edit(ps: PatchSet, path: str, output: str, spec: str = "") -> int:
    p = chosen_patch(ps, path, spec)
    if p is None:
        if ps.old_text(path) is None:
            raise PatchSetError("%s: %s has no such file" % (path, ps.baseline.ref))
        print("note: the patch set does not change %s yet; starting from upstream's" % path)
        text, what = ps.old_text(path), ps.baseline.ref
    else:
        text = ps.text_after(p.topic, p.id, path)
        if text is None:
            raise PatchSetError("%s: no such file after patch %s of %s" % (path, p.id, p.topic))
        t = next(x for x in ps.topics if x.name == p.topic)
        what = "%s%s patch %s of %s%s" % (ps.based_on(t), ", then" if t.depends else " with",
                                         p.id, p.topic, " and its earlier ones"
                                         if earlier_in_topic(ps, p, path, below=False) else "")
    os.makedirs(os.path.dirname(os.path.abspath(output)), exist_ok=True)
    with open(output, "wb") as f:
        f.write(encode(text or ""))
    print("Wrote %s (%s). Edit it, then: make hunk-save FILE=%s%s"
          % (output, what, path, " PATCH=" + spec if spec else ""))
    return 0


def notes_of(hunk_file: str) -> List[str]:
    """The lines before the first `---` of an existing hunk file (all of
    them in a new one that holds only its notes so far)."""
    if not os.path.exists(hunk_file):
        return []
    with open(hunk_file, "rb") as f:
        lines = decode(f.read()).split("\n")
    notes = lines[:next((k for k, l in enumerate(lines) if l.startswith("--- ")), len(lines))]
    while notes and not notes[-1].strip():
        notes.pop()
    return notes


def tree_feature(tree: str) -> Optional[str]:
    """The feature version of a release tree configure fetched
    (build/upstream/jdk-25.0.3+9 -> 25); None for a tree named otherwise."""
    m = re.match(r"jdk-(\d+)", os.path.basename(os.path.normpath(tree)))
    return m.group(1) if m else None


def with_base_copyright(edited: str, base: str) -> str:
    """The edited text with the base's copyright line in place of its own."""
    b = ORACLE_COPYRIGHT_RE.search(base, 0, 2000)
    e = ORACLE_COPYRIGHT_RE.search(edited, 0, 2000)
    if not b or not e:
        return edited
    return edited[:e.start()] + b.group(0) + edited[e.end():]


def diff_body(base: str, edited_path: str, what: str) -> str:
    """The hunks (from the first '@@') of the diff from `base` to the file."""
    with open(edited_path, "rb") as f:
        edited = with_base_copyright(decode(f.read()), base)
    with tempfile.TemporaryDirectory() as tmp:
        a, b = os.path.join(tmp, "base"), os.path.join(tmp, "edited")
        for name, text in ((a, base), (b, edited)):
            with open(name, "wb") as f:
                f.write(encode(text))
        d = git(["diff", "--no-index", "--no-color", "--diff-algorithm=myers", "-U3", a, b],
                check=False)
    if d.returncode == 0:
        raise PatchSetError("%s is identical to %s: nothing to store" % (edited_path, what))
    if d.returncode != 1:
        raise PatchSetError("git diff failed: %s" % decode(d.stderr).strip())
    body = decode(d.stdout)
    return body[re.search(r"^@@ ", body, re.M).start():]


def write_hunk_file(hunk_file: str, path: str, body: str, what: str) -> str:
    text = "\n".join(notes_of(hunk_file) + ["--- a/%s" % path, "+++ b/%s" % path]) + "\n" + body
    os.makedirs(os.path.dirname(hunk_file), exist_ok=True)
    with open(hunk_file + ".tmp", "wb") as f:
        f.write(encode(text))
    os.replace(hunk_file + ".tmp", hunk_file)
    print("Wrote %s (%d hunks against %s)" % (hunk_file, len(re.findall(r"^@@ ", body, re.M)),
                                              what))
    return text


def release_hunk_file(root: str, stem: str, feature: Optional[str]) -> str:
    """`<stem>.jdk<N>.patch` where the patch set keeps one for this release
    (its own backport of the change), else `<stem>.patch`."""
    own = os.path.join(root, "%s.jdk%s.patch" % (stem, feature))
    return own if feature and os.path.exists(own) else os.path.join(root, stem + ".patch")


def save_stacked(base: str, path: str, patch_id: str, edited: str, hunk_file: str) -> int:
    """The hunk file of a later step: the edited file against the file as
    the earlier patches of the topic leave it. make patch checks that it
    applies."""
    what = "the file before patch %s" % patch_id
    write_hunk_file(hunk_file, path, diff_body(base, edited, what), what)
    return 0


def save(baseline: Baseline, root: str, path: str, edited: str, trees: List[str],
         mainline: str = "", mainline_files_of: str = "", hunk_file: str = "") -> int:
    """Writes the hunk file and checks it on every tree it is for: a release
    tree by its feature version, the mainline tree (`mainline`) as the
    release whose files the mainline series take (`mainline_files_of`)."""
    old = git(["cat-file", "blob", "%s:%s" % (baseline.commit, path)], cwd=baseline.upstream,
              check=False)
    if old.returncode != 0:
        raise PatchSetError("%s: %s has no such file; a file new upstream is stored whole"
                            % (path, baseline.ref))
    what = "%s's %s" % (baseline.ref, path)
    body = diff_body(decode(old.stdout), edited, what)
    hunk_file = hunk_file or release_hunk_file(root, path, tree_feature(baseline.ref))
    text = write_hunk_file(hunk_file, path, body, baseline.ref)
    if os.path.exists(os.path.join(root, path)):
        print("note: %s is stored whole too: git rm it, a file is stored one way only" % path)
    failed = 0
    release = series.hunk_release(hunk_file)
    wanted = [release] if release else hunk_file_baselines(text, hunk_file)
    for tree in trees:
        feature = tree_feature(tree)
        if mainline and os.path.realpath(tree) == os.path.realpath(mainline):
            feature = mainline_files_of or None
        if wanted is not None and feature is not None and feature not in wanted:
            print("  not for %s (its 'Baselines: %s' line)" % (tree, " ".join(wanted)))
            continue
        p = git(["apply", "--check", os.path.abspath(hunk_file)], cwd=tree, check=False)
        print("  %s %s" % ("applies to" if p.returncode == 0 else "DOES NOT APPLY to", tree))
        if p.returncode != 0:
            print("    " + decode(p.stderr).strip().replace("\n", "\n    "))
            failed += 1
    if failed:
        raise PatchSetError("%s does not apply to %d of the baselines: keep upstream's lines "
                            "that differ between releases out of the hunks' context" % (
                                hunk_file, failed))
    return 0
