"""Physical scale and duplex registration: the calibration sheet, the 50 mm checks and --back-offset.

Issue 3, "Duplex backs" and "Done when": a player reads the printer's misregistration off the
calibration sheet and passes it to --back-offset; a 50 mm mark printed at 100 % measures 50 mm.
"""
from __future__ import annotations

import itertools
import re

import pytest
from click.testing import CliRunner
from pypdf import PdfReader

from pnp.calibrate import calibration_pages, flip, vernier_lines, write_calibration
from pnp.cli import main
from pnp.drawing import Box, Drawing, Rect, bounds
from pnp.pdf import SheetCard, write_sheets
from pnp.sheets import A4, LETTER, ImpositionError
from tests.conftest import ROOT, bundled_layout, bundled_options
from tests.pages import render, render_page


def reading(paper, duplex, shift):
    """The offsets a player reads when the printer shifts the back page by ``shift`` (x, y) mm.

    For each axis: the line whose back line, shifted by the printer and seen through the sheet,
    falls on its front line (straight-line distance below 0.01 mm)."""
    found = {}
    for line in vernier_lines(paper, duplex):
        x1, y1, x2, y2 = line.back
        printed = (x1 + shift[0], y1 + shift[1])
        seen = flip(paper, duplex, *printed)  # a flip is its own inverse
        fx1, fy1, fx2, fy2 = line.front
        distance = abs(seen[0] - fx1) if line.axis == "x" else abs(seen[1] - fy1)
        if distance < 0.01:
            found.setdefault(line.axis, set()).add(line.offset)
    return found


@pytest.mark.parametrize("duplex", ["long", "short"])
@pytest.mark.parametrize("paper", [A4, LETTER], ids=["A4", "Letter"])
@pytest.mark.parametrize("shift", [(0.0, 0.0), (1.5, -0.5), (-2.0, 2.0), (0.5, 1.0)])
def test_the_aligned_line_names_the_correction(paper, duplex, shift):
    """A printer shift of s mm is read as -s, on every scale of the sheet, for both flips."""
    assert reading(paper, duplex, shift) == {"x": {-shift[0]}, "y": {-shift[1]}}


@pytest.mark.parametrize("duplex", ["long", "short"])
def test_the_reading_corrects_the_backs(duplex):
    """--back-offset with the value read moves every back exactly back behind its front."""
    layout = bundled_layout(A4, duplex=duplex)
    shift = (1.5, -0.5)
    correction = tuple(-value for value in shift)  # what the sheet reads, see above
    for slot in range(layout.per_page):
        front = layout.trim_box(slot)
        back = layout.back_box(slot, duplex, correction)
        printed = (back.x + shift[0], back.y + shift[1])
        corner = (printed[0] + back.width, printed[1]) if duplex == "long" else (printed[0], printed[1] + back.height)
        assert flip(A4, duplex, *corner) == pytest.approx((front.x, front.y))


def test_offsets_run_from_minus_two_to_plus_two_in_half_millimetres():
    offsets = sorted({line.offset for line in vernier_lines(A4, "long") if line.axis == "x"})
    assert offsets == [-2.0, -1.5, -1.0, -0.5, 0.0, 0.5, 1.0, 1.5, 2.0]


def test_calibrate_command_writes_two_pages(tmp_path):
    path = tmp_path / "cal.pdf"
    result = CliRunner().invoke(main, ["calibrate", "--paper", "letter", "--duplex", "short", "--out", str(path)])
    assert result.exit_code == 0, result.output
    assert "--back-offset X,Y" in result.output
    reader = PdfReader(path)
    assert len(reader.pages) == 2
    assert float(reader.pages[0].mediabox.width) == pytest.approx(612.0, abs=0.01)
    assert reader.trailer["/Root"]["/ViewerPreferences"]["/PrintScaling"] == "/None"
    assert "flip on the short edge" in reader.pages[0].extract_text()


def dark_columns(image, y: int, x0: int, x1: int) -> list[float]:
    """The middles (pixels) of the dark strokes that cross row ``y`` between ``x0`` and ``x1``: each run
    of pixels with ink (a quarter of black or more), weighted by its ink. Issue 15: PDFium (unlike pdftoppm) spreads a
    thin line over two grey pixels, so a stroke is found at its middle, not by its darkest pixel."""
    middles, run = [], []  # a run: pixels with a quarter of black or more
    for x in range(x0, x1 + 1):
        ink = 765 - sum(image.getpixel((x, y))[:3]) if x < x1 else 0
        if ink > 765 / 4:
            run.append((x, ink))
        elif run:
            middles.append(sum(x * ink for x, ink in run) / sum(ink for _, ink in run))
            run = []
    return middles


def test_calibration_square_measures_fifty_millimetres(tmp_path):
    """Rendered at 200 dpi like a printer at 100 %, the square is 50 mm = 393.7 px wide and high."""

    write_calibration(tmp_path / "cal.pdf", A4, "long")
    image = render_page(tmp_path / "cal.pdf", 1, 200)
    dpmm = 200 / 25.4
    front, _ = calibration_pages(A4, "long")
    square = next(item for item in front.items if isinstance(item, Rect) and item.width == 50.0)
    row = int((square.y + square.height * 0.75) * dpmm)
    columns = dark_columns(image, row, int((square.x - 3) * dpmm), int((square.x + 53) * dpmm))
    assert columns, "no square edge found"
    measured = (max(columns) - min(columns)) / dpmm
    assert measured == pytest.approx(50.0, abs=0.2)


@pytest.mark.parametrize("paper", [A4, LETTER], ids=["A4", "Letter"])
def test_sheet_calibration_bar_measures_fifty_millimetres(tmp_path, paper):
    """Every sheet carries a labelled 50 mm mark; printed at 100 % its end ticks are 50 mm apart."""
    from PIL import Image

    card = SheetCard(Drawing(63, 88, 3, (Rect(-3, -3, 69, 94, fill="#dddddd"),)))
    report = write_sheets(tmp_path / "s.pdf", [card], layout=bundled_layout(paper), options=bundled_options(), game="t")
    marks = {m.kind: m for m in report.marginalia}
    mark = marks.get("square") or marks["bar"]
    image = render_page(tmp_path / "s.pdf", 1, 200)
    if mark.vertical:  # Letter's bar runs down the side margin: measure along y instead
        image = image.transpose(Image.Transpose.TRANSPOSE)
        along, across = mark.box.y, mark.box.x
    else:
        along, across = mark.box.x, mark.box.y
    dpmm = 200 / 25.4
    row = int((across + 2.0) * dpmm)  # below the 10 mm ticks (1.4 mm), across the end ticks (2.6 mm)
    columns = dark_columns(image, row, int((along - 0.4) * dpmm), int((along + 50.4) * dpmm))
    measured = (max(columns) - min(columns)) / dpmm
    assert measured == pytest.approx(50.0, abs=0.2)


def test_last_page_square_and_ruler_measure_true(tmp_path):
    """Issue 3 ("every sheet carries a 50 mm calibration square and a 10 cm ruler"): where the margin
    cannot hold them, a page with empty slots carries them there; printed at 100 % the square is
    50 mm wide and the ruler's 0 and 10 cm ticks are 100 mm apart. The backs page carries them too."""

    front = Drawing(63, 88, 3, (Rect(-3, -3, 69, 94, fill="#dddddd"),))
    back = Drawing(63, 88, 3, (Rect(-3, -3, 69, 94, fill="#bbbbbb"),))
    report = write_sheets(tmp_path / "s.pdf", [SheetCard(front, back)] * 7, layout=bundled_layout(A4),
                          options=bundled_options(), game="t")
    assert report.pages == 2
    dpmm = 200 / 25.4
    pages = render(tmp_path / "s.pdf", 200)
    assert len(pages) == 2
    for image, carried in zip(pages, report.page_marginalia):
        marks = {m.kind: m for m in carried}
        square, ruler = marks["square"], marks["ruler"]
        row = int((square.box.y + 40) * dpmm)  # below the label in the middle
        columns = dark_columns(image, row, int((square.box.x - 2) * dpmm), int((square.box.right + 2) * dpmm))
        assert (max(columns) - min(columns)) / dpmm == pytest.approx(50.0, abs=0.2)
        row = int((ruler.box.y + 2.0) * dpmm)  # across the centimetre ticks (2.6 mm), below the mm ticks (1 mm)
        columns = dark_columns(image, row, int((ruler.box.x - 1) * dpmm), int((ruler.box.x + 101) * dpmm))
        assert (max(columns) - min(columns)) / dpmm == pytest.approx(100.0, abs=0.3)


@pytest.mark.parametrize("duplex", ["long", "short"])
def test_scale_checks_never_land_on_a_card_of_either_side(tmp_path, duplex):
    """Second fresh-user report: on the backs page the ruler and square were put behind cards printed
    without a back (boards, the stats card), so they printed on those cards. A slot counts as empty only
    when no card is on either side of the sheet there. Cards here: with and without backs, a gap."""
    front = Drawing(63, 88, 3, (Rect(-3, -3, 69, 94, fill="#dddddd"),))
    back = Drawing(63, 88, 3, (Rect(-3, -3, 69, 94, fill="#bbbbbb"),))
    cards = [SheetCard(front), SheetCard(front), SheetCard(front, back), None, SheetCard(front), SheetCard(front, back)]
    layout = bundled_layout(A4, duplex=duplex)
    report = write_sheets(tmp_path / "s.pdf", cards, layout=layout, options=bundled_options(duplex=duplex), game="t")
    fronts = [layout.trim_box(slot) for slot, card in enumerate(cards) if card is not None]
    behind = [layout.back_box(slot, duplex) for slot, card in enumerate(cards) if card is not None]
    for page, (carried, cards_there) in enumerate(zip(report.page_marginalia, (fronts, behind))):
        checks = [m for m in carried if m.kind in ("square", "ruler")]
        assert [m.kind for m in checks] == ["ruler", "square"], page  # slots 6-8 are empty on both sides
        for mark in checks:
            assert not any(mark.box.overlaps(card) for card in cards_there), (page, mark)


def test_margin_texts_stay_readable_over_the_backs_extra_bleed(tmp_path):
    """Second fresh-user report: on Letter's backs pages the side texts sat on the backs' 5 mm bleed, dark
    on dark. Every margin item now stands on a white plate: rendered, its box is light on both pages."""
    from PIL import ImageStat

    front = Drawing(63, 88, 3, (Rect(-3, -3, 69, 94, fill="#dddddd"),))
    back = Drawing(63, 88, 5, (Rect(-5, -5, 73, 98, fill="#202020"),))
    report = write_sheets(tmp_path / "s.pdf", [SheetCard(front, back)] * 9, layout=bundled_layout(LETTER),
                          options=bundled_options(back_extra_bleed=2.0), game="t")
    dpmm = 100 / 25.4
    texts = [m for m in report.marginalia if m.kind in ("title", "page", "note")]
    assert texts
    for page, rgb in enumerate(render(tmp_path / "s.pdf", 100), start=1):
        image = rgb.convert("L")
        for mark in texts:
            box = mark.box
            crop = image.crop((int(box.x * dpmm) + 1, int(box.y * dpmm) + 1, int(box.right * dpmm) - 1, int(box.bottom * dpmm) - 1))
            assert ImageStat.Stat(crop).mean[0] > 200, (page, mark.kind)


def sheet_with_backs(tmp_path, options):
    front = Drawing(63, 88, 3, (Rect(-3, -3, 69, 94, fill="#ff0000"),), id="front")
    back = Drawing(63, 88, 5, (Rect(-5, -5, 73, 98, fill="#0000ff"),), id="back")
    return write_sheets(tmp_path / "s.pdf", [SheetCard(front, back)] * 9, layout=bundled_layout(A4, duplex=options.duplex),
                        options=options, game="t")


def test_duplex_none_writes_fronts_only(tmp_path):
    report = sheet_with_backs(tmp_path, bundled_options(duplex="none"))
    texts = [page.extract_text() for page in PdfReader(report.path).pages]
    assert report.pages == 2 and "fronts only" in texts[0] and "backs" not in " ".join(texts)
    assert "scale checks" in texts[1]  # nine cards fill the page: the square and ruler get a page of their own


@pytest.mark.parametrize("duplex", ["long", "short"])
def test_shifted_backs_show_no_white_edge(tmp_path, duplex):
    """Backs carry extra bleed: shifted by the misregistration they correct, they still cover every card."""

    report = sheet_with_backs(tmp_path, bundled_options(duplex=duplex, back_offset=(1.5, -1.5), back_extra_bleed=2.0))
    image = render_page(report.path, 2, 50)
    dpmm = 50 / 25.4
    block = report.layout.block
    for x in range(int(block.x * dpmm) + 1, int(block.right * dpmm) - 1, 3):
        for y in range(int(block.y * dpmm) + 1, int(block.bottom * dpmm) - 1, 3):
            assert image.getpixel((x, y)) == (0, 0, 255), (x, y)


def test_a_back_never_marks_the_card_beside_it(tmp_path):
    """Second fresh-user trial: the backs' extra bleed reached 2 mm into the neighbouring card, so a
    Servant back carried a strip of the Quest back's brown and a card printed without a back got a dark
    edge. Backs of different kinds meet exactly on the cut line; a blank back stays blank."""

    def card(colour):
        return Drawing(63, 88, 5, (Rect(-5, -5, 73, 98, fill=colour),))

    front = Drawing(63, 88, 3, (Rect(-3, -3, 69, 94, fill="#dddddd"),))
    cards = [SheetCard(front, card("#ff0000")), SheetCard(front, card("#0000ff")), SheetCard(front),
             SheetCard(front, card("#ff0000"))]
    report = write_sheets(tmp_path / "s.pdf", cards, layout=bundled_layout(A4),
                          options=bundled_options(duplex="long", back_extra_bleed=2.0), game="t")
    image = render_page(report.path, 2, 100)
    dpmm = 100 / 25.4
    layout = report.layout

    def colour_at(slot, dx, dy):
        box = layout.back_box(slot, "long")
        x = box.x + dx if dx >= 0 else box.right + dx
        y = box.y + dy if dy >= 0 else box.bottom + dy
        return image.getpixel((int(x * dpmm), int(y * dpmm)))

    # the red back (slot 0) beside the blue one (slot 1): 1 mm inside each, each its own colour
    assert colour_at(0, 1.0, 40) == (255, 0, 0) and colour_at(1, -1.0, 40) == (0, 0, 255)
    assert colour_at(1, 1.0, 40) == (0, 0, 255) and colour_at(2, -1.0, 40) == (255, 255, 255)  # blank back


def test_back_offset_option_is_validated():
    for bad in ("1", "a,b", "1,2,3", "12,0"):
        result = CliRunner().invoke(main, ["build", "--db", str(ROOT / "cards.toml"), "--back-offset", bad])
        assert result.exit_code == 2
        assert "--back-offset" in result.output


def test_cut_lines_run_over_every_cut_but_not_across_joined_boards(tmp_path):
    """--cut-lines draws full cut lines; a board printed joined (--boards joined) keeps its seams clean."""

    plain = Drawing(63, 88, 3, (Rect(-3, -3, 69, 94, fill="#ffffff"),))
    board = [SheetCard(plain, joined_right=True), SheetCard(plain, joined_right=True), SheetCard(plain)]
    singles = [SheetCard(plain) for _ in range(3)]
    layout = bundled_layout(A4)
    report = write_sheets(tmp_path / "s.pdf", board + singles, layout=layout, options=bundled_options(cut_lines=True), game="t")
    image = render_page(report.path, 1, 150).convert("L")
    dpmm = 150 / 25.4
    xs, ys = layout.cut_lines()

    def darkest_across(x_mm: float, y_mm: float) -> int:
        y = int(y_mm * dpmm)
        return min(image.getpixel((x, y)) for x in range(int((x_mm - 0.5) * dpmm), int((x_mm + 0.5) * dpmm) + 1))

    middle_of_row = [ys[row] + 44.0 for row in range(2)]
    assert darkest_across(xs[1], middle_of_row[0]) > 240  # seam inside the joined board: no line
    assert darkest_across(xs[2], middle_of_row[0]) > 240
    assert darkest_across(xs[1], middle_of_row[1]) < 200  # between single cards: a cut line
    assert darkest_across(xs[0], middle_of_row[0]) < 200  # the board's outer edge is cut


# ---- issue 15, Calibration: one line, and only one, meets its back line ------------------------------------
def scales(paper, duplex):
    """The lines of the sheet by scale: ``{(axis, place): [VernierLine, ...]}``, a scale being the lines of one
    axis that share the front position along their length (x lines: the same top; y lines: the same left end)."""
    found = {}
    for line in vernier_lines(paper, duplex):
        along = line.front[1] if line.axis == "x" else line.front[0]
        found.setdefault((line.axis, round(along, 3)), []).append(line)
    return found


def seen_gaps(paper, duplex, lines, shift: float) -> dict[float, float]:
    """For each front line of one scale (by its number): how far in mm, across the line, the nearest back line
    of the scale lies from it, seen through the sheet when the printer moves the back page ``shift`` mm along
    the scale's axis (right for x, down for y). Any back line: the eye cannot tell which is whose."""
    axis = lines[0].axis
    across = 0 if axis == "x" else 1
    seen = []
    for line in lines:
        x, y = line.back[0], line.back[1]
        printed = (x + shift, y) if axis == "x" else (x, y + shift)
        seen.append(flip(paper, duplex, *printed)[across])
    return {line.offset: min(abs(line.front[across] - position) for position in seen) for line in lines}


SHIFTS_MM = [k / 10 for k in range(-20, 21)]
"""Every printer shift from -2 to +2 mm in 0.1 mm steps."""


def reading_faults(paper, duplex) -> list[str]:
    faults = []
    for (axis, _), lines in scales(paper, duplex).items():
        for shift in SHIFTS_MM:
            gaps = seen_gaps(paper, duplex, lines, shift)
            correction = round(-shift * 2) / 2  # the nearest half millimetre to what --back-offset needs
            nearest = min(gaps.values())
            closest = [number for number, gap in gaps.items() if gap <= nearest + 0.01]
            meeting = [number for number, gap in gaps.items() if gap < 0.01]
            within_half_step = [number for number, gap in gaps.items() if gap <= 0.25]
            on_step = abs(shift * 2 - round(shift * 2)) < 1e-9
            if closest != [correction] or within_half_step != [correction] or (on_step and meeting != [correction]):
                faults.append(f"{axis} shift {shift:+.1f}: lines meeting {meeting}, nearest {closest}, "
                              f"within 0.25 mm {within_half_step}; --back-offset needs {correction:+.1f}")
    return faults


@pytest.mark.parametrize("duplex", ["long", "short"])
@pytest.mark.parametrize("paper", [A4, LETTER], ids=["A4", "Letter"])
def test_exactly_one_line_of_each_scale_meets_its_back_line(paper, duplex):
    """Issue 15, Calibration: in 28 of 36 simulated shifts (±0.5 to ±2 mm) two lines of a scale met back lines
    (backs 1.0 mm right: -1.0 and +1.0 both lined up, and reading +1.0 doubled the error). For every shift up
    to ±2 mm in 0.1 mm steps, every scale of the sheet: the one line nearest a back line, and the only one
    within half a step (0.25 mm) of one, names the correction to the nearest 0.5 mm; on a whole step it
    meets its back line exactly and no other line meets any."""
    faults = reading_faults(paper, duplex)
    assert not faults, f"{len(faults)} faults:\n" + "\n".join(faults[:12])


@pytest.mark.parametrize("duplex", ["long", "short"])
@pytest.mark.parametrize("paper", [A4, LETTER], ids=["A4", "Letter"])
def test_a_shift_a_little_beyond_the_scale_reads_as_its_end(paper, duplex):
    """The sheet's step 3: a printer off by 2.1 to 2.4 mm leaves the end line (-2.0 or +2.0) nearest, never a
    line at the other end of the scale."""
    for lines in scales(paper, duplex).values():
        for shift in (2.1, 2.2, 2.3, 2.4, -2.1, -2.2, -2.3, -2.4):
            gaps = seen_gaps(paper, duplex, lines, shift)
            nearest = min(gaps.values())
            assert [number for number, gap in gaps.items() if gap <= nearest + 0.01] == [-2.0 if shift > 0 else 2.0], shift


@pytest.mark.parametrize("duplex", ["long", "short"])
@pytest.mark.parametrize("paper", [A4, LETTER], ids=["A4", "Letter"])
def test_the_sheet_stays_readable_on_both_papers(paper, duplex):
    """Issue 15, Calibration: the longer scales still fit the paper, 10 mm clear of its edges; no text runs
    into another text, a front line or a back line seen through the sheet (moved by up to 2 mm either way),
    and every line of a scale carries its number."""
    from pnp.drawing import Line
    from pnp.layout.safe import painted

    front, _ = calibration_pages(paper, duplex)
    texts = [thing for thing in painted(front.items) if thing.what.startswith("text ")]
    page = Box(10.0, 10.0, paper.width - 20.0, paper.height - 20.0)
    for item in front.items:
        box = bounds(item)
        assert box is not None and page.x <= box.x and box.right <= page.right and page.y <= box.y and box.bottom <= page.bottom, item
    for a, b in itertools.combinations(texts, 2):
        assert not a.box.inset(0.2).overlaps(b.box.inset(0.2)), (a.what, b.what)
    lines = [Box(min(x1, x2), min(y1, y2), abs(x2 - x1), abs(y2 - y1)) for x1, y1, x2, y2 in
             (item_coords(item) for item in front.items if isinstance(item, Line))]
    for line in vernier_lines(paper, duplex):
        (x1, y1), (x2, y2) = flip(paper, duplex, *line.back[:2]), flip(paper, duplex, *line.back[2:])
        lines.append(Box(min(x1, x2), min(y1, y2), abs(x2 - x1), abs(y2 - y1)).inset(-2.0))
    for text in texts:
        assert not any(text.box.inset(0.2).overlaps(line) for line in lines), text.what
    numbers = [thing.what for thing in texts]
    for label in ("-2.0", "-1.5", "-1.0", "-0.5", "+0.5", "+1.0", "+1.5", "+2.0"):  # (and 0, which the ruler prints too)
        assert numbers.count(f"text {label!r}") == 6, label  # an X and a Y scale at each of three places


def item_coords(line):
    return line.x1, line.y1, line.x2, line.y2


@pytest.mark.parametrize("paper", [A4, LETTER], ids=["a4", "letter"])
@pytest.mark.parametrize("bleed", [0.0, 1.0, 3.0])
@pytest.mark.parametrize("offset", [(0.0, 5.0), (3.0, 3.0), (-4.0, -2.0), (10.0, 0.0)])
def test_the_margin_items_stay_clear_of_the_backs_shifted_by_the_back_offset(tmp_path, paper, bleed, offset):
    """Forty-eighth pnp breaker, HIGH 4 (issue 3, duplex backs; `pnp build --back-offset`): with `--back-offset 0,5` the
    50 mm scale's white plate lay over the trim of a back shifted under it, printing a white stripe on one card back (a
    marked card). No margin item of any page overlaps the trim box of any back as shifted, for any offset the command
    line takes (up to 10 mm a side), on both papers and with no bleed."""
    front = Drawing(63, 88, bleed, (Rect(-bleed, -bleed, 63 + 2 * bleed, 88 + 2 * bleed, fill="#dddddd"),))
    back = Drawing(63, 88, bleed, (Rect(-bleed, -bleed, 63 + 2 * bleed, 88 + 2 * bleed, fill="#bbbbbb"),))
    layout = bundled_layout(paper, bleed_mm=bleed)
    options = bundled_options(back_offset=offset)
    try:
        report = write_sheets(tmp_path / "s.pdf", [SheetCard(front, back)] * 7, layout=layout, options=options, game="t")
    except ImpositionError as refused:  # no margin clear of the shifted backs: refused, saying how far fits
        most = float(re.search(r"at most ([\d.]+) mm", str(refused)).group(1))
        assert str(refused).startswith(f"--back-offset {offset[0]:g},{offset[1]:g} shifts the backs into the margin")
        assert max(map(abs, offset)) > most >= layout.bleed + layout.mark_gap
        return
    backs = [layout.back_box(slot, options.duplex, offset) for slot in range(7)]
    assert report.pages == 2  # the fronts page, then the backs page
    for carried in report.page_marginalia[1:]:
        for item in carried:
            for trim in backs:
                apart = max(item.box.x - trim.right, trim.x - item.box.right, item.box.y - trim.bottom, trim.y - item.box.bottom)
                assert apart >= 0, (item.kind, item.box, trim)


def test_a_back_offset_the_margin_cannot_keep_clear_of_is_refused_before_anything_is_written(tmp_path):
    """Forty-eighth pnp breaker, HIGH 4: a back offset so large that no margin clear of the shifted backs holds the
    page's title and page line is refused in one line before the build writes anything, saying how far fits."""
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["build", "--db", str(ROOT / "cards.toml"), "--paper", "letter", "--bleed", "0",
                                       "--back-offset", "0,9", "--out", str(out)])
    assert result.exit_code == 2 and "--back-offset 0,9 shifts the backs into the margin" in result.output, result.output
    assert re.search(r"at most \d+\.\d mm either way fits", result.output) and "nothing was written" in result.output
    assert not out.exists()
