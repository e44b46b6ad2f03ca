"""The HTTP endpoints of each provider dialect, shared by `toolwire serve` and the `http:` adapter."""

from __future__ import annotations

PROVIDER_DIALECTS = ("openai-chat", "openai-responses", "anthropic", "gemini")

#: the client-facing path of each dialect (Gemini: the model and the method are in the path)
DIALECT_PATHS = {
    "openai-chat": "/v1/chat/completions",
    "openai-responses": "/v1/responses",
    "anthropic": "/v1/messages",
    "gemini": "/v1beta/models/{model}:generateContent",
}
