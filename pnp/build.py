"""Build the print-and-play files: one SVG per card face and the imposed PDF sheets per game and paper.

This module owns the output folder's shape: ``svg/<face id>.svg`` for every front and back,
``index.html`` and ``fonts/`` (:mod:`pnp.gallery`), ``png/`` on request (:mod:`pnp.raster`), and
``<game>-<paper>.pdf`` (for example ``solo-a4.pdf``) for each game and each paper of the database's
print settings. It only combines :mod:`pnp.layout` (what each card looks like), :mod:`pnp.svg` and
:mod:`pnp.pdf`; the same database always gives byte-identical files.
"""
from __future__ import annotations

import os
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from pnp import gallery, inks, raster
from pnp.database import Database, PrintSettings
from pnp.layout import render
from pnp.pdf import write_sheets
from pnp.sheets import PAPERS, Paper, SheetCard, SheetLayout, SheetOptions, impose
from pnp.svg import write_svg


def arrange(groups: list[list[SheetCard]], columns: int) -> list[SheetCard | None]:
    """The sheet order of ``groups`` (a board's cards, or one single card each), ``columns`` per row.

    A board that fits in one row never breaks across rows: when the current row has too few free
    slots, the next single cards fill them (or they stay empty, ``None``) and the board starts the
    next row, so it prints as one uncut strip. Otherwise the order is kept.
    """
    result: list[SheetCard | None] = []
    used: set[int] = set()
    for index, group in enumerate(groups):
        if index in used:
            continue
        if len(group) > 1 and len(group) <= columns:
            free = (columns - len(result) % columns) % columns
            if len(group) > free:
                for _ in range(free):
                    filler = next((i for i, g in enumerate(groups) if len(g) == 1 and i not in used and i > index), None)
                    if filler is None:
                        result.append(None)
                    else:
                        used.add(filler)
                        result.extend(groups[filler])
        used.add(index)
        result.extend(group)
    return result


@dataclass(frozen=True)
class BuildOptions:
    """Choices of one build that are not print settings of the database.

    ``boards``: ``"joined"`` prints the cards of a board (Progress Track, battle maps) side by side
    in one sheet row, as one piece for players who keep boards uncut (no cut line on their seams);
    ``"separate"`` imposes them like any other cards. ``back_offset`` ``(x, y)`` mm shifts every back
    (see ``pnp calibrate``); ``cut_lines`` draws full cut lines over the fronts.

    ``color`` (``"rgb"`` or ``"cmyk"``) and ``ink`` (``"full"`` or ``"saver"``) other than the
    defaults add one more PDF of each sheet, named by :func:`pnp.inks.variants` (``solo-a4-cmyk.pdf``,
    ``solo-a4-ink-saver.pdf``, ``solo-a4-ink-saver-cmyk.pdf``); ``png`` adds ``png/``, the deck
    images for digital tabletops (:mod:`pnp.raster`).
    """

    boards: Literal["joined", "separate"] = "joined"
    back_offset: tuple[float, float] = (0.0, 0.0)
    cut_lines: bool = False
    color: inks.ColorChoice = "rgb"
    ink: inks.InkChoice = "full"
    png: bool = False


def build(database: Database, out_dir: Path, options: BuildOptions = BuildOptions()) -> list[Path]:
    """Write every card face as SVG and the sheets as PDF into ``out_dir``; return the paths, sorted.

    Each card prints ``copies`` times on the sheets; boards print their cards side by side from the
    start of a sheet row. Everything is first written to a hidden staging folder inside ``out_dir``
    (:data:`STAGING_PREFIX`) and moved into place only when all of it succeeded, so a failed build leaves the previous output untouched
    and a successful one leaves no stale SVG of a card that no longer exists. Raises ``OSError`` when
    ``out_dir`` cannot be written, :class:`~pnp.layout.template.TemplateError` for a broken template,
    :class:`~pnp.raster.RasterError` when ``options.png`` asks for images and pdftoppm is missing,
    and ``ValueError`` for an unknown ``options.color`` or ``options.ink``.
    """
    out_dir = Path(out_dir)
    inks.variants(options.color, options.ink)  # an unknown choice fails before anything is written
    rendered = render(database)
    if out_dir.exists() and not out_dir.is_dir():
        raise NotADirectoryError(20, "not a folder", str(out_dir))
    created = not out_dir.exists()
    out_dir.mkdir(parents=True, exist_ok=True)
    for leftover in out_dir.glob(f"{STAGING_PREFIX}*"):  # from a build that was killed
        shutil.rmtree(leftover, ignore_errors=True)
    try:
        # Staged inside out_dir, so the final moves never cross file systems (a mounted --out folder).
        staging = Path(tempfile.mkdtemp(prefix=STAGING_PREFIX, dir=out_dir))
    except OSError as error:
        if created:
            out_dir.rmdir()
        raise OSError(error.errno, error.strerror, str(out_dir)) from None
    try:
        written = _write_all(database, rendered, staging, options)
        if (out_dir / "svg").exists():
            shutil.rmtree(out_dir / "svg")
        _remove_extras(out_dir)
        for path in sorted(staging.iterdir()):
            os.replace(path, out_dir / path.name)
    except OSError as error:
        failed = Path(error.filename) if error.filename else out_dir
        if staging in failed.parents:  # name the file as the user will know it, not the staging copy
            failed = out_dir / failed.relative_to(staging)
        raise OSError(error.errno, error.strerror, str(failed)) from None
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return sorted(out_dir / path.relative_to(staging) for path in written)


STAGING_PREFIX = ".pnp-staging-"
"""Name start of the hidden folder inside the output folder where a build is written before it is moved in."""


def _write_all(database: Database, rendered, out_dir: Path, options: BuildOptions) -> list[Path]:
    """Write every SVG and PDF of ``rendered`` into ``out_dir``; return the paths written."""
    written: list[Path] = []
    svg_dir = out_dir / "svg"
    for face in rendered.fronts:
        written.append(write_svg(face.drawing, svg_dir / f"{face.id}.svg", gallery.SVG_FONTS_URL))
    for face in rendered.backs.values():
        written.append(write_svg(face.drawing, svg_dir / f"{face.id}.svg", gallery.SVG_FONTS_URL))
    written.extend(gallery.write_gallery(database, rendered, out_dir))
    settings = database.print
    printing = sheet_options(settings, options)
    for game in ("solo", "duel"):
        faces = rendered.game(game)
        if not faces:
            continue
        groups: list[list[SheetCard]] = []
        for face in faces:
            back = rendered.backs[face.back].drawing if face.back else None
            joined = options.boards == "joined" and face.board_index < face.board_cards - 1
            if face.board_cards > 1 and face.board_index > 0 and options.boards == "joined":
                groups[-1].append(SheetCard(face.drawing, back, joined_right=joined))
            elif face.board_cards > 1:
                groups.append([SheetCard(face.drawing, back, joined_right=joined)])
            else:
                copies = face.copies if face.board_cards == 1 else 1  # a board prints once
                groups.extend([SheetCard(face.drawing, back)] for _ in range(copies))
        if options.png:
            deck = [raster.PngCard(card.front, card.back) for group in groups for card in group]
            backs = {face.back: rendered.backs[face.back].drawing for face in faces if face.back}
            written.extend(raster.write_png_sheets(game, deck, backs, out_dir / "png"))
        title = database.games[game].title if game in database.games else game
        for paper_key in settings.papers:
            layout = sheet_layout(settings, PAPERS[paper_key])
            cards = arrange(groups, layout.columns)
            for variant in inks.variants(options.color, options.ink):
                report = write_sheets(out_dir / variant.name(f"{game}-{paper_key}"), variant.apply(cards),
                                      layout=layout, options=printing, game=title, colour=variant.colour)
                written.append(report.path)
    return written


def sheet_layout(settings: PrintSettings, paper: Paper) -> SheetLayout:
    """The sheet grid on ``paper`` for the ``[print]`` settings: card size, bleed, crop mark length and
    printer margin in mm all come from the database (or the build's options that override it), and
    short-edge duplex centres the block. Raises :class:`~pnp.sheets.ImpositionError` when not even one
    card fits."""
    return impose(paper, card_width=settings.card_width_mm, card_height=settings.card_height_mm,
                  bleed=settings.bleed_mm, mark_length=settings.crop_mark_mm,
                  printer_margin=settings.printer_margin_mm, centred=settings.duplex == "short")


def sheet_options(settings: PrintSettings, options: BuildOptions = BuildOptions()) -> SheetOptions:
    """How the sheets print: duplex flip and the backs' extra bleed from the ``[print]`` settings, the
    back offset and cut lines from the build's ``options``."""
    return SheetOptions(duplex=settings.duplex, back_extra_bleed=settings.back_extra_bleed_mm,
                        back_offset=options.back_offset, cut_lines=options.cut_lines)


def sheet_notes(database: Database, options: BuildOptions = BuildOptions()) -> list[str]:
    """What a build will print differently from the usual 3 x 3 poker sheet, one line each: a paper
    whose grid is not 3 x 3 (a wide bleed or printer margin) and, with ``boards="joined"``, boards
    with more cards than a sheet row holds, which then print split over rows. Empty when neither."""
    settings = database.print
    rendered = render(database)
    boards: dict[str, int] = {}
    for face in rendered.fronts:
        if face.board_cards > 1:
            boards[face.record.id] = face.board_cards
    notes = []
    for paper_key in settings.papers:
        layout = sheet_layout(settings, PAPERS[paper_key])
        name = PAPERS[paper_key].name
        if (layout.columns, layout.rows) != (3, 3):
            notes.append(f"note: {name} holds {layout.columns} x {layout.rows} cards a page with a "
                         f"{settings.bleed_mm:g} mm bleed and a {settings.printer_margin_mm:g} mm printer margin, not 3 x 3")
        wide = sorted(board for board, cards in boards.items() if cards > layout.columns)
        if wide and options.boards == "joined":
            notes.append(f"note: a {name} sheet row holds {layout.columns} cards, so {', '.join(wide)} print split "
                         f"over rows, not as one strip; lower --bleed or --printer-margin to join them")
    return notes


def _remove_extras(out_dir: Path) -> None:
    """Remove from ``out_dir`` what a previous build may have left that this one rewrites or no longer
    makes: ``fonts/``, ``png/`` and the variant PDFs (``*-cmyk.pdf``, ``*-ink-saver.pdf``)."""
    for folder in ("fonts", "png"):
        if (out_dir / folder).is_dir():
            shutil.rmtree(out_dir / folder)
    for path in sorted(out_dir.glob("*.pdf")):
        if path.stem.endswith(inks.VARIANT_SUFFIXES):
            path.unlink()
