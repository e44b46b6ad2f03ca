"""``toolwire serve``: the reference translator as a real HTTP proxy between two provider dialects.

    toolwire serve --listen 127.0.0.1:8080 --client-dialect anthropic \\
        --upstream-dialect openai-chat --upstream-url https://api.openai.com [--profile K=V ...]

Clients talk to it in ``--client-dialect`` on that dialect's real path (``/v1/chat/completions``,
``/v1/responses``, ``/v1/messages``, ``/v1beta/models/{model}:generateContent`` and
``:streamGenerateContent?alt=sse``). Each request body is translated (kind ``request``) and sent to the
upstream's real path (Gemini: the model in the URL, from the request's ``model``); the reply is translated
back (kind ``response``), or, for a streaming request, read incrementally and re-encoded event by event
(``toolwire_reference.streams.StreamTranscoder``) as it arrives: nothing is buffered.

- Upstream errors (non-2xx) are passed through with the same status, in the client dialect's error shape.
- A translation error is a 400 in the client's error shape carrying the toolwire code (``errors.json``):
  ``error.code`` and ``error.param`` (the JSON Pointer) for OpenAI and Anthropic clients, an
  ``ErrorInfo`` detail (``reason`` = code, ``metadata.path``) for Gemini clients. Mid-stream, it is the
  client dialect's error event, and the stream ends.
- Upstream connections are not capped: every open stream holds one.
- The client's API key (``x-api-key``, ``Authorization: Bearer``, ``x-goog-api-key`` or ``?key=``) is sent
  in the upstream's header (``TOOLWIRE_UPSTREAM_API_KEY`` replaces it when set). Keys are never logged.

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
import sys
from collections.abc import Mapping
from typing import Any

from toolwire_reference import TranslationError, translate
from toolwire_reference.profiles import resolve_profile
from toolwire_reference.streams import StreamTranscoder
from toolwire_reference.streams.sse import format_event, read_sse

from .endpoints import DIALECT_PATHS, PROVIDER_DIALECTS

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

GEMINI_PREFIX = "/v1beta/models/"
ANTHROPIC_VERSION = "2023-06-01"

_STATUS_TYPES = {  # status -> (openai/anthropic type, gemini status)
    400: ("invalid_request_error", "INVALID_ARGUMENT"),
    401: ("authentication_error", "UNAUTHENTICATED"),
    403: ("permission_error", "PERMISSION_DENIED"),
    404: ("not_found_error", "NOT_FOUND"),
    408: ("timeout_error", "DEADLINE_EXCEEDED"),
    413: ("request_too_large", "INVALID_ARGUMENT"),
    429: ("rate_limit_error", "RESOURCE_EXHAUSTED"),
    500: ("api_error", "INTERNAL"),
    502: ("api_error", "UNAVAILABLE"),
    503: ("overloaded_error", "UNAVAILABLE"),
    504: ("timeout_error", "DEADLINE_EXCEEDED"),
    529: ("overloaded_error", "UNAVAILABLE"),
}


def _types(status: int) -> tuple[str, str]:
    if status in _STATUS_TYPES:
        return _STATUS_TYPES[status]
    return ("invalid_request_error", "INVALID_ARGUMENT") if status < 500 else ("api_error", "INTERNAL")


def error_body(
    dialect: str,
    status: int,
    message: str,
    *,
    code: str | None = None,
    path: str | None = None,
    type_: str | None = None,
) -> dict[str, Any]:
    """An error body in ``dialect``'s shape; ``code``/``path``: a toolwire error code and its JSON Pointer."""
    kind, grpc = _types(status)
    kind = type_ or kind
    if dialect == "gemini":
        err: dict[str, Any] = {"code": status, "message": message, "status": grpc}
        if code is not None:
            err["details"] = [
                {
                    "@type": "type.googleapis.com/google.rpc.ErrorInfo",
                    "reason": code,
                    "domain": "toolwire",
                    "metadata": {"path": path or ""},
                }
            ]
        return {"error": err}
    err = {"type": kind, "message": message}
    if code is not None:
        err["code"] = code
        err["param"] = path
    if dialect == "anthropic":
        return {"type": "error", "error": err}
    if code is None:
        err.update(param=None, code=None)
    return {"error": err}


def error_event(dialect: str, message: str, *, code: str | None = None, path: str | None = None) -> dict:
    """The stream event ``dialect`` uses to report an error mid-stream (the stream ends after it)."""
    if dialect == "openai-responses":
        return {"event": "error", "data": {"type": "error", "code": code, "message": message, "param": path}}
    body = error_body(
        dialect,
        500 if code is None else 400,
        message,
        code=code,
        path=path,
        type_="api_error" if code is None else None,
    )
    if dialect == "anthropic":
        return {"event": "error", "data": body}
    return {"data": body}


def upstream_error(dialect: str, status: int, raw: bytes) -> tuple[str, str | None]:
    """(message, type) of an upstream error body in ``dialect``'s shape (best effort)."""
    try:
        body = json.loads(raw)
    except ValueError:
        text = raw.decode("utf-8", "replace").strip()
        return (text[:1000] or f"upstream answered HTTP {status}"), None
    err = body.get("error") if isinstance(body, dict) else None
    if isinstance(body, list) and body and isinstance(body[0], dict):  # Gemini sometimes wraps it in a list
        err = body[0].get("error")
    if isinstance(err, dict):
        message = err.get("message")
        kind = err.get("type") if dialect != "gemini" else None
        text = str(message) if message else json.dumps(err)[:1000]
        return text, (kind if isinstance(kind, str) else None)
    if isinstance(err, str):
        return err, None
    return json.dumps(body)[:1000], None


def upstream_path(dialect: str, model: str | None, stream: bool) -> str:
    """The upstream's real path (and query) for a request."""
    if dialect == "gemini":
        method = "streamGenerateContent?alt=sse" if stream else "generateContent"
        return f"{GEMINI_PREFIX}{model or 'unknown-model'}:{method}"
    return DIALECT_PATHS[dialect]


def client_key(headers: Mapping[str, str], query: Mapping[str, str]) -> str | None:
    """The API key a client sent, whichever provider's header it used."""
    for name in ("x-api-key", "x-goog-api-key"):
        if headers.get(name):
            return headers[name]
    auth = headers.get("authorization", "")
    if auth.lower().startswith("bearer "):
        return auth[7:].strip()
    return query.get("key") or None


def upstream_headers(dialect: str, key: str | None, incoming: Mapping[str, str]) -> dict[str, str]:
    headers = {"content-type": "application/json"}
    if key:
        if dialect == "anthropic":
            headers["x-api-key"] = key
        elif dialect == "gemini":
            headers["x-goog-api-key"] = key
        else:
            headers["authorization"] = f"Bearer {key}"
    if dialect == "anthropic":
        headers["anthropic-version"] = incoming.get("anthropic-version") or ANTHROPIC_VERSION
        if incoming.get("anthropic-beta"):
            headers["anthropic-beta"] = incoming["anthropic-beta"]
    return headers


class SSEParser:
    """Incremental SSE reader: ``feed(bytes) -> events``, ``close() -> events`` (split UTF-8 is fine)."""

    def __init__(self) -> None:
        self._decoder = codecs.getincrementaldecoder("utf-8")("replace")
        self._pending = ""

    def feed(self, data: bytes) -> list[dict[str, Any]]:
        self._pending += self._decoder.decode(data)
        if "\r" in self._pending:  # CRLF and CR end lines too; a CR at the end may be half of a CRLF
            hold = self._pending.endswith("\r")
            body = self._pending[:-1] if hold else self._pending
            self._pending = body.replace("\r\n", "\n").replace("\r", "\n") + ("\r" if hold else "")
        cut = self._pending.rfind("\n\n")
        if cut == -1:
            return []
        whole, self._pending = self._pending[: cut + 2], self._pending[cut + 2 :]
        return list(read_sse(whole))

    def close(self) -> list[dict[str, Any]]:
        rest = self._pending + self._decoder.decode(b"", final=True)
        self._pending = ""
        return list(read_sse(rest)) if rest.strip() else []


def _json_response(body: Any, status: int) -> Any:
    from aiohttp import web

    return web.json_response(body, status=status, dumps=lambda v: json.dumps(v, ensure_ascii=False))


def build_app(client: str, upstream: str, upstream_url: str, profile: Mapping[str, str] | None = None) -> Any:
    """The aiohttp application of a proxy from ``client`` dialect clients to an ``upstream`` server."""
    from aiohttp import ClientSession, ClientTimeout, TCPConnector, web

    for role, dialect in (("client", client), ("upstream", upstream)):
        if dialect not in PROVIDER_DIALECTS:
            raise ValueError(f"unknown {role} dialect {dialect!r}; one of {', '.join(PROVIDER_DIALECTS)}")
    prof = resolve_profile(profile)  # ValueError on an unknown key or value
    base = upstream_url.rstrip("/")
    app = web.Application(client_max_size=64 * 1024 * 1024)

    async def session_ctx(app: Any) -> Any:
        # no cap on upstream connections: every client stream holds one for as long as it lasts
        app["session"] = ClientSession(
            connector=TCPConnector(limit=0),
            timeout=ClientTimeout(total=None, sock_connect=30, sock_read=600),
        )
        yield
        await app["session"].close()

    app.cleanup_ctx.append(session_ctx)

    def fail(status: int, message: str, code: str | None = None, path: str | None = None) -> Any:
        return _json_response(error_body(client, status, message, code=code, path=path), status)

    async def handle(request: Any) -> Any:
        model: str | None = None
        if client == "gemini":
            model, _, method = request.match_info["spec"].partition(":")
            if method not in ("generateContent", "streamGenerateContent"):
                return fail(404, f"unknown method {method!r}: generateContent or streamGenerateContent")
            stream = method == "streamGenerateContent"
        try:
            body = json.loads(await request.read())
        except ValueError as exc:
            return fail(400, f"the request body is not JSON: {exc}", "payload.invalid", "")
        if not isinstance(body, dict):
            return fail(400, "the request body must be a JSON object", "payload.invalid", "")
        if client != "gemini":
            stream = body.get("stream") is True
            model = body.get("model") if isinstance(body.get("model"), str) else None
        try:
            out = translate("request", body, source=client, target=upstream, profile=prof)
        except TranslationError as exc:
            log.info("%s %s -> 400 %s", request.method, request.path, exc.code)
            return fail(400, f"toolwire: {exc.message}", exc.code, exc.path)
        if upstream == "gemini":
            out.pop("model", None)
            out.pop("stream", None)
        else:
            if model and "model" not in out:
                out["model"] = model
            if stream and client == "gemini":
                out["stream"] = True
        url = base + upstream_path(upstream, model, stream)
        key = os.environ.get("TOOLWIRE_UPSTREAM_API_KEY") or client_key(request.headers, request.query)
        headers = upstream_headers(upstream, key, request.headers)
        session = request.app["session"]
        try:
            resp = await session.post(url, data=json.dumps(out, ensure_ascii=False).encode(), headers=headers)
        except Exception as exc:  # connection refused, DNS, TLS …
            log.warning("%s %s -> upstream unreachable: %s", request.method, request.path, type(exc).__name__)
            return fail(502, f"toolwire: the upstream is unreachable ({type(exc).__name__}: {exc})")
        async with resp:
            if resp.status >= 300:
                raw = await resp.read()
                message, kind = upstream_error(upstream, resp.status, raw)
                log.info("%s %s -> upstream %d passed through", request.method, request.path, resp.status)
                body_out = error_body(
                    client, resp.status, message, type_=kind if client != "gemini" and kind else None
                )
                return _json_response(body_out, resp.status)
            if stream:
                return await _relay_stream(request, resp)
            raw = await resp.read()
            try:
                payload = json.loads(raw)
            except ValueError:
                return fail(502, "toolwire: the upstream's response body is not JSON")
            try:
                result = translate("response", payload, source=upstream, target=client, profile=prof)
            except TranslationError as exc:
                log.info("%s %s -> 400 %s (response)", request.method, request.path, exc.code)
                return fail(400, f"toolwire: {exc.message}", exc.code, exc.path)
            log.info("%s %s -> 200", request.method, request.path)
            return _json_response(result, 200)

    async def _relay_stream(request: Any, resp: Any) -> Any:
        out = web.StreamResponse(
            status=200,
            headers={
                "content-type": "text/event-stream; charset=utf-8",
                "cache-control": "no-cache",
                "x-accel-buffering": "no",
            },
        )
        await out.prepare(request)
        transcoder = StreamTranscoder(upstream, client, prof)
        parser = SSEParser()

        async def send(events: list[dict]) -> None:
            if events:
                await out.write("".join(format_event(e) for e in events).encode("utf-8"))

        try:
            try:
                async for chunk in resp.content.iter_any():
                    for event in parser.feed(chunk):
                        await send(transcoder.feed(event))
                for event in parser.close():
                    await send(transcoder.feed(event))
                await send(transcoder.close())
            except TranslationError as exc:
                log.info("%s %s -> stream error %s", request.method, request.path, exc.code)
                await send([error_event(client, f"toolwire: {exc.message}", code=exc.code, path=exc.path)])
            await out.write_eof()
        except (ConnectionResetError, asyncio.CancelledError):
            log.info("%s %s -> client went away", request.method, request.path)
            raise
        log.info("%s %s -> 200 (stream)", request.method, request.path)
        return out

    if client == "gemini":
        app.router.add_post(GEMINI_PREFIX + "{spec}", handle)
    else:
        app.router.add_post(DIALECT_PATHS[client], handle)
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
    profile: dict[str, str] = {}
    for item in args.profile:
        key, sep, value = item.partition("=")
        if not sep:
            print(f"toolwire serve: --profile expects K=V, got {item!r}", file=sys.stderr)
            return 2
        profile[key.strip()] = value.strip()
    try:
        app = build_app(args.client_dialect, args.upstream_dialect, args.upstream_url, profile)
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
