"""Deterministic log generator for the log-incident-summary scenario.

It first draws a list of ground-truth events (UTC datetimes, levels, exception
types, requests), then renders them into the four log formats with the given
timezone offsets, rotation and compression, adding noise lines that must be
ignored. `expected_report` computes the report from the ground truth only; it
never parses the rendered files.
"""
import datetime as dt
import gzip
import json
import math
import os
import random

UTC = dt.timezone.utc

PY_EXC = [
    ("KeyError", "'currency'"),
    ("ValueError", "invalid literal for int() with base 10: 'abc'"),
    ("orders.errors.OrderNotFound", "order 4411 does not exist"),
    ("psycopg2.OperationalError", "server closed the connection unexpectedly"),
    ("TimeoutError", ""),
    ("smtplib.SMTPServerDisconnected", "Connection unexpectedly closed"),
    ("redis.exceptions.ConnectionError", "Error 111 connecting to cache:6379. Connection refused."),
]
JAVA_EXC = [
    ("com.acme.billing.CardDeclinedException", "Card declined: insufficient funds"),
    ("java.net.SocketTimeoutException", "Read timed out"),
    ("java.lang.IllegalStateException", ""),
    ("org.postgresql.util.PSQLException", "ERROR: deadlock detected"),
    ("com.acme.billing.LedgerMismatchException", "ledger 2024-03 off by 0.01"),
]
CAUSES = [("java.io.IOException", "Broken pipe"), ("java.net.SocketTimeoutException", "connect timed out")]


class Event:
    def __init__(self, service, ts, level, message, exc=None, chain=None, cause=None, extra_lines=None):
        self.service = service
        self.ts = ts          # aware datetime, UTC
        self.level = level    # canonical: DEBUG INFO WARNING ERROR CRITICAL
        self.message = message
        self.exc = exc        # (type, message) or None
        self.chain = chain    # earlier exception in a python chain
        self.cause = cause    # java "Caused by"
        self.extra_lines = extra_lines or []


class Request:
    def __init__(self, ts, method, template, path, status, rt_ms):
        self.ts = ts
        self.method = method
        self.template = template
        self.path = path
        self.status = status
        self.rt_ms = rt_ms


def _ts(rng, start, hours):
    return start + dt.timedelta(milliseconds=rng.randrange(hours * 3600 * 1000))


def generate(seed, start, hours, n_requests, n_app, endpoints):
    """endpoints: list of (method, template, p_fail) where template uses {id} for numeric ids."""
    rng = random.Random(seed)
    requests = []
    for _ in range(n_requests):
        method, template, p_fail = rng.choice(endpoints)
        path = template
        while "{id}" in path:
            path = path.replace("{id}", str(rng.randrange(1, 99999)), 1)
        if rng.random() < 0.3:
            path += "?" + rng.choice(["expand=items", "page=2&size=50", "q=canvas+bag", "ref=mail"])
        r = rng.random()
        status = rng.choice([500, 502, 503, 504]) if r < p_fail else rng.choice([200, 200, 200, 201, 204, 301, 304, 404, 400])
        rt_ms = rng.randrange(1, 2500) if status < 500 else rng.randrange(100, 30000)
        requests.append(Request(_ts(rng, start, hours), method, template, path, status, rt_ms))
    requests.sort(key=lambda q: q.ts)

    events = []
    for service in ("api", "worker", "billing"):
        for _ in range(n_app):
            ts = _ts(rng, start, hours)
            r = rng.random()
            if r < 0.55:
                events.append(Event(service, ts, rng.choice(["INFO", "INFO", "DEBUG"]), rng.choice(
                    ["request served", "job finished in 2.4s", "cache warmed: 1200 keys", "heartbeat ok"])))
                continue
            pool = JAVA_EXC if service == "billing" else PY_EXC
            if r < 0.63:
                events.append(Event(service, ts, "WARNING", "retrying after transient failure", exc=rng.choice(pool)))
            elif r < 0.70:
                events.append(Event(service, ts, "WARNING", "slow query: 2.1s"))
            elif r < 0.78:
                events.append(Event(service, ts, "ERROR", "request rejected: upstream said no"))
            else:
                level = "CRITICAL" if rng.random() < 0.15 else "ERROR"
                exc = rng.choice(pool)
                chain = cause = None
                if service != "billing" and rng.random() < 0.3:
                    chain = rng.choice([e for e in PY_EXC if e != exc])
                if service == "billing" and rng.random() < 0.5:
                    cause = rng.choice(CAUSES)
                events.append(Event(service, ts, level, "unhandled error while processing", exc=exc, chain=chain,
                                    cause=cause))
        if service == "api":
            # a multi-line message without any stack trace
            ts = _ts(rng, start, hours)
            events.append(Event("api", ts, "ERROR", "payload rejected:",
                                extra_lines=["{", '  "sku": "NW-0001",', '  "qty": -1', "}"]))
    events.sort(key=lambda e: e.ts)
    return requests, events


# ---------------------------------------------------------------------------
# Rendering
# ---------------------------------------------------------------------------

MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]


def _offset_str(minutes, colon):
    sign = "+" if minutes >= 0 else "-"
    h, m = divmod(abs(minutes), 60)
    return f"{sign}{h:02d}:{m:02d}" if colon else f"{sign}{h:02d}{m:02d}"


def _local(ts, minutes):
    return ts.astimezone(dt.timezone(dt.timedelta(minutes=minutes)))


def python_traceback(exc, chain=None):
    lines = []

    def block(e, frames):
        lines.append("Traceback (most recent call last):")
        for f, n, fn in frames:
            lines.append(f'  File "/srv/app/{f}", line {n}, in {fn}')
            lines.append("    result = handler(request)")
        lines.append(f"{e[0]}: {e[1]}" if e[1] else e[0])

    if chain:
        block(chain, [("views.py", 88, "get"), ("repo.py", 31, "load")])
        lines.append("")
        lines.append("During handling of the above exception, another exception occurred:")
        lines.append("")
    block(exc, [("worker.py", 12, "run"), ("tasks.py", 140, "process")])
    return lines


def java_trace(exc, cause=None):
    lines = [f"{exc[0]}: {exc[1]}" if exc[1] else exc[0],
             "\tat com.acme.billing.PaymentService.charge(PaymentService.java:142)",
             "\tat com.acme.billing.api.ChargeController.post(ChargeController.java:57)"]
    if cause:
        lines.append(f"Caused by: {cause[0]}: {cause[1]}")
        lines.append("\tat java.base/java.net.SocketInputStream.read(SocketInputStream.java:168)")
        lines.append("\t... 12 more")
    return lines


def render_access(q, minutes):
    t = _local(q.ts, minutes)
    stamp = f"{t.day:02d}/{MONTHS[t.month - 1]}/{t.year}:{t:%H:%M:%S} {_offset_str(minutes, False)}"
    size = 0 if q.status in (204, 304) else 157 + q.rt_ms % 5000
    return (f'10.0.{q.rt_ms % 250}.{q.rt_ms % 200 + 1} - - [{stamp}] "{q.method} {q.path} HTTP/1.1" {q.status} {size} '
            f'"-" "Mozilla/5.0 (X11; Linux x86_64)" rt={q.rt_ms // 1000}.{q.rt_ms % 1000:03d}')


PY_LEVEL = {"DEBUG": "DEBUG", "INFO": "INFO", "WARNING": "WARNING", "ERROR": "ERROR", "CRITICAL": "CRITICAL"}
JAVA_LEVEL = {"DEBUG": "DEBUG", "INFO": "INFO", "WARNING": "WARN", "ERROR": "ERROR", "CRITICAL": "FATAL"}


def render_api(e, minutes):
    t = _local(e.ts, minutes)
    head = f"{t:%Y-%m-%d %H:%M:%S},{t.microsecond // 1000:03d} {_offset_str(minutes, False)} {PY_LEVEL[e.level]} [api] orders.views: {e.message}"
    lines = [head] + e.extra_lines
    if e.exc:
        lines += python_traceback(e.exc, e.chain)
    return lines


def render_worker(e, minutes):
    t = _local(e.ts, minutes)
    stamp = f"{t:%Y-%m-%dT%H:%M:%S}.{t.microsecond // 1000:03d}{_offset_str(minutes, True)}"
    rec = {"ts": stamp, "level": e.level.lower(), "logger": "jobs.runner", "msg": e.message}
    if e.exc:
        rec["exc_info"] = "\n".join(python_traceback(e.exc, e.chain))
    return [json.dumps(rec)]


def render_billing(e, minutes):
    t = _local(e.ts, minutes)
    zone = "Z" if minutes == 0 else _offset_str(minutes, True)
    head = f"{t:%Y-%m-%dT%H:%M:%S}.{t.microsecond // 1000:03d}{zone} {JAVA_LEVEL[e.level]} [http-nio-8443-exec-7] c.a.b.PaymentService - {e.message}"
    lines = [head]
    if e.exc:
        lines += java_trace(e.exc, e.cause)
    return lines


def _split(items, n_files):
    """Oldest items go to the highest-numbered file."""
    size = math.ceil(len(items) / n_files) if items else 0
    chunks = [items[i * size:(i + 1) * size] for i in range(n_files)]
    return list(reversed(chunks))  # chunk 0 = newest = current file


def _write(path, lines, compress):
    data = ("\n".join(lines) + ("\n" if lines else "")).encode("utf-8")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    if compress:
        with open(path, "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0, filename="") as fh:
            fh.write(data)
    else:
        with open(path, "wb") as fh:
            fh.write(data)


def write_logs(root, requests, events, layout, noise=True):
    """layout: {service: [(suffix, offset_minutes), ...]} newest first; suffix '' / '.1' / '.2.gz'."""
    renderers = {"api": render_api, "worker": render_worker, "billing": render_billing}
    for service, files in layout.items():
        if service == "web":
            items, dirname, base = requests, "nginx", "access.log"
        else:
            items = [e for e in events if e.service == service]
            dirname, base = service, f"{service}.log"
        for (suffix, minutes), chunk in zip(files, _split(items, len(files))):
            lines = []
            for item in chunk:
                if service == "web":
                    lines.append(render_access(item, minutes))
                else:
                    lines += renderers[service](item, minutes)
            if noise and suffix == "":
                if service == "web":
                    lines.insert(len(lines) // 2, '10.0.0.9 - - [14/Mar/2024:23:59:59 +0100] "-" 400 0 "-" "-" rt=0.000')
                    lines.insert(len(lines) // 3, '10.0.0.7 - - [14/Mar/2024:23:59:58 +0100] "\\x16\\x03\\x01\\x00" 400 157 "-" "-" rt=0.001')
                    lines.append('10.0.0.8 - - [15/Mar/2024:0')
                elif service == "worker":
                    lines.append('{"ts": "2024-03-15T01:00:00.000-04:00", "level": "error", "msg": "trunc')
                elif service == "api":
                    lines.insert(0, "--- log reopened after rotation ---")
            _write(os.path.join(root, dirname, base + suffix), lines, suffix.endswith(".gz"))


# ---------------------------------------------------------------------------
# Expected report from the ground truth
# ---------------------------------------------------------------------------

def _iso(ts):
    return ts.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _hour(ts):
    return ts.astimezone(UTC).strftime("%Y-%m-%dT%H:00:00Z")


def expected_report(requests, events, services=("web", "api", "worker", "billing")):
    errors = {s: {} for s in ("web", "api", "worker", "billing")}
    failures, latencies = {}, {}
    for q in requests:
        ep = f"{q.method} {q.template}"
        latencies.setdefault(ep, []).append(q.rt_ms)
        if q.status >= 500:
            failures[ep] = failures.get(ep, 0) + 1
            errors["web"][_hour(q.ts)] = errors["web"].get(_hour(q.ts), 0) + 1
    exceptions = {}
    for e in events:
        if e.service not in services:
            continue
        if e.level in ("ERROR", "CRITICAL"):
            errors[e.service][_hour(e.ts)] = errors[e.service].get(_hour(e.ts), 0) + 1
        if e.exc:
            name = e.exc[0]
            cur = exceptions.setdefault(name, {"count": 0, "first": e.ts, "last": e.ts, "services": set()})
            cur["count"] += 1
            cur["first"] = min(cur["first"], e.ts)
            cur["last"] = max(cur["last"], e.ts)
            cur["services"].add(e.service)
    p95 = {}
    for ep, values in latencies.items():
        values = sorted(values)
        p95[ep] = values[math.ceil(0.95 * len(values)) - 1]
    top = sorted(failures.items(), key=lambda kv: (-kv[1], kv[0]))[:5]
    return {
        "errors_per_hour": {s: dict(sorted(v.items())) for s, v in errors.items()},
        "top_failing_endpoints": [{"endpoint": ep, "failures": n} for ep, n in top],
        "p95_latency_ms": dict(sorted(p95.items())),
        "exceptions": {
            name: {"count": v["count"], "first_seen": _iso(v["first"]), "last_seen": _iso(v["last"]),
                   "services": sorted(v["services"])}
            for name, v in sorted(exceptions.items())
        },
    }
