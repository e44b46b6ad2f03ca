"""The anthropic dialect's rules as data (``RULES``; what each field means: ``rules.DialectRules``)."""

from __future__ import annotations

from ...rules import Coded, DialectRules, ErrorShape, HttpApi, Slot

#: what a top-level property key must match (corpus/dialects/anthropic.json ``parameter_name``; server:
#: ``tools.N.custom.input_schema.properties: Property keys should match pattern '^[a-zA-Z0-9_.-]{1,64}$'``)
PROPERTY_NAME_PATTERN = r"^[a-zA-Z0-9_.-]{1,64}$"

#: ``{"type": "error", "error": {"type", "message"}}`` (corpus/dialects/anthropic.json ``http_errors``); a
#: translation's refusal adds the toolwire ``code`` and its ``param`` (the JSON Pointer)
ERROR_BODY = {
    "type": "error",
    "error": {
        "type": Slot("type"),
        "message": Slot("message"),
        "code": Coded(Slot("code")),
        "param": Coded(Slot("path")),
    },
}

RULES = DialectRules(
    name="anthropic",
    tool_name_pattern=r"^[a-zA-Z0-9_-]{1,128}$",
    http=HttpApi(
        "/v1/messages",
        ErrorShape(ERROR_BODY, stream_event="error"),
        key_header="x-api-key",
        key_prefix="",
        headers={"anthropic-version": "2023-06-01", "anthropic-beta": None},
    ),
    # `temperature`: "Ranges from 0.0 to 1.0" (Messages API reference)
    setting_maxima={"temperature": 1},
    call_id_prefix="toolu_",
    # `tool_use.id: String should match pattern '^[a-zA-Z0-9_-]+$'` (corpus/RULES.md, "Ids")
    call_id_pattern=r"[a-zA-Z0-9_-]+",
    stream_thinking=True,
    issues_signatures=True,
    request_ignorable=frozenset(("metadata", "service_tier", "cache_control")),
    stop_reasons_in={
        "end_turn": "end_turn",
        "max_tokens": "max_tokens",
        "stop_sequence": "stop_sequence",
        "tool_use": "tool_use",
        "pause_turn": "pause_turn",
        "refusal": "refusal",
        "model_context_window_exceeded": "context_window_exceeded",
    },
    stop_reasons_out={
        "end_turn": "end_turn",
        "max_tokens": "max_tokens",
        "stop_sequence": "stop_sequence",
        "tool_use": "tool_use",
        "content_filter": "refusal",
        "refusal": "refusal",
        "pause_turn": "pause_turn",
        "context_window_exceeded": "model_context_window_exceeded",
        "malformed_tool_call": "end_turn",
        "error": "end_turn",
        "other": "end_turn",
    },
)

# input_schema: keywords refused at the schema root, even next to `type: object`.
ROOT_UNSUPPORTED = ("anyOf", "oneOf", "allOf")
