"""OpenAI Chat Completions ``response``: a ``chat.completion`` object, by the Chat-family codec
(``dialects/chat_response.py``) with OpenAI's own members: ``refusal``, the legacy ``function_call``,
custom (free-form) calls, ``prompt_tokens_details.cached_tokens`` and
``completion_tokens_details.reasoning_tokens``; ``logprobs: null`` on the choice, as the SDK's
``ChatCompletion`` requires."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..chat_response import ChatResponseCodec
from ..openai_common import chat_call_body
from .rules import RULES

NAME = RULES.name


class OpenAIChatResponse(ChatResponseCodec):
    """OpenAI's ``chat.completion``."""

    refusal_member = True

    def call_body(self, part: Mapping[str, Any], profile: Mapping[str, str]) -> dict:
        return chat_call_body(part)

    def choice(self, message: dict, finish: str) -> dict:
        return {"index": 0, "message": message, "finish_reason": finish, "logprobs": None}


CODEC = OpenAIChatResponse(RULES)
decode_response = CODEC.decode_response
encode_response = CODEC.encode_response
_decode_usage = CODEC.decode_usage
_encode_usage = CODEC.encode_usage
encode_text = CODEC.encode_text
