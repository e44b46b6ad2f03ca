"""Adapters: how the harness calls an implementation, each giving an :class:`Answer` and never raising.

- :mod:`.base`: what every adapter shares (:class:`Adapter`, :class:`Answer`, :class:`AdapterError`);
- :mod:`.inprocess`: ``python:pkg.module:obj`` (and ``reference``, the bundled translator named as a string;
  ``peer:NAME``, the bundled adapters of :mod:`toolwire.peers`);
- :mod:`.cmd`: ``cmd:<command line>``, a process speaking docs/protocol.md;
- :mod:`.http`: ``http:<config.toml>``, a proxy run black-box against a mock upstream (:mod:`.upstream`;
  :mod:`.http_errors`: the providers' error bodies; :mod:`.delivery`: how its streams are written).

:func:`load_adapter` picks one from a spec.
"""

from __future__ import annotations

import os
from typing import Literal

from ..corpus.capabilities import closest_hint
from ..peers import PEERS, missing_modules
from .base import DEFAULT_CMD_TIMEOUT, DEFAULT_TIMEOUT, Adapter, AdapterError, Answer, describe_crash
from .cmd import SubprocessAdapter
from .http import HttpAdapter
from .inprocess import PythonAdapter, load_python

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

#: adapter specs known by a name; the reference is named, never imported, by the harness
ALIASES = {"reference": "python:toolwire_reference:Translator"}


def _peer_spec(spec: str) -> str:
    """``peer:NAME`` → the ``python:`` spec of the bundled adapter for that library (``toolwire.peers``)."""
    name = spec.partition(":")[2].strip()
    if name not in PEERS:
        known = ", ".join(sorted(PEERS))
        raise AdapterError(
            f"{spec!r}: unknown peer {name!r} (known: {known}){closest_hint(name, sorted(PEERS))}"
        )
    missing = missing_modules(name)
    if missing:
        from ..install_source import extra_install_command  # noqa: PLC0415 (reads package metadata when needed)

        raise AdapterError(
            f"{spec}: {', '.join(missing)} not installed; install it with: "
            f"{extra_install_command(PEERS[name][1])}"
        )
    return PEERS[name][0]


def default_timeout(spec: str) -> float:
    """Seconds a check may take by default: 10 for ``cmd:`` adapters, 30 otherwise."""
    return DEFAULT_CMD_TIMEOUT if spec.strip().startswith("cmd:") else DEFAULT_TIMEOUT


def load_adapter(
    spec: str,
    *,
    timeout: float | None | Literal["default"] = "default",
    validate_protocol: bool = False,
    cwd: str | os.PathLike[str] | None = None,
) -> Adapter:
    """Load ``reference``, ``python:pkg.module:obj`` (an instance, or a class / zero-argument factory),
    ``peer:NAME`` (a bundled adapter for another library, :mod:`toolwire.peers`),
    ``cmd:<command line>`` (a subprocess speaking docs/protocol.md; see :mod:`toolwire.adapters.cmd`) or
    ``http:<config.toml>`` (a proxy run black-box; see :mod:`toolwire.adapters.http`).

    ``timeout``: seconds one translation may take before the check is ``errored`` as hung (0/None: no limit;
    ``"default"``: 30 s in-process, 10 s for ``cmd:``). ``validate_protocol`` and ``cwd`` (where the
    process starts; default the current directory) apply to ``cmd:`` adapters only.
    """
    spec = spec.strip()
    if timeout == "default":
        timeout = default_timeout(spec)
    full = ALIASES.get(spec, spec)
    if full.startswith("peer:"):
        full = _peer_spec(spec)
    scheme, sep, rest = full.partition(":")
    if not sep:
        raise AdapterError(
            f"{spec!r}: an adapter is 'reference', 'python:pkg.module:obj', 'peer:NAME', 'cmd:…' or 'http:…'"
            + closest_hint(spec, ALIASES)
        )
    if scheme == "python":
        return load_python(spec, rest, timeout)
    if scheme == "cmd":
        return SubprocessAdapter(spec, rest, timeout=timeout, validate_protocol=validate_protocol, cwd=cwd)
    if scheme == "http":
        return HttpAdapter(spec, rest, timeout=timeout, cwd=cwd)
    hint = closest_hint(scheme, _SCHEMES, suffix=":")
    raise AdapterError(
        f"{spec!r}: unknown adapter scheme {scheme!r} (peer:, python:, cmd:, http:, or 'reference'){hint}"
    )


#: the schemes of an adapter spec
_SCHEMES = ("peer", "python", "cmd", "http")
