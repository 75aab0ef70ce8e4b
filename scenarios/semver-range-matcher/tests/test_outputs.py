"""Hidden tests for the semver-range-matcher scenario.

The package /app/semrange is imported only inside child processes (with a
timeout). Every expected value below was worked out by hand from the rules in
the task description.
"""
import json
import os
import sys

import trl_agent_run as agent_run

APP_DIR = "/app"
TIMEOUT = 60

RUNNER = r"""
import json, sys
sys.path.insert(0, "/app")
import semrange

def call(op, args, kwargs):
    try:
        return ["ok", getattr(semrange, op)(*args, **kwargs)]
    except ValueError as exc:
        return ["ValueError", None]
    except Exception as exc:
        return ["error", type(exc).__name__ + ": " + str(exc)[:200]]

calls = json.load(sys.stdin)
print(json.dumps([call(op, args, kwargs) for op, args, kwargs in calls]))
"""


def api(calls):
    """calls: list of (function name, args list, kwargs dict) -> list of [status, value]."""
    res = agent_run.run(
        [sys.executable, "-c", RUNNER],
        input=json.dumps(calls),
        cwd=APP_DIR,
        env=dict(os.environ, PYTHONDONTWRITEBYTECODE="1"),
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
    )
    assert res.returncode == 0, f"runner failed:\n{res.stderr[-3000:]}"
    out = json.loads(res.stdout.strip().splitlines()[-1])
    assert len(out) == len(calls)
    return out


def check_satisfies(cases, include_prerelease=False):
    kwargs = {"include_prerelease": True} if include_prerelease else {}
    got = api([("satisfies", [v, r], kwargs) for v, r, _ in cases])
    wrong = [
        (v, r, f"expected {exp}", f"got {g}")
        for (v, r, exp), g in zip(cases, got)
        if g != ["ok", exp]
    ]
    assert not wrong, f"{len(wrong)} of {len(cases)} cases wrong, e.g. {wrong[:8]}"


def cli(*args):
    return agent_run.run(
        [sys.executable, "-m", "semrange", *args],
        cwd=APP_DIR,
        env=dict(os.environ, PYTHONPATH=APP_DIR, PYTHONDONTWRITEBYTECODE="1"),
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
    )


T, F = True, False


def test_valid_normalises_and_rejects_malformed_versions():
    cases = {
        "1.2.3": "1.2.3",
        "v1.2.3": "1.2.3",
        "  2.0.0-rc.1+build.5 ": "2.0.0-rc.1",
        "0.0.0": "0.0.0",
        "1.0.0-alpha-1.x-y": "1.0.0-alpha-1.x-y",
        "1.0.0+001": "1.0.0",
        "1.0.0-0a.-1": "1.0.0-0a.-1",
        "10.20.30": "10.20.30",
        "1.0.0-x.7.z.92": "1.0.0-x.7.z.92",
        "123456789012345678901234567890.0.1": "123456789012345678901234567890.0.1",
        "1.2": None,
        "1.2.3.4": None,
        "01.2.3": None,
        "1.02.3": None,
        "1.2.03": None,
        "1.2.3-": None,
        "1.2.3-01": None,
        "1.2.3-beta..1": None,
        "1.2.3+": None,
        "1.2.3+a..b": None,
        "1.2.3-be_ta": None,
        "a.b.c": None,
        "": None,
        "-1.2.3": None,
        "vv1.2.3": None,
        "1.2.3 beta": None,
    }
    got = api([("valid", [k], {}) for k in cases])
    wrong = [(k, e, g) for (k, e), g in zip(cases.items(), got) if g != ["ok", e]]
    assert not wrong, wrong


def test_precedence_orders_prereleases_numerically_and_ignores_build():
    ordered = [
        "0.9.99",
        "1.0.0-2",
        "1.0.0-10",
        "1.0.0-99999999999999999999",
        "1.0.0-100000000000000000000",
        "1.0.0-B",
        "1.0.0-a",
        "1.0.0-a-b",
        "1.0.0-alpha",
        "1.0.0-alpha.1",
        "1.0.0-alpha.beta",
        "1.0.0-beta",
        "1.0.0-beta.2",
        "1.0.0-beta.11",
        "1.0.0-rc.1",
        "1.0.0",
        "1.0.1-0",
        "1.0.1",
        "1.1.0",
        "1.10.0",
        "2.0.0",
        "10.0.0",
    ]
    pairs = [(ordered[i], ordered[i + 1]) for i in range(len(ordered) - 1)]
    calls = [("compare", [a, b], {}) for a, b in pairs]
    calls += [("compare", [b, a], {}) for a, b in pairs]
    calls += [
        ("compare", ["1.0.0+a", "1.0.0+b"], {}),
        ("compare", ["v2.0.0-rc.1+x", "2.0.0-rc.1"], {}),
        ("compare", ["1.0.0", "1.0"], {}),
    ]
    got = api(calls)
    n = len(pairs)
    assert [g for g in got[:n]] == [["ok", -1]] * n, [p for p, g in zip(pairs, got) if g != ["ok", -1]]
    assert [g for g in got[n:2 * n]] == [["ok", 1]] * n
    assert got[2 * n] == ["ok", 0]
    assert got[2 * n + 1] == ["ok", 0]
    assert got[2 * n + 2][0] == "ValueError"


def test_primitive_comparators_sets_and_alternatives():
    check_satisfies([
        ("1.2.3", "1.2.3", T), ("1.2.3", "=1.2.3", T), ("1.2.3+build", "1.2.3", T),
        ("1.2.3", "1.2.3+other", T), ("1.2.4", "1.2.3", F), ("1.2.3", "v1.2.3", T),
        ("1.2.3", ">1.2.2", T), ("1.2.3", ">1.2.3", F), ("1.2.3", ">=1.2.3", T),
        ("1.2.3", "<1.2.3", F), ("1.2.2", "<1.2.3", T), ("1.2.3", "<=1.2.3", T),
        ("1.2.3", ">=v1.0.0", T),
        ("1.5.0", ">=1.2.0 <2.0.0", T), ("2.0.0", ">=1.2.0 <2.0.0", F),
        ("1.1.9", ">=1.2.0 <2.0.0", F),
        ("3.1.0", "<1.0.0 || >=3.0.0", T), ("2.0.0", "<1.0.0 || >=3.0.0", F),
        ("0.9.9", "<1.0.0||>=3.0.0", T),
        ("1.2.3", ">= 1.2.0   <  1.3.0", T), ("1.3.0", ">= 1.2.0   <  1.3.0", F),
        ("1.2.3", "  >=1.0.0  ||  <0.5.0  ", T),
        ("1.2.3", "", T), ("1.2.3", "   ", T), ("1.2.3", "*", T), ("0.0.0", "*", T),
        ("1.2.3", ">2.0.0 ||", T), ("1.2.3", ">2.0.0 || <1.0.0", F),
        ("1.2.3", ">1.2.3 <1.2.3", F),
        ("12345678901234567890.0.0", ">12345678901234567889.9.9", T),
        ("12345678901234567890.0.0", "<9999999999999999999.0.0", F),
    ])


def test_x_ranges_and_partial_versions_with_operators():
    check_satisfies([
        ("1.2.9", "1.2.x", T), ("1.3.0", "1.2.x", F), ("1.2.0", "1.2", T),
        ("1.9.9", "1.x", T), ("2.0.0", "1.x", F), ("1.0.0", "1", T), ("0.9.0", "1", F),
        ("1.2.3", "1.X", T), ("1.2.3", "1.*.*", T), ("1.2.3", "x", T), ("1.2.3", "X.x.*", T),
        ("1.9.0", "1.x.3", T), ("2.0.3", "1.x.3", F), ("1.2.5", "=1.2", T),
        ("1.2.9", ">1.2", F), ("1.3.0", ">1.2", T), ("2.0.0", ">1", T), ("1.9.9", ">1", F),
        ("1.2.0", ">=1.2", T), ("1.1.9", ">=1.2", F), ("1.1.9", "<1.2", T), ("1.2.0", "<1.2", F),
        ("1.2.9", "<=1.2", T), ("1.3.0", "<=1.2", F), ("1.9.0", "<=1", T), ("2.0.0", "<=1", F),
        ("0.0.1", "<*", F), ("5.0.0", ">*", F), ("5.0.0", ">=*", T), ("5.0.0", "<=x", T),
        ("1.2.3", "<1.2.x", F), ("1.1.0", "<1.2.x", T), ("0.0.0", ">=0", T),
        ("1.2.0-beta", "1.2.x", F), ("1.5.0", "1.2.x || 1.5", T), ("1.4.0", "1.2.x || 1.5", F),
    ])


def test_tilde_ranges():
    check_satisfies([
        ("1.2.3", "~1.2.3", T), ("1.2.9", "~1.2.3", T), ("1.3.0", "~1.2.3", F),
        ("1.2.2", "~1.2.3", F), ("1.2.0", "~1.2", T), ("1.3.0", "~1.2", F),
        ("1.9.9", "~1", T), ("2.0.0", "~1", F), ("0.2.5", "~0.2.3", T), ("0.3.0", "~0.2.3", F),
        ("1.2.5", "~>1.2.3", T), ("1.3.0", "~>1.2", F), ("1.2.7", "~> 1.2", T),
        ("1.2.3-beta.4", "~1.2.3-beta.2", T), ("1.2.3-alpha", "~1.2.3-beta.2", F),
        ("1.2.4-beta.9", "~1.2.3-beta.2", F), ("1.2.4", "~1.2.3-beta.2", T),
        ("3.0.0", "~*", T), ("1.2.3", "~ 1.2", T), ("1.3.0-0", "~1.2", F),
    ])


def test_caret_ranges_including_zero_major_and_minor():
    check_satisfies([
        ("1.2.3", "^1.2.3", T), ("1.9.0", "^1.2.3", T), ("2.0.0", "^1.2.3", F),
        ("1.2.2", "^1.2.3", F), ("0.2.9", "^0.2.3", T), ("0.3.0", "^0.2.3", F),
        ("0.2.2", "^0.2.3", F), ("0.0.3", "^0.0.3", T), ("0.0.4", "^0.0.3", F),
        ("1.9.9", "^1.2", T), ("1.1.0", "^1.2", F), ("0.2.7", "^0.2", T), ("0.3.0", "^0.2", F),
        ("0.0.9", "^0.0", T), ("0.1.0", "^0.0", F), ("0.0.9", "^0.0.x", T),
        ("0.9.0", "^0", T), ("1.0.0", "^0", F), ("0.9.0", "^0.x", T), ("1.0.0", "^1.x", T),
        ("1.2.3-beta.3", "^1.2.3-beta.2", T), ("1.2.3", "^1.2.3-beta.2", T),
        ("1.5.0-beta.3", "^1.2.3-beta.2", F), ("2.0.0-beta", "^1.2.3-beta.2", F),
        ("0.0.3-beta.1", "^0.0.3-beta", T), ("0.0.4-alpha", "^0.0.3-beta", F),
        ("0.0.3", "^0.0.3-beta", T), ("0.0.4", "^0.0.3-beta", F),
        ("5.5.5", "^*", T), ("1.2.3", "^ 1.2", T), ("0.2.3", "^0.1.0 || ^0.2.0", T),
    ])


def test_hyphen_ranges_with_partial_bounds():
    check_satisfies([
        ("1.2.3", "1.2.3 - 2.3.4", T), ("2.3.4", "1.2.3 - 2.3.4", T),
        ("2.3.5", "1.2.3 - 2.3.4", F), ("1.2.2", "1.2.3 - 2.3.4", F),
        ("1.2.0", "1.2 - 2.3.4", T), ("1.1.9", "1.2 - 2.3.4", F),
        ("2.3.9", "1.2.3 - 2.3", T), ("2.4.0", "1.2.3 - 2.3", F),
        ("2.9.9", "1.2.3 - 2", T), ("3.0.0", "1.2.3 - 2", F),
        ("0.0.1", "* - 2.0.0", T), ("9.9.9", "1.0.0 - *", T), ("0.9.0", "1.0.0 - *", F),
        ("2.3.4-beta", "1.2.3 - 2.3.4", F), ("2.3.4-beta", "1.2.3 - 2.3.4-rc.1", T),
        ("2.3.4-rc.2", "1.2.3 - 2.3.4-rc.1", F),
        ("1.5.0", "1.0.0 - 1.2.0 || 1.4.0 - 1.6.0", T), ("1.3.0", "1.0.0 - 1.2.0 || 1.4.0 - 1.6.0", F),
        ("1.2.3", "  1.0.0   -   2.0.0  ", T), ("1.0.0", "v1.0.0 - v1.0.0", T),
    ])


def test_prerelease_versions_need_a_matching_prerelease_comparator():
    check_satisfies([
        ("1.2.3-alpha.7", ">1.2.3-alpha.3", T), ("3.4.5-alpha.9", ">1.2.3-alpha.3", F),
        ("3.4.5", ">1.2.3-alpha.3", T), ("1.0.0-rc.1", ">=1.0.0-beta <1.0.0", T),
        ("1.0.0-rc.1", "*", F), ("1.0.0-rc.1", "", F), ("1.0.0-rc.1", ">=0.0.0", F),
        ("1.0.0-rc.1", "1.0.0-rc.1", T), ("1.0.0-rc.1+b", "=1.0.0-rc.1", T),
        ("1.0.0-rc.1", "<1.0.0", F), ("2.0.0-alpha", "^1.0.0 || >=2.0.0-0", T),
        ("1.2.3-beta", ">=1.2.3-alpha <1.2.3-gamma", T),
        ("1.2.3-beta", ">=1.2.3-alpha <1.2.3-gamma || *", T),
        ("1.2.4-beta", ">=1.2.3-alpha <1.2.5", F),
        ("1.0.0-alpha.10", ">1.0.0-alpha.9", T), ("1.0.0-alpha.10", ">1.0.0-alpha.beta", F),
    ])


def test_include_prerelease_mode():
    check_satisfies(
        [
            ("1.0.0-rc.1", "*", T), ("1.0.0-rc.1", "", T), ("1.3.0-beta", "1.x", T),
            ("2.0.0-beta", "1.x", F), ("1.0.0-beta", "1.x", T), ("1.2.0-alpha", ">=1.2", T),
            ("1.2.0-alpha", ">=1.2.0", F), ("1.3.0-alpha", ">1.2", T), ("1.2.0-alpha", "<1.2", F),
            ("1.2.0-alpha", "<1.2.0", T), ("1.5.0-beta", "^1.2.3", T), ("2.0.0-beta", "^1.2.3", F),
            ("1.2.0-beta", "^1.2", T), ("1.2.0-rc", "1.2 - 2", T), ("3.0.0-rc", "1.2 - 2", F),
            ("1.0.0-rc.1", "<=1.0.0", T), ("3.4.5-alpha.9", ">1.2.3-alpha.3", T),
            ("1.2.3", "^1.2.3", T), ("2.0.0", "1.x", F),
        ],
        include_prerelease=True,
    )


def test_max_and_min_satisfying_pick_by_precedence():
    calls = [
        ("max_satisfying", [["1.2.3", "1.2.4", "1.3.0", "2.0.0"], "~1.2"], {}),
        ("max_satisfying", [["1.2.3", "v1.2.4+build", "junk", "1.2.4"], "1.2.x"], {}),
        ("max_satisfying", [["1.2.3", "2.9.0"], "^3"], {}),
        ("max_satisfying", [["2.0.0-rc.1", "1.9.9", "2.0.0-beta"], "^1.0.0 || >=2.0.0-alpha"], {}),
        ("max_satisfying", [["1.0.0-rc.1", "0.9.0"], "*"], {}),
        ("max_satisfying", [["1.0.0-rc.1", "0.9.0"], "*"], {"include_prerelease": True}),
        ("max_satisfying", [["1.0.0-10", "1.0.0-9", "1.0.0-100"], ">=1.0.0-0"], {}),
        ("max_satisfying", [[], "*"], {}),
        ("min_satisfying", [["1.2.3", "1.2.4", "1.1.0"], ">=1.2"], {}),
        ("min_satisfying", [["0.3.0", "0.2.9", "0.2.10", "0.2.2"], "^0.2.3"], {}),
        ("min_satisfying", [["1.0.0+b", "1.0.0+a"], "1"], {}),
        ("max_satisfying", [["1.0.0"], ">=1.0.0 <"], {}),
    ]
    got = api(calls)
    assert got[0] == ["ok", "1.2.4"]
    assert got[1] == ["ok", "v1.2.4+build"], "returned exactly as given; first of equal precedence"
    assert got[2] == ["ok", None]
    assert got[3] == ["ok", "2.0.0-rc.1"]
    assert got[4] == ["ok", "0.9.0"]
    assert got[5] == ["ok", "1.0.0-rc.1"]
    assert got[6] == ["ok", "1.0.0-100"]
    assert got[7] == ["ok", None]
    assert got[8] == ["ok", "1.2.3"]
    assert got[9] == ["ok", "0.2.9"]
    assert got[10] == ["ok", "1.0.0+b"]
    assert got[11][0] == "ValueError"


def test_invalid_ranges_and_versions_raise_value_error():
    bad_ranges = [
        ">=1.2.3 <", "1.2.3.4", "^01.2", "1.2.3-", ">>1", "=>1.0.0", "1 - 2 - 3",
        "1.2.3 -", "- 1.2.3", "~1.2.3-beta..2", ">=a.b.c", "1.2.3-01", "1.2.3+", "01",
        "1.x-beta", "1.2.3 ||| 2.0.0", ">=1.0.0 - 2.0.0",
    ]
    calls = [("satisfies", ["1.2.3", r], {}) for r in bad_ranges]
    calls += [("satisfies", [v, "*"], {}) for v in ("1.2", "1.2.3.4", "x.y.z", "1.2.3-")]
    calls += [("compare", ["1.0.0", "01.0.0"], {})]
    got = api(calls)
    wrong = [c[1] for c, g in zip(calls, got) if g[0] != "ValueError"]
    assert not wrong, f"expected ValueError for {wrong}"


def test_command_line_interface():
    r = cli("satisfies", "1.2.3", "^1.0.0")
    assert (r.returncode, r.stdout.strip()) == (0, "true"), r.stderr
    r = cli("satisfies", "2.0.0", "^1.0.0")
    assert (r.returncode, r.stdout.strip()) == (1, "false"), r.stderr
    r = cli("satisfies", "--include-prerelease", "1.3.0-beta", "1.x")
    assert (r.returncode, r.stdout.strip()) == (0, "true"), r.stderr
    r = cli("satisfies", "1.3.0-beta", "1.x")
    assert (r.returncode, r.stdout.strip()) == (1, "false"), r.stderr
    r = cli("satisfies", "1.2.3", ">=1.2.3 <")
    assert r.returncode == 2 and r.stderr.strip(), "invalid range must exit 2 with a message"
    r = cli("satisfies", "1.2", "*")
    assert r.returncode == 2 and r.stderr.strip()
    r = cli("max-satisfying", "~1.2", "1.2.3", "1.2.10", "1.3.0", "v1.2.10")
    assert (r.returncode, r.stdout.strip()) == (0, "1.2.10"), r.stderr
    r = cli("max-satisfying", "^5", "1.2.3", "4.9.9")
    assert (r.returncode, r.stdout.strip()) == (1, "null"), r.stderr
    r = cli("max-satisfying", "--include-prerelease", "<2", "2.0.0-rc.1", "1.9.0-rc.1", "1.8.0")
    assert (r.returncode, r.stdout.strip()) == (0, "1.9.0-rc.1"), r.stderr
    r = cli("max-satisfying", "1 - 2 - 3", "1.0.0")
    assert r.returncode == 2 and r.stderr.strip()
