#!/bin/bash
set -euo pipefail
cat > /app/permaudit.py <<'PY'
#!/usr/bin/env python3
"""Check (and optionally fix) permission modes in a shared project tree.

Implements /app/policy.md: first matching rule wins; symlinks and special files
are ignored and never followed.
"""
import json
import os
import stat
import sys


def is_key_material(name):
    return name.endswith((".key", ".pem")) or name == ".env" or name.startswith(".env.")


def starts_with_shebang(path):
    fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW)
    try:
        return os.read(fd, 2) == b"#!"
    finally:
        os.close(fd)


def expected_mode(rel_parts, is_dir, path):
    name = rel_parts[-1]
    if not is_dir and is_key_material(name):
        return 0o600
    if "secrets" in rel_parts[:-1] or (is_dir and name == "secrets"):
        return 0o2770 if is_dir else 0o660
    if is_dir:
        return 0o2775
    parent = rel_parts[-2] if len(rel_parts) > 1 else None
    if parent in ("bin", "scripts") or starts_with_shebang(path):
        return 0o775
    return 0o664


def walk(root, rel_parts=()):
    """Yield (rel_parts, path, st) for directories and regular files, depth first."""
    here = os.path.join(root, *rel_parts) if rel_parts else root
    with os.scandir(here) as it:
        entries = sorted(it, key=lambda e: e.name)
    for entry in entries:
        st = entry.stat(follow_symlinks=False)
        parts = rel_parts + (entry.name,)
        if stat.S_ISDIR(st.st_mode):
            yield parts, entry.path, st
            yield from walk(root, parts)
        elif stat.S_ISREG(st.st_mode):
            yield parts, entry.path, st


def main(argv):
    args = argv[1:]
    fix = False
    if args and args[0] == "--fix":
        fix, args = True, args[1:]
    if len(args) != 1 or args[0].startswith("--"):
        print("usage: permaudit.py [--fix] ROOT", file=sys.stderr)
        return 2
    root = args[0]
    if not os.path.isdir(root) or os.path.islink(root.rstrip("/") or "/"):
        print(f"{root}: not a directory", file=sys.stderr)
        return 2
    checked = 0
    violations = []
    to_fix = []
    for parts, path, st in walk(root):
        checked += 1
        is_dir = stat.S_ISDIR(st.st_mode)
        want = expected_mode(parts, is_dir, path)
        have = stat.S_IMODE(st.st_mode)
        if have != want:
            violations.append({
                "path": "/".join(parts),
                "type": "dir" if is_dir else "file",
                "mode": f"{have:04o}",
                "expected": f"{want:04o}",
            })
            to_fix.append((path, want))
    fixed = 0
    if fix:
        # deepest first, so tightening a directory never blocks reaching its children
        for path, want in sorted(to_fix, key=lambda t: -t[0].count("/")):
            os.chmod(path, want)  # path is a directory or regular file (lstat), never a link
            fixed += 1
    violations.sort(key=lambda v: v["path"])
    print(json.dumps({"root": root, "checked": checked, "violations": violations, "fixed": fixed}, indent=2))
    return 1 if violations else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
PY
chmod +x /app/permaudit.py
python3 /app/permaudit.py /app/project > /dev/null || test $? -eq 1
