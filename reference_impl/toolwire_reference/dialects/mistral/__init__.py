"""The mistral dialect (Mistral's chat completions), whole: ``rules`` (its rule tables), ``tools`` (tools and
tool choice), ``request``, ``response`` and ``stream`` (decoder and encoder), each the Chat-family codec
(``dialects/chat_*.py``) with Mistral's own rules; ``DIALECT`` holds them for the registry."""

from ...dialect import Dialect
from . import request, response, tools
from .rules import RULES
from .stream import MistralDecoder, MistralEncoder

DIALECT = Dialect(RULES, tools, request, response, MistralDecoder, MistralEncoder)
