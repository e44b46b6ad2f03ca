"""The openai-chat dialect's rules as data (``RULES``; what each field means: ``rules.DialectRules``)."""

from __future__ import annotations

from ...rules import TOOLS_OR_END, DialectRules, ErrorShape, HttpApi, Slot

#: OpenAI's error body (both OpenAI dialects): ``{"error": {"type", "message", "param", "code"}}``, ``param``
#: and ``code`` null when there is nothing to say (corpus/dialects/openai-chat.json ``http_errors``)
ERROR_BODY = {
    "error": {"type": Slot("type"), "message": Slot("message"), "param": Slot("path"), "code": Slot("code")}
}

RULES = DialectRules(
    name="openai-chat",
    tool_name_pattern=r"^[a-zA-Z0-9_-]{1,64}$",
    http=HttpApi("/v1/chat/completions", ErrorShape(ERROR_BODY)),
    setting_maxima={"temperature": 2},
    # a response format's name: "Must be a-z, A-Z, 0-9, or contain underscores and dashes, with a maximum
    # length of 64." (openai-openapi `ResponseFormatJsonSchema`, `TextResponseFormatJsonSchema`)
    format_name_pattern=r"^[a-zA-Z0-9_-]{1,64}$",
    call_id_prefix="call_",
    custom_tools=True,
    # streamed custom calls: `custom: {name, input}` fragments (openai-node `ChatCompletionChunk`, whose
    # `ChatCompletionStream` accumulates them; the spec's chunk enum still says function only:
    # openai/openai-openapi#576)
    custom_streams=True,
    custom_wrapped=True,
    request_ignorable=frozenset(
        (
            "metadata",
            "user",
            "store",
            "stream_options",
            "service_tier",
            "safety_identifier",
            "prompt_cache_key",
            "prompt_cache_retention",
        )
    ),
    request_default_values={"n": (1,), "logprobs": (False,), "top_logprobs": (0,)},
    stop_reasons_in={
        "stop": TOOLS_OR_END,
        "length": "max_tokens",
        "tool_calls": "tool_use",
        "function_call": "tool_use",
        "content_filter": "content_filter",
    },
    calls_end_loop=True,
    stop_reasons_out={
        "end_turn": "stop",
        "max_tokens": "length",
        "stop_sequence": "stop",
        "tool_use": "tool_calls",
        "content_filter": "content_filter",
        "refusal": "stop",  # with the text in `message.refusal` (OpenAI's refusal form)
        "pause_turn": "stop",
        "context_window_exceeded": "length",
        "malformed_tool_call": "stop",
        "error": "stop",
        "other": "stop",
    },
)
