"""The wire envelope of a library's own objects: a library that hands its caller objects in process (aisuite's
``ChatCompletionResponse``) has no wire body, so the members only a wire body carries (OpenAI Chat's ``id``,
``object``, ``created``, ``model`` and each choice's ``index``: the target descriptor's ``envelope``) are not
asked of it. For an implementation that declares ``library_objects`` (INTERPRETING.md, "Capabilities"), an
absent envelope member is taken as the descriptor's blank before the output is judged; a member it has is
judged as it is, and one the check judges (the descriptor's ``judged``, such as the id and model where a
case is about the response's identity) is left absent, so the check sees it missing."""

from __future__ import annotations

import copy
from dataclasses import replace
from typing import Any

from ..adapters import Answer
from ..corpus import Check
from ..corpus.capabilities import hands_library_objects
from ..corpus.equivalence import judged_pointers
from ..descriptors import descriptor

__all__ = ["fill_envelope", "with_envelope"]


def with_envelope(capabilities: dict[str, Any], check: Check, answer: Answer) -> Answer:
    """``answer`` with the target's envelope members it lacks filled in, for a ``response`` or ``stream`` of
    an implementation that declares ``library_objects``; otherwise ``answer`` itself."""
    target = descriptor(check.target)
    envelope = (target.get("envelope") or {}).get(check.kind)
    if not envelope or answer.status != "payload" or not hands_library_objects(capabilities):
        return answer
    # a stream's judged members are patterns over its events (``/*/data/id``): here, into one event's data
    judged = {p.removeprefix("/*/data") for p in judged_pointers(target, check.kind, check.features)}
    payload = copy.deepcopy(answer.payload)
    if check.kind == "response":
        bodies = [payload]
    elif isinstance(payload, list):
        bodies = [ev.get("data") for ev in payload if isinstance(ev, dict)]
    else:
        return answer
    unjudged = {pointer: blank for pointer, blank in envelope.items() if pointer not in judged}
    for body in bodies:
        fill_envelope(body, unjudged)
    return replace(answer, payload=payload)


def fill_envelope(body: Any, envelope: dict[str, Any]) -> None:
    """Set each member of ``envelope`` (JSON Pointer pattern → blank; ``*``: every key or index) that ``body``
    lacks where its parent exists, in place."""
    for pointer, blank in envelope.items():
        _fill(body, pointer.split("/")[1:], blank)


def _fill(value: Any, tokens: list[str], blank: Any) -> None:
    """Set the member at ``tokens`` (``*``: every key or index) to ``blank`` where its parent exists and
    it does not."""
    if not isinstance(value, dict | list) or not tokens:
        return
    head, rest = tokens[0], tokens[1:]
    if head == "*":
        for item in value.values() if isinstance(value, dict) else value:
            _fill(item, rest, blank)
    elif isinstance(value, dict):
        if rest:
            _fill(value.get(head), rest, blank)
        elif head not in value:
            value[head] = blank
