"""How the mock upstream delivers a stream to a proxy: the bytes of each write, and waiting for the proxy
to read them.

A proxy reads its upstream's stream in network reads, and what one read holds is up to the network: one
event, several, or part of one. A proxy that handles only some of these shapes (it stops reading a read at
``finish_reason`` and drops the rest of it) has a real bug, but if the shape is left to timing, its
verdicts change from run to run. So the mock chooses the shape, and waits after each write until the
proxy has read everything it was sent before writing again:

- ``events`` (the main check): one event per write;
- ``coalesced`` (variant ``delivery=coalesced``): the whole stream in one write, as a fast upstream or a
  slow proxy produces;
- ``split`` (variant ``delivery=split``): each event in two writes, cut in its middle (even inside a UTF-8
  sequence), as a congested network produces.

"Has read" is asked of the kernel on Linux (netlink socket diagnostics, what ``ss`` shows): the proxy's end
of the connection has nothing left in its receive queue; then the proxy gets :data:`SETTLE` more for its
event loop to hand the read to its code. Elsewhere the mock pauses a few milliseconds after each write,
which gives the same shapes on an idle machine but not a guarantee.
"""

from __future__ import annotations

import asyncio
import json
import socket
import struct
import time
from typing import Any

from ..corpus.variants import DELIVERIES
from ..streams.sse import sse_from_events

__all__ = [
    "DELIVERIES",
    "FRAMINGS",
    "delivery_writes",
    "reads_from_network",
    "wait_until_read",
]

#: how a stream's events are put on the wire: SSE, or (Gemini's ``streamGenerateContent`` asked without
#: ``?alt=sse``) the elements of one JSON array, written as they come
FRAMINGS = ("sse", "json-array")
#: how long the proxy has to read a write before the mock writes the next one anyway (a proxy that stops
#: reading is not waited for forever; its check then fails or times out on its own)
READ_WAIT = 2.0
#: after the proxy's kernel buffer is empty, the time its event loop gets to hand what it read to its code
#: before the next write (an asyncio proxy reads into a buffer its code drains on the next loop turn)
SETTLE = 0.002
_PAUSE = 0.005


def reads_from_network(adapter: Any) -> bool:
    """Whether ``adapter`` reads streams from a network connection whose delivery the harness shapes (it
    has ``translate_stream_delivered``, as the ``http:`` adapter): only then do the variants exist."""
    return callable(getattr(adapter, "translate_stream_delivered", None))


def _json_array_frames(events: list[dict[str, Any]]) -> list[bytes]:
    """Each event's part of Gemini's JSON-array stream: ``[`` and the first element, then ``\n,\r\n`` and
    each next one (pretty-printed, as Google's servers write them), ``\n]`` after the last. That is the
    shape proxies parse it in: Portkey's gateway splits it on ``\r\n`` and strips ``[``, ``,`` and
    ``\n]`` (src/utils.ts ``getStreamModeSplitPattern``, src/providers/google/chatComplete.ts
    ``GoogleChatCompleteStreamChunkTransform``). An event whose data is a string (a malformed chunk) is
    written as it is."""
    frames = []
    for i, event in enumerate(events):
        data = event.get("data")
        text = data if isinstance(data, str) else json.dumps(data, indent=2, ensure_ascii=False)
        frames.append((("[" if i == 0 else "\n,\r\n") + text).encode("utf-8"))
    if not frames:
        return [b"[]"]
    frames[-1] += b"\n]"
    return frames


def delivery_writes(events: list[dict[str, Any]], delivery: str, framing: str = "sse") -> list[bytes]:
    """The bytes of each write that delivers ``events`` in the shape ``delivery``, as SSE or (``framing``
    ``json-array``) as the elements of one JSON array."""
    if framing == "json-array":
        framed = _json_array_frames(events)
    elif framing == "sse":
        framed = [sse_from_events([event]).encode("utf-8") for event in events]
    else:
        raise ValueError(f"unknown framing {framing!r}: one of {', '.join(FRAMINGS)}")
    if delivery == "events":
        return framed
    if delivery == "coalesced":
        return [b"".join(framed)] if framed else []
    if delivery == "split":
        return [part for data in framed for part in (data[: len(data) // 2], data[len(data) // 2 :]) if part]
    raise ValueError(f"unknown delivery {delivery!r}: one of {', '.join(DELIVERIES)}")


_SOCK_DIAG_BY_FAMILY, _NLM_F_REQUEST, _NLMSG_ERROR, _NETLINK_SOCK_DIAG = 20, 1, 2, 4


def _queues(local: tuple[str, int], remote: tuple[str, int]) -> tuple[int, int] | None:
    """(unread, unsent) bytes of the TCP socket ``local`` → ``remote`` (IPv4), asked of the kernel through
    netlink's socket diagnostics (what ``ss`` shows as Recv-Q and Send-Q); None where it cannot be asked."""
    try:
        sockid = (
            struct.pack(">HH", local[1], remote[1])
            + socket.inet_aton(local[0]).ljust(16, b"\0")
            + socket.inet_aton(remote[0]).ljust(16, b"\0")
            + struct.pack("=III", 0, 0xFFFFFFFF, 0xFFFFFFFF)  # any interface, no cookie: look up by address
        )
        request = struct.pack("=BBBBI", socket.AF_INET, socket.IPPROTO_TCP, 0, 0, 0xFFFFFFFF) + sockid
        header = struct.pack("=LHHLL", 16 + len(request), _SOCK_DIAG_BY_FAMILY, _NLM_F_REQUEST, 1, 0)
        with socket.socket(socket.AF_NETLINK, socket.SOCK_DGRAM, _NETLINK_SOCK_DIAG) as nl:
            nl.settimeout(1)
            nl.send(header + request)
            reply = nl.recv(65536)
    except (OSError, AttributeError, ValueError):  # not Linux, no netlink, not an IPv4 address
        return None
    if len(reply) < 16 + 68 or struct.unpack_from("=H", reply, 4)[0] == _NLMSG_ERROR:
        return None
    # inet_diag_msg: family, state, timer, retrans (4 bytes), sockid (48), expires, rqueue, wqueue
    unread, unsent = struct.unpack_from("=II", reply, 16 + 4 + 48 + 4)
    return unread, unsent


async def wait_until_read(transport: Any) -> None:
    """Return once the peer of ``transport`` (the proxy) has read everything written to it so far: our
    send queue is empty and so is its receive queue. Without a socket table, pause briefly."""
    ours = transport.get_extra_info("sockname") if transport is not None else None
    theirs = transport.get_extra_info("peername") if transport is not None else None
    deadline = time.monotonic() + READ_WAIT
    delay = 0.0
    while ours and theirs and time.monotonic() < deadline:
        mine, peers = _queues(ours[:2], theirs[:2]), _queues(theirs[:2], ours[:2])
        if mine is None or peers is None:  # cannot be asked (not Linux), or the proxy closed its end
            break
        if mine[1] == 0 and peers[0] == 0:
            await asyncio.sleep(SETTLE)
            return
        await asyncio.sleep(delay)
        delay = min(0.002, delay + 0.0002)
    await asyncio.sleep(_PAUSE)
