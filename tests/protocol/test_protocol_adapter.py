"""The cmd: adapter against a scriptable toy harness: answers, refusals, crashes, hangs, garbage, restarts."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest
from protocol_support import python_cmd, write_toy
from toolwire.adapters import AdapterError, Answer, default_timeout, load_adapter
from toolwire.adapters.cmd import MAX_ANSWER_DEPTH, ProtocolWarning, SubprocessAdapter
from toolwire.corpus import load_corpus
from toolwire.corpus.wire import validate_file
from toolwire.judge import applicable, run_check
from toolwire.judge.checks import judge_round_trip


@pytest.fixture
def toy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """A factory of loaded toy adapters; every one is closed at the end; requests logged to TOY_LOG."""
    script = write_toy(tmp_path)
    log = tmp_path / "requests.log"
    monkeypatch.setenv("TOY_LOG", str(log))
    made: list[SubprocessAdapter] = []

    def make(*args: str, **kwargs) -> SubprocessAdapter:
        adapter = load_adapter(python_cmd(script, *args), **kwargs)
        assert isinstance(adapter, SubprocessAdapter)
        made.append(adapter)
        return adapter

    make.log = log  # type: ignore[attr-defined]
    yield make
    for adapter in made:
        adapter.close()


def _t(adapter: SubprocessAdapter, payload):
    return adapter.translate("tools", "canonical", "openai-chat", payload, {"openai.strict": "as-is"})


def test_hello_capabilities_and_metadata(toy) -> None:
    adapter = toy()
    meta = adapter.metadata()
    assert meta["name"] == "toy" and meta["version"] == "1.0" and meta["language"] == "python"
    assert meta["capabilities"]["kinds"]["tools"] == [["canonical", "*"]]
    assert meta["capabilities"]["profiles"] == {"openai.strict": ["*"]}
    assert adapter.timeout == default_timeout("cmd:x") == 10.0


def test_payload_refusal_and_blank_lines(toy) -> None:
    adapter = toy()
    answer = _t(adapter, {"do": "echo", "x": "é"})
    assert answer.status == "payload" and answer.payload == {"do": "echo", "x": "é"}
    answer = _t(adapter, {"do": "refuse"})
    assert answer.status == "error"
    assert answer.error == {"code": "tool.missing_name", "message": "no name", "path": "/0/name"}
    assert _t(adapter, {"do": "blank_then_echo"}).status == "payload"
    assert adapter.restarts == 0


def test_every_request_sent_is_schema_valid(toy) -> None:
    adapter = toy()
    _t(adapter, {"do": "echo"})
    adapter.stream("openai-chat", "anthropic", [{"data": {"a": 1}}, {"event": "x", "data": "[DONE]"}], {})
    adapter.stream("openai-chat", "anthropic", [], {})
    adapter.close()
    lines = toy.log.read_text(encoding="utf-8").splitlines()
    assert lines[-1] == "BYE-RECEIVED"
    requests = [json.loads(line) for line in lines[:-1]]
    assert [r["cmd"] for r in requests] == [
        "hello",
        "translate",
        "stream",
        "stream",
        "stream",
        "stream",
        "bye",
    ]
    for request in requests:
        assert validate_file("protocol/request.schema.json", request) == [], request
    seqs = [r["seq"] for r in requests if "seq" in r]
    assert seqs == [1, 2, 2, 2, 5]  # a stream has one seq, taken from the id of its first message
    assert [r["id"] for r in requests if "id" in r] == [1, 2, 3, 4, 5]  # every message has its own id
    assert all(line.isascii() for line in lines)


def test_stream_batches_per_input_event(toy) -> None:
    adapter = toy(validate_protocol=True)
    events = [{"data": {"n": 1}}, {"data": "quiet"}, {"event": "e", "data": {"n": 2}}]
    answer, batches = adapter.stream("openai-chat", "anthropic", events, {})
    assert batches == [[events[0]], [], [events[2]], [{"data": "end"}]]
    assert answer.status == "payload"
    assert answer.payload == [events[0], events[2], {"data": "end"}]
    assert adapter.translate_stream("openai-chat", "anthropic", events, {}).payload == answer.payload
    assert adapter.translate_stream_steps("openai-chat", "anthropic", events, {}).payload == batches


def test_stream_refusal_ends_the_stream(toy) -> None:
    adapter = toy()
    answer, batches = adapter.stream(
        "a", "b", [{"data": {"n": 1}}, {"data": "refuse"}, {"data": {"n": 3}}], {}
    )
    assert answer.status == "error" and answer.error["code"] == "payload.invalid"
    assert batches == [[{"data": {"n": 1}}]]
    assert _t(adapter, {"do": "echo"}).status == "payload"  # the session goes on: no stray answers queued


def test_exit_is_errored_with_stderr_and_restarted(toy) -> None:
    adapter = toy()
    answer = _t(adapter, {"do": "exit"})
    assert answer.status == "crash"
    assert "exited with status 3" in answer.crash
    assert "toy: dying now" in answer.crash  # the tail of its stderr
    assert "a new process serves the next check" in answer.crash
    assert _t(adapter, {"do": "echo"}).status == "payload"
    assert adapter.restarts == 1


def test_hang_times_out_and_restarts(toy) -> None:
    adapter = toy(timeout=0.5)
    answer = _t(adapter, {"do": "hang"})
    assert answer.status == "crash"
    assert "did not answer within 0.5 s (hung" in answer.crash
    assert "toy: seq 1 does hang" in answer.crash
    assert _t(adapter, {"do": "echo"}).status == "payload"
    assert adapter.restarts == 1


def test_a_large_answer_comes_through_with_the_default_timeout(toy) -> None:
    adapter = toy()  # the default timeout (10 s): reading a byte per read() took ~20 s for 20 MB
    size = 20 * 1024 * 1024
    answer = _t(adapter, {"do": "big", "size": size})
    assert answer.status == "payload", answer.crash
    assert answer.payload["blob"] == "x" * size
    big_request = {"do": "echo", "blob": "y" * (4 * 1024 * 1024)}  # a large request goes through too
    assert _t(adapter, big_request).payload == big_request
    assert adapter.restarts == 0


@pytest.mark.parametrize("depth", [100_000, MAX_ANSWER_DEPTH + 1])
def test_a_too_deep_answer_is_the_implementations_fault(toy, depth: int) -> None:
    adapter = toy()
    answer = _t(adapter, {"do": "deep", "depth": depth})
    assert answer.status == "crash"
    assert "nested too deeply" in answer.crash and f"more than {MAX_ANSWER_DEPTH} levels" in answer.crash
    assert "toolwire harness error" not in answer.crash
    assert "a new process serves the next check" in answer.crash
    assert _t(adapter, {"do": "echo"}).payload == {"do": "echo"}
    assert adapter.restarts == 1
    nested = _t(adapter, {"do": "deep", "depth": MAX_ANSWER_DEPTH - 1})  # exactly the limit
    assert nested.status == "payload"
    assert adapter.restarts == 1


def test_half_a_line_then_silence_is_a_hang_with_the_partial_stderr(toy) -> None:
    adapter = toy(timeout=0.5)
    answer = _t(adapter, {"do": "half_line_hang"})
    assert answer.status == "crash"
    assert "did not answer within 0.5 s (hung" in answer.crash
    assert "toy: stuck mid-line" in answer.crash  # a stderr line without its newline is shown too
    assert _t(adapter, {"do": "echo"}).status == "payload"
    assert adapter.restarts == 1


@pytest.mark.parametrize(
    ("do", "words"),
    [
        ("garbage", ["not JSON", "'this is not json'"]),
        ("wrong_seq", ["answered with seq 101 to request seq 1"]),
        ("both", ["exactly one of 'payload', 'error', 'crash'"]),
    ],
)
def test_protocol_errors_are_errored_and_restarted(toy, do: str, words: list[str]) -> None:
    adapter = toy()
    answer = _t(adapter, {"do": do})
    assert answer.status == "crash"
    for word in words:
        assert word in answer.crash
    assert _t(adapter, {"do": "echo"}).status == "payload"
    assert adapter.restarts == 1


STREAM_EVENTS = [{"data": {"n": 1}}, {"data": {"n": 2}}]


def _stream_is_right(adapter: SubprocessAdapter) -> None:
    answer, batches = adapter.stream("openai-chat", "anthropic", STREAM_EVENTS, {})
    assert answer.status == "payload", answer.crash
    assert batches == [[STREAM_EVENTS[0]], [STREAM_EVENTS[1]], [{"data": "end"}]]


@pytest.mark.parametrize("args", [(), ("--no-ids",)])
@pytest.mark.parametrize(("do", "extra"), [("twice", "seq 1"), ("answer_then_garbage", "DEBUG done")])
def test_an_extra_line_after_an_answer_errors_its_own_check(toy, args, do: str, extra: str) -> None:
    adapter = toy(*args)
    answer = _t(adapter, {"do": do})
    assert answer.status == "crash"
    assert "it wrote another line after the answer to translate seq 1" in answer.crash
    assert extra in answer.crash
    assert _t(adapter, {"do": "echo"}).payload == {"do": "echo"}  # the next check: a clean channel
    _stream_is_right(adapter)
    assert adapter.restarts == 1 and adapter.late_violations == []


@pytest.mark.parametrize("twice", ["twice", "twice_late"])
def test_a_duplicate_answer_inside_a_stream_errors_that_stream(toy, twice: str) -> None:
    adapter = toy()
    events = [{"data": {"n": 1}}, {"data": twice}, {"data": {"n": 3}}]
    answer, batches = adapter.stream("openai-chat", "anthropic", events, {})
    assert answer.status == "crash"
    assert "stream seq 1" in answer.crash
    assert "answered id 2 (an earlier message of stream seq 1" in answer.crash or (
        "wrote another line after the answer to stream seq 1" in answer.crash
    )
    assert batches[0] == [events[0]]  # and nothing after the message answered twice
    assert len(batches) <= 2
    _stream_is_right(adapter)  # the next stream runs on a fresh process, in step
    assert _t(adapter, {"do": "echo"}).status == "payload"
    assert adapter.restarts == 1


def test_a_late_extra_answer_is_reported_and_the_next_check_is_sent_again(toy) -> None:
    adapter = toy()
    first = _t(adapter, {"do": "twice_late", "n": 1})
    assert first.status == "payload"  # answered once when toolwire took the answer
    with pytest.warns(ProtocolWarning, match=r"answered translate seq 1 .*once more"):
        second = _t(adapter, {"do": "echo", "n": 2})
    assert second.status == "payload" and second.payload == {"do": "echo", "n": 2}
    assert adapter.restarts == 1
    [violation] = adapter.late_violations
    assert "sent again to a new process" in violation
    _stream_is_right(adapter)


def test_a_stale_seq_from_a_harness_without_ids_is_the_earlier_checks(toy) -> None:
    adapter = toy("--no-ids")
    assert _t(adapter, {"do": "twice_late"}).status == "payload"
    with pytest.warns(ProtocolWarning, match=r"translate seq 1 \(tools canonical -> openai-chat\) \(seq 1\)"):
        assert _t(adapter, {"do": "echo"}).status == "payload"
    _stream_is_right(adapter)
    assert adapter.restarts == 1


def test_answers_must_keep_echoing_ids(toy) -> None:
    adapter = toy()
    assert _t(adapter, {"do": "echo"}).status == "payload"
    adapter._proc.echoes_ids = True
    answer = _t(adapter, {"do": "wrong_seq"})
    assert "answered with seq 102 to request seq 2" in answer.crash


def test_reported_crash_and_protocol_codes_keep_the_process(toy) -> None:
    adapter = toy()
    answer = _t(adapter, {"do": "crash_report"})
    assert answer.status == "crash" and "reported a crash: ZeroDivisionError: boom" in answer.crash
    # no counterpart for this input: not a crash, the check is skipped with the harness's reason
    answer = _t(adapter, {"do": "unsupported"})
    assert answer.status == "unsupported" and answer.reason == "protocol.unsupported: not here"
    assert answer.crash is None and answer.error is None
    # a request the harness cannot process (a bad or unknown command) stays a crash
    answer = _t(adapter, {"do": "bad_request"})
    assert answer.status == "crash" and "protocol.bad_request: unparsed" in answer.crash
    assert adapter.restarts == 0


def test_unsupported_answers_skip_every_kind_of_check(toy) -> None:
    adapter = toy("--unsupported-all")
    corpus = load_corpus()
    picked: dict[tuple[str, str | None], Any] = {}
    for check in corpus.checks():
        if applicable(check, adapter.capabilities, corpus.profiles) is None:
            picked.setdefault((check.kind, check.variant and check.variant.split("=")[0]), check)
    # main checks, round trips, a stream's variants (re-chunked, incremental)
    assert {("tools", None), ("stream", None), ("stream", "incremental")} <= set(picked)
    assert any(v for _, v in picked if v not in (None, "incremental"))
    for check in picked.values():
        result = run_check(adapter, check, corpus.profiles)
        assert result.outcome == "skipped", (check.id, result.outcome, result.message)
        assert "protocol.unsupported: no toy counterpart" in result.message, check.id
    # a round trip either of whose legs has no counterpart
    there = Answer.unsupported("no toy counterpart")
    result = judge_round_trip(picked["tools", None], there, None)
    assert (result.outcome, result.message) == ("skipped", "protocol.unsupported: no toy counterpart")


def test_schema_validation_only_when_asked(toy) -> None:
    lenient = toy()
    answer = _t(lenient, {"do": "bad_code"})
    assert answer.status == "error" and answer.error["code"] == "Not A Code"  # judged: a wrong code fails
    strict = toy(validate_protocol=True)
    answer = _t(strict, {"do": "bad_code"})
    assert answer.status == "crash"
    assert "translate-answer.schema.json" in answer.crash


def test_start_failures_are_adapter_errors(toy) -> None:
    with pytest.raises(AdapterError, match=r"(?s)exited with status 4.*missing config"):
        toy("--die-at-start")
    with pytest.raises(AdapterError, match="not JSON.*Toy harness v1 starting up"):
        toy("--garbage-hello")
    with pytest.raises(AdapterError, match="speaks protocol 2; this harness speaks protocol 1"):
        toy("--protocol", "2")
    with pytest.raises(AdapterError, match="cannot start"):
        load_adapter("cmd:/nonexistent/toolwire-harness")
    with pytest.raises(AdapterError, match="expected cmd:<command line>"):
        load_adapter("cmd:   ")


def test_cwd_and_bye(tmp_path: Path) -> None:
    (tmp_path / "sub").mkdir()
    write_toy(tmp_path / "sub")
    adapter = load_adapter(f"cmd:{sys.executable} toy_harness.py", cwd=tmp_path / "sub")
    assert adapter.name == "toy"
    popen = adapter._proc.popen
    adapter.close()
    assert popen.returncode == 0  # it read bye and exited by itself
    answer = _t(adapter, {"do": "echo"})  # a closed adapter is never restarted
    assert answer.status == "crash" and "closed" in answer.crash


def test_failed_restarts_give_up_after_three(toy) -> None:
    adapter = toy("--once")
    assert "exited with status 3" in _t(adapter, {"do": "exit"}).crash
    for _ in range(3):
        answer = _t(adapter, {"do": "echo"})
        assert answer.status == "crash"
        assert "restarting it failed" in answer.crash and "toy: second start refused" in answer.crash
    answer = _t(adapter, {"do": "echo"})
    assert "given up after 3 failed restarts in a row" in answer.crash
    assert "second start refused" in answer.crash
    assert adapter.restarts == 3


def test_a_line_after_the_last_answer_is_reported_when_the_harness_is_closed(toy) -> None:
    """A stray line after the last answer of a run has no next request to be noticed by: closing the
    harness (``bye``, then its stdout read to the end) reports it, every time, not in 1 run of 4."""
    from toolwire.adapters.cmd import ProtocolWarning

    adapter = toy()
    assert _t(adapter, {"do": "answer_then_late_garbage"}).status == "payload"
    with pytest.warns(ProtocolWarning, match="DEBUG late"):
        adapter.close()
    [late] = adapter.late_violations
    assert "after its answer to translate seq 1" in late and "noticed when it was closed" in late
