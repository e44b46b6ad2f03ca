"""Mistral chat completion requests (``POST /v1/chat/completions``) ↔ the canonical request: the
Chat-family codec (``dialects/chat_request.py``) with Mistral's own rules (the SDK's
``ChatCompletionRequest``, ``AssistantMessage``, ``ToolMessage``, ``ToolCall``):

- ``system``, ``user``, ``assistant`` and ``tool`` roles; ``max_tokens``; ``reasoning_effort`` (read as
  any of OpenAI's efforts, the SDK's type; written ``high`` or ``none`` only, the values the API takes: any
  other is ``request.unsupported_field``, degrade ``high``); a tool message's ``name`` (read, and written
  when the result names its function);
- a call's ``arguments`` is JSON text or a JSON object (``FunctionCall.arguments: Dict | str``); calls are
  written with JSON text;
- tool-call ids are 9 ASCII letters and digits: any other id is written as one derived from it
  (``calls.alnum_id``), the same for the call and its results (RULES.md, "Ids");
- a user turn holding tool results then text is written as ``tool`` messages then a ``user`` message,
  which Mistral takes since mistral-common 1.11.1; under ``mistral.tool-then-user=bridge`` (servers whose
  validator is older) an assistant message ``OK`` goes between them;
- a canonical request whose last message is the assistant's (a prefill) ends with that message and
  ``prefix: true``, which Mistral requires of a last assistant message; a source's ``prefix`` is read as a
  boolean (a prefix message is the last one: the prefill);
- the response format's schema is sent unchanged; hosted web search and ``top_k`` have no Mistral form
  (``request.unsupported_field``; dropped under degrade), ``verbosity`` is dropped.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ... import calls
from ..._json import copy_json, invalid
from ...custom import refuse_call, wrapped_arguments, wrapping
from ...errors import Segments
from ...request import Request, drop_setting, response_format, unsupported
from ..chat_request import KNOWN, ChatRequestCodec, read_reasoning_effort, write_reasoning_effort
from . import tools as mistral
from .rules import RULES

NAME = RULES.name
#: the reasoning efforts the API takes ("reasoning_effort <value> is not supported for this model,
#: supported values: [high, none]", quoted by any-llm's Mistral provider;
#: https://docs.mistral.ai/studio-api/conversations/reasoning)
EFFORTS = ("high", "none")


#: the profile key saying what goes between a ``tool`` message and a ``user`` message (profiles.json)
TOOL_THEN_USER = "mistral.tool-then-user"
#: the text of the assistant message written between them under ``mistral.tool-then-user=bridge``: a
#: validator before mistral-common 1.11.1 refuses ``user`` after ``tool``, and one before its V5
#: requests refuses an assistant message with neither content nor calls (RULES.md, "Requests")
BRIDGE_TEXT = "OK"


def bridge_tool_then_user(messages: list[dict]) -> list[dict]:
    """``messages`` with an assistant message of :data:`BRIDGE_TEXT` after each ``tool`` message that a
    ``user`` message follows (``mistral.tool-then-user=bridge``); every other message as it is."""
    out: list[dict] = []
    for i, message in enumerate(messages):
        out.append(message)
        if message["role"] == "tool" and i + 1 < len(messages) and messages[i + 1]["role"] == "user":
            out.append({"role": "assistant", "content": BRIDGE_TEXT})
    return out


class MistralRequest(ChatRequestCodec):
    """Mistral's chat completion request."""

    known = KNOWN | {"reasoning_effort"}
    result_names = True

    def decode_extras(self, req: Request, body: dict, profile: Mapping[str, str]) -> None:
        read_reasoning_effort(req, body)

    def read_arguments(self, value: Any, path: Segments, profile) -> Any:
        if isinstance(value, dict):
            return copy_json(value)
        return calls.arguments_to_object(value, path, profile)

    def check_assistant(self, message: dict, path: Segments, *, last: bool) -> None:
        prefix = message.get("prefix", False)
        if not isinstance(prefix, bool):
            raise invalid("`prefix` must be a boolean", path + ("prefix",))

    def finish_messages(self, messages: list[dict], profile: Mapping[str, str]) -> list[dict]:
        if profile.get(TOOL_THEN_USER) == "bridge":
            messages = bridge_tool_then_user(messages)
        if messages and messages[-1]["role"] == "assistant" and "tool_calls" not in messages[-1]:
            messages[-1]["prefix"] = True
        return messages

    def encode_extras(self, req: Request, out: dict, profile: Mapping[str, str]) -> None:
        write_reasoning_effort(req, out)
        effort = out.get("reasoning_effort")
        if effort is not None and effort not in EFFORTS:
            message = f"Mistral takes reasoning_effort high or none, not {effort!r}"
            unsupported(profile, "request.unsupported_field", message, req.setting_path("reasoning"))
            out["reasoning_effort"] = "high"  # degrade: some reasoning, as asked
        for name in ("web_search", "top_k"):
            drop_setting(req, name, NAME, profile)

    def encode_format(self, req: Request, profile: Mapping[str, str]) -> dict:
        fmt = response_format(req, RULES, profile)
        if fmt["type"] == "json":
            return {"type": "json_object"}
        inner: dict = {"name": fmt.get("name", "response"), "schema": copy_json(fmt["schema"])}
        if "strict" in fmt:
            inner["strict"] = fmt["strict"]
        return {"type": "json_schema", "json_schema": inner}

    def call_body(self, req: Request, part: dict, profile) -> dict:
        return call_body(part, profile, req.paths.get(id(part), ()))


def call_body(part: Mapping[str, Any], profile: Mapping[str, str], where: Segments | str = "") -> dict:
    """``{"type": "function", "function": {"name", "arguments"}}`` of a canonical call, arguments as JSON
    text; a custom (free-form) call is refused (``content.unsupported``), or under ``custom.tools=wrap`` the
    call of the function its tool became."""
    if "input" in part:
        if not wrapping(profile):
            raise refuse_call(part, NAME, where)
        arguments = calls.arguments_to_text(wrapped_arguments(part["input"]))
    else:
        arguments = calls.arguments_for_text(part)
    return {"type": "function", "function": {"name": part["name"], "arguments": arguments}}


CODEC = MistralRequest(RULES, mistral)
decode_request = CODEC.decode_request
encode_request = CODEC.encode_request
