"""The interface a translator implements to be run in-process (``python:`` adapters)."""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

__all__ = [
    "DOCUMENTED_DROPS",
    "LIBRARY_OBJECTS",
    "UNSUPPORTED",
    "Capabilities",
    "TranslationRefusal",
    "Translator",
    "refusal_of",
]

#: the capability listing the request members an implementation leaves out toward a target on purpose, each
#: with the public record of that decision (INTERPRETING.md, "Error expectations"): ``[{"kind": "request",
#: "target": "openai-responses", "member": "stop", "ref": "https://…"}]``
DOCUMENTED_DROPS = "documented_drops"

#: the refusal code by which an implementation says it has no counterpart for an input, or does not implement
#: a translation (docs/protocol.md): the check is skipped, never judged
UNSUPPORTED = "protocol.unsupported"
#: the capability that says an implementation's responses and streams are its own in-process objects, not
#: wire bodies (INTERPRETING.md, "Capabilities")
LIBRARY_OBJECTS = "library_objects"

#: ``{"name", "version", "language", "kinds": {kind: [[source, target], ...]}, "profiles": {key: [values]}}``;
#: ``"*"`` stands for any dialect in a pair; a profile key not listed supports only its default.
Capabilities = dict[str, Any]


@runtime_checkable
class Translator(Protocol):
    """A translator between tool-calling wire formats.

    ``translate`` refuses a translation by raising an exception with the attributes ``code`` (a code from
    ``corpus/errors.json``), ``message`` and ``path`` (a JSON Pointer into the source payload, or None).
    Any other exception is a crash.
    """

    def capabilities(self) -> Capabilities:
        """What the implementation supports (kinds and pairs, profile values) and who it is."""
        ...

    def translate(self, kind: str, source: str, target: str, payload: Any, profile: dict[str, str]) -> Any:
        """Translate one payload of ``kind`` from ``source`` to ``target`` under the full ``profile``."""
        ...

    def translate_stream(
        self, source: str, target: str, events: list[Any], profile: dict[str, str]
    ) -> list[Any]:
        """Translate a stream (a list of events) from ``source`` to ``target``."""
        ...


class TranslationRefusal(Exception):
    """A convenience exception for implementations: a coded refusal."""

    def __init__(self, code: str, message: str = "", path: str | None = None) -> None:
        super().__init__(f"{code}: {message}" if message else code)
        self.code = code
        self.message = message
        self.path = path


def _as_pointer(path: Any) -> str | None:
    if path is None or isinstance(path, str):
        return path
    if isinstance(path, list | tuple):
        return "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in path)
    return str(path)


def refusal_of(exc: BaseException) -> dict[str, Any] | None:
    """``{"code", "message", "path"}`` when ``exc`` is a refusal (a non-empty string ``code``), else None."""
    code = getattr(exc, "code", None)
    if not isinstance(code, str) or not code:
        return None
    message = getattr(exc, "message", None)
    if not isinstance(message, str):
        message = str(exc)
    return {"code": code, "message": message, "path": _as_pointer(getattr(exc, "path", None))}
