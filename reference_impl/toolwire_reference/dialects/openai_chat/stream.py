"""OpenAI Chat Completions streams: the Chat-family decoder and encoder (``dialects/chat_stream.py``) with
OpenAI's rules and usage."""

from ..chat_stream import ChatDecoder, ChatEncoder
from .response import CODEC
from .rules import RULES


class OpenAIChatDecoder(ChatDecoder):
    dialect = RULES.name
    rules = RULES
    response = CODEC


class OpenAIChatEncoder(ChatEncoder):
    dialect = RULES.name
    rules = RULES
    response = CODEC
