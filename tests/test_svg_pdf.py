"""The same Drawing through both backends: SVG and PDF, reproducible, fonts embedded, icons as vectors."""
from __future__ import annotations

import re

import pytest
from pypdf import PdfReader

from pnp.drawing import Box, Circle, Drawing, Group, Icon, Line, Polygon, Rect, TextLine
from pnp.pdf import SheetCard, write_card_pdf, write_sheets
from pnp.sheets import A4, LETTER
from pnp.svg import number, to_svg
from pnp.text import fit_text
from tests.conftest import bundled_layout, bundled_options
from tests.pages import render_page

MM = 72 / 25.4


def sample(index: int = 0, back: bool = False) -> Drawing:
    """A card using every primitive: background into the bleed, frame, hex, text with icons, Korean."""
    body = fit_text(f"Card {index}: roll :d6-{index % 6 + 1}: and gain 2 :mana:; lose :spirit:.",
                    Box(6, 40, 51, 20), "serif", 10, 6).items
    items = (
        Rect(-3, -3, 69, 94, fill="#efe3c6"),
        Rect(3, 3, 57, 82, stroke="#3b2a1a", stroke_width=0.4, radius=2),
        Line(3, 20, 60, 20, "#3b2a1a", 0.3, dash=(1.0, 0.5)),
        Polygon([(31.5, 25), (37, 28), (37, 34), (31.5, 37), (26, 34), (26, 28)], fill="#c9b38a"),
        Circle(50, 30, 4, fill="#111111"),
        TextLine(31.5, 14, f"Iarith {index}", "serif-bold", 14, "#3b2a1a", "middle"),
        TextLine(31.5, 75, "그레이킹이 부활했다", "korean", 8, "#3b2a1a", "middle"),
        Icon("ghast", 8, 24, 12),
        Group((Rect(-3, -3, 69, 94, fill="#7a2e2a"),), clip=Box(-3, 80, 69, 11)),
    ) + tuple(body)
    if back:
        items = (Rect(-3, -3, 69, 94, fill="#3b2a1a"), TextLine(31.5, 44, f"BACK {index}", "serif-bold", 20, "#efe3c6", "middle"))
    return Drawing(63, 88, 3, items, id=f"test.card{index}{'.back' if back else ''}", title=f"Card {index}")


def test_number_formatting_is_fixed():
    assert [number(v) for v in (63, -3, 1.005, 0.333333, -0.001, 2.5)] == ["63", "-3", "1", "0.33", "0", "2.5"]


def test_svg_is_byte_identical_and_in_mm():
    first, second = to_svg(sample()), to_svg(sample())
    assert first == second
    assert 'width="69mm"' in first and 'height="94mm"' in first and 'viewBox="-3 -3 69 94"' in first
    assert 'font-family="EB Garamond, serif"' in first and 'font-weight="bold"' in first
    assert 'font-family="NanumMyeongjo, serif"' in first
    # Icons are vectors defined once and used by reference, never raster images.
    assert "<image" not in first
    assert first.count('<g id="icon-ghast">') == 1 and 'xlink:href="#icon-ghast"' in first
    assert 'xlink:href="#icon-mana"' in first and "<path" in first
    # The clip group has a stable id.
    assert '<clipPath id="clip-1">' in first and 'clip-path="url(#clip-1)"' in first
    # No float noise: every number has at most 2 decimals, except icon scale factors.
    without_scale = re.sub(r"scale\([0-9.]+\)", "", first)
    assert not re.search(r"\d\.\d{3,}", without_scale)


def _svgwrite_pretty(drawing: Drawing, fonts_url: str | None = None) -> str:
    """``drawing`` as svgwrite itself pretty-prints it (``svgwrite.Drawing.write(pretty=True, indent=1)``:
    the tree serialised, parsed again by minidom and written by ``toprettyxml``), for comparison."""
    import xml.etree.ElementTree as ElementTree

    from svgwrite.utils import pretty_xml  # svgwrite's import also patches CDATA support into ElementTree

    import pnp.svg

    trees: list[ElementTree.Element] = []
    original = pnp.svg._write_pretty
    pnp.svg._write_pretty = lambda element, indent, out: trees.append(element)  # the tree to_svg builds
    try:
        to_svg(drawing, fonts_url)
    finally:
        pnp.svg._write_pretty = original
    text = ElementTree.tostring(trees[0], encoding="utf-8").decode("utf-8")
    return '<?xml version="1.0" encoding="utf-8" ?>\n' + pretty_xml(text, indent=1) + "\n"


@pytest.mark.parametrize("fonts_url", [None, "../fonts/"])
def test_svg_written_as_svgwrite_pretty_prints_it(db, fonts_url):
    """pnp.svg writes the pretty SVG straight from the tree (issue 14: svgwrite's re-parse was two thirds
    of an SVG's time); the bytes are svgwrite's, for every face of the bundled cards and for text that
    needs escaping (``& < > "``, a line end), Korean and a style sheet."""
    from pnp.layout import render

    rendered = render(db)
    faces = [face.drawing for face in rendered.fronts] + [face.drawing for face in rendered.backs.values()]
    tricky = Drawing(63, 88, 3, (TextLine(3, 10, 'A & B < C > "D" \'E\'', "serif", 8, "#000000"),
                                 TextLine(3, 20, "그레이킹 1 & 2", "korean", 8, "#000000", "end"),
                                 Group((TextLine(3, 30, "x\r\ny", "serif", 8, "#000000"),), clip=Box(0, 0, 10, 10))),
                     id="test.tricky", title='Fish & "Chips" <b>')
    for drawing in faces + [sample(3), tricky]:
        assert to_svg(drawing, fonts_url) == _svgwrite_pretty(drawing, fonts_url), drawing.id


def test_board_split_shifts_and_clips():
    board = Drawing(189, 88, 3, (Rect(-3, -3, 195, 94, fill="#efe3c6"), Circle(94.5, 44, 30, fill="#aa0000")))
    cards = board.split(3, ids=["a", "b", "c"])
    assert [c.id for c in cards] == ["a", "b", "c"] and all(c.width_mm == 63 for c in cards)
    middle = to_svg(cards[1])
    assert 'transform="translate(-63 0)"' in middle
    assert '<rect height="94" width="69" x="-3" y="-3"/>' in middle  # the clip is the card's bleed box
    with pytest.raises(ValueError):
        board.crop(150, 0, 63, 88)


def _pdf_fonts(reader: PdfReader) -> dict[str, bool]:
    """Base font name -> whether its font file is embedded, over all pages."""
    found = {}
    for page in reader.pages:
        for font in page["/Resources"]["/Font"].values():
            font = font.get_object()
            descriptor = font.get("/FontDescriptor")
            if descriptor is None and "/DescendantFonts" in font:
                descriptor = font["/DescendantFonts"][0].get_object().get("/FontDescriptor")
            descriptor = descriptor.get_object() if descriptor is not None else {}
            found[str(font["/BaseFont"])] = any(k in descriptor for k in ("/FontFile", "/FontFile2", "/FontFile3"))
    return found


def _xobject_subtypes(obj, seen=None) -> set[str]:
    """Subtypes of every XObject reachable from a resources dictionary (forms are followed)."""
    seen = set() if seen is None else seen
    subtypes = set()
    resources = obj.get("/Resources")
    if resources is None:
        return subtypes
    resources = resources.get_object()
    for xobject in resources.get("/XObject", {}).values():
        if id(xobject) in seen:
            continue
        seen.add(id(xobject))
        xobject = xobject.get_object()
        subtypes.add(str(xobject["/Subtype"]))
        subtypes |= _xobject_subtypes(xobject, seen)
    return subtypes


@pytest.fixture(scope="module")
def sheets(tmp_path_factory):
    folder = tmp_path_factory.mktemp("sheets")
    cards = [SheetCard(sample(i), sample(i, back=True) if i != 1 else None) for i in range(11)]
    reports = {}
    for paper in (A4, LETTER):
        layout, options = bundled_layout(paper), bundled_options()
        reports[paper.name] = write_sheets(folder / f"{paper.name}.pdf", cards, layout=layout, options=options, game="Test game")
        write_sheets(folder / f"{paper.name}-again.pdf", cards, layout=layout, options=options, game="Test game")
    return folder, reports


@pytest.mark.parametrize("paper, size_pt", [(A4, (595.28, 841.89)), (LETTER, (612.0, 792.0))])
def test_sheet_pages_sizes_and_count(sheets, paper, size_pt):
    folder, reports = sheets
    reader = PdfReader(folder / f"{paper.name}.pdf")
    # 11 cards: fronts 1 (9 cards) + backs 1, fronts 2 (2 cards) + backs 2.
    assert len(reader.pages) == 4 == reports[paper.name].pages
    for page in reader.pages:
        assert float(page.mediabox.width) == pytest.approx(size_pt[0], abs=0.01)
        assert float(page.mediabox.height) == pytest.approx(size_pt[1], abs=0.01)
        trim = page.trimbox
        assert float(trim.width) == pytest.approx(189 * MM, abs=0.01)
        assert float(trim.height) == pytest.approx(264 * MM, abs=0.01)
    assert reader.trailer["/Root"]["/ViewerPreferences"]["/PrintScaling"] == "/None"
    text = reader.pages[0].extract_text()
    assert "Iarith 0" in text and "page 1/4" in text and paper.name in text
    assert "BACK 0" in reader.pages[1].extract_text()


def test_sheet_fonts_are_embedded_and_icons_are_vectors(sheets):
    folder, _ = sheets
    reader = PdfReader(folder / "A4.pdf")
    fonts = _pdf_fonts(reader)
    names = " ".join(fonts)
    assert "EBGaramond12-Regular" in names and "EBGaramond-Bold" in names and "NanumMyeongjo" in names
    assert "Helvetica" not in names  # nothing falls back to an unembedded base-14 font
    assert all(fonts.values()), fonts
    subtypes = set()
    for page in reader.pages:
        subtypes |= _xobject_subtypes(page)
    assert subtypes == {"/Form"}  # icons are stored once as vector forms; no /Image anywhere


def test_sheets_are_byte_identical(sheets):
    folder, _ = sheets
    for paper in (A4, LETTER):
        assert (folder / f"{paper.name}.pdf").read_bytes() == (folder / f"{paper.name}-again.pdf").read_bytes()


def test_single_card_pdf(tmp_path):
    first = write_card_pdf(sample(), tmp_path / "one.pdf")
    second = write_card_pdf(sample(), tmp_path / "two.pdf")
    assert first.read_bytes() == second.read_bytes()
    page = PdfReader(first).pages[0]
    assert float(page.mediabox.width) == pytest.approx(69 * MM, abs=0.01)
    assert float(page.trimbox.left) == pytest.approx(3 * MM, abs=0.01)


def test_backs_land_behind_their_fronts(tmp_path):
    """Rendered check: red front in slot 0, blue back; after a long-edge flip the blue lands in column 2."""
    def plain(colour: str, back: bool) -> Drawing:
        return Drawing(63, 88, 3, (Rect(-3, -3, 69, 94, fill=colour),), id=f"{colour}{back}")

    cards = [SheetCard(plain("#ff0000", False), plain("#0000ff", True))] + [SheetCard(plain("#00ff00", False)) for _ in range(3)]
    report = write_sheets(tmp_path / "s.pdf", cards, layout=bundled_layout(A4), options=bundled_options(duplex="long"), game="t")
    dpmm = 20 / 25.4
    backs = render_page(tmp_path / "s.pdf", 2, 20)

    def colour_at(image, box):
        return image.getpixel((int((box.x + box.width / 2) * dpmm), int((box.y + box.height / 2) * dpmm)))

    layout = report.layout
    assert colour_at(backs, layout.trim_box(2)) == (0, 0, 255)
    assert colour_at(backs, layout.trim_box(0)) == (255, 255, 255)  # slots without a back stay empty
    assert colour_at(backs, layout.trim_box(1)) == (255, 255, 255)


def test_a_back_painted_once_as_a_form_prints_as_painted_each_time(db, tmp_path, monkeypatch):
    """A face placed more than once in a document (a back) is one Form XObject (a smaller file) and every
    page prints as when it was painted at each place."""
    from PIL import ImageChops

    from pnp import layout
    from pnp.pdf import Painter

    rendered = layout.render(db)
    cards = [SheetCard(face.drawing, rendered.backs[face.back].drawing) for face in rendered.game("solo") if face.back][:9]
    cards += [SheetCard(face.drawing) for face in rendered.game("solo") if not face.back][:2]  # a page of empty slots
    args = dict(layout=bundled_layout(A4), options=bundled_options(duplex="long", back_offset=(0.5, -0.5)), game="t")
    shared = write_sheets(tmp_path / "shared.pdf", cards, **args).path
    draw = Painter.draw
    monkeypatch.setattr(Painter, "draw", lambda self, *a, shared=False, **k: draw(self, *a, **k))
    painted = write_sheets(tmp_path / "painted.pdf", cards, **args).path
    assert shared.stat().st_size < painted.stat().st_size
    for page in (1, 2, 3, 4):  # PDFium rounds an edge pixel through the form's matrix 1/255 apart at most
        difference = ImageChops.difference(render_page(shared, page, 100), render_page(painted, page, 100))
        assert max(high for _, high in difference.getextrema()) <= 2, page
