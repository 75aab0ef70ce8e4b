#!/bin/bash
# Plausible partial attempt: handles formats, voids, tokens and outputs, but
# matches each bank row completely (text, then same-day fallback) before moving
# on, instead of running the whole text pass before the date pass, and breaks
# ties on entry_id only.
set -euo pipefail
bash "$(dirname "$0")/solve.sh" >/dev/null
python3 - <<'PY'
import pathlib
p = pathlib.Path("/app/reconcile.py")
s = p.read_text()
old = '''    for rule in ("text", "date"):
        for b in bank:
            if b["row"] in matches:
                continue'''
new = '''    for b in bank:
        for rule in ("text", "date"):
            if b["row"] in matches:
                continue'''
assert old in s
s = s.replace(old, new)
old = 'key = (diff, l["date"], l["id"])'
assert old in s
s = s.replace(old, 'key = (diff, l["id"])')
p.write_text(s)
PY
rm -rf /app/out
python3 /app/reconcile.py
