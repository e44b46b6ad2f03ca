"""Reading and writing the fields every function-tool shape has (name, description, schema, strict)."""

from __future__ import annotations

from .._json import MISSING, copy_json, expect_list, optional_bool, optional_string
from ..errors import Segments
from ..model import NO_ORIGIN, SchemaOrigin, Tool


def read_function(
    obj: dict,
    path: Segments,
    *,
    params_key: str | None,
    null_strict: bool,
    tool_path: Segments | None = None,
    has_strict: bool = True,
    null_description: bool = False,
) -> Tool:
    """A Tool from the object at ``path`` holding ``name``, ``description``, ``<params_key>``, ``strict``.

    ``tool_path`` is the pointer of the whole tool (default ``path``), where tool-level problems point;
    ``null_strict`` reads ``strict: null`` as absent, ``null_description`` ``description: null``; without
    ``has_strict`` the dialect has no ``strict``.

    The name and the schema are kept raw: the shared validation reports their problems.
    """
    description = obj.get("description", MISSING)
    if type(description) is not str and description is not MISSING:  # (the usual cases without a call)
        description = optional_string(
            obj, "description", path, "`description`", null_is_absent=null_description
        )
    strict = obj.get("strict", MISSING) if has_strict else MISSING
    if type(strict) is not bool and strict is not MISSING:
        strict = optional_bool(obj, "strict", path, "`strict`", null_is_absent=null_strict)
    if params_key is None:
        parameters, origin = MISSING, NO_ORIGIN
    else:
        parameters, origin = obj.get(params_key, MISSING), SchemaOrigin(path + (params_key,))
    return Tool(
        obj.get("name", MISSING),
        path if tool_path is None else tool_path,
        path + ("name",),
        description,
        parameters,
        origin,
        strict,
    )


def tool_list(payload: object) -> list:
    """The payload of kind ``tools``: an array."""
    return expect_list(payload, (), "the tool list")


def head(tool: Tool) -> dict:
    """``{"name", "description"?}`` of a validated tool."""
    out = {"name": tool.name}
    if tool.description is not MISSING:
        out["description"] = tool.description
    return out


def schema_copy(tool: Tool) -> dict:
    """A copy of the tool's parameter schema: the one validation made (``Tool.checked_copy``, taken so
    that no two outputs share it), else a new one."""
    copy = tool.checked_copy
    if copy is MISSING:
        return copy_json(tool.parameters)
    tool.checked_copy = MISSING
    return copy
