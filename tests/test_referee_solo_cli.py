"""`referee solo` through the command line: whole games against stored logs, the JSON status, undo, bad input."""
from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import pytest
from click.testing import CliRunner

from referee import save as savefile
from referee.cli import main
from tests.conftest import ROOT

FIXTURES = ROOT / "tests" / "fixtures" / "solo"
DB = str(ROOT / "cards.toml")


def run(save: Path, line: str, code: int = 0) -> str:
    result = CliRunner().invoke(main, ["solo", *shlex.split(line), "--save", str(save), "--db", DB], env={"NO_COLOR": "1"})
    assert result.exit_code == code, f"{line}: {result.output}"
    return result.output


def play_script(save: Path, name: str) -> None:
    for line in (FIXTURES / f"{name}.cmds").read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            run(save, line)


@pytest.mark.parametrize("name, result", [("win", "won"), ("lost-spirit", "lost"), ("lost-grayking", "lost")])
def test_whole_game_matches_its_stored_log(tmp_path, name, result):
    """A game played with typed dice and cards gives exactly the stored log (tests/fixtures/solo/<name>.log)."""
    save = tmp_path / "solo.toml"
    play_script(save, name)
    assert run(save, "log") == (FIXTURES / f"{name}.log").read_text()
    status = json.loads(run(save, "status --json"))
    assert status["result"] == result and status["phase"] == "over"


def test_status_json_has_the_contract_fields(tmp_path, db):
    save = tmp_path / "s.toml"
    run(save, "new --difficulty beginner --spells bind,shield --seed 9")
    status = json.loads(run(save, "status --json"))
    assert {"mana", "spirit", "grayking", "lassadar", "keys", "spells", "used_spells", "elders", "deck", "discard", "phase", "result", "next"} <= set(status)
    beginner = db.solo.progress_track[0].start["beginner"]  # R2: the start space is in cards.toml
    assert (status["mana"], status["spirit"], status["grayking"], status["lassadar"], status["deck"], status["discard"]) == (14, 14, beginner, 20, 22, 0)
    assert status["spells"] == ["solo.spell.bind", "solo.spell.shield"] and status["result"] is None and "draw" in status["next"]


def test_undo_of_a_roll_the_referee_showed_is_refused(tmp_path):
    """Undo is never a free re-roll (ruling 84): a step that showed the referee's dice or cards is refused
    in one line and the save is left as it was; a step of the player's own dice and cards is taken back."""
    save = tmp_path / "s.toml"
    run(save, "new --difficulty normal --spells bind,shield --seed 3")
    run(save, "draw")
    run(save, "battle")
    kept = save.read_bytes()
    refused = run(save, "undo", code=1)
    assert "ruling 84" in refused and len(refused.strip().splitlines()) == 1 and save.read_bytes() == kept
    run(save, "new --difficulty normal --spells bind,shield --seed 3 --force")
    run(save, "draw --card tural")
    run(save, "battle --dice 1,1 --enemy 6,6,6 --next mistmarch")
    assert "Undone" in run(save, "undo") and "Undone" in run(save, "undo")


def test_human_output_names_cards_as_printed(tmp_path):
    save = tmp_path / "s.toml"
    run(save, "new --difficulty normal --spells bind,shield --seed 3")
    assert "City Quest: Orrin's Crossing." in run(save, "draw --card orrins-crossing")
    assert "Orrin's Crossing" in run(save, "status")


BAD = [
    ("battle --dice 7,1", "a die shows 1-6, not 7"),
    ("battle --dice 0,1", "a die shows 1-6, not 0"),
    ("battle --dice 1,2,3", "needs 2 dice, you typed 3"),
    ("battle --enemy x,2,3", "is not a die"),
    ("draw", "does not fit now"),
    ("cast nothing", "no spell 'nothing'"),
    ("cast leafward", "you have not learned Leafward"),
    ("battle --next nowhere", "no quest card 'nowhere'"),
    ("learn knot", "does not fit now"),
    ("battle --elder elder-san", "not beside your Character Stats card"),
]


@pytest.mark.parametrize("line, message", BAD)
def test_bad_input_is_one_line_and_leaves_the_save_unchanged(tmp_path, line, message):
    save = tmp_path / "s.toml"
    run(save, "new --difficulty normal --spells bind,shield --seed 3")
    run(save, "draw --card tural")
    before = save.read_bytes()
    output = run(save, line, code=1)
    assert message in output and len(output.strip().splitlines()) == 1, output
    assert save.read_bytes() == before


def test_spell_used_twice_is_refused(tmp_path):
    save = tmp_path / "s.toml"
    run(save, "new --difficulty normal --spells bind,shield --seed 3")
    run(save, "draw --card tural")
    run(save, "cast shield")
    before = save.read_bytes()
    assert "already used in this battle" in run(save, "cast shield", code=1)
    assert save.read_bytes() == before


@pytest.mark.parametrize("damage, message", [
    (lambda text: text[: len(text) // 2], "corrupt"),
    (lambda text: text.replace(f"format = {savefile.FORMAT}", "format = 9"), "newer referee (format 9"),
    (lambda text: re.sub(r'database = "[0-9a-f]', lambda m: 'database = "' + ("1" if m.group(0)[-1] == "0" else "0"), text, count=1),
     "card database changed"),  # another fingerprint, still 64 hex digits
    (lambda text: text.replace('database = "', 'database = "0'), "is no database fingerprint"),  # 65 digits
    (lambda text: text.replace('"solo.quest.tural"', '"solo.quest.nowhere"'), "event 1"),
    (lambda text: text.replace("values = [", "values = [9, "), "event 2"),
    (lambda text: "\x00\xff garbage", "corrupt"),
])
def test_bad_save_files_are_reported_in_one_line_and_left_alone(tmp_path, damage, message):
    save = tmp_path / "s.toml"
    run(save, "new --difficulty normal --spells bind,shield --seed 3")
    run(save, "draw --card tural")
    run(save, "battle --dice 1,1 --enemy 6,6,6")
    save.write_text(damage(save.read_text()))
    before = save.read_bytes()
    for line in ("status --json", "draw", "undo", "log"):
        output = run(save, line, code=1)
        assert message in output and len(output.strip().splitlines()) == 1, output
    assert save.read_bytes() == before


def test_referee_rolled_dice_are_checked_against_the_seed(tmp_path):
    save = tmp_path / "s.toml"
    run(save, "new --difficulty normal --spells bind,shield --seed 3")
    run(save, "draw --card tural")  # cards typed, dice rolled: only the dice depend on the seed
    run(save, "battle --next mistmarch")
    text = save.read_text()
    save.write_text(text.replace("seed = 3", "seed = 4"))
    assert "are not the dice of seed 4" in run(save, "status", code=1)


def test_no_save_yet(tmp_path):
    assert "no game saved here" in run(tmp_path / "none.toml", "status", code=1)


@pytest.mark.parametrize("variable", ["LASSADAR_SOLO_SAVE", "LASSADAR_SAVE"])
def test_save_from_environment_and_new_keeps_the_previous_game(tmp_path, variable):
    save = tmp_path / "env.toml"
    runner = CliRunner()
    for _ in range(2):
        result = runner.invoke(main, ["solo", "new", "--difficulty", "normal", "--spells", "bind,shield", "--seed", "1", "--force", "--db", DB],
                               env={variable: str(save)})
        assert result.exit_code == 0, result.output
        runner.invoke(main, ["solo", "draw", "--db", DB], env={variable: str(save)})  # a game played, so worth keeping
    assert save.exists() and (tmp_path / "env.toml.prev").exists()


def test_a_save_cut_between_events_is_refused_not_read_as_an_earlier_game(tmp_path):
    """A truncated save file is reported (issue 4, Bad input), even when the cut falls between two events."""
    save = tmp_path / "s.toml"
    run(save, "new --difficulty normal --spells bind,shield --seed 3")
    run(save, "draw")
    run(save, "battle")
    text = save.read_text()
    for cut in (text.index("[[events]]"), text.rindex("[[events]]")):
        save.write_text(text[:cut])
        before = save.read_bytes()
        assert "truncated save file" in run(save, "status", code=1)
        assert save.read_bytes() == before


def test_dice_lists_with_an_empty_place_are_refused(tmp_path):
    """A typo such as 3,,4 is refused rather than read as 3 4 (issue 4, Bad input)."""
    save = tmp_path / "s.toml"
    run(save, "new --difficulty normal --spells bind,shield --seed 3")
    run(save, "draw --card tural")
    before = save.read_bytes()
    assert "has an empty place" in run(save, "battle --dice 3,,4 --enemy 1,2,3 --next mistmarch", code=1)
    assert "has an empty place" in run(save, "battle --dice 3,4 --enemy 1,2,3, --next mistmarch", code=1)
    assert save.read_bytes() == before
    assert "You roll 3 4" in run(save, "battle --dice '3, 4' --enemy '1 2 3' --next mistmarch")
