"""Icons stay inside the safe area like text (issue 3, Geometry: "text and icons stay inside the safe
area"); backgrounds and frames may run into the bleed. The text half is tests/test_layout.py."""
from __future__ import annotations

from pnp.layout import render
from pnp.layout.safe import outside, safe_box


def test_every_icon_is_inside_the_safe_area(db):
    """Icons keep ``[print] safe_mm`` inside the trim, 1 mm from a board's inner seams
    (:func:`pnp.layout.safe.safe_box`); icons wholly on a board's neighbouring card do not count."""
    rendered = render(db)
    failures = []
    for face in list(rendered.fronts) + list(rendered.backs.values()):
        safe = safe_box(face.drawing, db.print.safe_mm, face.board_cards, face.board_index)
        failures += [f"{face.id}: {thing.what} at {thing.box}" for thing, _ in outside(face.drawing, safe, board=face.board_cards > 1)
                     if thing.what.startswith("icon ")]
    assert failures == []
