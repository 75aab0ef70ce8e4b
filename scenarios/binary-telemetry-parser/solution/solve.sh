#!/bin/bash
# Reference TLMF converter, then convert every shipped log.
set -euo pipefail
cat > /app/tlm2json.py <<'PY'
#!/usr/bin/env python3
"""Convert a TLMF telemetry log to JSON lines: tlm2json.py INPUT.bin OUTPUT.jsonl"""
import json
import struct
import sys
import zlib
from fractions import Fraction

LEVELS = ["debug", "info", "warning", "error"]


class Short(Exception):
    """A field runs past the end of the available bytes."""


class Reader:
    def __init__(self, buf, pos=0, end=None):
        self.buf, self.pos = buf, pos
        self.end = len(buf) if end is None else end

    def take(self, n):
        if self.pos + n > self.end:
            raise Short()
        b = self.buf[self.pos:self.pos + n]
        self.pos += n
        return b

    def u8(self):
        return self.take(1)[0]

    def i8(self):
        return struct.unpack("<b", self.take(1))[0]

    def u16(self):
        return struct.unpack("<H", self.take(2))[0]

    def u32(self):
        return struct.unpack("<I", self.take(4))[0]

    def u64(self):
        return struct.unpack("<Q", self.take(8))[0]

    def varint(self):
        result = shift = 0
        for _ in range(10):
            b = self.u8()
            result |= (b & 0x7F) << shift
            if not b & 0x80:
                return result
            shift += 7
        raise ValueError("varint longer than 10 bytes")

    def svarint(self):
        u = self.varint()
        return u >> 1 if not u & 1 else -((u + 1) >> 1)

    def string(self):
        return self.take(self.varint()).decode("utf-8")


def value(raw, scale):
    if scale >= 0:
        return raw * 10**scale
    return float(Fraction(raw, 10 ** (-scale)))


def convert(buf):
    r = Reader(buf)
    try:
        if r.take(4) != b"TLMF":
            raise ValueError("bad magic")
        version = r.u8()
        if version not in (1, 2):
            raise ValueError(f"unsupported version {version}")
        device = r.string()
        base_time = r.u64()
    except (Short, UnicodeDecodeError) as exc:
        raise ValueError(f"bad header: {exc!r}")

    out = []
    counts = {"records": 0, "samples": 0, "events": 0, "errors": 0, "skipped": 0}
    sensors = {}
    clock = base_time

    def error(off, reason):
        out.append({"kind": "error", "offset": off, "reason": reason})
        counts["errors"] += 1

    while r.pos < len(buf):
        off = r.pos
        try:
            rtype = r.u8()
            length = r.varint()
            payload_start = r.pos
            r.take(length)
            crc_ok = True
            if version == 2:
                stored = r.u32()
                crc_ok = (zlib.crc32(buf[off:payload_start + length]) & 0xFFFFFFFF) == stored
        except (Short, ValueError):
            error(off, "truncated")
            break
        counts["records"] += 1
        if not crc_ok:
            error(off, "crc")
            continue
        p = Reader(buf, payload_start, payload_start + length)
        try:
            if rtype == 0x01:
                rec = ("sensor", p.varint(), p.string(), p.string(), p.i8())
            elif rtype == 0x02:
                rec = ("sample", p.varint(), p.svarint(), p.svarint())
            elif rtype == 0x03:
                sid, dt, interval, count = p.varint(), p.svarint(), p.varint(), p.varint()
                raws, prev = [], 0
                for i in range(count):
                    d = p.svarint()
                    prev = d if i == 0 else prev + d
                    raws.append(prev)
                rec = ("batch", sid, dt, interval, raws)
            elif rtype == 0x04:
                dt, level, code, msg = p.svarint(), p.u8(), p.u16(), p.string()
                if level > 3:
                    raise ValueError("bad level")
                rec = ("event", dt, level, code, msg)
            else:
                rec = ("unknown",)
        except (Short, ValueError, UnicodeDecodeError):
            error(off, "malformed")
            continue

        kind = rec[0]
        if kind == "unknown":
            out.append({"kind": "skipped", "offset": off, "type": rtype, "length": length})
            counts["skipped"] += 1
        elif kind == "sensor":
            _, sid, name, unit, scale = rec
            sensors[sid] = (name, unit, scale)
            out.append({"kind": "sensor", "offset": off, "id": sid, "name": name, "unit": unit, "scale": scale})
        elif kind == "sample":
            _, sid, dt, raw = rec
            clock += dt
            if sid not in sensors:
                error(off, "unknown-sensor")
                continue
            name, unit, scale = sensors[sid]
            out.append({"kind": "sample", "offset": off, "t": clock, "sensor": sid, "name": name,
                        "unit": unit, "value": value(raw, scale)})
            counts["samples"] += 1
        elif kind == "batch":
            _, sid, dt, interval, raws = rec
            clock += dt
            if sid not in sensors:
                error(off, "unknown-sensor")
            else:
                name, unit, scale = sensors[sid]
                for i, raw in enumerate(raws):
                    out.append({"kind": "sample", "offset": off, "t": clock + i * interval, "sensor": sid,
                                "name": name, "unit": unit, "value": value(raw, scale)})
                    counts["samples"] += 1
            if raws:
                clock += (len(raws) - 1) * interval
        else:
            _, dt, level, code, msg = rec
            clock += dt
            out.append({"kind": "event", "offset": off, "t": clock, "level": LEVELS[level],
                        "code": code, "message": msg})
            counts["events"] += 1

    out.append({"kind": "summary", "device": device, "version": version, "base_time": base_time,
                **counts, "end_time": clock})
    return out


def main(argv):
    if len(argv) != 3:
        print("usage: tlm2json.py INPUT.bin OUTPUT.jsonl", file=sys.stderr)
        return 2
    with open(argv[1], "rb") as fh:
        buf = fh.read()
    try:
        lines = convert(buf)
    except ValueError as exc:
        print(f"{argv[1]}: {exc}", file=sys.stderr)
        return 1
    with open(argv[2], "w", encoding="utf-8") as fh:
        for obj in lines:
            fh.write(json.dumps(obj, ensure_ascii=False) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
PY
mkdir -p /app/out
for f in /app/data/*.bin; do
  python3 /app/tlm2json.py "$f" "/app/out/$(basename "$f" .bin).jsonl" || true
done
