"""Issue 10, part 4, items 4 and 5: `new` does not replace a game in progress without --force, `restore`
brings the replaced game back, and each game has its own save variable (both referees, shared code)."""
from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path

import pytest
from click.testing import CliRunner

from referee.cli import main
from tests.conftest import ROOT
from tests.nextline import chosen

DB = str(ROOT / "cards.toml")
NEW = {"solo": ["solo", "new", "--difficulty", "normal", "--spells", "bind,shield"], "duel": ["duel", "new"]}
PLAY = {"solo": ["solo", "draw"], "duel": ["duel", "marker", "1"]}


def invoke(args: list[str], env: dict[str, str] | None = None, save: Path | None = None):
    extra = ["--save", str(save)] if save is not None else []
    return CliRunner().invoke(main, [*args, *extra, "--db", DB], env={"NO_COLOR": "1", **(env or {})})


def one_line_error(result) -> str:
    assert result.exit_code == 1 and result.stdout == "", result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    return lines[0]


def files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in folder.iterdir()}


@pytest.mark.parametrize("game", ["solo", "duel"])
def test_new_refuses_a_game_in_progress_without_force_and_restore_swaps_back(tmp_path, game):
    """Item 4: a game with events and no result is replaced only with --force (one line naming it, nothing
    changed); the replaced game is kept in .prev, and `restore` swaps the two, again and again."""
    save = tmp_path / "g.toml"
    assert invoke([*NEW[game], "--seed", "3"], save=save).exit_code == 0
    assert invoke(PLAY[game], save=save).exit_code == 0
    before = files(tmp_path)
    line = one_line_error(invoke([*NEW[game], "--seed", "4"], save=save))
    # the offer repeats the options typed (thirty-third breaker, HIGH 2), then --force
    assert "in progress" in line and "1 command played" in line and re.search(rf"`referee {game} new [^`]*--seed 4 --force", line), line
    if game == "solo":
        assert "normal game" in line and "0 of 3 Warding Keys" in line
    assert files(tmp_path) == before
    result = invoke([*NEW[game], "--seed", "4", "--force"], save=save)
    assert result.exit_code == 0 and f"kept in {save}.prev" in result.stdout
    played = before["g.toml"]
    assert (tmp_path / "g.toml.prev").read_bytes() == played
    fresh = save.read_bytes()
    result = invoke([game, "restore"], save=save)
    assert result.exit_code == 0 and "Next:" in result.stdout and "1 command played" in result.stdout
    assert save.read_bytes() == played and (tmp_path / "g.toml.prev").read_bytes() == fresh
    assert invoke([game, "restore"], save=save).exit_code == 0
    assert save.read_bytes() == fresh and (tmp_path / "g.toml.prev").read_bytes() == played


@pytest.mark.parametrize("game", ["solo", "duel"])
@pytest.mark.parametrize("saved", [True, False])
def test_restore_with_nothing_kept_is_one_line_whose_new_game_command_works(tmp_path, game, saved):
    """`restore` with no .prev is one line, nothing changed; the command it names to start a new game (which then keeps
    the one it replaces in .prev) works as printed. Forty-third referee breaker, F1: over a game in progress it offered
    `play` (which continues that game) and `new` without --force (refused)."""
    import shlex

    save = tmp_path / "g.toml"
    if saved:
        assert invoke([*NEW[game], "--seed", "3"], save=save).exit_code == 0
        assert invoke(PLAY[game], save=save).exit_code == 0
    before = files(tmp_path)
    line = one_line_error(invoke([game, "restore"], save=save))
    assert "no previous game is kept here" in line and files(tmp_path) == before
    offered = [shlex.split(command) for command in re.findall(r"`(referee [^`]*)`", line)]
    assert offered and all(command[:3] == ["referee", game, "new"] for command in offered if "play" not in command), line
    command = next(command for command in offered if "new" in command)
    result = CliRunner().invoke(main, chosen(command[1:]), env={"NO_COLOR": "1"})  # (with the --save and --db typed)
    assert result.exit_code == 0, result.output
    assert (tmp_path / "g.toml.prev").read_bytes() == before["g.toml"] if saved else not (tmp_path / "g.toml.prev").exists()


def test_restore_refuses_a_prev_of_the_other_game(tmp_path):
    save = tmp_path / "g.toml"
    assert invoke([*NEW["duel"], "--seed", "3"], save=save).exit_code == 0
    save.rename(tmp_path / "g.toml.prev")
    assert invoke([*NEW["solo"], "--seed", "3"], save=save).exit_code == 0
    before = files(tmp_path)
    assert "holds a game of Ruin & Renewal I" in one_line_error(invoke(["solo", "restore"], save=save))
    assert files(tmp_path) == before


def test_a_finished_game_and_an_unplayed_one_are_replaced_without_force(tmp_path):
    """Item 4: the game-over Next line's `referee solo new --difficulty normal --spells bind,shield` works as
    typed: a finished game (won or lost) is replaced and kept in .prev; a setup with no event is replaced."""
    save = tmp_path / "g.toml"
    for line in (ROOT / "tests" / "fixtures" / "solo" / "lost-spirit.cmds").read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            assert invoke(["solo", *line.split()], save=save).exit_code == 0, line
    finished = save.read_bytes()
    result = invoke(NEW["solo"], save=save)
    assert result.exit_code == 0 and (tmp_path / "g.toml.prev").read_bytes() == finished
    result = invoke(NEW["solo"], save=save)
    assert result.exit_code == 0 and "had nothing played yet" in result.stdout
    assert (tmp_path / "g.toml.prev").read_bytes() == finished


@pytest.mark.parametrize("game", ["solo", "duel"])
@pytest.mark.parametrize("content", [b"", b"\x00\x01 not a save\n"])
def test_new_force_over_a_file_that_holds_no_game_does_not_say_a_game_was_kept(tmp_path, game, content):
    """Twenty-eighth breaker (LOW): `new --force` over an empty file said "The game saved in X is kept in X.prev": there
    was no game. The file is kept byte for byte, and the sentence says it held none."""
    save = tmp_path / "g.toml"
    save.write_bytes(content)
    result = invoke([*NEW[game], "--force"], save=save)
    assert result.exit_code == 0, result.output
    assert (tmp_path / "g.toml.prev").read_bytes() == content
    said = " ".join(result.stdout.split())
    assert "held no game of" in said and "The game saved in" not in said, said


@pytest.mark.parametrize("game", ["solo", "duel"])
def test_new_force_over_an_unreadable_save_never_replaces_the_game_kept_in_prev(tmp_path, game):
    """Thirtieth breaker (HIGH): a save truncated (a crash, a bad copy), then `new --force` as the refusal advised: the
    unreadable file went into .prev over the one readable game there, and `restore` refused it. The unreadable file is
    kept in .unreadable, the game in .prev stays and `restore` brings it back; with .unreadable taken, `new` is refused
    and nothing moves. (Thirtieth breaker, MED: the refusal offered `restore` and "play both" for a file with no game.)"""
    save = tmp_path / "h.toml"
    assert invoke([*NEW[game], "--seed", "1"], save=save).exit_code == 0
    assert invoke(PLAY[game], save=save).exit_code == 0
    assert invoke([*NEW[game], "--seed", "2", "--force"], save=save).exit_code == 0
    kept = (tmp_path / "h.toml.prev").read_bytes()  # game 1, in progress
    assert invoke(PLAY[game], save=save).exit_code == 0
    damaged = save.read_bytes()[:100]
    save.write_bytes(damaged)
    refusal = one_line_error(invoke(NEW[game], save=save))
    assert "restore" not in refusal and "play both" not in refusal and "h.toml.unreadable" in refusal, refusal
    (tmp_path / "h.toml.unreadable").write_bytes(b"mine")  # the name taken: refused, nothing moved
    before = files(tmp_path)
    assert "move it away first" in one_line_error(invoke([*NEW[game], "--force"], save=save))
    assert files(tmp_path) == before
    (tmp_path / "h.toml.unreadable").unlink()
    result = invoke([*NEW[game], "--force"], save=save)
    assert result.exit_code == 0, result.output
    assert (tmp_path / "h.toml.prev").read_bytes() == kept and (tmp_path / "h.toml.unreadable").read_bytes() == damaged
    assert invoke([game, "restore"], save=save).exit_code == 0 and save.read_bytes() == kept


def test_each_game_has_its_own_save_variable(tmp_path):
    """Item 5: $LASSADAR_SOLO_SAVE and $LASSADAR_DUEL_SAVE name each game's save; both set at once work."""
    env = {"LASSADAR_SOLO_SAVE": str(tmp_path / "solo.toml"), "LASSADAR_DUEL_SAVE": str(tmp_path / "duel.toml"),
           "LASSADAR_SAVE": str(tmp_path / "solo.toml")}
    assert invoke([*NEW["solo"], "--seed", "1"], env).exit_code == 0
    assert invoke([*NEW["duel"], "--seed", "1"], env).exit_code == 0
    assert json.loads(invoke(["solo", "status", "--json"], env).stdout)["phase"] == "draw"
    assert invoke(["duel", "status"], env).exit_code == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["duel.toml", "solo.toml"]


@pytest.mark.parametrize("game, other", [("solo", "duel"), ("duel", "solo")])
def test_lassadar_save_naming_the_other_games_save_is_refused_in_one_line(tmp_path, game, other):
    """Item 5: $LASSADAR_SAVE still serves a game whose save it holds; naming the other game's save, every
    command of this game is refused in one line saying which variable to set, and the file is left alone."""
    save = tmp_path / "x.toml"
    assert invoke([*NEW[other], "--seed", "1"], {"LASSADAR_SAVE": str(save)}).exit_code == 0
    assert invoke([other, "status"], {"LASSADAR_SAVE": str(save)}).exit_code == 0
    before = files(tmp_path)
    variable = {"solo": "LASSADAR_SOLO_SAVE", "duel": "LASSADAR_DUEL_SAVE"}[game]
    for args in ([game, "status"], NEW[game], [game, "restore"]):
        line = one_line_error(invoke(args, {"LASSADAR_SAVE": str(save)}))
        assert "$LASSADAR_SAVE names this file" in line and f"${variable}" in line and "--save PATH" in line
    assert files(tmp_path) == before


@pytest.mark.parametrize("game", ["solo", "duel"])
def test_help_names_the_games_own_variable(game):
    result = CliRunner().invoke(main, [game, "status", "--help"], terminal_width=200)
    assert {"solo": "$LASSADAR_SOLO_SAVE", "duel": "$LASSADAR_DUEL_SAVE"}[game] in result.output
    result = CliRunner().invoke(main, [game, "new", "--help"], terminal_width=200)
    assert "--force" in result.output


@pytest.mark.parametrize("key, value, says", [("wardens", '"A\\nB"', "control characters"), ("shadowmajik", "5", "not integer"),
                                             ("wardens", "{ a = 1 }", "not table"), ("shadowmajik", "1979-05-27", "not date")])
def test_a_bad_player_name_in_a_save_is_named_at_its_key(tmp_path, key, value, says):
    """Thirtieth breaker (LOW 7): a player's name of a save that cannot be a name was blamed on "[setup] player name"
    (and a name that is no text on "the row of Locations"): the line names its key, `[setup] wardens`. Thirty-second
    breaker (LOW 8): the kind of a wrong value in TOML's words (integer, table, date), never Python's (int, dict)."""
    import re

    save = tmp_path / "n.toml"
    assert invoke([*NEW["duel"], "--seed", "1"], save=save).exit_code == 0
    text = save.read_text(encoding="utf-8")
    edited = re.sub(rf"(?m)^{key} = .*$", lambda _: f"{key} = {value}", text, count=1)
    assert edited != text
    save.write_text(edited, encoding="utf-8")
    said = one_line_error(invoke(["duel", "status"], save=save))
    assert f"[setup] {key}: " in said and says in said, said


@pytest.mark.parametrize("game, find, replace, says", [
    ("solo", '"solo.spell.bind"', '"bind"', '[setup] spells: "bind" is no spell id; a save holds ids such as solo.spell.'),
    ("solo", 'difficulty = "normal"', "difficulty = 2", "[setup] difficulty: a difficulty is a string"),
    # thirty-second breaker (MED 4): a value was said in the words of `new` ("choose", "take", "deal"), at no key
    ("solo", 'difficulty = "normal"', 'difficulty = "hard"',
     '[setup] difficulty: "hard" is no difficulty; a save holds "beginner", "normal" or "advanced"'),
    ("solo", 'difficulty = "normal"', 'difficulty = "Normal"', '[setup] difficulty: "Normal" is no difficulty'),
    ("solo", '"solo.spell.shield"', '"solo.spell.bind"', "[setup] spells: solo.spell.bind is written twice"),
    ("solo", '"solo.spell.shield"', '"solo.spell.shield", "solo.spell.calm"', "[setup] spells: 3 spells; a save holds the two"),
    ("duel", '"duel.location.', '"', '[setup] row: "'),
    ("solo", 'difficulty = "normal"', 'difficulty = "normal"\nspells = 3', None),  # a key twice: TOML refuses it
    ("duel", "row = [\n", "row = [\n    5,\n", "[setup] row: a list of Location ids"),
])
def test_a_hand_edited_setup_is_named_at_its_key_in_the_saves_own_words(tmp_path, game, find, replace, says):
    """Thirty-first breaker (MED 3): `spells = ["bind", ...]` was refused with "no spell 'bind'; spells are: bind, ..." (the
    short names, not the ids a save holds), and `difficulty = 2` or a row of numbers with "[setup] needs difficulty and
    spells" / "needs the row", though the keys were there. Each is one line at its key, in the save's own terms."""
    save = tmp_path / "s.toml"
    assert invoke([*NEW[game], "--seed", "1"], save=save).exit_code == 0
    text = save.read_text(encoding="utf-8")
    assert find in text
    save.write_text(text.replace(find, replace, 1), encoding="utf-8")
    before = save.read_bytes()
    said = one_line_error(invoke([game, "status"], save=save))
    assert says is None or says in said, said
    assert "spells are: bind" not in said and "needs difficulty and spells" not in said and save.read_bytes() == before
    assert not any(word in said for word in ("choose", "take two", "deal ")), said  # the advice of `new`, not of a save


@pytest.mark.parametrize("edit, says", [
    ("twice", "[setup] row: {first} is written twice; a save holds the 7 Locations dealt, each once"),
    ("short", "[setup] row: 6 Locations; a save holds the 7 Locations dealt"),
    ("removed", "[setup] row and removed disagree"),
])
def test_a_hand_edited_duel_row_is_named_at_its_key(tmp_path, edit, says):
    """Thirty-second breaker (MED 4): a row with one Location written twice or one line removed was refused as "deal 7
    different Locations in the row" (the words of `new`), and a row edited to a removed Location blamed `removed`. Each
    is one line at `[setup] row` (both keys where they disagree); the file is not changed (description, Setup: 7 dealt)."""
    save = tmp_path / "d.toml"
    assert invoke([*NEW["duel"], "--seed", "1"], save=save).exit_code == 0
    text = save.read_text(encoding="utf-8")
    setup = tomllib.loads(text)["setup"]
    first, second = setup["row"][:2]
    line = f'    "{second}",\n'
    assert line in text
    edited = {"twice": text.replace(line, f'    "{first}",\n', 1), "short": text.replace(line, "", 1),
              "removed": text.replace(line, f'    "{setup["removed"][0]}",\n', 1)}[edit]
    save.write_text(edited, encoding="utf-8")
    before = save.read_bytes()
    said = one_line_error(invoke(["duel", "status"], save=save))
    assert says.format(first=first) in said, said
    assert save.read_bytes() == before


@pytest.mark.parametrize("game, pattern, replace, says", [
    ("solo", r'(?m)^database = .*$', 'database = ""', 'database: "" is no database fingerprint'),
    ("duel", r'(?m)^database = .*$', "database = 5", "database: 5 is no database fingerprint"),
    ("solo", r'(?m)^database = .*$', 'database = "' + "0" * 64 + '"', "or this save's `database` line was edited"),
    ("solo", r"(?m)^seed = .*\n", "", "it has no `seed` line"),
    ("duel", r"(?m)^seed = .*$", "seed = -1", "seed: -1 is below 0"),
    ("duel", r'(?m)^dice = .*$', "dice = 5", "[setup] dice: 5 is no dice scheme"),
    ("duel", r'(?s)removed = \[.*?\]', 'removed = ["solo.quest.randven"]', "[setup] row and removed disagree"),
])
def test_a_hand_edited_envelope_or_setup_value_is_named_as_written(tmp_path, game, pattern, replace, says):
    """Thirty-first breaker (MED 4, LOWs 8 and 9): an emptied `database` line was said as "the card database changed"; a
    missing seed as "not an integer"; a negative seed, which `new --seed -1` refuses, was played from; `dice = 5` was
    echoed as '5'; any `[setup] removed` passed. Each is one line naming its key and the value as the save writes it;
    the file is not changed."""
    import re

    save = tmp_path / "s.toml"
    assert invoke([*NEW[game], "--seed", "1"], save=save).exit_code == 0
    text = save.read_text(encoding="utf-8")
    edited = re.sub(pattern, lambda _: replace, text, count=1)
    assert edited != text
    save.write_text(edited, encoding="utf-8")
    before = save.read_bytes()
    said = one_line_error(invoke([game, "status"], save=save))
    assert says in said, said
    assert save.read_bytes() == before


@pytest.mark.parametrize("game", ["solo", "duel"])
def test_restore_over_an_unreadable_save_keeps_it_aside_not_in_prev(tmp_path, game):
    """Thirty-first breaker (LOW 5): `restore` over a save that had turned to junk called it "the game you were playing"
    and swapped it into .prev, where it blocked the next `new --force`. It is kept in .unreadable, as `new --force` keeps
    it, and the game comes back; with .unreadable taken, nothing moves."""
    save = tmp_path / "r.toml"
    assert invoke([*NEW[game], "--seed", "1"], save=save).exit_code == 0
    assert invoke(PLAY[game], save=save).exit_code == 0
    assert invoke([*NEW[game], "--seed", "2", "--force"], save=save).exit_code == 0
    kept = (tmp_path / "r.toml.prev").read_bytes()
    save.write_bytes(b"junk\n")
    (tmp_path / "r.toml.unreadable").write_bytes(b"mine")
    before = files(tmp_path)
    assert "in the way" in one_line_error(invoke([game, "restore"], save=save)) and files(tmp_path) == before
    (tmp_path / "r.toml.unreadable").unlink()
    result = invoke([game, "restore"], save=save)
    assert result.exit_code == 0 and "the game you were playing" not in result.stdout, result.output
    assert save.read_bytes() == kept and (tmp_path / "r.toml.unreadable").read_bytes() == b"junk\n"
    assert not (tmp_path / "r.toml.prev").exists()
    assert invoke([*NEW[game], "--seed", "3", "--force"], save=save).exit_code == 0  # not blocked any more


@pytest.mark.parametrize("game", ["solo", "duel"])
@pytest.mark.parametrize("kept", [True, False])
def test_a_command_on_an_unreadable_save_offers_the_way_on_and_it_works(tmp_path, game, kept):
    """Thirty-second breaker (LOW 12): every command but `new` said only that an unreadable save was corrupt, in the
    parser's words. The line offers `restore` when `.prev` keeps a game (the unreadable file then kept in .unreadable),
    else a `new --force` that starts a game as typed; the command offered works as printed (the Next line's contract)."""
    import shlex

    from referee.advice import commands_in

    save = tmp_path / "s.toml"
    assert invoke([*NEW[game], "--seed", "1"], save=save).exit_code == 0
    if kept:
        assert invoke(PLAY[game], save=save).exit_code == 0
        assert invoke([*NEW[game], "--seed", "2", "--force"], save=save).exit_code == 0  # the game played is in .prev
    save.write_text("junk\n", encoding="utf-8")
    said = one_line_error(invoke([game, "status"], save=save))
    offered = commands_in(said)
    assert offered and all(f"--save {shlex.quote(str(save))}" in command for command in offered), said
    assert ("restore" in offered[0]) == kept and "new --force" in offered[-1], offered
    assert all(f"--db {shlex.quote(DB)}" in command for command in offered), offered  # the --db typed, repeated
    result = CliRunner().invoke(main, chosen(shlex.split(offered[0])[1:]), env={"NO_COLOR": "1"})
    assert result.exit_code == 0, result.output
    assert invoke([game, "status"], save=save).exit_code == 0
    assert (tmp_path / ("s.toml.unreadable" if kept else "s.toml.prev")).read_text(encoding="utf-8") == "junk\n"


def test_a_save_is_read_as_toml_1_0_as_the_standard_tomllib_reads_it(tmp_path):
    """Fiftieth breaker, MED 3: saves are TOML 1.0 (as tomli_w writes them and tomllib, the reader of cards.toml, reads
    them); tomli 2.4 reads TOML 1.1 (a table written over several lines, ``\\x`` escapes, times without seconds), which a
    save therefore refuses, in its one corrupt-save line, as before the faster reader."""
    save = tmp_path / "g.toml"
    assert invoke([*NEW["solo"], "--seed", "7"], save=save).exit_code == 0
    assert invoke(PLAY["solo"], save=save).exit_code == 0
    written = save.read_text(encoding="utf-8")
    for edited in (re.sub(r'card = \{ id = ("[^"]+"), typed = (\w+) \}', r'card = {\n id = \1,\n typed = \2,\n}', written),
                   written.replace('"solo.spell.bind"', '"solo.spell.b\\x69nd"'),
                   re.sub(r"^seed = \d+$", "seed = 07:32", written, flags=re.M)):
        assert edited != written
        with pytest.raises(tomllib.TOMLDecodeError):
            tomllib.loads(edited)
        save.write_text(edited, encoding="utf-8")
        line = one_line_error(invoke(["solo", "status"], save=save))
        assert "corrupt or truncated save file" in line, line
        assert save.read_text(encoding="utf-8") == edited


def test_the_referee_reads_saves_with_the_standard_tomllib_where_tomli_is_not_installed(tmp_path):
    """Fiftieth breaker, MED 2: an install not brought up to date since tomli was added (``git pull`` on an editable
    install) ran no referee command at all (a traceback at import); it reads saves with the standard tomllib."""
    import os
    import subprocess
    import sys

    save = tmp_path / "g.toml"
    assert invoke([*NEW["solo"], "--seed", "7"], save=save).exit_code == 0
    script = ("import sys; sys.modules['tomli'] = None\n"
              "from referee.entry import main\n"
              "main()\n")
    done = subprocess.run([sys.executable, "-c", script, "solo", "status", "--json", "--save", str(save), "--db", DB],
                          capture_output=True, text=True, cwd=ROOT, env={**os.environ, "NO_COLOR": "1"})
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["phase"]


@pytest.mark.parametrize("game, key", [("solo", "seed"), ("duel", "seed"), ("duel", "shadowmajik")])
def test_a_number_of_more_than_4300_digits_in_a_save_is_a_corrupt_save_at_its_file(tmp_path, game, key):
    """Fiftieth breaker, MED 5: Python refuses to convert such a number; the look at a save before it is read let the
    refusal through, said as "a number ... was typed", naming no file and offering no way on."""
    save = tmp_path / "g.toml"
    assert invoke([*NEW[game], "--seed", "7"], save=save).exit_code == 0
    written = save.read_text(encoding="utf-8")
    edited = re.sub(rf"^{key} = .*$", f"{key} = {'7' * 5000}", written, count=1, flags=re.M)
    assert edited != written
    save.write_text(edited, encoding="utf-8")
    for command in ([game, "status"], PLAY[game]):
        line = one_line_error(invoke(command, save=save))
        assert line.startswith(f"Error: {save}: corrupt save file: a number of more than 4,300 digits") and "new --force" in line, line
        assert save.read_text(encoding="utf-8") == edited
