"""Hidden tests for the config-schema-migration scenario.

The agent's tool /app/migrate.py is always run in a subprocess with a timeout,
on the shipped v1 files and on hidden v1 files written by these tests. The
expected v2 documents were worked out by hand from the written rules.
"""
import json
import os
import sys
import tempfile

import pytest
import trl_agent_run as agent_run

TOOL = "/app/migrate.py"
SHIPPED_IN = "/app/configs/v1"
SHIPPED_OUT = "/app/configs/v2"
SHIPPED_REPORT = "/app/configs/migration-report.json"
TIMEOUT = 60


def v2(name, listen, timeout_ms=30000, max_body=1048576, database=None, level="info",
       log_file=None, features=(), attempts=3, backoff=200, tls=(False, None, None), extra=None):
    return {
        "schema_version": 2,
        "service": {"name": name, "listen": listen},
        "http": {"timeout_ms": timeout_ms, "max_body_bytes": max_body},
        "database": database,
        "logging": {"level": level, "file": log_file},
        "features": list(features),
        "retry": {"max_attempts": attempts, "backoff_ms": backoff},
        "tls": {"enabled": tls[0], "cert_file": tls[1], "key_file": tls[2]},
        "extra": extra or {},
    }


def db(host, port, name, pool):
    return {"host": host, "port": port, "name": name, "pool_size": pool}


SHIPPED_EXPECTED = {
    "billing-api.json": v2(
        "billing-api", "10.0.4.12:8443", 45000, 26214400, db("pg-billing.internal", 5432, "billing", 20),
        "warning", None, ["dunning", "invoices", "refunds"], 5, 750,
        (True, "/etc/ssl/billing.crt", "/etc/ssl/billing.key"), {"owner": "payments-team"}),
    "search.json": v2("search", "0.0.0.0:9200", 1500, 65536, None, "debug", None, ["fuzzy", "synonyms"]),
    "notifications.json": v2(
        "notifications", "[::]:7001", 2500, 524288, db("pg-main.internal", 6432, "notify", 5),
        "error", "/var/log/notify.log", [], 3, 100),
    "auth.json": v2(
        "auth", "127.0.0.1:4180", 60000, 1572864, None, "critical", None, [], 3, 200,
        (False, "/etc/ssl/unused.crt", None),
        {"sso": {"provider": "okta", "tenant": "acme"}, "rate_limit": 120}),
    "reports.json": v2(
        "reports", "0.0.0.0:8090", 30000, 2147483648, db("pg-replica.internal", 5432, "analytics", 5),
        "info", None, [], 1, 0),
    "gateway.json": v2(
        "gateway", "0.0.0.0:80", 30000, 10485760, None, "info", "/var/log/gateway/access.log",
        ["compression", "http2"], 3, 200, (True, "/etc/ssl/gw.crt", "/etc/ssl/gw.key")),
}
SHIPPED_FAILED = {"legacy-ftp.json", "metrics.json", "inventory.json", "uploads.json"}


def run_tool(in_dir, out_dir, report):
    return agent_run.run(
        [sys.executable, TOOL, in_dir, out_dir, report],
        capture_output=True, text=True, timeout=TIMEOUT, cwd="/tmp",
    )


def migrate(files, raw=None, out_exists=False):
    """files: {filename: dict}; raw: {filename: str}. Returns (proc, out_dir, report_dict)."""
    root = tempfile.mkdtemp(prefix="migrate-")
    in_dir = os.path.join(root, "in")
    os.mkdir(in_dir)
    for fname, doc in files.items():
        with open(os.path.join(in_dir, fname), "w", encoding="utf-8") as fh:
            json.dump(doc, fh, indent=2)
    for fname, text in (raw or {}).items():
        with open(os.path.join(in_dir, fname), "w", encoding="utf-8") as fh:
            fh.write(text)
    out_dir = os.path.join(root, "out", "nested")
    if out_exists:
        os.makedirs(out_dir)
    report_path = os.path.join(root, "report.json")
    proc = run_tool(in_dir, out_dir, report_path)
    report = None
    if os.path.isfile(report_path):
        with open(report_path, encoding="utf-8") as fh:
            report = json.load(fh)
    return proc, out_dir, report


def read_out(out_dir, fname):
    path = os.path.join(out_dir, fname)
    assert os.path.isfile(path), f"{fname} was not migrated"
    with open(path, encoding="utf-8") as fh:
        return json.load(fh)


def base(**kw):
    doc = {"version": 1, "name": "svc", "port": 8000}
    doc.update(kw)
    return doc


# --- shipped files ----------------------------------------------------------

def test_shipped_report_lists_migrated_and_failed_files():
    assert os.path.isfile(SHIPPED_REPORT), "migration report was not written"
    with open(SHIPPED_REPORT, encoding="utf-8") as fh:
        report = json.load(fh)
    assert report.get("migrated") == sorted(SHIPPED_EXPECTED)
    failed = report.get("failed")
    assert isinstance(failed, dict) and set(failed) == SHIPPED_FAILED
    assert all(isinstance(v, str) and v.strip() for v in failed.values())


def test_shipped_v2_files_match_schema():
    assert os.path.isdir(SHIPPED_OUT)
    present = sorted(f for f in os.listdir(SHIPPED_OUT))
    assert present == sorted(SHIPPED_EXPECTED), "exactly the valid configs must be written"
    for fname, expected in SHIPPED_EXPECTED.items():
        assert read_out(SHIPPED_OUT, fname) == expected, fname


# --- hidden inputs ----------------------------------------------------------

def test_minimal_config_gets_all_defaults_and_exit_zero():
    proc, out, report = migrate({"tiny.json": {"version": 1, "name": "tiny", "port": 1}})
    assert proc.returncode == 0, proc.stderr
    assert report == {"migrated": ["tiny.json"], "failed": {}}
    assert read_out(out, "tiny.json") == v2("tiny", "0.0.0.0:1")


def test_listen_address_brackets_ipv6_and_accepts_port_strings():
    proc, out, _ = migrate({
        "a.json": base(host="::1", port="65535"),
        "b.json": base(host="fe80::2", port=443),
        "c.json": base(host="db.local", port="8080"),
    })
    assert proc.returncode == 0, proc.stderr
    assert read_out(out, "a.json")["service"]["listen"] == "[::1]:65535"
    assert read_out(out, "b.json")["service"]["listen"] == "[fe80::2]:443"
    assert read_out(out, "c.json")["service"]["listen"] == "db.local:8080"


def test_timeout_units_convert_to_integer_milliseconds():
    cases = {
        "t1.json": (7, 7000),
        "t2.json": (0.25, 250),
        "t3.json": ("90s", 90000),
        "t4.json": ("3m", 180000),
        "t5.json": ("250ms", 250),
        "t6.json": ("1.5s", 1500),
    }
    proc, out, _ = migrate({f: base(timeout=t) for f, (t, _) in cases.items()})
    assert proc.returncode == 0, proc.stderr
    for fname, (_, ms) in cases.items():
        got = read_out(out, fname)["http"]["timeout_ms"]
        assert got == ms and isinstance(got, int), (fname, got)


def test_body_sizes_use_binary_units():
    cases = {
        "s1.json": ("64k", 65536),
        "s2.json": ("3 GB", 3221225472),
        "s3.json": ("0.5MB", 524288),
        "s4.json": ("100b", 100),
        "s5.json": (4096, 4096),
        "s6.json": ("2 Kb", 2048),
    }
    proc, out, _ = migrate({f: base(max_body=s) for f, (s, _) in cases.items()})
    assert proc.returncode == 0, proc.stderr
    for fname, (_, size) in cases.items():
        got = read_out(out, fname)["http"]["max_body_bytes"]
        assert got == size and isinstance(got, int), (fname, got)


def test_database_block_defaults_and_null():
    proc, out, report = migrate({
        "with-db.json": base(db_host="pg", db_name="app"),
        "full-db.json": base(db_host="pg2", db_port=15432, db_name="x", db_pool=40),
        "no-db.json": base(db_name="ignored-without-host"),
        "bad-db.json": base(db_host="pg3"),
    })
    assert proc.returncode == 1
    assert set(report["failed"]) == {"bad-db.json"}
    assert read_out(out, "with-db.json")["database"] == db("pg", 5432, "app", 5)
    assert read_out(out, "full-db.json")["database"] == db("pg2", 15432, "x", 40)
    assert read_out(out, "no-db.json")["database"] is None


def test_log_levels_and_features_are_normalised():
    proc, out, _ = migrate({
        "l1.json": base(log_level="Warning", features=" B ,a,,b, c "),
        "l2.json": base(log_level="fatal", features=["Zeta", " alpha", "ZETA", ""], log_file="/x.log"),
        "l3.json": base(log_level="CRITICAL"),
        "l4.json": base(log_level="warn", features=[]),
    })
    assert proc.returncode == 0, proc.stderr
    l1, l2 = read_out(out, "l1.json"), read_out(out, "l2.json")
    assert l1["logging"] == {"level": "warning", "file": None}
    assert l1["features"] == ["a", "b", "c"]
    assert l2["logging"] == {"level": "critical", "file": "/x.log"}
    assert l2["features"] == ["alpha", "zeta"]
    assert read_out(out, "l3.json")["logging"]["level"] == "critical"
    assert read_out(out, "l4.json")["logging"]["level"] == "warning"
    assert read_out(out, "l4.json")["features"] == []


def test_retry_counts_become_total_attempts_and_tls_is_nested():
    proc, out, report = migrate({
        "r1.json": base(retry={"count": 6}),
        "r2.json": base(retry={}),
        "r3.json": base(tls=True, tls_cert="/c.pem", tls_key="/k.pem", retry={"count": 1, "backoff_ms": 5}),
        "r4.json": base(tls=True, tls_cert="/c.pem"),
    })
    assert proc.returncode == 1
    assert set(report["failed"]) == {"r4.json"}
    assert read_out(out, "r1.json")["retry"] == {"max_attempts": 7, "backoff_ms": 200}
    assert read_out(out, "r2.json")["retry"] == {"max_attempts": 3, "backoff_ms": 200}
    r3 = read_out(out, "r3.json")
    assert r3["retry"] == {"max_attempts": 2, "backoff_ms": 5}
    assert r3["tls"] == {"enabled": True, "cert_file": "/c.pem", "key_file": "/k.pem"}


def test_invalid_files_are_reported_not_written_and_do_not_stop_the_run():
    proc, out, report = migrate(
        {
            "ok.json": base(name="ok"),
            "noname.json": {"version": 1, "port": 80},
            "blankname.json": base(name="   "),
            "port0.json": base(port=0),
            "portword.json": base(port="http"),
            "v3.json": base(version=3),
            "noversion.json": {"name": "x", "port": 1},
            "badlevel.json": base(log_level="verbose"),
            "badtimeout.json": base(timeout="10 hours"),
            "badsize.json": base(max_body="5PB"),
            "list.json": [1, 2, 3],
        },
        raw={"broken.json": '{"version": 1, "name": "b",', "notes.txt": "not a config", "x.json.bak": "{"},
    )
    assert proc.returncode == 1, proc.stderr
    assert report["migrated"] == ["ok.json"]
    assert set(report["failed"]) == {
        "noname.json", "blankname.json", "port0.json", "portword.json", "v3.json", "noversion.json",
        "badlevel.json", "badtimeout.json", "badsize.json", "list.json", "broken.json",
    }
    assert sorted(os.listdir(out)) == ["ok.json"]


def test_extra_keys_are_preserved_and_existing_output_dir_is_reused():
    extra = {"labels": {"team": "core", "tier": 1}, "replicas": 3, "notes": None, "tags": ["a", "b"]}
    proc, out, report = migrate({"e.json": base(**extra), "f.json": base(name=" f ")}, out_exists=True)
    assert proc.returncode == 0, proc.stderr
    assert report == {"migrated": ["e.json", "f.json"], "failed": {}}
    assert read_out(out, "e.json")["extra"] == extra
    f = read_out(out, "f.json")
    assert f == v2("f", "0.0.0.0:8000")


def test_missing_input_directory_exits_with_status_two():
    assert os.path.isfile(TOOL), f"{TOOL} is missing"
    root = tempfile.mkdtemp(prefix="migrate-missing-")
    proc = run_tool(os.path.join(root, "nope"), os.path.join(root, "out"), os.path.join(root, "r.json"))
    assert proc.returncode == 2
    assert not os.path.exists(os.path.join(root, "out", "nope.json"))
