"""Every real stream, translated to every dialect: the output obeys the target's grammar and
accumulates to what the `response` kind gives for the accumulated input."""

from __future__ import annotations

import pytest
from stream_helpers import DIALECTS, accumulated, capture_streams, expected
from toolwire.streams.dialects import check_stream
from toolwire_reference import translate, translate_stream

STREAMS = capture_streams()
CASES = [(label, source, events, target) for label, source, events in STREAMS for target in DIALECTS]


def test_every_capture_is_there():
    assert len(STREAMS) >= 19 or not STREAMS  # 19 files, openai-responses/11 holds several streams


@pytest.mark.parametrize("thinking", ["drop", "keep"])
@pytest.mark.parametrize(
    ("label", "source", "events", "target"), CASES, ids=[f"{c[0]}->{c[3]}" for c in CASES]
)
def test_capture_translates(label, source, events, target, thinking):
    profile = {"stream.thinking": thinking}
    out = list(translate_stream(events, source=source, target=target, profile=profile))
    assert check_stream(out, target) == []
    got, want = accumulated(out, target), expected(events, source, target, profile)
    if source == "bedrock-converse":  # no response id: a stream derives one from the model, a response
        got.pop("id", None)  # from the content (RULES.md, "Ids, model and the generated envelope")
        want.pop("id", None)
    assert got == want


@pytest.mark.parametrize(("label", "source", "events"), STREAMS, ids=[s[0] for s in STREAMS])
def test_same_dialect_keeps_every_call(label, source, events):
    """source -> canonical -> source: the call ids, names and arguments survive (Gemini's generated
    ids are real ids once written as canonical JSON, and the canonical stream has no place for a
    Responses item id: both left out of the comparison)."""
    canonical = list(translate_stream(events, source=source, target="canonical"))
    back = translate("stream", canonical, source="canonical", target=source)
    got, want = accumulated(back, source), expected(events, source, source)
    for body in (got, want):
        for candidate in body.get("candidates") or []:
            for part in candidate["content"]["parts"]:
                (part.get("functionCall") or {}).pop("id", None)
        for item in body.get("output") if isinstance(body.get("output"), list) else []:
            item.pop("id", None)
    assert got == want


def test_thinking_is_dropped_by_default_and_kept_on_request():
    label, source, events = next(s for s in STREAMS if s[0].endswith("2025-12.chunks.jsonl#0"))
    dropped = [e["data"]["type"] for e in translate_stream(events, source=source, target="canonical")]
    kept = [
        e["data"]
        for e in translate_stream(
            events, source=source, target="canonical", profile={"stream.thinking": "keep"}
        )
    ]
    assert "thinking_delta" not in dropped
    assert kept[1]["type"] == "thinking_delta" and kept[1]["index"] == 0
    assert any(e.get("signature") for e in kept if e["type"] == "thinking_delta")
    assert next(e for e in kept if e["type"] == "tool_call_start")["index"] == 1
    starts = [e for e in translate_stream(events, source=source, target="canonical") if "index" in e["data"]]
    assert starts[0]["data"]["index"] == 0  # renumbered after the dropped block
