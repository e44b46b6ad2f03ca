"""OpenAI Responses' ``reasoning`` as the canonical ``reasoning`` setting
(:mod:`toolwire_reference.reasoning`)."""

from __future__ import annotations

from ...reasoning import NAME, effort_of, read_effort, read_object, read_summary, setting
from ...request import Request

#: ``generate_summary``: the deprecated name of ``summary``
MEMBERS = {
    "effort": ("effort", read_effort),
    "summary": ("summary", read_summary),
    "generate_summary": ("summary", read_summary),
}


def read_reasoning(req: Request, body: dict) -> None:
    """``reasoning: {"effort"?, "summary"?}`` (null members are absent)."""
    read_object(req, body, MEMBERS, null_is_absent=True)


def write_reasoning(req: Request, out: dict) -> None:
    """``reasoning: {"effort"?, "summary"?}``."""
    reasoning = setting(req)
    if reasoning is None:
        return
    value = {}
    effort = effort_of(reasoning)
    if effort is not None:
        value["effort"] = effort
    if "summary" in reasoning:
        value["summary"] = reasoning["summary"]
    out[NAME] = value
