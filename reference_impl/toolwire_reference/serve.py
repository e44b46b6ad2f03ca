"""``toolwire serve``: the reference translator as a real HTTP proxy between two provider dialects.

    toolwire serve --listen 127.0.0.1:8080 --client-dialect anthropic \\
        --upstream-dialect openai-chat --upstream-url https://api.openai.com [--profile K=V ...]

What each provider dialect's API looks like over HTTP is its rules' data (``rules.HttpApi``, in
``dialects/<name>/rules.py``): its path (the model in it, or in the body), the path of a streaming
request when it has its own, the API key's header, the other headers it takes, the shape of its errors.
The proxy is written once over that data. Clients talk to it in ``--client-dialect`` on that dialect's
real path. Each request body is translated (kind ``request``) and sent to the upstream's real path (with
the model in it where the upstream names it there, from the request's ``model``); the reply is translated
back (kind ``response``), or, for a streaming request, read incrementally and re-encoded event by event
(``toolwire_reference.transcode.StreamTranscoder``) as it arrives: nothing is buffered.

- Upstream errors (non-2xx) are passed through with the same status, in the client dialect's error shape.
- A translation error is a 400 in the client's error shape carrying the toolwire code (``errors.json``)
  and its JSON Pointer where the shape's ``Coded`` members put them. Mid-stream, it is the client
  dialect's error event, and the stream ends.
- A client's bad input is its error, never the upstream's nor a bare 500: a body that is not UTF-8 or
  not JSON, that holds a lone surrogate (``"\\ud800"``: no Unicode text) or nests too deeply to read or
  translate is a 400 ``payload.invalid`` in the client's error shape. ``request.unsupported_field`` names
  the member and the ``--profile`` values that accept it (each tried on that request), or says that none
  does and where it could be supported.
- An upstream's bad output (not UTF-8, not JSON, a lone surrogate, too deep) is a 502
  ``response.invalid`` in the client's error shape; mid-stream, the client dialect's error event
  (``stream.invalid_event``) after the events that came before it, and the stream ends.
- One log line per request (status, what happened, milliseconds); a client going away is one of them. A
  traceback is logged only for a bug of the proxy itself, which the client gets as a 500 in its shape.
- Upstream connections are not capped: every open stream holds one.
- The client's API key (in any provider dialect's key header or query parameter) is sent in the
  upstream's header (``TOOLWIRE_UPSTREAM_API_KEY`` replaces it when set). Keys are never logged.

Needs ``aiohttp`` (a dependency of toolwire); the translator itself is stdlib-only.
"""

from __future__ import annotations

import argparse
import asyncio
import codecs
import contextlib
import json
import logging
import os
import re
import sys
from collections.abc import Mapping
from typing import Any

from ._json import loads, lone_surrogate_at
from .errors import TranslationError, pointer
from .profiles import resolve_profile
from .registry import DIALECTS
from .rules import PROFILE_VALUES, Coded, ErrorShape, HttpApi, Slot
from .streams.sse import format_event, read_sse
from .transcode import StreamTranscoder
from .translate import translate

__all__ = [
    "DIALECT_PATHS",
    "PROVIDER_DIALECTS",
    "SSEParser",
    "build_app",
    "error_body",
    "error_event",
    "main",
    "upstream_path",
]

log = logging.getLogger("toolwire.serve")

#: the client-facing path of each provider dialect (``{model}``: the model is named in the path)
DIALECT_PATHS = {d.name: d.rules.endpoint for d in DIALECTS if d.rules.endpoint is not None}
PROVIDER_DIALECTS = tuple(DIALECT_PATHS)
#: how each provider dialect is spoken over HTTP (its rules' ``http``)
APIS: dict[str, HttpApi] = {d.name: d.rules.http for d in DIALECTS if d.rules.http is not None}


def _fill(template: Any, values: Mapping[str, Any]) -> Any:
    """An error template (``rules.ErrorShape``) with the error's values: each ``Slot`` replaced, each
    ``Coded`` member written only for an error with a toolwire code."""
    if isinstance(template, Slot):
        value = values[template.name]
        return template.default if value is None else value
    if isinstance(template, Mapping):
        out: dict[str, Any] = {}
        for key, item in template.items():
            if isinstance(item, Coded):
                if values["code"] is None:
                    continue
                item = item.template
            out[key] = _fill(item, values)
        return out
    if isinstance(template, list):
        return [_fill(item, values) for item in template]
    return template


def _type(shape: ErrorShape, status: int, type_: str | None) -> str:
    """The name of an error in ``shape``: ``type_`` (an upstream's type, for a typed shape), else the
    status's."""
    if type_ and shape.typed:
        return type_
    if status in shape.types:
        return shape.types[status]
    return shape.type_fallback[0] if status < 500 else shape.type_fallback[1]


def error_body(
    dialect: str,
    status: int,
    message: str,
    *,
    code: str | None = None,
    path: str | None = None,
    type_: str | None = None,
) -> dict[str, Any]:
    """An error body in ``dialect``'s shape; ``code``/``path``: a toolwire error code and its JSON Pointer;
    ``type_``: the type of an upstream's error (kept by a dialect whose errors are typed)."""
    shape = APIS[dialect].errors
    values = {"message": message, "status": status, "type": _type(shape, status, type_), "code": code}
    return _fill(shape.body, {**values, "path": path})


def error_event(dialect: str, message: str, *, code: str | None = None, path: str | None = None) -> dict:
    """The stream event ``dialect`` uses to report an error mid-stream (the stream ends after it): always
    the upstream's fault, or the proxy's (a 502's type, as the same fault before the stream began)."""
    shape = APIS[dialect].errors
    status = 502
    values = {"message": message, "status": status, "type": _type(shape, status, None), "code": code}
    data = _fill(shape.body if shape.stream_body is None else shape.stream_body, {**values, "path": path})
    return {"data": data} if shape.stream_event is None else {"event": shape.stream_event, "data": data}


def upstream_error(dialect: str, status: int, raw: bytes) -> tuple[str, str | None]:
    """(message, type) of an upstream error body (best effort: any provider's shape is read); the type
    only from a dialect whose errors are typed."""
    try:
        body = json.loads(raw)
    except (ValueError, RecursionError):
        text = raw.decode("utf-8", "replace").strip()
        return (text[:1000] or f"upstream answered HTTP {status}"), None
    err = body.get("error") if isinstance(body, dict) else None
    if isinstance(body, list) and body and isinstance(body[0], dict):  # an error wrapped in a list
        err = body[0].get("error")
    if isinstance(body, dict) and body.get("object") == "error":  # an error that is the body itself
        err = body
    if isinstance(err, dict):
        message = err.get("message")
        kind = err.get("type") if APIS[dialect].errors.typed else None
        text = str(message) if message else json.dumps(err)[:1000]
        return text, (kind if isinstance(kind, str) else None)
    if isinstance(err, str):
        return err, None
    return json.dumps(body)[:1000], None


def upstream_path(dialect: str, model: str | None, stream: bool) -> str:
    """The upstream's real path (and query) for a request (the model in it where the dialect names it
    there; a streaming request's own path, where it has one)."""
    api = APIS[dialect]
    path = api.stream_path if stream and api.stream_path is not None else api.path
    return path.replace("{model}", model or "unknown-model")


def _route(api: HttpApi) -> str:
    """The route of a dialect's requests: its path, or, with the model in it, the path up to the model and
    ``{spec}`` (the model, a separator and the method: read by ``_methods``)."""
    return api.path.partition("{model}")[0] + "{spec}" if api.model_in_path else api.path


def _methods(api: HttpApi) -> tuple[str, dict[str, bool]]:
    """For a dialect with the model in its path: the separator between the model and the method, and each
    method's name with whether it streams (``generateContent``: False)."""
    tails = {api.path.partition("{model}")[2]: False}
    if api.stream_path is not None:
        tails[api.stream_path.partition("{model}")[2].partition("?")[0]] = True
    return next(iter(tails))[0], {tail[1:]: streams for tail, streams in tails.items()}


def client_key(headers: Mapping[str, str], query: Mapping[str, str]) -> str | None:
    """The API key a client sent, whichever provider's header (or query parameter) it used: the headers
    that hold the key alone first, then those with a prefix (``Bearer``)."""
    apis = sorted(APIS.values(), key=lambda api: bool(api.key_prefix))
    for name, prefix in dict.fromkeys((api.key_header, api.key_prefix) for api in apis):
        value = headers.get(name)
        if not prefix:
            if value:
                return value
        elif value and value.lower().startswith(prefix.lower()):
            return value[len(prefix) :].strip()
    for name in dict.fromkeys(api.key_query for api in APIS.values() if api.key_query):
        if query.get(name):
            return query[name]
    return None


def upstream_headers(dialect: str, key: str | None, incoming: Mapping[str, str]) -> dict[str, str]:
    """The headers of a request to a ``dialect`` upstream: the key in its header, and the other headers
    it takes (the client's value when it sent one)."""
    api = APIS[dialect]
    headers = {"content-type": "application/json"}
    if key:
        headers[api.key_header] = api.key_prefix + key
    for name, default in api.headers.items():
        value = incoming.get(name) or default
        if value:
            headers[name] = value
    return headers


class SSEParser:
    """Incremental SSE reader: ``feed(bytes) -> events``, ``close() -> events`` (split UTF-8 is fine).

    Bytes that are no UTF-8 end the stream: the complete events before them are returned, nothing after
    them, and ``broken`` says what and where (the byte offset in the stream)."""

    def __init__(self) -> None:
        self._decoder = codecs.getincrementaldecoder("utf-8")("strict")
        self._pending = ""
        self._consumed = 0
        self.broken: str | None = None

    def _decode(self, data: bytes, final: bool = False) -> str:
        held = len(self._decoder.getstate()[0])  # bytes of a character split across reads
        try:
            text = self._decoder.decode(data, final)
        except UnicodeDecodeError as exc:  # exc.object: the held bytes, then data
            self.broken = f"{exc.reason} at byte {self._consumed - held + exc.start}"
            text = exc.object[: exc.start].decode("utf-8")
        self._consumed += len(data)
        return text

    def _complete(self) -> list[dict[str, Any]]:
        if "\r" in self._pending:  # CRLF and CR end lines too; a CR at the end may be half of a CRLF
            hold = self._pending.endswith("\r")
            body = self._pending[:-1] if hold else self._pending
            self._pending = body.replace("\r\n", "\n").replace("\r", "\n") + ("\r" if hold else "")
        cut = self._pending.rfind("\n\n")
        if cut == -1:
            return []
        whole, self._pending = self._pending[: cut + 2], self._pending[cut + 2 :]
        return list(read_sse(whole))

    def feed(self, data: bytes) -> list[dict[str, Any]]:
        if self.broken is not None:
            return []
        self._pending += self._decode(data)
        events = self._complete()
        if self.broken is not None:
            self._pending = ""
        return events

    def close(self) -> list[dict[str, Any]]:
        if self.broken is not None:
            return []
        rest = self._pending + self._decode(b"", final=True)
        if self.broken is not None:
            self._pending = rest
            return self._complete()
        self._pending = ""
        return list(read_sse(rest)) if rest.strip() else []


def _json_response(body: Any, status: int) -> Any:
    """A JSON answer; a lone surrogate (quoted in an error message) becomes its JSON escape."""
    from aiohttp import web

    data = json.dumps(body, ensure_ascii=False).encode("utf-8", "backslashreplace")
    return web.Response(body=data, status=status, content_type="application/json")


def _clean(text: str) -> str:
    """``text`` as UTF-8 can carry it (a lone surrogate quoted in a message becomes ``\\udxxx``)."""
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


# A `\uD800`-`\uDFFF` escape that is not half of a surrogate pair (a false positive, e.g. after an escaped
# backslash, only costs a walk of the parsed body: `lone_surrogate_at` decides).
_LONE_SURROGATE_ESCAPE = re.compile(
    rb"\\u[dD][89abAB][0-9a-fA-F]{2}(?!\\u[dD][c-fC-F][0-9a-fA-F]{2})"
    rb"|(?<!\\u[dD][89abAB][0-9a-fA-F]{2})\\u[dD][c-fC-F][0-9a-fA-F]{2}"
)


def nesting(value: Any) -> tuple[int, str]:
    """How many levels of arrays and objects ``value`` nests, and the pointer of its deepest one."""
    best: tuple[int, Any] = (0, None)
    stack: list[tuple[Any, int, Any]] = [(value, 1, None)]
    while stack:
        node, depth, link = stack.pop()
        if isinstance(node, dict):
            items: Any = node.items()
        elif isinstance(node, list):
            items = enumerate(node)
        else:
            continue
        if depth > best[0]:
            best = (depth, link)
        stack.extend((item, depth + 1, (link, key)) for key, item in items)
    segments: list[str | int] = []
    link = best[1]
    while link is not None:
        link, key = link
        segments.append(key)
    return best[0], pointer(reversed(segments))


def _short(ptr: str, keep: int = 6) -> str:
    parts = ptr.split("/")
    return ptr if len(parts) <= keep + 1 else "/".join(parts[: keep + 1]) + "/…"


def too_deep(what: str, value: Any = None) -> str:
    """The message for JSON nested deeper than Python's recursion limit lets the proxy read or translate."""
    if value is None:
        return f"toolwire: {what} nests arrays and objects too deeply to read (over about a thousand levels)"
    depth, where = nesting(value)
    return f"toolwire: {what} nests {depth} levels deep (down {_short(where)}), too deep to translate"


def untranslatable(what: str, exc: Exception, value: Any) -> str:
    """The message for a translation of ``value`` that raised ``exc`` (RecursionError, ValueError) instead
    of a coded error: the proxy answers it as the caller's bad input, never as a bare 500."""
    if isinstance(exc, RecursionError):
        return too_deep(what, value)
    return f"toolwire: {what} cannot be translated: {exc}"


def parsed(raw: bytes, what: str, status: int, code: str) -> Any:
    """``raw`` read as JSON, or a ``_Fault`` with ``status`` and ``code`` saying why it cannot be."""
    try:
        return loads(raw)
    except UnicodeDecodeError as exc:
        message = f"toolwire: {what} is not UTF-8 ({exc.reason} at byte {exc.start})"
        raise _Fault(status, message, code, "") from None
    except RecursionError:
        raise _Fault(status, too_deep(what), code, "") from None
    except ValueError as exc:
        raise _Fault(status, f"toolwire: {what} is not JSON: {exc}", code, "") from None


class _NotUTF8(Exception):
    """The upstream's stream holds bytes that are no UTF-8 (what and where)."""


class _ClientGone(Exception):
    """The client closed its connection while the proxy was writing to it."""


class _Fault(Exception):
    """An answer other than a translation: ``status``, message, toolwire code and path, a log note."""

    def __init__(
        self, status: int, message: str, code: str | None = None, path: str | None = None, note: str = ""
    ) -> None:
        super().__init__(message)
        self.status, self.message, self.code, self.path, self.note = status, message, code, path, note


def unsupported_hint(
    exc: TranslationError, body: Any, client: str, upstream: str, prof: Mapping[str, str]
) -> str:
    """What to add to a ``request.unsupported_field`` refusal: the member, and the profile values that
    would accept it (each tried on this very request), or where its translation could be supported."""
    member = exc.path or "/"
    accepted: list[str] = []
    for key, values in PROFILE_VALUES.items():
        for value in values:
            if value == prof.get(key):
                continue
            try:
                translate("request", body, source=client, target=upstream, profile={**prof, key: value})
            except TranslationError as again:
                if (again.code, again.path) == (exc.code, exc.path):
                    continue
            except Exception:  # noqa: BLE001 - a profile that breaks otherwise accepts nothing here
                continue
            accepted.append(f"{key}={value}")
    text = f" (request member {member}, {client} to {upstream})."
    if accepted:
        flags = " or ".join(f"--profile {a}" for a in accepted)
        text += f" A translation profile accepts it: start toolwire serve with {flags}"
        if "unsupported=degrade" in accepted:
            text += " (unsupported=degrade drops what the target cannot express, this member included)"
        return text + "; see corpus/profiles.json."
    module = client.replace("-", "_")
    return (
        text + " No translation profile accepts it (corpus/profiles.json). It could be supported in the "
        f"reference translator, where {client} requests are read "
        f"(reference_impl/toolwire_reference/dialects/{module}/request.py), with a corpus case for it."
    )


#: seconds a client has to send its whole request body once its headers are in (a slower one gets a 408)
BODY_TIMEOUT = 60.0
#: seconds the upstream may stay silent, before its answer and between two reads of it
#: (``--upstream-timeout``)
UPSTREAM_TIMEOUT = 600.0


def build_app(
    client: str,
    upstream: str,
    upstream_url: str,
    profile: Mapping[str, str] | None = None,
    upstream_timeout: float = UPSTREAM_TIMEOUT,
) -> Any:
    """The aiohttp application of a proxy from ``client`` dialect clients to an ``upstream`` server; the
    upstream may stay silent ``upstream_timeout`` seconds at most (then the client gets a 504)."""
    from aiohttp import ClientError, ClientSession, ClientTimeout, TCPConnector, web

    SESSION = web.AppKey("session", ClientSession)

    for role, dialect in (("client", client), ("upstream", upstream)):
        if dialect not in PROVIDER_DIALECTS:
            raise ValueError(f"unknown {role} dialect {dialect!r}; one of {', '.join(PROVIDER_DIALECTS)}")
    prof = resolve_profile(profile)  # ValueError on an unknown key or value
    client_api, upstream_api = APIS[client], APIS[upstream]
    separator, methods = _methods(client_api) if client_api.model_in_path else ("", {})
    base = upstream_url.rstrip("/")
    max_body = 64 * 1024 * 1024
    app = web.Application(client_max_size=max_body)
    hints: dict[tuple[str, str, str], str] = {}

    async def session_ctx(app: Any) -> Any:
        # no cap on upstream connections: every client stream holds one for as long as it lasts
        app[SESSION] = ClientSession(
            connector=TCPConnector(limit=0),
            timeout=ClientTimeout(total=None, sock_connect=30, sock_read=upstream_timeout),
        )
        yield
        await app[SESSION].close()

    app.cleanup_ctx.append(session_ctx)

    def answer(status: int, message: str, code: str | None = None, path: str | None = None) -> Any:
        return _json_response(error_body(client, status, message, code=code, path=path), status)

    async def handle(request: Any) -> Any:
        """One line in the log per request, whatever happens; a traceback only for a bug of the proxy."""
        start = asyncio.get_running_loop().time()
        state = {"note": ""}  # what the log line adds to the status
        status: Any = "-"
        try:
            try:
                resp = await _handle(request, state)
            except _Fault as fault:
                state["note"] = fault.note or fault.code or ""
                resp = answer(fault.status, fault.message, fault.code, fault.path)
            status = resp.status
            return resp
        except asyncio.CancelledError:
            status = "cancelled"
            raise
        except Exception as exc:
            log.exception("%s %s -> 500: a bug of toolwire serve", request.method, request.path)
            status = 500
            state["note"] = f"internal error {type(exc).__name__}"
            return answer(500, f"toolwire: internal error of the proxy ({type(exc).__name__}: {exc})")
        finally:
            ms = (asyncio.get_running_loop().time() - start) * 1000
            note = state["note"]
            log.info(
                "%s %s -> %s%s (%.0f ms)",
                request.method,
                request.path,
                status,
                f" {note}" if note else "",
                ms,
            )

    async def read_body(request: Any) -> dict[str, Any]:
        """The client's request body, or a 4xx ``_Fault``: any problem with it is the client's."""
        try:
            raw = await asyncio.wait_for(request.read(), BODY_TIMEOUT)
        except web.HTTPRequestEntityTooLarge:
            raise _Fault(
                413, f"toolwire: the request body is larger than {max_body} bytes", note="too large"
            ) from None
        except TimeoutError:
            raise _Fault(
                408, f"toolwire: the request body took over {BODY_TIMEOUT:g} s", note="slow client"
            ) from None
        except ConnectionError:  # nobody is left to read the answer: it is for the log
            raise _Fault(
                400, "toolwire: the client went away during its request body", note="client went away"
            ) from None
        body = parsed(raw, "the request body", 400, "payload.invalid")
        if not isinstance(body, dict):
            raise _Fault(400, "toolwire: the request body must be a JSON object", "payload.invalid", "")
        if _LONE_SURROGATE_ESCAPE.search(raw):
            where = lone_surrogate_at(body)
            if where is not None:
                raise _Fault(
                    400,
                    f"toolwire: the request body holds a lone surrogate (a \\uD800-\\uDFFF escape "
                    f"that is not half of a pair) at {where or '/'}: it is no Unicode text and "
                    "cannot be sent on as UTF-8",
                    "payload.invalid",
                    where,
                )
        return body

    async def _handle(request: Any, state: dict[str, str]) -> Any:
        model: str | None = None
        stream = False
        if client_api.model_in_path:
            model, _, method = request.match_info["spec"].partition(separator)
            if method not in methods:
                raise _Fault(404, f"unknown method {method!r}: {' or '.join(methods)}")
            stream = methods[method]
        body = await read_body(request)
        if not client_api.model_in_path:
            stream = body.get("stream") is True
            model = body.get("model") if isinstance(body.get("model"), str) else None
        try:
            out = translate("request", body, source=client, target=upstream, profile=prof)
        except TranslationError as exc:
            message = f"toolwire: {exc.message}"
            if exc.code == "request.unsupported_field":
                key = (exc.code, exc.path, exc.message)
                if key not in hints:
                    if len(hints) > 256:
                        hints.clear()
                    hints[key] = await asyncio.to_thread(unsupported_hint, exc, body, client, upstream, prof)
                message = message.rstrip(".") + hints[key]
            raise _Fault(400, message, exc.code, exc.path) from None
        except (RecursionError, ValueError) as exc:
            raise _Fault(400, untranslatable("the request", exc, body), "payload.invalid", "") from None
        if upstream_api.model_in_path:
            out.pop("model", None)
        elif model and "model" not in out:
            out["model"] = model
        if upstream_api.stream_path is not None:
            out.pop("stream", None)
        elif stream and client_api.stream_path is not None:
            out["stream"] = True
        try:
            data = json.dumps(out, ensure_ascii=False).encode("utf-8")
        except UnicodeEncodeError:  # a lone surrogate the escape scan could not see (in tool-call arguments)
            raise _Fault(
                400,
                "toolwire: the translated request holds a lone surrogate (in JSON text inside "
                "the request): it is no Unicode text and cannot be sent on as UTF-8",
                "payload.invalid",
                "",
            ) from None
        except RecursionError:
            raise _Fault(400, too_deep("the request", body), "payload.invalid", "") from None
        url = base + upstream_path(upstream, model, stream)
        key = os.environ.get("TOOLWIRE_UPSTREAM_API_KEY") or client_key(request.headers, request.query)
        headers = upstream_headers(upstream, key, request.headers)
        try:
            resp = await request.app[SESSION].post(url, data=data, headers=headers)
        except TimeoutError:
            raise _Fault(
                504,
                f"toolwire: the upstream did not answer within {upstream_timeout:g} s",
                note="upstream timeout",
            ) from None
        except (ClientError, OSError) as exc:  # connection refused, DNS, TLS …
            raise _Fault(
                502,
                f"toolwire: the upstream is unreachable ({type(exc).__name__}: {exc})",
                note=f"upstream unreachable: {type(exc).__name__}",
            ) from None
        except ValueError as exc:  # a header aiohttp will not send (a ?key= with a newline …)
            raise _Fault(400, f"toolwire: the request cannot be sent on ({exc})", note="unsendable") from None
        async with resp:
            if resp.status >= 300:
                try:
                    raw = await resp.read()
                except (TimeoutError, ClientError) as exc:
                    raw = f"(the body broke off: {type(exc).__name__})".encode()
                message, kind = upstream_error(upstream, resp.status, raw)
                state["note"] = f"upstream {resp.status} passed through"
                body_out = error_body(client, resp.status, message, type_=kind)
                return _json_response(body_out, resp.status)
            if stream:
                kind = resp.headers.get("content-type", "").split(";")[0].strip().lower()
                if kind and kind != "text/event-stream":  # an HTML page of a gateway in between …
                    start = _clean((await resp.content.read(300)).decode("utf-8", "replace"))
                    raise _Fault(
                        502,
                        f"toolwire: the upstream answered the streaming request with {kind}, not an event "
                        f"stream: {start!r}",
                        "response.invalid",
                        "",
                        note=f"upstream stream answered with {kind}",
                    )
                return await _relay_stream(request, resp, state)
            return await _relay_response(request, resp)

    async def _relay_response(request: Any, resp: Any) -> Any:
        """The upstream's reply translated; a reply the proxy cannot read or pass on is a 502."""
        try:
            raw = await resp.read()
        except (TimeoutError, ClientError) as exc:
            raise _Fault(
                502,
                f"toolwire: the upstream's response broke off ({type(exc).__name__}: {exc})",
                note="upstream broke off",
            ) from None
        payload = parsed(raw, "the upstream's response body", 502, "response.invalid")
        try:
            result = translate("response", payload, source=upstream, target=client, profile=prof)
        except TranslationError as exc:
            # a reply the upstream should not have sent is a bad gateway; one the client's dialect cannot
            # carry answers the client's request
            status = 502 if exc.code == "response.invalid" else 400
            raise _Fault(
                status, f"toolwire: {exc.message}", exc.code, exc.path, note=f"{exc.code} (response)"
            ) from None
        except (RecursionError, ValueError) as exc:
            message = untranslatable("the upstream's response", exc, payload)
            raise _Fault(502, message, "response.invalid", "") from None
        try:
            data = json.dumps(result, ensure_ascii=False).encode("utf-8")
        except UnicodeEncodeError:
            where = lone_surrogate_at(payload) or ""
            raise _Fault(
                502,
                "toolwire: the upstream's response holds a lone surrogate (a \\uD800-\\uDFFF "
                f"escape that is not half of a pair) at {where or '/'}: it is no Unicode text and "
                "cannot be passed on as UTF-8",
                "response.invalid",
                where,
            ) from None
        return web.Response(body=data, status=200, content_type="application/json")

    async def _relay_stream(request: Any, resp: Any, state: dict[str, str]) -> Any:
        """Relay the upstream's stream event by event. A problem with it (unreadable, not UTF-8, a lone
        surrogate, cut off, untranslatable) ends it with the client dialect's error event."""
        out = web.StreamResponse(
            status=200,
            headers={
                "content-type": "text/event-stream; charset=utf-8",
                "cache-control": "no-cache",
                "x-accel-buffering": "no",
            },
        )
        transcoder = StreamTranscoder(upstream, client, prof)
        parser = SSEParser()
        sent = 0
        index = 0  # of the upstream event being translated
        current: Any = None

        async def send(events: list[dict]) -> None:
            nonlocal sent
            if events:
                data = "".join(format_event(e) for e in events).encode("utf-8")
                try:
                    await out.write(data)
                except ConnectionResetError:  # aiohttp's ClientConnectionResetError is one too
                    raise _ClientGone from None
                sent += len(events)

        async def feed(events: list[dict]) -> None:
            nonlocal index, current
            for event in events:
                current = event
                await send(transcoder.feed(event))
                index += 1
            current = None

        problem: tuple[str, str | None, str | None] | None = None
        try:
            try:
                await out.prepare(request)
            except ConnectionResetError:
                raise _ClientGone from None
            try:
                async for chunk in resp.content.iter_any():
                    await feed(parser.feed(chunk))
                    if parser.broken:
                        break
                await feed(parser.close())
                if parser.broken:
                    raise _NotUTF8(parser.broken)
                await send(transcoder.close())
            except _ClientGone:
                raise
            except TranslationError as exc:
                problem = (f"toolwire: {exc.message}", exc.code, exc.path)
            except _NotUTF8 as exc:
                problem = (
                    f"toolwire: the upstream's stream is not UTF-8 ({exc})",
                    "stream.invalid_event",
                    "",
                )
            except UnicodeEncodeError:
                where = f"/{index}/data{lone_surrogate_at(current.get('data')) or ''}" if current else ""
                problem = (
                    "toolwire: an event of the upstream's stream holds a lone surrogate (a \\uD800-\\uDFFF "
                    "escape that is not half of a pair): it is no Unicode text and cannot be passed on "
                    "as UTF-8",
                    "stream.invalid_event",
                    where,
                )
            except (RecursionError, ValueError) as exc:
                what = f"event {index} of the upstream's stream"
                problem = (untranslatable(what, exc, current), "stream.invalid_event", f"/{index}/data")
            except (TimeoutError, ClientError) as exc:
                problem = (
                    f"toolwire: the upstream's stream broke off ({type(exc).__name__}: {exc})",
                    None,
                    None,
                )
            except Exception as exc:
                log.exception("%s %s: a bug of toolwire serve mid-stream", request.method, request.path)
                problem = (f"toolwire: internal error of the proxy ({type(exc).__name__}: {exc})", None, None)
            if problem is not None:
                message, code, path = problem
                state["note"] = f"stream ended by an error event {code or ''}".rstrip()
                await send([error_event(client, _clean(message), code=code, path=path and _clean(path))])
            else:
                state["note"] = f"stream of {sent} events"
            try:
                await out.write_eof()
            except ConnectionResetError:
                raise _ClientGone from None
        except _ClientGone:
            state["note"] = f"stream: the client went away after {sent} events"
        return out

    app.router.add_post(_route(client_api), handle)
    return app


def _listen(value: str) -> tuple[str, int]:
    host, sep, port = value.rpartition(":")
    if not sep or not port.isdigit():
        raise argparse.ArgumentTypeError(f"expected HOST:PORT, got {value!r}")
    return host or "127.0.0.1", int(port)


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="toolwire serve",
        description="A translating proxy: clients speak --client-dialect, the upstream --upstream-dialect.",
    )
    p.add_argument(
        "--listen",
        type=_listen,
        default=("127.0.0.1", 8080),
        metavar="HOST:PORT",
        help="where to listen (default 127.0.0.1:8080; port 0: any free port, printed)",
    )
    p.add_argument("--client-dialect", required=True, choices=PROVIDER_DIALECTS)
    p.add_argument("--upstream-dialect", required=True, choices=PROVIDER_DIALECTS)
    p.add_argument(
        "--upstream-url",
        required=True,
        metavar="URL",
        help="the upstream's base URL, e.g. https://api.openai.com (its real paths are appended)",
    )
    p.add_argument(
        "--profile",
        action="append",
        default=[],
        metavar="K=V",
        help="a translation profile value (corpus/profiles.json); repeatable",
    )
    p.add_argument(
        "--upstream-timeout",
        type=float,
        default=UPSTREAM_TIMEOUT,
        metavar="SECONDS",
        help=f"seconds the upstream may stay silent, then the client gets a 504 ({UPSTREAM_TIMEOUT:g})",
    )
    p.add_argument("-q", "--quiet", action="store_true", help="no request log")
    return p


async def _serve(app: Any, host: str, port: int) -> None:
    from aiohttp import web

    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, host, port)
    await site.start()
    sockets = getattr(site._server, "sockets", None) or []
    bound = sockets[0].getsockname()[1] if sockets else port
    print(f"toolwire serve: listening on http://{host}:{bound}", file=sys.stderr, flush=True)
    try:
        await asyncio.Event().wait()
    finally:
        await runner.cleanup()


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        import aiohttp  # noqa: F401
    except ModuleNotFoundError:
        print("toolwire serve needs aiohttp (a dependency of toolwire): pip install aiohttp", file=sys.stderr)
        return 2
    if not args.upstream_timeout > 0:
        print("toolwire serve: --upstream-timeout must be a number of seconds above 0", file=sys.stderr)
        return 2
    profile: dict[str, str] = {}
    for item in args.profile:
        key, sep, value = item.partition("=")
        if not sep:
            print(f"toolwire serve: --profile expects K=V, got {item!r}", file=sys.stderr)
            return 2
        profile[key.strip()] = value.strip()
    try:
        app = build_app(
            args.client_dialect, args.upstream_dialect, args.upstream_url, profile, args.upstream_timeout
        )
    except ValueError as exc:
        print(f"toolwire serve: {exc}", file=sys.stderr)
        return 2
    logging.basicConfig(
        level=logging.WARNING if args.quiet else logging.INFO,
        format="%(asctime)s %(message)s",
        stream=sys.stderr,
    )
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(_serve(app, *args.listen))
    return 0


if __name__ == "__main__":
    sys.exit(main())
