"""The provider rules the reference needs, as data: what dialects share here, each dialect's own in the
``RULES`` (a :class:`DialectRules`) of its package's ``rules.py`` (``dialects/<name>/rules.py``).

Kept in sync with ``corpus/profiles.json`` and ``corpus/dialects/*.json`` (a test compares them).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

KINDS = ("tools", "tool_choice", "request", "response", "text", "stream")
# The (source, target) pairs of a kind, when not every pair ("*", "*"): `text` is decode-only.
KIND_PAIRS: dict[str, tuple[tuple[str, str], ...]] = {"text": (("text", "*"),)}
#: in a ``stop_reasons_in`` table: derived from the content (``tool_use`` when the response has tool calls,
#: else ``end_turn``)
TOOLS_OR_END = None


@dataclass(frozen=True)
class Slot:
    """In an error template (:class:`ErrorShape`), a value taken from the error: ``message``, ``status``
    (the HTTP status), ``type`` (its name: see :class:`ErrorShape`), ``code`` (the toolwire error code,
    ``errors.json``) or ``path`` (its JSON Pointer); ``default`` stands for a value the error does not
    have (None)."""

    name: str
    default: Any = None


@dataclass(frozen=True)
class Coded:
    """In an error template, a member written only for an error with a toolwire code (a translation's
    refusal), left out of the others (an upstream's error passed through, a fault of the proxy)."""

    template: Any


#: the ``type`` of an error with each HTTP status in the dialects that name an error by a ``type`` string
#: (``ErrorShape.types`` of those); another status is ``invalid_request_error`` below 500, else ``api_error``
ERROR_TYPES: Mapping[int, str] = {
    400: "invalid_request_error",
    401: "authentication_error",
    403: "permission_error",
    404: "not_found_error",
    408: "timeout_error",
    413: "request_too_large",
    429: "rate_limit_error",
    500: "api_error",
    502: "api_error",
    503: "overloaded_error",
    504: "timeout_error",
    529: "overloaded_error",
}
ERROR_TYPE_FALLBACK = ("invalid_request_error", "api_error")


@dataclass(frozen=True)
class ErrorShape:
    """How a provider dialect's API reports an error (``toolwire serve`` answers its clients so).

    - ``body``: the JSON template of an error body: constants, :class:`Slot` values and :class:`Coded`
      members;
    - ``types``: the name (``Slot("type")``) of each HTTP status; ``type_fallback``: the name of another
      status below 500 and from 500;
    - ``typed``: the dialect names an error by a ``type`` string it shares with the other typed dialects:
      the ``type`` of an upstream's error body is read, and passed on to a typed client in place of the
      status's name (False: the names are the dialect's own, such as gRPC status names);
    - ``stream_event``: the SSE event name of an error mid-stream (None: an event without a name);
      ``stream_body``: the template of its data (None: ``body``, with the status 400 for an error with a
      toolwire code, else 500).
    """

    body: Mapping[str, Any]
    types: Mapping[int, str] = field(default_factory=lambda: ERROR_TYPES)
    type_fallback: tuple[str, str] = ERROR_TYPE_FALLBACK
    typed: bool = True
    stream_event: str | None = None
    stream_body: Mapping[str, Any] | None = None


@dataclass(frozen=True)
class HttpApi:
    """How a provider dialect's API is spoken over HTTP (``toolwire serve``, from both sides).

    - ``path``: where a request goes (the path of the descriptor's ``request.endpoint``); ``{model}`` in it:
      the model is named in the path, not in the body;
    - ``stream_path``: the path of a streaming request when it is another one (the stream is asked for in
      the path, not by the body's ``stream: true``); the part after ``{model}`` of each path is a separator
      and the method's name;
    - ``key_header``, ``key_prefix``: the header of the API key and what its value starts with
      (``authorization``, ``Bearer``); ``key_query``: a query parameter that may carry the key instead;
    - ``headers``: the other headers a request to it carries, each with the client's value when the client
      sent one, else the value given here (None: only when the client sent it);
    - ``errors``: its :class:`ErrorShape`.
    """

    path: str
    errors: ErrorShape
    stream_path: str | None = None
    key_header: str = "authorization"
    key_prefix: str = "Bearer "
    key_query: str | None = None
    headers: Mapping[str, str | None] = field(default_factory=dict)

    @property
    def model_in_path(self) -> bool:
        """Whether the model is named in the path (and left out of the body)."""
        return "{model}" in self.path


@dataclass(frozen=True)
class DialectRules:
    """One dialect's rule tables (``dialects/<name>/rules.py``), handed to the shared code that applies them.

    - ``http``: how a provider dialect's API is spoken over HTTP (:class:`HttpApi`; ``endpoint``: its path);
      None for a dialect ``toolwire serve`` does not speak (canonical);
    - ``tool_name_pattern``: the tool-name rule a target holds tool names (and named choices) to;
    - ``format_name_pattern``: the rule a target holds a response format's ``name`` to (None: any string,
      or the target writes no name);
    - ``call_id_prefix``: ``call_id_prefix`` of ``corpus/dialects/<name>.json`` (None: no convention, ids
      kept under ``ids.prefix=rewrite``; a generated id then takes ``call_``);
    - ``call_id_length``: the target takes only ids of exactly this many ASCII letters and digits (Mistral:
      9); any other id is replaced by one derived from it (``calls.encode_call_id``);
    - ``call_id_pattern``: what every id the target takes matches (Anthropic, Bedrock); any other id is
      replaced by ``call_id_prefix`` + a hash of it (``calls.encode_call_id``);
    - ``other_id_prefixes``: prefixes of the provider's other ids that a call id may carry (an item id),
      stripped with every dialect's ``call_id_prefix`` under ``ids.prefix=rewrite``
      (``calls.strip_known_prefix``);
    - ``issues_signatures``: the provider signs its model's reasoning (``signatures``): a signature read
      from this dialect records it as its ``origin``, and goes back only to it;
    - ``setting_maxima``: the largest value the target takes of a canonical numeric setting, where the
      canonical request takes more (``temperature``: Anthropic's and Bedrock's end at 1, OpenAI's and
      Gemini's at 2); a larger one is ``request.unsupported_field`` (degrade: the maximum);
    - ``custom_tools``: custom (free-form) tools and calls (``toolwire_reference.custom``); the others take
      JSON objects only; ``custom_streams``: streams of custom calls too; ``custom_wrapped``: under
      ``custom.tools=wrap`` a request's custom tools become functions even so (Chat Completions: a bridge
      from Responses serves Chat backends that have no custom tools);
    - ``stream_thinking``: a stream may carry thinking (``stream.thinking=keep`` keeps it);
    - ``request_ignorable``: request members dropped silently on decode (transport, storage, accounting and
      caching hints that do not change what the model is asked); any other member without a canonical
      equivalent is ``request.unsupported_field`` (dropped under ``unsupported=degrade``);
    - ``request_default_values``: members dropped silently only while they hold their documented default;
    - ``stop_reasons_in`` (provider value → canonical; None: ``tool_use`` when the response has tool calls,
      else ``end_turn``; values not listed: ``other``) and ``stop_reasons_out`` (canonical → provider);
    - ``calls_end_loop``: the dialect's clients loop on its tool-call stop reason (Chat's ``tool_calls``),
      so a stop carrying nothing else a client acts on (``QUIET_STOPS``) next to tool calls is written so.
    """

    name: str
    tool_name_pattern: str
    http: HttpApi | None = None
    call_id_prefix: str | None = None
    call_id_length: int | None = None
    call_id_pattern: str | None = None
    other_id_prefixes: tuple[str, ...] = ()
    issues_signatures: bool = False
    format_name_pattern: str | None = None
    setting_maxima: Mapping[str, float] = field(default_factory=dict)
    custom_tools: bool = False
    custom_streams: bool = False
    custom_wrapped: bool = False
    stream_thinking: bool = False
    request_ignorable: frozenset[str] = frozenset()
    request_default_values: Mapping[str, tuple] = field(default_factory=dict)
    stop_reasons_in: Mapping[str, str | None] = field(default_factory=dict)
    stop_reasons_out: Mapping[str, str] = field(default_factory=dict)
    calls_end_loop: bool = False
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

    @property
    def endpoint(self) -> str | None:
        """The HTTP path of a provider dialect's requests (``http.path``), None without ``http``."""
        return self.http.path if self.http is not None else None


# Profiles (corpus/profiles.json): every key, its values, its default.
PROFILE_VALUES: dict[str, tuple[str, ...]] = {
    "openai.strict": ("as-is", "all-required", "nullable-optional", "off"),
    "openai.refs": ("keep", "inline"),
    "gemini.schema": ("openapi", "json-schema"),
    "gemini.unsigned-calls": ("as-is", "skip-validator"),
    "mistral.tool-then-user": ("as-is", "bridge"),
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
    "mistral.tool-then-user": "as-is",
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
