"""The HTTP endpoints of each provider dialect (the `http:` adapter and the peers), as the corpus describes
them: a provider dialect is one whose descriptor (``corpus/dialects/<name>.json``) has ``http_errors``, in
the order of the dialect names of ``schemas/common.schema.json``; its path is the descriptor's
``request.endpoint`` (``POST /v1/messages``; Gemini's names the model in the path, ``{model}``, and a second
method: ``(or :streamGenerateContent?alt=sse)``). Read once, when this module is imported."""

from __future__ import annotations

import json
import re

from .descriptors import descriptor
from .paths import schemas_dir

__all__ = ["DIALECT_NAMES", "DIALECT_PATHS", "PROVIDER_DIALECTS", "expected_path", "is_dialect_path"]

#: ``request.endpoint``: the method, the path, and the other method of the same path, if any
_ENDPOINT = re.compile(r"^POST (/\S+)(?: \(or (:\w+))?")


def _dialect_names() -> list[str]:
    try:
        schema = json.loads((schemas_dir() / "common.schema.json").read_text(encoding="utf-8"))
        return list(schema["$defs"]["dialectName"]["enum"])
    except (OSError, ValueError, KeyError, TypeError):
        return []


def _endpoints() -> dict[str, tuple[str, str | None]]:
    """Each provider dialect's (path, other method) from its descriptor."""
    found: dict[str, tuple[str, str | None]] = {}
    for name in _dialect_names():
        spec = descriptor(name)
        request = spec.get("request")
        endpoint = request.get("endpoint") if isinstance(request, dict) else None
        match = _ENDPOINT.match(endpoint) if isinstance(endpoint, str) else None
        if spec.get("http_errors") and match:
            found[name] = (match.group(1), match.group(2))
    return found


#: every dialect's name, in the order of ``common.schema.json`` ``dialectName`` (the order reports use)
DIALECT_NAMES: tuple[str, ...] = tuple(_dialect_names())
_ENDPOINTS = _endpoints()
PROVIDER_DIALECTS: tuple[str, ...] = tuple(_ENDPOINTS)

#: the client-facing path of each dialect (Gemini: the model and the method are in the path)
DIALECT_PATHS: dict[str, str] = {name: path for name, (path, _) in _ENDPOINTS.items()}


def _pattern(path: str, other: str | None) -> re.Pattern[str]:
    """The paths of an endpoint: ``{model}`` any model, the method either of the two."""
    if other is not None:
        base, sep, method = path.rpartition(":")
        methods = "|".join(re.escape(m) for m in (method, other.lstrip(":")))
        body = re.escape(base).replace(re.escape("{model}"), "[^/:]+") + f"{sep}({methods})"
    else:
        body = re.escape(path).replace(re.escape("{model}"), "[^/:]+")
    return re.compile(body)


_PATTERNS = {name: _pattern(path, other) for name, (path, other) in _ENDPOINTS.items()}


def is_dialect_path(dialect: str, path: str) -> bool:
    """Whether ``path`` is the API of ``dialect`` (Gemini: either method, for any model)."""
    pattern = _PATTERNS.get(dialect)
    return pattern is not None and pattern.fullmatch(path) is not None


def expected_path(dialect: str) -> str:
    """The path a request to ``dialect`` goes to, as a message shows it."""
    path, other = _ENDPOINTS[dialect]
    return path if other is None else f"{path} or {other}"
