"""Hidden tests for the binary-telemetry-parser scenario.

Logs are written by tlmgen.build from a semantic description; the expected
JSON lines come from that same description, never from decoding bytes. The
agent's converter runs in a subprocess with a timeout.
"""
import json
import math
import os
import struct
import sys
import tempfile
from fractions import Fraction

import pytest

sys.path.insert(0, os.path.dirname(__file__))
import tlmgen  # noqa: E402
import trl_agent_run as agent_run

TOOL = "/app/tlm2json.py"
DATA = "/app/data"
OUT = "/app/out"
TIMEOUT = 60


def run_tool(data):
    tmp = tempfile.mkdtemp(prefix="tlm-test-")
    src = os.path.join(tmp, "in.bin")
    dst = os.path.join(tmp, "out.jsonl")
    with open(src, "wb") as fh:
        fh.write(data)
    assert os.path.isfile(TOOL), f"{TOOL} is missing"
    res = agent_run.run([sys.executable, TOOL, src, dst], capture_output=True, text=True, timeout=TIMEOUT)
    return res, dst


def convert(data):
    res, dst = run_tool(data)
    assert res.returncode == 0, f"exit {res.returncode}: {res.stderr[-2000:]}"
    assert os.path.isfile(dst), "output file was not written"
    return read_jsonl(dst)


def read_jsonl(path):
    with open(path, encoding="utf-8") as fh:
        lines = [l for l in fh.read().split("\n") if l.strip()]
    out = []
    for l in lines:
        obj = json.loads(l)
        assert isinstance(obj, dict), f"not a JSON object: {l[:200]}"
        out.append(obj)
    return out


def same_value(got, exp):
    if isinstance(got, bool) or not isinstance(got, (int, float)):
        return False
    if isinstance(exp, Fraction):
        exp_f = float(exp)
        return math.isclose(got, exp_f, rel_tol=1e-9, abs_tol=1e-12)
    if isinstance(exp, int) and isinstance(got, int):
        return got == exp
    return math.isclose(got, exp, rel_tol=1e-9, abs_tol=1e-12)


def same_line(got, exp):
    if set(got) != set(exp):
        return False
    for k, v in exp.items():
        if k == "value":
            if not same_value(got[k], v):
                return False
        elif isinstance(v, bool) or isinstance(got[k], bool):
            if got[k] is not v:
                return False
        elif got[k] != v or type(got[k]) is not type(v):
            return False
    return True


def show(obj):
    return {k: (float(v) if isinstance(v, Fraction) else v) for k, v in obj.items()}


def assert_lines(got, exp, kinds=None):
    if kinds is not None:
        got = [g for g in got if g.get("kind") in kinds]
        exp = [e for e in exp if e["kind"] in kinds]
    for i, (g, e) in enumerate(zip(got, exp)):
        assert same_line(g, e), f"line {i} differs:\n got      {g}\n expected {show(e)}"
    assert len(got) == len(exp), f"got {len(got)} lines, expected {len(exp)}"


# ---------------------------------------------------------------------------


def test_shipped_logs_converted_into_out_directory():
    for name in tlmgen.SHIPPED:
        data, expected = tlmgen.shipped(name)
        with open(os.path.join(DATA, name + ".bin"), "rb") as fh:
            assert fh.read() == data, f"shipped {name}.bin differs from its description"
        path = os.path.join(OUT, name + ".jsonl")
        assert os.path.isfile(path), f"{path} is missing"
        assert_lines(read_jsonl(path), expected)
    assert not os.path.exists(os.path.join(OUT, "old-logger.jsonl")), \
        "a file with an invalid header must not get an output file"


def test_samples_follow_running_clock_and_decimal_scale():
    header = {"version": 2, "device": "unit-α", "base_time": 1_700_000_000_000}
    records = [
        {"t": "sensor", "id": 4, "name": "temp", "unit": "°C", "scale": -2},
        {"t": "sensor", "id": 300, "name": "flow", "unit": "l/h", "scale": 3},
        {"t": "sample", "sensor": 4, "dt": 1500, "raw": 2153},
        {"t": "sample", "sensor": 300, "dt": 0, "raw": -7},
        {"t": "sample", "sensor": 4, "dt": -250, "raw": -1},
        {"t": "sample", "sensor": 4, "dt": 86_400_000, "raw": 0},
        {"t": "sensor", "id": 9, "name": "volts", "unit": "V", "scale": 0},
        {"t": "sample", "sensor": 9, "dt": 1, "raw": 12},
    ]
    data, expected = tlmgen.build(header, records)
    got = convert(data)
    assert_lines(got, expected, kinds={"sample", "sensor"})
    temps = [g for g in got if g.get("kind") == "sample" and g.get("sensor") == 4]
    assert [g["t"] for g in temps] == [1_700_000_001_500, 1_700_000_001_250, 1_700_086_401_250]


def test_batches_expand_to_delta_decoded_samples():
    header = {"version": 2, "device": "batcher", "base_time": 5_000}
    records = [
        {"t": "sensor", "id": 1, "name": "p", "unit": "kPa", "scale": -1},
        {"t": "batch", "sensor": 1, "dt": 100, "interval": 250, "raws": [1000, 1003, 998, 998, -20000]},
        {"t": "sample", "sensor": 1, "dt": 10, "raw": 5},
        {"t": "batch", "sensor": 1, "dt": 7, "interval": 1000, "raws": []},
        {"t": "batch", "sensor": 1, "dt": -3, "interval": 0, "raws": [7, 8]},
        {"t": "batch", "sensor": 1, "dt": 1, "interval": 60_000, "raws": [2**40]},
        {"t": "event", "dt": 1, "level": 1, "code": 1, "message": "after batches"},
    ]
    data, expected = tlmgen.build(header, records)
    got = convert(data)
    assert_lines(got, expected, kinds={"sample", "event"})
    assert [g["t"] for g in got if g.get("kind") == "sample"][:6] == [5100, 5350, 5600, 5850, 6100, 6110]


def test_events_decode_level_code_and_utf8_message():
    header = {"version": 1, "device": "door-ctl", "base_time": 0}
    records = [
        {"t": "event", "dt": 0, "level": 0, "code": 0, "message": ""},
        {"t": "event", "dt": 12, "level": 3, "code": 65535, "message": "Überdruck in Kessel 2 — 🔥"},
        {"t": "event", "dt": 1, "level": 2, "code": 513, "message": "x" * 300},
        {"t": "event", "dt": -13, "level": 1, "code": 256, "message": "back"},
    ]
    data, expected = tlmgen.build(header, records)
    assert_lines(convert(data), expected, kinds={"event"})


def test_crc_mismatch_is_reported_and_record_skipped():
    header = {"version": 2, "device": "noisy-link", "base_time": 1000}
    records = [
        {"t": "sensor", "id": 2, "name": "rpm", "unit": "1/min", "scale": 0},
        {"t": "sample", "sensor": 2, "dt": 10, "raw": 1200},
        {"t": "sample", "sensor": 2, "dt": 5000, "raw": 9999, "bad_crc": 1},
        {"t": "sensor", "id": 2, "name": "rpm-bad", "unit": "?", "scale": 2, "bad_crc": 3},
        {"t": "sample", "sensor": 2, "dt": 10, "raw": 1250},
        {"t": "event", "dt": 1, "level": 2, "code": 3, "message": "corrupted", "bad_crc": 2},
        {"t": "batch", "sensor": 2, "dt": 10, "interval": 5, "raws": [1, 2]},
    ]
    data, expected = tlmgen.build(header, records)
    got = convert(data)
    assert_lines(got, expected, kinds={"sample", "error", "sensor", "event"})
    assert [g["offset"] for g in got if g.get("kind") == "error"] == \
        [e["offset"] for e in expected if e["kind"] == "error"]


def test_truncated_final_record_stops_decoding():
    for version in (1, 2):
        for cut in (1, 2, 5):
            header = {"version": version, "device": f"cut-{version}-{cut}", "base_time": 77}
            records = [
                {"t": "sensor", "id": 1, "name": "a", "unit": "u", "scale": 0},
                {"t": "sample", "sensor": 1, "dt": 3, "raw": 4},
                {"t": "event", "dt": 1, "level": 1, "code": 2, "message": "the last one", "truncate": cut},
            ]
            data, expected = tlmgen.build(header, records)
            got = convert(data)
            assert_lines(got, expected)


def test_unknown_record_types_are_skipped_with_their_length():
    header = {"version": 2, "device": "future-fw", "base_time": 10}
    records = [
        {"t": "unknown", "type": 0x10, "payload": b""},
        {"t": "sensor", "id": 1, "name": "a", "unit": "u", "scale": -3},
        {"t": "unknown", "type": 0x7F, "payload": bytes(range(200))},
        {"t": "sample", "sensor": 1, "dt": 1, "raw": 123456},
        {"t": "unknown", "type": 0xFF, "payload": b"\x02\x03\x04"},
        {"t": "unknown", "type": 0x00, "payload": b"\x80" * 140},
        {"t": "sample", "sensor": 1, "dt": 1, "raw": 1, "extra": b"\x00\xffnew fields"},
    ]
    data, expected = tlmgen.build(header, records)
    assert_lines(convert(data), expected, kinds={"skipped", "sample", "error"})


def test_version_1_logs_have_no_crc_field():
    header, records = tlmgen.random_log(seed=4242, version=1, n=60, unknown=2, orphan=1)
    data, expected = tlmgen.build(header, records)
    assert_lines(convert(data), expected)


def test_unknown_sensors_move_clock_and_redefinitions_apply():
    header = {"version": 2, "device": "orphans", "base_time": 100}
    records = [
        {"t": "sample", "sensor": 5, "dt": 10, "raw": 1},
        {"t": "sensor", "id": 5, "name": "level", "unit": "cm", "scale": 0},
        {"t": "batch", "sensor": 6, "dt": 20, "interval": 100, "raws": [1, 2, 3]},
        {"t": "sample", "sensor": 5, "dt": 1, "raw": 17},
        {"t": "sensor", "id": 5, "name": "level-mm", "unit": "mm", "scale": 1},
        {"t": "sample", "sensor": 5, "dt": 1, "raw": 17},
        {"t": "batch", "sensor": 7, "dt": 0, "interval": 1000, "raws": []},
        {"t": "sample", "sensor": 5, "dt": 1, "raw": 18},
    ]
    data, expected = tlmgen.build(header, records)
    got = convert(data)
    assert_lines(got, expected)
    assert [g["t"] for g in got if g.get("kind") == "sample"] == [331, 332, 333]


def test_malformed_payloads_are_reported_without_side_effects():
    header = {"version": 2, "device": "glitchy", "base_time": 0}
    records = [
        {"t": "sensor", "id": 1, "name": "a", "unit": "u", "scale": 0},
        {"t": "sample", "sensor": 1, "dt": 1000, "raw": 1, "malformed": "short"},
        {"t": "event", "dt": 1000, "level": 1, "code": 7, "message": "too long", "malformed": "short"},
        {"t": "event", "dt": 1000, "level": 1, "code": 7, "message": "x", "malformed": "utf8"},
        {"t": "event", "dt": 1000, "level": 1, "code": 7, "message": "x", "malformed": "level"},
        {"t": "batch", "sensor": 1, "dt": 1000, "interval": 1, "raws": [1, 2, 3], "malformed": "short"},
        {"t": "sensor", "id": 1, "name": "b", "unit": "v", "scale": 2, "malformed": "short"},
        {"t": "sensor", "id": 3, "name": "x", "unit": "y", "scale": 0, "malformed": "utf8"},
        {"t": "sample", "sensor": 1, "dt": 1, "raw": 2},
        {"t": "sample", "sensor": 3, "dt": 1, "raw": 2},
    ]
    data, expected = tlmgen.build(header, records)
    assert_lines(convert(data), expected)


def test_invalid_headers_exit_1_without_output():
    good = tlmgen.header_bytes({"version": 2, "device": "ok", "base_time": 1})
    cases = {
        "bad magic": b"TLMX" + good[4:],
        "version 0": b"TLMF\x00" + good[5:],
        "version 3": b"TLMF\x03" + good[5:],
        "short header": good[:-3],
        "empty": b"",
        "bad device utf8": b"TLMF\x02\x02\xff\xfe" + struct.pack("<Q", 1),
    }
    for label, data in cases.items():
        res, dst = run_tool(data)
        assert res.returncode == 1, f"{label}: exit status {res.returncode}"
        assert not os.path.exists(dst), f"{label}: output file must not be created"
    # a header with no records at all is a valid, empty log
    got = convert(good)
    assert_lines(got, [{"kind": "summary", "device": "ok", "version": 2, "base_time": 1, "records": 0,
                        "samples": 0, "events": 0, "errors": 0, "skipped": 0, "end_time": 1}])


def test_large_randomised_logs_with_big_varints_match_exactly():
    for seed, version in ((9001, 2), (9002, 1), (9003, 2)):
        header, records = tlmgen.random_log(
            seed=seed, version=version, n=400, big=True, corrupt=3 if version == 2 else 0,
            malformed=3, unknown=3, orphan=2, truncate=(seed == 9003),
            base_time=2**63 - 10**12 if seed == 9001 else None,
        )
        data, expected = tlmgen.build(header, records)
        assert_lines(convert(data), expected)
