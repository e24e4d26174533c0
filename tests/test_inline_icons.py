"""Inline icons sit on the text baseline at the text's size, in both backends, measured on the render.

Issue 3, "Text and icons": tokens such as :mana: or :d6-6: draw the icon on the baseline of the text
at its size, also on a line of icons only, a line that starts with an icon, centred or right-aligned,
in the SVG and in the PDF. Each case is laid out by pnp.text.fit_text, drawn by a backend, rendered
to pixels with PDFium (tests.pages), and measured: the die's frame bottom and the bottom of a capital H (which has
no descender) must both fall on the baseline of the Drawing.
"""
from __future__ import annotations

import pytest

from pnp.drawing import Box, Drawing, Icon, TextLine
from pnp.pdf import write_card_pdf
from pnp.svg import write_svg
from pnp.text import fit_text
from tests.pages import render_page

DPI = 400
DPMM = DPI / 25.4
SIZE = 24.0
D6_BOTTOM = 0.955
"""Bottom of the die face's frame in its 100-unit viewBox (rect to 93, stroke 5 wide)."""

CASES = {
    "icons only": (":d6-6: :d6-6:", "left"),
    "starts with an icon": (":d6-6: H", "left"),
    "centred": ("H :d6-6: H", "center"),
    "right-aligned": ("H :d6-6:", "right"),
}


def render(drawing: Drawing, backend: str, tmp_path):
    pdf = tmp_path / f"{backend}.pdf"
    if backend == "pdf":
        write_card_pdf(drawing, pdf)
    else:  # the SVG file as written, read back by an independent SVG reader (svglib) and rasterised
        from reportlab.graphics import renderPDF
        from svglib.svglib import svg2rlg

        svg = write_svg(drawing, tmp_path / "card.svg")
        renderPDF.drawToFile(svg2rlg(str(svg)), str(pdf))
    return render_page(pdf, 1, DPI).convert("L")


def bottom_of_ink(image, x0_mm: float, x1_mm: float, origin_mm: float) -> float:
    """The lowest dark pixel between x0 and x1 (trim mm), as trim mm (the image starts at -bleed)."""
    lowest = None
    for x in range(int((x0_mm + origin_mm) * DPMM), int((x1_mm + origin_mm) * DPMM)):
        for y in range(image.height - 1, -1, -1):
            if image.getpixel((x, y)) < 96:
                lowest = y if lowest is None else max(lowest, y)
                break
    assert lowest is not None, "nothing drawn there"
    return (lowest + 1) / DPMM - origin_mm


@pytest.mark.parametrize("backend", ["pdf", "svg"])
@pytest.mark.parametrize("case", list(CASES))
def test_icons_and_text_stand_on_the_same_baseline(case, backend, tmp_path):
    text, align = CASES[case]
    box = Box(5.0, 20.0, 53.0, 30.0)
    result = fit_text(text, box, "serif", SIZE, SIZE, align=align)
    assert result.fits
    drawing = Drawing(63.0, 88.0, 3.0, tuple(result.items), id="icons")
    icons = [item for item in result.items if isinstance(item, Icon)]
    letters = [item for item in result.items if isinstance(item, TextLine)]
    baseline = letters[0].y if letters else icons[0].y + icons[0].size * D6_BOTTOM
    em = SIZE * 25.4 / 72
    image = render(drawing, backend, tmp_path)
    for icon in icons:
        assert 0.8 * em < icon.size <= em  # sized to the text
        bottom = bottom_of_ink(image, icon.x + icon.size * 0.3, icon.x + icon.size * 0.7, 3.0)
        assert bottom == pytest.approx(baseline, abs=0.12), f"{case}: icon bottom {bottom:.2f} mm, baseline {baseline:.2f} mm"
    for letter in letters:
        assert letter.y == pytest.approx(baseline)
        if letter.text.strip() == "H":
            start = letter.x if letter.anchor == "start" else None
            if start is not None:
                bottom = bottom_of_ink(image, start + 0.3, start + 1.0, 3.0)
                assert bottom == pytest.approx(baseline, abs=0.12)
    # Alignment: the line's ink extent (icons and letters) is centred on the box, or ends at its right edge.
    from pnp import fonts

    spans = [(i.x, i.x + i.size) for i in icons]
    for t in letters:
        width = fonts.string_width_mm(t.text, t.family, t.size)
        start = {"start": t.x, "middle": t.x - width / 2, "end": t.x - width}[t.anchor]
        spans.append((start, start + width))
    left, right = min(a for a, _ in spans), max(b for _, b in spans)
    if align == "center":
        assert (left + right) / 2 == pytest.approx(box.x + box.width / 2, abs=0.6)
    elif align == "right":
        assert right == pytest.approx(box.right, abs=0.6)
    else:
        assert left == pytest.approx(box.x, abs=0.6)


@pytest.mark.parametrize("text, token, meant", [
    ("Gain :wïn: now", ":wïn:", "win"),  # an accented letter
    (":WÏN:", ":WÏN:", "win"),
    ("Lose :-mana:", ":-mana:", "mana"),  # a sign before the name
    (":+key:", ":+key:", "key"),
    (":\u2212spirit:", ":\u2212spirit:", "spirit"),  # a minus sign
    ("\uff1awin\uff1a", "\uff1awin\uff1a", "win"),  # fullwidth colons
    (":\uff57in:", ":\uff57in:", "win"),  # a fullwidth letter
    ("\ufe55mana\ufe55", "\ufe55mana\ufe55", "mana"),  # small colons (NFKC ':')
    ("\uff1a\uff44\uff16\uff0d\uff14\uff1a", "\uff1a\uff44\uff16\uff0d\uff14\uff1a", "d6-4"),  # all fullwidth
    (":d6\u22124:", ":d6\u22124:", "d6-4"),  # a minus sign for the hyphen
    (":w\u0456n:", ":w\u0456n:", "win"),  # a Cyrillic i, one letter from the icon
    ("Roll :mana:wïn: twice", ":wïn:", "win"),  # after an icon, sharing its colon
])
def test_a_token_written_like_an_icon_is_found_with_the_icon_meant(text, token, meant):
    """First icon breaker, fault 3: tokens that look like an icon's but name none printed as written and passed check."""
    from pnp.text import lookalike_icon_advice, lookalike_icons

    assert lookalike_icons(text) == [(token, meant)]
    advice = lookalike_icon_advice(token, meant)
    assert advice.startswith(f"{token} is written like an icon but names none") and advice.endswith(f"did you mean :{meant}:?")


@pytest.mark.parametrize("text", [
    "at 10:30, or 10:30:45",  # times
    "the ratio 3:1:2",
    "Battle: Win: 2",  # a colon in prose, a space after it
    "+2:-1: ok",  # a sign and a number, no icon near
    "Note :café: here",  # an accent in a word no icon is near
    "準備：カード：を配る",  # a word of another script between fullwidth colons
    "a\uff1ab\uff1ac",
    ":mana: and :d6-4:",  # icons
    ":manna: :Mana:",  # unknown_icons' to say, not said twice
])
def test_prose_with_colons_is_no_icon_token(text):
    """The other side of fault 3: a colon in prose, a time, a ratio or a word of another script is never an icon token."""
    from pnp.text import lookalike_icons

    assert lookalike_icons(text) == []
