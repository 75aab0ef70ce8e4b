"""Cheap first, strong when it matters, on the trajrl_policy SDK.

The session starts on a fast model. When the last tool results are errors, or the session passes
STRONG_AFTER_TURNS turns, it moves to the strong model for good; on each strong turn one cheap
adviser reads the conversation first and its note goes to the writer as a trailing system message.
"""
import json

from trajrl_policy import Policy, serve

CHEAP = "glm-5.3-flash"
STRONG = "glm-5.3"
ADVISER = "deepseek-v4.1-flash"
STRONG_AFTER_TURNS = 12
ADVICE = (
    "Read the conversation and write at most 120 words of concrete advice for the agent's next step only. "
    "No preamble."
)


class Cascade(Policy):
    name = "sdk-cascade"

    async def handle(self, req, ctx):
        session = ctx.session
        if not session.get("strong") and ("toolerr" in ctx.signals() or session["turn"] > STRONG_AFTER_TURNS):
            session["strong"] = True
        if not session.get("strong"):
            req["model"] = CHEAP
            return await ctx.upstream(req)
        messages = list(req.get("messages") or [])
        transcript = json.dumps(messages[1:], ensure_ascii=False, default=str)[-40000:]
        note = await ctx.call(ADVISER, [{"role": "system", "content": ADVICE},
                                        {"role": "user", "content": transcript}], max_tokens=300, temperature=0.3)
        if note["text"].strip():
            req["messages"] = messages + [{"role": "system", "content": "Adviser note (may be wrong): " + note["text"].strip()}]
        req["model"] = STRONG
        return await ctx.upstream(req)


serve(Cascade())
