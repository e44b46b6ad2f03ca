"""One codec module per dialect; each has decode_tools/encode_tools/decode_tool_choice/encode_tool_choice."""

from __future__ import annotations

from types import ModuleType

from .anthropic import tools as anthropic
from .canonical import tools as canonical
from .gemini import tools as gemini
from .openai_chat import tools as openai_chat
from .openai_responses import tools as openai_responses

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
