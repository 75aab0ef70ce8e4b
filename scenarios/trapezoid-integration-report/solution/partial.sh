#!/bin/bash
# Plausible partial attempt: parsing, offsets and rounding are right, but a
# repeated instant keeps only its last reading instead of the mean, and an
# interval of exactly 900 s is wrongly treated as a gap.
set -euo pipefail
bash "$(dirname "$0")/solve.sh"
python3 - <<'PY'
import pathlib
p = pathlib.Path("/app/integrate.py")
s = p.read_text()
old = "        samples = sorted((t, sum(v) / len(v)) for t, v in s[\"readings\"].items())\n"
assert old in s
s = s.replace(old, "        samples = sorted((t, v[-1]) for t, v in s[\"readings\"].items())\n")
old = "            if dt > GAP_SECONDS:\n"
assert old in s
s = s.replace(old, "            if dt >= GAP_SECONDS:\n")
p.write_text(s)
PY
python3 /app/integrate.py /app/data/power_readings.csv /app/report.json
