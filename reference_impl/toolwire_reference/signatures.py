"""Signatures and where they may go (corpus/RULES.md, "Thinking and signatures").

A signature is an opaque proof a provider attaches to a model's reasoning: Anthropic's thinking
``signature`` (and ``redacted_thinking`` data), Gemini's ``thoughtSignature`` (on thought, text and
``functionCall`` parts), OpenAI Responses' ``encrypted_content`` of a ``reasoning`` item. Only the
provider that issued one can check it, so the canonical part records its issuer in ``origin`` (the name
of a dialect whose rules say ``issues_signatures``) and an encoder writes the signature back only to
that dialect. A signature without an ``origin`` (a canonical source that does not say) is written
wherever the target has a place for it: its producer vouches for it.
"""

from __future__ import annotations

from typing import Any

from . import roster


def sign(part: dict, signature: Any, origin: str) -> dict:
    """``part`` with ``signature`` (when it is a non-empty string: an empty one signs nothing) and its
    issuer ``origin``."""
    if isinstance(signature, str) and signature:
        part["signature"] = signature
        part["origin"] = origin
    return part


def for_target(part: dict, target: str) -> str | None:
    """The signature of ``part`` when ``target`` may receive it (its issuer, or any target for a
    signature of unknown origin; canonical keeps every signature), else None."""
    signature = part.get("signature")
    if signature is None:
        return None
    origin = part.get("origin")
    return signature if target == "canonical" or origin is None or origin == target else None


def origin_problem(part: dict) -> str | None:
    """Why a canonical part's ``origin`` is invalid (None when it is fine)."""
    if "origin" not in part:
        return None
    if not roster.issues_signatures(part["origin"]):
        return f"`origin` must be one of {', '.join(roster.issuers())}"
    if "signature" not in part:
        return "`origin` names the issuer of a `signature`, and the part has none"
    return None


def strip_foreign(part: dict, target: str) -> dict:
    """``part`` without a signature ``target`` may not receive (a copy when one is removed)."""
    if "signature" in part and for_target(part, target) is None:
        part = {k: v for k, v in part.items() if k not in ("signature", "origin")}
    return part


__all__ = ["for_target", "origin_problem", "sign", "strip_foreign"]
