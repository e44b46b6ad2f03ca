"""Bedrock ConverseStream streams, in their decoded form: one event per event-stream frame,
``{"event": <:event-type header>, "data": <JSON payload>}`` (corpus/RULES.md, "Streams"; the
``*.decoded.jsonl`` captures): ``messageStart`` (``role``) → per content block ``contentBlockStart``
(tool use only: ``start.toolUse {toolUseId, name}``; a text block starts with its first delta) /
``contentBlockDelta`` (``delta.text``, ``delta.toolUse.input`` JSON fragments, ``delta.reasoningContent``
``{text}`` / ``{signature}``) / ``contentBlockStop``, each with its ``contentBlockIndex`` → ``messageStop``
(``stopReason``) → ``metadata`` (``usage``, ``metrics``), the terminal event. The server pads payloads
with a ``p`` member (ignored). Exceptions (``throttlingException``, ``modelStreamErrorException``, …,
``{message}``) end the stream as an error.

Decoding: a stream that ends after ``messageStop`` without ``metadata`` ends there (no usage); server-tool
blocks (``start.toolResult``, ``start.toolUse.type: server_tool_use``) and image blocks are
``content.unsupported`` (degrade: dropped); ``reasoningContent.redactedContent`` and citation deltas
are dropped. Encoding: blocks keep their canonical order and may interleave (each event names its
block); thinking goes out as ``reasoningContent`` with a signature only when Bedrock issued it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ... import signatures
from ...calls import decode_stop_reason, encode_stop_reason
from ...streams.base import Decoder, Encoder, handler_table
from ..response_common import unsupported_part
from .response import decode_usage, encode_usage
from .rules import RULES
from .tools import tool_use_id

NAME = RULES.name

#: the exception events of ConverseStreamOutput (botocore's service model)
EXCEPTIONS = frozenset(
    {
        "internalServerException",
        "modelStreamErrorException",
        "validationException",
        "throttlingException",
        "serviceUnavailableException",
    }
)
#: another dialect's error codes as Bedrock exception events (internalServerException when none fits)
_FOREIGN_ERRORS = {
    "rate_limit_error": "throttlingException",
    "rate_limit_exceeded": "throttlingException",
    "insufficient_quota": "throttlingException",
    "RESOURCE_EXHAUSTED": "throttlingException",
    "overloaded_error": "serviceUnavailableException",
    "UNAVAILABLE": "serviceUnavailableException",
    "invalid_request_error": "validationException",
    "INVALID_ARGUMENT": "validationException",
}


def exception_event(code: str) -> str:
    """The Bedrock exception event for an error code of any provider."""
    return code if code in EXCEPTIONS else _FOREIGN_ERRORS.get(code, "internalServerException")


class BedrockDecoder(Decoder):
    dialect = NAME
    terminal = "metadata"

    def __init__(self, profile: Mapping[str, str]) -> None:
        super().__init__(profile)
        self.event_type: Any = None
        self.kinds: dict[int, str] = {}  # open Bedrock block index -> text | thinking | tool | skip
        self.last_opened = -1  # blocks open in order: each index above every earlier one
        self.stop_reason: str | None = None

    def feed(self, event: Any) -> list[dict]:
        self.event_type = event.get("event") if isinstance(event, dict) else None
        return super().feed(event)

    def on_data(self, data: Any) -> list[dict]:
        kind = self.event_type
        if not isinstance(kind, str):
            raise self.invalid("a Bedrock event names its type in `event` (the :event-type header)")
        if self.ended:
            return self.after_end(data)
        if not isinstance(data, dict):
            raise self.invalid("a Bedrock event's payload is an object")
        if kind in EXCEPTIONS:
            return self.error(kind, data.get("message"))
        if not self.started:
            if kind != "messageStart":
                raise self.invalid(f"{kind} before messageStart")
            return self.start()
        handler = _HANDLERS.get(kind)
        if handler is None:
            what = "a second messageStart" if kind == "messageStart" else f"unknown event type {kind!r}"
            raise self.invalid(what)
        return handler(self, data)

    def _index(self, data: dict) -> int:
        index = data["contentBlockIndex"]
        if isinstance(index, bool) or not isinstance(index, int) or index < 0:
            raise self.invalid("`contentBlockIndex` must be a non-negative integer", "contentBlockIndex")
        return index

    def _open(self, index: int, kind: str) -> None:
        """Open block ``index`` (by its start event, or a text or reasoning block by its first delta)."""
        if index <= self.last_opened:
            raise self.invalid(
                f"block {index} starts after block {self.last_opened} (blocks come in order, each once)",
                "contentBlockIndex",
            )
        self.kinds[index], self.last_opened = kind, index

    def _contentBlockStart(self, data: dict) -> list[dict]:  # noqa: N802 (the event's name)
        index, start = self._index(data), data["start"]
        self._open(index, "skip")
        use = start.get("toolUse") if isinstance(start, dict) else None
        if isinstance(use, dict) and use.get("type") != "server_tool_use":
            self.kinds[index] = "tool"
            return self.start_call(index, use["toolUseId"], use["name"])
        what = next(iter(start), "start") if isinstance(start, dict) and start else "start"
        unsupported_part(f"a `{what}` block", self.path("start"), self.profile)
        return []

    def _contentBlockDelta(self, data: dict) -> list[dict]:  # noqa: N802
        index, delta = self._index(data), data["delta"]
        kind = self.kinds.get(index)
        if kind == "skip":
            return []
        if "text" in delta and kind in (None, "text"):
            if kind is None:
                self._open(index, "text")
            return self.text("text", delta["text"], index)
        if "toolUse" in delta and kind == "tool":
            return self.call_delta(index, delta["toolUse"]["input"])
        if "reasoningContent" in delta and kind in (None, "thinking"):
            if kind is None:
                self._open(index, "thinking")
            reasoning = delta["reasoningContent"]
            if "text" in reasoning:
                return self.text("thinking", reasoning["text"], index)
            if "signature" in reasoning:
                return self.text("thinking", "", index, reasoning["signature"])
            return []  # redactedContent: no readable text
        if "citation" in delta:
            return []
        member = next(iter(delta), "delta")
        if kind is None and member in ("toolUse", "toolResult", "image"):
            raise self.invalid(f"a `{member}` delta for block {index}, which was never started", "delta")
        raise self.invalid(f"a `{member}` delta in a {kind or 'new'} block", "delta")

    def _contentBlockStop(self, data: dict) -> list[dict]:  # noqa: N802
        index = self._index(data)
        kind = self.kinds.pop(index, None)
        if kind == "tool":
            return self.end_call(index)
        if kind in ("text", "thinking"):
            return self.close_text(index, any_key=False)
        return []

    def _messageStop(self, data: dict) -> list[dict]:  # noqa: N802
        reason = data["stopReason"]
        if not isinstance(reason, str):
            raise self.invalid("`stopReason` must be a string", "stopReason")
        if self.stop_reason is not None:
            raise self.invalid("a second messageStop")
        self.stop_reason = reason
        return self.close_all()

    def _metadata(self, data: dict) -> list[dict]:
        if self.stop_reason is None:
            raise self.invalid("metadata before messageStop")
        usage = data.get("usage")
        usage = decode_usage(usage, self.path("usage")) if isinstance(usage, dict) else None
        return self._finish(usage)

    def _finish(self, usage: Any) -> list[dict]:
        assert self.stop_reason is not None
        return self.finish(decode_stop_reason(RULES, self.stop_reason, self.calls > 0), usage)

    def on_close(self) -> list[dict] | None:
        return self._finish(None) if self.stop_reason is not None else None


def _event(kind: str, **data: Any) -> dict:
    return {"event": kind, "data": data}


_HANDLERS = handler_table(
    BedrockDecoder,
    ("contentBlockStart", "contentBlockDelta", "contentBlockStop", "messageStop", "metadata"),
    lambda kind: "_" + kind,
)


class BedrockEncoder(Encoder):
    dialect = NAME

    def __init__(self, profile: Mapping[str, str]) -> None:
        super().__init__(profile)
        self.blocks: dict[int, int] = {}  # open canonical index -> Bedrock contentBlockIndex
        self.next = 0

    def _delta(self, index: int, delta: dict) -> dict:
        """A ``contentBlockDelta`` of canonical block ``index`` (its Bedrock index given when it opens)."""
        return _event("contentBlockDelta", contentBlockIndex=self._at(index), delta=delta)

    def _at(self, index: int) -> int:
        if index not in self.blocks:
            self.blocks[index] = self.next
            self.next += 1
        return self.blocks[index]

    def on_message_start(self, event: dict) -> list[dict]:
        return [_event("messageStart", role="assistant")]

    def on_text_delta(self, event: dict) -> list[dict]:
        return [self._delta(event["index"], {"text": event["text"]})] if event["text"] else []

    def on_thinking_delta(self, event: dict) -> list[dict]:
        out = []
        if event["text"]:
            out.append(self._delta(event["index"], {"reasoningContent": {"text": event["text"]}}))
        signature = signatures.for_target(event, NAME)
        if signature:
            out.append(self._delta(event["index"], {"reasoningContent": {"signature": signature}}))
        return out

    def on_tool_call_start(self, event: dict) -> list[dict]:
        start = {"toolUse": {"toolUseId": tool_use_id(event["id"], self.profile), "name": event["name"]}}
        return [_event("contentBlockStart", contentBlockIndex=self._at(event["index"]), start=start)]

    def on_tool_call_delta(self, event: dict) -> list[dict]:
        if not event["arguments"]:
            return []
        return [self._delta(event["index"], {"toolUse": {"input": event["arguments"]}})]

    def on_block_end(self, event: dict) -> list[dict]:
        at = self.blocks.pop(event["index"], None)
        return [] if at is None else [_event("contentBlockStop", contentBlockIndex=at)]

    def on_message_end(self, event: dict) -> list[dict]:
        self.ended = True
        out = [_event("contentBlockStop", contentBlockIndex=at) for at in self.blocks.values()]
        self.blocks.clear()
        out.append(_event("messageStop", stopReason=encode_stop_reason(RULES, event["stop_reason"])))
        out.append(_event("metadata", usage=encode_usage(event), metrics={"latencyMs": 0}))
        return out

    def on_error(self, event: dict) -> list[dict]:
        self.ended = True
        error = event["error"]
        return [_event(exception_event(error["code"]), message=error["message"])]
