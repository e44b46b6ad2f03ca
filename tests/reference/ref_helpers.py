"""Helpers for the reference translator's unit tests."""

import pytest
from toolwire_reference import TranslationError, translate


def refusal(kind, payload, source, target, **profile):
    """(code, path) of the TranslationError the translation raises."""
    with pytest.raises(TranslationError) as info:
        translate(kind, payload, source=source, target=target, profile=_profile(profile))
    return info.value.code, info.value.path


def run(kind, payload, source, target, **profile):
    return translate(kind, payload, source=source, target=target, profile=_profile(profile))


def _profile(kwargs):
    names = {
        "strict": "openai.strict",
        "refs": "openai.refs",
        "gemini": "gemini.schema",
        "unsupported": "unsupported",
        "description": "tool.description",
    }
    return {names[k]: v for k, v in kwargs.items()}


def tool(parameters=None, name="get_weather", **extra):
    """A canonical tool list with one tool."""
    out = {"name": name, "description": "Get the weather."}
    if parameters is not None:
        out["parameters"] = parameters
    out.update(extra)
    return [out]


def obj(properties=None, required=None, **extra):
    """An object schema."""
    out = {"type": "object", "properties": properties or {}}
    if required is not None:
        out["required"] = required
    out.update(extra)
    return out
