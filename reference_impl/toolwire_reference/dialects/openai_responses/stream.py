"""OpenAI Responses streams: ``response.created`` → ``response.in_progress`` → per output item
``response.output_item.added`` → its deltas and ``*.done`` events → ``response.output_item.done`` →
``response.completed`` (``.incomplete``, ``.failed``); the SSE event name equals ``data.type``, no
``[DONE]``. Real streams: corpus/captures/openai-responses/09, 10 (2025-03, no ``sequence_number``), 14
(2025-09), 11, 12 (2025-12 / 2026-02, ``obfuscation`` members, ignored).

Decoding: ``function_call`` items (canonical id = ``call_id``; the ``fc_…`` item id travels as the
event's ``item_id``, for an openai-responses target only), ``function_call_arguments.delta`` fragments
(arguments that come only in ``.done`` or in ``output_item.done`` are sent then); ``message`` items, one
text block per content part (``output_text`` and ``refusal``; a refusal makes the stop reason
``refusal``); ``reasoning`` items: summary texts (joined with a blank line) and ``encrypted_content``
(from ``output_item.done``, the final value) as the signature. The stop reason and usage come from the
terminal event's ``response``, as in the ``response`` kind. An ``error`` event is a canonical ``error``.

Encoding writes ``sequence_number`` on every event (0, 1, …). The protocol repeats the whole text of a
part in its ``.done`` events and the whole output in ``response.completed``, so this encoder, unlike the
others, keeps the content it has sent (not the events). Item ids: ``fc_…`` as in the ``response`` kind
(the source's, else derived from the call id); ``msg_…`` / ``rs_…`` derived from the response id and
the output index (the ``response`` kind hashes the whole content, which a stream does not know yet).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..._json import copy_json
from ...calls import decode_stop_reason, derived_id, encode_call_id, encode_stop_reason
from ...streams.base import Decoder, Encoder, handler_table, stream_id
from ..response_common import now, unsupported_part
from .response import FAILED_ERROR, _decode_usage, _encode_usage, call_item_id, kept_item_id
from .rules import RULES

NAME = RULES.name
TERMINAL = ("response.completed", "response.incomplete", "response.failed")


class OpenAIResponsesDecoder(Decoder):
    dialect = NAME
    terminal = "response.completed"

    def __init__(self, profile: Mapping[str, str]) -> None:
        super().__init__(profile)
        self.items: dict[int, dict] = {}  # open items by output_index: {"type", "sent": bool, ...}
        self.refused = False

    def on_data(self, data: Any) -> list[dict]:
        if self.ended:
            return self.after_end(data)
        kind = data["type"]
        if kind == "error":
            error = data.get("error") if isinstance(data.get("error"), dict) else data
            return self.error(error.get("code") or error.get("type"), error.get("message"))
        if not self.started:
            if kind != "response.created":
                raise self.invalid(f"{kind} before response.created", "type")
            response = data["response"]
            return self.start(response.get("id"), response.get("model"))
        if kind in TERMINAL:
            return self._terminal(data["response"])
        handler = _HANDLERS.get(kind) if isinstance(kind, str) else None
        return handler(self, data) if handler is not None else []  # other response.* events carry nothing

    # ---- items -----------------------------------------------------------------------------
    def _output_item_added(self, data: dict) -> list[dict]:
        index, item = data["output_index"], data["item"]
        kind = item["type"]
        state = {"type": kind, "sent": False, "parts": set(), "signed": bool(item.get("encrypted_content"))}
        self.items[index] = state
        if kind == "function_call":
            call_id = item["call_id"]
            item_id = kept_item_id(item.get("id"), call_id, False)
            out = self.start_call(index, call_id, item["name"], item_id=item_id)
            if item.get("arguments"):
                state["sent"] = True
                out += self.call_delta(index, item["arguments"])
            return out
        if kind == "custom_tool_call":
            item_id = kept_item_id(item.get("id"), item["call_id"], True)
            out = self.start_call(index, item["call_id"], item["name"], item_id=item_id, custom=True)
            if item.get("input"):
                state["sent"] = True
                out += self.call_delta(index, item["input"], "input")
            return out
        if kind not in ("message", "reasoning"):
            state["type"] = "skip"
            unsupported_part(f"a `{kind}` output item", self.path("item"), self.profile)
        return []

    def _function_call_arguments_delta(self, data: dict) -> list[dict]:
        state = self._item(data, "function_call")
        if data["delta"]:
            state["sent"] = True
        return self.call_delta(data["output_index"], data["delta"])

    def _function_call_arguments_done(self, data: dict) -> list[dict]:
        state = self._item(data, "function_call")
        out: list[dict] = []
        if not state["sent"] and data.get("arguments"):
            state["sent"] = True
            out += self.call_delta(data["output_index"], data["arguments"])
        return out + self.end_call(data["output_index"])  # the arguments are complete

    def _custom_tool_call_input_delta(self, data: dict) -> list[dict]:
        state = self._item(data, "custom_tool_call")
        if data["delta"]:
            state["sent"] = True
        return self.call_delta(data["output_index"], data["delta"], "input")

    def _custom_tool_call_input_done(self, data: dict) -> list[dict]:
        state = self._item(data, "custom_tool_call")
        out: list[dict] = []
        if not state["sent"] and data.get("input"):
            state["sent"] = True
            out += self.call_delta(data["output_index"], data["input"], "input")
        return out + self.end_call(data["output_index"])  # the input is complete

    def _output_item_done(self, data: dict) -> list[dict]:
        index, item = data["output_index"], data["item"]
        state = self.items.pop(index, None)
        if state is None:
            raise self.invalid(
                f"output_item.done for output_index {index}, which is not open", "output_index"
            )
        out: list[dict] = []
        if state["type"] in ("function_call", "custom_tool_call"):
            member = "arguments" if state["type"] == "function_call" else "input"
            if not state["sent"] and item.get(member) and data["output_index"] in self.open_calls:
                out += self.call_delta(index, item[member], member)
            return out + self.end_call(index)
        if state["type"] == "message":
            if not state["sent"]:  # content only in the done item
                for position, part in enumerate(item.get("content") or []):
                    out += self._part_text(index, position, part)
                    out += self.close_text()
            return out + self.close_text()
        if state["type"] == "reasoning":
            key = (index, "reasoning")
            if not state["sent"]:
                texts = [p.get("text") for p in item.get("summary") or [] if isinstance(p, dict)]
                out += self.text("thinking", "\n\n".join(t for t in texts if t), key, signed=state["signed"])
            signature = item.get("encrypted_content")
            if isinstance(signature, str):
                out += self.text("thinking", "", key, signature)
            return out + self.close_text()
        return out

    # ---- message text ----------------------------------------------------------------------
    def _part_text(self, index: int, position: int, part: dict) -> list[dict]:
        kind = part.get("type")
        if kind == "refusal":
            self.refused = True
            return self.text("text", part.get("refusal") or "", (index, position))
        return self.text("text", part.get("text") or "", (index, position))

    def _text_delta(self, data: dict) -> list[dict]:
        state = self._item(data, "message")
        key = (data["output_index"], data.get("content_index", 0))
        state["sent"] = True
        state["parts"].add(key[1])
        return self.text("text", data["delta"], key)

    def _output_text_delta(self, data: dict) -> list[dict]:
        return self._text_delta(data)

    def _refusal_delta(self, data: dict) -> list[dict]:
        self.refused = True
        return self._text_delta(data)

    def _text_done(self, data: dict, member: str) -> list[dict]:
        state = self._item(data, "message")
        key = (data["output_index"], data.get("content_index", 0))
        out: list[dict] = []
        if key[1] not in state["parts"] and data.get(member):
            state["sent"] = True
            state["parts"].add(key[1])
            out += self.text("text", data[member], key)
        return out + self.close_text(key, any_key=False)

    def _output_text_done(self, data: dict) -> list[dict]:
        return self._text_done(data, "text")

    def _refusal_done(self, data: dict) -> list[dict]:
        self.refused = True
        return self._text_done(data, "refusal")

    def _content_part_done(self, data: dict) -> list[dict]:
        state = self._item(data, "message")
        key = (data["output_index"], data.get("content_index", 0))
        out: list[dict] = []
        part = data.get("part") or {}
        if key[1] not in state["parts"]:
            state["sent"] = True
            state["parts"].add(key[1])
            out += self._part_text(key[0], key[1], part)
        elif part.get("type") == "refusal":
            self.refused = True
        return out + self.close_text(key, any_key=False)

    # ---- reasoning -------------------------------------------------------------------------
    def _reasoning_summary_text_delta(self, data: dict) -> list[dict]:
        state = self._item(data, "reasoning")
        if not data["delta"]:
            return []
        text = data["delta"]
        part = data.get("summary_index", 0)
        if state.get("summary") not in (None, part) and state["sent"]:
            text = "\n\n" + text  # summary parts are joined with a blank line (the response kind)
        state["summary"] = part
        state["sent"] = True
        return self.text("thinking", text, (data["output_index"], "reasoning"), signed=state["signed"])

    def _reasoning_summary_text_done(self, data: dict) -> list[dict]:
        state = self._item(data, "reasoning")
        part = data.get("summary_index", 0)
        if state.get("summary") == part or not data.get("text"):
            return []
        return self._reasoning_summary_text_delta({**data, "delta": data["text"]})

    # ---- end -------------------------------------------------------------------------------
    def _item(self, data: dict, kind: str) -> dict:
        state = self.items.get(data["output_index"])
        if state is None or state["type"] not in (kind, "skip"):
            raise self.invalid(
                f"{data['type']} for output_index {data['output_index']}, which is not an open {kind} item",
                "output_index",
            )
        if state["type"] == "skip":
            raise _Skip
        return state

    def feed(self, event: Any) -> list[dict]:
        try:
            return super().feed(event)
        except _Skip:
            return []

    def _terminal(self, response: dict) -> list[dict]:
        status = response.get("status") or "completed"
        failure = response.get("error")
        if status == "failed" and isinstance(failure, dict):  # surfaced, as a mid-stream error is
            return self.error(failure.get("code"), failure.get("message"))
        key = status
        if status == "incomplete":
            reason = (response.get("incomplete_details") or {}).get("reason")
            if isinstance(reason, str):
                key = f"incomplete/{reason}"
        stop = decode_stop_reason(RULES, key, self.calls > 0)
        if self.refused and stop == "end_turn":
            stop = "refusal"
        usage = _decode_usage(response) if isinstance(response.get("usage"), dict) else None
        return self.finish(stop, usage)


_HANDLERS = handler_table(
    OpenAIResponsesDecoder,
    (
        "response.output_item.added", "response.output_item.done", "response.function_call_arguments.delta",
        "response.function_call_arguments.done", "response.custom_tool_call_input.delta",
        "response.custom_tool_call_input.done", "response.output_text.delta",
        "response.refusal.delta", "response.output_text.done", "response.refusal.done",
        "response.content_part.done", "response.reasoning_summary_text.delta",
        "response.reasoning_summary_text.done",
    ),
    lambda kind: "_" + kind.removeprefix("response.").replace(".", "_"),
)


class _Skip(Exception):
    """An event of a dropped item (unsupported=degrade)."""


class OpenAIResponsesEncoder(Encoder):
    dialect = NAME

    def __init__(self, profile: Mapping[str, str]) -> None:
        super().__init__(profile)
        self.sequence = 0
        self.response: dict = {}
        self.output: list[dict] = []  # the items sent (completed ones in full)
        self.blocks: dict[int, dict] = {}  # open canonical block -> its item state
        self.message: dict | None = None  # the open message item state

    def _event(self, kind: str, **members: Any) -> dict:
        self.sequence += 1
        return {"event": kind, "data": {"type": kind, "sequence_number": self.sequence - 1, **members}}

    def _snapshot(self, **changes: Any) -> dict:
        return {**self.response, **changes}

    def on_message_start(self, event: dict) -> list[dict]:
        self.response = {
            "id": event.get("id") or stream_id("resp_", event.get("model")),
            "object": "response",
            "created_at": now(),
            "status": "in_progress",
            "error": None,
            "incomplete_details": None,
            "instructions": None,
            "model": event.get("model", ""),
            "output": [],
            "parallel_tool_calls": True,
            "tool_choice": "auto",
            "tools": [],
        }
        return [
            self._event("response.created", response=self._snapshot()),
            self._event("response.in_progress", response=self._snapshot()),
        ]

    def _add(self, item: dict) -> tuple[int, list[dict]]:
        self.output.append(item)
        index = len(self.output) - 1
        return index, [self._event("response.output_item.added", output_index=index, item=copy_json(item))]

    def _close_message(self) -> list[dict]:
        state, self.message = self.message, None
        if state is None:
            return []
        item = state["item"]
        item["status"] = "completed"
        return [self._event("response.output_item.done", output_index=state["index"], item=copy_json(item))]

    # ---- text ------------------------------------------------------------------------------
    def on_text_delta(self, event: dict) -> list[dict]:
        out: list[dict] = []
        state = self.blocks.get(event["index"])
        if state is None:
            if self.message is None:
                item = {
                    "id": derived_id("msg_", self.response.get("id"), len(self.output)),
                    "type": "message",
                    "status": "in_progress",
                    "role": "assistant",
                    "content": [],
                }
                index, out = self._add(item)
                self.message = {"index": index, "item": item}
            msg = self.message
            state = {"kind": "text", "index": msg["index"], "part": len(msg["item"]["content"]), "text": []}
            self.blocks[event["index"]] = state
            out.append(
                self._event(
                    "response.content_part.added",
                    item_id=msg["item"]["id"],
                    output_index=msg["index"],
                    content_index=state["part"],
                    part={"type": "output_text", "text": "", "annotations": []},
                )
            )
        if event["text"]:
            state["text"].append(event["text"])
            out.append(
                self._event(
                    "response.output_text.delta",
                    item_id=self.output[state["index"]]["id"],
                    output_index=state["index"],
                    content_index=state["part"],
                    delta=event["text"],
                    logprobs=[],
                )
            )
        return out

    def _end_text(self, state: dict) -> list[dict]:
        text = "".join(state["text"])
        item = self.output[state["index"]]
        part = {"type": "output_text", "text": text, "annotations": []}
        item["content"].append(part)
        where = {"item_id": item["id"], "output_index": state["index"], "content_index": state["part"]}
        return [
            self._event("response.output_text.done", **where, text=text, logprobs=[]),
            self._event("response.content_part.done", **where, part=part),
        ]

    # ---- reasoning ---------------------------------------------------------------------------
    def on_thinking_delta(self, event: dict) -> list[dict]:
        out: list[dict] = []
        state = self.blocks.get(event["index"])
        if state is None:
            out += self._close_message()
            item = {
                "id": derived_id("rs_", self.response.get("id"), len(self.output)),
                "type": "reasoning",
                "summary": [],
            }
            index, added = self._add(item)
            out += added
            state = {"kind": "thinking", "index": index, "text": [], "signature": None}
            self.blocks[event["index"]] = state
        where = {
            "item_id": self.output[state["index"]]["id"],
            "output_index": state["index"],
            "summary_index": 0,
        }
        if event["text"]:
            if not state["text"]:
                part = {"type": "summary_text", "text": ""}
                out.append(self._event("response.reasoning_summary_part.added", **where, part=part))
            state["text"].append(event["text"])
            out.append(self._event("response.reasoning_summary_text.delta", **where, delta=event["text"]))
        if event.get("signature"):
            state["signature"] = event["signature"]
        return out

    def _end_thinking(self, state: dict) -> list[dict]:
        item = self.output[state["index"]]
        out: list[dict] = []
        if state["text"]:
            text = "".join(state["text"])
            where = {"item_id": item["id"], "output_index": state["index"], "summary_index": 0}
            part = {"type": "summary_text", "text": text}
            item["summary"] = [part]
            out += [
                self._event("response.reasoning_summary_text.done", **where, text=text),
                self._event("response.reasoning_summary_part.done", **where, part=part),
            ]
        if state["signature"] is not None:
            item["encrypted_content"] = state["signature"]
        return out + [
            self._event("response.output_item.done", output_index=state["index"], item=copy_json(item))
        ]

    # ---- calls -------------------------------------------------------------------------------
    def on_tool_call_start(self, event: dict) -> list[dict]:
        out = self._close_message()
        call_id = encode_call_id(event["id"], RULES, self.profile)
        custom = bool(event.get("custom"))
        item = {
            "id": call_item_id(event.get("item_id"), call_id, custom),
            "type": "custom_tool_call" if custom else "function_call",
            "status": "in_progress",
            "input" if custom else "arguments": "",
            "call_id": call_id,
            "name": event["name"],
        }
        index, added = self._add(item)
        self.blocks[event["index"]] = {"kind": "call", "index": index, "text": [], "custom": custom}
        return out + added

    def _arguments(self, state: dict, text: str) -> dict:
        state["text"].append(text)
        item = self.output[state["index"]]
        kind = "custom_tool_call_input" if state["custom"] else "function_call_arguments"
        where = {"item_id": item["id"], "output_index": state["index"]}
        return self._event(f"response.{kind}.delta", **where, delta=text)

    def on_tool_call_delta(self, event: dict) -> list[dict]:
        text = event.get("input") or event.get("arguments")
        if not text:
            return []
        return [self._arguments(self.blocks[event["index"]], text)]

    def _end_call(self, state: dict) -> list[dict]:
        out = [] if state["text"] or state["custom"] else [self._arguments(state, "{}")]
        item = self.output[state["index"]]
        member = "input" if state["custom"] else "arguments"
        item[member] = "".join(state["text"])
        item["status"] = "completed"
        kind = "custom_tool_call_input" if state["custom"] else "function_call_arguments"
        out.append(
            self._event(
                f"response.{kind}.done",
                item_id=item["id"],
                output_index=state["index"],
                **{member: item[member]},
            )
        )
        out.append(
            self._event("response.output_item.done", output_index=state["index"], item=copy_json(item))
        )
        return out

    # ---- blocks and end ----------------------------------------------------------------------
    def on_block_end(self, event: dict) -> list[dict]:
        state = self.blocks.pop(event["index"])
        if state["kind"] == "text":
            return self._end_text(state)
        if state["kind"] == "thinking":
            return self._end_thinking(state)
        return self._end_call(state)

    def on_message_end(self, event: dict) -> list[dict]:
        self.ended = True
        out = self._close_message()
        status, _, reason = encode_stop_reason(RULES, event["stop_reason"]).partition("/")
        response = self._snapshot(
            status=status,
            error=dict(FAILED_ERROR) if status == "failed" else None,
            incomplete_details={"reason": reason} if reason else None,
            output=copy_json(self.output),
        )
        usage = _encode_usage(event)
        if usage is not None:
            response["usage"] = usage
        kind = {"completed": "response.completed", "incomplete": "response.incomplete"}.get(
            status, "response.failed"
        )
        return out + [self._event(kind, response=response)]

    def on_error(self, event: dict) -> list[dict]:
        self.ended = True
        error = event["error"]
        return [self._event("error", code=error["code"], message=error["message"], param=None)]
