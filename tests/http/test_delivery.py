"""How the mock upstream delivers a stream: the writes of each shape, and whole runs through a proxy that
mishandles network reads (it drops the rest of a read after ``finish_reason``): identical results on every
run, the main check passes (one event per read) and the ``delivery=coalesced`` variant catches the bug."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

pytest.importorskip("aiohttp")

from test_http_proxy import records, toolwire_run  # noqa: E402
from toolwire.adapters.delivery import delivery_writes  # noqa: E402
from toolwire.streams.sse import events_from_sse  # noqa: E402

HERE = Path(__file__).resolve().parent
EVENTS = [{"data": {"t": "é" * 41}}, {"event": "b", "data": {"n": 2}}, {"data": "[DONE]"}]


def test_each_delivery_writes_the_same_bytes_in_its_own_shape() -> None:
    events_writes = delivery_writes(EVENTS, "events")
    assert len(events_writes) == 3
    whole = b"".join(events_writes)
    assert events_from_sse(whole.decode()) == EVENTS
    assert delivery_writes(EVENTS, "coalesced") == [whole]
    split = delivery_writes(EVENTS, "split")
    assert len(split) == 6 and b"".join(split) == whole
    with pytest.raises(UnicodeDecodeError):  # the first event is cut inside the two bytes of an "é"
        split[0].decode()
    with pytest.raises(ValueError, match="unknown delivery"):
        delivery_writes(EVENTS, "trickle")


def test_a_proxy_that_drops_the_rest_of_a_read_is_caught_the_same_way_every_run(tmp_path: Path) -> None:
    command = [sys.executable, str(HERE / "read_dropping_proxy.py"), "{port}", "{upstream_url}"]
    config = tmp_path / "dropping.toml"
    config.write_text(
        'client_dialect = "openai-chat"\nupstream_dialect = "openai-chat"\n'
        f"command = {json.dumps(command)}\nready_timeout = 30\n",
        encoding="utf-8",
    )
    selection = "openai-chat-usage-on-finish-chunk or openai-chat-text-then-tool-call"
    runs = []
    for n in (1, 2):
        out = tmp_path / f"run{n}"
        run = toolwire_run(out, "--adapter", f"http:{config}", "-k", selection, "--reproducible")
        assert run.returncode in (0, 1), run.stdout[-3000:] + run.stderr[-3000:]
        (results,) = (tmp_path / f"run{n}").glob("*.results.jsonl")
        runs.append(results.read_bytes())
    assert runs[0] == runs[1]
    outcomes = {i: r["outcome"] for i, r in records(tmp_path / "run1").items() if r["outcome"] != "skipped"}
    for case in ("openai-chat-usage-on-finish-chunk", "openai-chat-text-then-tool-call"):
        check = f"streams/{case}[openai-chat>openai-chat"
        assert outcomes[check + "]"] == "passed"
        assert outcomes[check + ",delivery=split]"] == "passed"
        assert outcomes[check + ",delivery=coalesced]"] == "failed"
