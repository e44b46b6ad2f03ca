"""The gemini dialect's rules as data: ``RULES`` (what each field means: ``rules.DialectRules``), the
``generationConfig`` members dropped silently, and the tables of ``schema.py`` / ``schema_decode.py`` (the
OpenAPI 3.0 subset Gemini takes as ``parameters``)."""

from __future__ import annotations

import re

from ...rules import TOOLS_OR_END, Coded, DialectRules, ErrorShape, HttpApi, Slot

#: the gRPC status name (``error.status``) of each HTTP status (google.rpc.Code's HTTP mapping); another
#: status is INVALID_ARGUMENT below 500, else INTERNAL
STATUS_NAMES = {
    400: "INVALID_ARGUMENT",
    401: "UNAUTHENTICATED",
    403: "PERMISSION_DENIED",
    404: "NOT_FOUND",
    408: "DEADLINE_EXCEEDED",
    413: "INVALID_ARGUMENT",
    429: "RESOURCE_EXHAUSTED",
    500: "INTERNAL",
    502: "UNAVAILABLE",
    503: "UNAVAILABLE",
    504: "DEADLINE_EXCEEDED",
    529: "UNAVAILABLE",
}
#: Google's ``{"error": {"code", "message", "status"}}`` (``code``: the HTTP status;
#: corpus/dialects/gemini.json ``http_errors``); a translation's refusal adds an ``ErrorInfo`` detail:
#: ``reason`` the toolwire code, ``metadata.path`` its JSON Pointer
ERROR_BODY = {
    "error": {
        "code": Slot("status"),
        "message": Slot("message"),
        "status": Slot("type"),
        "details": Coded(
            [
                {
                    "@type": "type.googleapis.com/google.rpc.ErrorInfo",
                    "reason": Slot("code"),
                    "domain": "toolwire",
                    "metadata": {"path": Slot("path", default="")},
                }
            ]
        ),
    }
}

#: what Gemini accepts in place of a thought signature on a call it did not issue (Gemini 3 refuses
#: a model turn whose first functionCall has none): Google's documented value, also Gemini CLI's
#: (``gemini.unsigned-calls=skip-validator``)
SKIP_VALIDATOR = "skip_thought_signature_validator"

#: a ``thoughtSignature`` is bytes, in base64 (the standard or the URL-safe alphabet: both occur in
#: recordings, corpus/captures/gemini/01 and 02); a string that is not cannot be one Gemini issued
SIGNATURE_PATTERN = r"[A-Za-z0-9+/_=-]*"
is_signature = re.compile(SIGNATURE_PATTERN).fullmatch


def own_signature(signature: str | None) -> str | None:
    """``signature`` when Gemini could have issued it (base64), else None: the encoders write no other."""
    return signature if signature is not None and is_signature(signature) else None

RULES = DialectRules(
    name="gemini",
    tool_name_pattern=r"^[a-zA-Z_][a-zA-Z0-9_.:-]{0,127}$",
    http=HttpApi(
        "/v1beta/models/{model}:generateContent",
        ErrorShape(
            ERROR_BODY, types=STATUS_NAMES, type_fallback=("INVALID_ARGUMENT", "INTERNAL"), typed=False
        ),
        stream_path="/v1beta/models/{model}:streamGenerateContent?alt=sse",
        key_header="x-goog-api-key",
        key_prefix="",
        key_query="key",
    ),
    setting_maxima={"temperature": 2},
    stream_thinking=True,
    issues_signatures=True,
    request_ignorable=frozenset(("safetySettings", "safety_settings", "labels")),
    stop_reasons_in={
        "FINISH_REASON_UNSPECIFIED": "other",
        "STOP": TOOLS_OR_END,
        "MAX_TOKENS": "max_tokens",
        "SAFETY": "content_filter",
        "RECITATION": "content_filter",
        "LANGUAGE": "other",
        "OTHER": "other",
        "BLOCKLIST": "content_filter",
        "PROHIBITED_CONTENT": "content_filter",
        "SPII": "content_filter",
        "MALFORMED_FUNCTION_CALL": "malformed_tool_call",
        "IMAGE_SAFETY": "content_filter",
        "UNEXPECTED_TOOL_CALL": "other",
        "TOO_MANY_TOOL_CALLS": "other",
        "IMAGE_PROHIBITED_CONTENT": "content_filter",
        "NO_IMAGE": "other",
        "IMAGE_RECITATION": "content_filter",
        "IMAGE_OTHER": "other",
    },
    stop_reasons_out={
        "end_turn": "STOP",
        "max_tokens": "MAX_TOKENS",
        "stop_sequence": "STOP",
        "tool_use": "STOP",
        "content_filter": "SAFETY",
        "refusal": "SAFETY",
        "pause_turn": "STOP",
        "context_window_exceeded": "MAX_TOKENS",
        "malformed_tool_call": "MALFORMED_FUNCTION_CALL",
        "error": "OTHER",
        "other": "OTHER",
    },
)

# generationConfig members dropped silently.
IGNORABLE_GENERATION = ("responseModalities", "response_modalities")

# Gemini `parameters` (OpenAPI 3.0 subset).
KEPT_KEYWORDS = frozenset(
    {
        "type",
        "format",
        "title",
        "description",
        "nullable",
        "enum",
        "items",
        "minItems",
        "maxItems",
        "minLength",
        "maxLength",
        "pattern",
        "minimum",
        "maximum",
        "properties",
        "required",
        "minProperties",
        "maxProperties",
        "propertyOrdering",
        "anyOf",
        "default",
        "example",
    }
)
# Removed silently (with every keyword JSON Schema does not define).
REMOVED_KEYWORDS = (
    "additionalProperties",
    "$schema",
    "$id",
    "$comment",
    "$anchor",
    "strict",
    "examples",
    "readOnly",
    "writeOnly",
    "deprecated",
    "contentEncoding",
    "contentMediaType",
)
REWRITTEN_KEYWORDS = frozenset({"oneOf", "const"})  # turned into kept keywords
UNSUPPORTED_KEYWORDS = (
    "allOf",
    "not",
    "if",
    "then",
    "else",
    "patternProperties",
    "dependentRequired",
    "dependentSchemas",
    "uniqueItems",
    "multipleOf",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "prefixItems",
    "contains",
    "minContains",
    "maxContains",
    "unevaluatedProperties",
    "unevaluatedItems",
    "propertyNames",
)
FORMATS = {
    "string": frozenset({"date-time", "enum"}),
    "integer": frozenset({"int32", "int64"}),
    "number": frozenset({"float", "double"}),
}
# Gemini accepts proto-JSON snake_case field names too; decoding maps them to the camelCase keywords.
SCHEMA_ALIASES = {
    "any_of": "anyOf",
    "min_items": "minItems",
    "max_items": "maxItems",
    "min_length": "minLength",
    "max_length": "maxLength",
    "min_properties": "minProperties",
    "max_properties": "maxProperties",
    "property_ordering": "propertyOrdering",
}
INT64_KEYWORDS = frozenset(
    {"minItems", "maxItems", "minLength", "maxLength", "minProperties", "maxProperties"}
)
