"""Run an implementation: ``python:pkg.module:obj`` in-process (``reference`` is the bundled one).

An adapter never lets an implementation's exception escape: every call returns an :class:`Answer`.
"""

from __future__ import annotations

import importlib
import os
import queue
import sys
import threading
import time
import traceback
from dataclasses import dataclass, field
from typing import Any, Literal

from ..jsonvalue import first_difference, json_copy, json_problem, same_json
from ..protocol import refusal_of

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
        given = json_copy(payload)
        answer = self._answer(lambda: self._call(kind, source, target, given, dict(profile)))
        return _mutation(answer, payload, given)

    def translate_stream(
        self, source: str, target: str, events: list[Any], profile: dict[str, str]
    ) -> Answer:
        """Translate a stream (list of events); never raises (except KeyboardInterrupt). Like
        :meth:`translate`, the answer says where the implementation changed the events it was handed."""
        given = json_copy(events)
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
        worker = self.__dict__.get("_worker")
        if worker is None or worker.abandoned:
            worker = self.__dict__["_worker"] = _Worker()
        return worker.run(call, self.timeout)

    def _call(self, kind: str, source: str, target: str, payload: Any, profile: dict[str, str]) -> Any:
        raise NotImplementedError

    def _call_stream(self, source: str, target: str, events: list[Any], profile: dict[str, str]) -> Any:
        raise NotImplementedError


class _Worker:
    """A thread that makes the calls of one adapter, one at a time (starting a thread per call costs more
    than most translations). A call that outlives its timeout keeps the worker busy for good: the adapter
    abandons it and starts another."""

    def __init__(self) -> None:
        self.calls: queue.SimpleQueue[tuple[Any, dict[str, Any], threading.Event]] = queue.SimpleQueue()
        self.abandoned = False
        threading.Thread(target=self._serve, name="toolwire-translate", daemon=True).start()

    def _serve(self) -> None:
        while True:
            call, box, done = self.calls.get()
            try:
                box["out"] = call()
            except BaseException as exc:  # re-raised in the calling thread
                box["exc"] = exc
            done.set()

    def run(self, call: Any, timeout: float) -> Any:
        box: dict[str, Any] = {}
        done = threading.Event()
        self.calls.put((call, box, done))
        if not done.wait(timeout):
            self.abandoned = True
            raise _Hung(f"the implementation did not answer within {timeout:g} s (hung); call abandoned")
        if "exc" in box:
            raise box["exc"]
        return box.get("out")


def _mutation(answer: Answer, original: Any, given: Any) -> Answer:
    """``answer`` with ``mutated`` set when ``given`` (the copy handed over) no longer equals ``original``.
    A hung call may still be running: its copy is not looked at."""
    if answer.status != "crash" and not same_json(original, given):
        where = first_difference(original, given)
        if where is not None:
            answer.mutated = where or "/"
    return answer


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
    from ..peers import PEERS, missing_modules

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
    ``cmd:<command line>`` (a subprocess speaking docs/protocol.md; see :mod:`toolwire.adapters.cmd`).

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
        from .cmd import SubprocessAdapter

        return SubprocessAdapter(spec, rest, timeout=timeout, validate_protocol=validate_protocol, cwd=cwd)
    if scheme == "http":
        from .http import HttpAdapter

        return HttpAdapter(spec, rest, timeout=timeout, cwd=cwd)
    raise AdapterError(f"{spec!r}: unknown adapter scheme {scheme!r} (python:, cmd:, http:, or 'reference')")
