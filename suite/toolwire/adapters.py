"""Run an implementation: ``python:pkg.module:obj`` in-process (``reference`` is the bundled one).

An adapter never lets an implementation's exception escape: every call returns an :class:`Answer`.
"""

from __future__ import annotations

import copy
import importlib
import math
import os
import sys
import threading
import time
import traceback
from dataclasses import dataclass, field
from typing import Any, Literal

from .protocol import refusal_of

__all__ = [
    "ALIASES",
    "Adapter",
    "AdapterError",
    "Answer",
    "PythonAdapter",
    "default_timeout",
    "describe_crash",
    "json_problem",
    "load_adapter",
]

ALIASES = {"reference": "python:toolwire_reference:Translator"}
_TRACEBACK_FRAMES = 6
DEFAULT_TIMEOUT = 30.0
#: the default for ``cmd:`` adapters (a process answers fast, or is hung)
DEFAULT_CMD_TIMEOUT = 10.0


class _Hung(Exception):
    """The implementation did not answer in time."""


class AdapterError(Exception):
    """The adapter spec is wrong, or the implementation cannot be loaded or describe itself."""


@dataclass
class Answer:
    """What an implementation answered: a payload, a coded refusal, or a crash (no judgement possible)."""

    status: Literal["payload", "error", "crash"]
    payload: Any = None
    error: dict[str, Any] | None = None
    crash: str | None = None
    duration_ms: float = 0.0
    #: where the implementation changed the payload it was handed (a JSON Pointer), when it did
    mutated: str | None = None


def describe_crash(exc: BaseException) -> str:
    """Exception type and message, then the innermost frames of the traceback."""
    head = (
        f"{type(exc).__module__}.{type(exc).__qualname__}"
        if type(exc).__module__ != "builtins"
        else type(exc).__qualname__
    )
    text = f"{head}: {exc}".rstrip()
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if f.filename != __file__]
    if frames:
        shown = "".join(traceback.format_list(frames[-_TRACEBACK_FRAMES:])).rstrip()
        text += "\nTraceback (innermost last):\n" + shown
    return text


def json_problem(value: Any, path: str = "") -> str | None:
    """Why ``value`` is not a JSON value (with the JSON Pointer of the culprit), or None when it is one."""
    stack: list[tuple[Any, str]] = [(value, path)]
    while stack:
        node, where = stack.pop()
        if node is None or isinstance(node, bool | str):
            continue
        if isinstance(node, int):
            continue
        if isinstance(node, float):
            if not math.isfinite(node):
                return f"{where or '(root)'}: {node!r} is not a JSON number"
            continue
        if isinstance(node, list):
            stack.extend((v, f"{where}/{i}") for i, v in enumerate(node))
            continue
        if isinstance(node, dict):
            for k, v in node.items():
                if not isinstance(k, str):
                    return f"{where or '(root)'}: object key {k!r} is a {type(k).__name__}, not a string"
                stack.append((v, where + "/" + k.replace("~", "~0").replace("/", "~1")))
            continue
        return f"{where or '(root)'}: a {type(node).__module__}.{type(node).__qualname__} is not a JSON value"
    return None


@dataclass
class Adapter:
    """A loaded implementation. Subclasses implement :meth:`_call` and :meth:`_call_stream`."""

    spec: str
    capabilities: dict[str, Any] = field(default_factory=dict)
    #: seconds one call may take before it counts as hung (None or 0: no limit)
    timeout: float | None = DEFAULT_TIMEOUT

    @property
    def name(self) -> str:
        return str(self.capabilities.get("name") or self.spec)

    @property
    def version(self) -> str:
        return str(self.capabilities.get("version") or "unknown")

    @property
    def language(self) -> str:
        return str(self.capabilities.get("language") or "unknown")

    def metadata(self) -> dict[str, Any]:
        """The ``adapter`` member of a results header."""
        return {
            "spec": self.spec,
            "name": self.name,
            "version": self.version,
            "language": self.language,
            "capabilities": self.capabilities,
        }

    def translate(self, kind: str, source: str, target: str, payload: Any, profile: dict[str, str]) -> Answer:
        """Translate one payload; never raises (except KeyboardInterrupt). The implementation gets a copy;
        if it changes it, the answer says where (a translator must not touch its caller's data)."""
        given = copy.deepcopy(payload)
        answer = self._answer(lambda: self._call(kind, source, target, given, dict(profile)))
        return _mutation(answer, payload, given)

    def translate_stream(
        self, source: str, target: str, events: list[Any], profile: dict[str, str]
    ) -> Answer:
        """Translate a stream (list of events); never raises (except KeyboardInterrupt). Like
        :meth:`translate`, the answer says where the implementation changed the events it was handed."""
        given = copy.deepcopy(events)
        answer = self._answer(lambda: self._call_stream(source, target, given, dict(profile)))
        return _mutation(answer, events, given)

    def close(self) -> None:
        """Release resources (processes, sockets)."""

    def _answer(self, call: Any) -> Answer:
        start = time.perf_counter()
        try:
            out = self._run(call)
        except (Exception, SystemExit) as exc:
            elapsed = (time.perf_counter() - start) * 1000
            if isinstance(exc, _Hung):
                return Answer("crash", crash=str(exc), duration_ms=elapsed)
            refusal = refusal_of(exc)
            if refusal is not None:
                return Answer("error", error=refusal, duration_ms=elapsed)
            return Answer("crash", crash=describe_crash(exc), duration_ms=elapsed)
        elapsed = (time.perf_counter() - start) * 1000
        problem = json_problem(out)
        if problem is not None:
            return Answer("crash", crash=f"output is not JSON-serialisable: {problem}", duration_ms=elapsed)
        return Answer("payload", payload=out, duration_ms=elapsed)

    def _run(self, call: Any) -> Any:
        """Call with the timeout (in a helper thread: a hung call is abandoned, the run goes on)."""
        if not self.timeout:
            return call()
        box: dict[str, Any] = {}

        def target() -> None:
            try:
                box["out"] = call()
            except BaseException as exc:  # re-raised in the calling thread
                box["exc"] = exc

        thread = threading.Thread(target=target, name="toolwire-translate", daemon=True)
        thread.start()
        thread.join(self.timeout)
        if thread.is_alive():
            raise _Hung(f"the implementation did not answer within {self.timeout:g} s (hung); call abandoned")
        if "exc" in box:
            raise box["exc"]
        return box.get("out")

    def _call(self, kind: str, source: str, target: str, payload: Any, profile: dict[str, str]) -> Any:
        raise NotImplementedError

    def _call_stream(self, source: str, target: str, events: list[Any], profile: dict[str, str]) -> Any:
        raise NotImplementedError


def _mutation(answer: Answer, original: Any, given: Any) -> Answer:
    """``answer`` with ``mutated`` set when ``given`` (the copy handed over) no longer equals ``original``.
    A hung call may still be running: its copy is not looked at."""
    if answer.status != "crash":
        where = first_difference(original, given)
        if where is not None:
            answer.mutated = where or "/"
    return answer


def first_difference(a: Any, b: Any, at: str = "") -> str | None:
    """The JSON Pointer of the first place where ``a`` and ``b`` differ, or None when they are equal."""
    if type(a) is not type(b):
        return at
    if isinstance(a, dict):
        for key in list(a) + [k for k in b if k not in a]:
            if key not in a or key not in b:
                return f"{at}/{str(key).replace('~', '~0').replace('/', '~1')}"
            found = first_difference(a[key], b[key], f"{at}/{str(key).replace('~', '~0').replace('/', '~1')}")
            if found is not None:
                return found
        return None
    if isinstance(a, list):
        for i, (x, y) in enumerate(zip(a, b, strict=False)):
            found = first_difference(x, y, f"{at}/{i}")
            if found is not None:
                return found
        return None if len(a) == len(b) else f"{at}/{min(len(a), len(b))}"
    return None if a == b else at


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


def normalise_capabilities(caps: Any, spec: str) -> dict[str, Any]:
    """Check the shape of a capabilities dict and make it JSON (pairs as lists)."""
    if not isinstance(caps, dict):
        raise AdapterError(f"{spec}: capabilities() must return a dict, got {type(caps).__name__}")
    kinds = caps.get("kinds", {})
    if not isinstance(kinds, dict):
        raise AdapterError(f"{spec}: capabilities 'kinds' must map kinds to lists of [source, target] pairs")
    norm_kinds: dict[str, list[list[str]]] = {}
    for kind, pairs in kinds.items():
        try:
            norm_kinds[str(kind)] = [[str(a), str(b)] for a, b in pairs]
        except (TypeError, ValueError) as exc:
            raise AdapterError(
                f"{spec}: capabilities kinds[{kind!r}] must be a list of [source, target]"
            ) from exc
    profiles = caps.get("profiles", {}) or {}
    if not isinstance(profiles, dict):
        raise AdapterError(f"{spec}: capabilities 'profiles' must map profile keys to lists of values")
    out = dict(caps)
    out["kinds"] = norm_kinds
    out["profiles"] = {
        str(k): [str(v) for v in (vals if isinstance(vals, list | tuple) else [vals])]
        for k, vals in profiles.items()
    }
    problem = json_problem(out)
    if problem:
        raise AdapterError(f"{spec}: capabilities are not JSON: {problem}")
    return out


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


def _peer_spec(spec: str) -> str:
    """``peer:NAME`` → the ``python:`` spec of the bundled adapter for that library (``toolwire.peers``)."""
    from .peers import PEERS, missing_modules

    name = spec.partition(":")[2].strip()
    if name not in PEERS:
        raise AdapterError(f"{spec!r}: unknown peer {name!r} (known: {', '.join(sorted(PEERS))})")
    missing = missing_modules(name)
    if missing:
        raise AdapterError(
            f"{spec}: {', '.join(missing)} not installed; install it with: "
            f"pip install 'toolwire[{PEERS[name][1]}]'"
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
    ``peer:NAME`` (a bundled adapter for another library, :mod:`toolwire.peers`) or
    ``cmd:<command line>`` (a subprocess speaking docs/protocol.md; see :mod:`toolwire.subprocess_adapter`).

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
        )
    if scheme == "python":
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
    if scheme == "cmd":
        from .subprocess_adapter import SubprocessAdapter

        return SubprocessAdapter(spec, rest, timeout=timeout, validate_protocol=validate_protocol, cwd=cwd)
    if scheme == "http":
        from .http_adapter import HttpAdapter

        return HttpAdapter(spec, rest, timeout=timeout, cwd=cwd)
    raise AdapterError(f"{spec!r}: unknown adapter scheme {scheme!r} (python:, cmd:, http:, or 'reference')")
