"""Tool calls that models print inside plain text (kind ``text``, source dialect ``text``).

- :mod:`.forms`: one parser per form and the registry (``OPENERS``) that fixes their precedence;
- :mod:`.scanner`: :class:`TextCallScanner`, the incremental detector (``feed(chunk) -> parts``,
  ``close() -> parts``) that stream transcoders use, and :func:`parse_text` for a whole text;
- :mod:`.encode`: the parts written for each target dialect.

Rules: corpus/RULES.md, "Text-embedded tool calls".
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..errors import TranslationError
from .encode import TARGETS, encode_text_parts
from .forms import FORM_NAMES, OPENERS
from .scanner import MALFORMED, UNTERMINATED, TextCallScanner, merge_parts, parse_text

__all__ = [
    "FORM_NAMES",
    "MALFORMED",
    "OPENERS",
    "TARGETS",
    "UNTERMINATED",
    "TextCallScanner",
    "encode_text_parts",
    "merge_parts",
    "parse_text",
    "translate_text",
]


def translate_text(payload: Any, target: str, profile: Mapping[str, str]) -> Any:
    """Kind ``text``: ``payload`` (the model's text, a JSON string) -> ``target``'s form."""
    if not isinstance(payload, str):
        raise TranslationError("payload.invalid", "a text payload must be a JSON string", "")
    return encode_text_parts(parse_text(payload, profile), target, profile)
