"""What every adapter shares: :class:`Adapter` (timeouts, copies of the input, crashes caught), the
:class:`Answer` it gives, :class:`AdapterError`, and the checks of a declared capabilities dict.

An adapter never lets an implementation's exception escape: every call returns an :class:`Answer`.
"""

from __future__ import annotations

import queue
import threading
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from ..jsonvalue import first_difference, json_copy, json_problem, same_json
from ..protocol import UNSUPPORTED, refusal_of

__all__ = [
    "DEFAULT_CMD_TIMEOUT",
    "DEFAULT_TIMEOUT",
    "UNSUPPORTED",
    "Adapter",
    "AdapterError",
    "Answer",
    "describe_crash",
    "normalise_capabilities",
]

_TRACEBACK_FRAMES = 6
#: the adapter machinery's own frames, left out of a crash's traceback: this module, the in-process
#: adapter that calls the implementation, and the ``cmd:`` and ``http:`` adapters, whose crash messages
#: describe another process (a frame of theirs says nothing about it, and its line number would change
#: published results with every edit of the harness)
_OWN_FILES = frozenset(
    {__file__, *(str(Path(__file__).with_name(n)) for n in ("inprocess.py", "cmd.py", "http.py"))}
)
DEFAULT_TIMEOUT = 30.0
#: the default for ``cmd:`` adapters (a process answers fast, or is hung)
DEFAULT_CMD_TIMEOUT = 10.0


class _Hung(Exception):
    """The implementation did not answer in time."""


class AdapterError(Exception):
    """The adapter spec is wrong, or the implementation cannot be loaded or describe itself."""


@dataclass
class Answer:
    """What an implementation answered: a payload, a coded refusal, a crash (no judgement possible), or
    ``unsupported``: it has no counterpart for this input (``protocol.unsupported``; the check is skipped,
    with :attr:`reason` as its message: nothing was translated, so nothing can be judged)."""

    status: Literal["payload", "error", "crash", "unsupported"]
    payload: Any = None
    error: dict[str, Any] | None = None
    crash: str | None = None
    duration_ms: float = 0.0
    #: where the implementation changed the payload it was handed (a JSON Pointer), when it did
    mutated: str | None = None
    #: why the implementation has no counterpart (status ``unsupported``), in its own words
    reason: str | None = None
    #: for a crash that is an exception the implementation raised in process, its type's name
    raised: str | None = None

    @classmethod
    def unsupported(cls, message: str, duration_ms: float = 0.0) -> Answer:
        """The answer of an implementation that has no counterpart for the input (``protocol.unsupported``
        with ``message``)."""
        reason = f"{UNSUPPORTED}: {message}" if message else UNSUPPORTED
        return cls("unsupported", reason=reason, duration_ms=duration_ms)


#: the most of an exception's own message a crash keeps: three 50 MB messages made a 150 MB results file
CRASH_MESSAGE_LIMIT = 10_000


def describe_crash(exc: BaseException) -> str:
    """Exception type and message (at most :data:`CRASH_MESSAGE_LIMIT` characters of it), then the innermost
    frames of the traceback."""
    head = (
        f"{type(exc).__module__}.{type(exc).__qualname__}"
        if type(exc).__module__ != "builtins"
        else type(exc).__qualname__
    )
    text = f"{head}: {_message_of(exc)}".rstrip()
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if f.filename not in _OWN_FILES]
    if frames:
        shown = "".join(traceback.format_list(frames[-_TRACEBACK_FRAMES:])).rstrip()
        text += "\nTraceback (innermost last):\n" + shown
    return text


def _message_of(exc: BaseException) -> str:
    """``str(exc)``, cut to :data:`CRASH_MESSAGE_LIMIT` characters; an exception whose ``__str__`` raises is
    still the implementation's crash, not the harness's."""
    try:
        said = str(exc)
    except Exception as err:
        return f"(its message could not be read: str() raised {type(err).__name__})"
    if len(said) <= CRASH_MESSAGE_LIMIT:
        return said
    return f"{said[:CRASH_MESSAGE_LIMIT]}… (cut: {len(said):,} characters)"


def _builtin_base(exc: BaseException) -> str:
    """The name of the nearest built-in class of ``exc`` (a library's ``KeyError`` subclass is a KeyError)."""
    for cls in type(exc).__mro__:
        if cls.__module__ == "builtins":
            return cls.__name__
    return type(exc).__name__


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

    def logged_secrets(self) -> list[str]:
        """The keys the implementation wrote into its own log so far, by what they are (never their values);
        [] where the adapter neither knows keys nor sees a log (only a proxy's recipe knows both)."""
        return []

    def _answer(self, call: Any) -> Answer:
        start = time.perf_counter()
        try:
            out = self._run(call)
        except KeyboardInterrupt:
            raise  # raised in this thread: it may be the user's Ctrl-C (see _Worker.run for the helper's)
        except BaseException as exc:  # noqa: BLE001 - whatever the implementation raised is its crash
            exc = exc.raised if isinstance(exc, _RaisedInHelper) else exc
            elapsed = (time.perf_counter() - start) * 1000
            if isinstance(exc, _Hung):
                return Answer("crash", crash=str(exc), duration_ms=elapsed)
            refusal = refusal_of(exc)
            if refusal is not None and refusal["code"] == UNSUPPORTED:
                return Answer.unsupported(str(refusal.get("message") or ""), duration_ms=elapsed)
            if refusal is not None:
                return Answer("error", error=refusal, duration_ms=elapsed)
            return Answer("crash", crash=describe_crash(exc), duration_ms=elapsed, raised=_builtin_base(exc))
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
            exc = box["exc"]
            # signals reach the main thread only: an interrupt raised here is the implementation's own
            raise _RaisedInHelper(exc) if isinstance(exc, KeyboardInterrupt) else exc
        return box.get("out")


class _RaisedInHelper(Exception):
    """A ``KeyboardInterrupt`` the implementation raised in the helper thread: its crash, not Ctrl-C."""

    def __init__(self, raised: BaseException) -> None:
        super().__init__(raised)
        self.raised = raised


def _mutation(answer: Answer, original: Any, given: Any) -> Answer:
    """``answer`` with ``mutated`` set when ``given`` (the copy handed over) no longer equals ``original``.
    A hung call may still be running: its copy is not looked at."""
    if answer.status != "crash" and not same_json(original, given):
        where = first_difference(original, given)
        if where is not None:
            answer.mutated = where or "/"
    return answer


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
