"""TLMF writer used by the hidden tests.

A log is described semantically (a header plus a list of record dicts); `build`
encodes it to bytes and, from the same description (never by decoding bytes),
computes the JSON lines a correct converter must produce.
"""
import random
import struct
import zlib
from fractions import Fraction

LEVELS = ["debug", "info", "warning", "error"]


def uvarint(n):
    assert n >= 0
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def svarint(n):
    return uvarint(2 * n if n >= 0 else -2 * n - 1)


def sstr(s, extra_len=0):
    b = s.encode("utf-8") if isinstance(s, str) else s
    return uvarint(len(b) + extra_len) + b


def _payload(rec):
    t = rec["t"]
    bad = rec.get("malformed")
    if t == "sensor":
        name = b"\xc3\x28" if bad == "utf8" else rec["name"]
        p = uvarint(rec["id"]) + sstr(name) + sstr(rec["unit"]) + struct.pack("<b", rec["scale"])
        if bad == "short":
            p = p[:-1]
        return 0x01, p
    if t == "sample":
        p = uvarint(rec["sensor"]) + svarint(rec["dt"])
        if bad != "short":
            p += svarint(rec["raw"])
        return 0x02, p
    if t == "batch":
        raws = rec["raws"]
        p = uvarint(rec["sensor"]) + svarint(rec["dt"]) + uvarint(rec["interval"]) + uvarint(len(raws))
        prev = None
        vals = raws[:-1] if bad == "short" else raws
        for r in vals:
            p += svarint(r if prev is None else r - prev)
            prev = r
        return 0x03, p
    if t == "event":
        level = 9 if bad == "level" else rec["level"]
        msg = b"\xff\xfe ok" if bad == "utf8" else rec["message"]
        p = svarint(rec["dt"]) + bytes([level]) + struct.pack("<H", rec["code"])
        p += sstr(msg, extra_len=5 if bad == "short" else 0)
        return 0x04, p
    if t == "unknown":
        return rec["type"], rec["payload"]
    raise ValueError(t)


def header_bytes(h):
    return b"TLMF" + bytes([h["version"]]) + sstr(h["device"]) + struct.pack("<Q", h["base_time"])


def _value(raw, scale):
    return raw * 10**scale if scale >= 0 else Fraction(raw, 10 ** (-scale))


def build(header, records):
    """Return (file bytes, expected list of dicts)."""
    version = header["version"]
    data = bytearray(header_bytes(header))
    out = []
    clock = header["base_time"]
    sensors = {}
    counts = {"records": 0, "samples": 0, "events": 0, "errors": 0, "skipped": 0}

    def err(off, reason):
        out.append({"kind": "error", "offset": off, "reason": reason})
        counts["errors"] += 1

    for i, rec in enumerate(records):
        off = len(data)
        rtype, payload = _payload(rec)
        if rec.get("extra"):
            payload += rec["extra"]
        body = bytes([rtype]) + uvarint(len(payload)) + payload
        raw_rec = body
        if version == 2:
            crc = zlib.crc32(body) & 0xFFFFFFFF
            if rec.get("bad_crc"):
                # corrupt one payload byte after the crc was computed
                mangled = bytearray(body)
                pos = len(mangled) - 1 - (rec["bad_crc"] - 1) % max(1, len(payload))
                mangled[pos] ^= 0x5A
                body = bytes(mangled)
            raw_rec = body + struct.pack("<I", crc)
        if rec.get("truncate"):
            assert i == len(records) - 1, "only the last record can be truncated"
            cut = rec["truncate"]
            assert 1 <= cut < len(raw_rec)
            data += raw_rec[: len(raw_rec) - cut]
            err(off, "truncated")
            break
        data += raw_rec
        counts["records"] += 1
        if version == 2 and rec.get("bad_crc"):
            err(off, "crc")
            continue
        if rec.get("malformed"):
            err(off, "malformed")
            continue
        t = rec["t"]
        if t == "unknown":
            out.append({"kind": "skipped", "offset": off, "type": rtype, "length": len(payload)})
            counts["skipped"] += 1
        elif t == "sensor":
            sensors[rec["id"]] = (rec["name"], rec["unit"], rec["scale"])
            out.append({"kind": "sensor", "offset": off, "id": rec["id"], "name": rec["name"],
                        "unit": rec["unit"], "scale": rec["scale"]})
        elif t == "sample":
            clock += rec["dt"]
            if rec["sensor"] not in sensors:
                err(off, "unknown-sensor")
                continue
            name, unit, scale = sensors[rec["sensor"]]
            out.append({"kind": "sample", "offset": off, "t": clock, "sensor": rec["sensor"],
                        "name": name, "unit": unit, "value": _value(rec["raw"], scale)})
            counts["samples"] += 1
        elif t == "batch":
            clock += rec["dt"]
            raws = rec["raws"]
            known = rec["sensor"] in sensors
            if not known:
                err(off, "unknown-sensor")
            for k, r in enumerate(raws):
                if known:
                    name, unit, scale = sensors[rec["sensor"]]
                    out.append({"kind": "sample", "offset": off, "t": clock + k * rec["interval"],
                                "sensor": rec["sensor"], "name": name, "unit": unit,
                                "value": _value(r, scale)})
                    counts["samples"] += 1
            if raws:
                clock += (len(raws) - 1) * rec["interval"]
        elif t == "event":
            clock += rec["dt"]
            out.append({"kind": "event", "offset": off, "t": clock, "level": LEVELS[rec["level"]],
                        "code": rec["code"], "message": rec["message"]})
            counts["events"] += 1
    out.append({"kind": "summary", "device": header["device"], "version": version,
                "base_time": header["base_time"], **counts, "end_time": clock})
    return bytes(data), out


# ---------------------------------------------------------------------------
# Random but reproducible logs
# ---------------------------------------------------------------------------

WORDS = ["valve", "pump", "door", "fan", "heater", "filter", "tank", "pressure", "overheat",
         "Überdruck", "température", "φίλτρο", "ok", "reset", "lost", "link"]


def random_log(seed, version, n=80, device=None, base_time=None, truncate=False,
               corrupt=0, malformed=0, unknown=0, orphan=0, big=False):
    rng = random.Random(seed)
    header = {
        "version": version,
        "device": device or f"dev-{seed:04d}",
        "base_time": base_time if base_time is not None else 1_700_000_000_000 + rng.randint(0, 10**9),
    }
    sensor_ids = rng.sample(range(1, 300 if big else 40), 5)
    units = ["°C", "%", "ppm", "kPa", "V", "A", "lux"]
    defined = []
    records = []

    def define(sid):
        records.append({"t": "sensor", "id": sid, "name": f"s{sid}-{rng.choice(WORDS)}",
                        "unit": rng.choice(units), "scale": rng.choice([-3, -2, -1, 0, 0, 1, 2])})
        if sid not in defined:
            defined.append(sid)

    for sid in sensor_ids[:3]:
        define(sid)
    for _ in range(n):
        roll = rng.random()
        big_raw = 2**62 if big else 5000
        if roll < 0.05 and len(defined) < len(sensor_ids):
            define(sensor_ids[len(defined)])
        elif roll < 0.08:
            define(rng.choice(defined))  # redefinition
        elif roll < 0.55:
            records.append({"t": "sample", "sensor": rng.choice(defined),
                            "dt": rng.choice([rng.randint(0, 3000), rng.randint(-500, 0), rng.randint(0, 10**7 if big else 200)]),
                            "raw": rng.randint(-big_raw, big_raw)})
        elif roll < 0.75:
            cnt = rng.choice([0, 1, 2, 5, 12, 40])
            base = rng.randint(-big_raw, big_raw)
            raws = []
            for _ in range(cnt):
                base += rng.randint(-300, 300)
                raws.append(base)
            records.append({"t": "batch", "sensor": rng.choice(defined), "dt": rng.randint(-100, 5000),
                            "interval": rng.choice([1, 10, 250, 1000, 200000]), "raws": raws})
        else:
            words = " ".join(rng.choice(WORDS) for _ in range(rng.randint(0, 9)))
            records.append({"t": "event", "dt": rng.randint(-50, 60000), "level": rng.randint(0, 3),
                            "code": rng.randint(0, 65535), "message": words})
    # sprinkle special records at deterministic random positions (never first: keep sensor defs)
    specials = []
    for _ in range(corrupt):
        specials.append("crc")
    for _ in range(malformed):
        specials.append("malformed")
    for _ in range(unknown):
        specials.append("unknown")
    for _ in range(orphan):
        specials.append("orphan")
    for kind in specials:
        pos = rng.randint(4, len(records))
        if kind == "crc":
            victim = dict(rng.choice(records[3:]))
            victim["bad_crc"] = rng.randint(1, 50)
            records.insert(pos, victim)
        elif kind == "malformed":
            choice = rng.choice(["sample-short", "event-short", "event-utf8", "event-level",
                                 "batch-short", "sensor-short"])
            if choice.startswith("sample"):
                rec = {"t": "sample", "sensor": rng.choice(defined), "dt": 77, "raw": 1, "malformed": "short"}
            elif choice.startswith("batch"):
                rec = {"t": "batch", "sensor": rng.choice(defined), "dt": 5, "interval": 9,
                       "raws": [1, 2, 3], "malformed": "short"}
            elif choice.startswith("sensor"):
                rec = {"t": "sensor", "id": rng.choice(defined), "name": "broken", "unit": "x",
                       "scale": 1, "malformed": "short"}
            else:
                rec = {"t": "event", "dt": 33, "level": 1, "code": 7, "message": "bad news",
                       "malformed": choice.split("-")[1]}
            records.insert(pos, rec)
        elif kind == "unknown":
            ptype = rng.choice([0x00, 0x05, 0x10, 0x7F, 0xFF])
            plen = rng.choice([0, 3, 130, 300])
            records.insert(pos, {"t": "unknown", "type": ptype,
                                 "payload": bytes(rng.randrange(256) for _ in range(plen))})
        else:
            orphan_id = 9000 + rng.randint(0, 50)
            if rng.random() < 0.5:
                rec = {"t": "sample", "sensor": orphan_id, "dt": rng.randint(1, 999), "raw": 42}
            else:
                rec = {"t": "batch", "sensor": orphan_id, "dt": rng.randint(1, 999), "interval": 100,
                       "raws": [1, 2, 3, 4]}
            records.insert(pos, rec)
    if rng.random() < 0.5:
        records[-1] = dict(records[-1], extra=b"\x01\x02future")
        if records[-1].get("malformed"):
            records[-1].pop("extra")
    if truncate:
        last = {"t": "event", "dt": 10, "level": 2, "code": 99, "message": "cut off mid-record"}
        tmp_type, tmp_payload = _payload(last)
        full = 1 + len(uvarint(len(tmp_payload))) + len(tmp_payload) + (4 if version == 2 else 0)
        last["truncate"] = rng.randint(1, full - 1)
        records.append(last)
    return header, records


SHIPPED = {
    "greenhouse-a": dict(seed=11, version=2, n=70, device="greenhouse-a", base_time=1717200000000,
                         corrupt=1, unknown=1),
    "pump-station-7": dict(seed=23, version=1, n=55, device="pump-station-7 ⚙", base_time=1718000000123,
                           truncate=True),
    "boiler-room": dict(seed=37, version=2, n=90, device="boiler-room", base_time=1719999999999,
                        malformed=2, orphan=2, corrupt=1),
}


def shipped(name):
    return build(*random_log(**SHIPPED[name]))


def bad_header_file():
    """A log written by an unsupported (future) firmware version."""
    header = {"version": 3, "device": "old-logger", "base_time": 1716000000000}
    return b"TLMF" + bytes([3]) + sstr("old-logger") + struct.pack("<Q", 1716000000000) + b"\x02\x03\x01\x02\x04"
