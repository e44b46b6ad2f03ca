"""The Vercel AI SDK harness (integrations/vercel-ai-sdk/): its own `node --test` tests of the canonical <->
AI SDK mapping, and a short run through `cmd:` that is reproducible and errs on nothing. Offline: the pinned
packages come from the folder's node_modules (`make aisdk-install`), which these tests never install."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from protocol_support import REPO, read_records, toolwire_run

FOLDER = REPO / "integrations" / "vercel-ai-sdk"
NODE = shutil.which("node")

pytestmark = [
    pytest.mark.skipif(NODE is None, reason="Node.js is not installed"),
    pytest.mark.skipif(
        not (FOLDER / "node_modules" / "ai").is_dir(),
        reason="the AI SDK is not installed (make aisdk-install: npm ci in integrations/vercel-ai-sdk)",
    ),
]

ADAPTER = "cmd:node integrations/vercel-ai-sdk/harness.mjs"
#: a few checks of every declared kind
SELECTION = (
    "tools/no-description or choice/canonical-none or messages/canonical-conversation-to-every-dialect"
    " or responses/anthropic-max-tokens or streams/openai-chat-parallel-calls-interleaved"
    " or streams/gemini-text-chunks-then-call"
)


def test_the_mapping_tests_pass() -> None:
    done = subprocess.run(
        [str(NODE), "--test", "test/"], cwd=FOLDER, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]


def test_a_run_is_reproducible_and_errs_on_nothing(tmp_path: Path) -> None:
    results = []
    for name in ("first", "second"):
        out = tmp_path / name
        done = toolwire_run(
            out,
            "--adapter",
            ADAPTER,
            "--name",
            "vercel-ai-sdk",
            "-k",
            SELECTION,
            "--reproducible",
            "--validate-protocol",
        )
        assert done.returncode in (0, 1), done.stdout[-3000:] + done.stderr[-3000:]
        results.append((out / "vercel-ai-sdk.results.jsonl").read_bytes())
    assert results[0] == results[1]
    header, records, footer = read_records(tmp_path / "first" / "vercel-ai-sdk.results.jsonl")
    assert header["adapter"]["name"] == "vercel-ai-sdk"
    assert footer is not None
    ran = {k: r for k, r in records.items() if r["outcome"] != "skipped"}
    assert {r["kind"] for r in ran.values()} == {"tools", "tool_choice", "request", "response", "stream"}
    assert [k for k, r in ran.items() if r["outcome"] == "errored"] == []
    assert "toolwire-offline" not in results[0].decode("utf-8")  # the fake API key is stored nowhere


def test_what_has_no_counterpart_is_skipped_with_the_harness_reason(tmp_path: Path) -> None:
    done = toolwire_run(
        tmp_path, "--adapter", ADAPTER, "--name", "vercel-ai-sdk", "-k", "validation/duplicate-name"
    )
    assert done.returncode in (0, 1), done.stdout[-3000:] + done.stderr[-3000:]
    _, records, _ = read_records(tmp_path / "vercel-ai-sdk.results.jsonl")
    targets = {"anthropic", "gemini", "openai-chat", "openai-responses"}  # the harness's tools pairs
    ran = {k: r for k, r in records.items() if r["source"] == "canonical" and r["target"] in targets}
    assert len(ran) == 4, sorted(records)
    # not errored: the SDK was never called; the reason is the harness's
    assert ran and {r["outcome"] for r in ran.values()} == {"skipped"}
    why = "protocol.unsupported: no AI SDK counterpart: a ToolSet is keyed by name"
    assert all(r["message"].startswith(why) for r in ran.values())
