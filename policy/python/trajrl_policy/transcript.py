"""Pure reads of an agent transcript: session keys and trouble signals.

Hermes resends the whole conversation on every turn, so everything here is a function of the
message list (plus the small per-session dict the server keeps). No I/O.

Signals (``transcript_signals``), each one exactly:

``stall``
    the session is older than ``stall_s`` seconds (wall clock since the server first saw the
    session). This is the live season's definition: it measures session age, not the time since
    the last completed call.
``len``
    the previous answer in this session ended with ``finish_reason == "length"`` (the model ran
    out of ``max_tokens``).
``toolerr``
    the last ``toolerr_k`` (default 3) tool results are all errors. A tool result is an error
    when its first 400 characters (lower-cased) contain one of ``ERROR_MARKERS``, or when
    anywhere in it a non-zero exit is reported (``exit code 2``, ``exit status 1``,
    ``"exit_code": 127``).
``noprog``
    among the last ``noprog_n`` (default 8) assistant messages there is none whose tool calls or
    text looks like writing a deliverable (``DELIVERABLE_HINTS``: writing or patching files).
    Fewer than ``noprog_n`` assistant messages never fire it.
``repeat``
    each of the last ``repeat_n`` (default 3) assistant messages carries tool calls, and their
    tool calls are identical (same function names and the same arguments, compared as canonical
    JSON; call ids are ignored).
"""
from __future__ import annotations

import hashlib
import json
import re
import time
from typing import Any, Iterable

SIGNALS = ("stall", "len", "toolerr", "noprog", "repeat")

DEFAULT_STALL_S = 420.0
DEFAULT_TOOLERR_K = 3
DEFAULT_NOPROG_N = 8
DEFAULT_REPEAT_N = 3

# Messages that make up a session's identity, and how much of each one counts.
SESSION_HEAD_MESSAGES = 5
SESSION_TEXT_CHARS = 6000

ERROR_MARKERS = (
    "traceback",
    "error:",
    "command not found",
    "no such file",
    "permission denied",
    "syntaxerror",
    "failed",
)
_NONZERO_EXIT = re.compile(r"exit[ _]?(?:code|status)\"?\s*[:=]?\s*(?:-[1-9]|[1-9])")

DELIVERABLE_HINTS = (
    "write_file",
    "create_file",
    "cat >",
    "tee ",
    "> /app",
    ">/app",
    "applypatch",
    "apply_patch",
    "git apply",
    "patch ",
    '"name": "patch"',
)


def content_text(content: Any) -> str:
    """The text of an OpenAI message ``content`` (a string, a list of parts, or nothing)."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(part.get("text", "") for part in content if isinstance(part, dict) and isinstance(part.get("text"), str))
    return "" if content is None else str(content)


def session_key(messages: list[dict]) -> str:
    """Identity of an agent session: a hash of its first five messages (role and the first 6,000
    characters of text). A conversation shorter than five messages gets a provisional key from
    its first two ("pre-…"); Hermes reaches five messages by its third turn, where the real
    session starts."""
    complete = len(messages) >= SESSION_HEAD_MESSAGES
    head = messages[:SESSION_HEAD_MESSAGES] if complete else messages[:2]
    canonical = json.dumps(
        [[str(m.get("role")), content_text(m.get("content"))[:SESSION_TEXT_CHARS]] for m in head if isinstance(m, dict)],
        ensure_ascii=False,
        separators=(",", ":"),
    )
    digest = hashlib.sha256(canonical.encode("utf-8")).hexdigest()[:16]
    return ("s-" if complete else "pre-") + digest


def tool_result_is_error(text: str) -> bool:
    head = text[:400].lower()
    if any(marker in head for marker in ERROR_MARKERS):
        return True
    return _NONZERO_EXIT.search(text.lower()) is not None


def _tool_call_signature(message: dict) -> str:
    calls = []
    for call in message.get("tool_calls") or []:
        function = (call.get("function") if isinstance(call, dict) else None) or {}
        arguments = function.get("arguments")
        if isinstance(arguments, str):
            try:
                arguments = json.loads(arguments)
            except ValueError:
                pass
        calls.append([function.get("name"), arguments])
    return json.dumps(calls, sort_keys=True, default=str)


def _looks_like_deliverable(message: dict) -> bool:
    blob = json.dumps([message.get("tool_calls"), content_text(message.get("content"))], default=str).lower()
    return any(hint in blob for hint in DELIVERABLE_HINTS)


def transcript_signals(
    messages: Iterable[dict],
    session: dict,
    stall_s: float = DEFAULT_STALL_S,
    toolerr_k: int = DEFAULT_TOOLERR_K,
    noprog_n: int = DEFAULT_NOPROG_N,
    repeat_n: int = DEFAULT_REPEAT_N,
    now: float | None = None,
) -> list[str]:
    """The signals that fire for this transcript, in ``SIGNALS`` order (see the module doc)."""
    messages = [m for m in messages if isinstance(m, dict)]
    now = time.time() if now is None else now
    fired: list[str] = []
    started = session.get("t0")
    if isinstance(started, (int, float)) and now - started > stall_s:
        fired.append("stall")
    if session.get("last_finish") == "length":
        fired.append("len")
    tool_results = [m for m in messages if m.get("role") == "tool"]
    if toolerr_k > 0 and len(tool_results) >= toolerr_k and all(
        tool_result_is_error(content_text(m.get("content"))) for m in tool_results[-toolerr_k:]
    ):
        fired.append("toolerr")
    assistant = [m for m in messages if m.get("role") == "assistant"]
    if noprog_n > 0 and len(assistant) >= noprog_n and not any(_looks_like_deliverable(m) for m in assistant[-noprog_n:]):
        fired.append("noprog")
    recent = assistant[-repeat_n:] if repeat_n > 0 else []
    if len(recent) == repeat_n and repeat_n > 0 and all(m.get("tool_calls") for m in recent):
        if len({_tool_call_signature(m) for m in recent}) == 1:
            fired.append("repeat")
    return fired
