"""Response rules: stop reasons (every enum value both ways), usage, ids, signatures, errors."""

import copy
import json
from pathlib import Path

import pytest
from toolwire_reference import TranslationError, translate
from toolwire_reference.calls import (
    CANONICAL_STOP_REASONS,
    IdGenerator,
    arguments_to_object,
    arguments_to_text,
    encode_call_id,
)
from toolwire_reference.registry import BY_NAME
from toolwire_reference.registry import NAMES as DIALECTS

CORPUS = Path(__file__).resolve().parents[2] / "corpus"
PROVIDERS = ("openai-chat", "openai-responses", "anthropic", "gemini", "mistral")


def tr(payload, source, target, **profile):
    return translate("response", payload, source=source, target=target, profile=profile)


def err(payload, source, target, **profile):
    with pytest.raises(TranslationError) as info:
        tr(payload, source, target, **profile)
    return info.value.code, info.value.path


def canonical(content, stop_reason="end_turn", **extra):
    return {"id": "r1", "model": "m", "content": content, "stop_reason": stop_reason, **extra}


def call(call_id="call_1", name="get_weather", arguments=None, **extra):
    return {
        "type": "tool_call",
        "id": call_id,
        "name": name,
        "arguments": arguments or {"city": "Paris"},
        **extra,
    }


def text(value):
    return {"type": "text", "text": value}


# ---- wire bodies of each provider with a given stop reason ----------------------------------------


def chat_body(finish, message=None):
    message = message or {"role": "assistant", "content": "hi"}
    return {
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "created": 1,
        "model": "gpt",
        "choices": [{"index": 0, "message": message, "finish_reason": finish, "logprobs": None}],
    }


def anthropic_body(reason, content=None, **extra):
    return {
        "id": "msg_1",
        "type": "message",
        "role": "assistant",
        "model": "claude",
        "content": content if content is not None else [{"type": "text", "text": "hi"}],
        "stop_reason": reason,
        "stop_sequence": None,
        "usage": {"input_tokens": 1, "output_tokens": 1},
        **extra,
    }


def gemini_body(reason, parts=None, **extra):
    parts = parts if parts is not None else [{"text": "hi"}]
    return {
        "candidates": [{"content": {"role": "model", "parts": parts}, "finishReason": reason, "index": 0}],
        "modelVersion": "gemini-x",
        **extra,
    }


def responses_body(status, reason=None, output=None):
    return {
        "id": "resp_1",
        "object": "response",
        "created_at": 1,
        "status": status,
        "error": None,
        "incomplete_details": {"reason": reason} if reason else None,
        "model": "gpt",
        "output": output
        if output is not None
        else [
            {
                "type": "message",
                "id": "msg_1",
                "status": "completed",
                "role": "assistant",
                "content": [{"type": "output_text", "text": "hi", "annotations": []}],
            }
        ],
        "parallel_tool_calls": True,
        "tool_choice": "auto",
        "tools": [],
    }


def stop_of(body, source):
    return tr(body, source, "canonical")["stop_reason"]


# ---- stop reasons --------------------------------------------------------------------------------


def _descriptor_values(dialect):
    spec = json.loads((CORPUS / "dialects" / f"{dialect}.json").read_text())["finish_reasons"]
    return spec["values"]


@pytest.mark.parametrize("dialect", ("openai-chat", "anthropic", "gemini"))
def test_every_descriptor_stop_value_is_in_the_decode_table(dialect):
    assert set(_descriptor_values(dialect)) == set(BY_NAME[dialect].rules.stop_reasons_in)


def test_every_responses_status_is_in_the_decode_table():
    statuses = set(_descriptor_values("openai-responses"))
    keys = {key.split("/")[0] for key in BY_NAME["openai-responses"].rules.stop_reasons_in}
    assert statuses == keys
    for reason in ("max_output_tokens", "content_filter"):
        assert f"incomplete/{reason}" in BY_NAME["openai-responses"].rules.stop_reasons_in


@pytest.mark.parametrize("dialect", PROVIDERS)
def test_every_canonical_stop_reason_encodes_to_a_provider_value(dialect):
    assert set(BY_NAME[dialect].rules.stop_reasons_out) == set(CANONICAL_STOP_REASONS)
    values = set(_descriptor_values(dialect))
    for value in BY_NAME[dialect].rules.stop_reasons_out.values():
        assert value.split("/")[0] in values


@pytest.mark.parametrize(
    "finish, expected",
    [
        ("stop", "end_turn"),
        ("length", "max_tokens"),
        ("tool_calls", "tool_use"),
        ("function_call", "tool_use"),
        ("content_filter", "content_filter"),
        ("something_new", "other"),
        (None, "end_turn"),
    ],
)
def test_chat_finish_reasons_decode(finish, expected):
    assert stop_of(chat_body(finish), "openai-chat") == expected


def test_chat_stop_with_tool_calls_is_tool_use():
    message = {
        "role": "assistant",
        "content": None,
        "tool_calls": [{"id": "c", "type": "function", "function": {"name": "f", "arguments": "{}"}}],
    }
    assert stop_of(chat_body("stop", message), "openai-chat") == "tool_use"
    assert stop_of(chat_body(None, message), "openai-chat") == "tool_use"


@pytest.mark.parametrize(
    "reason, expected",
    [
        ("end_turn", "end_turn"),
        ("max_tokens", "max_tokens"),
        ("stop_sequence", "stop_sequence"),
        ("tool_use", "tool_use"),
        ("pause_turn", "pause_turn"),
        ("refusal", "refusal"),
        ("model_context_window_exceeded", "context_window_exceeded"),
        ("brand_new", "other"),
    ],
)
def test_anthropic_stop_reasons_decode(reason, expected):
    assert stop_of(anthropic_body(reason), "anthropic") == expected


@pytest.mark.parametrize("reason", _descriptor_values("gemini"))
def test_gemini_finish_reasons_decode(reason):
    expected = {
        "STOP": "end_turn",
        "MAX_TOKENS": "max_tokens",
        "MALFORMED_FUNCTION_CALL": "malformed_tool_call",
        "SAFETY": "content_filter",
        "RECITATION": "content_filter",
        "BLOCKLIST": "content_filter",
        "PROHIBITED_CONTENT": "content_filter",
        "SPII": "content_filter",
        "IMAGE_SAFETY": "content_filter",
        "IMAGE_PROHIBITED_CONTENT": "content_filter",
        "IMAGE_RECITATION": "content_filter",
    }.get(reason, "other")
    assert stop_of(gemini_body(reason), "gemini") == expected


def test_gemini_stop_with_function_calls_is_tool_use():
    parts = [{"functionCall": {"name": "f", "args": {}}}]
    assert stop_of(gemini_body("STOP", parts), "gemini") == "tool_use"


@pytest.mark.parametrize(
    "status, reason, expected",
    [
        ("completed", None, "end_turn"),
        ("incomplete", "max_output_tokens", "max_tokens"),
        ("incomplete", "content_filter", "content_filter"),
        ("incomplete", None, "other"),
        ("failed", None, "error"),
        ("cancelled", None, "other"),
        ("in_progress", None, "other"),
        ("queued", None, "other"),
    ],
)
def test_responses_status_decodes(status, reason, expected):
    assert stop_of(responses_body(status, reason), "openai-responses") == expected


def test_responses_completed_with_function_call_is_tool_use():
    output = [{"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "f", "arguments": "{}"}]
    assert stop_of(responses_body("completed", output=output), "openai-responses") == "tool_use"


def _tool_content(stop_reason):
    return [call()] if stop_reason == "tool_use" else [text("hi")]


def _provider_stop(out, dialect):
    if dialect in ("openai-chat", "mistral"):
        return out["choices"][0]["finish_reason"]
    if dialect == "anthropic":
        return out["stop_reason"]
    if dialect == "gemini":
        return out["candidates"][0]["finishReason"]
    reason = (out["incomplete_details"] or {}).get("reason")
    return out["status"] + (f"/{reason}" if reason else "")


@pytest.mark.parametrize("dialect", PROVIDERS)
@pytest.mark.parametrize("stop_reason", CANONICAL_STOP_REASONS)
def test_every_canonical_stop_reason_encodes(stop_reason, dialect):
    out = tr(canonical(_tool_content(stop_reason), stop_reason), "canonical", dialect)
    expected = BY_NAME[dialect].rules.stop_reasons_out[stop_reason]
    if dialect == "openai-chat" and stop_reason == "refusal":
        expected = "stop"
    assert _provider_stop(out, dialect) == expected
    back = tr(out, dialect, "canonical")["stop_reason"]
    assert back in CANONICAL_STOP_REASONS
    if stop_reason in ("end_turn", "max_tokens", "tool_use"):
        assert back == stop_reason  # the reasons every dialect has survive every round trip


@pytest.mark.parametrize("stop_reason", CANONICAL_STOP_REASONS)
def test_anthropic_round_trip_of_its_own_reasons(stop_reason):
    body = anthropic_body(BY_NAME["anthropic"].rules.stop_reasons_out[stop_reason])
    assert (
        tr(tr(body, "anthropic", "canonical"), "canonical", "anthropic")["stop_reason"] == body["stop_reason"]
    )


def test_failed_responses_status_carries_an_error_object():
    out = tr(canonical([], "error"), "canonical", "openai-responses")
    assert out["status"] == "failed" and out["error"]["code"] == "server_error"
    assert out["incomplete_details"] is None


def test_stop_sequence_anthropic_both_ways():
    body = anthropic_body("stop_sequence", stop_sequence="END")
    c = tr(body, "anthropic", "canonical")
    assert c["stop_reason"] == "stop_sequence" and c["stop_sequence"] == "END"
    assert tr(c, "canonical", "anthropic")["stop_sequence"] == "END"
    assert tr(c, "canonical", "openai-chat")["choices"][0]["finish_reason"] == "stop"
    other = tr(canonical([text("x")], "end_turn", stop_sequence="END"), "canonical", "anthropic")
    assert other["stop_sequence"] is None


def test_refusal_chat_and_responses():
    body = chat_body("stop", {"role": "assistant", "content": None, "refusal": "I can't help with that."})
    c = tr(body, "openai-chat", "canonical")
    assert c["content"] == [text("I can't help with that.")] and c["stop_reason"] == "refusal"
    back = tr(c, "canonical", "openai-chat")["choices"][0]
    assert back["message"] == {"role": "assistant", "content": None, "refusal": "I can't help with that."}
    assert back["finish_reason"] == "stop"
    r = tr(c, "canonical", "openai-responses")
    assert r["status"] == "completed"
    assert r["output"][0]["content"] == [{"type": "refusal", "refusal": "I can't help with that."}]
    assert tr(r, "openai-responses", "canonical")["stop_reason"] == "refusal"
    assert tr(c, "canonical", "anthropic")["stop_reason"] == "refusal"
    assert tr(canonical([], "refusal"), "canonical", "openai-chat")["choices"][0]["finish_reason"] == (
        "content_filter"
    )


def test_gemini_prompt_blocked_is_content_filter():
    body = {"promptFeedback": {"blockReason": "SAFETY"}, "usageMetadata": {"promptTokenCount": 5}}
    c = tr(body, "gemini", "canonical")
    assert c["content"] == [] and c["stop_reason"] == "content_filter"
    assert tr(body, "gemini", "openai-chat")["choices"][0]["finish_reason"] == "content_filter"


# ---- usage ---------------------------------------------------------------------------------------


def test_anthropic_usage_with_cache_tokens():
    body = anthropic_body("end_turn")
    body["usage"] = {
        "input_tokens": 100,
        "cache_read_input_tokens": 50,
        "cache_creation_input_tokens": 25,
        "output_tokens": 7,
    }
    usage = tr(body, "anthropic", "canonical")["usage"]
    assert usage == {"input_tokens": 175, "output_tokens": 7, "cached_input_tokens": 50}
    chat = tr(body, "anthropic", "openai-chat")["usage"]
    assert chat == {
        "prompt_tokens": 175,
        "completion_tokens": 7,
        "total_tokens": 182,
        "prompt_tokens_details": {"cached_tokens": 50},
    }
    back = tr(tr(body, "anthropic", "openai-chat"), "openai-chat", "anthropic")["usage"]
    assert back == {"input_tokens": 125, "output_tokens": 7, "cache_read_input_tokens": 50}


def test_chat_usage_with_cached_and_reasoning_tokens_to_every_dialect():
    body = chat_body("stop")
    body["usage"] = {
        "prompt_tokens": 1000,
        "completion_tokens": 300,
        "total_tokens": 1300,
        "prompt_tokens_details": {"cached_tokens": 800, "audio_tokens": 0},
        "completion_tokens_details": {"reasoning_tokens": 200},
    }
    assert tr(body, "openai-chat", "canonical")["usage"] == {
        "input_tokens": 1000,
        "output_tokens": 300,
        "cached_input_tokens": 800,
        "reasoning_tokens": 200,
    }
    assert tr(body, "openai-chat", "anthropic")["usage"] == {
        "input_tokens": 200,
        "output_tokens": 300,
        "cache_read_input_tokens": 800,
    }
    assert tr(body, "openai-chat", "gemini")["usageMetadata"] == {
        "promptTokenCount": 1000,
        "candidatesTokenCount": 100,
        "totalTokenCount": 1300,
        "cachedContentTokenCount": 800,
        "thoughtsTokenCount": 200,
    }
    assert tr(body, "openai-chat", "openai-responses")["usage"] == {
        "input_tokens": 1000,
        "input_tokens_details": {"cached_tokens": 800, "cache_write_tokens": 0},
        "output_tokens": 300,
        "output_tokens_details": {"reasoning_tokens": 200},
        "total_tokens": 1300,
    }


def test_gemini_usage_counts_thoughts_as_output():
    body = gemini_body("STOP")
    body["usageMetadata"] = {
        "promptTokenCount": 83,
        "candidatesTokenCount": 30,
        "thoughtsTokenCount": 190,
        "cachedContentTokenCount": 40,
        "totalTokenCount": 303,
    }
    assert tr(body, "gemini", "canonical")["usage"] == {
        "input_tokens": 83,
        "output_tokens": 220,
        "cached_input_tokens": 40,
        "reasoning_tokens": 190,
    }
    assert (
        tr(tr(body, "gemini", "openai-chat"), "openai-chat", "gemini")["usageMetadata"]
        == body["usageMetadata"]
    )


def test_missing_usage():
    c = canonical([text("x")])
    assert "usage" not in tr(c, "canonical", "openai-chat")
    assert "usageMetadata" not in tr(c, "canonical", "gemini")
    assert "usage" not in tr(c, "canonical", "openai-responses")
    assert tr(c, "canonical", "anthropic")["usage"] == {"input_tokens": 0, "output_tokens": 0}


# ---- ids -----------------------------------------------------------------------------------------

PARALLEL = gemini_body(
    "STOP",
    [
        {"functionCall": {"name": "generate_topic", "args": {}}, "thoughtSignature": "SIG=="},
        {"functionCall": {"name": "generate_topic", "args": {}}},
        {"functionCall": {"name": "generate_topic", "args": {}}},
    ],
)


@pytest.mark.parametrize("target", DIALECTS)
def test_gemini_parallel_calls_to_one_function_get_distinct_ids(target):
    c = tr(PARALLEL, "gemini", "canonical")
    ids = [p["id"] for p in c["content"]]
    assert ids == ["call_1", "call_2", "call_3"]
    out = tr(PARALLEL, "gemini", target)
    back = tr(out, target, "canonical")
    got = [p["id"] for p in back["content"]]
    assert len(set(got)) == 3
    if target == "anthropic":
        assert got == ["toolu_1", "toolu_2", "toolu_3"]


def test_gemini_to_gemini_adds_no_ids_and_keeps_the_signature():
    out = tr(PARALLEL, "gemini", "gemini")
    assert out["candidates"][0]["content"]["parts"] == PARALLEL["candidates"][0]["content"]["parts"]


def test_gemini3_thought_signature_survives_gemini_canonical_gemini():
    c = json.loads(json.dumps(tr(PARALLEL, "gemini", "canonical")))  # through the wire
    assert c["content"][0]["signature"] == "SIG=="
    parts = tr(c, "canonical", "gemini")["candidates"][0]["content"]["parts"]
    assert parts[0]["thoughtSignature"] == "SIG=="
    assert "thoughtSignature" not in parts[1]
    assert [p["functionCall"]["id"] for p in parts] == ["call_1", "call_2", "call_3"]


def test_generated_ids_skip_ids_the_response_uses():
    body = gemini_body(
        "STOP",
        [
            {"functionCall": {"name": "a", "args": {}}},
            {"functionCall": {"id": "call_1", "name": "b", "args": {}}},
            {"functionCall": {"id": "toolu_2", "name": "c", "args": {}}},
            {"functionCall": {"name": "d", "args": {}}},
        ],
    )
    ids = [p["id"] for p in tr(body, "gemini", "canonical")["content"]]
    assert ids == ["call_3", "call_1", "toolu_2", "call_4"]


def test_ids_prefix_rewrite():
    c = canonical([call("toolu_abc"), call("fc_x"), call("plain")], "tool_use")
    chat = tr(c, "canonical", "openai-chat", **{"ids.prefix": "rewrite"})
    assert [x["id"] for x in chat["choices"][0]["message"]["tool_calls"]] == [
        "call_abc",
        "call_x",
        "call_plain",
    ]
    anth = tr(c, "canonical", "anthropic", **{"ids.prefix": "rewrite"})
    assert [b["id"] for b in anth["content"]] == ["toolu_abc", "toolu_x", "toolu_plain"]
    gem = tr(c, "canonical", "gemini", **{"ids.prefix": "rewrite"})
    assert [p["functionCall"]["id"] for p in gem["candidates"][0]["content"]["parts"]] == [
        "toolu_abc",
        "fc_x",
        "plain",
    ]
    kept = tr(c, "canonical", "anthropic")
    assert [b["id"] for b in kept["content"]] == ["toolu_abc", "fc_x", "plain"]


def test_responses_item_id_and_call_id():
    output = [
        {
            "type": "function_call",
            "id": "fc_item",
            "call_id": "call_abc",
            "name": "f",
            "arguments": '{"a":1}',
            "status": "completed",
        }
    ]
    body = responses_body("completed", output=output)
    c = tr(body, "openai-responses", "canonical")
    assert c["content"] == [call("call_abc", "f", {"a": 1}, item_id="fc_item")]
    assert tr(body, "openai-responses", "anthropic")["content"][0]["id"] == "call_abc"
    assert (
        tr(body, "openai-responses", "openai-chat")["choices"][0]["message"]["tool_calls"][0]["id"]
        == "call_abc"
    )
    again = tr(body, "openai-responses", "openai-responses")["output"][0]
    assert (again["id"], again["call_id"]) == ("fc_item", "call_abc")
    from_chat = tr(tr(body, "openai-responses", "openai-chat"), "openai-chat", "openai-responses")["output"][
        0
    ]
    assert from_chat["call_id"] == "call_abc" and from_chat["id"].startswith("fc_")
    assert from_chat["id"] != "call_abc"


def test_generated_envelope():
    c = {"content": [text("hi")], "stop_reason": "end_turn"}
    chat = tr(c, "canonical", "openai-chat")
    assert chat["id"].startswith("chatcmpl-") and isinstance(chat["created"], int) and chat["model"] == ""
    assert chat["id"] == tr(c, "canonical", "openai-chat")["id"]  # deterministic
    assert tr(c, "canonical", "anthropic")["id"].startswith("msg_")
    resp = tr(c, "canonical", "openai-responses")
    assert resp["id"].startswith("resp_") and resp["output"][0]["id"].startswith("msg_")
    gem = tr(c, "canonical", "gemini")
    assert "responseId" not in gem and "modelVersion" not in gem


def test_helpers():
    assert arguments_to_text({"a": "é", "b": [1, {}]}) == '{"a":"é","b":[1,{}]}'
    assert arguments_to_object("", ("x",), {}) == {}
    gen = IdGenerator(["call_2"])
    first, second = gen.new(), gen.new()
    assert (first, second) == ("call_1", "call_3")
    assert encode_call_id(second, BY_NAME["anthropic"].rules, {"ids.prefix": "keep"}) == "toolu_3"
    assert encode_call_id("call_9", BY_NAME["anthropic"].rules, {"ids.prefix": "keep"}) == "call_9"


# ---- content -------------------------------------------------------------------------------------


def test_text_and_tool_calls_keep_their_order():
    body = anthropic_body(
        "tool_use",
        [
            {"type": "text", "text": "Let me check. "},
            {"type": "tool_use", "id": "toolu_1", "name": "f", "input": {"x": "a\nb ü"}},
            {"type": "text", "text": "And also:"},
            {"type": "tool_use", "id": "toolu_2", "name": "g", "input": {}},
        ],
    )
    chat = tr(body, "anthropic", "openai-chat")["choices"][0]
    assert chat["message"]["content"] == "Let me check. And also:"
    assert [c["function"]["arguments"] for c in chat["message"]["tool_calls"]] == ['{"x":"a\\nb ü"}', "{}"]
    assert chat["finish_reason"] == "tool_calls"
    resp = tr(body, "anthropic", "openai-responses")["output"]
    assert [item["type"] for item in resp] == ["message", "function_call", "message", "function_call"]
    gem = tr(body, "anthropic", "gemini")["candidates"][0]["content"]["parts"]
    assert [next(iter(p)) for p in gem] == ["text", "functionCall", "text", "functionCall"]
    assert tr(tr(body, "anthropic", "gemini"), "gemini", "anthropic")["content"] == body["content"]


def test_chat_content_forms():
    assert (
        tr(canonical([call()], "tool_use"), "canonical", "openai-chat")["choices"][0]["message"]["content"]
        is None
    )
    assert tr(canonical([]), "canonical", "openai-chat")["choices"][0]["message"]["content"] == ""


def test_thinking_parts():
    c = canonical(
        [{"type": "thinking", "text": "hmm", "signature": "s1"}, {"type": "thinking", "text": "x"}, text("a")]
    )
    anth = tr(c, "canonical", "anthropic")["content"]
    assert anth == [{"type": "thinking", "thinking": "hmm", "signature": "s1"}, {"type": "text", "text": "a"}]
    gem = tr(c, "canonical", "gemini")["candidates"][0]["content"]["parts"]
    assert gem[0] == {"text": "hmm", "thought": True, "thoughtSignature": "s1"}
    resp = tr(c, "canonical", "openai-responses")["output"]
    assert resp[0]["type"] == "reasoning" and resp[0]["encrypted_content"] == "s1"
    assert resp[0]["summary"] == [{"type": "summary_text", "text": "hmm"}]
    assert "thinking" not in json.dumps(tr(c, "canonical", "openai-chat"))
    back = tr(tr(c, "canonical", "gemini"), "gemini", "canonical")["content"]
    assert back == [dict(c["content"][0], origin="gemini"), *c["content"][1:]]  # now known as Gemini's


def test_signatures_go_back_only_to_their_issuer():
    signed = {"type": "thinking", "text": "hmm", "signature": "s1", "origin": "gemini"}
    c = canonical(
        [
            signed,
            {
                "type": "tool_call",
                "id": "c1",
                "name": "f",
                "arguments": {},
                "signature": "g1",
                "origin": "gemini",
            },
        ]
    )
    assert tr(c, "canonical", "anthropic")["content"] == [
        {"type": "tool_use", "id": "c1", "name": "f", "input": {}}
    ]  # no Gemini signature in an Anthropic thinking block: the thinking is dropped
    gem = tr(c, "canonical", "gemini")["candidates"][0]["content"]["parts"]
    assert gem[0]["thoughtSignature"] == "s1" and gem[1]["thoughtSignature"] == "g1"
    resp = tr(c, "canonical", "openai-responses")["output"]
    assert resp[0]["type"] == "reasoning" and "encrypted_content" not in resp[0]
    anthropic = dict(signed, origin="anthropic")
    gem = tr(canonical([anthropic]), "canonical", "gemini")["candidates"][0]["content"]["parts"]
    assert gem == [{"text": "hmm", "thought": True}]


def test_redacted_thinking_is_dropped():
    body = anthropic_body(
        "end_turn", [{"type": "redacted_thinking", "data": "xx"}, {"type": "text", "text": "a"}]
    )
    assert tr(body, "anthropic", "canonical")["content"] == [text("a")]


def test_legacy_function_call_gets_a_generated_id():
    message = {"role": "assistant", "content": None, "function_call": {"name": "f", "arguments": '{"a":1}'}}
    anth = tr(chat_body("function_call", message), "openai-chat", "anthropic")
    assert anth["content"] == [{"type": "tool_use", "id": "toolu_1", "name": "f", "input": {"a": 1}}]
    assert anth["stop_reason"] == "tool_use"


# ---- errors --------------------------------------------------------------------------------------

BAD_ARGS = chat_body(
    "tool_calls",
    {
        "role": "assistant",
        "content": None,
        "tool_calls": [
            {"id": "call_1", "type": "function", "function": {"name": "f", "arguments": "{}"}},
            {"id": "call_2", "type": "function", "function": {"name": "f", "arguments": '{"a": '}},
        ],
    },
)


@pytest.mark.parametrize("target", DIALECTS)
def test_invalid_arguments_error(target):
    assert err(BAD_ARGS, "openai-chat", target) == (
        "call.invalid_arguments",
        "/choices/0/message/tool_calls/1/function/arguments",
    )


def test_invalid_arguments_preserved():
    keep = {"arguments.invalid": "preserve"}
    c = tr(BAD_ARGS, "openai-chat", "canonical", **keep)
    assert c["content"][1]["arguments_raw"] == '{"a": '
    out = tr(BAD_ARGS, "openai-chat", "openai-responses", **keep)
    assert out["output"][1]["arguments"] == '{"a": '
    chat = tr(c, "canonical", "openai-chat", **keep)
    assert chat["choices"][0]["message"]["tool_calls"][1]["function"]["arguments"] == '{"a": '
    for target in ("anthropic", "gemini"):
        assert err(BAD_ARGS, "openai-chat", target, **keep) == (
            "call.invalid_arguments",
            "/choices/0/message/tool_calls/1/function/arguments",
        )
        assert err(c, "canonical", target, **keep) == ("call.invalid_arguments", "/content/1/arguments_raw")


def test_arguments_that_are_not_an_object():
    body = copy.deepcopy(BAD_ARGS)
    body["choices"][0]["message"]["tool_calls"][1]["function"]["arguments"] = "[1, 2]"
    assert err(body, "openai-chat", "anthropic")[0] == "call.invalid_arguments"
    bad_input = anthropic_body("tool_use", [{"type": "tool_use", "id": "t", "name": "f", "input": "x"}])
    assert err(bad_input, "anthropic", "openai-chat") == ("call.invalid_arguments", "/content/0/input")


@pytest.mark.parametrize(
    "source, body, path",
    [
        ("openai-chat", [], ""),
        ("openai-chat", {"object": "chat.completion", "choices": []}, "/choices"),
        ("openai-chat", {"object": "chat.completion"}, "/choices"),
        ("openai-chat", {"object": "list", "choices": [{}]}, "/object"),
        ("openai-chat", chat_body("stop", {"role": "user", "content": "x"}), "/choices/0/message/role"),
        ("openai-chat", {"error": {"message": "bad"}}, "/choices"),
        ("anthropic", {"type": "error", "error": {"type": "x", "message": "y"}}, "/type"),
        ("anthropic", anthropic_body("end_turn", "hi"), "/content"),
        ("gemini", {"error": {"code": 400}}, "/candidates"),
        ("gemini", {"candidates": []}, "/candidates"),
        (
            "gemini",
            gemini_body("STOP", [{"functionCall": {"args": {}}}]),
            "/candidates/0/content/parts/0/functionCall/name",
        ),
        ("openai-responses", {"object": "response"}, "/output"),
        (
            "openai-responses",
            responses_body("completed", output=[{"type": "function_call", "name": "f", "arguments": "{}"}]),
            "/output/0/call_id",
        ),
        ("canonical", {"content": [], "stop_reason": "end_turn", "extra": 1}, "/extra"),
        ("canonical", {"content": [], "stop_reason": "finished"}, "/stop_reason"),
    ],
)
def test_not_a_response(source, body, path):
    assert err(body, source, "anthropic" if source != "anthropic" else "openai-chat") == (
        "response.invalid",
        path,
    )


@pytest.mark.parametrize(
    "source, body, path",
    [
        (
            "anthropic",
            anthropic_body(
                "end_turn", [{"type": "server_tool_use", "id": "s", "name": "web_search", "input": {}}]
            ),
            "/content/0",
        ),
        (
            "openai-responses",
            responses_body("completed", output=[{"type": "web_search_call", "id": "ws"}]),
            "/output/0",
        ),
        (
            "gemini",
            gemini_body("STOP", [{"executableCode": {"code": "1"}}]),
            "/candidates/0/content/parts/0/executableCode",
        ),
    ],
)
def test_unsupported_parts(source, body, path):
    assert err(body, source, "openai-chat") == ("content.unsupported", path)
    out = tr(body, source, "canonical", unsupported="degrade")
    assert out["content"] == []


def test_generated_item_id_does_not_come_back_as_item_id():
    c = canonical([call("call_abc")], "tool_use")
    out = tr(c, "canonical", "openai-responses")
    assert out["output"][0]["id"].startswith("fc_") and out["output"][0]["call_id"] == "call_abc"
    assert tr(out, "openai-responses", "canonical")["content"] == c["content"]
    kept = canonical([call("call_bad1", item_id="fc_bad1")], "tool_use")
    back = tr(tr(kept, "canonical", "openai-responses"), "openai-responses", "canonical")
    assert back["content"] == kept["content"]


@pytest.mark.unpinned_ids
def test_generated_ids_are_fresh_per_translation() -> None:
    """A response's invented call ids differ from the last response's: a conversation sends every earlier
    response back, and Anthropic refuses a history with two ``tool_use`` blocks of one id."""
    part = {"functionCall": {"name": "f", "args": {}}}
    gemini = {"candidates": [{"content": {"role": "model", "parts": [part]}, "finishReason": "STOP"}]}
    ids = set()
    for _ in range(2):
        out = translate("response", gemini, source="gemini", target="anthropic")
        ids.add(out["content"][0]["id"])
    assert len(ids) == 2 and all(i.startswith("toolu_") for i in ids)
