"""Kind ``text``: the canonical content parts of a text, written for each target dialect.

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

import importlib
from collections.abc import Mapping
from typing import Any

from ..calls import arguments_for_text, encode_call_id

TARGETS = ("canonical", "openai-chat", "openai-responses", "anthropic", "gemini")


def encode_text_parts(parts: list[dict], target: str, profile: Mapping[str, str]) -> Any:
    if target not in TARGETS:
        raise ValueError(f"unknown target dialect {target!r} for kind 'text'; targets: {', '.join(TARGETS)}")
    calls = [p for p in parts if p["type"] == "tool_call"]
    if target == "openai-chat":
        text = "\n\n".join(p["text"] for p in parts if p["type"] == "text")
        message: dict = {"role": "assistant", "content": text if text or not calls else None}
        if calls:
            message["tool_calls"] = [
                {
                    "id": encode_call_id(p["id"], target, profile),
                    "type": "function",
                    "function": {"name": p["name"], "arguments": arguments_for_text(p)},
                }
                for p in calls
            ]
        return message
    canonical = {"content": parts, "stop_reason": "tool_use" if calls else "end_turn"}
    module = importlib.import_module(f"..dialects.{target.replace('-', '_')}.response", __package__)
    response = module.encode_response(canonical, profile)
    if target == "canonical":
        return {"content": response["content"]}
    if target == "anthropic":
        return response["content"]
    if target == "gemini":
        return response["candidates"][0]["content"]["parts"]
    return response["output"]
