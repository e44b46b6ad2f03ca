"""Every recorded field regression (tests/field/proofs.json) is a corpus case citing its upstream report, and
says how it was proven on a version with the bug (or why it could not be)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from toolwire.corpus import load_corpus

ROOT = Path(__file__).resolve().parents[2]
PROOFS = json.loads((ROOT / "tests" / "field" / "proofs.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def refs() -> dict[str, list[str]]:
    corpus = load_corpus(ROOT / "corpus")
    return {case.id: list(case.data.get("refs") or ()) for case in corpus.cases}


@pytest.mark.parametrize("proof", PROOFS, ids=[f"{p['case']}:{p['issue']}" for p in PROOFS])
def test_a_field_regression_is_a_case_citing_its_report(proof: dict, refs: dict[str, list[str]]) -> None:
    assert proof["case"] in refs, f"no case {proof['case']}"
    cited = [proof["issue"], proof.get("fix")]
    assert any(url in refs[proof["case"]] for url in cited if url), (proof["case"], cited)
    assert proof["issue"].startswith("https://github.com/")
    assert proof.get("affected_version") or proof.get("affected_outcome"), "how it was shown, or why not"
    assert proof.get("provider_evidence"), "the provider documentation behind the expectation"
