"""Streams of the Chat Completions family (OpenAI Chat, Mistral): :class:`ChatDecoder` and
:class:`ChatEncoder`, configured by each dialect (``rules``, its response codec for usage) in its
``stream.py``. OpenAI Chat Completions streams: ``chat.completion.chunk`` objects, no SSE event names,
``data: [DONE]`` last. Real streams: corpus/captures/openai-chat/08–12 (12 and 11 are the 2026 form, with
``usage: null`` on every chunk and an ``obfuscation`` member, both ignored).

Decoding reads ``choices[0]`` (as the ``response`` kind): ``delta.content`` and ``delta.refusal``
(text; a refusal makes the stop reason ``refusal``), ``delta.reasoning_content`` (thinking, the
DeepSeek-style extension), ``delta.tool_calls`` keyed by ``index`` (the first fragment of a call carries
``id`` and ``function.name``; a call without ``id`` gets a generated one; a custom (free-form) call's
fragments carry ``custom.name`` and ``custom.input`` instead, where the dialect streams custom calls,
``rules.custom_streams``: OpenAI Chat). Fragments of several calls
may alternate (they are keyed only by ``index``). A call's block closes as soon as its argument text is a
complete JSON object (a later non-blank fragment for it would make it invalid: ``stream.invalid_event``),
else when the choice finishes, so targets with one open block (Anthropic) can start the next call at once
when calls come one after the other, as OpenAI sends them (corpus/captures/openai-chat/09).
``finish_reason`` closes the blocks; the message ends at ``[DONE]`` (after the optional usage-only chunk
``choices: []``), or at the end of the input when ``finish_reason`` was seen. An ``{"error": …}`` chunk
is a canonical ``error``.

Encoding: a first chunk with ``role``, then one chunk per fragment; a call's first chunk carries ``id``,
``type``, ``function.name`` and ``arguments: ""`` (a custom call's: ``type: "custom"``, ``custom.name`` and
``input: ""``, then ``custom.input`` fragments); a call whose arguments are empty gets ``"{}"`` (as the
``response`` kind writes it); ``finish_reason`` once; the usage-only chunk when usage is known; ``[DONE]``.
A refusal's text has already been sent as ``content`` when the stop reason says refusal: ``finish_reason``
is ``stop`` (``content_filter`` when there was no text).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..calls import IdGenerator, decode_stop_reason, encode_call_id, encode_stop_reason
from ..rules import DialectRules
from ..streams.base import Decoder, Encoder, JsonTracker, stream_id
from .chat_response import ChatResponseCodec
from .response_common import now

DONE = "[DONE]"
#: a delta's text members, in the order they are read (reasoning first), and the kind of block each opens
_TEXT_MEMBERS = (("reasoning_content", "thinking"), ("content", "text"), ("refusal", "text"))


class ChatDecoder(Decoder):
    """A Chat-family stream → canonical stream events (``rules`` and ``response`` set by the dialect)."""

    rules: DialectRules
    response: ChatResponseCodec
    terminal = "data: [DONE]"

    def __init__(self, profile: Mapping[str, str]) -> None:
        super().__init__(profile)
        self.finish_reason: Any = None
        self.usage: Any = None
        self.refused = False
        self.seen: set[int] = set()  # tool-call indices started
        self.ids = IdGenerator()
        self.trackers: dict[int, JsonTracker] = {}  # open calls: is their argument text complete?

    def on_data(self, data: Any) -> list[dict]:
        if data == DONE:
            if self.ended:  # [DONE] after an error chunk
                return []
            return self._end()
        if self.ended:
            return self.after_end(data)
        if not isinstance(data, dict):
            raise self.invalid("a chunk must be an object or [DONE]")
        if "error" in data and "choices" not in data:
            error = data["error"] if isinstance(data["error"], dict) else {"message": str(data["error"])}
            return self.error(error.get("code") or error.get("type"), error.get("message"))
        out = [] if self.started else self.start(data.get("id"), data.get("model"))
        usage = data.get("usage")
        if usage is not None:
            self.usage = usage
        choices = data["choices"]
        if not isinstance(choices, list):
            raise self.invalid("`choices` must be an array", "choices")
        for position, choice in enumerate(choices):
            if choice.get("index", 0) == 0:
                out += self._choice(choice, position)
        return out

    def _choice(self, choice: dict, position: int) -> list[dict]:
        out: list[dict] = []
        if self.finish_reason is not None:
            return out  # nothing follows finish_reason (the grammar says so; stragglers are ignored)
        delta = choice.get("delta") or {}
        for key, kind in _TEXT_MEMBERS:
            value = delta.get(key)
            if isinstance(value, str) and value:
                if key == "refusal":
                    self.refused = True
                if kind == "text" and self.open_calls:  # text after calls: the calls are complete
                    for call in list(self.open_calls):
                        out += self.end_call(call)
                    self.trackers.clear()
                out += self.text(kind, value, kind)
        calls = delta.get("tool_calls")
        for number, call in enumerate(calls or ()):
            out += self._call(call, ("choices", position, "delta", "tool_calls", number))
        finish = choice.get("finish_reason")
        if finish is not None:
            if not isinstance(finish, str):
                raise self.invalid("`finish_reason` must be a string", "choices", position, "finish_reason")
            self.finish_reason = finish
            out += self.close_all()
        return out

    def _call(self, call: dict, where: tuple) -> list[dict]:
        index = call["index"]
        if not isinstance(index, int) or isinstance(index, bool):
            raise self.invalid("a tool_calls fragment needs an integer `index`", *where, "index")
        custom = self.rules.custom_streams and (
            call.get("type") == "custom" or isinstance(call.get("custom"), dict)
        )
        member, field = ("custom", "input") if custom else ("function", "arguments")
        body = call.get(member) or {}
        out: list[dict] = []
        if index not in self.seen:
            name = body.get("name")
            if not isinstance(name, str) or not name:
                raise self.invalid(f"the first fragment of a tool call must carry `{member}.name`", *where)
            call_id = call.get("id")
            if isinstance(call_id, str) and call_id:
                self.ids.take(call_id)
            else:
                call_id = self.ids.new()
            self.seen.add(index)
            if not custom:  # a custom call's input is free text: it is complete only when the choice finishes
                self.trackers[index] = JsonTracker()
            out += self.start_call(index, call_id, name, custom=custom or None)
        text = body.get(field)
        if text is not None and not isinstance(text, str):
            raise self.invalid(f"`{field}` must be a string", *where, member, field)
        if not text:
            return out
        if index not in self.open_calls:  # its arguments were already a complete JSON object
            if text.strip():
                raise self.invalid(
                    f"tool call {index} continues after its arguments were a complete JSON object",
                    *where,
                    member,
                    field,
                )
            return out
        out += self.call_delta(index, text, field)
        if index in self.trackers and self.trackers[index].feed(text):  # complete: the call's block ends now
            del self.trackers[index]
            out += self.end_call(index)
        return out

    def _end(self) -> list[dict]:
        if not self.started:
            raise self.invalid("[DONE] before any chunk")
        stop = decode_stop_reason(self.rules, self.finish_reason or "stop", self.calls > 0)
        if self.refused and stop == "end_turn":
            stop = "refusal"
        usage = self.response.decode_usage({"usage": self.usage}) if isinstance(self.usage, dict) else None
        return self.finish(stop, usage or None)

    def on_close(self) -> list[dict] | None:
        # finish_reason seen: the content is complete, only [DONE] is missing (lenient, like the SDKs)
        return self._end() if self.finish_reason is not None else None


class ChatEncoder(Encoder):
    """Canonical stream events → a Chat-family stream (``rules`` and ``response`` set by the dialect)."""

    rules: DialectRules
    response: ChatResponseCodec

    def __init__(self, profile: Mapping[str, str]) -> None:
        super().__init__(profile)
        self.head: dict = {}
        self.calls: dict[int, list] = {}  # canonical index -> [chat index, arguments sent?]
        self.count = 0
        self.texts = False

    def _chunk(self, delta: dict, finish: Any = None) -> dict:
        choice = {"index": 0, "delta": delta, "logprobs": None, "finish_reason": finish}
        return {"data": {**self.head, "choices": [choice]}}

    def on_message_start(self, event: dict) -> list[dict]:
        self.head = {
            "id": event.get("id") or stream_id("chatcmpl-", event.get("model")),
            "object": "chat.completion.chunk",
            "created": now(),
            "model": event.get("model", ""),
        }
        return [self._chunk({"role": "assistant", "content": None})]

    def on_text_delta(self, event: dict) -> list[dict]:
        if not event["text"]:
            return []
        self.texts = True
        return [self._chunk({"content": event["text"]})]

    def on_thinking_delta(self, event: dict) -> list[dict]:
        return []  # chat has no place for thinking (the filter drops it before it gets here)

    def on_tool_call_start(self, event: dict) -> list[dict]:
        custom = bool(event.get("custom"))  # reaches here only where the dialect streams custom calls
        # [chat index, text sent?]: a call that sent none gets "{}" at its end; free text needs no filling
        self.calls[event["index"]] = [self.count, custom]
        self.count += 1
        call = {
            "index": self.count - 1,
            "id": encode_call_id(event["id"], self.rules, self.profile),
            "type": "custom" if custom else "function",
            ("custom" if custom else "function"): {
                "name": event["name"],
                ("input" if custom else "arguments"): "",
            },
        }
        return [self._chunk({"tool_calls": [call]})]

    def _arguments(self, index: int, text: str, member: str = "function", field: str = "arguments") -> dict:
        state = self.calls[index]
        state[1] = True
        return self._chunk({"tool_calls": [{"index": state[0], member: {field: text}}]})

    def on_tool_call_delta(self, event: dict) -> list[dict]:
        if "input" in event:  # a custom call's free text
            text = event["input"]
            return [self._arguments(event["index"], text, "custom", "input")] if text else []
        return [self._arguments(event["index"], event["arguments"])] if event["arguments"] else []

    def on_block_end(self, event: dict) -> list[dict]:
        state = self.calls.pop(event["index"], None)
        if state is not None and not state[1]:
            self.calls[event["index"]] = state
            out = [self._arguments(event["index"], "{}")]
            del self.calls[event["index"]]
            return out
        return []

    def on_message_end(self, event: dict) -> list[dict]:
        self.ended = True
        finish = encode_stop_reason(self.rules, event["stop_reason"], self.count > 0)
        if event["stop_reason"] == "refusal" and not self.texts:
            finish = "content_filter"
        out = [self._chunk({}, finish)]
        usage = self.response.encode_usage(event)
        if usage is not None:
            out.append({"data": {**self.head, "choices": [], "usage": usage}})
        out.append({"data": DONE})
        return out

    def on_error(self, event: dict) -> list[dict]:
        self.ended = True
        error = event["error"]
        return [
            {
                "data": {
                    "error": {
                        "message": error["message"],
                        "type": error["code"],
                        "param": None,
                        "code": error["code"],
                    }
                }
            }
        ]
