"""`toolwire translate` (toolwire_reference.cli): exit 0 with the translation, 1 with a coded error, 2 on bad
usage or input."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from toolwire_reference import cli as translate_cmd


class FakeError(Exception):
    def __init__(self, code: str, message: str, path: str) -> None:
        super().__init__(message)
        self.code, self.message, self.path = code, message, path


@pytest.fixture
def fake(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    """Replace the reference with a recorder: echoes a marker, refuses payloads containing "refuse"."""
    calls: list[dict[str, Any]] = []

    def translate(
        kind: str, payload: Any, *, source: str, target: str, profile: dict[str, Any] | None = None
    ) -> Any:
        calls.append(
            {"kind": kind, "payload": payload, "source": source, "target": target, "profile": profile}
        )
        if "refuse" in json.dumps(payload):
            raise FakeError("choice.invalid", "not a tool choice", "/tool_choice")
        if "crash" in json.dumps(payload):
            raise RuntimeError("boom")
        return {"translated": payload, "to": target, "note": "é"}

    monkeypatch.setattr(translate_cmd, "translate", translate)
    monkeypatch.setattr(translate_cmd, "TranslationError", FakeError)
    return calls


def run(
    argv: list[str],
    capsys: pytest.CaptureFixture[str],
    stdin: str | None = None,
    monkeypatch: pytest.MonkeyPatch | None = None,
) -> tuple[int, str, str]:
    if stdin is not None:
        assert monkeypatch is not None
        monkeypatch.setattr(
            sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin.encode("utf-8")), encoding="utf-8")
        )
    code = translate_cmd.main(argv)
    out, err = capsys.readouterr()
    return code, out, err


ARGS = ["--kind", "tool_choice", "--from", "canonical", "--to", "anthropic"]


def test_translates_file_exit_0(
    tmp_path: Path, fake: list[dict[str, Any]], capsys: pytest.CaptureFixture[str]
) -> None:
    src = tmp_path / "in.json"
    src.write_text('{"tool_choice": {"mode": "auto"}}', encoding="utf-8")
    code, out, err = run([*ARGS, "--profile", "unsupported=degrade", str(src)], capsys)
    assert (code, err) == (0, "")
    assert (
        out
        == json.dumps(
            {"translated": {"tool_choice": {"mode": "auto"}}, "to": "anthropic", "note": "é"},
            indent=2,
            ensure_ascii=False,
        )
        + "\n"
    )
    (call,) = fake
    assert (call["kind"], call["source"], call["target"]) == ("tool_choice", "canonical", "anthropic")
    # the full resolved profile: defaults from profiles.json, overlaid with --profile
    assert call["profile"]["unsupported"] == "degrade"
    assert call["profile"]["openai.strict"] == "as-is"


def test_reads_stdin(
    fake: list[dict[str, Any]], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out, _ = run(ARGS, capsys, stdin='{"tool_choice": {"mode": "none"}}', monkeypatch=monkeypatch)
    assert code == 0 and json.loads(out)["translated"] == {"tool_choice": {"mode": "none"}}


def test_translation_error_exit_1(
    fake: list[dict[str, Any]], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out, _ = run(ARGS, capsys, stdin='{"tool_choice": "refuse"}', monkeypatch=monkeypatch)
    assert code == 1
    assert json.loads(out) == {
        "error": {"code": "choice.invalid", "message": "not a tool choice", "path": "/tool_choice"}
    }


def test_malformed_json_exit_2(
    fake: list[dict[str, Any]], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out, err = run(ARGS, capsys, stdin='{\n  "tool_choice": auto\n}', monkeypatch=monkeypatch)
    assert (code, out) == (2, "")
    assert "<stdin>: malformed JSON at line 2 column 18" in err
    assert fake == []


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--kind", "widgets", "--from", "canonical", "--to", "anthropic"], "unknown kind 'widgets'"),
        (["--kind", "tools", "--from", "klingon", "--to", "anthropic"], "unknown source dialect 'klingon'"),
        (["--kind", "tools", "--from", "canonical", "--to", "klingon"], "unknown target dialect 'klingon'"),
        ([*ARGS, "--profile", "openai.strictness=off"], "unknown profile key 'openai.strictness'"),
        (
            [*ARGS, "--profile", "openai.strict=sometimes"],
            "unknown value 'sometimes' for profile 'openai.strict'",
        ),
        ([*ARGS, "--profile", "openai.strict"], "expected KEY=VALUE"),
        ([*ARGS, "/nonexistent/in.json"], "/nonexistent/in.json: no such file"),
    ],
)
def test_bad_usage_exit_2(
    argv: list[str], message: str, fake: list[dict[str, Any]], capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(argv, capsys)
    assert (code, out) == (2, "")
    assert message in err
    assert fake == []


def test_missing_required_argument_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        translate_cmd.main(["--from", "canonical", "--to", "anthropic"])
    assert info.value.code == 2
    assert "the following arguments are required: --kind" in capsys.readouterr().err


def test_reference_crash_is_exit_2_not_a_traceback(
    fake: list[dict[str, Any]], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out, err = run(ARGS, capsys, stdin='{"x": "crash"}', monkeypatch=monkeypatch)
    assert (code, out) == (2, "")
    assert "the reference translator failed: RuntimeError: boom" in err


def test_text_kind_takes_raw_text(
    fake: list[dict[str, Any]], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    raw = '<tool_call>{"name": "f", "arguments": {}}</tool_call>'
    argv = ["--kind", "text", "--from", "canonical", "--to", "canonical"]
    code, out, _ = run(argv, capsys, stdin=raw, monkeypatch=monkeypatch)
    assert code == 0 and fake[-1]["payload"] == raw


# -- against the real reference translator, as a subprocess -----------------------------------------


def _cli(*args: str, stdin: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "toolwire_reference.cli", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_reference_exit_codes_0_1_2() -> None:
    ok = _cli(*ARGS, stdin='{"tool_choice": {"mode": "required", "tools": ["get_weather"]}}')
    assert ok.returncode == 0, ok.stderr
    assert json.loads(ok.stdout) == {"tool_choice": {"type": "tool", "name": "get_weather"}}
    refused = _cli(*ARGS, stdin='{"tool_choice": {"mode": "auto", "tools": ["a", "b"]}}')
    assert refused.returncode == 1, refused.stderr
    error = json.loads(refused.stdout)["error"]
    assert error["code"] == "choice.unsupported" and set(error) == {"code", "message", "path"}
    bad = _cli(*ARGS, stdin="{")
    assert bad.returncode == 2 and "malformed JSON at line 1 column 2" in bad.stderr


def test_a_lone_surrogate_is_refused_with_its_path_not_a_traceback() -> None:
    """JSON text may spell a lone surrogate, but no UTF-8 output can carry it: exit 1 with
    ``payload.invalid`` at the string that holds it (``toolwire serve`` answers the same with a 400)."""
    tools = '[{"type": "function", "function": {"name": "f", "description": "\\ud800"}}]'
    refused = _cli("--kind", "tools", "--from", "openai-chat", "--to", "anthropic", stdin=tools)
    assert refused.returncode == 1 and "Traceback" not in refused.stderr, refused.stderr
    error = json.loads(refused.stdout)["error"]
    assert error["code"] == "payload.invalid" and error["path"] == "/0/function/description"
    paired = tools.replace("\\ud800", "\\ud83d\\ude00")  # a surrogate pair is one character
    assert _cli("--kind", "tools", "--from", "openai-chat", "--to", "anthropic", stdin=paired).returncode == 0


@pytest.mark.parametrize("constant", ["NaN", "Infinity", "-Infinity"])
def test_nan_and_infinity_are_no_json_input(constant: str) -> None:
    """Python's reader takes ``NaN`` and ``Infinity``, which JSON has not: they were translated and written
    back out as invalid JSON (exit 0). Malformed input: exit 2 naming the constant."""
    schema = '{"type": "object", "properties": {"x": {"maximum": ' + constant + "}}}"
    tools = '[{"name": "f", "parameters": ' + schema + "}]"
    bad = _cli("--kind", "tools", "--from", "canonical", "--to", "anthropic", stdin=tools)
    assert bad.returncode == 2 and bad.stdout == "", bad.stdout
    assert f"malformed JSON: {constant} is not JSON" in bad.stderr and "Traceback" not in bad.stderr


def test_an_arguments_string_holding_nan_is_no_json_object() -> None:
    """Tool-call arguments are JSON text: ``NaN`` in them is not, as for the payload itself."""
    from toolwire_reference import TranslationError, translate

    response = {
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "created": 1,
        "model": "m",
        "choices": [
            {
                "index": 0,
                "finish_reason": "tool_calls",
                "message": {
                    "role": "assistant",
                    "content": None,
                    "tool_calls": [
                        {"id": "c1", "type": "function", "function": {"name": "f", "arguments": '{"x": NaN}'}}
                    ],
                },
            }
        ],
    }
    with pytest.raises(TranslationError) as info:
        translate("response", response, source="openai-chat", target="anthropic")
    assert (info.value.code, info.value.path) == (
        "call.invalid_arguments",
        "/choices/0/message/tool_calls/0/function/arguments",
    )
    assert "NaN is not JSON" in info.value.message
    preserve = {"arguments.invalid": "preserve"}
    kept = translate("response", response, source="openai-chat", target="openai-chat", profile=preserve)
    json.dumps(kept, allow_nan=False)  # the text kept as text: the output is JSON


def test_a_token_count_no_json_reader_holds_exactly_is_refused() -> None:
    """A usage count beyond 2**53 - 1 is no provider's: ``response.invalid`` at it (sums of counts of
    4,300 digits could not be written out, and ``toolwire serve`` answered 500)."""
    from toolwire_reference import TranslationError, translate

    big = 10**4000
    response = {
        "id": "msg_1",
        "type": "message",
        "role": "assistant",
        "model": "m",
        "content": [{"type": "text", "text": "hi"}],
        "stop_reason": "end_turn",
        "usage": {"input_tokens": big, "output_tokens": 1, "cache_read_input_tokens": big},
    }
    with pytest.raises(TranslationError) as info:
        translate("response", response, source="anthropic", target="openai-chat")
    assert (info.value.code, info.value.path) == ("response.invalid", "/usage/cache_read_input_tokens")
    response["usage"] = {"input_tokens": 2**53 - 1, "output_tokens": 1}
    assert translate("response", response, source="anthropic", target="openai-chat")["usage"]["prompt_tokens"]


def test_reader_closing_the_pipe_early_is_not_a_traceback(tmp_path) -> None:
    import json as _json
    import subprocess
    import sys

    tool = {"description": "x" * 200, "parameters": {"type": "object"}}
    tools = [{"name": f"tool_{i}", **tool} for i in range(400)]
    src = tmp_path / "tools.json"
    src.write_text(_json.dumps(tools), encoding="utf-8")
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "toolwire.cli",
            "translate",
            "--kind",
            "tools",
            "--from",
            "canonical",
            "--to",
            "openai-chat",
            str(src),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.read(10)
    proc.stdout.close()
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=60) == 0
    assert "Traceback" not in err
