"""Hidden tests for the bank-transfer-race scenario.

Every test runs a driver script in a child process (with a timeout). The
driver builds a Bank on a test-owned store whose get() reads and then sleeps
and whose set() sleeps and then writes, and starts its threads together
through a barrier. The sleeps widen every race window to tens of
milliseconds, so racy code fails every time while correctly locked code is
unaffected. Threads are daemons joined with a timeout: a deadlock is reported
as such instead of hanging the verifier.
"""
import json
import os
import sys
import tempfile
import textwrap
import trl_agent_run as agent_run

PRELUDE = textwrap.dedent(
    """
    import json, os, random, sys, threading, time
    sys.path.insert(0, "/app")
    from bank import Bank, InsufficientFunds

    class SlowStore:
        def __init__(self, balances, get_delay=0.05, set_delay=0.05):
            self.data = dict(balances)
            self.mutex = threading.Lock()
            self.get_delay, self.set_delay = get_delay, set_delay
            self.calls = 0
        def accounts(self):
            return list(self.data)
        def get(self, account):
            with self.mutex:
                self.calls += 1
                value = self.data[account]
            time.sleep(self.get_delay)
            return value
        def set(self, account, value):
            time.sleep(self.set_delay)
            with self.mutex:
                self.calls += 1
                if account not in self.data:
                    raise KeyError(account)
                self.data[account] = value

    OUT = {}

    def finish(code=0):
        print(json.dumps(OUT))
        sys.stdout.flush()
        os._exit(code)

    def run_all(jobs, timeout=20.0):
        \"\"\"Run callables in daemon threads started together; return (results, deadlocked).\"\"\"
        barrier = threading.Barrier(len(jobs))
        results = [None] * len(jobs)
        def wrap(i, fn):
            barrier.wait()
            try:
                results[i] = ["ok", fn()]
            except InsufficientFunds:
                results[i] = ["InsufficientFunds", None]
            except Exception as exc:
                results[i] = [type(exc).__name__, str(exc)[:100]]
        threads = [threading.Thread(target=wrap, args=(i, fn), daemon=True) for i, fn in enumerate(jobs)]
        for t in threads:
            t.start()
        deadline = time.monotonic() + timeout
        for t in threads:
            t.join(max(0.0, deadline - time.monotonic()))
        return results, any(t.is_alive() for t in threads)
    """
)


def drive(body, timeout=90):
    code = PRELUDE + textwrap.dedent(body) + "\nfinish()\n"
    with tempfile.TemporaryDirectory(prefix="bank-test-") as tmp:
        path = os.path.join(tmp, "drive.py")
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(code)
        res = agent_run.run([sys.executable, path], cwd=tmp, capture_output=True, text=True,
                             timeout=timeout, env=dict(os.environ, PYTHONDONTWRITEBYTECODE="1"))
    assert res.returncode == 0, f"driver failed:\n{res.stderr[-3000:]}"
    return json.loads(res.stdout.strip().splitlines()[-1])


def test_concurrent_deposits_are_not_lost():
    out = drive(
        """
        store = SlowStore({"acc": 0, "other": 7})
        bank = Bank(store)
        results, dead = run_all([lambda k=k: bank.deposit("acc", 10 + k) for k in range(10)])
        OUT["dead"] = dead
        OUT["results"] = [r[0] for r in results]
        OUT["data"] = store.data
        """
    )
    assert not out["dead"], "deposits deadlocked"
    assert out["results"] == ["ok"] * 10
    assert out["data"] == {"acc": sum(10 + k for k in range(10)), "other": 7}


def test_concurrent_withdrawals_never_overdraw():
    out = drive(
        """
        store = SlowStore({"acc": 100, "x": 1})
        bank = Bank(store)
        results, dead = run_all([lambda: bank.withdraw("acc", 60) for _ in range(5)])
        OUT["dead"] = dead
        OUT["results"] = sorted(r[0] for r in results)
        OUT["data"] = store.data
        """
    )
    assert not out["dead"], "withdrawals deadlocked"
    assert out["results"] == ["InsufficientFunds"] * 4 + ["ok"], out["results"]
    assert out["data"] == {"acc": 40, "x": 1}


def test_opposite_transfers_do_not_deadlock():
    out = drive(
        """
        store = SlowStore({"alice": 1000, "bob": 1000})
        bank = Bank(store)
        jobs = []
        for _ in range(3):
            jobs.append(lambda: bank.transfer("alice", "bob", 100))
            jobs.append(lambda: bank.transfer("bob", "alice", 30))
        results, dead = run_all(jobs, timeout=10)
        OUT["dead"] = dead
        OUT["results"] = [r and r[0] for r in results]
        OUT["data"] = store.data
        """
    )
    assert not out["dead"], "transfers in opposite directions deadlocked"
    assert out["results"] == ["ok"] * 6
    assert out["data"] == {"alice": 790, "bob": 1210}


def test_ring_of_transfers_does_not_deadlock():
    out = drive(
        """
        names = ["n0", "n1", "n2", "n3"]
        store = SlowStore({n: 500 for n in names})
        bank = Bank(store)
        jobs = [lambda i=i: bank.transfer(names[i], names[(i + 1) % 4], 10 * (i + 1)) for i in range(4)]
        results, dead = run_all(jobs, timeout=10)
        OUT["dead"] = dead
        OUT["results"] = [r and r[0] for r in results]
        OUT["data"] = store.data
        """
    )
    assert not out["dead"], "a cycle of transfers deadlocked"
    assert out["results"] == ["ok"] * 4
    assert out["data"] == {"n0": 500 - 10 + 40, "n1": 500 - 20 + 10, "n2": 500 - 30 + 20, "n3": 500 - 40 + 30}


def test_transfers_on_disjoint_accounts_run_in_parallel():
    out = drive(
        """
        pairs = [(f"a{i}", f"b{i}") for i in range(20)]
        balances = {}
        for a, b in pairs:
            balances[a] = 1000
            balances[b] = 1000
        store = SlowStore(balances, get_delay=0.1, set_delay=0.1)
        bank = Bank(store)
        jobs = []
        for a, b in pairs:
            jobs.append(lambda a=a, b=b: bank.transfer(a, b, 300))
            jobs.append(lambda a=a, b=b: bank.transfer(b, a, 100))
        start = time.monotonic()
        results, dead = run_all(jobs, timeout=15)
        OUT["seconds"] = time.monotonic() - start
        OUT["dead"] = dead
        OUT["results"] = [r and r[0] for r in results]
        OUT["data"] = store.data
        """
    )
    assert not out["dead"], "transfers deadlocked"
    assert out["results"] == ["ok"] * 40
    assert all(out["data"][f"a{i}"] == 800 and out["data"][f"b{i}"] == 1200 for i in range(20))
    # One pair alone needs ~0.8 s of store time; fully serialised, all 40 transfers need ~16 s.
    assert out["seconds"] < 4.0, f"40 transfers on 20 disjoint pairs took {out['seconds']:.1f} s"


def test_audit_never_sees_a_half_done_transfer():
    out = drive(
        """
        names = [f"acc{i}" for i in range(8)]
        store = SlowStore({n: 5000 for n in names})
        bank = Bank(store)
        totals = []
        done = threading.Event()

        def mover():
            try:
                for k in range(10):
                    bank.transfer("acc0", "acc7", 2 ** k)
            finally:
                done.set()

        def auditor():
            while not done.is_set():
                totals.append(bank.audit())
                time.sleep(0.01)
            return len(totals)

        results, dead = run_all([mover, auditor], timeout=30)
        OUT["dead"] = dead
        OUT["results"] = [r and r[0] for r in results]
        OUT["totals"] = totals
        OUT["data"] = store.data
        """
    )
    assert not out["dead"], "audit and transfers deadlocked"
    assert out["results"] == ["ok", "ok"]
    assert out["totals"], "no audit completed"
    assert set(out["totals"]) == {40000}, f"audit totals seen: {sorted(set(out['totals']))}"
    assert out["data"]["acc0"] == 5000 - 1023 and out["data"]["acc7"] == 5000 + 1023


def test_transfer_to_same_account_is_rejected_promptly():
    out = drive(
        """
        store = SlowStore({"solo": 300, "other": 5}, get_delay=0.01, set_delay=0.01)
        bank = Bank(store)
        results, dead = run_all([lambda: bank.transfer("solo", "solo", 50)], timeout=5)
        OUT["dead"] = dead
        OUT["result"] = results[0]
        if not dead:
            results2, dead2 = run_all([lambda: bank.transfer("solo", "other", 50)], timeout=5)
            OUT["dead"] = dead2
            OUT["after"] = results2[0]
        OUT["data"] = store.data
        """
    )
    assert not out["dead"], "a transfer to the same account hung"
    assert out["result"][0] == "ValueError", out["result"]
    assert out["after"][0] == "ok"
    assert out["data"] == {"solo": 250, "other": 55}


def test_failed_operations_change_nothing():
    out = drive(
        """
        store = SlowStore({"a": 100, "b": 20}, get_delay=0.0, set_delay=0.0)
        bank = Bank(store)
        outcomes = []
        def attempt(fn, *args):
            try:
                fn(*args)
                outcomes.append("ok")
            except InsufficientFunds:
                outcomes.append("InsufficientFunds")
            except Exception as exc:
                outcomes.append(type(exc).__name__)
            outcomes.append(dict(store.data))
        attempt(bank.transfer, "a", "nobody", 30)
        attempt(bank.transfer, "nobody", "a", 30)
        attempt(bank.transfer, "b", "a", 21)
        attempt(bank.withdraw, "b", 21)
        attempt(bank.deposit, "ghost", 5)
        attempt(bank.withdraw, "ghost", 5)
        for bad in (0, -5, 2.5, "10", True):
            attempt(bank.transfer, "a", "b", bad)
            attempt(bank.deposit, "a", bad)
            attempt(bank.withdraw, "a", bad)
        attempt(bank.transfer, "a", "b", 100)
        attempt(bank.withdraw, "b", 120)
        OUT["outcomes"] = outcomes
        OUT["audit"] = bank.audit()
        OUT["balance"] = bank.balance("a")
        """,
        timeout=60,
    )
    o = out["outcomes"]
    kinds, states = o[0::2], o[1::2]
    unchanged = {"a": 100, "b": 20}
    assert kinds[:6] == ["KeyError", "KeyError", "InsufficientFunds", "InsufficientFunds", "KeyError", "KeyError"], kinds[:6]
    assert states[:6] == [unchanged] * 6, "a failed operation changed balances"
    assert kinds[6:21] == ["ValueError"] * 15, kinds[6:21]
    assert states[6:21] == [unchanged] * 15
    assert kinds[21:] == ["ok", "ok"]
    assert states[22] == {"a": 0, "b": 0}
    assert out["audit"] == 0 and out["balance"] == 0


def test_mixed_workload_keeps_books_balanced():
    out = drive(
        """
        names = [f"c{i}" for i in range(6)]
        store = SlowStore({n: 10000 for n in names}, get_delay=0.03, set_delay=0.03)
        bank = Bank(store)
        # Phase A: deposits and withdrawals racing on one account.
        jobs = [lambda: bank.deposit("c0", 100) for _ in range(3)]
        jobs += [lambda: bank.withdraw("c0", 50) for _ in range(3)]
        resA, deadA = run_all(jobs)
        OUT["phaseA"] = {"dead": deadA, "results": [r and r[0] for r in resA], "c0": store.data["c0"]}
        # Phase B: opposite transfer pairs first, then seeded random traffic, with audits.
        plan = []
        for t in range(8):
            rng = random.Random(1000 + t)
            ops = [(names[t % 3], names[3 + t % 3], 7 + t)] if t % 2 == 0 else [(names[3 + t % 3], names[t % 3], 5 + t)]
            for _ in range(6):
                src, dst = rng.sample(names, 2)
                ops.append((src, dst, rng.randint(1, 90)))
            plan.append(ops)
        expected = {n: store.data[n] for n in names}
        for ops in plan:
            for src, dst, amt in ops:
                expected[src] -= amt
                expected[dst] += amt
        audits = []
        def worker(ops):
            for src, dst, amt in ops:
                bank.transfer(src, dst, amt)
        def auditor():
            for _ in range(4):
                audits.append(bank.audit())
        jobs = [lambda ops=ops: worker(ops) for ops in plan] + [auditor]
        resB, deadB = run_all(jobs, timeout=20)
        OUT["phaseB"] = {"dead": deadB, "results": [r and r[0] for r in resB], "data": store.data,
                         "expected": expected, "audits": audits}
        """
    )
    a, b = out["phaseA"], out["phaseB"]
    assert not a["dead"] and a["results"] == ["ok"] * 6
    assert a["c0"] == 10000 + 300 - 150, f"phase A: c0 = {a['c0']}"
    assert not b["dead"], "phase B deadlocked"
    assert b["results"] == ["ok"] * 9
    assert b["data"] == b["expected"]
    assert set(b["audits"]) == {60150}, b["audits"]
