"""The canonical request (``corpus/README.md``, kind ``request``) on the wire: closed objects, every
member checked; encoding writes the model as it is (ids per ``ids.prefix``; Responses item ids
included, so a reasoning item and its call survive a canonical hop)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ... import calls, hosted, reasoning, signatures
from ... import messages as msgs
from ..._json import MISSING, copy_json, expect_list, expect_object, invalid
from ...custom import read_input
from ...errors import pointer
from ...request import (
    SETTINGS,
    Request,
    copy_settings,
    decode_choice,
    decode_tools,
    encode_choice,
    encode_tools,
    json_schema_format,
    put_settings,
    read_stop,
    read_verbosity,
    response_format,
)
from . import tools as canonical
from .rules import RULES

NAME = RULES.name
_MEMBERS = ("model", "system", "messages", "tools", "tool_choice", "parallel_tool_calls", *SETTINGS)
_PART_MEMBERS = {
    "text": ("type", "text", "signature", "origin"),
    "image": ("type", "media_type", "data", "url"),
    "document": ("type", "media_type", "data", "url", "text", "title", "context", "citations"),
    "tool_call": (
        "type", "id", "name", "arguments", "arguments_raw", "input", "signature", "origin", "item_id"
    ),  # fmt: skip
    "tool_result": ("type", "call_id", "name", "content", "is_error"),
    "json": ("type", "value"),
    "thinking": ("type", "text", "signature", "origin", "redacted", "item_id"),
}
_ALLOWED = {
    "user": ("text", "image", "document", "tool_result"),
    "assistant": ("text", "tool_call", "thinking"),
    "result": ("text", "image", "json"),
}


def decode_request(payload: Any, profile: Mapping[str, str]) -> Request:
    body = expect_object(payload, (), "the request")
    for key in body:
        if key not in _MEMBERS:
            raise invalid(f"the canonical request has no member `{key}`", (key,))
    req = Request()
    copy_settings(
        req,
        body,
        (),
        {k: k for k in ("model", "max_tokens", "temperature", "top_p", "top_k", "stream")},
        model="model",
        max_tokens="count",
        top_k="integer",
        stream="bool",
    )
    stop = read_stop(body, "stop", (), allow_string=False)
    if stop is not MISSING:
        req.set("stop", stop, ("stop",))
    if "response_format" in body:
        req.set("response_format", _response_format(req, body["response_format"]), ("response_format",))
    reasoning.read_canonical(req, body)
    read_verbosity(req, body, "verbosity", ())
    hosted.read_canonical(req, body)
    if "system" in body:
        for i, part in enumerate(expect_list(body["system"], ("system",), "`system`")):
            path = ("system", i)
            part = _part(req, part, path, ("text",))
            msgs.system_text(req, part["text"], path)
    builder = msgs.Builder(req)
    for i, item in enumerate(expect_list(body.get("messages", MISSING), ("messages",), "`messages`")):
        path = ("messages", i)
        message = expect_object(item, path, "a message")
        for key in message:
            if key not in ("role", "content"):
                raise invalid(f"a canonical message has no member `{key}`", path + (key,))
        role = message.get("role")
        if role not in ("user", "assistant"):
            raise invalid('`role` must be "user" or "assistant"', path + ("role",))
        out = builder.open(role, path)
        for j, part in enumerate(
            expect_list(message.get("content", MISSING), path + ("content",), "`content`")
        ):
            builder.add(out, _part(req, part, path + ("content", j), _ALLOWED[role]), path + ("content", j))
    if "tools" in body:
        decode_tools(req, canonical, body["tools"], ("tools",), profile)
    decode_choice(req, canonical, body, ("tool_choice", "parallel_tool_calls"), profile)
    return req


def _response_format(req: Request, value: Any) -> dict:
    fmt = expect_object(value, ("response_format",), "`response_format`")
    kind = fmt.get("type")
    if kind == "json":
        if set(fmt) != {"type"}:
            raise invalid('`{"type": "json"}` has no other member', ("response_format",))
        return {"type": "json"}
    if kind != "json_schema":
        raise invalid('`response_format.type` is "json" or "json_schema"', ("response_format", "type"))
    for key in fmt:
        if key not in ("type", "name", "schema", "strict"):
            raise invalid(f"`response_format` has no member `{key}`", ("response_format", key))
    return json_schema_format(
        fmt.get("name", MISSING),
        fmt.get("schema", MISSING),
        fmt.get("strict", MISSING),
        ("response_format", "schema"),
        req,
    )


def _part(req: Request, value: Any, path: tuple, allowed: tuple) -> dict:
    part = expect_object(value, path, "a content part")
    kind = part.get("type")
    if kind not in allowed:
        raise invalid(
            f"a part of type {kind!r} is not allowed here (allowed: {', '.join(allowed)})", path + ("type",)
        )
    for key in part:
        if key not in _PART_MEMBERS[kind]:
            raise invalid(f"a `{kind}` part has no member `{key}`", path + (key,))
    out = copy_json(part)
    for key in ("signature", "origin", "item_id"):
        if key in part:
            msgs.read_text(part[key], path + (key,), f"`{key}`")
    for key in ("item_id", "signature") if kind != "thinking" else ("item_id",):  # the canonical schema's
        if key in part:
            msgs.read_nonempty(part[key], path + (key,), f"`{key}`")
    problem = signatures.origin_problem(part)
    if problem:
        raise invalid(problem, path + ("origin",))
    if kind in ("text", "thinking"):
        msgs.read_text(part.get("text", MISSING), path + ("text",))
        if "redacted" in part and not isinstance(part["redacted"], bool):
            raise invalid("`redacted` must be a boolean", path + ("redacted",))
    elif kind == "image":
        if "url" in part:
            msgs.read_nonempty(part["url"], path + ("url",), "`url`")
            if "media_type" in part:
                msgs.read_media_type(part["media_type"], path + ("media_type",))
        else:
            msgs.read_media_type(part.get("media_type", MISSING), path + ("media_type",))
            msgs.read_base64(part.get("data", MISSING), path + ("data",))
    elif kind == "document":
        _check_document(part, path)
    elif kind == "json" and "value" not in part:
        raise invalid("a `json` part needs `value`", path + ("value",))
    elif kind == "tool_call":
        msgs.read_nonempty(part.get("id", MISSING), path + ("id",), "`id`")
        msgs.read_nonempty(part.get("name", MISSING), path + ("name",), "`name`")
        if sum(key in part for key in ("arguments", "arguments_raw", "input")) > 1:
            raise invalid("a tool_call has one of `arguments`, `arguments_raw` and `input`", path)
        if "input" in part:
            out["input"] = read_input(part["input"], path + ("input",), path)
        elif "arguments_raw" in part:
            raw = msgs.read_text(part["arguments_raw"], path + ("arguments_raw",), "`arguments_raw`")
            out.pop("arguments_raw")
            calls.set_arguments(out, calls.RawArguments(raw, pointer(path + ("arguments_raw",))))
        else:
            out["arguments"] = calls.read_arguments_object(
                part.get("arguments", MISSING), path + ("arguments",)
            )
    elif kind == "tool_result":
        msgs.read_nonempty(part.get("call_id", MISSING), path + ("call_id",), "`call_id`")
        if "name" in part:
            msgs.read_nonempty(part["name"], path + ("name",), "`name`")
        content = expect_list(part.get("content", []), path + ("content",), "`content`")
        out["content"] = [
            req.at(_part(req, p, path + ("content", i), _ALLOWED["result"]), path + ("content", i))
            for i, p in enumerate(content)
        ]
        if "is_error" in part and not isinstance(part["is_error"], bool):
            raise invalid("`is_error` must be a boolean", path + ("is_error",))
    return out


def _check_document(part: dict, path: tuple) -> None:
    """A document has exactly one of ``data`` (with ``media_type``), ``url`` or ``text``."""
    given = [key for key in ("data", "url", "text") if key in part]
    if len(given) != 1:
        raise invalid("a `document` part needs exactly one of `data`, `url` or `text`", path)
    for key in (*given, "title", "context"):
        if key in part:
            msgs.read_text(part[key], path + (key,), f"`{key}`")
    if "url" in part:
        msgs.read_nonempty(part["url"], path + ("url",), "`url`")
    if "data" in part:
        msgs.read_base64(part["data"], path + ("data",))
    if "data" in part or "media_type" in part:
        msgs.read_media_type(part.get("media_type", MISSING), path + ("media_type",))
    if "citations" in part and not isinstance(part["citations"], bool):
        raise invalid("`citations` must be a boolean", path + ("citations",))


def encode_request(req: Request, profile: Mapping[str, str]) -> dict:
    out: dict = {}
    put_settings(req, out, {"model": "model"})
    if req.system is not None:
        out["system"] = copy_json(req.system)
    out["messages"] = [
        {"role": m["role"], "content": [_encode_part(p, profile) for p in m["content"]]} for m in req.messages
    ]
    tools = encode_tools(req, canonical, RULES, profile)
    if tools is not MISSING:
        out["tools"] = tools
    out.update(encode_choice(req, canonical, RULES, profile))
    put_settings(req, out, {name: name for name in SETTINGS})
    if "response_format" in out:
        out["response_format"] = copy_json(response_format(req, RULES, profile))
    return out


def _encode_part(part: dict, profile: Mapping[str, str]) -> dict:
    out = copy_json(part)
    if part["type"] == "tool_call":
        out["id"] = msgs.out_id(part["id"], RULES, profile)
        for key in ("arguments_raw", "input"):
            if key in part:
                out[key] = str(part[key])
    elif part["type"] == "tool_result":
        out["call_id"] = msgs.out_id(part["call_id"], RULES, profile)
    return out
