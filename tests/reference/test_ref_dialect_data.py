"""What the reference knows of each dialect sits in the dialect's package (issue 15): its HTTP API
(``rules.HttpApi``, which ``toolwire serve`` reads), whether its provider signs reasoning, the prefixes of
its ids. These tests tie that data to the descriptors and keep the shared modules from naming dialects."""

from __future__ import annotations

import ast
import json
import pathlib

import jsonschema
import pytest
import toolwire_reference
from toolwire_reference import calls, roster, serve, signatures
from toolwire_reference.registry import DIALECTS, NAMES

CORPUS = pathlib.Path(__file__).resolve().parents[2] / "corpus"
ROOT = pathlib.Path(toolwire_reference.__file__).parent
SERVED = [d.name for d in DIALECTS if d.rules.http is not None]
#: a dialect name shared code may compare with: the hub every translation goes through
HUB = "canonical"


def _descriptor(name: str) -> dict:
    return json.loads((CORPUS / "dialects" / f"{name}.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("dialect", SERVED)
@pytest.mark.parametrize("status", [400, 401, 404, 418, 429, 500, 503, 529])
@pytest.mark.parametrize("code", [None, "request.unsupported_field"])
def test_error_bodies_are_the_descriptors_shape(dialect: str, status: int, code: str | None) -> None:
    """``serve.error_body`` (the dialect's ``ErrorShape``) is valid for its descriptor's
    ``http_errors.body``, and says the status where the descriptor reads it."""
    errors = _descriptor(dialect)["http_errors"]
    body = serve.error_body(dialect, status, "no", code=code, path="/tools/0" if code else None)
    jsonschema.validate(body, errors["body"])
    if "status_at" in errors:
        node = body
        for key in errors["status_at"].strip("/").split("/"):
            node = node[key]
        assert node == status


@pytest.mark.parametrize("dialect", SERVED)
def test_paths_with_the_model_are_routed_by_method(dialect: str) -> None:
    api = DIALECTS[NAMES.index(dialect)].rules.http
    assert api is not None
    if api.model_in_path:
        assert serve.upstream_path(dialect, "m", False) == api.path.replace("{model}", "m")
        assert serve.upstream_path(dialect, "m", True).startswith(api.path.partition("{model}")[0] + "m")
    else:
        assert serve.upstream_path(dialect, "m", True) == api.path


@pytest.mark.parametrize("dialect", SERVED)
def test_the_http_api_is_the_descriptors_http_client(dialect: str) -> None:
    """``rules.HttpApi`` says what the descriptor's ``request.endpoint`` and ``http_client`` say (the harness
    reads those): the path, the key's header and prefix, the headers a request must send, the stream's
    path; a served dialect is a provider dialect of the corpus, and the other way round."""
    api = DIALECTS[NAMES.index(dialect)].rules.http
    desc = _descriptor(dialect)
    client = desc["http_client"]
    assert desc["request"]["endpoint"].split()[1] == api.path
    assert (api.key_header, api.key_prefix) == (client["key_header"], client.get("key_prefix", ""))
    for header, value in (client.get("headers") or {}).items():
        assert api.headers.get(header) == value, header
    stream = client["stream"]
    if "method" in stream:
        query = "&".join(f"{k}={v}" for k, v in stream["query"].items())
        assert api.stream_path == api.path.rpartition(":")[0] + stream["method"] + f"?{query}"
    else:
        assert api.stream_path is None and stream["member"] == "stream"


def test_every_provider_dialect_is_served() -> None:
    providers = sorted(
        p.stem for p in (CORPUS / "dialects").glob("*.json") if "http_client" in _descriptor(p.stem)
    )
    assert sorted(SERVED) == providers


def test_the_roster_holds_the_registry_rules() -> None:
    assert roster.issuers() == tuple(d.name for d in DIALECTS if d.rules.issues_signatures)
    prefixes = {d.rules.call_id_prefix for d in DIALECTS if d.rules.call_id_prefix}
    assert prefixes <= set(roster.id_prefixes())
    for prefix in roster.id_prefixes():
        assert calls.strip_known_prefix(prefix + "abc") == "abc"
    assert signatures.origin_problem({"origin": "text", "signature": "s"})
    assert signatures.origin_problem({"origin": roster.issuers()[0], "signature": "s"}) is None


def _shared_modules() -> list[pathlib.Path]:
    """The reference's modules outside the dialects' own packages (``dialects/<name>/``)."""
    packages = {path.parent for path in ROOT.glob("dialects/*/__init__.py")}
    return [path for path in sorted(ROOT.rglob("*.py")) if path.parent not in packages]


def test_shared_modules_compare_with_no_dialect_name() -> None:
    """A shared module asks a dialect's rules, never compares a name with a dialect's (``== "gemini"``,
    ``in ("anthropic", …)``) nor lists dialects: a new dialect then needs no edit outside its package."""
    names = set(NAMES) - {HUB}
    found = []
    for path in _shared_modules():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Tuple | ast.List | ast.Set):
                listed = [e.value for e in node.elts if isinstance(e, ast.Constant) and e.value in names]
                if len(listed) > 1:
                    found.append(f"{path.relative_to(ROOT)}:{node.lineno}: {listed}")
            if not isinstance(node, ast.Compare):
                continue
            for operand in (node.left, *node.comparators):
                values = operand.elts if isinstance(operand, ast.Tuple | ast.List | ast.Set) else [operand]
                for value in values:
                    if isinstance(value, ast.Constant) and value.value in names:
                        found.append(f"{path.relative_to(ROOT)}:{node.lineno}: {value.value}")
    assert found == []


def test_the_patterns_the_reference_reads_media_with_are_the_schemas() -> None:
    """The reference holds copies of the schemas' patterns (it reads no harness data): media types and
    base64 data (the canonical request), Gemini's signatures (its wire schema). A change to one side
    must reach the other."""
    from toolwire_reference import messages
    from toolwire_reference.dialects.gemini import rules as gemini_rules

    schemas = CORPUS.parent / "schemas"
    canonical = (schemas / "canonical" / "request.schema.json").read_text(encoding="utf-8")
    gemini = json.loads((schemas / "wire" / "gemini" / "request.schema.json").read_text(encoding="utf-8"))
    assert json.dumps(f"^{messages._MEDIA_TYPE}$") in canonical
    # the schema's `*` with `minLength: 1` is the reference's `+`
    assert json.dumps("^" + messages._BASE64.pattern.removesuffix("+") + "*$") in canonical
    assert gemini["$defs"]["signature"]["pattern"] == f"^{gemini_rules.SIGNATURE_PATTERN}$"
