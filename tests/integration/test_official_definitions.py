"""Every expected payload the corpus writes in a provider dialect is valid for the provider's own definition:
the official SDKs' response models (OpenAI `ChatCompletion` and `Response`, Anthropic `Message`, Google
`GenerateContentResponse`) and request types (OpenAI chat and Responses, Anthropic), pinned in the dev
extras. Matchers become a value they accept; what cannot be checked that way, and the exceptions tolerated
(here and in the request test's docstring), say why."""

from __future__ import annotations

import json
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
    "integer": 0, "number": 0.0, "string": "x", "boolean": False, "object": {}, "array": [], "null": None
}


class _Unchecked(Exception):
    """The expectation holds a matcher with no one value to stand for it (``$any``, ``$regex``)."""


def _concrete(value: Any) -> Any:
    if isinstance(value, dict):
        if len(value) == 1 and next(iter(value)).startswith("$"):
            (name, arg), = value.items()
            if name == "$type":
                return _PLACEHOLDER[arg if isinstance(arg, str) else arg[0]]
            if name in ("$optional", "$literal"):
                return _concrete(arg) if name == "$optional" else arg
            if name == "$id":
                return (arg.get("prefix") or "") + "gen1" if isinstance(arg, dict) else "gen1"
            if name == "$json":
                return json.dumps(_concrete(arg))
            if name in ("$oneOf", "$unordered"):
                return _concrete(arg[0]) if name == "$oneOf" else [_concrete(v) for v in arg]
            raise _Unchecked(name)
        # an optional member is left out: the provider's definition is checked on what must be there
        return {k: _concrete(v) for k, v in value.items() if not (isinstance(v, dict) and "$optional" in v)}
    if isinstance(value, list):
        return [_concrete(v) for v in value]
    return value


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
            payload = _concrete(body)
        except _Unchecked:
            continue
        checked += 1
        try:
            MODELS[dialect].model_validate(payload)
        except pydantic.ValidationError as exc:
            for err in exc.errors():
                loc = ".".join(str(p) for p in err["loc"])
                if (dialect, err["type"], loc) not in TOLERATED:
                    problems.append(f"{case_id}: {loc}: {err['type']}: {err['msg']}")
    assert checked, dialect
    assert problems == []


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
                payload = {k: v for k, v in _concrete(exp["payload"]).items() if k != "stream"}
            except _Unchecked:
                continue
            checked += 1
            if exp["dialect"] == "openai-responses":
                payload = _with_reasoning_ids(payload)
            try:
                adapters[exp["dialect"]].validate_python(payload)
            except pydantic.ValidationError as exc:
                for err in exc.errors():
                    loc = ".".join(str(p) for p in err["loc"])
                    if not (loc == "model" and err["type"] == "missing" and not source_model):
                        problems.append(f"{case.id} ({exp['dialect']}): {loc}: {err['type']}: {err['msg']}")
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
