#!/bin/bash
# Reference solution: exact arithmetic with fractions, rounding only at the end.
set -euo pipefail
cat > /app/integrate.py <<'PY'
#!/usr/bin/env python3
"""Trapezoid-rule energy report: integrate.py INPUT.csv OUTPUT.json"""
import csv
import json
import re
import sys
from datetime import datetime, timezone
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction

TS = re.compile(r"(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(Z|[+-]\d{2}:\d{2})")
NUM = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)")
EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)
GAP_SECONDS = 900


def parse_instant(text):
    m = TS.fullmatch(text.strip())
    if not m:
        raise ValueError(f"bad timestamp {text!r}")
    y, mo, d, hh, mi, ss, frac, off = m.groups()
    whole = datetime(int(y), int(mo), int(d), int(hh), int(mi), int(ss), tzinfo=timezone.utc)
    seconds = Fraction(int((whole - EPOCH).total_seconds()))
    if frac:
        seconds += Fraction(int(frac), 10 ** len(frac))
    if off != "Z":
        sign = 1 if off[0] == "+" else -1
        seconds -= sign * (int(off[1:3]) * 3600 + int(off[4:6]) * 60)
    return seconds


def parse_kw(text):
    text = (text or "").strip()
    return Fraction(text) if NUM.fullmatch(text) else None


def rounded(value, places):
    if value is None:
        return None
    q = Decimal(value.numerator) / Decimal(value.denominator)
    return float(q.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP))


def build_report(path):
    sensors = {}
    with open(path, newline="", encoding="utf-8") as fh:
        for row in csv.DictReader(fh):
            name = (row.get("sensor") or "").strip()
            s = sensors.setdefault(name, {"invalid": 0, "readings": {}})
            kw = parse_kw(row.get("kw"))
            if kw is None:
                s["invalid"] += 1
                continue
            s["readings"].setdefault(parse_instant(row["timestamp"]), []).append(kw)
    report, total = {}, Fraction(0)
    for name, s in sensors.items():
        samples = sorted((t, sum(v) / len(v)) for t, v in s["readings"].items())
        energy, covered, gaps = Fraction(0), Fraction(0), 0
        for (t1, p1), (t2, p2) in zip(samples, samples[1:]):
            dt = t2 - t1
            if dt > GAP_SECONDS:
                gaps += 1
                continue
            energy += (p1 + p2) / 2 * dt / 3600
            covered += dt
        total += energy
        hours = covered / 3600
        report[name] = {
            "samples": len(samples),
            "invalid_rows": s["invalid"],
            "gaps": gaps,
            "covered_hours": rounded(hours, 4),
            "energy_kwh": rounded(energy, 3),
            "mean_kw": rounded(energy / hours, 3) if hours else None,
            "peak_kw": rounded(max(p for _, p in samples), 3) if samples else None,
        }
    return {"sensors": report, "total_energy_kwh": rounded(total, 3)}


def main(argv):
    if len(argv) != 3:
        print("usage: integrate.py INPUT.csv OUTPUT.json", file=sys.stderr)
        return 2
    report = build_report(argv[1])
    with open(argv[2], "w", encoding="utf-8") as fh:
        json.dump(report, fh, indent=2)
        fh.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
PY
python3 /app/integrate.py /app/data/power_readings.csv /app/report.json
