"""Anthropic Messages streams: ``message_start`` (``content: []``, usage) → per block
``content_block_start`` / ``content_block_delta``… / ``content_block_stop`` → ``message_delta``
(``stop_reason``, usage) → ``message_stop``; ``ping`` anywhere; ``error`` ends the stream. Every event
carries its SSE event name (the SDK dispatches on it). Real streams: corpus/captures/anthropic/11–15.

Decoding: ``text`` / ``thinking`` (``signature_delta`` → the block's signature) / ``tool_use`` blocks
(``partial_json`` fragments pass through; the first is usually ``""``; a tool without arguments sends
only ``""``, which is ``{}``); ``redacted_thinking`` dropped, server-tool blocks ``content.unsupported``
(``unsupported=degrade``: dropped). Usage: ``message_start``'s, with ``message_delta``'s non-null
members on top (what the SDK accumulates), read as in the ``response`` kind.

Encoding: one block open at a time. Canonical tool calls may interleave (OpenAI parallel deltas): the
call that opened first streams live, a call opened while it is open is held until it closes. Thinking:
Anthropic refuses thinking blocks without a signature, so (as in the ``response`` kind) unsigned thinking
is dropped: a thinking block streams at once when its source signs thinking (Anthropic, Responses
reasoning with ``encrypted_content``: the decoders say so) or its first fragment has a signature, else
its text is held until a signature arrives, and dropped if the block ends without one.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...calls import arguments_to_text, decode_stop_reason, encode_call_id, encode_stop_reason
from ...streams.base import Decoder, Encoder, handler_table, stream_id
from ..response_common import unsupported_part
from .response import _decode_usage, _encode_usage
from .rules import RULES

NAME = RULES.name


#: Anthropic's error types (the only ones its API and SDK know); another provider's codes map onto them
ANTHROPIC_ERROR_TYPES = frozenset({
    "invalid_request_error", "authentication_error", "billing_error", "permission_error", "not_found_error",
    "rate_limit_error", "timeout_error", "api_error", "overloaded_error",
})
_FOREIGN_ERRORS = {
    "rate_limit_exceeded": "rate_limit_error", "insufficient_quota": "rate_limit_error",
    "RESOURCE_EXHAUSTED": "rate_limit_error", "UNAVAILABLE": "overloaded_error",
    "DEADLINE_EXCEEDED": "timeout_error", "INVALID_ARGUMENT": "invalid_request_error",
    "FAILED_PRECONDITION": "invalid_request_error", "PERMISSION_DENIED": "permission_error",
    "UNAUTHENTICATED": "authentication_error", "NOT_FOUND": "not_found_error",
    "throttlingException": "rate_limit_error", "serviceUnavailableException": "overloaded_error",
    "validationException": "invalid_request_error",
}


def anthropic_error_type(code: str) -> str:
    """The Anthropic error type for an error code of any provider (``api_error`` when none fits)."""
    if code in ANTHROPIC_ERROR_TYPES:
        return code
    return _FOREIGN_ERRORS.get(code, "api_error")


class AnthropicDecoder(Decoder):
    dialect = NAME
    terminal = "message_stop"

    def __init__(self, profile: Mapping[str, str]) -> None:
        super().__init__(profile)
        self.kinds: dict[int, str] = {}  # open anthropic block index -> text | thinking | tool | skip
        self.usage: dict = {}
        self.stop_reason: Any = None
        self.stop_sequence: Any = None

    def on_data(self, data: Any) -> list[dict]:
        kind = data["type"]
        if kind == "ping":
            return []
        if self.ended:
            return self.after_end(data)
        if kind == "error":
            error = data.get("error") or {}
            return self.error(error.get("type"), error.get("message"))
        if not self.started:
            if kind != "message_start":
                raise self.invalid(f"{kind} before message_start", "type")
            message = data["message"]
            if isinstance(message.get("usage"), dict):
                self.usage.update(message["usage"])
            return self.start(message.get("id"), message.get("model"))
        handler = _HANDLERS.get(kind) if isinstance(kind, str) else None
        if handler is None:
            raise self.invalid(f"unknown event type {kind!r}", "type")
        return handler(self, data)

    def _content_block_start(self, data: dict) -> list[dict]:
        index, block = data["index"], data["content_block"]
        if index in self.kinds:
            raise self.invalid(f"content_block_start for block {index}, which is already open", "index")
        btype = block["type"]
        if btype in ("text", "thinking"):
            self.kinds[index] = btype
            text = block.get("text" if btype == "text" else "thinking") or ""
            return self.text(btype, text, index, block.get("signature") or None, signed=True)
        if btype == "tool_use":
            self.kinds[index] = "tool"
            out = self.start_call(index, block["id"], block["name"])
            if block.get("input"):  # some servers send the whole input up front
                out += self.call_delta(index, arguments_to_text(block["input"]))
            return out
        self.kinds[index] = "skip"
        if btype != "redacted_thinking":
            unsupported_part(f"a `{btype}` block", self.path("content_block"), self.profile)
        return []

    def _content_block_delta(self, data: dict) -> list[dict]:
        index, delta = data["index"], data["delta"]
        kind = self.kinds.get(index)
        if kind is None:
            raise self.invalid(f"content_block_delta for block {index}, which is not open", "index")
        dtype = delta["type"]
        if kind == "tool" and dtype == "input_json_delta":
            return self.call_delta(index, delta["partial_json"])
        if kind == "text" and dtype == "text_delta":
            return self.text("text", delta["text"], index)
        if kind == "thinking" and dtype == "thinking_delta":  # Anthropic thinking is always signed
            return self.text("thinking", delta["thinking"], index, signed=True)
        if kind == "thinking" and dtype == "signature_delta":
            return self.text("thinking", "", index, delta["signature"], signed=True)
        if kind == "skip" or dtype == "citations_delta":
            return []
        raise self.invalid(f"a {dtype} in a {kind} block", "delta", "type")

    def _content_block_stop(self, data: dict) -> list[dict]:
        kind = self.kinds.pop(data["index"], None)
        if kind == "tool":
            return self.end_call(data["index"])
        if kind in ("text", "thinking"):
            return self.close_text(data["index"], any_key=False)
        return []

    def _message_delta(self, data: dict) -> list[dict]:
        delta = data.get("delta") or {}
        if delta.get("stop_reason") is not None:
            self.stop_reason = delta["stop_reason"]
        if "stop_sequence" in delta:
            self.stop_sequence = delta["stop_sequence"]
        usage = data.get("usage") or {}
        self.usage.update({k: v for k, v in usage.items() if v is not None})
        return []

    def _message_stop(self, data: dict) -> list[dict]:
        if self.kinds:
            raise self.invalid(f"message_stop while block {min(self.kinds)} is open (no content_block_stop)")
        reason = self.stop_reason
        if reason is not None and not isinstance(reason, str):
            raise self.invalid("`stop_reason` must be a string")
        stop = decode_stop_reason(RULES, reason or "end_turn", self.calls > 0)
        if reason is None and self.calls:
            stop = "tool_use"
        usage = _decode_usage({"usage": self.usage}) if self.usage else None
        return self.finish(stop, usage, self.stop_sequence)

    def _message_start(self, data: dict) -> list[dict]:
        raise self.invalid("a second message_start", "type")


_HANDLERS = handler_table(
    AnthropicDecoder,
    ("message_start", "content_block_start", "content_block_delta", "content_block_stop", "message_delta",
     "message_stop"),
    lambda kind: "_" + kind,
)


def _event(kind: str, **members: Any) -> dict:
    return {"event": kind, "data": {"type": kind, **members}}


class AnthropicEncoder(Encoder):
    dialect = NAME

    def __init__(self, profile: Mapping[str, str]) -> None:
        super().__init__(profile)
        self.current: int | None = None  # canonical index of the open Anthropic block
        self.next = 0  # next Anthropic block index
        self.held: dict[int, list[dict]] = {}  # calls opened while another block is open, in order
        self.sent_args = False
        self.unsigned: tuple[int, list[str]] | None = None  # a thinking block held for its signature
        self.signed_source = False  # the source signs its thinking blocks (Anthropic): stream them live

    def feed(self, event: dict) -> list[dict]:
        if self.ended:
            return []
        index = event.get("index")
        if index is not None and self.current is not None and index != self.current:
            self.held.setdefault(index, []).append(event)
            return []
        if index is not None and self.current is None and self.held and index not in self.held:
            self.held.setdefault(index, []).append(event)  # wait behind the calls already held
            return self._release()
        out = super().feed(event)
        if self.current is None and self.held:
            out += self._release()
        return out

    def _release(self) -> list[dict]:
        out: list[dict] = []
        while self.current is None and self.held:
            index = next(iter(self.held))
            for event in self.held.pop(index):
                out += super().feed(event)
        return out

    def _open(self, index: int, block: dict) -> list[dict]:
        self.current = index
        self.next += 1
        return [_event("content_block_start", index=self.next - 1, content_block=block)]

    def on_message_start(self, event: dict) -> list[dict]:
        message = {
            "id": event.get("id") or stream_id("msg_", event.get("model")),
            "type": "message",
            "role": "assistant",
            "model": event.get("model", ""),
            "content": [],
            "stop_reason": None,
            "stop_sequence": None,
            "usage": {"input_tokens": 0, "output_tokens": 0},
        }
        return [_event("message_start", message=message)]

    def on_text_delta(self, event: dict) -> list[dict]:
        out = (
            [] if self.current == event["index"] else self._open(event["index"], {"type": "text", "text": ""})
        )
        if event["text"]:
            out.append(self._delta({"type": "text_delta", "text": event["text"]}))
        return out

    def on_thinking_delta(self, event: dict) -> list[dict]:
        out = []
        if self.current != event["index"]:
            pending = self.unsigned
            if pending is None or pending[0] != event["index"]:
                pending = self.unsigned = (event["index"], [])
            if not (event.get("signed") or event.get("signature") or self.signed_source):
                pending[1].append(event["text"])  # held until its signature comes (or dropped)
                return out
            self.signed_source = self.signed_source or bool(event.get("signed"))
            self.unsigned = None
            out = self._open(event["index"], {"type": "thinking", "thinking": "", "signature": ""})
            held = "".join(pending[1])
            if held:
                out.append(self._delta({"type": "thinking_delta", "thinking": held}))
        if event["text"]:
            out.append(self._delta({"type": "thinking_delta", "thinking": event["text"]}))
        if event.get("signature"):
            out.append(self._delta({"type": "signature_delta", "signature": event["signature"]}))
        return out

    def on_tool_call_start(self, event: dict) -> list[dict]:
        self.sent_args = False
        block = {
            "type": "tool_use",
            "id": encode_call_id(event["id"], RULES, self.profile),
            "name": event["name"],
            "input": {},
        }
        return self._open(event["index"], block)

    def on_tool_call_delta(self, event: dict) -> list[dict]:
        if not event["arguments"]:
            return []
        self.sent_args = True
        return [self._delta({"type": "input_json_delta", "partial_json": event["arguments"]})]

    def on_block_end(self, event: dict) -> list[dict]:
        if self.unsigned is not None and self.unsigned[0] == event["index"]:
            self.unsigned = None  # thinking that never got a signature: Anthropic refuses it, dropped
            return []
        self.current = None
        return [_event("content_block_stop", index=self.next - 1)]

    def on_message_end(self, event: dict) -> list[dict]:
        self.ended = True
        stop_reason = encode_stop_reason(RULES, event["stop_reason"])
        stop_sequence = event.get("stop_sequence") if stop_reason == "stop_sequence" else None
        return [
            _event(
                "message_delta",
                delta={"stop_reason": stop_reason, "stop_sequence": stop_sequence},
                usage=_encode_usage(event),
            ),
            _event("message_stop"),
        ]

    def on_error(self, event: dict) -> list[dict]:
        self.ended = True
        error = event["error"]
        kind = anthropic_error_type(error["code"])
        return [_event("error", error={"type": kind, "message": error["message"]})]

    def _delta(self, delta: dict) -> dict:
        data = {"type": "content_block_delta", "index": self.next - 1, "delta": delta}
        return {"event": "content_block_delta", "data": data}  # (not _event: once per fragment)
