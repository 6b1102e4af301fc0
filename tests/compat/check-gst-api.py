#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""gstprof tests: no GStreamer API newer than the oldest supported release
(1.16: JetPack 5, Ubuntu 20.04) outside a GST_CHECK_VERSION guard.

GLib and json-glib are held to their oldest releases at compile time
(GLIB_VERSION_MAX_ALLOWED, JSON_VERSION_MAX_ALLOWED in meson.build);
GStreamer has no such macros. This reads the `version` that GStreamer's own
introspection data (Gst-1.0.gir, GstBase-1.0.gir) gives every function,
method, constant and enum member, and checks each use of one newer than the
floor in src/, tests/ and bench/: it must sit where a preprocessor condition
requires at least that version (`#if GST_CHECK_VERSION (1, N, 0)`, the
`#else` of `#if !GST_CHECK_VERSION (...)`, or a macro defined as such a
check). Output is TAP.

Usage: check-gst-api.py GIR_DIR SOURCE_ROOT [FLOOR_MINOR]
"""
import os
import re
import sys
import xml.etree.ElementTree as ET

CORE = "{http://www.gtk.org/introspection/core/1.0}"
C = "{http://www.gtk.org/introspection/c/1.0}"
GIRS = ("Gst-1.0.gir", "GstBase-1.0.gir")
DIRS = ("src", "tests", "bench")
IDENT = re.compile(r"\b(gst_[a-z0-9_]+|GST_[A-Z0-9_]+)\b")
CHECK = re.compile(r"GST_CHECK_VERSION\s*\(\s*1\s*,\s*(\d+)\s*,\s*\d+\s*\)")


def minor_of(version):
    parts = version.split(".")
    if len(parts) < 2 or parts[0] != "1" or not parts[1].isdigit():
        return None
    return int(parts[1])


def read_versions(gir_dir):
    """c identifier -> minor version it appeared in (1.N)."""
    versions = {}
    for name in GIRS:
        path = os.path.join(gir_dir, name)
        root = ET.parse(path).getroot()
        for node in root.iter():
            ident = node.get(C + "identifier") or node.get(C + "type")
            version = node.get("version")
            if not ident or not version:
                continue
            tag = node.tag.replace(CORE, "")
            if tag not in ("function", "method", "constructor", "constant",
                           "member", "function-macro"):
                continue
            minor = minor_of(version)
            if minor is not None:
                versions[ident] = minor
    return versions


def guard_of(condition, aliases):
    """(version the #if branch guarantees, version the #else branch does);
    0 for none."""
    negated = condition.lstrip().startswith("!")
    m = CHECK.search(condition)
    minor = int(m.group(1)) if m else 0
    if not m:
        for alias, v in aliases.items():
            if re.search(r"\b%s\b" % re.escape(alias), condition):
                minor = v
                break
    if not minor:
        return 0, 0
    return (0, minor) if negated else (minor, 0)


def strip_comments_and_strings(text):
    """Blanks comments and string literals, keeping line numbers."""
    out = []
    i, n = 0, len(text)
    while i < n:
        if text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append("".join("\n" if c == "\n" else " " for c in text[i:j]))
            i = j
        elif text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif text[i] == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            out.append('""' + " " * max(0, j - i - 1))
            i = j + 1
        else:
            out.append(text[i])
            i += 1
    return "".join(out)


def check_file(path, versions, floor):
    """Unguarded uses in @path: list of (line, identifier, minor)."""
    with open(path, encoding="utf-8", errors="replace") as f:
        text = strip_comments_and_strings(f.read())
    bad = []
    aliases = {}
    shims = set()
    stack = []  # (level of the #if branch, level of the #else branch, in else)
    for lineno, line in enumerate(text.split("\n"), 1):
        s = line.strip()
        d = re.match(r"#\s*(\w+)\s*(.*)", s)
        if d:
            kw, rest = d.group(1), d.group(2)
            if kw == "define":
                m = re.match(r"(\w+)(\(|\s+)(.*)", rest)
                if m and CHECK.search(m.group(3)) and "!" not in m.group(3):
                    aliases[m.group(1)] = int(CHECK.search(m.group(3)).group(1))
                # a fallback for older releases (#if !GST_CHECK_VERSION ...
                # #define gst_new_call(...) gst_old_call (...)): the name
                # is safe from here on
                if m and stack and not stack[-1][2] and stack[-1][1] and \
                        versions.get(m.group(1), 99) <= stack[-1][1]:
                    shims.add(m.group(1))
                continue
            elif kw in ("if", "ifdef", "ifndef"):
                yes, no = guard_of(rest, aliases) if kw == "if" else (0, 0)
                stack.append([yes, no, False])
            elif kw == "elif" and stack:
                stack[-1] = [guard_of(rest, aliases)[0], 0, False]
            elif kw == "else" and stack:
                stack[-1][2] = True
            elif kw == "endif" and stack:
                stack.pop()
            continue
        level = max([e[1] if e[2] else e[0] for e in stack] or [0])
        for m in IDENT.finditer(line):
            minor = versions.get(m.group(1))
            if m.group(1) in shims:
                continue
            if minor is not None and minor > floor and minor > level:
                bad.append((lineno, m.group(1), minor))
    return bad


def main():
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        return 3
    gir_dir, root = sys.argv[1], sys.argv[2]
    floor = int(sys.argv[3]) if len(sys.argv) > 3 else 16
    missing = [g for g in GIRS if not os.path.exists(os.path.join(gir_dir, g))]
    if missing:
        print("1..0 # SKIP no %s in %s" % (", ".join(missing), gir_dir))
        return 0
    versions = read_versions(gir_dir)
    files = []
    for d in DIRS:
        for dirpath, _, names in os.walk(os.path.join(root, d)):
            files += [os.path.join(dirpath, n) for n in sorted(names)
                      if n.endswith((".c", ".h"))]
    files.sort()
    print("1..2")
    # the check itself: it must read versions from the gir (every release
    # this builds on has the 1.18 call gstprof's tests use)
    known = versions.get("gst_tracing_get_active_tracers")
    print("%s 1 - the gir dates gst_tracing_get_active_tracers to 1.18 "
          "(%d symbols newer than 1.%d)" % ("ok" if known == 18 else "not ok",
                                            sum(1 for v in versions.values()
                                                if v > floor), floor))
    bad = []
    for path in files:
        rel = os.path.relpath(path, root)
        bad += [(rel,) + b for b in check_file(path, versions, floor)]
    for rel, lineno, ident, minor in bad:
        print("# %s:%d: %s is GStreamer 1.%d API, not guarded by "
              "GST_CHECK_VERSION (1, %d, 0)" % (rel, lineno, ident, minor, minor))
    print("%s 2 - %d files use no GStreamer API newer than 1.%d unguarded"
          % ("not ok" if bad else "ok", len(files), floor))
    failed = known != 18 or bool(bad)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
