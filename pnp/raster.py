"""PNG card sheets for digital tabletops (Tabletop Simulator's custom decks), from the same Drawings.

This module owns ``png/`` of the output folder:

- ``png/<game>-fronts-<n>.png``: up to :data:`PER_SHEET` card fronts (every copy of a card once,
  in print order) on a grid of :data:`COLUMNS` x :data:`ROWS` cards, read row by row from the top
  left, each card :data:`CARD_WIDTH_PX` pixels wide at its trim (no bleed, no crop marks). The last
  slot (bottom right) stays empty: Tabletop Simulator shows it as the hidden face.
- ``png/<game>-backs-<n>.png``: the same grid with each card's back in its front's slot (a "unique
  backs" deck), empty where a card has no back.
- ``png/<back id>.png``: each back alone, one card, for a deck with one shared back image.

Nothing is rasterised by hand: the cards are drawn by the PDF backend (:class:`pnp.pdf.Painter`) on
one page per image, and poppler's ``pdftoppm`` turns each page into the PNG at an exact pixel size.
The same Drawings therefore give the same pixels as the printed sheets, and the same files every
build (the PDF is reproducible, and pdftoppm writes no time into a PNG).
"""
from __future__ import annotations

import shutil
import subprocess
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from pnp.drawing import Box, Drawing
from pnp.pdf import Painter, new_canvas
from pnp.units import SAME_SIZE_MM

COLUMNS = 10
ROWS = 7
PER_SHEET = COLUMNS * ROWS - 1
"""Cards on one image: the grid less the hidden-face slot."""
CARD_WIDTH_PX = 400
"""Width of one card in the images (pixels); its height keeps the card's proportions (559 for a
63 x 88 mm poker card), which is about 160 dpi and keeps a 10 x 7 sheet under 4096 pixels."""


class RasterError(RuntimeError):
    """The PNG images cannot be made (``pdftoppm`` missing or failing)."""


@dataclass(frozen=True)
class PngCard:
    """One card of a deck image: its ``front`` and its ``back`` (``None``: no back)."""

    front: Drawing
    back: Drawing | None = None


def card_height_px(width_mm: float, height_mm: float, width_px: int = CARD_WIDTH_PX) -> int:
    """The pixel height of a card ``width_px`` wide with trim ``width_mm`` x ``height_mm``."""
    return round(width_px * height_mm / width_mm)


def _grid_page(painter: Painter, faces: Sequence[Drawing | None], width_mm: float, height_mm: float) -> None:
    for slot, face in enumerate(faces):
        if face is None:
            continue
        row, column = divmod(slot, COLUMNS)
        x, y = column * width_mm, row * height_mm
        painter.draw(face, x, y, clip=Box(x, y, width_mm, height_mm))
    painter.canvas.showPage()


RASTER_TIMEOUT = 600
"""Seconds one page may take to become a PNG image (a page takes well under one): a pdftoppm that hangs
never holds the build, and its output folder's lock, for good."""


def _pdftoppm() -> str:
    path = shutil.which("pdftoppm")
    if path is None:
        raise RasterError("PNG images need pdftoppm (poppler-utils); install it, e.g. apt-get install poppler-utils")
    return path


def _rasterise(pdf: Path, page: int, target: Path, width_px: int, height_px: int,
               crop: tuple[int, int] | None = None) -> Path:
    """Page ``page`` (1-based) of ``pdf`` as the PNG ``target``, scaled to exactly ``width_px`` x
    ``height_px``; with ``crop`` ``(w, h)`` only its top-left ``w`` x ``h`` pixels are kept."""
    stem = target.with_suffix("")
    command = [_pdftoppm(), "-png", "-f", str(page), "-l", str(page), "-singlefile",
               "-scale-to-x", str(width_px), "-scale-to-y", str(height_px)]
    if crop is not None:
        command += ["-x", "0", "-y", "0", "-W", str(crop[0]), "-H", str(crop[1])]
    command += [str(pdf), str(stem)]
    try:
        result = subprocess.run(command, capture_output=True, text=True, timeout=RASTER_TIMEOUT)
    except subprocess.TimeoutExpired:  # a pdftoppm that hangs never holds the build (and its lock) for good
        raise RasterError(f"pdftoppm did not finish {target.name} in {RASTER_TIMEOUT} seconds") from None
    if result.returncode != 0 or not target.is_file():
        why = result.stderr.strip() or (f"exit status {result.returncode}" if result.returncode else "it wrote no image")
        raise RasterError(f"pdftoppm failed on {target.name}: {why}")
    return target


def write_png_sheets(game: str, cards: Sequence[PngCard], backs: dict[str, Drawing], out_dir: Path, *,
                     width_px: int = CARD_WIDTH_PX) -> list[Path]:
    """Write the deck images of ``game`` and each of ``backs`` (back id to Drawing) into ``out_dir``;
    return the paths written.

    ``cards`` are every card to put in the deck (a card printed three times is listed three times),
    all of one trim size. Raises :class:`RasterError` when ``pdftoppm`` is missing or fails and
    ``ValueError`` when ``cards`` is empty or mixes trim sizes.
    """
    if not cards:
        raise ValueError(f"{game}: no cards for the PNG images")
    width_mm, height_mm = cards[0].front.width_mm, cards[0].front.height_mm
    for card in cards:
        for face in (card.front, card.back):
            if face is not None and (abs(face.width_mm - width_mm) > SAME_SIZE_MM or abs(face.height_mm - height_mm) > SAME_SIZE_MM):
                raise ValueError(f"card {face.id}: trim {face.width_mm} x {face.height_mm} mm differs from "
                                 f"the deck's {width_mm} x {height_mm} mm")
    height_px = card_height_px(width_mm, height_mm, width_px)
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    with tempfile.TemporaryDirectory(prefix="pnp-png-") as scratch:
        pdf = Path(scratch) / f"{game}-deck.pdf"
        canvas = new_canvas(pdf, COLUMNS * width_mm, ROWS * height_mm, f"{game} deck images")
        painter = Painter(canvas, ROWS * height_mm)
        chunks = [cards[start:start + PER_SHEET] for start in range(0, len(cards), PER_SHEET)]
        for chunk in chunks:
            _grid_page(painter, [card.front for card in chunk], width_mm, height_mm)
            _grid_page(painter, [card.back for card in chunk], width_mm, height_mm)
        back_ids = sorted(backs)
        for back_id in back_ids:  # one card-sized image each, drawn in the grid's top-left slot
            _grid_page(painter, [backs[back_id]], width_mm, height_mm)
        canvas.save()
        page = 1
        for number in range(1, len(chunks) + 1):
            for side in ("fronts", "backs"):
                target = out_dir / f"{game}-{side}-{number}.png"
                written.append(_rasterise(pdf, page, target, COLUMNS * width_px, ROWS * height_px))
                page += 1
        for back_id in back_ids:
            written.append(_rasterise(pdf, page, out_dir / f"{back_id}.png", COLUMNS * width_px, ROWS * height_px,
                                      crop=(width_px, height_px)))
            page += 1
    return written

