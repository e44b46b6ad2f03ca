"""toolwire inside a project's own pytest run: settings from the pytest configuration, a subclassed suite
beside other tests, JUnit output whose errors, failures and classes say what happened."""

from __future__ import annotations

import json
import textwrap
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from core_support import make_work, run_python

SUITE_FILE = textwrap.dedent(
    """
    from toolwire.testing import ToolwireSuite


    def test_something_else():
        assert 1 + 1 == 2


    class TestTiny(ToolwireSuite):
        adapter = "python:tiny_translator:Crashing"
        corpus = "corpus"
        results = "out/tiny.jsonl"


    class TestWrong(ToolwireSuite):
        adapter = "python:tiny_translator:Wrong"
        corpus = "corpus"
        results = "out/wrong.jsonl"
    """
)


@pytest.fixture
def work(tmp_path: Path) -> Path:
    return make_work(tmp_path)


def pytest_in(cwd: Path, *args: str):
    return run_python(cwd, "-m", "pytest", "-p", "no:cacheprovider", *args, timeout=180)


def records(path: Path) -> dict[str, dict]:
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    assert lines[0]["record"] == "header" and lines[-1]["record"] == "footer"
    return {rec["id"]: rec for rec in lines[1:-1]}


def test_settings_come_from_the_pytest_configuration(work: Path) -> None:
    (work / "pytest.ini").unlink(missing_ok=True)
    (work / "pyproject.toml").write_text(
        "[tool.pytest.ini_options]\n"
        'pythonpath = ["."]\n'
        'toolwire_adapter = "python:tiny_translator:Wrong"\n'
        'toolwire_corpus = "corpus"\n'
        'toolwire_results = "out/r.jsonl"\n'
    )
    (work / "test_plain.py").write_text("def test_ok():\n    pass\n")
    sub = work / "sub"
    sub.mkdir()
    proc = pytest_in(sub, "-q")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "toolwire: 3 passed, 2 failed, 0 errored, 2 skipped" in proc.stdout
    assert len(records(work / "out" / "r.jsonl")) == 7  # paths relative to the configuration file

    # naming test paths runs those only, and says why the corpus was left out
    (work / "out" / "r.jsonl").unlink()
    proc = pytest_in(work, "test_plain.py")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "1 passed" in proc.stdout and not (work / "out" / "r.jsonl").exists()
    assert "adapter (python:tiny_translator:Wrong) is not run: test paths were named" in proc.stdout

    # the option wins over the configuration
    proc = pytest_in(work, "test_plain.py", "--toolwire-adapter", "python:tiny_translator:Good", "-q")
    assert proc.returncode == 0 and "toolwire: 5 passed" in proc.stdout, proc.stdout


def test_a_bad_setting_is_a_usage_error(work: Path) -> None:
    (work / "pytest.ini").write_text("[pytest]\ntoolwire_adapter = reference\ntoolwire_timeout = soon\n")
    proc = pytest_in(work)
    assert proc.returncode == 4, proc.stdout + proc.stderr
    assert "pytest.ini: timeout must be a number, not 'soon'" in proc.stderr


@pytest.mark.parametrize("workers", [[], ["-n", "2"]], ids=["serial", "xdist"])
def test_a_subclassed_suite_runs_beside_other_tests(work: Path, workers: list[str]) -> None:
    (work / "test_toolwire.py").write_text(SUITE_FILE)
    proc = pytest_in(work, *workers, "--junitxml", "out/junit.xml", "-rfE")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    crashing, wrong = records(work / "out" / "tiny.jsonl"), records(work / "out" / "wrong.jsonl")
    assert len(crashing) == len(wrong) == 7
    # pytest's counts are toolwire's: crashes are errors, wrong translations failures
    assert "toolwire: [TestTiny] 0 passed, 0 failed, 5 errored, 2 skipped" in proc.stdout
    assert "toolwire: [TestWrong] 3 passed, 2 failed, 0 errored, 2 skipped" in proc.stdout
    assert "2 failed, 4 passed, 4 skipped, 5 errors" in proc.stdout
    assert "ERROR test_toolwire.py::TestTiny::choice/auto[canonical>anthropic]" in proc.stdout

    cases = {
        (case.get("classname"), case.get("name")): case
        for case in ET.parse(work / "out" / "junit.xml").getroot().iter("testcase")
    }
    crash = cases[("test_toolwire.TestTiny.choice.tool_choice", "choice/auto[canonical>anthropic]")]
    assert crash.find("error") is not None and crash.find("failure") is None
    assert "KeyError" in crash.find("error").get("message", "") + (crash.find("error").text or "")
    wrong_case = cases[("test_toolwire.TestWrong.tools.tools", "tools/basic[canonical>openai-chat]")]
    assert wrong_case.find("failure") is not None
    assert ("test_toolwire.TestWrong.choice.tool_choice", "choice/auto[canonical>anthropic]") in cases
    assert ("test_toolwire", "test_something_else") in cases


def test_keyword_selection_reaches_into_a_suite(work: Path) -> None:
    (work / "test_toolwire.py").write_text(SUITE_FILE)
    proc = pytest_in(work, "-q", "-k", "TestWrong and choice/")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "2 passed" in proc.stdout
    head = json.loads((work / "out" / "wrong.jsonl").read_text().splitlines()[0])
    assert head["run"]["selection"] == "-k TestWrong and choice/"
    assert not (work / "out" / "tiny.jsonl").exists()  # a suite with no selected check writes nothing


def test_a_suite_without_an_adapter_is_a_collection_error(work: Path) -> None:
    (work / "test_toolwire.py").write_text(
        "from toolwire.testing import ToolwireSuite\n\nclass TestNothing(ToolwireSuite):\n    pass\n"
    )
    proc = pytest_in(work, "-q")
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert "TestNothing: a ToolwireSuite sets `adapter`, the translator to test" in proc.stdout
