#!/bin/bash
# Plausible partial attempt: the data transformations are right, but the
# script runs without a transaction and cannot be run twice (it does not cope
# with a database that is already at version 4).
set -euo pipefail
bash "$(dirname "$0")/solve.sh"
python3 - <<'PY'
import pathlib, re
p = pathlib.Path("/app/migrate.sql")
s = p.read_text()
s = s.replace("BEGIN;\n", "").replace("COMMIT;\n", "")
# drop the "CREATE TABLE IF NOT EXISTS contacts/purchases" guards
s = re.sub(r"CREATE TABLE IF NOT EXISTS (contacts|purchases) \(.*?\);\n", "", s, flags=re.S)
s = s.replace("CREATE TABLE IF NOT EXISTS", "CREATE TABLE").replace("CREATE INDEX IF NOT EXISTS", "CREATE INDEX")
p.write_text(s)
PY
