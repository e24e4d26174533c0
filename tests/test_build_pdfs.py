"""The sheets `pnp build` writes, read back with pypdf: every card face of each game is on them.

Issue 2 ("Tests that read the PDFs back: page sizes, page counts, every card present"): each card
prints its id in its footer, so every face id of a game must appear in that game's PDF text on both
papers, on a fronts page, once per copy; each shuffled card's back is on the backs page after it.
"""
from __future__ import annotations

import re
from collections import Counter

import pytest
from pypdf import PdfReader

from pnp.build import MANIFEST, build
from pnp.sheets import A4


@pytest.fixture(scope="module")
def built(db, tmp_path_factory):
    folder = tmp_path_factory.mktemp("build")
    build(db, folder)
    return folder


def face_ids(db, game: str) -> Counter:
    """Every front face id of a game, counted by copies (boards give one face per card)."""
    wanted: Counter = Counter()
    for record in db.records():
        if record.game != game or not record.printed or record.kind == "back":
            continue
        cards = getattr(record, "cards", 1)
        if cards == 1:
            wanted[record.id] += record.copies
        else:
            for number in range(1, cards + 1):
                wanted[f"{record.id}.card-{number}"] += record.copies
    return wanted


def page_ids(text: str) -> list[str]:
    """Card ids in a page's text. Digits are set in their own font run, which text extraction puts on
    a line of its own ("ghast-\\n1"), so runs of an id are joined first."""
    text = re.sub(r"(?<=[-.])\n(?=[0-9])|(?<=[0-9])\n(?=[-.][a-z])", "", text)
    return re.findall(r"\b(?:solo|duel)\.[a-z0-9.-]+[a-z0-9]", text.replace("\n", " "))


@pytest.mark.parametrize("game", ["solo", "duel"])
@pytest.mark.parametrize("paper,size", [("a4", (595.28, 841.89)), ("letter", (612.0, 792.0))])
def test_every_card_face_is_on_the_sheets(db, built, game, paper, size):
    reader = PdfReader(built / f"{game}-{paper}.pdf")
    found: Counter = Counter()
    for page in reader.pages:
        assert float(page.mediabox.width) == pytest.approx(size[0], abs=0.01)
        assert float(page.mediabox.height) == pytest.approx(size[1], abs=0.01)
        text = page.extract_text()
        if "fronts" in text:
            found.update(i for i in page_ids(text) if not i.startswith(f"{game}.back."))
    wanted = face_ids(db, game)
    # Every card once per copy: a board card carries only what reaches its bleed, not its neighbours' footers.
    assert dict(found) == dict(wanted)


def test_quest_and_servant_backs_follow_their_fronts(db, built):
    """Rulebook, Setup: the 22 Quest cards and 9 Servant cards are shuffled, so each needs a back."""
    reader = PdfReader(built / "solo-a4.pdf")
    pages = [page.extract_text() for page in reader.pages]
    backs_needed = 0
    for number, text in enumerate(pages):
        if "fronts" not in text:
            continue
        ids = page_ids(text)
        with_back = [i for i in ids if i.startswith(("solo.quest.", "solo.servant."))]
        backs_needed += len(with_back)
        if with_back:
            assert "backs" in pages[number + 1]
    assert backs_needed == 22 + 9


def test_a_failed_build_leaves_the_previous_output_untouched(db, tmp_path, monkeypatch):
    """Bad input loses nothing: a build that fails half-way changes no file of the last good build."""
    import pnp.build as builder

    out = tmp_path / "output"
    build(db, out)
    before = {p: p.read_bytes() for p in out.rglob("*") if p.is_file()}

    def broken(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(builder, "write_sheets", broken)
    with pytest.raises(OSError):
        build(db, out)
    after = {p: p.read_bytes() for p in out.rglob("*") if p.is_file()}
    assert after == before
    assert [p.name for p in tmp_path.iterdir()] == ["output"]  # no staging folder left behind


def test_a_rebuild_removes_svgs_of_cards_that_no_longer_exist(db, tmp_path):
    out = tmp_path / "output"
    build(db, out)
    (out / "svg" / "solo.quest.renamed-away.svg").write_text("<svg/>")  # as an earlier build wrote it:
    with (out / MANIFEST).open("a", encoding="utf-8") as manifest:  # listed in that build's manifest
        manifest.write("svg/solo.quest.renamed-away.svg\n")
    written = build(db, out)
    assert not (out / "svg" / "solo.quest.renamed-away.svg").exists()
    assert sorted(p for p in out.rglob("*") if p.is_file()) == sorted(written + [out / MANIFEST])


@pytest.mark.parametrize("name", ["solo-a4", "solo-letter", "duel-a4", "duel-letter"])
def test_duplex_pairs_every_fronts_page_with_its_backs_page(built, name):
    """README, Printing: printed duplex, page 2k is the back of page 2k-1, so fronts sit on odd pages only."""
    pages = [page.extract_text() for page in PdfReader(built / f"{name}.pdf").pages]
    assert len(pages) % 2 == 0
    for number, text in enumerate(pages, start=1):
        side = "fronts" if number % 2 else "backs"
        # digits are their own font runs, which text extraction splits onto lines: compare without spaces
        assert f"page{number}/{len(pages)}·{side}" in re.sub(r"\s", "", text)


def test_korean_rules_summary_prints_hangul(db, built):
    """Any Unicode text prints: the Korean summary card's Hangul is in the PDF, set in the bundled CJK font."""
    card = db.get("duel.summary.rules-ko")
    reader = PdfReader(built / "duel-a4.pdf")
    text = "".join(page.extract_text() for page in reader.pages)
    assert card.title.split(":")[0] in text  # 루인 앤 리뉴얼 I
    assert "노모그래프" in text
    fonts = set()
    for page in reader.pages:
        for font in page["/Resources"]["/Font"].values():
            fonts.add(str(font.get_object()["/BaseFont"]))
    assert any(name.endswith("+NanumMyeongjoBold") for name in fonts)
    assert any(name.endswith("+NanumMyeongjo") for name in fonts)
    svg = (built / "svg" / "duel.summary.rules-ko.svg").read_text(encoding="utf-8")
    assert "게임 방법" in svg and "NanumMyeongjo" in svg


@pytest.mark.parametrize("duplex", ["long", "none"])
def test_a_deck_whose_last_page_is_full_still_gets_its_scale_checks(tmp_path, duplex):
    """Fourteenth breaker (README, Printing: "the last page of each deck also carries a 50 mm square and a 10
    cm ruler in its empty card slots"): three copies of the Battle Win card filled the solo deck's last page,
    and the deck had no square and no ruler anywhere. A deck whose pages have no room for them now ends with
    a page of its own for them, counted in every page's "page N/M"."""
    from pnp.drawing import Drawing, Rect
    from pnp.pdf import SheetCard, write_sheets
    from tests.conftest import bundled_layout, bundled_options

    front = Drawing(63, 88, 3, (Rect(-3, -3, 69, 94, fill="#ff0000"),), id="front")
    back = Drawing(63, 88, 5, (Rect(-5, -5, 73, 98, fill="#0000ff"),), id="back")
    report = write_sheets(tmp_path / "s.pdf", [SheetCard(front, back)] * 9, layout=bundled_layout(A4, duplex=duplex),
                          options=bundled_options(duplex=duplex), game="t")
    pages = [page.extract_text() for page in PdfReader(report.path).pages]
    with_square = [number for number, text in enumerate(pages, 1) if "50 mm x 50 mm" in text]
    assert len(pages) == report.pages == (3 if duplex == "long" else 2)
    assert with_square == [len(pages)] and "10 cm" in pages[-1] and "scale checks" in pages[-1]
    assert all(f"/{len(pages)}" in text for text in pages)
