#!/bin/bash
# Plausible partial attempt: a complete interpreter, except that div/mod use
# Python's floor semantics (wrong for negative operands) and the step limit is
# checked one step too late.
set -euo pipefail
bash "$(dirname "$0")/solve.sh"
python3 - <<'PY'
import pathlib
p = pathlib.Path("/app/vm/svm")
s = p.read_text()
old_div = """                    q = abs(a) // abs(b)
                    if (a < 0) != (b < 0):
                        q = -q
                    r = wrap(q) if op == "div" else wrap(a - b * q)"""
assert old_div in s
s = s.replace(old_div, """                    r = wrap(a // b) if op == "div" else wrap(a % b)""")
assert "if steps >= max_steps:" in s
s = s.replace("if steps >= max_steps:", "if steps > max_steps:")
p.write_text(s)
PY
