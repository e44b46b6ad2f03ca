"""Adapters: how the harness calls an implementation. ``toolwire.adapters.load_adapter`` and the adapter
classes stay importable from here."""

from .base import (
    ALIASES,
    Adapter,
    AdapterError,
    Answer,
    PythonAdapter,
    default_timeout,
    describe_crash,
    load_adapter,
)

__all__ = [
    "ALIASES",
    "Adapter",
    "AdapterError",
    "Answer",
    "PythonAdapter",
    "default_timeout",
    "describe_crash",
    "load_adapter",
]
