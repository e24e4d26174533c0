"""Bundled fonts: registration with ReportLab and string measurement from the same TTF files.

This module owns the font family keys used everywhere in a Drawing (``"serif"``, ``"serif-bold"``,
``"serif-italic"``, ``"korean"``, and ``"numerals"`` for lining digits), which TTF under ``templates/fonts/`` each key means, the family
name the SVG backend writes, and every width measurement. Because the PDF backend embeds these very
files and the text fitter measures with them, a line breaks at the same word in the SVG and the PDF
on every machine.

Glyph fallback: the bundled EB Garamond Bold covers only basic Latin, and no Garamond has Hangul.
EB Garamond's digits are old-style; bold text (titles, key and table numbers) takes its digits from
the ``"numerals"`` family (NanumMyeongjo's lining digits) so a "1" never reads as an "I".
:func:`runs` therefore splits a string into runs, each in the first family of the key's fallback
chain that has every glyph of the run (for example ``"serif-bold"`` falls back to ``"serif"``, then
to ``"korean"``). Measurement and both backends use the same runs.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

from pnp.drawing import MM_PER_PT

FONT_DIR = Path(__file__).resolve().parent.parent / "templates" / "fonts"
"""Folder of the bundled OFL TTF files."""


@dataclass(frozen=True)
class FontFamily:
    """One family key: its TTF ``file`` (under :data:`FONT_DIR`), the ReportLab ``pdf_name`` it is
    registered as, the SVG ``font-family`` / ``font-weight`` / ``font-style`` written for it, the
    ``fallback`` keys tried, in order, for glyphs the file lacks, and ``digits``: the family key whose
    digits 0-9 replace this one's (lining figures in bold titles and numbers)."""

    key: str
    file: str
    pdf_name: str
    svg_family: str
    svg_weight: str = "normal"
    svg_style: str = "normal"
    fallback: tuple[str, ...] = ()
    digits: str | None = None


FAMILIES: dict[str, FontFamily] = {
    "serif": FontFamily("serif", "EBGaramond12-Regular.ttf", "EBGaramond-Regular", "EB Garamond",
                        fallback=("korean",), digits="numerals"),
    "serif-bold": FontFamily("serif-bold", "EBGaramond12-Bold.ttf", "EBGaramond-Bold", "EB Garamond",
                             svg_weight="bold", fallback=("serif", "korean"), digits="numerals"),
    "serif-italic": FontFamily("serif-italic", "EBGaramond12-Italic.ttf", "EBGaramond-Italic", "EB Garamond",
                               svg_style="italic", fallback=("serif", "korean"), digits="numerals"),
    "korean": FontFamily("korean", "NanumMyeongjo.ttf", "NanumMyeongjo", "NanumMyeongjo",
                         fallback=("serif",)),
    # EB Garamond's digits are old-style (a "1" looks like a small "I", which misreads "roll a 1 or 2");
    # every family takes NanumMyeongjo's lining serif digits instead (the same embedded file).
    "numerals": FontFamily("numerals", "NanumMyeongjo.ttf", "NanumMyeongjo", "NanumMyeongjo",
                           fallback=("serif",)),
}


def family(key: str) -> FontFamily:
    """The :class:`FontFamily` for ``key``; raises ``KeyError`` naming the known keys if unknown."""
    try:
        return FAMILIES[key]
    except KeyError:
        raise KeyError(f"unknown font family {key!r}; known: {', '.join(sorted(FAMILIES))}") from None


@lru_cache(maxsize=None)
def register(key: str) -> str:
    """Register the TTF of family ``key`` with ReportLab (once) and return its ReportLab font name.

    Raises ``KeyError`` for an unknown key and ``FileNotFoundError`` if the TTF is missing.
    """
    fam = family(key)
    path = FONT_DIR / fam.file
    if not path.is_file():
        raise FileNotFoundError(f"bundled font {path} is missing")
    pdfmetrics.registerFont(TTFont(fam.pdf_name, str(path)))
    return fam.pdf_name


@lru_cache(maxsize=None)
def _face(key: str):
    register(key)
    return pdfmetrics.getFont(family(key).pdf_name).face


def has_glyph(key: str, char: str) -> bool:
    """True when the TTF of family ``key`` has a glyph for ``char`` (spaces and controls always count)."""
    if char in " \u00a0\t":
        return True
    return ord(char) in _face(key).charToGlyph


@lru_cache(maxsize=4096)
def runs(text: str, key: str) -> tuple[tuple[str, str], ...]:
    """Split ``text`` into ``((family key, text), ...)`` runs, each drawable with one font.

    Every character goes to the first family of ``key`` followed by its fallback chain that has it
    (digits go to the family's ``digits`` family when it has one); a character no bundled font has
    stays in ``key`` (it prints as the font's missing-glyph box).
    """
    fam = family(key)
    chain = (key,) + fam.fallback
    result: list[list[str]] = []
    for char in text:
        if fam.digits and char in "0123456789":
            chosen = fam.digits
        else:
            chosen = next((k for k in chain if has_glyph(k, char)), key)
        if char == " " and result:
            chosen = result[-1][0]  # a space joins the run before it
        if result and result[-1][0] == chosen:
            result[-1][1] += char
        else:
            result.append([chosen, char])
    return tuple((k, t) for k, t in result)


@lru_cache(maxsize=65536)
def _width_per_pt(text: str, key: str) -> float:
    """Width of ``text`` in points at 1 pt, over its fallback runs."""
    return sum(pdfmetrics.stringWidth(t, register(k), 1.0) for k, t in runs(text, key))


def string_width_mm(text: str, key: str, size_pt: float) -> float:
    """Width in mm of ``text`` set in family ``key`` at ``size_pt`` points (no kerning, glyph fallback)."""
    return _width_per_pt(text, key) * size_pt * MM_PER_PT


def ascent_mm(key: str, size_pt: float) -> float:
    """Distance in mm from the baseline up to the font's ascender line at ``size_pt``."""
    return _face(key).ascent / 1000 * size_pt * MM_PER_PT


def descent_mm(key: str, size_pt: float) -> float:
    """Distance in mm (positive) from the baseline down to the font's descender line at ``size_pt``."""
    return -_face(key).descent / 1000 * size_pt * MM_PER_PT


def cap_height_mm(key: str, size_pt: float) -> float:
    """Height in mm of capital letters above the baseline at ``size_pt``."""
    return _face(key).capHeight / 1000 * size_pt * MM_PER_PT
