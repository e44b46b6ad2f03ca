"""The wire schemas accept what the providers' official definitions accept (tests/official/), drawn from the
definitions themselves: every Responses stream event type and input item, every reason a Responses answer
is incomplete, every Gemini finish reason, every top-level member of a Mistral and a Bedrock Converse
request and every Mistral tool. A wire schema stricter than the provider gives a false "the provider would
reject this"; when a new release adds a value, regenerating the definitions (`make official-definitions`)
makes this test say which schema is behind."""

from __future__ import annotations

from typing import Any

import pytest
from official import branches, definition, member, resolve, sample, values
from protocol_support import REPO
from toolwire.corpus.wire import validate

SCHEMAS = REPO / "schemas"


def _entry(dialect: str, name: str) -> dict[str, Any]:
    return {"$ref": f"#/$defs/entry.{name}"}


def _def(dialect: str, name: str) -> dict[str, Any]:
    return definition(dialect)["$defs"][name]


def _accepted(dialect: str, kind: str, payload: Any) -> None:
    assert validate(dialect, kind, payload, SCHEMAS) == [], payload


RESPONSES_EVENTS = branches("openai-responses", _entry("openai-responses", "stream_event"))


@pytest.mark.parametrize("event", RESPONSES_EVENTS, ids=lambda e: str(e.get("properties", {}).get("type")))
def test_every_responses_stream_event_type(event: dict[str, Any]) -> None:
    _accepted("openai-responses", "stream", sample("openai-responses", event))


def test_there_are_as_many_responses_event_types_as_the_sdk_has() -> None:
    assert (
        len({sample("openai-responses", e)["type"] for e in RESPONSES_EVENTS}) == len(RESPONSES_EVENTS) > 50
    )


@pytest.mark.parametrize(
    "reason",
    values(
        "openai-responses",
        member("openai-responses", _def("openai-responses", "IncompleteDetails"), "reason"),
    ),
)
def test_every_reason_a_responses_answer_is_incomplete(reason: str) -> None:
    response = sample("openai-responses", _entry("openai-responses", "response"))
    response.update(status="incomplete", incomplete_details={"reason": reason})
    _accepted("openai-responses", "response", response)


_REQUEST = _entry("openai-responses", "request")
INPUT_ITEMS = branches("openai-responses", member("openai-responses", _REQUEST, "input"))


#: where a wire schema is stricter than the SDK on purpose: the provider refuses what the SDK's type allows
STRICTER = {
    # openai-python 3.57.0 types `call_id` optional; the API answers 400 without it (openai/codex#42088)
    "function_call_output": {"call_id": "call_1"},
}
INPUT_ITEMS = [
    one for i in INPUT_ITEMS if i.get("type") != "string" for one in branches("openai-responses", i["items"])
]


@pytest.mark.parametrize("item", INPUT_ITEMS, ids=lambda i: str(i.get("properties", {}).get("type")))
def test_every_responses_input_item(item: dict[str, Any]) -> None:
    value = sample("openai-responses", item)
    value.update(STRICTER.get(value.get("type"), {}))
    _accepted("openai-responses", "request", {"model": "m", "input": [value]})


@pytest.mark.parametrize("reason", values("gemini", _def("gemini", "FinishReason")))
def test_every_gemini_finish_reason(reason: str) -> None:
    candidate = {"content": {"role": "model", "parts": [{"text": "x"}]}, "finishReason": reason}
    _accepted("gemini", "response", {"candidates": [candidate]})


def _members(dialect: str, name: str) -> list[tuple[str, dict[str, Any]]]:
    request = branches(dialect, _entry(dialect, name))[0]
    return sorted(resolve(dialect, request)["properties"].items())


MISTRAL_BASE = {"model": "m", "messages": [{"role": "user", "content": "hi"}]}


@pytest.mark.parametrize(
    ("name", "schema"),
    [(n, s) for n, s in _members("mistral", "request") if n not in MISTRAL_BASE],
    ids=lambda v: v if isinstance(v, str) else "",
)
def test_every_mistral_request_member(name: str, schema: dict[str, Any]) -> None:
    _accepted("mistral", "request", {**MISTRAL_BASE, name: sample("mistral", schema)})


MISTRAL_TOOLS = branches("mistral", resolve("mistral", _entry("mistral", "tools"))["items"])


@pytest.mark.parametrize("tool", MISTRAL_TOOLS, ids=lambda t: str(t.get("properties", {}).get("type")))
def test_every_mistral_tool(tool: dict[str, Any]) -> None:
    value = sample("mistral", tool)
    if "function" in value:  # its parameters are a JSON Schema, of an object (openai-parameters.schema.json)
        value["function"]["parameters"] = {"type": "object", "properties": {}}
    _accepted("mistral", "request", {**MISTRAL_BASE, "tools": [value]})


BEDROCK_BASE = {"messages": [{"role": "user", "content": [{"text": "hi"}]}]}


@pytest.mark.parametrize(
    ("name", "schema"),
    [(n, s) for n, s in _members("bedrock-converse", "request") if n not in BEDROCK_BASE],
    ids=lambda v: v if isinstance(v, str) else "",
)
def test_every_bedrock_request_member(name: str, schema: dict[str, Any]) -> None:
    _accepted("bedrock-converse", "request", {**BEDROCK_BASE, name: sample("bedrock-converse", schema)})
