"""Documents and hosted web search in the reference: error paths, alphabets, filenames (RULES.md,
"Documents" and "Hosted tools")."""

import pytest
from toolwire_reference import TranslationError, translate

MAP = {"hosted.web-search": "map"}
FN = {
    "name": "get_weather",
    "description": "Get the weather.",
    "input_schema": {"type": "object", "properties": {"city": {"type": "string"}}},
}


def _anthropic(tools, content="Hi"):
    return {
        "model": "m",
        "max_tokens": 64,
        "tools": tools,
        "messages": [{"role": "user", "content": content}],
    }


def test_an_error_after_a_taken_out_web_search_points_into_the_source_list():
    bad = dict(FN, name="bad name")
    body = _anthropic([{"type": "web_search_20250305", "name": "web_search"}, bad])
    with pytest.raises(TranslationError) as info:
        translate("request", body, source="anthropic", target="openai-chat", profile=MAP)
    assert (info.value.code, info.value.path) == ("tool.invalid_name", "/tools/1/name")


def test_an_encode_error_after_a_taken_out_web_search_points_into_the_source_list():
    rooted = dict(FN, name="rooted", input_schema={"type": "object", "anyOf": [{"required": ["city"]}]})
    body = _anthropic([{"type": "web_search_20250305", "name": "web_search"}, FN, rooted])
    with pytest.raises(TranslationError) as info:
        translate("request", body, source="anthropic", target="anthropic", profile=MAP)
    assert info.value.path == "/tools/2/input_schema/anyOf"


def test_a_lone_web_search_leaves_no_empty_tool_list():
    body = _anthropic([{"type": "web_search_20250305", "name": "web_search"}])
    out = translate("request", body, source="anthropic", target="openai-chat", profile=MAP)
    assert "tools" not in out and out["web_search_options"] == {}


def test_a_gemini_entry_keeps_its_declarations_beside_google_search():
    body = {
        "contents": [{"role": "user", "parts": [{"text": "Hi"}]}],
        "tools": [{"functionDeclarations": [{"name": "f"}], "googleSearch": {}}],
    }
    out = translate("request", body, source="gemini", target="openai-responses", profile=MAP)
    assert out["tools"] == [
        {
            "type": "function",
            "name": "f",
            "parameters": {"type": "object", "properties": {}},
            "strict": False,
        },
        {"type": "web_search"},
    ]


def test_an_unknown_web_search_option_is_refused_under_map():
    body = _anthropic([{"type": "web_search_20250305", "name": "web_search", "search_depth": 3}])
    with pytest.raises(TranslationError) as info:
        translate("request", body, source="anthropic", target="gemini", profile=MAP)
    assert (info.value.code, info.value.path) == ("request.unsupported_field", "/tools/0/search_depth")


def test_url_safe_base64_is_respelt_for_anthropic_and_kept_for_gemini():
    body = {
        "contents": [
            {"role": "user", "parts": [{"inlineData": {"mimeType": "application/pdf", "data": "ab-_cd"}}]}
        ]
    }
    out = translate("request", body, source="gemini", target="anthropic")
    assert out["messages"][0]["content"][0]["source"]["data"] == "ab+/cd=="
    back = translate("request", body, source="gemini", target="gemini")
    assert back["contents"][0]["parts"][0]["inlineData"]["data"] == "ab-_cd"


def test_an_untitled_pdf_gets_a_filename_for_openai():
    doc = {"type": "document", "source": {"type": "base64", "media_type": "application/pdf", "data": "JVBE"}}
    body = _anthropic([FN], [doc])
    chat = translate("request", body, source="anthropic", target="openai-chat")
    assert chat["messages"][0]["content"][0]["file"]["filename"] == "document.pdf"
    responses = translate("request", body, source="anthropic", target="openai-responses")
    assert responses["input"][0]["content"][0]["filename"] == "document.pdf"


def test_a_plain_text_document_round_trips_through_gemini_as_text():
    doc = {"type": "document", "source": {"type": "text", "media_type": "text/plain", "data": "héllo"}}
    gemini = translate("request", _anthropic([FN], [doc]), source="anthropic", target="gemini")
    back = translate("request", gemini, source="gemini", target="anthropic")
    assert back["messages"][0]["content"][0]["source"] == {
        "type": "text",
        "media_type": "text/plain",
        "data": "héllo",
    }


def test_a_document_in_a_tool_result_is_refused():
    result = {
        "type": "tool_result",
        "tool_use_id": "t1",
        "content": [
            {"type": "document", "source": {"type": "text", "media_type": "text/plain", "data": "x"}}
        ],
    }
    body = {
        "model": "m",
        "max_tokens": 64,
        "messages": [
            {"role": "user", "content": "go"},
            {"role": "assistant", "content": [{"type": "tool_use", "id": "t1", "name": "f", "input": {}}]},
            {"role": "user", "content": [result]},
        ],
    }
    with pytest.raises(TranslationError) as info:
        translate("request", body, source="anthropic", target="canonical")
    assert (info.value.code, info.value.path) == ("content.unsupported", "/messages/2/content/0/content/0")


@pytest.mark.parametrize(
    "media",
    [
        {"inlineData": {"mimeType": "application/pdf", "data": "JVBERi0xLjQK"}},
        {"fileData": {"mimeType": "text/plain", "fileUri": "https://example.com/notes.txt"}},
    ],
)
@pytest.mark.parametrize("target", ["canonical", "anthropic", "gemini", "openai-chat", "bedrock-converse"])
def test_a_document_in_a_gemini_function_response_is_refused_and_dropped_under_degrade(media, target):
    """A PDF or text document among a ``functionResponse``'s ``parts`` has no place in a canonical tool
    result (text, JSON and images only), as for Anthropic: content.unsupported at the part for every target
    (the Anthropic and Gemini encoders raised ``KeyError: 'value'`` on it), dropped under degrade."""
    body = {
        "contents": [
            {"role": "user", "parts": [{"text": "read it"}]},
            {"role": "model", "parts": [{"functionCall": {"name": "fetch", "args": {}}}]},
            {
                "role": "user",
                "parts": [
                    {"functionResponse": {"name": "fetch", "response": {"output": "here"}, "parts": [media]}}
                ],
            },
        ]
    }
    with pytest.raises(TranslationError) as info:
        translate("request", body, source="gemini", target=target)
    key = next(iter(media))
    assert (info.value.code, info.value.path) == (
        "content.unsupported",
        f"/contents/2/parts/0/functionResponse/parts/0/{key}",
    )
    out = translate("request", body, source="gemini", target=target, profile={"unsupported": "degrade"})
    assert "here" in str(out) and "JVBERi0xLjQK" not in str(out) and "notes.txt" not in str(out)
