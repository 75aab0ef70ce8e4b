#!/bin/bash
set -euo pipefail
cat > /app/migrate.py <<'PY'
#!/usr/bin/env python3
"""Migrate v1 service configs (flat JSON) to the nested v2 schema."""
import json
import os
import re
import sys
from decimal import Decimal, InvalidOperation

KNOWN = {
    "version", "name", "host", "port", "timeout", "max_body", "db_host", "db_port", "db_name",
    "db_pool", "log_level", "log_file", "features", "retry", "tls", "tls_cert", "tls_key",
}
LEVELS = {"debug": "debug", "info": "info", "warn": "warning", "warning": "warning",
          "error": "error", "critical": "critical", "fatal": "critical"}
TIME_UNITS = {"ms": Decimal(1), "s": Decimal(1000), "m": Decimal(60000)}
SIZE_UNITS = {"b": 1, "k": 1024, "kb": 1024, "m": 1024 ** 2, "mb": 1024 ** 2, "g": 1024 ** 3, "gb": 1024 ** 3}
NUM = r"(\d+(?:\.\d+)?|\.\d+)"


class Invalid(Exception):
    pass


def is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


def is_num(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def to_int(d, what):
    if d != d.to_integral_value():
        raise Invalid(f"{what} is not a whole number")
    return int(d)


def parse_timeout(v):
    if is_num(v):
        if v < 0:
            raise Invalid("negative timeout")
        return to_int(Decimal(str(v)) * 1000, "timeout")
    if isinstance(v, str):
        m = re.fullmatch(NUM + r"\s*(ms|s|m)", v.strip().lower())
        if m:
            return to_int(Decimal(m.group(1)) * TIME_UNITS[m.group(2)], "timeout")
    raise Invalid(f"cannot parse timeout {v!r}")


def parse_size(v):
    if is_int(v):
        if v < 0:
            raise Invalid("negative size")
        return v
    if isinstance(v, str):
        m = re.fullmatch(NUM + r"\s?([a-z]+)?", v.strip().lower())
        if m and (m.group(2) or "b") in SIZE_UNITS:
            return to_int(Decimal(m.group(1)) * SIZE_UNITS[m.group(2) or "b"], "size")
    raise Invalid(f"cannot parse size {v!r}")


def parse_port(v, what="port"):
    if isinstance(v, str) and re.fullmatch(r"\d+", v.strip()):
        v = int(v.strip())
    if not is_int(v) or not 1 <= v <= 65535:
        raise Invalid(f"invalid {what} {v!r}")
    return v


def migrate(doc):
    if not isinstance(doc, dict):
        raise Invalid("not a JSON object")
    if not is_int(doc.get("version")) or doc.get("version") != 1:
        raise Invalid(f"unsupported version {doc.get('version')!r}")
    name = doc.get("name")
    if not isinstance(name, str) or not name.strip():
        raise Invalid("missing name")
    if "port" not in doc:
        raise Invalid("missing port")
    port = parse_port(doc["port"])
    host = doc.get("host", "0.0.0.0")
    if not isinstance(host, str) or not host:
        raise Invalid("invalid host")
    listen = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"

    timeout_ms = parse_timeout(doc.get("timeout", 30))
    max_body = parse_size(doc.get("max_body", "1MB"))

    database = None
    if doc.get("db_host") is not None:
        if not isinstance(doc.get("db_name"), str) or not doc["db_name"]:
            raise Invalid("db_host without db_name")
        pool = doc.get("db_pool", 5)
        if not is_int(pool) or pool < 1:
            raise Invalid("invalid db_pool")
        database = {"host": doc["db_host"], "port": parse_port(doc.get("db_port", 5432), "db_port"),
                    "name": doc["db_name"], "pool_size": pool}

    level = doc.get("log_level", "info")
    if not isinstance(level, str) or level.strip().lower() not in LEVELS:
        raise Invalid(f"unknown log level {level!r}")

    feats = doc.get("features", [])
    if isinstance(feats, str):
        feats = feats.split(",")
    if not isinstance(feats, list) or not all(isinstance(f, str) for f in feats):
        raise Invalid("invalid features")
    features = sorted({f.strip().lower() for f in feats if f.strip()})

    retry = doc.get("retry", {})
    if not isinstance(retry, dict):
        raise Invalid("invalid retry")
    count = retry.get("count", 2)
    backoff = retry.get("backoff_ms", 200)
    if not is_int(count) or count < 0 or not is_int(backoff) or backoff < 0:
        raise Invalid("invalid retry values")

    tls = doc.get("tls", False)
    if not isinstance(tls, bool):
        raise Invalid("tls must be a boolean")
    if tls and (not doc.get("tls_cert") or not doc.get("tls_key")):
        raise Invalid("tls enabled without tls_cert and tls_key")

    return {
        "schema_version": 2,
        "service": {"name": name.strip(), "listen": listen},
        "http": {"timeout_ms": timeout_ms, "max_body_bytes": max_body},
        "database": database,
        "logging": {"level": LEVELS[level.strip().lower()], "file": doc.get("log_file")},
        "features": features,
        "retry": {"max_attempts": count + 1, "backoff_ms": backoff},
        "tls": {"enabled": tls, "cert_file": doc.get("tls_cert"), "key_file": doc.get("tls_key")},
        "extra": {k: v for k, v in doc.items() if k not in KNOWN},
    }


def main(argv):
    if len(argv) != 4:
        print("usage: migrate.py IN_DIR OUT_DIR REPORT_FILE", file=sys.stderr)
        return 2
    in_dir, out_dir, report_file = argv[1:]
    if not os.path.isdir(in_dir):
        print(f"{in_dir}: not a directory", file=sys.stderr)
        return 2
    os.makedirs(out_dir, exist_ok=True)
    migrated, failed = [], {}
    for fname in sorted(os.listdir(in_dir)):
        path = os.path.join(in_dir, fname)
        if not fname.endswith(".json") or not os.path.isfile(path):
            continue
        try:
            with open(path, encoding="utf-8") as fh:
                doc = json.load(fh)
            result = migrate(doc)
        except (ValueError, UnicodeDecodeError) as exc:
            failed[fname] = f"invalid JSON: {exc}"
            continue
        except Invalid as exc:
            failed[fname] = str(exc)
            continue
        with open(os.path.join(out_dir, fname), "w", encoding="utf-8") as fh:
            json.dump(result, fh, indent=2)
            fh.write("\n")
        migrated.append(fname)
    with open(report_file, "w", encoding="utf-8") as fh:
        json.dump({"migrated": migrated, "failed": failed}, fh, indent=2)
        fh.write("\n")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
PY
cd /app
python3 /app/migrate.py /app/configs/v1 /app/configs/v2 /app/configs/migration-report.json || test $? -eq 1
