"""The bedrock-converse dialect (AWS Bedrock Converse / ConverseStream), whole: ``rules`` (its rule
tables), ``tools`` (tools and tool choice), ``request``, ``response`` and ``stream`` (decoder and
encoder); ``DIALECT`` holds them for the registry."""

from ...dialect import Dialect
from . import request, response, tools
from .rules import RULES
from .stream import BedrockDecoder, BedrockEncoder

DIALECT = Dialect(RULES, tools, request, response, BedrockDecoder, BedrockEncoder)
