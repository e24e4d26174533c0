"""The `pnp` and `referee table` command lines on the bundled database."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest
from click.testing import CliRunner

from pnp.cli import main as pnp_main
from referee.cli import main as referee_main
from tests.conftest import ROOT


@pytest.fixture(autouse=True)
def _in_tmp_path(tmp_path, monkeypatch):
    """Run in the test's own folder: an error line names a database there as ``cards.toml:LINE:``
    (:func:`pnp.files.shown_path`), as it does for a player running `pnp check` beside their cards.toml."""
    monkeypatch.chdir(tmp_path)



def test_list_json_has_every_record_with_id_game_kind_origin_copies(db):
    result = CliRunner().invoke(pnp_main, ["list", "--json", "--db", str(ROOT / "cards.toml")])
    assert result.exit_code == 0, result.output
    rows = json.loads(result.output)
    assert [r["id"] for r in rows] == [r.id for r in db.records()]
    assert {tuple(sorted(r)) for r in rows} == {("copies", "game", "id", "kind", "origin")}
    kinds = {r["kind"] for r in rows}
    assert {"servant", "city_quest", "council_quest", "elder", "warding_city", "battle_map", "spell", "table", "location", "player"} <= kinds
    assert {r["origin"] for r in rows} == {"rulebook", "public", "authored"}
    assert sum(1 for r in rows if r["kind"] in {"city_quest", "council_quest", "elder", "warding_city"}) == 22


def test_list_plain_is_one_line_per_record(db):
    result = CliRunner().invoke(pnp_main, ["list", "--db", str(ROOT / "cards.toml")])
    assert result.exit_code == 0
    lines = result.output.splitlines()
    assert lines[0].split() == ["id", "game", "kind", "origin", "copies"]
    assert len(lines) == 1 + sum(1 for _ in db.records())
    assert lines[1].split()[:3] == ["solo.back.quest", "solo", "back"]


def test_referee_table_reads_a_row():
    """Rulebook, Expanded Battle Maps, Key 2 table: "5: active servant slain"."""
    result = CliRunner().invoke(referee_main, ["table", "solo.table.eldritch-2", "5", "--db", str(ROOT / "cards.toml")])
    assert result.exit_code == 0
    assert result.output.strip() == "Eldritch Damage (Key 2), 5: active servant slain"


def test_referee_table_rejects_a_roll_off_the_table():
    result = CliRunner().invoke(referee_main, ["table", "solo.table.battle-win", "7", "--db", str(ROOT / "cards.toml")])
    assert result.exit_code == 2
    assert "7 reads no row of solo.table.battle-win; rows hold 1, 2, 3, 4, 5, 6" in result.output


def test_referee_table_unknown_table_lists_the_tables():
    result = CliRunner().invoke(referee_main, ["table", "solo.table.nope", "3", "--db", str(ROOT / "cards.toml")])
    assert result.exit_code == 2
    assert "solo.table.battle-loss" in result.output and "duel.table.nomograph" in result.output


def test_modules_run_with_python_m():
    for module in ("pnp", "referee"):
        result = subprocess.run([sys.executable, "-m", module, "--help"], capture_output=True, text=True, cwd=ROOT)
        assert result.returncode == 0, result.stderr
        assert "Usage:" in result.stdout


def test_check_reports_text_that_does_not_fit_with_its_line(tmp_path):
    """Text is never clipped silently: `pnp check` names the card, the field, the line and how much is over."""
    source = (ROOT / "cards.toml").read_text(encoding="utf-8")
    long_text = "The old kings sleep badly now, " + "and they dream of fire and ruin " * 8 + "for ever."
    edited = source.replace('text = "The old kings sleep badly now."', f'text = "{long_text}"', 1)
    path = tmp_path / "cards.toml"
    path.write_text(edited, encoding="utf-8")
    line = next(n for n, text in enumerate(edited.splitlines(), 1) if "The old kings" in text)
    result = CliRunner().invoke(pnp_main, ["check", "--db", str(path)])
    assert result.exit_code == 1
    first = result.output.splitlines()[0]
    assert first.startswith(f"cards.toml:{line}: duel.location.barrow-of-kings.text: over by ")
    # the box its text is set in, which a template edit may have made too small (forty-eighth pnp breaker, MED 5)
    assert first.endswith("templates/location.toml, more room)") and " mm; shorten the text (or give its box, [boxes.flavour] in " \
        in first, first
    result = CliRunner().invoke(pnp_main, ["build", "--db", str(path), "--out", str(tmp_path / "out")])
    assert result.exit_code == 1
    assert not (tmp_path / "out").exists()  # nothing written


def test_check_is_clean_on_the_bundled_database():
    result = CliRunner().invoke(pnp_main, ["check", "--db", str(ROOT / "cards.toml")])
    assert result.exit_code == 0, result.output
    assert "no problems" in result.output


def test_usage_errors_are_one_line():
    """Bad input never gives more than one line: click's usage errors too (exit code 2)."""
    for command in (["pnp", "build", "--bleed", "20"], ["referee", "table", "solo.table.battle-win", "x"],
                    ["referee", "solo", "recharge", "fire"], ["pnp", "nosuchcommand"]):
        result = subprocess.run([sys.executable, "-m", command[0], *command[1:]], capture_output=True, text=True, cwd=ROOT)
        assert result.returncode == 2, command
        assert result.stdout == ""
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("Error: "), (command, result.stderr)


def test_one_value_where_dice_are_needed_is_read_as_a_total_typed_by_mistake():
    """Defect 5: `--dice 7` for a 2d6 roll says to type both dice (e.g. 3,4), not "a die shows 1-6, not 7";
    the shared parser (referee.clitools.parse_dice) says it for every dice option."""
    import click
    import pytest

    from referee.clitools import parse_dice

    for text, message in [("7", "--dice needs each die, not a total: you typed one value, 7; a 2d6 roll of 7 is typed as its two dice, e.g. --dice 3,4"),
                          ("12", "a 2d6 roll of 12 is typed as its two dice, e.g. --dice 6,6"),
                          ("16", "a 3d6 roll of 16 is typed as its three dice, e.g. --dice 5,5,6")]:
        with pytest.raises(click.ClickException) as error:
            parse_dice(text, "--dice")
        assert message in error.value.message
    for text, message in [("3,7", "--dice: a die shows 1-6, not 7"), ("0", "--dice: a die shows 1-6, not 0")]:
        with pytest.raises(click.ClickException, match=message):
            parse_dice(text, "--dice")
    with pytest.raises(click.ClickException, match="a die shows 1-6, not 9"):  # single dice: no total to explain
        parse_dice("9", "--reroll", totals=False)
    assert parse_dice("3, 4", "--dice") == (3, 4)


def test_solo_eldritch_with_a_total_says_to_type_both_dice(tmp_path):
    """Defect 5, as the tester typed it: `referee solo eldritch --dice 7`; one line, the save unchanged."""
    save = tmp_path / "s.toml"
    base = ["--save", str(save), "--db", str(ROOT / "cards.toml")]
    assert CliRunner().invoke(referee_main, ["solo", "new", "--difficulty", "normal", "--spells", "bind,shield", "--seed", "1", *base]).exit_code == 0
    before = save.read_bytes()
    result = CliRunner().invoke(referee_main, ["solo", "eldritch", "--dice", "7", *base])
    assert result.exit_code == 1 and save.read_bytes() == before
    assert result.stderr.strip() == ("Error: --dice needs each die, not a total: you typed one value, 7; "
                                     "a 2d6 roll of 7 is typed as its two dice, e.g. --dice 3,4")
