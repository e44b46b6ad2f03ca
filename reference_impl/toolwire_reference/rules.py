"""Every provider rule the reference needs, as data, in one place.

Kept in sync with ``corpus/profiles.json`` and ``corpus/dialects/*.json`` (a test compares them).
"""

from __future__ import annotations

DIALECTS = ("canonical", "openai-chat", "openai-responses", "anthropic", "gemini")
KINDS = ("tools", "tool_choice", "request", "response", "text", "stream")
# The (source, target) pairs of a kind, when not every pair ("*", "*"): `text` is decode-only.
KIND_PAIRS: dict[str, tuple[tuple[str, str], ...]] = {"text": (("text", "*"),)}

# Dialects with custom (free-form) tools and calls (toolwire_reference.custom); the others take JSON
# objects only.
CUSTOM_TOOL_DIALECTS = ("canonical", "openai-chat", "openai-responses")
# ... and streams of custom calls: Chat chunks have none (`ChoiceDeltaToolCall.type` is "function" only).
CUSTOM_STREAM_DIALECTS = ("canonical", "openai-responses")

# Tool-name rule per target dialect (canonical: any non-empty string).
TOOL_NAME_PATTERNS: dict[str, str] = {
    "canonical": r"^[\s\S]+$",
    "openai-chat": r"^[a-zA-Z0-9_-]{1,64}$",
    "openai-responses": r"^[a-zA-Z0-9_-]{1,128}$",
    "anthropic": r"^[a-zA-Z0-9_-]{1,64}$",
    "gemini": r"^[a-zA-Z_][a-zA-Z0-9_.:-]{0,127}$",
}

# Profiles (corpus/profiles.json): every key, its values, its default.
PROFILE_VALUES: dict[str, tuple[str, ...]] = {
    "openai.strict": ("as-is", "all-required", "nullable-optional", "off"),
    "openai.refs": ("keep", "inline"),
    "gemini.schema": ("openapi", "json-schema"),
    "gemini.unsigned-calls": ("as-is", "skip-validator"),
    "unsupported": ("error", "degrade"),
    "tool.description": ("optional", "required"),
    "ids.prefix": ("keep", "rewrite"),
    "ids.orphans": ("error", "drop", "synthesize"),
    "arguments.invalid": ("error", "preserve"),
    "results.error-flag": ("text-prefix", "drop"),
    "anthropic.max-tokens": ("any", "4096", "error"),
    "stream.thinking": ("drop", "keep"),
    "stream.text-calls": ("off", "parse"),
    "text.malformed": ("error", "keep-text"),
    "request.model": ("carried", "routed"),  # no model to route to is configured: either carries it
    "custom.tools": ("refuse", "wrap"),
    "hosted.web-search": ("refuse", "map"),
}
PROFILE_DEFAULTS: dict[str, str] = {
    "openai.strict": "as-is",
    "openai.refs": "keep",
    "gemini.schema": "openapi",
    "gemini.unsigned-calls": "as-is",
    "unsupported": "error",
    "tool.description": "optional",
    "ids.prefix": "keep",
    "ids.orphans": "error",
    "arguments.invalid": "error",
    "results.error-flag": "text-prefix",
    "anthropic.max-tokens": "any",
    "stream.thinking": "drop",
    "stream.text-calls": "off",
    "text.malformed": "error",
    "request.model": "carried",
    "custom.tools": "refuse",
    "hosted.web-search": "refuse",
}

# Request members dropped silently on decode (transport, storage, accounting and caching hints that
# do not change what the model is asked). Any other member without a canonical equivalent is
# `request.unsupported_field` (dropped under `unsupported=degrade`). Null-valued members are absent.
REQUEST_IGNORABLE: dict[str, tuple[str, ...]] = {
    "canonical": (),
    "openai-chat": (
        "metadata",
        "user",
        "store",
        "stream_options",
        "service_tier",
        "safety_identifier",
        "prompt_cache_key",
        "prompt_cache_retention",
    ),
    "openai-responses": (
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
    ),
    "anthropic": ("metadata", "service_tier", "cache_control"),
    "gemini": ("safetySettings", "safety_settings", "labels"),
}
# Request members dropped silently only while they hold their documented default (they then ask for
# nothing); any other value is `request.unsupported_field` like any member without an equivalent: Chat
# `n` (one choice), `logprobs: false`, `top_logprobs: 0`; Responses `top_logprobs: 0`.
REQUEST_DEFAULT_VALUES: dict[str, dict[str, tuple]] = {
    "openai-chat": {"n": (1,), "logprobs": (False,), "top_logprobs": (0,)},
    "openai-responses": {"top_logprobs": (0,)},
}
# The canonical `verbosity` (Chat `verbosity`, Responses `text.verbosity`): how long the answer is, not what
# it says; dropped silently for a target without it.
VERBOSITY = ("low", "medium", "high")
# Gemini generationConfig members dropped silently.
GEMINI_IGNORABLE_GENERATION = ("responseModalities", "response_modalities")

JSON_TYPES = frozenset({"string", "number", "integer", "boolean", "object", "array", "null"})

# Anthropic input_schema: keywords refused at the schema root, even next to `type: object`.
ANTHROPIC_ROOT_UNSUPPORTED = ("anyOf", "oneOf", "allOf")

# OpenAI strict mode (Structured Outputs "Supported schemas").
OPENAI_STRICT_LIMITS = {"max_depth": 10, "max_properties": 5000, "max_enum_values": 1000}
OPENAI_STRICT_FORMATS = frozenset(
    {"date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"}
)
OPENAI_STRICT_UNSUPPORTED = (
    "allOf",
    "not",
    "if",
    "then",
    "else",
    "dependentRequired",
    "dependentSchemas",
    "patternProperties",
)

# CLASP's "optional" heuristics (openai.strict=off), plus "only provide" (see RULES.md).
CLASP_OPTIONAL_PHRASES = (
    "optional",
    "defaults to",
    "if not specified",
    "set to true to",
    "set to false to",
    "if provided",
    "when provided",
    "can be omitted",
    "not required",
    "only provide",
)

# Gemini `parameters` (OpenAPI 3.0 subset).
GEMINI_KEPT_KEYWORDS = frozenset(
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
GEMINI_REMOVED_KEYWORDS = (
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
GEMINI_REWRITTEN_KEYWORDS = frozenset({"oneOf", "const"})  # turned into kept keywords
GEMINI_UNSUPPORTED_KEYWORDS = (
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
GEMINI_FORMATS = {
    "string": frozenset({"date-time", "enum"}),
    "integer": frozenset({"int32", "int64"}),
    "number": frozenset({"float", "double"}),
}
# Gemini accepts proto-JSON snake_case field names too; decoding maps them to the camelCase keywords.
GEMINI_SCHEMA_ALIASES = {
    "any_of": "anyOf",
    "min_items": "minItems",
    "max_items": "maxItems",
    "min_length": "minLength",
    "max_length": "maxLength",
    "min_properties": "minProperties",
    "max_properties": "maxProperties",
    "property_ordering": "propertyOrdering",
}
GEMINI_INT64_KEYWORDS = frozenset(
    {"minItems", "maxItems", "minLength", "maxLength", "minProperties", "maxProperties"}
)
