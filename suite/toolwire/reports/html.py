"""``reports/index.html``: the combined matrix as a page to browse, offline, in one folder.

The page itself is small: the matrix (features as rows grouped by area, implementations as columns, each
cell coloured by status), filters, and per implementation its translation bugs (:mod:`.bugs`
findings). The failing checks with their diffs, most of the weight, are in one ``<name>.details.js`` per
implementation next to the page, loaded on demand (a ``<script src>``: a page opened from ``file://`` may
not ``fetch()`` a file beside it in Chromium, but it may load a script), when a cell, a finding or an
implementation's "show" button asks for them.

Filters: by area (the feature rows, the level rows, the findings and the failing checks follow), by
implementation (columns and sections) and by level (cells and rows count only the selected levels'
checks). Each cell keeps its counts per level (``data-l``: must, should, may as passed/applicable pairs)
for that. Without JavaScript the matrix and the findings show, and each implementation's Markdown report
(linked from its column) has every failing check.

Column headers link to the implementation's section of this page (rendered, offline); its Markdown report
(``<name>.md``) is linked next to it as a file: browsed on GitHub it renders, opened from disk it is text.
"""

from __future__ import annotations

import hashlib
import json
import re
from html import escape
from typing import Any

from .bugs import SHOWN_CHECKS, Code, Finding, find_bugs
from .matrix import (
    STALE_TEXT,
    STATUS_UNCOVERED,
    Implementation,
    Matrix,
    feature_title,
    run_text,
    score_text,
    stale_detail,
)
from .scoring import LEVELS, STATUS_ALL, STATUS_NA, STATUS_NONE, STATUS_SOME, Tally, cell_text

__all__ = ["check_anchor", "details_file", "feature_anchor", "render_details", "render_html"]

_CSS = """
:root{--all:#cdebd3;--some:#fde9b6;--none:#f6c6c9;--na:#ececec;--unc:#fff;--ink:#1d2125;--muted:#5f6b76;
 --bar:3rem}
*{box-sizing:border-box}
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--ink)}
body{margin:0;padding:1.5rem}
h1{margin:0 0 .4rem;font-size:1.6rem}h2{margin-top:2.2rem}h3{margin-top:1.6rem}
code,pre{font:12.5px/1.4 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
.muted{color:var(--muted)}
.notes p{margin:.3rem 0;padding:.4rem .7rem;border-left:4px solid #d29922;background:#fff8e6}
#filter{position:sticky;top:0;z-index:4;background:#fff;padding:.4rem 0;border-bottom:1px solid #ddd;
 margin:1rem 0;display:flex;flex-wrap:wrap;gap:.2rem 1.2rem}
#filter fieldset{border:0;margin:0;padding:0;display:flex;flex-wrap:wrap;align-items:center;gap:.1rem .7rem}
#filter legend{float:left;font-weight:600;margin-right:.3rem;padding:0}
#filter label{white-space:nowrap;cursor:pointer}
#filter button{font-size:12px}
[id]{scroll-margin-top:calc(var(--bar) + 3.2rem)}
table.matrix{border-collapse:separate;border-spacing:0;margin-top:.5rem}
.matrix th,.matrix td{border:1px solid #d0d7de;border-width:0 1px 1px 0;padding:.3rem .55rem;
 vertical-align:middle}
.matrix tr>:first-child{border-left-width:1px}.matrix thead th{border-top-width:1px}
.matrix thead th{position:sticky;top:var(--bar);background:#f6f8fa;z-index:2;text-align:center}
.matrix th.feature,.matrix tr.level th,.matrix tr.area th{position:sticky;left:0;z-index:1;background:#fff}
.matrix thead th:first-child{left:0;z-index:3}
.matrix th.feature{text-align:left;font-weight:normal;max-width:32rem}
.matrix th.feature code.key{color:var(--muted);font-size:11.5px}
.matrix td{text-align:center;white-space:nowrap}
.matrix td a{color:inherit;text-decoration:underline dotted}
.matrix th.impl a.md{font-weight:normal;font-size:11.5px}
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
.bugs ol{margin:.3rem 0}.bugs li{margin:.25rem 0;overflow-wrap:anywhere}
pre{background:#f6f8fa;border:1px solid #d0d7de;padding:.5rem;overflow:auto;max-height:28rem}
.hidden,.off{display:none!important}
footer{margin-top:2.5rem;color:var(--muted);font-size:12.5px}
@media (max-width:760px){
 body{padding:.6rem;font-size:13px}
 #filter{position:static}
 :root{--bar:0px}
 .matrix th,.matrix td{padding:.2rem .3rem}
 .matrix th.feature{max-width:9.5rem;font-size:12px;overflow-wrap:anywhere}
 .matrix th.feature code.key{display:none}
 .matrix th.impl .label{display:none}
 .index{columns:1}
}
"""

_JS = r"""
(function(){
  var LEVELS=['must','should','may'];
  function all(sel,root){return [].slice.call((root||document).querySelectorAll(sel));}
  function boxes(kind){return all('#filter input[data-'+kind+']');}
  function chosen(kind){
    var on={};
    boxes(kind).forEach(function(b){on[b.getAttribute('data-'+kind)]=b.checked;});
    return on;
  }
  function percent(p,a){
    if(!a)return '\u2014';
    if(p===a)return '100%';
    var v=Math.floor(1000*p/a)/10;
    if(p&&v===0)v=0.1;
    return v.toFixed(1).replace(/\.0$/,'')+'%';
  }
  function counts(el,lv){
    var d=(el.getAttribute('data-l')||'').split(',').map(Number),p=0,a=0;
    LEVELS.forEach(function(l,i){if(lv[l]){p+=d[2*i]||0;a+=d[2*i+1]||0;}});
    return [p,a];
  }
  function status(p,a){return !a?'s-na':p===a?'s-all':p===0?'s-none':'s-some';}
  function paint(td,p,a,text){
    td.classList.remove('s-all','s-some','s-none','s-na','s-unc');
    td.classList.add(td.getAttribute('data-u')==='1'?'s-unc':status(p,a));
    var link=td.querySelector('a');
    (link||td).textContent=text;
  }
  function some(list,on){return list.split(' ').some(function(x){return on[x]!==false;});}
  function apply(){
    var area=chosen('area'),impl=chosen('impl'),lv=chosen('level');
    all('[data-area]:not(input)').forEach(function(el){
      el.classList.toggle('hidden',area[el.getAttribute('data-area')]===false);});
    all('[data-areas]').forEach(function(el){
      el.classList.toggle('hidden',!some(el.getAttribute('data-areas'),area));});
    all('[data-impl]:not(input)').forEach(function(el){
      el.classList.toggle('off',impl[el.getAttribute('data-impl')]===false);});
    // the matrix's cells follow their column's header (no attribute per cell: the page stays light)
    var rows=document.getElementById('matrix').rows;
    all('#matrix thead th[data-impl]').forEach(function(th){
      var off=impl[th.getAttribute('data-impl')]===false,i=th.cellIndex;
      Array.prototype.forEach.call(rows,function(tr){if(tr.cells[i])tr.cells[i].classList.toggle('off',off);});});
    all('[data-level]:not(input)').forEach(function(el){
      el.classList.toggle('off',lv[el.getAttribute('data-level')]===false);});
    all('[data-levels]').forEach(function(el){
      el.classList.toggle('off',!some(el.getAttribute('data-levels'),lv));});
    all('td[data-l]').forEach(function(td){
      var c=counts(td,lv),uncovered=td.getAttribute('data-u')==='1',text;
      if(td.closest('tr.area')){
        text=uncovered||!c[1]?'\u2014':percent(c[0],c[1])+' ('+c[0]+'/'+c[1]+')';
      }else if(uncovered){text='\u2014';}
      else if(!c[1]){text='\u2796';}
      else{text=(c[0]===c[1]?'\u2705':c[0]===0?'\u274c':'\u26a0\ufe0f')+' '+c[0]+'/'+c[1];}
      paint(td,c[0],c[1],text);
    });
    // the level rows: the sum of the selected areas' rows, per implementation
    all('tr.level').forEach(function(tr){
      var one={};one[tr.getAttribute('data-level')]=true;
      all('td',tr).forEach(function(td,i){
        var p=0,a=0;
        all('tbody[data-area]').forEach(function(tb){
          if(area[tb.getAttribute('data-area')]===false)return;
          var cell=all('tr.area td',tb)[i];
          if(cell){var c=counts(cell,one);p+=c[0];a+=c[1];}
        });
        paint(td,p,a,a?percent(p,a)+' ('+p+'/'+a+')':'\u2014');
      });
    });
  }
  // the failing checks: one script per implementation, loaded on demand
  var loaded={},waiting={};
  window.toolwireDetails=function(name,html){
    loaded[name]=true;
    var slot=document.getElementById('details-'+name);
    if(slot){
      slot.innerHTML=html;
      var b=document.querySelector('button[data-load="'+name+'"]');
      if(b)b.remove();
    }
    apply();
    (waiting[name]||[]).forEach(function(f){f();});
    delete waiting[name];
  };
  function load(name,then){
    if(loaded[name]){if(then)then();return;}
    (waiting[name]=waiting[name]||[]).push(then||function(){});
    if(waiting[name].length>1)return;
    var slot=document.getElementById('details-'+name);
    var s=document.createElement('script');
    s.src=slot.getAttribute('data-src');
    s.onerror=function(){slot.textContent='Could not load '+s.src+' (it must be next to this page).';};
    document.body.appendChild(s);
  }
  function reveal(){
    var id=decodeURIComponent(location.hash.slice(1));
    if(!id)return;
    var el=document.getElementById(id);
    if(!el){
      var a=document.querySelector('a[href="#'+CSS.escape(id)+'"]');
      // a link names its implementation, or (in the matrix) its column's header does
      var td=a&&!a.hasAttribute('data-for')?a.closest('#matrix td'):null;
      var th=td?document.getElementById('matrix').rows[0].cells[td.cellIndex]:null;
      var name=a&&(a.getAttribute('data-for')||(th&&th.getAttribute('data-impl')));
      if(name)load(name,reveal);
      return;
    }
    all('.hit').forEach(function(h){h.classList.remove('hit');});
    if(el.tagName==='DETAILS'){el.open=true;}
    var ids=el.getAttribute('data-checks');
    if(ids){ids.split(' ').forEach(function(c){
      var d=document.getElementById(c);
      if(d){d.open=true;d.classList.add('hit');}
    });}
    var area=el.getAttribute('data-area');
    boxes('area').forEach(function(b){if(b.getAttribute('data-area')===area)b.checked=true;});
    apply();
    el.scrollIntoView();
  }
  all('#filter input').forEach(function(b){b.addEventListener('change',apply);});
  all('#filter button[data-set]').forEach(function(btn){
    btn.addEventListener('click',function(){
      var on=btn.getAttribute('data-set')==='all';
      boxes(btn.getAttribute('data-kind')).forEach(function(b){b.checked=on;});
      apply();
    });
  });
  all('button[data-load]').forEach(function(b){
    b.addEventListener('click',function(){load(b.getAttribute('data-load'));});});
  function bar(){
    var f=document.getElementById('filter');
    var fixed=getComputedStyle(f).position==='sticky';
    document.documentElement.style.setProperty('--bar',(fixed?f.offsetHeight:0)+'px');
  }
  window.addEventListener('resize',bar);
  bar();
  window.addEventListener('hashchange',reveal);
  // the page comes counted for every box checked; a reload may bring boxes back unchecked
  if(all('#filter input').some(function(b){return !b.checked;}))apply();
  reveal();
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


def details_file(impl: Implementation) -> str:
    """The file (next to the page) holding an implementation's failing checks."""
    return f"{impl.name}.details.js"


def _impl_key(impl: Implementation) -> str:
    return _slug(impl.name)


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


def _inline(text: object) -> str:
    """Text with Markdown-style `code` spans (as feature titles have them) as ``<code>``."""
    parts = str(text).split("`")
    if len(parts) % 2 == 0:  # an unmatched backtick: no code span
        return _e(text)
    return "".join(f"<code>{_e(p)}</code>" if i % 2 else _e(p) for i, p in enumerate(parts))


def _levels_data(t: Tally | None) -> str:
    """``data-l``: passed,applicable per level (must, should, may), for the level filter."""
    if t is None:
        return ",".join("0" for _ in range(2 * len(LEVELS)))
    return ",".join(f"{t.passed_by_level[lv]},{t.applicable_by_level[lv]}" for lv in LEVELS)


def _cell_attrs(t: Tally | None, cls: str) -> str:
    uncovered = ' data-u="1"' if t is None else ""
    return f'class="{cls}" data-l="{_levels_data(t)}"{uncovered}'


def _header_cell(impl: Implementation, matrix: Matrix) -> str:
    key = _impl_key(impl)
    name = f'<a href="#impl-{key}">{_e(impl.name)}</a>'
    label = f'<span class="label"><br><span class="muted">{_e(impl.label)}</span></span>'
    parts = [f"<strong>{name}</strong>", label]
    if impl.report:
        tip = "its Markdown report: rendered when browsed on GitHub, plain text opened from disk"
        parts.append(f'<br><a class="md" href="{_e(impl.report)}" title="{tip}">Markdown report</a>')
    if impl.stale:
        tip = _e(run_text(impl, matrix))
        parts.append(f'<br><span class="tag stale" title="{tip}">{_e(STALE_TEXT)}</span>')
    if impl.partial:
        parts.append(f'<br><span class="tag partial" title="{_e(impl.partial)}">partial</span>')
    classes = "impl stale" if impl.stale else "impl"
    return f'<th class="{classes}" scope="col" data-impl="{key}">{"".join(parts)}</th>'


def _feature_label(matrix: Matrix, key: str) -> str:
    title = feature_title(matrix, key)
    if title:
        return f'{_inline(title)} <code class="key">{_e(key)}</code>'
    return f'<code class="key">{_e(key)}</code>'


def _plain(text: object) -> str:
    """Text with Markdown-style `code` spans as their plain text, for an attribute (a tooltip shows no markup,
    so the backticks would show as they are)."""
    parts = str(text).split("`")
    return str(text) if len(parts) % 2 == 0 else "".join(parts)


def _feature_row(matrix: Matrix, key: str) -> str:
    description = (matrix.features.get(key) or {}).get("description")
    tip = f' title="{_e(_plain(description))}"' if description else ""
    cells = []
    for impl in matrix.implementations:
        t = impl.by_feature.get(key)
        text = _e(cell_text(t))
        if t is not None and t.applicable and t.passed < t.applicable and impl.failing_for(key):
            anchor = feature_anchor(impl.name, key)
            text = f'<a href="#{anchor}">{text}</a>'
        stale = " stale" if impl.stale else ""
        attrs = _cell_attrs(t, _status_class(t) + stale)
        cells.append(f"<td {attrs}>{text}</td>")
    label = _feature_label(matrix, key)
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
        out.append(f'<tr class="level" data-level="{level}"><th scope="row">{level}</th>{cells}</tr>')
    out.append("</tbody>")
    for area, keys in matrix.areas:
        out.append(f'<tbody data-area="{_e(area)}">')
        cells = []
        for impl in impls:
            t = impl.by_area.get(area)
            text = STATUS_UNCOVERED if t is None else score_text(t.passed, t.applicable)
            attrs = _cell_attrs(t, _status_class(t))
            cells.append(f"<td {attrs}>{_e(text)}</td>")
        out.append(f'<tr class="area"><th scope="row">area: {_e(area)}</th>{"".join(cells)}</tr>')
        out += [_feature_row(matrix, key) for key in keys]
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
        f'<details id="{check_anchor(impl.name, cid)}" data-area="{_e(check.get("area", "?"))}" '
        f'data-level="{_e(check.get("level", "?"))}">'
        f'<summary><code>{_e(cid)}</code> <span class="outcome">{_e(check.get("outcome", "?"))}</span>'
        f"</summary>{''.join(body)}</details>"
    )


def _finding_item(impl: Implementation, finding: Finding) -> str:
    title = "".join(f"<code>{_e(p)}</code>" if isinstance(p, Code) else _e(p) for p in finding.title)
    levels = ", ".join(f"{count} {level}" for level, count in finding.levels())
    key = _impl_key(impl)
    links = [
        f'<a href="#{check_anchor(impl.name, str(c.get("id")))}" data-for="{key}">{_e(c.get("id"))}</a>'
        for c in finding.sample(SHOWN_CHECKS)
    ]
    if finding.count > SHOWN_CHECKS:
        links.append(f"and {finding.count - SHOWN_CHECKS} more")
    n = finding.count
    areas = " ".join(sorted({str(c.get("area", "?")) for c in finding.checks}))
    level_set = " ".join(level for level, _count in finding.levels())
    return (
        f'<li data-areas="{_e(areas)}" data-levels="{_e(level_set)}">{title}<br><span class="muted">'
        f"{n} check{'s' if n != 1 else ''} ({levels}): {', '.join(links)}</span></li>"
    )


#: findings listed per implementation on the page; the rest are in its details file
SHOWN_BUGS = 5


def _bugs(impl: Implementation, findings: list[Finding]) -> list[str]:
    """The first findings of the implementation (:mod:`.bugs`), the most checks first, as at the top of
    its Markdown report."""
    if not findings:
        return []
    n = len(findings)
    out = [
        f'<div class="bugs" id="bugs-{_impl_key(impl)}"><p><strong>Translation bugs found</strong>: '
        f"{n} distinct problem{'s' if n != 1 else ''} in these checks, grouped by the rule broken, "
        "the most checks first:</p><ol>"
    ]
    out += [_finding_item(impl, f) for f in findings[:SHOWN_BUGS]]
    out.append("</ol>")
    rest = findings[SHOWN_BUGS:]
    if rest:
        top = max(f.count for f in rest)
        out.append(
            f'<p class="muted">{len(rest)} more, each in {top} check{"s" if top != 1 else ""} or fewer, '
            "with the failing checks below.</p>"
        )
    out.append("</div>")
    return out


def render_details(matrix: Matrix, impl: Implementation) -> str:
    """``<name>.details.js``: the implementation's remaining findings, its failing checks by feature and
    each failing check with its diff, as HTML handed to the page (``toolwireDetails(name, html)``)."""
    key = _impl_key(impl)
    findings = find_bugs(impl.failing)
    out: list[str] = []
    rest = findings[SHOWN_BUGS:]
    if rest:
        start = SHOWN_BUGS + 1
        out.append(f'<div class="bugs"><p><strong>More translation bugs</strong>:</p><ol start="{start}">')
        out += [_finding_item(impl, f) for f in rest]
        out.append("</ol></div>")
    out.append('<ul class="index">')
    for area, keys in matrix.areas:
        for feature in keys:
            checks = impl.failing_for(feature)
            if not checks:
                continue
            anchors = [check_anchor(impl.name, str(c.get("id"))) for c in checks]
            links = "".join(
                f'<li><a href="#{a}" data-for="{key}">{_e(c.get("id"))}</a> {_e(c.get("outcome"))}</li>'
                for a, c in zip(anchors, checks, strict=True)
            )
            out.append(
                f'<li id="{feature_anchor(impl.name, feature)}" data-area="{_e(area)}" '
                f'data-checks="{" ".join(anchors)}">{_feature_label(matrix, feature)}: {len(checks)}'
                f"<ul>{links}</ul></li>"
            )
    out.append("</ul>")
    out += [_check_details(impl, check) for check in impl.failing]
    html = "".join(out)
    payload = json.dumps(html, ensure_ascii=False)
    return (
        f"/* toolwire: the failing checks of {impl.name} for index.html (toolwire report combine) */\n"
        f"toolwireDetails({json.dumps(key)}, {payload});\n"
    )


def _failures(matrix: Matrix) -> list[str]:
    out = ['<h2 id="failures">Failing checks</h2>']
    out.append(
        '<p class="muted">Per implementation: its translation bugs (failing checks grouped by the rule they '
        "break), then its failing checks by feature and each with its diff, loaded from the "
        "<code>&lt;name&gt;.details.js</code> file next to this page when a cell or a finding is followed "
        "or <em>show</em> is pressed.</p>"
    )
    for impl in matrix.implementations:
        n = len(impl.failing)
        key = _impl_key(impl)
        out.append(f'<section class="impl-failures" id="impl-{key}" data-impl="{key}">')
        out.append(f"<h3>{_e(impl.name)}: {n} failing check{'s' if n != 1 else ''}</h3>")
        if not n:
            out.append("<p>None: every applicable check passed.</p></section>")
            continue
        out += _bugs(impl, find_bugs(impl.failing))
        md = f' or read <a href="{_e(impl.report)}">{_e(impl.report)}</a>' if impl.report else ""
        out.append(
            f'<p><button type="button" data-load="{key}">show the {n} failing checks</button>'
            f"<noscript> (needs JavaScript{md})</noscript></p>"
        )
        out.append(f'<div id="details-{key}" data-src="{_e(details_file(impl))}"></div>')
        out.append("</section>")
    return out


def _filters(matrix: Matrix) -> list[str]:
    out = ['<nav id="filter" aria-label="filters">']
    out.append("<fieldset><legend>Areas</legend>")
    for area, _keys in matrix.areas:
        out.append(f'<label><input type="checkbox" data-area="{_e(area)}" checked> {_e(area)}</label>')
    out.append('<button type="button" data-set="all" data-kind="area">all</button>')
    out.append('<button type="button" data-set="none" data-kind="area">none</button></fieldset>')
    out.append("<fieldset><legend>Implementations</legend>")
    for impl in matrix.implementations:
        key = _impl_key(impl)
        out.append(f'<label><input type="checkbox" data-impl="{key}" checked> {_e(impl.name)}</label>')
    out.append("</fieldset>")
    out.append("<fieldset><legend>Levels</legend>")
    for level in LEVELS:
        out.append(f'<label><input type="checkbox" data-level="{level}" checked> {level}</label>')
    out.append("</fieldset></nav>")
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
    out += _filters(matrix)
    out += _matrix(matrix)
    out.append(
        f'<p class="muted">{STATUS_ALL} every applicable check passes · {STATUS_SOME} some pass · '
        f"{STATUS_NONE} none pass · {STATUS_NA} not applicable (every check skipped) · {STATUS_UNCOVERED} no "
        "check of this feature ran; <code>n/m</code> = passed / applicable checks. Scores per level count "
        "applicable checks only; the filters above count only the selected areas and levels. A cell with "
        "failures links to them.</p>"
    )
    out += _failures(matrix)
    out.append("<footer>toolwire: a conformance suite for LLM tool-calling wire-format translators.</footer>")
    out.append(f"<script>{_JS}</script>")
    out += ["</body>", "</html>"]
    return "\n".join(out) + "\n"
