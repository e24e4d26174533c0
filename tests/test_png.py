"""PNG deck images for digital tabletops: 10 x 7 grids of card fronts, backs in the same slots, and
each back alone, at an exact pixel size per card."""
from __future__ import annotations

import pytest
from PIL import Image

from pnp import layout, raster


@pytest.fixture(scope="module")
def png_dir(screens_output):
    return screens_output / "png"


def _filled_slots(path, width: int, height: int) -> list[bool]:
    """For each slot of a deck image, whether a card is drawn in it (not plain white)."""
    with Image.open(path) as image:
        grey = image.convert("L")
        slots = []
        for slot in range(raster.COLUMNS * raster.ROWS):
            row, column = divmod(slot, raster.COLUMNS)
            x, y = column * width, row * height
            low, high = grey.crop((x + width // 4, y + height // 4, x + 3 * width // 4, y + 3 * height // 4)).getextrema()
            slots.append(low < 250)
        return slots


def test_deck_images_have_every_card_and_exact_sizes(db, png_dir):
    width = raster.CARD_WIDTH_PX
    height = raster.card_height_px(db.print.card_width_mm, db.print.card_height_mm)
    assert (width, height) == (400, 559)
    rendered = layout.render(db)
    for game in ("solo", "duel"):
        faces = rendered.game(game)
        expected = sum(face.copies if face.board_cards == 1 else 1 for face in faces)
        with_back = sum((face.copies if face.board_cards == 1 else 1) for face in faces if face.back)
        fronts = sorted(png_dir.glob(f"{game}-fronts-*.png"))
        backs = sorted(png_dir.glob(f"{game}-backs-*.png"))
        assert len(fronts) == len(backs) == -(-expected // raster.PER_SHEET)
        cards = backs_drawn = 0
        for front, back in zip(fronts, backs):
            for path in (front, back):
                with Image.open(path) as image:
                    assert image.size == (raster.COLUMNS * width, raster.ROWS * height)
            slots = _filled_slots(front, width, height)
            assert not slots[-1]  # the hidden-face slot stays empty
            assert slots == sorted(slots, reverse=True)  # cards fill the grid from the top left
            cards += sum(slots)
            backs_drawn += sum(_filled_slots(back, width, height))
        assert cards == expected
        assert backs_drawn == with_back
        for back_id in {face.back for face in faces if face.back}:
            with Image.open(png_dir / f"{back_id}.png") as image:
                assert image.size == (width, height)


def test_an_empty_deck_is_refused(tmp_path):
    with pytest.raises(ValueError, match="no cards"):
        raster.write_png_sheets("solo", [], {}, tmp_path)


def _small_deck(db):
    """Six solo cards (some with a back) and their backs: a deck of one fronts and one backs image."""
    rendered = layout.render(db)
    faces = [face for face in rendered.game("solo") if face.board_cards == 1][:12:2]
    cards = [raster.PngCard(face.drawing, rendered.backs[face.back].drawing if face.back else None) for face in faces]
    backs = {face.back: rendered.backs[face.back].drawing for face in faces if face.back}
    assert backs and len(cards) == 6
    return cards, backs


def test_images_need_no_pdftoppm_and_are_drawn_in_parallel_worker_processes(db, tmp_path, monkeypatch):
    """Issue 15, "Without system packages": the images needed poppler's pdftoppm from apt (the PNG tests
    skipped on a fresh machine) and drew one page after another. With no pdftoppm anywhere on PATH they
    are made, by one worker process per core at most, started together, all pages drawn."""
    import subprocess

    cards, backs = _small_deck(db)  # laid out first: a layout may ask git for the shipped templates (not a PNG worker)
    monkeypatch.setenv("PATH", str(tmp_path / "no-programs-here"))
    monkeypatch.setattr(raster, "_cores", lambda: 2, raising=False)  # raising: the old raster.py had no _cores
    started = []
    popen = subprocess.Popen

    def spy(*args, **kwargs):
        started.append(args[0])
        return popen(*args, **kwargs)

    monkeypatch.setattr(subprocess, "Popen", spy)
    written = raster.write_png_sheets("solo", cards, backs, tmp_path / "png")
    assert [path.name for path in written] == ["solo-fronts-1.png", "solo-backs-1.png", *(f"{name}.png" for name in sorted(backs))]
    assert len(started) == 2 and all(command[:4] == list(raster.WORKER_COMMAND) for command in started)
    assert sorted(path.name for path in (tmp_path / "png").iterdir()) == sorted(path.name for path in written)  # no .part left


def test_the_same_cards_give_the_same_png_bytes_however_many_workers(db, tmp_path, monkeypatch):
    """Issue 15: the PNGs stay byte-reproducible with parallel drawing: one worker or three, twice,
    the same bytes (a digital tabletop's cache and a version-controlled output folder see no change)."""
    cards, backs = _small_deck(db)
    images = []
    for run, cores in enumerate((1, 3, 3)):
        monkeypatch.setattr(raster, "_cores", lambda cores=cores: cores)
        written = raster.write_png_sheets("solo", cards, backs, tmp_path / str(run))
        images.append({path.name: path.read_bytes() for path in written})
    assert images[0] == images[1] == images[2]
    with Image.open(tmp_path / "0" / "solo-fronts-1.png") as image:  # the exact size raster.py promises
        assert image.size == (raster.COLUMNS * raster.CARD_WIDTH_PX, raster.ROWS * 559) and image.mode == "RGB"


def test_a_page_pdfium_cannot_draw_is_one_line_and_leaves_no_part_file(tmp_path):
    """Issue 15: with PDFium in place of pdftoppm, a page that cannot be drawn is still one line naming
    the image (never a traceback), and no half-written image is left."""
    not_a_pdf = tmp_path / "deck.pdf"
    not_a_pdf.write_bytes(b"%PDF-1.4 broken")
    job = {"page": 1, "width": 40, "height": 56, "crop": None, "target": str(tmp_path / "solo-fronts-1.png")}
    with pytest.raises(raster.RasterError) as error:
        raster._render_pages(not_a_pdf, [job])
    assert "\n" not in str(error.value) and str(error.value).startswith("PDFium failed on solo-fronts-1.png: ")
    one_page = tmp_path / "one.pdf"
    from pnp.drawing import Drawing, Rect
    from pnp.pdf import write_card_pdf

    write_card_pdf(Drawing(63, 88, 3, (Rect(-3, -3, 69, 94, fill="#ff0000"),)), one_page)
    with pytest.raises(raster.RasterError, match=r"^PDFium failed on solo-backs-1.png: ValueError: the PDF has no page 2 \(it has 1\)$"):
        raster._render_pages(one_page, [dict(job, target=str(tmp_path / "solo-fronts-1.png")),
                                        dict(job, page=2, target=str(tmp_path / "solo-backs-1.png"))])
    assert sorted(path.name for path in tmp_path.iterdir()) == ["deck.pdf", "one.pdf", "solo-fronts-1.png"]
