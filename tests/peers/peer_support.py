"""Shared checks for the peer adapters (suite/toolwire/peers/): loading, capabilities, a small real run."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from toolwire.adapters import load_adapter
from toolwire.judge.streams import ObservedEvents
from toolwire.peers import PEERS, missing_modules

REPO = Path(__file__).resolve().parents[2]
KINDS = {"tools", "tool_choice", "request", "response", "stream", "text"}
DIALECTS = {p.stem for p in (REPO / "corpus" / "dialects").glob("*.json")} | {"text"}
PROFILES = json.loads((REPO / "corpus" / "profiles.json").read_text(encoding="utf-8"))


def require(name: str) -> None:
    """Skip the calling test when the peer's library (its pip extra) is not installed."""
    missing = missing_modules(name)
    if missing:
        pytest.skip(
            f"peer {name}: {', '.join(missing)} not installed (pip install -e '.[{PEERS[name][1]}]'; "
            "the peers are not part of the dev extra)"
        )


def check_capabilities(name: str, library_dist: str) -> dict[str, Any]:
    """``peer:NAME`` loads; its capabilities name the library, its installed version and real pairs."""
    from importlib.metadata import version

    adapter = load_adapter(f"peer:{name}")
    caps = adapter.capabilities
    assert caps["name"] == name
    assert caps["language"] == "python"
    assert caps["version"] == version(library_dist)
    assert caps["kinds"], "a peer declares at least one kind"
    for kind, pairs in caps["kinds"].items():
        assert kind in KINDS, kind
        assert pairs, f"{kind}: no pairs"
        for source, target in pairs:
            assert source in DIALECTS and target in DIALECTS, (kind, source, target)
            assert "*" not in (source, target), "a peer names each pair it really translates"
            assert "canonical" not in (source, target), "canonical is toolwire's own model"
        assert len({tuple(p) for p in pairs}) == len(pairs), f"{kind}: duplicate pairs"
    for key, values in caps["profiles"].items():
        assert key in PROFILES, key
        assert set(values) <= set(PROFILES[key]["values"]), (key, values)
    adapter.close()
    return caps


#: a stream's input events that record how far they were read, as the harness's ``incremental`` check does
CountingEvents = ObservedEvents


def read_positions(name: str, case: str, target: str) -> tuple[list[int], int]:
    """Drive peer ``name``'s stream route on a corpus case's source stream, one output event at a time:
    for each output event, how many input events had been read when it was yielded (``n + 1``: the input
    was read to its end), and ``n``."""
    from toolwire.streams.payload import stream_events

    data = json.loads((REPO / "corpus" / "cases" / f"{case}.json").read_text(encoding="utf-8"))
    events = CountingEvents(stream_events(data["source"]["payload"]))
    adapter = load_adapter(f"peer:{name}")
    out = adapter.impl.translate_stream(data["source"]["dialect"], target, events, {})
    assert not isinstance(out, list), "a lazy stream route returns an iterator"
    positions = [len(events) + 1 if events.exhausted else events.read for _ in out]
    adapter.close()
    return positions, len(events)


def _innermost_file(message: str) -> str | None:
    files = re.findall(r'File "([^"]+)"', message or "")
    return files[-1] if files else None


def adapter_caused(record: dict[str, Any]) -> bool:
    """True when an ``errored`` check was caused by toolwire's adapter code rather than by the library."""
    message = record.get("message") or ""
    if "not JSON-serialisable" in message:
        return True
    innermost = _innermost_file(message)
    return innermost is not None and "/toolwire/" in innermost.replace("\\", "/")


def run_subset(tmp_path: Path, name: str, selection: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """``toolwire run --adapter peer:NAME -k SELECTION``; returns (footer, check records)."""
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "toolwire.cli",
            "run",
            "--adapter",
            f"peer:{name}",
            "-k",
            selection,
            "--report",
            str(tmp_path),
        ],
        capture_output=True,
        text=True,
        timeout=900,
        cwd=REPO,
    )
    results = tmp_path / f"{name}.results.jsonl"
    assert results.exists(), proc.stdout[-3000:] + proc.stderr[-3000:]
    lines = [json.loads(line) for line in results.read_text(encoding="utf-8").splitlines()]
    footer = lines[-1]
    # a -k run is never "complete" (that is for unfiltered runs); the footer says the run was not cut short
    assert footer.get("record") == "footer", proc.stdout[-3000:] + proc.stderr[-3000:]
    records = [r for r in lines if r.get("record") == "check"]
    ran = [r for r in records if r["outcome"] != "skipped"]
    assert ran, f"-k {selection!r} selected no check that applies to peer:{name}"
    ours = [
        (r["id"], r.get("message", "")[-1500:])
        for r in records
        if r["outcome"] == "errored" and adapter_caused(r)
    ]
    assert ours == [], "checks errored because of the adapter itself"
    return footer, records
