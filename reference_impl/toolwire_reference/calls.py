"""Tool-call helpers shared by the ``request`` and ``response`` kinds, and the response tables.

- Arguments: :func:`arguments_to_object` reads a JSON text (OpenAI's ``arguments`` string) under the
  ``arguments.invalid`` profile; :func:`arguments_to_text` writes the one JSON text every encoder
  emits; :func:`arguments_for_text` / :func:`arguments_for_object` give a canonical tool-call part's
  arguments in the form a target needs.
- Ids: :func:`encode_call_id` applies the ``ids.prefix`` profile; :class:`IdGenerator` invents ids
  for calls that have none (Gemini), deterministically within one translation.
- Responses: the canonical stop reasons, :func:`decode_stop_reason` / :func:`encode_stop_reason` (by a
  dialect's ``stop_reasons_in`` / ``stop_reasons_out`` tables, in its ``rules.py``) and :func:`derived_id`
  for envelope ids a target requires.

Markers: :class:`RawArguments` (invalid JSON kept under ``arguments.invalid=preserve``) and
:class:`GeneratedId` (an id the source did not have) are ``str`` subclasses, so they serialise as
plain JSON strings, while remembering where they came from (``.path``, a JSON Pointer into the
source) for errors raised at encode time.
"""

from __future__ import annotations

import hashlib
import json
import secrets
from collections.abc import Iterable, Mapping
from typing import Any

from . import roster
from ._json import copy_json, load_json
from .custom import refuse_call, wrapped_arguments, wrapping
from .errors import Segments, TranslationError, fail, pointer
from .rules import TOOLS_OR_END, DialectRules

# --------------------------------------------------------------------------------------------------
# Arguments


class RawArguments(str):
    """Arguments text that is not a JSON object, kept under ``arguments.invalid=preserve``.

    ``path`` is the JSON Pointer of the string in the source payload.
    """

    path: str

    def __new__(cls, text: str, path: str = "") -> RawArguments:
        obj = super().__new__(cls, text)
        obj.path = path
        return obj


def _invalid_arguments(detail: str, path: Segments | str) -> TranslationError:
    where = path if isinstance(path, str) else pointer(path)
    return TranslationError("call.invalid_arguments", f"tool-call arguments {detail}", where)


def arguments_to_object(text: Any, path: Segments, profile: Mapping[str, str]) -> dict | RawArguments:
    """The arguments object of a JSON text at ``path`` (a string in the source).

    - a JSON object → a new dict;
    - ``""`` or only whitespace → ``{}`` (OpenAI-compatible servers send it for calls without
      parameters; RULES.md);
    - anything else (invalid JSON, or JSON that is not an object) → ``call.invalid_arguments`` at
      ``path``, or under ``arguments.invalid=preserve`` a :class:`RawArguments` holding the text.

    A value that is not a string at all is the caller's business (``payload.invalid`` or
    ``response.invalid``); passed here it is ``call.invalid_arguments``.
    """
    if not isinstance(text, str):
        raise _invalid_arguments("must be a JSON text (a string)", path)
    if not text.strip():
        return {}
    try:
        value = load_json(text, path)
    except ValueError as exc:
        where = f"{exc.msg} at character {exc.pos}" if isinstance(exc, json.JSONDecodeError) else str(exc)
        problem = f"are not valid JSON ({where})"
    else:
        if isinstance(value, dict):
            return value
        problem = "are JSON but not a JSON object"
    if profile.get("arguments.invalid") == "preserve":
        return RawArguments(text, pointer(path))
    raise _invalid_arguments(problem, path)


#: ``json.dumps(..., ensure_ascii=False, separators=(",", ":"))`` without a new encoder per call
_ARGUMENTS_ENCODER = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"))


def arguments_to_text(args: Any) -> str:
    """The JSON text of an arguments object: compact, UTF-8 kept (what OpenAI itself sends)."""
    return _ARGUMENTS_ENCODER.encode(args)


def read_arguments_object(value: Any, path: Segments) -> dict:
    """An arguments *object* from a dialect carrying objects (Anthropic ``input``, Gemini ``args``).

    Not an object → ``call.invalid_arguments`` at ``path``. The dict is a deep copy.
    """
    if not isinstance(value, dict):
        raise _invalid_arguments("must be a JSON object", path)
    return copy_json(value)


def set_arguments(part: dict, args: dict | RawArguments) -> dict:
    """Put decoded arguments on a canonical tool_call part: ``arguments`` or ``arguments_raw``."""
    if isinstance(args, RawArguments):
        part["arguments_raw"] = args
    else:
        part["arguments"] = args
    return part


def arguments_for_text(part: Mapping[str, Any]) -> str:
    """A canonical tool_call's arguments as the JSON text string-carrying targets need.

    ``arguments_raw`` (kept invalid JSON) is passed through unchanged.
    """
    if "arguments_raw" in part:
        return str(part["arguments_raw"])
    return arguments_to_text(part.get("arguments", {}))


def arguments_for_object(
    part: Mapping[str, Any], fallback_path: Segments | str = "", profile: Mapping[str, str] | None = None
) -> dict:
    """A canonical tool_call's arguments as the object Anthropic and Gemini need (a deep copy).

    ``arguments_raw`` cannot be expressed as an object: ``call.invalid_arguments`` at the source
    pointer of the raw string (``fallback_path`` when it has none), under every profile; nor can a
    custom (free-form) call's ``input``: ``content.unsupported`` at the call, unless ``custom.tools=wrap``
    (``{"input": text}``, the arguments of the function the custom tool became).
    """
    if "input" in part:
        if profile is not None and wrapping(profile):
            return wrapped_arguments(part["input"])
        raise refuse_call(part, "a dialect whose calls take JSON objects", fallback_path)
    if "arguments_raw" in part:
        raw = part["arguments_raw"]
        where = getattr(raw, "path", None)
        if where is None:
            where = fallback_path if isinstance(fallback_path, str) else pointer(fallback_path)
        raise _invalid_arguments("are not a JSON object, and the target needs an object", where)
    return copy_json(part.get("arguments", {}))


# --------------------------------------------------------------------------------------------------
# Ids

# What a generated id starts with for targets without a convention.
GENERATED_ID_PREFIX = "call_"


class GeneratedId(str):
    """A tool-call id the source did not have (a Gemini ``functionCall`` without ``id``).

    ``body`` is the part after the prefix (``"1"`` for ``call_1``). Encoders give it the target's
    prefix under every ``ids.prefix`` value (there is no source spelling to keep), and the Gemini
    encoder leaves it out (the source had no id).
    """

    body: str

    def __new__(cls, body: str) -> GeneratedId:
        obj = super().__new__(cls, GENERATED_ID_PREFIX + body)
        obj.body = body
        return obj


def strip_known_prefix(call_id: str) -> str:
    """``call_abc`` / ``toolu_abc`` / ``fc_abc`` → ``abc`` (the prefixes of ``roster.id_prefixes``: each
    dialect's ``call_id_prefix`` and ``other_id_prefixes``); other ids unchanged."""
    for prefix in roster.id_prefixes():
        if call_id.startswith(prefix) and len(call_id) > len(prefix):
            return call_id[len(prefix) :]
    return call_id


def encode_call_id(call_id: str, target: DialectRules, profile: Mapping[str, str]) -> str:
    """The id a target dialect (its rules) gets for a canonical call id (and for the results naming it).

    ``ids.prefix=keep``: unchanged. ``rewrite``: a known prefix (``call_``, ``toolu_``, ``fc_``) is
    stripped and the target's ``call_id_prefix`` added; targets without one (gemini, canonical) keep
    the id. A :class:`GeneratedId` always takes the target's prefix (``call_`` when it has none).
    A target with a ``call_id_length`` (Mistral) gets every id it would refuse as :func:`alnum_id` of it,
    and one with a ``call_id_pattern`` (Anthropic, Bedrock) as its ``call_id_prefix`` + 24 hex digits of
    its SHA-256, under every profile. The mapping is a pure function of the id, so a call and its results
    always agree.
    """
    prefix = target.call_id_prefix
    if isinstance(call_id, GeneratedId):
        out = (prefix or GENERATED_ID_PREFIX) + call_id.body
    elif profile.get("ids.prefix", "keep") != "rewrite" or prefix is None:
        out = str(call_id)
    else:
        out = prefix + strip_known_prefix(call_id)
    length = target.call_id_length
    if length is not None and not (len(out) == length and out.isascii() and out.isalnum()):
        return alnum_id(out, length)
    if target.id_rule is not None and not target.id_rule(out):
        return derived_id(prefix or "", str(call_id))
    return out


_ALNUM = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"


def alnum_id(call_id: str, length: int) -> str:
    """A deterministic id of ``length`` ASCII letters and digits derived from ``call_id``: the SHA-256 of
    its UTF-8 bytes as a base-62 number, its last ``length`` digits (``call_abc`` always gives the same
    id, so a call and the results naming it still pair)."""
    number = int.from_bytes(hashlib.sha256(call_id.encode("utf-8", "surrogatepass")).digest(), "big")
    digits = []
    for _ in range(length):
        number, digit = divmod(number, len(_ALNUM))
        digits.append(_ALNUM[digit])
    return "".join(digits)


def is_generated(call_id: Any) -> bool:
    return isinstance(call_id, GeneratedId)


class IdGenerator:
    """Invents tool-call ids for one translation, in order of appearance.

    ``fresh`` (responses and streams): ``call_`` + 16 random hex digits drawn once per translation + the
    position (``call_5f0c…1``, ``call_5f0c…2``): every response of a conversation gets ids of its own, as
    the client sends them all back in the next request (Anthropic refuses duplicate ``tool_use`` ids). Not
    fresh (a request, a whole history at once): ``call_1``, ``call_2``, … A number is skipped when the
    source already uses that id under any known prefix (``call_3``, ``toolu_3``, ``fc_3`` or ``3``), so
    generated ids never collide with real ones, whatever prefix the target gives them.
    """

    def __init__(self, taken: Iterable[str] = (), *, fresh: bool = True) -> None:
        self._taken = {strip_known_prefix(t) for t in taken if isinstance(t, str)}
        self._next = 1
        self._salt = secrets.token_hex(8) if fresh else ""

    def take(self, call_id: str) -> None:
        """Record an id of the source (call it for every id before generating, or pass ``taken``)."""
        self._taken.add(strip_known_prefix(call_id))

    def new(self) -> GeneratedId:
        while self._salt + str(self._next) in self._taken:
            self._next += 1
        body = self._salt + str(self._next)
        self._taken.add(body)
        self._next += 1
        return GeneratedId(body)


def derived_id(prefix: str, *seed: Any) -> str:
    """A deterministic id for an envelope member or item the target requires and the source lacks:
    ``prefix`` + the first 24 hex digits of the SHA-256 of the JSON of ``seed`` (the same input
    always gives the same output)."""
    text = json.dumps(seed, ensure_ascii=False, sort_keys=True, default=str)
    return prefix + hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:24]


# --------------------------------------------------------------------------------------------------
# Stop reasons

CANONICAL_STOP_REASONS = (
    "end_turn",
    "max_tokens",
    "stop_sequence",
    "tool_use",
    "content_filter",
    "refusal",
    "pause_turn",
    "context_window_exceeded",
    "malformed_tool_call",
    "error",
    "other",
)


def decode_stop_reason(dialect: DialectRules, value: str, has_tool_calls: bool) -> str:
    """The canonical stop reason of a provider value (already checked to be a string), by the dialect's
    ``stop_reasons_in`` table."""
    table = dialect.stop_reasons_in
    if value not in table:
        return "other"
    mapped = table[value]
    if mapped is TOOLS_OR_END:
        return "tool_use" if has_tool_calls else "end_turn"
    return mapped


#: stop reasons that tell a client nothing it acts on besides the content (a turn ended, paused or hit a
#: stop sequence): next to tool calls, a dialect whose clients loop on its tool-call reason writes that
QUIET_STOPS = frozenset({"end_turn", "stop_sequence", "pause_turn"})


def encode_stop_reason(dialect: DialectRules, stop_reason: str, has_tool_calls: bool = False) -> str:
    """The provider value of a canonical stop reason, by the dialect's ``stop_reasons_out`` table (the
    tool-use value for a quiet stop next to tool calls, where ``dialect.calls_end_loop``)."""
    if has_tool_calls and dialect.calls_end_loop and stop_reason in QUIET_STOPS:
        stop_reason = "tool_use"
    return dialect.stop_reasons_out[stop_reason]


def response_invalid(message: str, path: Segments) -> TranslationError:
    """A ``response.invalid`` error at ``path`` (segments into the source payload)."""
    return fail("response.invalid", message, path)
