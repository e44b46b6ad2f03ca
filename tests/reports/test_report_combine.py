"""`toolwire report combine`: the matrix, README.md, index.html and badges from hand-built results."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from pathlib import Path

import pytest
from reports_support import HASH, check, header, peer_checks, reference_checks, write, write_corpus
from toolwire.cli import main as cli
from toolwire.reports.combine import combine, write_outputs
from toolwire.reports.html import _slug
from toolwire.reports.matrix import STALE_TEXT, CombineError, CorpusId, build
from toolwire.results import read_results


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    return write_corpus(tmp_path / "corpus")


@pytest.fixture
def results(tmp_path: Path, corpus: Path) -> list[Path]:
    out = tmp_path / "in"
    out.mkdir()
    return [
        write(out / "reference.results.jsonl", header("toolwire-reference", corpus), reference_checks()),
        write(out / "shallow.results.jsonl", header("shallow", corpus), peer_checks()),
    ]


def _matrix(paths: list[Path], **kwargs):
    current = kwargs.pop("current", CorpusId("0.3.0", HASH))
    return build([read_results(p) for p in paths], current=current, **kwargs)


# -- refusing what does not belong together ------------------------------------------------------------


def test_combine_refuses_mixed_corpus_versions(tmp_path: Path, corpus: Path, results: list[Path], capsys):
    old = write(tmp_path / "in" / "old.results.jsonl", header("old", corpus, version="0.2.0"), peer_checks())
    with pytest.raises(CombineError, match="different corpus versions"):
        _matrix([*results, old])
    code = cli(["report", "combine", *map(str, [*results, old]), "-o", str(tmp_path / "out")])
    err = capsys.readouterr().err
    assert code == 2
    assert "different corpus versions" in err and "0.2.0" in err and "0.3.0" in err
    assert "old.results.jsonl" in err and "--allow-stale" in err
    assert not (tmp_path / "out" / "index.html").exists()


def test_combine_refuses_same_version_different_hash(tmp_path: Path, corpus: Path, results: list[Path]):
    other = write(tmp_path / "in" / "x.results.jsonl", header("x", corpus, hash_="cd" * 32), peer_checks())
    with pytest.raises(CombineError, match="different corpus versions"):
        _matrix([*results, other])


def test_combine_refuses_two_files_for_one_name(tmp_path: Path, corpus: Path, results: list[Path]):
    (tmp_path / "b").mkdir()
    dup = write(tmp_path / "b" / "shallow.results.jsonl", header("shallow", corpus), peer_checks())
    with pytest.raises(CombineError, match="two results files for 'shallow'"):
        _matrix([*results, dup])


def test_allow_stale_marks_results_of_another_corpus(tmp_path: Path, corpus: Path, results: list[Path]):
    old = write(tmp_path / "in" / "old.results.jsonl", header("old", corpus, version="0.2.0"), peer_checks())
    matrix = _matrix([*results, old], allow_stale=True)
    assert [(i.name, i.stale) for i in matrix.implementations] == [
        ("reference", False),
        ("old", True),
        ("shallow", False),
    ]
    readme = write_outputs(matrix, tmp_path / "out")[1].read_text(encoding="utf-8")
    assert f"**old: {STALE_TEXT}**: its results are from corpus 0.2.0, the current corpus is 0.3.0" in readme
    html = (tmp_path / "out" / "index.html").read_text(encoding="utf-8")
    assert "stale: run <code>make reports</code>" not in html  # plain text, escaped once
    assert 'class="tag stale"' in html and "stale: run `make reports`" in html


def test_results_all_from_an_older_corpus_are_all_stale(tmp_path: Path, results: list[Path]):
    matrix = _matrix(results, current=CorpusId("0.4.0", "ef" * 32))
    assert all(i.stale for i in matrix.implementations)
    readme = write_outputs(matrix, tmp_path / "out")[1].read_text(encoding="utf-8")
    assert "2 implementations against corpus 0.3.0" in readme  # what they are from
    assert (
        "**shallow: stale: run `make reports`**: its results are from corpus 0.3.0, the current corpus is "
        "0.4.0" in readme
    )


# -- the Markdown matrix ---------------------------------------------------------------------------------


def test_readme_matrix(tmp_path: Path, results: list[Path], snapshot):
    (results[0].parent / "reference.md").write_text("# report\n", encoding="utf-8")
    write_outputs(_matrix(results, output_dir=tmp_path / "in"), tmp_path / "in")
    readme = (tmp_path / "in" / "README.md").read_text(encoding="utf-8")
    assert "| [reference](reference.md) | shallow |" in readme  # a link where the Markdown report exists
    assert readme == snapshot


def test_combine_command(tmp_path: Path, results: list[Path], corpus: Path, capsys):
    code = cli(
        ["report", "combine", *map(str, results), "-o", str(tmp_path / "out"), "--corpus", str(corpus)]
    )
    assert code == 0
    out = capsys.readouterr().out
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == [
        "README.md",
        "index.html",
        "reference.badge.svg",
        "shallow.badge.svg",
        "shallow.details.js",
    ]
    # the hand-built files do not carry this directory's real hash: against it, both are stale
    assert "reference: stale" in out and "run `make reports`" in out


def test_partial_run_is_marked(tmp_path: Path, corpus: Path, results: list[Path]):
    partial = write(
        tmp_path / "in" / "cut.results.jsonl", header("cut", corpus), peer_checks()[:2], complete=None
    )
    matrix = _matrix([*results, partial])
    out = tmp_path / "out"
    write_outputs(matrix, out)
    readme = (out / "README.md").read_text(encoding="utf-8")
    assert "**cut: PARTIAL run**: the run did not finish (no footer)" in readme
    assert 'class="tag partial"' in (out / "index.html").read_text(encoding="utf-8")
    assert "partial" in (out / "cut.badge.svg").read_text(encoding="utf-8")


# -- the HTML page ------------------------------------------------------------------------------------------


class _Page(HTMLParser):
    """Every element's attributes, the matrix as rows of (classes, text, href) cells, the ids."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.elements: list[tuple[str, dict[str, str | None]]] = []
        self.ids: dict[str, str] = {}
        self.rows: list[list[tuple[str, str, str | None]]] = []
        self.in_matrix = False
        self.cell: list | None = None
        self.details_text: dict[str, str] = {}
        self.open_details: str | None = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        self.elements.append((tag, a))
        if a.get("id"):
            assert a["id"] not in self.ids, f"duplicate id {a['id']}"
            self.ids[a["id"]] = tag
        if tag == "table" and a.get("id") == "matrix":
            self.in_matrix = True
        if self.in_matrix and tag == "tr":
            self.rows.append([])
        if self.in_matrix and tag in ("td", "th"):
            self.cell = [a.get("class") or "", "", None]
        if self.cell is not None and tag == "a":
            self.cell[2] = a.get("href")
        if tag == "details":
            self.open_details = a["id"]
            self.details_text[a["id"]] = ""

    def handle_endtag(self, tag):
        if tag == "table":
            self.in_matrix = False
        if self.in_matrix and tag in ("td", "th") and self.cell is not None:
            self.rows[-1].append((self.cell[0], self.cell[1].strip(), self.cell[2]))
            self.cell = None
        if tag == "details":
            self.open_details = None

    def handle_data(self, data):
        if self.cell is not None:
            self.cell[1] += data
        if self.open_details:
            self.details_text[self.open_details] += data


def _details(out: Path) -> dict[str, str]:
    """The HTML each ``<name>.details.js`` hands the page, by file name."""
    found = {}
    for path in sorted(out.glob("*.details.js")):
        m = re.search(r'^toolwireDetails\(("[^"]*"), (".*")\);$', path.read_text(encoding="utf-8"), re.M)
        assert m, path
        found[path.name] = json.loads(m.group(2))
    return found


def _page(tmp_path: Path, results: list[Path]) -> tuple[str, _Page]:
    """The page and, as if loaded, every implementation's details."""
    write_outputs(_matrix(results), tmp_path / "out")
    text = (tmp_path / "out" / "index.html").read_text(encoding="utf-8")
    page = _Page()
    page.feed(text)
    for html in _details(tmp_path / "out").values():
        page.feed(html)
    page.close()
    return text, page


def test_html_is_self_contained(tmp_path: Path, results: list[Path]):
    text, page = _page(tmp_path, results)
    assert text.startswith("<!DOCTYPE html>")
    for tag, attrs in page.elements:
        assert tag not in ("link", "iframe", "object", "embed", "img"), tag
        if tag == "script":
            assert "src" not in attrs
        for name in ("src", "href", "action", "data", "poster"):
            value = attrs.get(name) or ""
            assert not re.match(r"^\s*(https?:)?//", value, re.I), (tag, name, value)
    assert not re.search(r"url\(\s*['\"]?(https?:)?//", text)  # no remote CSS resource
    assert "@import" not in text
    # every in-page link has its target
    for tag, attrs in page.elements:
        href = attrs.get("href") or ""
        if tag == "a" and href.startswith("#"):
            assert href[1:] in page.ids, href


def test_html_matrix_cells(tmp_path: Path, results: list[Path]):
    _text, page = _page(tmp_path, results)
    head = [text for _cls, text, _href in page.rows[0]]
    assert head[0] == "feature" and head[1].startswith("reference") and head[2].startswith("shallow")
    rows = {row[0][1]: row[1:] for row in page.rows[1:]}
    # per level: reference passes everything; shallow must 1/2, should 0/1, may not applicable
    assert [c[1] for c in rows["must"]] == ["100% (2/2)", "50% (1/2)"]
    assert [c[0] for c in rows["should"]] == ["s-all", "s-none"]
    assert rows["may"][1][1] == "—"
    wrapper = rows["Tool definition wrapper tools.wrapper"]
    assert wrapper[0] == ("s-all", "✅ 2/2", None)
    cls, text, href = wrapper[1]
    assert (cls, text) == ("s-some", "⚠️ 1/2")
    # the cell links to the list of failing checks of that feature, which links to each check's details
    assert href and href.startswith("#f-")
    listed = [a for tag, a in page.elements if a.get("id") == href[1:]][0]
    targets = (listed.get("data-checks") or "").split()
    assert len(targets) == 1 and page.ids[targets[0]] == "details"
    assert "tools/basic[canonical>anthropic]" in page.details_text[targets[0]]
    assert "expected 'get_weather', got 'getWeather' <anthropic>" in page.details_text[targets[0]]
    assert rows["none choice.none"][1][0] == "s-na"  # every check skipped
    assert rows["auto choice.auto"][1][:2] == ("s-none", "❌ 0/1")


def test_tooltips_show_no_markdown_backticks(tmp_path: Path, results: list[Path]):
    """A feature's description holds `code` spans; as a tooltip (a title attribute) it is plain text."""
    _text, page = _page(tmp_path, results)
    titles = [a["title"] for _tag, a in page.elements if a.get("title")]
    assert titles and not [t for t in titles if "`" in t]


def test_html_area_filter(tmp_path: Path, results: list[Path]):
    text, page = _page(tmp_path, results)
    boxes = [a["data-area"] for tag, a in page.elements if tag == "input" and a.get("data-area")]
    assert boxes == ["tools", "choice"]
    bodies = [a["data-area"] for tag, a in page.elements if tag == "tbody" and a.get("data-area")]
    assert bodies == ["tools", "choice"]
    details = [a["data-area"] for tag, a in page.elements if tag == "details"]
    assert details == ["choice", "tools"]  # each failing check carries its area, for the filter
    assert "<script>" in text and "addEventListener('change'" in text


def test_outputs_are_deterministic(tmp_path: Path, results: list[Path]):
    first = {p.name: p.read_bytes() for p in write_outputs(_matrix(results), tmp_path / "a")}
    second = {p.name: p.read_bytes() for p in write_outputs(_matrix(results), tmp_path / "b")}
    assert first == second
    assert sorted(first) == [
        "README.md",
        "index.html",
        "reference.badge.svg",
        "shallow.badge.svg",
        "shallow.details.js",
    ]


def test_combine_reads_its_inputs(tmp_path: Path, results: list[Path], corpus: Path):
    matrix = combine(results, corpus=None, output=tmp_path)
    assert [i.name for i in matrix.implementations] == ["reference", "shallow"]
    bad = tmp_path / "bad.results.jsonl"
    bad.write_text("not json\n", encoding="utf-8")
    assert cli(["report", "combine", str(bad)]) == 2


# -- badges ---------------------------------------------------------------------------------------------


def test_badge_is_valid_svg_with_the_must_score(tmp_path: Path, results: list[Path]):
    write_outputs(_matrix(results), tmp_path / "out")
    ns = "{http://www.w3.org/2000/svg}"
    for name, value, colour in (("reference", "100%", "#4c1"), ("shallow", "50%", "#fe7d37")):
        root = ET.parse(tmp_path / "out" / f"{name}.badge.svg").getroot()
        assert root.tag == f"{ns}svg"
        texts = [t.text for t in root.iter(f"{ns}text")]
        shown = texts[2]  # the score, then how much of the corpus applied to the implementation
        assert shown.startswith(f"{value} · ") and shown.endswith("% applied"), shown
        assert texts == ["toolwire-must", "toolwire-must", shown, shown]
        assert root.get("aria-label") == f"toolwire-must: {shown}"
        fills = [r.get("fill") for r in root.iter(f"{ns}rect")]
        assert colour in fills
        width = int(root.get("width"))
        rects = [int(r.get("width")) for r in root.iter(f"{ns}rect") if r.get("fill") in ("#555", colour)]
        assert sum(rects) == width


def test_badge_widths_and_colours():
    from toolwire.reports.badges import badge_svg, colour, text_width

    assert text_width("97%") < text_width("100%") < text_width("toolwire-must")
    assert colour(1, 1) == "#4c1" and colour(0, 0) == "#9f9f9f"
    assert colour(95, 100) == "#97ca00" and colour(10, 100) == "#e05d44"
    assert "n/a" in badge_svg(0, 0)
    assert ">99.9%<" in badge_svg(999, 1000)  # never rounded up to 100%
    ET.fromstring(badge_svg(3, 4, label="a<b&c"))  # escaped


def test_long_diffs_are_truncated_on_the_page(tmp_path: Path, corpus: Path):
    long = "\n".join(f"  /{i}: expected 1, got 2" for i in range(1000))
    checks = [check("tools/basic", "gemini", "failed", features=["tools.wrapper"], diff=long)]
    path = write(tmp_path / "big.results.jsonl", header("big", corpus), checks)
    write_outputs(_matrix([path]), tmp_path / "out")
    html = _details(tmp_path / "out")["big.details.js"]
    assert "/999: expected 1" not in html and "/10: expected 1" in html
    assert f"of {len(long)} characters" in html


def test_html_page_holds_no_failing_check_and_links_its_sections(tmp_path: Path, results: list[Path]):
    (results[0].parent / "shallow.md").write_text("# report\n", encoding="utf-8")
    features = {
        "tools.wrapper": {"title": "The `strict` flag <kept>", "area": "tools"},
        "tools.multiple": {"title": "Several tools", "area": "tools"},
    }
    out = tmp_path / "out"
    write_outputs(_matrix(results, features=features, output_dir=out), out)
    text = (out / "index.html").read_text(encoding="utf-8")
    # the failing checks are in the details file, loaded on demand; the page says where to find them
    assert "<details" not in text and 'data-src="shallow.details.js"' in text
    assert "tools/basic[canonical&gt;anthropic]" in _details(out)["shallow.details.js"]
    # a feature title's code is code, the rest escaped
    assert "The <code>strict</code> flag &lt;kept&gt;" in text and "`strict`" not in text
    # a column names its section of this page, and its Markdown report as a file
    page = _Page()
    page.feed(text)
    links = [a.get("href") for tag, a in page.elements if tag == "a"]
    assert "#impl-" + _slug("shallow") in links and "../in/shallow.md" in links
    assert page.ids["impl-" + _slug("shallow")] == "section"


def test_a_details_file_goes_when_its_implementation_fails_nothing(tmp_path: Path, results: list[Path]):
    out = tmp_path / "out"
    out.mkdir()
    (out / "reference.details.js").write_text("toolwireDetails('reference', 'old');\n", encoding="utf-8")
    written = {p.name for p in write_outputs(_matrix(results), out)}
    assert "shallow.details.js" in written and not (out / "reference.details.js").exists()
