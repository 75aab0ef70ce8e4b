#!/bin/bash
# Plausible partial attempt: parser, scan and safeguarded Newton are right, but
# every sign change is accepted as a root (poles of tan or 1/x become "roots")
# and a scan point where f is exactly zero is not recognised.
set -euo pipefail
bash "$(dirname "$0")/solve.sh"
python3 - <<'PY'
import pathlib
p = pathlib.Path("/app/roots.py")
s = p.read_text()
old = "    return v is not None and abs(v) <= 1e-6\n"
assert old in s
s = s.replace(old, "    return True\n")
old = """            if ff == 0:
                return "ok", point(far), [lo, hi]
"""
assert old in s
s = s.replace(old, "")
p.write_text(s)
PY
python3 /app/roots.py /app/problems.json /app/roots.json
