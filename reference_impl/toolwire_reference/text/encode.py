"""Kind ``text``: the canonical content parts of a text, written for each target dialect by its
``response.encode_text`` (found through the registry).

| target | output |
|---|---|
| canonical | ``{"content": [text | tool_call parts]}`` |
| openai-chat | the assistant message ``{"role": "assistant", "content": text or null, "tool_calls"?: […]}`` |
| anthropic | the content blocks (``text``, ``tool_use``) |
| gemini | the parts (``text``, ``functionCall`` without id: the ids are invented) |
| openai-responses | the output items (``message``, ``function_call``) |

The provider forms are exactly what the ``response`` encoders write for that content (the message,
blocks, parts or items of a response); openai-chat joins the text runs with a blank line (``"\\n\\n"``,
as the request encoder joins an assistant message's text parts), since a call stood between them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..registry import BY_NAME, NAMES

#: the dialects kind ``text`` writes: every dialect of the registry
TARGETS = NAMES


def encode_text_parts(parts: list[dict], target: str, profile: Mapping[str, str]) -> Any:
    """``parts`` (a text's canonical content) in ``target``'s form."""
    if target not in TARGETS:
        raise ValueError(f"unknown target dialect {target!r} for kind 'text'; targets: {', '.join(TARGETS)}")
    return BY_NAME[target].response.encode_text(parts, profile)
