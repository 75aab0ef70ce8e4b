"""The sidecar's one way out: the metered gateway (``UPSTREAM_URL``, bearer ``EPISODE_TOKEN``)."""
from __future__ import annotations

import asyncio
import json
import sys
from typing import AsyncIterator, Optional

import aiohttp

from . import settings as limits
from .settings import Settings
from .wire import StreamAssembler, completion_message, normalise_error_body

BUDGET_HEADER = "x-trajrl-budget-remaining-usd"


class UpstreamError(Exception):
    """The gateway could not be reached or did not answer in time; carries the HTTP status the
    agent gets (502 unreachable, 504 timed out)."""

    def __init__(self, status: int, error_type: str, message: str):
        super().__init__(message)
        self.status = status
        self.error_type = error_type


class UpstreamResponse:
    """What ``ctx.upstream(req)`` returns: the gateway's answer, not yet read when it is a stream
    with status 200 (return it from ``handle`` and the server pipes it to the agent)."""

    def __init__(self, status: int, headers: dict, stream: bool, body: bytes = b"",
                 response: Optional[aiohttp.ClientResponse] = None):
        self.status = status
        self.headers = headers
        self.stream = stream
        self.body = body
        self._response = response
        self._consumed = False
        self.finish: Optional[str] = None
        self.usage: Optional[dict] = None
        if status == 200 and not stream:
            try:
                _, self.finish, self.usage = completion_message(json.loads(body))
            except ValueError:
                pass

    @property
    def ok(self) -> bool:
        return self.status == 200

    async def iter_chunks(self) -> AsyncIterator[bytes]:
        """The raw bytes of a streamed answer, as they arrive (once)."""
        if self._response is None or self._consumed:
            if self.body:
                yield self.body
            return
        self._consumed = True
        try:
            async for data in self._response.content.iter_any():
                yield data
        except asyncio_timeout_errors() as error:
            raise UpstreamError(504, "upstream_timeout", f"the gateway stream went quiet: {error!r}") from error
        except aiohttp.ClientError as error:
            raise UpstreamError(502, "upstream_unreachable", f"the gateway stream broke: {error!r}") from error

    async def message(self) -> dict:
        """The answer as one assistant message (reads the stream to its end if there is one)."""
        if self.stream and self.status == 200:
            assembler = StreamAssembler()
            try:
                async for data in self.iter_chunks():
                    assembler.feed(data)
            finally:
                await self.release()
            self.finish, self.usage = assembler.finish, assembler.usage
            return assembler.message()
        message, _, _ = completion_message(self.json())
        return message

    def json(self) -> dict:
        try:
            parsed = json.loads(self.body)
        except ValueError:
            return {}
        return parsed if isinstance(parsed, dict) else {}

    def error_body(self) -> dict:
        return normalise_error_body(self.status, self.body)

    async def release(self) -> None:
        if self._response is not None:
            self._response.release()
            self._response = None


def asyncio_timeout_errors() -> tuple:
    return (asyncio.TimeoutError, aiohttp.ServerTimeoutError)


class Gateway:
    def __init__(self, settings: Settings):
        self.settings = settings
        self.remaining_usd: Optional[float] = None
        self._session: Optional[aiohttp.ClientSession] = None

    @property
    def headers(self) -> dict:
        return {"Authorization": f"Bearer {self.settings.episode_token}", "Content-Type": "application/json"}

    def _client(self) -> aiohttp.ClientSession:
        if self._session is None or self._session.closed:
            self._session = aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=None))
        return self._session

    async def close(self) -> None:
        if self._session is not None:
            await self._session.close()

    def note_headers(self, headers) -> None:
        value = headers.get(BUDGET_HEADER)
        if value is None:
            return
        try:
            self.remaining_usd = float(value)
        except ValueError:
            pass

    async def refresh_budget(self) -> Optional[float]:
        """Ask ``/v1/budget`` for what remains (the header of a streamed answer predates its cost)."""
        try:
            timeout = aiohttp.ClientTimeout(total=limits.BUDGET_TIMEOUT_S)
            async with self._client().get(f"{self.settings.upstream_url}/budget", headers=self.headers, timeout=timeout) as response:
                self.note_headers(response.headers)
                if response.status == 200:
                    body = await response.json(content_type=None)
                    if isinstance(body, dict) and isinstance(body.get("remaining_usd"), (int, float)):
                        self.remaining_usd = float(body["remaining_usd"])
        except Exception as error:  # noqa: BLE001 - a budget read never fails a turn
            print(f"trajrl_policy: budget read failed: {error!r}", file=sys.stderr, flush=True)
        return self.remaining_usd

    async def complete(self, body: dict, timeout_s: Optional[float] = None) -> UpstreamResponse:
        """POST ``/chat/completions``. A 200 stream comes back unread; anything else is read whole."""
        stream = bool(body.get("stream"))
        if stream:
            timeout = aiohttp.ClientTimeout(total=timeout_s, connect=limits.UPSTREAM_CONNECT_TIMEOUT_S,
                                            sock_read=limits.UPSTREAM_IDLE_TIMEOUT_S)
        else:
            timeout = aiohttp.ClientTimeout(total=timeout_s or limits.UPSTREAM_TOTAL_TIMEOUT_S,
                                            connect=limits.UPSTREAM_CONNECT_TIMEOUT_S)
        url = f"{self.settings.upstream_url}/chat/completions"
        try:
            response = await self._client().post(url, json=body, headers=self.headers, timeout=timeout)
        except asyncio_timeout_errors() as error:
            raise UpstreamError(504, "upstream_timeout", f"the gateway did not answer in time: {error!r}") from error
        except aiohttp.ClientError as error:
            raise UpstreamError(502, "upstream_unreachable", f"the gateway could not be reached: {error!r}") from error
        self.note_headers(response.headers)
        headers = dict(response.headers)
        if response.status == 200 and stream:
            return UpstreamResponse(200, headers, True, response=response)
        limit = limits.MAX_COMPLETION_BYTES if response.status == 200 else limits.MAX_ERROR_BODY_BYTES
        try:
            body_bytes = await read_bounded(response, limit)
        except asyncio_timeout_errors() as error:
            raise UpstreamError(504, "upstream_timeout", f"the gateway did not finish its answer in time: {error!r}") from error
        except aiohttp.ClientError as error:
            raise UpstreamError(502, "upstream_unreachable", f"the gateway answer broke: {error!r}") from error
        finally:
            response.release()
        return UpstreamResponse(response.status, headers, False, body=body_bytes)


async def read_bounded(response: aiohttp.ClientResponse, limit: int) -> bytes:
    parts: list[bytes] = []
    size = 0
    async for data in response.content.iter_any():
        size += len(data)
        if size > limit:
            raise UpstreamError(502, "upstream_too_large", f"the gateway answer is over {limit} bytes")
        parts.append(data)
    return b"".join(parts)
