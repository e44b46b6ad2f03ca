"""Gemini ``streamGenerateContent?alt=sse`` streams: every event is a whole ``GenerateContentResponse``
chunk, no event names, no ``[DONE]``; ``finishReason`` on the last chunk (often with an empty text part).
Real streams: corpus/captures/gemini/09, 10, 12 (Gemini 3, ``thoughtSignature`` next to the call), 13
(Vertex AI streamed arguments).

Decoding reads ``candidates[0]``: text parts (consecutive ones are one block), thought parts (thinking,
their ``thoughtSignature`` the signature), whole ``functionCall`` parts (a call, its arguments sent at
once; ``thoughtSignature`` kept on the call; calls without ``id`` get ``call_1``, ``call_2``, … as in the
``response`` kind, skipping the ids seen so far). Vertex streamed calls: ``functionCall {name,
willContinue: true}`` opens a call, ``partialArgs`` (``jsonPath`` + a value, strings continued while
``willContinue``) are turned into JSON text fragments as they come, and ``functionCall {}`` closes it.
``finishReason`` ends the message (usage: the last ``usageMetadata``); a chunk with
``promptFeedback.blockReason`` and no candidate ends it as ``content_filter``; ``{"error": …}`` is a
canonical ``error``.

Encoding: Gemini sends a ``functionCall`` whole, so a call's argument fragments are **buffered until the
call is complete** (the one place the reference holds content back): as soon as the argument text is a
complete JSON object, or at the call's block end, it is parsed and sent as one part.
Text and thinking go out as they come. The last chunk carries ``finishReason`` and ``usageMetadata``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

from ...calls import (
    IdGenerator,
    arguments_to_object,
    decode_stop_reason,
    encode_call_id,
    encode_stop_reason,
    is_generated,
)
from ...errors import TranslationError
from ...streams.base import Decoder, Encoder, JsonTracker
from ..response_common import unsupported_part
from .response import _PART_DATA, _decode_usage, _encode_usage
from .rules import RULES, is_signature, own_signature

NAME = RULES.name
# Error chunks: google.rpc status names and their HTTP codes.
STATUS_CODES = {
    "INVALID_ARGUMENT": 400,
    "PERMISSION_DENIED": 403,
    "NOT_FOUND": 404,
    "RESOURCE_EXHAUSTED": 429,
    "INTERNAL": 500,
    "UNAVAILABLE": 503,
    "DEADLINE_EXCEEDED": 504,
}
_PATH_PART = re.compile(r"\.([A-Za-z_$][\w$-]*)|\[(\d+)\]|\['((?:[^'\\]|\\.)*)'\]|\[\"((?:[^\"\\]|\\.)*)\"\]")
_VALUES = ("stringValue", "numberValue", "boolValue", "nullValue", "structValue", "listValue")


def json_path(path: str) -> list[str | int]:
    """``$.a.b[0]['c d']`` → ``["a", "b", 0, "c d"]``."""
    if not path.startswith("$"):
        raise ValueError(f"jsonPath {path!r} does not start with $")
    parts: list[str | int] = []
    pos = 1
    while pos < len(path):
        match = _PATH_PART.match(path, pos)
        if not match:
            raise ValueError(f"cannot read jsonPath {path!r}")
        name, number, single, double = match.groups()
        parts.append(
            int(number) if number is not None else (name if name is not None else (single or double or ""))
        )
        pos = match.end()
    return parts


class PartialArgsWriter:
    """Writes Vertex ``partialArgs`` (leaves in document order) as JSON text, fragment by fragment.

    State is the stack of open containers and whether a string is open: flat in the arguments' size.
    """

    def __init__(self) -> None:
        self.stack: list[list] = []  # [is_array, members written, segment] per open container, root first
        self.leaf: list | None = None  # path of the open string

    def feed(self, arg: dict) -> str:
        path = json_path(arg.get("jsonPath", "$"))
        key = next((k for k in _VALUES if k in arg), None)
        if key is None:
            raise ValueError("a partialArg without a value")
        out = ""
        if self.leaf is not None:
            if path == self.leaf and key == "stringValue":
                out += _escape(arg[key])
                if not arg.get("willContinue"):
                    out += '"'
                    self.leaf = None
                return out
            out += '"'
            self.leaf = None
        if not path:
            raise ValueError("a partialArg for the whole arguments object")
        if not self.stack:
            out += "{"
            self.stack.append([False, 0, None])
        parents = path[:-1]
        depth = 0  # containers below the root that stay open
        while (
            depth < len(self.stack) - 1
            and depth < len(parents)
            and self.stack[depth + 1][2] == parents[depth]
        ):
            depth += 1
        while len(self.stack) - 1 > depth:
            out += "]" if self.stack.pop()[0] else "}"
        for i in range(depth, len(parents)):
            out += self._member(parents[i]) + ("[" if isinstance(path[i + 1], int) else "{")
            self.stack.append([isinstance(path[i + 1], int), 0, parents[i]])
        out += self._member(path[-1])
        value = arg[key]
        if key == "stringValue":
            out += '"' + _escape(value)
            if arg.get("willContinue"):
                self.leaf = path
            else:
                out += '"'
        else:
            out += json.dumps(
                None if key == "nullValue" else value, ensure_ascii=False, separators=(",", ":")
            )
        return out

    def _member(self, segment: str | int) -> str:
        top = self.stack[-1]
        out = "," if top[1] else ""
        top[1] += 1
        if not top[0]:
            out += json.dumps(str(segment), ensure_ascii=False) + ":"
        return out

    def close(self) -> str:
        out = '"' if self.leaf is not None else ""
        self.leaf = None
        while self.stack:
            out += "]" if self.stack.pop()[0] else "}"
        return out


def _escape(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)[1:-1]


class GeminiDecoder(Decoder):
    dialect = NAME
    terminal = "a chunk with finishReason"

    def __init__(self, profile: Mapping[str, str]) -> None:
        super().__init__(profile)
        self.ids = IdGenerator()
        self.usage: Any = None
        self.streaming: PartialArgsWriter | None = None  # the open Vertex streamed call

    def on_data(self, data: Any) -> list[dict]:
        if self.ended:
            return self.after_end(data)
        if not isinstance(data, dict):
            raise self.invalid("a chunk must be an object")
        if "error" in data and "candidates" not in data:
            error = data["error"] if isinstance(data["error"], dict) else {"message": str(data["error"])}
            return self.error(error.get("status") or error.get("code"), error.get("message"))
        out = [] if self.started else self.start(data.get("responseId"), data.get("modelVersion"))
        if isinstance(data.get("usageMetadata"), dict):
            self.usage = data["usageMetadata"]
        candidates = data.get("candidates")
        if not candidates:
            feedback = data.get("promptFeedback")
            if isinstance(feedback, dict) and isinstance(feedback.get("blockReason"), str):
                return out + self._finish("content_filter")
            return out
        candidate = candidates[0]
        parts = (candidate.get("content") or {}).get("parts") or []
        for i, part in enumerate(parts):
            out += self._part(part, ("candidates", 0, "content", "parts", i))
        finish = candidate.get("finishReason")
        if finish is not None:
            if self.streaming is not None:
                raise self.invalid("finishReason while a streamed functionCall is open", "candidates", 0)
            if not isinstance(finish, str):
                raise self.invalid("`finishReason` must be a string", "candidates", 0, "finishReason")
            out += self._finish(decode_stop_reason(RULES, finish, self.calls > 0))
        return out

    def _part(self, part: dict, where: tuple) -> list[dict]:
        signature = part.get("thoughtSignature")
        if isinstance(signature, str) and not is_signature(signature):
            raise self.invalid("`thoughtSignature` must be base64", *where, "thoughtSignature")
        if "functionCall" in part:
            return self._call(part["functionCall"], signature, where + ("functionCall",))
        if "text" in part:
            text = part["text"]
            if not isinstance(text, str):
                raise self.invalid("`text` must be a string", *where, "text")
            kind = "thinking" if part.get("thought") is True else "text"
            return self.text(kind, text, kind, signature if isinstance(signature, str) else None)
        for key in _PART_DATA:
            if key in part:
                unsupported_part(f"a `{key}` part", self.path(*where, key), self.profile)
        return []

    def _call(self, call: dict, signature: Any, where: tuple) -> list[dict]:
        out: list[dict] = []
        if self.streaming is not None:  # Vertex: partialArgs…, then {} (or willContinue absent)
            for arg in call.get("partialArgs") or []:
                out += self.call_delta("streaming", self.streaming.feed(arg))
            if call.get("willContinue") is not True:
                out += self.call_delta("streaming", self.streaming.close())
                out += self.end_call("streaming")
                self.streaming = None
            return out
        name = call.get("name")
        if not isinstance(name, str) or not name:
            raise self.invalid("a functionCall needs a `name`", *where, "name")
        call_id = call.get("id")
        if isinstance(call_id, str) and call_id:
            self.ids.take(call_id)
        else:
            call_id = self.ids.new()
        sig = signature if isinstance(signature, str) else None
        if call.get("willContinue") is True:
            self.streaming = PartialArgsWriter()
            out += self.start_call("streaming", call_id, name, signature=sig)
            for arg in call.get("partialArgs") or []:
                out += self.call_delta("streaming", self.streaming.feed(arg))
            return out
        args = call.get("args")
        if args is not None and not isinstance(args, dict):
            raise self.invalid("`args` must be an object", *where, "args")
        out += self.start_call(where, call_id, name, signature=sig)
        out += self.call_delta(where, json.dumps(args or {}, ensure_ascii=False, separators=(",", ":")))
        return out + self.end_call(where)

    def _finish(self, stop_reason: str) -> list[dict]:
        usage = _decode_usage({"usageMetadata": self.usage}) if isinstance(self.usage, dict) else None
        return self.finish(stop_reason, usage)


class GeminiEncoder(Encoder):
    dialect = NAME

    def __init__(self, profile: Mapping[str, str]) -> None:
        super().__init__(profile)
        self.tail: dict = {}
        self.calls: dict[int, dict] = {}  # open calls: their head and argument fragments (buffered)

    def _chunk(self, parts: list[dict] | None, **candidate: Any) -> dict:
        cand: dict = {}
        if parts is not None:
            cand["content"] = {"role": "model", "parts": parts}
        cand.update(candidate)
        cand["index"] = 0
        return {"data": {"candidates": [cand], **self.tail}}

    def on_message_start(self, event: dict) -> list[dict]:
        if "model" in event:
            self.tail["modelVersion"] = event["model"]
        if "id" in event:
            self.tail["responseId"] = event["id"]
        return []

    def on_text_delta(self, event: dict) -> list[dict]:
        part: dict = {"text": event["text"]}
        if own_signature(event.get("signature")):
            part["thoughtSignature"] = event["signature"]
        elif not event["text"]:
            return []
        return [self._chunk([part])]

    def on_thinking_delta(self, event: dict) -> list[dict]:
        part: dict = {"text": event["text"], "thought": True}
        if own_signature(event.get("signature")):
            part["thoughtSignature"] = event["signature"]
        elif not event["text"]:
            return []
        return [self._chunk([part])]

    def on_tool_call_start(self, event: dict) -> list[dict]:
        self.calls[event["index"]] = {"event": event, "arguments": [], "json": JsonTracker(), "part": None}
        return []

    def on_tool_call_delta(self, event: dict) -> list[dict]:
        state = self.calls.get(event["index"])
        if state is None or state["part"] is not None:  # complete already: only blanks can follow
            if event["arguments"].strip():
                raise TranslationError(
                    "call.invalid_arguments", "tool-call arguments continue after a complete JSON object", ""
                )
            return []
        state["arguments"].append(event["arguments"])
        if state["json"].feed(event["arguments"]):  # complete: send the call now, not at its block end
            return self._complete(state)
        return []

    def on_block_end(self, event: dict) -> list[dict]:
        state = self.calls.get(event["index"])
        if state is None or state["part"] is not None:
            return []
        return self._complete(state)

    def _complete(self, state: dict) -> list[dict]:
        """Build the call's part; send every complete call at the front (calls keep their start order)."""
        start = state["event"]
        args = arguments_to_object("".join(state["arguments"]), (), {"arguments.invalid": "error"})
        call: dict = {}
        if not is_generated(start["id"]):
            call["id"] = encode_call_id(start["id"], RULES, self.profile)
        call["name"] = start["name"]
        call["args"] = args
        part: dict = {"functionCall": call}
        if own_signature(start.get("signature")):
            part["thoughtSignature"] = start["signature"]
        state["part"] = part
        state["arguments"] = []
        out = []
        while self.calls:
            first = next(iter(self.calls))
            if self.calls[first]["part"] is None:
                break
            out.append(self._chunk([self.calls.pop(first)["part"]]))
        return out

    def on_message_end(self, event: dict) -> list[dict]:
        self.ended = True
        usage = _encode_usage(event)
        if usage is not None:
            self.tail = {"usageMetadata": usage, **self.tail}
        finish = encode_stop_reason(RULES, event["stop_reason"])
        return [self._chunk([{"text": ""}], finishReason=finish)]

    def on_error(self, event: dict) -> list[dict]:
        self.ended = True
        code = event["error"]["code"]
        status = code if code in STATUS_CODES else "INTERNAL"
        return [
            {
                "data": {
                    "error": {
                        "code": STATUS_CODES[status],
                        "message": event["error"]["message"],
                        "status": code,
                    }
                }
            }
        ]
