"""Stream checks end to end: main check, re-chunked replays, incrementality, refusals, SSE payloads."""

from __future__ import annotations

import json
import shutil
import sys
import textwrap
from pathlib import Path

import pytest
import stream_captures
from toolwire import paths
from toolwire.adapters import load_adapter
from toolwire.corpus import load_corpus
from toolwire.judge import run_check
from toolwire.streams.dialects import accumulate

TRANSLATORS = '''
from toolwire.protocol import TranslationRefusal


class Echo:
    """Same-dialect pass-through, lazy: emits each event as soon as it is read."""

    def capabilities(self):
        return {"name": "echo", "version": "1", "kinds": {"stream": [["*", "*"]]}}

    def translate(self, kind, source, target, payload, profile):
        raise NotImplementedError

    def translate_stream(self, source, target, events, profile):
        for event in events:
            yield event


class Buffer(Echo):
    def translate_stream(self, source, target, events, profile):
        return list(events)


class NoDone(Echo):
    def translate_stream(self, source, target, events, profile):
        return [e for e in events if e["data"] != "[DONE]"]


class Truncates(Echo):
    """Reports every finish_reason as `length`: a changed value."""

    def translate_stream(self, source, target, events, profile):
        for event in events:
            data = event["data"]
            if isinstance(data, dict) and any(c.get("finish_reason") for c in data.get("choices", [])):
                data = {**data, "choices": [{**c, "finish_reason": "length"} for c in data["choices"]]}
            yield {**event, "data": data}


class Bytes(Echo):
    def translate_stream(self, source, target, events, profile):
        return b"data: [DONE]"


class Number(Echo):
    def translate_stream(self, source, target, events, profile):
        return 10**100


class Frozen(Echo):
    def translate_stream(self, source, target, events, profile):
        return frozenset({"data"})


class Ints(Echo):
    def translate_stream(self, source, target, events, profile):
        return [1, 2, 3]


class Refuse(Echo):
    def translate_stream(self, source, target, events, profile):
        if not events or events[-1]["data"] != "[DONE]":
            raise TranslationRefusal("stream.truncated", "no terminal event")
        return list(events)
'''


@pytest.fixture()
def setup(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, list]:
    (tmp_path / "tw_stream_toys.py").write_text(textwrap.dedent(TRANSLATORS))
    monkeypatch.syspath_prepend(str(tmp_path))
    sys.modules.pop("tw_stream_toys", None)
    bundled = paths.corpus_dir()
    root = tmp_path / "corpus"
    (root / "cases" / "streams").mkdir(parents=True)
    for name in ("VERSION", "errors.json", "profiles.json", "features.json", "INTERPRETING.md"):
        shutil.copy(bundled / name, root / name)
    raw = (stream_captures.CAPTURES / "openai-chat" / "09_stream_parallel_tool_calls.sse").read_text()
    events = next(e for label, _, e in stream_captures.streams() if label.startswith("openai-chat/09"))
    expected = accumulate(events, "openai-chat")
    expected["id"] = {"$regex": "^chatcmpl-"}
    cases = {
        "streams/parallel": {
            "source": {"dialect": "openai-chat", "payload": events},
            "expect": [{"dialect": "openai-chat", "accumulated": expected}],
        },
        "streams/framing": {
            "source": {"dialect": "openai-chat", "payload": {"sse": raw}},
            "expect": [{"dialect": "openai-chat", "accumulated": expected, "events": events}],
        },
        "streams/truncated": {
            "source": {"dialect": "openai-chat", "payload": events[:10]},
            "expect": [{"dialect": "openai-chat", "error": {"code": "stream.truncated"}}],
        },
    }
    for case_id, body in cases.items():
        doc = {
            "id": case_id,
            "title": case_id,
            "features": ["tools.wrapper"],
            "level": "must",
            "kind": "stream",
            "refs": ["test"],
            **body,
        }
        (root / "cases" / f"{case_id}.json").write_text(json.dumps(doc))
    return root, events


def results(root: Path, translator: str) -> dict[str, object]:
    corpus = load_corpus(root)
    adapter = load_adapter(f"python:tw_stream_toys:{translator}")
    return {c.id: run_check(adapter, c, corpus.profiles) for c in corpus.checks()}


def test_check_ids_and_levels(setup) -> None:
    root, _ = setup
    checks = {c.id: c for c in load_corpus(root).checks()}
    base = "streams/parallel[openai-chat>openai-chat"
    assert {
        f"{base}]",
        f"{base},rechunk=chars]",
        f"{base},rechunk=escape]",
        f"{base},rechunk=utf8]",
        f"{base},rechunk=whole]",
        f"{base},incremental]",
    } <= set(checks)
    assert checks[f"{base}]"].level == "must" and checks[f"{base},rechunk=chars]"].level == "should"
    assert "streams/truncated[openai-chat>openai-chat]" in checks
    assert not [c for c in checks if c.startswith("streams/truncated") and "rechunk" in c]


def test_a_good_incremental_translator_passes_everything(setup) -> None:
    root, _ = setup
    found = results(root, "Echo")
    assert not {k: (r.outcome, r.message) for k, r in found.items() if r.outcome != "passed"}
    # the truncated stream echoed is truncated too: the client sees the stream break, as a refusal would say
    assert found["streams/truncated[openai-chat>openai-chat]"].handled == "forwarded"


def test_buffering_is_reported_by_the_incremental_check(setup) -> None:
    root, _ = setup
    res = results(root, "Buffer")
    inc = res["streams/parallel[openai-chat>openai-chat,incremental]"]
    assert inc.outcome == "failed" and "held until the end" in inc.message
    assert res["streams/parallel[openai-chat>openai-chat]"].outcome == "passed"


@pytest.mark.parametrize("translator", ["Bytes", "Number", "Frozen", "Ints"])
def test_a_stream_output_that_is_no_list_of_events_errs_the_incremental_check(setup, translator: str) -> None:
    """Bytes, a number, a set or a list of non-events is no stream: the incremental check errs naming what
    came back (it used to pass, "nothing to measure", on all but the number)."""
    root, _ = setup
    res = results(root, translator)["streams/parallel[openai-chat>openai-chat,incremental]"]
    assert res.outcome == "errored", (res.outcome, res.message)
    assert "not a list of stream events" in (res.message or "")


def test_grammar_violation_fails_the_check(setup) -> None:
    root, _ = setup
    res = results(root, "NoDone")["streams/parallel[openai-chat>openai-chat]"]
    assert res.outcome == "failed" and "openai-chat.done-last" in res.message and res.wire_valid is False


def test_refusal_of_a_truncated_stream(setup) -> None:
    root, _ = setup
    res = results(root, "Refuse")
    assert res["streams/truncated[openai-chat>openai-chat]"].outcome == "passed"
    assert res["streams/framing[openai-chat>openai-chat]"].outcome == "passed"


def test_accumulated_difference_is_diffed(setup) -> None:
    root, events = setup
    res = results(root, "Truncates")["streams/parallel[openai-chat>openai-chat]"]
    assert res.outcome == "failed" and "accumulated" in res.message and "/choices/0/finish_reason" in res.diff


def test_a_stream_passed_on_unchanged_to_its_own_dialect_passes(setup) -> None:
    """The client reads exactly what the upstream sent, whatever spelling the case expects."""
    root, events = setup
    path = root / "cases" / "streams" / "parallel.json"
    doc = json.loads(path.read_text())
    doc["expect"][0]["accumulated"]["choices"][0]["finish_reason"] = "stop"
    path.write_text(json.dumps(doc))
    res = results(root, "Echo")["streams/parallel[openai-chat>openai-chat]"]
    assert res.outcome == "passed" and res.handled == "unchanged"


def test_known_failures_written_by_update_leave_no_unexpected_pass(setup, tmp_path: Path) -> None:
    """A stream check that fails while its incremental variant passes: ``expectations update`` lists the
    main check and its failing variants by name (``variant = "main"``…), so the next strict run has no
    unexpected pass, and updating again changes nothing (an entry for the whole case matched the passing
    incremental variant too, and pinning every profile key could not tell it apart)."""
    import subprocess

    root, _ = setup

    def toolwire(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "toolwire.cli", *args],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=300,
        )

    run = ["run", "--adapter", "python:tw_stream_toys:Truncates", "--corpus", str(root), "--report", "out"]
    first = toolwire(*run)
    assert first.returncode == 1, first.stdout[-2000:] + first.stderr
    results = tmp_path / "out" / "echo.results.jsonl"  # the name Truncates declares
    records = [json.loads(x) for x in results.read_text().splitlines()[1:-1]]
    outcomes = {r["id"]: r["outcome"] for r in records if r["outcome"] != "skipped"}
    assert "passed" in outcomes.values() and "failed" in outcomes.values(), outcomes

    made = toolwire("expectations", "update", "--from", str(results), "-o", "exp.toml", "--corpus", str(root))
    assert made.returncode == 0, made.stdout + made.stderr
    text = (tmp_path / "exp.toml").read_text()
    assert 'variant = "main"' in text and "incremental" not in text

    again = toolwire(*run, "--expectations", "exp.toml", "--strict")
    assert again.returncode == 0, again.stdout[-3000:] + again.stderr
    assert "unexpected pass" not in again.stdout
    counts = json.loads(results.read_text().splitlines()[-1])["counts"]
    assert counts.get("xpassed", 0) == 0 and counts.get("failed", 0) == 0 and counts["xfailed"] >= 1

    same = toolwire("expectations", "update", "--from", str(results), "--corpus", str(root))
    assert same.returncode == 0 and "0 added, 0 removed, 0 narrowed" in same.stdout, same.stdout
    assert (tmp_path / "exp.toml").read_text() == text
