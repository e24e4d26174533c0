"""The safe area setting is enforced: `pnp check` and `pnp build` report text and icons outside it.

Issue 3, Geometry: "safe area (default 3 mm inside the trim) ... come from the database's print
settings, overridable on the command line ... text and icons stay inside the safe area". Fresh-user
report: `--safe 10` and `safe_mm = 25` changed nothing at all.
"""
from __future__ import annotations

import dataclasses

import pytest
from click.testing import CliRunner

from pnp.cli import main as pnp_main
from pnp.drawing import Drawing, Group, Icon, TextLine
from pnp.layout import fit_problems
from pnp.layout.safe import outside, safe_box
from tests.conftest import ROOT


@pytest.fixture(autouse=True)
def _in_tmp_path(tmp_path, monkeypatch):
    """Run in the test's own folder: an error line names a database there as ``cards.toml:LINE:``
    (:func:`pnp.files.shown_path`), as it does for a player running `pnp check` beside their cards.toml."""
    monkeypatch.chdir(tmp_path)



def with_safe(db, safe_mm):
    return dataclasses.replace(db, print=dataclasses.replace(db.print, **{"safe_mm": safe_mm}))


def test_the_bundled_cards_keep_the_default_safe_area(db):
    assert [p for p in fit_problems(db) if ": safe area: " in p] == []


def test_a_larger_safe_area_names_the_cards_that_break_it(db):
    """The battle maps' footers ('solo.map.key-1.card-1': the p and y descend) come 3.9 mm from the trim,
    nearer than anything else: a 3.9 mm safe area holds every card, 4 mm fails the nine map cards and
    nothing else (second fresh-user trial: descenders were not counted, so 4.4 mm passed)."""
    assert [p for p in fit_problems(with_safe(db, 3.9)) if ": safe area: " in p] == []
    problems = [p for p in fit_problems(with_safe(db, 4.0)) if ": safe area: " in p]
    assert len(problems) == 9 and all(p.startswith("solo.map.key-") for p in problems)
    assert "3.9 mm from the trim" in problems[0] and "[boxes.footer]" in problems[0]  # written in templates/base.toml


def test_build_with_a_larger_safe_area_writes_nothing(tmp_path):
    out = tmp_path / "out"
    result = CliRunner().invoke(pnp_main, ["build", "--db", str(ROOT / "cards.toml"), "--out", str(out), "--safe", "6"])
    assert result.exit_code == 1
    lines = result.output.strip().splitlines()
    assert lines[-1].endswith("nothing was written") and not out.exists()
    assert any(line.startswith(f"{ROOT / 'cards.toml'}:") and "outside the 6 mm safe area" in line for line in lines)


def test_check_reads_the_safe_area_of_the_database(tmp_path):
    text = (ROOT / "cards.toml").read_text(encoding="utf-8")
    line = next(row for row in text.splitlines() if row.startswith("safe_mm ="))
    edited = tmp_path / "cards.toml"
    edited.write_text(text.replace(line, "safe_mm = 10.0", 1), encoding="utf-8")  # the widest the schema allows, as --safe
    result = CliRunner().invoke(pnp_main, ["check", "--db", str(edited)])
    assert result.exit_code == 1
    assert "outside the 10 mm safe area" in result.output


def test_turned_and_shifted_text_and_icons_are_measured_where_they_print():
    """A line turned 90 degrees near the left edge, an icon in a shifted group, a line turned upside
    down in a group: each is caught where it lands on the card, not where its coordinates say."""
    card = Drawing(63, 88, 3, (
        TextLine(1.5, 40, "Sideways", size=8, rotation=90),
        Group((Icon("mana", 0, 0, 4),), dx=58, dy=40),
        Group((TextLine(0, 0, "Upside down", size=8, anchor="middle"),), dx=31.5, dy=86.5, rotation=180),
        TextLine(31.5, 44, "Centre", size=8, anchor="middle"),
    ))
    found = {thing.what for thing, _ in outside(card, safe_box(card, 3.0))}
    assert found == {"text 'Sideways'", "icon mana", "text 'Upside down'"}


def test_text_wholly_off_a_single_card_is_reported_on_every_side():
    """Issue 13, seventh breaker: a name box moved off the card to the right or left printed no name, and
    check passed. A text wholly beside a single card is off it (only a board's neighbouring card may show
    its text in this card's bleed)."""
    for x in (70, 100, -20, -60):
        card = Drawing(63, 88, 3, (TextLine(x, 40, "Stonewatch", size=8),))
        assert [thing.what for thing, _ in outside(card, safe_box(card, 3.0))] == ["text 'Stonewatch'"], x
        assert outside(card, safe_box(card, 3.0, board_cards=3, board_index=1), board=True) == [], x


def test_board_seams_need_only_one_millimetre():
    card = Drawing(63, 88, 3, (TextLine(61.5, 40, "Seam", size=8, anchor="end"),))
    assert outside(card, safe_box(card, 3.0, board_cards=3, board_index=1)) == []
    assert outside(card, safe_box(card, 3.0)) != []


def test_a_line_set_in_several_runs_is_reported_whole():
    """Digits are set in their own font run; a report names the line as printed ('solo.map.key-1'),
    not its first run ('solo.map.key-'), and counts it once."""
    from pnp import fonts
    from pnp.layout.safe import painted

    width = fonts.string_width_mm("solo.map.key-", "serif-italic", 6)
    card = Drawing(63, 88, 3, (TextLine(10, 86, "solo.map.key-", family="serif-italic", size=6),
                               TextLine(10 + width, 86, "1", family="numerals", size=6),
                               TextLine(10, 40, "Other line", size=8)))
    assert [thing.what for thing in painted(card.items)] == ["text 'solo.map.key-1'", "text 'Other line'"]
    found = outside(card, safe_box(card, 3.0))
    assert [thing.what for thing, _ in found] == ["text 'solo.map.key-1'"]


def test_check_takes_the_safe_area_on_the_command_line():
    """README: a wider safe area asked for (`--safe 5`) is checked by `pnp check` as by `pnp build`."""
    result = CliRunner().invoke(pnp_main, ["check", "--db", str(ROOT / "cards.toml"), "--safe", "5"])
    assert result.exit_code == 1 and "outside the 5 mm safe area" in result.output
    assert "'solo.map.key-1.card-1'" in result.output
    assert CliRunner().invoke(pnp_main, ["check", "--db", str(ROOT / "cards.toml"), "--safe", "3.9"]).exit_code == 0


def test_descenders_count_as_ink():
    """A line with p, y or g reaches down to the font's descender line; one without stops at its baseline."""
    from pnp import fonts

    card = Drawing(63, 88, 3, (TextLine(10, 84.5, "ploy", size=8), TextLine(40, 84.5, "ABC", size=8)))
    found = {thing.what: nearest for thing, nearest in outside(card, safe_box(card, 3.0))}
    assert set(found) == {"text 'ploy'"}
    assert found["text 'ploy'"] == pytest.approx(88 - 84.5 - fonts.descent_mm("serif", 8))
