"""``reports/index.html``: the combined matrix as one self-contained page.

Inline CSS and JavaScript only (no network, no external assets; it works opened from ``file://``). The
matrix has features as rows (grouped by area) and implementations as columns: each cell is coloured by
status and, when checks fail, links to the list of those checks further down the page, where each failing
check is a collapsible ``<details>`` with its diff. A filter by area hides the other areas' rows and
failures. Without JavaScript everything is shown and the links still work.
"""

from __future__ import annotations

import hashlib
import json
import re
from html import escape
from typing import Any

from .report_bugs import SHOWN_CHECKS, Code, Finding, find_bugs
from .report_matrix import (
    STALE_TEXT,
    STATUS_UNCOVERED,
    Implementation,
    Matrix,
    cell_text,
    feature_title,
    run_text,
    score_text,
    stale_detail,
)
from .scoring import LEVELS, STATUS_ALL, STATUS_NA, STATUS_NONE, Tally

__all__ = ["check_anchor", "feature_anchor", "render_html"]

_CSS = """
:root{--all:#cdebd3;--some:#fde9b6;--none:#f6c6c9;--na:#ececec;--unc:#fff;--ink:#1d2125;--muted:#5f6b76}
*{box-sizing:border-box}
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--ink)}
body{margin:0;padding:1.5rem}
h1{margin:0 0 .4rem;font-size:1.6rem}h2{margin-top:2.2rem}h3{margin-top:1.6rem}
code,pre{font:12.5px/1.4 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
.muted{color:var(--muted)}
.notes p{margin:.3rem 0;padding:.4rem .7rem;border-left:4px solid #d29922;background:#fff8e6}
#filter{position:sticky;top:0;z-index:3;background:#fff}
#filter{padding:.5rem 0;border-bottom:1px solid #ddd;margin:1rem 0}
#filter label{margin-right:.8rem;white-space:nowrap;cursor:pointer}
#filter button{margin-right:.4rem}
table.matrix{border-collapse:collapse;margin-top:.5rem}
.matrix th,.matrix td{border:1px solid #d0d7de;padding:.3rem .55rem;vertical-align:middle}
.matrix thead th{position:sticky;top:2.6rem;background:#f6f8fa;z-index:2;text-align:center}
.matrix th.feature{text-align:left;font-weight:normal;max-width:32rem}
.matrix th.feature code{color:var(--muted);font-size:11.5px}
.matrix td{text-align:center;white-space:nowrap}
.matrix td a{color:inherit;text-decoration:underline dotted}
.matrix tr.level th,.matrix tr.area th{text-align:left}
.matrix tr.area th,.matrix tr.area td{font-weight:600;border-top:2px solid #8c959f}
.s-all{background:var(--all)}.s-some{background:var(--some)}.s-none{background:var(--none)}
.s-na{background:var(--na);color:var(--muted)}.s-unc{background:var(--unc);color:var(--muted)}
.tag{display:inline-block;font-size:11px;font-weight:600;padding:0 .35rem;border-radius:3px;margin-top:.15rem}
.tag.stale{background:#6e40c9;color:#fff}.tag.partial{background:#d29922;color:#fff}
th.stale,td.stale{
 background-image:repeating-linear-gradient(135deg,transparent 0 6px,rgba(0,0,0,.06) 6px 12px)}
.impl-failures{margin-top:1.5rem}
.index{columns:2 28rem;margin:.5rem 0 1rem;padding-left:1.2rem}
.index li{break-inside:avoid}
.index ul{margin:.1rem 0 .4rem;padding-left:1.2rem}
details{border:1px solid #d0d7de;border-radius:4px;margin:.35rem 0;padding:.25rem .6rem}
details[open]{background:#fbfcfd}
details:target,.hit{outline:3px solid #0969da}
summary{cursor:pointer}
summary .outcome{font-weight:600;color:#b42318}
details ul{margin:.3rem 0;padding-left:1.2rem}
.bugs ol{margin:.3rem 0}.bugs li{margin:.25rem 0}
pre{background:#f6f8fa;border:1px solid #d0d7de;padding:.5rem;overflow:auto;max-height:28rem}
.hidden{display:none!important}
footer{margin-top:2.5rem;color:var(--muted);font-size:12.5px}
"""

_JS = """
(function(){
  var boxes=[].slice.call(document.querySelectorAll('#filter input[data-area]'));
  function apply(){
    var on={};boxes.forEach(function(b){on[b.getAttribute('data-area')]=b.checked;});
    [].forEach.call(document.querySelectorAll('[data-area]:not(input)'),function(el){
      el.classList.toggle('hidden',on[el.getAttribute('data-area')]===false);});
  }
  boxes.forEach(function(b){b.addEventListener('change',apply);});
  [].forEach.call(document.querySelectorAll('#filter button'),function(btn){
    btn.addEventListener('click',function(){var all=btn.getAttribute('data-set')==='all';
      boxes.forEach(function(b){b.checked=all;});apply();});});
  function reveal(){
    var id=decodeURIComponent(location.hash.slice(1));if(!id)return;
    var el=document.getElementById(id);if(!el)return;
    [].forEach.call(document.querySelectorAll('.hit'),function(h){h.classList.remove('hit');});
    if(el.tagName==='DETAILS'){el.open=true;}
    var ids=el.getAttribute('data-checks');
    if(ids){ids.split(' ').forEach(function(c){var d=document.getElementById(c);
      if(d){d.open=true;d.classList.add('hit');d.classList.remove('hidden');}});}
    var area=el.getAttribute('data-area');
    if(area){boxes.forEach(function(b){if(b.getAttribute('data-area')===area&&!b.checked){b.checked=true;apply();}});}
  }
  window.addEventListener('hashchange',reveal);reveal();
})();
"""


def _slug(text: str) -> str:
    slug = re.sub(r"[^A-Za-z0-9]+", "-", text).strip("-").lower()
    digest = hashlib.sha256(text.encode("utf-8")).hexdigest()[:6]
    return f"{slug[:80]}-{digest}"


def check_anchor(impl: str, check_id: str) -> str:
    """The id of a failing check's ``<details>``."""
    return f"c-{_slug(impl + ' ' + check_id)}"


def feature_anchor(impl: str, feature: str) -> str:
    """The id of the list of an implementation's failing checks of one feature."""
    return f"f-{_slug(impl + ' ' + feature)}"


def _status_class(t: Tally | None) -> str:
    if t is None:
        return "s-unc"
    if t.applicable == 0:
        return "s-na"
    return {STATUS_ALL: "s-all", STATUS_NONE: "s-none"}.get(t.status, "s-some")


def _score_class(passed: int, applicable: int) -> str:
    if applicable == 0:
        return "s-na"
    if passed == applicable:
        return "s-all"
    return "s-none" if passed == 0 else "s-some"


def _e(text: object) -> str:
    return escape(str(text), quote=True)


def _header_cell(impl: Implementation, matrix: Matrix) -> str:
    name = _e(impl.name)
    if impl.report:
        name = f'<a href="{_e(impl.report)}">{name}</a>'
    parts = [f"<strong>{name}</strong>", f'<br><span class="muted">{_e(impl.label)}</span>']
    if impl.stale:
        tip = _e(run_text(impl, matrix))
        parts.append(f'<br><span class="tag stale" title="{tip}">{_e(STALE_TEXT)}</span>')
    if impl.partial:
        parts.append(f'<br><span class="tag partial" title="{_e(impl.partial)}">partial</span>')
    classes = "impl stale" if impl.stale else "impl"
    return f'<th class="{classes}" scope="col">{"".join(parts)}</th>'


def _feature_row(matrix: Matrix, area: str, key: str) -> str:
    title = feature_title(matrix, key)
    description = (matrix.features.get(key) or {}).get("description")
    label = f"{_e(title)} <code>{_e(key)}</code>" if title else f"<code>{_e(key)}</code>"
    tip = f' title="{_e(description)}"' if description else ""
    cells = []
    for impl in matrix.implementations:
        t = impl.by_feature.get(key)
        text = _e(cell_text(t))
        if t is not None and t.applicable and t.passed < t.applicable and impl.failing_for(key):
            text = f'<a href="#{feature_anchor(impl.name, key)}">{text}</a>'
        stale = " stale" if impl.stale else ""
        cells.append(f'<td class="{_status_class(t)}{stale}">{text}</td>')
    return f'<tr class="feature"><th class="feature" scope="row"{tip}>{label}</th>{"".join(cells)}</tr>'


def _matrix(matrix: Matrix) -> list[str]:
    impls = matrix.implementations
    out = ['<table class="matrix" id="matrix">', "<thead><tr><th>feature</th>"]
    out += [_header_cell(impl, matrix) for impl in impls]
    out.append("</tr></thead>")
    out.append('<tbody class="levels">')
    for level in LEVELS:
        cells = "".join(
            f'<td class="{_score_class(*impl.level(level))}">{_e(score_text(*impl.level(level)))}</td>'
            for impl in impls
        )
        out.append(f'<tr class="level"><th scope="row">{level}</th>{cells}</tr>')
    out.append("</tbody>")
    for area, keys in matrix.areas:
        out.append(f'<tbody data-area="{_e(area)}">')
        cells = []
        for impl in impls:
            t = impl.by_area.get(area)
            text = STATUS_UNCOVERED if t is None else score_text(t.passed, t.applicable)
            cells.append(f'<td class="{_status_class(t)}">{_e(text)}</td>')
        out.append(f'<tr class="area"><th scope="row">area: {_e(area)}</th>{"".join(cells)}</tr>')
        out += [_feature_row(matrix, area, key) for key in keys]
        out.append("</tbody>")
    out.append("</table>")
    return out


def _error_text(error: Any) -> str:
    if not isinstance(error, dict):
        return json.dumps(error, ensure_ascii=False)
    text = str(error.get("code", "?"))
    if error.get("path") is not None:
        text += f" at {error['path'] or '(root)'}"
    return text


#: longest message or diff shown in full on the page; the Markdown report of the implementation has the rest
MAX_TEXT = 6000


def _pre(text: str, impl: Implementation, cls: str = "") -> str:
    attr = f' class="{cls}"' if cls else ""
    if len(text) <= MAX_TEXT:
        return f"<pre{attr}>{_e(text)}</pre>"
    where = f' (in full in <a href="{_e(impl.report)}">{_e(impl.report)}</a>)' if impl.report else ""
    cut = text[:MAX_TEXT].rsplit("\n", 1)[0] if "\n" in text[:MAX_TEXT] else text[:MAX_TEXT]
    note = f"Truncated at {len(cut)} of {len(text)} characters{where}."
    return f'<pre{attr}>{_e(cut)}\n…</pre><p class="muted">{note}</p>'


def _check_details(impl: Implementation, check: dict[str, Any]) -> str:
    cid = str(check.get("id", "?"))
    features = [str(f) for f in check.get("features") or ()]
    pair = f"{check.get('source', '?')} → {check.get('target', '?')}"
    if check.get("round_trip"):
        pair += f" → {check.get('source', '?')}"
    items = [
        f"<li>level <strong>{_e(check.get('level', '?'))}</strong>, kind <code>{_e(check.get('kind', '?'))}"
        f"</code>, <code>{_e(pair)}</code></li>",
        "<li>features " + ", ".join(f"<code>{_e(f)}</code>" for f in features) + "</li>",
    ]
    if check.get("round_trip"):
        items.append("<li>round trip: translated there and back, compared with the source payload</li>")
    wire_valid = check.get("wire_valid")
    if wire_valid is True:
        items.append("<li>the output is valid for the target's wire schema (different, but accepted)</li>")
    elif wire_valid is False:
        items.append("<li>the output is <strong>not valid</strong> for the target's wire schema</li>")
    if check.get("expected_error") is not None:
        items.append(f"<li>expected error: <code>{_e(_error_text(check['expected_error']))}</code></li>")
    if check.get("actual_error") is not None:
        items.append(f"<li>actual error: <code>{_e(_error_text(check['actual_error']))}</code></li>")
    body = [f"<ul>{''.join(items)}</ul>"]
    if check.get("message"):
        body.append(_pre(str(check["message"]), impl))
    if check.get("wire_errors"):
        errors = "\n".join(map(str, check["wire_errors"]))
        body.append("<p>Wire-schema errors:</p>" + _pre(errors, impl))
    if check.get("diff"):
        body.append("<p>Diff:</p>" + _pre(str(check["diff"]), impl, "diff"))
    return (
        f'<details id="{check_anchor(impl.name, cid)}" data-area="{_e(check.get("area", "?"))}">'
        f'<summary><code>{_e(cid)}</code> <span class="outcome">{_e(check.get("outcome", "?"))}</span>'
        f"</summary>{''.join(body)}</details>"
    )


def _finding_item(impl: Implementation, finding: Finding) -> str:
    title = "".join(f"<code>{_e(p)}</code>" if isinstance(p, Code) else _e(p) for p in finding.title)
    levels = ", ".join(f"{count} {level}" for level, count in finding.levels())
    links = [
        f'<a href="#{check_anchor(impl.name, str(c.get("id")))}">{_e(c.get("id"))}</a>'
        for c in finding.sample(SHOWN_CHECKS)
    ]
    if finding.count > SHOWN_CHECKS:
        links.append(f"and {finding.count - SHOWN_CHECKS} more")
    n = finding.count
    return (
        f'<li>{title}<br><span class="muted">{n} check{"s" if n != 1 else ""} ({levels}): '
        f"{', '.join(links)}</span></li>"
    )


#: problems listed per implementation on the page (its Markdown report has more, with example diffs)
SHOWN_BUGS = 15


def _bugs(impl: Implementation) -> list[str]:
    """The implementation's failing checks grouped into distinct problems (``report_bugs``), the most
    checks first, as at the top of its Markdown report."""
    findings = find_bugs(impl.failing)
    if not findings:
        return []
    n = len(findings)
    out = [
        f'<div class="bugs" id="bugs-{_e(_slug(impl.name))}"><p><strong>Translation bugs found</strong>: '
        f"{n} distinct problem{'s' if n != 1 else ''} in these checks, the most checks first:</p><ol>"
    ]
    out += [_finding_item(impl, f) for f in findings[:SHOWN_BUGS]]
    out.append("</ol>")
    rest = findings[SHOWN_BUGS:]
    if rest:
        top = max(f.count for f in rest)
        where = f' (listed in <a href="{_e(impl.report)}">{_e(impl.report)}</a>)' if impl.report else ""
        out.append(
            f'<p class="muted">{len(rest)} more, each in {top} check{"s" if top != 1 else ""} or fewer'
            f"{where}.</p>"
        )
    out.append("</div>")
    return out


def _failures(matrix: Matrix) -> list[str]:
    out = ['<h2 id="failures">Failing checks</h2>']
    out.append(
        '<p class="muted">Per implementation: its failing checks by feature (the matrix cells link here), '
        "then each failing check with its diff.</p>"
    )
    for impl in matrix.implementations:
        n = len(impl.failing)
        out.append(f'<section class="impl-failures" id="impl-{_e(_slug(impl.name))}">')
        out.append(f"<h3>{_e(impl.name)}: {n} failing check{'s' if n != 1 else ''}</h3>")
        if not n:
            out.append("<p>None: every applicable check passed.</p></section>")
            continue
        out += _bugs(impl)
        out.append('<ul class="index">')
        for area, keys in matrix.areas:
            for key in keys:
                checks = impl.failing_for(key)
                if not checks:
                    continue
                anchors = [check_anchor(impl.name, str(c.get("id"))) for c in checks]
                title = feature_title(matrix, key)
                label = f"{_e(title)} <code>{_e(key)}</code>" if title else f"<code>{_e(key)}</code>"
                links = "".join(
                    f'<li><a href="#{a}">{_e(c.get("id"))}</a> {_e(c.get("outcome"))}</li>'
                    for a, c in zip(anchors, checks, strict=True)
                )
                out.append(
                    f'<li id="{feature_anchor(impl.name, key)}" data-area="{_e(area)}" '
                    f'data-checks="{" ".join(anchors)}">{label}: {len(checks)}<ul>{links}</ul></li>'
                )
        out.append("</ul>")
        out += [_check_details(impl, check) for check in impl.failing]
        out.append("</section>")
    return out


def render_html(matrix: Matrix) -> str:
    """The page (deterministic: the same matrix always gives the same bytes)."""
    impls = matrix.implementations
    title = "toolwire compatibility matrix"
    corpus = f"corpus {matrix.corpus.version} (hash <code>{_e(matrix.corpus.hash[:12])}</code>)"
    if matrix.interpreting_version:
        corpus += f", judged by INTERPRETING.md {_e(matrix.interpreting_version)}"
    out = [
        "<!DOCTYPE html>",
        '<html lang="en">',
        "<head>",
        '<meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{title}</title>",
        f"<style>{_CSS}</style>",
        "</head>",
        "<body>",
        f"<h1>{title}</h1>",
        f"<p>{len(impls)} implementation{'s' if len(impls) != 1 else ''} side by side against {corpus}. "
        "Generated by <code>toolwire report combine</code> (<code>make reports</code>) from the results "
        "files next to this page.</p>",
    ]
    notes = []
    for impl in impls:
        if impl.stale:
            detail = _e(stale_detail(impl, matrix))
            notes.append(f"<p><strong>{_e(impl.name)}: {_e(STALE_TEXT)}</strong>: {detail}.</p>")
        if impl.partial:
            notes.append(
                f"<p><strong>{_e(impl.name)}</strong>: partial run, {_e(impl.partial)}; its scores cover "
                "only the checks that ran.</p>"
            )
    if notes:
        out += ['<div class="notes">', *notes, "</div>"]
    out.append('<nav id="filter" aria-label="filter by area">Areas: ')
    for area, _keys in matrix.areas:
        out.append(f'<label><input type="checkbox" data-area="{_e(area)}" checked> {_e(area)}</label>')
    out.append('<button type="button" data-set="all">all</button>')
    out.append('<button type="button" data-set="none">none</button></nav>')
    out += _matrix(matrix)
    out.append(
        f'<p class="muted">{STATUS_ALL} every applicable check passes · ⚠️ some pass · {STATUS_NONE} none '
        f"pass · {STATUS_NA} not applicable (every check skipped) · {STATUS_UNCOVERED} no check of this "
        "feature ran; <code>n/m</code> = passed / applicable checks. Scores per level count applicable "
        "checks only. A cell with failures links to them.</p>"
    )
    out += _failures(matrix)
    out.append("<footer>toolwire: a conformance suite for LLM tool-calling wire-format translators.</footer>")
    out.append(f"<script>{_JS}</script>")
    out += ["</body>", "</html>"]
    return "\n".join(out) + "\n"
