"""Resolving a caller's profile dict against the defaults of corpus/profiles.json.

An unknown key or value is a programming error of the caller, not a translation refusal: it raises
``ValueError`` (the harness never sends one).
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from .rules import PROFILE_DEFAULTS, PROFILE_VALUES

#: the defaults as every call without a profile gets them (read-only: no caller changes a resolved profile)
_DEFAULTS: Mapping[str, str] = MappingProxyType(dict(PROFILE_DEFAULTS))


def resolve_profile(profile: Mapping[str, str] | None) -> Mapping[str, str]:
    """Return the full profile: ``profile`` overlaid on the defaults, every key and value checked."""
    if not profile:
        return _DEFAULTS
    resolved = dict(PROFILE_DEFAULTS)
    for key, value in (profile or {}).items():
        if key not in PROFILE_VALUES:
            raise ValueError(f"unknown profile key {key!r}; known keys: {', '.join(PROFILE_VALUES)}")
        if value not in PROFILE_VALUES[key]:
            raise ValueError(
                f"unknown value {value!r} for profile key {key!r}; values: {', '.join(PROFILE_VALUES[key])}"
            )
        resolved[key] = value
    return resolved


def degrading(profile: Mapping[str, str]) -> bool:
    """True when constructs the target cannot express are degraded instead of refused."""
    return profile.get("unsupported") == "degrade"
