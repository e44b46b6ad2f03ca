"""The mistral dialect's rules as data (``RULES``; what each field means: ``rules.DialectRules``).

Sources: the mistralai SDK's types (``ChatCompletionRequest``, ``ChatCompletionChoice.finish_reason``), the
API's error for other tool-call ids ("Tool call id was … but must be a-z, A-Z, 0-9, with a length of 9")
and for other function names ("must be a-z, A-Z, 0-9, or contain underscores and dashes, with a maximum
length of 64"): ``corpus/dialects/mistral.json``.
"""

from __future__ import annotations

from ...rules import TOOLS_OR_END, DialectRules, ErrorShape, HttpApi, Slot
from ..openai_chat.rules import ERROR_BODY as CHAT_ERROR_BODY

#: ``{"object": "error", "message", "type", "param", "code"}``, not nested (corpus/dialects/mistral.json
#: ``http_errors``)
ERROR_BODY = {
    "object": "error",
    "message": Slot("message"),
    "type": Slot("type"),
    "param": Slot("path"),
    "code": Slot("code"),
}

RULES = DialectRules(
    name="mistral",
    tool_name_pattern=r"^[a-zA-Z0-9_-]{1,64}$",
    # Mistral's stream errors are not documented: mid-stream, an error is written as openai-chat's
    http=HttpApi("/v1/chat/completions", ErrorShape(ERROR_BODY, stream_body=CHAT_ERROR_BODY)),
    call_id_length=9,
    request_ignorable=frozenset(("metadata", "prompt_cache_key")),
    request_default_values={
        "n": (1,),
        "safe_prompt": (False,),
        "presence_penalty": (0,),
        "frequency_penalty": (0,),
    },
    stop_reasons_in={
        "stop": TOOLS_OR_END,
        "length": "max_tokens",
        "model_length": "context_window_exceeded",
        "tool_calls": "tool_use",
        "error": "error",
    },
    calls_end_loop=True,
    stop_reasons_out={
        "end_turn": "stop",
        "max_tokens": "length",
        "stop_sequence": "stop",
        "tool_use": "tool_calls",
        "content_filter": "stop",
        "refusal": "stop",
        "pause_turn": "stop",
        "context_window_exceeded": "model_length",
        "malformed_tool_call": "error",
        "error": "error",
        "other": "stop",
    },
)
