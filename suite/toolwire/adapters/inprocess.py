"""The in-process adapter: ``python:pkg.module:obj``, an object implementing
:class:`toolwire.protocol.Translator` called in this process (``reference`` is the bundled one)."""

from __future__ import annotations

import importlib
import os
import sys
from typing import Any

from .base import DEFAULT_TIMEOUT, Adapter, AdapterError, describe_crash, normalise_capabilities

__all__ = ["PythonAdapter", "load_python"]


class PythonAdapter(Adapter):
    """An in-process implementation of :class:`toolwire.protocol.Translator`."""

    def __init__(self, spec: str, impl: Any, timeout: float | None = DEFAULT_TIMEOUT) -> None:
        self.impl = impl
        self.timeout = timeout
        try:
            caps = impl.capabilities()
        except Exception as exc:
            raise AdapterError(f"{spec}: capabilities() failed: {describe_crash(exc)}") from exc
        super().__init__(spec=spec, capabilities=normalise_capabilities(caps, spec), timeout=timeout)
        self.capabilities.setdefault("language", "python")

    def _call(self, kind: str, source: str, target: str, payload: Any, profile: dict[str, str]) -> Any:
        return self.impl.translate(kind, source, target, payload, profile)

    def _call_stream(self, source: str, target: str, events: list[Any], profile: dict[str, str]) -> Any:
        out = self.impl.translate_stream(source, target, events, profile)
        # an iterator of events (the reference emits them as they become ready) is read to the end
        return out if isinstance(out, list) or out is None or isinstance(out, dict | str) else list(out)


def _import(module: str, spec: str) -> Any:
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as exc:
        if exc.name is not None and module.startswith(exc.name) and os.getcwd() not in sys.path:
            sys.path.insert(0, os.getcwd())  # `toolwire run` from the directory holding the adapter module
            try:
                return importlib.import_module(module)
            except ModuleNotFoundError:
                pass
        raise AdapterError(f"{spec}: cannot import {module!r}: {exc}") from exc
    except Exception as exc:
        raise AdapterError(f"{spec}: importing {module!r} failed: {describe_crash(exc)}") from exc


def load_python(spec: str, rest: str, timeout: float | None) -> PythonAdapter:
    """The adapter for ``python:<rest>`` (``pkg.module:obj``: an instance, or a class / zero-argument
    factory; ``obj`` defaults to ``Translator``)."""
    module, _, attr = rest.partition(":")
    if not module:
        raise AdapterError(f"{spec!r}: expected python:pkg.module:obj")
    mod = _import(module, spec)
    obj: Any = mod
    for part in (attr or "Translator").split("."):
        try:
            obj = getattr(obj, part)
        except AttributeError as exc:
            raise AdapterError(f"{spec}: {module!r} has no attribute {attr or 'Translator'!r}") from exc
    if isinstance(obj, type) or (callable(obj) and not hasattr(obj, "translate")):
        try:
            obj = obj()
        except Exception as exc:
            raise AdapterError(f"{spec}: creating the translator failed: {describe_crash(exc)}") from exc
    if not all(callable(getattr(obj, m, None)) for m in ("capabilities", "translate")):
        raise AdapterError(f"{spec}: {obj!r} does not implement capabilities() and translate()")
    return PythonAdapter(spec, obj, timeout=timeout)
