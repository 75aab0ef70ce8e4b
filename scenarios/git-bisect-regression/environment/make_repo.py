"""Build the tinydur repository used by the git-bisect-regression scenario.

Every commit has a fixed author, committer and date, so the resulting commit
hashes are the same on every build. Run as: python3 make_repo.py /app/repo
"""
import os
import subprocess
import sys

REPO = sys.argv[1]
files = {}
ENV = dict(os.environ)
ENV.update({
    "GIT_AUTHOR_NAME": "Dana Whitfield",
    "GIT_AUTHOR_EMAIL": "dana@tinydur.invalid",
    "GIT_COMMITTER_NAME": "Dana Whitfield",
    "GIT_COMMITTER_EMAIL": "dana@tinydur.invalid",
    "GIT_CONFIG_NOSYSTEM": "1",
    "HOME": "/nonexistent",
    "TZ": "UTC",
})
commit_no = 0


def git(*args):
    subprocess.run(["git", *args], cwd=REPO, env=ENV, check=True, stdout=subprocess.DEVNULL)


def put(path, text):
    files[path] = text


def edit(path, old, new, count=1):
    text = files[path]
    assert text.count(old) == count, (path, old)
    files[path] = text.replace(old, new)


def commit(message, tag=None, author=None):
    global commit_no
    commit_no += 1
    for path, text in files.items():
        full = os.path.join(REPO, path)
        os.makedirs(os.path.dirname(full) or REPO, exist_ok=True)
        with open(full, "w", encoding="utf-8") as fh:
            fh.write(text)
    git("add", "-A")
    stamp = f"2024-03-{1 + commit_no // 2:02d}T{9 + (commit_no % 2) * 5:02d}:{(commit_no * 7) % 60:02d}:00+00:00"
    env = {"GIT_AUTHOR_DATE": stamp, "GIT_COMMITTER_DATE": stamp}
    if author:
        env.update({"GIT_AUTHOR_NAME": author[0], "GIT_AUTHOR_EMAIL": author[1]})
    subprocess.run(["git", "commit", "-q", "-m", message], cwd=REPO, env={**ENV, **env}, check=True)
    if tag:
        subprocess.run(["git", "tag", "-a", tag, "-m", f"Release {tag}"], cwd=REPO,
                       env={**ENV, **env}, check=True)


RAJ = ("Raj Patel", "raj@tinydur.invalid")
MEI = ("Mei Lin", "mei@tinydur.invalid")

os.makedirs(REPO, exist_ok=True)
git("init", "-q", "-b", "main")

# 1
put("README.md", "# tinydur\n\nParse and format human-readable durations such as `1h30m`.\n")
put(".gitignore", "__pycache__/\n*.pyc\n.pytest_cache/\n")
commit("Initial commit")

# 2
put("tinydur/__init__.py", '"""tinydur: tiny duration parsing and formatting."""\nfrom .parser import parse\n\n__all__ = ["parse"]\n')
put("tinydur/parser.py", '''"""Parsing of human-readable durations such as "1h30m"."""
import re

_FACTORS = {"d": 86400, "h": 3600, "m": 60, "s": 1}
_COMPONENT = re.compile(r"(\\d+)([dhms])")


def parse(text):
    """Return the number of seconds in a duration string like "2h45m"."""
    text = text.strip()
    if not text:
        raise ValueError("empty duration")
    total = 0
    pos = 0
    for match in _COMPONENT.finditer(text):
        if match.start() != pos:
            raise ValueError("invalid duration: %r" % text)
        total += int(match.group(1)) * _FACTORS[match.group(2)]
        pos = match.end()
    if pos != len(text):
        raise ValueError("invalid duration: %r" % text)
    return total
''')
commit("Add duration parser")

# 3
put("conftest.py", "# Makes the repository root importable when running pytest.\n")
put("tests/test_parser.py", '''import pytest

from tinydur import parse


def test_single_units():
    assert parse("45s") == 45
    assert parse("2m") == 120
    assert parse("3h") == 10800
    assert parse("1d") == 86400


def test_compound():
    assert parse("1h30m") == 5400
    assert parse("1d2h3m4s") == 93784


@pytest.mark.parametrize("bad", ["", "  ", "h", "5x", "1h-", "h1", "1.h"])
def test_rejects_garbage(bad):
    with pytest.raises(ValueError):
        parse(bad)
''')
commit("Add parser tests")

# 4
put("tinydur/formatter.py", '''"""Formatting seconds as compact duration strings."""

_PARTS = (("d", 86400), ("h", 3600), ("m", 60), ("s", 1))


def format_duration(seconds):
    """Format a number of seconds, e.g. 5415 -> "1h 30m 15s"."""
    seconds = int(seconds)
    if seconds < 0:
        raise ValueError("negative duration")
    parts = []
    for unit, size in _PARTS:
        count, seconds = divmod(seconds, size)
        if count:
            parts.append(f"{count}{unit}")
    return " ".join(parts) or "0s"
''')
edit("tinydur/__init__.py", 'from .parser import parse\n\n__all__ = ["parse"]\n',
     'from .formatter import format_duration\nfrom .parser import parse\n\n__all__ = ["format_duration", "parse"]\n')
commit("Add formatter", author=RAJ)

# 5
put("tests/test_formatter.py", '''import pytest

from tinydur import format_duration


def test_basic():
    assert format_duration(5415) == "1h 30m 15s"
    assert format_duration(86400 + 5) == "1d 5s"


def test_zero():
    assert format_duration(0) == "0s"


def test_negative():
    with pytest.raises(ValueError):
        format_duration(-1)
''')
commit("Add formatter tests", author=RAJ)

# 6
put("tinydur/__main__.py", "import sys\n\nfrom .cli import main\n\nsys.exit(main())\n")
put("tinydur/cli.py", '''"""Command line: python3 -m tinydur COMMAND ..."""
import argparse
import sys

from .formatter import format_duration
from .parser import parse


def build_parser():
    p = argparse.ArgumentParser(prog="tinydur")
    sub = p.add_subparsers(dest="cmd", required=True)
    sp = sub.add_parser("parse", help="print the number of seconds in a duration")
    sp.add_argument("duration")
    sf = sub.add_parser("format", help="format a number of seconds")
    sf.add_argument("seconds", type=float)
    return p


def main(argv=None):
    args = build_parser().parse_args(argv)
    try:
        if args.cmd == "parse":
            print(parse(args.duration))
        elif args.cmd == "format":
            print(format_duration(args.seconds))
    except ValueError as exc:
        print(f"tinydur: {exc}", file=sys.stderr)
        return 1
    return 0
''')
commit("Add command-line interface")

# 7
put("tests/test_cli.py", '''import subprocess
import sys


def run(*args, stdin=None):
    return subprocess.run([sys.executable, "-m", "tinydur", *args], capture_output=True,
                          text=True, input=stdin)


def test_parse_command():
    res = run("parse", "1h1s")
    assert res.returncode == 0
    assert res.stdout == "3601\\n"


def test_format_command():
    assert run("format", "3661").stdout == "1h 1m 1s\\n"


def test_bad_input_exit_status():
    res = run("parse", "soon")
    assert res.returncode == 1
    assert res.stderr.startswith("tinydur: ")
''')
commit("Add CLI tests")

# 8
edit("tinydur/parser.py", '_COMPONENT = re.compile(r"(\\d+)([dhms])")', '_COMPONENT = re.compile(r"(\\d+(?:\\.\\d+)?)([dhms])")')
edit("tinydur/parser.py", "        total += int(match.group(1)) * _FACTORS[match.group(2)]",
     "        total += float(match.group(1)) * _FACTORS[match.group(2)]")
edit("tinydur/parser.py", "    return total\n", "    return int(total) if total == int(total) else total\n")
edit("tests/test_parser.py", "def test_compound():", '''def test_fractional():
    assert parse("1.5h") == 5400
    assert parse("0.5m") == 30
    assert parse("2.25m") == 135


def test_compound():''')
commit("Parser: support fractional amounts such as 1.5h")

# 9
put("tinydur/parser.py", '''"""Parsing of human-readable durations such as "1h30m"."""
import re

# Length of each unit in milliseconds.
_FACTORS_MS = {"d": 86_400_000, "h": 3_600_000, "m": 60_000, "s": 1000, "ms": 1}
_COMPONENT = re.compile(r"(\\d+(?:\\.\\d+)?)(ms|[dhms])")


def parse(text):
    """Return the number of seconds in a duration string like "2h45m"."""
    text = text.strip()
    if not text:
        raise ValueError("empty duration")
    total_ms = 0
    pos = 0
    for match in _COMPONENT.finditer(text):
        if match.start() != pos:
            raise ValueError("invalid duration: %r" % text)
        total_ms += round(float(match.group(1)) * _FACTORS_MS[match.group(2)])
        pos = match.end()
    if pos != len(text):
        raise ValueError("invalid duration: %r" % text)
    return total_ms // 1000 if total_ms % 1000 == 0 else total_ms / 1000
''')
edit("tests/test_parser.py", "def test_compound():", '''def test_milliseconds():
    assert parse("250ms") == 0.25
    assert parse("1500ms") == 1.5
    assert parse("1m500ms") == 60.5
    assert parse("2s5ms") == 2.005


def test_compound():''')
commit("Parser: support milliseconds (ms)", author=MEI)

# 10
edit("tinydur/formatter.py", '_PARTS = (("d", 86400), ("h", 3600), ("m", 60), ("s", 1))',
     '# (unit, length in milliseconds)\n_PARTS = (("d", 86_400_000), ("h", 3_600_000), ("m", 60_000), ("s", 1000), ("ms", 1))')
edit("tinydur/formatter.py", '''    seconds = int(seconds)
    if seconds < 0:
        raise ValueError("negative duration")
    parts = []
    for unit, size in _PARTS:
        count, seconds = divmod(seconds, size)''', '''    if seconds < 0:
        raise ValueError("negative duration")
    rest = int(seconds * 1000)
    parts = []
    for unit, size in _PARTS:
        count, rest = divmod(rest, size)''')
edit("tests/test_formatter.py", "def test_zero():", '''def test_milliseconds():
    assert format_duration(90.25) == "1m 30s 250ms"
    assert format_duration(0.5) == "500ms"


def test_zero():''')
commit("Formatter: show milliseconds", author=MEI)

# 11
put("README.md", '''# tinydur

Parse and format human-readable durations such as `1h30m`.

## Units

| unit | meaning |
| --- | --- |
| `d` | day |
| `h` | hour |
| `m` | minute |
| `s` | second |
| `ms` | millisecond |

Amounts may be fractional (`1.5h`). Components are written largest first
without separators: `1d2h30m`.

```python
>>> from tinydur import parse, format_duration
>>> parse("1h30m")
5400
>>> format_duration(5415)
'1h 30m 15s'
```
''')
commit("README: document units")

# 12
edit("tinydur/__init__.py", '__all__ = ["format_duration", "parse"]\n', '__all__ = ["format_duration", "parse"]\n__version__ = "1.0.0"\n')
put("CHANGELOG.md", "# Changelog\n\n## 1.0.0\n\n- First release: `parse`, `format_duration` and the `tinydur` command.\n")
commit("Release 1.0.0", tag="v1.0")

# 13
edit("tinydur/cli.py", '''    sf.add_argument("seconds", type=float)
    return p''', '''    sf.add_argument("seconds", type=float)
    ss = sub.add_parser("sum", help="add durations and print the formatted total")
    ss.add_argument("durations", nargs="+")
    return p''')
edit("tinydur/cli.py", '''        elif args.cmd == "format":
            print(format_duration(args.seconds))''', '''        elif args.cmd == "format":
            print(format_duration(args.seconds))
        elif args.cmd == "sum":
            print(format_duration(sum(parse(d) for d in args.durations)))''')
commit("CLI: add sum command", author=RAJ)

# 14
edit("tests/test_cli.py", "def test_bad_input_exit_status():", '''def test_sum_command():
    assert run("sum", "1h", "30m", "45s").stdout == "1h 30m 45s\\n"


def test_bad_input_exit_status():''')
commit("Add tests for the sum command", author=RAJ)

# 15
edit("tinydur/parser.py", '''        if match.start() != pos:
            raise ValueError("invalid duration: %r" % text)''', '''        if match.start() != pos:
            raise ValueError(f"invalid duration {text!r}: unexpected {text[pos:match.start()]!r}")''')
edit("tinydur/parser.py", '''    if pos != len(text):
        raise ValueError("invalid duration: %r" % text)''', '''    if pos != len(text):
        raise ValueError(f"invalid duration {text!r}: unexpected {text[pos:]!r}")''')
commit("Parser: clearer error messages")

# 16
put("tinydur/formatter.py", '''"""Formatting seconds as duration strings."""

# (unit, length in milliseconds)
_PARTS = (("d", 86_400_000), ("h", 3_600_000), ("m", 60_000), ("s", 1000), ("ms", 1))
_LONG = {"d": "day", "h": "hour", "m": "minute", "s": "second", "ms": "millisecond"}


def format_duration(seconds, style="short"):
    """Format a number of seconds, e.g. 5415 -> "1h 30m 15s".

    style "long" spells the units out: "1 hour 30 minutes 15 seconds".
    """
    if seconds < 0:
        raise ValueError("negative duration")
    if style not in ("short", "long"):
        raise ValueError(f"unknown style {style!r}")
    rest = int(seconds * 1000)
    parts = []
    for unit, size in _PARTS:
        count, rest = divmod(rest, size)
        if count:
            if style == "long":
                parts.append(f"{count} {_LONG[unit]}{'' if count == 1 else 's'}")
            else:
                parts.append(f"{count}{unit}")
    if not parts:
        return "0 seconds" if style == "long" else "0s"
    return " ".join(parts)
''')
commit("Formatter: optional long style", author=MEI)

# 17
edit("tests/test_formatter.py", "def test_zero():", '''def test_long_style():
    assert format_duration(3600, style="long") == "1 hour"
    assert format_duration(7322, style="long") == "2 hours 2 minutes 2 seconds"


def test_zero():''')
commit("Add tests for the long style", author=MEI)

# 18
edit("README.md", "```python\n", "`format_duration(seconds, style=\"long\")` spells the units out.\n\n```python\n")
commit("README: mention formatting styles")

# 19
put("Makefile", "PYTHON ?= python3\n\n.PHONY: test\ntest:\n\t$(PYTHON) -m pytest -q\n")
commit("Add Makefile with a test target", author=RAJ)

# 20
edit("tinydur/parser.py", "    text = text.strip()\n", "    text = text.strip().lower()\n")
edit("tests/test_parser.py", "def test_compound():", '''def test_units_are_case_insensitive():
    assert parse("1H30M") == 5400
    assert parse("250MS") == 0.25


def test_compound():''')
commit("Parser: units are case-insensitive")

# 21
edit("tinydur/cli.py", "import argparse\nimport sys\n", "import argparse\nimport json\nimport sys\n")
edit("tinydur/cli.py", '''    sp.add_argument("duration")''', '''    sp.add_argument("duration")
    sp.add_argument("--json", action="store_true", help="print a JSON object")''')
edit("tinydur/cli.py", '''        if args.cmd == "parse":
            print(parse(args.duration))''', '''        if args.cmd == "parse":
            seconds = parse(args.duration)
            if args.json:
                print(json.dumps({"input": args.duration, "seconds": seconds}))
            else:
                print(seconds)''')
commit("CLI: --json output for parse", author=RAJ)

# 22
edit("tests/test_cli.py", "def test_format_command():", '''def test_parse_json():
    assert run("parse", "--json", "90s").stdout == '{"input": "90s", "seconds": 90}\\n'


def test_format_command():''')
commit("Add tests for --json", author=RAJ)

# 23
edit("tinydur/__init__.py", '"""tinydur: tiny duration parsing and formatting."""\n',
     '"""tinydur: tiny duration parsing and formatting.\n\n    parse(text) -> seconds (int, or float when there are milliseconds)\n    format_duration(seconds, style="short") -> str\n"""\n')
commit("Docs: docstrings for the public API")

# 24
edit("tinydur/formatter.py", "    rest = int(seconds * 1000)\n", "    rest = round(seconds * 1000)\n")
edit("tests/test_formatter.py", "def test_zero():", '''def test_rounds_to_nearest_millisecond():
    assert format_duration(0.0016) == "2ms"
    assert format_duration(59.9996) == "1m"


def test_zero():''')
commit("Formatter: round to the nearest millisecond", author=MEI)

# 25  (breaks the package: _version.py was not added)
edit("tinydur/__init__.py", '__all__ = ["format_duration", "parse"]\n__version__ = "1.0.0"\n',
     'from ._version import __version__\n\n__all__ = ["format_duration", "parse", "__version__"]\n')
commit("Move the version string into tinydur/_version.py")

# 26
edit("CHANGELOG.md", "# Changelog\n\n", "# Changelog\n\n## Unreleased\n\n- `sum` command, `--json` for `parse`, long formatting style.\n\n")
commit("CHANGELOG: start an unreleased section")

# 27
edit("tinydur/formatter.py", '''    if not parts:
        return "0 seconds" if style == "long" else "0s"
    return " ".join(parts)''', '''    if not parts:
        return "0 seconds" if style == "long" else "0s"
    return ", ".join(parts) if style == "long" else " ".join(parts)''')
edit("tinydur/formatter.py", 'style "long" spells the units out: "1 hour 30 minutes 15 seconds".',
     'style "long" spells the units out: "1 hour, 30 minutes, 15 seconds".')
edit("tests/test_formatter.py", '"2 hours 2 minutes 2 seconds"', '"2 hours, 2 minutes, 2 seconds"')
commit("Formatter: separate parts with commas in the long style", author=MEI)

# 28
put("tinydur/_version.py", '__version__ = "1.0.0"\n')
commit("Add the missing _version.py")

# 29
edit("tinydur/cli.py", '''    ss.add_argument("durations", nargs="+")''', '''    ss.add_argument("durations", nargs="+", help='durations; "-" reads one per line from stdin')''')
edit("tinydur/cli.py", '''        elif args.cmd == "sum":
            print(format_duration(sum(parse(d) for d in args.durations)))''', '''        elif args.cmd == "sum":
            print(format_duration(sum(parse(d) for d in _expand(args.durations))))''')
edit("tinydur/cli.py", '''def main(argv=None):''', '''def _expand(items):
    for item in items:
        if item == "-":
            yield from (line for line in sys.stdin.read().splitlines() if line.strip())
        else:
            yield item


def main(argv=None):''')
commit("CLI: sum reads durations from stdin with -", author=RAJ)

# 30
edit("tests/test_cli.py", "def test_bad_input_exit_status():", '''def test_sum_from_stdin():
    assert run("sum", "1h", "-", stdin="15m\\n\\n1m30s\\n").stdout == "1h 16m 30s\\n"


def test_bad_input_exit_status():''')
commit("Add tests for reading stdin", author=RAJ)

# 31  FIRST BAD COMMIT: the generated alternation tries "m" before "ms"
put("tinydur/units.py", '''"""Units understood by tinydur, largest first, with their length in milliseconds."""

UNITS = {
    "w": 604_800_000,
    "d": 86_400_000,
    "h": 3_600_000,
    "m": 60_000,
    "s": 1000,
    "ms": 1,
}

LONG_NAMES = {
    "w": "week",
    "d": "day",
    "h": "hour",
    "m": "minute",
    "s": "second",
    "ms": "millisecond",
}
''')
edit("tinydur/parser.py", '''import re

# Length of each unit in milliseconds.
_FACTORS_MS = {"d": 86_400_000, "h": 3_600_000, "m": 60_000, "s": 1000, "ms": 1}
_COMPONENT = re.compile(r"(\\d+(?:\\.\\d+)?)(ms|[dhms])")''', '''import re

from .units import UNITS

_COMPONENT = re.compile(r"(\\d+(?:\\.\\d+)?)(" + "|".join(UNITS) + ")")''')
edit("tinydur/parser.py", "_FACTORS_MS[match.group(2)]", "UNITS[match.group(2)]")
edit("tinydur/formatter.py", '''"""Formatting seconds as duration strings."""

# (unit, length in milliseconds)
_PARTS = (("d", 86_400_000), ("h", 3_600_000), ("m", 60_000), ("s", 1000), ("ms", 1))
_LONG = {"d": "day", "h": "hour", "m": "minute", "s": "second", "ms": "millisecond"}
''', '''"""Formatting seconds as duration strings."""

from .units import LONG_NAMES, UNITS
''')
edit("tinydur/formatter.py", "    for unit, size in _PARTS:\n", "    for unit, size in UNITS.items():\n")
edit("tinydur/formatter.py", "_LONG[unit]", "LONG_NAMES[unit]")
edit("tests/test_parser.py", "def test_compound():", '''def test_weeks():
    assert parse("2w") == 1209600
    assert parse("1w1d") == 691200


def test_compound():''')
edit("tests/test_formatter.py", "def test_zero():", '''def test_weeks():
    assert format_duration(694861) == "1w 1d 1h 1m 1s"


def test_zero():''')
commit("Refactor: one UNITS table for parser and formatter; add weeks")

# 32
edit("tinydur/cli.py", "from .parser import parse\n", "from .parser import parse\nfrom .units import UNITS\n")
edit("tinydur/cli.py", '''    ss.add_argument("durations", nargs="+"''', '''    sub.add_parser("units", help="list the units and their length in seconds")
    ss.add_argument("durations", nargs="+"''')
edit("tinydur/cli.py", '''        elif args.cmd == "sum":''', '''        elif args.cmd == "units":
            for unit, ms in UNITS.items():
                print(unit, ms // 1000 if ms % 1000 == 0 else ms / 1000)
        elif args.cmd == "sum":''')
commit("CLI: units command", author=RAJ)

# 33
edit("tests/test_cli.py", "def test_bad_input_exit_status():", '''def test_units_command():
    lines = run("units").stdout.splitlines()
    assert lines[0] == "w 604800"
    assert lines[-1] == "ms 0.001"


def test_bad_input_exit_status():''')
commit("Add tests for the units command", author=RAJ)

# 34
edit("README.md", "| `d` | day |\n", "| `w` | week |\n| `d` | day |\n")
edit("README.md", "```python\n", "`python3 -m tinydur units` lists the units.\n\n```python\n")
commit("README: weeks and the units command")

# 35  touches the very line that the first bad commit introduced
edit("tinydur/parser.py", '''_COMPONENT = re.compile(r"(\\d+(?:\\.\\d+)?)(" + "|".join(UNITS) + ")")''',
     '''_COMPONENT = re.compile(r"(\\d+(?:\\.\\d+)?)\\s*(" + "|".join(UNITS) + r")\\s*")''')
edit("README.md", "without separators: `1d2h30m`.", "optionally separated by spaces: `1d2h30m`, `1d 2h 30m`, `5 m`.")
commit("Parser: allow spaces between amounts, units and parts", author=MEI)

# 36
edit("tests/test_parser.py", "def test_compound():", '''def test_spaces():
    assert parse("1h 30m") == 5400
    assert parse("5 m") == 300
    assert parse(" 2d  4h ") == 187200


def test_compound():''')
commit("Add tests for spaces", author=MEI)

# 37
edit("tinydur/formatter.py", '''    if style not in ("short", "long"):''', '''    if style not in ("short", "long", "compact"):''')
edit("tinydur/formatter.py", '''    return ", ".join(parts) if style == "long" else " ".join(parts)''', '''    if style == "long":
        return ", ".join(parts)
    return ("" if style == "compact" else " ").join(parts)''')
edit("tinydur/formatter.py", '''    style "long" spells the units out: "1 hour, 30 minutes, 15 seconds".''',
     '''    style "long" spells the units out: "1 hour, 30 minutes, 15 seconds";
    style "compact" leaves out the spaces: "1h30m15s".''')
edit("tests/test_formatter.py", "def test_zero():", '''def test_compact_style():
    assert format_duration(5415, style="compact") == "1h30m15s"


def test_zero():''')
commit("Formatter: compact style", author=MEI)

# 38
edit("tinydur/cli.py", '''    sf.add_argument("seconds", type=float)''', '''    sf.add_argument("seconds", type=float)
    sf.add_argument("--style", choices=["short", "long", "compact"], default="short")''')
edit("tinydur/cli.py", '''    ss.add_argument("durations", nargs="+", help='durations; "-" reads one per line from stdin')''',
     '''    ss.add_argument("durations", nargs="+", help='durations; "-" reads one per line from stdin')
    ss.add_argument("--style", choices=["short", "long", "compact"], default="short")''')
edit("tinydur/cli.py", "            print(format_duration(args.seconds))\n", "            print(format_duration(args.seconds, style=args.style))\n")
edit("tinydur/cli.py", "            print(format_duration(sum(parse(d) for d in _expand(args.durations))))\n",
     "            total = sum(parse(d) for d in _expand(args.durations))\n            print(format_duration(total, style=args.style))\n")
edit("tests/test_cli.py", "def test_bad_input_exit_status():", '''def test_style_option():
    assert run("sum", "--style", "long", "90s", "30s").stdout == "2 minutes\\n"
    assert run("format", "--style", "compact", "3661").stdout == "1h1m1s\\n"


def test_bad_input_exit_status():''')
commit("CLI: --style option for format and sum", author=RAJ)

# 39
edit("CHANGELOG.md", "- `sum` command, `--json` for `parse`, long formatting style.\n",
     "- `sum` command (also from stdin), `--json` for `parse`.\n- Long and compact formatting styles, `--style`.\n"
     "- Weeks (`w`) and the `units` command.\n- Spaces are allowed inside durations.\n")
commit("CHANGELOG: list the changes since 1.0")

# 40
put("tinydur/_version.py", '__version__ = "1.1.0.dev0"\n')
commit("Bump version to 1.1.0.dev0")

assert commit_no == 40
