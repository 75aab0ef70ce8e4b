#!/bin/bash
# Plausible partial attempt: parses every format, but keeps each timestamp's local
# wall-clock time instead of converting it to UTC, and for chained Python tracebacks
# reports the first exception instead of the one raised last.
set -euo pipefail
cat > /app/incident_report.py <<'PY'
#!/usr/bin/env python3
"""Incident report from rotated nginx, api (Python), worker (JSON) and billing (Java) logs."""
import datetime as dt
import gzip
import json
import math
import os
import re
import sys

UTC = dt.timezone.utc
SERVICES = {"nginx": ("web", "access.log"), "api": ("api", "api.log"),
            "worker": ("worker", "worker.log"), "billing": ("billing", "billing.log")}
ERROR_LEVELS = {"ERROR", "CRITICAL", "FATAL"}
MONTHS = {m: i for i, m in enumerate(["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"], 1)}

ACCESS_RE = re.compile(
    r'^\S+ \S+ \S+ \[(\d{2})/([A-Z][a-z]{2})/(\d{4}):(\d{2}):(\d{2}):(\d{2}) ([+-])(\d{2})(\d{2})\] '
    r'"([A-Z]+) (\S+) HTTP/[\d.]+" (\d{3}) \S+ "[^"]*" "[^"]*" rt=(\d+)\.(\d{3})\s*$')
API_RE = re.compile(r"^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2}),(\d{3}) ([+-])(\d{2})(\d{2}) ([A-Z]+)\b")
JAVA_RE = re.compile(r"^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})\.(\d{3})(Z|[+-]\d{2}:\d{2}) ([A-Z]+)\b")


def log_files(directory, base):
    if not os.path.isdir(directory):
        return []
    pattern = re.compile(rf"^{re.escape(base)}(\.\d+)?(\.gz)?$")
    out = []
    for name in sorted(os.listdir(directory)):
        m = pattern.match(name)
        if m and (m.group(2) is None or m.group(1) is not None) and os.path.isfile(os.path.join(directory, name)):
            out.append(os.path.join(directory, name))
    return out


def read_lines(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8", errors="replace") as fh:
        return fh.read().splitlines()


def make_ts(y, mo, d, h, mi, s, ms, offset_minutes):
    return dt.datetime(int(y), int(mo), int(d), int(h), int(mi), int(s), int(ms) * 1000, tzinfo=UTC)


def offset(sign, hh, mm):
    minutes = int(hh) * 60 + int(mm)
    return -minutes if sign == "-" else minutes


def python_exc_type(lines):
    for line in lines:
        if line.strip() and not line.startswith((" ", "Traceback")):
            return line.split(":", 1)[0].strip()
    return None


def endpoint(method, target):
    path = target.split("?", 1)[0]
    segments = ["{id}" if s.isdigit() else s for s in path.split("/")]
    return f"{method} {'/'.join(segments)}"


class Collector:
    def __init__(self):
        self.errors = {s: {} for s in ("web", "api", "worker", "billing")}
        self.failures, self.latencies, self.exceptions = {}, {}, {}

    def error(self, service, ts):
        key = ts.strftime("%Y-%m-%dT%H:00:00Z")
        self.errors[service][key] = self.errors[service].get(key, 0) + 1

    def event(self, service, ts, level, exc_type):
        if level.upper() in ERROR_LEVELS:
            self.error(service, ts)
        if exc_type:
            cur = self.exceptions.setdefault(exc_type, {"count": 0, "first": ts, "last": ts, "services": set()})
            cur["count"] += 1
            cur["first"], cur["last"] = min(cur["first"], ts), max(cur["last"], ts)
            cur["services"].add(service)


def parse_access(lines, c):
    for line in lines:
        m = ACCESS_RE.match(line)
        if not m:
            continue
        d, mon, y, h, mi, s, sign, oh, om, method, target, status, sec, ms = m.groups()
        if mon not in MONTHS:
            continue
        ts = make_ts(y, MONTHS[mon], d, h, mi, s, 0, offset(sign, oh, om))
        ep = endpoint(method, target)
        c.latencies.setdefault(ep, []).append(int(sec) * 1000 + int(ms))
        if int(status) >= 500:
            c.failures[ep] = c.failures.get(ep, 0) + 1
            c.error("web", ts)


def group_events(lines, head_re):
    events, current = [], None
    for line in lines:
        m = head_re.match(line)
        if m:
            current = (m, [])
            events.append(current)
        elif current is not None:
            current[1].append(line)
    return events


def parse_api(lines, c):
    for m, cont in group_events(lines, API_RE):
        y, mo, d, h, mi, s, ms, sign, oh, om, level = m.groups()
        ts = make_ts(y, mo, d, h, mi, s, ms, offset(sign, oh, om))
        exc = python_exc_type(cont) if "Traceback (most recent call last):" in cont else None
        c.event("api", ts, level, exc)


def parse_worker(lines, c):
    for line in lines:
        try:
            rec = json.loads(line)
        except ValueError:
            continue
        if not isinstance(rec, dict) or not isinstance(rec.get("ts"), str):
            continue
        try:
            ts = dt.datetime.fromisoformat(rec["ts"].replace("Z", "+00:00")).replace(tzinfo=UTC)
        except ValueError:
            continue
        exc_info = rec.get("exc_info")
        exc = python_exc_type(exc_info.split("\n")) if isinstance(exc_info, str) and exc_info.strip() else None
        c.event("worker", ts, str(rec.get("level", "")), exc)


def parse_billing(lines, c):
    for m, cont in group_events(lines, JAVA_RE):
        y, mo, d, h, mi, s, ms, zone, level = m.groups()
        minutes = 0 if zone == "Z" else offset(zone[0], zone[1:3], zone[4:6])
        ts = make_ts(y, mo, d, h, mi, s, ms, minutes)
        trace = [l for l in cont if l.strip()]
        exc = trace[0].split(":", 1)[0].strip() if trace else None
        c.event("billing", ts, level, exc)


PARSERS = {"web": parse_access, "api": parse_api, "worker": parse_worker, "billing": parse_billing}


def build(log_dir):
    c = Collector()
    for dirname, (service, base) in SERVICES.items():
        for path in log_files(os.path.join(log_dir, dirname), base):
            PARSERS[service](read_lines(path), c)
    iso = lambda ts: ts.strftime("%Y-%m-%dT%H:%M:%SZ")
    p95 = {}
    for ep, values in c.latencies.items():
        values.sort()
        p95[ep] = values[math.ceil(0.95 * len(values)) - 1]
    top = sorted(c.failures.items(), key=lambda kv: (-kv[1], kv[0]))[:5]
    return {
        "errors_per_hour": {s: dict(sorted(v.items())) for s, v in c.errors.items()},
        "top_failing_endpoints": [{"endpoint": ep, "failures": n} for ep, n in top],
        "p95_latency_ms": dict(sorted(p95.items())),
        "exceptions": {name: {"count": v["count"], "first_seen": iso(v["first"]), "last_seen": iso(v["last"]),
                              "services": sorted(v["services"])} for name, v in sorted(c.exceptions.items())},
    }


def main(argv):
    if len(argv) != 3:
        print("usage: incident_report.py LOG_DIR OUT_JSON", file=sys.stderr)
        return 2
    report = build(argv[1])
    with open(argv[2], "w", encoding="utf-8") as fh:
        json.dump(report, fh, indent=2)
        fh.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
PY
python3 /app/incident_report.py /app/logs /app/incident.json
