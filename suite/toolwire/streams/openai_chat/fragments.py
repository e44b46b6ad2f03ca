"""Where a Chat ``delta.tool_calls`` fragment carries its call's name and text: ``function`` (``name``,
``arguments``), or for a custom (free-form) call ``custom`` (``name``, ``input``; ``type: "custom"`` on its
first fragment, as openai-node's ``ChatCompletionChunk`` types it)."""

from __future__ import annotations

from typing import Any


def text_member(call: Any) -> tuple[str, str]:
    """The member holding a fragment's name and text, and the text's key: ``("function", "arguments")`` or
    ``("custom", "input")``."""
    if isinstance(call, dict) and (call.get("type") == "custom" or isinstance(call.get("custom"), dict)):
        return "custom", "input"
    return "function", "arguments"
