"""Power-reading exports for the trapezoid-integration-report tests.

Readings are described semantically (sensor, instant in integer milliseconds
UTC, exact value or an invalid marker); `render` writes them as CSV with
varied time-zone offsets and number spellings, and `expected` computes the
report from the semantic description with exact fractions (no CSV parsing).
"""
import random
from datetime import datetime, timedelta, timezone
from fractions import Fraction

EPOCH = datetime(2024, 5, 1, 0, 0, 0, tzinfo=timezone.utc)
OFFSETS = [None, 0, 0, 120, -300, 330, 60, -90, 545]  # minutes; None means "Z"
INVALID = ["", "NaN", "nan", "N/A", "-", "inf", "-inf", "err", "12,5", "1.2.3", "  "]


class Reading:
    def __init__(self, sensor, ms, value=None, bad=None):
        self.sensor, self.ms, self.value, self.bad = sensor, ms, value, bad


def fmt_time(ms, offset, frac_digits):
    off = 0 if offset is None else offset
    local = EPOCH + timedelta(milliseconds=ms) + timedelta(minutes=off)
    text = local.strftime("%Y-%m-%dT%H:%M:%S")
    frac = ms % 1000
    if frac or frac_digits:
        digits = f"{frac:03d}"
        if frac_digits == 1 and digits.endswith("00"):
            digits = digits[:1]
        elif frac_digits == 2 and digits.endswith("0"):
            digits = digits[:2]
        text += "." + digits
    if offset is None:
        return text + "Z"
    sign = "+" if off >= 0 else "-"
    return f"{text}{sign}{abs(off) // 60:02d}:{abs(off) % 60:02d}"


def fmt_value(value, rng):
    text = f"{float(value):.3f}"
    style = rng.random()
    if style < 0.3:
        text = text.rstrip("0").rstrip(".") if "." in text else text
        if text in ("-0", ""):
            text = "0"
    if style > 0.85:
        text = f" {text} "
    return text


def render(readings, seed):
    rng = random.Random(seed)
    lines = ["sensor,timestamp,kw"]
    for r in readings:
        sensor = r.sensor if rng.random() < 0.9 else f" {r.sensor} "
        ts = fmt_time(r.ms, rng.choice(OFFSETS), rng.choice([0, 0, 1, 2, 3]))
        kw = r.bad if r.bad is not None else fmt_value(r.value, rng)
        if "," in kw:
            kw = f'"{kw}"'
        lines.append(f"{sensor},{ts},{kw}")
    return "\n".join(lines) + "\n"


def expected(readings):
    sensors = {}
    for r in readings:
        s = sensors.setdefault(r.sensor, {"invalid": 0, "vals": {}})
        if r.bad is not None:
            s["invalid"] += 1
        else:
            s["vals"].setdefault(r.ms, []).append(Fraction(r.value))
    report, total = {}, Fraction(0)
    for name, s in sensors.items():
        samples = sorted((ms, sum(v) / len(v)) for ms, v in s["vals"].items())
        energy, covered_ms, gaps = Fraction(0), 0, 0
        for (t1, p1), (t2, p2) in zip(samples, samples[1:]):
            if t2 - t1 > 900_000:
                gaps += 1
                continue
            energy += (p1 + p2) / 2 * Fraction(t2 - t1, 3_600_000)
            covered_ms += t2 - t1
        total += energy
        report[name] = {
            "samples": len(samples),
            "invalid_rows": s["invalid"],
            "gaps": gaps,
            "covered_hours": Fraction(covered_ms, 3_600_000),
            "energy_kwh": energy,
            "mean_kw": energy / Fraction(covered_ms, 3_600_000) if covered_ms else None,
            "peak_kw": max(p for _, p in samples) if samples else None,
        }
    return {"sensors": report, "total_energy_kwh": total}


def value_at(rng, base, amp, t_ms, noise):
    import math
    v = base + amp * math.sin(t_ms / 3_600_000 * math.pi / 6) + rng.uniform(-noise, noise)
    return Fraction(round(v * 1000), 1000)


def sensor_series(rng, name, start_ms, n, step=(20_000, 150_000), base=5.0, amp=3.0, noise=0.5,
                  gaps=(), exact_900=False, dups=0, invalid=0, frac_ms=True):
    out = []
    t = start_ms
    times = []
    gap_at = set(rng.sample(range(5, n - 5), len(gaps))) if gaps else set()
    exact_at = rng.randrange(5, n - 5) if exact_900 else None
    gap_iter = iter(gaps)
    for i in range(n):
        times.append(t)
        if i in gap_at:
            t += next(gap_iter)
        elif i == exact_at:
            t += 900_000
        else:
            t += rng.randint(*step) // (1 if frac_ms else 1000) * (1 if frac_ms else 1000)
    for t in times:
        out.append(Reading(name, t, value_at(rng, base, amp, t, noise)))
    for t in rng.sample(times, dups):
        out.append(Reading(name, t, value_at(rng, base, amp, t, noise * 4)))
    for _ in range(invalid):
        out.append(Reading(name, rng.choice(times) + rng.randint(1, 999), bad=rng.choice(INVALID)))
    return out


def shipped_readings():
    rng = random.Random(20240501)
    readings = []
    readings += sensor_series(rng, "inverter-A", 6 * 3_600_000, 320, base=4.0, amp=4.5,
                              gaps=(1_200_000, 3_600_000), exact_900=True, dups=3, invalid=4)
    readings += sensor_series(rng, "inverter-B", 5 * 3_600_000 + 17_250, 280, base=0.5, amp=3.0,
                              gaps=(905_000,), dups=2, invalid=3)
    readings += sensor_series(rng, "heat-pump", 0, 160, step=(60_000, 240_000), base=2.2, amp=0.8,
                              noise=0.3, dups=2, invalid=1, frac_ms=False)
    readings.append(Reading("lab-meter", 12 * 3_600_000, Fraction("3.125")))
    readings.append(Reading("lab-meter", 12 * 3_600_000 + 500, bad="NaN"))
    readings.append(Reading("lab-meter", 13 * 3_600_000, bad=""))
    for k, bad in enumerate(["N/A", "-", "err"]):
        readings.append(Reading("spare-meter", 3_600_000 * (k + 1), bad=bad))
    rng.shuffle(readings)
    return readings


def shipped_csv():
    return render(shipped_readings(), seed=77)
