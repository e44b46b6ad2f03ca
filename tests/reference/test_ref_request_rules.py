"""Request rules: messages, ids, results, settings, profiles and error codes (corpus/RULES.md, Requests)."""

import pytest
from toolwire_reference import TranslationError, translate


def run(payload, source, target, **profile):
    return translate("request", payload, source=source, target=target, profile=profile)


def refusal(payload, source, target, **profile):
    with pytest.raises(TranslationError) as info:
        run(payload, source, target, **profile)
    return info.value.code, info.value.path


def p(**kw):
    """Profile keys with dots, written with underscores/dashes in Python."""
    names = {
        "orphans": "ids.orphans",
        "prefix": "ids.prefix",
        "arguments": "arguments.invalid",
        "flag": "results.error-flag",
        "max_tokens": "anthropic.max-tokens",
        "unsupported": "unsupported",
        "gemini": "gemini.schema",
        "strict": "openai.strict",
    }
    return {names[k]: v for k, v in kw.items()}


USER = {"role": "user", "content": [{"type": "text", "text": "hi"}]}


def canon(*messages, **extra):
    return {"messages": list(messages), **extra}


def call(cid, name="f", args=None):
    return {"type": "tool_call", "id": cid, "name": name, "arguments": args if args is not None else {}}


def result(cid, text="ok", **extra):
    return {"type": "tool_result", "call_id": cid, "content": [{"type": "text", "text": text}], **extra}


ANTHROPIC_4 = {
    "model": "claude",
    "max_tokens": 100,
    "messages": [
        {"role": "user", "content": "who?"},
        {
            "role": "assistant",
            "content": [
                {"type": "tool_use", "id": f"toolu_{i}", "name": "info", "input": {"n": i}} for i in range(4)
            ],
        },
        {
            "role": "user",
            "content": [
                {"type": "tool_result", "tool_use_id": f"toolu_{i}", "content": f"r{i}"} for i in range(4)
            ],
        },
    ],
}


# ---- several results in one turn -------------------------------------------------------------


def test_anthropic_four_results_become_four_tool_messages_and_back():
    chat = run(ANTHROPIC_4, "anthropic", "openai-chat")
    tools = [m for m in chat["messages"] if m["role"] == "tool"]
    assert [(m["tool_call_id"], m["content"]) for m in tools] == [(f"toolu_{i}", f"r{i}") for i in range(4)]
    assert chat["messages"][-1]["role"] == "tool"
    back = run(chat, "openai-chat", "anthropic")
    assert back["messages"] == [
        {"role": "user", "content": [{"type": "text", "text": "who?"}]},
        {"role": "assistant", "content": ANTHROPIC_4["messages"][1]["content"]},
        {
            "role": "user",
            "content": [
                {"type": "tool_result", "tool_use_id": f"toolu_{i}", "content": f"r{i}"} for i in range(4)
            ],
        },
    ]


def test_user_text_after_tool_messages_joins_the_results_turn():
    chat = run(ANTHROPIC_4, "anthropic", "openai-chat")
    chat["messages"].append({"role": "user", "content": "and now?"})
    out = run(chat, "openai-chat", "anthropic")
    assert len(out["messages"]) == 3
    assert out["messages"][2]["content"][-1] == {"type": "text", "text": "and now?"}
    assert [b["type"] for b in out["messages"][2]["content"]] == ["tool_result"] * 4 + ["text"]


def test_several_results_every_dialect():
    responses = run(ANTHROPIC_4, "anthropic", "openai-responses")
    assert [i["type"] for i in responses["input"][1:]] == ["function_call"] * 4 + ["function_call_output"] * 4
    gemini = run(ANTHROPIC_4, "anthropic", "gemini")
    parts = gemini["contents"][2]["parts"]
    assert [x["functionResponse"]["name"] for x in parts] == ["info"] * 4
    assert parts[0]["functionResponse"]["response"] == {"output": "r0"}


# ---- Gemini ids ---------------------------------------------------------------------------------

GEMINI_PARALLEL = {
    "contents": [
        {"role": "user", "parts": [{"text": "Paris and London?"}]},
        {
            "role": "model",
            "parts": [
                {"functionCall": {"name": "w", "args": {"city": "Paris"}}, "thoughtSignature": "sig=="},
                {"functionCall": {"name": "w", "args": {"city": "London"}}},
            ],
        },
        {
            "role": "user",
            "parts": [
                {"functionResponse": {"name": "w", "response": {"output": "18C"}}},
                {"functionResponse": {"name": "w", "response": {"output": "12C"}}},
            ],
        },
    ]
}


def test_gemini_ids_generated_and_matched_for_parallel_calls_to_one_function():
    chat = run(GEMINI_PARALLEL, "gemini", "openai-chat")
    ids = [c["id"] for c in chat["messages"][1]["tool_calls"]]
    assert len(set(ids)) == 2
    assert [(m["tool_call_id"], m["content"]) for m in chat["messages"][2:]] == [
        (ids[0], "18C"),
        (ids[1], "12C"),
    ]
    anthropic = run(GEMINI_PARALLEL, "gemini", "anthropic")
    uses = [b["id"] for b in anthropic["messages"][1]["content"]]
    assert all(u.startswith("toolu_") for u in uses)
    assert [b["tool_use_id"] for b in anthropic["messages"][2]["content"]] == uses


def test_gemini_results_matched_by_id_in_any_order():
    payload = {
        "contents": [
            USER_G := {"role": "user", "parts": [{"text": "x"}]},
            {
                "role": "model",
                "parts": [
                    {"functionCall": {"id": "a", "name": "f", "args": {}}},
                    {"functionCall": {"id": "b", "name": "g", "args": {}}},
                ],
            },
            {
                "role": "user",
                "parts": [
                    {"functionResponse": {"id": "b", "name": "g", "response": {"output": "B"}}},
                    {"functionResponse": {"id": "a", "name": "f", "response": {"output": "A"}}},
                ],
            },
        ]
    }
    assert USER_G
    chat = run(payload, "gemini", "openai-chat")
    assert [(m["tool_call_id"], m["content"]) for m in chat["messages"][2:]] == [("b", "B"), ("a", "A")]


def test_gemini_to_gemini_keeps_no_invented_ids():
    out = run(GEMINI_PARALLEL, "gemini", "gemini")
    assert out["contents"] == GEMINI_PARALLEL["contents"]


def test_thought_signature_round_trip_through_canonical():
    canonical = run(GEMINI_PARALLEL, "gemini", "canonical")
    assert canonical["messages"][1]["content"][0]["signature"] == "sig=="
    assert "signature" not in canonical["messages"][1]["content"][1]
    back = run(canonical, "canonical", "gemini")
    assert back["contents"][1]["parts"][0]["thoughtSignature"] == "sig=="
    assert "thoughtSignature" not in back["contents"][1]["parts"][1]
    # other dialects cannot carry it
    assert "sig==" not in str(run(GEMINI_PARALLEL, "gemini", "anthropic"))


def test_gemini_function_response_shapes():
    def decoded(response):
        payload = {
            "contents": [
                {"role": "model", "parts": [{"functionCall": {"id": "c", "name": "f", "args": {}}}]},
                {
                    "role": "user",
                    "parts": [{"functionResponse": {"id": "c", "name": "f", "response": response}}],
                },
            ]
        }
        return run(payload, "gemini", "canonical")["messages"][1]["content"][0]

    assert decoded({"output": "hi"})["content"] == [{"type": "text", "text": "hi"}]
    assert decoded({"output": 3})["content"] == [{"type": "json", "value": 3}]
    assert decoded({"a": 1})["content"] == [{"type": "json", "value": {"a": 1}}]
    err = decoded({"error": "bad"})
    assert err["is_error"] is True and err["content"] == [{"type": "text", "text": "bad"}]
    gem = run(
        canon(
            USER,
            {"role": "assistant", "content": [call("c", "f")]},
            {
                "role": "user",
                "content": [
                    {"type": "tool_result", "call_id": "c", "content": [{"type": "json", "value": [1, 2]}]},
                ],
            },
        ),
        "canonical",
        "gemini",
    )
    response = gem["contents"][2]["parts"][0]["functionResponse"]
    assert response == {
        "id": "c",
        "name": "f",
        "response": {"output": [1, 2]},
    }  # name looked up from the call


def test_gemini_function_response_must_be_an_object():
    payload = {
        "contents": [
            {"role": "model", "parts": [{"functionCall": {"id": "c", "name": "f", "args": {}}}]},
            {"role": "user", "parts": [{"functionResponse": {"id": "c", "name": "f", "response": "x"}}]},
        ]
    }
    assert refusal(payload, "gemini", "openai-chat") == (
        "payload.invalid",
        "/contents/1/parts/0/functionResponse/response",
    )


# ---- Responses ids ------------------------------------------------------------------------------

RESPONSES = {
    "model": "gpt",
    "input": [
        {"role": "user", "content": "weather?"},
        {
            "type": "function_call",
            "id": "fc_item1",
            "call_id": "call_abc",
            "name": "w",
            "arguments": '{"c":1}',
        },
        {"type": "function_call_output", "call_id": "call_abc", "output": "sunny"},
    ],
}


def test_responses_item_id_is_not_the_call_id():
    chat = run(RESPONSES, "openai-responses", "openai-chat")
    assert chat["messages"][1]["tool_calls"][0]["id"] == "call_abc"
    assert chat["messages"][2]["tool_call_id"] == "call_abc"
    assert "fc_item1" not in str(chat)
    # the fc_ item id is the canonical item_id, written back only to openai-responses (with the
    # reasoning item it follows, when there is one); the call_id link stays
    again = run(RESPONSES, "openai-responses", "openai-responses")
    assert again["input"][1] == {
        "type": "function_call",
        "id": "fc_item1",
        "call_id": "call_abc",
        "name": "w",
        "arguments": '{"c":1}',
    }
    canonical = run(RESPONSES, "openai-responses", "canonical")
    assert canonical["messages"][1]["content"][0] == dict(call("call_abc", "w", {"c": 1}), item_id="fc_item1")
    assert "fc_item1" not in str(run(RESPONSES, "openai-responses", "anthropic"))


def test_reasoning_items_go_back_only_to_responses():
    body = {
        "model": "gpt",
        "input": [
            {"role": "user", "content": "weather?"},
            {"type": "reasoning", "id": "rs_1", "summary": [], "encrypted_content": "enc"},
            {"type": "function_call", "id": "fc_1", "call_id": "call_abc", "name": "w", "arguments": "{}"},
            {"type": "function_call_output", "call_id": "call_abc", "output": "sunny"},
        ],
    }
    again = run(body, "openai-responses", "openai-responses")
    assert again["input"][1:3] == body["input"][1:3]
    canonical = run(body, "openai-responses", "canonical")
    assert canonical["messages"][1]["content"][0] == {
        "type": "thinking",
        "text": "",
        "signature": "enc",
        "origin": "openai-responses",
        "item_id": "rs_1",
    }
    for target in ("anthropic", "gemini", "openai-chat"):
        assert "enc" not in str(run(body, "openai-responses", target)), target


def test_ids_prefix_rewrite_is_consistent():
    out = run(RESPONSES, "openai-responses", "anthropic", **p(prefix="rewrite"))
    assert out["messages"][1]["content"][0]["id"] == "toolu_abc"
    assert out["messages"][2]["content"][0]["tool_use_id"] == "toolu_abc"
    kept = run(RESPONSES, "openai-responses", "anthropic")
    assert kept["messages"][1]["content"][0]["id"] == "call_abc"


# ---- orphans and duplicates ----------------------------------------------------------------------


def test_missing_result_policies():
    payload = canon(
        USER,
        {"role": "assistant", "content": [call("c1"), call("c2")]},
        {"role": "user", "content": [result("c1")]},
    )
    assert refusal(payload, "canonical", "anthropic") == ("call.missing_result", "/messages/1/content/1")
    dropped = run(payload, "canonical", "canonical", **p(orphans="drop"))
    assert dropped["messages"][1]["content"] == [call("c1")]
    synth = run(payload, "canonical", "canonical", **p(orphans="synthesize"))
    assert synth["messages"][2]["content"][1] == {
        "type": "tool_result",
        "call_id": "c2",
        "name": "f",
        "content": [{"type": "text", "text": "Tool call was not executed."}],
        "is_error": True,
    }


def test_final_assistant_calls_are_not_orphans():
    payload = canon(USER, {"role": "assistant", "content": [call("c1")]})
    assert run(payload, "canonical", "anthropic")["messages"][1]["content"][0]["id"] == "c1"


def test_orphan_result_policies():
    payload = canon(USER, {"role": "user", "content": [result("nope"), {"type": "text", "text": "x"}]})
    assert refusal(payload, "canonical", "openai-chat") == ("call.orphan_result", "/messages/1/content/0")
    out = run(payload, "canonical", "canonical", **p(orphans="drop"))
    assert out["messages"][1]["content"] == [{"type": "text", "text": "x"}]
    out = run(payload, "canonical", "canonical", **p(orphans="synthesize"))
    assert out["messages"][1]["content"] == [{"type": "text", "text": "x"}]


def test_missing_result_synthesized_before_a_following_assistant_turn():
    payload = canon(
        USER,
        {"role": "assistant", "content": [call("c1")]},
        {"role": "assistant", "content": [{"type": "text", "text": "hm"}]},
    )
    out = run(payload, "canonical", "anthropic", **p(orphans="synthesize"))
    assert [m["role"] for m in out["messages"]] == ["user", "assistant", "user", "assistant"]
    assert out["messages"][2]["content"][0]["is_error"] is True


def test_duplicated_results_keep_the_first():
    payload = canon(
        USER,
        {"role": "assistant", "content": [call("c1")]},
        {"role": "user", "content": [result("c1", "first"), result("c1", "second")]},
    )
    out = run(payload, "canonical", "openai-chat")
    assert [m["content"] for m in out["messages"] if m["role"] == "tool"] == ["first"]


# ---- arguments ------------------------------------------------------------------------------------

CHAT_BAD_ARGS = {
    "messages": [
        {"role": "user", "content": "x"},
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {"id": "call_1", "type": "function", "function": {"name": "f", "arguments": "{bad"}}
            ],
        },
        {"role": "tool", "tool_call_id": "call_1", "content": "ok"},
    ]
}


def test_invalid_arguments_error_or_preserve():
    path = "/messages/1/tool_calls/0/function/arguments"
    assert refusal(CHAT_BAD_ARGS, "openai-chat", "openai-responses") == ("call.invalid_arguments", path)
    out = run(CHAT_BAD_ARGS, "openai-chat", "openai-responses", **p(arguments="preserve"))
    assert out["input"][1]["arguments"] == "{bad"
    canonical = run(CHAT_BAD_ARGS, "openai-chat", "canonical", **p(arguments="preserve"))
    assert canonical["messages"][1]["content"][0]["arguments_raw"] == "{bad"
    assert refusal(CHAT_BAD_ARGS, "openai-chat", "anthropic", **p(arguments="preserve")) == (
        "call.invalid_arguments",
        path,
    )
    assert refusal(canonical, "canonical", "gemini", **p(arguments="preserve")) == (
        "call.invalid_arguments",
        "/messages/1/content/0/arguments_raw",
    )


def test_arguments_text_is_compact_and_keeps_unicode():
    payload = canon(
        USER, {"role": "assistant", "content": [call("c", "f", {"city": "Zürich", "n": [1, {}]})]}
    )
    out = run(payload, "canonical", "openai-chat")
    assert out["messages"][1]["tool_calls"][0]["function"]["arguments"] == '{"city":"Zürich","n":[1,{}]}'


# ---- error flag -------------------------------------------------------------------------------------


def test_error_flag_profiles():
    payload = canon(
        USER,
        {"role": "assistant", "content": [call("c")]},
        {"role": "user", "content": [result("c", "boom", is_error=True)]},
    )
    out = run(payload, "canonical", "openai-chat")
    assert out["messages"][2]["content"] == "Error: boom"
    assert run(out, "openai-chat", "canonical")["messages"][2]["content"][0]["is_error"] is True
    dropped = run(payload, "canonical", "openai-chat", **p(flag="drop"))
    assert dropped["messages"][2]["content"] == "boom"
    assert (
        "is_error"
        not in run(dropped, "openai-chat", "canonical", **p(flag="drop"))["messages"][2]["content"][0]
    )
    anthropic = run(payload, "canonical", "anthropic")
    assert anthropic["messages"][2]["content"][0]["is_error"] is True
    gemini = run(payload, "canonical", "gemini")
    assert gemini["contents"][2]["parts"][0]["functionResponse"]["response"] == {"error": "boom"}


def test_image_in_tool_result():
    image = {"type": "image", "media_type": "image/png", "data": "AAA="}
    payload = canon(
        USER,
        {"role": "assistant", "content": [call("c")]},
        {"role": "user", "content": [{"type": "tool_result", "call_id": "c", "content": [image]}]},
    )
    assert refusal(payload, "canonical", "openai-chat") == (
        "content.unsupported",
        "/messages/2/content/0/content/0",
    )
    assert (
        run(payload, "canonical", "openai-chat", **p(unsupported="degrade"))["messages"][2]["content"] == ""
    )
    responses = run(payload, "canonical", "openai-responses")
    assert responses["input"][2]["output"][0]["type"] == "input_image"
    anthropic = run(payload, "canonical", "anthropic")
    assert anthropic["messages"][2]["content"][0]["content"][0]["source"]["type"] == "base64"


# ---- system, roles, images ------------------------------------------------------------------------


def test_system_forms():
    blocks = {
        "max_tokens": 50,
        "system": [{"type": "text", "text": "a"}, {"type": "text", "text": "b"}],
        "messages": [{"role": "user", "content": "x"}],
    }
    chat = run(blocks, "anthropic", "openai-chat")
    assert chat["messages"][:2] == [{"role": "system", "content": "a"}, {"role": "system", "content": "b"}]
    assert run(chat, "openai-chat", "anthropic")["system"] == blocks["system"]
    assert run(blocks, "anthropic", "openai-responses")["instructions"] == "a\n\nb"
    assert run(blocks, "anthropic", "gemini")["systemInstruction"] == {
        "parts": [{"text": "a"}, {"text": "b"}]
    }
    single = dict(blocks, system="only")
    assert run(run(single, "anthropic", "gemini"), "gemini", "anthropic")["system"] == "only"


def test_late_system_message_is_invalid_role_or_hoisted():
    chat = {"messages": [{"role": "user", "content": "x"}, {"role": "system", "content": "late"}]}
    assert refusal(chat, "openai-chat", "anthropic") == ("message.invalid_role", "/messages/1")
    out = run(chat, "openai-chat", "anthropic", **p(unsupported="degrade"))
    assert out["system"] == "late"


def test_role_mapping_model_assistant():
    payload = {
        "contents": [{"role": "user", "parts": [{"text": "a"}]}, {"role": "model", "parts": [{"text": "b"}]}]
    }
    chat = run(payload, "gemini", "openai-chat")
    assert [m["role"] for m in chat["messages"]] == ["user", "assistant"]
    assert run(chat, "openai-chat", "gemini")["contents"] == payload["contents"]
    assert refusal({"contents": [{"role": "tool", "parts": []}]}, "gemini", "openai-chat") == (
        "message.invalid_role",
        "/contents/0",
    )


def test_images_between_dialects():
    chat = {
        "messages": [
            {
                "role": "user",
                "content": [
                    {"type": "text", "text": "see"},
                    {"type": "image_url", "image_url": {"url": "data:image/png;base64,AAA="}},
                    {"type": "image_url", "image_url": {"url": "https://x.test/a.png"}},
                ],
            }
        ]
    }
    anthropic = run(chat, "openai-chat", "anthropic")
    assert anthropic["messages"][0]["content"][1:] == [
        {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "AAA="}},
        {"type": "image", "source": {"type": "url", "url": "https://x.test/a.png"}},
    ]
    assert run(anthropic, "anthropic", "openai-chat")["messages"] == chat["messages"]
    assert refusal(chat, "openai-chat", "gemini") == ("content.unsupported", "/messages/0/content/2")
    gemini = run(chat, "openai-chat", "gemini", **p(unsupported="degrade"))
    assert gemini["contents"][0]["parts"][1:] == [{"inlineData": {"mimeType": "image/png", "data": "AAA="}}]
    audio = {"messages": [{"role": "user", "content": [{"type": "input_audio", "input_audio": {}}]}]}
    assert refusal(audio, "openai-chat", "anthropic") == ("content.unsupported", "/messages/0/content/0")


def test_text_and_calls_keep_their_order_where_possible():
    payload = canon(
        USER,
        {
            "role": "assistant",
            "content": [
                {"type": "text", "text": "first"},
                call("a"),
                {"type": "text", "text": "then"},
                call("b"),
            ],
        },
    )
    responses = run(payload, "canonical", "openai-responses")
    assert [i.get("type", i.get("role")) for i in responses["input"][1:]] == [
        "assistant",
        "function_call",
        "assistant",
        "function_call",
    ]
    assert run(responses, "openai-responses", "canonical")["messages"] == payload["messages"]
    anthropic = run(payload, "canonical", "anthropic")
    assert [b["type"] for b in anthropic["messages"][1]["content"]] == [
        "text",
        "tool_use",
        "text",
        "tool_use",
    ]
    chat = run(payload, "canonical", "openai-chat")
    assert chat["messages"][1]["content"] == "first\n\nthen"


def test_thinking_kept_for_anthropic_dropped_for_openai():
    payload = {
        "max_tokens": 5,
        "messages": [
            {"role": "user", "content": "x"},
            {
                "role": "assistant",
                "content": [
                    {"type": "thinking", "thinking": "hmm", "signature": "s"},
                    {"type": "text", "text": "y"},
                ],
            },
        ],
    }
    assert (
        run(payload, "anthropic", "anthropic")["messages"][1]["content"] == payload["messages"][1]["content"]
    )
    assert run(payload, "anthropic", "openai-chat")["messages"][1] == {"role": "assistant", "content": "y"}


# ---- settings --------------------------------------------------------------------------------------


def test_settings_between_dialects():
    chat = {
        "model": "m",
        "messages": [{"role": "user", "content": "x"}],
        "max_tokens": 100,
        "temperature": 0.5,
        "top_p": 0.9,
        "stop": "END",
        "stream": True,
    }
    anthropic = run(chat, "openai-chat", "anthropic")
    assert {k: anthropic[k] for k in ("max_tokens", "temperature", "top_p", "stop_sequences", "stream")} == {
        "max_tokens": 100,
        "temperature": 0.5,
        "top_p": 0.9,
        "stop_sequences": ["END"],
        "stream": True,
    }
    gemini = run(chat, "openai-chat", "gemini")
    assert gemini["generationConfig"] == {
        "maxOutputTokens": 100,
        "temperature": 0.5,
        "topP": 0.9,
        "stopSequences": ["END"],
    }
    assert "model" not in gemini and "stream" not in gemini
    assert run(chat, "openai-chat", "openai-chat")["max_completion_tokens"] == 100
    assert refusal(chat, "openai-chat", "openai-responses") == ("request.unsupported_field", "/stop")
    responses = run(chat, "openai-chat", "openai-responses", **p(unsupported="degrade"))
    assert responses["max_output_tokens"] == 100 and "stop" not in responses


def test_top_k_unsupported_for_openai():
    payload = {"max_tokens": 5, "top_k": 3, "messages": [{"role": "user", "content": "x"}]}
    assert refusal(payload, "anthropic", "openai-chat") == ("request.unsupported_field", "/top_k")
    assert run(payload, "anthropic", "gemini")["generationConfig"]["topK"] == 3


def test_anthropic_max_tokens_profile():
    chat = {"messages": [{"role": "user", "content": "x"}]}
    assert run(chat, "openai-chat", "anthropic")["max_tokens"] == 4096
    assert refusal(chat, "openai-chat", "anthropic", **p(max_tokens="error")) == (
        "request.missing_max_tokens",
        "",
    )


def test_ignorable_and_unknown_members():
    chat = {
        "messages": [{"role": "user", "content": "x"}],
        "metadata": {"a": "b"},
        "user": "u",
        "stream_options": {"include_usage": True},
        "store": False,
    }
    assert set(run(chat, "openai-chat", "anthropic")) == {"max_tokens", "messages"}
    seeded = dict(chat, seed=3)
    assert refusal(seeded, "openai-chat", "anthropic") == ("request.unsupported_field", "/seed")
    assert "seed" not in run(seeded, "openai-chat", "openai-chat", **p(unsupported="degrade"))
    gemini = {
        "contents": [],
        "generationConfig": {"responseModalities": ["TEXT"], "seed": 1},
        "safetySettings": [],
    }
    assert refusal(gemini, "gemini", "openai-chat") == ("request.unsupported_field", "/generationConfig/seed")


def test_response_format_between_dialects():
    schema = {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}
    chat = {
        "messages": [{"role": "user", "content": "x"}],
        "response_format": {
            "type": "json_schema",
            "json_schema": {"name": "person", "schema": schema, "strict": True},
        },
    }
    gemini = run(chat, "openai-chat", "gemini")
    assert gemini["generationConfig"] == {"responseMimeType": "application/json", "responseSchema": schema}
    assert (
        run(chat, "openai-chat", "gemini", **p(gemini="json-schema"))["generationConfig"][
            "responseJsonSchema"
        ]
        == schema
    )
    responses = run(chat, "openai-chat", "openai-responses")
    assert responses["text"] == {
        "format": {"type": "json_schema", "name": "person", "schema": schema, "strict": True}
    }
    assert run(responses, "openai-responses", "openai-chat")["response_format"] == chat["response_format"]
    strict = run(chat, "openai-chat", "openai-chat", **p(strict="all-required"))
    assert strict["response_format"]["json_schema"]["schema"]["additionalProperties"] is False
    assert refusal(chat, "openai-chat", "anthropic") == ("request.unsupported_field", "/response_format")
    back = run(gemini, "gemini", "openai-chat")
    assert back["response_format"]["json_schema"]["schema"] == schema
    mode = {"messages": [{"role": "user", "content": "x"}], "response_format": {"type": "json_object"}}
    assert run(mode, "openai-chat", "gemini")["generationConfig"] == {"responseMimeType": "application/json"}


def test_tools_inside_requests_use_the_tools_rules_with_prefixed_paths():
    chat = {
        "messages": [{"role": "user", "content": "x"}],
        "tools": [{"type": "function", "function": {"name": "bad name", "parameters": {"type": "object"}}}],
    }
    assert refusal(chat, "openai-chat", "anthropic") == ("tool.invalid_name", "/tools/0/function/name")
    legacy = {"messages": [{"role": "user", "content": "x"}], "functions": [{"name": "f", "parameters": []}]}
    assert refusal(legacy, "openai-chat", "anthropic") == (
        "tool.invalid_parameters",
        "/functions/0/parameters",
    )
    parallel = {
        "messages": [{"role": "user", "content": "x"}],
        "tools": [{"type": "function", "function": {"name": "f"}}],
        "parallel_tool_calls": False,
    }
    assert run(parallel, "openai-chat", "anthropic")["tool_choice"] == {
        "type": "auto",
        "disable_parallel_tool_use": True,
    }
    assert refusal(parallel, "openai-chat", "gemini") == (
        "choice.parallel_unsupported",
        "/parallel_tool_calls",
    )


def test_legacy_function_call_and_function_role():
    chat = {
        "messages": [
            {"role": "user", "content": "x"},
            {"role": "assistant", "content": None, "function_call": {"name": "f", "arguments": "{}"}},
            {"role": "function", "name": "f", "content": "done"},
        ]
    }
    out = run(chat, "openai-chat", "openai-chat")
    cid = out["messages"][1]["tool_calls"][0]["id"]
    assert out["messages"][2] == {"role": "tool", "tool_call_id": cid, "content": "done"}


def test_input_is_never_mutated_and_output_is_new():
    import copy

    before = copy.deepcopy(GEMINI_PARALLEL)
    out = run(GEMINI_PARALLEL, "gemini", "gemini")
    out["contents"][0]["parts"][0]["text"] = "changed"
    assert before == GEMINI_PARALLEL


@pytest.mark.parametrize("source", ["canonical", "openai-chat", "openai-responses", "anthropic", "gemini"])
def test_not_an_object_is_payload_invalid(source):
    assert refusal([], source, "canonical")[0] == "payload.invalid"


def test_gemini_unsigned_calls_get_the_documented_stand_in():
    """gemini.unsigned-calls=skip-validator: the first call of each model turn without a Gemini
    signature gets Google's stand-in; a call Gemini signed keeps its own; as-is writes none."""
    chat = {
        "model": "m",
        "messages": [
            {"role": "user", "content": "hi"},
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {"id": "a", "type": "function", "function": {"name": "f", "arguments": "{}"}},
                    {"id": "b", "type": "function", "function": {"name": "f", "arguments": "{}"}},
                ],
            },
            {"role": "tool", "tool_call_id": "a", "content": "1"},
            {"role": "tool", "tool_call_id": "b", "content": "2"},
        ],
    }
    out = run(chat, "openai-chat", "gemini", **{"gemini.unsigned-calls": "skip-validator"})
    parts = out["contents"][1]["parts"]
    assert parts[0]["thoughtSignature"] == "skip_thought_signature_validator"
    assert "thoughtSignature" not in parts[1]
    assert "thoughtSignature" not in str(run(chat, "openai-chat", "gemini"))
    gemini = {
        "contents": [
            {"role": "user", "parts": [{"text": "hi"}]},
            {
                "role": "model",
                "parts": [{"functionCall": {"name": "f", "args": {}}, "thoughtSignature": "real"}],
            },
            {"role": "user", "parts": [{"functionResponse": {"name": "f", "response": {"output": "1"}}}]},
        ]
    }
    again = run(gemini, "gemini", "gemini", **{"gemini.unsigned-calls": "skip-validator"})
    assert again == gemini


def test_anthropic_thinking_needs_default_sampling():
    """Anthropic refuses thinking with a temperature other than 1, top_k, or top_p below 0.95."""
    body = {
        "contents": [{"role": "user", "parts": [{"text": "hi"}]}],
        "generationConfig": {"temperature": 0, "thinkingConfig": {"thinkingBudget": 2048}},
    }
    assert refusal(body, "gemini", "anthropic") == (
        "request.unsupported_field",
        "/generationConfig/thinkingConfig",
    )
    out = run(body, "gemini", "anthropic", unsupported="degrade")
    assert "thinking" not in out and out["temperature"] == 0
    body["generationConfig"]["temperature"] = 1
    assert run(body, "gemini", "anthropic")["thinking"]["type"] == "enabled"


def test_mistral_tool_then_user_as_is_and_bridged():
    """Results then text: tool then user messages (as-is, the default); under ``bridge`` an assistant message
    with text goes between them, after the last result only; tool -> assistant -> user is never bridged."""
    ask = {"type": "text", "text": "warmer?"}
    turn = {"role": "user", "content": [result("aaaaaaaa1", "1"), result("aaaaaaaa2", "2"), ask]}
    calls = {"role": "assistant", "content": [call("aaaaaaaa1"), call("aaaaaaaa2")]}
    body = canon(USER, calls, turn)
    roles = [m["role"] for m in run(body, "canonical", "mistral")["messages"]]
    assert roles == ["user", "assistant", "tool", "tool", "user"]
    bridged = run(body, "canonical", "mistral", **{"mistral.tool-then-user": "bridge"})["messages"]
    assert [m["role"] for m in bridged] == ["user", "assistant", "tool", "tool", "assistant", "user"]
    assert bridged[4] == {"role": "assistant", "content": "OK"}
    answered = canon(
        USER,
        calls,
        {"role": "user", "content": [result("aaaaaaaa1", "1"), result("aaaaaaaa2", "2")]},
        {"role": "assistant", "content": [{"type": "text", "text": "1 and 2"}]},
        {"role": "user", "content": [ask]},
    )
    kept = run(answered, "canonical", "mistral", **{"mistral.tool-then-user": "bridge"})["messages"]
    assert [m["role"] for m in kept] == ["user", "assistant", "tool", "tool", "assistant", "user"]
    assert kept[4]["content"] == "1 and 2"
