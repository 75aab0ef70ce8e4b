#!/bin/bash
# Plausible partial attempt: versions, precedence, x-ranges, hyphen ranges and the
# CLI are right, but the caret ignores the special 0.x / 0.0.x rules and the
# prerelease rule (a prerelease needs a comparator with the same MAJOR.MINOR.PATCH)
# is missing entirely.
set -euo pipefail
bash "$(dirname "$0")/solve.sh"
python3 - <<'PY'
import pathlib
p = pathlib.Path("/app/semrange/core.py")
s = p.read_text()
old_gate = """        if v.pre and not incpr:
            if not any(c.pre and c.release == v.release for _, c in comps):
                continue
"""
assert old_gate in s
s = s.replace(old_gate, "")
old_caret = """        if M != 0:
            upper = _below(M + 1, 0, 0)
        elif m != 0:
            upper = _below(0, m + 1, 0)
        else:
            upper = _below(0, 0, p + 1)
"""
assert old_caret in s
s = s.replace(old_caret, "        upper = _below(M + 1, 0, 0)\n")
p.write_text(s)
PY
