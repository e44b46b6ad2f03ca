"""How a provider answers an error over HTTP, from its descriptor's ``http_errors``: which bodies are error
bodies, and the status each one comes with.

The ``http:`` adapter's mock upstream and the peers' in-process upstream serve a case's error body with the
provider's real status (an upstream never sends one with 200); a proxy that forwards it answers its client
with an error status.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from .descriptors import descriptor
from .jsonvalue import value_at

__all__ = ["error_status"]


def _spec(dialect: str) -> dict[str, Any] | None:
    spec = descriptor(dialect).get("http_errors")
    return spec if isinstance(spec, dict) else None


@cache
def _validator(dialect: str) -> Any:
    from jsonschema import Draft202012Validator

    spec = _spec(dialect)
    return Draft202012Validator(spec["body"]) if spec else None


def _is_error_body(dialect: str, body: Any) -> bool:
    validator = _validator(dialect)
    return bool(validator is not None and validator.is_valid(body))


def error_status(dialect: str, body: Any) -> int | None:
    """The HTTP status ``dialect``'s provider sends ``body`` with when it is an error body; None for any
    other payload (a response, sent with 200)."""
    if not _is_error_body(dialect, body):
        return None
    spec = _spec(dialect) or {}
    if spec.get("status_at"):
        status = value_at(body, spec["status_at"])
        if type(status) is int and 400 <= status <= 599:
            return status
    if spec.get("type_at"):
        status = (spec.get("statuses") or {}).get(value_at(body, spec["type_at"]))
        if isinstance(status, int):
            return status
    return int(spec.get("default_status", 400))
