"""trajrl_policy: the SDK a fusion policy's ``policy.py`` is written on.

    from trajrl_policy import Policy, serve

    class Mine(Policy):
        async def handle(self, req, ctx):
            req["model"] = "glm-5.3" if "toolerr" in ctx.signals() else "glm-5.3-flash"
            return await ctx.upstream(req)

    serve(Mine())

Only the standard library and aiohttp are used (httpx is also present in the sidecar).
"""
from .context import CallResult, Context
from .gateway import UpstreamError, UpstreamResponse
from .policy import Policy
from .server import Server, serve
from .settings import Settings
from .transcript import SIGNALS, session_key, transcript_signals
from .wire import Rendered

__all__ = [
    "CallResult", "Context", "Policy", "Rendered", "SIGNALS", "Server", "Settings", "UpstreamError",
    "UpstreamResponse", "serve", "session_key", "transcript_signals",
]
