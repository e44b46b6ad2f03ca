"""The reference translator behind toolwire's subprocess protocol: ``python -m toolwire_reference.harness``.

Reads one JSON request per line on stdin and writes one JSON answer per line on stdout (protocol v1,
``docs/protocol.md``); logs go to stderr. Run the corpus through it with
``toolwire run --adapter "cmd:python -m toolwire_reference.harness"``. Standard library only.

Streams go through the reference's incremental transcoder (``transcode.StreamTranscoder``): each input
event is answered with the events it made ready, the end of the stream with what ``close()`` flushes.
"""

from __future__ import annotations

import json
import sys
import traceback
from typing import Any, BinaryIO, TextIO

from .errors import TranslationError
from .transcode import StreamTranscoder
from .translator import Translator

PROTOCOL = 1

__all__ = ["PROTOCOL", "Session", "main"]


_REQUIRED = {
    "translate": ("seq", "kind", "source", "target", "profile", "payload"),
    "stream": ("seq", "source", "target", "profile"),
}


def _error(code: str, message: str, path: str | None = None) -> dict[str, Any]:
    return {"code": code, "message": message, "path": path}


class Session:
    """Protocol state: the translator and the streams under way (seq -> transcoder)."""

    def __init__(self, translator: Translator | None = None) -> None:
        self.translator = translator or Translator()
        self.streams: dict[Any, Any] = {}

    def hello(self, message: dict[str, Any]) -> dict[str, Any]:
        caps = self.translator.capabilities()
        return {
            "protocol": PROTOCOL,
            "implementation": {
                "name": caps["name"],
                "version": caps["version"],
                "language": "python",
                "capabilities": {
                    "kinds": caps["kinds"],
                    "profiles": caps["profiles"],
                    "error_codes": caps["error_codes"],
                    "validates_input": caps["validates_input"],
                },
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
        try:
            transcoder = self.streams.get(seq)
            if transcoder is None:
                transcoder = self.streams[seq] = self.transcoder(
                    message["source"], message["target"], message["profile"]
                )
            if message.get("end"):
                del self.streams[seq]
                return {"seq": seq, "events": list(transcoder.close())}
            return {"seq": seq, "events": list(transcoder.feed(message["event"]))}
        except TranslationError as exc:
            self.streams.pop(seq, None)
            return {"seq": seq, "error": _error(exc.code, exc.message, exc.path)}

    def forget(self, seq: Any) -> None:
        """Drop the state of stream ``seq`` (after an error: toolwire sends nothing more for it)."""
        if isinstance(seq, int):
            self.streams.pop(seq, None)

    @staticmethod
    def transcoder(source: str, target: str, profile: dict[str, str]) -> Any:
        """An incremental stream translator: ``feed(event) -> events``, ``close() -> events``."""
        return StreamTranscoder(source, target, profile)

    def handle(self, message: Any) -> dict[str, Any] | None:
        """The answer to one request (None for ``bye`` and for lines that cannot be answered); it echoes
        the request's ``id``, so toolwire can tell which request each answer answers."""
        answer = self._handle(message)
        if answer is not None and isinstance(message, dict) and "id" in message:
            answer["id"] = message["id"]
        return answer

    def _handle(self, message: Any) -> dict[str, Any] | None:
        if not isinstance(message, dict):
            print(f"toolwire_reference.harness: ignoring a request that is not an object: {message!r}",
                  file=sys.stderr)
            return None
        cmd = message.get("cmd")
        if cmd == "hello":
            return self.hello(message)
        seq = message.get("seq")
        if cmd not in _REQUIRED:
            return {"seq": seq, "error": _error("protocol.bad_request", f"unknown command {cmd!r}")}
        missing = [key for key in _REQUIRED[cmd] if key not in message]
        if cmd == "stream" and "event" not in message and not message.get("end"):
            missing.append("event (or end)")
        if missing:
            self.forget(seq)
            text = f"the {cmd} request lacks {', '.join(missing)}"
            return {"seq": seq, "error": _error("protocol.bad_request", text)}
        try:
            return self.translate(message) if cmd == "translate" else self.stream(message)
        except Exception:
            self.forget(seq)
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
