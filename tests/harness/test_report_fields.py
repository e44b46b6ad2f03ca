"""The report's "Field coverage by dialect pair" section: request/response checks over several pairs."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from test_report_md import _check, _footer, _header, write_results
from toolwire.reports.markdown import render
from toolwire.results import read_results

FEATURES = [
    {"key": "tools.wrapper", "title": "Tool definition wrapper", "area": "tools", "description": "d"},
    {"key": "messages.system", "title": "System prompt", "area": "messages", "description": "d"},
    {"key": "messages.images", "title": "Images", "area": "messages", "description": "d"},
    {"key": "request.stop", "title": "Stop sequences", "area": "messages", "description": "d"},
    {"key": "calls.parallel", "title": "Parallel tool calls", "area": "calls", "description": "d"},
    {"key": "results.error-flag", "title": "The error flag", "area": "results", "description": "d"},
    {
        "key": "response.stop-reason",
        "title": "Finish and stop reasons",
        "area": "responses",
        "description": "d",
    },
    {"key": "response.usage", "title": "Usage", "area": "responses", "description": "d"},
]


def req(
    case: str, source: str, target: str, outcome: str, features: list[str], **extra: Any
) -> dict[str, Any]:
    return _check(case, source, target, outcome, kind="request", features=features, **extra)


def resp(
    case: str, source: str, target: str, outcome: str, features: list[str], **extra: Any
) -> dict[str, Any]:
    return _check(case, source, target, outcome, kind="response", features=features, **extra)


CHECKS: list[dict[str, Any]] = [
    _check("tools/basic", "canonical", "openai-chat", "passed", features=["tools.wrapper"]),
    # requests from anthropic to two targets
    req("messages/system-blocks", "anthropic", "openai-chat", "passed", ["messages.system"]),
    req("messages/system-blocks", "anthropic", "gemini", "passed", ["messages.system"]),
    req("messages/system-string", "anthropic", "openai-chat", "passed", ["messages.system"]),
    req(
        "messages/system-string",
        "anthropic",
        "gemini",
        "failed",
        ["messages.system"],
        message="output differs from the expectation in 1 place",
        diff="/systemInstruction: missing key",
    ),
    req("messages/stop-sequences", "anthropic", "openai-chat", "failed", ["request.stop"], message="differs"),
    req("messages/image-base64", "anthropic", "gemini", "passed", ["messages.images"]),
    req(
        "messages/image-url",
        "anthropic",
        "openai-chat",
        "skipped",
        ["messages.images"],
        profile={"unsupported": "degrade"},
        message="profile unsupported=degrade not supported",
    ),
    req("calls/parallel", "anthropic", "openai-chat", "passed", ["calls.parallel", "tools.wrapper"]),
    {
        **req(
            "calls/parallel",
            "anthropic",
            "openai-chat",
            "failed",
            ["calls.parallel", "tools.wrapper"],
            round_trip=True,
            message="round trip anthropic>openai-chat>anthropic does not give the source payload back",
            diff="/messages/1/content/1/id: expected 'toolu_2', got 'call_2'",
            wire_valid=True,
        ),
        "id": "calls/parallel[anthropic>openai-chat>anthropic]",
    },
    req("results/error-flag", "anthropic", "gemini", "errored", ["results.error-flag"], message="boom"),
    # requests from openai-chat: the pair is not declared
    req("messages/system-string", "openai-chat", "anthropic", "skipped", ["messages.system"], message="pair"),
    # responses from two sources to anthropic
    resp("responses/stop-reasons", "openai-chat", "anthropic", "passed", ["response.stop-reason"]),
    resp(
        "responses/usage-cached", "openai-chat", "anthropic", "xfailed", ["response.usage"], message="known"
    ),
    resp("responses/stop-reasons", "gemini", "anthropic", "passed", ["response.stop-reason"]),
    resp("responses/usage-cached", "gemini", "anthropic", "passed", ["response.usage"]),
    resp("calls/gemini-parallel", "gemini", "anthropic", "passed", ["calls.parallel"]),
    resp("responses/stop-reasons", "openai-responses", "anthropic", "skipped", ["response.stop-reason"]),
]


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    root = tmp_path / "corpus"
    root.mkdir()
    (root / "features.json").write_text(json.dumps(FEATURES), encoding="utf-8")
    return root


def report(tmp_path: Path, corpus: Path, checks: list[dict[str, Any]]) -> str:
    path = write_results(tmp_path / "r.jsonl", _header(corpus), checks, _footer(checks))
    return render(read_results(path))


def section(text: str) -> str:
    start = text.index("## Field coverage by dialect pair")
    return text[start : text.index("\n## ", start + 1)]


def test_field_coverage_snapshot(tmp_path: Path, corpus: Path, snapshot: Any) -> None:
    assert report(tmp_path, corpus, CHECKS) == snapshot


def test_field_coverage_cells(tmp_path: Path, corpus: Path) -> None:
    text = report(tmp_path, corpus, CHECKS)
    headings = ["## Area: tools", "## Field coverage by dialect pair", "## Failing checks", "## Fix first"]
    assert [text.index(h) for h in headings] == sorted(text.index(h) for h in headings)
    fields = section(text)
    assert "### Requests" in fields and "### Responses" in fields
    assert "From **anthropic**:" in fields and "From **openai-chat**:" not in fields.split("### Responses")[0]
    assert "| Field | → openai-chat | → gemini |" in fields
    # passed/applicable per cell; ➖ only skipped checks; — no check for the pair
    assert "| System prompt (`messages.system`) | ✅ 2/2 | ⚠️ 1/2 |" in fields
    assert "| Images (`messages.images`) | ➖ | ✅ 1/1 |" in fields
    assert "| Stop sequences (`request.stop`) | ❌ 0/1 | — |" in fields
    # the round trip counts for its first leg's pair
    assert "| Parallel tool calls (`calls.parallel`) | ⚠️ 1/2 | — |" in fields
    assert "| The error flag (`results.error-flag`) | — | ❌ 0/1 |" in fields
    assert "| **Fields fully supported** | **1/3 (33.3%)** | **1/3 (33.3%)** |" in fields
    # only the features of the areas messages, calls, results and responses are rows
    assert "tools.wrapper" not in fields
    assert "Not applicable (every check skipped): `openai-chat → anthropic`." in fields
    responses = fields.split("### Responses")[1]
    assert responses.index("From **openai-chat**:") < responses.index("From **gemini**:")
    assert "| Usage (`response.usage`) | ❌ 0/1 |" in responses  # an xfail is applicable and not passing
    assert "`openai-responses → anthropic`" in responses
    # the round trip's failure names all three legs
    assert "- `anthropic → openai-chat → anthropic`, kind `request`" in text
    assert "the output is valid for the anthropic wire schema" in text


def test_no_section_without_request_or_response_checks(tmp_path: Path, corpus: Path) -> None:
    text = report(tmp_path, corpus, CHECKS[:1])
    assert "Field coverage" not in text


def test_kind_with_only_skipped_checks(tmp_path: Path, corpus: Path) -> None:
    checks = [CHECKS[0], *(c for c in CHECKS if c["kind"] == "request" and c["outcome"] == "skipped")]
    fields = section(report(tmp_path, corpus, checks))
    assert "### Responses" not in fields
    assert "➖ Not applicable: every one of the 2 `request` checks was skipped" in fields


def test_without_feature_vocabulary_uses_key_prefixes(tmp_path: Path) -> None:
    header = _header(tmp_path / "gone")
    header["corpus"]["version"] = "99.0.0"
    path = write_results(tmp_path / "r.jsonl", header, CHECKS, _footer(CHECKS))
    fields = section(render(read_results(path)))
    assert "| `messages.system` | ✅ 2/2 | ⚠️ 1/2 |" in fields
    assert "tools.wrapper" not in fields
