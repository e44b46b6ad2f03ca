"""Every real request capture of the four providers translates to every dialect (or refuses with the
documented error), without touching its input, and canonical round trips are exact."""

import copy
import json
from pathlib import Path

import pytest
from captures import CAPTURES
from toolwire_reference import TranslationError, translate
from toolwire_reference.registry import NAMES as DIALECTS

PROVIDERS = ("openai-chat", "openai-responses", "anthropic", "gemini", "bedrock-converse", "mistral")
FILES = sorted((d, path) for d in PROVIDERS for path in (CAPTURES / d).glob("*.request*.json"))

# Documented refusals under the default profile (corpus/RULES.md, "Requests").
EXPECTED_ERRORS = {
    # Anthropic's own 400 for a tool_result with no preceding tool_use (ids.orphans=error)
    "10_error_orphan_tool_result": ("call.orphan_result", "/messages/1/content/0", None),
    # Anthropic cannot think while a tool is forced (tool_choice required)
    "14_stream_reasoning_then_function_call_2025-09": (
        "request.unsupported_field",
        "/reasoning",
        ("anthropic", "bedrock-converse"),
    ),
    # Bedrock Converse has no model-independent reasoning setting
    "15_reasoning_items_history": ("request.unsupported_field", "/reasoning", "bedrock-converse"),
    "16_thinking_tool_history": ("request.unsupported_field", "/thinking", "bedrock-converse"),
    # Gemini cannot turn parallel calls off
    "16_codex_first_turn": (
        "choice.parallel_unsupported",
        "/parallel_tool_calls",
        ("gemini", "bedrock-converse"),
    ),
    # Code Assist's `session_id` beside the generateContent members (the case leaves it out)
    "14_gemini_cli_first_turn": ("request.unsupported_field", "/session_id", None),
    # a choice among several named tools: Anthropic forces one tool or any
    "06_tool_choice_allowed_tools": (
        "choice.unsupported",
        "/tool_choice",
        ("anthropic", "bedrock-converse", "mistral"),
    ),
    "06_parallel_3_function_calls": (
        "choice.unsupported",
        "/toolConfig/functionCallingConfig/allowedFunctionNames",
        ("anthropic", "bedrock-converse", "mistral"),
    ),
    "07_followup_3_functionResponses": (
        "choice.unsupported",
        "/toolConfig/functionCallingConfig/allowedFunctionNames",
        ("anthropic", "bedrock-converse", "mistral"),
    ),
    # documents: OpenAI dialects take PDF files (Chat: as data only); Gemini reads only its own file URIs;
    # Mistral takes none (its `document_url` chunks are not mapped)
    "19_document_pdf_url": (
        "content.unsupported",
        "/messages/0/content/1",
        ("openai-chat", "gemini", "bedrock-converse", "mistral"),
    ),
    "20_document_text_source": (
        "content.unsupported",
        "/messages/0/content/1",
        ("openai-chat", "openai-responses", "mistral"),
    ),
    "18_document_pdf_base64": ("content.unsupported", "/messages/0/content/1", "mistral"),
    "14_document_pdf_inlineData": ("content.unsupported", "/contents/0/parts/1", "mistral"),
    "17_document_pdf_file_data": ("content.unsupported", "/input/0/content/1", "mistral"),
    # hosted (server) tools and their history blocks: the canonical hub carries none (RULES.md,
    # "Hosted tools"), so every target refuses, the source's own dialect included
    "21_web_search_server_tool": ("tool.unsupported_type", "/tools/0/type", None),
    "22_web_search_history": ("content.unsupported", "/messages/1/content/1", None),
    "23_code_execution_server_tool": ("tool.unsupported_type", "/tools/0/type", None),
    "18_web_search_tool": ("tool.unsupported_type", "/tools/0/type", None),
    "15_google_search_tool": ("tool.unsupported_type", "/tools/0/googleSearch", None),
    "19_web_search_call_history": ("content.unsupported", "/input/2", None),
}
#: captures with a hosted tool: refused under every profile (no canonical round trip)
HOSTED = {
    "21_web_search_server_tool",
    "22_web_search_history",
    "23_code_execution_server_tool",
    "18_web_search_tool",
    "15_google_search_tool",
    "19_web_search_call_history",
}


# Mistral takes reasoning_effort high or none only (RULES.md, "Encoding (canonical → each dialect)")
MISTRAL_EFFORTS = {
    "16_thinking_tool_history": "/thinking",
    "16_codex_first_turn": "/reasoning",
    "14_stream_reasoning_then_function_call_2025-09": "/reasoning",
    "15_reasoning_items_history": "/reasoning",
}


def _expected(path: Path, target: str):
    stem = path.name.split(".")[0]
    if target == "mistral" and stem in MISTRAL_EFFORTS:
        return ("request.unsupported_field", MISTRAL_EFFORTS[stem])
    entry = EXPECTED_ERRORS.get(stem)
    targets = entry[2] if entry and isinstance(entry[2], tuple) else (entry[2],) if entry else ()
    if entry and (entry[2] is None or target in targets):
        return entry[:2]
    return None


@pytest.mark.parametrize("target", DIALECTS)
@pytest.mark.parametrize(("source", "path"), FILES, ids=[f"{d}/{p.name}" for d, p in FILES])
def test_capture_translates(source, path, target):
    payload = json.loads(path.read_text())
    before = copy.deepcopy(payload)
    expected = _expected(path, target)
    if expected:
        with pytest.raises(TranslationError) as info:
            translate("request", payload, source=source, target=target)
        assert (info.value.code, info.value.path) == expected
    else:
        out = translate("request", payload, source=source, target=target)
        json.dumps(out)  # plain JSON
        back = translate("request", out, source=target, target=source)
        assert back  # the translation reads back
    assert payload == before  # the input is never modified


@pytest.mark.parametrize(("source", "path"), FILES, ids=[f"{d}/{p.name}" for d, p in FILES])
def test_canonical_round_trip_is_exact(source, path):
    """source → canonical → canonical gives the same canonical request (canonical is lossless)."""
    if path.name.split(".")[0] in HOSTED:
        pytest.skip("a hosted tool is refused under every profile")
    payload = json.loads(path.read_text())
    profile = {"unsupported": "degrade", "ids.orphans": "drop"}
    canonical = translate("request", payload, source=source, target="canonical", profile=profile)
    again = translate("request", canonical, source="canonical", target="canonical", profile=profile)
    assert again == canonical
    # and canonical → source → canonical keeps the conversation
    there = translate("request", canonical, source="canonical", target=source, profile=profile)
    back = translate("request", there, source=source, target="canonical", profile=profile)
    assert _flagless(back["messages"]) == _flagless(canonical["messages"])
    assert back.get("system") == canonical.get("system")


def _flagless(messages):
    """Messages without `is_error: false` (Anthropic writes the flag only when true)."""
    return [
        {
            **m,
            "content": [
                {k: v for k, v in p.items() if not (k == "is_error" and v is False)} for p in m["content"]
            ],
        }
        for m in messages
    ]
