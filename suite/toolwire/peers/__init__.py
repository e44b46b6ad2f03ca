"""Adapters that run toolwire against other translators: ``--adapter peer:NAME``.

One module per library; each drives the library offline (no key, no network) and declares exactly the kinds,
pairs and profiles the library translates. Install a library with its extra (``pip install
'toolwire[litellm]'``, ``[any-llm]``, ``[aisuite]``, ``[langchain]``, or ``[peers]`` for all four).
"""

from __future__ import annotations

import importlib.util

#: ``peer:NAME`` → (``python:`` spec of the adapter, the extra that installs the library, modules it needs)
PEERS: dict[str, tuple[str, str, tuple[str, ...]]] = {
    "litellm": ("python:toolwire.peers.litellm:Translator", "litellm", ("litellm",)),
    "any-llm": ("python:toolwire.peers.any_llm:Translator", "any-llm", ("any_llm", "anthropic", "google")),
    "aisuite": ("python:toolwire.peers.aisuite:Translator", "aisuite", ("aisuite", "anthropic", "google")),
    "langchain": (
        "python:toolwire.peers.langchain:Translator",
        "langchain",
        ("langchain_core", "langchain_anthropic", "langchain_openai"),
    ),
}


def missing_modules(name: str) -> list[str]:
    """The modules peer ``name`` needs that are not installed (empty when it can run)."""
    out = []
    for module in PEERS[name][2]:
        try:
            found = importlib.util.find_spec(module) is not None
        except ModuleNotFoundError:
            found = False
        if not found:
            out.append(module)
    return out


__all__ = ["PEERS", "missing_modules"]
