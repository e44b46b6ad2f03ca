"""Shields-style flat SVG badges (``toolwire-must | 97%``), self-contained and deterministic.

Text widths are approximated from Verdana's advance widths at 11 px (what shields.io renders with), so the
same text always gives the same bytes and the badge looks right without measuring fonts.
"""

from __future__ import annotations

from xml.sax.saxutils import escape

from .scoring import percent

__all__ = ["badge_svg", "colour", "text_width"]

# Verdana advance widths (units per em: 2048) for printable ASCII, from space (32) to tilde (126)
# fmt: off
_VERDANA = (
    720, 821, 942, 1716, 1303, 2218, 1493, 548, 929, 929, 1303, 1716, 748, 929, 748, 1339,  # space../
    1303, 1303, 1303, 1303, 1303, 1303, 1303, 1303, 1303, 1303,  # 0-9
    929, 929, 1716, 1716, 1716, 1120, 2048,  # :;<=>?@
    1401, 1405, 1430, 1577, 1294, 1178, 1589, 1540, 862, 929, 1423, 1141, 1730,  # A-M
    1532, 1612, 1235, 1612, 1446, 1403, 1251, 1499, 1401, 2026, 1405, 1251, 1403,  # N-Z
    929, 1339, 929, 1716, 1303, 1303,  # [\]^_`
    1229, 1276, 1067, 1276, 1220, 720, 1276, 1296, 562, 705, 1198, 562, 1992,  # a-m
    1296, 1243, 1276, 1276, 874, 1067, 807, 1296, 1198, 1659, 1198, 1198, 1067,  # n-z
    1303, 929, 1303, 1716,  # {|}~
)
# fmt: on
_FONT_SIZE = 11
_WIDE = 1303  # anything else (non-ASCII): a digit's width

#: (minimum percentage, colour): shields' named colours brightgreen … red
_COLOURS = (
    (100.0, "#4c1"),
    (90.0, "#97ca00"),
    (75.0, "#a4a61d"),
    (60.0, "#dfb317"),
    (40.0, "#fe7d37"),
    (0.0, "#e05d44"),
)
GREY = "#9f9f9f"


def text_width(text: str) -> float:
    """Approximate width in px of ``text`` in Verdana 11 px, rounded to a tenth."""
    units = 0
    for ch in text:
        code = ord(ch)
        units += _VERDANA[code - 32] if 32 <= code <= 126 else _WIDE
    return round(units * _FONT_SIZE / 2048, 1)


def colour(passed: int, applicable: int) -> str:
    """The badge colour of a score: bright green only for 100%, grey when nothing applies."""
    if applicable == 0:
        return GREY
    value = 100.0 * passed / applicable
    if passed == applicable:
        return _COLOURS[0][1]
    return next(c for floor, c in _COLOURS[1:] if value >= floor)


def badge_svg(passed: int, applicable: int, *, label: str = "toolwire-must", suffix: str = "") -> str:
    """A flat badge: ``label`` on grey, the score (``percent(passed, applicable)`` or ``n/a``) on a colour;
    ``suffix`` is appended to the score (e.g. `` partial``)."""
    value = ("n/a" if applicable == 0 else percent(passed, applicable)) + suffix
    fill = colour(passed, applicable)
    lw = round(text_width(label) + 10)
    vw = round(text_width(value) + 10)
    width = lw + vw
    title = escape(f"{label}: {value}")
    label_x, value_x = lw * 5, lw * 10 + vw * 5  # centres, in the 10× text coordinate system
    label_len, value_len = round(text_width(label) * 10), round(text_width(value) * 10)
    lab, val = escape(label), escape(value)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="20" role="img" '
        f'aria-label="{title}">'
        f"<title>{title}</title>"
        '<linearGradient id="s" x2="0" y2="100%"><stop offset="0" stop-color="#bbb" stop-opacity=".1"/>'
        '<stop offset="1" stop-opacity=".1"/></linearGradient>'
        f'<clipPath id="r"><rect width="{width}" height="20" rx="3" fill="#fff"/></clipPath>'
        f'<g clip-path="url(#r)"><rect width="{lw}" height="20" fill="#555"/>'
        f'<rect x="{lw}" width="{vw}" height="20" fill="{fill}"/>'
        f'<rect width="{width}" height="20" fill="url(#s)"/></g>'
        '<g fill="#fff" text-anchor="middle" font-family="Verdana,Geneva,DejaVu Sans,sans-serif" '
        'text-rendering="geometricPrecision" font-size="110">'
        f'<text aria-hidden="true" x="{label_x}" y="150" fill="#010101" fill-opacity=".3" '
        f'transform="scale(.1)" textLength="{label_len}">{lab}</text>'
        f'<text x="{label_x}" y="140" transform="scale(.1)" fill="#fff" textLength="{label_len}">{lab}</text>'
        f'<text aria-hidden="true" x="{value_x}" y="150" fill="#010101" fill-opacity=".3" '
        f'transform="scale(.1)" textLength="{value_len}">{val}</text>'
        f'<text x="{value_x}" y="140" transform="scale(.1)" fill="#fff" textLength="{value_len}">{val}</text>'
        "</g></svg>\n"
    )
