"""PDF pages as images for the rendered checks, drawn by PDFium (the pypdfium2 wheel; no system package).

Issue 15, "Without system packages": the rendered tests ran poppler's ``pdftoppm`` and were skipped
on a machine without it. ``render(pdf, dpi)`` gives what ``pdftoppm -r DPI`` gave: each page as an
RGB ``PIL.Image``, one pixel per 1/DPI inch from the page's top-left corner.
"""
from __future__ import annotations

from pathlib import Path

from PIL import Image


def render(pdf: Path, dpi: float, pages: list[int] | None = None) -> list[Image.Image]:
    """Pages ``pages`` (1-based; all by default) of ``pdf`` at ``dpi``, as RGB images in page order."""
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(str(pdf))
    try:
        images = []
        for number in pages or range(1, len(document) + 1):
            page = document[number - 1]
            try:
                images.append(page.render(scale=dpi / 72).to_pil().convert("RGB"))
            finally:
                page.close()
        return images
    finally:
        document.close()


def render_page(pdf: Path, page: int, dpi: float) -> Image.Image:
    """Page ``page`` (1-based) of ``pdf`` at ``dpi``, as an RGB image."""
    return render(pdf, dpi, [page])[0]
