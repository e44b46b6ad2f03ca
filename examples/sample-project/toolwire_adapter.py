"""The adapter toolwire drives: what sample-gateway translates, and how (toolwire.protocol.Translator).
Written by `toolwire init`, then filled in."""

from sample_gateway import ToolError, openai_tool_choice_to_anthropic, openai_tools_to_anthropic


class Refusal(Exception):
    """Raise it when the input cannot be translated: toolwire judges it as a refusal."""

    def __init__(self, code: str, message: str, path: str = "") -> None:
        super().__init__(message)
        self.code, self.message, self.path = code, message, path


class Translator:
    def capabilities(self) -> dict:
        return {
            "name": "sample-gateway",
            "version": "0.1.0",
            "language": "python",
            "kinds": {"tools": [["openai-chat", "anthropic"]], "tool_choice": [["openai-chat", "anthropic"]]},
            "profiles": {},
            "error_codes": "own",
        }

    def translate(self, kind: str, source: str, target: str, payload, profile: dict):
        try:
            if kind == "tool_choice":
                return openai_tool_choice_to_anthropic(payload)
            return openai_tools_to_anthropic(payload)
        except ToolError as exc:
            raise Refusal("invalid_tools", str(exc), exc.path) from exc

    def translate_stream(self, source: str, target: str, events: list, profile: dict) -> list:
        raise NotImplementedError("sample-gateway translates tool definitions only")
