"""The harness both Next-line property tests share (issue 10, :mod:`referee.advice`): whole games played
only by typing what each Next line offers, through the real ``referee`` click group in-process.

- :class:`MemorySave`: the save file in memory, for speed. The card database is loaded once
  (``clitools.load_database`` is patched); a game's ``save`` keeps the game instead of writing its
  document; the game module's ``load`` hands back a copy of the kept game instead of replaying the file;
  ``referee.save.write_new`` (for `new`) keeps the new game's document. Building and writing the whole
  document after every command took most of a run's time, so the round trip through the real file is
  checked once a game, at its end (:meth:`MemorySave.replayed`).
- :func:`install`: the patches above, and ``clitools.stdin_is_terminal`` saying yes (click then reads
  the hidden prompt's answer from ``CliRunner``'s ``input=``).
- :class:`Player`: runs commands, keeps the history for the failure report, fills placeholders
  (:func:`referee.advice.placeholders_in`) and checks that every command ends on a Next line.
- :func:`new_on_real_file`: at game over, the offered `referee <game> new` run on the finished game's real
  save text, with the real save functions.
"""
from __future__ import annotations

import random
import re
import shlex
import tempfile
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
import tomli_w
from click.testing import CliRunner

from pnp import database
from referee import advice, clitools
from referee import save as savefile
from referee.cli import main
from tests.conftest import ROOT

DB = database.load(ROOT / "cards.toml")
REAL_WRITE, REAL_WRITE_NEW = savefile.write, savefile.write_new


class Refusal(AssertionError):
    """A command the Next line offered was refused (non-zero exit)."""


class MemorySave:
    """The save file of one game kind in memory: the game last saved (``game``), or the document last
    written (``document``, for `new`). ``game_module`` is ``referee.solo.game`` or ``referee.duel.game``
    (its ``load`` and its game class are replaced while installed), ``rules`` the game's rules module."""

    def __init__(self, game_module: ModuleType, game_class: type, rules: ModuleType, tmp_path: Path) -> None:
        self.game_module, self.game_class, self.rules, self.tmp_path = game_module, game_class, rules, tmp_path
        self.real_load = game_module.load
        self.document: dict | None = None
        self.game: Any = None

    @property
    def text(self) -> str:
        """The save file as the real ``save`` would write it."""
        return tomli_w.dumps(self.game.document() if self.game is not None else self.document)

    def write(self, path: Path, document: dict) -> None:
        self.document, self.game = document, None

    def save(self, game: Any, path: Path) -> None:
        """The game's ``save``: keep the game (:meth:`load` hands out copies of its lists)."""
        self.game = game

    def write_new(self, path: Path, game: str, document: dict, *checks: Any) -> str:
        self.write(path, document)
        self.game = self.replay(self.text)  # a new game: its setup only
        return ""

    def load(self, path: Path, db: database.Database) -> Any:
        """A copy of the game last saved (its lists copied, so a refused command cannot change it)."""
        if self.game is None:
            raise savefile.SaveError(path, "no game saved here; start one with `new`")
        return self.game_class(db, self.game.log.copy())

    def replay(self, text: str) -> Any:
        """The game of a save file's TOML text, by the real loader (replaying every event)."""
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / "save.toml"
            path.write_text(text)
            return self.real_load(path, DB)


def install(monkeypatch: pytest.MonkeyPatch, memory: MemorySave) -> MemorySave:
    """Patch the database loader, the save functions and the terminal check for ``memory`` (see the module)."""
    monkeypatch.setattr(clitools, "load_database", lambda path=None: DB)
    monkeypatch.setattr(clitools, "stdin_is_terminal", lambda: True)
    monkeypatch.setattr(savefile, "write", memory.write)
    monkeypatch.setattr(savefile, "write_new", memory.write_new)
    monkeypatch.setattr(memory.game_module, "load", memory.load)
    monkeypatch.setattr(memory.game_class, "save", lambda game, path: memory.save(game, path))
    return memory


def play_games(player: Callable[..., Player], memory: MemorySave, mode: tuple[str, str], games: int, seed: int) -> Counter:
    """Play ``games`` whole games in one ``mode`` with ``player(memory, rng, *mode, game_seed, seen)``
    (each test's :class:`Player`); the sorts of command run, counted."""
    rng, seen = random.Random(seed), Counter()
    for _ in range(games):
        player(memory, rng, *mode, rng.randrange(2**31), seen).play()
    return seen


Fill = Callable[[], str]
"""What to type for one occurrence of a placeholder (called once per occurrence)."""


class Player:
    """Runs one game's commands in-process and checks each ends on a Next line. ``game`` is ``solo`` or
    ``duel``; ``mode`` names the mode for the failure report; ``seen`` counts the sorts of command run."""

    game = ""

    def __init__(self, memory: MemorySave, rng: random.Random, mode: str, seed: int, seen: Counter) -> None:
        self.memory, self.rng, self.mode, self.seed, self.seen = memory, rng, mode, seed, seen
        self.history: list[str] = []
        self.runner = CliRunner()
        self.save = str(memory.tmp_path / f"{self.game}.toml")

    def kind(self, args: list[str]) -> str:
        """What sort of command ``args`` is, for counting (each test refines it)."""
        return " ".join(args[:2])

    def run(self, args: list[str], input: str | None = None, next_line: bool = True) -> str:
        """Run ``referee ARGS``; a non-zero exit is a :class:`Refusal`, a missing Next line (when
        ``next_line``) an ``AssertionError``. Returns the standard output."""
        self.seen[self.kind(args)] += 1
        self.history.append(shlex.join(args) + (f"   <hidden input: {input.strip()}>" if input else ""))
        result = self.runner.invoke(main, args, env={"NO_COLOR": "1", savefile.ENV: self.save}, input=input)
        if result.exception is not None and not isinstance(result.exception, SystemExit):
            raise AssertionError(self.report(f"traceback: {result.exception!r}")) from result.exception
        if result.exit_code != 0:
            raise Refusal(self.report(f"refused (exit {result.exit_code}): {result.stderr.strip() or result.output.strip()}"))
        if next_line:
            lines = [line for line in result.stdout.splitlines() if line.strip()]
            if not lines or not lines[-1].startswith("Next: "):
                raise AssertionError(self.report(f"no Next line at the end of: {result.stdout!r}"))
        return result.stdout

    def report(self, what: str) -> str:
        tail = "\n  ".join(self.history[-14:])
        return f"mode {self.mode}, game seed {self.seed}: {what}\n  last commands:\n  {tail}"

    @property
    def state(self) -> Any:
        return self.memory.game.state

    def fill(self, command: str, **values: Fill | str | None) -> list[str]:
        """The command line as a player types it, each placeholder filled and nothing else changed, split
        as a shell splits it (without the leading ``referee``). ``D`` is a die of the seeded generator;
        other placeholders take ``values[NAME]`` (a string, or a function called once per occurrence)."""
        def one(match: re.Match) -> str:
            hole = match.group(0)
            if hole == "D":
                return str(self.rng.randint(1, 6))
            value = values.get(hole)
            if callable(value):
                value = value()
            if value:
                return value
            raise AssertionError(self.report(f"no way to fill {hole} in `{command}`"))

        holes = advice.placeholders_in(command)
        typed = re.sub(r"(?<![\w-])(" + "|".join(map(re.escape, sorted(set(holes), key=len, reverse=True))) + r")(?![\w-])",
                       one, command) if holes else command
        words = shlex.split(typed)
        assert words[:2] == ["referee", self.game], command
        return words[1:]

    def offered(self, commands: list[str], pattern: str, next_line: str) -> str:
        """The first offered command that matches ``pattern`` whole; none is an ``AssertionError``."""
        found = [c for c in commands if re.fullmatch(pattern, c)]
        if not found:
            raise AssertionError(self.report(f"no command fits the mode ({pattern}): {next_line}"))
        return found[0]

    def new_on_real_file(self, commands: list[str]) -> None:
        """Game over: the save text replays to the same state by the real loader, and the offered
        `referee <game> new ...` (the first such command, its placeholders filled) replaces the finished
        game in a real save file, as typed."""
        memory = self.memory
        replayed = memory.replay(memory.text)
        assert replayed.state == self.state, self.report("the save document does not replay to the same state")
        offered = [c for c in commands if c.startswith(f"referee {self.game} new")]
        assert offered, self.report(f"no `referee {self.game} new` at game over: {commands}")
        path = memory.tmp_path / "finished.toml"
        path.write_text(memory.text)
        args = self.fill(offered[0])
        with pytest.MonkeyPatch.context() as mp:  # the real save functions, on a real file
            mp.setattr(savefile, "write", REAL_WRITE)
            mp.setattr(savefile, "write_new", REAL_WRITE_NEW)
            self.history.append(shlex.join(args) + "   <on the real save file>")
            self.seen[f"{self.game} new"] += 1
            result = self.runner.invoke(main, args, env={"NO_COLOR": "1", savefile.ENV: str(path)})
        if result.exit_code != 0:
            raise Refusal(self.report(f"`{offered[0]}` refused at game over: {result.stderr.strip() or result.output.strip()}"))
        assert savefile.held(path) == self.game and savefile.read(path, self.game)["events"] == []
        path.unlink()
        path.with_name(path.name + ".prev").unlink()


NEW_CHOICES = {"DIFFICULTY": "normal", "SPELLS": "bind,shield"}
"""A player's own choices for the placeholders of a `new` offered where no game can be read (DIFFICULTY, SPELLS: forty-
seventh referee breaker, KIND 3, the referee never guesses them)."""


def chosen(words: list[str]) -> list[str]:
    """A command's words with the player's choices (:data:`NEW_CHOICES`) in place of its `new` placeholders."""
    return [NEW_CHOICES.get(word, word) for word in words]
