"""The corpus's dialect descriptors (``corpus/dialects/<name>.json``) as the HTTP side of the harness reads
them: the bundled corpus's, read once per process."""

from __future__ import annotations

import json
from functools import cache
from typing import Any

from .paths import corpus_dir

__all__ = ["descriptor", "model_member", "without_model_member"]


@cache
def descriptor(dialect: str) -> dict[str, Any]:
    """``dialect``'s descriptor ({} when there is none or it cannot be read: lint reports that)."""
    try:
        data = json.loads((corpus_dir() / "dialects" / f"{dialect}.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def model_member(spec: dict[str, Any]) -> str | None:
    """The request member that names the model where the dialect's endpoint names it in the path (Gemini's
    ``model``, Bedrock's ``modelId``: the descriptor ``spec``'s ``request.model_member``), else None."""
    request = spec.get("request")
    member = request.get("model_member") if isinstance(request, dict) else None
    return member if isinstance(member, str) else None


def without_model_member(spec: dict[str, Any], payload: Any) -> Any:
    """A request ``payload`` of the dialect described by ``spec`` as its body goes on the wire: without the
    member that stands for the model in the URL (INTERPRETING.md, "The model of a request")."""
    member = model_member(spec)
    if member is None or not isinstance(payload, dict) or member not in payload:
        return payload
    return {k: v for k, v in payload.items() if k != member}
