"""Mistral stream fragments: how re-chunking (:mod:`toolwire.streams.rechunk`) reads and writes a chunk's text
(OpenAI Chat's, but each tool call arrives whole)."""

from __future__ import annotations

from typing import Any

from ..openai_chat import rechunk as chat
from ..rechunk import Key, Rechunker


def get_fragment(data: Any) -> tuple[Key, str, str] | None:
    """Mistral sends each tool call whole: only text fragments are re-cut."""
    found = chat.get_fragment(data)
    return found if found is not None and found[1] == "text" else None


RECHUNKER = Rechunker(get_fragment, chat.put_fragment)
