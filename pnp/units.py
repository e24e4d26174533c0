"""Units of the print-and-play toolchain: millimetres, points, and how closely two lengths must agree.

Every length in :mod:`pnp` is in millimetres (mm), from the database to the Drawing; text sizes are in
points (pt, 1/72 inch); only the PDF backend writes points (shared/DESIGN.md, "Print-and-play"). This
module owns the conversion between the two and the slack allowed when lengths are compared, so no
other module spells ``25.4 / 72`` or a bare ``1e-9``.
"""
from __future__ import annotations

MM_PER_PT = 25.4 / 72
"""Millimetres in one point (about 0.3528 mm): an inch is 25.4 mm and 72 pt, both by definition."""
PT_PER_MM = 72 / 25.4
"""Points in one millimetre (about 2.835 pt)."""

ROUNDING_SLACK = 1e-9
"""Computed values closer than this are equal: lengths in mm, ratios of lengths, colour fractions. The
difference is floating-point rounding, not geometry (a text line that exactly fills its box fits; 3 cards
of 63 mm fill 189 mm; a black made of floats is still black)."""
SAME_SIZE_MM = 1e-6
"""Card sizes in mm closer than this are one size (a Drawing's trim against the sheet's slot or the
templates' card size; sizes come from TOML numbers, so they agree far more closely than this)."""
SAME_BASELINE_MM = 0.01
"""Two runs of text whose baselines are closer than this (mm) sit on one line (font fallback and lining
digits set one line as several runs)."""
FONT_METRIC_SLACK_MM = 0.05
"""A measured text or icon box may cross the safe area's edge by this much (mm): the rounding of font
metrics, not a real overrun (:mod:`pnp.layout.safe`)."""


LAID_OUT_SAFE_MM = 3.0
"""The safe area (mm inside the trim) the bundled templates are laid out for: every text and icon of every
card keeps this far from the trim. A larger ``[print] safe_mm`` (``--safe``, a print shop's) shrinks each
front about its centre until its text and icons keep that far (:func:`pnp.layout.within_safe_area`)."""


def excess_mm(amount: float) -> str:
    """How far (mm) something runs over, into or past where it may go, in words for a problem line: ``"0.4 mm"``, and
    ``"less than 0.1 mm"`` for a real excess that tenths would round to nothing (fortieth pnp breaker, LOW 5: "over by
    0.0 mm" read as not over at all). ``amount`` is positive: the caller found the fault."""
    return f"{amount:.1f} mm" if round(amount, 1) > 0 else "less than 0.1 mm"
