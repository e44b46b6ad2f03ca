"""What every ``response`` codec shares: readers that refuse with ``response.invalid``, the canonical
response builder, usage numbers, and the handling of parts a target cannot carry.

The canonical response (corpus/README.md): ``{"id"?, "model"?, "content": [text | tool_call |
thinking], "stop_reason", "stop_sequence"?, "usage"?: {"input_tokens", "output_tokens",
"cached_input_tokens"?, "reasoning_tokens"?}}``. In memory it is that plain dict; tool-call ids may
be :class:`~toolwire_reference.calls.GeneratedId` and kept invalid arguments
:class:`~toolwire_reference.calls.RawArguments` (both ``str``).
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any

from .._json import MISSING, json_type
from ..calls import response_invalid, set_arguments
from ..custom import FreeInput
from ..errors import Segments, fail, pointer
from ..profiles import degrading

USAGE_KEYS = ("input_tokens", "output_tokens", "cached_input_tokens", "reasoning_tokens")


# ---------------------------------------------------------------------------------------------
# Readers: every shape problem of a response body is `response.invalid` at its source path.


def need_object(value: Any, path: Segments, what: str) -> dict:
    if not isinstance(value, dict):
        raise response_invalid(f"{what} must be an object, not {json_type(value)}", path)
    return value


def need_list(value: Any, path: Segments, what: str) -> list:
    if not isinstance(value, list):
        raise response_invalid(f"{what} must be an array, not {json_type(value)}", path)
    return value


def need_string(obj: dict, key: str, path: Segments, what: str) -> str:
    value = obj.get(key, MISSING)
    if not isinstance(value, str):
        raise response_invalid(f"{what} must be a string, not {json_type(value)}", path + (key,))
    return value


def need_name(obj: dict, key: str, path: Segments, what: str) -> str:
    """A call's tool name (or id: ``need_id``): a non-empty string, else response.invalid (no provider
    has a nameless tool, or sends a call its result cannot name)."""
    value = need_string(obj, key, path, what)
    if not value:
        raise response_invalid(f"{what} must not be empty", path + (key,))
    return value


need_id = need_name


def opt_string(obj: dict, key: str, path: Segments, what: str) -> Any:
    """``obj[key]`` when a string; MISSING when absent or null; anything else is response.invalid."""
    value = obj.get(key, MISSING)
    if value is MISSING or value is None or isinstance(value, str):
        return MISSING if value is None else value
    raise response_invalid(f"{what} must be a string, not {json_type(value)}", path + (key,))


#: the largest token count read: 2**53 - 1, the largest integer every JSON reader holds exactly (JavaScript's
#: Number.MAX_SAFE_INTEGER); no provider counts more, and sums of counts of thousands of digits could not be
#: written back out (Python's int-to-text limit)
MAX_COUNT = 2**53 - 1


def opt_count(obj: Any, key: str, path: Segments) -> Any:
    """A token count: a non-negative integer up to :data:`MAX_COUNT`, MISSING when absent or null."""
    if not isinstance(obj, dict):
        return MISSING
    value = obj.get(key, MISSING)
    if value is MISSING or value is None:
        return MISSING
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_COUNT:
        raise response_invalid(f"`{key}` must be a non-negative integer up to 2**53 - 1", path + (key,))
    return value


def opt_object(obj: dict, key: str, path: Segments, what: str) -> Any:
    """``obj[key]`` when an object; MISSING when absent or null."""
    value = obj.get(key, MISSING)
    if value is MISSING or value is None:
        return MISSING
    return need_object(value, path + (key,), what)


def expect_value(obj: dict, key: str, allowed: tuple, path: Segments, what: str) -> Any:
    """``obj[key]`` must be absent or one of ``allowed``."""
    value = obj.get(key, MISSING)
    if value is not MISSING and value not in allowed:
        shown = " or ".join(f"`{a}`" for a in allowed)
        raise response_invalid(f"{what} must be {shown}", path + (key,))
    return value


# ---------------------------------------------------------------------------------------------
# Building the canonical response


def canonical_response(
    *,
    content: list[dict],
    stop_reason: str,
    response_id: Any = MISSING,
    model: Any = MISSING,
    stop_sequence: Any = MISSING,
    usage: Any = MISSING,
) -> dict:
    """A canonical response with only the members that have a value."""
    out: dict = {}
    if response_id:  # absent, or "" (no id): left out
        out["id"] = response_id
    if model:
        out["model"] = model
    out["content"] = content
    out["stop_reason"] = stop_reason
    if stop_sequence is not MISSING:
        out["stop_sequence"] = stop_sequence
    if usage is not MISSING:
        out["usage"] = usage
    return out


def make_usage(
    input_tokens: Any, output_tokens: Any, cached: Any = MISSING, reasoning: Any = MISSING
) -> dict:
    """Canonical usage: ``input_tokens`` INCLUDES cached tokens, ``output_tokens`` INCLUDES reasoning
    tokens (OpenAI semantics); the breakdowns are present when the source reported them (0 included)."""
    usage = {"input_tokens": input_tokens or 0, "output_tokens": output_tokens or 0}
    if cached is not MISSING:
        usage["cached_input_tokens"] = cached
    if reasoning is not MISSING:
        usage["reasoning_tokens"] = reasoning
    return usage


def openai_usage(body: dict, input_key: str, output_key: str) -> Any:
    """Canonical usage from an OpenAI ``usage`` object (MISSING when absent): ``input_key`` and
    ``output_key`` are the two totals, their ``…_details`` objects hold ``cached_tokens`` and
    ``reasoning_tokens`` (Chat: ``prompt_tokens``/``completion_tokens``; Responses:
    ``input_tokens``/``output_tokens``)."""
    usage = opt_object(body, "usage", (), "`usage`")
    if usage is MISSING:
        return MISSING
    path = ("usage",)
    details_in, details_out = f"{input_key}_details", f"{output_key}_details"
    return make_usage(
        opt_count(usage, input_key, path),
        opt_count(usage, output_key, path),
        opt_count(usage.get(details_in), "cached_tokens", path + (details_in,)),
        opt_count(usage.get(details_out), "reasoning_tokens", path + (details_out,)),
    )


def usage_numbers(canonical: Mapping[str, Any]) -> dict | None:
    """The canonical usage with every member (breakdowns MISSING when absent), or None."""
    usage = canonical.get("usage")
    if usage is None:
        return None
    return {key: usage.get(key, MISSING) for key in USAGE_KEYS}


def tool_call_part(call_id: str, name: str, args: Any, **extra: Any) -> dict:
    """A canonical tool_call part (``args`` from calls.arguments_to_object / read_arguments_object)."""
    part = {"type": "tool_call", "id": call_id, "name": name}
    set_arguments(part, args)
    for key, value in extra.items():
        if value is not MISSING:
            part[key] = value
    return part


def custom_call_part(obj: dict, call_id: str, name: str, path: Segments, **extra: Any) -> dict:
    """A canonical tool_call part of a custom (free-form) tool from the object holding its ``input``
    (a string, else ``response.invalid``); ``path`` is the call's source pointer."""
    part = {"type": "tool_call", "id": call_id, "name": name}
    part["input"] = FreeInput(need_string(obj, "input", path, "`input`"), pointer(path))
    for key, value in extra.items():
        if value is not MISSING:
            part[key] = value
    return part


def text_response(parts: list[dict]) -> dict:
    """The canonical response holding the parts of a text (kind ``text``): what each dialect's
    ``encode_text`` encodes and takes its content from."""
    calls = [p for p in parts if p["type"] == "tool_call"]
    return {"content": parts, "stop_reason": "tool_use" if calls else "end_turn"}


def has_tool_calls(content: list[dict]) -> bool:
    return any(part["type"] == "tool_call" for part in content)


def unsupported_part(what: str, path: Segments, profile: Mapping[str, str]) -> None:
    """A source part no canonical response part can carry: ``content.unsupported`` at ``path``, or
    (``unsupported=degrade``) nothing: the caller drops it."""
    if not degrading(profile):
        raise fail("content.unsupported", f"{what} has no equivalent in the canonical response", path)


def joined_text(content: list[dict]) -> str:
    """The text parts concatenated with nothing between them (how every SDK joins response text)."""
    return "".join(part["text"] for part in content if part["type"] == "text")


def now() -> int:
    """The generated creation timestamp (Unix seconds) for targets that require one."""
    return int(time.time())


def envelope_seed(canonical: Mapping[str, Any]) -> list:
    """What derived ids hash: the content, stop reason and model (the same response, the same id)."""
    return [canonical.get("model"), canonical.get("content"), canonical.get("stop_reason")]
