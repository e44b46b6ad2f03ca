"""The benchmarked operations: payloads drawn from the corpus, one (kind, source, target) each.

A representative set, chosen so every peer shares some of it: the Claude-Code-style request (Anthropic →
Chat, and the same conversation as Chat → Anthropic / Gemini), recorded parallel tool-call responses from
OpenAI, Anthropic and Gemini, ikigai's ``file_edit`` tool, named tool choices, and recorded tool-call
streams. Each operation runs for the reference and for every peer that declares its (kind, source, target).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from toolwire.corpus import Case, load_corpus

__all__ = ["Operation", "operations"]

CLAUDE_CODE = "results/claude-code-parallel-calls-and-error-result-to-openai-chat"
IKIGAI = "tools/ikigai-file-edit-translation-summary"


@dataclass(frozen=True)
class Operation:
    kind: str
    source: str
    target: str
    payload: Any
    #: where the payload comes from (a case id, and how it was taken from the case)
    origin: str

    @property
    def name(self) -> str:
        return f"{self.kind} {self.source}→{self.target}"

    @property
    def key(self) -> tuple[str, str, str]:
        return (self.kind, self.source, self.target)


def _expected(case: Case, dialect: str) -> Any:
    """The case's expected ``dialect`` payload (used only where it holds no matcher)."""
    for exp in case.expect:
        if exp.get("dialect") == dialect and "payload" in exp:
            return exp["payload"]
    raise LookupError(f"{case.id}: no expected {dialect} payload")


def operations(corpus: Any = None) -> list[Operation]:
    """The operations, in table order."""
    from toolwire_reference import translate

    corpus = corpus or load_corpus()
    cases = corpus.cases if isinstance(corpus.cases, dict) else {c.id: c for c in corpus.cases}

    def src(case_id: str) -> Any:
        return cases[case_id].source_payload

    claude = src(CLAUDE_CODE)
    # the same conversation as a Chat request: the reference's translation of the case (which passes the
    # case's check); the case's own expected Chat payload holds `$json` matchers, so it is not a request body
    claude_chat = translate("request", claude, source="anthropic", target="openai-chat")
    ikigai = cases[IKIGAI]
    ikigai_chat, ikigai_anthropic = _expected(ikigai, "openai-chat"), _expected(ikigai, "anthropic")
    via_ref = f"{CLAUDE_CODE} (source, as Chat by the reference)"
    return [
        Operation("request", "anthropic", "openai-chat", claude, CLAUDE_CODE),
        Operation("request", "openai-chat", "anthropic", claude_chat, via_ref),
        Operation("request", "openai-chat", "gemini", claude_chat, via_ref),
        Operation(
            "response",
            "openai-chat",
            "anthropic",
            src("calls/response-openai-chat-parallel-calls-capture"),
            "calls/response-openai-chat-parallel-calls-capture",
        ),
        Operation(
            "response",
            "anthropic",
            "openai-chat",
            src("calls/response-anthropic-parallel-with-text-capture"),
            "calls/response-anthropic-parallel-with-text-capture",
        ),
        Operation(
            "response",
            "gemini",
            "openai-chat",
            src("calls/response-gemini-text-and-parallel-calls"),
            "calls/response-gemini-text-and-parallel-calls",
        ),
        Operation("tools", "openai-chat", "anthropic", ikigai_chat, f"{IKIGAI} (expected openai-chat)"),
        Operation("tools", "openai-chat", "gemini", ikigai_chat, f"{IKIGAI} (expected openai-chat)"),
        Operation("tools", "anthropic", "openai-chat", ikigai_anthropic, f"{IKIGAI} (expected anthropic)"),
        Operation(
            "tool_choice",
            "openai-chat",
            "anthropic",
            src("choice/openai-chat-named"),
            "choice/openai-chat-named",
        ),
        Operation(
            "tool_choice", "anthropic", "openai-chat", src("choice/anthropic-tool"), "choice/anthropic-tool"
        ),
        Operation(
            "stream",
            "anthropic",
            "openai-chat",
            src("streams/anthropic-tool-use-capture"),
            "streams/anthropic-tool-use-capture",
        ),
        Operation(
            "stream",
            "openai-chat",
            "anthropic",
            src("streams/openai-chat-parallel-calls-capture"),
            "streams/openai-chat-parallel-calls-capture",
        ),
        Operation(
            "stream",
            "gemini",
            "openai-chat",
            src("streams/gemini-function-call-thought-signature-capture"),
            "streams/gemini-function-call-thought-signature-capture",
        ),
    ]
