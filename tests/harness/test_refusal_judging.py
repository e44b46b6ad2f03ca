"""Refusal expectations judged by what reaches the client (INTERPRETING.md, "Error expectations"): input
invalid in its own dialect is judged only for an implementation that declares it validates input; valid input
with no faithful target form may be refused or left to the provider, never silently changed.
Each test runs a real corpus check through a small translator that has one behaviour."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from toolwire.adapters.inprocess import PythonAdapter
from toolwire.corpus import load_corpus
from toolwire.corpus.capabilities import problems
from toolwire.judge import run_check
from toolwire.protocol import TranslationRefusal
from toolwire.results import check_record
from toolwire_reference import translate, translate_stream


@pytest.fixture(scope="module")
def checks() -> dict[str, Any]:
    return {c.id: c for c in load_corpus().checks()}


class Behaviour:
    """A translator declaring every pair and profile: ``answer(kind, source, target, payload)`` answers."""

    def __init__(self, answer: Any, validates: bool | None = None) -> None:
        self.answer = answer
        self.validates = validates

    def capabilities(self) -> dict[str, Any]:
        caps: dict[str, Any] = {
            "name": "behaviour",
            "version": "0",
            "language": "python",
            "kinds": {k: [["*", "*"]] for k in ("tools", "tool_choice", "request", "response", "stream")},
            "profiles": {"openai.strict": ["*"], "unsupported": ["*"], "ids.orphans": ["*"]},
        }
        if self.validates is not None:
            caps["validates_input"] = self.validates
        return caps

    def translate(self, kind: str, source: str, target: str, payload: Any, profile: Any) -> Any:
        return self.answer(kind, source, target, copy.deepcopy(payload))

    def translate_stream(self, source: str, target: str, events: Any, profile: Any) -> Any:
        return self.answer("stream", source, target, copy.deepcopy(list(events)))


def forward(kind: str, source: str, target: str, payload: Any) -> Any:
    """A pass-through: Anthropic tools keep their name, ``input_schema`` comes from ``parameters``."""
    if kind == "tools" and source == "canonical" and target == "anthropic":
        return [
            {"name": t["name"], "description": t["description"], "input_schema": t["parameters"]}
            for t in payload
        ]
    return payload


def refuse(kind: str, source: str, target: str, payload: Any) -> Any:
    raise TranslationRefusal("invalid_input", "no", None)


def run(checks: dict[str, Any], check_id: str, impl: Behaviour) -> dict[str, Any]:
    check = checks[check_id]
    return check_record(check, run_check(PythonAdapter("python:behaviour", impl), check))


INVALID = "validation/invalid-property-type[canonical>anthropic]"


def test_forwarding_invalid_input_unchanged_is_no_failure(checks: dict[str, Any]) -> None:
    record = run(checks, INVALID, Behaviour(forward))
    assert record["outcome"] == "passed"
    assert record["source_invalid"] is True and record["handled"] == "forwarded"
    assert "input invalid in its own dialect" in record["message"]


def test_refusing_or_repairing_invalid_input_is_recorded(checks: dict[str, Any]) -> None:
    assert run(checks, INVALID, Behaviour(refuse))["handled"] == "refused"

    def repair(kind: str, source: str, target: str, payload: Any) -> Any:
        tools = forward(kind, source, target, payload)
        tools[0]["input_schema"]["properties"]["count"]["type"] = "integer"
        return tools

    assert run(checks, INVALID, Behaviour(repair))["handled"] == "translated"


def test_an_implementation_declaring_validation_is_judged_on_refusing(checks: dict[str, Any]) -> None:
    record = run(checks, INVALID, Behaviour(forward, validates=True))
    assert record["outcome"] == "failed" and "handled" not in record


def test_invalid_input_still_fails_a_translator_that_mutates_or_crashes(checks: dict[str, Any]) -> None:
    def crash(kind: str, source: str, target: str, payload: Any) -> Any:
        raise RuntimeError("boom")

    assert run(checks, INVALID, Behaviour(crash))["outcome"] == "errored"
    check = checks[INVALID]

    class Mutates(Behaviour):
        def translate(self, kind: str, source: str, target: str, payload: Any, profile: Any) -> Any:
            payload[0]["name"] = "changed"
            return forward(kind, source, target, copy.deepcopy(payload))

    result = run_check(PythonAdapter("python:m", Mutates(forward)), check)
    assert result.outcome == "failed" and "mutated its input" in (result.message or "")


def test_a_library_raising_a_shape_error_on_invalid_input_refused_it(checks: dict[str, Any]) -> None:
    """any-llm spreading a string ``parameters`` (``TypeError: 'str' object is not a mapping``): the caller
    learns its input is bad as from a refusal. On valid input, or for an implementation that declares it
    validates its input, the same exception is a crash."""

    def spread(kind: str, source: str, target: str, payload: Any) -> Any:
        return {**"not a mapping"}  # type: ignore[dict-item]

    record = run(checks, INVALID, Behaviour(spread))
    assert record["outcome"] == "passed" and record["handled"] == "refused"
    assert "refused by raising TypeError" in record["message"]
    assert run(checks, INVALID, Behaviour(spread, validates=True))["outcome"] == "errored"
    valid = "tools/annotations-kept[canonical>anthropic]"
    assert not checks[valid].source_problems
    assert run(checks, valid, Behaviour(spread))["outcome"] == "errored"


NO_FAITHFUL_FORM = "validation/required-not-in-properties-nested[anthropic>gemini]"


def test_valid_input_the_target_rejects_forwarded_is_left_to_the_provider(
    checks: dict[str, Any],
) -> None:
    def to_gemini(kind: str, source: str, target: str, payload: Any) -> Any:
        return [
            {"functionDeclarations": [{"name": t["name"], "parameters": t["input_schema"]} for t in payload]}
        ]

    check = checks[NO_FAITHFUL_FORM]
    assert not check.source_problems
    record = run(checks, NO_FAITHFUL_FORM, Behaviour(to_gemini))
    assert record["outcome"] == "passed" and record["handled"] == "left-to-provider"
    assert "required but not defined in properties" in record["message"]


def test_valid_input_silently_rewritten_into_an_accepted_output_fails(checks: dict[str, Any]) -> None:
    def drop_required(kind: str, source: str, target: str, payload: Any) -> Any:
        out = []
        for tool in payload:
            schema = copy.deepcopy(tool["input_schema"])
            schema["properties"]["rows"]["items"].pop("required")
            out.append({"name": tool["name"], "parameters": schema})
        return [{"functionDeclarations": out}]

    record = run(checks, NO_FAITHFUL_FORM, Behaviour(drop_required))
    assert record["outcome"] == "failed"
    assert "provider accepts this output" in record["message"]


def test_forwarding_what_the_target_rejects_fails_where_a_degrade_exists(
    checks: dict[str, Any],
) -> None:
    """Portkey sending exclusiveMinimum to Gemini: a faithful degrade exists, so forwarding is no excuse."""
    check_id = "tools/gemini-unsupported-exclusive-minimum-nested[canonical>gemini]"
    check = checks[check_id]
    assert [e for e in check.case.expect if e["dialect"] == "gemini" and "payload" in e]

    def forward_keyword(kind: str, source: str, target: str, payload: Any) -> Any:
        return [
            {
                "functionDeclarations": [
                    {
                        "name": t["name"],
                        "description": t.get("description", ""),
                        "parameters": t["parameters"],
                    }
                    for t in payload
                ]
            }
        ]

    record = run(checks, check_id, Behaviour(forward_keyword))
    assert record["outcome"] == "failed" and "degrade" in record["message"]


def test_forwarding_what_the_target_rejects_is_left_to_it_where_the_only_other_form_is_tolerated(
    checks: dict[str, Any],
) -> None:
    """aisuite passing a choice that forces an OpenAI custom tool on to Anthropic: the case tolerates a wrap
    (``custom.tools=wrap``, level may) but recommends no form, so the provider's 400 is the client's error."""
    check_id = "choice/openai-chat-custom-tool-choice[openai-chat>anthropic]"
    degrades = [e for e in checks[check_id].case.expect if e["dialect"] == "anthropic" and "payload" in e]
    assert degrades and all(e.get("level") == "may" for e in degrades)
    record = run(checks, check_id, Behaviour(forward))
    assert record["outcome"] == "passed" and record["handled"] == "left-to-provider"


def test_the_degrade_the_case_accepts_passes_under_the_refusing_profile(checks: dict[str, Any]) -> None:
    check_id = "tools/gemini-unsupported-exclusive-minimum-nested[canonical>gemini]"
    check = checks[check_id]

    def degrade(kind: str, source: str, target: str, payload: Any) -> Any:
        return translate("tools", payload, source=source, target=target, profile={"unsupported": "degrade"})

    record = run(checks, check_id, Behaviour(degrade))
    assert check.when.get("unsupported", "error") == "error"
    assert record["outcome"] == "passed" and record["handled"] == "accepted-degrade"


def test_a_truncated_stream_passed_on_truncated_is_faithful(checks: dict[str, Any]) -> None:
    check_id = "streams/anthropic-truncated-mid-tool-call[anthropic>anthropic]"
    if check_id not in checks:
        check_id = next(
            i for i in checks if i.startswith("streams/anthropic-truncated-mid-tool-call[anthropic>")
        )
    check = checks[check_id]

    def same(kind: str, source: str, target: str, payload: Any) -> Any:
        return translate_stream_events(payload, source, target)

    record = run(checks, check_id, Behaviour(same))
    assert record["outcome"] == "passed" and record["handled"] == "forwarded", record
    assert check.expected_error["code"] == "stream.truncated"


def translate_stream_events(events: list[Any], source: str, target: str) -> list[Any]:
    """The reference's translation up to its refusal at the end: a stream cut where its source was."""
    from toolwire_reference import translate_stream
    from toolwire_reference.errors import TranslationError

    out: list[Any] = []
    try:
        for event in translate_stream(iter(events), source=source, target=target):
            out.append(event)
    except TranslationError:
        pass
    return out


def test_a_completed_stream_made_from_a_truncated_one_fails(checks: dict[str, Any]) -> None:
    check_id = next(
        i for i in checks if i.startswith("streams/anthropic-truncated-mid-tool-call[anthropic>openai-chat")
    )

    def complete(kind: str, source: str, target: str, payload: Any) -> Any:
        out = translate_stream_events(payload, source, target)
        stop = {
            "id": "x",
            "object": "chat.completion.chunk",
            "created": 1,
            "model": "m",
            "choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}],
        }
        return [*out, {"data": stop}, {"data": "[DONE]"}]

    record = run(checks, check_id, Behaviour(complete))
    assert record["outcome"] == "failed"
    assert "array is invalid" not in record["message"] and "top level" not in record["message"]


def test_validates_input_must_be_a_boolean() -> None:
    corpus = load_corpus()
    assert any("validates_input" in p for p in problems({"validates_input": "yes"}, corpus))
    assert not problems({"validates_input": True}, corpus)


@pytest.mark.parametrize(
    ("stop", "outcome"), [("other", "passed"), ("error", "passed"), ("end_turn", "failed")]
)
def test_a_truncated_stream_ended_abnormally_passes_and_ended_normally_fails(
    checks: dict[str, Any], stop: str, outcome: str
) -> None:
    """A stop reason the target's descriptor calls abnormal (canonical ``other``, ``error``) tells the client
    the answer did not end normally; ``end_turn`` says it did, and the truncation is lost."""
    check_id = "streams/anthropic-truncated-mid-tool-call[anthropic>canonical]"

    def end(kind: str, source: str, target: str, payload: Any) -> Any:
        return [{"data": {"type": "message_start"}}, {"data": {"type": "message_end", "stop_reason": stop}}]

    record = run(checks, check_id, Behaviour(end))
    assert record["outcome"] == outcome, record


def test_an_upstream_stream_error_raised_as_the_implementations_own_error_passes(
    checks: dict[str, Any],
) -> None:
    """A library raises the provider's stream error to its caller, as the official SDKs do: the error reaches
    the client. Raising on a stream that ends normally is still a failure."""
    errored = next(
        c
        for c in checks
        if c.startswith("streams/anthropic-error-event-mid-stream[anthropic>") and "," not in c
    )
    normal = next(
        c for c in checks if c.startswith("streams/anthropic-tool-use-capture[anthropic>") and "," not in c
    )

    def overloaded(kind: str, source: str, target: str, payload: Any) -> Any:
        raise TranslationRefusal("peer.error", "anthropic.APIStatusError: Overloaded", None)

    record = run(checks, errored, Behaviour(overloaded))
    assert record["outcome"] == "passed" and record["handled"] == "raised", record
    assert run(checks, normal, Behaviour(refuse))["outcome"] == "failed"
    # toward Responses the case accepts an error event or a failed response (a `$oneOf`): raising is as good
    # (audit 221, finding 19)
    responses = "streams/anthropic-error-event-mid-tool-call[anthropic>openai-responses]"
    assert set(checks[responses].expectation["accumulated"]) == {"$oneOf"}

    def internal(kind: str, source: str, target: str, payload: Any) -> Any:
        raise TranslationRefusal("peer.error", "MidStreamFallbackError: Internal server error", None)

    record = run(checks, responses, Behaviour(internal))
    assert record["outcome"] == "passed" and record["handled"] == "raised", record
    assert f"{responses[:-1]},incremental]" not in checks  # a stream ending in an error has no such variant


def test_invalid_input_with_a_payload_expected_is_judged_only_under_a_declared_profile(
    checks: dict[str, Any],
) -> None:
    """Garbage in under the defaults is information; under a profile value chosen for it (ids.orphans=drop)
    the implementation declared how it handles such input, and is judged on it."""
    default = next(
        c
        for c in checks
        if c.startswith("validation/name-with-space[") and "error" not in checks[c].expectation
    )
    assert not checks[default].when
    assert run(checks, default, Behaviour(refuse))["outcome"] == "passed"
    declared = next(
        c for c in checks if c.startswith("results/call-without-result[") and "ids.orphans=drop" in c
    )
    assert run(checks, declared, Behaviour(refuse))["outcome"] == "failed"


class Declaring(Behaviour):
    """A Behaviour that declares the given profile keys (and their values)."""

    def __init__(self, answer: Any, profiles: dict[str, list[str]]) -> None:
        super().__init__(answer)
        self.profiles = profiles

    def capabilities(self) -> dict[str, Any]:
        return {**super().capabilities(), "profiles": self.profiles}


def test_the_output_of_another_policy_passes_where_the_key_is_undeclared(checks: dict[str, Any]) -> None:
    """Profiles are choices on which correct translators differ: an implementation that states no policy for
    ``gemini.schema`` and writes ``parametersJsonSchema`` (the ``json-schema`` expectation) is not failed
    against the default ``openapi``; one that declares ``openapi`` is held to it."""
    check_id = "tools/gemini-ref-inlined[canonical>gemini]"

    def json_schema(kind: str, source: str, target: str, payload: Any) -> Any:
        profile = {"gemini.schema": "json-schema"}
        return translate(kind, payload, source=source, target=target, profile=profile)

    record = run(checks, check_id, Declaring(json_schema, {"openai.strict": ["*"]}))
    assert record["outcome"] == "passed" and record["handled"] == "another-policy", record
    record = run(checks, check_id, Declaring(json_schema, {"gemini.schema": ["openapi"]}))
    assert record["outcome"] == "failed"


def test_a_refusal_passes_where_the_case_accepts_one_beside_its_payload(checks: dict[str, Any]) -> None:
    """Members the target has no form for may be dropped (the payload) or refused (refusal_accepted)."""
    accepting = "messages/responses-text-verbosity-and-account-members[openai-responses>anthropic]"
    assert checks[accepting].expectation.get("refusal_accepted")
    record = run(checks, accepting, Behaviour(refuse))
    assert record["outcome"] == "passed" and record["handled"] == "refused"
    strict = "messages/responses-text-verbosity-and-account-members[openai-responses>openai-chat]"
    assert run(checks, strict, Behaviour(refuse))["outcome"] == "failed"


def test_an_error_raised_without_the_upstreams_error_fails(checks: dict[str, Any]) -> None:
    """Raising is the client's error only when it carries what the upstream said."""
    errored = next(
        c
        for c in checks
        if c.startswith("streams/anthropic-error-event-mid-stream[anthropic>") and "," not in c
    )

    def unrelated(kind: str, source: str, target: str, payload: Any) -> Any:
        raise TranslationRefusal("peer.error", "KeyError: 'choices'", None)

    assert run(checks, errored, Behaviour(unrelated))["outcome"] == "failed"


def test_a_completed_responses_stream_made_from_a_truncated_one_fails(checks: dict[str, Any]) -> None:
    """A Responses body always has an ``error`` member (null): that is no error event, and a stream that ends
    ``response.completed`` hides the truncation."""
    prefix = "streams/anthropic-truncated-mid-tool-call[anthropic>openai-responses"
    check_id = next(c for c in checks if c.startswith(prefix))

    def completed(kind: str, source: str, target: str, payload: Any) -> Any:
        response = {
            "id": "resp_1", "object": "response", "created_at": 1, "status": "completed", "error": None,
            "incomplete_details": None, "model": "m", "output": [], "parallel_tool_calls": True,
            "tool_choice": "auto", "tools": [],
        }  # fmt: skip
        return [
            {"event": "response.created", "data": {"type": "response.created", "sequence_number": 0,
                                                   "response": {**response, "status": "in_progress"}}},
            {"event": "response.completed", "data": {"type": "response.completed", "sequence_number": 1,
                                                     "response": response}},
        ]  # fmt: skip

    assert run(checks, check_id, Behaviour(completed))["outcome"] == "failed"


AFTER_DELTA = "streams/anthropic-truncated-after-message-delta[anthropic>openai-chat]"


def test_a_stream_missing_only_its_dataless_end_may_be_read_whole_refused_or_cut(
    checks: dict[str, Any],
) -> None:
    """Everything but ``message_stop`` arrived: the complete translation passes (the official SDK reads the
    message whole), a refusal passes, and so does a stream passed on without its terminator ([DONE]); one
    that says something else (no tool call) fails."""
    assert checks[AFTER_DELTA].expectation.get("refusal_accepted")

    def whole(kind: str, source: str, target: str, payload: Any) -> Any:
        return translate_stream_events(
            [*payload, {"event": "message_stop", "data": {"type": "message_stop"}}], source, target
        )

    assert run(checks, AFTER_DELTA, Behaviour(whole))["outcome"] == "passed"
    assert run(checks, AFTER_DELTA, Behaviour(refuse))["handled"] == "refused"

    def cut(kind: str, source: str, target: str, payload: Any) -> Any:
        return [e for e in whole(kind, source, target, payload) if e.get("data") != "[DONE]"]

    record = run(checks, AFTER_DELTA, Behaviour(cut))
    assert record["outcome"] == "passed" and record["handled"] == "forwarded", record

    def text_only(kind: str, source: str, target: str, payload: Any) -> Any:
        out = []
        for event in whole(kind, source, target, payload):
            choices = event["data"].get("choices") or [{}] if isinstance(event["data"], dict) else [{}]
            if choices[0].get("delta", {}).get("tool_calls"):
                continue  # the call is lost, the stream ends as a plain answer
            if choices[0].get("finish_reason") == "tool_calls":
                choices[0]["finish_reason"] = "stop"
            out.append(event)
        return out

    assert run(checks, AFTER_DELTA, Behaviour(text_only))["outcome"] == "failed"


def test_an_output_is_reported_against_the_closest_undeclared_policy(checks: dict[str, Any]) -> None:
    """The Claude Code error-result case toward Responses: an output that drops the error flag (another
    policy) and also moves the assistant text fails for the move alone, against the drop expectation."""
    check_id = next(
        i
        for i in checks
        if i.startswith(
            "results/claude-code-parallel-calls-and-error-result-to-openai-chat[anthropic>openai-responses"
        )
        and "text-prefix" in i
    )

    def dropped_and_moved(kind: str, source: str, target: str, payload: Any) -> Any:
        out = translate(kind, payload, source=source, target=target, profile={"results.error-flag": "drop"})
        items = out["input"]
        text = next(i for i, item in enumerate(items) if item.get("role") == "assistant")
        moved = items.pop(text)
        calls = [i for i, item in enumerate(items) if item.get("type") == "function_call"]
        items.insert(calls[-1] + 1, moved)
        return out

    record = run(checks, check_id, Behaviour(dropped_and_moved))
    assert record["outcome"] == "failed", record
    assert "results.error-flag=drop" in record["message"] and "out of order" in (record.get("diff") or "")
    assert "Error: " not in (record.get("diff") or "")


#: a recorded Responses stream whose reasoning summary precedes a call, and that summary
REASONING_STREAM = (
    "streams/openai-responses-reasoning-summary-then-call-2025-12-capture[openai-responses>anthropic]"
)
SUMMARY = (
    "**Calculating step-by-step using calculator**\n\nI'll compute 12 plus 7, then multiply the result "
    "by 3, and finally multiply that by 10, reporting the final product."
)


def with_thinking_first(events: list[Any], text: str) -> list[Any]:
    """Anthropic ``events`` with a thinking block (``text``, an opaque signature) before every other block,
    the blocks after it renumbered."""
    out: list[Any] = []
    for event in events:
        data = copy.deepcopy(event["data"])
        if "index" in data:
            data["index"] += 1
        out.append({**event, "data": data})
        if data["type"] == "message_start":
            thinking = [
                {
                    "type": "content_block_start",
                    "index": 0,
                    "content_block": {"type": "thinking", "thinking": ""},
                },
                {
                    "type": "content_block_delta",
                    "index": 0,
                    "delta": {"type": "thinking_delta", "thinking": text},
                },
                {
                    "type": "content_block_delta",
                    "index": 0,
                    "delta": {"type": "signature_delta", "signature": "rs_1"},
                },
                {"type": "content_block_stop", "index": 0},
            ]
            out += [{"event": d["type"], "data": d} for d in thinking]
    return out


def test_a_stream_accumulating_to_the_answer_of_an_undeclared_policy_passes(checks: dict[str, Any]) -> None:
    """claude-code-router keeps a Responses reasoning summary as an Anthropic thinking block without
    declaring ``stream.thinking``: the case expects that answer under ``keep``, a policy it did not declare
    against. Declaring ``drop`` makes the same stream a failure."""

    def keep(kind: str, source: str, target: str, events: Any) -> Any:
        return with_thinking_first(list(translate_stream(events, source=source, target=target)), SUMMARY)

    record = run(checks, REASONING_STREAM, Behaviour(keep))
    assert record["outcome"] == "passed" and record["handled"] == "another-policy"
    assert "stream.thinking=keep" in record["message"]

    class DeclaresDrop(Behaviour):
        def capabilities(self) -> dict[str, Any]:
            caps = super().capabilities()
            caps["profiles"] = {**caps["profiles"], "stream.thinking": ["drop"]}
            return caps

    assert run(checks, REASONING_STREAM, DeclaresDrop(keep))["outcome"] == "failed"


def test_a_translation_neither_refused_nor_the_degrade_is_titled_by_what_sets_it_apart(
    checks: dict[str, Any],
) -> None:
    """claude-code-router sends Anthropic's ``any`` with ``disable_parallel_tool_use`` to Gemini as an empty
    config (the automatic default): the case accepts dropping the flag (mode ANY), so the failure names the
    lost forced choice, not the flag."""
    check_id = "choice/canonical-required-parallel-false[anthropic>gemini]"

    def empty_config(kind: str, source: str, target: str, payload: Any) -> Any:
        return {"toolConfig": {"functionCallingConfig": {}}}

    record = run(checks, check_id, Behaviour(empty_config))
    assert record["outcome"] == "failed" and "the closest degrade the case accepts" in record["message"]
    assert [d["pointer"] for d in record["differences"]] == ["/toolConfig"]
    assert '"ANY"' in record["differences"][0]["expected"]


def test_a_stream_failure_is_titled_against_the_closest_undeclared_policy(checks: dict[str, Any]) -> None:
    """claude-code-router keeps the reasoning as thinking (``stream.thinking=keep`` accepts it) and zeroes
    the usage: the failure names the usage, not the thinking block."""

    def keep_without_usage(kind: str, source: str, target: str, events: Any) -> Any:
        out = with_thinking_first(list(translate_stream(events, source=source, target=target)), SUMMARY)
        for event in out:
            if event["data"].get("type") == "message_delta":
                event["data"]["usage"] = {"input_tokens": 0, "output_tokens": 0}
        return out

    record = run(checks, REASONING_STREAM, Behaviour(keep_without_usage))
    assert record["outcome"] == "failed" and "stream.thinking=keep" in record["message"]
    assert {d["pointer"] for d in record["differences"]} == {"/usage/input_tokens", "/usage/output_tokens"}
