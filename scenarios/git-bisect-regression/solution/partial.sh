#!/bin/bash
# Plausible partial solution: a naive "git bisect run" that treats commits whose
# package cannot be imported as bad (so it blames the wrong commit), but a
# correct fix on top of main.
set -euo pipefail
cd /app/repo
git checkout -q main
git bisect start main v1.0 >/dev/null
git bisect run python3 -m pytest -q -p no:cacheprovider tests/test_parser.py::test_milliseconds > /tmp/bisect.log 2>&1
git rev-parse refs/bisect/bad > /app/first_bad_commit.txt
git bisect reset >/dev/null 2>&1
git checkout -q main
sed -i 's/"|".join(UNITS)/"|".join(sorted(UNITS, key=len, reverse=True))/' tinydur/parser.py
git commit -q -am "Fix ms parsing"
find . -name __pycache__ -prune -exec rm -rf {} +
