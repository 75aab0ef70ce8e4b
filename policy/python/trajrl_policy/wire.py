"""OpenAI chat-completion shapes: error bodies, an assistant message rendered as a completion or
as server-sent events, and the reverse (a stream of chunks assembled into one message)."""
from __future__ import annotations

import json
import time
from typing import Any, Iterator, Optional

MESSAGE_KEYS = ("role", "content", "tool_calls", "reasoning_content", "refusal")


def error_body(message: str, error_type: str, code: Optional[str] = None) -> dict:
    return {"error": {"message": message, "type": error_type, "param": None, "code": code}}


def normalise_error_body(status: int, raw: bytes) -> dict:
    """An upstream error answer as an OpenAI error body: kept when it already is one, wrapped otherwise."""
    try:
        parsed = json.loads(raw)
    except ValueError:
        parsed = None
    if isinstance(parsed, dict) and isinstance(parsed.get("error"), dict):
        error = dict(parsed["error"])
        error.setdefault("message", f"upstream answered HTTP {status}")
        error.setdefault("type", "upstream_error")
        return {"error": error}
    text = raw[:2000].decode("utf-8", "replace").strip()
    return error_body(text or f"upstream answered HTTP {status}", "upstream_error")


def clean_message(message: dict) -> dict:
    """Only the keys an assistant message carries on the wire, role forced to assistant."""
    out = {key: message[key] for key in MESSAGE_KEYS if key in message and message[key] is not None}
    out["role"] = "assistant"
    out.setdefault("content", None)
    return out


def default_finish(message: dict) -> str:
    return "tool_calls" if message.get("tool_calls") else "stop"


class Rendered:
    """An assistant message the policy answers with (``ctx.render``); the server sends it as one
    completion or as a stream, whichever the agent asked for."""

    def __init__(self, message: dict, model: str = "auto", finish: Optional[str] = None,
                 usage: Optional[dict] = None, request_id: str = "chatcmpl-policy"):
        self.message = clean_message(message)
        self.model = model
        self.finish = finish or default_finish(self.message)
        self.usage = usage
        self.request_id = request_id
        self.created = int(time.time())

    def completion(self) -> dict:
        return {
            "id": self.request_id,
            "object": "chat.completion",
            "created": self.created,
            "model": self.model,
            "choices": [{"index": 0, "message": self.message, "finish_reason": self.finish}],
            "usage": self.usage,
        }

    def chunks(self) -> Iterator[dict]:
        base = {"id": self.request_id, "object": "chat.completion.chunk", "created": self.created, "model": self.model}

        def chunk(delta: dict, finish: Optional[str] = None) -> dict:
            return {**base, "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}

        yield chunk({"role": "assistant", "content": ""})
        if self.message.get("reasoning_content"):
            yield chunk({"reasoning_content": self.message["reasoning_content"]})
        content = self.message.get("content")
        if isinstance(content, list):
            content = "".join(p.get("text", "") for p in content if isinstance(p, dict))
        if content:
            yield chunk({"content": content})
        for index, call in enumerate(self.message.get("tool_calls") or []):
            function = call.get("function") or {}
            arguments = function.get("arguments", "")
            if not isinstance(arguments, str):
                arguments = json.dumps(arguments)
            yield chunk({"tool_calls": [{
                "index": index,
                "id": call.get("id") or f"call_{index}",
                "type": "function",
                "function": {"name": function.get("name", ""), "arguments": arguments},
            }]})
        yield chunk({}, self.finish)
        if self.usage is not None:
            yield {**base, "choices": [], "usage": self.usage}

    def sse(self) -> bytes:
        return b"".join(sse_event(c) for c in self.chunks()) + SSE_DONE


SSE_DONE = b"data: [DONE]\n\n"


def sse_event(payload: Any) -> bytes:
    return b"data: " + json.dumps(payload, ensure_ascii=False, separators=(",", ":")).encode("utf-8") + b"\n\n"


class StreamAssembler:
    """Feeds on the raw bytes of an SSE completion stream and keeps the assembled message, the
    finish reason, the usage and any error event. Bounded: a line over 8 MiB is dropped."""

    MAX_LINE_BYTES = 8 * 1024 * 1024

    def __init__(self) -> None:
        self._pending = b""
        self.content: list[str] = []
        self.reasoning: list[str] = []
        self.tool_calls: dict[int, dict] = {}
        self.finish: Optional[str] = None
        self.usage: Optional[dict] = None
        self.error: Optional[dict] = None
        self.model: Optional[str] = None
        self.done = False

    def feed(self, data: bytes) -> None:
        self._pending += data
        while b"\n" in self._pending:
            line, self._pending = self._pending.split(b"\n", 1)
            self._line(line.rstrip(b"\r"))
        if len(self._pending) > self.MAX_LINE_BYTES:
            self._pending = b""

    def _line(self, line: bytes) -> None:
        if not line.startswith(b"data:"):
            return
        data = line[5:].strip()
        if data == b"[DONE]":
            self.done = True
            return
        try:
            event = json.loads(data)
        except ValueError:
            return
        if not isinstance(event, dict):
            return
        if isinstance(event.get("error"), dict):
            self.error = event["error"]
        if isinstance(event.get("usage"), dict):
            self.usage = event["usage"]
        if isinstance(event.get("model"), str):
            self.model = event["model"]
        for choice in event.get("choices") or []:
            if not isinstance(choice, dict):
                continue
            if choice.get("finish_reason"):
                self.finish = choice["finish_reason"]
            self._delta(choice.get("delta") or {})

    def _delta(self, delta: dict) -> None:
        if isinstance(delta.get("content"), str):
            self.content.append(delta["content"])
        if isinstance(delta.get("reasoning_content"), str):
            self.reasoning.append(delta["reasoning_content"])
        for part in delta.get("tool_calls") or []:
            if not isinstance(part, dict):
                continue
            index = part.get("index", len(self.tool_calls))
            call = self.tool_calls.setdefault(index, {"id": None, "type": "function", "function": {"name": "", "arguments": ""}})
            if part.get("id"):
                call["id"] = part["id"]
            function = part.get("function") or {}
            if isinstance(function.get("name"), str):
                call["function"]["name"] += function["name"]
            if isinstance(function.get("arguments"), str):
                call["function"]["arguments"] += function["arguments"]

    def message(self) -> dict:
        message: dict = {"role": "assistant", "content": "".join(self.content) or None}
        if self.reasoning:
            message["reasoning_content"] = "".join(self.reasoning)
        if self.tool_calls:
            message["tool_calls"] = [self.tool_calls[i] for i in sorted(self.tool_calls)]
        return message


def completion_message(completion: Any) -> tuple[dict, Optional[str], Optional[dict]]:
    """(message, finish_reason, usage) of a non-streamed completion body."""
    if not isinstance(completion, dict):
        return {"role": "assistant", "content": None}, None, None
    choices = completion.get("choices") or [{}]
    choice = choices[0] if isinstance(choices[0], dict) else {}
    message = choice.get("message") if isinstance(choice.get("message"), dict) else {"role": "assistant", "content": None}
    usage = completion.get("usage") if isinstance(completion.get("usage"), dict) else None
    return message, choice.get("finish_reason"), usage
