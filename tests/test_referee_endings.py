"""How a solo game ends (referee/solo/state.py, ``Ending``): each ending reached in a real game, the rules
deciding by it (not by the reason's words), and the Last Stand counter cards found by their spell type.
Each test cites the rulebook sentence or the ruling (docs/rulings.md, R<n>) it checks."""
from __future__ import annotations

import json
import shlex
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner

from pnp import database
from referee.cli import main
from referee.dice import Dice
from referee.events import EventError
from referee.solo import cli as solo_cli
from referee.solo import core, laststand, view
from referee.solo import events as ev
from referee.solo import game as solo_game
from referee.solo.advice import next_step
from referee.solo.state import Announcement, Ending
from tests.conftest import ROOT

FIXTURES = ROOT / "tests" / "fixtures" / "solo"
DBFILE = ROOT / "cards.toml"
DB = database.load(DBFILE)


def run(save: Path, line: str, code: int = 0) -> str:
    result = CliRunner().invoke(main, ["solo", *shlex.split(line), "--save", str(save), "--db", str(DBFILE)], env={"NO_COLOR": "1"})
    assert result.exit_code == code, f"{line}: {result.output}"
    return result.output


def replay(save: Path, name: str, until: str | None = None) -> solo_game.SoloGame:
    """The golden game ``name`` (tests/fixtures/solo/<name>.cmds) played through the command line (a line
    marked ``# refused`` must be refused), up to and including the line ``until`` (all of it when None),
    read back from its save."""
    for line in (FIXTURES / f"{name}.cmds").read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            command, _, comment = line.partition("#")
            run(save, command.strip(), 1 if comment.strip() == "refused" else 0)
            if command.strip() == until:
                break
    return solo_game.load(save, DB)


def dice(*values: int) -> Dice:
    return Dice(values, None)


def announcements(state) -> list[Announcement]:
    return [n for n in state.notes if isinstance(n, Announcement)]


# ---- Each ending, reached in a recorded game ----------------------------------------------------------------------
@pytest.mark.parametrize("name, ending, result", [
    ("win", Ending.BARRIER_LOCK, "won"),
    ("lost-spirit", Ending.SPIRIT_FALLEN, "lost"),
    ("lost-grayking", Ending.GRAYKING_AT_LASSADAR, "lost"),
    ("last-stand", Ending.LAST_STAND_WON, "won"),
    ("last-stand-elders", Ending.LAST_STAND_WON, "won"),
])
def test_each_golden_game_ends_with_its_ending(tmp_path, name, ending, result):
    """Rulebook, Winning or Losing: Barrier Lock with all 3 Warding Keys "saved Lassadar and won the game";
    "If at any time your Spirit falls below [1] ..., or if the Grayking reaches Lassadar ..., you have lost
    the game"; the Last Stand card: the Grayking's last hit point taken wins it (R49). The state after the
    last command of each recorded game carries its ending, ``status --json`` gives it beside the ``result``
    it implies, and the note that announces it carries it too."""
    game = replay(tmp_path / "solo.toml", name)
    state = game.state
    assert state.ending is ending and state.result == result and state.phase == "over"
    status = json.loads(run(tmp_path / "solo.toml", "status --json"))
    assert (status["ending"], status["result"], status["reason"]) == (ending.value, result, state.reason)
    assert [a.ending for a in announcements(state)] == [ending]
    assert ending.won == (result == "won") and ending.defeat == (result == "lost")


def test_a_lost_last_stand_in_a_recorded_game_keeps_the_game_won(tmp_path):
    """R56: falling in the Last Stand (Spirit below 1, R23) loses the Last Stand only; the game, won with
    Barrier Lock, stays won. The recorded Last Stand, fought on with losing rolls from its start."""
    game = replay(tmp_path / "solo.toml", "last-stand", until="last-stand")
    assert game.state.ending is None and game.state.phase == "stand"
    while game.state.ending is None:
        state = game.play(ev.Attack(dice(1, 1), dice(6, 6, 6)))
        while state.ending is None and state.last_stand.rolled:
            state = game.play(ev.Accept())
    state = game.state
    assert state.ending is Ending.LAST_STAND_LOST and state.ending.defeat and state.ending.won
    assert (state.result, state.last_stand.outcome, state.reason) == ("won", "lost", core.LAST_STAND_LOST_REASON)
    assert [a.ending for a in announcements(state)] == [Ending.LAST_STAND_LOST]
    assert view.status(state, DB)["ending"] == "last stand lost"
    assert view.log_line(1, ev.Attack(), state, DB).endswith("over WON, LAST STAND LOST")


def test_the_readme_names_every_ending():
    """README: `status --json` gives the ``ending`` of a finished game; every value is listed there."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert all(f"`{ending.value}`" in readme for ending in Ending)


def test_every_ending_has_a_colour_on_the_command_line():
    """The command line colours the note that announces the end by its ending, not by its words."""
    assert set(solo_cli.ENDING_STYLES) == set(Ending)
    assert solo_cli.ENDING_STYLES[Ending.SPIRIT_FALLEN] != solo_cli.ENDING_STYLES[Ending.BARRIER_LOCK]


# ---- The Last Stand follows the Barrier Lock ending only ----------------------------------------------------------
def test_last_stand_offered_only_after_the_barrier_lock_ending(tmp_path):
    """Rulebook: "After locking all 3 gates of the Barrier Plains you may travel to the Ash Tower" (R49):
    the Last Stand is offered after the Barrier Lock ending and after no other; the rules read the ending,
    not the reason's words."""
    won = replay(tmp_path / "won.toml", "win").state
    assert won.ending is Ending.BARRIER_LOCK and laststand.offered(won, DB)
    assert "last-stand" in next_step(won, DB)
    for name in ("lost-spirit", "lost-grayking", "last-stand"):
        state = replay(tmp_path / f"{name}.toml", name).state
        assert not laststand.offered(state, DB), name
        assert "last-stand" not in next_step(state, DB)
    # the words alone decide nothing: a lost game worded as Barrier Lock is still lost, and the reverse
    assert not laststand.offered(replace(won, ending=Ending.SPIRIT_FALLEN), DB)
    assert laststand.offered(replace(won, reason="(any words)"), DB)


# ---- Warding City outcome ------------------------------------------------------------------------------------------
def test_warding_outcome_is_won_or_retreat_in_the_save():
    """Expanded Battles 6a and 6b: the map battle is won (the key) or left (retreat, R38); the save's
    table keeps its form, and a table with another outcome is refused when read."""
    assert ev.Warding("won", mana=-3).to_dict() == {"type": "warding", "outcome": "won", "mana": -3, "spirit": 0}
    assert ev.from_dict({"type": "warding", "outcome": "retreat", "spirit": -2}) == ev.Warding("retreat", spirit=-2)
    with pytest.raises(EventError, match="outcome: expected won or retreat, not 'draw'"):
        ev.from_dict({"type": "warding", "outcome": "draw"})


# ---- Counter cards by their spell type ----------------------------------------------------------------------------
def test_counter_found_by_the_cards_spell_type_not_its_title(tmp_path):
    """The Last Stand card: "For any flint or ice spell you use during this battle, the Grayking will
    counter with one that positionally matches on the spell counter cards" (R21, R22): the card of the
    spell's type (its ``spell_type``), whatever its title says."""
    text = DBFILE.read_text(encoding="utf-8")
    text = text.replace('title = "Flint Counters"\nspell_type = "flint"', 'title = "The Grayking\'s Answers"\nspell_type = "flint"', 1)
    text = text.replace('title = "Ice Counters"\nspell_type = "ice"', 'title = "Flint Counters"\nspell_type = "ice"', 1)
    path = tmp_path / "cards.toml"
    path.write_text(text, encoding="utf-8")
    db = database.load(path)
    assert [c.title for c in db.solo.counter_card][:2] == ["The Grayking's Answers", "Flint Counters"]
    assert laststand.counter_for(db, db.get("solo.spell.shard-knives")).name == "Unguard"  # Flint 4
    assert laststand.counter_for(db, db.get("solo.spell.ember-hook")).name == "Mourn Spear"  # Flint 8
    assert laststand.counter_for(db, db.get("solo.spell.frost-breath")).name == "Sorrow"  # Ice 5, on the card titled Flint
    assert laststand.counter_for(db, db.get("solo.spell.glass-lake")).name == "Mirror"  # Ice 11
    assert laststand.counter_for(db, db.get("solo.spell.knot")) is None  # Oaken 4: never countered (R21)
    assert laststand.counter_for(db, db.get("solo.spell.rime-mirror")) is None  # Ice 8: no Ice counter there
