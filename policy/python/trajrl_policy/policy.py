"""The class a ``policy.py`` subclasses."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Optional

if TYPE_CHECKING:
    from .context import Context


class Policy:
    """Implement ``async def handle(self, req, ctx)`` and return one of:

    - ``await ctx.upstream(req)`` — the gateway's answer, streamed through when the agent streams;
    - ``ctx.render(message)`` — a message you assembled from model output;
    - a message dict (rendered as with ``ctx.render``).

    ``default_model`` (optional) replaces model "auto" in ``ctx.upstream`` / ``ctx.call``;
    without it DEFAULT_MODEL does."""

    name = "policy"
    default_model: Optional[str] = None

    async def handle(self, req: dict, ctx: "Context") -> Any:
        return await ctx.upstream(req)
