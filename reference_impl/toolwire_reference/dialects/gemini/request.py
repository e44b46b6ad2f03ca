"""Google Gemini ``generateContent`` request bodies ↔ the canonical request.

Decoding accepts the proto-JSON snake_case spellings as well as camelCase. ``functionCall`` parts
without an ``id`` get generated ids (``calls.IdGenerator``); each ``functionResponse`` is matched to a
call of the model turn right before it by ``id``, else by function name in order (so parallel calls
to one function pair up in order). ``thoughtSignature`` next to a ``functionCall``, a text or a
thought part is that part's ``signature`` (``origin: gemini``); ``thought: true`` text parts are
thinking. Encoding writes a signature only when Gemini issued it (``signatures``); under
``gemini.unsigned-calls=skip-validator`` the first call of a model turn without one gets Google's
documented stand-in.

Encoding: roles ``user``/``model``; results first in a user turn as ``functionResponse`` parts whose
``name`` is the function name; generated ids are left out again (the source had none); the model
and the ``stream`` flag are not part of a Gemini body (the URL carries them) and are dropped.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ... import calls, hosted, signatures
from ... import messages as msgs
from ..._json import MISSING, copy_json, expect_list, expect_object, invalid, pick_alias
from ...errors import Segments, TranslationError, pointer
from ...profiles import degrading
from ...request import (
    Request,
    check_members,
    copy_settings,
    decode_choice,
    encode_choice,
    encode_tools,
    json_schema_format,
    open_request,
    put_settings,
    read_stop,
    require_messages,
    schema_tool,
    unsupported,
)
from . import tools as gemini
from .reasoning import read_reasoning, write_reasoning
from .rules import IGNORABLE_GENERATION, RULES, SKIP_VALIDATOR, is_signature, own_signature
from .schema import to_gemini_schema
from .schema_decode import from_gemini_schema, source_segment
from .web_search import split_web_search, web_search_tool

NAME = RULES.name
# camelCase member -> its proto snake_case spelling
_TOP = {
    "contents": "contents",
    "systemInstruction": "system_instruction",
    "tools": "tools",
    "toolConfig": "tool_config",
    "generationConfig": "generation_config",
    "model": "model",
}
_GENERATION = {
    "maxOutputTokens": "max_output_tokens",
    "temperature": "temperature",
    "topP": "top_p",
    "topK": "top_k",
    "stopSequences": "stop_sequences",
    "responseMimeType": "response_mime_type",
    "responseSchema": "response_schema",
    "responseJsonSchema": "response_json_schema",
    "thinkingConfig": "thinking_config",
}
_PART = {
    "text": "text",
    "thought": "thought",
    "thoughtSignature": "thought_signature",
    "inlineData": "inline_data",
    "fileData": "file_data",
    "functionCall": "function_call",
    "functionResponse": "function_response",
}
_DATA_MEMBERS = ("text", "inlineData", "fileData", "functionCall", "functionResponse")
_FILE_URI_PREFIXES = ("gs://", "https://generativelanguage.googleapis.com/")


def _get(obj: dict, camel: str, spelling: Mapping[str, str], path: Segments) -> tuple[str, Any]:
    """(key used, value) of a member spelled camelCase or snake_case (both: payload.invalid)."""
    key, value = pick_alias(obj, (camel, spelling[camel]) if spelling[camel] != camel else (camel,), path)
    return (key or camel), value


# ---- decoding ------------------------------------------------------------------------------------


def decode_request(payload: Any, profile: Mapping[str, str]) -> Request:
    body, req = open_request(payload, list(_TOP) + list(_TOP.values()), profile, RULES)
    copy_settings(req, body, (), {"model": "model"}, model="model")
    key, system = _get(body, "systemInstruction", _TOP, ())
    if system is not MISSING and system is not None:
        _decode_system(req, system, (key,), profile)
    key, config = _get(body, "generationConfig", _TOP, ())
    if config is not MISSING and config is not None:
        _decode_generation(req, expect_object(config, (key,), f"`{key}`"), (key,), profile)
    key, contents = _get(body, "contents", _TOP, ())
    _decode_contents(req, expect_list(contents, (key,), "`contents`"), (key,), profile)
    key, tools = _get(body, "tools", _TOP, ())
    if tools is not MISSING and tools is not None:
        hosted.decode_tools(req, gemini, tools, (key,), split_web_search, profile)
    decode_choice(req, gemini, body, ("toolConfig", "tool_config"), profile)
    return req


def _decode_system(req: Request, system: Any, path: Segments, profile) -> None:
    if isinstance(system, str):
        msgs.system_text(req, system, path)
        return
    system = expect_object(system, path, "the system instruction")
    for i, part in enumerate(expect_list(system.get("parts", []), path + ("parts",), "`parts`")):
        where = path + ("parts", i)
        part = expect_object(part, where, "a part")
        if "text" not in part:
            msgs.unsupported_part(profile, "a system part that is not text", where)
            continue
        msgs.system_text(req, msgs.read_text(part["text"], where + ("text",)), where)


def _decode_generation(req: Request, config: dict, base: Segments, profile) -> None:
    check_members(
        config,
        base,
        list(_GENERATION) + list(_GENERATION.values()),
        IGNORABLE_GENERATION,
        profile,
        NAME,
    )
    names = {"maxOutputTokens": "max_tokens", "temperature": "temperature", "topP": "top_p", "topK": "top_k"}
    for camel, name in names.items():
        key, _ = _get(config, camel, _GENERATION, base)
        copy_settings(req, config, base, {key: name}, max_tokens="count", top_k="integer")
    key, _ = _get(config, "stopSequences", _GENERATION, base)
    stop = read_stop(config, key, base, allow_string=False)
    if stop is not MISSING:
        req.set("stop", stop, base + (key,))
    key, thinking = _get(config, "thinkingConfig", _GENERATION, base)
    if thinking is not MISSING and thinking is not None:
        read_reasoning(req, config, base, key)
    mime_key, mime = _get(config, "responseMimeType", _GENERATION, base)
    schema_key, schema = _get(config, "responseSchema", _GENERATION, base)
    json_key, json_schema = _get(config, "responseJsonSchema", _GENERATION, base)
    if schema is not MISSING and json_schema is not MISSING:
        raise invalid("`responseSchema` and `responseJsonSchema` exclude each other", base + (json_key,))
    if json_schema is not MISSING:
        fmt = json_schema_format(MISSING, json_schema, MISSING, base + (json_key,), req)
        req.set("response_format", fmt, base + (json_key,))
    elif schema is not MISSING:
        decoded = from_gemini_schema(schema) if isinstance(schema, dict) else schema
        fmt = json_schema_format(
            MISSING, decoded, MISSING, base + (schema_key,), req, source=schema, mapper=source_segment
        )
        req.set("response_format", fmt, base + (schema_key,))
    elif mime == "application/json":
        req.set("response_format", {"type": "json"}, base + (mime_key,))
    elif mime not in (MISSING, None, "text/plain"):
        unsupported(
            profile,
            "request.unsupported_field",
            f"the response MIME type {mime!r} has no equivalent in the canonical request",
            pointer(base + (mime_key,)),
        )


def _decode_contents(req: Request, contents: list, base: Segments, profile) -> None:
    builder = msgs.Builder(req)
    ids = calls.IdGenerator(_call_ids(contents), fresh=False)
    for i, item in enumerate(contents):
        path = base + (i,)
        content = expect_object(item, path, "a content")
        role = content.get("role", "user")
        if role not in ("user", "model", "function"):
            raise TranslationError(
                "message.invalid_role",
                f'Gemini content roles are "user" and "model", not {role!r}',
                pointer(path),
            )
        role = "assistant" if role == "model" else "user"
        previous = builder.last
        pending = (
            [p for p in previous["content"] if p["type"] == "tool_call"]
            if previous and previous["role"] == "assistant"
            else []
        )
        out = builder.open(role, path)
        for j, part in enumerate(expect_list(content.get("parts", []), path + ("parts",), "`parts`")):
            where = path + ("parts", j)
            builder.add(out, _decode_part(part, role, where, profile, ids, pending), where)


def _call_ids(contents: list) -> list[str]:
    out = []
    for content in contents:
        parts = content.get("parts") if isinstance(content, dict) else None
        for part in parts if isinstance(parts, list) else []:
            for key in ("functionCall", "function_call", "functionResponse", "function_response"):
                inner = part.get(key) if isinstance(part, dict) else None
                if isinstance(inner, dict) and isinstance(inner.get("id"), str):
                    out.append(inner["id"])
    return out


def _decode_part(part: Any, role: str, path: Segments, profile, ids, pending: list[dict]) -> dict | None:
    part = expect_object(part, path, "a part")
    members = {}
    for camel in _PART:
        key, value = _get(part, camel, _PART, path)
        if value is not MISSING:
            members[camel] = (key, value)
    data = [m for m in _DATA_MEMBERS if m in members]
    if not data:
        others = [k for k in part if k not in ("thought", "thoughtSignature", "thought_signature")]
        msgs.unsupported_part(profile, f"a `{others[0] if others else 'empty'}` part", path)
        return None
    kind = data[0]
    key, value = members[kind]
    where = path + (key,)
    sig_key, signature = members.get("thoughtSignature", (None, MISSING))
    if isinstance(signature, str) and not is_signature(signature):
        raise invalid("`thoughtSignature` must be base64", path + (sig_key,))
    if kind == "text":
        value = msgs.read_text(value, where)
        if members.get("thought", (None, False))[1] is True:
            if role != "assistant":
                where = path + (members["thought"][0],)
                message = "a thought belongs in a model turn"
                raise TranslationError("message.invalid_role", message, pointer(where))
            return msgs.thinking(value, signature, NAME)
        return signatures.sign(msgs.text(value), signature, NAME)
    if kind == "functionCall":
        if role != "assistant":
            raise TranslationError(
                "message.invalid_role", "a functionCall belongs in a model turn", pointer(where)
            )
        call = expect_object(value, where, f"`{key}`")
        name = msgs.read_nonempty(call.get("name", MISSING), where + ("name",), "`name`")
        call_id = call.get("id")
        if not isinstance(call_id, str) or not call_id:
            call_id = ids.new()
        args = call.get("args", {})
        out = msgs.tool_call(
            call_id, name, calls.read_arguments_object(args if args is not None else {}, where + ("args",))
        )
        return signatures.sign(out, signature, NAME)
    if kind == "functionResponse":
        if role != "user":
            raise TranslationError(
                "message.invalid_role", "a functionResponse belongs in a user turn", pointer(where)
            )
        return _decode_response(expect_object(value, where, f"`{key}`"), where, ids, pending, profile)
    if role != "user":
        msgs.unsupported_part(profile, f"a `{key}` part in a model turn", where)
        return None
    return _decode_media(kind, expect_object(value, where, f"`{key}`"), where, profile)


#: the non-image MIME types read as documents (Gemini's document understanding: PDF, plain text)
_DOCUMENT_TYPES = ("application/pdf", msgs.PLAIN_TEXT)


def _decode_media(kind: str, value: dict, path: Segments, profile) -> dict | None:
    """An image (``image/*``) or a document (PDF, plain text); other types are content.unsupported."""
    mime_key = "mimeType" if "mimeType" in value else "mime_type"
    mime = value.get(mime_key, MISSING)
    if mime is not MISSING and mime is not None:
        msgs.read_media_type(mime, path + (mime_key,), f"`{mime_key}`")
    document = mime in _DOCUMENT_TYPES
    if kind == "inlineData":
        if not isinstance(mime, str) or not (mime.startswith("image/") or document):
            msgs.unsupported_part(profile, f"inline data of type {mime!r} (only images and documents)", path)
            return None
        data = msgs.read_base64(value.get("data", MISSING), path + ("data",))
        if document:
            return msgs.document({"media_type": mime, "data": data})
        return msgs.image_base64(mime, data)
    uri = value.get("fileUri", value.get("file_uri", MISSING))
    if isinstance(mime, str) and not (mime.startswith("image/") or document):
        msgs.unsupported_part(profile, f"file data of type {mime!r} (only images and documents)", path)
        return None
    uri = msgs.read_text(uri, path + ("fileUri",), "`fileUri`")
    if document:
        return msgs.document({"url": uri, "media_type": mime})
    return msgs.image_url(uri, mime)


def _decode_response(value: dict, path: Segments, ids, pending: list[dict], profile) -> dict:
    """A ``functionResponse``: ``response`` is the result's value, ``parts`` (inline or file media,
    Gemini 3's multimodal function responses) its images. ``willContinue`` and ``scheduling`` apply
    only to NON_BLOCKING calls of the Live API and are ignored by ``generateContent``: dropped."""
    name = msgs.read_nonempty(value.get("name", MISSING), path + ("name",), "`name`")
    call_id = value.get("id")
    if isinstance(call_id, str) and call_id:
        match = next((c for c in pending if c["id"] == call_id), None)
    else:
        match = next((c for c in pending if c["name"] == name), None)
        call_id = match["id"] if match else ids.new()
    if match is not None:
        pending.remove(match)
    response = value.get("response", MISSING)
    if not isinstance(response, dict):
        raise invalid("`response` must be a JSON object", path + ("response",))
    is_error = False
    if set(response) == {"output"}:
        result = response["output"]
    elif "error" in response:
        result, is_error = response["error"], True
    else:
        result = response
    content = [msgs.text(result) if isinstance(result, str) else msgs.json_part(result)]
    if value.get("parts") is not None:
        for i, part in enumerate(expect_list(value["parts"], path + ("parts",), "`parts`")):
            media = _decode_response_part(part, path + ("parts", i), profile)
            if media is not None:
                content.append(media)
    return msgs.tool_result(call_id, content, name=name, is_error=True if is_error else MISSING)


def _decode_response_part(part: Any, path: Segments, profile) -> dict | None:
    """One ``FunctionResponsePart`` (``inlineData`` or ``fileData``; ``displayName`` dropped): an image. A
    document has no place in a canonical tool result (as in Anthropic's: RULES.md, "Documents"):
    content.unsupported."""
    part = expect_object(part, path, "a function response part")
    for camel, snake in (("inlineData", "inline_data"), ("fileData", "file_data")):
        key, value = pick_alias(part, (camel, snake), path)
        if value is not MISSING:
            where = path + (key,)
            media = _decode_media(camel, expect_object(value, where, f"`{key}`"), where, profile)
            if media is not None and media["type"] == "document":
                msgs.unsupported_part(profile, "a document in a function response", where)
                return None
            return media
    msgs.unsupported_part(profile, "a function response part that is not inline or file data", path)
    return None


# ---- encoding ------------------------------------------------------------------------------------


def encode_request(req: Request, profile: Mapping[str, str]) -> dict:
    out: dict = {}
    names = msgs.call_names(req)
    contents = [
        {
            "role": "model" if m["role"] == "assistant" else "user",
            "parts": [p for part in m["content"] if (p := _encode_part(req, part, names, profile))],
        }
        for m in req.messages
    ]
    if profile.get("gemini.unsigned-calls", "as-is") == "skip-validator":
        for content in contents:
            _vouch_first_call(content["parts"])
    # a message with nothing to say (an assistant turn with `content: null` and no calls) is left out:
    # Gemini refuses a content without parts
    out["contents"] = require_messages([c for c in contents if c["parts"]], NAME)
    if req.system:
        out["systemInstruction"] = {"parts": [{"text": part["text"]} for part in req.system]}
    tools = hosted.with_entry(encode_tools(req, gemini, RULES, profile), web_search_tool(req, profile))
    if tools is not MISSING:
        out["tools"] = tools
    out.update(encode_choice(req, gemini, RULES, profile))
    config: dict = {}
    put_settings(
        req,
        config,
        {
            "max_tokens": "maxOutputTokens",
            "temperature": "temperature",
            "top_p": "topP",
            "top_k": "topK",
            "stop": "stopSequences",
        },
    )
    if "response_format" in req.settings:
        config.update(_encode_format(req, profile))
    write_reasoning(req, config)
    if config:
        out["generationConfig"] = config
    return out


def _encode_format(req: Request, profile) -> dict:
    fmt = req.settings["response_format"]
    out = {"responseMimeType": "application/json"}
    if fmt["type"] == "json":
        return out
    tool = schema_tool(req)
    if profile["gemini.schema"] == "json-schema":
        out["responseJsonSchema"] = copy_json(fmt["schema"])
        return out
    with tool.params_origin.reporting():
        schema = to_gemini_schema(fmt["schema"], degrade=degrading(profile))
    if schema is not None:
        out["responseSchema"] = schema
    return out


def _call_id(call_id: str, profile) -> str | None:
    return None if calls.is_generated(call_id) else msgs.out_id(call_id, RULES, profile)


def _encode_media(req: Request, part: dict, profile) -> dict | None:
    """An image or a document: data -> ``inlineData`` (a plain-text document's text as base64 UTF-8),
    a URL -> ``fileData`` for Gemini's own file URIs only. A document's title and citations flag have
    no Gemini member (a Blob is a MIME type and data) and are left out; its ``context`` is
    content.unsupported."""
    where = req.paths.get(id(part), ())
    kind = part["type"]
    if kind == "document" and part.get("media_type", msgs.PLAIN_TEXT) not in _DOCUMENT_TYPES:
        msgs.unsupported_part(profile, f"a {part['media_type']} document", where, NAME)
        return None
    if kind == "document" and "context" in part:
        msgs.unsupported_part(profile, "a document's `context`", where + ("context",), NAME)
    try:
        data = msgs.document_data(part) if kind == "document" else (part.get("media_type"), part.get("data"))
    except UnicodeEncodeError:  # a lone surrogate: JSON text, but no UTF-8 bytes to send
        msgs.unsupported_part(profile, "a plain-text document that is not valid Unicode", where, NAME)
        return None
    if data is not None and data[1] is not None:
        return {"inlineData": {"mimeType": data[0], "data": "".join(data[1].split())}}  # no line breaks
    if not part["url"].startswith(_FILE_URI_PREFIXES):
        msgs.unsupported_part(
            profile,
            f"{'an image' if kind == 'image' else 'a document'} URL (Gemini reads only its own file URIs)",
            where,
            NAME,
        )
        return None
    file_data = {"fileUri": part["url"]}
    media_type = msgs.guess_media_type(part)
    if media_type:
        file_data = {"mimeType": media_type, **file_data}
    return {"fileData": file_data}


def _vouch_first_call(parts: list[dict]) -> None:
    """Gemini 3 refuses a model turn whose first ``functionCall`` part has no thought signature; a
    call Gemini did not sign (another provider's, or one whose signature was lost) gets the value
    Google documents for such calls (profile ``gemini.unsigned-calls=skip-validator``)."""
    first = next((p for p in parts if "functionCall" in p), None)
    if first is not None and "thoughtSignature" not in first:
        first["thoughtSignature"] = SKIP_VALIDATOR


def _encode_part(req: Request, part: dict, names: Mapping[str, str], profile) -> dict | None:
    kind = part["type"]
    signature = own_signature(signatures.for_target(part, NAME))
    if kind == "text":
        out = {"text": part["text"]}
        if signature is not None:
            out["thoughtSignature"] = signature
        return out
    if kind in ("image", "document"):
        return _encode_media(req, part, profile)
    if kind == "thinking":
        if part.get("redacted") or (not part["text"] and signature is None):
            return None  # no readable text, and no signature Gemini issued
        out = {"text": part["text"], "thought": True}
        if signature is not None:
            out["thoughtSignature"] = signature
        return out
    if kind == "tool_call":
        call: dict = {}
        call_id = _call_id(part["id"], profile)
        if call_id is not None:
            call["id"] = call_id
        call["name"] = part["name"]
        call["args"] = calls.arguments_for_object(part, req.path_of(part), profile)
        out = {"functionCall": call}
        if signature is not None:
            out["thoughtSignature"] = signature
        return out
    response: dict = {}
    call_id = _call_id(part["call_id"], profile)
    if call_id is not None:
        response["id"] = call_id
    response["name"] = msgs.result_name(req, part, names)
    response["response"] = _response_value(req, part, profile)
    media = [m for p in part["content"] if p["type"] == "image" and (m := _encode_media(req, p, profile))]
    if media:
        response["parts"] = media
    return {"functionResponse": response}


def _response_value(req: Request, result: dict, profile) -> dict:
    """The ``response`` object of a result: its text and json parts (images go to ``parts``)."""
    values: list[Any] = []
    for part in result["content"]:
        if part["type"] != "image":
            values.append(part["text"] if part["type"] == "text" else part["value"])
    if len(values) == 1:
        value = copy_json(values[0])
    else:
        value = msgs.JOIN.join(v if isinstance(v, str) else msgs.dumps(v) for v in values)
    if result.get("is_error"):
        return {"error": value}
    if isinstance(value, dict) and set(value) != {"output"} and "error" not in value:
        return value
    return {"output": value}
