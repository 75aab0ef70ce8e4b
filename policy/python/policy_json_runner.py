#!/usr/bin/env python3
"""Run a policy.json pack on the trajrl_policy SDK.

    python3 policy_json_runner.py [--check] [PATH]

PATH defaults to $POLICY_DIR/policy.json. A malformed file ends the process with status 2 and one
line on stderr naming the field and the rule. ``--check`` validates, prints the document with its
defaults filled in, and exits 0 without serving.
"""
from __future__ import annotations

import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from trajrl_policy import serve  # noqa: E402
from trajrl_policy.builtin_policies import policy_from_document  # noqa: E402
from trajrl_policy.policy_json import PolicyJsonError, parse_policy_json  # noqa: E402

MAX_POLICY_JSON_BYTES = 64 * 1024


def main(argv: list) -> int:
    check = "--check" in argv
    paths = [a for a in argv if a != "--check"]
    if len(paths) > 1 or any(p.startswith("-") for p in paths):
        print("usage: policy_json_runner.py [--check] [PATH]", file=sys.stderr)
        return 2
    path = paths[0] if paths else os.path.join(os.environ.get("POLICY_DIR", "/policy"), "policy.json")
    try:
        with open(path, "rb") as handle:
            raw = handle.read(MAX_POLICY_JSON_BYTES + 1)
    except OSError as error:
        print(f"policy.json: cannot read {path}: {error.strerror or error}", file=sys.stderr)
        return 2
    if len(raw) > MAX_POLICY_JSON_BYTES:
        print(f"policy.json: the document is over {MAX_POLICY_JSON_BYTES} bytes", file=sys.stderr)
        return 2
    try:
        document = parse_policy_json(raw.decode("utf-8"))
    except UnicodeDecodeError:
        print("policy.json: the document is not UTF-8 text", file=sys.stderr)
        return 2
    except PolicyJsonError as error:
        print(str(error), file=sys.stderr)
        return 2
    if check:
        print(json.dumps(document, sort_keys=True))
        return 0
    serve(policy_from_document(document))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
