#!/bin/bash
# Plausible partial attempt: decodes the format correctly but never verifies the
# CRC (it only skips the 4 bytes) and drops records of undefined sensors without
# moving the clock.
set -euo pipefail
bash "$(dirname "$0")/solve.sh"
python3 - <<'PY'
import pathlib
p = pathlib.Path("/app/tlm2json.py")
s = p.read_text()
old = "crc_ok = (zlib.crc32(buf[off:payload_start + length]) & 0xFFFFFFFF) == stored"
assert old in s
s = s.replace(old, "crc_ok = True")
old = """            clock += dt
            if sid not in sensors:
                error(off, "unknown-sensor")
                continue
"""
assert old in s
s = s.replace(old, """            if sid not in sensors:
                error(off, "unknown-sensor")
                continue
            clock += dt
""")
old = """            clock += dt
            if sid not in sensors:
                error(off, "unknown-sensor")
            else:
"""
assert old in s
s = s.replace(old, """            if sid not in sensors:
                error(off, "unknown-sensor")
                continue
            else:
                clock += dt
""")
p.write_text(s)
PY
for f in /app/data/*.bin; do
  python3 /app/tlm2json.py "$f" "/app/out/$(basename "$f" .bin).jsonl" || true
done
