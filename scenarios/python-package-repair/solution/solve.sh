#!/bin/bash
# Reference fix for the packaging of /app/pkg.
set -euo pipefail
cd /app/pkg
cat > pyproject.toml <<'EOF'
[build-system]
requires = ["setuptools>=61.0"]
build-backend = "setuptools.build_meta"

[project]
name = "plainread"
dynamic = ["version"]
description = "Readability statistics for plain-text documents"
readme = "README.md"
license = {text = "MIT"}
authors = [{name = "Plainread Developers", email = "dev@plainread.invalid"}]
requires-python = ">=3.9"
classifiers = [
    "Programming Language :: Python :: 3",
    "License :: OSI Approved :: MIT License",
    "Topic :: Text Processing :: Linguistic",
]
dependencies = []

[project.scripts]
plainread = "plainread.cli:main"

[tool.setuptools]
package-dir = {"" = "src"}
include-package-data = false

[tool.setuptools.packages.find]
where = ["src"]
include = ["plainread*"]

[tool.setuptools.package-data]
plainread = ["data/*.txt", "templates/*.tmpl"]

[tool.setuptools.dynamic]
version = {attr = "plainread.__version__"}
EOF

python3 - <<'PY'
import pathlib
root = pathlib.Path("/app/pkg/src/plainread")

res = root / "resources.py"
text = res.read_text()
text = text.replace('''import os
from functools import lru_cache

DATA_DIR = os.path.join("src", "plainread", "data")
TEMPLATE_DIR = os.path.join("src", "plainread", "templates")


def _read(directory, name):
    with open(os.path.join(directory, name), encoding="utf-8") as fh:
        return fh.read()
''', '''from functools import lru_cache
from importlib.resources import files

DATA_DIR = "data"
TEMPLATE_DIR = "templates"


def _read(directory, name):
    return (files("plainread") / directory / name).read_text(encoding="utf-8")
''')
assert "importlib.resources" in text
res.write_text(text)

cli = root / "cli.py"
text = cli.read_text()
text = text.replace('from .text import analyse\n\nVERSION = "2.0.0"\n',
                    'from . import __version__\nfrom .text import analyse\n')
text = text.replace('version=f"plainread {VERSION}"', 'version=f"plainread {__version__}"')
assert "VERSION" not in text
cli.write_text(text)
PY
rm -rf build dist src/*.egg-info
