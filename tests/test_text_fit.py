"""Text fitting: greedy wrapping, binary search on the size, overflow reported (never clipped), inline icons."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pnp import fonts
from pnp.drawing import MM_PER_PT, Box, Icon, TextLine
from pnp.text import ICON_ADVANCE_EM, TextFitError, block_height, fit_text, parse_words, text_width_mm

BOX = Box(3.0, 40.0, 57.0, 20.0)
LONG = ("The Grayking's servants roll one more die than you. Roll your attack dice, then roll for the "
        "servant: your roll must be equal to or greater than his to win the battle.")


def texts(result):
    return [item for item in result.items if isinstance(item, TextLine)]


def test_short_text_keeps_the_largest_size():
    result = fit_text("Iarith", BOX, "serif", 12.0, 6.0)
    assert result.fits and result.size == 12.0 and result.lines == ("Iarith",)
    assert result.over_mm == 0.0 and result.over_lines == 0


def test_long_text_shrinks_to_the_largest_size_that_fits():
    result = fit_text(LONG, BOX, "serif", 14.0, 6.0)
    assert result.fits and 6.0 < result.size < 14.0
    # 0.1 pt larger no longer fits: the binary search found the edge, not just some fitting size.
    bigger = fit_text(LONG, BOX, "serif", round(result.size + 0.1, 1), round(result.size + 0.1, 1))
    assert not bigger.fits
    # Every line lies inside the box.
    for line in texts(result):
        assert BOX.x - 1e-6 <= line.x
        assert line.x + fonts.string_width_mm(line.text, line.family, line.size) <= BOX.right + 1e-6
    height = block_height(len(result.lines), "serif", result.size, 1.15)
    assert height <= BOX.height + 1e-6


def test_size_is_on_the_resolution_grid():
    result = fit_text(LONG, BOX, "serif", 14.0, 6.0, resolution=0.5)
    assert (result.size * 2) == pytest.approx(round(result.size * 2))


def test_greedy_wrap_fills_each_line_before_breaking():
    result = fit_text(LONG, BOX, "serif", 9.0, 9.0)
    words = LONG.split()
    position = 0
    for line in result.lines[:-1]:
        count = len(line.split())
        position += count
        next_word = words[position]
        # The next word would not have fitted on this line.
        assert text_width_mm(line + " " + next_word, "serif", 9.0) > BOX.width
    assert " ".join(result.lines) == LONG


def test_overflow_is_reported_not_clipped():
    result = fit_text(LONG * 4, BOX, "serif", 10.0, 6.0)
    assert not result.fits and result.size == 6.0
    assert result.over_mm > 0 and result.over_lines > 0
    # Every line is still drawn (nothing silently cut off).
    assert len(texts(result)) == len(result.lines)
    lowest = max(line.y for line in texts(result))
    assert lowest > BOX.bottom
    # over_mm is the height overflow at the minimum size.
    expected = block_height(len(result.lines), "serif", 6.0, 1.15) - BOX.height
    assert result.over_mm == pytest.approx(expected, abs=0.01)


def test_a_word_wider_than_the_box_is_an_overflow():
    result = fit_text("Incomprehensibilities", Box(0, 0, 10, 30), "serif", 10.0, 8.0)
    assert not result.fits and result.over_mm > 0 and result.over_lines == 0


@pytest.mark.parametrize("bad", [dict(max_size=6, min_size=8), dict(min_size=0), dict(align="justify")])
def test_bad_requests_raise(bad):
    with pytest.raises(TextFitError):
        fit_text("x", BOX, **bad)


def test_alignment_anchors():
    left, centre, right = (texts(fit_text("Tural", BOX, "serif", 10, 10, align=a))[0] for a in ("left", "center", "right"))
    assert (left.anchor, left.x) == ("start", BOX.x)
    assert (centre.anchor, centre.x) == ("middle", BOX.x + BOX.width / 2)
    assert (right.anchor, right.x) == ("end", BOX.right)


def test_icon_tokens_are_icons_on_the_baseline_one_em_wide():
    size = 10.0
    em = size * MM_PER_PT
    result = fit_text("Roll :d6-4: then :mana:", BOX, "serif", size, size)
    icons = [item for item in result.items if isinstance(item, Icon)]
    assert [icon.name for icon in icons] == ["d6-4", "mana"]
    baseline = texts(result)[0].y
    for icon in icons:
        # The icon's drawing (5..95 of its viewBox) stands on the baseline, scaled to the text size.
        visible_bottom = icon.y + icon.size * 0.95
        assert visible_bottom == pytest.approx(baseline, abs=0.02)
        assert 0.8 * em < icon.size <= em
    # Measured as one em each.
    plain = fonts.string_width_mm("Roll  then ", "serif", size)
    assert text_width_mm("Roll :d6-4: then :mana:", "serif", size) == pytest.approx(plain + 2 * ICON_ADVANCE_EM * em)
    # The text after the icon starts after the icon's advance.
    then = next(t for t in texts(result) if t.text.startswith("then"))
    assert then.x > icons[0].x + icons[0].size


def test_unknown_tokens_stay_text():
    assert parse_words("ratio 1:2: :nothing:")[0][-1][0].text == ":nothing:"


def test_glyph_fallback_for_bold_and_korean():
    result = fit_text("Wardens — 워든", BOX, "serif-bold", 10, 10)
    families = [t.family for t in texts(result)]
    assert families == ["serif-bold", "korean-bold"]  # the dash is bold (issue 15); Hangul in bold text is bold Nanum Myeongjo


@settings(max_examples=40, deadline=None)
@given(st.lists(st.sampled_from(["mana", "Grayking", "a", "Lassadar,", ":d6-3:", "servants", "—", "raise"]),
                min_size=1, max_size=60))
def test_fit_is_consistent(words):
    text = " ".join(words)
    result = fit_text(text, BOX, "serif", 11.0, 6.0)
    assert 6.0 <= result.size <= 11.0
    assert result.fits == (result.over_mm == 0.0)
    if result.fits and result.size < 11.0:
        assert not fit_text(text, BOX, "serif", round(result.size + 0.1, 1), round(result.size + 0.1, 1)).fits
    rebuilt = " ".join(result.lines)
    assert rebuilt == text


def test_digits_are_lining_and_bold_in_bold_text():
    assert fonts.runs("Warding Key 1", "serif-bold") == (("serif-bold", "Warding Key "), ("numerals-bold", "1"))
    assert fonts.runs("Range 2 hexes", "serif") == (("serif", "Range "), ("numerals", "2"), ("serif", " hexes"))
    assert fonts.runs("up to 2 hexes", "serif-italic")[1] == ("numerals", "2")
    assert fonts.family("numerals-bold").file == "NanumMyeongjoBold.ttf"
    assert (fonts.FONT_DIR / "NanumMyeongjoBold.ttf").is_file()


def test_space_after_a_number_is_the_text_fonts_space():
    """"+1 to your attack": the space after the digit run is EB Garamond's, and the digit keeps only a
    small side bearing either side, so the gap after a number is a normal word space."""
    size = 10.0
    em = size * MM_PER_PT
    space = fonts.string_width_mm(" ", "serif", size)
    result = fit_text("+1 to your attack", BOX, "serif", size, size)
    one, after = (t for t in texts(result) if t.text in ("1", "to your attack"))
    from reportlab.pdfbase import pdfmetrics

    right = fonts._sides("numerals")["1"][1]  # the glyph's empty right side, 1/1000 em
    advance = pdfmetrics.stringWidth("1", fonts.register("numerals"), size) * 25.4 / 72  # the font's own advance
    ink_right = one.x + advance - right / 1000 * em
    gap = after.x - ink_right
    assert gap == pytest.approx(space + fonts.DIGIT_SIDE_BEARING_EM * em, abs=0.01)
    # NanumMyeongjo's own space and its "1"'s empty sides would leave a much wider hole.
    wide = fonts.run_advance_mm(" ", "numerals", size)
    assert gap < wide


def test_tight_digits_are_measured_as_drawn():
    """A line with digits measures exactly the width its runs are laid out over."""
    result = fit_text("Roll 2d6 for 11 :mana:", BOX, "serif", 9, 9, align="right")
    icons = [item for item in result.items if isinstance(item, Icon)]
    right = icons[-1].x + icons[-1].size + (ICON_ADVANCE_EM - 0.9) * 9 * MM_PER_PT / 2
    assert right == pytest.approx(BOX.right, abs=1e-6)


def test_a_bold_title_keeps_its_weight_for_latin_extended_letters():
    """Issue 15, Text: letters outside the bold font's coverage (É, ß, Ł, ó, ź in a title) fell back to the
    regular weight inside a bold title. The bundled bold (EB Garamond's Bold instance) draws every letter of
    Latin-1 and Latin Extended-A that the regular draws, so a bold run stays one bold run."""
    letters = [chr(c) for c in range(0xC0, 0x180) if chr(c).isalpha()]
    lacking = [c for c in letters if fonts.has_glyph("serif", c) and not fonts.has_glyph("serif-bold", c)]
    assert lacking == []
    assert fonts.runs("Łukasz Éß óź Šárka", "serif-bold") == (("serif-bold", "Łukasz Éß óź Šárka"),)


@pytest.mark.parametrize("size", [6.0, 6.5, 7.0, 7.5, 8.0])
def test_a_wrapped_korean_line_is_no_wider_than_its_box(db, size):
    """Thirteenth breaker: the wrap added the family's space between words, but a space after Hangul is
    drawn in the Korean font, wider: lines of the Korean summary measured up to 51.9 mm in a 50 mm box. Every
    line is now measured as drawn."""
    from pnp.text import measure

    for section in db.get("duel.summary.rules-ko").sections:
        _, widest = measure(section.text, 50.0, "serif", size, line_spacing=1.0)
        assert widest <= 50.0 + 1e-9, (section.heading, size, widest)
