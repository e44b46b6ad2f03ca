"""Run an implementation written in any language: ``cmd:<command line>``.

The command is started (``shlex``-split, no shell) and spoken to in the toolwire subprocess protocol
(``docs/protocol.md``, schemas in ``schemas/protocol/``): newline-delimited JSON, one request line on its
stdin, one answer line on its stdout, free-form logs on its stderr.

Whatever the process does, a check gets an :class:`~toolwire.adapters.Answer`: a process that dies (EOF,
exit), hangs (no answer within the timeout) or breaks the protocol (a line that is not JSON, a wrong
``seq`` or ``id``, a malformed or too deeply nested answer, a second answer or any other line after an
answer) gives a ``crash`` answer (the check is ``errored``) whose message ends with the tail of its
stderr; the process is killed, and a new one is started for the next check.

Answers pair strictly with requests: every request message has its own ``id`` (a stream's messages
share its ``seq``), echoed by the answer. A line that answers a request of a check that has already
ended cannot be charged to it any more: it is reported as a :class:`ProtocolWarning` (and kept in
``late_violations``), and the request under way is sent again to a fresh process.
"""

from __future__ import annotations

import atexit
import collections
import contextlib
import json
import os
import queue
import shlex
import signal
import subprocess
import threading
import time
import warnings
import weakref
from pathlib import Path
from typing import Any

from .. import __version__
from ..corpus.wire import validate_file
from ..paths import unlocalize
from .base import DEFAULT_CMD_TIMEOUT, UNSUPPORTED, Adapter, AdapterError, Answer, normalise_capabilities

__all__ = [
    "DEFAULT_CMD_TIMEOUT",
    "PROTOCOL_VERSION",
    "ProtocolFailure",
    "ProtocolWarning",
    "SubprocessAdapter",
]

PROTOCOL_VERSION = 1
#: seconds the process may take to start and answer ``hello`` (at least the check timeout)
STARTUP_TIMEOUT = 30.0
#: after this many failed restarts in a row, checks are errored at once (no more start-up waits)
MAX_FAILED_RESTARTS = 3
#: seconds the process has to exit after ``bye`` before it is killed
BYE_GRACE = 2.0
_STDERR_LINES = 200
_STDERR_TAIL_LINES = 20
_STDERR_TAIL_CHARS = 2000
_SHOWN_LINE_CHARS = 200
_EOF = object()
#: answers may nest arrays and objects this deep (the corpus goes to about 30; deeper answers cannot be
#: judged without running out of Python's recursion limit)
MAX_ANSWER_DEPTH = 200
#: bytes asked of the kernel per read of the process's stdout and stderr
_READ_BLOCK = 1 << 20
#: at most this many bytes of one stderr line are kept
_STDERR_PENDING_MAX = 64 * 1024

_live: weakref.WeakValueDictionary[int, SubprocessAdapter] = weakref.WeakValueDictionary()


class ProtocolFailure(Exception):
    """The process died, hung or broke the protocol: the check is errored and the process restarted."""


class _Hung(ProtocolFailure):
    """No answer within the timeout."""


class _Stale(ProtocolFailure):
    """A line answering a request of an earlier call arrived: that call broke the protocol, not this one."""


class ProtocolWarning(UserWarning):
    """A protocol violation that could not be charged to its check any more (it had ended)."""


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


class _Process:
    """One running implementation: a thread turns its stdout into lines, another keeps its stderr tail."""

    def __init__(self, argv: list[str], cwd: str | None) -> None:
        self.argv = argv
        try:
            self.popen = subprocess.Popen(
                argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                cwd=cwd,
                bufsize=0,
                start_new_session=os.name == "posix",  # its own process group, killed as a whole
            )
        except OSError as exc:
            raise ProtocolFailure(f"cannot start {shlex.join(argv)!r}: {exc}") from exc
        self.lines: queue.Queue[Any] = queue.Queue()
        self.stderr: collections.deque[str] = collections.deque(maxlen=_STDERR_LINES)
        self._stderr_pending = b""  # what it wrote on stderr after its last newline
        self._stdout_pending = b""  # the start of its next stdout line (the first bytes of a long one)
        self._out_lock = threading.Lock()
        #: the requests sent to this process, one entry per adapter call: (its first id, its seq, what)
        self.calls: list[tuple[int, int, str]] = []
        #: it echoed an ``id``: every later answer must carry one
        self.echoes_ids = False
        self._out = threading.Thread(target=self._read_stdout, name="toolwire-cmd-stdout", daemon=True)
        self._err = threading.Thread(target=self._read_stderr, name="toolwire-cmd-stderr", daemon=True)
        self._out.start()
        self._err.start()

    def _read_stdout(self) -> None:
        stream = self.popen.stdout
        assert stream is not None

        def publish(lines: list[bytes], pending: bytes) -> None:
            with self._out_lock:  # the lines and what follows them change together (see leftover())
                for line in lines:
                    self.lines.put(line)
                self._stdout_pending = pending

        tail = self._split_lines(stream.fileno(), publish, None)
        if tail:
            self.lines.put(tail)  # a last line without its newline
        self.lines.put(_EOF)

    def _read_stderr(self) -> None:
        stream = self.popen.stderr
        assert stream is not None

        def keep(lines: list[bytes], pending: bytes) -> None:
            self.stderr.extend(line.decode("utf-8", "replace").rstrip("\r\n") for line in lines)
            self._stderr_pending = pending

        tail = self._split_lines(stream.fileno(), keep, _STDERR_PENDING_MAX)
        keep([tail] if tail else [], b"")

    @staticmethod
    def _split_lines(fd: int, publish: Any, limit: int | None) -> bytes:
        """Read ``fd`` in large blocks until end of file; after each block, ``publish(lines, pending)``:
        the complete lines it ended and the bytes after the last newline. ``limit``: keep at most this
        many bytes of a line (stderr). Returns the bytes after the last newline at end of file."""
        pending = bytearray()
        try:
            while True:
                block = os.read(fd, _READ_BLOCK)
                if not block:
                    break
                lines: list[bytes] = []
                start = 0
                while (end := block.find(b"\n", start)) >= 0:
                    if pending:
                        pending += block[start : end + 1]
                        line = bytes(pending)
                        pending.clear()
                    else:
                        line = block[start : end + 1]
                    lines.append(line[:limit] if limit is not None else line)
                    start = end + 1
                if start < len(block):
                    if limit is None:
                        pending += block[start:]
                    elif len(pending) < limit:
                        pending += block[start : start + limit - len(pending)]
                publish(lines, bytes(pending[:4096]))  # never copy a long line's start whole
        except (OSError, ValueError):
            pass
        return bytes(pending)

    def leftover(self) -> str | None:
        """A non-blank line (or part of one) the process has written and nobody asked for yet, shown; None
        when there is none. Blank lines are dropped; the end of stdout stays for :meth:`receive`."""
        with self._out_lock:
            while True:
                try:
                    raw = self.lines.get_nowait()
                except queue.Empty:
                    break
                if raw is _EOF:
                    self.lines.put(_EOF)  # the last item: receive() reports it
                    break
                if raw.strip():
                    return _shown(raw)
            if self._stdout_pending.strip():
                return _shown(self._stdout_pending) + " (without its newline yet)"
        return None

    @property
    def pid(self) -> int:
        return self.popen.pid

    def send(self, message: dict[str, Any], deadline: float | None) -> None:
        """Write one line; a write that blocks past the deadline counts as a hang."""
        data = (json.dumps(message, ensure_ascii=True, separators=(",", ":")) + "\n").encode("ascii")
        stdin = self.popen.stdin
        assert stdin is not None
        if len(data) <= 16384 or deadline is None:
            self._write(stdin, data)
            return
        # a big line can fill the pipe if the process is not reading: write it from a helper thread
        box: dict[str, BaseException] = {}

        def write() -> None:
            try:
                self._write(stdin, data)
            except BaseException as exc:
                box["exc"] = exc

        writer = threading.Thread(target=write, name="toolwire-cmd-stdin", daemon=True)
        writer.start()
        writer.join(max(0.0, deadline - time.monotonic()))
        if writer.is_alive():
            raise _Hung("it stopped reading its stdin")
        if "exc" in box:
            raise box["exc"]

    @staticmethod
    def _write(stdin: Any, data: bytes) -> None:
        view = memoryview(data)
        try:
            while view:  # an unbuffered write may take only part of a big line
                written = stdin.write(view)
                view = view[written or 0 :]
            stdin.flush()
        except (OSError, ValueError) as exc:
            raise ProtocolFailure(f"cannot write to its stdin ({type(exc).__name__}: {exc})") from exc

    def receive(self, deadline: float | None, what: str) -> dict[str, Any]:
        """The next non-blank stdout line as a JSON object."""
        while True:
            wait = None if deadline is None else max(0.0, deadline - time.monotonic())
            try:
                raw = self.lines.get(timeout=wait)
            except queue.Empty:
                raise _Hung(f"waiting for {what}") from None
            if raw is _EOF:
                try:
                    status = self.popen.wait(timeout=1.0)
                    raise ProtocolFailure(f"it exited with status {status} before answering ({what})")
                except subprocess.TimeoutExpired:
                    raise ProtocolFailure(f"it closed its stdout before answering ({what})") from None
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError:
                raise ProtocolFailure(f"it wrote a line that is not UTF-8: {_shown(raw)}") from None
            if not text.strip():
                continue  # blank lines are tolerated
            try:
                message = json.loads(text, parse_constant=_reject_constant)
            except RecursionError:
                raise _too_deep(text, what) from None
            except ValueError as exc:
                raise ProtocolFailure(
                    f"it wrote a line that is not JSON ({exc}) where {what} was expected: {_shown(text)}"
                ) from None
            if _deeper_than(message, MAX_ANSWER_DEPTH, text):
                raise _too_deep(text, what)
            if not isinstance(message, dict):
                raise ProtocolFailure(
                    f"it wrote {type(message).__name__} JSON where {what} (an object) "
                    f"was expected: {_shown(text)}"
                )
            return message

    def stderr_tail(self) -> str:
        """The last lines the process wrote on stderr (after it has ended, everything it wrote)."""
        if self.popen.poll() is not None:
            self._err.join(1.0)
        lines = list(self.stderr)[-_STDERR_TAIL_LINES:]
        if self._stderr_pending.strip():
            lines = [*lines[1 - _STDERR_TAIL_LINES :], self._stderr_pending.decode("utf-8", "replace")]
        text = "\n".join(lines)
        if len(text) > _STDERR_TAIL_CHARS:
            text = "…" + text[-_STDERR_TAIL_CHARS:]
        return text

    def kill(self) -> None:
        """Kill the process and its process group (a wrapper's children too); keep what it wrote."""
        with contextlib.suppress(OSError):
            if os.name == "posix":
                os.killpg(self.popen.pid, signal.SIGKILL)
            elif self.popen.poll() is None:
                self.popen.kill()
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.popen.wait(timeout=5.0)
        self._out.join(1.0)  # let the readers drain the pipes before they are closed
        self._err.join(1.0)
        self._close_pipes()

    def bye(self) -> None:
        """Say ``bye``, close stdin, give the process :data:`BYE_GRACE` seconds to exit, then kill it."""
        if self.popen.poll() is None:
            with contextlib.suppress(ProtocolFailure):
                self._write(self.popen.stdin, b'{"cmd":"bye"}\n')
            try:
                assert self.popen.stdin is not None
                self.popen.stdin.close()
            except OSError:
                pass
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.popen.wait(timeout=BYE_GRACE)
        self.kill()

    def _close_pipes(self) -> None:
        for stream in (self.popen.stdin, self.popen.stdout, self.popen.stderr):
            try:
                if stream is not None:
                    stream.close()
            except OSError:
                pass


def _shown(line: str | bytes) -> str:
    line = line[: _SHOWN_LINE_CHARS * 4 + 2]  # never copy a huge line whole
    if isinstance(line, bytes):
        line = line.decode("utf-8", "replace")
    line = unlocalize(line.rstrip("\r\n"))  # before the cut, so that it falls in one place on every machine
    return repr(line if len(line) <= _SHOWN_LINE_CHARS else line[:_SHOWN_LINE_CHARS] + "…")


def _too_deep(text: str, what: str) -> ProtocolFailure:
    return ProtocolFailure(
        f"its answer is nested too deeply: more than {MAX_ANSWER_DEPTH} levels of arrays and objects "
        f"(toolwire reads answers up to {MAX_ANSWER_DEPTH} levels deep) where {what} was expected: "
        f"{_shown(text)}"
    )


def _deeper_than(value: Any, limit: int, text: str) -> bool:
    """Whether ``value`` (parsed from ``text``) nests arrays and objects more than ``limit`` levels deep."""
    if text.count("[") + text.count("{") <= limit:
        return False  # not even that many containers: the common case, at the cost of two scans
    level = [value] if isinstance(value, dict | list) else []
    depth = 0
    while level:
        depth += 1
        if depth > limit:
            return True
        below: list[Any] = []
        for node in level:
            items = node.values() if isinstance(node, dict) else node
            below.extend(v for v in items if isinstance(v, dict | list))
        level = below
    return False


def _is_seq(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


class SubprocessAdapter(Adapter):
    """An implementation in a subprocess speaking the toolwire protocol (``cmd:<command line>``).

    ``timeout``: seconds a check may take (None or 0: no limit). ``validate_protocol``: validate every
    answer against ``schemas/protocol/`` (else only the structure the harness needs is checked).
    ``cwd``: where the process starts (default: the current directory).
    """

    def __init__(
        self,
        spec: str,
        command: str,
        *,
        timeout: float | None = DEFAULT_CMD_TIMEOUT,
        validate_protocol: bool = False,
        cwd: str | os.PathLike[str] | None = None,
    ) -> None:
        try:
            argv = shlex.split(command)
        except ValueError as exc:
            raise AdapterError(f"{spec}: cannot split the command line: {exc}") from exc
        if not argv:
            raise AdapterError(f"{spec!r}: expected cmd:<command line>, e.g. cmd:node my-harness.mjs")
        self.argv = argv
        self.cwd = str(Path(cwd).resolve()) if cwd is not None else None
        self.validate_protocol = validate_protocol
        self.timeout = timeout
        self.restarts = 0
        self._proc: _Process | None = None
        self._id = 0  # the last request id (and seq) handed out: one counter for both
        #: protocol violations noticed after the check that made them had ended (also warned)
        self.late_violations: list[str] = []
        self._lock = threading.RLock()
        self._closed = False
        self._failed_restarts = 0
        self._last_restart_failure = ""
        try:
            caps = self._start()
        except ProtocolFailure as exc:
            raise AdapterError(f"{spec}: {exc}") from exc
        super().__init__(spec=spec, capabilities=caps, timeout=timeout)
        _live[id(self)] = self

    # -- process lifecycle ------------------------------------------------------------------------------
    def _start(self) -> dict[str, Any]:
        """Start the process, say hello, return its normalised capabilities (raises ProtocolFailure)."""
        proc = _Process(self.argv, self.cwd)
        limit = max(STARTUP_TIMEOUT, self.timeout or 0) if self.timeout else None
        deadline = None if limit is None else time.monotonic() + limit
        try:
            proc.send({"cmd": "hello", "protocol": PROTOCOL_VERSION, "toolwire": __version__}, deadline)
            answer = proc.receive(deadline, "the hello answer")
            caps = self._capabilities(answer)
        except ProtocolFailure as exc:
            proc.kill()
            if isinstance(exc, _Hung):
                exc = _Hung(f"it did not answer hello within {limit:g} s")
            raise ProtocolFailure(self._explain(exc, proc, started=True)) from None
        self._proc = proc
        return caps

    def _capabilities(self, answer: dict[str, Any]) -> dict[str, Any]:
        self._validate(answer, "hello-answer")
        version = answer.get("protocol")
        if version != PROTOCOL_VERSION:
            raise ProtocolFailure(
                f"it speaks protocol {version!r}; this harness speaks protocol {PROTOCOL_VERSION}"
            )
        impl = answer.get("implementation")
        if not isinstance(impl, dict) or not isinstance(impl.get("capabilities"), dict):
            raise ProtocolFailure(
                "the hello answer needs implementation: {name, version, language, capabilities: {kinds, "
                f"profiles}}; got {_shown(json.dumps(answer))}"
            )
        caps = {k: impl[k] for k in ("name", "version", "language") if isinstance(impl.get(k), str)}
        caps.update(impl["capabilities"])
        try:
            return normalise_capabilities(caps, "hello answer")
        except AdapterError as exc:
            raise ProtocolFailure(str(exc)) from None

    def _process(self) -> _Process:
        if self._closed:
            raise ProtocolFailure("the adapter is closed")
        if self._proc is None:
            if self._failed_restarts >= MAX_FAILED_RESTARTS:
                raise ProtocolFailure(
                    f"restarting it failed: given up after {self._failed_restarts} failed restarts in a "
                    f"row; the last one: {self._last_restart_failure}"
                )
            self.restarts += 1
            try:
                self._start()
            except ProtocolFailure as exc:
                self._failed_restarts += 1
                self._last_restart_failure = str(exc)
                raise ProtocolFailure(f"restarting it failed: {exc}") from None
            self._failed_restarts = 0
        assert self._proc is not None
        return self._proc

    def _explain(self, exc: ProtocolFailure, proc: _Process | None, *, started: bool = False) -> str:
        head = f"the implementation {shlex.join(self.argv)!r}" + (f" (pid {proc.pid})" if proc else "")
        if started:
            head += f" did not start: {exc}"
        elif isinstance(exc, _Hung):
            head += f" did not answer within {self.timeout:g} s (hung: {exc})"
        else:
            head += f" died or broke the protocol: {exc}"
        if not started:
            head += "; it was killed and a new process serves the next check"
        tail = proc.stderr_tail() if proc is not None else ""
        return head + ("\n--- its stderr (last lines) ---\n" + tail if tail else "\n(nothing on its stderr)")

    def _fail(self, exc: ProtocolFailure) -> str:
        """Kill the process after a failure; the message for the check."""
        proc, self._proc = self._proc, None
        if proc is not None:
            proc.kill()
        if str(exc).startswith("restarting it failed"):
            return f"the implementation {shlex.join(self.argv)!r} could not be run: {exc}"
        return self._explain(exc, proc)

    def close(self) -> None:
        """Say bye and end the process (idempotent). A line it wrote after its last answer, which no next
        request could notice, is a late violation (read once the process has ended: every time)."""
        with self._lock:
            self._closed = True
            proc, self._proc = self._proc, None
        if proc is None:
            return
        proc.bye()
        extra = proc.leftover()
        if extra is not None:
            last = f"its answer to {proc.calls[-1][2]}" if proc.calls else "its last answer"
            text = (
                f"the implementation {shlex.join(self.argv)!r} (pid {proc.pid}) broke the protocol: it wrote "
                f"another line after {last}: {extra}; noticed when it was closed"
            )
            self.late_violations.append(text)
            warnings.warn(text, ProtocolWarning, stacklevel=2)

    # -- messages ---------------------------------------------------------------------------------------
    def _validate(self, message: dict[str, Any], schema: str) -> None:
        if not self.validate_protocol:
            return
        rel = f"protocol/{schema}.schema.json"
        errors = validate_file(rel, message)
        if errors:
            raise ProtocolFailure(
                f"its answer is invalid for schemas/{rel}: {'; '.join(errors[:5])}; "
                f"answer: {_shown(json.dumps(message, ensure_ascii=False))}"
            )

    def _check_answer(
        self, proc: _Process, answer: dict[str, Any], request: dict[str, Any], first: int, what: str
    ) -> None:
        """Pair ``answer`` with ``request`` (the call's first request had id ``first``): a line answering
        an earlier request of this call is this call's fault; one answering a request of an earlier call
        (sent to this process) is :class:`_Stale`, that call's fault."""
        rid, seq = request["id"], request["seq"]
        if "id" in answer:
            got = answer["id"]
            if got == rid:
                proc.echoes_ids = True
            elif _is_seq(got) and first <= got < rid:
                raise ProtocolFailure(
                    f"it answered id {got} (an earlier message of {what}) again where the answer to id "
                    f"{rid} was expected: {_shown(json.dumps(answer))}"
                )
            elif _is_seq(got) and self._call_of(proc, got, by_id=True) is not None:
                raise _Stale(self._stale_text(proc, got, answer, by_id=True))
            else:
                raise ProtocolFailure(
                    f"it answered with id {got!r} to request id {rid} ({what}): {_shown(json.dumps(answer))}"
                )
        elif proc.echoes_ids:
            raise ProtocolFailure(
                f"its answer has no id (its earlier answers echoed theirs; {what}, id {rid}): "
                f"{_shown(json.dumps(answer))}"
            )
        got = answer.get("seq")
        if not _is_seq(got) or got != seq:
            if "id" not in answer and _is_seq(got) and self._call_of(proc, got, by_id=False) is not None:
                raise _Stale(self._stale_text(proc, got, answer, by_id=False))
            raise ProtocolFailure(
                f"it answered with seq {got!r} to request seq {seq}: {_shown(json.dumps(answer))}"
            )
        schema, result_key = (
            ("translate-answer", "payload") if request["cmd"] == "translate" else ("stream-answer", "events")
        )
        self._validate(answer, schema)
        present = [k for k in (result_key, "error", "crash") if k in answer]
        if len(present) != 1:
            raise ProtocolFailure(
                f"an answer needs exactly one of {result_key!r}, 'error', 'crash'; got "
                f"{present or 'none'}: {_shown(json.dumps(answer))}"
            )
        if "error" in answer:
            err = answer["error"]
            if (
                not isinstance(err, dict)
                or not isinstance(err.get("code"), str)
                or not err["code"]
                or not isinstance(err.get("message", ""), str)
                or not isinstance(err.get("path"), str | None)
            ):
                raise ProtocolFailure(
                    "'error' must be {code: string, message: string, path: string or null}; got "
                    + _shown(json.dumps(err))
                )
        if result_key == "events" and "events" in answer and not isinstance(answer["events"], list):
            raise ProtocolFailure(f"'events' must be a list; got {_shown(json.dumps(answer['events']))}")

    @staticmethod
    def _call_of(proc: _Process, number: int, *, by_id: bool) -> str | None:
        """The earlier call (sent to ``proc``, ended) that request id (or seq) ``number`` belonged to."""
        *earlier, (current, _, _) = proc.calls
        if by_id and (not earlier or not earlier[0][0] <= number < current):
            return None
        for first, seq, what in reversed(earlier):
            if (by_id and number >= first) or (not by_id and number == seq):
                return what
        return None

    def _stale_text(self, proc: _Process, number: int, answer: dict[str, Any], *, by_id: bool) -> str:
        what = self._call_of(proc, number, by_id=by_id)
        key = "id" if by_id else "seq"
        return (
            f"it answered {what} ({key} {number}) once more after that request had its answer: "
            f"{_shown(json.dumps(answer))}"
        )

    def _exchange(
        self, request: dict[str, Any], deadline: float | None, first: int, what: str
    ) -> dict[str, Any]:
        """Send one request, return its answer, checked; anything else it writes is a protocol error."""
        proc = self._process()
        if request["id"] == first:  # a new call: the channel must be clean
            proc.calls.append((first, request["seq"], what))
            extra = proc.leftover()
            if extra is not None:
                if len(proc.calls) > 1:
                    earlier = proc.calls[-2][2]
                    raise _Stale(f"it wrote another line after its answer to {earlier}: {extra}")
                raise ProtocolFailure(f"it wrote a line nobody asked for before {what}: {extra}")
        proc.send(request, deadline)
        label = f"the answer to {what}" + (
            f", message id {request['id']}" if request["cmd"] == "stream" else ""
        )
        answer = proc.receive(deadline, label)
        self._check_answer(proc, answer, request, first, what)
        extra = proc.leftover()
        if extra is not None:
            raise ProtocolFailure(f"it wrote another line after {label}: {extra}")
        return answer

    def _next_id(self) -> int:
        self._id += 1
        return self._id

    def _deadline(self) -> float | None:
        return time.monotonic() + self.timeout if self.timeout else None

    @staticmethod
    def _refusal_or_crash(answer: dict[str, Any], elapsed: float) -> Answer:
        if "crash" in answer:
            text = answer["crash"] if isinstance(answer["crash"], str) else json.dumps(answer["crash"])
            return Answer("crash", crash=f"the implementation reported a crash: {text}", duration_ms=elapsed)
        err = answer["error"]
        refusal = {"code": err["code"], "message": err.get("message", ""), "path": err.get("path")}
        if refusal["code"] == UNSUPPORTED:  # no counterpart for this input: skipped, not a crash
            return Answer.unsupported(str(refusal["message"] or ""), duration_ms=elapsed)
        if refusal["code"].startswith("protocol."):
            return Answer(
                "crash",
                crash=f"the implementation could not process the request: {refusal['code']}: "
                f"{refusal['message']}",
                duration_ms=elapsed,
            )
        return Answer("error", error=refusal, duration_ms=elapsed)

    def _abandon(self, exc: _Stale) -> None:
        """An earlier call's extra answer showed up during this one: kill the process (this call runs
        again on a fresh one) and report the violation, which no check can be charged with any more."""
        proc, self._proc = self._proc, None
        if proc is not None:
            proc.kill()
        text = (
            f"the implementation {shlex.join(self.argv)!r}"
            + (f" (pid {proc.pid})" if proc else "")
            + f" broke the protocol: {exc}; noticed during the next request, which was sent again to a "
            "new process"
        )
        self.late_violations.append(text)
        warnings.warn(text, ProtocolWarning, stacklevel=3)

    # -- the Adapter interface --------------------------------------------------------------------------
    def translate(self, kind: str, source: str, target: str, payload: Any, profile: dict[str, str]) -> Answer:
        """One ``translate`` request; never raises (except KeyboardInterrupt)."""
        start = time.perf_counter()
        with self._lock:
            while True:  # at most twice: a fresh process cannot answer an earlier request
                number = self._next_id()
                message = {
                    "cmd": "translate",
                    "seq": number,
                    "id": number,
                    "kind": kind,
                    "source": source,
                    "target": target,
                    "profile": dict(profile),
                    "payload": payload,
                }
                what = f"translate seq {number} ({kind} {source} -> {target})"
                try:
                    answer = self._exchange(message, self._deadline(), number, what)
                except _Stale as exc:
                    self._abandon(exc)
                    continue
                except ProtocolFailure as exc:
                    return Answer("crash", crash=self._fail(exc), duration_ms=_ms(start))
                except (TypeError, ValueError) as exc:  # the payload is not JSON: the harness's fault
                    return Answer("crash", crash=f"toolwire harness error: {exc}", duration_ms=_ms(start))
                break
        if "payload" in answer:
            return Answer("payload", payload=answer["payload"], duration_ms=_ms(start))
        return self._refusal_or_crash(answer, _ms(start))

    def translate_stream(
        self, source: str, target: str, events: list[Any], profile: dict[str, str]
    ) -> Answer:
        """A stream, one event at a time; the answer's payload is every produced event, in order."""
        return self.stream(source, target, events, profile)[0]

    def translate_stream_steps(
        self, source: str, target: str, events: list[Any], profile: dict[str, str]
    ) -> Answer:
        """The stream, one event at a time; the payload is the list of event batches the process answered
        after each input event and after the end (``len(events) + 1`` lists), for the incrementality check
        (``toolwire.judge.streams``)."""
        answer, batches = self.stream(source, target, events, profile)
        if answer.status != "payload":
            return answer
        return Answer("payload", payload=batches, duration_ms=answer.duration_ms)

    def stream(
        self, source: str, target: str, events: list[Any], profile: dict[str, str]
    ) -> tuple[Answer, list[list[Any]]]:
        """A stream, one event at a time, and the events produced after each input event and after the
        end (``len(events) + 1`` batches when the stream completes), so incrementality can be judged.
        The stream has one ``seq``; each of its messages has its own ``id``."""
        start = time.perf_counter()
        with self._lock:
            while True:  # at most twice, as in translate()
                try:
                    answer, batches = self._stream_once(source, target, events, profile, start)
                except _Stale as exc:
                    self._abandon(exc)
                    continue
                return answer, batches

    def _stream_once(
        self, source: str, target: str, events: list[Any], profile: dict[str, str], start: float
    ) -> tuple[Answer, list[list[Any]]]:
        batches: list[list[Any]] = []
        seq = self._next_id()
        deadline = self._deadline()
        head = {"cmd": "stream", "seq": seq, "source": source, "target": target, "profile": dict(profile)}
        what = f"stream seq {seq} ({source} -> {target})"
        try:
            for index in range(len(events) + 1):
                body = {"event": events[index]} if index < len(events) else {"end": True}
                message = {**head, "id": seq if index == 0 else self._next_id(), **body}
                answer = self._exchange(message, deadline, seq, what)
                if "events" not in answer:
                    return self._refusal_or_crash(answer, _ms(start)), batches
                batches.append(answer["events"])
        except _Stale:
            raise
        except ProtocolFailure as exc:
            return Answer("crash", crash=self._fail(exc), duration_ms=_ms(start)), batches
        except (TypeError, ValueError) as exc:
            text = f"toolwire harness error: {exc}"
            return Answer("crash", crash=text, duration_ms=_ms(start)), batches
        produced = [event for batch in batches for event in batch]
        return Answer("payload", payload=produced, duration_ms=_ms(start)), batches


def _ms(start: float) -> float:
    return (time.perf_counter() - start) * 1000


@atexit.register
def _close_all() -> None:  # processes left open (no session end): say bye rather than orphan them
    for adapter in list(_live.values()):
        with contextlib.suppress(Exception):
            adapter.close()
