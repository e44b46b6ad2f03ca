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
#: the dialects whose ``decode_tools`` walks the schemas it reads (``DECODE_WALKS_SCHEMAS``): the payload's
#: depth is checked before decoding them (``tools.translate_tools``)
SCHEMA_WALKING_DECODERS = frozenset(
    name for name, module in CODECS.items() if getattr(module, "DECODE_WALKS_SCHEMAS", False)
)
