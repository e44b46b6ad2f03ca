"""OpenAI Responses request bodies (``POST /v1/responses``) ↔ the canonical request.

Decoding: ``instructions`` and leading system/developer messages are the system prompt; consecutive
assistant-side items (assistant messages, ``function_call``) form one assistant turn;
``function_call_output`` items, and the user message right after them, form one user turn. A
``function_call``'s ``call_id`` is the canonical call id; its ``fc_`` item ``id`` is the part's
``item_id``, never swapped with ``call_id``, written back only to openai-responses together with the
``reasoning`` item it follows (OpenAI refuses an ``fc_`` item id whose reasoning item is missing:
"Item 'fc_…' of type 'function_call' was provided without its required 'reasoning' item"). A
``reasoning`` item is a thinking part of the assistant turn: its summary texts joined with a blank
line, its ``encrypted_content`` the signature (``origin: openai-responses``), its ``id`` the
``item_id``.
Encoding: the system prompt as ``instructions``; items in the canonical order; a thinking part
becomes a ``reasoning`` item again only when it came from one (its Responses item id, or encrypted
content OpenAI issued: a reasoning item is one OpenAI issued; Codex sends them without their id).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ... import calls, hosted, signatures
from ... import messages as msgs
from ..._json import MISSING, expect_list, expect_object, invalid
from ...custom import is_custom_call
from ...errors import Segments, TranslationError, pointer
from ...request import (
    Request,
    check_members,
    copy_settings,
    decode_choice,
    drop_setting,
    encode_choice,
    encode_tools,
    json_schema_format,
    open_request,
    present,
    put_settings,
    read_verbosity,
    unsupported,
)
from ..openai_chat.request import encode_format
from . import tools as openai_responses
from .reasoning import read_reasoning, write_reasoning
from .response import takes_item_id
from .rules import MIN_OUTPUT_TOKENS, RULES
from .web_search import split_web_search, web_search_tool

NAME = RULES.name
_KNOWN = frozenset(
    (
        "model",
        "instructions",
        "input",
        "tools",
        "tool_choice",
        "parallel_tool_calls",
        "max_output_tokens",
        "temperature",
        "top_p",
        "text",
        "reasoning",
        "stream",
    )
)
_SETTINGS = {
    "model": "model",
    "max_output_tokens": "max_tokens",
    "temperature": "temperature",
    "top_p": "top_p",
    "stream": "stream",
}


# ---- decoding ------------------------------------------------------------------------------------


def decode_request(payload: Any, profile: Mapping[str, str]) -> Request:
    body, req = open_request(payload, _KNOWN, profile, RULES)
    copy_settings(req, body, (), _SETTINGS, model="model", max_tokens="count", stream="bool")
    read_reasoning(req, body)
    if present(body, "instructions"):
        instructions = msgs.read_text(body["instructions"], ("instructions",), "`instructions`")
        if instructions:
            msgs.system_text(req, instructions, ("instructions",))
    if present(body, "text"):
        _decode_text_config(req, expect_object(body["text"], ("text",), "`text`"), profile)
    value = body.get("input", MISSING)
    builder = msgs.Builder(req)
    if isinstance(value, str):
        builder.add(builder.open("user", ("input",)), msgs.text(value), ("input",))
    else:
        for i, item in enumerate(expect_list(value, ("input",), "`input`")):
            _decode_item(builder, expect_object(item, ("input", i), "an input item"), ("input", i), profile)
    if present(body, "tools"):
        split = split_web_search
        hosted.decode_tools(req, openai_responses, body["tools"], ("tools",), split, profile)
    decode_choice(req, openai_responses, body, ("tool_choice", "parallel_tool_calls"), profile)
    return req


def _decode_text_config(req: Request, config: dict, profile) -> None:
    check_members(config, ("text",), ("format", "verbosity"), (), profile, NAME)
    read_verbosity(req, config, "verbosity", ("text",))
    if not present(config, "format"):
        return
    base = ("text", "format")
    fmt = expect_object(config["format"], base, "`text.format`")
    kind = fmt.get("type")
    if kind == "text":
        return
    if kind == "json_object":
        req.set("response_format", {"type": "json"}, base)
    elif kind == "json_schema":
        value = json_schema_format(
            fmt.get("name", MISSING),
            fmt.get("schema", MISSING),
            fmt.get("strict", MISSING),
            base + ("schema",),
            req,
        )
        req.set("response_format", value, base)
    else:
        raise invalid('`text.format.type` is "text", "json_object" or "json_schema"', base + ("type",))


def _decode_item(builder: msgs.Builder, item: dict, path: Segments, profile) -> None:
    kind = item.get("type", "message")
    req = builder.req
    if kind == "message":
        role = item.get("role")
        if role in ("system", "developer"):
            msgs.check_late_system(req, role, path, profile)
            texts = [p["text"] for p, _ in _content(item, path, profile, role) if p["type"] == "text"]
            msgs.system_text(req, msgs.JOIN.join(texts), path)
        elif role == "user":
            message = builder.for_user(path)
            for part, where in _content(item, path, profile, role):
                builder.add(message, part, where)
        elif role == "assistant":
            message = builder.for_assistant(path)
            for part, where in _content(item, path, profile, role):
                builder.add(message, part, where)
        else:
            raise TranslationError("message.invalid_role", f"unknown message role {role!r}", pointer(path))
    elif kind == "function_call":
        call_id = msgs.read_nonempty(item.get("call_id", MISSING), path + ("call_id",), "`call_id`")
        name = msgs.read_nonempty(item.get("name", MISSING), path + ("name",), "`name`")
        args = calls.arguments_to_object(item.get("arguments", MISSING), path + ("arguments",), profile)
        call = msgs.tool_call(call_id, name, args)
        if item.get("id") is not None and msgs.read_text(item["id"], path + ("id",), "`id`"):
            call["item_id"] = item["id"]  # kept with its reasoning item, for openai-responses only
        builder.add(builder.for_assistant(path), call, path)
    elif kind == "custom_tool_call":
        call_id = msgs.read_nonempty(item.get("call_id", MISSING), path + ("call_id",), "`call_id`")
        name = msgs.read_nonempty(item.get("name", MISSING), path + ("name",), "`name`")
        part = msgs.custom_call(call_id, name, item.get("input", MISSING), path + ("input",), path)
        builder.add(builder.for_assistant(path), part, path)
    elif kind in ("function_call_output", "custom_tool_call_output"):
        call_id = msgs.read_nonempty(item.get("call_id", MISSING), path + ("call_id",), "`call_id`")
        output = item.get("output", MISSING)
        if isinstance(output, str):
            parts = [msgs.text(output)]
        else:
            parts = [
                req.at(p, where)
                for p, where in _parts(
                    expect_list(output, path + ("output",), "`output`"), path + ("output",), profile
                )
            ]
        is_error = msgs.strip_error_prefix(parts, profile)
        builder.add(
            builder.for_result(path),
            msgs.tool_result(call_id, parts, is_error=True if is_error else MISSING),
            path,
        )
    elif kind == "reasoning":
        builder.add(builder.for_assistant(path), _decode_reasoning(item, path), path)
    else:
        msgs.unsupported_part(profile, f"a `{kind}` input item", path)


def _decode_reasoning(item: dict, path: Segments) -> dict:
    """A ``reasoning`` input item → a thinking part (``content``, the raw reasoning text some models
    return, is not read: the summary is what a client shows and the encrypted content what the
    model reads back)."""
    texts = []
    summary = item.get("summary")
    summary = [] if summary is None else expect_list(summary, path + ("summary",), "`summary`")
    for i, entry in enumerate(summary):
        where = path + ("summary", i)
        entry = expect_object(entry, where, "a summary part")
        texts.append(msgs.read_text(entry.get("text", MISSING), where + ("text",)))
    encrypted = item.get("encrypted_content")
    if encrypted is not None:
        msgs.read_text(encrypted, path + ("encrypted_content",), "`encrypted_content`")
    part = msgs.thinking(msgs.JOIN.join(t for t in texts if t), encrypted, NAME)
    if item.get("id") is not None and msgs.read_text(item["id"], path + ("id",), "`id`"):
        part["item_id"] = item["id"]  # ("" names no item, like null)
    return part


def _came_from_responses(part: dict) -> bool:
    """A thinking part read from a Responses ``reasoning`` item: it has the item's id, or encrypted
    content OpenAI issued (Codex sends reasoning items without their id)."""
    return "item_id" in part or part.get("origin") == NAME


def _encode_reasoning(part: dict) -> dict:
    """A thinking part that came from a Responses ``reasoning`` item, as that item again."""
    item: dict = {"type": "reasoning"}
    if "item_id" in part:
        item["id"] = part["item_id"]
    item["summary"] = [{"type": "summary_text", "text": part["text"]}] if part["text"] else []
    signature = signatures.for_target(part, NAME)
    if signature is not None:
        item["encrypted_content"] = signature
    return item


def _content(item: dict, path: Segments, profile, role: str) -> list[tuple[dict, Segments]]:
    content = item.get("content", MISSING)
    if isinstance(content, str):
        return [(msgs.text(content), path + ("content",))]
    return _parts(expect_list(content, path + ("content",), "`content`"), path + ("content",), profile)


def _parts(parts: list, base: Segments, profile) -> list[tuple[dict, Segments]]:
    out = []
    for j, part in enumerate(parts):
        where = base + (j,)
        part = expect_object(part, where, "a content part")
        kind = part.get("type")
        if kind in ("input_text", "output_text"):
            out.append((msgs.text(msgs.read_text(part.get("text", MISSING), where + ("text",))), where))
        elif kind == "refusal":
            out.append((msgs.text(msgs.read_text(part.get("refusal", MISSING), where + ("refusal",))), where))
        elif kind == "input_image" and present(part, "image_url"):
            out.append((msgs.image_from_url(part["image_url"], where + ("image_url",)), where))
        elif kind == "input_file":
            document = msgs.document_from_openai(part, where, "file_data", profile)
            if document is not None:
                out.append((document, where))
        else:
            msgs.unsupported_part(profile, f"a `{kind}` content part", where)
    return out


# ---- encoding ------------------------------------------------------------------------------------


def encode_request(req: Request, profile: Mapping[str, str]) -> dict:
    out: dict = {}
    put_settings(req, out, {"model": "model"})
    if req.system:
        out["instructions"] = msgs.join_texts(req.system)
    items: list[dict] = []
    custom = {p["id"] for m in req.messages for p in m["content"] if is_custom_call(p)}
    for message in req.messages:
        if message["role"] == "user":
            items += _encode_user(req, message, profile, custom)
        else:
            items += _encode_assistant(message, profile)
    out["input"] = items
    tools = encode_tools(req, openai_responses, RULES, profile)
    tools = hosted.with_entry(tools, web_search_tool(req, profile))
    if tools is not MISSING:
        out["tools"] = tools
    out.update(encode_choice(req, openai_responses, RULES, profile))
    put_settings(req, out, {v: k for k, v in _SETTINGS.items() if v != "model"})
    if out.get("max_output_tokens", MIN_OUTPUT_TOKENS) < MIN_OUTPUT_TOKENS:
        unsupported(
            profile,
            "request.unsupported_field",
            f"Responses takes a `max_output_tokens` of {MIN_OUTPUT_TOKENS} or more, not "
            f"{out['max_output_tokens']}",
            req.setting_path("max_tokens"),
        )
        out["max_output_tokens"] = MIN_OUTPUT_TOKENS  # degrade: the closest budget it takes
    drop_setting(req, "stop", NAME, profile)
    drop_setting(req, "top_k", NAME, profile)
    write_reasoning(req, out)
    if "response_format" in req.settings:
        fmt = encode_format(req, RULES, profile)
        out["text"] = {"format": fmt if fmt.get("type") == "json_object" else {"type": "json_schema", **fmt}}
    if "verbosity" in req.settings:
        out.setdefault("text", {})["verbosity"] = req.settings["verbosity"]
    return out


def _input_part(part: Any) -> dict:
    if isinstance(part, str):
        return {"type": "input_text", "text": part}
    if part["type"] == "text":
        return {"type": "input_text", "text": part["text"]}
    return {"type": "input_image", "image_url": msgs.url_of(part), "detail": "auto"}


def _user_parts(req: Request, parts: list[dict], profile) -> list[dict]:
    """The user message's parts as Responses content parts (a document as an ``input_file``)."""
    out = []
    for part in parts:
        if part["type"] != "document":
            out.append(_input_part(part))
        elif (file := msgs.openai_file(req, part, profile, NAME, urls=True)) is not None:
            out.append({"type": "input_file", **file})
    return out


def _encode_user(req: Request, message: dict, profile, custom: set[str]) -> list[dict]:
    """The items of a user message; ``custom``: the ids of custom (free-form) tool calls, whose results
    are ``custom_tool_call_output`` items."""
    results, others = msgs.split_user(message)
    items = []
    for result in results:
        output = msgs.result_text(req, result, profile, NAME, images=True)
        items.append(
            {
                "type": "custom_tool_call_output" if result["call_id"] in custom else "function_call_output",
                "call_id": msgs.out_id(result["call_id"], RULES, profile),
                "output": output if isinstance(output, str) else [_input_part(p) for p in output],
            }
        )
    if len(others) == 1 and others[0]["type"] == "text":
        items.append({"role": "user", "content": others[0]["text"]})
    elif others and (content := _user_parts(req, others, profile)):
        items.append({"role": "user", "content": content})
    return items


def _encode_assistant(message: dict, profile) -> list[dict]:
    items: list[dict] = []
    texts: list[str] = []

    def flush() -> None:
        if texts:
            items.append({"role": "assistant", "content": msgs.JOIN.join(texts)})
            texts.clear()

    for part in message["content"]:
        if part["type"] == "text":
            texts.append(part["text"])
        elif part["type"] == "thinking":
            if _came_from_responses(part):  # other thinking has no Responses form in a request
                flush()
                items.append(_encode_reasoning(part))
        elif part["type"] == "tool_call" and is_custom_call(part):
            flush()
            call_id = msgs.out_id(part["id"], RULES, profile)
            item = {"type": "custom_tool_call", "call_id": call_id, "name": part["name"]}
            items.append({**item, "input": str(part["input"])})
        elif part["type"] == "tool_call":
            flush()
            item = {"type": "function_call"}
            if takes_item_id(part.get("item_id", "")):
                item["id"] = part["item_id"]
            item.update(
                call_id=msgs.out_id(part["id"], RULES, profile),
                name=part["name"],
                arguments=calls.arguments_for_text(part),
            )
            items.append(item)
    flush()
    return items
