"""The HTTP endpoints of each provider dialect, shared by `toolwire serve` and the `http:` adapter."""

from __future__ import annotations

import re

PROVIDER_DIALECTS = ("openai-chat", "openai-responses", "anthropic", "gemini")

#: the client-facing path of each dialect (Gemini: the model and the method are in the path)
DIALECT_PATHS = {
    "openai-chat": "/v1/chat/completions",
    "openai-responses": "/v1/responses",
    "anthropic": "/v1/messages",
    "gemini": "/v1beta/models/{model}:generateContent",
}

_GEMINI_PATH = re.compile(r"^/v1beta/models/[^/:]+:(generateContent|streamGenerateContent)$")


def is_dialect_path(dialect: str, path: str) -> bool:
    """Whether ``path`` is the API of ``dialect`` (Gemini: either method, for any model)."""
    if dialect == "gemini":
        return _GEMINI_PATH.match(path) is not None
    return path == DIALECT_PATHS.get(dialect)


def expected_path(dialect: str) -> str:
    """The path a request to ``dialect`` goes to, as a message shows it."""
    if dialect == "gemini":
        return DIALECT_PATHS[dialect] + " or :streamGenerateContent"
    return DIALECT_PATHS[dialect]
