"""The one exception a translation refuses with, and JSON Pointer helpers."""

from __future__ import annotations

from collections.abc import Iterable

Segments = tuple[str | int, ...]


def pointer(segments: Iterable[str | int]) -> str:
    """Render path segments as a JSON Pointer (RFC 6901): ``("a/b", 0)`` -> ``"/a~1b/0"``."""
    return "".join("/" + str(s).replace("~", "~0").replace("/", "~1") for s in segments)


class TranslationError(Exception):
    """A refusal to translate.

    ``code`` is a code of ``corpus/errors.json``, ``message`` a human sentence and ``path`` a JSON
    Pointer into the *source* payload (``""`` is the whole payload).
    """

    def __init__(self, code: str, message: str, path: str = "") -> None:
        super().__init__(f"{code} at {path or '(root)'}: {message}")
        self.code = code
        self.message = message
        self.path = path

    def __reduce__(self):  # keep pickling (pytest-xdist) working with the 3-argument constructor
        return (type(self), (self.code, self.message, self.path))


def fail(code: str, message: str, segments: Iterable[str | int]) -> TranslationError:
    """Build a TranslationError whose path is given as segments."""
    return TranslationError(code, message, pointer(segments))


class SchemaProblem(Exception):
    """A problem found inside one parameter schema; ``rel`` is relative to the schema root.

    Internal: the tool-level code maps ``rel`` to a pointer into the source payload.
    """

    def __init__(self, code: str, message: str, rel: Segments) -> None:
        super().__init__(f"{code} at {pointer(rel)}: {message}")
        self.code = code
        self.message = message
        self.rel = tuple(rel)
