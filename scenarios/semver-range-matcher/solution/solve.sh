#!/bin/bash
# Reference implementation of the semrange package.
set -euo pipefail
mkdir -p /app/semrange
cat > /app/semrange/__init__.py <<'PY'
"""Semantic versions and npm-style ranges."""
from .core import compare, max_satisfying, min_satisfying, satisfies, valid

__all__ = ["valid", "compare", "satisfies", "max_satisfying", "min_satisfying"]
PY
cat > /app/semrange/core.py <<'PY'
import re

_NUM = r"(?:0|[1-9][0-9]*)"
_IDENT = r"[0-9A-Za-z-]+"
_DOTTED = rf"{_IDENT}(?:\.{_IDENT})*"
_VERSION = re.compile(rf"v?({_NUM})\.({_NUM})\.({_NUM})(?:-({_DOTTED}))?(?:\+({_DOTTED}))?")
_XR = rf"(?:[xX*]|{_NUM})"
_PARTIAL = re.compile(
    rf"v?({_XR})(?:\.({_XR})(?:\.({_XR})(?:-({_DOTTED}))?(?:\+({_DOTTED}))?)?)?"
)
_OPS = ("~>", "<=", ">=", "<", ">", "=", "~", "^")


class Version:
    __slots__ = ("major", "minor", "patch", "pre", "key")

    def __init__(self, major, minor, patch, pre=()):
        self.major, self.minor, self.patch, self.pre = major, minor, patch, tuple(pre)
        if self.pre:
            pre_key = (0,) + tuple((0, p, "") if isinstance(p, int) else (1, 0, p) for p in self.pre)
        else:
            pre_key = (1,)
        self.key = (major, minor, patch, pre_key)

    @property
    def release(self):
        return (self.major, self.minor, self.patch)


def _parse_pre(text):
    if text is None:
        return ()
    out = []
    for ident in text.split("."):
        if ident.isdigit():
            if len(ident) > 1 and ident[0] == "0":
                raise ValueError(f"numeric prerelease identifier with leading zero: {ident!r}")
            out.append(int(ident))
        else:
            out.append(ident)
    return tuple(out)


def _parse_version(text):
    if not isinstance(text, str):
        raise ValueError(f"not a version: {text!r}")
    m = _VERSION.fullmatch(text.strip())
    if not m:
        raise ValueError(f"invalid version: {text!r}")
    return Version(int(m.group(1)), int(m.group(2)), int(m.group(3)), _parse_pre(m.group(4)))


def valid(text):
    try:
        v = _parse_version(text)
    except ValueError:
        return None
    s = f"{v.major}.{v.minor}.{v.patch}"
    if v.pre:
        s += "-" + ".".join(str(p) for p in v.pre)
    return s


def compare(a, b):
    ka, kb = _parse_version(a).key, _parse_version(b).key
    return (ka > kb) - (ka < kb)


# -- ranges -----------------------------------------------------------------

def _low(m, n, p, incpr):
    return (">=", Version(m, n, p, (0,) if incpr else ()))


def _below(m, n, p):
    return ("<", Version(m, n, p, (0,)))


NOTHING = [("<", Version(0, 0, 0, (0,)))]


def _partial(text):
    m = _PARTIAL.fullmatch(text)
    if not m:
        raise ValueError(f"invalid partial version: {text!r}")
    parts = []
    for g in m.group(1, 2, 3):
        if g is None or g in ("x", "X", "*") or (parts and parts[-1] is None):
            parts.append(None)
        else:
            parts.append(int(g))
    if (m.group(4) is not None or m.group(5) is not None) and None in parts:
        raise ValueError(f"prerelease/build on a partial version: {text!r}")
    pre = _parse_pre(m.group(4))
    return parts, pre


def _term(op, text, incpr):
    (M, m, p), pre = _partial(text)
    full = p is not None
    if op in ("", "="):
        if M is None:
            return []
        if full:
            return [("=", Version(M, m, p, pre))]
        if m is None:
            return [_low(M, 0, 0, incpr), _below(M + 1, 0, 0)]
        return [_low(M, m, 0, incpr), _below(M, m + 1, 0)]
    if op in ("<", "<=", ">", ">="):
        if M is None:
            return NOTHING if op in ("<", ">") else []
        if full:
            return [(op, Version(M, m, p, pre))]
        if op == ">":
            return [_low(M + 1, 0, 0, incpr)] if m is None else [_low(M, m + 1, 0, incpr)]
        if op == ">=":
            return [_low(M, 0, 0, incpr)] if m is None else [_low(M, m, 0, incpr)]
        if op == "<":
            return [_below(M, 0, 0)] if m is None else [_below(M, m, 0)]
        return [_below(M + 1, 0, 0)] if m is None else [_below(M, m + 1, 0)]
    if op in ("~", "~>"):
        if M is None:
            return []
        if m is None:
            return [_low(M, 0, 0, incpr), _below(M + 1, 0, 0)]
        if p is None:
            return [_low(M, m, 0, incpr), _below(M, m + 1, 0)]
        return [(">=", Version(M, m, p, pre)), _below(M, m + 1, 0)]
    if op == "^":
        if M is None:
            return []
        if m is None:
            return [_low(M, 0, 0, incpr), _below(M + 1, 0, 0)]
        if p is None:
            upper = _below(M + 1, 0, 0) if M != 0 else _below(0, m + 1, 0)
            return [_low(M, m, 0, incpr), upper]
        if M != 0:
            upper = _below(M + 1, 0, 0)
        elif m != 0:
            upper = _below(0, m + 1, 0)
        else:
            upper = _below(0, 0, p + 1)
        return [(">=", Version(M, m, p, pre)), upper]
    raise ValueError(f"unknown operator {op!r}")


def _hyphen(a, b, incpr):
    (M, m, p), pre = _partial(a)
    out = []
    if M is not None:
        if p is not None:
            out.append((">=", Version(M, m, p, pre)))
        elif m is not None:
            out.append(_low(M, m, 0, incpr))
        else:
            out.append(_low(M, 0, 0, incpr))
    (M, m, p), pre = _partial(b)
    if M is not None:
        if p is not None:
            out.append(("<=", Version(M, m, p, pre)))
        elif m is not None:
            out.append(_below(M, m + 1, 0))
        else:
            out.append(_below(M + 1, 0, 0))
    return out


_HYPHEN = re.compile(r"(\S+)\s+-\s+(\S+)")
_OP_SPACE = re.compile(r"(~>|<=|>=|<|>|=|~|\^)\s+")


def _parse_set(text, incpr):
    text = text.strip()
    if not text:
        return []
    h = _HYPHEN.fullmatch(text)
    if h:
        return _hyphen(h.group(1), h.group(2), incpr)
    comps = []
    for tok in _OP_SPACE.sub(r"\1", text).split():
        op = next((o for o in _OPS if tok.startswith(o)), "")
        comps.extend(_term(op, tok[len(op):], incpr))
    return comps


def _parse_range(text, incpr):
    if not isinstance(text, str):
        raise ValueError(f"not a range: {text!r}")
    return [_parse_set(part, incpr) for part in text.split("||")]


def _test(comp, v):
    op, c = comp
    a, b = v.key, c.key
    return {"<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b, "=": a == b}[op]


def _match(sets, v, incpr):
    for comps in sets:
        if not all(_test(c, v) for c in comps):
            continue
        if v.pre and not incpr:
            if not any(c.pre and c.release == v.release for _, c in comps):
                continue
        return True
    return False


def satisfies(version, range_text, include_prerelease=False):
    v = _parse_version(version)
    sets = _parse_range(range_text, include_prerelease)
    return _match(sets, v, include_prerelease)


def _best(versions, range_text, include_prerelease, better):
    sets = _parse_range(range_text, include_prerelease)
    best, best_key = None, None
    for text in versions:
        try:
            v = _parse_version(text)
        except ValueError:
            continue
        if _match(sets, v, include_prerelease) and (best is None or better(v.key, best_key)):
            best, best_key = text, v.key
    return best


def max_satisfying(versions, range_text, include_prerelease=False):
    return _best(versions, range_text, include_prerelease, lambda a, b: a > b)


def min_satisfying(versions, range_text, include_prerelease=False):
    return _best(versions, range_text, include_prerelease, lambda a, b: a < b)
PY
cat > /app/semrange/__main__.py <<'PY'
import argparse
import sys

from .core import _parse_range, max_satisfying, satisfies


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python3 -m semrange")
    sub = parser.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("satisfies")
    s.add_argument("--include-prerelease", action="store_true")
    s.add_argument("version")
    s.add_argument("range")
    m = sub.add_parser("max-satisfying")
    m.add_argument("--include-prerelease", action="store_true")
    m.add_argument("range")
    m.add_argument("versions", nargs="+")
    args = parser.parse_args(argv)
    try:
        if args.cmd == "satisfies":
            ok = satisfies(args.version, args.range, args.include_prerelease)
            print("true" if ok else "false")
            return 0 if ok else 1
        _parse_range(args.range, args.include_prerelease)
        best = max_satisfying(args.versions, args.range, args.include_prerelease)
        print("null" if best is None else best)
        return 0 if best is not None else 1
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
PY
