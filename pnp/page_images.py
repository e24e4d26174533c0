"""Pages of a PDF as PNG images, drawn by PDFium (the ``pypdfium2`` wheel: no system package).

:mod:`pnp.raster` runs this module as worker processes, ``python -m pnp.page_images``, several at
once: PDFium is not thread-safe, so pages are drawn in parallel by processes, never threads. The
module imports only the standard library, pypdfium2 and Pillow (a dependency of ReportLab), so a
worker starts in a fraction of a second.

The worker is given the path of a JSON file (``python -m pnp.page_images JOB.json``) holding::

    {"pdf": "/path/deck.pdf",
     "pages": [{"page": 1, "width": 4000, "height": 3913, "crop": null, "target": "/out/solo-fronts-1.png"},
               {"page": 3, "width": 4000, "height": 3913, "crop": [400, 559], "target": "/out/solo.back.quest.png"}]}

``page`` is 1-based. Each page is stretched to exactly ``width`` x ``height`` pixels (the two scales
may differ slightly, as with ``pdftoppm -scale-to-x -scale-to-y``: pixel sizes are whole numbers), and
with ``crop`` ``[w, h]`` only its top-left ``w`` x ``h`` pixels are kept. Each image is written to
``<target>.part`` and renamed to ``target`` once complete, so no half-written PNG ever carries the
target's name. On any failure the worker writes one line to standard error and exits with status 1.

The images are reproducible: the same PDF gives the same PNG bytes (PDFium draws deterministically
and Pillow writes no time or other varying chunk into a PNG).
"""
from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

WHITE = (255, 255, 255, 255)


class PageImageError(RuntimeError):
    """A page could not become its PNG image; the message starts with the image's file name."""


def _one_line(error: BaseException) -> str:
    """``error`` in one line: its type and its text with every run of white space made one space."""
    text = " ".join(str(error).split())
    return f"{type(error).__name__}: {text}" if text else type(error).__name__


def render_page(document: Any, page: int, width: int, height: int, crop: tuple[int, int] | None = None) -> Any:
    """Page ``page`` (1-based) of the open ``pypdfium2.PdfDocument`` ``document``, stretched to
    ``width`` x ``height`` pixels on white, as an RGB ``PIL.Image``; with ``crop`` ``(w, h)`` only its
    top-left ``w`` x ``h`` pixels. Raises ``ValueError`` for a page the document does not have or a
    size below one pixel, and ``pypdfium2.PdfiumError`` when PDFium cannot load the page."""
    import pypdfium2 as pdfium
    import pypdfium2.raw as pdfium_c

    if not 1 <= page <= len(document):
        raise ValueError(f"the PDF has no page {page} (it has {len(document)})")
    keep_width, keep_height = crop if crop is not None else (width, height)
    if min(width, height, keep_width, keep_height) < 1:
        raise ValueError(f"an image of {keep_width} x {keep_height} pixels (page at {width} x {height}) is empty")
    loaded = document[page - 1]
    try:
        bitmap = pdfium.PdfBitmap.new_native(keep_width, keep_height, pdfium_c.FPDFBitmap_BGR, rev_byteorder=True)
        bitmap.fill_rect(WHITE, 0, 0, keep_width, keep_height)
        # The whole page is placed at (0, 0) at width x height; a smaller bitmap keeps its top-left part.
        pdfium_c.FPDF_RenderPageBitmap(bitmap, loaded, 0, 0, width, height, 0,
                                       pdfium_c.FPDF_ANNOT | pdfium_c.FPDF_REVERSE_BYTE_ORDER)
        return bitmap.to_pil().convert("RGB")  # a copy: the image outlives the bitmap's buffer
    finally:
        loaded.close()


def write_pages(pdf: Path, pages: list[dict[str, Any]]) -> None:
    """Write each of ``pages`` (see the module docstring) of ``pdf`` as its PNG ``target``; the first
    failure raises :class:`PageImageError` naming its target (``KeyError`` for a job without a key,
    ``pypdfium2.PdfiumError`` for a file PDFium cannot open), leaving no ``.part`` file behind."""
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(str(pdf))
    try:
        for job in pages:
            target = Path(job["target"])
            part = target.with_name(target.name + ".part")
            try:
                crop = job.get("crop")
                image = render_page(document, int(job["page"]), int(job["width"]), int(job["height"]),
                                    (int(crop[0]), int(crop[1])) if crop else None)
                image.save(part, format="PNG")
                os.replace(part, target)
            except Exception as error:
                raise PageImageError(f"{target.name}: {_one_line(error)}") from error
            finally:
                part.unlink(missing_ok=True)
    finally:
        document.close()


def main() -> int:
    """The worker: the JSON job file named by the one argument, the images written; 0, or 1 with one
    line on standard error naming the page that failed and why."""
    try:
        if len(sys.argv) != 2:
            raise ValueError("usage: python -m pnp.page_images JOB.json")
        job = json.loads(Path(sys.argv[1]).read_text(encoding="utf-8"))
        write_pages(Path(job["pdf"]), list(job["pages"]))
    except PageImageError as error:  # one line for the parent (pnp.raster), never a traceback
        print(" ".join(str(error).split()), file=sys.stderr)
        return 1
    except Exception as error:
        print(_one_line(error), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
