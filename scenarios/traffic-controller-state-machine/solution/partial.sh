#!/bin/bash
# Plausible partial attempt: the cycle, pedestrians and faults are right, but an
# emergency keeps a pending pedestrian request and "tick 0" is accepted as a no-op.
set -euo pipefail
bash "$(dirname "$0")/solve.sh"
python3 - <<'PY'
import pathlib
p = pathlib.Path("/app/controller.py")
s = p.read_text()
old = """                self.ped = False
                self.go("EMERGENCY", "emergency_on")"""
assert old in s
s = s.replace(old, """                self.go("EMERGENCY", "emergency_on")""")
old = "and int(parts[1]) >= 1:"
assert old in s
s = s.replace(old, "and int(parts[1]) >= 0:")
p.write_text(s)
PY
