"""Every expected payload the corpus writes in a provider dialect is valid for the provider's own definition:
the official SDKs' response models (OpenAI `ChatCompletion` and `Response`, Anthropic `Message`, Google
`GenerateContentResponse`) and request types (OpenAI chat and Responses, Anthropic), pinned in the dev
extras. Matchers become a value they accept; what cannot be checked that way, and the exceptions tolerated
(here and in the request test's docstring), say why."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
from toolwire.corpus import load_corpus

pydantic = pytest.importorskip("pydantic")
openai_chat = pytest.importorskip("openai.types.chat")
openai_responses = pytest.importorskip("openai.types.responses")
anthropic_types = pytest.importorskip("anthropic.types")
genai_types = pytest.importorskip("google.genai.types")

MODELS = {
    "openai-chat": openai_chat.ChatCompletion,
    "openai-responses": openai_responses.Response,
    "anthropic": anthropic_types.Message,
    "gemini": genai_types.GenerateContentResponse,
}
#: (dialect, pydantic error type, location) -> why the corpus is right anyway
TOLERATED = {
    ("openai-responses", "literal_error", "error.code"): "a `$type: string` matcher stands for any code; "
    "its placeholder value is not one of the SDK's literals",
}
_PLACEHOLDER = {
    "integer": 0,
    "number": 0.0,
    "string": "x",
    "boolean": False,
    "object": {},
    "array": [],
    "null": None,
}


class _Unchecked(Exception):
    """The expectation holds a matcher with no one value to stand for it (``$any``, ``$regex``)."""


def _concrete(value: Any, pick: int = 0) -> Any:
    """One value the expectation accepts: alternative ``pick`` of every ``$oneOf`` (its last when it has
    fewer), a placeholder per ``$type``, a non-blank ``$regex`` matched by "x"."""
    if isinstance(value, dict):
        if len(value) == 1 and next(iter(value)).startswith("$"):
            ((name, arg),) = value.items()
            if name == "$type":
                return _PLACEHOLDER[arg if isinstance(arg, str) else arg[0]]
            if name in ("$optional", "$literal"):
                return _concrete(arg, pick) if name == "$optional" else arg
            if name == "$id":
                return (arg.get("prefix") or "") + "gen1" if isinstance(arg, dict) else "gen1"
            if name == "$json":
                return json.dumps(_concrete(arg, pick))
            if name == "$oneOf":
                return _concrete(arg[min(pick, len(arg) - 1)], pick)
            if name == "$unordered":
                return [_concrete(v, pick) for v in arg]
            if name == "$regex" and re.search(arg, "x"):
                return "x"  # free text (an error's message): any non-blank string
            raise _Unchecked(name)
        # an optional member is left out: the provider's definition is checked on what must be there, except
        # a literal number or boolean (a `$oneOf` branch written as the harness compares it: `index: 0`)
        out = {}
        for k, v in value.items():
            if isinstance(v, dict) and set(v) == {"$optional"}:
                if isinstance(v["$optional"], int | float) and not isinstance(v["$optional"], bool):
                    out[k] = v["$optional"]
                continue
            out[k] = _concrete(v, pick)
        return out
    if isinstance(value, list):
        return [_concrete(v, pick) for v in value]
    return value


def _alternatives(value: Any) -> list[Any]:
    """The values ``_concrete`` gives for each alternative index of the expectation's ``$oneOf`` (one when it
    has none): a provider's definition must accept at least one of what the expectation accepts."""
    widest = max((len(arg) for arg in _one_ofs(value)), default=1)
    return [_concrete(value, i) for i in range(widest)]


def _one_ofs(value: Any) -> Iterator[list[Any]]:
    if isinstance(value, dict):
        if set(value) == {"$oneOf"} and isinstance(value["$oneOf"], list):
            yield value["$oneOf"]
        for v in value.values():
            yield from _one_ofs(v)
    elif isinstance(value, list):
        for v in value:
            yield from _one_ofs(v)


def _expected_responses() -> Iterator[tuple[str, str, Any]]:
    for case in load_corpus().cases:
        if case.kind not in ("response", "stream"):
            continue
        for exp in case.expect:
            body = exp.get("payload") if case.kind == "response" else exp.get("accumulated")
            if exp["dialect"] in MODELS and isinstance(body, dict) and "error" not in body:
                yield case.id, exp["dialect"], body


EXPECTED = list(_expected_responses())


def test_the_corpus_has_expected_responses_in_every_provider_dialect() -> None:
    assert {dialect for _, dialect, _ in EXPECTED} == set(MODELS)
    assert len(EXPECTED) > 300


@pytest.mark.parametrize("dialect", sorted(MODELS))
def test_expected_responses_are_valid_for_the_provider_s_own_definition(dialect: str) -> None:
    problems, checked = [], 0
    for case_id, where, body in EXPECTED:
        if where != dialect:
            continue
        try:
            payloads = _alternatives(body)
        except _Unchecked:
            continue
        checked += 1
        found = [_response_problems(dialect, payload) for payload in payloads]
        if all(found):
            problems += [f"{case_id}: {p}" for p in found[0]]
    assert checked, dialect
    assert problems == []


def _response_problems(dialect: str, payload: Any) -> list[str]:
    try:
        MODELS[dialect].model_validate(payload)
    except pydantic.ValidationError as exc:
        return [
            f"{'.'.join(str(p) for p in err['loc'])}: {err['type']}: {err['msg']}"
            for err in exc.errors()
            if (dialect, err["type"], ".".join(str(p) for p in err["loc"])) not in TOLERATED
        ]
    return []


def _with_reasoning_ids(payload: dict[str, Any]) -> dict[str, Any]:
    """A Responses request whose ``reasoning`` input items all have an ``id``. The SDK's
    ``ResponseReasoningItemParam`` requires one, but Codex, OpenAI's own client, sends its reasoning items
    back without (openai/codex codex-rs/protocol/src/models.rs skips an absent id; with ``store: false``
    the API has none to look up), and the API takes them: the reference carries what the client sent."""
    items = payload.get("input")
    if not isinstance(items, list):
        return payload
    fixed = [
        {**item, "id": "rs_placeholder"}
        if isinstance(item, dict) and item.get("type") == "reasoning" and "id" not in item
        else item
        for item in items
    ]
    return {**payload, "input": fixed}


def _with_defaults(dialect: str, payload: Any) -> Any:
    """``payload`` with the members the dialect's ``default`` rules read as absent written out where their
    object is there but they are not (an input image's ``detail: auto``, a message item's ``type``): the
    corpus may leave a documented default out (INTERPRETING.md, "Equivalent spellings"), an SDK's type may
    still require it."""
    rules = load_corpus().dialects[dialect].get("equivalent", {}).get("rules", [])
    for rule in rules:
        if rule.get("rule") != "default" or "value" not in rule or rule["value"] is None:
            continue
        if "request" not in (rule.get("kinds") or ["request"]):
            continue
        for pattern in rule.get("at", []):
            *parents, name = pattern.strip("/").split("/")
            for holder in _at_pattern(payload, parents):
                missing = isinstance(holder, dict) and name not in holder
                if missing and not _is_item_of_other_type(holder, name):
                    holder[name] = rule["value"]
    return payload


def _is_item_of_other_type(holder: dict[str, Any], name: str) -> bool:
    """An input item that is no message (a function call, its output) keeps its own ``type``."""
    return name == "type" and "role" not in holder


def _at_pattern(value: Any, parts: list[str]) -> Iterator[Any]:
    if not parts:
        yield value
        return
    head, rest = parts[0], parts[1:]
    if head == "*":
        items = value.values() if isinstance(value, dict) else value if isinstance(value, list) else []
        for item in items:
            yield from _at_pattern(item, rest)
    elif isinstance(value, dict) and head in value:
        yield from _at_pattern(value[head], rest)


def _request_adapters() -> dict[str, Any]:
    from anthropic.types.message_create_params import MessageCreateParamsNonStreaming
    from openai.types.chat.completion_create_params import CompletionCreateParamsNonStreaming
    from openai.types.responses.response_create_params import ResponseCreateParamsNonStreaming

    # Gemini's SDK has no type for the REST body (it builds it from GenerateContentConfig): not checked here
    return {
        "openai-chat": pydantic.TypeAdapter(CompletionCreateParamsNonStreaming),
        "openai-responses": pydantic.TypeAdapter(ResponseCreateParamsNonStreaming),
        "anthropic": pydantic.TypeAdapter(MessageCreateParamsNonStreaming),
    }


def test_expected_requests_are_valid_for_the_provider_s_own_definition() -> None:
    """Requests are checked against the SDKs' request types (``stream`` aside: the non-streaming type).
    Tolerated: a request without ``model`` when its source names none (a Gemini body names it in the URL, a
    canonical request may leave it out): there is no model to write, a proxy takes it from the URL."""
    adapters, problems, checked = _request_adapters(), [], 0
    for case in load_corpus().cases:
        if case.kind != "request":
            continue
        source_model = isinstance(case.source_payload, dict) and "model" in case.source_payload
        for exp in case.expect:
            if exp["dialect"] not in adapters or not isinstance(exp.get("payload"), dict):
                continue
            try:
                payloads = [
                    {k: v for k, v in alternative.items() if k != "stream"}
                    for alternative in _alternatives(exp["payload"])
                ]
            except _Unchecked:
                continue
            checked += 1
            found = []
            for payload in payloads:
                payload = _with_defaults(exp["dialect"], payload)
                if exp["dialect"] == "openai-responses":
                    payload = _with_reasoning_ids(payload)
                try:
                    adapters[exp["dialect"]].validate_python(payload)
                    found.append([])
                except pydantic.ValidationError as exc:
                    found.append(
                        [
                            f"{'.'.join(str(p) for p in err['loc'])}: {err['type']}: {err['msg']}"
                            for err in exc.errors()
                            if not (err["loc"] == ("model",) and err["type"] == "missing") or source_model
                        ]
                    )
            if all(found):
                problems += [f"{case.id} ({exp['dialect']}): {p}" for p in found[0]]
    assert checked > 200
    assert problems == []


def test_expected_anthropic_errors_have_one_of_anthropic_s_error_types() -> None:
    """An error written in Anthropic's shape (a stream's error event, an error body) has one of the types its
    API and SDK know (``ErrorResponse``); another provider's code is mapped, never passed through."""
    checked, problems = 0, []
    for case in load_corpus().cases:
        for exp in case.expect:
            body = exp.get("accumulated") if case.kind == "stream" else exp.get("payload")
            if exp["dialect"] != "anthropic" or not isinstance(body, dict) or "error" not in body:
                continue
            try:
                error = _concrete(body["error"])
            except _Unchecked:
                continue
            checked += 1
            try:
                anthropic_types.ErrorResponse.model_validate({"type": "error", "error": error})
            except pydantic.ValidationError:
                problems.append(f"{case.id}: error type {error.get('type')!r}")
    assert checked and problems == []
