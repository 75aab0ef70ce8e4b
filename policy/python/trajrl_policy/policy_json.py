"""``policy.json``: the data kinds of a fusion policy, validated strictly.

    {"kind": "pin", "model": M}
    {"kind": "escalate", "cheap": M, "strong": M, "signals"?: [S, ...], "stall_s"?: seconds}
    {"kind": "advisers", "writer": M, "advisers": [M, ...], "max_tokens"?: n, "temperature"?: t, "every"?: n}

M is one of FUSION_MODELS, S one of SIGNALS. Unknown fields are refused. Defaults (the live
season's): signals ["stall", "toolerr", "repeat"], stall_s 420, max_tokens 400, temperature 0.7,
every 1. The TypeScript twin is policy/python/policy-json-schema.ts; keep the two in step.
"""
from __future__ import annotations

import json
import math
from typing import Any

from .transcript import SIGNALS

FUSION_MODELS = (
    "deepseek-v4-flash-0731",
    "deepseek-v4.1-flash",
    "qwen3.6-35b-a3b",
    "qwen3.8-27b",
    "glm-5.3-flash",
    "glm-5.2",
    "glm-5.3",
    "kimi-k3",
)
KINDS = ("pin", "escalate", "advisers")
FIELDS = {
    "pin": ("kind", "model"),
    "escalate": ("kind", "cheap", "strong", "signals", "stall_s"),
    "advisers": ("kind", "writer", "advisers", "max_tokens", "temperature", "every"),
}
REQUIRED = {"pin": ("model",), "escalate": ("cheap", "strong"), "advisers": ("writer", "advisers")}
DEFAULTS = {
    "escalate": {"signals": ["stall", "toolerr", "repeat"], "stall_s": 420},
    "advisers": {"max_tokens": 400, "temperature": 0.7, "every": 1},
}
MAX_ADVISERS = 8
STALL_S_RANGE = (1, 3600)
MAX_TOKENS_RANGE = (16, 8192)
TEMPERATURE_RANGE = (0, 2)
EVERY_RANGE = (1, 1000)


class PolicyJsonError(ValueError):
    """One problem, naming the field and the rule: ``policy.json: field "x" must ...``."""

    def __init__(self, field: str, rule: str):
        self.field = field
        self.rule = rule
        where = f'field "{field}"' if field else "the document"
        super().__init__(f"policy.json: {where} {rule}")


def _show(value: Any) -> str:
    if isinstance(value, float) and value != value:
        return "NaN (not a number)"
    if isinstance(value, float) and value in (float("inf"), float("-inf")):
        sign = "" if value > 0 else "-"
        return (f"a number out of range ({sign}1e400 and the like are too large for a double "
                f"and read as {sign}Infinity)")
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return text if len(text) <= 60 else text[:57] + "..."


def _model(field: str, value: Any) -> str:
    if not isinstance(value, str) or value not in FUSION_MODELS:
        raise PolicyJsonError(field, f"must be one of {', '.join(FUSION_MODELS)} (got {_show(value)})")
    return value


def _number(field: str, value: Any, low: float, high: float, integer: bool) -> Any:
    is_number = isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)
    if integer and not (is_number and float(value).is_integer()):
        raise PolicyJsonError(field, f"must be an integer from {low} to {high} (got {_show(value)})")
    if not is_number or not low <= value <= high:
        kind = "an integer" if integer else "a number"
        raise PolicyJsonError(field, f"must be {kind} from {low} to {high} (got {_show(value)})")
    return int(value) if integer else value


def validate_policy_json(document: Any) -> dict:
    """The document with defaults filled in, or PolicyJsonError on the first problem."""
    if not isinstance(document, dict):
        raise PolicyJsonError("", f"must be a JSON object with a \"kind\" field (got {_show(document)})")
    if "kind" not in document:
        raise PolicyJsonError("kind", f"is required; one of {', '.join(KINDS)}")
    kind = document["kind"]
    if kind not in KINDS:
        raise PolicyJsonError("kind", f"must be one of {', '.join(KINDS)} (got {_show(kind)})")
    for field in document:
        if field not in FIELDS[kind]:
            raise PolicyJsonError(field, f"is not allowed for kind \"{kind}\"; allowed: {', '.join(FIELDS[kind])}")
    for field in REQUIRED[kind]:
        if field not in document:
            raise PolicyJsonError(field, f"is required for kind \"{kind}\"")
    out = {**DEFAULTS.get(kind, {}), **document}
    if kind == "pin":
        _model("model", out["model"])
    elif kind == "escalate":
        _model("cheap", out["cheap"])
        _model("strong", out["strong"])
        signals = out["signals"]
        if not isinstance(signals, list) or not signals:
            raise PolicyJsonError("signals", f"must be a non-empty array of {', '.join(SIGNALS)} (got {_show(signals)})")
        for index, signal in enumerate(signals):
            if signal not in SIGNALS:
                raise PolicyJsonError(f"signals[{index}]", f"must be one of {', '.join(SIGNALS)} (got {_show(signal)})")
            if signal in signals[:index]:
                raise PolicyJsonError(f"signals[{index}]", f"repeats {_show(signal)}; list each signal once")
        out["stall_s"] = _number("stall_s", out["stall_s"], *STALL_S_RANGE, integer=False)
    else:
        _model("writer", out["writer"])
        advisers = out["advisers"]
        if not isinstance(advisers, list) or not 1 <= len(advisers) <= MAX_ADVISERS:
            raise PolicyJsonError("advisers", f"must be an array of 1 to {MAX_ADVISERS} model names (got {_show(advisers)})")
        for index, adviser in enumerate(advisers):
            _model(f"advisers[{index}]", adviser)
        out["max_tokens"] = _number("max_tokens", out["max_tokens"], *MAX_TOKENS_RANGE, integer=True)
        out["temperature"] = _number("temperature", out["temperature"], *TEMPERATURE_RANGE, integer=False)
        out["every"] = _number("every", out["every"], *EVERY_RANGE, integer=True)
    return out


def parse_policy_json(text: str) -> dict:
    if text.startswith("\ufeff"):
        raise PolicyJsonError("", "starts with a byte-order mark (BOM, U+FEFF, bytes EF BB BF); "
                                  "save it as UTF-8 without a BOM")
    try:
        document = json.loads(text)
    except ValueError as error:
        raise PolicyJsonError("", f"is not valid JSON ({error})") from error
    return validate_policy_json(document)
