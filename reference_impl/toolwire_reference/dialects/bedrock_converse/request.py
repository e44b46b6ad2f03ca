"""Bedrock Converse request bodies (``POST /model/{modelId}/converse``, ``/converse-stream``) ↔ the
canonical request.

The model and the stream flag are in the URL, not the body: dropped silently on encode (as for Gemini). On
decode, ``modelId`` (the member botocore's ``ConverseRequest`` binds to the URL) is read as the model: a
client names its model that way when the request reaches a translator without its URL. Content blocks are
unions (one member each): ``text``, ``image`` (``bytes``), ``document`` (``bytes``, ``text``), ``toolUse``,
``toolResult`` (``text`` / ``json`` / ``image`` blocks, ``status: success|error``), ``reasoningContent``;
``cachePoint`` blocks (a prompt-cache hint) are dropped. ``inferenceConfig`` carries ``maxTokens``,
``temperature``, ``topP``, ``stopSequences``. Tools and the choice sit in ``toolConfig`` (``tools.py``).
Converse requires a ``toolConfig`` whenever the messages hold ``toolUse`` or ``toolResult`` blocks, and has
no ``none`` choice: a ``none`` choice leaves the tools out, which a conversation with tool blocks cannot do
(``choice.unsupported``; degrade: the tools without a choice); a conversation with tool blocks and no tools
is ``content.unsupported`` at its first call (degrade: the tools it called are declared, with an empty
object schema).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from ... import calls, signatures
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
    open_request,
    present,
    put_settings,
    read_stop,
    require_messages,
    unsupported,
)
from . import tools as bedrock
from .rules import RULES

NAME = RULES.name
_KNOWN = frozenset(("modelId", "messages", "system", "inferenceConfig", "toolConfig"))
#: inferenceConfig member -> canonical setting (stopSequences is read on its own)
_INFERENCE = {"maxTokens": "max_tokens", "temperature": "temperature", "topP": "top_p"}
_IMAGE_FORMATS = ("png", "jpeg", "gif", "webp")
#: what a Bedrock document `name` may hold (the Converse DocumentBlock reference)
_NAME_UNSAFE = re.compile(r"[^A-Za-z0-9\s\-()\[\]]+")


# ---- decoding ------------------------------------------------------------------------------------


def decode_request(payload: Any, profile: Mapping[str, str]) -> Request:
    body, req = open_request(payload, _KNOWN, profile, RULES)
    copy_settings(req, body, (), {"modelId": "model"}, model="model")
    if present(body, "inferenceConfig"):
        config = expect_object(body["inferenceConfig"], ("inferenceConfig",), "`inferenceConfig`")
        for key in config:
            if key not in _INFERENCE and key != "stopSequences" and config[key] is not None:
                raise invalid(f"`inferenceConfig` has no member `{key}`", ("inferenceConfig", key))
        copy_settings(req, config, ("inferenceConfig",), _INFERENCE, max_tokens="count")
        stop = read_stop(config, "stopSequences", ("inferenceConfig",), allow_string=False)
        if stop is not MISSING:
            req.set("stop", stop, ("inferenceConfig", "stopSequences"))
    if present(body, "system"):
        for i, block in enumerate(expect_list(body["system"], ("system",), "`system`")):
            where = ("system", i)
            key, value = _union(block, where, "a system block")
            if key == "text":
                msgs.system_text(req, msgs.read_text(value, where + ("text",)), where)
            elif key != "cachePoint":
                msgs.unsupported_part(profile, f"a `{key}` system block", where)
    builder = msgs.Builder(req)
    for i, item in enumerate(expect_list(body.get("messages", MISSING), ("messages",), "`messages`")):
        path = ("messages", i)
        message = expect_object(item, path, "a message")
        role = message.get("role")
        if role not in ("user", "assistant"):
            raise TranslationError(
                "message.invalid_role",
                f'Bedrock Converse message roles are "user" and "assistant", not {role!r}',
                pointer(path + ("role",)),
            )
        out = builder.open(role, path)
        for j, block in enumerate(
            expect_list(message.get("content", MISSING), path + ("content",), "`content`")
        ):
            where = path + ("content", j)
            builder.add(out, _decode_block(block, role, where, profile, req.at), where)
    if present(body, "toolConfig"):
        config = expect_object(body["toolConfig"], ("toolConfig",), "`toolConfig`")
        for key in config:
            if key not in ("tools", "toolChoice") and config[key] is not None:
                raise invalid(f"`toolConfig` has no member `{key}`", ("toolConfig", key))
        if "tools" not in config:
            raise invalid("`toolConfig` needs its `tools`", ("toolConfig", "tools"))
        decode_tools(req, bedrock, config["tools"], ("toolConfig", "tools"), profile)
        decode_choice(req, bedrock, body, ("toolConfig",), profile)
    return req


def _union(block: Any, path: Segments, what: str) -> tuple[str, Any]:
    """The one member of a union object (a content block, a source), else ``payload.invalid``."""
    obj = expect_object(block, path, what)
    members = [key for key, value in obj.items() if value is not None]
    if len(members) != 1:
        raise invalid(f"{what} has exactly one member, not {len(members)}", path)
    return members[0], obj[members[0]]


_USER_BLOCKS = ("text", "image", "document", "toolResult")
_ASSISTANT_BLOCKS = ("text", "toolUse", "reasoningContent")


def _decode_block(block: Any, role: str, path: Segments, profile, at) -> dict | None:
    key, value = _union(block, path, "a content block")
    where = path + (key,)
    allowed = _USER_BLOCKS if role == "user" else _ASSISTANT_BLOCKS
    if key in _USER_BLOCKS + _ASSISTANT_BLOCKS and key not in allowed:
        raise TranslationError(
            "message.invalid_role", f"a `{key}` block cannot appear in a {role} message", pointer(where)
        )
    if key == "text":
        return msgs.text(msgs.read_text(value, where))
    if key == "image":
        return _decode_image(value, where, profile)
    if key == "document":
        return _decode_document(value, where, profile)
    if key == "toolUse":
        use = expect_object(value, where, "`toolUse`")
        call_id = msgs.read_nonempty(use.get("toolUseId", MISSING), where + ("toolUseId",), "`toolUseId`")
        name = msgs.read_nonempty(use.get("name", MISSING), where + ("name",), "`name`")
        return msgs.tool_call(
            call_id, name, calls.read_arguments_object(use.get("input", MISSING), where + ("input",))
        )
    if key == "toolResult":
        return _decode_result(value, where, profile, at)
    if key == "reasoningContent":
        return _decode_reasoning(value, where)
    if key != "cachePoint":
        msgs.unsupported_part(profile, f"a `{key}` content block", path)
    return None


def _decode_image(value: Any, path: Segments, profile) -> dict | None:
    image = expect_object(value, path, "`image`")
    kind = image.get("format")
    if kind not in _IMAGE_FORMATS:
        raise invalid(f"an image `format` is one of {', '.join(_IMAGE_FORMATS)}", path + ("format",))
    source, data = _union(image.get("source", MISSING), path + ("source",), "an image source")
    if source != "bytes":
        msgs.unsupported_part(profile, f"an image with a `{source}` source", path + ("source",))
        return None
    return msgs.image_base64(f"image/{kind}", msgs.read_base64(data, path + ("source", "bytes"), "`bytes`"))


def _decode_document(value: Any, path: Segments, profile) -> dict | None:
    """A ``document`` block: PDF bytes or a text source (other formats and sources:
    content.unsupported); ``name`` → ``title``, ``context`` and ``citations.enabled`` kept."""
    doc = expect_object(value, path, "`document`")
    source, data = _union(doc.get("source", MISSING), path + ("source",), "a document source")
    at = path + ("source", source)
    if source == "bytes" and doc.get("format") == "pdf":
        found = {"media_type": "application/pdf", "data": msgs.read_base64(data, at, "`bytes`")}
    elif source == "text":
        found = {"media_type": msgs.PLAIN_TEXT, "text": msgs.read_text(data, at)}
    else:
        msgs.unsupported_part(profile, f"a {doc.get('format')} document with a `{source}` source", at)
        return None
    citations = doc.get("citations")
    enabled = citations.get("enabled") if isinstance(citations, dict) else MISSING
    return msgs.document(found, title=doc.get("name"), context=doc.get("context"), citations=enabled)


def _decode_result(value: Any, path: Segments, profile, at) -> dict:
    result = expect_object(value, path, "`toolResult`")
    call_id = msgs.read_nonempty(result.get("toolUseId", MISSING), path + ("toolUseId",), "`toolUseId`")
    parts: list[dict] = []
    for j, inner in enumerate(expect_list(result.get("content", MISSING), path + ("content",), "`content`")):
        where = path + ("content", j)
        key, item = _union(inner, where, "a tool result block")
        if key == "text":
            parts.append(at(msgs.text(msgs.read_text(item, where + ("text",))), where))
        elif key == "json":
            parts.append(at(msgs.json_part(item), where))
        elif key == "image":
            image = _decode_image(item, where + ("image",), profile)
            if image is not None:
                parts.append(at(image, where))
        else:
            msgs.unsupported_part(profile, f"a `{key}` block in a tool result", where)
    status = result.get("status")
    if status not in (None, "success", "error"):
        raise invalid('`status` is "success" or "error"', path + ("status",))
    return msgs.tool_result(call_id, parts, is_error=MISSING if status is None else status == "error")


def _decode_reasoning(value: Any, path: Segments) -> dict:
    key, item = _union(value, path, "`reasoningContent`")
    if key == "reasoningText":
        reasoning = expect_object(item, path + (key,), "`reasoningText`")
        text = msgs.read_text(reasoning.get("text", MISSING), path + (key, "text"))
        return msgs.thinking(text, reasoning.get("signature", MISSING), NAME)
    if key == "redactedContent":
        data = msgs.read_text(item, path + (key,), "`redactedContent`")
        return dict(msgs.thinking("", data, NAME), redacted=True)
    raise invalid("`reasoningContent` holds `reasoningText` or `redactedContent`", path + (key,))


# ---- encoding ------------------------------------------------------------------------------------


def encode_request(req: Request, profile: Mapping[str, str]) -> dict:
    out: dict = {}
    out["messages"] = require_messages(
        [
            {"role": m["role"], "content": [b for p in m["content"] if (b := _encode_part(req, p, profile))]}
            for m in req.messages
        ],
        NAME,
    )
    if req.system:
        system = [{"text": part["text"]} for part in req.system if part["text"]]
        if system:
            out["system"] = system
    config: dict = {}
    put_settings(req, config, {"max_tokens": "maxTokens", "temperature": "temperature", "top_p": "topP"})
    put_settings(req, config, {"stop": "stopSequences"})
    if config:
        out["inferenceConfig"] = config
    tool_config = _tool_config(req, out["messages"], profile)
    if tool_config:
        out["toolConfig"] = tool_config
    drop_setting(req, "top_k", NAME, profile)
    drop_setting(req, "response_format", NAME, profile)
    drop_setting(req, "reasoning", NAME, profile)
    drop_setting(req, "web_search", NAME, profile)
    return out


def _has_tool_blocks(messages: list[dict]) -> bool:
    return any("toolUse" in block or "toolResult" in block for m in messages for block in m["content"])


def _tool_config(req: Request, messages: list[dict], profile: Mapping[str, str]) -> dict:
    """``toolConfig`` (``{}`` for none): the tools, and the choice unless it is ``none``, which leaves the
    tools out when the conversation allows it."""
    history = _has_tool_blocks(messages)
    if req.choice.mode == "none" and not history:
        return {}  # Converse has no `none` choice: no tools, no call
    tools = encode_tools(req, bedrock, RULES, profile)
    if tools is MISSING or not tools:
        if not history:
            return {}
        first = next(
            p for m in req.messages for p in m["content"] if p["type"] in ("tool_call", "tool_result")
        )
        unsupported(
            profile,
            "content.unsupported",
            "Bedrock Converse requires the tools in `toolConfig` when the messages hold tool calls or "
            "results, and the request declares no tools",
            req.path_of(first),
        )
        names = dict.fromkeys(
            p["name"] for m in req.messages for p in m["content"] if p["type"] == "tool_call"
        )
        tools = [{"toolSpec": {"name": n, "inputSchema": {"json": {"type": "object"}}}} for n in names]
        if not tools:
            return {}
    config: dict = {"tools": tools}
    if req.choice.mode == "none":
        unsupported(
            profile,
            "choice.unsupported",
            "Bedrock Converse has no `none` tool choice, and a conversation with tool calls or results "
            "cannot leave its tools out",
            req.choice.path,
        )
        return config
    config.update(encode_choice(req, bedrock, RULES, profile).get("toolConfig", {}))
    return config


def _encode_image(req: Request, part: dict, profile) -> dict | None:
    kind = part.get("media_type", "").removeprefix("image/")
    if "data" not in part or kind not in _IMAGE_FORMATS:
        what = "an image given by URL" if "url" in part else f"a {part.get('media_type')} image"
        msgs.unsupported_part(profile, what, req.paths.get(id(part), ()), NAME)
        return None
    return {"image": {"format": kind, "source": {"bytes": msgs.standard_base64(part["data"])}}}


def _encode_document(req: Request, part: dict, profile) -> dict | None:
    """A PDF (base64) or plain-text document; a URL or another type is content.unsupported. ``name``
    (required) is the title with the characters Converse refuses replaced, else ``document``."""
    text = msgs.document_text(part)
    if text is not None:
        doc: dict = {"format": "txt", "source": {"text": text}}
    elif part.get("media_type") == "application/pdf" and "data" in part:
        doc = {"format": "pdf", "source": {"bytes": msgs.standard_base64(part["data"])}}
    else:
        what = "a document given by URL" if "url" in part else f"a {part.get('media_type')} document"
        msgs.unsupported_part(profile, what, req.paths.get(id(part), ()), NAME)
        return None
    title = " ".join(_NAME_UNSAFE.sub(" ", part.get("title", "")).split())
    doc = {"name": title[:200] or "document", **doc}
    if "context" in part:
        doc["context"] = part["context"]
    if "citations" in part:
        doc["citations"] = {"enabled": part["citations"]}
    return {"document": doc}


def _encode_part(req: Request, part: dict, profile) -> dict | None:
    kind = part["type"]
    if kind == "text":
        return {"text": part["text"]}
    if kind == "image":
        return _encode_image(req, part, profile)
    if kind == "document":
        return _encode_document(req, part, profile)
    if kind == "tool_call":
        if not RULES.name_rule(part["name"]):  # a call in the history names a tool Bedrock cannot have
            raise TranslationError(
                "tool.invalid_name",
                f"the call's tool name {part['name']!r} does not match Bedrock's rule "
                f"{RULES.tool_name_pattern}",
                req.path_of(part),
            )
        return {
            "toolUse": {
                "toolUseId": bedrock.tool_use_id(part["id"], profile),
                "name": part["name"],
                "input": calls.arguments_for_object(part, req.path_of(part), profile),
            }
        }
    if kind == "thinking":
        signature = signatures.for_target(part, NAME)
        if signature is None:
            return None  # reasoning is sent back only with the signature Bedrock issued for it
        if part.get("redacted"):
            return {"reasoningContent": {"redactedContent": signature}}
        return {"reasoningContent": {"reasoningText": {"text": part["text"], "signature": signature}}}
    # tool_result
    content = []
    for inner in part["content"]:
        if inner["type"] == "text":
            content.append({"text": inner["text"]})
        elif inner["type"] == "json":
            content.append({"json": inner["value"]})
        elif inner["type"] == "image" and (image := _encode_image(req, inner, profile)) is not None:
            content.append(image)
    out: dict = {"toolUseId": bedrock.tool_use_id(part["call_id"], profile), "content": content}
    if part.get("is_error"):
        out["status"] = "error"
    return {"toolResult": out}
