#!/bin/bash
# Plausible partial attempt: indexes e-mails, phones and (postcode, name) pairs,
# but only links names that are exactly equal after normalisation - the
# "at most one edit apart" rule is lost.
set -euo pipefail
bash "$(dirname "$0")/solve.sh"
python3 - <<'PY'
import pathlib
p = pathlib.Path("/app/dedupe.py")
s = p.read_text()
old = "    for names in blocks.values():\n        if len(names) < 2:\n"
assert old in s
s = s.replace(old, "    for names in ():\n        if len(names) < 2:\n")
p.write_text(s)
PY
