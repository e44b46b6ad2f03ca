"""Canonical messages and content parts: building them while decoding, reconciling calls with their
results (dedupe, orphans, names), and the content conversions several encoders share.

Canonical messages are ``{"role": "user" | "assistant", "content": [part, ...]}`` with the parts of
``corpus/README.md``: ``text``, ``image`` (base64 or url), ``document`` (base64, url or plain text),
``tool_call``, ``tool_result``, ``json`` (inside results), ``thinking``. Tool results are parts of a
user message, before its other parts.
"""

from __future__ import annotations

import base64
import binascii
import mimetypes
import re
from collections.abc import Mapping
from typing import Any

from . import calls, signatures
from ._json import MISSING, copy_json, invalid, json_type
from .custom import read_input
from .errors import Segments, TranslationError, pointer
from .profiles import degrading
from .request import Request, unsupported
from .rules import DialectRules

ERROR_PREFIX = "Error: "
NOT_EXECUTED = "Tool call was not executed."
JOIN = "\n\n"
#: a media type (``type/subtype``, the canonical schema's pattern)
_MEDIA_TYPE = r"[a-z]+/[a-zA-Z0-9.+-]+"
_is_media_type = re.compile(_MEDIA_TYPE).fullmatch
_DATA_URI = re.compile(rf"^data:({_MEDIA_TYPE})((?:;[^;,]*)*);base64,(.*)$", re.DOTALL)
#: base64 data as the dialects carry it: the standard or the URL-safe alphabet, padding, line breaks (the
#: canonical schema's pattern); not empty
_BASE64 = re.compile(r"[A-Za-z0-9+/_=\s-]+")


# ---- parts --------------------------------------------------------------------------------------


def text(value: str) -> dict:
    return {"type": "text", "text": value}


def image_base64(media_type: str, data: str) -> dict:
    return {"type": "image", "media_type": media_type, "data": data}


def image_url(url: str, media_type: Any = MISSING) -> dict:
    part = {"type": "image", "url": url}
    if isinstance(media_type, str):
        part["media_type"] = media_type
    return part


def json_part(value: Any) -> dict:
    return {"type": "json", "value": copy_json(value)}


def tool_call(call_id: str, name: str, args: Any) -> dict:
    """A canonical tool_call part; ``args`` is a dict or a calls.RawArguments."""
    return calls.set_arguments({"type": "tool_call", "id": call_id, "name": name}, args)


def custom_call(call_id: str, name: str, value: Any, path: Segments, call_path: Segments) -> dict:
    """A canonical tool_call part of a custom (free-form) tool: ``input`` (the string at ``path``)
    replaces ``arguments``; ``call_path`` is where a target without custom tools refuses it."""
    return {"type": "tool_call", "id": call_id, "name": name, "input": read_input(value, path, call_path)}


def tool_result(call_id: str, content: list[dict], *, name: Any = MISSING, is_error: Any = MISSING) -> dict:
    """A canonical tool_result part; ``is_error`` is written when the source gave a boolean (an
    explicit ``false`` is kept, so Anthropic's ``is_error: false`` survives canonical)."""
    part: dict = {"type": "tool_result", "call_id": call_id}
    if isinstance(name, str):
        part["name"] = name
    part["content"] = content
    if isinstance(is_error, bool):
        part["is_error"] = is_error
    return part


def thinking(value: str, signature: Any, origin: str) -> dict:
    """A canonical thinking part; a string ``signature`` is recorded with its issuer ``origin`` (the
    decoding dialect)."""
    return signatures.sign({"type": "thinking", "text": value}, signature, origin)


def document(source: dict, *, title: Any = MISSING, context: Any = MISSING, citations: Any = MISSING) -> dict:
    """A canonical document part: ``source`` is ``{media_type, data}`` (base64), ``{url, media_type?}``
    or ``{media_type: "text/plain", text}``; ``title``, ``context`` (Anthropic's text about the
    document, given to the model) and ``citations`` (a bool) when the source has them."""
    part = {"type": "document", **source}
    for key, value in (("title", title), ("context", context)):
        if isinstance(value, str):
            part[key] = value
    if isinstance(citations, bool):
        part["citations"] = citations
    return part


#: the document types both OpenAI dialects document for file inputs (the file-inputs guide: PDF)
OPENAI_DOCUMENT_TYPES = ("application/pdf",)
PLAIN_TEXT = "text/plain"
#: the filename an OpenAI file part gets for a document without a title (OpenAI requires one with data)
DOCUMENT_FILENAME = "document.pdf"


def document_text(part: dict) -> str | None:
    """The text of a plain-text document (given as text, or as base64 UTF-8 data); None otherwise."""
    if "text" in part:
        return part["text"]
    if part.get("media_type") != PLAIN_TEXT or "data" not in part:
        return None
    try:
        return base64.b64decode(part["data"], altchars=_altchars(part["data"]), validate=True).decode("utf-8")
    except (binascii.Error, UnicodeDecodeError):
        return None


def document_data(part: dict) -> tuple[str, str] | None:
    """(media type, base64 data) of a document given as data or as text; None for a URL document."""
    if "data" in part:
        return part["media_type"], part["data"]
    if "text" in part:
        return PLAIN_TEXT, base64.b64encode(part["text"].encode("utf-8")).decode("ascii")
    return None


def standard_base64(data: str) -> str:
    """``data`` in the standard base64 alphabet, padded: the Gen AI SDKs write Gemini's bytes URL-safe
    (``-``, ``_``), which Gemini reads either way, while Anthropic sources and the data URIs of OpenAI
    take the standard alphabet (RFC 4648, section 4)."""
    if "-" not in data and "_" not in data:
        return data
    data = data.replace("-", "+").replace("_", "/")
    return data + "=" * (-len(data.rstrip()) % 4)


def _altchars(data: str) -> bytes | None:
    """The URL-safe alphabet when ``data`` uses it (the Gen AI SDKs write inlineData that way)."""
    return b"-_" if ("-" in data or "_" in data) else None


def document_from_openai(
    file: dict, path: Segments, data_key: str, profile: Mapping[str, str]
) -> dict | None:
    """A document from an OpenAI file part (Chat ``file.file``, Responses ``input_file``): ``file_data``
    (a base64 data URI), ``file_url`` (Responses) or ``file_id`` (an upload: content.unsupported);
    ``filename`` is the title."""
    name = file.get("filename")
    title = name if isinstance(name, str) else MISSING
    if isinstance(file.get("file_data"), str):
        parsed = parse_data_uri(file["file_data"])
        if parsed is None:
            raise invalid(
                "`file_data` must be a base64 data URI (data:<type>;base64,...)", path + (data_key,)
            )
        return document({"media_type": parsed[0], "data": parsed[1]}, title=title)
    if isinstance(file.get("file_url"), str):
        return document({"url": file["file_url"]}, title=title)
    unsupported_part(profile, "a file given by id (an upload on the provider)", path)
    return None


def openai_file(
    req: Request, part: dict, profile: Mapping[str, str], target: str, *, urls: bool
) -> dict | None:
    """The OpenAI file members of a canonical document: ``file_data`` (a data URI) for a PDF, or
    ``file_url`` where the target takes one (``urls``: Responses); ``filename`` from the title (with
    ``file_data`` the API requires one: ``DOCUMENT_FILENAME`` when there is no title). Any
    other document (plain text, another type, a URL for Chat) and a ``context`` are
    content.unsupported (under degrade: the document dropped, the context left out)."""
    where = req.paths.get(id(part), ())
    if "url" in part and urls:
        out = {"file_url": part["url"]}
    elif part.get("media_type") in OPENAI_DOCUMENT_TYPES and "data" in part:
        out = {"file_data": f"data:{part['media_type']};base64,{standard_base64(part['data'])}"}
    else:
        what = "a document URL" if "url" in part else f"a {part.get('media_type')} document"
        unsupported_part(profile, what, where, target)
        return None
    if "title" in part or "file_data" in out:
        out["filename"] = part.get("title", DOCUMENT_FILENAME)
    if "context" in part:
        unsupported_part(profile, "a document's `context`", where + ("context",), target)
    return out


def parse_data_uri(url: str) -> tuple[str, str] | None:
    """``data:<media type>[;params];base64,<data>`` -> (media type, data); None for anything else (data
    that is not base64 included)."""
    match = _DATA_URI.match(url)
    return (match.group(1), match.group(3)) if match and _BASE64.fullmatch(match.group(3)) else None


def read_nonempty(value: Any, path: Segments, what: str) -> str:
    """A call's id or name, or the id a result answers: a non-empty string, else payload.invalid (the
    canonical request's rule: an empty id pairs nothing, and no provider has a nameless tool)."""
    if not read_text(value, path, what):
        raise invalid(f"{what} must not be empty", path)
    return value


def read_media_type(value: Any, path: Segments, what: str = "`media_type`") -> str:
    """A media type (``image/png``) read from a source; anything else is payload.invalid."""
    media_type = read_text(value, path, what)
    if not _is_media_type(media_type):
        raise invalid(f"{what} must be a media type (type/subtype), not {media_type!r}", path)
    return media_type


def read_base64(value: Any, path: Segments, what: str = "`data`") -> str:
    """Base64 data read from a source (an image's or a document's bytes); anything else is
    payload.invalid."""
    data = read_text(value, path, what)
    if not _BASE64.fullmatch(data):
        raise invalid(f"{what} must be base64 data", path)
    return data


def image_from_url(url: Any, path: Segments) -> dict:
    """An image part from an OpenAI ``image_url``: a base64 data URI, or a URL."""
    if not isinstance(url, str) or not url:
        raise invalid("an image URL must be a non-empty string", path)
    parsed = parse_data_uri(url)
    if parsed:
        return image_base64(*parsed)
    if url.startswith("data:"):
        raise invalid("a data URI image must be base64-encoded (data:<type>;base64,...)", path)
    if not _is_http_url(url):
        raise invalid("an image URL must be an http(s) URL or a base64 data URI", path)
    return image_url(url)


def read_http_url(value: Any, path: Segments, what: str = "an image URL") -> str:
    """An http(s) URL read from a source (an Anthropic image's ``url``); anything else is payload.invalid."""
    url = read_text(value, path, what)
    if not _is_http_url(url):
        raise invalid(f"{what} must be an http(s) URL, not {url[:80]!r}", path)
    return url


def _is_http_url(url: str) -> bool:
    scheme, _, rest = url.partition("://")
    return scheme in ("http", "https") and bool(rest) and not any(c.isspace() for c in url)


def url_of(image: dict) -> str:
    """The URL an OpenAI dialect carries for a canonical image (a data URI for base64 data)."""
    if "url" in image:
        return image["url"]
    return f"data:{image['media_type']};base64,{standard_base64(image['data'])}"


def guess_media_type(image: dict) -> str | None:
    """The media type of a URL image: declared, or guessed from the URL's extension."""
    if isinstance(image.get("media_type"), str):
        return image["media_type"]
    guessed, _ = mimetypes.guess_type(image.get("url", ""))
    return guessed


def texts(parts: list[dict]) -> list[str]:
    return [p["text"] for p in parts if p["type"] == "text"]


def join_texts(parts: list[dict]) -> str:
    """The text parts of ``parts`` joined with a blank line (how one string carries several parts)."""
    return JOIN.join(texts(parts))


def dumps(value: Any) -> str:
    """JSON text of a json part, as every encoder writes it."""
    return calls.arguments_to_text(value)


# ---- building canonical messages while decoding -----------------------------------------------


def results_only(message: dict | None) -> bool:
    """True for a user message that so far holds tool results only (where more results, and the
    user's next message, are merged)."""
    return (
        message is not None
        and message["role"] == "user"
        and bool(message["content"])
        and all(p["type"] == "tool_result" for p in message["content"])
    )


class Builder:
    """Appends canonical messages to a Request, recording source paths.

    Dialects with explicit turns (Anthropic, Gemini, canonical) call :meth:`open` per message; OpenAI
    dialects, whose results are separate messages or items, call :meth:`for_result` and
    :meth:`for_user` so that consecutive results and the user message right after them become one
    canonical user message, and :meth:`for_assistant` (Responses) so that consecutive assistant-side
    items form one assistant turn.
    """

    def __init__(self, req: Request) -> None:
        self.req = req

    @property
    def last(self) -> dict | None:
        return self.req.messages[-1] if self.req.messages else None

    def open(self, role: str, path: Segments) -> dict:
        message = {"role": role, "content": []}
        self.req.messages.append(self.req.at(message, path))
        return message

    def for_result(self, path: Segments) -> dict:
        return self.last if results_only(self.last) else self.open("user", path)

    def for_user(self, path: Segments) -> dict:
        return self.last if results_only(self.last) else self.open("user", path)

    def for_assistant(self, path: Segments) -> dict:
        last = self.last
        return last if last is not None and last["role"] == "assistant" else self.open("assistant", path)

    def add(self, message: dict, part: dict | None, path: Segments) -> None:
        if part is not None:
            message["content"].append(self.req.at(part, path))


def system_text(req: Request, value: str, path: Segments) -> None:
    """Append one system text part."""
    if req.system is None:
        req.system = []
    req.system.append(req.at(text(value), path))


def check_late_system(req: Request, role: str, path: Segments, profile: Mapping[str, str]) -> None:
    """A ``system``/``developer`` message after the conversation started is ``message.invalid_role``
    (the system prompt comes first); under degrade it is let through to join the system prompt."""
    if req.messages and not degrading(profile):
        raise TranslationError(
            "message.invalid_role",
            f"a `{role}` message after the conversation started cannot be expressed (the system "
            "prompt comes first)",
            pointer(path),
        )


def unsupported_part(profile: Mapping[str, str], what: str, path: Segments, target: str = "") -> None:
    """``content.unsupported`` at ``path`` (returns under degrade: the part is dropped)."""
    where = f" for {target}" if target else ""
    unsupported(profile, "content.unsupported", f"{what} has no equivalent{where}", pointer(path))


def read_text(value: Any, path: Segments, what: str = "`text`") -> str:
    if not isinstance(value, str):
        raise invalid(f"{what} must be a string, not {json_type(value)}", path)
    return value


def strip_error_prefix(parts: list[dict], profile: Mapping[str, str]) -> bool:
    """Under ``results.error-flag=text-prefix``, a result whose text starts with ``Error: `` is an
    error: the prefix is removed and True returned."""
    if profile.get("results.error-flag", "text-prefix") != "text-prefix":
        return False
    if parts and parts[0]["type"] == "text" and parts[0]["text"].startswith(ERROR_PREFIX):
        parts[0] = dict(parts[0], text=parts[0]["text"][len(ERROR_PREFIX) :])
        return True
    return False


# ---- reconciling calls and results --------------------------------------------------------------


def reconcile(req: Request, profile: Mapping[str, str]) -> None:
    """Make the decoded conversation consistent, whatever the source dialect:

    1. in a user message, tool results come before any other part (Anthropic's rule; order kept);
    2. an empty text part next to other parts is dropped;
    3. a second result for the same call in one user message is dropped (the first is kept);
    4. calls without a result in the next user message, and results naming no call of the previous
       assistant message, follow ``ids.orphans`` (error / drop / synthesize). A final assistant
       message with calls is not an orphan (the request asks for the next turn);

    Results keep the ``name`` the source gave them (or none): encoders needing one (Gemini) look it up
    from the call with :func:`call_names`.
    """
    policy = profile.get("ids.orphans", "error")
    emptied: set[int] = set()
    for message in req.messages:
        content = message["content"]
        if message["role"] == "user":
            results = [p for p in content if p["type"] == "tool_result"]
            content[:] = results + [p for p in content if p["type"] != "tool_result"]
        if len(content) > 1:
            content[:] = [p for p in content if not (p["type"] == "text" and p["text"] == "")] or content[:1]
    index = 0
    while index < len(req.messages):
        message = req.messages[index]
        previous = req.messages[index - 1] if index else None
        if message["role"] == "user":
            _dedupe(message)
            _orphan_results(req, message, previous, policy, emptied)
        else:
            following = req.messages[index + 1] if index + 1 < len(req.messages) else None
            index += _missing_results(req, message, following, index, policy, emptied)
        index += 1
    req.messages[:] = [m for m in req.messages if id(m) not in emptied]


def _dedupe(message: dict) -> None:
    seen: set[str] = set()
    kept = []
    for part in message["content"]:
        if part["type"] == "tool_result":
            if part["call_id"] in seen:
                continue
            seen.add(part["call_id"])
        kept.append(part)
    message["content"][:] = kept


def _calls(message: dict | None) -> list[dict]:
    if message is None or message["role"] != "assistant":
        return []
    return [p for p in message["content"] if p["type"] == "tool_call"]


def _orphan_results(req: Request, message: dict, previous: dict | None, policy: str, emptied: set) -> None:
    by_id = {call["id"]: call for call in _calls(previous)}
    kept = []
    for part in message["content"]:
        if part["type"] == "tool_result":
            call = by_id.get(part["call_id"])
            if call is None:
                if policy == "error":
                    raise TranslationError(
                        "call.orphan_result",
                        f"the tool result for {part['call_id']!r} answers no tool call of the previous "
                        "assistant message",
                        req.path_of(part),
                    )
                continue
        kept.append(part)
    if len(kept) != len(message["content"]):
        message["content"][:] = kept
        if not kept:
            emptied.add(id(message))


def _missing_results(
    req: Request, message: dict, following: dict | None, index: int, policy: str, emptied: set
) -> int:
    """Handle calls of ``message`` with no result in ``following``; returns messages inserted."""
    pending = _calls(message)
    if not pending or following is None:
        return 0
    answered = set()
    if following["role"] == "user":
        answered = {p["call_id"] for p in following["content"] if p["type"] == "tool_result"}
    missing = [call for call in pending if call["id"] not in answered]
    if not missing:
        return 0
    if policy == "error":
        call = missing[0]
        raise TranslationError(
            "call.missing_result",
            f"the tool call {call['id']!r} ({call['name']}) has no result in the next user message",
            req.path_of(call),
        )
    if policy == "drop":
        ids = {id(call) for call in missing}
        message["content"][:] = [p for p in message["content"] if id(p) not in ids]
        if not message["content"]:
            emptied.add(id(message))
        return 0
    synthesized = [
        tool_result(call["id"], [text(NOT_EXECUTED)], name=call["name"], is_error=True) for call in missing
    ]
    if following["role"] == "user":
        results = [p for p in following["content"] if p["type"] == "tool_result"]
        following["content"][len(results) : len(results)] = synthesized
        return 0
    req.messages.insert(index + 1, {"role": "user", "content": synthesized})
    return 1


# ---- encoding helpers ---------------------------------------------------------------------------


def split_user(message: dict) -> tuple[list[dict], list[dict]]:
    """(tool results, other parts) of a user message."""
    results = [p for p in message["content"] if p["type"] == "tool_result"]
    return results, [p for p in message["content"] if p["type"] != "tool_result"]


def call_names(req: Request) -> dict[str, str]:
    """Call id -> function name, over every assistant message."""
    return {p["id"]: p["name"] for m in req.messages for p in _calls(m)}


def result_name(req: Request, result: dict, names: Mapping[str, str]) -> str:
    """The function name of a result: its own, else its call's (never the call id)."""
    return result.get("name") or names.get(result["call_id"], "")


def result_text(
    req: Request, result: dict, profile: Mapping[str, str], target: str, *, images: bool = False
) -> str | list:
    """What an OpenAI dialect carries for a result: one string per text or json part (json as JSON
    text); image parts kept as they are when the target takes them (``images``), else
    ``content.unsupported`` (dropped under degrade); the error flag per ``results.error-flag``
    (``Error: `` before the first text). A lone string -> that string; nothing -> ``""``; otherwise
    the list of strings and image parts.
    """
    out: list = []
    for part in result["content"]:
        if part["type"] == "text":
            out.append(part["text"])
        elif part["type"] == "json":
            out.append(dumps(part["value"]))
        elif images:
            out.append(part)
        else:
            unsupported_part(
                profile, f"a `{part['type']}` part in a tool result", inner_path(req, part, result), target
            )
    if result.get("is_error") and profile.get("results.error-flag", "text-prefix") == "text-prefix":
        first = next((i for i, v in enumerate(out) if isinstance(v, str)), None)
        if first is None:
            out.insert(0, ERROR_PREFIX)
        else:
            out[first] = ERROR_PREFIX + out[first]
    if not out:
        return ""
    return out[0] if len(out) == 1 and isinstance(out[0], str) else out


def inner_path(req: Request, part: dict, container: dict) -> Segments:
    """The source segments of a part inside a tool result (the result's own when not recorded)."""
    return req.paths.get(id(part)) or req.paths.get(id(container), ())


def out_id(call_id: str, target: DialectRules, profile: Mapping[str, str]) -> str:
    """The id ``target`` gets for a canonical call id (``calls.encode_call_id``)."""
    return calls.encode_call_id(call_id, target, profile)
