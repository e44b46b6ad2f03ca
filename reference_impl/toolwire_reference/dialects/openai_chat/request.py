"""OpenAI Chat Completions request bodies (``POST /v1/chat/completions``) ↔ the canonical request.

Decoding: leading ``system``/``developer`` messages are the system prompt; ``tool`` messages (and the
legacy ``function`` role) are tool results merged with the user message right after them; assistant
``tool_calls`` (and the legacy ``function_call``) are tool-call parts after the message's text.
Encoding: one ``system`` message per system part; a canonical user message becomes its results as
``tool`` messages, then a ``user`` message with the rest; assistant text joined into one string.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ... import calls, hosted, reasoning
from ... import messages as msgs
from ..._json import MISSING, expect_list, expect_object, invalid
from ...errors import Segments, TranslationError, pointer
from ...request import (
    Request,
    copy_settings,
    decode_choice,
    decode_tools,
    drop_setting,
    encode_choice,
    encode_tools,
    json_schema_format,
    open_request,
    present,
    put_settings,
    read_stop,
    read_verbosity,
    require_messages,
    schema_tool,
    under,
)
from .. import openai_common
from ..common import read_function
from . import tools as openai_chat
from .rules import RULES

NAME = RULES.name
_KNOWN = frozenset(
    (
        "model",
        "messages",
        "tools",
        "functions",
        "tool_choice",
        "function_call",
        "parallel_tool_calls",
        "max_tokens",
        "max_completion_tokens",
        "temperature",
        "top_p",
        "stop",
        "response_format",
        "reasoning_effort",
        "verbosity",
        "web_search_options",
        "stream",
    )
)


# ---- decoding ------------------------------------------------------------------------------------


def decode_request(payload: Any, profile: Mapping[str, str]) -> Request:
    body, req = open_request(payload, _KNOWN, profile, RULES)
    copy_settings(
        req,
        body,
        (),
        {"model": "model", "temperature": "temperature", "top_p": "top_p", "stream": "stream"},
        model="string",
        stream="bool",
    )
    copy_settings(
        req,
        body,
        (),
        {"max_tokens": "max_tokens", "max_completion_tokens": "max_tokens"},
        max_tokens="count",
    )
    stop = read_stop(body, "stop", (), allow_string=True)
    if stop is not MISSING:
        req.set("stop", stop, ("stop",))
    reasoning.read_chat(req, body)
    read_verbosity(req, body, "verbosity", ())
    hosted.read_chat(req, body, profile)
    if present(body, "response_format"):
        fmt = _decode_format(req, body["response_format"])
        if fmt is not None:
            req.set("response_format", fmt, ("response_format",))
    _decode_messages(req, expect_list(body.get("messages", MISSING), ("messages",), "`messages`"), profile)
    if present(body, "tools") and present(body, "functions"):
        raise invalid("give `tools` or the legacy `functions`, not both", ("functions",))
    if present(body, "tools"):
        decode_tools(req, openai_chat, body["tools"], ("tools",), profile)
    elif present(body, "functions"):
        with under(("functions",)):
            functions = expect_list(body["functions"], (), "`functions`")
            req.tools = [
                read_function(
                    expect_object(f, (i,), "a function"), (i,), params_key="parameters", null_strict=True
                )
                for i, f in enumerate(functions)
            ]
        req.tools_base = ("functions",)
    decode_choice(req, openai_chat, body, ("tool_choice", "function_call", "parallel_tool_calls"), profile)
    return req


def _decode_format(req: Request, value: Any) -> dict | None:
    base = ("response_format",)
    fmt = expect_object(value, base, "`response_format`")
    kind = fmt.get("type")
    if kind == "text":
        return None
    if kind == "json_object":
        return {"type": "json"}
    if kind != "json_schema":
        raise invalid('`response_format.type` is "text", "json_object" or "json_schema"', base + ("type",))
    inner = expect_object(fmt.get("json_schema", MISSING), base + ("json_schema",), "`json_schema`")
    return json_schema_format(
        inner.get("name", MISSING),
        inner.get("schema", {"type": "object", "properties": {}}),
        inner.get("strict", MISSING),
        base + ("json_schema", "schema"),
        req,
    )


def _decode_messages(req: Request, items: list, profile: Mapping[str, str]) -> None:
    builder = msgs.Builder(req)
    legacy_calls: dict[str, list[str]] = {}  # function name -> generated ids not yet answered
    ids = calls.IdGenerator(_ids(items), fresh=False)
    for i, item in enumerate(items):
        path = ("messages", i)
        message = expect_object(item, path, "a message")
        role = message.get("role")
        if role in ("system", "developer"):
            msgs.check_late_system(req, role, path, profile)
            content = _text_content(message, path, profile, role)
            msgs.system_text(req, msgs.JOIN.join(content), path)
        elif role == "user":
            out = builder.for_user(path)
            for part, part_path in _user_content(message, path, profile):
                builder.add(out, part, part_path)
        elif role == "assistant":
            _decode_assistant(builder, message, path, profile, ids, legacy_calls)
        elif role == "tool":
            call_id = message.get("tool_call_id")
            if not isinstance(call_id, str) or not call_id:
                raise invalid("a `tool` message needs a `tool_call_id` string", path + ("tool_call_id",))
            builder.add(builder.for_result(path), _result(message, call_id, MISSING, path, profile), path)
        elif role == "function":
            name = message.get("name")
            if not isinstance(name, str):
                raise invalid("a `function` message needs the function `name`", path + ("name",))
            pending = legacy_calls.get(name)
            call_id = pending.pop(0) if pending else str(ids.new())
            builder.add(builder.for_result(path), _result(message, call_id, name, path, profile), path)
        else:
            raise TranslationError("message.invalid_role", f"unknown message role {role!r}", pointer(path))


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


def _user_content(message: dict, path: Segments, profile) -> list[tuple[dict, Segments]]:
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
        elif kind == "file":
            file = expect_object(part.get("file", MISSING), where + ("file",), "`file`")
            document = msgs.document_from_openai(file, where + ("file",), "file_data", profile)
            if document is not None:
                out.append((document, where))
        else:
            msgs.unsupported_part(profile, f"a `{kind}` content part", where)
    return out


def _decode_assistant(builder, message: dict, path: Segments, profile, ids, legacy_calls) -> None:
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
                msgs.unsupported_part(profile, f"a `{part.get('type')}` part in an assistant message", where)
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
            if kind not in ("function", "custom"):
                msgs.unsupported_part(profile, f"a `{kind}` tool call", where + ("type",))
                continue
            call_id = call.get("id")
            if not isinstance(call_id, str) or not call_id:
                raise invalid("a tool call needs an `id` string", where + ("id",))
            if kind == "custom":
                builder.add(out, _custom_call(call, call_id, where), where)
            else:
                builder.add(out, _call(call.get("function"), call_id, where + ("function",), profile), where)
    legacy = message.get("function_call")
    if legacy is not None:
        call_id = str(ids.new())  # a plain id: emitted to every target (Gemini included)
        part = _call(legacy, call_id, path + ("function_call",), profile)
        legacy_calls.setdefault(part["name"], []).append(call_id)
        builder.add(out, part, path + ("function_call",))


def _call(function: Any, call_id: str, path: Segments, profile) -> dict:
    function = expect_object(function, path, "`function`")
    name = msgs.read_text(function.get("name", MISSING), path + ("name",), "`name`")
    args = calls.arguments_to_object(function.get("arguments", MISSING), path + ("arguments",), profile)
    return msgs.tool_call(call_id, name, args)


def _custom_call(call: dict, call_id: str, path: Segments) -> dict:
    """``{"id", "type": "custom", "custom": {"name", "input"}}`` → a canonical custom call."""
    inner = expect_object(call.get("custom", MISSING), path + ("custom",), "`custom`")
    name = msgs.read_text(inner.get("name", MISSING), path + ("custom", "name"), "`name`")
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


# ---- encoding ------------------------------------------------------------------------------------


def encode_request(req: Request, profile: Mapping[str, str]) -> dict:
    out: dict = {}
    put_settings(req, out, {"model": "model"})
    messages = [{"role": "system", "content": part["text"]} for part in req.system or []]
    for message in req.messages:
        if message["role"] == "user":
            messages += _encode_user(req, message, profile)
        else:
            messages.append(_encode_assistant(req, message, profile))
    out["messages"] = require_messages(messages, NAME)
    reasoning.write_chat(req, out)
    tools = encode_tools(req, openai_chat, RULES, profile)
    if tools is not MISSING:
        out["tools"] = tools
    out.update(encode_choice(req, openai_chat, RULES, profile))
    search = hosted.chat_options(req, profile)
    if search is not None:
        out["web_search_options"] = search
        if "tools" not in out and out.get("tool_choice") == "auto":
            del out["tool_choice"]  # Chat takes a tool choice only with tools; `auto` is the default
    put_settings(
        req,
        out,
        {
            "max_tokens": "max_completion_tokens",
            "temperature": "temperature",
            "top_p": "top_p",
            "stop": "stop",
            "verbosity": "verbosity",
        },
    )
    drop_setting(req, "top_k", NAME, profile)
    if "response_format" in req.settings:
        out["response_format"] = _encode_format(req, profile)
    put_settings(req, out, {"stream": "stream"})
    return out


def encode_format(req: Request, profile: Mapping[str, str]) -> dict:
    """The canonical response format as OpenAI's ``{type, name, schema, strict?}`` (Chat nests it in
    ``json_schema``, Responses puts it in ``text.format``); the ``openai.strict`` profile rewrites the
    schema exactly as it rewrites tool parameters."""
    fmt = req.settings["response_format"]
    if fmt["type"] == "json":
        return {"type": "json_object"}
    tool = schema_tool(req)
    with tool.params_origin.reporting():
        schema = openai_common.parameters(tool, profile, always=True)
    out = {"name": fmt.get("name", "response"), "schema": schema}
    strict = openai_common.strict_flag(tool, profile, undeclared=MISSING)
    if strict is not MISSING:
        out["strict"] = strict
    return out


def _encode_format(req: Request, profile) -> dict:
    fmt = encode_format(req, profile)
    if fmt.get("type") == "json_object":
        return fmt
    return {"type": "json_schema", "json_schema": fmt}


def _encode_user(req: Request, message: dict, profile) -> list[dict]:
    results, others = msgs.split_user(message)
    out = [
        {
            "role": "tool",
            "tool_call_id": msgs.out_id(result["call_id"], RULES, profile),
            "content": _result_content(req, result, profile),
        }
        for result in results
    ]
    parts = []
    for part in others:
        if part["type"] == "text":
            parts.append({"type": "text", "text": part["text"]})
        elif part["type"] == "document":
            file = msgs.openai_file(req, part, profile, NAME, urls=False)
            if file is not None:
                parts.append({"type": "file", "file": file})
        else:
            parts.append({"type": "image_url", "image_url": {"url": msgs.url_of(part)}})
    if len(parts) == 1 and parts[0]["type"] == "text":
        out.append({"role": "user", "content": parts[0]["text"]})
    elif parts:
        out.append({"role": "user", "content": parts})
    return out


def _result_content(req: Request, result: dict, profile) -> str | list[dict]:
    value = msgs.result_text(req, result, profile, NAME)
    if isinstance(value, list):
        return [{"type": "text", "text": t} for t in value]
    return value


def _encode_assistant(req: Request, message: dict, profile) -> dict:
    texts = msgs.texts(message["content"])
    tool_calls = [
        {
            "id": msgs.out_id(part["id"], RULES, profile),
            **openai_common.chat_call_body(part),
        }
        for part in message["content"]
        if part["type"] == "tool_call"
    ]
    out: dict = {"role": "assistant"}
    out["content"] = msgs.JOIN.join(texts) if texts or not tool_calls else None
    if tool_calls:
        out["tool_calls"] = tool_calls
    return out
