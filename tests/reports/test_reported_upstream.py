"""A finding that is a bug users reported upstream names the report, and only that finding: a field
regression's case failing for another reason is not labelled with it (`toolwire.reports.upstream`)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from test_report_bugs import Results, check_with_diff
from toolwire.reports.markdown import render
from toolwire.reports.upstream import repositories

ISSUE = "https://github.com/acme/gateway/issues/7"


def corpus_with(tmp_path: Path, shows: list[str]) -> Path:
    root = tmp_path / "corpus"
    root.mkdir()
    entry = {"case": "responses/stop", "issue": ISSUE, "shows": shows}
    (root / "regressions.json").write_text(json.dumps([entry]), encoding="utf-8")
    return root


def results(root: Path, *checks: dict[str, Any]) -> Results:
    header = {
        "record": "header",
        "corpus": {"version": "0.0.0-test", "hash": "ab" * 32, "path": str(root)},
        "adapter": {"name": "gateway", "version": "1.0", "capabilities": {"upstream": ["acme/gateway"]}},
        "run": {"started": "2026-01-02T03:04:05Z", "selection": None},
    }
    return Results(list(checks), header)


def test_the_finding_that_is_the_reported_bug_names_the_report(tmp_path: Path) -> None:
    root = corpus_with(tmp_path, ["/choices/*/finish_reason"])
    stop = check_with_diff(
        "responses/stop", '/choices/0/finish_reason: expected "tool_calls", got "stop"', kind="response"
    )
    other = check_with_diff("responses/stop", "/usage/prompt_tokens: expected 3, got 0", kind="response")
    text = render(results(root, stop | {"id": "responses/stop[a]"}, other | {"id": "responses/stop[b]"}))
    blocks = text.split("\n### ")
    labelled = [b for b in blocks if f"Reported upstream: <{ISSUE}>" in b]
    assert len(labelled) == 1 and "finish_reason" in labelled[0].splitlines()[0]
    assert "## Bugs reported upstream" in text and f"- <{ISSUE}>: `responses/stop` fails" in text


def test_without_a_way_to_tell_no_finding_is_labelled(tmp_path: Path) -> None:
    root = corpus_with(tmp_path, [])
    stop = check_with_diff(
        "responses/stop", '/choices/0/finish_reason: expected "tool_calls", got "stop"', kind="response"
    )
    text = render(results(root, stop))
    assert "Reported upstream:" not in text and f"- <{ISSUE}>" in text


def test_the_known_implementations_have_their_repositories() -> None:
    assert repositories({"adapter": {"name": "litellm-proxy-chat-to-gemini"}}) == ("BerriAI/litellm",)
    assert repositories({"adapter": {"name": "portkey-gateway-chat-to-anthropic"}}) == ("Portkey-AI/gateway",)
    assert repositories({"adapter": {"name": "my-own"}}) == ()
