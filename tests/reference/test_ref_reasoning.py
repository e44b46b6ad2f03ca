"""The reasoning setting (corpus/RULES.md "Reasoning settings"): levels and budgets, the places Anthropic
cannot think, and bad values."""

from __future__ import annotations

import pytest
from toolwire_reference import TranslationError, translate
from toolwire_reference.reasoning import budget_of, effort_of


@pytest.mark.parametrize(
    ("effort", "budget"), [("none", 0), ("minimal", 1024), ("low", 1024), ("medium", 8192), ("high", 24576)]
)
def test_a_level_is_googles_documented_budget(effort: str, budget: int) -> None:
    assert budget_of({"effort": effort}) == budget


@pytest.mark.parametrize(
    ("budget", "effort"),
    [
        (0, "none"),
        (1, "low"),
        (1024, "low"),
        (1025, "medium"),
        (8192, "medium"),
        (9000, "high"),
        (100_000, "high"),
    ],
)
def test_a_budget_is_the_smallest_level_that_covers_it(budget: int, effort: str) -> None:
    assert effort_of({"budget_tokens": budget}) == effort
    assert budget_of({"budget_tokens": budget}) == budget  # a named budget is kept as it is


def _chat(**extra: object) -> dict:
    base = {"model": "m", "messages": [{"role": "user", "content": "hi"}], "reasoning_effort": "high"}
    return {**base, **extra}


def test_the_anthropic_budget_stays_below_max_tokens() -> None:
    out = translate("request", _chat(max_completion_tokens=5000), source="openai-chat", target="anthropic")
    assert out["thinking"] == {"type": "enabled", "budget_tokens": 4999}
    out = translate("request", _chat(max_completion_tokens=64000), source="openai-chat", target="anthropic")
    assert out["thinking"] == {"type": "enabled", "budget_tokens": 24576}


@pytest.mark.parametrize(
    ("extra", "why"),
    [
        ({"max_completion_tokens": 1024}, "max_tokens 1024"),
        (
            {"tool_choice": "required", "tools": [{"type": "function", "function": {"name": "f"}}]},
            "forces a tool",
        ),
    ],
)
def test_where_anthropic_cannot_think_it_is_refused_or_dropped(extra: dict, why: str) -> None:
    with pytest.raises(TranslationError) as caught:
        translate("request", _chat(**extra), source="openai-chat", target="anthropic")
    assert caught.value.code == "request.unsupported_field" and caught.value.path == "/reasoning_effort"
    assert why in str(caught.value)
    out = translate(
        "request",
        _chat(**extra),
        source="openai-chat",
        target="anthropic",
        profile={"unsupported": "degrade"},
    )
    assert "thinking" not in out


@pytest.mark.parametrize(
    ("source", "payload", "path"),
    [
        ("openai-chat", _chat(reasoning_effort="extreme"), "/reasoning_effort"),
        (
            "anthropic",
            {
                "model": "m",
                "max_tokens": 9000,
                "messages": [{"role": "user", "content": "hi"}],
                "thinking": {"type": "enabled", "budget_tokens": 100},
            },
            "/thinking/budget_tokens",
        ),
        (
            "openai-responses",
            {"model": "m", "input": "hi", "reasoning": {"effort": "low", "depth": 2}},
            "/reasoning/depth",
        ),
        (
            "gemini",
            {
                "contents": [{"parts": [{"text": "hi"}]}],
                "generationConfig": {"thinkingConfig": {"includeThoughts": "yes"}},
            },
            "/generationConfig/thinkingConfig/includeThoughts",
        ),
    ],
)
def test_bad_reasoning_values_are_payload_invalid(source: str, payload: dict, path: str) -> None:
    with pytest.raises(TranslationError) as caught:
        translate("request", payload, source=source, target="canonical")
    assert (caught.value.code, caught.value.path) == ("payload.invalid", path)


def test_an_assistant_turn_with_nothing_in_it_is_left_out_toward_gemini() -> None:
    # found by `make fuzz`: Gemini refuses a content without parts
    turns = [
        {"role": "user", "content": "a"},
        {"role": "assistant", "content": None},
        {"role": "user", "content": "b"},
    ]
    payload = {"model": "m", "messages": turns}
    out = translate("request", payload, source="openai-chat", target="gemini")
    assert [c["parts"] for c in out["contents"]] == [[{"text": "a"}], [{"text": "b"}]]
