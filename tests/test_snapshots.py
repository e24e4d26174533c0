"""A game in progress finishes under the card database it was started with (issue 14, Balance: saves
written before a tuning were refused as "another database"): every save keeps a copy of its database,
named by fingerprint (``referee/snapshots.py``), and the project ships its earlier ``cards.toml``."""
from __future__ import annotations

import json
import os
from pathlib import Path

from click.testing import CliRunner

from pnp import database
from referee import snapshots
from referee.cli import main
from tests.conftest import ROOT

SOURCE = (ROOT / "cards.toml").read_text(encoding="utf-8")
SHIELD = "cost = { mana = 2 }"


def _referee(*words: str, env: dict[str, str]):
    return CliRunner().invoke(main, list(words), env={"NO_COLOR": "1", **env})


def _own_data(tmp_path: Path) -> dict[str, str]:
    return {"XDG_DATA_HOME": str(tmp_path / "data")}


def test_a_game_goes_on_with_the_database_it_was_started_with(tmp_path):
    """A solo game started with a.toml, then a.toml edited (Shield costs 3 Mana instead of 2): the next
    commands play the game with the copy kept of the database it started with (the save is not refused),
    say so on standard error, and a new game uses the edited file."""
    env = _own_data(tmp_path)
    path, save = tmp_path / "a.toml", tmp_path / "game.toml"
    path.write_text(SOURCE, encoding="utf-8")
    started = database.load(path).fingerprint
    result = _referee("solo", "new", "--difficulty", "normal", "--spells", "bind,shield", "--seed", "3", "--save", str(save),
                      "--db", str(path), env=env)
    assert result.exit_code == 0, result.output
    assert SHIELD in SOURCE
    path.write_text(SOURCE.replace(SHIELD, "cost = { mana = 3 }", 1), encoding="utf-8")
    assert database.load(path).fingerprint != started
    played = _referee("solo", "draw", "--save", str(save), "--db", str(path), env=env)
    assert played.exit_code == 0, played.output
    assert "goes on with the card database it was started with" in played.stderr
    status = _referee("solo", "status", "--json", "--save", str(save), "--db", str(path), env=env)
    assert status.exit_code == 0 and json.loads(status.stdout)["phase"] == "battle"
    saved = save.read_text(encoding="utf-8")
    assert f'database = "{started}"' in saved  # the game stays with its database
    other = tmp_path / "new.toml"
    _referee("solo", "new", "--difficulty", "normal", "--spells", "bind,shield", "--seed", "3", "--save", str(other),
             "--db", str(path), env=env)
    assert f'database = "{database.load(path).fingerprint}"' in other.read_text(encoding="utf-8")


def test_a_copy_edited_after_it_was_kept_is_not_used(tmp_path, monkeypatch):
    """A kept copy is used only while its fingerprint is the save's: a copy edited by hand is ignored, and
    the save is refused as before, in one line, the file unchanged."""
    env = _own_data(tmp_path)
    monkeypatch.setenv("XDG_DATA_HOME", env["XDG_DATA_HOME"])
    monkeypatch.setattr(snapshots, "BUNDLED", tmp_path / "none")  # today's cards.toml is among the bundled ones
    monkeypatch.setattr(snapshots, "SHIPPED", tmp_path / "none.toml")  # and the project's own
    path, save = tmp_path / "a.toml", tmp_path / "game.toml"
    path.write_text(SOURCE, encoding="utf-8")
    _referee("solo", "new", "--difficulty", "normal", "--spells", "bind,shield", "--seed", "3", "--save", str(save),
             "--db", str(path), env=env)
    copy = snapshots.folder() / f"{database.load(path).fingerprint}.toml"
    assert copy.is_file() and copy.read_text(encoding="utf-8") == SOURCE
    copy.write_text(SOURCE.replace(SHIELD, "cost = { mana = 4 }", 1), encoding="utf-8")
    path.write_text(SOURCE.replace(SHIELD, "cost = { mana = 3 }", 1), encoding="utf-8")
    before = save.read_bytes()
    result = _referee("solo", "draw", "--save", str(save), "--db", str(path), env=env)
    assert result.exit_code == 1 and "has been changed since (it is no longer that database)" in result.output
    assert save.read_bytes() == before


def test_each_bundled_earlier_database_loads_with_the_fingerprint_of_its_name():
    """The earlier versions of cards.toml the project ships (referee/bundled_databases) still load under
    today's schema, each with the fingerprint its file is named by; the bundled cards.toml of before the
    balance tuning of issue 14 is among them, or no game started with it could finish."""
    files = sorted(snapshots.BUNDLED.glob("*.toml"))
    assert files
    for path in files:
        assert database.load(path, cache=False).fingerprint == path.stem, path.name
    assert snapshots.find(files[0].stem) is not None


def test_keep_never_fails_and_never_deletes_a_copy(tmp_path, monkeypatch):
    """Keeping a copy never stops a command (a folder that cannot be written is only a copy not kept), and
    no copy is ever deleted (thirteenth breaker: pruning to 100 copies deleted the copy of a game in
    progress after 101 new games with other databases, which a later edit then stopped for good)."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    db = database.load(ROOT / "cards.toml")
    monkeypatch.setattr(snapshots, "BUNDLED", tmp_path / "none")
    monkeypatch.setattr(snapshots, "SHIPPED", tmp_path / "none.toml")
    folder = snapshots.folder()
    folder.parent.mkdir(parents=True, exist_ok=True)
    folder.write_text("a file where the folder would be", encoding="utf-8")
    assert snapshots.keep(db) is not None  # nothing raised; why not said
    folder.unlink()
    folder.mkdir()
    for number in range(150):
        old = folder / f"{number:064x}.toml"
        old.write_text("old", encoding="utf-8")
        os.utime(old, (number, number))
    assert snapshots.keep(db) is None
    assert len(list(folder.glob("*.toml"))) == 151


def test_a_copy_that_cannot_be_kept_is_said_at_new(tmp_path, monkeypatch):
    """Twelfth breaker: with the data folder's `databases` a file, `new` started the game silently and a
    later edit of the database stopped it for good. `new` says in one line that no copy was kept."""
    env = _own_data(tmp_path)
    monkeypatch.setattr(snapshots, "BUNDLED", tmp_path / "none")
    monkeypatch.setattr(snapshots, "SHIPPED", tmp_path / "none.toml")
    blocked = tmp_path / "data" / "lassadar" / "databases"
    blocked.parent.mkdir(parents=True)
    blocked.write_text("a file where the folder would be", encoding="utf-8")
    path, save = tmp_path / "a.toml", tmp_path / "game.toml"
    path.write_text(SOURCE, encoding="utf-8")
    result = _referee("solo", "new", "--difficulty", "normal", "--spells", "bind,shield", "--seed", "3", "--save", str(save),
                      "--db", str(path), env=env)
    assert result.exit_code == 0 and save.is_file()
    assert [line for line in result.stderr.splitlines() if line.startswith("note: no copy of the card database could be kept")]


def test_an_edited_copy_is_named_in_the_refusal(tmp_path, monkeypatch):
    """Twelfth breaker: a kept copy edited by hand was refused as "no copy is kept"; the refusal names the
    copy and says it changed."""
    env = _own_data(tmp_path)
    monkeypatch.setenv("XDG_DATA_HOME", env["XDG_DATA_HOME"])
    monkeypatch.setattr(snapshots, "BUNDLED", tmp_path / "none")
    monkeypatch.setattr(snapshots, "SHIPPED", tmp_path / "none.toml")
    path, save = tmp_path / "a.toml", tmp_path / "game.toml"
    path.write_text(SOURCE, encoding="utf-8")
    _referee("solo", "new", "--difficulty", "normal", "--spells", "bind,shield", "--seed", "3", "--save", str(save),
             "--db", str(path), env=env)
    copy = snapshots.folder() / f"{database.load(path).fingerprint}.toml"
    copy.write_text(SOURCE.replace(SHIELD, "cost = { mana = 4 }", 1), encoding="utf-8")
    path.write_text(SOURCE.replace(SHIELD, "cost = { mana = 3 }", 1), encoding="utf-8")
    result = _referee("solo", "status", "--save", str(save), "--db", str(path), env=env)
    assert result.exit_code == 1 and f"the copy kept in {copy} has been changed since" in result.output
