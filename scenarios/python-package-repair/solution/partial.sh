#!/bin/bash
# Plausible partial fix: repairs pyproject.toml (metadata, entry point,
# subpackages, package data) but leaves the code reading its data files from a
# path relative to the current directory and the hard-coded CLI version.
set -euo pipefail
cd /app/pkg
cat > pyproject.toml <<'EOF'
[build-system]
requires = ["setuptools>=61.0"]
build-backend = "setuptools.build_meta"

[project]
name = "plainread"
version = "2.1.0"
description = "Readability statistics for plain-text documents"
readme = "README.md"
license = {text = "MIT"}
authors = [{name = "Plainread Developers", email = "dev@plainread.invalid"}]
requires-python = ">=3.9"
dependencies = []

[project.scripts]
plainread = "plainread.cli:main"

[tool.setuptools]
package-dir = {"" = "src"}
packages = ["plainread", "plainread.formats"]

[tool.setuptools.package-data]
plainread = ["data/*.txt", "templates/*.tmpl"]
EOF
