"""`toolwire lint` on `lossless`: only on payload expectations, never for streams, always a boolean."""

from __future__ import annotations

from pathlib import Path

from test_lint_rules import corpus, edit, lines, one  # noqa: F401  (corpus is a fixture)


def test_lossless_payload_expectation_is_clean(corpus: Path) -> None:  # noqa: F811
    edit(corpus / "cases/choice/auto.json", lambda c: c["expect"][0].update(lossless=True))
    assert lines(corpus) == []


def test_lossless_only_on_payload_expectations(corpus: Path) -> None:  # noqa: F811
    edit(corpus / "cases/tools/basic.json", lambda c: c["expect"][3].update(lossless=True))
    assert one(corpus, "lossless") == (
        "cases/tools/basic.json:/expect/3/lossless: `lossless` is only for payload expectations: "
        "a refusal has nothing to translate back"
    )


def test_lossless_not_for_streams(corpus: Path) -> None:  # noqa: F811
    def make_stream(case: dict) -> None:
        case["kind"] = "stream"
        case["expect"][0]["lossless"] = True

    edit(corpus / "cases/choice/auto.json", make_stream)
    expected = (
        "cases/choice/auto.json:/expect/0/lossless: `lossless` is not defined for streams (no round trip)"
    )
    assert expected in lines(corpus)


def test_lossless_must_be_a_boolean(corpus: Path) -> None:  # noqa: F811
    edit(corpus / "cases/choice/auto.json", lambda c: c["expect"][0].update(lossless="yes"))
    line = one(corpus, "case.schema.json")
    assert line.startswith("cases/choice/auto.json:/expect/0/lossless") and "boolean" in line
