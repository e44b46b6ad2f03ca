"""The published matrix page (``reports/index.html`` from the checked-in results) in a real headless
Chromium: it is light and opens fast before any detail is loaded, a cell loads its implementation's failing
checks and shows the target below the sticky filter bar, the filters by area, implementation and level
recount the cells and the level rows, feature titles render their code, and a phone-sized screen can use
it. Skipped when no Chromium is installed (``apt-get install chromium``, or ``TOOLWIRE_CHROMIUM=path``);
screenshots go to ``TOOLWIRE_SCREENSHOTS`` when set, else the test's temporary directory."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_support import Browser, find_chromium
from toolwire.reports.combine import combine, write_outputs
from toolwire.reports.scoring import LEVELS

REPORTS = Path(__file__).resolve().parents[2] / "reports"
CHROMIUM = find_chromium()
pytestmark = pytest.mark.skipif(
    CHROMIUM is None,
    reason="no Chromium to open the page in (apt-get install chromium, or TOOLWIRE_CHROMIUM)",
)
#: what the published page may weigh and take to load before any detail is opened
MAX_BYTES = 500_000
MAX_LOAD_MS = 1000


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    results = sorted(REPORTS.glob("*.results.jsonl"))
    assert results, "reports/ holds no results"
    out = tmp_path_factory.mktemp("site")
    write_outputs(combine(results, allow_stale=True, output=out), out)
    return out


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    assert CHROMIUM is not None
    b = Browser(CHROMIUM)
    try:
        # a browser that has shown a page before, as a reader's has: the first page of a fresh process
        # also pays for starting its renderer
        b.open("data:text/html,<p>warm</p>")
        yield b
    finally:
        b.close()


@pytest.fixture
def page(browser: Browser, site: Path) -> Browser:
    browser.viewport(1280, 900)
    browser.open((site / "index.html").as_uri())
    return browser


def _shots(tmp_path: Path) -> Path:
    where = os.environ.get("TOOLWIRE_SCREENSHOTS")
    path = Path(where) if where else tmp_path
    path.mkdir(parents=True, exist_ok=True)
    return path


def _wait(browser: Browser, condition: str, timeout_ms: int = 10_000) -> Any:
    return browser.js(
        "new Promise(function(ok,no){var t0=Date.now();(function poll(){var v=(" + condition + ");"
        f"if(v)return ok(v);if(Date.now()-t0>{timeout_ms})return no(new Error('timed out: '+"
        + json.dumps(condition)
        + "));setTimeout(poll,20);})();})"
    )


def test_published_page_is_light_and_opens_fast(page: Browser, site: Path, tmp_path: Path) -> None:
    size = (site / "index.html").stat().st_size
    assert size < MAX_BYTES, f"index.html weighs {size} bytes"
    # the fastest of three loads: the test shares the machine with the rest of the suite, a reader does not
    loads = []
    for _ in range(3):
        page.open((site / "index.html").as_uri())
        loads.append(
            page.js(
                "(function(){var n=performance.getEntriesByType('navigation')[0];"
                "return n.loadEventEnd-n.startTime;})()"
            )
        )
    assert 0 < min(loads) < MAX_LOAD_MS, loads
    # nothing of the failing checks is loaded yet: no details, no details script fetched
    assert page.js("document.querySelectorAll('details').length") == 0
    assert (
        page.js(
            "performance.getEntriesByType('resource')"
            ".filter(function(r){return /details/.test(r.name)}).length"
        )
        == 0
    )
    assert page.js("document.querySelectorAll('#matrix tr.feature').length") > 50
    page.screenshot(_shots(tmp_path) / "matrix-desktop.png")


def test_a_cell_loads_its_checks_and_shows_them_below_the_sticky_bar(page: Browser, tmp_path: Path) -> None:
    href = page.js("document.querySelector('#matrix td a[href]').getAttribute('href')")
    page.js(f"document.querySelector('#matrix td a[href=\"{href}\"]').click()")
    target = href[1:]
    _wait(page, f"document.getElementById('{target}')")
    _wait(page, "document.querySelector('details.hit[open]')")
    # the list the cell points at is in view, below the sticky filter bar, not under it
    geometry = page.js(
        f"(function(){{var el=document.getElementById('{target}').getBoundingClientRect();"
        "var bar=document.getElementById('filter').getBoundingClientRect();"
        "return {top:el.top,bar:bar.bottom,height:innerHeight};})()"
    )
    assert geometry["bar"] <= geometry["top"] < geometry["height"], geometry
    # each check of that list is there, open, with its diff or message
    assert page.js("document.querySelectorAll('details.hit[open] pre').length") >= 1
    page.screenshot(_shots(tmp_path) / "cell-followed.png")


def _text(page: Browser, selector: str) -> str:
    return page.js(f"document.querySelector({json.dumps(selector)}).textContent.trim()")


def _visible(page: Browser, selector: str) -> bool:
    return page.js(f"document.querySelector({json.dumps(selector)}).getClientRects().length>0")


def _score(checks: list[dict[str, Any]], levels: tuple[str, ...]) -> tuple[int, int]:
    run = [c for c in checks if c.get("level") in levels and c.get("outcome") != "skipped"]
    return sum(c.get("outcome") in ("passed", "xpassed") for c in run), len(run)


def test_filters_recount_cells_rows_and_findings(page: Browser, site: Path) -> None:
    results = {p.name.removesuffix(".results.jsonl"): p for p in sorted(REPORTS.glob("*.results.jsonl"))}
    name = "litellm" if "litellm" in results else next(iter(results))
    checks = [json.loads(line) for line in results[name].read_text(encoding="utf-8").splitlines()]
    checks = [c for c in checks if c.get("record") == "check"]
    key = page.js(
        f"document.querySelector('#filter input[data-impl^=\"{name}-\"]').getAttribute('data-impl')"
    )
    column = page.js(
        "[].indexOf.call(document.querySelectorAll('#matrix thead th'), "
        f"document.querySelector('th[data-impl=\"{key}\"]'))"
    )
    must = f"#matrix tr.level[data-level='must'] td:nth-child({column + 1})"
    passed, applicable = _score(checks, ("must",))
    assert _text(page, must).endswith(f"({passed}/{applicable})")

    # an area off: its rows go, the level rows count the other areas, findings only there go
    page.js("document.querySelector('#filter input[data-area=\"tools\"]').click()")
    assert not _visible(page, "tbody[data-area='tools']")
    passed, applicable = _score([c for c in checks if c["area"] != "tools"], ("must",))
    assert _text(page, must).endswith(f"({passed}/{applicable})")
    hidden = page.js(
        "[].filter.call(document.querySelectorAll('li[data-areas=\"tools\"]'),function(li){"
        "return li.getClientRects().length>0}).length"
    )
    assert hidden == 0
    page.js('document.querySelector(\'#filter button[data-set="all"][data-kind="area"]\').click()')
    assert _visible(page, "tbody[data-area='tools']")

    # a level off: its row goes and a cell counts the other levels' checks only
    page.js("document.querySelector('#filter input[data-level=\"must\"]').click()")
    assert not _visible(page, "#matrix tr.level[data-level='must']")
    feature = page.js(
        f"(function(){{var td=document.querySelectorAll('#matrix tr.feature')[0].children[{column}];"
        "return {text:td.textContent.trim(),key:td.parentNode.querySelector('code.key').textContent};})()"
    )
    passed, applicable = _score(
        [c for c in checks if feature["key"] in c["features"]], tuple(lv for lv in LEVELS if lv != "must")
    )
    expected = "➖" if not applicable else f"{passed}/{applicable}"
    assert feature["text"].endswith(expected), feature
    page.js("document.querySelector('#filter input[data-level=\"must\"]').click()")

    # an implementation off: its column and its section go
    page.js(f"document.querySelector('#filter input[data-impl=\"{key}\"]').click()")
    assert not _visible(page, f"th[data-impl='{key}']")
    assert not _visible(page, f"section[data-impl='{key}']")


def test_feature_titles_render_their_code(page: Browser, site: Path) -> None:
    features = json.loads((REPORTS.parent / "corpus" / "features.json").read_text(encoding="utf-8"))
    titled = [f for f in features if "`" in str(f.get("title", ""))]
    if not titled:
        pytest.skip("no feature title has code in it")
    code = str(titled[0]["title"]).split("`")[1]
    row = page.js(
        "(function(){var rows=document.querySelectorAll('#matrix th.feature');"
        "for(var i=0;i<rows.length;i++){"
        f"if(rows[i].querySelector('code.key').textContent==={json.dumps(titled[0]['key'])})"
        "return {text:rows[i].textContent,codes:[].map.call(rows[i].querySelectorAll('code:not(.key)'),"
        "function(c){return c.textContent})};}})()"
    )
    assert "`" not in row["text"] and code in row["codes"], row


def test_a_phone_screen_can_use_the_matrix(browser: Browser, site: Path, tmp_path: Path) -> None:
    browser.viewport(390, 844, mobile=True)
    browser.open((site / "index.html").as_uri())
    layout = browser.js(
        "(function(){var f=document.getElementById('filter'),th=document.querySelector('#matrix th.feature');"
        "return {bar:getComputedStyle(f).position,barHeight:f.offsetHeight,"
        "first:getComputedStyle(th).position,"
        "firstWidth:th.getBoundingClientRect().width,height:innerHeight};})()"
    )
    # the filters do not stick over half the screen; the feature names stay while the columns scroll
    assert layout["bar"] == "static" and layout["first"] == "sticky", layout
    assert layout["firstWidth"] <= 170, layout
    browser.js("window.scrollTo(400, 600)")
    stays = browser.js(
        "document.querySelector('#matrix tbody[data-area] th.feature').getBoundingClientRect().left"
    )
    assert 0 <= stays < 40
    browser.screenshot(_shots(tmp_path) / "matrix-phone.png")
