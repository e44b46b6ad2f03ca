"""The classes of false findings the audits of the published reports found (reports/AUDIT-history.json), each
fixed at its root: a translator is never failed for what the provider or its official client reads the same,
and still fails where the meaning changed. Each test runs a real corpus check or a real harness part."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from toolwire.adapters import Answer
from toolwire.adapters.inprocess import PythonAdapter
from toolwire.corpus import load_corpus, wire
from toolwire.judge import run_check
from toolwire.judge.lifting import lower_answer
from toolwire.peers._common import Upstream
from toolwire.results import check_record
from toolwire.streams.dialects import accumulate, check_stream


@pytest.fixture(scope="module")
def checks() -> dict[str, Any]:
    return {c.id: c for c in load_corpus().checks()}


class Echo:
    """A translator declaring every pair that answers ``answer(payload)``."""

    def __init__(self, answer: Any) -> None:
        self.answer = answer

    def capabilities(self) -> dict[str, Any]:
        return {
            "name": "echo",
            "version": "0",
            "language": "python",
            "kinds": {k: [["*", "*"]] for k in ("tools", "tool_choice", "request", "response", "stream")},
        }

    def translate(self, kind: str, source: str, target: str, payload: Any, profile: Any) -> Any:
        return self.answer(copy.deepcopy(payload))


def run(checks: dict[str, Any], check_id: str, answer: Any) -> dict[str, Any]:
    return check_record(
        checks[check_id], run_check(PythonAdapter("python:echo", Echo(answer)), checks[check_id])
    )


@pytest.mark.parametrize("dialect", ["openai-chat", "openai-responses"])
def test_openai_parameters_openai_refuses_in_every_mode_are_invalid(dialect: str) -> None:
    """OpenAI answers 400 to an array schema without items and to a root combinator beside type object,
    strict or not: such a source is invalid in its own dialect (forwarding it is garbage in)."""

    def tools(parameters: dict[str, Any]) -> Any:
        if dialect == "openai-chat":
            return [{"type": "function", "function": {"name": "f", "parameters": parameters}}]
        return [{"type": "function", "name": "f", "parameters": parameters}]

    no_items = {"type": "object", "properties": {"tags": {"type": "array"}}}
    nested = {"type": "object", "properties": {"m": {"type": "array", "items": {"type": ["array", "null"]}}}}
    root_any_of = {"type": "object", "properties": {}, "anyOf": [{"required": ["a"]}]}
    fine = {"type": "object", "properties": {"tags": {"type": "array", "items": {"type": "string"}}}}
    assert wire.validate(dialect, "tools", tools(no_items))
    assert wire.validate(dialect, "tools", tools(nested))
    assert wire.validate(dialect, "tools", tools(root_any_of))
    assert wire.validate(dialect, "tools", tools(fine)) == []


def test_invalid_input_under_a_when_naming_the_default_is_garbage_in(checks: dict[str, Any]) -> None:
    """Two results for one call: Anthropic refuses it. ``openai.strict=as-is`` is the default, so the check
    judges the default profile, and passing the input on is no failure."""
    check_id = "results/duplicate-tool-results-first-kept[anthropic>openai-chat,openai.strict=as-is]"
    assert checks[check_id].source_problems

    def both_results(payload: Any) -> Any:
        return {"model": "gpt-4o", "messages": [
            {"role": "user", "content": "Weather in Paris?"},
            {"role": "assistant", "tool_calls": [{"id": "toolu_1", "type": "function",
                                                  "function": {"name": "get_weather", "arguments": "{}"}}]},
            {"role": "tool", "tool_call_id": "toolu_1", "content": "22C"},
            {"role": "tool", "tool_call_id": "toolu_1", "content": "23C"},
        ]}  # fmt: skip

    record = run(checks, check_id, both_results)
    assert record["outcome"] == "passed" and record["source_invalid"] is True, record


def test_the_peers_upstream_serves_an_error_body_with_its_status() -> None:
    """A real provider never answers an error body with 200: the library under test then raises, as it does
    in production, instead of reading the error as a message."""
    import httpx

    error = {"type": "error", "error": {"type": "invalid_request_error", "message": "bad"}}
    request = httpx.Request("POST", "https://api.anthropic.com/v1/messages", content=b"{}")
    assert Upstream(("json", error), "anthropic").handler(request).status_code == 400
    message = {"type": "message", "role": "assistant", "content": []}
    assert Upstream(("json", message), "anthropic").handler(request).status_code == 200


def _event(data: dict[str, Any]) -> dict[str, Any]:
    return {"event": data["type"], "data": data}


def test_an_anthropic_stream_is_read_as_the_sdk_reads_it_up_to_an_error_event() -> None:
    """The anthropic SDK raises at an ``error`` event with the whole event, whatever its shape, and reads
    nothing after it: a proxy that nests the error under ``message`` and then ends the message normally
    (claude-code-router) still ends the answer in that error."""
    start = {"type": "message_start", "message": {"id": "m", "type": "message", "role": "assistant",
                                                  "content": [], "model": "c", "usage": {}}}  # fmt: skip
    error = {"type": "error", "message": {"type": "api_error", "message": "upstream failed"}}
    after = [{"type": "content_block_stop", "index": 0}, {"type": "message_stop"}]
    events = [_event(start), _event(error), *map(_event, after)]
    assert check_stream(events, "anthropic") == []
    assert accumulate(events, "anthropic") == {"error": {"type": "api_error", "message": "upstream failed"}}
    assert wire.validate("anthropic", "stream", error) == []
    wrong = {"type": "error", "error": {"type": 1}}
    assert wire.validate("anthropic", "stream", wrong)  # where `error` is given, it has the API's shape


def test_a_deprecated_chat_choice_passed_on_is_read_as_the_choice_it_stands_for(
    checks: dict[str, Any],
) -> None:
    check = checks["choice/legacy-function-call-named[openai-chat>openai-chat]"]
    forwarded = {"model": "gpt-4o", "messages": [], "functions": [{"name": "get_weather"}],
                 "function_call": {"name": "get_weather"}}  # fmt: skip
    lowered = lower_answer(check, Answer("payload", payload=forwarded))
    assert lowered.payload == {"tool_choice": {"type": "function", "function": {"name": "get_weather"}}}
    forwarded["function_call"] = "none"
    assert lower_answer(check, Answer("payload", payload=forwarded)).payload == {"tool_choice": "none"}


def test_valid_input_passed_on_unchanged_to_its_own_dialect_passes(checks: dict[str, Any]) -> None:
    """The provider reads exactly what the client wrote, although the case upgrades the spelling; a change
    to the input still fails."""
    check_id = "calls/legacy-function-call-and-function-role[openai-chat>openai-chat,openai.strict=as-is]"
    record = run(checks, check_id, lambda payload: payload)
    assert record["outcome"] == "passed" and record["handled"] == "unchanged", record

    def changed(payload: Any) -> Any:
        payload["function_call"] = "none"
        return payload

    assert run(checks, check_id, changed)["outcome"] == "failed"


def test_a_5xx_error_body_of_a_proxy_is_its_refusal() -> None:
    from toolwire.adapters.http import client_refusal

    body = json.loads('{"error": {"message": "Invalid tool_choice", "type": "api_error"}}')
    assert client_refusal(body, 500) == {
        "code": "http.500.api_error",
        "message": "Invalid tool_choice",
        "path": None,
    }


def _same(dialect: str, kind: str, expected: Any, actual: Any) -> bool:
    from toolwire.corpus import equivalence
    from toolwire.corpus.matchers import compare
    from toolwire.descriptors import descriptor

    spelled = descriptor(dialect)
    return not compare(
        equivalence.normalize(spelled, kind, expected), equivalence.normalize(spelled, kind, actual)
    )


def test_a_schema_with_its_references_inlined_is_the_same_schema() -> None:
    """LiteLLM inlines non-recursive $refs toward Anthropic: the schema accepts the same instances."""
    kept = [{"name": "f", "input_schema": {
        "type": "object", "properties": {"p": {"$literal": {"$ref": "#/$defs/person"}}},
        "$defs": {"person": {"type": "object", "properties": {"name": {"type": "string"}}}},
    }}]  # fmt: skip
    inlined = [{"name": "f", "input_schema": {
        "type": "object", "properties": {"p": {"type": "object", "properties": {"name": {"type": "string"}}}},
    }}]  # fmt: skip
    assert _same("anthropic", "tools", kept, inlined)
    other = copy.deepcopy(inlined)
    other[0]["input_schema"]["properties"]["p"]["properties"]["name"]["type"] = "integer"
    assert not _same("anthropic", "tools", kept, other)
    node = {"type": "object", "properties": {"next": {"$ref": "#/$defs/node"}}}
    recursive = {"type": "object", "properties": {"n": {"$ref": "#/$defs/node"}}, "$defs": {"node": node}}
    shallow = {"type": "object", "properties": {"n": {"type": "object", "properties": {"next": {}}}}}
    assert not _same("anthropic", "tools", [{"name": "f", "input_schema": recursive}],
                     [{"name": "f", "input_schema": shallow}])  # fmt: skip


def _gemini(*contents: Any) -> dict[str, Any]:
    return {"contents": list(contents)}


def test_gemini_reads_a_function_response_and_a_following_text_turn_as_one_turn() -> None:
    call = {"role": "model", "parts": [{"functionCall": {"name": "f", "args": {}}}]}
    answer = {"functionResponse": {"name": "f", "response": {"output": "22C"}}}
    sdk = {"functionResponse": {"name": "f", "response": {"name": "f", "content": "22C"}}}
    merged = _gemini(call, {"role": "user", "parts": [answer, {"text": "Thanks"}]})
    apart = _gemini(call, {"role": "user", "parts": [sdk]}, {"role": "user", "parts": [{"text": "Thanks"}]})
    assert _same("gemini", "request", merged, apart)
    # a `function` content (a role Gemini 3.5 refuses) followed by the user's text: the text continues that
    # turn, so the role is the one difference left, not an extra turn
    from toolwire.corpus import equivalence
    from toolwire.corpus.matchers import compare
    from toolwire.descriptors import descriptor

    role = _gemini(
        call, {"role": "function", "parts": [answer]}, {"role": "user", "parts": [{"text": "Thanks"}]}
    )
    spelled = descriptor("gemini")
    diffs = compare(
        equivalence.normalize(spelled, "request", merged), equivalence.normalize(spelled, "request", role)
    )
    assert [d.path for d in diffs] == ["/contents/1/role"]
    # the responses to one call turn split across two turns: Gemini refuses that, so it stays a difference
    two = _gemini(call, {"role": "user", "parts": [answer, answer]})
    split = _gemini(call, {"role": "user", "parts": [answer]}, {"role": "user", "parts": [answer]})
    assert not _same("gemini", "request", two, split)
    wrong = {"functionResponse": {"name": "f", "response": {"name": "f", "content": "25C"}}}
    assert not _same("gemini", "request", _gemini(call, {"role": "user", "parts": [answer]}),
                     _gemini(call, {"role": "user", "parts": [wrong]}))  # fmt: skip


def test_a_refusal_naming_only_members_the_target_has_no_form_for_passes(checks: dict[str, Any]) -> None:
    """LiteLLM's UnsupportedParamsError for prompt_cache_key toward Anthropic is the other policy for a
    member the case drops; refusing legacy ``functions``, which become ``tools``, still fails."""
    from toolwire.protocol import TranslationRefusal

    def refusing(message: str) -> Any:
        def answer(payload: Any) -> Any:
            raise TranslationRefusal("peer.error", message, None)

        return answer

    check_id = "messages/codex-first-turn-capture[openai-responses>anthropic]"
    message = "UnsupportedParamsError: anthropic does not support parameters: ['prompt_cache_key']"
    record = run(checks, check_id, refusing(message))
    assert record["outcome"] == "passed" and record["handled"] == "refused-member", record
    legacy = "calls/legacy-function-call-and-function-role[openai-chat>anthropic]"
    message = "anthropic does not support parameters: ['functions', 'function_call']"
    assert run(checks, legacy, refusing(message))["outcome"] == "failed"
    assert run(checks, check_id, refusing("anthropic does not support 'model'"))["outcome"] == "failed"


def test_an_sdk_refusing_an_unexpected_keyword_is_the_librarys_refusal() -> None:
    from toolwire.peers._common import PeerTranslator

    unexpected = TypeError("Messages.create() got an unexpected keyword argument 'verbosity'")
    assert PeerTranslator.is_deliberate(PeerTranslator.__new__(PeerTranslator), unexpected)
    assert not PeerTranslator.is_deliberate(PeerTranslator.__new__(PeerTranslator), TypeError("'NoneType'"))


def test_a_lower_case_gemini_mode_is_not_the_mode() -> None:
    """Gemini answers 200 to a lower-case mode but does not honour it: it falls back to AUTO
    (langchain-ai/langchainjs#11265, #11323), so claude-code-router's `any` loses the forced choice."""
    upper = {"toolConfig": {"functionCallingConfig": {"mode": "ANY", "allowedFunctionNames": ["f"]}}}
    lower = {"toolConfig": {"functionCallingConfig": {"mode": "any", "allowedFunctionNames": ["f"]}}}
    assert not _same("gemini", "tool_choice", upper, lower)
    bare = {"toolConfig": {"functionCallingConfig": {"mode": "any"}}}
    assert wire.validate("gemini", "tool_choice", bare) == []  # the API answers 200: not a rejection
    auto = {"toolConfig": {"functionCallingConfig": {"mode": "auto"}}}
    assert _same("gemini", "tool_choice", auto, {})  # it gets AUTO, the default, which it asked for


def test_an_expected_array_of_text_parts_accepts_their_texts_on_separate_lines() -> None:
    """LangChain's converter writes two text blocks as one string (``text_format="string"``): the model reads
    the same text. It applies inside an expectation's alternatives too."""
    from toolwire.corpus import equivalence
    from toolwire.corpus.matchers import compare
    from toolwire.descriptors import descriptor

    chat = descriptor("openai-chat")
    parts = [{"type": "text", "text": "a"}, {"type": "text", "text": "b"}]
    expected = {"messages": [{"role": "user", "content": {"$oneOf": [parts, "x"]}}]}
    norm = equivalence.normalize(chat, "request", expected, expected=True)
    joined = {"messages": [{"role": "user", "content": "a\nb"}]}
    assert not compare(norm, equivalence.normalize(chat, "request", joined))
    other = {"messages": [{"role": "user", "content": "ab!"}]}
    assert compare(norm, equivalence.normalize(chat, "request", other))


def test_a_member_without_target_form_passed_on_is_left_to_the_provider(checks: dict[str, Any]) -> None:
    """LangChain copies Anthropic's top_k into the OpenAI request, which OpenAI refuses: the client gets the
    provider's error, as it would a refusal. Dropping top_k under unsupported=degrade is no faithful form of
    it, so it does not make the forwarding a failure; an accepted output that changed a message fails."""
    check_id = "messages/anthropic-top-k-unsupported-for-openai[anthropic>openai-chat]"

    def forwarded(payload: Any) -> Any:
        return {"model": "gpt-4.1", "max_completion_tokens": 200, "top_k": payload["top_k"],
                "messages": [{"role": "user", "content": "Pick a colour."}]}  # fmt: skip

    record = run(checks, check_id, forwarded)
    assert record["outcome"] == "passed" and record["handled"] == "left-to-provider", record

    def changed(payload: Any) -> Any:  # top_k left out, but the message changed: the provider accepts it
        out = {k: v for k, v in forwarded(payload).items() if k != "top_k"}
        return {**out, "messages": [{"role": "user", "content": "Pick a number."}]}

    assert run(checks, check_id, changed)["outcome"] == "failed"


def test_anthropic_rules_no_schema_keyword_states_are_wire_rules() -> None:
    """Thinking with a forced tool choice, and a tool_result answering no call: Anthropic answers 400."""
    base = {"model": "m", "max_tokens": 2048, "messages": [{"role": "user", "content": "hi"}]}
    tools = [{"name": "f", "input_schema": {"type": "object"}}]
    forced = {**base, "tools": tools, "tool_choice": {"type": "any"}}
    assert wire.validate("anthropic", "request", forced) == []
    assert wire.validate(
        "anthropic", "request", {**forced, "thinking": {"type": "enabled", "budget_tokens": 1024}}
    )
    call = {"role": "assistant", "content": [{"type": "tool_use", "id": "t1", "name": "f", "input": {}}]}
    result = {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1", "content": "x"}]}
    assert (
        wire.validate("anthropic", "request", {**base, "messages": [base["messages"][0], call, result]}) == []
    )
    assert wire.validate("anthropic", "request", {**base, "messages": [result]})


def test_members_the_case_drops_forwarded_where_a_payload_is_expected_are_left_to_the_provider(
    checks: dict[str, Any],
) -> None:
    """The case drops Chat-only members toward Anthropic; a translator that passes them on as given makes
    Anthropic answer 400 (unknown parameters): the client gets the provider's error."""
    from toolwire_reference import translate

    check_id = "messages/openai-chat-2025-members[openai-chat>anthropic]"
    check = checks[check_id]
    extra = [k for k in ("verbosity", "safety_identifier") if k in check.source_payload]
    assert extra

    def forwarding(payload: Any) -> Any:
        out = translate("request", payload, source="openai-chat", target="anthropic", profile={})
        return {**out, **{k: payload[k] for k in extra}}

    record = run(checks, check_id, forwarding)
    assert record["outcome"] == "passed" and record["handled"] == "left-to-provider", record


class StreamRefusing(Echo):
    """A streaming translator that refuses every stream (as LiteLLM raises on streamed-argument parts the
    Gemini API never sends)."""

    def translate_stream(self, source: str, target: str, events: Any, profile: Any) -> Any:
        raise _Refusal()


class _Refusal(Exception):
    code = "peer.error"
    message = "KeyError: 'args'"


def test_a_refused_invalid_stream_passes_on_the_incremental_variant_too(checks: dict[str, Any]) -> None:
    """The incremental variant judges garbage in as the main check does: refusing a stream invalid in its own
    dialect is no defect; refusing a valid one still fails."""
    invalid = "streams/gemini-vertex-partial-args-capture[gemini>openai-chat,incremental]"
    assert checks[invalid].source_problems
    adapter = PythonAdapter("python:refusing", StreamRefusing(lambda p: p))
    record = check_record(checks[invalid], run_check(adapter, checks[invalid]))
    assert record["outcome"] == "passed" and record["handled"] == "refused", record
    valid = next(
        c
        for c in checks
        if c.endswith(",incremental]")
        and c.startswith("streams/")
        and not checks[c].source_problems
        and "[gemini>openai-chat" in c
    )
    record = check_record(checks[valid], run_check(adapter, checks[valid]))
    assert record["outcome"] == "failed", record


def test_a_provider_aisuite_says_has_no_streaming_is_no_counterpart() -> None:
    """aisuite's base provider raises on purpose for a provider without streaming (AWS): the check is
    skipped as having no counterpart, not failed as a refused translation."""
    from toolwire.peers.aisuite import AisuiteTranslator
    from toolwire.protocol import UNSUPPORTED

    translator = AisuiteTranslator.__new__(AisuiteTranslator)
    gap = RuntimeError("AwsProvider does not support streaming chat completions.")
    assert translator.error_code(gap) == UNSUPPORTED
    assert translator.error_code(RuntimeError("bad tool")) != UNSUPPORTED


class LibraryObjects(Echo):
    """An :class:`Echo` that declares ``library_objects``: its responses are its own objects."""

    def capabilities(self) -> dict[str, Any]:
        return {**super().capabilities(), "library_objects": True}


def _without_envelope(check: Any) -> Any:
    """The check's expected response as a library's own object holds it: no id, object, created, model,
    nor a choice index."""
    from toolwire.corpus.matchers import instantiate

    body, _unknown = instantiate(check.expectation["payload"])
    for key in ("id", "object", "created", "model"):
        body.pop(key, None)
    for choice in body.get("choices", []):
        choice.pop("index", None)
    return body


def test_a_library_returning_its_own_objects_is_not_asked_for_the_wire_envelope(
    checks: dict[str, Any],
) -> None:
    check_id = "responses/anthropic-max-tokens[anthropic>openai-chat]"
    body = _without_envelope(checks[check_id])
    wire = run(checks, check_id, lambda _payload: copy.deepcopy(body))
    assert wire["outcome"] == "failed"  # a wire body must carry its envelope
    check = checks[check_id]
    objects = check_record(
        check, run_check(PythonAdapter("python:objects", LibraryObjects(lambda _p: body)), check)
    )
    assert objects["outcome"] == "passed", objects.get("message")
    # what it has is judged as it is: a wrong finish_reason still fails
    wrong = {**body, "choices": [{**body["choices"][0], "finish_reason": "stop"}]}
    objects = check_record(
        check, run_check(PythonAdapter("python:objects", LibraryObjects(lambda _p: wrong)), check)
    )
    assert objects["outcome"] == "failed" and "finish_reason" in objects.get("diff", "")


def test_a_library_object_without_the_response_id_fails_where_the_case_judges_it(
    checks: dict[str, Any],
) -> None:
    check_id = "responses/gemini-stop-text-capture[gemini>openai-chat]"
    check = checks[check_id]
    assert "response.identity" in check.features
    body = _without_envelope(check)
    record = check_record(
        check, run_check(PythonAdapter("python:objects", LibraryObjects(lambda _p: body)), check)
    )
    assert record["outcome"] == "failed"
    assert "/id: missing key" in record["diff"] and "/object" not in record["diff"]


def test_a_library_objects_capability_must_be_a_boolean() -> None:
    from toolwire.corpus.capabilities import problems

    said = problems({"library_objects": "yes"}, load_corpus())
    assert any("library_objects" in p for p in said)


def test_a_chat_text_part_keeping_cache_control_is_text_and_the_member_is_named() -> None:
    """claude-code-router keeps Anthropic's cache_control on system text parts: the parts read as their text
    (an equivalent spelling), and the wire error names the member instead of "valid under none"."""
    parts = [
        {"type": "text", "text": "a"},
        {"type": "text", "text": "b", "cache_control": {"type": "ephemeral"}},
    ]
    sent = {
        "model": "m",
        "messages": [{"role": "system", "content": parts}, {"role": "user", "content": "hi"}],
    }
    joined = {
        "model": "m",
        "messages": [{"role": "system", "content": "a\nb"}, {"role": "user", "content": "hi"}],
    }
    assert _same("openai-chat", "request", joined, sent)
    assert wire.validate("openai-chat", "request", sent) == [
        "/messages/0/content/1: Additional properties are not allowed ('cache_control' was unexpected)"
    ]


def test_a_reply_no_client_of_the_target_can_cause_is_garbage_in_under_every_profile(
    checks: dict[str, Any],
) -> None:
    """A Responses custom call toward an Anthropic client answers a tool no Anthropic client can declare
    (the expectation marks it ``unreachable``). Under ``custom.tools=wrap`` the case still says how to wrap
    it, but a translator that does something else with input that never arrives is no translation bug
    (LiteLLM's /v1/messages route, seed 141 of the audit)."""
    check_id = (
        "responses/openai-responses-custom-tool-call-capture[openai-responses>anthropic,custom.tools=wrap]"
    )
    assert checks[check_id].expectation.get("unreachable")

    def empty_turn(payload: Any) -> Any:
        return {"id": "msg_1", "type": "message", "role": "assistant", "model": "claude", "content": [],
                "stop_reason": "end_turn", "stop_sequence": None,
                "usage": {"input_tokens": 1, "output_tokens": 1}}  # fmt: skip

    wrapping = Echo(empty_turn)
    declared = {**wrapping.capabilities(), "profiles": {"custom.tools": ["wrap"]}}
    wrapping.capabilities = lambda: declared  # type: ignore[method-assign]
    check = checks[check_id]
    record = check_record(check, run_check(PythonAdapter("python:echo", wrapping), check))
    assert record["outcome"] == "passed" and record["source_invalid"] is True, record


@pytest.mark.parametrize(("cut", "outcome"), [(False, "passed"), (True, "failed")])
def test_a_stream_equal_to_a_degrade_the_case_accepts_passes_where_a_refusal_is_expected(
    checks: dict[str, Any], cut: bool, outcome: str
) -> None:
    """An unterminated text-embedded call at the end of a stream is refused under ``text.malformed=error``;
    the stream kept as text is what the case accepts under ``keep-text``, so it passes where the refusal is
    expected (``accepted-degrade``), as a payload does for the other kinds; a stream that loses text fails."""
    case = "streams/text-calls-unterminated-at-stream-end"
    check = checks[f"{case}[openai-chat>openai-chat,stream.text-calls=parse]"]
    assert "error" in check.expectation

    class Streamer(Echo):
        def capabilities(self) -> dict[str, Any]:
            return {**super().capabilities(), "profiles": {"stream.text-calls": ["parse"]}}

        def translate_stream(self, source: str, target: str, events: Any, profile: Any) -> Any:
            kept = copy.deepcopy(events)
            texts = [i for i, e in enumerate(kept) if "content" in json.dumps(e)]
            return [e for i, e in enumerate(kept) if not (cut and i == texts[-1])]

    record = check_record(check, run_check(PythonAdapter("python:streamer", Streamer(None)), check))
    assert record["outcome"] == outcome, record
    if outcome == "passed":
        assert record["handled"] == "accepted-degrade", record


@pytest.mark.parametrize(("said", "outcome"), [("The model produced invalid content.", "passed"),
                                               ("Invalid JSON response", "failed")])  # fmt: skip
def test_a_failed_upstream_response_raised_with_its_message_passes(
    checks: dict[str, Any], said: str, outcome: str
) -> None:
    """A Responses ``status: failed`` ends the turn in an error; a library that raises it to its caller (the
    Vercel AI SDK, seed 151 of the audit) tells the client as much as a failed response would, so it passes
    when its error carries what the upstream said, and fails for losing it otherwise."""
    check = checks["responses/openai-responses-failed[openai-responses>canonical]"]
    upstream = check.source_payload["error"]["message"]
    message = upstream if said.startswith("The model") else said

    class Raiser(Echo):
        def translate(self, kind: str, source: str, target: str, payload: Any, profile: Any) -> Any:
            from toolwire.protocol import TranslationRefusal

            raise TranslationRefusal("response.invalid", message)

    record = check_record(check, run_check(PythonAdapter("python:raiser", Raiser(None)), check))
    assert record["outcome"] == outcome, record
    if outcome == "passed":
        assert record["handled"] == "raised", record


def test_a_schema_title_is_an_annotation_toward_gemini_but_a_property_named_title_is_not() -> None:
    """Google's google-genai SDK drops pydantic's generated titles itself: a translator that leaves a
    schema's ``title`` out sends the same constraints (any-llm, seed 152); a property called ``title`` is
    no annotation, and losing it stays a difference."""

    def tool(properties: dict[str, Any]) -> Any:
        parameters = {"type": "object", "properties": properties}
        return [{"functionDeclarations": [{"name": "f", "parameters": parameters}]}]

    titled = tool({"city": {"type": "string", "title": "City"}, "title": {"type": "string"}})
    untitled = tool({"city": {"type": "string"}, "title": {"type": "string"}})
    no_title_property = tool({"city": {"type": "string", "title": "City"}})
    assert _same("gemini", "tools", titled, untitled)
    assert not _same("gemini", "tools", titled, no_title_property)
    assert not _same("anthropic", "tools", [{"name": "f", "input_schema": {"title": "F"}}],
                     [{"name": "f", "input_schema": {}}])  # fmt: skip


def _dropping(keeps_the_message: bool) -> Any:
    """A Chat → Responses request translation that leaves ``stop`` out (and, unless ``keeps_the_message``,
    changes the message as well when ``stop`` is there)."""

    def answer(payload: Any) -> Any:
        text = payload["messages"][0]["content"]
        if "stop" in payload and not keeps_the_message:
            text = "Count to five."
        return {"model": payload["model"], "input": [{"role": "user", "content": text}]}

    return answer


@pytest.mark.parametrize(
    ("documented", "keeps_the_message", "outcome"),
    [(True, True, "passed"), (False, True, "failed"), (True, False, "failed")],
)
def test_a_member_dropped_as_the_implementation_documents_passes_and_nothing_else(
    checks: dict[str, Any], documented: bool, keeps_the_message: bool, outcome: str
) -> None:
    """LangChain drops ``stop`` toward the Responses API on purpose (langchain-ai/langchain#38336, seed 182):
    declared with where it is documented, the drop passes when the output is the implementation's own
    translation of the request without it; undeclared it is a silent change of meaning (LiteLLM's proxy
    promises to refuse unsupported parameters), and a declared drop that changes anything else fails."""
    check_id = "messages/openai-chat-stop-string-becomes-list[openai-chat>openai-responses]"
    translator = Echo(_dropping(keeps_the_message))
    if documented:
        drop = {
            "kind": "request",
            "target": "openai-responses",
            "member": "stop",
            "ref": "https://example.org/d",
        }
        declared = {**translator.capabilities(), "documented_drops": [drop]}
        translator.capabilities = lambda: declared  # type: ignore[method-assign]
    check = checks[check_id]
    record = check_record(check, run_check(PythonAdapter("python:dropper", translator), check))
    assert record["outcome"] == outcome, record
    if outcome == "passed":
        assert record["handled"] == "documented-drop" and "https://example.org/d" in record["message"], record


def test_a_documented_drop_must_name_a_request_member_and_where_it_is_documented() -> None:
    from toolwire.corpus.capabilities import problems

    corpus = load_corpus()
    base = {"kinds": {"request": [["openai-chat", "openai-responses"]]}}
    good = {"kind": "request", "target": "openai-responses", "member": "stop", "ref": "https://example.org/d"}
    assert problems({**base, "documented_drops": [good]}, corpus) == []
    bad = [
        {**good, "kind": "tools"},
        {**good, "target": "openai-response"},
        {**good, "member": "messages/0"},
        {**good, "ref": "we decided"},
        {"kind": "request", "target": "openai-responses", "member": "stop"},
    ]
    found = problems({**base, "documented_drops": bad}, corpus)
    assert len(found) == 5, found
    assert "did you mean 'openai-responses'" in found[1]


def _anthropic_stream(thinking: str | None) -> list[dict[str, Any]]:
    def event(data: dict[str, Any]) -> dict[str, Any]:
        return {"event": data["type"], "data": data}

    message = {"id": "tw-gem-resp-1", "type": "message", "role": "assistant", "model": "gemini-2.5-flash",
               "content": [], "stop_reason": None, "stop_sequence": None,
               "usage": {"input_tokens": 10, "output_tokens": 0}}  # fmt: skip
    blocks: list[tuple[dict[str, Any], dict[str, Any]]] = []
    if thinking is not None:
        blocks.append(({"type": "thinking", "thinking": "", "signature": ""},
                       {"type": "thinking_delta", "thinking": thinking}))  # fmt: skip
    blocks.append(({"type": "text", "text": ""}, {"type": "text_delta", "text": "It is 20 degrees."}))
    events = [event({"type": "message_start", "message": message})]
    for index, (start, delta) in enumerate(blocks):
        events += [
            event({"type": "content_block_start", "index": index, "content_block": start}),
            event({"type": "content_block_delta", "index": index, "delta": delta}),
            event({"type": "content_block_stop", "index": index}),
        ]
    events.append(event({"type": "message_delta", "delta": {"stop_reason": "end_turn", "stop_sequence": None},
                         "usage": {"output_tokens": 20}}))  # fmt: skip
    return [*events, event({"type": "message_stop"})]


@pytest.mark.parametrize(
    ("thinking", "outcome"),
    [(None, "passed"), ("Considering units first.", "passed"), ("Something else.", "failed")],
)
def test_unsigned_thinking_may_reach_an_anthropic_client_as_thinking_that_signs_nothing(
    checks: dict[str, Any], thinking: str | None, outcome: str
) -> None:
    """LiteLLM carries Gemini's unsigned thoughts to an Anthropic client as a thinking block whose signature
    is empty (BerriAI/litellm#38809; seeds 182): the SDK reads it as the thinking it is, and an empty
    signature signs nothing. Thinking the source does not hold is still a difference."""
    check = checks["streams/gemini-thought-parts-then-text[gemini>anthropic,stream.thinking=keep]"]

    class Streamer(Echo):
        def capabilities(self) -> dict[str, Any]:
            return {**super().capabilities(), "profiles": {"stream.thinking": ["keep"]}}

        def translate_stream(self, source: str, target: str, events: Any, profile: Any) -> Any:
            return _anthropic_stream(thinking)

    record = check_record(check, run_check(PythonAdapter("python:streamer", Streamer(None)), check))
    assert record["outcome"] == outcome, record


def test_text_parts_joined_by_a_blank_line_are_the_same_text() -> None:
    """copilot-api joins a message's text blocks with a blank line (seed 181): the model reads the same
    words; other text between them is a difference."""
    from toolwire.corpus import equivalence
    from toolwire.corpus.matchers import compare
    from toolwire.descriptors import descriptor

    def same(dialect: str, expected: Any, actual: Any) -> bool:
        spelled = descriptor(dialect)
        norm = equivalence.normalize(spelled, "request", expected, expected=True)
        return not compare(norm, equivalence.normalize(spelled, "request", actual))

    parts = [{"type": "text", "text": "a"}, {"type": "text", "text": "b"}]
    for joined, equal in (
        ("a\n\nb", True),
        ("a\nb", True),
        ("ab", True),
        ("a\n\n\nb", False),
        ("a b", False),
    ):
        chat = {"messages": [{"role": "user", "content": joined}]}
        assert same("openai-chat", {"messages": [{"role": "user", "content": parts}]}, chat) is equal, joined
        result = {"messages": [{"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t",
                                                             "content": joined}]}]}  # fmt: skip
        blocks = [{"type": "tool_result", "tool_use_id": "t", "content": parts}]
        assert same("anthropic", {"messages": [{"role": "user", "content": blocks}]}, result) is equal, joined


def test_a_gemini_system_instructions_text_parts_joined_in_one_part_are_the_same_text() -> None:
    """any-llm hoists two system messages into one Gemini system instruction part joined by a newline
    (seed 192): the model reads the same words as from two parts; other text between them differs."""
    from toolwire.corpus import equivalence
    from toolwire.corpus.matchers import compare
    from toolwire.descriptors import descriptor

    gemini = descriptor("gemini")
    two = {"systemInstruction": {"parts": [{"text": "a"}, {"text": "b"}]}, "contents": []}
    norm = equivalence.normalize(gemini, "request", two, expected=True)
    for joined, same in (("a\nb", True), ("ab", True), ("a\n\nb", True), ("a b", False), ("b\na", False)):
        one = {"systemInstruction": {"parts": [{"text": joined}]}, "contents": []}
        assert (not compare(norm, equivalence.normalize(gemini, "request", one))) is same, joined
    signed = {"systemInstruction": {"parts": [{"text": "a\nb", "thoughtSignature": "c2ln"}]}, "contents": []}
    assert compare(norm, equivalence.normalize(gemini, "request", signed))  # a signed part is no plain text


@pytest.mark.parametrize(("notice", "stop", "outcome"), [("Blocked.", "refusal", "passed"),
                                                         ("Blocked.", "end_turn", "failed")])  # fmt: skip
def test_a_filtered_gemini_stream_may_tell_an_anthropic_client_why_in_one_more_block(
    checks: dict[str, Any], notice: str, stop: str, outcome: str
) -> None:
    """any-llm carries Gemini's safety stop to an Anthropic client as the partial text, one notice block and
    stop_reason refusal (seed 191), as the response kind already accepts; a notice on a normal end does not
    tell the client the answer was filtered, and fails."""
    check = checks["streams/gemini-safety[gemini>anthropic]"]

    def event(data: dict[str, Any]) -> dict[str, Any]:
        return {"event": data["type"], "data": data}

    message = {"id": "tw-gem-resp-1", "type": "message", "role": "assistant", "model": "gemini-2.5-flash",
               "content": [], "stop_reason": None, "stop_sequence": None,
               "usage": {"input_tokens": 8, "output_tokens": 0}}  # fmt: skip
    events = [event({"type": "message_start", "message": message})]
    for index, text in enumerate(("Here is how", notice)):
        events += [
            event(
                {"type": "content_block_start", "index": index, "content_block": {"type": "text", "text": ""}}
            ),
            event(
                {"type": "content_block_delta", "index": index, "delta": {"type": "text_delta", "text": text}}
            ),
            event({"type": "content_block_stop", "index": index}),
        ]
    events += [event({"type": "message_delta", "delta": {"stop_reason": stop, "stop_sequence": None},
                      "usage": {"output_tokens": 3}}), event({"type": "message_stop"})]  # fmt: skip

    class Streamer(Echo):
        def translate_stream(self, source: str, target: str, stream: Any, profile: Any) -> Any:
            return events

    record = check_record(check, run_check(PythonAdapter("python:streamer", Streamer(None)), check))
    assert record["outcome"] == outcome, record


@pytest.mark.parametrize(("summary", "outcome"), [("auto", "passed"), ("detailed", "passed"),
                                                  ("concise", "passed"), ("verbose", "failed")])  # fmt: skip
def test_any_documented_reasoning_summary_level_asks_for_the_thinking_text(
    checks: dict[str, Any], summary: str, outcome: str
) -> None:
    """claude-code-router asks Responses for a `detailed` reasoning summary where Anthropic's thinking is on
    (seed 202): every documented level returns the reasoning text the source asked for; a value OpenAI does
    not document is still a difference."""
    from toolwire_reference import translate

    check = checks["messages/anthropic-thinking-tool-history-capture[anthropic>openai-responses]"]

    def answer(payload: Any) -> Any:
        out = translate("request", payload, source="anthropic", target="openai-responses")
        out["reasoning"]["summary"] = summary
        return out

    assert run(checks, check.id, answer)["outcome"] == outcome


def test_a_responses_tool_marked_strict_is_what_no_strict_gives_and_the_wire_guards_the_rest() -> None:
    """Responses uses strict validation by itself where a tool's schema allows it, so `strict: true` on such
    a schema is the same as none (claude-code-router's Edit tool, audit 232, finding 10); on a schema strict
    mode cannot take, the API refuses it, and the wire schema says so."""
    params = {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]}
    tool = {"type": "function", "name": "f", "parameters": {**params, "additionalProperties": False}}
    assert _same("openai-responses", "tools", [tool], [{**tool, "strict": True}])
    assert wire.validate("openai-responses", "tools", [{**tool, "strict": True}]) == []
    loose = {"type": "function", "name": "f", "parameters": params, "strict": True}  # no additionalProperties
    assert wire.validate("openai-responses", "tools", [loose])
    assert not _same("openai-chat", "tools", [{"type": "function", "function": {"name": "f"}}],
                     [{"type": "function", "function": {"name": "f", "strict": True}}])  # fmt: skip
