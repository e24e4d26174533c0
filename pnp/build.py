"""Build the print-and-play files: one SVG per card face and the imposed PDF sheets per game and paper.

This module owns the output folder's shape: ``svg/<face id>.svg`` for every front and back, and
``<game>-<paper>.pdf`` (for example ``solo-a4.pdf``) for each game and each paper of the database's
print settings. It only combines :mod:`pnp.layout` (what each card looks like), :mod:`pnp.svg` and
:mod:`pnp.pdf`; the same database always gives byte-identical files.
"""
from __future__ import annotations

from pathlib import Path

from pnp.database import Database
from pnp.layout import render
from pnp.pdf import SheetCard, write_sheets
from pnp.sheets import PAPERS, impose
from pnp.svg import write_svg


def build(database: Database, out_dir: Path) -> list[Path]:
    """Write every card face as SVG and the sheets as PDF into ``out_dir``; return the paths, sorted.

    Each card prints ``copies`` times on the sheets; boards print their cards side by side from the
    start of a sheet row. Raises ``OSError`` when ``out_dir`` cannot be written and
    :class:`~pnp.layout.template.TemplateError` for a broken template.
    """
    out_dir = Path(out_dir)
    rendered = render(database)
    written: list[Path] = []
    svg_dir = out_dir / "svg"
    for face in rendered.fronts:
        written.append(write_svg(face.drawing, svg_dir / f"{face.id}.svg"))
    for face in rendered.backs.values():
        written.append(write_svg(face.drawing, svg_dir / f"{face.id}.svg"))
    settings = database.print
    for game in ("solo", "duel"):
        faces = rendered.game(game)
        if not faces:
            continue
        cards: list[SheetCard] = []
        for face in faces:
            back = rendered.backs[face.back].drawing if face.back else None
            cards.extend([SheetCard(face.drawing, back)] * face.copies)
        title = database.games[game].title if game in database.games else game
        for paper_key in settings.papers:
            layout = impose(PAPERS[paper_key], settings.card_width_mm, settings.card_height_mm, settings.bleed_mm,
                            mark_length=settings.crop_mark_mm, printer_margin=settings.printer_margin_mm)
            report = write_sheets(out_dir / f"{game}-{paper_key}.pdf", cards, PAPERS[paper_key], game=title, layout=layout)
            written.append(report.path)
    return sorted(written)
