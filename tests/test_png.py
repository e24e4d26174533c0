"""PNG deck images for digital tabletops: 10 x 7 grids of card fronts, backs in the same slots, and
each back alone, at an exact pixel size per card."""
from __future__ import annotations

import pytest

from pnp import layout, raster

PIL = pytest.importorskip("PIL.Image")


@pytest.fixture(scope="module")
def png_dir(screens_output):
    folder = screens_output / "png"
    if not folder.is_dir():
        pytest.skip("pdftoppm (poppler-utils) is not installed: no PNG images were made")
    return folder


def _filled_slots(path, width: int, height: int) -> list[bool]:
    """For each slot of a deck image, whether a card is drawn in it (not plain white)."""
    with PIL.open(path) as image:
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
                with PIL.open(path) as image:
                    assert image.size == (raster.COLUMNS * width, raster.ROWS * height)
            slots = _filled_slots(front, width, height)
            assert not slots[-1]  # the hidden-face slot stays empty
            assert slots == sorted(slots, reverse=True)  # cards fill the grid from the top left
            cards += sum(slots)
            backs_drawn += sum(_filled_slots(back, width, height))
        assert cards == expected
        assert backs_drawn == with_back
        for back_id in {face.back for face in faces if face.back}:
            with PIL.open(png_dir / f"{back_id}.png") as image:
                assert image.size == (width, height)


def test_an_empty_deck_is_refused(tmp_path):
    with pytest.raises(ValueError, match="no cards"):
        raster.write_png_sheets("solo", [], {}, tmp_path)
