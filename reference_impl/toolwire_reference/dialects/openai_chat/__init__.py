"""The openai-chat dialect, whole: ``rules`` (its rule tables), ``tools`` (tools and tool choice),
``request``, ``response`` and ``stream`` (decoder and encoder); ``DIALECT`` holds them for the registry."""

from ...dialect import Dialect
from . import request, response, tools
from .rules import RULES
from .stream import OpenAIChatDecoder, OpenAIChatEncoder

DIALECT = Dialect(RULES, tools, request, response, OpenAIChatDecoder, OpenAIChatEncoder)
