"""The canonical request in memory, and what every dialect's request codec shares around it.

A decoded request is a :class:`Request`: canonical messages and settings as plain dicts (the shape of
the canonical dialect, ``corpus/README.md``), the tools and tool choice as the models of the ``tools``
and ``tool_choice`` kinds (so the existing codecs encode them), and a side table of source pointers
(``paths``: ``id(dict)`` -> segments) so a problem found while encoding is reported at a JSON Pointer
into the *source* payload.

This module holds the request-level helpers: reading settings, the ignorable / unsupported member
policy, running the tools and tool-choice codecs inside a request (error paths prefixed with where the
tools sit), the response-format schema rewrites and ``max_tokens`` for Anthropic.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

from ._json import MISSING, copy_json, expect_object, invalid, json_type
from .choice import refuse_or_degrade
from .custom import for_target
from .errors import Segments, TranslationError, fail, pointer
from .model import Choice, SchemaOrigin, Tool
from .rules import VERBOSITY, DialectRules
from .schema.checks import check_shape
from .tools import validate_choice, validate_tools

# Canonical setting names, in the order the canonical dialect writes them.
SETTINGS = (
    "max_tokens",
    "temperature",
    "top_p",
    "top_k",
    "stop",
    "response_format",
    "reasoning",
    "verbosity",
    "web_search",
    "stream",
)




@dataclass
class Request:
    """A canonical request being translated.

    ``settings`` holds the canonical members other than system/messages/tools/tool choice (``model``
    included). ``paths`` maps ``id()`` of every message and part dict to its source segments;
    ``setting_paths`` maps a setting name to the source member carrying it. ``generated_ids`` are call
    ids the decoder invented (Gemini calls without ids): a Gemini target leaves them out again.
    """

    messages: list[dict] = field(default_factory=list)
    system: list[dict] | None = None
    settings: dict[str, Any] = field(default_factory=dict)
    setting_paths: dict[str, Segments] = field(default_factory=dict)
    tools: list[Tool] | None = None
    tools_base: Segments = ("tools",)
    choice: Choice = field(default_factory=Choice)
    schema_origin: SchemaOrigin | None = None
    format_name_path: Segments = ()
    paths: dict[int, Segments] = field(default_factory=dict)
    generated_ids: set[str] = field(default_factory=set)

    def at(self, obj: Any, segments: Segments) -> Any:
        """Record that ``obj`` came from ``segments`` of the source; returns ``obj``."""
        self.paths[id(obj)] = tuple(segments)
        return obj

    def path_of(self, obj: Any, *more: str | int) -> str:
        """The source pointer of a decoded message or part (``""`` when unknown)."""
        return pointer(self.paths.get(id(obj), ()) + more)

    def set(self, name: str, value: Any, segments: Segments) -> None:
        """Set canonical setting ``name`` read from ``segments``."""
        self.settings[name] = value
        self.setting_paths[name] = tuple(segments)

    def setting_path(self, name: str) -> str:
        return pointer(self.setting_paths.get(name, (name,)))


# ---- errors and policies -----------------------------------------------------------------------


@contextmanager
def under(base: Segments) -> Iterator[None]:
    """Prefix the path of a TranslationError raised inside the block with ``base``.

    The tools codecs report pointers relative to the tool list; inside a request the list sits at
    ``/tools`` (or ``/functions``)."""
    try:
        yield
    except TranslationError as error:
        raise moved(error, base) from None


def moved(error: TranslationError, base: Segments) -> TranslationError:
    """``error`` with ``base`` before its path (what :func:`under` raises; hot paths use ``try``)."""
    return TranslationError(error.code, error.message, pointer(base) + error.path)


def unsupported(profile: Mapping[str, str], code: str, message: str, path: str) -> None:
    """Refuse with ``code`` at ``path``, or return (the caller drops the construct) under degrade."""
    refuse_or_degrade(profile, code, message, path, None)


def require_messages(messages: list, target: str) -> list:
    """The encoded conversation; ``payload.invalid`` when it is empty, which ``target`` never accepts
    (a source with no message, or with only a system prompt where the target keeps it apart)."""
    if not messages:
        raise invalid(f"the request has no message, and {target} requires at least one", ())
    return messages


def drop_setting(req: Request, name: str, target: str, profile: Mapping[str, str]) -> None:
    """A setting the target cannot express: ``request.unsupported_field`` at its source member, or
    dropped under ``unsupported=degrade``."""
    if req.settings.get(name, MISSING) is MISSING:
        return
    unsupported(
        profile,
        "request.unsupported_field",
        f"{target} has no equivalent of the canonical `{name}` setting",
        req.setting_path(name),
    )


def check_members(
    obj: dict,
    base: Segments,
    known: Iterable[str],
    ignorable: Iterable[str],
    profile: Mapping[str, str],
    dialect: str,
    defaults: Mapping[str, tuple] | None = None,
) -> None:
    """Members of ``obj`` that are neither ``known`` nor ``ignorable`` (and not null) are
    ``request.unsupported_field`` (dropped under degrade). Ignorable members are dropped silently, and
    so are the ``defaults`` members that hold one of their default values (a dialect's
    ``request_default_values``)."""
    if not isinstance(known, frozenset):
        known = set(known)
    if not isinstance(ignorable, frozenset):
        ignorable = set(ignorable)
    defaults = defaults or {}
    for key, value in obj.items():
        if key in known or key in ignorable or value is None or _is_default(value, defaults.get(key, ())):
            continue
        unsupported(
            profile,
            "request.unsupported_field",
            f"the {dialect} member `{key}` has no equivalent in the canonical request",
            pointer(base + (key,)),
        )


def _is_default(value: Any, defaults: tuple) -> bool:
    """True when ``value`` is one of ``defaults``, of the same JSON type (``true`` is not ``1``)."""
    return any(type(value) is type(default) and value == default for default in defaults)


def read_verbosity(req: Request, obj: dict, key: str, base: Segments) -> None:
    """The canonical ``verbosity`` from ``obj[key]`` (``low``, ``medium`` or ``high``; absent or null:
    nothing), else ``payload.invalid``."""
    value = obj.get(key)
    if value is None:
        return
    if value not in VERBOSITY:
        raise invalid(f"`{key}` is one of {', '.join(VERBOSITY)}", base + (key,))
    req.set("verbosity", value, base + (key,))


def open_request(
    payload: Any, known: Iterable[str], profile: Mapping[str, str], dialect: DialectRules
) -> tuple[dict, Request]:
    """The request body (an object; its top-level members checked against ``known`` and the
    dialect's ignorable members, see :func:`check_members`) and a new, empty :class:`Request`."""
    body = expect_object(payload, (), "the request")
    check_members(
        body, (), known, dialect.request_ignorable, profile, dialect.name, dialect.request_default_values
    )
    return body, Request()


def present(obj: dict, key: str) -> bool:
    """True when ``obj`` has ``key`` with a non-null value (null means "absent" in these APIs)."""
    return obj.get(key) is not None


# ---- reading settings --------------------------------------------------------------------------


def read_number(
    obj: dict, key: str, base: Segments, *, integer: bool = False, least: int | None = None
) -> Any:
    """A numeric member (MISSING when absent or null), at least ``least`` when given; anything else is
    payload.invalid."""
    value = obj.get(key)
    if value is None:
        return MISSING
    ok = isinstance(value, int) if integer else isinstance(value, (int, float))
    if isinstance(value, bool) or not ok:
        kind = "an integer" if integer else "a number"
        raise invalid(f"`{key}` must be {kind}, not {json_type(value)}", base + (key,))
    if least is not None and value < least:
        raise invalid(f"`{key}` must be at least {least}, not {value}", base + (key,))
    return value


def read_string(obj: dict, key: str, base: Segments) -> Any:
    value = obj.get(key)
    if value is None:
        return MISSING
    if not isinstance(value, str):
        raise invalid(f"`{key}` must be a string, not {json_type(value)}", base + (key,))
    return value


def read_bool(obj: dict, key: str, base: Segments) -> Any:
    value = obj.get(key)
    if value is None:
        return MISSING
    if not isinstance(value, bool):
        raise invalid(f"`{key}` must be a boolean, not {json_type(value)}", base + (key,))
    return value


def read_stop(obj: dict, key: str, base: Segments, *, allow_string: bool) -> Any:
    """Stop sequences as a list of strings (a lone string becomes a one-element list); an empty list
    (no stop sequences: OpenAI Chat refuses it, ``minItems`` 1) is read as absent, like null."""
    value = obj.get(key)
    if value is None or value == []:
        return MISSING
    if isinstance(value, str) and allow_string:
        return [value]
    if not isinstance(value, list) or not all(isinstance(s, str) for s in value):
        raise invalid(f"`{key}` must be a list of strings", base + (key,))
    return list(value)


def copy_settings(req: Request, obj: dict, base: Segments, names: Mapping[str, str], **kinds: str) -> None:
    """Read the members ``names`` (wire name -> canonical name) of ``obj`` into ``req``.

    ``kinds`` gives the type per canonical name: ``number`` (default), ``integer``, ``count`` (an integer
    of at least 1), ``string``, ``model`` (a string, ``""`` read as absent), ``bool``.
    """
    for wire, name in names.items():
        value = _READERS[kinds.get(name, "number")](obj, wire, base)
        if value is MISSING:
            continue
        least, most = SETTING_RANGES.get(name, (None, None))
        if (least is not None and value < least) or (most is not None and value > most):
            bounds = f"at least {least}" if most is None else f"from {least} to {most}"
            raise invalid(f"`{wire}` must be {bounds}, not {value}", base + (wire,))
        req.set(name, value, base + (wire,))


#: the range of a canonical numeric setting (least, most; None: unbounded), the canonical request schema's:
#: every dialect takes no less (a dialect that takes less: ``DialectRules.setting_maxima``)
SETTING_RANGES: dict[str, tuple[float | None, float | None]] = {
    "temperature": (0, None),
    "top_p": (0, 1),
    "top_k": (0, None),
}


def fit_settings(req: Request, target: DialectRules, profile: Mapping[str, str]) -> None:
    """A setting above the target's maximum (``setting_maxima``) is ``request.unsupported_field`` at its
    source member; under degrade it becomes that maximum, the nearest value the target takes."""
    for name, most in target.setting_maxima.items():
        value = req.settings.get(name, MISSING)
        if value is MISSING or value <= most:
            continue
        message = f"{target.name} takes a `{name}` of at most {most}, not {value}"
        unsupported(profile, "request.unsupported_field", message, req.setting_path(name))
        req.settings[name] = most


_READERS = {
    "number": read_number,
    "integer": lambda o, k, b: read_number(o, k, b, integer=True),
    # a token budget: every provider refuses one below 1 (Anthropic `max_tokens`, Gemini `maxOutputTokens`)
    "count": lambda o, k, b: read_number(o, k, b, integer=True, least=1),
    "string": read_string,
    # a model name: "" names none (every API refuses it), read as absent like null
    "model": lambda o, k, b: read_string(o, k, b) or MISSING,
    "bool": read_bool,
}


def put_settings(req: Request, out: dict, names: Mapping[str, str]) -> None:
    """Write the canonical settings ``names`` (canonical name -> wire name) that ``req`` has into ``out``."""
    for name, wire in names.items():
        value = req.settings.get(name, MISSING)
        if value is not MISSING:
            out[wire] = copy_json(value)


# ---- tools and tool choice inside a request ------------------------------------------------------


def decode_tools(req: Request, codec: ModuleType, value: Any, base: Segments, profile) -> None:
    """Decode the request's tool list with the dialect's ``tools`` codec (paths under ``base``)."""
    try:
        req.tools = codec.decode_tools(value, profile)
    except TranslationError as error:
        raise moved(error, base) from None
    req.tools_base = tuple(base)


def decode_choice(req: Request, codec: ModuleType, body: dict, keys: Iterable[str], profile) -> None:
    """Decode the members ``keys`` of the request body with the dialect's ``tool_choice`` codec; its
    error paths are already pointers into the body."""
    payload = {key: body[key] for key in keys if key in body}
    req.choice = codec.decode_tool_choice(payload, profile)


def encode_tools(req: Request, codec: ModuleType, target: DialectRules, profile) -> Any:
    """The target's tool list (MISSING when the request has none), validated for ``target``."""
    if req.tools is None:
        return MISSING
    try:
        tools = for_target(req.tools, target, profile)
        validate_tools(tools, target, profile, copies=codec.copies_schemas(profile))
        return codec.encode_tools(tools, profile)
    except TranslationError as error:
        raise moved(error, req.tools_base) from None


def encode_choice(req: Request, codec: ModuleType, target: DialectRules, profile) -> dict:
    """The target's tool-choice members, to merge into the request body (named tools checked against
    the target's name rule)."""
    validate_choice(req.choice, target)
    return codec.encode_tool_choice(req.choice, profile)


# ---- response format --------------------------------------------------------------------------


def schema_tool(req: Request) -> Tool:
    """The response-format schema as a Tool, so the tools' schema rewrites apply to it unchanged; its
    shape is checked as a tool's (``check_shape``) before anything rewrites it."""
    fmt = req.settings["response_format"]
    origin = req.schema_origin or SchemaOrigin(tuple(req.setting_paths.get("response_format", ())))
    if isinstance(fmt.get("schema"), dict):
        with origin.reporting():
            check_shape(fmt["schema"])
    tool = Tool(name=fmt.get("name", "response"), path=origin.base, name_path=origin.base)
    tool.parameters = fmt.get("schema", MISSING)
    tool.params_origin = origin
    tool.strict = fmt.get("strict", MISSING)
    return tool


def json_schema_format(name: Any, schema: Any, strict: Any, base: Segments, req: Request, **origin) -> dict:
    """A canonical ``{"type": "json_schema", ...}`` format; records where its schema came from."""
    if not isinstance(schema, dict):
        raise invalid(f"the response schema must be an object, not {json_type(schema)}", base)
    fmt: dict = {"type": "json_schema"}
    if name is not MISSING and name is not None:
        if not isinstance(name, str):
            raise invalid("the response format `name` must be a string", base)
        fmt["name"] = name
        req.format_name_path = tuple(base[:-1]) + ("name",)  # beside the schema, in every dialect naming it
    fmt["schema"] = schema
    if strict is not MISSING and strict is not None:
        if not isinstance(strict, bool):
            raise invalid("the response format `strict` must be a boolean", base)
        fmt["strict"] = strict
    req.schema_origin = SchemaOrigin(tuple(base), **origin)
    return fmt


def response_format(req: Request, target: DialectRules, profile: Mapping[str, str]) -> dict:
    """The canonical response format for ``target``: a name its ``format_name_rule`` refuses is
    ``request.unsupported_field`` at the source's name (degrade: left out, the target then writes its
    default name)."""
    fmt = req.settings["response_format"]
    name = fmt.get("name", MISSING)
    valid = target.format_name_rule
    if name is MISSING or valid is None or valid(name) is not None:
        return fmt
    unsupported(
        profile,
        "request.unsupported_field",
        f"{target.name} takes a response format name matching {target.format_name_pattern}, not {name!r}",
        pointer(req.format_name_path),
    )
    return {k: v for k, v in fmt.items() if k != "name"}


# ---- max_tokens ---------------------------------------------------------------------------------


#: what ``anthropic.max-tokens=any`` (the default) sends
DEFAULT_MAX_TOKENS = 4096


def required_max_tokens(req: Request, profile: Mapping[str, str]) -> int:
    """``max_tokens`` for a target that requires it (Anthropic), per ``anthropic.max-tokens``."""
    value = req.settings.get("max_tokens", MISSING)
    if value is not MISSING:
        return value
    policy = profile.get("anthropic.max-tokens", "any")
    if policy == "error":
        raise fail(
            "request.missing_max_tokens",
            "Anthropic requires max_tokens and the source request has none",
            (),
        )
    return DEFAULT_MAX_TOKENS if policy == "any" else int(policy)
