"""A policy without the SDK: an aiohttp server on POLICY_PORT that sends every request to
DEFAULT_MODEL through the gateway (UPSTREAM_URL, bearer EPISODE_TOKEN) and streams answers back."""
import os

from aiohttp import ClientSession, ClientTimeout, web

PORT = int(os.environ["POLICY_PORT"])
UPSTREAM = os.environ["UPSTREAM_URL"].rstrip("/")
TOKEN = os.environ["EPISODE_TOKEN"]
MODEL = os.environ.get("DEFAULT_MODEL") or "qwen3.8-27b"
HEADERS = {"Authorization": f"Bearer {TOKEN}"}


async def models(_request):
    return web.json_response({"object": "list", "data": [{"id": "auto", "object": "model", "owned_by": "policy"}]})


async def completions(request):
    body = await request.json()
    body["model"] = MODEL
    client = request.app["client"]
    async with client.post(f"{UPSTREAM}/chat/completions", json=body, headers=HEADERS) as upstream:
        content_type = upstream.headers.get("Content-Type", "application/json")
        if upstream.status != 200 or not body.get("stream"):
            return web.Response(body=await upstream.read(), status=upstream.status,
                                headers={"Content-Type": content_type})
        response = web.StreamResponse(status=200, headers={"Content-Type": content_type, "Cache-Control": "no-cache"})
        await response.prepare(request)
        async for chunk in upstream.content.iter_any():
            await response.write(chunk)
        await response.write_eof()
        return response


async def client_session(app):
    app["client"] = ClientSession(timeout=ClientTimeout(total=None, connect=10, sock_read=300))
    yield
    await app["client"].close()


app = web.Application(client_max_size=8 * 1024 * 1024)
app.router.add_get("/v1/models", models)
app.router.add_post("/v1/chat/completions", completions)
app.cleanup_ctx.append(client_session)
web.run_app(app, host=os.environ.get("POLICY_HOST", "0.0.0.0"), port=PORT, print=None, access_log=None)
