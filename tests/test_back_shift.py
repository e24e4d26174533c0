"""A duplex printer moves the whole backs page: no card may show it (issue 15, "Backs").

Issue 15: with the default `pnp build --paper a4`, the backs that bordered a card printed without a back
(solo-a4 page 4: the Ghast beside and below backless cards; page 12: the Warding City backs above the
Last Stand cards) showed a 0.9 mm white strip when the printer moved the backs 1 mm, 1.8 mm at 2 mm,
and a Servant back met a Quest back (page 6), so a shift laid a strip of one deck's back on the other.
Right: no white on any backed card for any shift up to the backs' extra bleed
(``[print] back_extra_bleed_mm``, 2 mm), and no card marked by another card's back.

Two measures: the built PDFs rendered and shifted (what prints), and the drawing model the PDF paints
(:func:`pnp.sheets.placements`) shifted in 0.25 mm steps over the whole square of shifts.
"""
from __future__ import annotations

import dataclasses
import itertools
import math
from collections import Counter

import numpy as np
import pypdfium2 as pdfium
import pytest

from pnp.build import BuildOptions, arrange, arrange_apart, build, deck, sheet_layout, sheet_options
from pnp.drawing import Box, Drawing, Rect
from pnp.layout import render
from pnp.sheets import PAPERS, SheetCard, page_plan, placements
from tests.conftest import bundled

EXTRA = bundled().print.back_extra_bleed_mm
PX_PER_MM = 5  # 0.2 mm a pixel: shifts of whole pixels, strips measured to 0.2 mm
WHITE = 250  # a pixel with every channel at least this is paper
INK = 245  # a pixel with a channel below this carries ink


@pytest.fixture(scope="module", params=["long", "short"])
def built(request, tmp_path_factory):
    """`pnp build` of the bundled cards, flipping on the long (default) or the short edge: (folder, flip)."""
    db = bundled()
    if db.print.duplex != request.param:
        db = dataclasses.replace(db, print=dataclasses.replace(db.print, duplex=request.param))
    out = tmp_path_factory.mktemp(f"backs-{request.param}")
    build(db, out, BuildOptions())
    return out, request.param


def pixels(page) -> np.ndarray:
    """A PDF page rendered at :data:`PX_PER_MM` as an (height, width, 3) array of 0-255."""
    return page.render(scale=PX_PER_MM * 25.4 / 72).to_numpy()[:, :, :3]


def inside(image: np.ndarray, box: Box, dx_mm: float = 0.0, dy_mm: float = 0.0) -> np.ndarray:
    """The pixels wholly inside ``box`` (page mm) as printed when the printer moves the page ``image`` by
    ``dx_mm`` right and ``dy_mm`` down."""
    dx, dy = round(dx_mm * PX_PER_MM), round(dy_mm * PX_PER_MM)
    x0, y0 = math.ceil(box.x * PX_PER_MM) - dx, math.ceil(box.y * PX_PER_MM) - dy
    x1, y1 = math.floor(box.right * PX_PER_MM) - dx, math.floor(box.bottom * PX_PER_MM) - dy
    assert x0 >= 0 and y0 >= 0 and x1 <= image.shape[1] and y1 <= image.shape[0]  # the cards lie well inside the page
    return image[y0:y1, x0:x1]


def white_strip_mm(white: np.ndarray) -> float:
    """The widest white strip in mm along any of the four edges of a card, from its ``white`` mask (paper
    pixels): for each edge, the paper-white pixels within the extra bleed of it, divided by the edge's length."""
    band = round((EXTRA + 0.5) * PX_PER_MM)
    height, width = white.shape
    strips = [white[:, :band].sum() / height, white[:, -band:].sum() / height,
              white[:band, :].sum() / width, white[-band:, :].sum() / width]
    return max(strips) / PX_PER_MM


SHIFTS = [(dx, dy) for dx in (-EXTRA, -EXTRA / 2, 0.0, EXTRA / 2, EXTRA) for dy in (-EXTRA, -EXTRA / 2, 0.0, EXTRA / 2, EXTRA)]
"""Printer shifts in mm (right, down on the backs page): 0, half and the whole extra bleed, each way, both axes."""


@pytest.mark.parametrize("name", ["solo-a4", "solo-letter", "duel-a4", "duel-letter"])
def test_a_shifted_backs_page_shows_no_white_and_marks_no_card(built, name):
    """Issue 15, Backs: every sheet of the build, its backs page moved by the printer up to the extra bleed
    (2 mm) right, left, up, down and diagonally, for both flip edges. Which card has a back is read off the
    page itself (ink behind the card on the unshifted backs page), so the measure holds for any imposition."""
    out, flip = built
    document = pdfium.PdfDocument(out / f"{name}.pdf")
    layout = sheet_layout(dataclasses.replace(bundled().print, duplex=flip), PAPERS[name.split("-")[1]])
    assert len(document) % 2 == 0
    faces = render(bundled()).game(name.split("-")[0])
    expected = Counter(face.back is not None for face in faces for _ in range(face.copies if face.board_cards == 1 else 1))
    found: Counter[bool] = Counter()
    faults = []
    for number in range(0, len(document), 2):
        fronts, backs = pixels(document[number]), pixels(document[number + 1])
        white, inked = (backs >= WHITE).all(axis=2), (backs < INK).any(axis=2)
        backed, backless = [], []
        for slot in range(layout.per_page):
            place = layout.back_box(slot, flip)
            if inside(inked, place).mean() > 0.5:
                backed.append(place)
            elif (inside(fronts, layout.trim_box(slot)) < INK).any(axis=2).mean() > 0.9:  # a card face, not a ruler in an empty slot
                backless.append(place)
        found.update({True: len(backed), False: len(backless)})
        for region in backed:
            assert white_strip_mm(inside(white, region)) == 0.0  # unshifted: each back covers its card
        for dx, dy in SHIFTS:
            for region in backed:
                strip = white_strip_mm(inside(white, region, dx, dy))
                if strip > 0.0:
                    faults.append(f"page {number + 2}, back at {region.x:.1f},{region.y:.1f} mm, shift {dx:+g},{dy:+g}: "
                                  f"{strip:.1f} mm white")
            for region in backless:
                ink = inside(inked, region, dx, dy).sum() / PX_PER_MM ** 2
                if ink:
                    faults.append(f"page {number + 2}, blank back at {region.x:.1f},{region.y:.1f} mm, "
                                  f"shift {dx:+g},{dy:+g}: {ink:.1f} mm² of ink")
    assert found == expected  # every card found on the pages, with a back or without
    assert not faults, f"{len(faults)} faults:\n" + "\n".join(faults[:20])


# ---- the drawing model: every shift in 0.25 mm steps --------------------------------------------------------
def area(box: Box | None) -> float:
    return 0.0 if box is None else box.width * box.height


def overlap(a: Box, b: Box) -> Box | None:
    x0, y0, x1, y1 = max(a.x, b.x), max(a.y, b.y), min(a.right, b.right), min(a.bottom, b.bottom)
    return Box(x0, y0, x1 - x0, y1 - y0) if x1 - x0 > 1e-9 and y1 - y0 > 1e-9 else None


def uncovered(region: Box, boxes: list[Box]) -> float:
    """The area (mm²) of ``region`` that none of ``boxes`` covers."""
    parts = [part for part in (overlap(region, box) for box in boxes) if part is not None]
    xs = sorted({region.x, region.right, *(p.x for p in parts), *(p.right for p in parts)})
    ys = sorted({region.y, region.bottom, *(p.y for p in parts), *(p.bottom for p in parts)})
    bare = 0.0
    for (x0, x1), (y0, y1) in itertools.product(zip(xs, xs[1:]), zip(ys, ys[1:])):
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        if not any(p.x <= cx <= p.right and p.y <= cy <= p.bottom for p in parts):
            bare += (x1 - x0) * (y1 - y0)
    return bare


def moved(box: Box, dx: float, dy: float) -> Box:
    return Box(box.x + dx, box.y + dy, box.width, box.height)


def model_faults(layout, options, cards) -> list[str]:
    """What every backs page of ``cards`` shows when the printer shifts it by up to the extra bleed, in 0.25 mm
    steps over the whole square: white on a backed card, or another card's back on any card (mm²)."""
    steps = [k * 0.25 for k in range(-round(EXTRA / 0.25), round(EXTRA / 0.25) + 1)]
    faults = []
    for page, (side, chunk) in enumerate(page_plan(cards, layout.per_page, options.duplex), start=1):
        if side == "fronts":  # a front's bleed shows beside empty slots, never on another card
            for mine, placement in zip([slot for slot, card in enumerate(chunk) if card is not None],
                                       placements(layout, "fronts", chunk, options)):
                for slot, card in enumerate(chunk):
                    if card is not None and slot != mine and overlap(placement.clip, layout.trim_box(slot)):
                        faults.append(f"page {page}: the front in slot {mine} paints on the card in slot {slot}")
            continue
        painted = placements(layout, "backs", chunk, options)
        for placement in painted:  # a back's art reaches as far as it is shown
            bleed = placement.face.bleed_box
            art = Box(placement.trim.x + bleed.x, placement.trim.y + bleed.y, bleed.width, bleed.height)
            assert uncovered(placement.clip, [art]) < 1e-9
        for slot, card in enumerate(chunk):
            if card is None:
                continue
            region = layout.back_box(slot, options.duplex)
            near = [p for p in painted if overlap(region.inset(-EXTRA - 0.01), p.clip)]
            own = [p.clip for p in near if card.back is not None and (p.face is card.back or p.face == card.back)]
            other = [p.clip for p in near if card.back is None or not (p.face is card.back or p.face == card.back)]
            for dx, dy in itertools.product(steps, steps):
                white = uncovered(region, [moved(clip, dx, dy) for clip in own]) if card.back is not None else 0.0
                marked = sum(area(overlap(region, moved(clip, dx, dy))) for clip in other)
                if white > 1e-6 or marked > 1e-6:
                    name = card.front.id or card.front.title
                    faults.append(f"page {page} {name}, shift {dx:+.2f},{dy:+.2f}: {white:.1f} mm² white, {marked:.1f} mm² of another back")
    return faults


@pytest.mark.parametrize("flip", ["long", "short"])
@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("game", ["solo", "duel"])
def test_no_shift_up_to_the_extra_bleed_shows_on_any_card(game, paper, flip):
    """Issue 15, Backs, on the drawing model: the build's imposition of every card, every shift up to 2 mm."""
    db = bundled()
    settings = dataclasses.replace(db.print, duplex=flip)
    layout, options = sheet_layout(settings, PAPERS[paper]), sheet_options(settings)
    cards = arrange_apart(deck(render(db), game), layout.columns, layout.rows, flip)
    faults = model_faults(layout, options, cards)
    assert not faults, f"{len(faults)} faults, first: " + "\n".join(faults[:10])


# ---- the imposition -------------------------------------------------------------------------------------------
def face(name: str) -> Drawing:
    return Drawing(63, 88, 5, (Rect(-5, -5, 73, 98, fill="#202020"),), id=name)


RED, BLUE = face("red"), face("blue")


def cards_of(kinds: str) -> list[list[SheetCard]]:
    """One single card per letter: ``r`` red back, ``b`` blue back, ``-`` no back."""
    backs = {"r": RED, "b": BLUE, "-": None}
    return [[SheetCard(face(f"{kind}{index}"), backs[kind])] for index, kind in enumerate(kinds)]


def kinds_touch(cards, columns: int, rows: int) -> list[tuple[int, int]]:
    """Pairs of slots (sheet order) on one page whose cards have different backs and share a side or a corner."""
    found = []
    for start in range(0, len(cards), columns * rows):
        chunk = cards[start:start + columns * rows]
        for a, b in itertools.combinations(range(len(chunk)), 2):
            if chunk[a] is None or chunk[b] is None or chunk[a].back is chunk[b].back:
                continue
            (ra, ca), (rb, cb) = divmod(a, columns), divmod(b, columns)
            if abs(ra - rb) <= 1 and abs(ca - cb) <= 1:
                found.append((start + a, start + b))
    return found


@pytest.mark.parametrize("kinds", ["---rrrrbbbb-", "rb" * 7, "rrrrrrrrr---------bbbb", "r-b", "-" * 5 + "r" * 13])
@pytest.mark.parametrize("columns, rows", [(3, 3), (4, 4), (2, 2), (3, 1)])
def test_kinds_of_back_never_touch_and_every_card_prints(kinds, columns, rows):
    """Issue 15: cards of different backs (or none) never share a side or a corner on a page, for any grid;
    every card prints once, in its kind's order; no more sheets than keeping each kind apart needs."""
    groups = cards_of(kinds)
    cards = arrange_apart(groups, columns, rows, "long")
    assert kinds_touch(cards, columns, rows) == []
    placed = [card for card in cards if card is not None]
    assert sorted(id(card) for card in placed) == sorted(id(group[0]) for group in groups)
    for back in (RED, BLUE, None):
        assert [c for c in placed if c.back is back] == [g[0] for g in groups if g[0].back is back]
    per_page = columns * rows
    counts = [kinds.count(kind) for kind in set(kinds)]
    assert -(-len(cards) // per_page) >= -(-len(groups) // per_page)
    assert -(-len(cards) // per_page) <= sum(-(-count // per_page) for count in counts)  # never worse than a page break per kind


def test_a_board_still_prints_as_one_row_among_its_kind():
    """Boards (printed joined) start a sheet row within their kind, as :func:`arrange` places them."""
    board = [SheetCard(face(f"map{index}"), None, joined_right=index < 2) for index in range(3)]
    groups = cards_of("rr") + [board] + cards_of("--b")
    cards = arrange_apart(groups, 3, 3, "long")
    start = cards.index(board[0])
    assert start % 3 == 0 and cards[start:start + 3] == board
    assert kinds_touch(cards, 3, 3) == []


def test_fronts_only_keeps_the_plain_order():
    """With --duplex none no back prints: nothing to keep apart, the cards stay butted in their order."""
    groups = cards_of("rb-rb-")
    assert arrange_apart(groups, 3, 3, "none") == arrange(groups, 3)


def test_the_solo_game_costs_one_sheet_more():
    """Issue 15: keeping the kinds apart costs the bundled solo game one sheet (7, not 6) and the two-player
    game none: the fewest any arrangement without touching kinds allows (21 backless cards fill 2 pages and
    3 slots, which need an empty row before any other kind on their page)."""
    db = bundled()
    layout = sheet_layout(db.print, PAPERS["a4"])
    sheets = {game: -(-len(arrange_apart(deck(render(db), game), 3, 3, "long")) // 9) for game in ("solo", "duel")}
    assert sheets == {"solo": 7, "duel": 2}
    assert (layout.columns, layout.rows) == (3, 3)
