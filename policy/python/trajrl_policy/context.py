"""``ctx``: what ``Policy.handle`` gets besides the request."""
from __future__ import annotations

import copy
import time
from typing import TYPE_CHECKING, Any, Optional

from . import settings as limits
from .gateway import UpstreamError, UpstreamResponse
from .transcript import (DEFAULT_NOPROG_N, DEFAULT_REPEAT_N, DEFAULT_STALL_S, DEFAULT_TOOLERR_K, content_text,
                         transcript_signals)
from .wire import Rendered, clean_message, completion_message

if TYPE_CHECKING:
    from .server import Server

AUTO_MODEL = "auto"


class CallResult(dict):
    """The answer of ``ctx.call``: the assistant message itself (``role``, ``content``,
    ``tool_calls``) plus ``text`` (its text, "" on failure), ``message`` (the bare message, to
    append to a conversation), ``usage``, ``finish``, ``status`` (HTTP status, 0 when the gateway
    was unreachable), ``error`` (None or a short description) and ``seconds``."""


class Context:
    def __init__(self, server: "Server", request: dict, session: dict, session_key: str, request_id: str):
        self._server = server
        self.request = request
        self.messages: list = list(request.get("messages") or [])
        self.session = session
        self.session_key = session_key
        self.request_id = request_id
        self.stream = bool(request.get("stream"))
        self._opened: list[UpstreamResponse] = []

    @property
    def remaining_usd(self) -> Optional[float]:
        """What the gateway says is left for this episode (None until the first answer)."""
        return self._server.gateway.remaining_usd

    @property
    def default_model(self) -> str:
        return getattr(self._server.policy, "default_model", None) or self._server.settings.default_model

    def _model_for(self, model: Any) -> str:
        return self.default_model if not model or model == AUTO_MODEL else str(model)

    def signals(self, stall_s: float = DEFAULT_STALL_S, toolerr_k: int = DEFAULT_TOOLERR_K,
                noprog_n: int = DEFAULT_NOPROG_N, repeat_n: int = DEFAULT_REPEAT_N) -> list[str]:
        """stall / len / toolerr / noprog / repeat, read off the transcript (trajrl_policy.transcript)."""
        return transcript_signals(self.messages, self.session, stall_s=stall_s, toolerr_k=toolerr_k,
                                  noprog_n=noprog_n, repeat_n=repeat_n)

    async def upstream(self, req: dict) -> UpstreamResponse:
        """Forward ``req`` to the gateway. ``model`` "auto" (or none) becomes the policy's
        ``default_model`` or DEFAULT_MODEL. Return the result from ``handle`` and the server
        streams it through to the agent, or sends it whole."""
        body = dict(req)
        body["model"] = self._model_for(body.get("model"))
        if body.get("stream"):
            options = dict(body.get("stream_options") or {})
            options["include_usage"] = True
            body["stream_options"] = options
        else:
            body.pop("stream_options", None)
        response = await self._server.gateway.complete(body)
        response.model = body["model"]
        self._opened.append(response)
        return response

    async def call(self, model: str, messages: list, max_tokens: int = 600, temperature: float = 0.7,
                   timeout_s: float = limits.CALL_TIMEOUT_S, **extra: Any) -> CallResult:
        """One extra, completed (non-streamed) call. Never raises for gateway trouble: look at
        ``result["status"]`` / ``result["error"]``; on failure ``text`` is "" and content None."""
        body = {**extra, "model": self._model_for(model), "messages": messages, "max_tokens": max_tokens,
                "temperature": temperature, "stream": False}
        started = time.monotonic()
        status, error, message, finish, usage = 0, None, {"role": "assistant", "content": None}, None, None
        try:
            response = await self._server.gateway.complete(body, timeout_s=timeout_s)
            status = response.status
            if response.ok:
                message, finish, usage = completion_message(response.json())
                message = clean_message(message)
            else:
                error = response.error_body()["error"].get("message")
        except UpstreamError as failure:
            status, error = 0, str(failure)
        result = CallResult(message)
        result.update(text=content_text(message.get("content")), message=dict(message), usage=usage, finish=finish,
                      status=status, error=error, seconds=round(time.monotonic() - started, 3))
        return result

    def render(self, message: dict, model: str = AUTO_MODEL, finish: Optional[str] = None,
               usage: Optional[dict] = None) -> Rendered:
        """Answer the agent with ``message`` (content and/or tool_calls): one completion, or an SSE
        stream ending in ``[DONE]`` when the agent asked for ``stream``."""
        return Rendered(copy.deepcopy(message), model=model, finish=finish, usage=usage, request_id=self.request_id)

    async def close(self) -> None:
        for response in self._opened:
            await response.release()
