"""The Gemini stream accumulator: a ``gemini`` stream -> its non-streaming response body.

The body: ``{"candidates": [{"content": {"role": "model", "parts"}, "finishReason", …}],
  "usageMetadata"?, "modelVersion"?, "responseId"?}``: parts in order, consecutive text parts with the
  same ``thought`` flag joined (at most one ``thoughtSignature`` per merged part), empty text parts
  without a signature dropped, ``functionCall`` parts whole; Vertex streamed calls (``willContinue`` /
  ``partialArgs``) assembled into ``{"functionCall": {"name", "args"}}`` (a ``stringValue`` with
  ``willContinue`` is continued by the next value at the same ``jsonPath``; as a fragment, a value counts
  once complete, since (path, value) pairs are not JSON text); every other candidate and
  top-level member: its last value.
"""

from __future__ import annotations

import json
import re
from typing import Any

from ...jsonvalue import json_copy
from ..accumulate import Accumulator, Fragment

__all__ = ["ACCUMULATOR", "GeminiAccumulator"]


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


ACCUMULATOR = GeminiAccumulator
