"""The openai-responses dialect's rules as data (``RULES``; what each field means: ``rules.DialectRules``)."""

from __future__ import annotations

from ...rules import TOOLS_OR_END, DialectRules, ErrorShape, HttpApi, Slot
from ..openai_chat.rules import ERROR_BODY

#: an error mid-stream: the `error` event (openai-openapi `ResponseErrorEvent`: type, code, message, param)
STREAM_ERROR = {"type": "error", "code": Slot("code"), "message": Slot("message"), "param": Slot("path")}

RULES = DialectRules(
    name="openai-responses",
    tool_name_pattern=r"^[a-zA-Z0-9_-]{1,128}$",
    http=HttpApi("/v1/responses", ErrorShape(ERROR_BODY, stream_event="error", stream_body=STREAM_ERROR)),
    setting_maxima={"temperature": 2},
    # a response format's name: "Must be a-z, A-Z, 0-9, or contain underscores and dashes, with a maximum
    # length of 64." (openai-openapi `ResponseFormatJsonSchema`, `TextResponseFormatJsonSchema`)
    format_name_pattern=r"^[a-zA-Z0-9_-]{1,64}$",
    call_id_prefix="call_",
    # a function_call item's `id` (`fc_…`): stripped too under ids.prefix=rewrite (corpus/RULES.md, "Ids")
    other_id_prefixes=("fc_",),
    issues_signatures=True,
    # a function_call_output's `call_id` is 1 to 64 characters (openai-openapi `FunctionCallOutputItemParam`)
    call_id_pattern=r"(?s).{1,64}",
    custom_tools=True,
    custom_streams=True,
    stream_thinking=True,
    request_ignorable=frozenset(
        (
            "metadata",
            "user",
            "store",
            "include",
            "stream_options",
            "service_tier",
            "safety_identifier",
            "prompt_cache_key",
            "prompt_cache_retention",
            "background",
            "truncation",
        )
    ),
    request_default_values={"top_logprobs": (0,)},
    # `status` (+ `incomplete_details.reason` for "incomplete"); out: `status` or
    # `status/incomplete_details.reason`
    stop_reasons_in={
        "completed": TOOLS_OR_END,
        "incomplete": "other",
        "incomplete/max_output_tokens": "max_tokens",
        "incomplete/content_filter": "content_filter",
        "failed": "error",
        "cancelled": "other",
        "in_progress": "other",
        "queued": "other",
    },
    stop_reasons_out={
        "end_turn": "completed",
        "max_tokens": "incomplete/max_output_tokens",
        "stop_sequence": "completed",
        "tool_use": "completed",
        "content_filter": "incomplete/content_filter",
        "refusal": "completed",  # with `refusal` content parts
        "pause_turn": "completed",
        "context_window_exceeded": "incomplete/max_output_tokens",
        "malformed_tool_call": "completed",
        "error": "failed",
        "other": "completed",
    },
)

#: the least ``max_output_tokens`` Responses takes (openai-openapi ``CreateResponse.max_output_tokens``:
#: ``minimum: 16``)
MIN_OUTPUT_TOKENS = 16
