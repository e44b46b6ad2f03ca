"""What the ``toolwire serve`` tests share: a scripted upstream and a real ``serve`` process, both on
127.0.0.1 with ephemeral ports, both stopped by the test that started them."""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from toolwire.adapters.upstream import LoopThread

Script = Callable[[Any, Any], Awaitable[Any]]


class Upstream:
    """A fake provider on 127.0.0.1 answering every POST with ``script(request, body)`` (an aiohttp
    handler also given the parsed JSON body); records the bodies it received in ``bodies``."""

    def __init__(self, loop: LoopThread) -> None:
        self.loop = loop
        self.script: Script | None = None
        self.bodies: list[Any] = []
        self.port = 0
        self._runner: Any = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    async def _handle(self, request: Any) -> Any:
        body = json.loads(await request.read())
        self.bodies.append(body)
        assert self.script is not None, "the test set no script for the upstream"
        return await self.script(request, body)

    async def _start(self) -> None:
        from aiohttp import web

        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_post("/{tail:.*}", self._handle)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = site._server.sockets[0].getsockname()[1]

    def start(self) -> Upstream:
        self.loop.run(self._start(), 30)
        return self

    def stop(self) -> None:
        if self._runner is not None:
            self.loop.run(self._runner.cleanup(), 10)
            self._runner = None


async def raw_answer(body: bytes, status: int = 200, content_type: str = "application/json") -> Any:
    from aiohttp import web

    return web.Response(body=body, status=status, headers={"content-type": content_type})


async def sse_answer(
    request: Any, writes: list[bytes], between: Callable[[int], Awaitable[None]] | None = None
):
    """An SSE response written in ``writes``; ``between(i)`` is awaited before write ``i``."""
    from aiohttp import web

    resp = web.StreamResponse(headers={"content-type": "text/event-stream", "cache-control": "no-cache"})
    resp.enable_chunked_encoding()
    await resp.prepare(request)
    for i, data in enumerate(writes):
        if between is not None:
            await between(i)
        await resp.write(data)
    await resp.write_eof()
    return resp


def chat_chunk(delta: dict, finish: str | None = None) -> bytes:
    """One openai-chat stream chunk as an SSE message."""
    chunk = {
        "id": "c1",
        "object": "chat.completion.chunk",
        "created": 1,
        "model": "m",
        "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
    }
    return b"data: " + json.dumps(chunk).encode() + b"\n\n"


CHAT_STREAM_END = chat_chunk({}, "stop") + b"data: [DONE]\n\n"
#: a whole chat completion saying "ok"
CHAT_OK = json.dumps(
    {
        "id": "c",
        "object": "chat.completion",
        "created": 1,
        "model": "m",
        "choices": [{"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": "ok"}}],
    }
).encode()


@dataclass
class Proxy:
    url: str
    log: Path
    proc: subprocess.Popen[bytes]

    def log_text(self) -> str:
        return self.log.read_text(encoding="utf-8", errors="replace")

    def wait_for_log(self, pattern: str, timeout: float = 15) -> str:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            text = self.log_text()
            if re.search(pattern, text):
                return text
            time.sleep(0.05)
        raise AssertionError(f"the proxy never logged {pattern!r}; its log:\n{self.log_text()[-3000:]}")

    def request_lines(self) -> list[str]:
        """The log's request lines (``METHOD /path -> ...``)."""
        return [line for line in self.log_text().splitlines() if re.search(r" (POST|GET) /\S* -> ", line)]


@contextlib.contextmanager
def serve(tmp_path: Path, client: str, upstream: str, upstream_url: str, *extra: str) -> Iterator[Proxy]:
    """A ``toolwire serve`` process (not quiet: its request log is what some tests read)."""
    log = tmp_path / f"serve-{client}-{upstream}-{time.monotonic_ns()}.log"
    argv = [
        sys.executable,
        "-m",
        "toolwire.cli",
        "serve",
        "--listen",
        "127.0.0.1:0",
        "--client-dialect",
        client,
        "--upstream-dialect",
        upstream,
        "--upstream-url",
        upstream_url,
        *extra,
    ]
    with open(log, "wb") as fh:
        proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=fh, stderr=fh, start_new_session=True)
    try:
        deadline = time.monotonic() + 30
        while True:
            found = re.search(r"listening on (http://127\.0\.0\.1:\d+)", log.read_text(errors="replace"))
            if found:
                break
            if proc.poll() is not None or time.monotonic() > deadline:
                raise AssertionError(f"toolwire serve did not start:\n{log.read_text(errors='replace')}")
            time.sleep(0.05)
        yield Proxy(found.group(1), log, proc)
    finally:
        with contextlib.suppress(OSError):
            os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(10)


async def post(url: str, data: bytes, headers: dict[str, str] | None = None) -> tuple[int, bytes]:
    from aiohttp import ClientSession

    async with (
        ClientSession() as session,
        session.post(url, data=data, headers={"content-type": "application/json", **(headers or {})}) as resp,
    ):
        return resp.status, await resp.read()
