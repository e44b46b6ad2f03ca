"""The canonical model in memory: tools and tool choices, with where each part came from.

Every canonical value remembers its source pointers, so a problem found later (validation, target
rules, schema rewrites) is reported at a JSON Pointer into the *source* payload.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, NamedTuple

from ._json import MISSING
from .errors import SchemaProblem, Segments, TranslationError, pointer

SegmentMapper = Callable[[Any, "str | int"], "str | int"]


class SchemaOrigin(NamedTuple):
    """Where a tool's parameter schema sits in the source payload.

    ``source`` and ``mapper`` are set when decoding renamed members (Gemini snake_case): ``locate``
    then walks the source schema to spell each segment as the source did. (Immutable; a named tuple
    rather than a frozen dataclass because one is made per decoded tool, and a tuple is made faster.)
    """

    base: Segments
    source: Any = None
    mapper: SegmentMapper | None = None

    def locate(self, rel: Segments) -> str:
        """The source pointer of a path relative to the decoded schema."""
        if self.mapper is None:
            return pointer(self.base + tuple(rel))
        node, out = self.source, list(self.base)
        for seg in rel:
            seg = self.mapper(node, seg)
            out.append(seg)
            if isinstance(node, dict):
                node = node.get(seg)
            elif isinstance(node, list) and isinstance(seg, int) and seg < len(node):
                node = node[seg]
            else:
                node = None
        return pointer(out)

    def error(self, problem: SchemaProblem) -> TranslationError:
        """``problem`` as a TranslationError at its source path."""
        return TranslationError(problem.code, problem.message, self.locate(problem.rel))

    @contextmanager
    def reporting(self) -> Iterator[None]:
        """Turn a SchemaProblem raised inside the block into a TranslationError at its source path
        (hot paths use ``try`` / ``except SchemaProblem`` and :meth:`error` instead)."""
        try:
            yield
        except SchemaProblem as problem:
            raise self.error(problem) from None


#: the origin of a schema with no known place (a Tool's default: immutable, so one shared object is safe)
NO_ORIGIN = SchemaOrigin(())


@dataclass(slots=True)
class Tool:
    """A canonical tool. ``parameters`` is MISSING when absent; it is the raw value until validated."""

    name: Any
    path: Segments
    name_path: Segments
    description: Any = MISSING
    parameters: Any = MISSING
    params_origin: SchemaOrigin = NO_ORIGIN
    strict: Any = MISSING
    #: a deep copy of ``parameters`` made by the validation pass (``validate_tools(copies=True)``) for
    #: an encoder that copies the schema unchanged; ``dialects.common.schema_copy`` takes it (once)
    checked_copy: Any = MISSING
    #: a custom (free-form) tool (toolwire_reference.custom): no parameters, an optional ``format``
    custom: bool = False
    format: Any = MISSING

    @property
    def has_parameters(self) -> bool:
        return self.parameters is not MISSING


@dataclass
class Choice:
    """A canonical tool choice: ``mode`` None means "not specified"; ``tools`` restricts the choice.

    ``path`` is the member carrying the choice, ``tools_path`` the member carrying the tool names,
    ``parallel_path`` the member carrying the parallel setting (all JSON Pointers into the source).
    ``custom`` names the tools of ``tools`` that are custom (free-form) tools: OpenAI refers to them
    with their own reference form.
    """

    mode: str | None = None
    tools: list[str] | None = None
    parallel: bool | None = None
    path: str = "/tool_choice"
    tools_path: str = "/tool_choice"
    parallel_path: str = "/parallel_tool_calls"
    custom: frozenset[str] = frozenset()
