"""Inks: the PDF colour model (RGB or CMYK) and the ink-saving variant of a card.

This module owns the two ink choices of ``pnp build`` and nothing else draws colour differently:

- ``--color cmyk`` (:func:`cmyk`): every ``"#rrggbb"`` of a Drawing is written to the PDF as a
  ReportLab :class:`~reportlab.lib.colors.CMYKColor` by the simple, device-independent conversion
  :func:`rgb_to_cmyk` (K = 1 - max(r, g, b); C, M, Y the rest, under-colour removal of the grey
  part). A neutral grey therefore becomes pure K with C = M = Y = 0, so black text, black rules and
  the crop marks (``#000000``) print in black ink alone (no rich black on thin lines). Icons, which
  are drawn from their SVG files, are converted the same way (:func:`recolour_rlg`). It is not a
  colour-managed conversion (no ICC profile): a print shop will proof it on its own press.
- ``--ink saver`` (:func:`ink_saver`): a pure function from a Drawing to a Drawing for home printers.
  Every filled shape larger than :data:`SMALL_FILL_MM2` keeps its hue but becomes a light tint of
  it (:func:`light_tint`; saturated colours such as the red, blue and yellow map bands keep more of
  their colour than browns and blacks), and a fill that had no outline gets one in its original
  colour, so panels, bands and boxes still read as shapes. Engraved hatching (a group of lines only)
  is tinted like a fill. Text lighter than :data:`LIGHT_TEXT` (titles set light on dark bands)
  becomes a dark shade of its own hue; dark text, rules and icons are unchanged. Colour never
  carries meaning alone on these cards (every coloured key is also named in text), and the light
  tints keep the colours recognisable for those who see them.

Both are pure: nothing here changes a Drawing in place or depends on the machine, so the variant
PDFs are as reproducible as the default ones.
"""
from __future__ import annotations

import colorsys
import copy
import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Literal

from reportlab.lib.colors import CMYKColor, Color, HexColor

from pnp.drawing import Circle, Drawing, Group, Line, Polyline, Primitive, Rect, TextLine
from pnp.units import ROUNDING_SLACK

if TYPE_CHECKING:
    from pnp.sheets import SheetCard

ColourModel = Callable[[str], Color]
"""Maps a ``"#rrggbb"`` colour to the ReportLab colour the PDF writes (:func:`rgb` or :func:`cmyk`)."""

ColorChoice = Literal["rgb", "cmyk"]
InkChoice = Literal["full", "saver"]

SMALL_FILL_MM2 = 6.0
"""Fills smaller than this (mm²: corner diamonds, arrow heads, dots) keep their colour: they hold
little ink and tinting them would only blur them."""
NEUTRAL_TINT = 0.10
"""Share of the original darkness a neutral (grey, black, brown) fill keeps in the ink saver."""
COLOUR_TINT = 0.45
"""Extra share a fully saturated fill keeps, so the red, blue and yellow bands still read as colours."""
LIGHT_TEXT = 0.6
"""Text whose lightness (HLS, 0..1) is above this was set on a dark fill; the ink saver darkens it."""
DARK_TEXT_LIGHTNESS = 0.18
"""Lightness of the dark shade that light text becomes."""
OUTLINE_MM = 0.3
"""Width of the outline given to a tinted fill that had none."""
HATCH_MIN_LINES = 4
"""A group of at least this many lines and nothing else is engraved hatching (a texture, tinted)."""


# -- colour arithmetic ---------------------------------------------------------------------------
def _rgb(colour: str) -> tuple[float, float, float]:
    return tuple(int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5))  # type: ignore[return-value]


def _hex(r: float, g: float, b: float) -> str:
    return "#" + "".join(f"{min(255, max(0, round(v * 255))):02x}" for v in (r, g, b))


def rgb_to_cmyk(colour: str) -> tuple[float, float, float, float]:
    """The ``(c, m, y, k)`` (each 0..1, rounded to 4 decimals) of ``"#rrggbb"``.

    The textbook conversion with full grey-component replacement: ``k = 1 - max(r, g, b)``, then
    ``c = (1 - r - k) / (1 - k)`` and likewise m and y (all zero for black). A neutral colour
    (r = g = b) has c = m = y = 0: ``#000000`` is ``(0, 0, 0, 1)``, pure K, never rich black.
    """
    r, g, b = _rgb(colour)
    k = 1 - max(r, g, b)
    if k >= 1 - ROUNDING_SLACK:
        return (0.0, 0.0, 0.0, 1.0)
    c, m, y = ((1 - v - k) / (1 - k) for v in (r, g, b))
    return tuple(round(v, 4) + 0.0 for v in (c, m, y, k))  # type: ignore[return-value]


rgb: ColourModel = HexColor
"""The default colour model: ``"#rrggbb"`` as an RGB colour, exactly as the PDFs always had it (the
PDF backend knows this very function and leaves the icons' own colours untouched)."""


def cmyk(colour: str) -> Color:
    """The print-shop colour model: ``"#rrggbb"`` as a :class:`CMYKColor` by :func:`rgb_to_cmyk`."""
    return CMYKColor(*rgb_to_cmyk(colour))


COLOUR_MODELS: dict[str, ColourModel] = {"rgb": rgb, "cmyk": cmyk}
"""The ``--color`` choices."""


def darkness(colour: str) -> float:
    """1 - relative luminance (Rec. 709 weights on the sRGB values), 0 for white, 1 for black."""
    r, g, b = _rgb(colour)
    return 1 - (0.2126 * r + 0.7152 * g + 0.0722 * b)


def relative_luminance(colour: str) -> float:
    """The relative luminance (0 black to 1 white) of ``"#rrggbb"`` as WCAG 2 defines it: each sRGB value
    made linear (``v / 12.92`` up to 0.04045, else ``((v + 0.055) / 1.055) ** 2.4``), then weighted
    0.2126, 0.7152, 0.0722 (Rec. 709)."""
    r, g, b = (v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4 for v in _rgb(colour))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def light_tint(colour: str) -> str:
    """``colour`` mixed with white so it keeps ``NEUTRAL_TINT + COLOUR_TINT * chroma`` of its ink
    (chroma: max - min of r, g, b, 0 for greys): a dark brown band becomes a pale beige, a red band a
    light rose, and white stays white."""
    r, g, b = _rgb(colour)
    keep = NEUTRAL_TINT + COLOUR_TINT * (max(r, g, b) - min(r, g, b))
    return _hex(*(1 - (1 - v) * keep for v in (r, g, b)))


def dark_shade(colour: str) -> str:
    """A dark colour of ``colour``'s hue (lightness :data:`DARK_TEXT_LIGHTNESS`, saturation at most 0.5)."""
    h, _, s = colorsys.rgb_to_hls(*_rgb(colour))
    return _hex(*colorsys.hls_to_rgb(h, DARK_TEXT_LIGHTNESS, min(s, 0.5)))


def _lightness(colour: str) -> float:
    return colorsys.rgb_to_hls(*_rgb(colour))[1]


# -- the ink saver -------------------------------------------------------------------------------
def _area(item: Primitive) -> float:
    """The painted area in mm² of a filled shape (0 for anything else)."""
    if isinstance(item, Rect):
        return item.width * item.height
    if isinstance(item, Circle):
        return math.pi * item.r ** 2
    if isinstance(item, Polyline) and item.closed:
        points = item.points
        return abs(sum(x0 * y1 - x1 * y0 for (x0, y0), (x1, y1) in zip(points, points[1:] + points[:1]))) / 2
    return 0.0


def _is_hatching(group: Group) -> bool:
    return len(group.items) >= HATCH_MIN_LINES and all(isinstance(item, Line) for item in group.items)


def _save(item: Primitive, *, hatching: bool = False) -> Primitive:
    if isinstance(item, Group):
        inner = _is_hatching(item)
        return replace(item, items=tuple(_save(child, hatching=inner) for child in item.items))
    if isinstance(item, TextLine):
        if _lightness(item.fill) > LIGHT_TEXT:
            return replace(item, fill=dark_shade(item.fill))
        return item
    if isinstance(item, Line):
        return replace(item, stroke=light_tint(item.stroke)) if hatching else item
    if isinstance(item, (Rect, Circle, Polyline)):
        fill = item.fill if not isinstance(item, Polyline) or item.closed else None
        if fill is None or _area(item) < SMALL_FILL_MM2:
            return item
        changes: dict = {"fill": light_tint(fill)}
        if item.stroke is None and darkness(fill) > 0.3:
            changes.update(stroke=fill, stroke_width=OUTLINE_MM)
        return replace(item, **changes)
    return item  # icons: drawn from their files, small, unchanged


def ink_saver(drawing: Drawing) -> Drawing:
    """The ink-saving variant of ``drawing`` (see the module's docstring); ``drawing`` is unchanged."""
    return replace(drawing, items=tuple(_save(item) for item in drawing.items))


def no_change(drawing: Drawing) -> Drawing:
    """The full-ink drawing, as it is."""
    return drawing


INK_TRANSFORMS: dict[str, Callable[[Drawing], Drawing]] = {"full": no_change, "saver": ink_saver}
"""The ``--ink`` choices."""


# -- the PDF variants a build writes --------------------------------------------------------------
@dataclass(frozen=True)
class Variant:
    """One set of PDF sheets: the ``suffix`` put before ``.pdf`` (``""``, ``"-cmyk"``,
    ``"-ink-saver"``, ``"-ink-saver-cmyk"``), its ``colour`` model and the ``transform`` every card
    face goes through."""

    suffix: str
    colour: ColourModel
    transform: Callable[[Drawing], Drawing]

    def name(self, stem: str) -> str:
        """The file name of sheets named ``stem`` (``"solo-a4"``) in this variant."""
        return f"{stem}{self.suffix}.pdf"

    def apply(self, cards: Sequence[SheetCard | None]) -> list[SheetCard | None]:
        """``cards`` (sheet cards with ``front`` and ``back`` Drawings, or ``None``) with every face
        passed through :attr:`transform`; every other field of a card is kept. A face shared by many
        cards (their back) is transformed once and stays shared, so the sheets paint it once
        (:meth:`pnp.pdf.Painter.draw`, ``shared``)."""
        if self.transform is no_change:
            return list(cards)
        done: dict[int, Drawing] = {}  # id of a face of ``cards`` (alive while they are): its transform

        def once(face: Drawing) -> Drawing:
            if id(face) not in done:
                done[id(face)] = self.transform(face)
            return done[id(face)]

        return [None if card is None else replace(
                    card, front=once(card.front), back=None if card.back is None else once(card.back))
                for card in cards]


DEFAULT = Variant("", rgb, no_change)
"""The PDFs every build writes: RGB, full ink, no suffix."""


def variants(color: ColorChoice = "rgb", ink: InkChoice = "full") -> list[Variant]:
    """The PDF variants of one build: always the default (RGB, full ink; no suffix), then the one
    ``color`` and ``ink`` choose when it differs. Raises ``ValueError`` for an unknown choice."""
    if color not in COLOUR_MODELS:
        raise ValueError(f"colour model {color!r}: choose one of {', '.join(COLOUR_MODELS)}")
    if ink not in INK_TRANSFORMS:
        raise ValueError(f"ink {ink!r}: choose one of {', '.join(INK_TRANSFORMS)}")
    result = [DEFAULT]
    if (color, ink) != ("rgb", "full"):
        suffix = ("-ink-saver" if ink == "saver" else "") + ("-cmyk" if color == "cmyk" else "")
        result.append(Variant(suffix, COLOUR_MODELS[color], INK_TRANSFORMS[ink]))
    return result


VARIANT_SUFFIXES = ("-cmyk", "-ink-saver", "-ink-saver-cmyk")
"""Every suffix a variant can have (a build removes the variant PDFs it did not write this time)."""


def sheet_file_names(stem: str) -> set[str]:
    """Every file name sheets named ``stem`` (``"solo-a4"``) can have, in any variant
    (:meth:`Variant.name` of each of :data:`VARIANT_SUFFIXES` and of none)."""
    return {Variant(suffix, rgb, no_change).name(stem) for suffix in ("", *VARIANT_SUFFIXES)}


# -- icons (svglib drawings) ---------------------------------------------------------------------
_COLOUR_ATTRIBUTES = ("fillColor", "strokeColor")


def recolour_rlg(drawing, colour: ColourModel):
    """A deep copy of the svglib/ReportLab graphics ``drawing`` with every fill and stroke colour
    passed through ``colour`` (as ``"#rrggbb"``; the alpha is kept). The original is unchanged."""
    result = copy.deepcopy(drawing)
    # ReportLab starts every drawing in black fill and stroke (it reads ``initial<State>`` attributes
    # of the drawing to change that; Drawing's attribute map does not list these two, hence __dict__).
    result.__dict__["initialFillColor"] = colour("#000000")
    result.__dict__["initialStrokeColor"] = colour("#000000")
    for node in _rlg_nodes(result):
        for attribute in _COLOUR_ATTRIBUTES:
            value = getattr(node, attribute, None)
            if isinstance(value, Color) and not isinstance(value, CMYKColor):
                mapped = colour(_hex(value.red, value.green, value.blue))
                if getattr(value, "alpha", 1) != 1:
                    mapped.alpha = value.alpha
                setattr(node, attribute, mapped)
    return result


def _rlg_nodes(node) -> Iterable:
    yield node
    for child in getattr(node, "contents", None) or ():
        yield from _rlg_nodes(child)
