"""``toolwire serve`` under load: a couple hundred streams at once through one proxy, each one its own,
to an upstream that holds every stream open until all of them have arrived. Every client must get exactly
its own stream, complete. Loopback only; bounded; no timing is asserted."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

pytest.importorskip("aiohttp")

from serve_support import CHAT_STREAM_END, Upstream, chat_chunk, serve, sse_answer  # noqa: E402
from toolwire.adapters.upstream import LoopThread  # noqa: E402
from toolwire_reference.streams.sse import read_sse  # noqa: E402

STREAMS = 200
PIECES = 8  # text deltas per stream, each naming its stream


def words(marker: str) -> list[str]:
    return [f"<{marker}#{k}>" for k in range(PIECES)]


def test_concurrent_streams_each_reach_their_own_client_complete(tmp_path: Path) -> None:
    loop = LoopThread()
    up = Upstream(loop).start()
    arrived = 0
    everyone = asyncio.Event()  # on the loop thread: all streams are open at the upstream at once
    open_now = most_open = 0

    async def script(request, body):
        nonlocal arrived, open_now, most_open
        marker = body["messages"][-1]["content"]
        arrived += 1
        open_now += 1
        most_open = max(most_open, open_now)
        if arrived == STREAMS:
            everyone.set()

        async def between(i: int) -> None:
            if i == 1:  # the first chunk is out; the rest only once every stream is open (or never)
                await asyncio.wait_for(everyone.wait(), 30)
            await asyncio.sleep(0)  # interleave the streams' writes

        writes = [chat_chunk({"role": "assistant", "content": ""})]
        writes += [chat_chunk({"content": w}) for w in words(marker)] + [CHAT_STREAM_END]
        try:
            return await sse_answer(request, writes, between)
        finally:
            open_now -= 1

    up.script = script

    async def one(session, url: str, i: int) -> tuple[int, str, list[dict]]:
        body = {
            "model": "m",
            "max_tokens": 64,
            "stream": True,
            "messages": [{"role": "user", "content": f"client-{i}"}],
        }
        async with session.post(url + "/v1/messages", json=body, headers={"x-api-key": "k"}) as resp:
            raw = await resp.read()
        return resp.status, raw.decode("utf-8"), list(read_sse(raw.decode("utf-8")))

    async def crowd(url: str) -> list[tuple[int, str, list[dict]]]:
        from aiohttp import ClientSession, ClientTimeout, TCPConnector

        async with ClientSession(
            connector=TCPConnector(limit=0), timeout=ClientTimeout(total=120)
        ) as session:
            return await asyncio.gather(*(one(session, url, i) for i in range(STREAMS)))

    try:
        with serve(tmp_path, "anthropic", "openai-chat", up.url, "-q") as proxy:
            results = loop.run(crowd(proxy.url), 180)
            log = proxy.log_text()
    finally:
        up.stop()
        loop.stop()

    assert "Traceback" not in log, log[-3000:]
    assert arrived == STREAMS and most_open == STREAMS  # all of them were in flight together
    for i, (status, raw, events) in enumerate(results):
        assert status == 200, raw[:500]
        names = [e.get("event") for e in events]
        assert names[0] == "message_start" and names[-1] == "message_stop", (i, names)
        assert "error" not in names, raw[:2000]
        text = "".join(
            e["data"]["delta"].get("text", "") for e in events if e.get("event") == "content_block_delta"
        )
        assert text == "".join(words(f"client-{i}")), (i, text)  # its own stream, whole, in order
