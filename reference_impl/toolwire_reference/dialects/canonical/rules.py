"""The canonical dialect's rules as data (``RULES``; what each field means: ``rules.DialectRules``)."""

from __future__ import annotations

from ...rules import DialectRules

RULES = DialectRules(
    name="canonical",
    tool_name_pattern=r"^[\s\S]+$",
    format_name_pattern=r"^[\s\S]+$",
    custom_tools=True,
    custom_streams=True,
    stream_thinking=True,
)
