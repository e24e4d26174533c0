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
one page per image, and PDFium (the ``pypdfium2`` wheel, no system package) turns each page into the
PNG at an exact pixel size, several pages at once in worker processes (:mod:`pnp.page_images`; PDFium
is not thread-safe). The same Drawings therefore give the same pixels as the printed sheets, and the
same files every build (the PDF is reproducible, PDFium draws deterministically and the PNGs carry no
time).
"""
from __future__ import annotations

import contextlib
import importlib.util
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

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
    """The PNG images cannot be made (pypdfium2 missing, a page PDFium cannot draw, a worker past its
    time limit); the message is one line."""


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
"""Seconds one page may take to become a PNG image (a deck page takes well under one): a worker that
hangs never holds the build, and its output folder's lock, for good. A worker given n pages gets n times
this; past it every worker is stopped and nothing more is written."""

WORKER_COMMAND: tuple[str, ...] = (sys.executable, "-P", "-m", "pnp.page_images")
"""The worker process (:mod:`pnp.page_images`): this Python, ``-P`` so that a ``pnp`` folder in the
current folder is never imported instead of this package (whose folder is put on its ``PYTHONPATH``)."""


def _cores() -> int:
    """The CPUs this process may run on (its affinity where the system tells it, else all)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # no affinity on this system (macOS, Windows)
        return max(1, os.cpu_count() or 1)


def _exit_text(status: int) -> str:
    return f"killed by signal {-status}" if status < 0 else f"exit status {status}"


def _stop(workers: Sequence[tuple[subprocess.Popen[str], Any, Any]]) -> None:
    """Stop the ``workers`` still running (only processes started by :func:`_render_pages`) and reap them all."""
    for process, _, _ in workers:
        if process.poll() is None:
            process.kill()
        process.wait()
        if process.stderr is not None:
            process.stderr.close()


def _render_pages(pdf: Path, jobs: Sequence[dict[str, Any]]) -> None:
    """Draw ``jobs`` (see :mod:`pnp.page_images`) of ``pdf`` in parallel, one worker process per core
    at most, pages dealt out in turn (each worker's job is a JSON file in a temporary folder).

    Raises :class:`RasterError` (one line) when pypdfium2 is missing, a worker cannot start, fails or
    writes no image, or runs past its time limit (:data:`RASTER_TIMEOUT` per page). On any error or
    interruption every worker still running is stopped before this returns."""
    if importlib.util.find_spec("pypdfium2") is None:
        raise RasterError("PNG images need pypdfium2, which is missing; install it with pip install pypdfium2")
    count = min(len(jobs), _cores())
    shares = [list(jobs[start::count]) for start in range(count)]
    environment = dict(os.environ)
    package_root = str(Path(__file__).resolve().parents[1])
    environment["PYTHONPATH"] = os.pathsep.join(filter(None, (package_root, environment.get("PYTHONPATH"))))
    workers: list[tuple[subprocess.Popen[str], list[dict[str, Any]], float]] = []
    with tempfile.TemporaryDirectory(prefix="pnp-png-jobs-") as folder, contextlib.ExitStack() as stop:
        stop.callback(_stop, workers)
        for number, share in enumerate(shares, start=1):
            job = Path(folder) / f"job-{number}.json"
            job.write_text(json.dumps({"pdf": str(pdf), "pages": share}), encoding="utf-8")
            try:
                process = subprocess.Popen([*WORKER_COMMAND, str(job)], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                           stderr=subprocess.PIPE, text=True, env=environment)
            except OSError as error:
                raise RasterError(f"cannot start the page image worker {WORKER_COMMAND[0]}: {error.strerror or error}") from None
            workers.append((process, share, time.monotonic() + RASTER_TIMEOUT * len(share)))
        for process, share, deadline in workers:
            names = ", ".join(Path(job["target"]).name for job in share)
            try:
                _, errors = process.communicate(timeout=max(0.0, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                raise RasterError(f"the page images {names} did not finish in {RASTER_TIMEOUT * len(share)} seconds") from None
            if process.returncode != 0:
                lines = [line for line in errors.splitlines() if line.strip()]
                why = " ".join(lines[-1].split()) if lines else _exit_text(process.returncode)
                named = any(why.startswith(f"{Path(job['target']).name}: ") for job in share)  # the worker names its page
                raise RasterError(f"PDFium failed on {why}" if named else f"PDFium failed on {names}: {why}")
            missing = [Path(job["target"]).name for job in share if not Path(job["target"]).is_file()]
            if missing:
                raise RasterError(f"PDFium failed on {', '.join(missing)}: it wrote no image")


def write_png_sheets(game: str, cards: Sequence[PngCard], backs: dict[str, Drawing], out_dir: Path, *,
                     width_px: int = CARD_WIDTH_PX) -> list[Path]:
    """Write the deck images of ``game`` and each of ``backs`` (back id to Drawing) into ``out_dir``;
    return the paths written.

    ``cards`` are every card to put in the deck (a card printed three times is listed three times),
    all of one trim size. The images are drawn by PDFium in worker processes, in parallel
    (:func:`_render_pages`); the same cards give the same PNG bytes. Raises :class:`RasterError` (one
    line) when pypdfium2 is missing, a page cannot be drawn or drawing one takes longer than
    :data:`RASTER_TIMEOUT`, and ``ValueError`` when ``cards`` is empty or mixes trim sizes.
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
        jobs: list[dict[str, Any]] = []
        for number in range(1, len(chunks) + 1):
            for side in ("fronts", "backs"):
                jobs.append({"page": len(jobs) + 1, "width": COLUMNS * width_px, "height": ROWS * height_px, "crop": None,
                             "target": str(out_dir / f"{game}-{side}-{number}.png")})
        for back_id in back_ids:
            jobs.append({"page": len(jobs) + 1, "width": COLUMNS * width_px, "height": ROWS * height_px,
                         "crop": [width_px, height_px], "target": str(out_dir / f"{back_id}.png")})
        _render_pages(pdf, jobs)
        written.extend(Path(job["target"]) for job in jobs)
    return written

