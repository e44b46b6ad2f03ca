"""The variant checks an expectation gets besides its main check (INTERPRETING.md): a stream's re-chunked
replays, its incrementality and its deliveries over a network, and the fresh-id check. Which variants
exist is the corpus's to say (:meth:`toolwire.corpus.Corpus.checks` enumerates them from here); how each
is run and judged is :mod:`toolwire.judge` (:mod:`toolwire.judge.streams`, :mod:`toolwire.judge.fresh_ids`).
"""

from __future__ import annotations

import re
from typing import Any

from ..descriptors import descriptor
from ..streams.rechunk import STRATEGIES

__all__ = [
    "DELIVERIES",
    "DELIVERY_PREFIX",
    "DELIVERY_VARIANTS",
    "FRESH_IDS",
    "INCREMENTAL",
    "RESPONSE_IDS",
    "STREAM_VARIANTS",
    "ends_in_error",
    "fresh_ids_apply",
    "mints_response_id",
    "split_variant",
    "stream_variants",
]

#: the variant that translates a response twice and compares the tool-call ids it invents
FRESH_IDS = "fresh-ids"
#: the variant that measures how late a stream's output fragments come
INCREMENTAL = "incremental"
#: how the ``http:`` adapter's mock upstream writes a stream (:mod:`toolwire.adapters.delivery`):
#: ``events`` for the main check, the others as variants
DELIVERIES = ("events", "coalesced", "split")
#: the variants of a stream check delivered in another shape: ``delivery=coalesced``, ``delivery=split``
DELIVERY_PREFIX = "delivery="
DELIVERY_VARIANTS = tuple(f"{DELIVERY_PREFIX}{d}" for d in DELIVERIES if d != "events")
#: every variant of a stream expectation, in the order its checks are listed
STREAM_VARIANTS = tuple(f"rechunk={s}" for s in STRATEGIES) + (INCREMENTAL,) + DELIVERY_VARIANTS
#: the suffix of a check id that names its variant: ``,rechunk=…``, ``,delivery=…``, ``,incremental``,
#: ``,fresh-ids``
_VARIANT_SUFFIX = re.compile(r",((?:rechunk|delivery)=[\w.-]+|incremental|fresh-ids)\]$")
#: the kinds whose outputs carry calls an implementation may have to give ids
_KINDS = frozenset({"response", "stream"})


def _ids_required(dialect: Any) -> bool:
    """Whether ``dialect``'s calls must carry ids: its descriptor's ``call_ids.required`` (default true;
    Gemini matches calls by name and order)."""
    call_ids = descriptor(dialect).get("call_ids") if isinstance(dialect, str) else None
    return not isinstance(call_ids, dict) or call_ids.get("required") is not False


def stream_variants(expectation: dict[str, Any]) -> list[str]:
    """The variant checks an expectation of a stream case gets (none for an expected refusal)."""
    if "error" in expectation or "accumulated" not in expectation:
        return []
    if ends_in_error(expectation):
        # a stream that ends in an error event: re-chunked replays yes, incrementality says little
        return [v for v in STREAM_VARIANTS if v != INCREMENTAL]
    return list(STREAM_VARIANTS)


def fresh_ids_apply(kind: str, source_dialect: str, source: Any, expectation: dict[str, Any]) -> bool:
    """Whether an expectation gets a fresh-id check, expecting a translation (not a refusal): a response or
    stream whose source has a call without an id, toward a dialect that requires ids; or a response whose
    source names itself and whose expectation lets the translator mint the response's own id (a ``$id``
    matcher at its ``id`` / ``responseId``)."""
    target = expectation.get("dialect")
    if kind not in _KINDS or target == source_dialect:
        return False
    if "error" in expectation or (kind == "stream" and ends_in_error(expectation)):
        return False
    if kind == "response" and _names_itself(source) and mints_response_id(expectation.get("payload")):
        return True
    return _ids_required(target) and _has_id_less_call(source)


#: the members that name a response (its id; Gemini's ``responseId``), the same in every event of a stream
RESPONSE_IDS = ("id", "responseId")


def _names_itself(source: Any) -> bool:
    """Whether a source response carries its own id, which the next response of a conversation changes (a
    Bedrock Converse response has none: nothing tells two of them apart)."""
    return isinstance(source, dict) and any(isinstance(source.get(k), str) for k in RESPONSE_IDS)


def mints_response_id(payload: Any) -> bool:
    """Whether an expected response accepts an id the translator invents (a ``$id`` matcher, possibly among
    the alternatives of a ``$oneOf``, at its ``id`` / ``responseId``)."""
    if not isinstance(payload, dict):
        return False
    for key in RESPONSE_IDS:
        value = payload.get(key)
        options = value.get("$oneOf") if isinstance(value, dict) and "$oneOf" in value else [value]
        if isinstance(options, list) and any(isinstance(o, dict) and "$id" in o for o in options):
            return True
    return False


def ends_in_error(expectation: dict[str, Any]) -> bool:
    """Whether a stream expectation accepts the stream ending in an error alone (the upstream sent an error
    event): its accumulated answer is ``{"error": …}``, or a ``$oneOf`` with such an alternative (beside a
    Responses ``response.failed``, say)."""
    accumulated = expectation.get("accumulated")
    alternatives = accumulated.get("$oneOf") if isinstance(accumulated, dict) else None
    if isinstance(alternatives, list) and set(accumulated) == {"$oneOf"}:
        return any(isinstance(a, dict) and set(a) == {"error"} for a in alternatives)
    return isinstance(accumulated, dict) and set(accumulated) == {"error"}


def _has_id_less_call(node: Any) -> bool:
    if isinstance(node, dict):
        call = node.get("functionCall")
        if isinstance(call, dict) and call.get("name") and not call.get("id"):
            return True
        legacy = node.get("function_call")
        if isinstance(legacy, dict) and legacy.get("name") and not node.get("tool_calls"):
            return True
        return any(_has_id_less_call(v) for v in node.values())
    if isinstance(node, list):
        return any(_has_id_less_call(v) for v in node)
    return False


def split_variant(check_id: str) -> tuple[str, str]:
    """(the id of the main check, the variant): ``s/c[a>b,rechunk=utf8]`` → (``s/c[a>b]``, ``rechunk=utf8``);
    a main check's variant is ``""``."""
    m = _VARIANT_SUFFIX.search(check_id)
    if m is None:
        return check_id, ""
    return check_id[: m.start()] + "]", m.group(1)
