"""The openai-responses dialect, whole: ``rules`` (its rule tables), ``tools`` (tools and tool choice),
``request``, ``response`` and ``stream`` (decoder and encoder); ``DIALECT`` holds them for the registry."""

from ...dialect import Dialect
from . import request, response, tools
from .rules import RULES
from .stream import OpenAIResponsesDecoder, OpenAIResponsesEncoder

DIALECT = Dialect(RULES, tools, request, response, OpenAIResponsesDecoder, OpenAIResponsesEncoder)
