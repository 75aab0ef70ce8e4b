"""Hidden tests for the token-bucket-rate-limiter scenario.

The package /app/ratelimit is only ever imported inside a child Python
process (with a timeout); each child drives the limiter with a fake clock and
prints a JSON list of observations, which is compared with values worked out
by hand from the specification (all times and rates are chosen so that the
arithmetic is exact in binary floating point).
"""
import json
import math
import os
import sys
import tempfile
import textwrap
import trl_agent_run as agent_run

APP_DIR = "/app"

PRELUDE = textwrap.dedent(
    """
    import json, math, sys
    sys.path.insert(0, "/app")
    from ratelimit import RateLimiter

    class Clock:
        def __init__(self, t=0.0):
            self.t = t
        def __call__(self):
            return self.t

    OUT = []
    def emit(value):
        OUT.append(value)

    def raises(fn, *args, **kwargs):
        try:
            fn(*args, **kwargs)
        except ValueError:
            return "ValueError"
        except Exception as exc:  # wrong exception type
            return type(exc).__name__
        return "no error"
    """
)

EPILOGUE = "\nprint(json.dumps(OUT))\n"


def run(body, timeout=30):
    code = PRELUDE + textwrap.dedent(body) + EPILOGUE
    with tempfile.TemporaryDirectory(prefix="rl-test-") as tmp:
        path = os.path.join(tmp, "drive.py")
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(code)
        env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
        res = agent_run.run(
            [sys.executable, path], cwd=tmp, env=env, capture_output=True, text=True, timeout=timeout
        )
    assert res.returncode == 0, f"driver failed:\n{res.stderr[-3000:]}"
    return json.loads(res.stdout.strip().splitlines()[-1])


def close(a, b):
    if isinstance(a, float) and math.isinf(a):
        return isinstance(b, float) and math.isinf(b) and (a > 0) == (b > 0)
    return isinstance(a, (int, float)) and not isinstance(a, bool) and abs(a - b) <= 1e-9


def test_new_key_starts_full_and_bursts_up_to_capacity():
    got = run(
        """
        clk = Clock(100.0)
        lim = RateLimiter(1, 3, clock=clk)
        emit([lim.allow("a") for _ in range(4)])
        emit(lim.allow("b"))
        emit(lim.tokens("a"))
        emit(lim.tokens("never-seen"))
        emit(len(lim))
        """
    )
    assert got[0] == [True, True, True, False]
    assert got[1] is True, "a different key has its own full bucket"
    assert close(got[2], 0.0)
    assert close(got[3], 3.0), "tokens() of an unknown key is the capacity"
    assert got[4] == 2, "tokens() must not create a bucket"


def test_refill_is_continuous_capped_and_denials_consume_nothing():
    got = run(
        """
        clk = Clock(0.0)
        lim = RateLimiter(2, 4, clock=clk)
        emit(lim.allow("k", 4))
        clk.t = 0.25
        emit(lim.tokens("k"))
        emit(lim.allow("k", 1))
        emit(lim.tokens("k"))
        clk.t = 0.5
        emit(lim.allow("k", 1))
        emit(lim.tokens("k"))
        clk.t = 10.0
        emit(lim.tokens("k"))
        emit(lim.allow("k", 4))
        emit(lim.allow("k", 0.5))
        clk.t = 10.75
        emit(lim.allow("k", 1.5))
        emit(lim.tokens("k"))
        """
    )
    expected = [True, 0.5, False, 0.5, True, 0.0, 4.0, True, False, True, 0.0]
    for i, (g, e) in enumerate(zip(got, expected)):
        if isinstance(e, bool):
            assert g is e, (i, got)
        else:
            assert close(g, e), (i, got)
    assert len(got) == len(expected)


def test_fractional_costs_use_tolerance_and_never_go_negative():
    got = run(
        """
        clk = Clock(5.0)
        lim = RateLimiter(0.001, 1, clock=clk)
        emit(lim.allow("f", 0.3))
        emit(lim.allow("f", 0.3))
        emit(lim.allow("f", 0.4))   # 1 - 0.3 - 0.3 is 0.39999999999999997 in floats
        emit(lim.tokens("f"))
        emit(lim.allow("f", 1e-12))  # within the 1e-9 tolerance of zero tokens
        emit(lim.tokens("f"))
        emit(lim.allow("f", 0.01))
        """
    )
    assert got[:3] == [True, True, True], got
    assert got[3] == 0.0 or (0.0 <= got[3] <= 1e-9), f"tokens must be clamped at 0, got {got[3]!r}"
    assert got[4] is True
    assert got[5] >= 0.0 and got[5] <= 1e-9, got
    assert got[6] is False


def test_retry_after_reports_wait_without_creating_buckets():
    got = run(
        """
        clk = Clock(0.0)
        lim = RateLimiter(2, 4, clock=clk)
        emit(lim.retry_after("r"))
        emit(len(lim))
        emit(lim.allow("r", 4))
        clk.t = 0.5
        emit(lim.retry_after("r", 3))
        emit(lim.retry_after("r", 1))
        emit(lim.retry_after("r", 4))
        emit(lim.retry_after("r", 5))
        emit(lim.retry_after("unknown", 4))
        emit(lim.retry_after("unknown", 4.5))
        emit(raises(lim.retry_after, "r", 0))
        emit(len(lim))
        clk.t = 1.5
        emit(lim.allow("r", 3))
        emit(lim.tokens("r"))
        emit(lim.retry_after("r"))
        """
    )
    assert close(got[0], 0.0)
    assert got[1] == 0, "retry_after must not create a bucket"
    assert got[2] is True
    assert close(got[3], 1.0)
    assert close(got[4], 0.0)
    assert close(got[5], 1.5)
    assert close(got[6], math.inf), "cost above capacity can never be served"
    assert close(got[7], 0.0)
    assert close(got[8], math.inf)
    assert got[9] == "ValueError"
    assert got[10] == 1
    assert got[11] is True
    assert close(got[12], 0.0)
    assert close(got[13], 0.5)


def test_backwards_clock_neither_adds_nor_removes_tokens():
    got = run(
        """
        clk = Clock(100.0)
        lim = RateLimiter(1, 10, clock=clk)
        emit(lim.allow("c", 10))
        clk.t = 104.0
        emit(lim.tokens("c"))
        clk.t = 90.0
        emit(lim.tokens("c"))
        emit(lim.allow("c", 4))
        clk.t = 102.0
        emit(lim.tokens("c"))
        emit(lim.allow("c", 0.5))
        clk.t = 105.0
        emit(lim.tokens("c"))
        """
    )
    assert got[0] is True
    assert close(got[1], 4.0)
    assert close(got[2], 4.0), "a clock going backwards must not change the bucket"
    assert got[3] is True
    assert close(got[4], 0.0), "time must stand still until the clock passes its maximum"
    assert got[5] is False
    assert close(got[6], 1.0), "refill resumes from the largest time seen (104)"


def test_invalid_parameters_and_costs_raise_value_error():
    got = run(
        """
        emit(raises(RateLimiter, 0, 1))
        emit(raises(RateLimiter, -2, 1))
        emit(raises(RateLimiter, 1, 0))
        emit(raises(RateLimiter, 1, -5))
        emit(raises(RateLimiter, 1, 1, idle_ttl=0))
        emit(raises(RateLimiter, 1, 1, idle_ttl=-3))
        emit(raises(RateLimiter, 1, 1, idle_ttl=None))
        clk = Clock(0.0)
        lim = RateLimiter(1, 10, clock=clk)
        emit(raises(lim.allow, "x", 0))
        emit(raises(lim.allow, "x", -1))
        emit(lim.allow("x", 11))
        emit(lim.tokens("x"))
        emit(lim.allow("x", 10))
        """
    )
    assert got[:6] == ["ValueError"] * 6, got
    assert got[6] == "no error"
    assert got[7:9] == ["ValueError", "ValueError"], got
    assert got[9] is False, "a cost above capacity is denied"
    assert close(got[10], 10.0), "a denied request consumes nothing"
    assert got[11] is True


def test_idle_keys_are_evicted_and_restart_full():
    got = run(
        """
        clk = Clock(0.0)
        lim = RateLimiter(0.25, 4, clock=clk, idle_ttl=10)
        emit(lim.allow("a", 4))          # t=0
        clk.t = 1.0
        emit(lim.allow("b", 1))          # t=1
        clk.t = 5.0
        emit(lim.tokens("b"))            # not activity
        clk.t = 9.5
        emit(len(lim))
        emit(lim.tokens("a"))
        clk.t = 10.0
        emit(len(lim))                   # a idle for exactly 10 s -> evicted
        emit(lim.tokens("a"))
        emit(lim.allow("a", 4))          # fresh, full bucket
        clk.t = 11.0
        emit(lim.evict_idle())           # b: last activity at t=1
        emit(len(lim))
        clk.t = 12.0
        emit(lim.allow("a", 4))          # denied, but still activity
        clk.t = 21.5
        emit(len(lim))
        emit(lim.tokens("a"))
        clk.t = 22.0
        emit(lim.evict_idle())
        emit(len(lim))
        emit(lim.evict_idle())
        """
    )
    assert got[0] is True and got[1] is True
    assert close(got[2], 4.0)
    assert got[3] == 2
    assert close(got[4], 2.375)
    assert got[5] == 1, "a key idle for idle_ttl seconds must be evicted"
    assert close(got[6], 4.0)
    assert got[7] is True, "an evicted key starts again with a full bucket"
    assert got[8] == 1, "tokens() must not count as activity"
    assert got[9] == 1
    assert got[10] is False
    assert got[11] == 1, "a denied allow() counts as activity"
    assert close(got[12], 2.875)
    assert got[13] == 1
    assert got[14] == 0
    assert got[15] == 0


def test_no_eviction_without_idle_ttl():
    got = run(
        """
        clk = Clock(0.0)
        lim = RateLimiter(0.5, 2, clock=clk)
        for i in range(50):
            lim.allow(f"k{i}", 2)
        clk.t = 1e6
        emit(len(lim))
        emit(lim.evict_idle())
        clk.t = 1e6 + 1
        emit(lim.tokens("k7"))
        clk2 = Clock(0.0)
        lim2 = RateLimiter(0.5, 2, clock=clk2, idle_ttl=3)
        lim2.allow("z", 2)
        clk2.t = 2.0
        emit(lim2.retry_after("z", 2))
        clk2.t = 3.0
        emit(lim2.retry_after("z", 2))
        emit(len(lim2))
        """
    )
    assert got[0] == 50
    assert got[1] == 0
    assert close(got[2], 2.0)
    assert close(got[3], 2.0)
    assert close(got[4], 0.0), "retry_after sees the evicted key as a fresh full bucket"
    assert got[5] == 0


def test_concurrent_threads_never_over_admit():
    got = run(
        """
        import threading
        sys.setswitchinterval(1e-6)   # switch threads as often as possible
        clk = Clock(50.0)
        lim = RateLimiter(1, 1500, clock=clk)
        keys = ["alpha", "beta", "gamma"]
        admitted = {k: 0 for k in keys}
        counts_lock = threading.Lock()
        start = threading.Barrier(8)

        def worker():
            mine = {k: 0 for k in keys}
            start.wait()
            for _ in range(900):
                for k in keys:
                    if lim.allow(k):
                        mine[k] += 1
            with counts_lock:
                for k in keys:
                    admitted[k] += mine[k]

        threads = [threading.Thread(target=worker) for _ in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        emit(admitted)
        emit([lim.tokens(k) for k in keys])
        emit(len(lim))
        """,
        timeout=90,
    )
    assert got[0] == {"alpha": 1500, "beta": 1500, "gamma": 1500}, got[0]
    assert all(abs(t) <= 1e-9 for t in got[1]), got[1]
    assert got[2] == 3


def test_many_keys_with_eviction_stay_fast():
    # "Fast" is counted in the driver's own CPU time, which a busy host does not inflate: about one
    # CPU-second for constant-time eviction, hours for a scan of every key per call. The wall-clock
    # timeout is only a backstop for a host that starves the driver of CPU altogether.
    got = run(
        """
        import time
        CPU_BUDGET_SEC = 10.0
        started = time.process_time()
        def within_budget(i):
            if i % 1000 == 0 and time.process_time() - started > CPU_BUDGET_SEC:
                print(json.dumps(["too slow", i]))
                raise SystemExit(0)
        clk = Clock(0.0)
        lim = RateLimiter(1, 2, clock=clk, idle_ttl=1e9)
        ok = 0
        for i in range(120000):
            within_budget(i)
            clk.t = float(i)
            ok += lim.allow(f"user-{i}")
        emit(ok)
        emit(len(lim))
        clk2 = Clock(0.0)
        lim2 = RateLimiter(1, 2, clock=clk2, idle_ttl=50000)
        for i in range(120000):
            within_budget(i)
            clk2.t = float(i)
            lim2.allow(f"ip-{i}")
            if i % 3 == 0:
                lim2.allow(f"ip-{i // 2}")  # keep some older keys active
        emit(len(lim2))
        clk2.t = 200000.0
        emit(lim2.evict_idle())
        emit(len(lim2))
        """,
        timeout=120,
    )
    assert got[0] != "too slow", f"over 10 CPU-seconds after {got[1]} calls: eviction looks at every key"
    assert got[0] == 120000
    assert got[1] == 120000
    # Keys active at t >= 70000 survive at t=119999: every ip-i with i >= 70000,
    # plus ip-(j//2) for j % 3 == 0, j >= 70000 (those halves lie in 35000..59999).
    survivors = set(range(70000, 120000)) | {j // 2 for j in range(70000, 120000) if j % 3 == 0}
    assert got[2] == len(survivors)
    assert got[3] == len(survivors)
    assert got[4] == 0
