"""`toolwire run --reproducible`: what varies between runs is pinned, the rest kept."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from reports_support import check, header, write
from toolwire.corpus.wire import validate_file
from toolwire.reproducible import canonical_argv, pin, scrub, timestamp
from toolwire.results import read_results


@pytest.fixture
def results(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("SOURCE_DATE_EPOCH", raising=False)
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (tmp_path / "out").mkdir()
    checks = [
        check("tools/a", "gemini", "passed", features=["tools.wrapper"]),
        check(
            "tools/b",
            "gemini",
            "errored",
            features=["tools.wrapper"],
            message=f'Traceback:\n  File "{tmp_path}/adapter.py", line 3\n<Foo object at 0x7f12ab34cd56>',
        ),
    ]
    return write(tmp_path / "out" / "x.results.jsonl", header("lib", corpus), checks)


def test_pin_replaces_what_varies(results: Path, tmp_path: Path):
    argv = canonical_argv("peer:lib", keyword="tools/")
    pin(results, argv)
    pinned = read_results(results)
    run = pinned.header["run"]
    assert run == {
        "started": "1970-01-01T00:00:00Z",
        "python": "unrecorded",
        "platform": "unrecorded",
        "argv": ["toolwire", "run", "--adapter", "peer:lib", "-k", "tools/", "--reproducible"],
        "selection": None,
        "reproducible": True,
    }
    assert pinned.header["corpus"]["path"] == "corpus"  # relative to the current directory
    assert pinned.footer["finished"] == "1970-01-01T00:00:00Z"
    assert [c["duration_ms"] for c in pinned.checks] == [0, 0]
    message = pinned.checks[1]["message"]
    assert str(tmp_path) not in message and 'File "./adapter.py"' in message and "0x<addr>" in message
    # still a valid results file
    for line in results.read_text(encoding="utf-8").splitlines():
        assert validate_file("results.schema.json", json.loads(line)) == [], line


def test_pin_is_idempotent_and_stable(results: Path):
    pin(results, ["toolwire", "run"])
    once = results.read_bytes()
    pin(results, ["toolwire", "run"])
    assert results.read_bytes() == once


def test_source_date_epoch(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1767322800")
    assert timestamp() == "2026-01-02T03:00:00Z"
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "garbage")
    assert timestamp() == "1970-01-01T00:00:00Z"


def test_scrub_leaves_plain_text_alone():
    assert scrub("expected 'a', got 'b' at /0/name") == "expected 'a', got 'b' at /0/name"


def test_markdown_report_of_a_reproducible_run(results: Path):
    from toolwire.reports.markdown import render

    pin(results, ["toolwire", "run"])
    text = render(read_results(results))
    assert "| Date | not recorded (reproducible run) |" in text


def test_scrub_random_identifiers_and_the_clock():
    text = (
        'got "chatcmpl-0ccbd96b-a8ed-4dcf-9705-9839680aa9d3", id "call_7bd997d51a6044d296788c05b8a1", '
        '"created": 1795323876, "at": 1795323876123, kept "toolu_01A09q90qw", "call_1", 1700000000'
    )
    out = scrub(text, (1795323800, 1795323900))
    assert out == (
        'got "chatcmpl-<uuid>", id "call_<hex>", "created": <time>, "at": <time#2>, '
        'kept "toolu_01A09q90qw", "call_1", 1700000000'
    )
    # readings of the clock written differently stay told apart; the same one is the same placeholder
    assert scrub("a 1795323876, b 1795323876", (1795323800, 1795323900)) == "a <time>, b <time>"
    chunks = "chunk id 'chatcmpl-1795323876.25' differs from the first chunk's 'chatcmpl-1795323876.125'"
    assert scrub(chunks, (1795323800, 1795323900)) == (
        "chunk id 'chatcmpl-<time>' differs from the first chunk's 'chatcmpl-<time#2>'"
    )


def test_scrub_settles_text_cut_after_a_placeholder():
    # the same value cut at a fixed length: the cut moves with the length of the timestamp before it
    clock = (1795323800, 1795323900)
    a = scrub("{'created': 1795323876.5, 'model': 'gemini-2.5-flash', 'obj…\nnext line", clock)
    b = scrub("{'created': 1795323876.12345, 'model': 'gemini-2.5-fl…\nnext line", clock)
    assert a == b == "{'created': <time>…\nnext line"
    assert scrub("plain text cut at a fixed length…") == "plain text cut at a fixed length…"


def test_a_clipped_text_never_keeps_half_a_random_id() -> None:
    # a diff cut at a fixed length inside a UUID (LiteLLM's msg_<uuid> item ids): the half left differed
    # from run to run; clip marks the cut, and scrub cuts after the last whole placeholder
    from toolwire.jsonvalue import clip

    texts = [
        f'{{"id": "msg_{u}", "next": "msg_{v}"}}'
        for u, v in (
            ("9839a926-8513-437f-9b1a-2b8f0c3d4e5f", "ebc6d03d-e9b3-43c7-b6f2-0a1b2c3d4e5f"),
            ("11111111-2222-4333-8444-555555555555", "66666666-7777-4888-9999-aaaaaaaaaaaa"),
        )
    ]
    cut = [scrub(clip(text, 80)) for text in texts]
    assert cut[0] == cut[1] == '{"id": "msg_<uuid>…'
    assert clip("short", 80) == "short"


def test_a_clip_falls_at_the_same_place_wherever_the_checkout_is(tmp_path: Path, monkeypatch) -> None:
    # a stack trace naming the checkout: cut after its paths are written relative, never before
    from toolwire.jsonvalue import clip

    texts = []
    for name in ("a", "a-much-longer-checkout-directory-name"):
        checkout = tmp_path / name
        checkout.mkdir()
        monkeypatch.chdir(checkout)
        texts.append(clip(f"Error: boom\n    at run ({checkout}/node_modules/x/dist/cli.js:786:2006)", 40))
    assert texts[0] == texts[1] == "Error: boom\n    at run (./node_modules/x…"


def test_scrub_replaces_a_long_random_token_after_an_id_prefix() -> None:
    from toolwire.reproducible import scrub

    # LiteLLM's proxy encrypts its Responses ids with a random nonce: two runs give two ids
    got = 'got "resp_vg00m4g81uj5A4xEKP2qXxbu4ZTmXoUhdexw8Sy3dhwUGVJ6CDy5nFHsvis-913JNElDeeii3Ew"'
    assert scrub(got) == 'got "resp_<token>"'
    # a provider's ordinary id (shorter) and text without an id prefix are kept
    assert scrub('"msg_016ZQ7FNypND5WzmJJ8stJRh"') == '"msg_016ZQ7FNypND5WzmJJ8stJRh"'
    long_word = "Ab1" * 20
    assert scrub(long_word) == long_word


def test_scrub_replaces_a_base36_call_id_a_proxy_draws() -> None:
    from toolwire.reproducible import scrub

    # claude-code-router names a Gemini call without an id `tool_` + Math.random().toString(36)
    out = '[{"id": "tool_yd2hfzbnrlm"}, {"id": "ccr_tool_znvtkj7b2i"}, {"id": "tool_n0pzup…'
    want = '[{"id": "tool_<token>"}, {"id": "ccr_tool_<token>"}, {"id": "tool_<token>…'
    assert scrub(out) == want
    # the corpus's own ids, member names and words elsewhere stay
    kept_as_is = ('"id": "tool_1"', '"tool_definitions": 1', '"id": "toolu_01WN4AuToBnJ"', "tool_abcdefghij")
    for kept in kept_as_is:
        assert scrub(kept) == kept


def test_a_path_placeholder_never_cuts_what_follows_it() -> None:
    """Paths are written relative before a text is cut (``clip``, a shown line), so a cut after one does not
    move from machine to machine: the reason after it stays (``--reproducible`` cut "nested too deeply" out
    of a ``cmd:`` crash message, leaving "the implementation '<prefix>…'")."""
    from toolwire.paths import unlocalize

    python = unlocalize(sys.executable)
    assert python.startswith(("<prefix>", "<python>")), python
    message = f"the implementation '{python} h.py' died: its answer is nested too deeply: '[[…'; killed…"
    assert scrub(message) == message


def test_scrub_settles_the_dates_and_times_of_a_proxys_log_lines() -> None:
    """An errored check shows the proxy's log lines, each stamped with the time it was written: the same
    run twice gave two results files (issue 32). Dates far from the run are data, and stay."""
    clock = (1795323800, 1795323900)  # 2026-11-22 01:43:20 to 01:45:00 UTC
    a = scrub("2026-11-22 01:44:10,155 ERROR x\n2026-11-22T01:44:11.5Z y; born 1970-01-02 00:00:00", clock)
    b = scrub("2026-11-22 01:43:59,001 ERROR x\n2026-11-22T01:44:30Z y; born 1970-01-02 00:00:00", clock)
    assert a == b == "<time> ERROR x\n<time#2> y; born 1970-01-02 00:00:00"
