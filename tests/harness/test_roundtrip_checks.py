"""Round-trip checks (INTERPRETING.md "Round trips"): `lossless` expectations, a tiny request translator."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest
from core_support import make_corpus
from toolwire import paths
from toolwire.adapters import load_adapter
from toolwire.corpus import load_corpus
from toolwire.corpus.wire import validate_file
from toolwire.judge import applicable, run_check
from toolwire.results import check_record, read_results

SOURCE: dict[str, Any] = {
    "system": "be brief",
    "temperature": 0.5,
    "messages": [{"role": "user", "content": "hi"}],
    # data that looks like matchers: a round trip compares the source payload literally
    "tools": [{"name": "f", "parameters": {"$ref": "#/$defs/a"}, "meta": {"$any": True}}],
}
TARGET: dict[str, Any] = {
    "messages": [{"role": "system", "content": "be brief"}, {"role": "user", "content": "hi"}],
    "temperature": 0.5,
    "tools": [
        {
            "name": "f",
            "parameters": {"$literal": {"$ref": "#/$defs/a"}},
            "meta": {"$literal": {"$any": True}},
        }
    ],
}

CASES: dict[str, dict[str, Any]] = {
    "messages/system": {
        "title": "a system prompt becomes the first message and comes back",
        "features": ["tools.wrapper"],
        "level": "should",
        "kind": "request",
        "source": {"dialect": "canonical", "payload": SOURCE},
        "expect": [
            {"dialect": "openai-chat", "lossless": True, "payload": TARGET},
            {
                "dialect": "openai-chat",
                "when": {"openai.strict": "all-required"},
                "level": "may",
                "lossless": True,
                "payload": TARGET,
            },
            {"dialect": "anthropic", "payload": {"$any": True}},
            # `lossless` on an error is a lint problem, and yields no round trip
            {"dialect": "gemini", "lossless": True, "error": {"code": "payload.invalid"}},
        ],
        "refs": ["test"],
    }
}

TRANSLATOR = textwrap.dedent('''
    """A tiny request translator between canonical and openai-chat (system prompt <-> system message)."""


    class Refusal(Exception):
        def __init__(self, code, message, path=None):
            super().__init__(message)
            self.code, self.message, self.path = code, message, path


    class Lossless:
        pairs = [["canonical", "openai-chat"], ["openai-chat", "canonical"], ["canonical", "anthropic"]]

        def capabilities(self):
            return {"name": "toolwire-roundtrip", "version": "0.0.1", "language": "python",
                    "kinds": {"request": self.pairs},
                    "profiles": {"openai.strict": ["as-is", "all-required"]}}

        def translate(self, kind, source, target, payload, profile):
            assert kind == "request"
            if target == "anthropic":
                return {"anything": True}
            if target == "openai-chat":
                return self.there(dict(payload))
            return self.back(dict(payload))

        def there(self, payload):
            system = payload.pop("system", None)
            messages = list(payload.pop("messages"))
            if system is not None:
                messages.insert(0, {"role": "system", "content": system})
            return {"messages": messages, **payload}

        def back(self, payload):
            messages = list(payload.pop("messages"))
            out = {}
            if messages and messages[0]["role"] == "system":
                out["system"] = messages.pop(0)["content"]
            out.update(payload)
            out["messages"] = messages
            return out

        def translate_stream(self, source, target, events, profile):
            return []


    class Lossy(Lossless):
        """Loses the temperature on the way back: the forward check passes, the round trip does not."""

        def back(self, payload):
            out = super().back(payload)
            out.pop("temperature", None)
            out["top_p"] = 1
            return out


    class OneWay(Lossless):
        pairs = [["canonical", "openai-chat"], ["canonical", "anthropic"]]


    class RefusesBack(Lossless):
        def back(self, payload):
            raise Refusal("payload.invalid", "cannot read my own output", "/messages/0")


    class CrashesBack(Lossless):
        def back(self, payload):
            return payload["nope"]


    class RefusesThere(Lossless):
        def there(self, payload):
            raise Refusal("payload.invalid", "no system prompts", "/system")
''')

#: a canonical request wire schema for the temporary corpus: `messages` required, `top_p` a string
CANONICAL_REQUEST_SCHEMA = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "required": ["messages"],
    "properties": {"messages": {"type": "array"}, "top_p": {"type": "string"}},
}

RT = "messages/system[canonical>openai-chat>canonical]"
RT_STRICT = "messages/system[canonical>openai-chat>canonical,openai.strict=all-required]"
FORWARD = "messages/system[canonical>openai-chat]"


@pytest.fixture
def corpus_dir(tmp_path: Path) -> Path:
    root = make_corpus(tmp_path, CASES)
    canonical = tmp_path / "schemas" / "canonical"
    canonical.mkdir(parents=True)
    (canonical / "request.schema.json").write_text(json.dumps(CANONICAL_REQUEST_SCHEMA))
    return root


@pytest.fixture
def mod(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    directory = tmp_path / "mods"
    directory.mkdir()
    name = f"roundtrip_{abs(hash(str(tmp_path)))}"
    (directory / f"{name}.py").write_text(TRANSLATOR, encoding="utf-8")
    monkeypatch.syspath_prepend(str(directory))
    return name


def checks(corpus_dir: Path) -> dict[str, Any]:
    return {c.id: c for c in load_corpus(corpus_dir).checks()}


def run(corpus_dir: Path, spec: str, check_id: str):
    corpus = load_corpus(corpus_dir)
    check = {c.id: c for c in corpus.checks()}[check_id]
    return check, run_check(load_adapter(spec), check, corpus.profiles)


# -- the corpus yields round-trip checks ------------------------------------------------------------------


def test_lossless_expectations_yield_a_round_trip_check(corpus_dir: Path) -> None:
    ids = [c.id for c in load_corpus(corpus_dir).checks()]
    assert ids == [
        FORWARD,
        RT,
        "messages/system[canonical>openai-chat,openai.strict=all-required]",
        RT_STRICT,
        "messages/system[canonical>anthropic]",
        "messages/system[canonical>gemini]",  # an error expectation: no round trip
    ]
    by_id = checks(corpus_dir)
    trip, forward = by_id[RT], by_id[FORWARD]
    assert trip.round_trip and not forward.round_trip
    assert (trip.kind, trip.level, trip.features, trip.source, trip.target) == (
        "request",
        "should",
        ["tools.wrapper"],
        "canonical",
        "openai-chat",
    )
    strict = by_id[RT_STRICT]
    assert strict.level == "may" and strict.when == {"openai.strict": "all-required"}
    assert strict.profile["openai.strict"] == "all-required"


# -- outcomes ----------------------------------------------------------------------------------------------


def test_lossless_round_trip_passes(corpus_dir: Path, mod: str) -> None:
    for check_id in (FORWARD, RT, RT_STRICT):
        _, result = run(corpus_dir, f"python:{mod}:Lossless", check_id)
        assert result.outcome == "passed", (check_id, result)
    _, result = run(corpus_dir, f"python:{mod}:Lossless", RT)
    assert result.wire_valid is True  # the final output, against the *source* dialect's wire schema


def test_lossy_round_trip_fails_with_a_diff(corpus_dir: Path, mod: str) -> None:
    _, forward = run(corpus_dir, f"python:{mod}:Lossy", FORWARD)
    assert forward.outcome == "passed"
    check, result = run(corpus_dir, f"python:{mod}:Lossy", RT)
    assert result.outcome == "failed"
    assert "does not give the source payload back" in result.message
    assert "invalid for the canonical wire schema" in result.message
    assert "/temperature" in result.diff and "/top_p" in result.diff
    assert result.wire_valid is False and any(e.startswith("/top_p") for e in result.wire_errors)
    record = check_record(check, result)
    assert record["round_trip"] is True and record["source"] == "canonical"
    assert record["target"] == "openai-chat" and "diff" in record


def test_literal_source_payload_is_not_read_as_matchers(corpus_dir: Path, mod: str, tmp_path: Path) -> None:
    # `{"$any": true}` in the source is data: an output with anything else there is a difference
    (tmp_path / "mods" / f"{mod}_any.py").write_text(
        f"import copy\nfrom {mod} import Lossless\n"
        "class Drifting(Lossless):\n"
        "    def back(self, payload):\n"
        "        out = copy.deepcopy(super().back(payload))  # its own output, not the caller's payload\n"
        "        out['tools'][0]['meta'] = {'$any': False}\n"
        "        return out\n"
    )
    _, result = run(corpus_dir, f"python:{mod}_any:Drifting", RT)
    assert result.outcome == "failed" and "/tools/0/meta/$any" in result.diff


def test_undeclared_reverse_pair_is_skipped(corpus_dir: Path, mod: str) -> None:
    _, forward = run(corpus_dir, f"python:{mod}:OneWay", FORWARD)
    assert forward.outcome == "passed"
    check, result = run(corpus_dir, f"python:{mod}:OneWay", RT)
    assert result.outcome == "skipped"
    assert result.message == (
        "round trip: the reverse pair openai-chat>canonical is not declared for kind 'request'"
    )
    caps = load_adapter(f"python:{mod}:OneWay").capabilities
    assert applicable(check, {**caps, "kinds": {"request": [["*", "*"]]}}) is None


def test_undeclared_profile_skips_the_round_trip_too(corpus_dir: Path, mod: str, tmp_path: Path) -> None:
    (tmp_path / "mods" / f"{mod}_p.py").write_text(
        f"from {mod} import Lossless\n"
        "class NoStrict(Lossless):\n"
        "    def capabilities(self):\n"
        "        caps = super().capabilities()\n"
        "        caps['profiles'] = {}\n"
        "        return caps\n"
    )
    _, result = run(corpus_dir, f"python:{mod}_p:NoStrict", RT_STRICT)
    assert result.outcome == "skipped" and "openai.strict=all-required" in result.message


def test_refusal_on_the_way_back_fails(corpus_dir: Path, mod: str) -> None:
    _, result = run(corpus_dir, f"python:{mod}:RefusesBack", RT)
    assert result.outcome == "failed"
    assert result.message.startswith(
        "round trip: refused on the way back (openai-chat>canonical) with 'payload.invalid' at /messages/0"
    )
    assert result.actual_error["code"] == "payload.invalid"


def test_refusal_on_the_way_there_fails(corpus_dir: Path, mod: str) -> None:
    _, result = run(corpus_dir, f"python:{mod}:RefusesThere", RT)
    assert result.outcome == "failed"
    assert "refused on the way there (canonical>openai-chat)" in result.message


def test_crash_on_the_way_back_errors(corpus_dir: Path, mod: str) -> None:
    _, result = run(corpus_dir, f"python:{mod}:CrashesBack", RT)
    assert result.outcome == "errored"
    assert result.message.startswith("round trip, openai-chat>canonical: KeyError")


# -- results records ----------------------------------------------------------------------------------------


def test_records_are_valid_results_lines(corpus_dir: Path, mod: str) -> None:
    corpus = load_corpus(corpus_dir)
    adapter = load_adapter(f"python:{mod}:Lossy")
    records = [check_record(c, run_check(adapter, c, corpus.profiles)) for c in corpus.checks()]
    trips = [r for r in records if r.get("round_trip")]
    assert {r["id"] for r in trips} == {RT, RT_STRICT}
    assert all("round_trip" not in r for r in records if r not in trips)
    if (paths.schemas_dir() / "results.schema.json").is_file():
        for record in records:
            assert validate_file("results.schema.json", record) == [], record


def test_plugin_runs_round_trips(corpus_dir: Path, mod: str, tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(tmp_path / "mods")}
    (tmp_path / "pytest.ini").write_text("[pytest]\n")
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-p",
            "no:cacheprovider",
            "--toolwire-adapter",
            f"python:{mod}:Lossy",
            "--toolwire-corpus",
            str(corpus_dir),
            "--toolwire-results",
            "out/r.jsonl",
            "-m",
            "toolwire_round_trip",
        ],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert f"FAILED toolwire::{RT}" in proc.stdout
    results = read_results(tmp_path / "out" / "r.jsonl")
    assert {r["id"] for r in results.checks} == {RT, RT_STRICT}
    assert all(r["round_trip"] is True and r["outcome"] == "failed" for r in results.checks)
