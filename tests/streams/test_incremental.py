"""The incrementality measure on a toy stream."""

from __future__ import annotations

import json

from toolwire.streams.incremental import measure


def canonical(args: list[str], text: str = "Hi") -> list:
    events = [
        {"data": {"type": "message_start"}},
        {"data": {"type": "text_delta", "index": 0, "text": text}},
        {"data": {"type": "block_end", "index": 0}},
        {"data": {"type": "tool_call_start", "index": 1, "id": "c1", "name": "f"}},
    ]
    events += [{"data": {"type": "tool_call_delta", "index": 1, "arguments": a}} for a in args]
    events += [
        {"data": {"type": "block_end", "index": 1}},
        {"data": {"type": "message_end", "stop_reason": "tool_use"}},
    ]
    return events


ARGS = ['{"a', '": 1', ', "b": 2}']


def test_pass_through_has_no_lag() -> None:
    inputs = canonical(ARGS)
    result = measure(inputs, "canonical", [[e] for e in inputs], "canonical")
    assert result.max_lag == 0 and result.ok() and result.measured == 5


def test_holding_a_tool_call_until_the_end_is_reported() -> None:
    inputs = canonical(ARGS)
    held = [[e] for e in inputs[:4]] + [[] for _ in inputs[4:]] + [inputs[4:]]
    result = measure(inputs, "canonical", held, "canonical")
    assert not result.ok()
    worst = result.worst
    assert worst is not None and worst.fragment.kind == "arguments" and worst.available_at == 4
    assert worst.emitted_after == len(inputs) and worst.lag == len(inputs) - 4
    assert "held until the end" in result.summary() and "5 events late" in result.summary()


def test_a_whole_call_target_may_lag_one_event() -> None:
    # Gemini needs the whole call: emitted with the input's block_end, one event after the last fragment
    inputs = canonical(ARGS)
    chunk = {
        "data": {
            "candidates": [
                {
                    "content": {
                        "role": "model",
                        "parts": [{"functionCall": {"name": "f", "args": json.loads("".join(ARGS))}}],
                    }
                }
            ]
        }
    }
    text = {"data": {"candidates": [{"content": {"role": "model", "parts": [{"text": "Hi"}]}}]}}
    last = {
        "data": {
            "candidates": [{"content": {"role": "model", "parts": [{"text": ""}]}, "finishReason": "STOP"}]
        }
    }
    steps = [[], [text], [], [], [], [], [], [chunk], [last]]
    result = measure(inputs, "canonical", steps, "gemini")
    assert result.ok(tolerance=0)  # the call is complete at input 7 (block_end), and emitted right after it
    late = [[], [text], [], [], [], [], [], [], [chunk, last]]
    assert measure(inputs, "canonical", late, "gemini").max_lag == 1


def test_a_sequential_target_waits_for_interleaved_calls_to_end() -> None:
    def chunk(delta: dict, finish: str | None = None) -> dict:
        return {
            "data": {
                "id": "c",
                "object": "chat.completion.chunk",
                "created": 1,
                "model": "m",
                "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
            }
        }

    def call(i: int, args: str, name: str | None = None) -> dict:
        c: dict = {"index": i, "function": {"arguments": args}}
        if name:
            c.update(id=f"call_{i}", type="function")
            c["function"]["name"] = name
        return chunk({"tool_calls": [c]})

    inputs = [
        call(0, "", "a"),
        call(1, "", "b"),
        call(0, "{}"),
        call(1, "{}"),
        chunk({}, "tool_calls"),
        {"data": "[DONE]"},
    ]

    def block(i: int, kind: str, **kw: object) -> dict:
        return {"event": kind, "data": {"type": kind, "index": i, **kw}}

    start = {
        "event": "message_start",
        "data": {"type": "message_start", "message": {"content": [], "usage": {}}},
    }
    tool = {"type": "tool_use", "input": {}}
    steps = [
        [start, block(0, "content_block_start", content_block={**tool, "id": "call_0", "name": "a"})],
        [],
        [block(0, "content_block_delta", delta={"type": "input_json_delta", "partial_json": "{}"})],
        [],
        # call 0 is only known complete at finish_reason (input 4): call 1 may start there
        [
            block(0, "content_block_stop"),
            block(1, "content_block_start", content_block={**tool, "id": "call_1", "name": "b"}),
            block(1, "content_block_delta", delta={"type": "input_json_delta", "partial_json": "{}"}),
            block(1, "content_block_stop"),
        ],
        [],
    ]
    result = measure(inputs, "openai-chat", steps, "anthropic")
    assert result.max_lag == 0, result.summary()


def test_nothing_to_measure() -> None:
    inputs = [
        {"data": {"type": "message_start"}},
        {"data": {"type": "message_end", "stop_reason": "end_turn"}},
    ]
    result = measure(inputs, "canonical", [[e] for e in inputs], "canonical")
    assert result.measured == 0 and result.ok() and "nothing to measure" in result.summary()
