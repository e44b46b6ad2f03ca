"""The wire schemas accept what the providers' current official definitions accept (a schema stricter than the
provider makes false findings): one minimal payload per member or value the SDKs added, pinned here.

Sources: openai-python 3.57.0, anthropic-sdk-python 2.14.0, google-genai 3.6.1, mistralai 3.7.0, botocore 1.44.8.
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
    tool = {"type": "function", "name": "f", "parameters": {"type": "object", "properties": {}}, "async": True}
    _ok("openai-responses", "request", {"model": "gpt-5", "input": [call], "tools": [tool]})
    _ok("openai-responses", "tools", [tool])
