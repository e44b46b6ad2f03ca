"""The bedrock-converse dialect's rules as data (``RULES``; what each field means: ``rules.DialectRules``),
from the botocore service model of ``bedrock-runtime`` (2023-09-30): ``ToolName``, ``ToolUseId``,
``StopReason``."""

from __future__ import annotations

from ...rules import DialectRules

RULES = DialectRules(
    name="bedrock-converse",
    tool_name_pattern=r"^[a-zA-Z0-9_-]{1,64}$",
    # botocore's `InferenceConfiguration.temperature` (0 to 1)
    setting_maxima={"temperature": 1},
    # the model and the method are in the path (/model/{modelId}/converse, /converse-stream), and the
    # stream is AWS's binary event stream: `toolwire serve` does not speak it yet
    http=None,
    call_id_prefix="tooluse_",
    # botocore's `ToolUseId` (pattern and length)
    call_id_pattern=r"[a-zA-Z0-9_.:-]{1,64}",
    stream_thinking=True,
    issues_signatures=True,
    request_ignorable=frozenset(
        ("requestMetadata", "performanceConfig", "serviceTier", "additionalModelResponseFieldPaths")
    ),
    stop_reasons_in={
        "end_turn": "end_turn",
        "tool_use": "tool_use",
        "max_tokens": "max_tokens",
        "stop_sequence": "stop_sequence",
        "guardrail_intervened": "content_filter",
        "content_filtered": "content_filter",
        "malformed_tool_use": "malformed_tool_call",
        "malformed_model_output": "other",
        "model_context_window_exceeded": "context_window_exceeded",
    },
    stop_reasons_out={
        "end_turn": "end_turn",
        "max_tokens": "max_tokens",
        "stop_sequence": "stop_sequence",
        "tool_use": "tool_use",
        "content_filter": "content_filtered",
        "refusal": "content_filtered",
        "pause_turn": "end_turn",
        "context_window_exceeded": "model_context_window_exceeded",
        "malformed_tool_call": "malformed_tool_use",
        "error": "end_turn",
        "other": "end_turn",
    },
)

