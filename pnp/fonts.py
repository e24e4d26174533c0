"""Bundled fonts: registration with ReportLab and string measurement from the same TTF files.

This module owns the font family keys used everywhere in a Drawing (``"serif"``, ``"serif-bold"``,
``"serif-italic"``, ``"korean"``, and ``"numerals"`` / ``"numerals-bold"`` for lining digits), which TTF under ``templates/fonts/`` each key means, the family
name the SVG backend writes, and every width measurement. Because the PDF backend embeds these very
files and the text fitter measures with them, a line breaks at the same word in the SVG and the PDF
on every machine.

Glyph fallback: no Garamond has Hangul. (The bundled EB Garamond Bold is the Bold instance of EB Garamond's
variable font, with the regular's Latin Extended letters: a bold title never drops to the regular weight
for an É, ß or Ł, issue 15; templates/fonts/EBGaramond-Bold-OFL.txt says where it comes from.)
EB Garamond's digits are old-style; every text family takes its digits from a lining-figure family
(``"numerals"``, NanumMyeongjo, for regular and italic text; ``"numerals-bold"``, NanumMyeongjo Bold,
for bold text) so a "1" never reads as an "I". :func:`runs` therefore splits a string into runs,
each in the first family of the key's fallback chain that has every glyph of the run (for example
``"serif-bold"`` falls back to ``"serif"``, then to ``"korean"``). Measurement and both backends use
the same runs.

Digit runs are set tight: NanumMyeongjo's digits are tabular (every digit is 0.52 em wide, a "1"
has wide empty sides) and its space is half again as wide as EB Garamond's, which left a visible
hole after a number in running text. A space next to a digit run is therefore always the text
family's own space, and a run in a family with ``side_bearing_em`` is measured and placed by its
ink: the empty side before its first digit and after its last digit is replaced by that many em
(:func:`run_advance_mm`, :func:`run_shift_mm`). Inside a run (``"12"``) the digits keep their
tabular spacing.
"""
from __future__ import annotations

import math
import struct
import unicodedata
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

from pnp import resources
from pnp.units import MM_PER_PT

FONT_DIR = resources.FONT_DIR
"""Folder of the bundled OFL TTF files (``templates/fonts``, found by :mod:`pnp.resources` wherever pnp runs)."""


@dataclass(frozen=True)
class FontFamily:
    """One family key: its TTF ``file`` (under :data:`FONT_DIR`), the ReportLab ``pdf_name`` it is
    registered as, the SVG ``font-family`` / ``font-weight`` / ``font-style`` written for it, the
    ``fallback`` keys tried, in order, for glyphs the file lacks, ``digits``: the family key whose
    digits 0-9 replace this one's (lining figures), and ``side_bearing_em``: when set, the empty
    side of a run's first and last digit is replaced by this many em (tight digit runs)."""

    key: str
    file: str
    pdf_name: str
    svg_family: str
    svg_weight: str = "normal"
    svg_style: str = "normal"
    fallback: tuple[str, ...] = ()
    digits: str | None = None
    side_bearing_em: float | None = None


DIGIT_SIDE_BEARING_EM = 0.05
"""The side kept before and after a run of lining digits, in em: a little more than EB Garamond's own
side bearings (its figures are smaller), so "Key 1" does not read "Key1"."""

FAMILIES: dict[str, FontFamily] = {
    "serif": FontFamily("serif", "EBGaramond12-Regular.ttf", "EBGaramond-Regular", "EB Garamond",
                        fallback=("korean",), digits="numerals"),
    "serif-bold": FontFamily("serif-bold", "EBGaramond-Bold.ttf", "EBGaramond-Bold", "EB Garamond",
                             svg_weight="bold", fallback=("serif", "korean-bold", "korean"), digits="numerals-bold"),
    "serif-italic": FontFamily("serif-italic", "EBGaramond12-Italic.ttf", "EBGaramond-Italic", "EB Garamond",
                               svg_style="italic", fallback=("serif", "korean"), digits="numerals"),
    "korean": FontFamily("korean", "NanumMyeongjo.ttf", "NanumMyeongjo", "NanumMyeongjo",
                         fallback=("serif",)),
    # Bold Hangul (titles and headings of the Korean cards).
    "korean-bold": FontFamily("korean-bold", "NanumMyeongjoBold.ttf", "NanumMyeongjo-Bold", "NanumMyeongjo",
                              svg_weight="bold", fallback=("korean", "serif")),
    # EB Garamond's digits are old-style (a "1" looks like a small "I", which misreads "roll a 1 or 2");
    # every family takes NanumMyeongjo's lining serif digits instead (the same embedded file).
    "numerals": FontFamily("numerals", "NanumMyeongjo.ttf", "NanumMyeongjo", "NanumMyeongjo",
                           fallback=("serif",), side_bearing_em=DIGIT_SIDE_BEARING_EM),
    # Bold text's digits: NanumMyeongjo Bold (same metrics as the regular, heavier strokes).
    "numerals-bold": FontFamily("numerals-bold", "NanumMyeongjoBold.ttf", "NanumMyeongjo-Bold", "NanumMyeongjo",
                                svg_weight="bold", fallback=("serif-bold", "serif"),
                                side_bearing_em=DIGIT_SIDE_BEARING_EM),
}

DIGITS = frozenset("0123456789")


def family(key: str) -> FontFamily:
    """The :class:`FontFamily` for ``key``; raises ``KeyError`` naming the known keys if unknown."""
    try:
        return FAMILIES[key]
    except KeyError:
        raise KeyError(f"unknown font family {key!r}; known: {', '.join(sorted(FAMILIES))}") from None


@cache
def register(key: str) -> str:
    """Register the TTF of family ``key`` with ReportLab (once) and return its ReportLab font name.

    Raises ``KeyError`` for an unknown key and ``FileNotFoundError`` if the TTF is missing.
    """
    fam = family(key)
    path = FONT_DIR / fam.file
    if not path.is_file():
        raise FileNotFoundError(f"bundled font {path} is missing")
    if fam.pdf_name not in pdfmetrics.getRegisteredFontNames():  # families sharing a file (korean, numerals): parsed once
        pdfmetrics.registerFont(TTFont(fam.pdf_name, str(path)))
    return fam.pdf_name


@dataclass(frozen=True)
class FontFileProblem:
    """A bundled font file (``path``, under :data:`FONT_DIR`) that cannot be used: ``missing`` or not a TrueType font
    the PDF writer can read (``reason``: the library's own words, shortened). ``keys`` are the family keys that draw
    with it (the ``font = "..."`` a template box names, see :data:`FAMILIES`)."""

    path: str
    keys: tuple[str, ...]
    reason: str

    def line(self, shown: str) -> str:
        """The problem as one line, the file shown as ``shown`` (for example ``templates/fonts/EBGaramond-Bold.ttf``):
        ``<file>: <reason>; it is the bundled font of font = "serif-bold" in the templates: restore ...``."""
        named = " and ".join(f'font = "{key}"' for key in self.keys)
        return (f"{shown}: {self.reason}; it is the bundled font of {named} in the templates: restore the file from "
                f"the project (git checkout -- templates/fonts, or reinstall pnp)")


FONT_REASON_LIMIT = 80
"""How many characters of the font library's own reason a :class:`FontFileProblem` keeps."""


PRINTABLE_ASCII = "".join(map(chr, range(0x21, 0x7F)))
"""The characters every bundled font maps (letters, digits, punctuation: the Korean fonts have them too). A font that
maps none or only some of them has a damaged character map (``cmap`` table): its text would be measured and drawn
with a fallback font's glyphs and blamed on the cards (twenty-seventh breaker)."""

GLYPH_NESTING_LIMIT = 8
"""How deep composite glyphs may nest (an accent on a letter made of parts) before the outline counts as damaged."""


GLYPH_PADDING_LIMIT = 3
"""How many unused bytes may follow a simple glyph's last point (its ``loca`` entry is rounded up to 2 or 4 bytes):
more means the outline read is not the one written."""

_X_BYTES = bytes((1 if flag & 0x02 else 0 if flag & 0x10 else 2) for flag in range(256))
"""For each point flag of a simple glyph, how many bytes its x coordinate takes (short: 1, same as before: 0, else 2)."""

_Y_BYTES = bytes((1 if flag & 0x04 else 0 if flag & 0x20 else 2) for flag in range(256))
"""For each point flag, how many bytes its y coordinate takes (short: 1, same as before: 0, else 2)."""


def _glyph_damage(face: Any, glyph: int, head_box: tuple[int, int, int, int], depth: int = 0) -> str | None:
    """Why glyph number ``glyph`` of the parsed TTF ``face`` (ReportLab's ``TTFontFile``) cannot be drawn, or ``None``
    when its outline reads: its entry in the ``loca`` table must lie inside the ``glyf`` table, its bounding box inside
    the font's own box (``head_box``: xMin, yMin, xMax, yMax in font units, from the ``head`` table), a simple glyph's
    contour ends, flags and points must fill its bytes (up to :data:`GLYPH_PADDING_LIMIT` left over), and a composite glyph's parts
    must be glyphs of the font whose outlines read (the TrueType ``glyf`` format)."""
    if depth > GLYPH_NESTING_LIMIT:
        return "its parts nest without end"
    if not 0 <= glyph < face.numGlyphs:
        return f"it uses glyph {glyph} and the font has {face.numGlyphs}"
    glyf, glyf_length = face.get_table_pos("glyf")
    start, end = face.glyphPos[glyph], face.glyphPos[glyph + 1]
    if not 0 <= start <= end <= glyf_length:
        return "its place in the glyf table (loca) is outside the table"
    if start == end:
        return None  # no outline (a space)
    data = face.get_chunk(glyf + start, end - start)
    if len(data) < 10:
        return "its outline is cut short"
    contours, x_min, y_min, x_max, y_max = struct.unpack_from(">hhhhh", data)
    if not (head_box[0] <= x_min <= x_max <= head_box[2] and head_box[1] <= y_min <= y_max <= head_box[3]):
        return "its box lies outside the font's own box"
    if contours < 0:  # a composite glyph: parts, each another glyph moved (and scaled)
        at, more = 10, True
        while more:
            if at + 4 > len(data):
                return "its list of parts is cut short"
            flags, part = struct.unpack_from(">HH", data, at)
            at += 4 + (4 if flags & 0x0001 else 2) + (2 if flags & 0x0008 else 4 if flags & 0x0040 else 8 if flags & 0x0080 else 0)
            if at > len(data):
                return "its list of parts is cut short"
            reason = _glyph_damage(face, part, head_box, depth + 1)
            if reason:
                return f"its part (glyph {part}): {reason}"
            more = bool(flags & 0x0020)
        return None
    at = 10 + 2 * contours
    if at + 2 > len(data):
        return "its contours are cut short"
    ends = struct.unpack_from(f">{contours}H", data, 10)
    if any(later <= earlier for earlier, later in zip(ends, ends[1:])):
        return "its contours end out of order"
    points = ends[-1] + 1 if contours else 0
    at += 2 + struct.unpack_from(">H", data, at)[0]  # the hinting instructions, skipped
    flags = bytearray()
    while len(flags) < points:
        if at >= len(data):
            return "its point flags are cut short"
        flag = data[at]
        at += 1
        if flag & 0x80:
            return "a point flag sets a reserved bit"
        repeat = 1
        if flag & 0x08:
            if at >= len(data):
                return "its point flags are cut short"
            repeat += data[at]
            at += 1
        flags.extend(bytes([flag]) * repeat)
    if len(flags) > points:
        return "its point flags run past its last point"
    coordinates = sum(flags.translate(_X_BYTES)) + sum(flags.translate(_Y_BYTES))
    if at + coordinates > len(data):
        return "its points are cut short"
    if len(data) - at - coordinates > GLYPH_PADDING_LIMIT:
        return f"{len(data) - at - coordinates} bytes follow its last point"
    return None


_ORDER_CHECKED = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
"""The letters and digits every bundled font draws, each with a glyph of its own: checked first, so a damage common to
every glyph is said at 'a'. A character map that sends two of them to one glyph is damaged (scrambled)."""

_INKLESS_CATEGORIES = frozenset({"Zs", "Zl", "Zp", "Cc", "Cf", "Mn", "Me"})
"""Unicode categories whose characters may have no outline: spaces, controls, format characters and combining marks."""

_BLANK_BY_DESIGN = frozenset("\u115f\u1160\u3164\uffa0\uffff")
"""Characters a font maps to an empty or missing glyph on purpose: the Hangul fillers (letters that print nothing) and
U+FFFF, the end marker of a format-4 character map, which ReportLab reads as mapped to glyph 0."""

_WIDTHLESS_CATEGORIES = frozenset({"Cc", "Cf", "Mn", "Me"})
"""Unicode categories whose characters may have no advance width: controls, format characters and combining marks
(drawn over the letter before them)."""


def _character_damage(face: Any, characters: Iterable[str]) -> str | None:
    """Why the parsed TTF ``face`` (ReportLab's ``TTFontFile``) cannot draw ``characters``, or ``None``. Its character
    map (``cmap``) must map every :data:`PRINTABLE_ASCII` character; every character checked (those, then each of
    ``characters`` the font maps) must map to a glyph of the font other than glyph 0 (``.notdef``, the missing-glyph box),
    the letters and digits of :data:`_ORDER_CHECKED` each to a glyph of its own; each glyph's outline must read
    (:func:`_glyph_damage`); a visible character (not a space, control, format character or combining mark) must have
    ink (a non-empty outline) and a character that is not a control, format character or combining mark a positive
    advance width (``hmtx`` table). Characters the font lacks are not its fault (another font draws them, or
    :func:`missing_chars` says so). Reads only tables ReportLab has parsed: a few microseconds a character."""
    unmapped = [char for char in PRINTABLE_ASCII if ord(char) not in face.charToGlyph]
    if unmapped:
        return (f"its character map (cmap table) is damaged: it maps {len(PRINTABLE_ASCII) - len(unmapped)} of the "
                f"{len(PRINTABLE_ASCII)} printable ASCII characters (not {unmapped[0]!r})")
    others = "".join(sorted(set(characters) - set(PRINTABLE_ASCII)))
    checked = [(char, face.charToGlyph[ord(char)]) for char in
               _ORDER_CHECKED + "".join(sorted(set(PRINTABLE_ASCII) - set(_ORDER_CHECKED))) + others
               if ord(char) in face.charToGlyph and char not in _BLANK_BY_DESIGN]
    to_notdef = [char for char, glyph in checked if glyph == 0]
    if to_notdef:
        return (f"its character map (cmap table) is damaged: it maps {_counted(to_notdef, 'character')} to .notdef "
                f"(the missing-glyph box)")
    outside = next(((char, glyph) for char, glyph in checked if glyph >= face.numGlyphs), None)
    if outside:
        return (f"its character map (cmap table) is damaged: it maps {outside[0]!r} (U+{ord(outside[0]):04X}) to glyph "
                f"{outside[1]} and the font has {face.numGlyphs}")
    shared: dict[int, list[str]] = {}
    for char, glyph in checked[:len(_ORDER_CHECKED)]:
        shared.setdefault(glyph, []).append(char)
    crowded = max(shared.values(), key=len)
    if len(crowded) > 1:
        return (f"its character map (cmap table) is damaged: it maps {_counted(crowded, 'character')} to one "
                f"glyph")
    metrics = _metric_damage(face, checked)
    if metrics:
        return metrics
    head = face.get_table_pos("head")[0]
    head_box = struct.unpack(">hhhh", face.get_chunk(head + 36, 8))
    seen: set[int] = set()
    inkless: list[str] = []
    widthless: list[str] = []
    for char, glyph in checked:
        category = unicodedata.category(char)
        if category not in _WIDTHLESS_CATEGORIES and face.hmetrics[glyph][0] <= 0:
            widthless.append(char)
        if glyph in seen:
            continue
        seen.add(glyph)
        reason = _glyph_damage(face, glyph, head_box)
        if reason:
            return f"damaged glyph data: the glyph of {char!r} (U+{ord(char):04X}) cannot be drawn: {reason}"
        if category not in _INKLESS_CATEGORIES and face.glyphPos[glyph] == face.glyphPos[glyph + 1]:
            inkless.append(char)
    if inkless:
        return f"damaged glyph data: {_counted(inkless, 'character')} {'has' if len(inkless) == 1 else 'have'} no outline"
    if widthless:
        return (f"its advance widths (hmtx table) are damaged: {_counted(widthless, 'character')} "
                f"{'has' if len(widthless) == 1 else 'have'} a width of zero")
    return _reach_damage(face, checked)


GLYPH_REACH_EM = 0.5
"""How far (em) a glyph's ink may reach past the font's own ascender or descender, or past its advance on either side
(an accent over a capital, a swash): farther is damage (the bundled fonts' farthest: 0.27 em above the ascender, 'Ǻ').
Combining marks and format characters, drawn over their neighbours by design, are not measured."""

LETTER_REACH_EM = 0.1
"""How far (em) the plain letters and digits (ASCII) may reach past the ascender or the descender: they set them (the
bundled fonts' farthest: 0.04 em, NanumMyeongjo's 'y' below its descender). At 0.15 an 'e' moved down 0.12 em past the
descender was blamed on the line spacing of seven templates (thirty-fourth pnp breaker, MED 4)."""

LETTER_SIDE_REACH_EM = 0.25
"""How far (em) a plain letter or digit (ASCII) may reach past its advance on either side: farther, it runs into its
neighbours in every word (thirty-fourth pnp breaker, HIGH 4: an 'e' of advance 0.05 em, its ink 0.36 em past it,
printed "Thetown stands enpty"). The bundled fonts' farthest: 0.21 em, EB Garamond Italic's 'f'."""

DIGIT_SIDE_REACH_EM = 0.15
"""How far (em) a digit of any script (category Nd) may reach past its advance on either side: digits are set about half
an em apart, and farther one prints over the next ("12" read as one glyph: thirty-fifth pnp breaker, HIGH 6, a Nanum '1'
moved 0.35 em reached 0.24 em past its advance and passed). The bundled fonts' farthest: 0.11 em, EB Garamond Italic's
'6'."""

WIDE_LETTER_SIDE_REACH_EM = 0.1
"""How far (em) a wide letter (a Hangul syllable, a CJK ideograph, kana: East Asian width W or F) may reach past its
advance on either side: they are drawn inside their em square, and one moved 0.45 em printed over the next syllable
("다음" as one smudge: thirty-fifth pnp breaker, HIGH 6). The bundled fonts' farthest: 0.02 em."""

OTHER_LETTER_SIDE_REACH_EM = 0.35
"""How far (em) any other letter or number (é, ö, ñ, Greek, Cyrillic ...) may reach past its advance on either side: an
'é' moved 0.45 em printed on the next letter ("Caf éNoir") and passed at the 0.5 em of punctuation (thirty-fifth pnp
breaker, HIGH 6). The bundled fonts' farthest: 0.30 em, EB Garamond Italic's 'Œ' and 'Ấ' (their stacked accents), so
the plain letters' :data:`LETTER_SIDE_REACH_EM` would refuse them."""

PUNCTUATION_SIDE_REACH_EM = 0.3
"""How far (em) a punctuation mark (category P: a comma, a full stop, a bracket) may reach past its advance on either
side: a comma moved 0.5 em printed on the next word ("win, also" as "win ,also") and passed at the 0.5 em of symbols
(thirty-fifth pnp breaker, LOW 14). The bundled fonts' farthest: 0.20 em, EB Garamond's overline '‾'."""

ASCENDER_ROOM_EM = 0.4
"""How far (em) a font's ascender may stand above its tallest letter or digit, or its descender below its lowest: farther
is damage (the bundled fonts': 0.30 em, EB Garamond Bold's ascender over its capitals). At 0.6 an ascender of 1.3 em
(0.59 em over the letters) was blamed on the card texts it made overflow (thirty-fourth pnp breaker, MED 4)."""


def _side_reach(char: str) -> float:
    """How far (em) the glyph of ``char`` may reach past its advance, or left of its origin, before it is damage: a digit
    :data:`DIGIT_SIDE_REACH_EM`, a wide letter (Hangul, CJK) :data:`WIDE_LETTER_SIDE_REACH_EM`, a plain ASCII letter
    :data:`LETTER_SIDE_REACH_EM`, any other letter or number :data:`OTHER_LETTER_SIDE_REACH_EM`, punctuation
    :data:`PUNCTUATION_SIDE_REACH_EM`, anything else (symbols, an accent alone) :data:`GLYPH_REACH_EM`."""
    category = unicodedata.category(char)
    if category == "Nd":
        return DIGIT_SIDE_REACH_EM
    if category[0] in "LN" and unicodedata.east_asian_width(char) in ("W", "F"):
        return WIDE_LETTER_SIDE_REACH_EM
    if char.isascii() and char.isalnum():
        return LETTER_SIDE_REACH_EM
    if category[0] in "LN":
        return OTHER_LETTER_SIDE_REACH_EM
    if category[0] == "P":
        return PUNCTUATION_SIDE_REACH_EM
    return GLYPH_REACH_EM


def _reach_damage(face: Any, checked: list[tuple[str, int]]) -> str | None:
    """Why the outlines or the vertical metrics of the parsed TTF ``face`` are out of line with each other, or ``None``:
    no glyph of ``checked`` (``(character, glyph)`` pairs, outlines already found readable) may reach more than
    :data:`GLYPH_REACH_EM` past the ascender, the descender or its advance (a plain letter or digit
    :data:`LETTER_REACH_EM` past the ascender or descender; a letter or digit of any script past its advance as far as
    :func:`_side_reach` allows), and the ascender and descender may stand at
    most :data:`ASCENDER_ROOM_EM` beyond the letters and digits. Thirty-first pnp breaker, MED 11: an 'a' six times its
    size, or an ascender of 0.001 em or 1.99 em (inside :data:`VERTICAL_METRICS_EM`), was blamed on the line spacing of
    ten templates or on 48 card texts. Reads each glyph's box from its ``glyf`` header: microseconds."""
    units = face.unitsPerEm
    glyf = face.get_table_pos("glyf")[0]
    ascender, descender = face.ascent / 1000, face.descent / 1000
    tallest, lowest = -math.inf, math.inf
    for char, glyph in checked:
        start, end = face.glyphPos[glyph], face.glyphPos[glyph + 1]
        if start == end or unicodedata.category(char) in ("Mn", "Me", "Cf"):
            continue
        x_min, y_min, x_max, y_max = (value / units for value in struct.unpack(">hhhh", face.get_chunk(glyf + start + 2, 8)))
        advance = face.hmetrics[glyph][0] / units
        named = f"the glyph of {char!r} (U+{ord(char):04X})"
        reach = LETTER_REACH_EM if char.isascii() and char.isalnum() else GLYPH_REACH_EM
        if y_max > ascender + reach or y_min < descender - reach:
            up = y_max > ascender + reach
            return (f"its glyph data or its vertical metrics (hhea and OS/2 tables) are damaged: {named} reaches "
                    f"{y_max if up else y_min:.2f} em from the baseline, past the font's {'ascender' if up else 'descender'} "
                    f"({ascender if up else descender:.2f} em) by more than {reach:g} em")
        side = _side_reach(char)
        if x_min < -side or x_max > advance + side:
            # thirty-fifth pnp breaker, LOW 13: ink left of the origin is over the letter before, not "past its advance"
            where = (f"{-x_min:.2f} em left of its origin" if -x_min >= x_max - advance else
                     f"{x_max - advance:.2f} em past its advance")
            return (f"damaged glyph data: {named} reaches {where} ({advance:.2f} em wide), more than {side:g} em: it "
                    f"would print over the {'letter before it' if -x_min >= x_max - advance else 'letter after it'}")
        if char.isascii() and char.isalnum():
            tallest, lowest = max(tallest, y_max), min(lowest, y_min)
    if math.isfinite(tallest) and (ascender > tallest + ASCENDER_ROOM_EM or descender < lowest - ASCENDER_ROOM_EM):
        up = ascender > tallest + ASCENDER_ROOM_EM
        return (f"its vertical metrics (hhea and OS/2 tables) are damaged: the {'ascender' if up else 'descender'} is "
                f"{ascender if up else descender:.2f} em from the baseline and the letters and digits reach "
                f"{tallest if up else lowest:.2f} em (at most {ASCENDER_ROOM_EM:g} em beyond them expected)")
    return None


UNITS_PER_EM_RANGE = (16, 16384)
"""The unitsPerEm a font's ``head`` table may give, by the OpenType specification."""

LETTER_WIDTH_EM = (0.2, 2.0)
"""The mean advance width of the letters a-z (em) of a font whose unitsPerEm is in line with its glyphs (about 0.45 for
the bundled fonts)."""

WIDEST_CHARACTER_EM = 2.0
"""The widest advance (em) a printed character may have: wider is a damaged width (the bundled fonts' widest is 1.1)."""

WIDEST_LETTER_EM = 1.3
"""The widest advance (em) a plain letter or digit (ASCII) may have: wider is a damaged width (the bundled fonts' widest:
1.02 em, 'W'). An 'e' 2 em wide was blamed on six card texts (thirty-fourth pnp breaker, MED 4)."""

VERTICAL_METRICS_EM = (-1.0, 2.0)
"""The lowest descender and the highest ascender (em, from the baseline) a font may give in its ``OS/2`` table (the
one ReportLab reads; ``hhea`` should match it): beyond them is damage (the bundled fonts' are -0.3 and 1.0). A taller
ascender made every line of text taller and was blamed on dozens of card texts (thirtieth breaker, finding 6)."""


ADVANCE_PER_INK = (0.8, 3.0)
"""How many times the width of its outline (``glyf`` bounding box) the advance of a letter a-z may be, the medians
compared: outside, the advances (``hmtx``) are damaged rather than the em (the bundled fonts' are about 1.2 to 1.4)."""


def _median_letter_ink(face: Any, checked: list[tuple[str, int]]) -> float | None:
    """The median width (em) of the outlines (``glyf`` bounding boxes) of the letters a-z among ``checked``, in the
    parsed TTF ``face``; ``None`` when none has an outline or the table cannot be read."""
    try:
        glyf = face.get_table_pos("glyf")[0]
        widths = []
        for char, glyph in checked:
            if "a" <= char <= "z" and face.glyphPos[glyph + 1] > face.glyphPos[glyph]:
                _, x_min, _, x_max, _ = struct.unpack(">hhhhh", face.get_chunk(glyf + face.glyphPos[glyph], 10))
                if x_max > x_min:
                    widths.append((x_max - x_min) / face.unitsPerEm)
    except (KeyError, IndexError, struct.error, TypeError, ValueError):
        return None
    widths.sort()
    return widths[len(widths) // 2] if widths else None


def _metric_damage(face: Any, checked: list[tuple[str, int]]) -> str | None:
    """Why the metrics of the parsed TTF ``face`` (ReportLab's ``TTFontFile``) are damaged, or ``None``: its
    ``head`` table's unitsPerEm must lie in :data:`UNITS_PER_EM_RANGE` and be in line with its glyphs (the median width
    of the letters a-z within :data:`LETTER_WIDTH_EM` em: one damaged glyph, however wide, does not move a median, so
    it is said as an advance width, not as the em), its ascender (``hhea`` / ``OS/2``) must be above the baseline and at
    most :data:`VERTICAL_METRICS_EM` [1] em, its descender not above it and at least :data:`VERTICAL_METRICS_EM` [0] em,
    and no character of ``checked`` (``(character, glyph)`` pairs) may be wider than :data:`WIDEST_CHARACTER_EM`
    (``hmtx`` table). Twenty-ninth breaker (finding 2) and thirtieth (finding 6): such damage was blamed on dozens of
    cards and templates, on one wrong template, or on the wrong table. Reads only what ReportLab has parsed:
    microseconds."""
    units = face.unitsPerEm
    if not UNITS_PER_EM_RANGE[0] <= units <= UNITS_PER_EM_RANGE[1]:
        return (f"its head table is damaged: unitsPerEm is {units} (the OpenType range is {UNITS_PER_EM_RANGE[0]} to "
                f"{UNITS_PER_EM_RANGE[1]})")
    letters = sorted(face.hmetrics[glyph][0] / units for char, glyph in checked  # zero widths: said after this
                     if "a" <= char <= "z" and face.hmetrics[glyph][0] > 0)
    median = letters[len(letters) // 2] if letters else 0.5
    if not LETTER_WIDTH_EM[0] <= median <= LETTER_WIDTH_EM[1]:
        inked = _median_letter_ink(face, checked)
        if inked is not None and not ADVANCE_PER_INK[0] <= median / inked <= ADVANCE_PER_INK[1]:
            # the advances alone are out of line with the glyphs' own outlines: the hmtx table, not the em (thirty-sixth
            # pnp breaker, LOW 14: advances x 0.25 were said as a damaged head table, which was intact)
            return (f"its advance widths (hmtx table) are damaged: the letters a-z advance {median:.2f} em, the median, "
                    f"where their outlines are {inked:.2f} em wide ({ADVANCE_PER_INK[0]:g} to {ADVANCE_PER_INK[1]:g} "
                    f"times that expected)")
        return (f"its head table is damaged: unitsPerEm {units} is out of line with its glyphs (the letters a-z "
                f"are {median:.2f} em wide, the median; {LETTER_WIDTH_EM[0]:g} to {LETTER_WIDTH_EM[1]:g} expected)")
    ascender, descender = face.ascent / 1000, face.descent / 1000  # ReportLab keeps them in thousandths of an em
    lowest, highest = VERTICAL_METRICS_EM
    if not (0 < ascender <= highest and lowest <= descender <= 0):
        return (f"its vertical metrics (hhea and OS/2 tables) are damaged: the ascender is {ascender:.2f} em and the "
                f"descender {descender:.2f} em from the baseline (an ascender above it, at most {highest:g} em, and a "
                f"descender below it, at least {lowest:g} em, expected)")
    def most(char: str) -> float:
        return WIDEST_LETTER_EM if char.isascii() and char.isalnum() else WIDEST_CHARACTER_EM

    wide = [char for char, glyph in checked if face.hmetrics[glyph][0] / units > most(char)]
    if wide:
        widest = face.hmetrics[face.charToGlyph[ord(wide[0])]][0] / units
        return (f"its advance widths (hmtx table) are damaged: {_counted(wide, 'character')} "
                f"{'is' if len(wide) == 1 else 'are'} {widest:.1f} em wide (at most {most(wide[0]):g} expected)")
    return None


def _counted(chars: list[str], noun: str) -> str:
    """``chars`` named for a one-line reason: ``'a' (U+0061)``, or ``'a' (U+0061) and 25 other <noun>s``."""
    first = f"{chars[0]!r} (U+{ord(chars[0]):04X})"
    return first if len(chars) == 1 else f"{first} and {len(chars) - 1} other {noun}{'s' if len(chars) > 2 else ''}"


def font_file_problems(texts: Iterable[str] = ()) -> list[FontFileProblem]:
    """Every bundled font file of :data:`FAMILIES` that a build cannot draw with, one :class:`FontFileProblem` per
    file, in the order of :data:`FAMILIES`; an empty list when every font registers, measures and draws. A file is
    refused when it is missing or not a regular file (a folder named like it), when ReportLab cannot read it as a
    TrueType font (empty, cut short, another kind of file renamed ``.ttf``), when its character map is damaged, or when
    a character of ``texts`` (the strings the cards and templates print) or of :data:`PRINTABLE_ASCII` maps to a glyph
    whose outline does not read (:func:`_glyph_damage`: ReportLab's subsetter crashed on such glyphs, or the printed
    words lost letters, twenty-seventh breaker). Registers every family (the work a build does anyway: each file is
    parsed once). ``pnp check`` and ``pnp build`` ask this before anything is laid out, so a damaged font is one line,
    not a traceback from the PDF writer or the text fitter, nor a text blamed for a width the font measured wrong."""
    characters = {char for text in texts for char in unicodedata.normalize("NFC", text)}
    problems: dict[str, FontFileProblem] = {}
    for key, fam in FAMILIES.items():
        path = FONT_DIR / fam.file
        if fam.file in problems:
            known = problems[fam.file]
            problems[fam.file] = FontFileProblem(known.path, known.keys + (key,), known.reason)
            continue
        if any(family_.file == fam.file for family_ in list(FAMILIES.values())[:list(FAMILIES).index(key)]):
            continue  # a file an earlier family uses, found good
        try:
            if not path.exists():
                raise FileNotFoundError("missing")
            if not path.is_file():
                problems[fam.file] = FontFileProblem(str(path), (key,), "not a regular file (a folder or a device), "
                                                                         "not a TrueType font")
                continue
            register(key)
            _face(key)
            glyph_ink_box(key, "0")  # a file cut short may parse its head and fail at its glyphs
            pdfmetrics.stringWidth("0", register(key), 1.0)  # its own font only: a fallback's fault is the fallback's
            damage = _character_damage(_face(key), characters)
            if damage:
                problems[fam.file] = FontFileProblem(str(path), (key,), damage)
        except FileNotFoundError:
            problems[fam.file] = FontFileProblem(str(path), (key,), "missing")
        except Exception as error:  # noqa: BLE001 - the font library raises many kinds (TTFError, struct.error, ...)
            said = str(error).replace(f'"{path}"', "").replace(str(path), "").strip(" :")
            said = " ".join(said.split()) or type(error).__name__
            reason = f"not a TrueType font ({said[:FONT_REASON_LIMIT]}{'...' if len(said) > FONT_REASON_LIMIT else ''})"
            if path.stat().st_size == 0:
                reason = "an empty file, not a TrueType font"
            problems[fam.file] = FontFileProblem(str(path), (key,), reason)
    return list(problems.values())


class FontDrawError(Exception):
    """A bundled font file failed while a build drew or embedded it (a damage :func:`font_file_problems` did not see):
    ``problem`` is the :class:`FontFileProblem` naming the file, and the ``font`` keys that use it, in one line."""

    def __init__(self, problem: FontFileProblem):
        super().__init__(problem.reason)
        self.problem = problem


@contextmanager
def font_errors_named() -> Iterator[None]:
    """Run the block; an error raised inside ReportLab's TrueType code (``reportlab.pdfbase.ttfonts``, for example an
    ``IndexError`` from its subsetter on a damaged glyph) becomes a :class:`FontDrawError` naming the font file it was
    reading. Other errors pass unchanged."""
    try:
        yield
    except Exception as error:
        font_file = None
        trace = error.__traceback__
        while trace is not None:
            frame = trace.tb_frame
            if frame.f_globals.get("__name__") == "reportlab.pdfbase.ttfonts":
                reader = frame.f_locals.get("self")
                font_file = getattr(reader, "filename", None) or getattr(getattr(reader, "face", None), "filename", None)
                if font_file:
                    break
            trace = trace.tb_next
        if not font_file:
            raise
        keys = tuple(key for key, fam in FAMILIES.items() if Path(font_file).name == fam.file) or ("serif",)
        said = " ".join(f"{type(error).__name__}: {error}".split())[:FONT_REASON_LIMIT]
        raise FontDrawError(FontFileProblem(str(font_file), keys, f"damaged: the PDF writer failed on it ({said})")) from None


@cache
def _face(key: str):
    register(key)
    return pdfmetrics.getFont(family(key).pdf_name).face


def has_glyph(key: str, char: str) -> bool:
    """True when the TTF of family ``key`` has a glyph for ``char`` (spaces and controls always count)."""
    if char in " \u00a0\t":
        return True
    return ord(char) in _face(key).charToGlyph


_first_with: dict[str, dict[str, str]] = {}
"""For each family key, the family :func:`runs` draws each character seen so far in: the first of the
key's chain (the key, then its fallback) whose font has the glyph. The fonts are the bundled files,
so the answer never changes; :func:`runs` asked every font again for every character of every new
text, a tenth of the layout's time (issue 14)."""

_drawable: dict[tuple[str, ...], set[str]] = {}
"""For each chain of families :func:`missing_chars` was asked about, the characters one of them draws."""


@lru_cache(maxsize=4096)
def runs(text: str, key: str) -> tuple[tuple[str, str], ...]:
    """Split ``text`` into ``((family key, text), ...)`` runs, each drawable with one font.

    Every character goes to the first family of ``key`` followed by its fallback chain that has it
    (digits go to the family's ``digits`` family when it has one); a character no bundled font has
    stays in ``key`` (it prints as the font's missing-glyph box, see :func:`missing_chars`). A space
    joins the run before it, except after a substituted digit run: then it is ``key``'s own space.
    """
    fam = family(key)
    chain = (key,) + fam.fallback
    first_with = _first_with.setdefault(key, {})
    result: list[list[str]] = []
    for char in text:
        if fam.digits and char in DIGITS:
            chosen = fam.digits
        else:
            found = first_with.get(char)
            if found is None:
                found = first_with[char] = next((k for k in chain if has_glyph(k, char)), key)
            chosen = found
        if char == " " and result:
            # a space joins the run before it, but a digit run's (wide) space is never used
            chosen = key if result[-1][0] == fam.digits else result[-1][0]
        if result and result[-1][0] == chosen:
            result[-1][1] += char
        else:
            result.append([chosen, char])
    return tuple((k, t) for k, t in result)


def missing_chars(text: str, key: str = "serif") -> list[str]:
    """The distinct characters of ``text`` (in order, once composed to NFC as the layouts print it) that
    neither family ``key``, its fallback chain nor its digits family can draw: they would print as a
    missing-glyph box."""
    fam = family(key)
    chain = (key,) + fam.fallback + ((fam.digits,) if fam.digits else ())
    drawable = _drawable.setdefault(chain, set())
    missing: list[str] = []
    for char in unicodedata.normalize("NFC", text):
        if char in drawable or char in missing or char in "\n\r":
            continue
        if any(has_glyph(k, char) for k in chain):
            drawable.add(char)
            continue
        missing.append(char)
    return missing


@cache
def _sides(key: str) -> dict[str, tuple[float, float]]:
    """The empty left and right side (in 1/1000 em) of each digit's glyph in family ``key``'s TTF,
    read from the glyph's bounding box in the ``glyf`` table."""
    face = _face(key)  # the registered font's own parse of the file (never a second one)
    glyf = face.get_table_pos("glyf")[0]
    scale = 1000 / face.unitsPerEm
    sides: dict[str, tuple[float, float]] = {}
    for char in DIGITS:
        glyph = face.charToGlyph[ord(char)]
        _, x_min, _, x_max, _ = struct.unpack(">hhhhh", face.get_chunk(glyf + face.glyphPos[glyph], 10))
        advance = pdfmetrics.stringWidth(char, register(key), 1000)
        sides[char] = (x_min * scale, advance - x_max * scale)
    return sides


def _trim_per_pt(text: str, key: str) -> tuple[float, float]:
    """How much (pt at 1 pt) a tight run in family ``key`` gains at its start and at its end: its
    first and last digits' empty sides replaced by the family's ``side_bearing_em``; ``(0, 0)`` for
    other families and for ends that are not digits."""
    side = family(key).side_bearing_em
    if side is None or not text:
        return 0.0, 0.0
    sides = _sides(key)
    start = side - sides[text[0]][0] / 1000 if text[0] in DIGITS else 0.0
    end = side - sides[text[-1]][1] / 1000 if text[-1] in DIGITS else 0.0
    return start, end


def is_tight(text: str, key: str) -> bool:
    """True when the run ``text`` in family ``key`` is measured by its ink (see :func:`run_advance_mm`)."""
    return _trim_per_pt(text, key) != (0.0, 0.0)


def run_advance_mm(text: str, key: str, size_pt: float) -> float:
    """How far the pen moves (mm) after the run ``text`` set in family ``key`` (one font, no fallback)."""
    start, end = _trim_per_pt(text, key)
    return (pdfmetrics.stringWidth(text, register(key), 1.0) + start + end) * size_pt * MM_PER_PT


def run_shift_mm(text: str, key: str, size_pt: float) -> float:
    """How far right of the pen (mm) the run ``text`` in family ``key`` must be drawn so that its first
    digit's ink keeps only the family's side bearing (0 for runs that are not tight)."""
    return _trim_per_pt(text, key)[0] * size_pt * MM_PER_PT


@lru_cache(maxsize=65536)
def _width_per_pt(text: str, key: str) -> float:
    """Width of ``text`` in points at 1 pt, over its fallback runs (digit runs tight)."""
    return sum(pdfmetrics.stringWidth(t, register(k), 1.0) + sum(_trim_per_pt(t, k)) for k, t in runs(text, key))


def glyph_advance_mm(char: str, key: str, size_pt: float) -> float:
    """How far (mm) the pen moves after ``char`` drawn in family ``key``'s own font (no fallback, no tight digits) at
    ``size_pt``: its advance width, as a :class:`~pnp.drawing.TextLine` of that family sets it."""
    return pdfmetrics.stringWidth(char, register(key), size_pt) * MM_PER_PT


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


@cache
def glyph_ink_box(key: str, char: str) -> tuple[float, float, float, float] | None:
    """The ink of ``char``'s glyph in family ``key``'s own TTF (no fallback) as ``(left, bottom, right, top)`` in 1/1000
    em, x right of the pen and y up from the baseline (bottom negative below it): the glyph's bounding box in the
    ``glyf`` table, accents of a composed letter included. ``None`` for a glyph with no outline (a space) or a
    character the font lacks."""
    face = _face(key)  # the registered font's own parse of the file (never a second one)
    glyph = face.charToGlyph.get(ord(char))
    if glyph is None or face.glyphPos[glyph + 1] == face.glyphPos[glyph]:
        return None
    glyf = face.get_table_pos("glyf")[0]
    _, x_min, y_min, x_max, y_max = struct.unpack(">hhhhh", face.get_chunk(glyf + face.glyphPos[glyph], 10))
    scale = 1000 / face.unitsPerEm
    return x_min * scale, y_min * scale, x_max * scale, y_max * scale


def _glyph_extent(key: str, char: str) -> tuple[float, float]:
    """The lowest and highest ink of ``char``'s glyph in family ``key``'s TTF (1/1000 em above the baseline;
    negative below it), from :func:`glyph_ink_box`; ``(0, 0)`` for a glyph with no outline (a space) or a
    character the font lacks."""
    box = glyph_ink_box(key, char)
    return (0.0, 0.0) if box is None else (box[1], box[3])


def ink_extent_mm(text: str, key: str, size_pt: float) -> tuple[float, float]:
    """How far (mm) the ink of ``text`` set in family ``key`` at ``size_pt`` reaches above its baseline and below
    it (both 0 or more): the glyphs' own bounding boxes in the fonts :func:`runs` draws each character in, so
    accents (É), ascenders taller than the capitals (h), descenders (g) and Hangul count as printed; ``(0, 0)``
    for a text with no ink. Unlike :func:`cap_height_mm` and :func:`descent_mm`, which are the font's lines."""
    low, high = 0.0, 0.0
    for family_key, part in runs(unicodedata.normalize("NFC", text), key):
        for char in part:
            bottom, top = _glyph_extent(family_key, char)
            low, high = min(low, bottom), max(high, top)
    return high / 1000 * size_pt * MM_PER_PT, (0.0 - low) / 1000 * size_pt * MM_PER_PT
