"""The wire schemas accept what the providers' current official definitions accept (a schema stricter than the
provider makes false findings): one minimal payload per member or value the SDKs added, pinned here.

Sources: openai-python 3.57.0, google-genai 3.6.1, mistralai 3.7.0, botocore 1.44.8.
"""

from __future__ import annotations

from typing import Any

import pytest
from protocol_support import REPO
from toolwire.corpus.wire import validate

SCHEMAS = REPO / "schemas"


def _ok(dialect: str, kind: str, payload: Any) -> None:
    assert validate(dialect, kind, payload, SCHEMAS) == [], payload


def _rejected(dialect: str, kind: str, payload: Any) -> None:
    assert validate(dialect, kind, payload, SCHEMAS), payload


# --- openai-responses (openai-python 3.57.0) ---------------------------------------------------------------

#: types/responses/response_stream_event.py: the event types the `ResponseStreamEvent` union gained
RESPONSES_NEW_EVENTS = [
    "response.compaction.compacting",
    "response.shell_call_command.added",
    "response.shell_call_command.delta",
    "response.shell_call_command.done",
    "response.shell_call_output_content.delta",
    "response.shell_call_output_content.done",
]


@pytest.mark.parametrize("event_type", RESPONSES_NEW_EVENTS)
def test_responses_stream_accepts_new_event_types(event_type: str) -> None:
    _ok("openai-responses", "stream", {"type": event_type, "sequence_number": 3})


def test_responses_stream_still_rejects_an_unknown_event_type() -> None:
    _rejected("openai-responses", "stream", {"type": "response.no_such_event", "sequence_number": 3})


def _response(**extra: Any) -> dict:
    return {
        "id": "resp_1",
        "object": "response",
        "created_at": 1,
        "model": "gpt-5",
        "status": "incomplete",
        "output": [],
        **extra,
    }


@pytest.mark.parametrize("reason", ["max_output_tokens", "max_messages", "content_filter", "steered"])
def test_responses_response_accepts_every_incomplete_reason(reason: str) -> None:
    """types/responses/response.py `IncompleteDetails.reason`."""
    _ok("openai-responses", "response", _response(incomplete_details={"reason": reason}))


@pytest.mark.parametrize(
    "item",
    [
        {"type": "configuration_update", "reasoning": {"effort": "low"}},
        {"type": "configuration_update", "id": None, "text": {"format": {"type": "text"}}},
    ],
)
def test_responses_request_accepts_configuration_update_items(item: dict) -> None:
    """types/responses/response_input_item_param.py (`ResponseConfigurationUpdateItemParamParam`)."""
    _ok("openai-responses", "request", {"model": "gpt-5", "input": [item]})


def test_responses_request_accepts_new_top_level_members() -> None:
    """types/responses/response_create_params.py: `access_programs`, `background_options`, `image`."""
    body = {"model": "gpt-5", "input": "hi", "access_programs": {}, "background_options": {}, "image": {}}
    _ok("openai-responses", "request", body)
    _rejected("openai-responses", "request", {"model": "gpt-5", "input": "hi", "messages": []})


def test_responses_request_accepts_async_function_calls_and_tools() -> None:
    """`async` on `ResponseFunctionToolCallParam` and on `FunctionToolParam`."""
    call = {"type": "function_call", "call_id": "c1", "name": "f", "arguments": "{}", "async": True}
    tool = {
        "type": "function",
        "name": "f",
        "parameters": {"type": "object", "properties": {}},
        "async": True,
    }
    _ok("openai-responses", "request", {"model": "gpt-5", "input": [call], "tools": [tool]})
    _ok("openai-responses", "tools", [tool])


# --- gemini (google-genai 3.6.1) ----------------------------------------------------------------------------

#: google/genai/types.py `FinishReason`, every value
GEMINI_FINISH_REASONS = [
    "FINISH_REASON_UNSPECIFIED", "STOP", "MAX_TOKENS", "SAFETY", "RECITATION", "LANGUAGE", "OTHER",
    "BLOCKLIST", "PROHIBITED_CONTENT", "SPII", "MALFORMED_FUNCTION_CALL", "IMAGE_SAFETY",
    "IMAGE_PROHIBITED_CONTENT", "IMAGE_OTHER", "NO_IMAGE", "IMAGE_RECITATION",
    "UNEXPECTED_TOOL_CALL", "TOO_MANY_TOOL_CALLS", "MISSING_THOUGHT_SIGNATURE", "MALFORMED_RESPONSE",
    "ESCALATION", "PUP_LIMITED_DISABLED", "CONTINUATION", "MODEL_ARMOR",
]  # fmt: skip


def _gemini_chunk(reason: Any) -> dict:
    return {
        "candidates": [
            {"content": {"role": "model", "parts": [{"text": "hi"}]}, "finishReason": reason, "index": 0}
        ]
    }


@pytest.mark.parametrize("kind", ["response", "stream"])
@pytest.mark.parametrize("reason", [*GEMINI_FINISH_REASONS, "SOME_FUTURE_REASON"])
def test_gemini_finish_reason_is_open_to_upper_snake_names(kind: str, reason: str) -> None:
    _ok("gemini", kind, _gemini_chunk(reason))


@pytest.mark.parametrize("kind", ["response", "stream"])
@pytest.mark.parametrize("reason", ["stop", "Stop", 3])
def test_gemini_finish_reason_rejects_what_is_no_enum_name(kind: str, reason: Any) -> None:
    _rejected("gemini", kind, _gemini_chunk(reason))


def test_gemini_response_part_accepts_sdk_part_members() -> None:
    part = {"text": "hi", "speechMetadata": {}, "mediaResolution": {"level": "MEDIA_RESOLUTION_LOW"}}
    _ok(
        "gemini",
        "response",
        {"candidates": [{"content": {"role": "model", "parts": [part]}, "finishReason": "STOP"}]},
    )


def test_gemini_request_accepts_sdk_members() -> None:
    """models.py `_GenerateContentConfig_to_mldev`, `_Part_to_mldev`, `_ToolConfig_to_mldev`; `Blob`."""
    part = {
        "inlineData": {"data": "aGk=", "mimeType": "text/plain", "displayName": "a.txt"},
        "documentMetadata": {},
    }
    body = {
        "contents": [{"role": "user", "parts": [part, {"text": "hi", "speechMetadata": {}}]}],
        "continuationToken": "YWJj",
        "labels": {"team": "a"},
        "store": False,
        "toolConfig": {"functionCallingConfig": {"mode": "AUTO"}, "includeServerSideToolInvocations": True},
    }
    _ok("gemini", "request", body)
    _ok("gemini", "tool_choice", {"toolConfig": {"retrievalConfig": {}}})
    _rejected("gemini", "request", {**body, "model": "gemini-3-pro"})


# --- mistral (mistralai 3.7.0) ------------------------------------------------------------------------------

MISTRAL_MESSAGES = [{"role": "user", "content": "hi"}]


@pytest.mark.parametrize(
    ("member", "value"),
    [
        ("top_k", 40),
        ("min_tokens", 1),
        ("logprobs", True),
        ("top_logprobs", 5),
        ("prompt_logprobs", False),
        ("top_prompt_logprobs", 2),
        ("repetition_penalty", 1.1),
        ("service_tier", "standard_only"),
        ("service_tier", None),
    ],
)
def test_mistral_request_accepts_sdk_members(member: str, value: Any) -> None:
    """models/chatcompletionrequest.py `ChatCompletionRequest`."""
    _ok("mistral", "request", {"model": "mistral-large", "messages": MISTRAL_MESSAGES, member: value})


def test_mistral_request_still_rejects_unknown_members_and_tiers() -> None:
    _rejected("mistral", "request", {"messages": MISTRAL_MESSAGES, "user": "u"})
    _rejected("mistral", "request", {"messages": MISTRAL_MESSAGES, "service_tier": "priority"})


@pytest.mark.parametrize(
    "tool",
    [
        {"type": "image_generation"},
        {"type": "document_library", "library_ids": ["lib1"]},
        {"type": "connector", "connector_id": "c1", "tool_configuration": None},
    ],
)
def test_mistral_tools_accept_non_function_tools(tool: dict) -> None:
    """`ChatCompletionRequest.tools`: Tool | ImageGenerationTool | DocumentLibraryTool | CustomConnector."""
    _ok("mistral", "tools", [tool])
    _ok("mistral", "request", {"messages": MISTRAL_MESSAGES, "tools": [tool]})


def test_mistral_tools_still_check_function_tools() -> None:
    _rejected("mistral", "tools", [{"type": "document_library"}])
    _rejected("mistral", "tools", [{"type": "web_search_premium"}])
    _rejected("mistral", "tools", [{"function": {"name": "f"}}])


# --- bedrock-converse (botocore 1.44.8) ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "project", ["default", "proj_1", "arn:aws:bedrock:us-east-1:123456789012:project/p-1"]
)
def test_bedrock_request_accepts_project_identifier(project: str) -> None:
    """data/bedrock-runtime/2023-09-30/service-2.json `ConverseRequest.projectIdentifier`."""
    body = {"messages": [{"role": "user", "content": [{"text": "hi"}]}], "projectIdentifier": project}
    _ok("bedrock-converse", "request", body)


def test_bedrock_request_still_rejects_unknown_members() -> None:
    """`modelId` is bound to the URI, not the body."""
    body = {"messages": [{"role": "user", "content": [{"text": "hi"}]}], "modelId": "m"}
    _rejected("bedrock-converse", "request", body)
