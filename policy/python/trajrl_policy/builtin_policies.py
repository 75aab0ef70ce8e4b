"""The three ``policy.json`` kinds as SDK policies (live-season semantics)."""
from __future__ import annotations

import asyncio
import json

from .context import Context
from .policy import Policy

ADVISER_INSTRUCTIONS = (
    "You advise an agent that is working on a task in a terminal. Read the conversation so far and write at most "
    "150 words of specific advice for its next step only: what to check or run, which mistake to avoid, what the "
    "result must contain. No preamble. If the agent is on track, say so in one line."
)
NOTES_PREAMBLE = (
    "Notes from independent advisers who read the conversation so far. They can be wrong; weigh them with your "
    "own judgement, then take the next step."
)
ADVISER_TRANSCRIPT_CHARS = 60000


class PinPolicy(Policy):
    """Every call goes to one model."""

    def __init__(self, model: str):
        self.model = model
        self.name = f"pin:{model}"

    async def handle(self, req, ctx: Context):
        req["model"] = self.model
        return await ctx.upstream(req)


class EscalatePolicy(Policy):
    """Start on ``cheap``; the first time any listed signal fires, the session moves to ``strong``
    for good (``ctx.session["escalated"]``, with the signals that did it in ``"escalated_on"``)."""

    def __init__(self, cheap: str, strong: str, signals: list, stall_s: float):
        self.cheap, self.strong = cheap, strong
        self.signals = set(signals)
        self.stall_s = float(stall_s)
        self.name = f"escalate:{cheap}->{strong}"

    async def handle(self, req, ctx: Context):
        session = ctx.session
        if not session.get("escalated"):
            fired = [s for s in ctx.signals(stall_s=self.stall_s) if s in self.signals]
            if fired:
                session["escalated"] = True
                session["escalated_on"] = fired
        req["model"] = self.strong if session.get("escalated") else self.cheap
        return await ctx.upstream(req)


class AdvisersPolicy(Policy):
    """Once the conversation holds a tool result, on every ``every``-th turn of the session, each
    adviser reads the conversation (in parallel) and writes a short note; the writer answers with
    the non-empty notes appended as one trailing system message. Otherwise the writer answers alone."""

    def __init__(self, writer: str, advisers: list, max_tokens: int, temperature: float, every: int):
        self.writer, self.advisers = writer, list(advisers)
        self.max_tokens, self.temperature, self.every = max_tokens, temperature, max(1, every)
        self.name = f"advisers:{writer}|{','.join(self.advisers)}"

    def engages(self, messages: list, turn: int) -> bool:
        has_tool_result = any(isinstance(m, dict) and m.get("role") == "tool" for m in messages)
        return has_tool_result and turn % self.every == 0

    async def handle(self, req, ctx: Context):
        messages = list(req.get("messages") or [])
        if self.engages(messages, ctx.session.get("turn", 0)):
            transcript = json.dumps(messages[1:], ensure_ascii=False, default=str)[-ADVISER_TRANSCRIPT_CHARS:]
            prompt = [
                {"role": "system", "content": ADVISER_INSTRUCTIONS},
                {"role": "user", "content": "The conversation so far, as JSON:\n" + transcript},
            ]
            results = await asyncio.gather(*[
                ctx.call(model, prompt, max_tokens=self.max_tokens, temperature=self.temperature) for model in self.advisers
            ])
            notes = [(model, r["text"].strip()) for model, r in zip(self.advisers, results) if r["text"].strip()]
            ctx.session["adviser_notes"] = ctx.session.get("adviser_notes", 0) + len(notes)
            if notes:
                block = "\n\n".join(f"Adviser {i} ({model}):\n{text}" for i, (model, text) in enumerate(notes, 1))
                req["messages"] = messages + [{"role": "system", "content": NOTES_PREAMBLE + "\n\n" + block}]
        req["model"] = self.writer
        return await ctx.upstream(req)


def policy_from_document(document: dict) -> Policy:
    """A validated policy.json document (trajrl_policy.policy_json) as a policy."""
    kind = document["kind"]
    if kind == "pin":
        return PinPolicy(document["model"])
    if kind == "escalate":
        return EscalatePolicy(document["cheap"], document["strong"], document["signals"], document["stall_s"])
    if kind == "advisers":
        return AdvisersPolicy(document["writer"], document["advisers"], document["max_tokens"],
                              document["temperature"], document["every"])
    raise ValueError(f"unknown policy kind {kind!r}")
