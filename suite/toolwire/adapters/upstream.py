"""The ``http:`` adapter's mock upstream: a fake provider on 127.0.0.1 (aiohttp, in an event loop of its own
thread) that records the requests a proxy sends it and answers with a canned response or stream, written
as :mod:`toolwire.adapters.delivery` says; its minimal replies are data of the dialect descriptors, never
a translator's output. Also what it knows of the keys a proxy sends it."""

from __future__ import annotations

import asyncio
import contextlib
import json
import threading
from typing import Any

from ..descriptors import descriptor
from ..endpoints import expected_path, http_client, is_dialect_path
from ..jsonvalue import clip
from .base import AdapterError
from .delivery import delivery_writes, wait_until_read

__all__ = [
    "KEY_HEADERS",
    "MIN_SECRET",
    "LoopThread",
    "MockUpstream",
    "minimal_response",
    "minimal_stream",
    "upstream_keys",
    "usage_on_finish_chunk",
    "without_path_model",
]


def _minimal_reply(dialect: str) -> dict[str, Any]:
    reply = descriptor(dialect).get("minimal_reply")
    if not isinstance(reply, dict):
        raise AdapterError(f"the {dialect} descriptor has no minimal_reply (corpus/dialects/{dialect}.json)")
    return json.loads(json.dumps(reply))  # a fresh copy per use


def minimal_response(dialect: str) -> Any:
    """A small valid response body of ``dialect`` (what the mock answers in ``request`` checks): data from
    the dialect's descriptor, never the reference's output."""
    return _minimal_reply(dialect)["response"]


def minimal_stream(dialect: str) -> list[dict[str, Any]]:
    """A small valid stream of ``dialect`` (the descriptor's ``minimal_reply``)."""
    return _minimal_reply(dialect)["stream"]


def usage_on_finish_chunk(events: list[Any]) -> list[Any]:
    """An OpenAI Chat stream as GitHub Copilot's API sends it: the ``usage`` of OpenAI's own last chunk
    (``choices: []``) carried by the chunk with the ``finish_reason`` instead (ericc-ch/copilot-api#187),
    the same stream in another spelling. Other streams, and streams without such a chunk, are unchanged."""
    finish = usage = None
    for i, event in enumerate(events):
        data = event.get("data") if isinstance(event, dict) else None
        if not isinstance(data, dict) or not isinstance(data.get("choices"), list):
            continue
        if data["choices"] == [] and isinstance(data.get("usage"), dict):
            usage = i
        elif any(isinstance(c, dict) and c.get("finish_reason") for c in data["choices"]):
            finish = i
    if usage is None or finish is None or finish > usage:
        return events
    out = [dict(e) for e in events]
    out[finish]["data"] = {**out[finish]["data"], "usage": events[usage]["data"]["usage"]}
    del out[usage]
    return out


#: the headers a provider reads its key from (``authorization`` as ``Bearer <key>``)
KEY_HEADERS = ("authorization", "x-api-key", "x-goog-api-key", "api-key")
#: shorter strings are not scrubbed: replacing them would garble outputs without hiding a real key
MIN_SECRET = 6


def upstream_keys(headers: dict[str, str], query: dict[str, str]) -> set[str]:
    """The keys a request to the mock upstream carries (credential headers, Gemini's ``?key=``)."""
    found = {headers[h] for h in KEY_HEADERS if headers.get(h)}
    found |= {v.split(None, 1)[1] for v in list(found) if v.lower().startswith("bearer ") and " " in v}
    if query.get("key"):
        found.add(query["key"])
    return {k.strip() for k in found if len(k.strip()) >= MIN_SECRET}


def without_path_model(body: Any, path: str) -> Any:
    """A Gemini request body without a ``model`` member that names the model its path names: the same field
    (GenerateContentRequest's ``model``, which the REST path ``/v1beta/{model=models/*}:generateContent``
    binds), sent twice by some proxies (Portkey's gateway), not something a translation added."""
    if not isinstance(body, dict) or not isinstance(body.get("model"), str):
        return body
    named = path.rsplit("/", 1)[-1].split(":", 1)[0]
    if body["model"] in (named, f"models/{named}"):
        return {k: v for k, v in body.items() if k != "model"}
    return body


class LoopThread:
    """An asyncio event loop running in a daemon thread; ``run(coro, timeout)`` from any other thread."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, name="toolwire-http-loop", daemon=True)
        self.thread.start()

    def run(self, coro: Any, timeout: float | None = None) -> Any:
        future = asyncio.run_coroutine_threadsafe(coro, self.loop)
        try:
            return future.result(timeout)
        except TimeoutError:
            future.cancel()
            raise

    def stop(self) -> None:
        if self.loop.is_running():
            self.loop.call_soon_threadsafe(self.loop.stop)
            self.thread.join(5)
        if not self.loop.is_running():
            self.loop.close()


class MockUpstream:
    """A fake provider for ``dialect`` on 127.0.0.1: records each request, answers per :attr:`plan`.

    ``plan``: ``{"status", "json"}`` (a JSON body), ``{"events": [...], "delivery"?: str, "hold"?:
    threading.Event}`` (SSE, or one JSON array for Gemini asked without ``?alt=sse``, in the writes of
    :func:`toolwire.adapters.delivery.delivery_writes`, each read by the proxy before the next; with
    ``hold``, the last write waits until it is set), or ``None`` (a minimal valid response, or stream when
    the request asks for one).
    """

    def __init__(self, dialect: str, loop: LoopThread, port: int = 0) -> None:
        self.dialect = dialect
        self.loop = loop
        self.port = port
        self.plan: dict[str, Any] | None = None
        self.requests: list[dict[str, Any]] = []
        #: every key a proxy sent this upstream (kept across resets: the adapter never writes them)
        self.keys: set[str] = set()
        self._runner: Any = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> MockUpstream:
        self.loop.run(self._start(), 30)
        return self

    def stop(self) -> None:
        if self._runner is not None:
            with contextlib.suppress(Exception):
                self.loop.run(self._runner.cleanup(), 10)
            self._runner = None

    def reset(self, plan: dict[str, Any] | None) -> None:
        self.plan = plan
        self.requests = []

    @property
    def recorded(self) -> dict[str, Any] | None:
        return self.requests[-1] if self.requests else None

    async def _start(self) -> None:
        from aiohttp import web

        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_route("*", "/{tail:.*}", self._handle)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", self.port)
        await site.start()
        self.port = site._server.sockets[0].getsockname()[1]

    def _problem(self, method: str, path: str) -> str | None:
        if method != "POST":
            return f"the proxy sent {method} {path} to the upstream; a POST was expected"
        if not is_dialect_path(self.dialect, path):
            want = expected_path(self.dialect)
            return f"the proxy sent POST {path} to the {self.dialect} upstream; expected {want}"
        return None

    async def _handle(self, request: Any) -> Any:
        from aiohttp import web

        raw = await request.read()
        try:
            body: Any = json.loads(raw)
        except ValueError:
            body = None
        client = http_client(self.dialect)
        stream = client.asks_for_stream(request.path, body)
        query = dict(request.query)
        self.keys |= upstream_keys({k.lower(): v for k, v in request.headers.items()}, query)
        record = {
            "method": request.method,
            "path": request.path,
            "query": query,
            "headers": {k.lower(): v for k, v in request.headers.items()},
            "body": body,
            "raw": None if body is not None else clip(raw.decode("utf-8", "replace"), 2000),
            "stream": stream,
            "problem": self._problem(request.method, request.path),
        }
        self.requests.append(record)
        if record["problem"]:
            return web.json_response({"error": {"message": record["problem"]}}, status=404)
        plan = self.plan
        if plan is None:
            minimal = {"events": minimal_stream(self.dialect)} if stream else None
            plan = minimal or {"json": minimal_response(self.dialect)}
        if "events" not in plan:
            return web.json_response(plan.get("json"), status=int(plan.get("status", 200)))
        # SSE, or what the provider answers a stream request without its query (Gemini: one JSON array)
        framing = client.stream_framing(query)
        resp = web.StreamResponse(
            status=int(plan.get("status", 200)),
            headers={
                "content-type": "application/json" if framing == "json-array" else "text/event-stream",
                "cache-control": "no-cache",
            },
        )
        resp.enable_chunked_encoding()
        await resp.prepare(request)
        writes = delivery_writes(list(plan["events"]), str(plan.get("delivery", "events")), framing)
        hold = plan.get("hold")
        try:
            for i, data in enumerate(writes):
                if hold is not None and i == len(writes) - 1:
                    while not hold.is_set():
                        await asyncio.sleep(0.01)
                await resp.write(data)
                await wait_until_read(request.transport)
            await resp.write_eof()
        except ConnectionResetError:
            # the proxy hung up before the stream's end (it gave up on it): what it answered its client is
            # judged; the mock has nothing to add, and no traceback for the run's log
            record["hung_up"] = True
        return resp
