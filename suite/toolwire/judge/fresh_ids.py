"""Fresh-id checks (corpus/INTERPRETING.md, "Fresh ids"): a tool-call id a translator invents, and a response
id it mints where the corpus lets it, must differ from one translation to the next.

A source that carries calls without ids (a Gemini ``functionCall`` without ``id``, a legacy OpenAI chat
``function_call``) makes a translator toward a dialect that requires ids invent them. A translator that
numbers them ``call_1``, ``call_2`` … anew for every response (or derives them from the content) passes
every single check and breaks a conversation: the client sends every earlier response back, and two
``tool_use`` blocks with one id are refused. The check translates the source twice, the second time as
another response would be (its response id changed, the calls the same), and fails when an invented id
comes back. An id derived from the response id is fresh; a count or a hash of the calls is not. The same
holds for a response id a translator mints (a gateway's own message id): one constant id names every
response alike. Which expectations get the check is :func:`toolwire.corpus.variants.fresh_ids_apply`.
"""

from __future__ import annotations

import json
from typing import Any

from ..adapters import Adapter, Answer
from ..corpus import Check
from ..corpus.variants import FRESH_IDS, RESPONSE_IDS
from ..jsonvalue import clip
from ..streams.payload import StreamError, stream_events
from .checks import CheckResult

__all__ = ["VARIANT", "another_response", "call_ids", "run_fresh_ids"]

VARIANT = FRESH_IDS
#: call types whose ``id`` / ``call_id`` members are tool-call ids
_CALL_TYPES = frozenset(
    {"tool_use", "server_tool_use", "function_call", "tool_call", "custom_tool_call", "tool_call_start"}
)


def call_ids(node: Any) -> set[str]:
    """Every tool-call id in an output (a response body or a list of stream events): ``id`` / ``call_id`` of
    call blocks and items, ``id`` of ``tool_calls`` entries, ``functionCall.id``."""
    found: set[str] = set()
    stack: list[tuple[Any, bool]] = [(node, False)]
    while stack:
        item, in_tool_calls = stack.pop()
        if isinstance(item, dict):
            keys = ("id", "call_id") if item.get("type") in _CALL_TYPES else ("id",) if in_tool_calls else ()
            found.update(v for k in keys if isinstance(v := item.get(k), str) and v)
            call = item.get("functionCall")
            if isinstance(call, dict) and isinstance(call.get("id"), str) and call["id"]:
                found.add(call["id"])
            stack.extend((v, k == "tool_calls") for k, v in item.items())
        elif isinstance(item, list):
            stack.extend((v, in_tool_calls) for v in item)
    return found


def run_fresh_ids(adapter: Adapter, check: Check, profile: dict[str, str]) -> CheckResult:
    """Translate the check's source, then the next response; fail when an invented id comes back."""
    source = check.source_payload
    if check.kind == "stream":
        source = stream_events(source)
    sources = [source, another_response(source)]
    answers = [_translate(adapter, check, s, profile) for s in sources]
    ms = sum(a.duration_ms for a in answers)
    for answer in answers:
        if answer.status != "payload":
            what = answer.crash if answer.status == "crash" else json.dumps(answer.error, ensure_ascii=False)
            what = answer.reason if answer.status == "unsupported" else what  # no counterpart: its reason
            return CheckResult(
                "skipped",
                duration_ms=ms,
                message=f"no output to take invented ids from ({answer.status}: {clip(what, 300)}); the main "
                "check judges it",
            )
    texts = [json.dumps(s, ensure_ascii=False) for s in sources]
    first, second = (
        {i for i in call_ids(_events(a.payload)) | _response_id(a.payload) if i not in text}
        for a, text in zip(answers, texts, strict=True)
    )
    if not first:
        return CheckResult("passed", duration_ms=ms, message="no invented id in the output")
    again = sorted(first & second)
    if again:
        shown = ", ".join(repr(i) for i in again[:5])
        if set(again) <= _response_id(answers[0].payload):
            why = 'a response id is unique to its response (OpenAI: "A unique identifier for the chat '
            why += 'completion"; Anthropic: "Unique object identifier"), and a client that tells '
            why += "responses apart by it takes the two for one"
            what = "response id"
        else:
            why, what = "a client sends every earlier response back, so their ids collide", "tool-call id"
        return CheckResult(
            "failed",
            duration_ms=ms,
            message=f"two responses of one conversation got the same invented {what} ({shown}): {why}",
        )
    return CheckResult("passed", duration_ms=ms)


def _response_id(payload: Any) -> set[str]:
    """The response's own id in a response body (``id`` / ``responseId``), as a set (empty for a stream)."""
    if not isinstance(payload, dict):
        return set()
    return {v for k in RESPONSE_IDS if isinstance(v := payload.get(k), str) and v}


def _events(payload: Any) -> Any:
    """A stream output given as SSE text (``{"sse": …}``) as its events; any other output as it is."""
    if isinstance(payload, dict) and set(payload) == {"sse"}:
        try:
            return stream_events(payload)
        except StreamError:
            return []  # unreadable: no ids to take (the main check judges the stream)
    return payload


def another_response(payload: Any) -> Any:
    """``payload`` as the next response of a conversation would be: the same calls, its response id
    (Gemini ``responseId``, OpenAI chat ``id``; in every event of a stream) changed."""
    if isinstance(payload, list):
        return [
            {**e, "data": another_response(e["data"])}
            if isinstance(e, dict) and isinstance(e.get("data"), dict)
            else e
            for e in payload
        ]
    if not isinstance(payload, dict):
        return payload
    return {k: f"{v}-next" if k in RESPONSE_IDS and isinstance(v, str) else v for k, v in payload.items()}


def _translate(adapter: Adapter, check: Check, source: Any, profile: dict[str, str]) -> Answer:
    if check.kind == "stream":
        return adapter.translate_stream(check.source, check.target, source, profile)
    return adapter.translate(check.kind, check.source, check.target, source, profile)
