"""tool_choice: the table of RULES.md, both directions, errors and degrade."""

import pytest
from ref_helpers import refusal, run

C = "canonical"
AUTO, NONE, REQ = ({"tool_choice": {"mode": m}} for m in ("auto", "none", "required"))
NAMED = {"tool_choice": {"mode": "required", "tools": ["x"]}}
SEVERAL = {"tool_choice": {"mode": "required", "tools": ["x", "y"]}}
AUTO_SOME = {"tool_choice": {"mode": "auto", "tools": ["x", "y"]}}

TABLE = [
    (
        AUTO,
        {"tool_choice": "auto"},
        {"tool_choice": "auto"},
        {"tool_choice": {"type": "auto"}},
        {"toolConfig": {"functionCallingConfig": {"mode": "AUTO"}}},
    ),
    (
        NONE,
        {"tool_choice": "none"},
        {"tool_choice": "none"},
        {"tool_choice": {"type": "none"}},
        {"toolConfig": {"functionCallingConfig": {"mode": "NONE"}}},
    ),
    (
        REQ,
        {"tool_choice": "required"},
        {"tool_choice": "required"},
        {"tool_choice": {"type": "any"}},
        {"toolConfig": {"functionCallingConfig": {"mode": "ANY"}}},
    ),
    (
        NAMED,
        {"tool_choice": {"type": "function", "function": {"name": "x"}}},
        {"tool_choice": {"type": "function", "name": "x"}},
        {"tool_choice": {"type": "tool", "name": "x"}},
        {"toolConfig": {"functionCallingConfig": {"mode": "ANY", "allowedFunctionNames": ["x"]}}},
    ),
]


@pytest.mark.parametrize("canonical, chat, responses, anthropic, gemini", TABLE)
def test_table(canonical, chat, responses, anthropic, gemini):
    for dialect, wire in (
        ("openai-chat", chat),
        ("openai-responses", responses),
        ("anthropic", anthropic),
        ("gemini", gemini),
    ):
        assert run("tool_choice", canonical, C, dialect) == wire
        assert run("tool_choice", wire, dialect, C) == canonical


def test_several_tools():
    assert run("tool_choice", SEVERAL, C, "openai-chat") == {
        "tool_choice": {
            "type": "allowed_tools",
            "allowed_tools": {
                "mode": "required",
                "tools": [
                    {"type": "function", "function": {"name": "x"}},
                    {"type": "function", "function": {"name": "y"}},
                ],
            },
        }
    }
    assert run("tool_choice", SEVERAL, C, "openai-responses") == {
        "tool_choice": {
            "type": "allowed_tools",
            "mode": "required",
            "tools": [{"type": "function", "name": "x"}, {"type": "function", "name": "y"}],
        }
    }
    assert run("tool_choice", SEVERAL, C, "gemini") == {
        "toolConfig": {"functionCallingConfig": {"mode": "ANY", "allowedFunctionNames": ["x", "y"]}}
    }
    assert refusal("tool_choice", SEVERAL, C, "anthropic") == ("choice.unsupported", "/tool_choice")
    assert run("tool_choice", SEVERAL, C, "anthropic", unsupported="degrade") == {
        "tool_choice": {"type": "any"}
    }


def test_restricted_auto():
    out = run("tool_choice", AUTO_SOME, C, "openai-chat")
    assert out["tool_choice"]["allowed_tools"]["mode"] == "auto"
    assert run("tool_choice", out, "openai-chat", C) == AUTO_SOME
    out = run("tool_choice", AUTO_SOME, C, "openai-responses")
    assert (
        out["tool_choice"]["mode"] == "auto" and run("tool_choice", out, "openai-responses", C) == AUTO_SOME
    )
    assert refusal("tool_choice", AUTO_SOME, C, "anthropic") == ("choice.unsupported", "/tool_choice")
    assert run("tool_choice", AUTO_SOME, C, "anthropic", unsupported="degrade") == {
        "tool_choice": {"type": "auto"}
    }
    assert refusal("tool_choice", AUTO_SOME, C, "gemini") == ("choice.unsupported", "/tool_choice")
    assert run("tool_choice", AUTO_SOME, C, "gemini", unsupported="degrade") == {
        "toolConfig": {"functionCallingConfig": {"mode": "AUTO"}}
    }


def test_allowed_tools_with_one_required_tool_is_the_named_form():
    wire = {
        "tool_choice": {
            "type": "allowed_tools",
            "allowed_tools": {"mode": "required", "tools": [{"type": "function", "function": {"name": "x"}}]},
        }
    }
    assert run("tool_choice", wire, "openai-chat", C) == NAMED
    assert run("tool_choice", wire, "openai-chat", "openai-chat") == {
        "tool_choice": {"type": "function", "function": {"name": "x"}}
    }


def test_parallel():
    off = {"parallel_tool_calls": False}
    assert run("tool_choice", off, C, "openai-chat") == off
    assert run("tool_choice", off, C, "openai-responses") == off
    assert run("tool_choice", off, C, "anthropic") == {
        "tool_choice": {"type": "auto", "disable_parallel_tool_use": True}
    }
    assert run("tool_choice", {**NAMED, **off}, C, "anthropic") == {
        "tool_choice": {"type": "tool", "name": "x", "disable_parallel_tool_use": True}
    }
    assert run("tool_choice", {**NONE, **off}, C, "anthropic") == {"tool_choice": {"type": "none"}}
    assert refusal("tool_choice", {**REQ, **off}, C, "gemini") == (
        "choice.parallel_unsupported",
        "/parallel_tool_calls",
    )
    assert run("tool_choice", {**REQ, **off}, C, "gemini", unsupported="degrade") == {
        "toolConfig": {"functionCallingConfig": {"mode": "ANY"}}
    }
    on = {"parallel_tool_calls": True}
    assert run("tool_choice", on, C, "openai-chat") == on
    assert run("tool_choice", on, C, "anthropic") == {}
    assert run("tool_choice", on, C, "gemini") == {}


def test_anthropic_parallel_decode_and_error_path():
    wire = {"tool_choice": {"type": "any", "disable_parallel_tool_use": True}}
    assert run("tool_choice", wire, "anthropic", C) == {**REQ, "parallel_tool_calls": False}
    assert refusal("tool_choice", wire, "anthropic", "gemini") == (
        "choice.parallel_unsupported",
        "/tool_choice/disable_parallel_tool_use",
    )
    wire = {"tool_choice": {"type": "auto", "disable_parallel_tool_use": False}}
    assert run("tool_choice", wire, "anthropic", C) == {**AUTO, "parallel_tool_calls": True}


def test_gemini_decode_specials():
    assert (
        run(
            "tool_choice",
            {"toolConfig": {"functionCallingConfig": {"mode": "MODE_UNSPECIFIED"}}},
            "gemini",
            C,
        )
        == {}
    )
    assert run("tool_choice", {"toolConfig": {"functionCallingConfig": {}}}, "gemini", C) == {}
    assert run("tool_choice", {"toolConfig": {}}, "gemini", C) == {}
    snake = {"tool_config": {"function_calling_config": {"mode": "ANY", "allowed_function_names": ["x"]}}}
    assert run("tool_choice", snake, "gemini", C) == NAMED
    validated = {"toolConfig": {"functionCallingConfig": {"mode": "VALIDATED"}}}
    assert refusal("tool_choice", validated, "gemini", C) == (
        "choice.unsupported",
        "/toolConfig/functionCallingConfig/mode",
    )
    assert run("tool_choice", validated, "gemini", C, unsupported="degrade") == AUTO
    bad = {"toolConfig": {"functionCallingConfig": {"mode": "SOMETIMES"}}}
    assert refusal("tool_choice", bad, "gemini", C) == (
        "choice.invalid",
        "/toolConfig/functionCallingConfig/mode",
    )


def test_openai_unsupported_source_choices():
    custom = {"tool_choice": {"type": "custom", "custom": {"name": "g"}}}
    assert refusal("tool_choice", custom, "openai-chat", "anthropic") == (
        "choice.unsupported",
        "/tool_choice",
    )
    assert run("tool_choice", custom, "openai-chat", "anthropic", unsupported="degrade") == {
        "tool_choice": {"type": "auto"}
    }
    for hosted in (
        {"type": "web_search_preview"},
        {"type": "file_search"},
        {"type": "mcp", "server_label": "s"},
    ):
        assert refusal("tool_choice", {"tool_choice": hosted}, "openai-responses", C) == (
            "choice.unsupported",
            "/tool_choice",
        )


def test_legacy_function_call():
    assert run("tool_choice", {"function_call": "none"}, "openai-chat", C) == NONE
    assert run("tool_choice", {"function_call": "auto"}, "openai-chat", C) == AUTO
    assert run("tool_choice", {"function_call": {"name": "x"}}, "openai-chat", "anthropic") == {
        "tool_choice": {"type": "tool", "name": "x"}
    }
    both = {"function_call": "auto", "tool_choice": "auto"}
    assert refusal("tool_choice", both, "openai-chat", C) == ("choice.invalid", "/function_call")
    assert refusal("tool_choice", {"function_call": "required"}, "openai-chat", C) == (
        "choice.invalid",
        "/function_call",
    )


@pytest.mark.parametrize(
    "source, payload, path",
    [
        ("openai-chat", {"tool_choice": "any"}, "/tool_choice"),
        ("openai-chat", {"tool_choice": 3}, "/tool_choice"),
        ("openai-chat", {"tool_choice": {"type": "function", "function": {}}}, "/tool_choice"),
        ("openai-chat", {"tool_choice": "auto", "parallel_tool_calls": "no"}, "/parallel_tool_calls"),
        ("openai-responses", {"tool_choice": {"type": "function"}}, "/tool_choice"),
        (
            "openai-responses",
            {"tool_choice": {"type": "allowed_tools", "mode": "none", "tools": []}},
            "/tool_choice",
        ),
        ("anthropic", {"tool_choice": {"type": "required"}}, "/tool_choice"),
        ("anthropic", {"tool_choice": {"type": "tool"}}, "/tool_choice"),
        ("anthropic", {"tool_choice": "auto"}, "/tool_choice"),
        (
            "anthropic",
            {"tool_choice": {"type": "auto", "disable_parallel_tool_use": 1}},
            "/tool_choice/disable_parallel_tool_use",
        ),
        (
            "gemini",
            {"toolConfig": {"functionCallingConfig": {"mode": "AUTO", "allowedFunctionNames": ["x"]}}},
            "/toolConfig/functionCallingConfig/allowedFunctionNames",
        ),
        ("canonical", {"tool_choice": {"mode": "sometimes"}}, "/tool_choice/mode"),
        ("canonical", {"tool_choice": {"mode": "none", "tools": ["x"]}}, "/tool_choice/tools"),
        ("canonical", {"tool_choice": {"mode": "required", "tools": []}}, "/tool_choice/tools"),
        ("canonical", {"tool_choice": "auto"}, "/tool_choice"),
        ("canonical", {"parallel_tool_calls": None}, "/parallel_tool_calls"),
    ],
)
def test_invalid_choices(source, payload, path):
    assert refusal("tool_choice", payload, source, "openai-chat") == ("choice.invalid", path)


def test_payload_shape():
    for dialect in ("canonical", "openai-chat", "openai-responses", "anthropic", "gemini", "mistral"):
        assert refusal("tool_choice", [], dialect, C) == ("payload.invalid", "")
    assert refusal("tool_choice", {"tool_choice": {"mode": "auto"}, "x": 1}, C, C) == (
        "payload.invalid",
        "/x",
    )
