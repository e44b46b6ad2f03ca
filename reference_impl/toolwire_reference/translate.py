"""Hub and spoke: decode the source dialect to the canonical model, validate once, encode the target.

Unknown kinds, dialects, profile keys or values raise ``ValueError`` (a caller's mistake, which the
harness never makes); every problem with the payload raises ``TranslationError``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .dialects import CODECS
from .profiles import resolve_profile
from .rules import KINDS
from .tools import validate_tools


def translate(
    kind: str, payload: Any, *, source: str, target: str, profile: Mapping[str, str] | None = None
) -> Any:
    """Translate ``payload`` of ``kind`` (``tools`` or ``tool_choice``) from ``source`` to ``target``.

    Returns a new JSON value (the input is never modified) or raises ``TranslationError``.
    """
    if kind not in KINDS:
        raise ValueError(f"unknown kind {kind!r}; kinds: {', '.join(KINDS)}")
    for role, dialect in (("source", source), ("target", target)):
        if dialect not in CODECS:
            raise ValueError(f"unknown {role} dialect {dialect!r}; dialects: {', '.join(CODECS)}")
    resolved = resolve_profile(profile)
    decoder, encoder = CODECS[source], CODECS[target]
    if kind == "tools":
        tools = decoder.decode_tools(payload, resolved)
        validate_tools(tools, target, resolved)
        return encoder.encode_tools(tools, resolved)
    choice = decoder.decode_tool_choice(payload, resolved)
    return encoder.encode_tool_choice(choice, resolved)
