"""The provider rules the reference needs, as data: what dialects share here, each dialect's own in the
``RULES`` (a :class:`DialectRules`) of its package's ``rules.py`` (``dialects/<name>/rules.py``).

Kept in sync with ``corpus/profiles.json`` and ``corpus/dialects/*.json`` (a test compares them).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

KINDS = ("tools", "tool_choice", "request", "response", "text", "stream")
# The (source, target) pairs of a kind, when not every pair ("*", "*"): `text` is decode-only.
KIND_PAIRS: dict[str, tuple[tuple[str, str], ...]] = {"text": (("text", "*"),)}
#: in a ``stop_reasons_in`` table: derived from the content (``tool_use`` when the response has tool calls,
#: else ``end_turn``)
TOOLS_OR_END = None


@dataclass(frozen=True)
class DialectRules:
    """One dialect's rule tables (``dialects/<name>/rules.py``), handed to the shared code that applies them.

    - ``endpoint``: the HTTP path a provider dialect's requests go to (``toolwire serve``; Gemini's names the
      model, ``{model}``, and the method); None for canonical;
    - ``tool_name_pattern``: the tool-name rule a target holds tool names (and named choices) to;
    - ``format_name_pattern``: the rule a target holds a response format's ``name`` to (None: any string,
      or the target writes no name);
    - ``call_id_prefix``: ``call_id_prefix`` of ``corpus/dialects/<name>.json`` (None: no convention, ids
      kept under ``ids.prefix=rewrite``; a generated id then takes ``call_``);
    - ``call_id_length``: the target takes only ids of exactly this many ASCII letters and digits (Mistral:
      9); any other id is replaced by one derived from it (``calls.encode_call_id``);
    - ``call_id_pattern``: what every id the target takes matches (Anthropic, Bedrock); any other id is
      replaced by ``call_id_prefix`` + a hash of it (``calls.encode_call_id``);
    - ``setting_maxima``: the largest value the target takes of a canonical numeric setting, where the
      canonical request takes more (``temperature``: Anthropic's and Bedrock's end at 1, OpenAI's and
      Gemini's at 2); a larger one is ``request.unsupported_field`` (degrade: the maximum);
    - ``custom_tools``: custom (free-form) tools and calls (``toolwire_reference.custom``); the others take
      JSON objects only; ``custom_streams``: streams of custom calls too;
    - ``stream_thinking``: a stream may carry thinking (``stream.thinking=keep`` keeps it);
    - ``request_ignorable``: request members dropped silently on decode (transport, storage, accounting and
      caching hints that do not change what the model is asked); any other member without a canonical
      equivalent is ``request.unsupported_field`` (dropped under ``unsupported=degrade``);
    - ``request_default_values``: members dropped silently only while they hold their documented default;
    - ``stop_reasons_in`` (provider value → canonical; None: ``tool_use`` when the response has tool calls,
      else ``end_turn``; values not listed: ``other``) and ``stop_reasons_out`` (canonical → provider).
    """

    name: str
    tool_name_pattern: str
    endpoint: str | None = None
    format_name_pattern: str | None = None
    call_id_prefix: str | None = None
    call_id_length: int | None = None
    call_id_pattern: str | None = None
    setting_maxima: Mapping[str, float] = field(default_factory=dict)
    custom_tools: bool = False
    custom_streams: bool = False
    stream_thinking: bool = False
    request_ignorable: frozenset[str] = frozenset()
    request_default_values: Mapping[str, tuple] = field(default_factory=dict)
    stop_reasons_in: Mapping[str, str | None] = field(default_factory=dict)
    stop_reasons_out: Mapping[str, str] = field(default_factory=dict)
    #: ``tool_name_pattern`` compiled: its ``fullmatch``
    name_rule: Callable[[str], re.Match | None] = field(init=False, repr=False, compare=False)
    #: ``call_id_pattern`` compiled (its ``fullmatch``), None without one
    id_rule: Callable[[str], re.Match | None] | None = field(init=False, repr=False, compare=False)
    #: ``format_name_pattern`` compiled (its ``fullmatch``), None without one
    format_name_rule: Callable[[str], re.Match | None] | None = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "name_rule", re.compile(self.tool_name_pattern).fullmatch)
        pattern = self.format_name_pattern
        object.__setattr__(self, "format_name_rule", re.compile(pattern).fullmatch if pattern else None)
        pattern = self.call_id_pattern
        object.__setattr__(self, "id_rule", re.compile(pattern).fullmatch if pattern else None)


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

# The canonical `verbosity` (Chat `verbosity`, Responses `text.verbosity`): how long the answer is, not what
# it says; dropped silently for a target without it.
VERBOSITY = ("low", "medium", "high")
JSON_TYPES = frozenset({"string", "number", "integer", "boolean", "object", "array", "null"})

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
