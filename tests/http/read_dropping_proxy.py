"""A deliberately buggy OpenAI Chat → OpenAI Chat proxy for the delivery tests: it relays the upstream's
stream read by read and, like a proxy seen in the field, stops handling a network read at the event that
carries ``finish_reason``, dropping the rest of that read (the usage chunk, ``[DONE]``). Whole responses
and requests pass through unchanged.

    python read_dropping_proxy.py PORT UPSTREAM_URL
"""

from __future__ import annotations

import json
import sys

from aiohttp import ClientSession, web


async def relay(request: web.Request) -> web.StreamResponse:
    body = await request.read()
    upstream = request.app["upstream"] + "/v1/chat/completions"
    headers = {"content-type": "application/json", "authorization": request.headers.get("authorization", "")}
    async with ClientSession() as session, session.post(upstream, data=body, headers=headers) as resp:
        if "text/event-stream" not in resp.headers.get("content-type", ""):
            return web.Response(body=await resp.read(), status=resp.status, content_type="application/json")
        out = web.StreamResponse(headers={"content-type": "text/event-stream"})
        await out.prepare(request)
        pending = b""
        async for read in resp.content.iter_any():  # one network read at a time
            pending += read
            *events, pending = pending.split(b"\n\n")
            for event in events:
                await out.write(event + b"\n\n")
                data = event.partition(b"data: ")[2]
                if data.startswith(b"{") and any(c.get("finish_reason") for c in json.loads(data)["choices"]):
                    pending = b""  # the bug: the rest of this read is dropped
                    break
        await out.write_eof()
        return out


def main() -> None:
    port, upstream = int(sys.argv[1]), sys.argv[2]
    app = web.Application()
    app["upstream"] = upstream.rstrip("/")
    app.router.add_post("/v1/chat/completions", relay)
    web.run_app(app, host="127.0.0.1", port=port, print=None)


if __name__ == "__main__":
    main()
