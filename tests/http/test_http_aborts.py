"""A proxy that aborts answers and hangs up keep-alive connections (``aborting_proxy.py``): each check is
judged on its own exchange (a fresh connection each: never a reset inherited from the check before), its
log excerpt is what the proxy logged about that exchange, and two runs give the same results, byte for
byte. Offline: the proxy and the mock upstream listen on 127.0.0.1 and are stopped by the test."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

pytest.importorskip("aiohttp")

from test_http_proxy import MINIMAL_REQUESTS, records, toolwire_run  # noqa: E402
from toolwire.adapters import load_adapter  # noqa: E402

HERE = Path(__file__).resolve().parent


def write_recipe(tmp_path: Path, every: int) -> Path:
    command = [sys.executable, str(HERE / "aborting_proxy.py"), "{port}", "{upstream_url}", str(every)]
    config = tmp_path / "aborting.toml"
    config.write_text(
        'client_dialect = "openai-chat"\nupstream_dialect = "openai-chat"\n'
        f'command = {json.dumps(command)}\nready_timeout = 30\nready_log = "proxy listening"\n'
        'secrets = ["sk-upstream-key"]\n',
        encoding="utf-8",
    )
    return config


def test_each_check_is_judged_on_its_own_exchange_and_log(tmp_path: Path) -> None:
    adapter = load_adapter(f"http:{write_recipe(tmp_path, 3)}")
    try:
        answers = [
            adapter.translate("request", "openai-chat", "openai-chat", MINIMAL_REQUESTS["openai-chat"], {})
            for _ in range(7)
        ]
    finally:
        adapter.close()
    for n, answer in enumerate(answers, 1):
        if n % 3:
            # the check after a cut answer (and after a hang-up) has its own answer: no inherited reset
            assert answer.status == "payload", (n, answer.crash)
            continue
        assert answer.status == "crash"
        assert "Connection reset" not in answer.crash
        log = answer.crash.split("the proxy's log during this check:\n", 1)[1]
        # this exchange's lines, the one logged after the abort included, and no other check's
        assert log.splitlines() == [f"request #{n}", f"aborted the answer to request #{n}"]


def test_two_runs_of_an_aborting_proxy_give_the_same_results(tmp_path: Path) -> None:
    config = write_recipe(tmp_path, 2)
    selection = "choice/ and openai-chat and not delivery"
    runs = []
    for n in (1, 2):
        out = tmp_path / f"run{n}"
        run = toolwire_run(out, "--adapter", f"http:{config}", "-k", selection, "--reproducible")
        assert run.returncode in (0, 1), run.stdout[-3000:] + run.stderr[-3000:]
        (results,) = out.glob("*.results.jsonl")
        runs.append(results.read_bytes())
    assert runs[0] == runs[1]
    ran = [r for r in records(tmp_path / "run1").values() if r["outcome"] != "skipped"]
    errored = [r for r in ran if r["outcome"] == "errored"]
    assert len(ran) >= 4 and errored and len(errored) < len(ran)
    assert not any("Connection reset" in json.dumps(r) for r in errored)
