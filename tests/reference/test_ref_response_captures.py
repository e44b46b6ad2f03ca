"""Every real response capture of the four providers, translated to every dialect and back."""

import copy
import json
import re

import pytest
from captures import CAPTURES
from ref_helpers import run
from toolwire_reference.calls import encode_call_id
from toolwire_reference.registry import BY_NAME
from toolwire_reference.registry import NAMES as DIALECTS

PROVIDERS = ("openai-chat", "openai-responses", "anthropic", "gemini", "bedrock-converse", "mistral")
EXTRA = {
    "gemini": ["11_response_single_function_call_gemini3.json"],
    "openai-responses": ["12b_response_function_call_azure_2026-02.json"],
    "mistral": ["06_response_tool_call.json"],
}


def _is_error_body(body):
    return body.get("type") == "error" or ("error" in body and len(body) == 1)


def _captures():
    found = []
    for provider in PROVIDERS:
        folder = CAPTURES / provider
        names = sorted(p.name for p in folder.glob("*.response.json")) + EXTRA.get(provider, [])
        for name in names:
            body = json.loads((folder / name).read_text())
            found.append(pytest.param(provider, body, id=f"{provider}/{name}"))
    return found


CAPTURED = _captures()
VALID = [p for p in CAPTURED if not _is_error_body(p.values[1])]
ERRORS = [p for p in CAPTURED if _is_error_body(p.values[1])]


# ---- what each target's SDK requires ------------------------------------------------------------


def _check_chat(out):
    assert out["object"] == "chat.completion"
    assert isinstance(out["id"], str) and isinstance(out["created"], int) and isinstance(out["model"], str)
    (choice,) = out["choices"]
    assert choice["index"] == 0 and choice["logprobs"] is None
    assert choice["finish_reason"] in ("stop", "length", "tool_calls", "content_filter", "function_call")
    message = choice["message"]
    assert message["role"] == "assistant"
    assert message["content"] is None or isinstance(message["content"], str)
    for call in message.get("tool_calls", []):
        assert set(call) == {"id", "type", "function"} and call["type"] == "function"
        assert isinstance(call["function"]["arguments"], str)
        json.loads(call["function"]["arguments"])
    if "usage" in out:
        assert {"prompt_tokens", "completion_tokens", "total_tokens"} <= set(out["usage"])


def _check_responses(out):
    required = {
        "id",
        "object",
        "created_at",
        "model",
        "output",
        "parallel_tool_calls",
        "tool_choice",
        "tools",
    }
    assert required <= set(out)
    assert out["object"] == "response"
    assert out["status"] in ("completed", "failed", "in_progress", "cancelled", "queued", "incomplete")
    for item in out["output"]:
        assert isinstance(item["id"], str)
        if item["type"] == "function_call":
            assert item["id"].startswith("fc_") or item["id"]
            assert {"call_id", "name", "arguments", "status"} <= set(item)
            json.loads(item["arguments"])
        elif item["type"] == "message":
            assert item["role"] == "assistant" and item["status"] == "completed"
            for part in item["content"]:
                assert part["type"] in ("output_text", "refusal")
        else:
            assert item["type"] == "reasoning" and isinstance(item["summary"], list)
    if "usage" in out:
        usage = out["usage"]
        assert "cached_tokens" in usage["input_tokens_details"]
        assert "reasoning_tokens" in usage["output_tokens_details"]
        assert usage["total_tokens"] == usage["input_tokens"] + usage["output_tokens"]


def _check_anthropic(out):
    required = {"id", "type", "role", "model", "content", "stop_reason", "stop_sequence", "usage"}
    assert set(out) == required
    assert out["type"] == "message" and out["role"] == "assistant"
    assert out["stop_reason"] in (
        "end_turn",
        "max_tokens",
        "stop_sequence",
        "tool_use",
        "pause_turn",
        "refusal",
        "model_context_window_exceeded",
    )
    for block in out["content"]:
        if block["type"] == "tool_use":
            assert set(block) == {"type", "id", "name", "input"} and isinstance(block["input"], dict)
        elif block["type"] == "thinking":
            assert isinstance(block["signature"], str)
        else:
            assert block["type"] == "text"
    assert {"input_tokens", "output_tokens"} <= set(out["usage"])


def _check_gemini(out):
    (candidate,) = out["candidates"]
    assert candidate["content"]["role"] == "model" and candidate["index"] == 0
    assert isinstance(candidate["finishReason"], str)
    for part in candidate["content"]["parts"]:
        assert set(part) <= {"text", "thought", "functionCall", "thoughtSignature"}
        if "functionCall" in part:
            assert isinstance(part["functionCall"]["args"], dict)


def _check_mistral(out):
    assert out["object"] == "chat.completion" and isinstance(out["usage"], dict)
    assert isinstance(out["id"], str) and isinstance(out["created"], int) and isinstance(out["model"], str)
    (choice,) = out["choices"]
    assert choice["finish_reason"] in ("stop", "length", "model_length", "error", "tool_calls")
    message = choice["message"]
    assert message["role"] == "assistant"
    assert message["content"] is None or isinstance(message["content"], str)
    for call in message.get("tool_calls", []):
        assert re.fullmatch("[a-zA-Z0-9]{9}", call["id"]), call["id"]
        json.loads(call["function"]["arguments"])


def _check_canonical(out):
    assert {"content", "stop_reason"} <= set(out)
    json.dumps(out)


def _check_bedrock(out):
    assert set(out) == {"output", "stopReason", "usage", "metrics"}
    message = out["output"]["message"]
    assert message["role"] == "assistant"
    for block in message["content"]:
        (key,) = block
        assert key in ("text", "toolUse", "reasoningContent")
        if key == "toolUse":
            assert set(block[key]) == {"toolUseId", "name", "input"} and isinstance(block[key]["input"], dict)
    assert {"inputTokens", "outputTokens", "totalTokens"} <= set(out["usage"])


CHECKS = {
    "canonical": _check_canonical,
    "bedrock-converse": _check_bedrock,
    "openai-chat": _check_chat,
    "openai-responses": _check_responses,
    "anthropic": _check_anthropic,
    "gemini": _check_gemini,
    "mistral": _check_mistral,
}


# ---- what a round trip through a dialect may lose ------------------------------------------------


def _carried_by(canonical, dialect):
    """The canonical response as it can survive a trip through ``dialect`` (documented losses)."""
    out = copy.deepcopy(canonical)
    content = []
    for part in out["content"]:
        if part["type"] == "thinking" and (
            dialect in ("openai-chat", "mistral") or (dialect == "anthropic" and "signature" not in part)
        ):
            continue
        if part.get("origin") not in (None, dialect):  # a signature goes back only to its issuer
            part.pop("signature", None)
            part.pop("origin", None)
            if part["type"] == "thinking" and not part["text"] and dialect != "canonical":
                continue
        if part["type"] == "thinking" and dialect == "anthropic" and "signature" not in part:
            continue
        if part["type"] == "tool_call":
            if dialect != "gemini":
                part.pop("signature", None)
            if dialect != "openai-responses":
                part.pop("item_id", None)
        content.append(part)
    out["content"] = content
    if dialect == "bedrock-converse":  # no id, model or stop_sequence; fewer stop reasons
        for key in ("id", "model", "stop_sequence"):
            out.pop(key, None)
        out["stop_reason"] = {"refusal": "content_filter", "pause_turn": "end_turn"}.get(
            out["stop_reason"], out["stop_reason"]
        )
        out.setdefault("usage", {"input_tokens": 0, "output_tokens": 0})
    usage = out.get("usage")
    if usage:
        if dialect in ("anthropic", "bedrock-converse", "mistral"):
            usage.pop("reasoning_tokens", None)
        if dialect == "gemini":
            for key in ("cached_input_tokens", "reasoning_tokens"):
                if usage.get(key) == 0:
                    del usage[key]
    return out


def _without_envelope_noise(canonical, dialect):
    """Zero usage breakdowns are noise: Responses always reports both, Gemini omits zero counts."""
    out = copy.deepcopy(canonical)
    usage = out.get("usage") or {}
    for key in ("cached_input_tokens", "reasoning_tokens"):
        if usage.get(key) == 0:
            del usage[key]
    return out


def _ids(canonical):
    return [part["id"] for part in canonical["content"] if part["type"] == "tool_call"]


def _strip_prefix(call_id):
    for prefix in ("call_", "toolu_", "fc_", "tooluse_"):
        if call_id.startswith(prefix):
            return call_id[len(prefix) :]
    return call_id


def _same_meaning(before, after, via):
    """``after`` (source → via → source, decoded) means ``before`` (source, decoded) minus what
    ``via`` cannot carry. Generated ids may come back with another prefix."""
    expected = _without_envelope_noise(_carried_by(before, via), via)
    got = _without_envelope_noise(_carried_by(after, via), via)
    if via == "mistral":  # ids Mistral would refuse come back derived (RULES.md, "Mistral")
        for part in expected["content"]:
            if part["type"] == "tool_call":
                part["id"] = encode_call_id(part["id"], BY_NAME["mistral"].rules, {})
    for a, b in zip(_ids(expected), _ids(got), strict=True):
        assert a == b or _strip_prefix(a) == _strip_prefix(b)
    for part in expected["content"] + got["content"]:
        if part["type"] == "tool_call":
            part["id"] = _strip_prefix(part["id"])
    assert got == expected


# ---- tests ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("target", DIALECTS)
@pytest.mark.parametrize("source, body", VALID)
def test_capture_translates_to_every_dialect(source, body, target):
    before = copy.deepcopy(body)
    out = run("response", body, source, target)
    assert body == before, "the input was modified"
    CHECKS[target](out)
    json.dumps(out)


@pytest.mark.parametrize("via", DIALECTS)
@pytest.mark.parametrize("source, body", VALID)
def test_capture_round_trips(source, body, via):
    there = run("response", body, source, via)
    back = run("response", there, via, source)
    CHECKS[source](back)
    _same_meaning(run("response", body, source, "canonical"), run("response", back, source, "canonical"), via)


@pytest.mark.parametrize("source, body", VALID)
def test_capture_same_dialect_keeps_meaning(source, body):
    once = run("response", body, source, source)
    _same_meaning(
        run("response", body, source, "canonical"), run("response", once, source, "canonical"), source
    )


@pytest.mark.parametrize("target", DIALECTS)
@pytest.mark.parametrize("source, body", ERRORS)
def test_error_bodies_are_not_responses(source, body, target):
    from ref_helpers import refusal

    code, _ = refusal("response", body, source, target)
    assert code == "response.invalid"


def test_captured_tool_calls_survive_every_pair():
    """Names, arguments and ids of every captured call reach every target (ids.prefix=keep)."""
    for param in VALID:
        source, body = param.values
        calls = [p for p in run("response", body, source, "canonical")["content"] if p["type"] == "tool_call"]
        for target in DIALECTS:
            out = run("response", run("response", body, source, target), target, "canonical")
            got = [p for p in out["content"] if p["type"] == "tool_call"]
            assert [(c["name"], c["arguments"]) for c in got] == [(c["name"], c["arguments"]) for c in calls]
            if target != "gemini" or source != "gemini":
                assert len({c["id"] for c in got}) == len(got)
