#!/bin/bash
# Reference root finder, then solve the shipped problems.
set -euo pipefail
cat > /app/roots.py <<'PY'
#!/usr/bin/env python3
"""Find roots of f(x) = 0: roots.py INPUT.json OUTPUT.json"""
import json
import math
import re
import sys

FUNCS = {
    "sin": math.sin, "cos": math.cos, "tan": math.tan, "asin": math.asin, "acos": math.acos,
    "atan": math.atan, "sinh": math.sinh, "cosh": math.cosh, "tanh": math.tanh,
    "exp": math.exp, "log": math.log, "log10": math.log10, "sqrt": math.sqrt, "abs": abs,
}
CONSTS = {"pi": math.pi, "e": math.e}
TOKEN = re.compile(r"\s*(?:(\d+\.?\d*(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?)|(\*\*|[-+*/^()])|([A-Za-z_][A-Za-z_0-9]*))")


class Invalid(Exception):
    pass


class Undefined(Exception):
    pass


def tokenize(text):
    if not isinstance(text, str):
        raise Invalid("expression must be a string")
    pos, out = 0, []
    text = text.rstrip()
    while pos < len(text):
        m = TOKEN.match(text, pos)
        if not m or m.end() == pos:
            raise Invalid(f"unexpected character at {pos}: {text[pos:pos + 10]!r}")
        num, op, name = m.groups()
        if num is not None:
            out.append(("num", float(num)))
        elif op is not None:
            out.append(("op", "^" if op == "**" else op))
        else:
            out.append(("name", name))
        pos = m.end()
    return out


class Parser:
    def __init__(self, tokens):
        self.toks, self.i = tokens, 0

    def peek(self):
        return self.toks[self.i] if self.i < len(self.toks) else (None, None)

    def take(self):
        tok = self.peek()
        self.i += 1
        return tok

    def parse(self):
        node = self.expr()
        if self.i != len(self.toks):
            raise Invalid(f"unexpected token {self.peek()[1]!r}")
        return node

    def expr(self):
        node = self.term()
        while self.peek() in (("op", "+"), ("op", "-")):
            node = (self.take()[1], node, self.term())
        return node

    def term(self):
        node = self.unary()
        while self.peek() in (("op", "*"), ("op", "/")):
            node = (self.take()[1], node, self.unary())
        return node

    def unary(self):
        if self.peek() in (("op", "+"), ("op", "-")):
            op = self.take()[1]
            operand = self.unary()
            return ("neg", operand) if op == "-" else operand
        return self.power()

    def power(self):
        base = self.atom()
        if self.peek() == ("op", "^"):
            self.take()
            return ("^", base, self.unary())
        return base

    def atom(self):
        kind, val = self.take()
        if kind == "num":
            return ("num", val)
        if kind == "name":
            if val == "x":
                return ("x",)
            if val in CONSTS:
                return ("num", CONSTS[val])
            if val in FUNCS:
                if self.take() != ("op", "("):
                    raise Invalid(f"{val} needs parentheses")
                arg = self.expr()
                if self.take() != ("op", ")"):
                    raise Invalid("missing )")
                return ("call", FUNCS[val], arg)
            raise Invalid(f"unknown name {val!r}")
        if (kind, val) == ("op", "("):
            node = self.expr()
            if self.take() != ("op", ")"):
                raise Invalid("missing )")
            return node
        raise Invalid(f"unexpected {val!r}")


def ev(node, x):
    tag = node[0]
    if tag == "num":
        return node[1]
    if tag == "x":
        return x
    if tag == "neg":
        return -ev(node[1], x)
    if tag == "call":
        return node[1](ev(node[2], x))
    a, b = ev(node[1], x), ev(node[2], x)
    if tag == "+":
        return a + b
    if tag == "-":
        return a - b
    if tag == "*":
        return a * b
    if tag == "/":
        return a / b
    return math.pow(a, b)


def compile_expr(text):
    tree = Parser(tokenize(text)).parse()

    def f(x):
        try:
            v = ev(tree, float(x))
        except (ValueError, ZeroDivisionError, OverflowError):
            return None
        if isinstance(v, complex) or not math.isfinite(v):
            return None
        return float(v)

    return f


def sign(v):
    return (v > 0) - (v < 0)


def refine(f, df, a, b, fa, fb):
    """Safeguarded Newton on [a, b] where fa, fb have opposite signs.

    A Newton step is taken only if it stays strictly inside the current
    sign-change interval and is less than half the previous step; otherwise
    the interval is bisected. So the interval at least halves every two steps.
    """
    x = a if abs(fa) < abs(fb) else b
    fx = fa if x == a else fb
    prev_step = b - a
    for _ in range(500):
        if fx == 0:
            return x
        if b - a <= 4e-16 * max(1.0, abs(a), abs(b)):
            break
        d = df(x) if df else None
        if d is None:
            hstep = 1e-7 * max(1.0, abs(x))
            lo, hi = f(x - hstep), f(x + hstep)
            d = (hi - lo) / (2 * hstep) if lo is not None and hi is not None else None
        new = None
        if d:
            cand = x - fx / d
            if a < cand < b and abs(cand - x) < 0.5 * prev_step:
                new = cand
        if new is None:
            new = a + (b - a) / 2
        step = abs(new - x)
        fn = f(new)
        if fn is None:
            return new  # undefined inside the interval: a discontinuity
        if fn == 0 or step <= 1e-16 * max(1.0, abs(new)):
            return new
        if sign(fn) == sign(fa):
            a, fa = new, fn
        else:
            b, fb = new, fn
        x, fx, prev_step = new, fn, step
    return a if abs(fa) <= abs(fb) else b


def accept(f, r):
    v = f(r)
    return v is not None and abs(v) <= 1e-6


def solve(problem):
    f = compile_expr(problem["f"])
    df = compile_expr(problem["df"]) if problem.get("df") is not None else None
    if problem.get("bracket") is not None:
        a, b = (float(v) for v in problem["bracket"])
        fa, fb = f(a), f(b)
        if fa is None or fb is None:
            return "no-bracket", None, None
        if fa == 0:
            return "ok", a, [a, b]
        if fb == 0:
            return "ok", b, [a, b]
        if sign(fa) == sign(fb):
            return "no-bracket", None, None
        r = refine(f, df, a, b, fa, fb)
        return ("ok", r, [a, b]) if accept(f, r) else ("no-root", None, None)
    x0 = float(problem["x0"])
    f0 = f(x0)
    if f0 == 0:
        return "ok", x0, [x0, x0]
    h = 0.01 * max(1.0, abs(x0))
    values = {0: f0}

    def val(k):
        if k not in values:
            values[k] = f(x0 + k * h) if k > 0 else f(x0 - (-k) * h)
        return values[k]

    def point(k):
        return x0 + k * h if k > 0 else x0 - (-k) * h

    for k in range(1, 10001):
        for near, far in ((k - 1, k), (-(k - 1), -k)):
            fn, ff = val(near), val(far)
            if fn is None or ff is None:
                continue
            lo, hi = sorted((point(near) if near else x0, point(far)))
            if ff == 0:
                return "ok", point(far), [lo, hi]
            if sign(fn) != sign(ff) and fn != 0:
                a, b = lo, hi
                fa, fb = (fn, ff) if far > 0 else (ff, fn)
                r = refine(f, df, a, b, fa, fb)
                if accept(f, r):
                    return "ok", r, [a, b]
    return "no-root", None, None


def main(argv):
    if len(argv) != 3:
        print("usage: roots.py INPUT.json OUTPUT.json", file=sys.stderr)
        return 2
    with open(argv[1], encoding="utf-8") as fh:
        problems = json.load(fh)
    results = []
    for p in problems:
        try:
            status, root, bracket = solve(p)
        except (Invalid, KeyError, TypeError, ValueError):
            status, root, bracket = "invalid", None, None
        results.append({"name": p.get("name"), "status": status, "root": root, "bracket": bracket})
    with open(argv[2], "w", encoding="utf-8") as fh:
        json.dump(results, fh, indent=2)
        fh.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
PY
python3 /app/roots.py /app/problems.json /app/roots.json
