#!/bin/bash
# Plausible partial attempt: applies the rules but walks the tree with
# glob.glob("**", recursive=True), which silently skips hidden files and
# directories, and uses os.chmod(), which follows symlinks and so changes files
# outside the tree.
set -euo pipefail
cat > /app/permaudit.py <<'PY'
import glob
import json
import os
import stat
import sys
from pathlib import Path


def expected(p, rel):
    name = p.name
    if p.is_file() and (name.endswith((".key", ".pem")) or name == ".env" or name.startswith(".env.")):
        return 0o600
    if "secrets" in rel.parts:
        return 0o2770 if p.is_dir() else 0o660
    if p.is_dir():
        return 0o2775
    if p.parent.name in ("bin", "scripts") or p.read_bytes()[:2] == b"#!":
        return 0o775
    return 0o664


args = sys.argv[1:]
fix = "--fix" in args
args = [a for a in args if a != "--fix"]
root = Path(args[0]) if args else None
if root is None or not root.is_dir():
    sys.exit(2)
violations, fixed, checked = [], 0, 0
for p in sorted(Path(x) for x in glob.glob(os.path.join(str(root), "**", "*"), recursive=True)):
    if not (p.is_dir() or p.is_file()):
        continue
    rel = p.relative_to(root)
    checked += 1
    want = expected(p, rel)
    have = stat.S_IMODE(p.stat().st_mode)
    if have != want:
        violations.append({"path": str(rel), "type": "dir" if p.is_dir() else "file",
                           "mode": f"{have:04o}", "expected": f"{want:04o}"})
        if fix:
            os.chmod(p, want)
            fixed += 1
violations.sort(key=lambda v: v["path"])
print(json.dumps({"root": args[0], "checked": checked, "violations": violations, "fixed": fixed}))
sys.exit(1 if violations else 0)
PY
