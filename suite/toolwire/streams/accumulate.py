"""Accumulators: a stream of one dialect -> that dialect's NON-streaming response body, so a stream case
states its expected result once (``accumulated``, ``corpus/RULES.md, "Streams"``).

One small class per dialect over a shared engine (:class:`Accumulator`: ``feed(event)`` then
``result()``). Besides building the body, ``feed`` returns the event's content *fragments* (text, thinking,
tool-call starts and argument fragments), which re-chunking and the incrementality measure use.

The bodies, exactly (a case's ``accumulated`` is compared with them by INTERPRETING.md's rules):

- ``anthropic``: ``message_start.message`` with ``content`` = the blocks by index (``text`` joined from
  ``text_delta``; ``thinking`` joined from ``thinking_delta``, ``signature`` from ``signature_delta``;
  ``citations`` appended; ``tool_use.input`` = the joined ``partial_json`` parsed, ``{}`` when it is
  ``""``), then ``message_delta.delta`` members set on the message and ``message_delta.usage`` members
  (non-null) set on ``usage`` (as the anthropic SDK's accumulator does).
- ``openai-chat``: ``{"id", "object": "chat.completion", "created", "model", "system_fingerprint"?,
  "service_tier"?, "choices": [{"index", "message": {"role", "content", "refusal"?, "tool_calls"?},
  "logprobs"?, "finish_reason"}], "usage"?}``: ``content`` is the joined ``delta.content`` (null when it is
  empty), ``tool_calls`` = ``[{"id", "type": "function", "function": {"name", "arguments"}}]`` by index
  with the joined argument text (a JSON string, as in a non-streaming response); ``refusal`` only when
  some delta carries one; ``logprobs`` only when some chunk carries non-null logprobs (their
  ``content`` lists joined); ``system_fingerprint``/``service_tier``/``usage``: the last non-null value.
- ``gemini``: ``{"candidates": [{"content": {"role": "model", "parts"}, "finishReason", …}],
  "usageMetadata"?, "modelVersion"?, "responseId"?}``: parts in order, consecutive text parts with the
  same ``thought`` flag joined (at most one ``thoughtSignature`` per merged part), empty text parts
  without a signature dropped, ``functionCall`` parts whole; Vertex streamed calls (``willContinue`` /
  ``partialArgs``) assembled into ``{"functionCall": {"name", "args"}}`` (a ``stringValue`` with
  ``willContinue`` is continued by the next value at the same ``jsonPath``; as a fragment, a value counts
  once complete, since (path, value) pairs are not JSON text); every other candidate and
  top-level member: its last value.
- ``openai-responses``: the ``response`` of the terminal ``response.completed`` / ``.incomplete`` /
  ``.failed`` event; when it has no ``output``, the items of the ``output_item.done`` events.
- ``canonical``: the canonical response (corpus/README.md): ``id``/``model`` of ``message_start``,
  ``content`` blocks by index (``tool_call.arguments`` parsed from the joined fragments, ``{}`` for
  ``""``, ``arguments_raw`` when they are not a JSON object), ``stop_reason``, ``stop_sequence``,
  ``usage`` of ``message_end``.

A stream that carries an error event accumulates to ``{"error": <the error object>}``. A stream without
its terminal event raises :class:`StreamError` ``stream.truncated``; a stream an accumulator cannot read
raises ``stream.invalid_event``.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from ..jsonvalue import json_copy
from .payload import StreamError
from .sse import DONE

__all__ = ["ACCUMULATORS", "Accumulator", "Fragment", "accumulate", "fragments"]


@dataclass(frozen=True)
class Fragment:
    """Content carried by one event: ``kind`` is ``text``, ``thinking``, ``call_start``, ``arguments`` or
    ``call_end`` (the event that tells a reader the call is complete); ``call`` is the tool call's ordinal
    (0, 1 … in order of appearance) for the last three."""

    kind: str
    text: str = ""
    call: int | None = None


class Accumulator:
    dialect = ""

    def __init__(self) -> None:
        self.index = -1
        self.finished = False
        self.error: Any = None
        self.calls = 0

    def feed(self, event: Any) -> list[Fragment]:
        self.index += 1
        data = event.get("data") if isinstance(event, dict) else None
        try:
            return self.on_data(data) or []
        except StreamError:
            raise
        except Exception as exc:  # a malformed event: never a traceback
            raise StreamError(
                "stream.invalid_event",
                f"cannot read {self.dialect} event: {type(exc).__name__}: {exc}",
                self.index,
            ) from exc

    def on_data(self, data: Any) -> list[Fragment] | None:
        raise NotImplementedError

    def result(self) -> Any:
        if self.error is not None:
            return {"error": self.error}
        if not self.finished:
            raise StreamError(
                "stream.truncated", f"the {self.dialect} stream ended before its terminal event"
            )
        try:
            return self.build()
        except StreamError:
            raise
        except Exception as exc:
            raise StreamError(
                "stream.invalid_event", f"cannot build the {self.dialect} response: {exc}"
            ) from exc

    def build(self) -> Any:
        raise NotImplementedError

    def new_call(self) -> int:
        self.calls += 1
        return self.calls - 1

    def invalid(self, message: str) -> StreamError:
        return StreamError("stream.invalid_event", message, self.index)


def _parse_object(text: str) -> Any:
    if text == "":
        return {}
    value = json.loads(text)
    if not isinstance(value, dict):
        raise ValueError("not a JSON object")
    return value


class AnthropicAccumulator(Accumulator):
    dialect = "anthropic"

    def __init__(self) -> None:
        super().__init__()
        self.message: dict[str, Any] | None = None
        self.blocks: dict[int, dict[str, Any]] = {}
        self.json: dict[int, list[str]] = {}
        self.call_of: dict[int, int] = {}

    def on_data(self, data: Any) -> list[Fragment] | None:
        if data == DONE:
            return None  # not an Anthropic event: the SDK, which dispatches on event names, skips it
        kind = data.get("type")
        if kind == "message_start":
            self.message = json_copy(data["message"])
        elif kind == "content_block_start":
            index = data["index"]
            block = json_copy(data["content_block"])
            self.blocks[index] = block
            if block.get("type") in ("tool_use", "server_tool_use"):
                self.json[index] = []
                self.call_of[index] = self.new_call()
                return [Fragment("call_start", call=self.call_of[index])]
        elif kind == "content_block_delta":
            index, delta = data["index"], data["delta"]
            block = self.blocks[index]
            dtype = delta.get("type")
            if dtype == "text_delta":
                block["text"] = block.get("text", "") + delta["text"]
                return [Fragment("text", delta["text"])]
            if dtype == "input_json_delta":
                self.json[index].append(delta["partial_json"])
                return [Fragment("arguments", delta["partial_json"], self.call_of[index])]
            if dtype == "thinking_delta":
                block["thinking"] = block.get("thinking", "") + delta["thinking"]
                return [Fragment("thinking", delta["thinking"])]
            if dtype == "signature_delta":
                block["signature"] = delta["signature"]
            elif dtype == "citations_delta":
                block.setdefault("citations", []).append(delta["citation"])
        elif kind == "content_block_stop":
            index = data["index"]
            if index in self.json:
                text = "".join(self.json[index])
                try:
                    self.blocks[index]["input"] = _parse_object(text)
                except ValueError as exc:
                    raise self.invalid(
                        f"tool_use block {index}: input is not a JSON object: {text[:80]!r}"
                    ) from exc
                return [Fragment("call_end", call=self.call_of[index])]
        elif kind == "message_delta":
            assert self.message is not None
            self.message.update(data.get("delta") or {})
            usage = self.message.setdefault("usage", {})
            usage.update({k: v for k, v in (data.get("usage") or {}).items() if v is not None})
        elif kind == "message_stop":
            self.finished = True
        elif kind == "error":
            self.error = data.get("error")
        return None

    def build(self) -> Any:
        if self.message is None:
            raise StreamError("stream.truncated", "no message_start")
        message = json_copy(self.message)
        message["content"] = [self.blocks[i] for i in sorted(self.blocks)]
        return message


class OpenAIChatAccumulator(Accumulator):
    dialect = "openai-chat"

    def __init__(self) -> None:
        super().__init__()
        self.top: dict[str, Any] = {}
        self.extra: dict[str, Any] = {}
        self.usage: Any = None
        self.choices: dict[int, dict[str, Any]] = {}
        self.done = False

    def on_data(self, data: Any) -> list[Fragment] | None:
        if data == DONE:
            self.done = True
            return None
        if "error" in data and "choices" not in data:
            self.error = data["error"]
            return None
        if not self.top:
            self.top = {k: data.get(k) for k in ("id", "created", "model")}
        for key in ("system_fingerprint", "service_tier"):
            if data.get(key) is not None:
                self.extra[key] = data[key]
        if data.get("usage") is not None:
            self.usage = data["usage"]
        out: list[Fragment] = []
        for choice in data["choices"]:
            state = self.choices.setdefault(
                choice["index"],
                {"role": None, "content": [], "refusal": None, "calls": {}, "finish": None, "logprobs": None},
            )
            delta = choice.get("delta") or {}
            if delta.get("role"):
                state["role"] = delta["role"]
            if isinstance(delta.get("content"), str):
                state["content"].append(delta["content"])
                if delta["content"]:
                    out.append(Fragment("text", delta["content"]))
            if isinstance(delta.get("refusal"), str):
                state["refusal"] = (state["refusal"] or "") + delta["refusal"]
                out.append(Fragment("text", delta["refusal"]))
            for call in delta.get("tool_calls") or []:
                calls = state["calls"]
                fn = call.get("function") or {}
                if call["index"] not in calls:
                    calls[call["index"]] = {
                        "id": call.get("id"),
                        "name": fn.get("name"),
                        "arguments": [],
                        "ordinal": self.new_call(),
                    }
                    out.append(Fragment("call_start", call=calls[call["index"]]["ordinal"]))
                entry = calls[call["index"]]
                if isinstance(fn.get("arguments"), str):
                    entry["arguments"].append(fn["arguments"])
                    if fn["arguments"]:
                        out.append(Fragment("arguments", fn["arguments"], entry["ordinal"]))
            if choice.get("logprobs") is not None:
                lp = state["logprobs"] = state["logprobs"] or {}
                for key, value in choice["logprobs"].items():
                    if isinstance(value, list):
                        lp.setdefault(key, []).extend(value)
            if choice.get("finish_reason") is not None and state["finish"] is None:
                state["finish"] = choice["finish_reason"]
                out.extend(Fragment("call_end", call=c["ordinal"]) for _, c in sorted(state["calls"].items()))
        if self.choices and all(s["finish"] is not None for s in self.choices.values()):
            self.finished = True
        return out

    def build(self) -> Any:
        body: dict[str, Any] = {
            "id": self.top.get("id"),
            "object": "chat.completion",
            "created": self.top.get("created"),
            "model": self.top.get("model"),
        }
        body.update(self.extra)
        choices = []
        for index in sorted(self.choices):
            state = self.choices[index]
            text = "".join(state["content"])
            message: dict[str, Any] = {"role": state["role"] or "assistant", "content": text or None}
            if state["refusal"] is not None:
                message["refusal"] = state["refusal"]
            if state["calls"]:
                message["tool_calls"] = [
                    {
                        "id": c["id"],
                        "type": "function",
                        "function": {"name": c["name"], "arguments": "".join(c["arguments"])},
                    }
                    for _, c in sorted(state["calls"].items())
                ]
            choice: dict[str, Any] = {"index": index, "message": message}
            if state["logprobs"] is not None:
                choice["logprobs"] = state["logprobs"]
            choice["finish_reason"] = state["finish"]
            choices.append(choice)
        body["choices"] = choices
        if self.usage is not None:
            body["usage"] = self.usage
        return body


_PATH_PART = re.compile(r"\.([A-Za-z_$][\w$-]*)|\[(\d+)\]|\['((?:[^'\\]|\\.)*)'\]|\[\"((?:[^\"\\]|\\.)*)\"\]")


def _json_path(path: str) -> list[str | int]:
    if not path.startswith("$"):
        raise ValueError(f"jsonPath {path!r} does not start with $")
    parts: list[str | int] = []
    pos = 1
    while pos < len(path):
        m = _PATH_PART.match(path, pos)
        if not m:
            raise ValueError(f"cannot read jsonPath {path!r}")
        name, num, single, double = m.groups()
        parts.append(
            int(num) if num is not None else (name if name is not None else (single or double or ""))
        )
        pos = m.end()
    return parts


def _set_path(root: dict[str, Any], parts: list[str | int], value: Any, append: bool) -> None:
    node: Any = root
    for i, part in enumerate(parts):
        last = i == len(parts) - 1
        nxt: Any = None if last else ([] if isinstance(parts[i + 1], int) else {})
        if isinstance(part, int):
            while len(node) <= part:
                node.append(None)
            if last:
                node[part] = node[part] + value if append and isinstance(node[part], str) else value
            else:
                if node[part] is None:
                    node[part] = nxt
                node = node[part]
        else:
            if last:
                node[part] = node[part] + value if append and isinstance(node.get(part), str) else value
            else:
                node = node.setdefault(part, nxt)


_VALUE_KEYS = ("stringValue", "numberValue", "boolValue", "nullValue", "structValue", "listValue")


class GeminiAccumulator(Accumulator):
    dialect = "gemini"

    def __init__(self) -> None:
        super().__init__()
        self.top: dict[str, Any] = {}
        self.candidates: dict[int, dict[str, Any]] = {}

    def on_data(self, data: Any) -> list[Fragment] | None:
        if "error" in data and "candidates" not in data:
            self.error = data["error"]
            return None
        for key, value in data.items():
            if key != "candidates":
                self.top[key] = value
        if data.get("candidates") is None and isinstance(data.get("promptFeedback"), dict):
            if data["promptFeedback"].get("blockReason"):
                self.finished = True
            return None
        out: list[Fragment] = []
        for position, candidate in enumerate(data.get("candidates") or []):
            index = candidate.get("index", position)
            state = self.candidates.setdefault(
                index, {"members": {}, "parts": [], "role": "model", "streaming": None, "partial": {}}
            )
            for key, value in candidate.items():
                if key != "content":
                    state["members"][key] = value
            content = candidate.get("content") or {}
            if content.get("role"):
                state["role"] = content["role"]
            for part in content.get("parts") or []:
                out.extend(self._part(state, part))
        if self.candidates and all("finishReason" in s["members"] for s in self.candidates.values()):
            self.finished = True
        return out

    def _part(self, state: dict[str, Any], part: dict[str, Any]) -> list[Fragment]:
        parts = state["parts"]
        call = part.get("functionCall")
        if call is not None:
            if state["streaming"] is not None:
                pending = state["streaming"]
                if not call:  # {} closes a streamed call
                    parts.append(pending["part"])
                    state["streaming"] = None
                    return [Fragment("call_end", call=pending["call"])]
                out = []
                for arg in call.get("partialArgs") or []:
                    key = next((k for k in _VALUE_KEYS if k in arg), None)
                    value = arg.get(key) if key else None
                    if key == "nullValue":
                        value = None
                    path = arg.get("jsonPath", "$")
                    append = key == "stringValue" and pending["continues"].get(path, False)
                    _set_path(pending["part"]["functionCall"]["args"], _json_path(path), value, append)
                    continues = bool(arg.get("willContinue")) and key == "stringValue"
                    pending["continues"][path] = continues
                    # (path, value) pairs are not JSON text: a value counts as available once complete
                    text = pending["held"].pop(path, "") + (
                        value if isinstance(value, str) else json.dumps(value)
                    )
                    if continues:
                        pending["held"][path] = text
                    else:
                        out.append(Fragment("arguments", text, pending["call"]))
                return out
            ordinal = self.new_call()
            if call.get("willContinue") is True:
                new = json_copy(part)
                new["functionCall"] = {
                    k: v for k, v in call.items() if k not in ("willContinue", "partialArgs")
                }
                new["functionCall"].setdefault("args", {})
                state["streaming"] = {"part": new, "continues": {}, "held": {}, "call": ordinal}
                return [Fragment("call_start", call=ordinal)]
            parts.append(json_copy(part))
            return [
                Fragment("call_start", call=ordinal),
                Fragment("arguments", json.dumps(call.get("args", {}), ensure_ascii=False), ordinal),
                Fragment("call_end", call=ordinal),
            ]
        if isinstance(part.get("text"), str):
            text = part["text"]
            thought = bool(part.get("thought"))
            prev = parts[-1] if parts else None
            kind = "thinking" if thought else "text"
            if (
                prev is not None
                and isinstance(prev.get("text"), str)
                and bool(prev.get("thought")) == thought
                and set(prev) <= {"text", "thought", "thoughtSignature"}
                and set(part) <= {"text", "thought", "thoughtSignature"}
                and not ("thoughtSignature" in prev and "thoughtSignature" in part)
            ):
                prev["text"] += text
                if "thoughtSignature" in part:
                    prev["thoughtSignature"] = part["thoughtSignature"]
            elif text or set(part) - {"text"}:
                parts.append(json_copy(part))
            return [Fragment(kind, text)] if text else []
        parts.append(json_copy(part))
        return []

    def build(self) -> Any:
        body: dict[str, Any] = {}
        if self.candidates:
            candidates = []
            for index in sorted(self.candidates):
                state = self.candidates[index]
                cand: dict[str, Any] = {"content": {"role": state["role"], "parts": state["parts"]}}
                cand.update(state["members"])
                candidates.append(cand)
            body["candidates"] = candidates
        body.update(self.top)
        return body


class OpenAIResponsesAccumulator(Accumulator):
    dialect = "openai-responses"
    TERMINAL = ("response.completed", "response.incomplete", "response.failed")
    TEXT = {
        "response.output_text.delta": "text",
        "response.refusal.delta": "text",
        "response.reasoning_summary_text.delta": "thinking",
        "response.reasoning_text.delta": "thinking",
    }
    TEXT_DONE = {
        "response.output_text.done": ("text", "text"),
        "response.refusal.done": ("refusal", "text"),
        "response.reasoning_summary_text.done": ("text", "thinking"),
        "response.reasoning_text.done": ("text", "thinking"),
    }

    def __init__(self) -> None:
        super().__init__()
        self.response: dict[str, Any] | None = None
        self.items: dict[int, dict[str, Any]] = {}
        self.call_of: dict[int, int] = {}
        self.streamed: set[tuple[Any, ...]] = set()

    def on_data(self, data: Any) -> list[Fragment] | None:
        if data == DONE:
            # not a Responses event (the grammar reports it): OpenAI's SDK stops reading there, as in any
            # stream (openai/_streaming.py), so what a client accumulates is unchanged
            return None
        kind = data.get("type")
        if kind == "error":
            self.error = {k: v for k, v in data.items() if k not in ("type", "sequence_number")}
            return None
        if kind in self.TERMINAL:
            self.response = json_copy(data["response"])
            self.finished = True
            return None
        if kind == "response.output_item.added":
            item = data["item"]
            self.items[data["output_index"]] = json_copy(item)
            if item.get("type") in ("function_call", "custom_tool_call"):
                member = "arguments" if item["type"] == "function_call" else "input"
                self.call_of[data["output_index"]] = ordinal = self.new_call()
                out = [Fragment("call_start", call=ordinal)]
                if item.get(member):
                    self.streamed.add(("args", data["output_index"]))
                    out.append(Fragment("arguments", item[member], ordinal))
                return out
        elif kind == "response.output_item.done":
            self.items[data["output_index"]] = json_copy(data["item"])
            if data["output_index"] in self.call_of:
                return [Fragment("call_end", call=self.call_of[data["output_index"]])]
        elif kind in ("response.function_call_arguments.delta", "response.custom_tool_call_input.delta"):
            self.streamed.add(("args", data["output_index"]))
            if data["delta"]:
                return [Fragment("arguments", data["delta"], self.call_of[data["output_index"]])]
        elif kind in ("response.function_call_arguments.done", "response.custom_tool_call_input.done"):
            member = "arguments" if kind.startswith("response.function_call") else "input"
            if ("args", data["output_index"]) not in self.streamed and data.get(member):
                return [Fragment("arguments", data[member], self.call_of[data["output_index"]])]
        elif kind in self.TEXT:
            key = (
                "text",
                data.get("output_index"),
                data.get("content_index", data.get("summary_index")),
                kind,
            )
            self.streamed.add(key)
            if data["delta"]:
                return [Fragment(self.TEXT[kind], data["delta"])]
        elif kind in self.TEXT_DONE:
            member, fkind = self.TEXT_DONE[kind]
            delta_kind = kind[: -len("done")] + "delta"
            key = (
                "text",
                data.get("output_index"),
                data.get("content_index", data.get("summary_index")),
                delta_kind,
            )
            if key not in self.streamed and data.get(member):
                return [Fragment(fkind, data[member])]
        elif kind == "response.created":
            self.response = json_copy(data["response"])
        return None

    def build(self) -> Any:
        assert self.response is not None
        response = json_copy(self.response)
        if response.get("output") is None:
            response["output"] = [self.items[i] for i in sorted(self.items)]
        return response


class CanonicalAccumulator(Accumulator):
    dialect = "canonical"

    def __init__(self) -> None:
        super().__init__()
        self.start: dict[str, Any] = {}
        self.end: dict[str, Any] = {}
        self.blocks: dict[int, dict[str, Any]] = {}
        self.call_of: dict[int, int] = {}

    def on_data(self, data: Any) -> list[Fragment] | None:
        if data == DONE:
            return None  # not an Anthropic event: the SDK, which dispatches on event names, skips it
        kind = data.get("type")
        if kind == "message_start":
            self.start = {k: data[k] for k in ("id", "model") if k in data}
        elif kind == "message_end":
            self.end = {k: data[k] for k in ("stop_reason", "stop_sequence", "usage") if k in data}
            self.finished = True
        elif kind == "error":
            self.error = data.get("error")
        elif kind == "block_end" and data.get("index") in self.call_of:
            return [Fragment("call_end", call=self.call_of[data["index"]])]
        elif kind == "tool_call_start":
            block = {"type": "tool_call", "id": data["id"], "name": data["name"], "_args": []}
            if data.get("custom"):
                block["_custom"] = True
            block.update({k: data[k] for k in ("signature", "origin") if k in data})
            self.blocks[data["index"]] = block
            self.call_of[data["index"]] = ordinal = self.new_call()
            return [Fragment("call_start", call=ordinal)]
        elif kind == "tool_call_delta":
            text = data["input"] if "input" in data else data["arguments"]  # a custom call's text: `input`
            self.blocks[data["index"]]["_args"].append(text)
            if text:
                return [Fragment("arguments", text, self.call_of[data["index"]])]
        elif kind in ("text_delta", "thinking_delta"):
            btype = "text" if kind == "text_delta" else "thinking"
            block = self.blocks.setdefault(data["index"], {"type": btype, "text": ""})
            block["text"] += data["text"]
            block.update({k: data[k] for k in ("signature", "origin") if k in data})
            if data["text"]:
                return [Fragment(btype, data["text"])]
        return None

    def build(self) -> Any:
        content = []
        for index in sorted(self.blocks):
            block = dict(self.blocks[index])
            if block["type"] == "tool_call":
                text = "".join(block.pop("_args"))
                if block.pop("_custom", False):
                    block["input"] = text
                    content.append(block)
                    continue
                try:
                    block["arguments"] = _parse_object(text)
                except ValueError:
                    block["arguments_raw"] = text
            content.append(block)
        return {**self.start, "content": content, **self.end}


ACCUMULATORS: dict[str, type[Accumulator]] = {
    cls.dialect: cls
    for cls in (
        AnthropicAccumulator,
        OpenAIChatAccumulator,
        GeminiAccumulator,
        OpenAIResponsesAccumulator,
        CanonicalAccumulator,
    )
}


def accumulate(events: Any, dialect: str) -> Any:
    """The non-streaming response body ``events`` accumulate to (raises :class:`StreamError`)."""
    if not isinstance(events, list):
        raise StreamError("stream.invalid_event", "a stream is a list of events")
    acc = ACCUMULATORS[dialect]()
    for event in events:
        acc.feed(event)
    return acc.result()


def fragments(events: list[Any], dialect: str) -> list[list[Fragment]]:
    """The content fragments of each event (tolerant: stops quietly at an unreadable event)."""
    acc = ACCUMULATORS[dialect]()
    out: list[list[Fragment]] = []
    for event in events:
        try:
            out.append(acc.feed(event))
        except StreamError:
            out.append([])
    return out
