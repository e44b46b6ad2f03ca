"""The OpenAI Chat Completions stream accumulator: an ``openai-chat`` stream -> its non-streaming response
body.

The body: ``{"id", "object": "chat.completion", "created", "model", "system_fingerprint"?,
  "service_tier"?, "choices": [{"index", "message": {"role", "content", "refusal"?, "tool_calls"?},
  "logprobs"?, "finish_reason"}], "usage"?}``: ``content`` is the joined ``delta.content`` (null when it is
  empty), ``tool_calls`` = ``[{"id", "type": "function", "function": {"name", "arguments"}}]`` by index
  with the joined argument text (a JSON string, as in a non-streaming response), or for a custom
  (free-form) call, whose fragments carry ``custom`` (``type: "custom"`` on the first), ``{"id", "type":
  "custom", "custom": {"name", "input"}}`` with the joined input (openai-node ``ChatCompletionStream``,
  which accumulates them); ``refusal`` only when
  some delta carries one; ``logprobs`` only when some chunk carries non-null logprobs (their
  ``content`` lists joined); ``system_fingerprint``/``service_tier``/``usage``: the last non-null value.
"""

from __future__ import annotations

from typing import Any

from ..accumulate import Accumulator, Fragment
from ..sse import DONE
from .fragments import text_member

__all__ = ["ACCUMULATOR", "OpenAIChatAccumulator"]


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
                out += self.call(state["calls"], call)
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

    def call(self, calls: dict[Any, dict[str, Any]], call: dict[str, Any]) -> list[Fragment]:
        """Feed one ``delta.tool_calls`` item into ``calls`` (a choice's calls by index)."""
        out: list[Fragment] = []
        member, field = text_member(call)
        body = call.get(member) or {}
        if call["index"] not in calls:
            calls[call["index"]] = {
                "id": call.get("id"),
                "name": body.get("name"),
                "custom": member == "custom",
                "arguments": [],
                "ordinal": self.new_call(),
            }
            out.append(Fragment("call_start", call=calls[call["index"]]["ordinal"]))
        entry = calls[call["index"]]
        text = body.get(field)
        if isinstance(text, str):
            entry["arguments"].append(text)
            if text:
                out.append(Fragment("arguments", text, entry["ordinal"]))
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
                message["tool_calls"] = [_tool_call(c) for _, c in sorted(state["calls"].items())]
            choice: dict[str, Any] = {"index": index, "message": message}
            if state["logprobs"] is not None:
                choice["logprobs"] = state["logprobs"]
            choice["finish_reason"] = state["finish"]
            choices.append(choice)
        body["choices"] = choices
        if self.usage is not None:
            body["usage"] = self.usage
        return body


def _tool_call(call: dict[str, Any]) -> dict[str, Any]:
    """A message's tool call from the accumulated fragments of one (a function or a custom call)."""
    text = "".join(call["arguments"])
    if call["custom"]:
        return {"id": call["id"], "type": "custom", "custom": {"name": call["name"], "input": text}}
    return {"id": call["id"], "type": "function", "function": {"name": call["name"], "arguments": text}}


ACCUMULATOR = OpenAIChatAccumulator
