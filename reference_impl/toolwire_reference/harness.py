"""The reference translator behind toolwire's subprocess protocol: ``python -m toolwire_reference.harness``.

Reads one JSON request per line on stdin and writes one JSON answer per line on stdout (protocol v1,
``docs/protocol.md``); logs go to stderr. Run the corpus through it with
``toolwire run --adapter "cmd:python -m toolwire_reference.harness"``. Standard library only.

Streams: the events of a stream are collected and translated at its end with
``Translator.translate_stream``; until the reference translates streams, a stream is answered with a
``protocol.unsupported`` error (it declares no ``stream`` kind, so the harness never sends one).
"""

from __future__ import annotations

import json
import sys
import traceback
from typing import Any, BinaryIO, TextIO

from .errors import TranslationError
from .translator import Translator

PROTOCOL = 1

__all__ = ["PROTOCOL", "Session", "main"]


def _error(code: str, message: str, path: str | None = None) -> dict[str, Any]:
    return {"code": code, "message": message, "path": path}


class Session:
    """Protocol state: the translator and the streams under way (seq -> collected events)."""

    def __init__(self, translator: Translator | None = None) -> None:
        self.translator = translator or Translator()
        self.streams: dict[int, list[Any]] = {}

    def hello(self, message: dict[str, Any]) -> dict[str, Any]:
        caps = self.translator.capabilities()
        return {
            "protocol": PROTOCOL,
            "implementation": {
                "name": caps["name"],
                "version": caps["version"],
                "language": "python",
                "capabilities": {"kinds": caps["kinds"], "profiles": caps["profiles"]},
            },
        }

    def translate(self, message: dict[str, Any]) -> dict[str, Any]:
        seq = message["seq"]
        try:
            payload = self.translator.translate(
                message["kind"], message["source"], message["target"], message["payload"], message["profile"]
            )
        except TranslationError as exc:
            return {"seq": seq, "error": _error(exc.code, exc.message, exc.path)}
        return {"seq": seq, "payload": payload}

    def stream(self, message: dict[str, Any]) -> dict[str, Any]:
        seq = message["seq"]
        events = self.streams.setdefault(seq, [])
        if not message.get("end"):
            events.append(message["event"])
            return {"seq": seq, "events": []}
        del self.streams[seq]
        try:
            out = self.translator.translate_stream(
                message["source"], message["target"], events, message["profile"]
            )
        except NotImplementedError as exc:
            text = str(exc) or "streams are not supported"
            return {"seq": seq, "error": _error("protocol.unsupported", text)}
        except TranslationError as exc:
            return {"seq": seq, "error": _error(exc.code, exc.message, exc.path)}
        return {"seq": seq, "events": list(out)}

    def handle(self, message: Any) -> dict[str, Any] | None:
        """The answer to one request (None for ``bye`` and for lines that cannot be answered)."""
        if not isinstance(message, dict):
            print(f"toolwire_reference.harness: ignoring a request that is not an object: {message!r}",
                  file=sys.stderr)
            return None
        cmd = message.get("cmd")
        if cmd == "hello":
            return self.hello(message)
        seq = message.get("seq")
        try:
            if cmd == "translate":
                return self.translate(message)
            if cmd == "stream":
                return self.stream(message)
            return {"seq": seq, "error": _error("protocol.unsupported", f"unknown command {cmd!r}")}
        except KeyError as exc:
            return {"seq": seq, "error": _error("protocol.bad_request", f"the request lacks {exc}")}
        except Exception:
            return {"seq": seq, "crash": traceback.format_exc()}


def main(stdin: BinaryIO | None = None, stdout: BinaryIO | None = None, log: TextIO | None = None) -> int:
    """Serve requests until ``bye`` or the end of stdin; returns the exit status."""
    inp = stdin if stdin is not None else sys.stdin.buffer
    log = log if log is not None else sys.stderr
    if stdout is None:
        out = sys.stdout.buffer
        sys.stdout = sys.stderr  # stdout carries protocol lines only: stray prints go to stderr
    else:
        out = stdout
    session = Session()
    for raw in inp:
        line = raw.strip()
        if not line:
            continue
        try:
            message = json.loads(line)
        except ValueError as exc:
            print(f"toolwire_reference.harness: ignoring a line that is not JSON ({exc})", file=log)
            continue
        if isinstance(message, dict) and message.get("cmd") == "bye":
            return 0
        answer = session.handle(message)
        if answer is None:
            continue
        out.write(json.dumps(answer, ensure_ascii=True, separators=(",", ":")).encode("ascii") + b"\n")
        out.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
