"""The raw script `pnp build` is measured against (issue 14): plain ReportLab + svgwrite, no pnp code.

Run from the project root: ``python bench/raw_build.py OUT [--faces N] [--deck NAME:CARDS:BACKS:PAGES ...]``.
It draws as many card faces as ``pnp build`` does for the bundled ``cards.toml`` and writes them as
``pnp build`` does, into ``OUT`` (a folder; ``bench/build_ratio.py`` gives it a temporary one):

- one SVG per face (``OUT/svg/face-N.svg``), written with svgwrite;
- for each paper (A4 and US Letter) and each deck, one PDF of sheets (``OUT/<deck>-<paper>.pdf``):
  3 x 3 cards of 63 x 88 mm per page, each fronts page followed by its backs page, with crop marks,
  so the PDF has as many pages per paper as the build's.

Every face is a comparable amount of work to a card of ``pnp build`` (the brief's measure): a filled
frame over the bleed, a few rectangles, ten text lines in the bundled TTF fonts
(``templates/fonts/``, registered with ReportLab as ``pnp`` does: EB Garamond regular, bold and
italic, NanumMyeongjo and NanumMyeongjo Bold, the last two for digits and, on the first card of the
last deck, Korean text). The real cards draw more (27 text lines, 22 lines, 8 rectangles, 7 polygons and 4 icons a face
on average, ``bench/build_ratio.py`` prints the count); ``--lines``, ``--rules`` (straight lines) and
``--polygons`` (small filled and outlined diamonds) raise them, for a ratio at the cards' own amount of work.

The defaults are the bundled build's numbers: 69 faces (66 fronts and 3 backs), the solo deck 52 cards
on the sheets (31 with a back) on 12 pages per paper, the duel deck 14 (9 with a back) on 4 pages.
``bench/build_ratio.py`` counts the faces and pages from a build's output and passes them.

The script is written as someone without pnp would write it: library defaults, except svgwrite's
validator turned off (``debug=False``) and no pretty-printing, which a plain script never asks for;
the PDFs are compressed (ReportLab's ``pageCompression``), as the build's are.
"""
from __future__ import annotations

import argparse
import math
import sys
from dataclasses import dataclass
from pathlib import Path

import svgwrite
from reportlab.lib.colors import HexColor
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas

ROOT = Path(__file__).resolve().parents[1]
FONT_DIR = ROOT / "templates" / "fonts"
FONTS = {  # ReportLab name: TTF file, as pnp.fonts registers them
    "EBGaramond": "EBGaramond12-Regular.ttf",
    "EBGaramond-Bold": "EBGaramond-Bold.ttf",
    "EBGaramond-Italic": "EBGaramond12-Italic.ttf",
    "NanumMyeongjo": "NanumMyeongjo.ttf",
    "NanumMyeongjo-Bold": "NanumMyeongjoBold.ttf",
}
SVG_FONT = {  # ReportLab name: SVG family, weight, style
    "EBGaramond": ("EB Garamond", "normal", "normal"),
    "EBGaramond-Bold": ("EB Garamond", "bold", "normal"),
    "EBGaramond-Italic": ("EB Garamond", "normal", "italic"),
    "NanumMyeongjo": ("NanumMyeongjo", "normal", "normal"),
    "NanumMyeongjo-Bold": ("NanumMyeongjo", "bold", "normal"),
}

PT_PER_MM = 72 / 25.4
CARD_W, CARD_H, BLEED = 63.0, 88.0, 3.0  # mm: poker card, bleed of cards.toml's [print]
PAPERS = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}  # mm
COLUMNS = ROWS = 3
MARK = 6.0  # crop mark length, mm

BODY = ("When the Grayking rises, roll 2 dice and add your Spirit.",
        "A servant of the Shadow bars the road to the Warding Key.",
        "Win: gain 1 Mana and 2 Spirit; move the Progress marker.",
        "Lose: the servant strikes for 3; mark your hit points.",
        "Council: trade 4 Mana for a spell of the Oaken Path.",
        "Flee: lose 1 Spirit and draw the next quest card.",
        "Each Ymp adds 1 to the roll; each Ghast adds 2.",
        "Last Stand: 13 spaces of the track, 9 dice at most.")
KOREAN = "그레이킹이 깨어나면 주사위 2개를 굴리고 영혼을 더한다."


@dataclass(frozen=True)
class Work:
    """How much a face draws besides its frame and rectangles: ``lines`` of text, ``rules`` (straight
    lines across the card) and ``polygons`` (diamonds, filled and outlined)."""

    lines: int = 10
    rules: int = 0
    polygons: int = 0


def register_fonts() -> None:
    """Register the five bundled TTF files with ReportLab (each parsed once)."""
    for name, file in FONTS.items():
        pdfmetrics.registerFont(TTFont(name, str(FONT_DIR / file)))


def face_lines(index: int, lines: int, korean: int) -> list[tuple[str, str, float]]:
    """The text lines of face ``index``: (ReportLab font, text, size in pt); ``lines`` of them, the body
    in Korean on face ``korean`` (as the build's Korean rules summary)."""
    result = [("EBGaramond-Bold", f"Card {index + 1}: The Archive of Sael", 11.0),
              ("NanumMyeongjo-Bold", f"{index % 6 + 1} / {index % 9 + 3}", 9.0)]
    body_font = "NanumMyeongjo" if index == korean else "EBGaramond"
    while len(result) < lines - 1:
        text = KOREAN if body_font == "NanumMyeongjo" else BODY[len(result) % len(BODY)]
        result.append((body_font, text, 7.5))
    result.append(("EBGaramond-Italic", "The lanterns of Sael burn for the last time.", 7.0))
    return result[:lines]


def write_svg(path: Path, index: int, work: Work, korean: int) -> None:
    """One card face as an SVG (size in mm, viewBox with the trim's top left at 0 0)."""
    w, h = CARD_W + 2 * BLEED, CARD_H + 2 * BLEED
    d = svgwrite.Drawing(str(path), size=(f"{w:g}mm", f"{h:g}mm"), profile="full", debug=False)
    d["viewBox"] = f"{-BLEED:g} {-BLEED:g} {w:g} {h:g}"
    d.add(d.rect(insert=(-BLEED, -BLEED), size=(w, h), fill="#3b2a1a"))  # the frame over the bleed
    d.add(d.rect(insert=(3, 3), size=(CARD_W - 6, CARD_H - 6), rx=2, ry=2, fill="#f6f1e6", stroke="#7a2e2a", stroke_width=0.4))
    d.add(d.rect(insert=(3, 3), size=(CARD_W - 6, 10), fill="#7a2e2a"))
    d.add(d.rect(insert=(6, 16), size=(CARD_W - 12, 30), fill="#e8dcc0", stroke="#3b2a1a", stroke_width=0.25))
    d.add(d.rect(insert=(6, CARD_H - 14), size=(12, 8), fill="#c9b891"))
    for rule in range(work.rules):
        y = round(16 + 66 * rule / max(work.rules, 1), 2)
        d.add(d.line(start=(4, y), end=(CARD_W - 4, y), stroke="#4e3b29", stroke_width=0.1))
    for polygon in range(work.polygons):
        x, y = 8 + 6 * (polygon % 8), 50 + 6 * (polygon // 8)
        d.add(d.polygon([(x, y - 2), (x + 2, y), (x, y + 2), (x - 2, y)], fill="#c9b891", stroke="#3b2a1a", stroke_width=0.2))
    y = 10.0
    for font, text, size in face_lines(index, work.lines, korean):
        family, weight, style = SVG_FONT[font]
        d.add(d.text(text, insert=(6, round(y, 2)), font_family=f"{family}, serif", font_size=round(size / PT_PER_MM, 2),
                     font_weight=weight, font_style=style, fill="#3b2a1a"))
        y += 60 / work.lines + 1
    d.save()


def draw_face(c: Canvas, index: int, work: Work, korean: int, x: float, y: float, back: bool) -> None:
    """Draw face ``index`` (its back: the frame and the title) with its trim's bottom left at page (x, y) mm."""
    k = PT_PER_MM
    c.saveState()
    path = c.beginPath()
    path.rect((x - BLEED) * k, (y - BLEED) * k, (CARD_W + 2 * BLEED) * k, (CARD_H + 2 * BLEED) * k)
    c.clipPath(path, stroke=0, fill=0)
    c.translate(x * k, y * k)
    c.setFillColor(HexColor("#3b2a1a"))
    c.rect(-BLEED * k, -BLEED * k, (CARD_W + 2 * BLEED) * k, (CARD_H + 2 * BLEED) * k, stroke=0, fill=1)
    c.setFillColor(HexColor("#f6f1e6"))
    c.setStrokeColor(HexColor("#7a2e2a"))
    c.setLineWidth(0.4 * k)
    c.roundRect(3 * k, 3 * k, (CARD_W - 6) * k, (CARD_H - 6) * k, 2 * k, stroke=1, fill=1)
    c.setFillColor(HexColor("#7a2e2a"))
    c.rect(3 * k, (CARD_H - 13) * k, (CARD_W - 6) * k, 10 * k, stroke=0, fill=1)
    texts = face_lines(index, work.lines, korean)[:1] if back else face_lines(index, work.lines, korean)
    if not back:
        c.setStrokeColor(HexColor("#4e3b29"))
        c.setLineWidth(0.1 * k)
        for rule in range(work.rules):
            ry = CARD_H - (16 + 66 * rule / max(work.rules, 1))
            c.line(4 * k, ry * k, (CARD_W - 4) * k, ry * k)
        c.setFillColor(HexColor("#c9b891"))
        c.setStrokeColor(HexColor("#3b2a1a"))
        c.setLineWidth(0.2 * k)
        for polygon in range(work.polygons):
            px, py = 8 + 6 * (polygon % 8), CARD_H - (50 + 6 * (polygon // 8))
            path = c.beginPath()
            path.moveTo(px * k, (py + 2) * k)
            path.lineTo((px + 2) * k, py * k)
            path.lineTo(px * k, (py - 2) * k)
            path.lineTo((px - 2) * k, py * k)
            path.close()
            c.drawPath(path, stroke=1, fill=1)
        c.setFillColor(HexColor("#e8dcc0"))
        c.setStrokeColor(HexColor("#3b2a1a"))
        c.setLineWidth(0.25 * k)
        c.rect(6 * k, (CARD_H - 46) * k, (CARD_W - 12) * k, 30 * k, stroke=1, fill=1)
        c.setFillColor(HexColor("#c9b891"))
        c.rect(6 * k, 6 * k, 12 * k, 8 * k, stroke=0, fill=1)
    top = CARD_H - 10.0
    for font, text, size in texts:
        c.setFont(font, size)
        c.setFillColor(HexColor("#3b2a1a"))
        c.drawString(6 * k, top * k, text)
        top -= 60 / work.lines + 1
    c.restoreState()


def write_sheets(path: Path, paper: tuple[float, float], cards: int, backs: int, first_face: int, faces: int, work: Work,
                 korean: int) -> int:
    """Impose ``cards`` faces (from ``first_face``, cycling through ``faces``) 3 x 3 a page on ``paper``
    (mm), each fronts page followed by its backs page (the first ``backs`` cards have one); return the pages."""
    width, height = paper
    k = PT_PER_MM
    c = Canvas(str(path), pagesize=(width * k, height * k))
    left, bottom = (width - COLUMNS * CARD_W) / 2, (height - ROWS * CARD_H) / 2
    pages = 0
    for start in range(0, cards, COLUMNS * ROWS):
        for side in ("fronts", "backs"):
            for slot in range(min(COLUMNS * ROWS, cards - start)):
                card = start + slot
                if side == "backs" and card >= backs:
                    continue
                row, column = divmod(slot, COLUMNS)
                if side == "backs":
                    column = COLUMNS - 1 - column  # long-edge duplex: columns mirrored
                draw_face(c, (first_face + card) % faces, work, korean, left + column * CARD_W, bottom + (ROWS - 1 - row) * CARD_H,
                          back=side == "backs")
            c.setStrokeColor(HexColor("#000000"))
            c.setLineWidth(0.25)
            for column in range(COLUMNS + 1):  # crop marks above and below every cut line
                x = (left + column * CARD_W) * k
                c.line(x, (bottom - BLEED - MARK) * k, x, (bottom - BLEED) * k)
                c.line(x, (bottom + ROWS * CARD_H + BLEED) * k, x, (bottom + ROWS * CARD_H + BLEED + MARK) * k)
            for row in range(ROWS + 1):
                y = (bottom + row * CARD_H) * k
                c.line((left - BLEED - MARK) * k, y, (left - BLEED) * k, y)
                c.line((left + COLUMNS * CARD_W + BLEED) * k, y, (left + COLUMNS * CARD_W + BLEED + MARK) * k, y)
            c.setFont("EBGaramond", 8)
            c.setFillColor(HexColor("#000000"))
            c.drawString(left * k, (bottom - BLEED - MARK - 4) * k, f"{path.stem}: page {pages + 1}")
            c.showPage()
            pages += 1
    c.save()
    return pages


def deck(text: str) -> tuple[str, int, int, int]:
    """``NAME:CARDS:BACKS:PAGES`` as a tuple; argparse's type for ``--deck``."""
    name, cards, backs, pages = text.split(":")
    return name, int(cards), int(backs), int(pages)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path, help="folder to write into (created)")
    parser.add_argument("--faces", type=int, default=69, help="card faces: SVG files (default: the bundled build's 69)")
    parser.add_argument("--deck", type=deck, action="append", metavar="NAME:CARDS:BACKS:PAGES",
                        help="a deck's sheets per paper (default: solo:52:31:12 and duel:14:9:4, the bundled build's)")
    parser.add_argument("--lines", type=int, default=10, help="text lines a face (default 10)")
    parser.add_argument("--rules", type=int, default=0, help="straight lines a face (default 0)")
    parser.add_argument("--polygons", type=int, default=0, help="diamonds a face (default 0)")
    args = parser.parse_args(argv)
    decks = args.deck or [("solo", 52, 31, 12), ("duel", 14, 9, 4)]
    korean = sum(cards for _, cards, _, _ in decks[:-1]) % args.faces  # the last deck's first card: Korean text
    work = Work(max(args.lines, 2), max(args.rules, 0), max(args.polygons, 0))
    register_fonts()
    svg_dir = args.out / "svg"
    svg_dir.mkdir(parents=True, exist_ok=True)
    for index in range(args.faces):
        write_svg(svg_dir / f"face-{index + 1}.svg", index, work, korean)
    first = 0
    for name, cards, backs, pages in decks:
        if pages != 2 * math.ceil(cards / (COLUMNS * ROWS)):
            sys.exit(f"deck {name}: {cards} cards make {2 * math.ceil(cards / 9)} pages (fronts and backs), not {pages}")
        for paper_key, paper in PAPERS.items():
            write_sheets(args.out / f"{name}-{paper_key}.pdf", paper, cards, backs, first, args.faces, work, korean)
        first += cards


if __name__ == "__main__":
    main()
