"""The policy's HTTP face: ``POST /v1/chat/completions`` and ``GET /v1/models`` on POLICY_PORT."""
from __future__ import annotations

import asyncio
import json
import sys
import time
import traceback
from collections import OrderedDict
from typing import Any, Optional

from aiohttp import web

from . import settings as limits
from .context import Context
from .gateway import Gateway, UpstreamError, UpstreamResponse
from .policy import Policy
from .settings import Settings
from .transcript import session_key
from .wire import SSE_DONE, Rendered, StreamAssembler, completion_message, error_body, sse_event

SSE_HEADERS = {"Content-Type": "text/event-stream", "Cache-Control": "no-cache"}


def log(event: str, **fields: Any) -> None:
    """One JSON line on stderr (the sidecar's log)."""
    fields = {"event": event, "ts": round(time.time(), 3), **fields}
    print(json.dumps(fields, default=str), file=sys.stderr, flush=True)


def error_response(status: int, message: str, error_type: str) -> web.Response:
    return web.json_response(error_body(message, error_type), status=status)


class Server:
    def __init__(self, policy: Policy, settings: Settings):
        if not hasattr(policy, "handle"):
            raise TypeError("serve() needs a Policy instance with an async handle(req, ctx)")
        self.policy = policy
        self.settings = settings
        self.gateway = Gateway(settings)
        self.sessions: "OrderedDict[str, dict]" = OrderedDict()
        self.app = web.Application(client_max_size=limits.MAX_REQUEST_BYTES)
        self.app.router.add_post("/v1/chat/completions", self.chat)
        self.app.router.add_get("/v1/models", self.models)
        self.app.router.add_get("/health", self.models)
        self.app.on_cleanup.append(self._cleanup)

    async def _cleanup(self, _app: web.Application) -> None:
        await self.gateway.close()

    def session_for(self, messages: list) -> tuple[str, dict]:
        key = session_key(messages)
        session = self.sessions.get(key)
        if session is None:
            session = {"t0": time.time(), "turn": 0}
            self.sessions[key] = session
            while len(self.sessions) > limits.MAX_SESSIONS:
                self.sessions.popitem(last=False)
        else:
            self.sessions.move_to_end(key)
        return key, session

    async def models(self, _request: web.Request) -> web.Response:
        return web.json_response({"object": "list", "data": [
            {"id": "auto", "object": "model", "created": 0, "owned_by": "policy", "policy": getattr(self.policy, "name", "policy")},
        ]})

    async def chat(self, request: web.Request) -> web.StreamResponse:
        started = time.monotonic()
        try:
            body = await request.json()
        except web.HTTPRequestEntityTooLarge:
            return error_response(413, f"request body over {limits.MAX_REQUEST_BYTES} bytes", "invalid_request_error")
        except ValueError as error:
            return error_response(400, f"request body is not JSON: {error}", "invalid_request_error")
        if not isinstance(body, dict) or not isinstance(body.get("messages"), list):
            return error_response(400, "request must be a JSON object with a messages array", "invalid_request_error")
        key, session = self.session_for(body["messages"])
        session["turn"] += 1
        ctx = Context(self, body, session, key, f"chatcmpl-{key}-{session['turn']}")
        status: Optional[int] = None
        try:
            result = await self.policy.handle(body, ctx)
            response, status = await self.answer(request, ctx, result)
            return response
        except UpstreamError as error:
            status = error.status
            return error_response(error.status, str(error), error.error_type)
        except asyncio.CancelledError:
            raise
        except Exception as error:  # noqa: BLE001 - any policy failure becomes a 500 for the agent
            status = 500
            print(f"trajrl_policy: policy error in session {key} turn {session['turn']}:", file=sys.stderr)
            traceback.print_exc(file=sys.stderr)
            sys.stderr.flush()
            return error_response(500, f"policy error: {type(error).__name__}: {error}", "policy")
        finally:
            await ctx.close()
            log("turn", session=key, turn=session["turn"], status=status, finish=session.get("last_finish"),
                seconds=round(time.monotonic() - started, 3), remaining_usd=self.gateway.remaining_usd)

    async def answer(self, request: web.Request, ctx: Context, result: Any) -> tuple[web.StreamResponse, int]:
        if isinstance(result, dict) and not isinstance(result, Rendered):
            result = ctx.render(result)
        if isinstance(result, Rendered):
            ctx.session["last_finish"] = result.finish
            return await self.send_rendered(request, ctx, result), 200
        if not isinstance(result, UpstreamResponse):
            raise TypeError(f"handle() returned {type(result).__name__}; return await ctx.upstream(req), ctx.render(message) or a message dict")
        if not result.ok:
            return web.json_response(result.error_body(), status=result.status), result.status
        model = getattr(result, "model", "auto")
        if not result.stream:
            ctx.session["last_finish"] = result.finish
            if ctx.stream:
                message, finish, usage = completion_message(result.json())
                rendered = Rendered(message, model=model, finish=finish, usage=usage, request_id=ctx.request_id)
                return await self.send_rendered(request, ctx, rendered), 200
            return web.Response(body=result.body, status=200, content_type="application/json"), 200
        if not ctx.stream:
            message = await result.message()
            ctx.session["last_finish"] = result.finish
            await self.gateway.refresh_budget()
            rendered = Rendered(message, model=model, finish=result.finish, usage=result.usage, request_id=ctx.request_id)
            return web.json_response(rendered.completion()), 200
        return await self.pipe(request, ctx, result), 200

    async def send_rendered(self, request: web.Request, ctx: Context, rendered: Rendered) -> web.StreamResponse:
        if not ctx.stream:
            return web.json_response(rendered.completion())
        response = web.StreamResponse(status=200, headers=SSE_HEADERS)
        await response.prepare(request)
        await response.write(rendered.sse())
        await response.write_eof()
        return response

    async def pipe(self, request: web.Request, ctx: Context, result: UpstreamResponse) -> web.StreamResponse:
        """Stream the gateway's SSE through to the agent as it arrives."""
        response = web.StreamResponse(status=200, headers=SSE_HEADERS)
        await response.prepare(request)
        assembler = StreamAssembler()
        try:
            async for data in result.iter_chunks():
                assembler.feed(data)
                await response.write(data)
        except UpstreamError as error:
            log("stream_error", session=ctx.session_key, error=str(error))
            await response.write(sse_event(error_body(str(error), error.error_type)))
        except ConnectionResetError:
            log("agent_disconnected", session=ctx.session_key)
            return response
        finally:
            await result.release()
        if not assembler.done and assembler.error is None:
            await response.write(SSE_DONE)
        await response.write_eof()
        ctx.session["last_finish"] = assembler.finish
        await self.gateway.refresh_budget()
        return response


def serve(policy: Policy, port: Optional[int] = None) -> None:
    """Run the policy server until the process is stopped. Call it at the end of policy.py."""
    settings = Settings.from_environment()
    server = Server(policy, settings)
    listen_port = port or settings.port
    log("start", policy=getattr(policy, "name", type(policy).__name__), port=listen_port, upstream=settings.upstream_url)
    web.run_app(server.app, host=settings.host, port=listen_port, print=None, access_log=None)
