"""Layouts of the bundled database: every card renders, text fits inside the safe area, boards split
into cards, fit problems are reported in the agreed format, builds are reproducible."""
from __future__ import annotations

import dataclasses
import re

import pytest
from pypdf import PdfReader

from pnp.build import build
from pnp.drawing import Box, Group, Icon, Line, Polyline, Rect, TextLine, bounds, walk
from pnp.layout import fit_problems, render
from pnp.layout.safe import outside, safe_box
from pnp.layout.template import TemplateError, load_template


@pytest.fixture(scope="module")
def rendered(db):
    return render(db)


def test_bundled_database_fits(db):
    assert fit_problems(db) == []


def test_every_printed_record_has_faces(db, rendered):
    ids = {face.record.id for face in rendered.fronts}
    printed = {r.id for r in db.records() if r.printed and r.kind != "back"}
    assert ids == printed
    assert set(rendered.backs) == {r.id for r in db.records() if r.kind == "back"}
    assert len({face.id for face in rendered.fronts}) == len(rendered.fronts)


def test_boards_are_split_into_cards(db, rendered):
    maps = [face for face in rendered.fronts if face.record.kind == "battle_map"]
    assert len(maps) == 9 and [face.id for face in maps[:3]] == [f"solo.map.key-1.card-{n}" for n in (1, 2, 3)]
    track = [face.id for face in rendered.fronts if face.record.kind == "progress_track"]
    assert track == ["solo.progress.track.card-1", "solo.progress.track.card-2"]
    for face in rendered.fronts:
        assert (face.drawing.width_mm, face.drawing.height_mm, face.drawing.bleed_mm) == (63.0, 88.0, 3.0)
    # Boards print first, so every 3-card map fills one sheet row and can stay uncut.
    assert [face.record.kind for face in rendered.fronts[:9]] == ["battle_map"] * 9


def test_board_cards_carry_only_what_reaches_their_bleed(rendered):
    """A card cut from a board keeps the art that runs into its bleed but not its neighbours' texts and
    footers hidden under the clip (they would show in the SVG and in text copied from the PDF)."""
    maps = {face.id: face.drawing for face in rendered.fronts if face.record.kind == "battle_map"}
    first, last = maps["solo.map.key-1.card-1"], maps["solo.map.key-1.card-3"]
    first_texts = {item.text for item in walk(first.items) if isinstance(item, TextLine)}
    last_texts = {item.text for item in walk(last.items) if isinstance(item, TextLine)}
    assert "Eldritch Damage (Key" in last_texts  # the table is printed on the third card
    assert not {"Eldritch Damage (Key", "No additional damage"} & first_texts
    for drawing in maps.values():
        box = bounds(drawing.items[0])
        assert box is not None and box.x >= -3 - 1e-6 and box.right <= 66 + 1e-6  # within the bleed box


def test_bounds_follow_rotation_shift_and_clip():
    line = Line(0, 0, 10, 0, stroke_width=0.0)
    def rounded(box):
        return Box(*(round(value, 9) for value in (box.x, box.y, box.width, box.height)))

    assert rounded(bounds(Group((line,), dx=5, dy=5, rotation=90))) == Box(5, -5, 0, 10)  # up the page
    assert rounded(bounds(Group((line,), dx=5, dy=5, rotation=180))) == Box(-5, 5, 10, 0)
    assert bounds(Group((line,), clip=Box(2, -1, 3, 2))) == Box(2, 0, 3, 0)
    assert bounds(Group((line,), clip=Box(20, 20, 3, 3))) is None
    assert bounds(Group(())) is None


def test_text_stays_in_the_safe_area(db, rendered):
    """Text keeps ``[print] safe_mm`` (3 mm) inside the trim. On boards, an edge shared with the next card
    of the board (printed butted, used side by side) only needs text to stay 1 mm clear of the cut: no
    text is ever split by a cut (:func:`pnp.layout.safe.safe_box`). Text wholly on the neighbouring card
    of a board, seen in this card's bleed, is not this card's."""
    failures = []
    for face in list(rendered.fronts) + list(rendered.backs.values()):
        safe = safe_box(face.drawing, db.print.safe_mm, face.board_cards, face.board_index)
        failures += [f"{face.id}: {thing.what} at {thing.box}" for thing, _ in outside(face.drawing, safe, board=face.board_cards > 1)
                     if thing.what.startswith("text ")]
    assert failures == []


def test_smallest_text_is_six_points(rendered):
    sizes = [item.size for face in rendered.fronts for item in walk(face.drawing.items) if isinstance(item, TextLine)]
    assert min(sizes) >= 6.0


def test_backgrounds_run_into_the_bleed(rendered):
    for face in list(rendered.fronts) + list(rendered.backs.values()):
        bleed = face.drawing.bleed_box
        covered = any(isinstance(item, Rect) and item.fill and item.x <= bleed.x + 1e-6 and item.y <= bleed.y + 1e-6
                      and item.x + item.width >= bleed.right - 1e-6 and item.y + item.height >= bleed.bottom - 1e-6
                      for item in walk(face.drawing.items))
        assert covered, face.id


def _icons(face):
    return {item.name for item in walk(face.drawing.items) if isinstance(item, Icon)}


def _texts(face):
    return " ".join(item.text for item in walk(face.drawing.items) if isinstance(item, TextLine))


def test_rulebook_looks(db, rendered):
    faces = {face.id: face for face in rendered.fronts}
    border = {"city_quest": "#141414", "council_quest": "#ffffff", "elder": "#6b4423"}
    for face in rendered.fronts:
        kind = face.record.kind
        if kind in border:
            first = face.drawing.items[0]
            assert isinstance(first, Rect) and first.fill == border[kind], face.id
        if kind in ("city_quest", "council_quest", "elder", "warding_city"):
            assert {"win", "loss", "next"} <= _icons(face)
            record = face.record
            text = _texts(face)
            for number in (record.win, record.loss, record.next_value):
                assert str(number) in text
    elder = faces["solo.quest.elder-san"]
    assert all(str(n) in _texts(elder) for n in (1, 2, 3))
    # Warding City: a coloured band, and the key number and colour named in words.
    dalnish = _texts(faces["solo.quest.dalnish"])
    assert "Warding Key 1" in dalnish and "Red" in dalnish
    # Battle maps: every number 2-12 printed upright, start and recharge crosses (on the board's cards).
    key1 = [faces[f"solo.map.key-1.card-{n}"] for n in (1, 2, 3)]
    board_items = [item for card in key1 for item in walk(card.drawing.items)]
    numbers = {item.text for item in board_items if isinstance(item, TextLine) and item.family == "numerals"
               and item.text.isdigit() and item.size == 12}
    assert {str(n) for n in range(2, 13)} <= numbers
    assert all(item.rotation == 0 for item in board_items if isinstance(item, TextLine))
    assert {"start", "recharge"} <= {item.name for item in board_items if isinstance(item, Icon)}
    # Board coordinates: a hex on a seam is on both its cards, with the same points.
    hexes = {item.points for item in board_items if isinstance(item, Polyline) and item.closed and len(item.points) == 6}
    assert len(hexes) == len(db.get("solo.map.key-1").hex_map.hexes)


def test_track_spaces_hold_a_ten_millimetre_cube(rendered):
    """Square track spaces are at least 9.5 mm (a 10 mm cube overhangs by at most a quarter mm a side)."""
    faces = {face.id: face for face in rendered.fronts}
    for face_id in ("solo.progress.track.card-1", "solo.servant.zhumbi-1", "solo.last-stand.card", "duel.location.stonewatch"):
        squares = [item for item in walk(faces[face_id].drawing.items)
                   if isinstance(item, Rect) and abs(item.width - item.height) < 1e-6 and 8 < item.width < 14]
        assert squares and min(s.width for s in squares) >= 9.5, face_id


def test_too_long_a_text_is_reported(db):
    quest = db.get("solo.quest.iarith")
    long_quest = dataclasses.replace(quest, **{"text": "The lanterns gutter and the servants close in. " * 30})
    solo = dataclasses.replace(db.solo, **{"city_quest": (long_quest,) + db.solo.city_quest[1:]})
    changed = type(db)(db.path, db.fingerprint + "-long", db.print, db.games, solo, db.duel,
                       {**db._by_id, quest.id: long_quest})
    problems = fit_problems(changed)
    assert len(problems) == 1
    assert re.fullmatch(r"solo\.quest\.iarith: text: over by \d+\.\d mm", problems[0]), problems


def test_template_errors_name_file_and_key(tmp_path):
    (tmp_path / "base.toml").write_text("[boxes.footer]\nx = 1\ny = 1\nw = 10\nh = 3\nsize = [5, 4]\n")
    with pytest.raises(TemplateError, match=r"base.toml: boxes.footer.size: .* 6 pt"):
        load_template("base", tmp_path)
    (tmp_path / "loop.toml").write_text('extends = "loop"\n')
    with pytest.raises(TemplateError, match="loop -> loop is a cycle"):
        load_template("loop", tmp_path)


def test_build_writes_reproducible_files(db, tmp_path):
    first = build(db, tmp_path / "one")
    second = build(db, tmp_path / "two")
    names = [p.relative_to(tmp_path / "one").as_posix() for p in first]
    assert names == sorted(names)
    assert {"solo-a4.pdf", "solo-letter.pdf", "duel-a4.pdf", "duel-letter.pdf"} <= set(names)
    assert "svg/solo.map.key-1.card-2.svg" in names and "svg/solo.back.quest.svg" in names
    for a, b in zip(first, second):
        assert a.read_bytes() == b.read_bytes(), a.name
    reader = PdfReader(tmp_path / "one" / "solo-a4.pdf")
    # 52 solo cards: 7 fronts pages (the backless cards, the Servants and the Quests kept apart, issue 15),
    # each followed by its backs page (blank where no card has a back).
    assert len(reader.pages) == 14


def test_every_template_number_and_box_is_read(db, monkeypatch):
    """Each ``[numbers]`` and ``[boxes.*]`` key a template file writes is read by some layout (no dead
    or misspelt layout numbers: the code reads every one through the template API)."""
    import tomllib

    from pnp import layout
    from pnp.layout import template

    read: set[tuple[str, str]] = set()
    for accessor in ("number", "box"):
        original = getattr(template.Template, accessor)

        def recording(self, name, _original=original, _accessor=accessor):
            read.add((_accessor, name))
            return _original(self, name)
        monkeypatch.setattr(template.Template, accessor, recording)
    monkeypatch.setattr(layout, "_CACHE", {})
    render(db)
    unread = []
    for path in sorted(template.TEMPLATE_DIR.glob("*.toml")):
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        unread += [f"{path.name}: numbers.{n}" for n in data.get("numbers", {}) if ("number", n) not in read]
        unread += [f"{path.name}: boxes.{n}" for n in data.get("boxes", {}) if ("box", n) not in read]
    assert unread == []


# ---- a changed copy of the bundled database -------------------------------------------------------------------
def _variant(tmp_path, *replacements):
    """The bundled ``cards.toml`` with each ``(old, new)`` text replaced once, loaded from ``tmp_path``."""
    from pnp import database
    from tests.conftest import ROOT

    text = (ROOT / "cards.toml").read_text(encoding="utf-8")
    for old, new in replacements:
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    path = tmp_path / "cards.toml"
    path.write_text(text, encoding="utf-8")
    return database.load(path)


def _face(db, face_id):
    return next(face for face in render(db).fronts if face.id == face_id)


# ---- rules summary: one size for every section --------------------------------------------------------------
def _summary_sizes(db, card_id="duel.summary.rules"):
    card = db.get(card_id)
    headings = {section.heading for section in card.sections}
    lines = [item for item in walk(_face(db, card_id).drawing.items) if isinstance(item, TextLine)]
    heading_sizes = {item.size for item in lines if item.text in headings}
    body_sizes = {item.size for item in lines if item.family in ("serif", "numerals") and item.text not in headings}
    return heading_sizes, body_sizes


@pytest.mark.parametrize("longer", [False, True])
def test_summary_sections_share_one_size_the_largest_that_fits(db, tmp_path, longer):
    """Every section text of a rules summary is set at one size (and every heading at one), the
    largest of the template's range at which all the sections fit one below the other, even when
    one section is much longer than the others."""
    from pnp.text import measure

    if longer:
        card = db.get("duel.summary.rules")
        first = card.sections[0].text
        db = _variant(tmp_path, (first, first + " Keep the unused Locations aside; they are not played this game."))
    heading_sizes, body_sizes = _summary_sizes(db)
    assert len(heading_sizes) == 1 and len(body_sizes) == 1, (heading_sizes, body_sizes)
    (size,) = body_sizes
    t = load_template("summary")
    body = t.box("section")
    card = db.get("duel.summary.rules")
    room = (t.number("sections_bottom") - t.number("sections_top")
            - len(card.sections) * (t.number("heading_h") + t.number("gap")) + t.number("gap"))
    if size < body.size[0]:
        bigger = round(size + 0.1, 1)
        needed = sum(measure(s.text, body.w, body.font, bigger, line_spacing=body.line_spacing)[0] for s in card.sections)
        assert needed > room, "a larger size would have fitted every section"
    assert fit_problems(db) == []


# ---- Elder uses come from the database ----------------------------------------------------------------------
@pytest.mark.parametrize("uses", [2, 3, 4])
def test_elder_use_numbers_follow_the_database(tmp_path, uses):
    """The Elder card prints one numbered disc per use, ``elder_uses`` in cards.toml; more than three
    still fit on the card."""
    from pnp.drawing import Circle

    db = _variant(tmp_path, ("elder_uses = 3\n", f"elder_uses = {uses}\n"))
    face = _face(db, "solo.quest.elder-san")
    t = load_template("elder")
    x = t.number("uses_x")
    discs = [item for item in walk(face.drawing.items) if isinstance(item, Circle) and abs(item.cx - x) < 1e-6]
    assert len(discs) == uses
    numbers = [item.text for item in walk(face.drawing.items)
               if isinstance(item, TextLine) and item.family == "numerals" and abs(item.x - x) < 3.0]
    assert sorted(numbers) == [str(n) for n in range(1, uses + 1)]
    for disc in discs:
        assert disc.cy + disc.r < t.number("uses_divider_bottom") + 1e-6
    assert all(b.cy - a.cy >= a.r + b.r - 1e-6 for a, b in zip(discs, discs[1:])), "discs overlap"


# ---- what fit_problems reports -----------------------------------------------------------------------------------
def test_unknown_icon_token_is_reported(tmp_path):
    from pnp.text import ICON_DIR

    db = _variant(tmp_path, ('name = "Iarith"\n', 'name = "Iarith :manna:"\n'))
    assert fit_problems(db) == ["solo.quest.iarith: name: unknown icon :manna:; did you mean :mana:?"]  # near one: named
    db = _variant(tmp_path, ('name = "Iarith"\n', 'name = "Iarith :qwxz:"\n'))
    icons = ", ".join(sorted(path.stem for path in ICON_DIR.glob("*.svg")))
    assert fit_problems(db) == [f"solo.quest.iarith: name: unknown icon :qwxz:; icons are: {icons}"]  # none near: all listed


@pytest.mark.parametrize("token, meant", [(":Mana:", "mana"), (":SPIRIT:", "spirit"), (":d6_1:", "d6-1"), (":mana :", "mana")])
def test_a_near_miss_of_an_icon_is_reported(tmp_path, token, meant):
    """Fifteenth breaker: `:Mana:`, `:SPIRIT:`, `:d6_1:` and `:mana :` passed check and printed as typed."""
    db = _variant(tmp_path, ('name = "Iarith"\n', f'name = "Iarith {token}"\n'))
    assert fit_problems(db) == [f"solo.quest.iarith: name: unknown icon {token}; did you mean :{meant}:?"]


def test_prose_with_colons_is_no_icon(tmp_path):
    """A colon after a word in prose (`Battle: Win: here`) is no icon token: a space follows its first colon."""
    db = _variant(tmp_path, ('name = "Iarith"\n', 'name = "Iarith: Win: here"\n'))
    assert not any("icon" in problem for problem in fit_problems(db))


@pytest.mark.parametrize("char, code", [("☠", "2620"), ("日", "65E5")])
def test_character_without_a_font_is_reported(tmp_path, char, code):
    db = _variant(tmp_path, ('name = "Iarith"\n', f'name = "Iarith {char}"\n'))
    assert fit_problems(db) == [f"solo.quest.iarith: name: character '{char}' (U+{code}) is in no bundled font"]


def test_korean_and_known_icons_are_no_problem(tmp_path):
    db = _variant(tmp_path, ('name = "Iarith"\n', 'name = "Iarith 이아리스 :mana:"\n'))
    assert fit_problems(db) == []


def test_overflow_is_reported_against_the_record_holding_the_text(db, tmp_path):
    """A table row's text that does not fit is the table's problem (its line in cards.toml), not the
    table card's; a spell's name on a path card is the spell's."""
    row = "move the Grayking marker two spaces away from Lassadar"
    long_row = row + ", then across the Barrier Plains and back again through every gate of the city" * 3
    changed = _variant(tmp_path, (row, long_row), ('name = "Thorn Hedge"', 'name = "Thorn Hedge of the Old Barrier Plains"'))
    problems = fit_problems(changed)
    assert len(problems) == 2, problems
    assert re.fullmatch(r"solo\.spell\.thorn-hedge: name: over by \d+\.\d mm", problems[0]), problems
    assert re.fullmatch(r"solo\.table\.battle-win: rows\[5\]\.text: over by \d+\.\d mm", problems[1]), problems
    # The id and field lead to the line that holds the text.
    for problem, needle in zip(problems, ("Thorn Hedge of", long_row)):
        record_id, field, _ = problem.split(": ", 2)
        line = changed.line_of(record_id, field)
        assert needle in changed.path.read_text(encoding="utf-8").splitlines()[line - 1]


def test_eldritch_rows_are_reported_against_their_table(db, tmp_path):
    table = db.get(db.get("solo.map.key-1").eldritch_table)
    row = f'{{ roll = [6, 7, 8], text = "{table.rows[0].text}"'
    changed = _variant(tmp_path, (row, row[:-1] + ', and the lanterns of the whole city go out one by one' * 3 + '"'))
    problems = fit_problems(changed)
    assert problems and all(p.startswith(f"{table.id}: rows[0].text: over by ") for p in problems), problems


# ---- card size -----------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("width, height, field", [(63.5, 88.9, "card_width_mm"), (63.0, 89.0, "card_height_mm")])
def test_other_card_sizes_are_one_clean_problem(tmp_path, width, height, field):
    """A [print] card size the templates are not laid out for is one problem line, found before any
    layout is tried; render refuses it with a ValueError; ``pnp build`` prints it without a traceback."""
    from click.testing import CliRunner

    from pnp import layout
    from pnp.cli import main

    db = _variant(tmp_path, ("card_width_mm = 63.0\n", f"card_width_mm = {width}\n"),
                  ("card_height_mm = 88.0\n", f"card_height_mm = {height}\n"))
    expected = (f"print: {field}: the templates are laid out for 63 x 88 mm poker cards, not {width:g} x {height:g} mm; "
                "set 63 x 88")
    assert fit_problems(db) == [expected]
    with pytest.raises(layout.CardSizeError, match="laid out for 63 x 88 mm"):
        render(db)
    result = CliRunner().invoke(main, ["build", "--db", str(db.path), "--out", str(tmp_path / "out")])
    assert result.exit_code == 1
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert "Traceback" not in result.output and expected.split(": ", 2)[2] in result.output
    assert not (tmp_path / "out").exists()


# ---- frames --------------------------------------------------------------------------------------------------------
def test_eldritch_table_shading_stays_inside_the_frame(rendered):
    """The shaded rows of a battle map's Eldritch table end inside the frame's inner rule."""
    base = load_template("battle_map")
    for face in rendered.fronts:
        if face.record.kind != "battle_map" or face.board_index != face.board_cards - 1:
            continue
        inner_right = face.drawing.width_mm - base.number("border") - base.number("frame_inner_inset") \
            - base.number("frame_inner_rule_width") / 2
        shades = [item for item in walk(face.drawing.items) if isinstance(item, Rect) and item.fill and item.height < 10
                  and item.y > base.number("table_top") - 1]
        assert shades, face.id
        shift = (face.board_cards - 1) * face.drawing.width_mm  # board x of this card's left edge
        for shade in shades:
            assert shade.x + shade.width - shift <= inner_right - 0.2, face.id


def test_location_bands_stay_inside_the_frame(rendered):
    """The Wardens and Shadowmajik label bands of a Location end inside the frame's inner rule."""
    base = load_template("location")
    inner = base.number("border") + base.number("frame_inner_inset") + base.number("frame_inner_rule_width") / 2
    for face in rendered.fronts:
        if face.record.kind != "location":
            continue
        for group in (item for item in face.drawing.items if isinstance(item, Group)):
            bands = [item for item in group.items if isinstance(item, Rect) and item.fill and item.y == 0]
            assert bands, face.id
            for band in bands:
                xs = sorted((group.dx + band.x, group.dx + band.x + band.width) if group.rotation == 0
                            else (group.dx - band.x, group.dx - band.x - band.width))
                assert xs[0] >= inner - 1e-6 and xs[1] <= face.drawing.width_mm - inner + 1e-6, (face.id, xs)


def test_a_long_duel_spell_name_keeps_a_space_before_its_cost(db):
    """Fourteenth breaker: a longer spell name shrunk to its 26 mm box ran into the right-aligned cost
    ("Lantern Ward of Wardens2 MP"); the name's box now ends a word space before the cost's text, and a name
    that cannot fit there is "over" at its key."""
    import dataclasses

    from pnp.database import PlayerCard
    from pnp.layout import render
    from pnp.layout.safe import painted

    card = db.get("duel.player.wardens")
    assert isinstance(card, PlayerCard)
    spells = tuple(dataclasses.replace(s, name="Lantern Ward of Wardens") if s.face == 3 else s for s in card.spells)
    edited = dataclasses.replace(db, _by_id={**db._by_id, card.id: dataclasses.replace(card, spells=spells)})
    edited = dataclasses.replace(edited, duel=dataclasses.replace(edited.duel, player=tuple(
        edited._by_id[p.id] for p in edited.duel.player)))
    face = next(f for f in render(edited).fronts if f.id == "duel.player.wardens")
    things = list(painted(face.drawing.items))
    name = next(t for t in things if t.what == "text 'Lantern Ward of Wardens'")
    cost = next(t for t in things if t.what.startswith("text '2 MP") and abs(t.box.y - name.box.y) < 1.0)
    assert cost.box.x - name.box.right >= 0.5, (name.box, cost.box)


def test_a_summary_too_long_blames_the_section_that_is(db):
    """Thirteenth breaker: a Korean summary whose last section was lengthened reported the three other
    sections over their boxes (room was shared by character count) and not the long one. The sections that
    fit keep their own height; the tallest is over by exactly what the card lacks."""
    import dataclasses

    from pnp.layout import render

    card = db.get("duel.summary.rules-ko")
    long = card.sections[3].text + " 긴 문장을 더 추가합니다." * 40
    sections = card.sections[:3] + (dataclasses.replace(card.sections[3], text=long),)
    edited = dataclasses.replace(db, _by_id={**db._by_id, card.id: dataclasses.replace(card, sections=sections)})
    edited = dataclasses.replace(edited, duel=dataclasses.replace(edited.duel, summary=tuple(
        edited._by_id[s.id] for s in edited.duel.summary)))
    problems = [p for p in render(edited).problems if p.record_id == card.id]
    assert [(p.field, p.kind) for p in problems] == [("sections[3].text", "text over")], problems


def test_inline_icons_of_a_box_do_not_clash_with_its_own_lines(tmp_path):
    """Sixteenth breaker: icons in a spell's text, one wrapped to the start of a line, were reported "printed
    over the spirit icon" (the next line's ascent over an icon's drop below its baseline), though the card
    printed clean: a box's inline icons and its own lines are set together by the fitter."""
    db = _variant(tmp_path, ('cost = { mana = 1 }\ntext = "Lower a Battle Loss result by one row."',
                             'cost = { mana = 1 }\ntext = "Lower a :mana: result by :mana: one :mana: row :mana: :mana: :spirit:"'))
    # twenty-fourth round: the "y" of "by" touched the tip of the :spirit: icon wrapped under it, said at the box's line
    # spacing; since the thirty-fifth (HIGH 7: `text_dy` 4.7 -> 5.0, the cost icon off the position disc) the text wraps
    # with the spirit icon at the end of the second line, under nothing (looked at, rendered): no problem at all, and
    # never an icon printed over its own lines
    assert fit_problems(db) == []


def test_a_place_name_too_long_is_named_at_its_own_key(tmp_path):
    """Sixteenth breaker: a Progress Track place name too long for its label was reported as "space 19" at the
    line of the first name (Tower of Ash); it is named at its own entry of `names`."""
    db = _variant(tmp_path, ('{ space = 20, name = "Lassadar" },',
                             '{ space = 20, name = "Lassadar" },\n  { space = 19, name = "Gates of the Very Long City Name Here" },'))
    assert fit_problems(db) == ["solo.progress.track: names[5].name: over by 3.1 mm"]
