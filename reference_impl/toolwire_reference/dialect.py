"""The shape of a dialect package: :class:`Dialect`, the one object each ``dialects/<name>/`` exports
(``DIALECT``) and ``registry`` collects; :func:`not_written`, the refusal of a skeleton's codec
(``toolwire new-dialect``)."""

from __future__ import annotations

from dataclasses import dataclass
from types import ModuleType

from .rules import DialectRules
from .streams.base import Decoder, Encoder


@dataclass(frozen=True)
class Dialect:
    """One dialect's rules and codecs.

    - ``rules``: its rule tables (``dialects/<name>/rules.py``), which the shared code applies;
    - ``tools``: ``decode_tools`` / ``encode_tools`` / ``decode_tool_choice`` / ``encode_tool_choice`` /
      ``copies_schemas`` (kinds ``tools`` and ``tool_choice``; ``DECODE_WALKS_SCHEMAS`` when ``decode_tools``
      walks the schemas it reads);
    - ``request``: ``decode_request`` / ``encode_request``; ``response``: ``decode_response`` /
      ``encode_response`` and ``encode_text`` (kind ``text``: the parts of a text in this dialect's form);
    - ``stream_decoder`` / ``stream_encoder``: its events to canonical stream events and back.
    """

    rules: DialectRules
    tools: ModuleType
    request: ModuleType
    response: ModuleType
    stream_decoder: type[Decoder]
    stream_encoder: type[Encoder]

    @property
    def name(self) -> str:
        """The dialect's name (``openai-chat``), as the corpus spells it."""
        return self.rules.name

    @property
    def decode_walks_schemas(self) -> bool:
        """Whether ``tools.decode_tools`` walks the schemas it reads (their depth is then checked before)."""
        return getattr(self.tools, "DECODE_WALKS_SCHEMAS", False)


def not_written(module: str, function: str) -> NotImplementedError:
    """The error a codec of a skeleton ``toolwire new-dialect`` wrote raises until it is written: it names
    the function and its file, so a run against an unfinished dialect says what is missing (an errored
    check), never a silent empty translation."""
    path = "reference_impl/" + module.replace(".", "/") + ".py"
    return NotImplementedError(f"{module}.{function} is not written yet: write it in {path}")
