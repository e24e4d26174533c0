"""Imposition: 3 x 3 poker cards on A4 and Letter, crop marks clear of every card, mirrored backs."""
from __future__ import annotations

import pytest

from pnp.drawing import Box
from pnp.sheets import A4, LETTER, PAPERS, ImpositionError, Paper, empty_slot_regions, marginalia, slot_marginalia
from tests.conftest import bundled_layout, bundled_options

CARD_SIZES: dict[str, tuple[float, float]] = {
    "poker": (63.0, 88.0),
    "mini": (44.0, 68.0),
    "tarot": (70.0, 120.0),
    "square": (70.0, 70.0),
}
"""Common card trim sizes in mm (width, height), portrait."""


@pytest.fixture(params=[(A4, None), (LETTER, None), (A4, 3.0), (LETTER, 3.0)],
                ids=lambda p: f"{p[0].name}-" + ("database" if p[1] is None else f"margin-{p[1]}"))
def layout(request):
    """The bundled [print] settings' grid, and the same with a 3 mm printer margin."""
    paper, printer_margin = request.param
    return bundled_layout(paper) if printer_margin is None else bundled_layout(paper, printer_margin_mm=printer_margin)


def test_three_by_three_fits_on_both_papers(layout):
    assert (layout.columns, layout.rows, layout.per_page) == (3, 3, 9)
    outer = layout.block_with_bleed
    assert outer.x >= 0 and outer.y >= 0
    assert outer.right <= layout.paper.width and outer.bottom <= layout.paper.height
    # Centred horizontally, so the mirrored backs use the same grid.
    assert layout.block.x == pytest.approx(layout.paper.width - layout.block.right)


def test_paper_sizes():
    assert (PAPERS["a4"].width, PAPERS["a4"].height) == (210.0, 297.0)
    assert (PAPERS["letter"].width, PAPERS["letter"].height) == (215.9, 279.4)


def test_cards_are_butted_on_shared_cut_lines(layout):
    boxes = [layout.trim_box(slot) for slot in range(9)]
    assert boxes[1].x == pytest.approx(boxes[0].right) and boxes[3].y == pytest.approx(boxes[0].bottom)
    assert all(b.width == 63 and b.height == 88 for b in boxes)
    # Visible regions: bleed only on the block's outer edges; neighbours never overlap.
    clips = [layout.clip_box(slot) for slot in range(9)]
    centre = clips[4]
    assert (centre.x, centre.y, centre.width, centre.height) == (boxes[4].x, boxes[4].y, 63, 88)
    corner = clips[0]
    assert (corner.x, corner.y) == (boxes[0].x - 3, boxes[0].y - 3) and corner.right == pytest.approx(boxes[0].right)
    for i in range(9):
        for j in range(i + 1, 9):
            assert not clips[i].overlaps(clips[j])


def test_a_card_beside_an_empty_slot_keeps_its_bleed_there(layout):
    """Issue 15: kinds of back kept apart leave empty rows between cards; a card beside an empty slot shows
    its bleed there (front: the bleed; back: bleed and extra bleed), as on the block's outer edges, so a cut
    a little off shows no white. Not at a corner whose diagonal slot holds a card: that card would be painted."""
    trim = layout.trim_box(4)  # the centre card, slots 1 (above) and 5 (right) empty
    beside = layout.clip_box(4, empty={1, 2, 5})
    assert (trim.y - beside.y, beside.right - trim.right) == pytest.approx((3.0, 3.0))
    assert (beside.x, beside.bottom) == pytest.approx((trim.x, trim.bottom))  # slots 3 and 7 hold cards
    corner_taken = layout.clip_box(4, empty={1, 5})  # slot 2, diagonally between them, holds a card
    assert corner_taken.y == pytest.approx(trim.y) and corner_taken.right - trim.right == pytest.approx(3.0)
    back = layout.back_box(4, "long")
    grown = layout.back_clip_box(4, "long", extra=2.0, empty={1, 0, 3})  # behind slot 4: slot 4's back, its neighbours mirrored
    assert (back.y - grown.y, back.x - grown.x) == pytest.approx((5.0, 5.0))


def test_crop_marks_at_every_cut_line_outside_the_bleed(layout):
    marks = layout.crop_marks()
    xs, ys = layout.cut_lines()
    assert len(marks) == 2 * len(xs) + 2 * len(ys) == 16
    bleed = layout.block_with_bleed
    trims = [layout.trim_box(slot) for slot in range(9)]
    for mark in marks:
        box = mark.box
        # On the extension of a cut line.
        assert (box.width == 0 and any(box.x == pytest.approx(x) for x in xs)) or \
               (box.height == 0 and any(box.y == pytest.approx(y) for y in ys))
        # Never over any card's trim area, nor its bleed: the first cut cannot remove a mark.
        grown = Box(box.x - 1e-6, box.y - 1e-6, box.width + 2e-6, box.height + 2e-6)
        assert not any(grown.overlaps(trim) for trim in trims)
        assert not grown.overlaps(bleed.inset(0.4))  # at least mark_gap (0.5 mm) clear of the bleed
        # On the paper, and as long as the margin allows, up to 6 mm.
        assert 0 <= box.x and box.right <= layout.paper.width and 0 <= box.y and box.bottom <= layout.paper.height
        assert 3.0 < max(box.width, box.height) <= 6.0 + 1e-9
    # A4 has room for full-length marks all round.
    if layout.paper is A4:
        assert all(max(m.box.width, m.box.height) == pytest.approx(6.0) for m in marks)


@pytest.mark.parametrize("printer_margin", [3.0, 6.35])
@pytest.mark.parametrize("paper", [A4, LETTER], ids=["A4", "Letter"])
def test_every_cut_line_end_prints_a_mark(paper, printer_margin):
    """Issue 3 (crop marks a printer drops are no marks): both ends of every cut line carry a crop
    mark or a cut guide in the bleed with at least 1 mm inside the printable area. Letter's top and
    bottom marks lie wholly inside a 6.35 mm printer margin, so there the guides carry the cut."""
    layout = bundled_layout(paper, printer_margin_mm=printer_margin)
    xs, ys = layout.cut_lines()
    block = layout.block
    lines = layout.crop_marks() + layout.bleed_guides()
    trims = [layout.trim_box(slot) for slot in range(layout.per_page)]
    for guide in layout.bleed_guides():
        grown = Box(guide.box.x - 1e-6, guide.box.y - 1e-6, guide.box.width + 2e-6, guide.box.height + 2e-6)
        assert not any(guide.box.overlaps(trim) for trim in trims)  # only ever in the bleed cut away
        assert layout.block_with_bleed.inset(-1e-6).overlaps(grown)
    for x in xs:
        for end_y in (block.y, block.bottom):
            printed = max((layout.printable_length(m) for m in lines
                           if m.box.width == 0 and m.box.x == pytest.approx(x)
                           and min(abs(m.box.y - end_y), abs(m.box.bottom - end_y)) < layout.bleed + 1.0), default=0)
            assert printed >= 1.0, (x, end_y)
    for y in ys:
        for end_x in (block.x, block.right):
            printed = max((layout.printable_length(m) for m in lines
                           if m.box.height == 0 and m.box.y == pytest.approx(y)
                           and min(abs(m.box.x - end_x), abs(m.box.right - end_x)) < layout.bleed + 1.0), default=0)
            assert printed >= 1.0, (y, end_x)
    if paper is A4 and printer_margin == 3.0:
        assert layout.bleed_guides() == []  # every mark prints: the bleed stays clean
    if paper is LETTER and printer_margin == 6.35:
        assert all(layout.printable_length(m) < 1.0 for m in layout.crop_marks() if m.box.width == 0)


def test_backs_are_mirrored_for_long_edge_duplex(layout):
    assert [layout.back_slot(s, "long") for s in range(9)] == [2, 1, 0, 5, 4, 3, 8, 7, 6]
    for slot in range(9):
        front = layout.trim_box(slot)
        back = layout.back_box(slot, "long")
        # Flipping the sheet on its long edge maps page x to (paper width - x): the back covers the front.
        assert back.x == pytest.approx(layout.paper.width - front.right)
        assert back.y == front.y
        mirrored = layout.trim_box(layout.back_slot(slot, "long"))
        assert (mirrored.x, mirrored.y) == pytest.approx((back.x, back.y))


@pytest.mark.parametrize("paper", [A4, LETTER], ids=["A4", "Letter"])
def test_backs_are_mirrored_for_short_edge_duplex(paper):
    """Short-edge flip maps page y to (paper height - y): rows reverse, columns stay."""
    layout = bundled_layout(paper, duplex="short")
    assert [layout.back_slot(s, "short") for s in range(9)] == [6, 7, 8, 3, 4, 5, 0, 1, 2]
    for slot in range(9):
        front = layout.trim_box(slot)
        back = layout.back_box(slot, "short")
        assert back.y == pytest.approx(paper.height - front.bottom)
        assert back.x == pytest.approx(front.x)
        grid = layout.trim_box(layout.back_slot(slot, "short"))
        assert (grid.x, grid.y) == pytest.approx((back.x, back.y))  # lands on the grid: block is centred


def test_back_offset_and_extra_bleed(layout):
    """--back-offset shifts every back; the extra bleed covers the shift so no white edge shows."""
    plain = layout.back_box(4, "long")
    shifted = layout.back_box(4, "long", (1.0, -0.5))
    assert (shifted.x - plain.x, shifted.y - plain.y) == pytest.approx((1.0, -0.5))
    # Together the shifted backs still cover every card's place: the extra bleed on the block's outer
    # edges takes up the shift, and inside the block the backs stay butted.
    clips = [layout.back_clip_box(slot, "long", (1.0, -0.5), extra=2.0) for slot in range(9)]
    covered = Box(min(c.x for c in clips), min(c.y for c in clips), 0, 0)
    covered = Box(covered.x, covered.y, max(c.right for c in clips) - covered.x, max(c.bottom for c in clips) - covered.y)
    backs = [layout.back_box(slot, "long") for slot in range(9)]
    assert covered.x <= min(b.x for b in backs) and covered.right >= max(b.right for b in backs)
    assert covered.y <= min(b.y for b in backs) and covered.bottom >= max(b.bottom for b in backs)
    assert sum(c.width * c.height for c in clips) < covered.width * covered.height + 1e-6  # no two overlap
    corner = layout.back_clip_box(0, "long", extra=2.0)  # slot 0's back is the top-right card: bleed on top and right
    back = layout.back_box(0, "long")
    assert back.y - corner.y == pytest.approx(layout.bleed + 2.0)
    assert corner.right - back.right == pytest.approx(layout.bleed + 2.0)
    # Second fresh-user trial: the extra bleed reached 2 mm into a neighbouring card with another back.
    # Inner sides stop at the shared cut line, unless the neighbouring place may take the spill (empty, or
    # the same back there).
    assert back.x - corner.x == pytest.approx(0.0) and corner.bottom == pytest.approx(back.bottom)
    beside_empty = layout.back_clip_box(0, "long", extra=2.0, spill={1, 4, 5})  # the backs' positions left of, below and between
    assert back.x - beside_empty.x == pytest.approx(2.0) and beside_empty.bottom - back.bottom == pytest.approx(2.0)
    # Issue 15: with the place diagonally between them not free (4: a card of another back, or none), the
    # spill left and down would paint its corner; the bottom side stays at the cut line.
    corner_taken = layout.back_clip_box(0, "long", extra=2.0, spill={1, 5})
    assert back.x - corner_taken.x == pytest.approx(2.0) and corner_taken.bottom == pytest.approx(back.bottom)


def test_marginalia_stay_clear_of_cards_and_marks(layout):
    placed = marginalia(layout, 48.0, 30.0, 45.0)
    kinds = [m.kind for m in placed]
    assert kinds[:2] == ["title", "page"]
    assert "bar" in kinds or "square" in kinds  # some 50 mm scale check on every sheet
    marks = [m.box for m in layout.crop_marks()]
    printable = Box(0, 0, layout.paper.width, layout.paper.height).inset(layout.printer_margin)
    for item in placed:
        box = item.box
        assert not box.overlaps(layout.block_with_bleed)
        assert not any(box.overlaps(Box(m.x - 0.5, m.y - 0.5, m.width + 1, m.height + 1)) for m in marks)
        assert printable.x - 1e-6 <= box.x and box.right <= printable.right + 1e-6
        assert printable.y - 1e-6 <= box.y and box.bottom <= printable.bottom + 1e-6
    for i, a in enumerate(placed):
        for b in placed[i + 1:]:
            assert not a.box.overlaps(b.box)


def kinds(paper, printer_margin):
    return [m.kind for m in marginalia(bundled_layout(paper, printer_margin_mm=printer_margin), 48.0, 30.0, 45.0)]


def test_scale_checks_are_honest_about_space():
    # A4 with a 3 mm printer margin: 33 mm of margin in all (297 - 264): the 10 cm ruler fits below
    # the block; a 50 mm square fits nowhere, so a 50 mm bar stands in.
    assert "ruler" in kinds(A4, 3.0) and "square" not in kinds(A4, 3.0) and "bar" in kinds(A4, 3.0)
    # With the database's 6.35 mm printer margin, the ruler no longer fits between the crop marks.
    assert "ruler" not in kinds(A4, 6.35) and "bar" in kinds(A4, 6.35)
    # Letter: 15.4 mm in all: no ruler fits without crossing a crop mark; the bar goes in a side pocket.
    for margin in (3.0, 6.35):
        assert "ruler" not in kinds(LETTER, margin) and "square" not in kinds(LETTER, margin)
        assert "bar" in kinds(LETTER, margin)
    # On a sheet with room below the block, the 50 mm square and the ruler are both placed.
    roomy = [m.kind for m in marginalia(bundled_layout(Paper("test", 210, 360)), 48.0, 30.0, 45.0)]
    assert "square" in roomy and "ruler" in roomy and "bar" not in roomy


@pytest.mark.parametrize("paper", [A4, LETTER], ids=["A4", "Letter"])
def test_empty_slots_carry_the_square_and_ruler_the_margin_cannot(paper):
    """Issue 3: a 3 x 3 poker sheet's margin holds no 50 mm square or 10 cm ruler; a page with two
    neighbouring empty slots gets both there, clear of every card slot in use and of each other."""
    layout = bundled_layout(paper)
    margin = marginalia(layout, 48.0, 30.0, 45.0)
    assert not {"square", "ruler"} & {m.kind for m in margin}
    empty = {7, 8}  # the last page of the solo deck: two empty slots at the bottom right
    placed = slot_marginalia(layout, empty, margin)
    assert sorted(m.kind for m in placed) == ["ruler", "square"]
    ruler = next(m for m in placed if m.kind == "ruler")
    assert ruler.label_below and ruler.box.width == pytest.approx(100.0)
    square = next(m for m in placed if m.kind == "square")
    assert square.box.width == square.box.height == pytest.approx(50.0)
    used = [layout.trim_box(slot) for slot in range(9) if slot not in empty]
    for item in placed:
        assert not any(item.box.overlaps(card) for card in used)
        inside = [layout.trim_box(slot) for slot in empty if layout.trim_box(slot).overlaps(item.box)]
        assert inside, f"{item.kind} is not in an empty slot"
    assert not ruler.box.overlaps(square.box)


def test_one_empty_slot_holds_the_square_but_not_the_ruler():
    layout = bundled_layout(A4)
    placed = slot_marginalia(layout, {8}, marginalia(layout, 48.0, 30.0, 45.0))
    assert [m.kind for m in placed] == ["square"]
    assert slot_marginalia(layout, set(), marginalia(layout, 48.0, 30.0, 45.0)) == []


def test_empty_slot_regions_join_neighbours_of_a_row_only():
    layout = bundled_layout(A4)
    regions = empty_slot_regions(layout, {2, 4, 5, 8})
    widths = sorted(round(box.width, 3) for box, _ in regions)
    # slots 4+5 join; 2 and 8 (same column, other rows) do not; each keeps SLOT_INSET, and on its side beside a card the
    # card's 3 mm bleed too (thirty-sixth pnp breaker, MED 9)
    assert widths == [63 - 11, 63 - 11, 126 - 11]
    with pytest.raises(ImpositionError):
        empty_slot_regions(layout, {9})


def test_too_big_a_card_is_an_error():
    with pytest.raises(ImpositionError):
        bundled_layout(A4, card_width_mm=250.0)
    with pytest.raises(ImpositionError):
        bundled_layout(A4).trim_box(9)


def test_boards_start_a_sheet_row():
    from pnp.build import arrange

    def group(name, n=1):
        return [name + str(i) for i in range(n)]

    # single, 3-card board, single, 2-card board, singles: boards never break across rows.
    groups = [group("a"), group("map", 3), group("b"), group("track", 2), group("c"), group("d")]
    order = arrange(groups, 3)
    assert order == ["a0", "b0", "c0", "map0", "map1", "map2", "track0", "track1", "d0"]
    # With no single left to fill the gap, the slots stay empty.
    assert arrange([group("a"), group("map", 3)], 3) == ["a0", None, None, "map0", "map1", "map2"]


@pytest.mark.parametrize(
    "size,a4,letter",
    [("poker", (3, 3), (3, 3)), ("mini", (4, 4), (4, 3)), ("tarot", (2, 2), (2, 2)), ("square", (2, 4), (2, 3))],
)
def test_other_card_sizes_fill_as_many_as_fit(size, a4, letter):
    """Issue 3, Geometry: poker 3 x 3 on A4 and Letter; mini 44 x 68, tarot 70 x 120, square 70 x 70 fill
    as many as fit inside the printable area (the database's printer margin, 6.35 mm), crop marks included."""
    width, height = CARD_SIZES[size]
    for paper, expected in ((A4, a4), (LETTER, letter)):
        layout = bundled_layout(paper, card_width_mm=width, card_height_mm=height)
        assert (layout.columns, layout.rows) == expected, paper.name
        block, margin = layout.block, layout.printer_margin
        assert block.x >= margin - 1e-9 and block.right <= paper.width - margin + 1e-9
        assert block.y >= margin - 1e-9 and block.bottom <= paper.height - margin + 1e-9
        # one more column or row would not fit
        assert (layout.columns + 1) * width > min(paper.width - 2 * margin, paper.width - 13)
        for mark in layout.crop_marks():
            assert 0 <= mark.box.x and mark.box.right <= paper.width and 0 <= mark.box.y and mark.box.bottom <= paper.height


@pytest.mark.parametrize("size", ["mini", "tarot", "square"])
def test_other_sizes_print(tmp_path, size):
    """Sheets of other sizes write and read back with one card per slot."""
    from pypdf import PdfReader

    from pnp.drawing import Drawing, Rect
    from pnp.pdf import SheetCard, write_sheets

    width, height = CARD_SIZES[size]
    card = SheetCard(Drawing(width, height, 3.0, (Rect(-3, -3, width + 6, height + 6, fill="#cc9966"),)))
    layout = bundled_layout(A4, card_width_mm=width, card_height_mm=height)
    report = write_sheets(tmp_path / "s.pdf", [card] * (layout.per_page + 1), layout=layout, options=bundled_options(), game="t")
    assert report.pages == 2
    assert len(PdfReader(report.path).pages) == 2


@pytest.mark.parametrize("side_spill", [0.0, 4.5])
def test_scale_checks_in_empty_slots_keep_off_the_bleed_of_the_cards_beside(side_spill):
    """Thirty-sixth pnp breaker, MED 9: with `--bleed 10` the 10 cm ruler and its white plate were drawn on the bleed of
    the cards beside the empty slots (fronts: the bands of Marim and Borolia; backs: the back art, 4.5 mm of extra bleed
    more), its "0" cut by the plate's edge and the "0" of "10" past it. Whatever a page's empty slots hold keeps off every
    card's bleed (and the backs' spill), and the ruler's numbers lie inside its box."""
    from pnp import fonts
    from pnp.drawing import TextLine
    from pnp.sheet_marks import ruler

    layout = bundled_layout(A4, bleed_mm=10.0)
    empty = set(range(layout.per_page)) - {0, 1, 2, 3}
    placed = slot_marginalia(layout, empty, marginalia(layout, 48.0, 30.0, 45.0), side_spill)
    assert {item.kind for item in placed} >= {"ruler"}
    for item in placed:
        for slot in set(range(layout.per_page)) - empty:
            art = layout.trim_box(slot).inset(-(layout.bleed + side_spill))
            assert not item.box.overlaps(art), (item.kind, slot)
    box = next(item.box for item in placed if item.kind == "ruler")
    for text in ruler(box, False, 100.0, "10 cm", numbered=True, label_below=True):
        if isinstance(text, TextLine):
            width = fonts.string_width_mm(text.text, text.family, text.size)
            left = text.x - {"start": 0.0, "middle": width / 2, "end": width}[text.anchor]
            assert box.x - 0.01 <= left and left + width <= box.right + 0.01, text.text
