"""One codec module per dialect; each has decode_tools/encode_tools/decode_tool_choice/encode_tool_choice."""

from __future__ import annotations

from types import ModuleType

from . import anthropic, canonical, gemini, openai_chat, openai_responses

CODECS: dict[str, ModuleType] = {
    "canonical": canonical,
    "openai-chat": openai_chat,
    "openai-responses": openai_responses,
    "anthropic": anthropic,
    "gemini": gemini,
}
