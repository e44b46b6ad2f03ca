"""The corpus's dialect descriptors (``corpus/dialects/<name>.json``) as the HTTP side of the harness reads
them: the bundled corpus's, read once per process."""

from __future__ import annotations

import json
from functools import cache
from typing import Any

from .paths import corpus_dir

__all__ = ["descriptor"]


@cache
def descriptor(dialect: str) -> dict[str, Any]:
    """``dialect``'s descriptor ({} when there is none or it cannot be read: lint reports that)."""
    try:
        data = json.loads((corpus_dir() / "dialects" / f"{dialect}.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}
