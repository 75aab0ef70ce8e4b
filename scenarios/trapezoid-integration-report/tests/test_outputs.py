"""Hidden tests for the trapezoid-integration-report scenario.

Expected reports are computed with exact fractions from the semantic
description of the readings (readings_gen.expected), never by parsing the
CSV. The agent's /app/integrate.py runs in a subprocess on hidden files.
"""
import json
import math
import os
import sys
import tempfile
from fractions import Fraction

sys.path.insert(0, os.path.dirname(__file__))
import readings_gen as g  # noqa: E402
import trl_agent_run as agent_run

REPORT = "/app/report.json"
TOOL = "/app/integrate.py"
DATA = "/app/data/power_readings.csv"
TIMEOUT = 60
PLACES = {"covered_hours": 4, "energy_kwh": 3, "mean_kw": 3, "peak_kw": 3}
FIELDS = ["samples", "invalid_rows", "gaps", "covered_hours", "energy_kwh", "mean_kw", "peak_kw"]


def is_number(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


def is_rounded(v, places):
    scaled = v * 10**places
    return abs(scaled - round(scaled)) < 1e-6


def field_errors(sensor, got, exp):
    errors = []
    if not isinstance(got, dict):
        return [f"{sensor}: entry missing or not an object"]
    if set(got) != set(FIELDS):
        errors.append(f"{sensor}: keys {sorted(got)}")
    for key in FIELDS:
        g_val, e_val = got.get(key), exp[key]
        if key in PLACES:
            places = PLACES[key]
            if e_val is None:
                if g_val is not None:
                    errors.append(f"{sensor}.{key}: got {g_val!r}, expected null")
            elif not is_number(g_val) or abs(Fraction(g_val) - e_val) > Fraction(1, 2 * 10**places) + Fraction(1, 10**9):
                errors.append(f"{sensor}.{key}: got {g_val!r}, expected {float(e_val):.{places + 3}f}")
        elif not (isinstance(g_val, int) and not isinstance(g_val, bool) and g_val == e_val):
            errors.append(f"{sensor}.{key}: got {g_val!r}, expected {e_val!r}")
    return errors


def compare(report, exp, fields=None):
    assert isinstance(report, dict) and isinstance(report.get("sensors"), dict), "report.sensors missing"
    assert set(report["sensors"]) == set(exp["sensors"]), \
        f"sensors {sorted(report['sensors'])}, expected {sorted(exp['sensors'])}"
    errors = []
    for name, e in exp["sensors"].items():
        errs = field_errors(name, report["sensors"][name], e)
        if fields is not None:
            errs = [x for x in errs if any(f".{f}:" in x for f in fields)]
        errors += errs
    assert not errors, "\n".join(errors[:12])


def run_tool(csv_text):
    assert os.path.isfile(TOOL), f"{TOOL} is missing"
    tmp = tempfile.mkdtemp(prefix="trap-test-")
    src, dst = os.path.join(tmp, "in.csv"), os.path.join(tmp, "out.json")
    with open(src, "w", encoding="utf-8", newline="") as fh:
        fh.write(csv_text)
    res = agent_run.run([sys.executable, TOOL, src, dst], capture_output=True, text=True, timeout=TIMEOUT)
    assert res.returncode == 0, f"integrate.py failed: {res.stderr[-2000:]}"
    with open(dst, encoding="utf-8") as fh:
        return json.load(fh)


def csv_of(rows):
    """rows: (sensor, ms, offset minutes or None for Z, kw text, fraction digits)."""
    lines = ["sensor,timestamp,kw"]
    for sensor, ms, off, kw, digits in rows:
        lines.append(f"{sensor},{g.fmt_time(ms, off, digits)},{kw}")
    return "\n".join(lines) + "\n"


def readings_of(rows):
    out = []
    for sensor, ms, _, kw, _ in rows:
        text = kw.strip().strip('"')
        try:
            ok = text not in ("", "NaN", "nan", "inf", "-inf") and math.isfinite(float(text))
        except ValueError:
            ok = False
        out.append(g.Reading(sensor.strip(), ms, Fraction(text)) if ok else g.Reading(sensor.strip(), ms, bad=kw))
    return out


def load_shipped():
    assert os.path.isfile(REPORT), f"{REPORT} is missing"
    with open(REPORT, encoding="utf-8") as fh:
        return json.load(fh)


SHIPPED = g.expected(g.shipped_readings())


def test_shipped_report_lists_every_sensor_and_total():
    with open(DATA, encoding="utf-8") as fh:
        assert fh.read() == g.shipped_csv(), "shipped data differs from its description"
    report = load_shipped()
    assert set(report) == {"sensors", "total_energy_kwh"}
    assert set(report["sensors"]) == {"inverter-A", "inverter-B", "heat-pump", "lab-meter", "spare-meter"}
    total = report["total_energy_kwh"]
    assert is_number(total) and abs(Fraction(total) - SHIPPED["total_energy_kwh"]) <= Fraction(1, 2000) + Fraction(1, 10**9)


def test_shipped_energy_per_sensor():
    compare(load_shipped(), SHIPPED, fields=["energy_kwh"])


def test_shipped_sample_invalid_and_gap_counts():
    compare(load_shipped(), SHIPPED, fields=["samples", "invalid_rows", "gaps"])


def test_shipped_coverage_mean_and_peak_with_nulls():
    compare(load_shipped(), SHIPPED, fields=["covered_hours", "mean_kw", "peak_kw"])
    report = load_shipped()["sensors"]
    assert report["lab-meter"]["mean_kw"] is None and report["lab-meter"]["peak_kw"] == 3.125
    assert report["spare-meter"]["peak_kw"] is None


def test_utc_offsets_are_normalised_before_sorting():
    rows = [
        ("tz", 0, 120, "10", 0),
        ("tz", 300_000, -300, "20", 0),
        ("tz", 600_000, None, "30", 1),
        ("tz", 900_000, 330, "10", 3),
        ("tz2", 3_600_000 * 23 + 59 * 60_000, -600, "4", 0),
        ("tz2", 3_600_000 * 24 + 60_000, 840, "8", 0),
    ]
    exp = g.expected(readings_of(rows))
    assert exp["sensors"]["tz"]["energy_kwh"] == 5
    compare(run_tool(csv_of(rows)), exp)


def test_readings_at_the_same_instant_are_averaged():
    rows = [
        ("dup", 0, None, "4", 0),
        ("dup", 0, 60, "6", 0),
        ("dup", 600_000, 0, "1", 0),
        ("dup", 600_000, -90, "3", 2),
        ("dup", 600_000, None, "NaN", 0),
        ("dup", 1_200_000, None, "2", 0),
        ("dup", 1_200_000, 545, " 2.000 ", 0),
    ]
    exp = g.expected(readings_of(rows))
    assert exp["sensors"]["dup"]["samples"] == 3
    compare(run_tool(csv_of(rows)), exp)


def test_intervals_over_900_seconds_are_gaps():
    rows = [
        ("gap", 0, None, "1", 0),
        ("gap", 900_000, None, "1", 3),
        ("gap", 1_800_001, None, "1", 3),
        ("gap", 1_801_001, 0, "3", 3),
        ("gap", 5_401_001, 0, "3", 3),
        ("gap", 5_402_001, 0, "-1.5", 3),
        ("steady", 0, None, "2.5", 0),
        ("steady", 900_000, None, "2.5", 0),
        ("steady", 1_800_000, None, "2.5", 0),
    ]
    exp = g.expected(readings_of(rows))
    assert exp["sensors"]["gap"]["gaps"] == 2
    compare(run_tool(csv_of(rows)), exp)


def test_invalid_values_are_counted_and_sensor_names_trimmed():
    rows = [("bad", 1000 * (i + 1), None, f'"{v}"' if "," in v else v, 0) for i, v in enumerate(g.INVALID)]
    rows += [
        (" bad ", 60_000, None, "2.5", 0),
        ("bad", 120_000, 60, "-0.5", 0),
        ("Bad", 60_000, None, "1", 0),
        ("allbad", 60_000, None, "n/a", 0),
        ("allbad", 120_000, None, "", 0),
        ("one", 0, None, "+7.25", 0),
        ("one", 30_000, None, ".", 0),
    ]
    exp = g.expected(readings_of(rows))
    assert exp["sensors"]["bad"]["invalid_rows"] == len(g.INVALID)
    compare(run_tool(csv_of(rows)), exp)


def test_hidden_export_matches_exactly():
    import random
    rng = random.Random(4242)
    readings = []
    readings += g.sensor_series(rng, "roof-east", 7 * 3_600_000 + 123, 400, base=3.0, amp=5.0,
                                gaps=(950_000, 2_000_000, 7_200_000), exact_900=True, dups=5, invalid=6)
    readings += g.sensor_series(rng, "battery", 0, 350, step=(1_000, 300_000), base=-0.2, amp=6.0,
                                noise=1.0, gaps=(901_000,), dups=4, invalid=2)
    readings += g.sensor_series(rng, "fridge", 3_600_000, 200, step=(30_000, 90_000), base=0.12, amp=0.05,
                                noise=0.02, dups=1, invalid=0, frac_ms=False)
    rng.shuffle(readings)
    report = run_tool(g.render(readings, seed=5))
    exp = g.expected(readings)
    compare(report, exp)
    assert abs(Fraction(report["total_energy_kwh"]) - exp["total_energy_kwh"]) <= Fraction(1, 2000) + Fraction(1, 10**9)


def test_numbers_are_rounded_as_specified():
    reports = [load_shipped()]
    import random
    rng = random.Random(7)
    readings = g.sensor_series(rng, "r", 0, 120, gaps=(1_000_000,), dups=2, invalid=1)
    reports.append(run_tool(g.render(readings, seed=9)))
    for report in reports:
        for name, entry in report["sensors"].items():
            for key, places in PLACES.items():
                v = entry.get(key)
                if v is not None:
                    assert is_number(v) and is_rounded(v, places), f"{name}.{key}={v!r} not rounded to {places} places"
        assert is_rounded(report["total_energy_kwh"], 3)
