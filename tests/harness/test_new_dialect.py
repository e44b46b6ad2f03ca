"""``toolwire new-dialect``: the scaffold, written into a temporary copy of the checkout, lints cleanly, its
skeletons import and refuse until they are written, and every refusal (bad name, existing dialect, a target
it cannot write) writes nothing."""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from toolwire import cli, new_dialect
from toolwire.new_dialect import main as new_dialect_main

TOP = Path(__file__).resolve().parents[2]
NAME, PACKAGE = "acme-chat", "acme_chat"


def readme_section() -> str:
    """README.md's "Adding a provider" section."""
    text = (TOP / "README.md").read_text(encoding="utf-8")
    found = re.search(r"^## Adding a provider\n(.*?)^## ", text, re.S | re.M)
    assert found, "README.md has no 'Adding a provider' section"
    return found.group(1)


def readme_command() -> list[str]:
    """The command the section shows (the tests below run it)."""
    found = re.search(r"```sh\n(toolwire new-dialect .*)\n```", readme_section())
    assert found, "README.md's 'Adding a provider' shows no `toolwire new-dialect` command"
    return shlex.split(found.group(1))


COMMAND = readme_command()
DOCS = COMMAND[COMMAND.index("--docs") + 1]
#: what a run in a checkout writes, from the top of the checkout
WRITTEN = sorted(
    [
        f"corpus/dialects/{NAME}.json",
        f"corpus/cases/tools/{NAME}-example-from-canonical.json",
        f"corpus/cases/responses/{NAME}-example-to-canonical.json",
        *(f"schemas/wire/{NAME}/{kind}.schema.json" for kind in new_dialect.WIRE_FILES),
        *(
            f"reference_impl/toolwire_reference/dialects/{PACKAGE}/{module}.py"
            for module in ("__init__", "rules", "tools", "request", "response", "stream")
        ),
        *(
            f"suite/toolwire/streams/{PACKAGE}/{module}.py"
            for module in ("__init__", "grammar", "accumulate", "rechunk")
        ),
    ]
)


def copy_checkout(dest: Path) -> Path:
    """The parts of the checkout the scaffold writes to and lint reads, copied to ``dest``."""
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    for part in ("corpus", "schemas", "suite/toolwire", "reference_impl/toolwire_reference"):
        shutil.copytree(TOP / part, dest / part, ignore=ignore)
    shutil.copy(TOP / "pyproject.toml", dest / "pyproject.toml")
    return dest


def files(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in root.rglob("*") if p.is_file()}


def python(repo: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """This Python with the copy's harness and reference first on the path (their schemas and corpus)."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(repo / "reference_impl"), str(repo / "suite")])}
    return subprocess.run(
        [sys.executable, *args], cwd=repo, env=env, capture_output=True, text=True, timeout=300
    )


@pytest.fixture(scope="module")
def scaffolded(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """A copy of the checkout with ``acme-chat`` scaffolded in it, and what the command printed."""
    repo = copy_checkout(tmp_path_factory.mktemp("scaffolded"))
    before = files(repo)
    assert COMMAND[:3] == ["toolwire", "new-dialect", NAME]
    result = python(repo, "-m", "toolwire.cli", *COMMAND[1:], "--repo", str(repo))
    assert result.returncode == 0, result.stderr
    after = files(repo)
    assert sorted(set(after) - set(before)) == WRITTEN
    changed = sorted(k for k in before if before[k] != after[k])
    assert changed == ["schemas/common.schema.json"]  # the one existing file it edits: the dialect names
    return repo, result.stdout


@pytest.fixture(scope="module")
def pristine(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the checkout the refusals run against (they must leave it as it is)."""
    return copy_checkout(tmp_path_factory.mktemp("pristine"))


def test_the_scaffold_lints_cleanly(scaffolded: tuple[Path, str]) -> None:
    repo, _ = scaffolded
    cases = sum(1 for _ in (TOP / "corpus" / "cases").rglob("*.json"))
    result = python(repo, "-m", "toolwire.cli", "lint", str(repo / "corpus"))
    assert result.returncode == 0, result.stdout + result.stderr
    assert f"{cases + 2} cases, no problems" in result.stdout  # the two examples were linted too

    def names(top: Path) -> list[str]:
        return json.loads((top / "schemas" / "common.schema.json").read_text())["$defs"]["dialectName"][
            "enum"
        ]

    assert names(repo) == [*names(TOP), NAME]


def test_lint_sees_the_new_dialect(scaffolded: tuple[Path, str], tmp_path: Path) -> None:
    """The clean lint above is not lint skipping the new files: without its name in dialectName, the
    descriptor and both cases are invalid."""
    repo, _ = scaffolded
    broken = tmp_path / "repo"
    shutil.copytree(repo, broken, ignore=shutil.ignore_patterns("__pycache__"))
    common = broken / "schemas" / "common.schema.json"
    common.write_text(common.read_text().replace(f', "{NAME}"', ""))
    result = python(broken, "-m", "toolwire.cli", "lint", str(broken / "corpus"))
    assert result.returncode == 1
    assert f"dialects/{NAME}.json:/name: not valid for dialect.schema.json" in result.stdout
    assert f"cases/responses/{NAME}-example-to-canonical.json:/source/dialect" in result.stdout


def test_the_descriptor_and_cases_say_what_to_fill_in(scaffolded: tuple[Path, str]) -> None:
    repo, _ = scaffolded
    descriptor = json.loads((repo / "corpus" / "dialects" / f"{NAME}.json").read_text())
    assert descriptor["name"] == NAME and descriptor["docs"] == [DOCS]
    assert "TODO" in descriptor["description"] and "TODO" in descriptor["notes"][0]
    for case in (repo / "corpus" / "cases").rglob(f"{NAME}-example-*.json"):
        data = json.loads(case.read_text())
        assert data["title"].startswith("TODO") and data["notes"].startswith("TODO"), case
        assert data["refs"] == [DOCS]
    text = (repo / "corpus" / "dialects" / f"{NAME}.json").read_text()
    assert text == json.dumps(descriptor, indent=2, ensure_ascii=False) + "\n"


def test_the_skeletons_import_and_refuse_until_written(scaffolded: tuple[Path, str]) -> None:
    repo, _ = scaffolded
    script = f"""
import json
from toolwire_reference.dialects.{PACKAGE} import DIALECT
from toolwire.streams.{PACKAGE} import ACCUMULATOR, GRAMMAR, RECHUNKER
from toolwire.streams.rechunk import rechunk_with
from toolwire.streams.grammar import GrammarViolation
from toolwire.streams.payload import StreamError

WHERE = "reference_impl/toolwire_reference/dialects/{PACKAGE}/"
desc = json.load(open("corpus/dialects/{NAME}.json"))
assert DIALECT.name == "{NAME}"
assert DIALECT.rules.tool_name_pattern == desc["tool_name"]["pattern"]
assert DIALECT.rules.call_id_prefix == desc["call_id_prefix"]
assert DIALECT.rules.http is None and DIALECT.rules.endpoint is None  # not served until it says how
assert DIALECT.rules.issues_signatures is False and DIALECT.rules.other_id_prefixes == ()
calls = [
    (DIALECT.tools.decode_tools, ([], {{}})), (DIALECT.tools.encode_tools, ([], {{}})),
    (DIALECT.tools.copies_schemas, ({{}},)),
    (DIALECT.tools.decode_tool_choice, ({{}}, {{}})), (DIALECT.tools.encode_tool_choice, (None, {{}})),
    (DIALECT.request.decode_request, ({{}}, {{}})), (DIALECT.request.encode_request, (None, {{}})),
    (DIALECT.response.decode_response, ({{}}, {{}})), (DIALECT.response.encode_response, ({{}}, {{}})),
    (DIALECT.response.encode_text, ([], {{}})),
    (DIALECT.stream_decoder({{}}).feed, ({{"data": {{}}}},)),
    (DIALECT.stream_encoder({{}}).feed, ({{"type": "message_start"}},)),
]
for function, args in calls:
    try:
        function(*args)
    except NotImplementedError as exc:
        assert "not written yet: write it in " + WHERE in str(exc)
        print("refused", str(exc).split(" ")[0])
    else:
        raise AssertionError(f"{{function}} returned")
try:
    GRAMMAR().event(0, {{"data": {{}}}})
except GrammarViolation as exc:
    assert exc.violation.rule == "{NAME}.not-written", exc.violation
    print("grammar", exc.violation)
try:
    ACCUMULATOR().feed({{"data": {{}}}})
except StreamError as exc:
    assert "suite/toolwire/streams/{PACKAGE}/accumulate.py" in str(exc), exc
    print("accumulator", exc)
try:
    rechunk_with([{{"data": {{}}}}], RECHUNKER, "chars")
except NotImplementedError as exc:
    assert "suite/toolwire/streams/{PACKAGE}/rechunk.py" in str(exc), exc
    print("rechunker", exc)
"""
    result = python(repo, "-c", script)
    assert result.returncode == 0, result.stderr
    assert result.stdout.count("refused") == 12
    assert "grammar" in result.stdout and "accumulator" in result.stdout and "rechunker" in result.stdout


def test_the_written_code_is_ruff_clean(scaffolded: tuple[Path, str]) -> None:
    if shutil.which("ruff", path=str(Path(sys.executable).parent)) is None:
        pytest.skip("ruff is not installed (pip install toolwire[dev])")
    repo, _ = scaffolded
    targets = [
        str(repo / "reference_impl" / "toolwire_reference" / "dialects" / PACKAGE),
        str(repo / "suite" / "toolwire" / "streams" / PACKAGE),
    ]
    ruff = str(Path(sys.executable).parent / "ruff")
    result = subprocess.run(
        [ruff, "check", "--no-cache", *targets], cwd=repo, capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stdout


def test_the_rules_skeleton_marks_each_dialect_decision() -> None:
    """The skeleton's rules.py names the fields a dialect decides (how it is served, its id prefixes,
    whether its provider signs reasoning), each under a TODO."""
    rules = new_dialect.reference_package(NAME)["rules.py"]
    for field in ("http=HTTP", "HttpApi(", "ErrorShape(", "other_id_prefixes=", "issues_signatures="):
        assert field in rules, field
        before = rules[: rules.index(field)].splitlines()
        assert any("TODO" in line for line in before[-8:]), field


def test_the_longest_name_keeps_lines_short() -> None:
    name = "a" * 12 + "-" + "b" * (new_dialect.MAX_NAME - 13)
    written = {**new_dialect.reference_package(name), **new_dialect.stream_package(name)}
    long = [(file, line) for file, text in written.items() for line in text.splitlines() if len(line) > 110]
    assert long == []


def test_the_readme_names_what_the_checklist_names(scaffolded: tuple[Path, str]) -> None:
    _, out = scaffolded
    section = readme_section()
    for needle in (
        f"corpus/dialects/{NAME}.json",
        f"schemas/wire/{NAME}/",
        f"reference_impl/toolwire_reference/dialects/{PACKAGE}/",
        f"suite/toolwire/streams/{PACKAGE}/",
        f"corpus/captures/{NAME}/",
        "reference_impl/toolwire_reference/registry.py",
        "suite/toolwire/streams/dialects.py",
        "corpus/RULES.md",
        "corpus/features.json",
        "docs/architecture.md",
        "corpus/README.md",
    ):
        assert needle in section, needle
        assert needle in out or needle in ("docs/architecture.md", "corpus/README.md"), needle


def test_the_checklist_names_each_file_and_registration(scaffolded: tuple[Path, str]) -> None:
    _, out = scaffolded
    steps = [line for line in out.splitlines() if line[:1].isdigit()]
    assert [line.split(".")[0] for line in steps] == [str(i) for i in range(1, len(steps) + 1)]
    checklist = "\n".join(steps)
    for needle in (
        f"corpus/captures/{NAME}/",
        f"corpus/dialects/{NAME}.json",
        f"schemas/wire/{NAME}/",
        "reference_impl/toolwire_reference/registry.py",
        f"`    {PACKAGE}.DIALECT,`",
        "suite/toolwire/streams/dialects.py",
        "_PACKAGES",
        "rechunk.py",
        "http_client",
        "corpus/RULES.md",
        "corpus/features.json",
        "corpus/profiles.json",
        "suite/toolwire/peers/",
        f"toolwire run -k {NAME}",
    ):
        assert needle in checklist, needle
    for path in WRITTEN:
        assert f"wrote   {path}" in out
    assert f"updated schemas/common.schema.json (dialectName: + '{NAME}')" in out


def test_without_a_checkout_only_the_corpus_parts(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    corpus = tmp_path / "my-corpus"
    (corpus / "dialects").mkdir(parents=True)
    assert new_dialect_main([NAME, "--corpus", str(corpus)]) == 0
    out = capsys.readouterr().out
    assert sorted(p.relative_to(corpus).as_posix() for p in corpus.rglob("*") if p.is_file()) == [
        f"cases/responses/{NAME}-example-to-canonical.json",
        f"cases/tools/{NAME}-example-from-canonical.json",
        f"dialects/{NAME}.json",
    ]
    skipped = (f"schemas/wire/{NAME}/", f"dialects/{PACKAGE}/", f"streams/{PACKAGE}/", "common.schema.json")
    for part in skipped:
        assert any(line.startswith("  skipped") and part in line for line in out.splitlines()), part
    assert "1. In a toolwire checkout" in out and "--repo DIR" in out
    descriptor = json.loads((corpus / "dialects" / f"{NAME}.json").read_text())
    assert descriptor["docs"] == [new_dialect.PLACEHOLDER_DOCS.format(name=NAME)]


def test_an_installed_toolwire_needs_a_corpus(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(new_dialect, "running_checkout", lambda: None)
    assert new_dialect_main([NAME]) == 2
    err = capsys.readouterr().err
    assert "no corpus to add the dialect to" in err and "--corpus DIR" in err


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["Acme"], "is not a dialect name"),
        (["acme_chat"], "is not a dialect name"),
        (["1acme"], "is not a dialect name"),
        (["acme--chat"], "is not a dialect name"),
        (["--", "-acme"], "is not a dialect name"),
        (["a" * 25], "is not a dialect name"),
        (["class"], "a keyword"),
        (["anthropic"], "is already a dialect"),
        (["canonical"], "is already a dialect"),
        (["text"], "is already a dialect"),
        (["common"], "common.py exists"),  # reference_impl/…/dialects/common.py
        (["grammar"], "grammar.py exists"),  # suite/toolwire/streams/grammar.py
        (["--docs", "http://docs.acme.example", NAME], "https:// URL"),
    ],
)
def test_refusals_write_nothing(
    pristine: Path, args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    before = files(pristine)
    code = new_dialect_main(["--repo", str(pristine), *args])
    captured = capsys.readouterr()
    assert code == 2
    assert message in captured.err, captured.err
    assert "Traceback" not in captured.err
    assert files(pristine) == before


def test_an_existing_target_is_never_overwritten(
    pristine: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo = tmp_path / "repo"
    shutil.copytree(pristine, repo)
    stale = repo / "suite" / "toolwire" / "streams" / PACKAGE
    stale.mkdir()
    (stale / "grammar.py").write_text("# mine\n")
    before = files(repo)
    assert new_dialect_main([NAME, "--repo", str(repo)]) == 2
    assert f"{stale} exists" in capsys.readouterr().err
    assert files(repo) == before


def test_a_target_it_cannot_write_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    corpus = tmp_path / "corpus"
    (corpus / "dialects").mkdir(parents=True)
    (corpus / "cases").write_text("not a directory\n")
    before = files(corpus)
    assert new_dialect_main([NAME, "--corpus", str(corpus)]) == 2
    err = capsys.readouterr().err
    assert "is not a directory: nothing written" in err and "Traceback" not in err
    assert files(corpus) == before


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--repo", "{tmp}"], "is not a toolwire checkout"),
        (["--corpus", "{tmp}"], "is not a toolwire corpus"),
    ],
)
def test_a_folder_that_is_not_a_checkout_or_corpus(
    tmp_path: Path, args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert new_dialect_main([NAME, *(a.format(tmp=tmp_path) for a in args)]) == 2
    assert message in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


def test_the_command_is_listed(capsys: pytest.CaptureFixture[str]) -> None:
    assert "new-dialect" in cli.DELEGATED
    assert cli.main(["new-dialect", "--help"]) == 0
    assert "toolwire new-dialect" in capsys.readouterr().out
