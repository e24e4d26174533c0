"""Layouts of the bundled database: every card renders, text fits inside the safe area, boards split
into cards, fit problems are reported in the agreed format, builds are reproducible."""
from __future__ import annotations

import math
import re

import pytest
from pypdf import PdfReader

from pnp import fonts
from pnp.build import build
from pnp.drawing import Box, Group, Icon, Polyline, Rect, TextLine, walk
from pnp.layout import fit_problems, render
from pnp.layout.template import TemplateError, load_template


@pytest.fixture(scope="module")
def rendered(db):
    return render(db)


def _transform(point, groups):
    """A point of a nested group's coordinates in the card's: apply each group's rotation, then shift,
    from the innermost outwards."""
    x, y = point
    for dx, dy, rotation in reversed(groups):
        a = math.radians(rotation)
        x, y = x * math.cos(a) + y * math.sin(a), -x * math.sin(a) + y * math.cos(a)
        x, y = x + dx, y + dy
    return x, y


def _text_extents(items, groups=(), clip: Box | None = None):
    """(text, box) of every text line in the card's coordinates (rotated groups included), skipping
    those an enclosing clip hides entirely (a board's neighbouring cards)."""
    for item in items:
        if isinstance(item, Group):
            inner_clip = clip
            if item.clip is not None:
                corners = [_transform(p, groups) for p in ((item.clip.x, item.clip.y), (item.clip.right, item.clip.bottom))]
                xs, ys = [p[0] for p in corners], [p[1] for p in corners]
                inner_clip = Box(min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys))
            yield from _text_extents(item.items, groups + ((item.dx, item.dy, item.rotation),), inner_clip)
        elif isinstance(item, TextLine) and not item.rotation:
            width = fonts.string_width_mm(item.text, item.family, item.size)
            left = item.x - {"start": 0, "middle": width / 2, "end": width}[item.anchor]
            height = fonts.ascent_mm(item.family, item.size) * 0.9
            corners = [_transform(p, groups) for p in ((left, item.y - height), (left + width, item.y))]
            xs, ys = [p[0] for p in corners], [p[1] for p in corners]
            box = Box(min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys))
            if clip is None or box.overlaps(clip):
                yield item.text, box


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


def test_text_stays_in_the_safe_area(rendered):
    """Text keeps 3 mm inside the trim. On boards, an edge shared with the next card of the board
    (printed butted, used side by side) only needs text to stay 1 mm clear of the cut: no text is
    ever split by a cut."""
    failures = []
    for face in list(rendered.fronts) + list(rendered.backs.values()):
        safe = face.drawing.safe_box(3.0)
        if face.board_cards > 1:
            left = 1.0 if face.board_index > 0 else 3.0
            right = 1.0 if face.board_index < face.board_cards - 1 else 3.0
            safe = Box(left, 3.0, face.drawing.width_mm - left - right, face.drawing.height_mm - 6.0)
        for text, box in _text_extents(face.drawing.items):
            if face.board_cards > 1 and (box.x >= face.drawing.width_mm or box.right <= 0):
                continue  # wholly on the neighbouring card of the board, seen in this card's bleed
            if box.x < safe.x - 0.05 or box.right > safe.right + 0.05 or box.y < safe.y - 0.05 or box.bottom > safe.bottom + 0.05:
                failures.append(f"{face.id}: {text!r} at {box}")
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
    # Battle maps: every number 2-12 printed upright, start and recharge crosses.
    key1 = [faces[f"solo.map.key-1.card-{n}"] for n in (1, 2, 3)]
    board_items = list(walk(key1[0].drawing.items))
    numbers = {item.text for item in board_items if isinstance(item, TextLine) and item.family == "numerals"
               and item.text.isdigit() and item.size == 12}
    assert {str(n) for n in range(2, 13)} <= numbers
    assert all(item.rotation == 0 for item in board_items if isinstance(item, TextLine))
    assert {"start", "recharge"} <= {item.name for item in board_items if isinstance(item, Icon)}
    hexes = [item for item in board_items if isinstance(item, Polyline) and item.closed and len(item.points) == 6]
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
    long_quest = quest.model_copy(update={"text": "The lanterns gutter and the servants close in. " * 30})
    solo = db.solo.model_copy(update={"city_quest": (long_quest,) + db.solo.city_quest[1:]})
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
    with pytest.raises(TemplateError, match="extends itself"):
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
    # 52 solo cards: 6 fronts pages, each followed by its backs page (blank where no card has a back).
    assert len(reader.pages) == 12


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
