"""Print shops and home printers: CMYK sheets (k/K operators only, black in K alone) and the
ink-saving variant (a pure Drawing transform that prints clearly lighter)."""
from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from pypdf import PdfReader
from pypdf.generic import ContentStream

from pnp import inks, layout
from pnp.build import BuildOptions, build
from pnp.drawing import TextLine, walk
from pnp.pdf import SheetCard, write_sheets
from pnp.sheets import PAPERS
from tests.conftest import bundled_layout, bundled_options
from tests.pages import render

COLOUR_OPERATORS = {"rg", "RG", "k", "K", "g", "G", "sc", "scn", "SC", "SCN", "cs", "CS"}
"""PDF operators that set a colour or colour space."""


def colour_operators(path: Path) -> dict[str, int]:
    """How often each colour operator appears in the page content streams and the Form XObjects (icons)."""
    counts: dict[str, int] = {}
    seen: set[int] = set()

    reader = PdfReader(path)

    def scan(stream) -> None:
        # parsed operators, not a text search: a card's text "(G) Tj" must not count as the G operator
        for _, operator in ContentStream(stream, reader).operations:
            name = operator.decode("latin-1")
            if name in COLOUR_OPERATORS:
                counts[name] = counts.get(name, 0) + 1

    for page in reader.pages:
        scan(page.get_contents())
        for ref in (page["/Resources"].get("/XObject") or {}).values():
            if ref.idnum not in seen:
                seen.add(ref.idnum)
                scan(ref.get_object())
    return counts


@pytest.fixture(scope="module")
def nine_cards(db) -> list[SheetCard]:
    """The first nine solo fronts with their backs (icons, bands, text, a board): one fronts page."""
    rendered = layout.render(db)
    return [SheetCard(face.drawing, rendered.backs[face.back].drawing if face.back else None)
            for face in rendered.game("solo")[:9]]


def test_rgb_to_cmyk_is_the_documented_conversion():
    assert inks.rgb_to_cmyk("#000000") == (0.0, 0.0, 0.0, 1.0)
    assert inks.rgb_to_cmyk("#ffffff") == (0.0, 0.0, 0.0, 0.0)
    assert inks.rgb_to_cmyk("#ff0000") == (0.0, 1.0, 1.0, 0.0)
    assert inks.rgb_to_cmyk("#333333") == (0.0, 0.0, 0.0, 0.8)  # greys are pure K: no rich black
    c, m, y, k = inks.rgb_to_cmyk("#3b2a1a")  # the cards' dark brown ink
    assert c == 0.0 and k == pytest.approx(1 - 0x3b / 255, abs=1e-4) and 0 < m < y < 1


def test_cmyk_sheets_use_only_cmyk_operators_and_rgb_stays_the_default(nine_cards, tmp_path):
    layout, options = bundled_layout(PAPERS["a4"]), bundled_options()
    rgb = write_sheets(tmp_path / "rgb.pdf", nine_cards, layout=layout, options=options, game="solo").path
    cmyk = write_sheets(tmp_path / "cmyk.pdf", nine_cards, layout=layout, options=options, game="solo", colour=inks.cmyk).path
    by_default, in_cmyk = colour_operators(rgb), colour_operators(cmyk)
    assert by_default.get("rg") and by_default.get("RG")
    assert not by_default.get("k") and not by_default.get("K")
    assert in_cmyk.get("k") and in_cmyk.get("K")
    assert not {"rg", "RG", "g", "G", "sc", "scn", "SC", "SCN", "cs", "CS"} & set(in_cmyk), in_cmyk
    page = PdfReader(cmyk).pages[0].get_contents().get_data()
    assert b"0 0 0 1 K" in page  # crop marks (and black rules) in black ink alone


def test_the_build_writes_the_chosen_variant_beside_the_default(screens_output):
    names = sorted(path.name for path in screens_output.glob("*.pdf"))
    for game in ("solo", "duel"):
        for paper in ("a4", "letter"):
            assert f"{game}-{paper}.pdf" in names
            assert f"{game}-{paper}-ink-saver-cmyk.pdf" in names
    assert colour_operators(screens_output / "duel-a4-ink-saver-cmyk.pdf").keys() <= {"k", "K"}
    assert "rg" in colour_operators(screens_output / "duel-a4.pdf")


def test_variant_names():
    assert [v.suffix for v in inks.variants()] == [""]
    assert [v.suffix for v in inks.variants("cmyk")] == ["", "-cmyk"]
    assert [v.suffix for v in inks.variants(ink="saver")] == ["", "-ink-saver"]
    assert inks.variants("cmyk", "saver")[1].name("solo-a4") == "solo-a4-ink-saver-cmyk.pdf"
    with pytest.raises(ValueError, match="colour model"):
        inks.variants("rgba")  # type: ignore[arg-type]


def test_a_build_removes_variants_and_images_it_did_not_write(db, tmp_path):
    """Variant PDFs and png/ of an earlier build go when a build no longer writes them; the user's
    own files of the same pattern (foo-cmyk.pdf, png/my.png) and the calibration sheet stay."""
    small = dataclasses.replace(db, print=dataclasses.replace(db.print, **{"papers": ("a4",)}))
    build(small, tmp_path, BuildOptions(color="cmyk", ink="saver"))
    assert (tmp_path / "solo-a4-ink-saver-cmyk.pdf").is_file()
    for name in ("foo-cmyk.pdf", "calibration-a4-long.pdf", "duel-letter-ink-saver.pdf"):
        (tmp_path / name).write_bytes(b"%PDF")
    (tmp_path / "png").mkdir()
    (tmp_path / "png" / "my.png").write_bytes(b"")
    build(small, tmp_path)
    assert sorted(p.name for p in tmp_path.glob("*.pdf")) == ["calibration-a4-long.pdf", "duel-a4.pdf",
                                                              "duel-letter-ink-saver.pdf", "foo-cmyk.pdf", "solo-a4.pdf"]
    assert (tmp_path / "png" / "my.png").is_file()


def test_ink_saver_is_pure_keeps_text_dark_and_lightens_large_fills(db):
    rendered = layout.render(db)
    faces = [face.drawing for face in rendered.fronts] + [face.drawing for face in rendered.backs.values()]
    for drawing in faces:
        saved = inks.ink_saver(drawing)
        assert saved is not drawing and saved.id == drawing.id
        assert inks.ink_saver(drawing) == saved  # a function of the Drawing alone
        for item in walk(saved.items):
            if isinstance(item, TextLine):
                assert inks.darkness(item.fill) > 0.5, (drawing.id, item.text, item.fill)
    assert inks.darkness(inks.light_tint("#3b2a1a")) < 0.15  # was 0.8
    red, blue = inks.light_tint("#a8322a"), inks.light_tint("#2f5f9e")
    assert red[1:3] > red[3:5] and blue[5:7] > blue[1:3]  # the map bands keep their hue


def _mean_darkness(pdf: Path, tmp_path: Path) -> float:
    """Mean darkness (0 white .. 1 black) of every page of ``pdf`` rendered in grey at 20 dpi."""
    from PIL import ImageStat

    pages = render(pdf, 20)
    assert pages
    return sum(1 - ImageStat.Stat(page.convert("L")).mean[0] / 255 for page in pages) / len(pages)


def test_ink_saver_sheets_use_far_less_ink(screens_output, tmp_path):
    for game in ("solo", "duel"):
        (tmp_path / game).mkdir()
        full = _mean_darkness(screens_output / f"{game}-a4.pdf", tmp_path / game)
        light = _mean_darkness(screens_output / f"{game}-a4-ink-saver-cmyk.pdf", tmp_path / game)
        assert full / light > 2.2, (game, full, light)
