#!/bin/bash
# Reference SVM interpreter (Python 3, standard library only).
set -euo pipefail
mkdir -p /app/vm
cat > /app/vm/svm <<'PYEOF'
#!/usr/bin/env python3
"""svm - interpreter for the SVM stack-machine assembly language."""
import sys

MASK = (1 << 64) - 1
SIGN = 1 << 63
MEM_SIZE = 4096
STACK_MAX = 1024
CALL_MAX = 256
DEFAULT_STEPS = 1_000_000

NO_OPERAND = {"pop", "dup", "swap", "over", "rot", "add", "sub", "mul", "div", "mod", "neg",
              "and", "or", "xor", "not", "shl", "shr", "sar", "eq", "ne", "lt", "le", "gt",
              "ge", "ret", "load", "store", "print", "printc", "read", "halt"}
LABEL_OPERAND = {"jmp", "jz", "jnz", "call"}
ALL = NO_OPERAND | LABEL_OPERAND | {"push", "prints"}
ESCAPES = {"n": "\n", "t": "\t", "\\": "\\", '"': '"', "'": "'", "0": "\0"}


class ParseError(Exception):
    pass


class VMError(Exception):
    pass


def wrap(v):
    v &= MASK
    return v - (1 << 64) if v & SIGN else v


def is_ident(s):
    if not s or not (s[0].isascii() and (s[0].isalpha() or s[0] == "_")):
        return False
    return all(c.isascii() and (c.isalnum() or c == "_") for c in s)


def tokenize(line):
    """Split a line into tokens; string/char literals stay whole. Stops at ';'."""
    toks = []
    i, n = 0, len(line)
    while i < n:
        c = line[i]
        if c in " \t\r":
            i += 1
            continue
        if c == ";":
            break
        if c in "\"'":
            j = i + 1
            while j < n and line[j] != c:
                j += 2 if line[j] == "\\" else 1
            if j >= n:
                if c == '"':
                    raise ParseError("unterminated string")
                # unterminated char literal: take the rest up to whitespace
                k = i
                while k < n and line[k] not in " \t\r":
                    k += 1
                toks.append(line[i:k])
                i = k
                continue
            toks.append(line[i:j + 1])
            i = j + 1
            continue
        j = i
        while j < n and line[j] not in " \t\r;\"'":
            j += 1
        toks.append(line[i:j])
        i = j
    return toks


def parse_int(tok):
    body = tok[1:] if tok.startswith("-") else tok
    neg = tok.startswith("-")
    try:
        if body[:2].lower() == "0x" and len(body) > 2 and all(c in "0123456789abcdefABCDEF" for c in body[2:]):
            v = int(body[2:], 16)
        elif body and all(c in "0123456789" for c in body):
            v = int(body)
        else:
            raise ValueError
    except ValueError:
        raise ParseError(f"invalid integer '{tok}'")
    if neg:
        v = -v
    if v < -SIGN or v > MASK:
        raise ParseError(f"invalid integer '{tok}'")
    return wrap(v)


def unescape(body, quote):
    out = []
    i = 0
    while i < len(body):
        c = body[i]
        if c == "\\":
            if i + 1 >= len(body) or body[i + 1] not in ESCAPES:
                raise ParseError(f"invalid escape '\\{body[i + 1] if i + 1 < len(body) else ''}'")
            out.append(ESCAPES[body[i + 1]])
            i += 2
        else:
            out.append(c)
            i += 1
    return "".join(out)


def parse_char(tok):
    if len(tok) >= 3 and tok[0] == "'" and tok[-1] == "'":
        try:
            s = unescape(tok[1:-1], "'")
        except ParseError:
            s = ""
        if len(s) == 1 and ord(s) < 128:
            return ord(s)
    raise ParseError(f"invalid integer '{tok}'")


def parse(source):
    """Return (program, labels). program: list of (op, arg, line)."""
    program, labels, uses = [], {}, []
    errors = []
    for lineno, line in enumerate(source.split("\n"), 1):
        try:
            toks = tokenize(line)
            if toks and toks[0].endswith(":") and toks[0][0] not in "\"'":
                name = toks[0][:-1]
                if not is_ident(name):
                    raise ParseError(f"invalid label '{name}'")
                if name in labels:
                    raise ParseError(f"duplicate label '{name}'")
                labels[name] = len(program)
                toks = toks[1:]
            if not toks:
                continue
            op = toks[0].lower()
            if op not in ALL:
                raise ParseError(f"unknown instruction '{toks[0]}'")
            if op in NO_OPERAND:
                if len(toks) > 1:
                    raise ParseError(f"unexpected operand for '{op}'")
                arg = None
            else:
                if len(toks) < 2:
                    raise ParseError(f"missing operand for '{op}'")
                if len(toks) > 2:
                    raise ParseError(f"unexpected token '{toks[2]}'")
                t = toks[1]
                if op == "push":
                    arg = parse_char(t) if t.startswith("'") else parse_int(t)
                elif op == "prints":
                    if not (t.startswith('"') and t.endswith('"') and len(t) >= 2):
                        raise ParseError(f"expected string for 'prints'")
                    arg = unescape(t[1:-1], '"')
                else:
                    if not is_ident(t):
                        raise ParseError(f"invalid label '{t}'")
                    arg = t
                    uses.append((lineno, t))
            program.append((op, arg, lineno))
        except ParseError as exc:
            errors.append((lineno, str(exc)))
    for lineno, name in uses:
        if name not in labels:
            errors.append((lineno, f"undefined label '{name}'"))
    if errors:
        lineno, msg = min(errors, key=lambda e: e[0])
        raise ParseError(f"line {lineno}: {msg}")
    resolved = [(op, labels[arg] if op in LABEL_OPERAND else arg, ln) for op, arg, ln in program]
    return resolved


def run(program, max_steps, out):
    stack, calls, mem = [], [], [0] * MEM_SIZE
    tokens = None
    tok_i = 0
    pc, steps, n = 0, 0, len(program)

    def need(k):
        if len(stack) < k:
            raise VMError("stack underflow")

    def push(v):
        if len(stack) >= STACK_MAX:
            raise VMError("stack overflow")
        stack.append(v)

    while pc < n:
        op, arg, line = program[pc]
        if steps >= max_steps:
            raise VMError("step limit exceeded", line)
        steps += 1
        pc += 1
        try:
            if op == "push":
                push(arg)
            elif op in ("add", "sub", "mul", "div", "mod", "and", "or", "xor", "shl", "shr",
                        "sar", "eq", "ne", "lt", "le", "gt", "ge"):
                need(2)
                b = stack.pop()
                a = stack.pop()
                if op == "add":
                    r = wrap(a + b)
                elif op == "sub":
                    r = wrap(a - b)
                elif op == "mul":
                    r = wrap(a * b)
                elif op in ("div", "mod"):
                    if b == 0:
                        stack.extend((a, b))
                        raise VMError("division by zero")
                    q = abs(a) // abs(b)
                    if (a < 0) != (b < 0):
                        q = -q
                    r = wrap(q) if op == "div" else wrap(a - b * q)
                elif op == "and":
                    r = a & b
                elif op == "or":
                    r = a | b
                elif op == "xor":
                    r = a ^ b
                elif op == "shl":
                    r = wrap(a << (b & 63))
                elif op == "shr":
                    r = wrap((a & MASK) >> (b & 63))
                elif op == "sar":
                    r = a >> (b & 63)
                elif op == "eq":
                    r = int(a == b)
                elif op == "ne":
                    r = int(a != b)
                elif op == "lt":
                    r = int(a < b)
                elif op == "le":
                    r = int(a <= b)
                elif op == "gt":
                    r = int(a > b)
                else:
                    r = int(a >= b)
                stack.append(r)
            elif op == "pop":
                need(1)
                stack.pop()
            elif op == "dup":
                need(1)
                push(stack[-1])
            elif op == "swap":
                need(2)
                stack[-1], stack[-2] = stack[-2], stack[-1]
            elif op == "over":
                need(2)
                push(stack[-2])
            elif op == "rot":
                need(3)
                stack.append(stack.pop(-3))
            elif op == "neg":
                need(1)
                stack[-1] = wrap(-stack[-1])
            elif op == "not":
                need(1)
                stack[-1] = ~stack[-1]
            elif op == "jmp":
                pc = arg
            elif op in ("jz", "jnz"):
                need(1)
                v = stack.pop()
                if (v == 0) == (op == "jz"):
                    pc = arg
            elif op == "call":
                if len(calls) >= CALL_MAX:
                    raise VMError("call stack overflow")
                calls.append(pc)
                pc = arg
            elif op == "ret":
                if not calls:
                    raise VMError("return without call")
                pc = calls.pop()
            elif op == "load":
                need(1)
                addr = stack[-1]
                if not 0 <= addr < MEM_SIZE:
                    raise VMError(f"invalid address {addr}")
                stack[-1] = mem[addr]
            elif op == "store":
                need(2)
                addr = stack[-1]
                if not 0 <= addr < MEM_SIZE:
                    raise VMError(f"invalid address {addr}")
                stack.pop()
                mem[addr] = stack.pop()
            elif op == "print":
                need(1)
                out.write(f"{stack.pop()}\n")
            elif op == "printc":
                need(1)
                v = stack[-1]
                if not 0 <= v < 128:
                    raise VMError(f"invalid character {v}")
                stack.pop()
                out.write(chr(v))
            elif op == "prints":
                out.write(arg)
            elif op == "read":
                if tokens is None:
                    tokens = sys.stdin.buffer.read().decode("ascii", "replace").split()
                if tok_i >= len(tokens):
                    raise VMError("end of input")
                t = tokens[tok_i]
                body = t[1:] if t[:1] in "+-" else t
                if not body or not body.isdigit() or not body.isascii():
                    raise VMError(f"invalid input '{t}'")
                v = int(t)
                if not -SIGN <= v < SIGN:
                    raise VMError(f"invalid input '{t}'")
                push(v)
                tok_i += 1
            elif op == "halt":
                return
        except VMError as exc:
            raise VMError(exc.args[0], line)


def main(argv):
    max_steps = DEFAULT_STEPS
    args = list(argv)
    path = None
    try:
        while args:
            a = args.pop(0)
            if a == "--max-steps":
                max_steps = int(args.pop(0))
                if max_steps < 0:
                    raise ValueError
            elif path is None:
                path = a
            else:
                raise ValueError
        if path is None:
            raise ValueError
    except (ValueError, IndexError):
        sys.stderr.write("usage: svm [--max-steps N] PROGRAM\n")
        return 2
    try:
        with open(path, "rb") as fh:
            source = fh.read().decode("utf-8")
    except (OSError, UnicodeDecodeError):
        sys.stderr.write(f"error: cannot read '{path}'\n")
        return 2
    try:
        program = parse(source)
    except ParseError as exc:
        sys.stderr.write(f"error: {exc}\n")
        return 2

    class Out:
        def __init__(self):
            self.buf = []

        def write(self, s):
            self.buf.append(s)
            if len(self.buf) > 256:
                self.flush()

        def flush(self):
            sys.stdout.write("".join(self.buf))
            self.buf.clear()
            sys.stdout.flush()

    out = Out()
    try:
        run(program, max_steps, out)
    except VMError as exc:
        out.flush()
        sys.stderr.write(f"error: line {exc.args[1]}: {exc.args[0]}\n")
        return 1
    out.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
PYEOF
chmod +x /app/vm/svm
