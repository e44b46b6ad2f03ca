"""Request bodies of the Chat Completions family (``POST /v1/chat/completions``: OpenAI Chat, Mistral) ↔ the
canonical request: :class:`ChatRequestCodec`, whose class attributes and small methods are what a dialect
of the family sets apart (``dialects/openai_chat/request.py``, ``dialects/mistral/request.py``).

Decoding: leading ``system`` (and, where the dialect has it, ``developer``) messages are the system prompt;
``tool`` messages (and OpenAI's legacy ``function`` role) are tool results merged with the user message
right after them; assistant ``tool_calls`` (and the legacy ``function_call``) are tool-call parts after the
message's text. Encoding: one ``system`` message per system part; a canonical user message becomes its
results as ``tool`` messages, then a ``user`` message with the rest; assistant text joined into one string.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import ModuleType
from typing import Any

from .. import calls
from .. import messages as msgs
from .._json import MISSING, expect_list, expect_object, invalid
from ..errors import Segments, TranslationError, pointer
from ..reasoning import EFFORTS, effort_of, one_of, setting
from ..reasoning import NAME as REASONING
from ..request import (
    Request,
    copy_settings,
    decode_choice,
    decode_tools,
    encode_choice,
    encode_tools,
    json_schema_format,
    open_request,
    present,
    put_settings,
    read_stop,
    require_messages,
    under,
)
from ..rules import DialectRules
from .common import read_function

#: the members every dialect of the family reads
KNOWN = frozenset(
    (
        "model",
        "messages",
        "tools",
        "tool_choice",
        "parallel_tool_calls",
        "max_tokens",
        "temperature",
        "top_p",
        "stop",
        "response_format",
        "stream",
    )
)


class ChatRequestCodec:
    """The request codec of one Chat-family dialect (``rules``, its ``tools`` codec module).

    - ``known``: the top-level members it decodes (others: ignorable, default-valued or unsupported);
    - ``system_roles``: the roles read as the system prompt;
    - ``legacy``: OpenAI's ``functions``, ``function_call`` and ``function`` role;
    - ``max_tokens_in`` / ``max_tokens_out``: the members carrying ``max_tokens`` in and out;
    - ``result_names``: tool messages carry the function ``name`` (read, and written when the result has one).
    """

    #: a streamed request asks for usage (``stream_options.include_usage``; OpenAI sends none unless asked)
    stream_usage_option = False

    known: frozenset[str] = KNOWN
    system_roles: tuple[str, ...] = ("system",)
    legacy: bool = False
    max_tokens_in: Mapping[str, str] = {"max_tokens": "max_tokens"}
    max_tokens_out: str = "max_tokens"
    result_names: bool = False

    def __init__(self, rules: DialectRules, tools: ModuleType) -> None:
        self.rules = rules
        self.name = rules.name
        self.tools = tools

    # ---- decoding --------------------------------------------------------------------------------

    def decode_request(self, payload: Any, profile: Mapping[str, str]) -> Request:
        """The canonical request of a request body."""
        body, req = open_request(payload, self.known, profile, self.rules)
        copy_settings(
            req,
            body,
            (),
            {"model": "model", "temperature": "temperature", "top_p": "top_p", "stream": "stream"},
            model="model",
            stream="bool",
        )
        copy_settings(req, body, (), self.max_tokens_in, max_tokens="count")
        stop = read_stop(body, "stop", (), allow_string=True)
        if stop is not MISSING:
            req.set("stop", stop, ("stop",))
        self.decode_extras(req, body, profile)
        if present(body, "response_format"):
            fmt = self._decode_format(req, body["response_format"])
            if fmt is not None:
                req.set("response_format", fmt, ("response_format",))
        items = expect_list(body.get("messages", MISSING), ("messages",), "`messages`")
        self._decode_messages(req, items, profile)
        if self.legacy and present(body, "tools") and present(body, "functions"):
            raise invalid("give `tools` or the legacy `functions`, not both", ("functions",))
        if present(body, "tools"):
            decode_tools(req, self.tools, body["tools"], ("tools",), profile)
        elif self.legacy and present(body, "functions"):
            self._decode_functions(req, body["functions"])
        keys = (
            ("tool_choice", "function_call", "parallel_tool_calls")
            if self.legacy
            else (
                "tool_choice",
                "parallel_tool_calls",
            )
        )
        decode_choice(req, self.tools, body, keys, profile)
        return req

    def decode_extras(self, req: Request, body: dict, profile: Mapping[str, str]) -> None:
        """The dialect's own settings (none here)."""

    def _decode_functions(self, req: Request, value: Any) -> None:
        with under(("functions",)):
            functions = expect_list(value, (), "`functions`")
            req.tools = [
                read_function(
                    expect_object(f, (i,), "a function"), (i,), params_key="parameters", null_strict=True
                )
                for i, f in enumerate(functions)
            ]
        req.tools_base = ("functions",)

    def _decode_format(self, req: Request, value: Any) -> dict | None:
        base = ("response_format",)
        fmt = expect_object(value, base, "`response_format`")
        kind = fmt.get("type")
        if kind == "text":
            return None
        if kind == "json_object":
            return {"type": "json"}
        if kind != "json_schema":
            raise invalid(
                '`response_format.type` is "text", "json_object" or "json_schema"', base + ("type",)
            )
        inner = expect_object(fmt.get("json_schema", MISSING), base + ("json_schema",), "`json_schema`")
        return json_schema_format(
            inner.get("name", MISSING),
            inner.get("schema", {"type": "object", "properties": {}}),
            inner.get("strict", MISSING),
            base + ("json_schema", "schema"),
            req,
        )

    def _decode_messages(self, req: Request, items: list, profile: Mapping[str, str]) -> None:
        builder = msgs.Builder(req)
        legacy_calls: dict[str, list[str]] = {}  # function name -> generated ids not yet answered
        ids = calls.IdGenerator(_ids(items), fresh=False)
        for i, item in enumerate(items):
            path = ("messages", i)
            message = expect_object(item, path, "a message")
            role = message.get("role")
            if role in self.system_roles:
                msgs.check_late_system(req, role, path, profile)
                content = _text_content(message, path, profile, role)
                msgs.system_text(req, msgs.JOIN.join(content), path)
            elif role == "user":
                out = builder.for_user(path)
                for part, part_path in self._user_content(message, path, profile):
                    builder.add(out, part, part_path)
            elif role == "assistant":
                self._decode_assistant(builder, message, path, profile, ids, legacy_calls)
                self.check_assistant(message, path, last=i == len(items) - 1)
            elif role == "tool":
                where = path + ("tool_call_id",)
                call_id = msgs.read_nonempty(message.get("tool_call_id", MISSING), where, "`tool_call_id`")
                name = message.get("name") if self.result_names else None
                name = name if isinstance(name, str) and name else MISSING
                builder.add(builder.for_result(path), _result(message, call_id, name, path, profile), path)
            elif role == "function" and self.legacy:
                name = message.get("name")
                if not isinstance(name, str):
                    raise invalid("a `function` message needs the function `name`", path + ("name",))
                pending = legacy_calls.get(name)
                call_id = pending.pop(0) if pending else str(ids.new())
                builder.add(builder.for_result(path), _result(message, call_id, name, path, profile), path)
            else:
                raise TranslationError(
                    "message.invalid_role", f"unknown message role {role!r}", pointer(path)
                )

    def check_assistant(self, message: dict, path: Segments, *, last: bool) -> None:
        """The dialect's own checks of an assistant message (none here)."""

    def _user_content(self, message: dict, path: Segments, profile) -> list[tuple[dict, Segments]]:
        content = message.get("content")
        if isinstance(content, str):
            return [(msgs.text(content), path + ("content",))]
        out = []
        for j, part in enumerate(expect_list(content, path + ("content",), "`content`")):
            where = path + ("content", j)
            part = expect_object(part, where, "a content part")
            kind = part.get("type")
            if kind == "text":
                out.append((msgs.text(msgs.read_text(part.get("text", MISSING), where + ("text",))), where))
            elif kind == "image_url":
                ref = part.get("image_url")
                url = ref.get("url") if isinstance(ref, dict) else ref
                out.append((msgs.image_from_url(url, where + ("image_url",)), where))
            else:
                decoded = self.decode_user_part(part, kind, where, profile)
                if decoded is not None:
                    out.append((decoded, where))
        return out

    def decode_user_part(self, part: dict, kind: Any, where: Segments, profile) -> dict | None:
        """A user content part other than text and ``image_url``: unsupported here."""
        msgs.unsupported_part(profile, f"a `{kind}` content part", where)
        return None

    def _decode_assistant(self, builder, message: dict, path: Segments, profile, ids, legacy_calls) -> None:
        out = builder.open("assistant", path)
        content = message.get("content")
        if isinstance(content, str):
            builder.add(out, msgs.text(content), path + ("content",))
        elif content is not None:
            for j, part in enumerate(expect_list(content, path + ("content",), "`content`")):
                where = path + ("content", j)
                part = expect_object(part, where, "a content part")
                kind = part.get("type")
                if kind is not None:
                    msgs.read_text(kind, where + ("type",), "a content part's `type`")
                key = {"text": "text", "refusal": "refusal"}.get(kind)
                if key is None:
                    msgs.unsupported_part(
                        profile, f"a `{part.get('type')}` part in an assistant message", where
                    )
                    continue
                builder.add(out, msgs.text(msgs.read_text(part.get(key, MISSING), where + (key,))), where)
        if isinstance(message.get("refusal"), str) and content is None:
            builder.add(out, msgs.text(message["refusal"]), path + ("refusal",))
        tool_calls = message.get("tool_calls")
        if tool_calls is not None:
            for j, call in enumerate(expect_list(tool_calls, path + ("tool_calls",), "`tool_calls`")):
                where = path + ("tool_calls", j)
                call = expect_object(call, where, "a tool call")
                kind = call.get("type", "function")
                if kind not in ("function", "custom") or (kind == "custom" and not self.rules.custom_tools):
                    msgs.unsupported_part(profile, f"a `{kind}` tool call", where + ("type",))
                    continue
                call_id = msgs.read_nonempty(call.get("id", MISSING), where + ("id",), "a tool call's `id`")
                if kind == "custom":
                    builder.add(out, _custom_call(call, call_id, where), where)
                else:
                    function = call.get("function")
                    builder.add(out, self._call(function, call_id, where + ("function",), profile), where)
        legacy = message.get("function_call") if self.legacy else None
        if legacy is not None:
            call_id = str(ids.new())  # a plain id: emitted to every target (Gemini included)
            part = self._call(legacy, call_id, path + ("function_call",), profile)
            legacy_calls.setdefault(part["name"], []).append(call_id)
            builder.add(out, part, path + ("function_call",))

    def _call(self, function: Any, call_id: str, path: Segments, profile) -> dict:
        function = expect_object(function, path, "`function`")
        name = msgs.read_nonempty(function.get("name", MISSING), path + ("name",), "`name`")
        args = self.read_arguments(function.get("arguments", MISSING), path + ("arguments",), profile)
        return msgs.tool_call(call_id, name, args)

    def read_arguments(self, value: Any, path: Segments, profile) -> Any:
        """A call's ``arguments``: JSON text."""
        return calls.arguments_to_object(value, path, profile)

    # ---- encoding --------------------------------------------------------------------------------

    def encode_request(self, req: Request, profile: Mapping[str, str]) -> dict:
        """The request body of a canonical request."""
        out: dict = {}
        put_settings(req, out, {"model": "model"})
        messages = [{"role": "system", "content": part["text"]} for part in req.system or []]
        for message in req.messages:
            if message["role"] == "user":
                messages += self._encode_user(req, message, profile)
            else:
                messages.append(self._encode_assistant(req, message, profile))
        out["messages"] = require_messages(self.finish_messages(messages, profile), self.name)
        tools = encode_tools(req, self.tools, self.rules, profile)
        if tools is not MISSING:
            out["tools"] = tools
        out.update(encode_choice(req, self.tools, self.rules, profile))
        self.encode_extras(req, out, profile)
        put_settings(
            req,
            out,
            {
                "max_tokens": self.max_tokens_out,
                "temperature": "temperature",
                "top_p": "top_p",
                "stop": "stop",
            },
        )
        if "response_format" in req.settings:
            out["response_format"] = self.encode_format(req, profile)
        put_settings(req, out, {"stream": "stream"})
        if out.get("stream") is True and self.stream_usage_option:
            # every other dialect's stream reports usage; OpenAI's only when asked (its final usage chunk)
            out["stream_options"] = {"include_usage": True}
        return out

    def encode_extras(self, req: Request, out: dict, profile: Mapping[str, str]) -> None:
        """The dialect's own settings (none here)."""

    def encode_format(self, req: Request, profile: Mapping[str, str]) -> dict:
        """The canonical response format as ``response_format`` (overridden by each dialect)."""
        raise NotImplementedError

    def finish_messages(self, messages: list[dict], profile: Mapping[str, str]) -> list[dict]:
        """The encoded messages as sent (unchanged here)."""
        return messages

    def _encode_user(self, req: Request, message: dict, profile) -> list[dict]:
        results, others = msgs.split_user(message)
        out = []
        for result in results:
            tool: dict = {"role": "tool", "tool_call_id": msgs.out_id(result["call_id"], self.rules, profile)}
            if self.result_names and result.get("name"):
                tool["name"] = result["name"]
            tool["content"] = self._result_content(req, result, profile)
            out.append(tool)
        parts = []
        for part in others:
            if part["type"] == "text":
                parts.append({"type": "text", "text": part["text"]})
            elif part["type"] == "document":
                encoded = self.encode_document(req, part, profile)
                if encoded is not None:
                    parts.append(encoded)
            else:
                parts.append({"type": "image_url", "image_url": {"url": msgs.url_of(part)}})
        if len(parts) == 1 and parts[0]["type"] == "text":
            out.append({"role": "user", "content": parts[0]["text"]})
        elif parts:
            out.append({"role": "user", "content": parts})
        return out

    def encode_document(self, req: Request, part: dict, profile) -> dict | None:
        """A canonical document part as a user content part (None: dropped under degrade)."""
        msgs.unsupported_part(profile, "a document", req.paths.get(id(part), ()), self.name)
        return None

    def _result_content(self, req: Request, result: dict, profile) -> str | list[dict]:
        value = msgs.result_text(req, result, profile, self.name)
        if isinstance(value, list):
            return [{"type": "text", "text": t} for t in value]
        return value

    def _encode_assistant(self, req: Request, message: dict, profile) -> dict:
        texts = msgs.texts(message["content"])
        tool_calls = [
            {"id": msgs.out_id(part["id"], self.rules, profile), **self.call_body(req, part, profile)}
            for part in message["content"]
            if part["type"] == "tool_call"
        ]
        out: dict = {"role": "assistant"}
        out["content"] = msgs.JOIN.join(texts) if texts or not tool_calls else None
        if tool_calls:
            out["tool_calls"] = tool_calls
        return out

    def call_body(self, req: Request, part: dict, profile) -> dict:
        """The ``type`` and body of a ``tool_calls`` entry (overridden by each dialect)."""
        raise NotImplementedError


def _ids(items: list) -> list[str]:
    out = []
    for item in items:
        if isinstance(item, dict) and isinstance(item.get("tool_calls"), list):
            out += [c.get("id") for c in item["tool_calls"] if isinstance(c, dict)]
    return out


def _text_content(message: dict, path: Segments, profile, role: str) -> list[str]:
    content = message.get("content")
    if isinstance(content, str):
        return [content]
    out = []
    for j, part in enumerate(expect_list(content, path + ("content",), "`content`")):
        part = expect_object(part, path + ("content", j), "a content part")
        if part.get("type") != "text":
            msgs.unsupported_part(
                profile, f"a `{part.get('type')}` part in a {role} message", path + ("content", j)
            )
            continue
        out.append(msgs.read_text(part.get("text", MISSING), path + ("content", j, "text")))
    return out


def _custom_call(call: dict, call_id: str, path: Segments) -> dict:
    """``{"id", "type": "custom", "custom": {"name", "input"}}`` → a canonical custom call."""
    inner = expect_object(call.get("custom", MISSING), path + ("custom",), "`custom`")
    name = msgs.read_nonempty(inner.get("name", MISSING), path + ("custom", "name"), "`name`")
    return msgs.custom_call(call_id, name, inner.get("input", MISSING), path + ("custom", "input"), path)


def _result(message: dict, call_id: str, name: Any, path: Segments, profile) -> dict:
    content = message.get("content")
    if content is None:
        parts = []
    elif isinstance(content, str):
        parts = [msgs.text(content)]
    else:
        parts = [msgs.text(t) for t in _text_content(message, path, profile, "tool")]
    is_error = msgs.strip_error_prefix(parts, profile)
    return msgs.tool_result(call_id, parts, name=name, is_error=True if is_error else MISSING)


def read_reasoning_effort(req: Request, body: dict) -> None:
    """``reasoning_effort``."""
    if body.get("reasoning_effort") is not None:
        effort = one_of(body["reasoning_effort"], EFFORTS, "`reasoning_effort`", ("reasoning_effort",))
        req.set(REASONING, {"effort": effort}, ("reasoning_effort",))


def write_reasoning_effort(req: Request, out: dict) -> None:
    """``reasoning_effort`` (Chat returns no reasoning: ``summary`` has nothing to ask for)."""
    reasoning = setting(req)
    effort = effort_of(reasoning) if reasoning is not None else None
    if effort is not None:
        out["reasoning_effort"] = effort
