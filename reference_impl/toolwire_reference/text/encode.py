"""Kind ``text``: the canonical content parts of a text, written for each target dialect by its
``response.encode_text`` (found through the registry), whose docstring says the form: exactly what the
dialect's ``response`` encoder writes for that content (the message, blocks, parts or items of a
response).
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
