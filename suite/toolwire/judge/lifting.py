"""`tools` and `tool_choice` checks for implementations that translate whole requests only (INTERPRETING.md,
"Kinds lifted into requests").

A proxy or a whole-request library never sees a bare tool list. When an implementation declares ``request``
for a pair but not the check's own kind, the check's source is wrapped in the smallest request of the source
dialect (its descriptor's ``lift.request``), that request is translated, and the part of the output request
that carries the tools (``lift.tools_member``) or the tool choice (``lift.choice_members``) is judged as the
check's kind would be. A refusal of the request is a refusal; its path is read relative to that part.
"""

from __future__ import annotations

from typing import Any

from ..adapters import Answer
from ..corpus import Check
from ..corpus.projection import merge, project_tools, substitute
from ..tool_names import custom_names, referenced_names

__all__ = [
    "LIFTABLE",
    "custom_names",
    "lift_request",
    "lower_answer",
    "referenced_names",
    "refused_at_added_tools",
]

#: the kinds a request carries whole
LIFTABLE = frozenset({"tools", "tool_choice"})

#: the tool a lifted tool choice offers when it names none
_DEFAULT_TOOL = {
    "name": "get_weather",
    "description": "Get the current weather for a city",
    "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
}


def _lift(check: Check, dialect: str) -> dict[str, Any]:
    lift = (check.dialects.get(dialect) or {}).get("lift")
    if not isinstance(lift, dict):
        raise ValueError(f"the {dialect} descriptor has no `lift`: {check.kind} checks cannot be lifted")
    return lift


def lift_request(check: Check) -> dict[str, Any]:
    """The smallest request of the check's source dialect that carries its source payload."""
    lift = _lift(check, check.source)
    payload = check.source_payload
    if check.kind == "tools":
        return merge(lift["request"], {lift["tools_member"]: payload})
    names = referenced_names(payload) or [_DEFAULT_TOOL["name"]]
    custom = custom_names(payload) if "custom_tool" in lift else set()
    tools = project_tools([{**_DEFAULT_TOOL, "name": n} for n in names if n not in custom], lift)
    if custom:  # a tool the choice names as custom (free-form) is offered as one
        spelled = [substitute(lift["custom_tool"], {"name": n}) for n in names if n in custom]
        tools = list(tools or []) + spelled
    legacy = lift.get("legacy_tools")
    if isinstance(legacy, dict) and isinstance(payload, dict) and legacy["choice_member"] in payload:
        # a deprecated choice names tools of the deprecated list (Chat's function_call needs functions)
        spelled = [substitute(legacy["tool"], t) for t in ({**_DEFAULT_TOOL, "name": n} for n in names)]
        request = merge(lift["request"], {legacy["tools_member"]: spelled})
    else:
        request = merge(lift["request"], {lift["tools_member"]: tools})
    return merge(request, payload) if isinstance(payload, dict) else {**request, "tool_choice": payload}


def refused_at_added_tools(check: Check, answer: Answer) -> bool:
    """Whether a lifted tool-choice check was refused at the tools the harness added to its request (a
    custom tool the choice names, say, which the target cannot take): a refusal of the same input, but
    at a part the case does not spell, so its code and path are not the case's to compare."""
    if check.kind != "tool_choice" or answer.status != "error":
        return False
    prefix = "/" + _lift(check, check.source)["tools_member"]
    path = (answer.error or {}).get("path")
    return isinstance(path, str) and (path == prefix or path.startswith(prefix + "/"))


def lower_answer(check: Check, answer: Answer) -> Answer:
    """The request translation's answer as the check's kind would have it: the target request's tools or
    tool-choice members, or the refusal with its path relative to them."""
    lift = _lift(check, check.target)
    if answer.status == "error" and check.kind == "tools":
        error = dict(answer.error or {})
        prefix = "/" + lift["tools_member"]
        path = error.get("path")
        if isinstance(path, str) and (path == prefix or path.startswith(prefix + "/")):
            error["path"] = path[len(prefix) :]
        return Answer("error", error=error, duration_ms=answer.duration_ms, mutated=answer.mutated)
    if answer.status != "payload":
        return answer
    output = answer.payload
    if not isinstance(output, dict):
        return answer  # not a request at all: judged as the malformed output it is
    if check.kind == "tools":
        lowered = output.get(lift["tools_member"])
    else:
        lowered = {key: output[key] for key in lift["choice_members"] if key in output}
        legacy = lift.get("legacy_tools") or {}
        current = lift["choice_members"][0]
        if "choice" in legacy and legacy["choice_member"] in output and current not in output:
            lowered[current] = _current_choice(legacy, output[legacy["choice_member"]])
    return Answer("payload", payload=lowered, duration_ms=answer.duration_ms, mutated=answer.mutated)


def _current_choice(legacy: dict[str, Any], value: Any) -> Any:
    """The current tool choice a deprecated one (Chat's ``function_call``) stands for, per the descriptor's
    ``legacy_tools.choice``; a value it does not know is judged as it is."""
    forms = legacy["choice"]
    if isinstance(value, str) and value in forms:
        return forms[value]
    if isinstance(value, dict) and isinstance(value.get("name"), str) and "named" in forms:
        return substitute(forms["named"], {"name": value["name"]})
    return value
