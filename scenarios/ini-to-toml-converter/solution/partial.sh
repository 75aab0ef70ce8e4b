#!/bin/bash
# Plausible partial attempt: scalars, comments, sections and TOML escaping are
# right, but comma lists are left as plain strings and indented continuation
# lines are dropped instead of building multi-line values.
set -euo pipefail
bash "$(dirname "$0")/solve.sh"
python3 - <<'PY'
import pathlib
p = pathlib.Path("/app/ini2toml.py")
s = p.read_text()
old = '    if "," in text:\n'
assert old in s
s = s.replace(old, '    if False:\n')
old = "            pending[1].append(strip_comment(line).strip())\n"
assert old in s
s = s.replace(old, "            pass\n")
p.write_text(s)
PY
for f in /app/config/*.ini; do
  python3 /app/ini2toml.py "$f" "/app/toml/$(basename "$f" .ini).toml"
done
