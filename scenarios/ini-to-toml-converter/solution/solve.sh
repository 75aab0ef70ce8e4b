#!/bin/bash
# Reference INI -> TOML converter, then convert the shipped files.
set -euo pipefail
cat > /app/ini2toml.py <<'PY'
#!/usr/bin/env python3
"""Convert an INI file to TOML: ini2toml.py INPUT.ini OUTPUT.toml"""
import re
import sys

INT_RE = re.compile(r"[+-]?(0|[1-9][0-9]*)")
FLOAT_RE = re.compile(r"[+-]?(0|[1-9][0-9]*)\.[0-9]+")
BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")
TRUE = {"true", "yes", "on"}
FALSE = {"false", "no", "off"}


def strip_comment(text):
    for i, ch in enumerate(text):
        if ch in ";#" and i > 0 and text[i - 1] in " \t":
            return text[:i]
    return text


def scalar(text):
    low = text.lower()
    if text == "":
        return ""
    if low in TRUE:
        return True
    if low in FALSE:
        return False
    if INT_RE.fullmatch(text):
        return int(text)
    if FLOAT_RE.fullmatch(text):
        return float(text)
    return text


def convert_value(text):
    if "," in text:
        items = []
        for item in text.split(","):
            item = item.strip()
            if not item:
                continue
            if len(item) >= 2 and item[0] in "\"'" and item[-1] == item[0]:
                items.append(item[1:-1])
            else:
                items.append(scalar(item))
        return items
    return scalar(text)


def parse(text):
    root = {}
    table = root
    open_key = None      # key whose value may still get continuation lines
    pending = None       # [first_line_value, [continuations], typed_value]
    lines = text.replace("\r\n", "\n").split("\n")

    def finish():
        nonlocal open_key, pending
        if open_key is not None:
            first, conts, typed = pending
            if conts:
                parts = ([first] if first != "" else []) + conts
                open_key[0][open_key[1]] = "\n".join(parts)
            else:
                open_key[0][open_key[1]] = typed
        open_key = None
        pending = None

    for line in lines:
        stripped = line.strip()
        if not stripped:
            finish()
            continue
        if stripped[0] in ";#":
            continue
        if stripped.startswith("[") and stripped.endswith("]"):
            finish()
            table = root
            for part in stripped[1:-1].strip().split("."):
                table = table.setdefault(part.strip(), {})
            continue
        if line[0] in " \t" and open_key is not None:
            pending[1].append(strip_comment(line).strip())
            continue
        positions = [p for p in (line.find("="), line.find(":")) if p >= 0]
        if not positions:
            continue
        finish()
        sep = min(positions)
        key = line[:sep].strip().lower()
        if not key:
            continue
        rest = line[sep + 1:]
        raw = rest.lstrip()
        if raw[:1] in ("'", '"') and raw[0] in raw[1:]:
            value = raw[1:raw.index(raw[0], 1)]
            pending = [value, [], value]
        else:
            value = strip_comment(rest).strip()
            pending = [value, [], convert_value(value)]
        table.pop(key, None)
        open_key = (table, key)
    finish()
    return root


def toml_str(s):
    out = ['"']
    for ch in s:
        if ch == '"':
            out.append('\\"')
        elif ch == "\\":
            out.append("\\\\")
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\t":
            out.append("\\t")
        elif ch == "\r":
            out.append("\\r")
        elif ord(ch) < 0x20 or ord(ch) == 0x7F:
            out.append(f"\\u{ord(ch):04X}")
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def toml_key(k):
    return k if BARE_KEY.fullmatch(k) else toml_str(k)


def toml_value(v):
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        return repr(v)
    if isinstance(v, list):
        return "[" + ", ".join(toml_value(x) for x in v) + "]"
    return toml_str(v)


def emit(table, path, out):
    scalars = [(k, v) for k, v in table.items() if not isinstance(v, dict)]
    tables = [(k, v) for k, v in table.items() if isinstance(v, dict)]
    if path:
        out.append("[" + ".".join(toml_key(p) for p in path) + "]")
    for k, v in scalars:
        out.append(f"{toml_key(k)} = {toml_value(v)}")
    if path or scalars:
        out.append("")
    for k, v in tables:
        emit(v, path + [k], out)


def main(argv):
    if len(argv) != 3:
        print("usage: ini2toml.py INPUT.ini OUTPUT.toml", file=sys.stderr)
        return 2
    with open(argv[1], encoding="utf-8") as fh:
        data = parse(fh.read())
    out = []
    emit(data, [], out)
    with open(argv[2], "w", encoding="utf-8") as fh:
        fh.write("\n".join(out).rstrip("\n") + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
PY
mkdir -p /app/toml
for f in /app/config/*.ini; do
  python3 /app/ini2toml.py "$f" "/app/toml/$(basename "$f" .ini).toml"
done
