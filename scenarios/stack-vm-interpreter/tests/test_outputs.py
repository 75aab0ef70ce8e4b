"""Hidden tests for the stack-vm-interpreter scenario.

Each program is written to a temporary file and run with /app/vm/svm in a
subprocess with a timeout. Expected outputs are computed here with plain
Python arithmetic (64-bit wrapping done explicitly), independent of any
interpreter.
"""
import os
import tempfile
import textwrap

import pytest
import trl_agent_run as agent_run

SVM = "/app/vm/svm"
TIMEOUT = 60

MASK = (1 << 64) - 1
INT_MIN = -(1 << 63)


def w(v):
    """Wrap a Python int to signed 64 bits."""
    v &= MASK
    return v - (1 << 64) if v >> 63 else v


def run(source, stdin="", args=()):
    assert os.path.isfile(SVM), f"{SVM} does not exist"
    assert os.access(SVM, os.X_OK), f"{SVM} is not executable"
    fd, path = tempfile.mkstemp(suffix=".svm")
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        fh.write(textwrap.dedent(source).lstrip("\n"))
    res = agent_run.run([SVM, *args, path], input=stdin.encode(), capture_output=True,
                         timeout=TIMEOUT, cwd=tempfile.gettempdir())
    return res.returncode, res.stdout.decode("utf-8", "replace"), res.stderr.decode("utf-8", "replace")


def ok(source, expected, stdin="", args=()):
    code, out, err = run(source, stdin, args)
    assert (code, out) == (0, expected), f"exit {code}, stderr {err!r}\nstdout {out[:500]!r}\nexpected {expected[:500]!r}"
    assert err == ""


def fails(source, exit_code, line, message, stdout="", stdin="", args=()):
    code, out, err = run(source, stdin, args)
    expected_err = f"error: line {line}: {message}\n"
    assert (code, err) == (exit_code, expected_err), f"exit {code}, stderr {err!r}; expected {exit_code}, {expected_err!r}"
    assert out == stdout, f"stdout {out[-300:]!r}, expected {stdout[-300:]!r}"


def lines(*values):
    return "".join(f"{v}\n" for v in values)


# ---------------------------------------------------------------------------

def test_stack_manipulation_arithmetic_and_truncating_division():
    ok("""
        push 1
        push 2
        push 3
        rot          ; 2 3 1
        print
        print
        print
        push 10
        push 20
        over         ; 10 20 10
        print
        swap
        print
        dup
        add
        print
        push 7
        push 9
        sub
        print        ; -2
        push 6
        push 7
        mul
        neg
        print        ; -42
        push 100
        pop
        push 0x1F
        push -0x10
        add
        print        ; 15
    """, lines(1, 3, 2, 10, 10, 40, -2, -42, 15))
    # div truncates toward zero, mod takes the sign of the dividend
    cases = [(-17, 5), (17, -5), (-17, -5), (17, 5), (7, 7), (-1, 2), (0, -3)]
    src = []
    expected = []
    for a, b in cases:
        src += [f"push {a}", f"push {b}", "div", "print", f"push {a}", f"push {b}", "mod", "print"]
        q = abs(a) // abs(b) * (1 if (a < 0) == (b < 0) else -1)
        expected += [q, a - b * q]
    ok("\n".join(src) + "\n", lines(*expected))


def test_64bit_wraparound_shifts_and_literal_ranges():
    big = 3037000500
    fact = 1
    for i in range(1, 26):
        fact = w(fact * i)
    ok(f"""
        push 0x7FFFFFFFFFFFFFFF
        push 1
        add
        print
        push 0xFFFFFFFFFFFFFFFF
        print
        push 18446744073709551615
        print
        push -9223372036854775808
        push -1
        div
        print
        push -9223372036854775808
        push -1
        mod
        print
        push -9223372036854775808
        neg
        print
        push -9223372036854775808
        push 1
        sub
        print
        push 1
        push 63
        shl
        print
        push -1
        push 60
        shr
        print
        push -16
        push 2
        sar
        print
        push 1
        push 65
        shl
        print
        push 0x100000000
        dup
        mul
        print
        push {big}
        dup
        mul
        print
        push 5
        not
        print
        push 0xF0
        push 0x3C
        xor
        push 0x0F
        or
        push 0xF3
        and
        print
        push -8
        push -1
        shr
        print
        push 1          ; 25! with wraparound
        push 1
    f:  dup
        push 26
        lt
        jz fdone
        dup
        rot
        mul
        swap
        push 1
        add
        jmp f
    fdone:
        pop
        print
    """, lines(INT_MIN, -1, -1, INT_MIN, 0, INT_MIN, (1 << 63) - 1, INT_MIN, 15, -4, 2, 0,
               w(big * big), -6, ((0xF0 ^ 0x3C) | 0x0F) & 0xF3, 1, fact))


def test_comparisons_jumps_and_loops():
    # primes below 60 by trial division, and Collatz step counts
    primes = [n for n in range(2, 60) if all(n % d for d in range(2, n))]

    def collatz(n):
        steps = 0
        while n != 1:
            n = n // 2 if n % 2 == 0 else 3 * n + 1
            steps += 1
        return steps

    ok("""
        push 2                 ; n
    outer:
        dup
        push 60
        ge
        jnz cz
        push 2                 ; n d
    inner:
        over
        over
        dup
        mul
        lt                     ; n d (n < d*d)
        jnz isprime
        over
        over
        mod
        jz notprime
        push 1
        add
        jmp inner
    isprime:
        pop
        dup
        print
        jmp next
    notprime:
        pop
    next:
        push 1
        add
        jmp outer
    cz: pop
        push 27
        call collatz
        print
        push 97
        call collatz
        print
        push -3
        push 2
        lt
        print
        push 5
        push 5
        le
        push 5
        push 5
        ne
        push 9
        push -9
        gt
        push -9
        push 9
        ge
        print
        print
        print
        print
        halt
    collatz:                   ; ( n -- steps )
        push 0
        swap
    cloop:
        dup
        push 1
        eq
        jnz cend
        dup
        push 2
        mod
        jz ceven
        push 3
        mul
        push 1
        add
        jmp cstep
    ceven:
        push 2
        div
    cstep:
        swap
        push 1
        add
        swap
        jmp cloop
    cend:
        pop
        ret
    """, lines(*primes, collatz(27), collatz(97), 1, 0, 1, 0, 1))


def test_call_ret_recursion_and_labels():
    def fib(n):
        return n if n < 2 else fib(n - 1) + fib(n - 2)

    ok("""
        push 15
        call fib
        print
        push 1071
        push 462
        call gcd
        print
        call Deep
        print
        halt
    fib:                ; ( n -- fib(n) ), recursive
        dup
        push 2
        lt
        jnz fib_ret
        dup
        push 1
        sub
        call fib
        swap
        push 2
        sub
        call fib
        add
    fib_ret:
        ret
    gcd:                ; ( a b -- gcd )
        dup
        jz gcd_done
        swap
        over
        mod
        jmp gcd
    gcd_done:
        pop
        ret
    Deep:  push 254     ; 255 more nested calls: 256 frames in total is allowed
    deep:  dup
        jz deep_end
        push 1
        sub
        call deep
        ret
    deep_end:
        ret
    """, lines(fib(15), 21, 0))


def test_memory_load_store_sieve_and_sorting_input():
    limit = 300
    primes = [n for n in range(2, limit) if all(n % d for d in range(2, int(n ** 0.5) + 1))]
    numbers = [42, -7, 19, 0, 1000000000000, -7, 3, 88, -300, 5]
    stdin = f"{len(numbers)}\n" + "  ".join(f"+{n}" if n == 19 else str(n) for n in numbers) + "\n"
    ok(f"""
        ; sieve: mem[i] = 1 marks i as composite
        push 2                  ; i
    s_outer:
        dup
        push {limit}
        ge
        jnz s_print
        dup
        load
        jnz s_next
        dup
        dup
        mul                     ; i j=i*i
    s_mark:
        dup
        push {limit}
        ge
        jnz s_marked
        push 1
        over
        store                   ; mem[j] = 1
        over
        add
        jmp s_mark
    s_marked:
        pop
    s_next:
        push 1
        add
        jmp s_outer
    s_print:
        pop
        push 0                  ; count
        push 2                  ; count k
    p_loop:
        dup
        push {limit}
        ge
        jnz p_done
        dup
        load
        jnz p_skip
        swap
        push 1
        add
        swap
    p_skip:
        push 1
        add
        jmp p_loop
    p_done:
        pop
        print
        ; read n numbers into mem[1000..], exchange-sort them, print them
        read
        dup
        push 999
        store                   ; mem[999] = n
        push 0                  ; n i
    r_loop:
        over
        over
        eq
        jnz r_done
        read
        over
        push 1000
        add
        store
        push 1
        add
        jmp r_loop
    r_done:
        pop
        pop
        push 0                  ; i
    o_loop:
        dup
        push 999
        load
        ge
        jnz sorted
        dup
        push 1
        add                     ; i j
    i_loop:
        dup
        push 999
        load
        ge
        jnz i_done
        over
        push 1000
        add
        load                    ; i j a[i]
        over
        push 1000
        add
        load                    ; i j a[i] a[j]
        over
        over
        gt
        jz no_swap              ; i j a[i] a[j]
        push 3
        store                   ; mem[3] = a[j]
        over
        push 1000
        add
        store                   ; a[j] = old a[i]        -> i j
        push 3
        load                    ; i j v
        rot                     ; j v i
        dup
        push 4
        store                   ; mem[4] = i
        push 1000
        add
        store                   ; a[i] = v               -> j
        push 4
        load
        swap                    ; i j
        jmp advance
    no_swap:
        pop
        pop
    advance:
        push 1
        add
        jmp i_loop
    i_done:
        pop
        dup
        push 1000
        add
        load
        print
        push 1
        add
        jmp o_loop
    sorted:
        pop
        push 4095
        load
        print
    """, lines(len(primes), *sorted(numbers), 0), stdin=stdin)


def test_string_and_character_output_with_escapes_and_comments():
    ok(r"""
        ; comment line
        PRINTS "semi;colon \"quoted\" back\\slash\ttab\n"   ; trailing comment
        Push ';'
        PrintC
        push '\''
        printc
        push '\\'
        printc
        push '\n'
        printc
        push 'z'
        push 'a'
        sub
        print
        prints ""
        push '\0'
        print
    Loop:  push 1
        jmp loop
        prints "never\n"
    loop:  print
        prints "end"
    """, "semi;colon \"quoted\" back\\slash\ttab\n;'\\\n25\n0\n1\nend")


def test_reading_input_tokens():
    ok("""
        read                ; count
    again:
        dup
        jz finish
        read
        read
        mul
        print
        push 1
        sub
        jmp again
    finish:
        pop
        read
        print
    """, lines(6, -12, 0, 9223372036854775807, -5),
        stdin="4\n2 3\n\t-4 +3\n0 99\n 9223372036854775807 1\n-0005\n")


def test_syntax_errors_report_lowest_line_and_run_nothing():
    cases = [
        ("prints \"x\"\npush 1\nPushh 2\n", 3, "unknown instruction 'Pushh'"),
        ("push\n", 1, "missing operand for 'push'"),
        ("push 1\nADD 2\n", 2, "unexpected operand for 'add'"),
        ("push 1 2\n", 1, "unexpected token '2'"),
        ("push 12a\n", 1, "invalid integer '12a'"),
        ("push 18446744073709551616\n", 1, "invalid integer '18446744073709551616'"),
        ("push 1\npush -9223372036854775809\n", 2, "invalid integer '-9223372036854775809'"),
        ("push 'ab'\n", 1, "invalid integer ''ab''"),
        ("x:\nprint\nx: halt\n", 3, "duplicate label 'x'"),
        ("jmp 9lives\n", 1, "invalid label '9lives'"),
        ("prints \"ok\"\njz End\nbogus\nEnd2: halt\n", 2, "undefined label 'End'"),
        ("prints 42\n", 1, "expected string for 'prints'"),
        ("push 1\nprints \"abc ; not a comment\n", 2, "unterminated string"),
        ("prints \"bad \\q escape\"\n", 1, "invalid escape '\\q'"),
        ("halt\n\n\ncall\nfoo bar\n", 4, "missing operand for 'call'"),
        ("prints \"a\"\nret\nloop: jmp loop2\nfrob\n", 3, "undefined label 'loop2'"),
        ("push 1\n1x: halt\n", 2, "invalid label '1x'"),
    ]
    failures = []
    for src, line, msg in cases:
        code, out, err = run(src)
        if (code, out, err) != (2, "", f"error: line {line}: {msg}\n"):
            failures.append((src, code, out, err))
    assert not failures, failures
    res = agent_run.run([SVM, "/nonexistent/program.svm"], capture_output=True, timeout=TIMEOUT)
    assert res.returncode == 2 and res.stdout == b"" and res.stderr.strip()


def test_runtime_errors_keep_output_and_name_the_line():
    fails("prints \"a\\n\"\npush 1\nprint\nprint\n", 1, 4, "stack underflow", stdout="a\n1\n")
    fails("push 5\nstore\n", 1, 2, "stack underflow")
    fails("push 1\nprint\npush 7\npush 0\nmod\nprint\n", 1, 5, "division by zero", stdout="1\n")
    fails("push 9\npush 4096\nstore\n", 1, 3, "invalid address 4096")
    fails("push 2\nprint\npush -1\nload\n", 1, 4, "invalid address -1", stdout="2\n")
    fails("call f\nprints \"back\\n\"\nret\nf: ret\n", 1, 3, "return without call", stdout="back\n")
    fails("push 0\nr: push 1\nadd\ncall r\n", 1, 4, "call stack overflow")
    fails("s: push 3\njmp s\n", 1, 1, "stack overflow")
    fails("push 72\nprintc\npush 200\nprintc\n", 1, 4, "invalid character 200", stdout="H")
    fails("read\nprint\nread\n", 1, 3, "end of input", stdout="7\n", stdin=" 7 ")
    fails("read\nprint\nread\n", 1, 3, "invalid input '0x10'", stdout="1\n", stdin="1 0x10")
    fails("read\n", 1, 1, "invalid input '9223372036854775808'", stdin="9223372036854775808")


def test_step_limit_exact_boundary_and_default():
    prog = "push 1\nprint\npush 2\nprint\nhalt\n"
    ok(prog, "1\n2\n", args=("--max-steps", "5"))
    fails(prog, 1, 5, "step limit exceeded", stdout="1\n2\n", args=("--max-steps", "4"))
    fails(prog, 1, 1, "step limit exceeded", args=("--max-steps", "0"))
    # default limit of 1,000,000 steps: 2 + 6 * 166666 + 2 = 1,000,000 steps exactly
    exact = """
        prints "start\\n"
        push 0
    loop:
        push 1
        add
        dup
        push 166666
        lt
        jnz loop
        print
        halt
    """
    ok(exact, "start\n166666\n")
    one_more = exact.replace("        halt", "        push 0\n        halt")
    fails(one_more, 1, 12, "step limit exceeded", stdout="start\n166666\n")
    fails("prints \"x\"\nspin: jmp spin\n", 1, 2, "step limit exceeded", stdout="x")
