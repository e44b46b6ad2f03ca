"""Every expected payload the corpus writes in a provider dialect is valid for the provider's own definition.

The definitions are ``tests/official/definitions/``: one JSON Schema per dialect, generated from the newest
official SDKs and service model (``tests/official/README.md``), deep and closed. Each expectation is checked
in every form it accepts (every ``$oneOf`` alternative, each ``$optional`` member present and absent), every
kind (requests, responses, error bodies, streams' answers and events, tools, tool choices, text), all six
provider dialects. What the corpus writes although a definition refuses it is excused only by
``tests/official/exceptions.json``, each entry with public evidence that the provider takes it.
"""

from __future__ import annotations

import copy
import json
import re
from collections import Counter
from typing import Any

import official
import pytest
from official import (
    DIALECTS,
    OFFICIAL,
    ROOT,
    Variant,
    as_sent,
    definition,
    exceptions,
    expected_payloads,
    problems,
    rebased,
    variants,
)
from toolwire.corpus import load_corpus

CORPUS = load_corpus()
EXPECTED = list(expected_payloads(CORPUS))
#: the exceptions each dialect's run used (the last test reads them all)
USED: dict[str, set[int]] = {}


def _problems_of(dialect: str, kind: str, expected: Any, used: set[int] | None = None) -> list[str]:
    """The problems of every form ``expected`` accepts, each with the choices that made the form."""
    found = []
    for variant in variants(expected):
        sent = as_sent(dialect, kind, variant.value)
        if sent is None:
            continue
        entry, value = sent
        form = rebased(variant, kind, dialect)
        form.value = value
        found += [f"({entry}, {variant.label}) {p}" for p in problems(dialect, entry, form, used)]
    return found


def test_the_corpus_has_every_kind_in_every_provider_dialect() -> None:
    kinds = Counter((dialect, kind) for _, dialect, kind, _ in EXPECTED)
    for dialect in DIALECTS:
        for kind in ("request", "response", "stream", "tools", "tool_choice"):
            assert kinds[(dialect, kind)], (dialect, kind)
    assert len(EXPECTED) > 2000


@pytest.mark.parametrize("dialect", DIALECTS)
def test_expected_payloads_are_valid_for_the_provider_s_own_definition(dialect: str) -> None:
    used: set[int] = set()
    found = [
        f"{case_id} [{kind}] {p}"
        for case_id, where, kind, expected in EXPECTED
        if where == dialect
        for p in _problems_of(dialect, kind, expected, used)
    ]
    USED[dialect] = used
    assert found == []


def test_every_exception_cites_public_evidence() -> None:
    for i, exc in enumerate(exceptions()):
        assert exc["dialect"] in DIALECTS and exc["entries"] and exc["error"], i
        assert len(exc.get("why", "")) > 40, f"exception {i} says why in a sentence"
        assert exc.get("evidence"), f"exception {i} has no evidence"
        for evidence in exc["evidence"]:
            if evidence.startswith("https://"):
                continue
            assert evidence.startswith("corpus/captures/"), f"exception {i}: {evidence} is no URL or capture"
            assert (ROOT / evidence).is_file(), f"exception {i}: {evidence} does not exist"


def test_every_exception_is_used() -> None:
    if set(USED) != set(DIALECTS):  # a dialect's test was deselected or ran in another process
        for dialect in DIALECTS:
            USED[dialect] = set()
            for _case_id, where, kind, expected in EXPECTED:
                if where == dialect:
                    _problems_of(dialect, kind, expected, USED[dialect])
    used = set().union(*USED.values())
    unused = [exc["why"][:80] for i, exc in enumerate(exceptions()) if i not in used]
    assert unused == []


# ---- the check catches what it is for ----


def _expectation(case_id: str, dialect: str) -> Any:
    (case,) = [c for c in CORPUS.cases if c.id == case_id]
    (exp,) = [e for e in case.expect if e["dialect"] == dialect and ("payload" in e or "accumulated" in e)]
    return copy.deepcopy(exp.get("payload", exp.get("accumulated")))


def _alternatives(expected: Any) -> list[Any]:
    return expected["$oneOf"] if isinstance(expected, dict) and set(expected) == {"$oneOf"} else [expected]


GEMINI_SOURCED = "calls/gemini-missing-ids-parallel-same-function"


@pytest.mark.parametrize("dialect", ["openai-chat", "anthropic"])
def test_a_request_without_its_model_is_caught(dialect: str) -> None:
    expected = _expectation(GEMINI_SOURCED, dialect)
    assert _problems_of(dialect, "request", expected) == []
    for alternative in _alternatives(expected):
        del alternative["model"]
    assert any("'model' is a required property" in p for p in _problems_of(dialect, "request", expected))


def test_a_mistral_request_without_its_model_is_caught() -> None:
    expected = _expectation("messages/gemini-capture-mode-auto", "mistral")
    expected.pop("model")
    assert any("'model' is a required property" in p for p in _problems_of("mistral", "request", expected))


def test_a_safety_identifier_longer_than_64_characters_is_caught() -> None:
    case_id = "messages/claude-code-first-turn-capture-to-responses"
    (case,) = [c for c in CORPUS.cases if c.id == case_id]
    user_id = case.source_payload["metadata"]["user_id"]
    assert len(user_id) > 64
    expected = _expectation(case_id, "openai-responses")
    for alternative in _alternatives(expected):
        alternative["safety_identifier"] = user_id
    found = _problems_of("openai-responses", "request", expected)
    assert found and all("/safety_identifier: maxLength" in p for p in found)


@pytest.mark.parametrize("member", ["status", "annotations"])
def test_an_optional_message_status_or_annotations_is_caught(member: str) -> None:
    expected = _expectation("responses/bedrock-text-capture", "openai-responses")
    message = expected["output"][0]
    holder = message if member == "status" else message["content"][0]
    holder[member] = {"$optional": holder[member]}
    found = _problems_of("openai-responses", "response", expected)
    assert any(f"'{member}' is a required property" in p and "=absent" in p for p in found)


def test_refusal_parts_in_assistant_history_pass_only_by_their_cited_exception(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The SDK types an assistant message's `output_text`/`refusal` part lists only with an item `id` and
    `status`; the corpus accepts them without, as the API does: only a cited exception says so."""
    expected = _expectation("messages/openai-chat-assistant-refusal-in-history", "openai-responses")
    assert _problems_of("openai-responses", "request", expected) == []
    monkeypatch.setattr(official, "exceptions", lambda: [])
    found = _problems_of("openai-responses", "request", expected)
    assert any("/input/1/content" in p for p in found)


def test_the_arguments_done_event_may_leave_its_name_out() -> None:
    """openai-python 3.57.0's ResponseFunctionCallArgumentsDoneEvent has no `name` (the OpenAPI spec lists
    it as required); no recorded stream carries it (corpus/captures/openai-responses/09, 11, 12, 14): the
    SDK and the recordings are followed."""
    event = {
        "type": "response.function_call_arguments.done",
        "item_id": "fc_1",
        "output_index": 0,
        "sequence_number": 3,
        "arguments": "{}",
    }
    assert problems("openai-responses", "stream_event", Variant(event, "base")) == []
    recorded = (
        ROOT / "corpus/captures/openai-responses/11_stream_reasoning_then_function_call_2025-12.chunks.jsonl"
    )
    done = [json.loads(line) for line in recorded.read_text().splitlines() if "arguments.done" in line]
    assert done and all("name" not in e for e in done)


@pytest.mark.parametrize(
    ("dialect", "payload", "expected"),
    [
        ("openai-chat", {"model": "m", "messages": [{"role": "bogus", "content": "hi"}]}, "/messages/0"),
        ("openai-chat", {"model": "m", "messages": [], "tools": [{"garbage": 1}]}, "/tools/0"),
        ("openai-chat", {"model": "m", "messages": [], "frobnicate": True}, "frobnicate"),
        (
            "anthropic",
            {"model": "m", "max_tokens": 1, "messages": [{"role": "user", "content": [{"type": "x"}]}]},
            "/messages/0",
        ),
        ("gemini", {"contents": [{"role": "user", "parts": [{"txt": "hi"}]}]}, "/contents/0/parts/0"),
        (
            "bedrock-converse",
            {"messages": [{"role": "user", "content": [{"text": "a", "image": {}}]}]},
            "/messages/0/content/0",
        ),
        (
            "mistral",
            {"model": "m", "messages": [{"role": "user", "content": "hi", "name": 5}]},
            "/messages/0",
        ),
    ],
)
def test_a_wrong_member_deep_inside_a_request_is_caught(dialect: str, payload: Any, expected: str) -> None:
    found = [str(p) for p in problems(dialect, "request", Variant(payload, "base"))]
    assert any(expected in p for p in found), found


def test_matchers_stand_for_every_value_they_accept() -> None:
    """`$oneOf` gives a form per alternative, `$optional` a form without the member; `$any` is unknown."""
    expected = {"a": {"$oneOf": [1, "x"]}, "b": {"$optional": {"$any": True}}, "c": {"$type": "string"}}
    forms = variants(expected)
    assert [f.value for f in forms] == [
        {"a": 1, "b": None, "c": "x"},
        {"a": "x", "b": None, "c": "x"},
        {"a": 1, "c": "x"},
    ]
    assert forms[0].anything == {"/b"} and forms[0].typed == {"/c"}


def test_the_definitions_say_where_they_come_from() -> None:
    pins = (OFFICIAL / "requirements.txt").read_text()
    for dialect in DIALECTS:
        source = definition(dialect)["description"]
        package = re.search(r"from (\S+) ([0-9][^;\s]*)", source)
        assert package, source
        assert f"{package.group(1)}=={package.group(2)}" in pins, source
