"""Anthropic Messages request bodies (``POST /v1/messages``) ↔ the canonical request.

Turns map one to one (Anthropic already keeps every tool result of a turn in one user message).
``max_tokens`` is required on encode (``anthropic.max-tokens``); a response format has no
equivalent; thinking blocks are kept only when they carry a signature Anthropic issued (Anthropic
requires its own: unsigned thinking and thinking another provider signed are dropped).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ... import calls, hosted, signatures
from ... import messages as msgs
from ..._json import MISSING, expect_list, expect_object, invalid
from ...errors import Segments, TranslationError, pointer
from ...request import (
    Request,
    copy_settings,
    decode_choice,
    drop_setting,
    encode_choice,
    encode_tools,
    open_request,
    present,
    put_settings,
    read_stop,
    require_messages,
    required_max_tokens,
)
from . import tools as anthropic
from .reasoning import read_reasoning, write_reasoning
from .rules import RULES
from .web_search import split_web_search, web_search_tool

NAME = RULES.name
_KNOWN = frozenset(
    (
        "model",
        "system",
        "messages",
        "tools",
        "tool_choice",
        "max_tokens",
        "temperature",
        "top_p",
        "top_k",
        "stop_sequences",
        "stream",
        "thinking",
    )
)
_SETTINGS = {
    "model": "model",
    "max_tokens": "max_tokens",
    "temperature": "temperature",
    "top_p": "top_p",
    "top_k": "top_k",
    "stop": "stop_sequences",
    "stream": "stream",
}

#: wire name -> canonical name, read by copy_settings (stop is read on its own)
_SETTINGS_IN = {k: v for v, k in _SETTINGS.items() if v != "stop"}
#: the settings written after the messages
_SETTINGS_OUT_LATE = {k: v for k, v in _SETTINGS.items() if k not in ("model", "max_tokens")}


# ---- decoding ------------------------------------------------------------------------------------


def decode_request(payload: Any, profile: Mapping[str, str]) -> Request:
    body, req = open_request(payload, _KNOWN, profile, RULES)
    copy_settings(
        req,
        body,
        (),
        _SETTINGS_IN,
        model="model",
        max_tokens="count",
        top_k="integer",
        stream="bool",
    )
    stop = read_stop(body, "stop_sequences", (), allow_string=False)
    if stop is not MISSING:
        req.set("stop", stop, ("stop_sequences",))
    read_reasoning(req, body)
    if present(body, "system"):
        _decode_system(req, body["system"], profile)
    builder = msgs.Builder(req)
    for i, item in enumerate(expect_list(body.get("messages", MISSING), ("messages",), "`messages`")):
        path = ("messages", i)
        message = expect_object(item, path, "a message")
        role = message.get("role")
        if role not in ("user", "assistant"):
            raise TranslationError(
                "message.invalid_role",
                f'Anthropic message roles are "user" and "assistant", not {role!r}',
                pointer(path),
            )
        out = builder.open(role, path)
        content = message.get("content", MISSING)
        if isinstance(content, str):
            builder.add(out, msgs.text(content), path + ("content",))
            continue
        for j, block in enumerate(expect_list(content, path + ("content",), "`content`")):
            where = path + ("content", j)
            builder.add(out, _decode_block(block, role, where, profile, req.at), where)
    if present(body, "tools"):
        hosted.decode_tools(req, anthropic, body["tools"], ("tools",), split_web_search, profile)
    decode_choice(req, anthropic, body, ("tool_choice",), profile)
    return req


def _decode_system(req: Request, system: Any, profile) -> None:
    if isinstance(system, str):
        msgs.system_text(req, system, ("system",))
        return
    for i, block in enumerate(expect_list(system, ("system",), "`system`")):
        where = ("system", i)
        block = expect_object(block, where, "a system block")
        if block.get("type") != "text":
            msgs.unsupported_part(profile, f"a `{block.get('type')}` system block", where)
            continue
        msgs.system_text(req, msgs.read_text(block.get("text", MISSING), where + ("text",)), where)


#: the image types Anthropic takes (``Base64ImageSourceParam``)
IMAGE_MEDIA_TYPES = ("image/jpeg", "image/png", "image/gif", "image/webp")
_USER_BLOCKS = ("text", "image", "tool_result", "document", "search_result")
_ASSISTANT_BLOCKS = ("text", "tool_use", "thinking", "redacted_thinking")


def _decode_block(block: Any, role: str, path: Segments, profile, at) -> dict | None:
    """One content block (``at`` records the source path of parts nested in a tool result)."""
    block = expect_object(block, path, "a content block")
    kind = block.get("type")
    allowed = _USER_BLOCKS if role == "user" else _ASSISTANT_BLOCKS
    if kind == "text":
        return msgs.text(msgs.read_text(block.get("text", MISSING), path + ("text",)))
    if kind == "image" and role == "user":
        return _decode_image(block, path, profile)
    if kind == "tool_use" and role == "assistant":
        call_id = msgs.read_nonempty(block.get("id", MISSING), path + ("id",), "`id`")
        name = msgs.read_nonempty(block.get("name", MISSING), path + ("name",), "`name`")
        return msgs.tool_call(
            call_id, name, calls.read_arguments_object(block.get("input", MISSING), path + ("input",))
        )
    if kind == "tool_result" and role == "user":
        return _decode_result(block, path, profile, at)
    if kind == "document" and role == "user":
        return _decode_document(block, path, profile)
    if kind == "thinking" and role == "assistant":
        value = msgs.read_text(block.get("thinking", MISSING), path + ("thinking",), "`thinking`")
        return msgs.thinking(value, block.get("signature", MISSING), NAME)
    if kind == "redacted_thinking" and role == "assistant":
        data = msgs.read_text(block.get("data", MISSING), path + ("data",), "`data`")
        return dict(msgs.thinking("", data, NAME), redacted=True)
    if kind in _USER_BLOCKS + _ASSISTANT_BLOCKS and kind not in allowed:
        raise TranslationError(
            "message.invalid_role",
            f"a `{kind}` block cannot appear in a {role} message",
            pointer(path + ("type",)),
        )
    msgs.unsupported_part(profile, f"a `{kind}` content block", path)
    return None


def _decode_image(block: dict, path: Segments, profile) -> dict | None:
    source = expect_object(block.get("source", MISSING), path + ("source",), "`source`")
    kind = source.get("type")
    if kind == "base64":
        where = path + ("source", "media_type")
        media_type = msgs.read_media_type(source.get("media_type", MISSING), where)
        if media_type not in IMAGE_MEDIA_TYPES:
            raise invalid(f"an image's `media_type` is one of {', '.join(IMAGE_MEDIA_TYPES)}", where)
        return msgs.image_base64(
            media_type, msgs.read_base64(source.get("data", MISSING), path + ("source", "data"))
        )
    if kind == "url":
        return msgs.image_url(msgs.read_http_url(source.get("url", MISSING), path + ("source", "url")))
    msgs.unsupported_part(profile, f"an image with a `{kind}` source", path + ("source",))
    return None


def _decode_document(block: dict, path: Segments, profile) -> dict | None:
    """A ``document`` block: base64 PDF, URL or plain-text source (a ``content`` or ``file`` source:
    content.unsupported); ``title``, ``context`` and ``citations.enabled`` kept."""
    source = expect_object(block.get("source", MISSING), path + ("source",), "`source`")
    kind = source.get("type")
    at = path + ("source",)
    if kind == "base64":
        found = {
            "media_type": msgs.read_media_type(source.get("media_type", MISSING), at + ("media_type",)),
            "data": msgs.read_base64(source.get("data", MISSING), at + ("data",)),
        }
    elif kind == "url":
        found = {"url": msgs.read_text(source.get("url", MISSING), at + ("url",), "`url`")}
    elif kind == "text":
        found = {
            "media_type": msgs.PLAIN_TEXT,
            "text": msgs.read_text(source.get("data", MISSING), at + ("data",), "`data`"),
        }
    else:
        msgs.unsupported_part(profile, f"a document with a `{kind}` source", at)
        return None
    citations = block.get("citations")
    enabled = citations.get("enabled") if isinstance(citations, dict) else MISSING
    return msgs.document(found, title=block.get("title"), context=block.get("context"), citations=enabled)


def _decode_result(block: dict, path: Segments, profile, at) -> dict:
    call_id = msgs.read_nonempty(block.get("tool_use_id", MISSING), path + ("tool_use_id",), "`tool_use_id`")
    content = block.get("content")
    parts: list[dict] = []
    if isinstance(content, str):
        parts.append(msgs.text(content))
    elif content is not None:
        for j, inner in enumerate(expect_list(content, path + ("content",), "`content`")):
            where = path + ("content", j)
            inner = expect_object(inner, where, "a content block")
            if inner.get("type") == "text":
                parts.append(
                    at(msgs.text(msgs.read_text(inner.get("text", MISSING), where + ("text",))), where)
                )
            elif inner.get("type") == "image":
                image = _decode_image(inner, where, profile)
                if image is not None:
                    parts.append(at(image, where))
            else:
                msgs.unsupported_part(profile, f"a `{inner.get('type')}` block in a tool result", where)
    is_error = block.get("is_error")
    if is_error is not None and not isinstance(is_error, bool):
        raise invalid("`is_error` must be a boolean", path + ("is_error",))
    return msgs.tool_result(call_id, parts, is_error=MISSING if is_error is None else is_error)


# ---- encoding ------------------------------------------------------------------------------------


def encode_request(req: Request, profile: Mapping[str, str]) -> dict:
    out: dict = {}
    put_settings(req, out, {"model": "model"})
    out["max_tokens"] = required_max_tokens(req, profile)
    system = [part["text"] for part in req.system or () if part["text"]]  # no empty text block (below)
    if len(system) == 1:
        out["system"] = system[0]
    elif system:
        out["system"] = [{"type": "text", "text": text} for text in system]
    messages = [
        {"role": m["role"], "content": [b for p in m["content"] if (b := _encode_part(req, p, profile))]}
        for m in req.messages
    ]
    # Anthropic refuses a message with no content ("all messages must have non-empty content"): a message
    # left empty (a source's empty turn, only empty text, or only parts Anthropic does not take) is left
    # out, as for Gemini; a request left with none is refused after its tools and choice are checked
    out["messages"] = [m for m in messages if m["content"]]
    tools = encode_tools(req, anthropic, RULES, profile)
    tools = hosted.with_entry(tools, web_search_tool(req, profile))
    if tools is not MISSING:
        out["tools"] = tools
    out.update(encode_choice(req, anthropic, RULES, profile))
    require_messages(out["messages"], NAME)
    write_reasoning(req, out, profile)
    put_settings(req, out, _SETTINGS_OUT_LATE)
    drop_setting(req, "response_format", NAME, profile)
    return out


def _encode_image(part: dict) -> dict:
    if "url" in part:
        return {"type": "image", "source": {"type": "url", "url": part["url"]}}
    return {
        "type": "image",
        "source": {
            "type": "base64",
            "media_type": part["media_type"],
            "data": msgs.standard_base64(part["data"]),
        },
    }


def _encode_document(req: Request, part: dict, profile) -> dict | None:
    """A base64 PDF, a URL or a plain-text document; any other type is content.unsupported."""
    text = msgs.document_text(part)
    if text is not None:
        source = {"type": "text", "media_type": msgs.PLAIN_TEXT, "data": text}
    elif "url" in part or part.get("media_type") == "application/pdf":
        source = _encode_image(part)["source"]  # the same url / base64 sources as an image
    else:
        msgs.unsupported_part(profile, f"a {part['media_type']} document", req.paths.get(id(part), ()), NAME)
        return None
    out: dict = {"type": "document", "source": source}
    for key in ("title", "context"):
        if key in part:
            out[key] = part[key]
    if "citations" in part:
        out["citations"] = {"enabled": part["citations"]}
    return out


def _encode_part(req: Request, part: dict, profile) -> dict | None:
    kind = part["type"]
    if kind == "text":  # Anthropic refuses an empty text block ("text content blocks must be non-empty")
        return {"type": "text", "text": part["text"]} if part["text"] else None
    if kind == "image":
        return _encode_image(part)
    if kind == "document":
        return _encode_document(req, part, profile)
    if kind == "tool_call":
        return {
            "type": "tool_use",
            "id": msgs.out_id(part["id"], RULES, profile),
            "name": part["name"],
            "input": calls.arguments_for_object(part, req.path_of(part), profile),
        }
    if kind == "thinking":
        signature = signatures.for_target(part, NAME)
        if signature is None:
            return None  # Anthropic needs its own signature on thinking: unsigned or foreign, dropped
        if part.get("redacted"):
            return {"type": "redacted_thinking", "data": signature}
        return {"type": "thinking", "thinking": part["text"], "signature": signature}
    # tool_result
    out: dict = {"type": "tool_result", "tool_use_id": msgs.out_id(part["call_id"], RULES, profile)}
    content = part["content"]
    if len(content) == 1 and content[0]["type"] in ("text", "json"):
        only = content[0]
        out["content"] = only["text"] if only["type"] == "text" else msgs.dumps(only["value"])
    elif content:
        out["content"] = [
            _encode_image(p)
            if p["type"] == "image"
            else {"type": "text", "text": p["text"] if p["type"] == "text" else msgs.dumps(p["value"])}
            for p in content
        ]
    if part.get("is_error"):
        out["is_error"] = True
    return out
