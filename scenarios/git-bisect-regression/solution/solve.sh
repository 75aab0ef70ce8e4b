#!/bin/bash
# Reference solution: bisect from v1.0 to main, skipping commits where the
# package cannot even be imported, then fix the unit alternation order.
set -euo pipefail
cd /app/repo
git checkout -q main
cat > /tmp/bisect-check.sh <<'EOF'
#!/bin/bash
python3 -c "import tinydur" >/dev/null 2>&1 || exit 125
python3 -m pytest -q -p no:cacheprovider tests/test_parser.py::test_milliseconds >/dev/null 2>&1
EOF
chmod +x /tmp/bisect-check.sh
git bisect start main v1.0 >/dev/null
git bisect run /tmp/bisect-check.sh > /tmp/bisect.log 2>&1
first_bad=$(git rev-parse refs/bisect/bad)
git bisect reset >/dev/null 2>&1
echo "$first_bad" > /app/first_bad_commit.txt

git checkout -q main
python3 - <<'PY'
import pathlib
p = pathlib.Path("/app/repo/tinydur/parser.py")
s = p.read_text()
old = '"|".join(UNITS)'
assert s.count(old) == 1
# Longest unit first, so that "ms" is not read as "m" followed by a stray "s".
s = s.replace(old, '"|".join(sorted(UNITS, key=len, reverse=True))')
p.write_text(s)
PY
python3 -m pytest -q -p no:cacheprovider >/dev/null
git commit -q -am "Parser: match longer units first so that ms is not read as m"
find . -name __pycache__ -prune -exec rm -rf {} +
