"""Issue 10, "every Next line works" (referee.advice, R77, R78, R80, R81): whole games of Ruin & Renewal I
played only by typing what the Next line offers.

Each game starts with `referee duel new --seed N`; from then on every command is one of the back-quoted
commands (:func:`referee.advice.commands_in`) of the Next line the previous command printed, chosen to
fit the mode, with only its placeholders (:func:`referee.advice.placeholders_in`) filled in: ``D`` with a
die from a seeded ``random.Random``, ``LOCATION`` with a legal choice of the rules (``legal_markers``,
``legal_recalls``) written as the row number, the id or the printed name, ``SEAL`` and ``OPENING``
with what `referee duel seal` printed when run as the player's own device would run it, and the hidden
prompt's answer with one of ``legal_assignments`` for the four dice. A game fails on any refusal (a
non-zero exit), on a command whose last line is not a Next line, on a Next line that offers no command
fitting the mode before the game is over, and if the Next line at the end does not offer a
`referee duel new` that works on the finished game's real save file.

Four modes: {the referee rolls the dice (`roll` first), the players type physical dice} x {one terminal
(`commit --player SIDE` with hidden input), two devices (`seal` on the player's device, `commit --sealed
SEAL`, `reveal --open SIDE='OPENING'`)}. With typed dice a reveal that waits for re-rolled dice (R81) is
answered with the offered `reveal --reroll SIDE=D`. Now and then (every seventh command) `referee duel
status --json` must give the same Next line, and its `next_commands` the same commands.

How it runs, for speed: commands run in-process through click's ``CliRunner`` against the real
``referee`` group (``referee.cli.main``), so the real parsing and printing are exercised. The card
database is loaded once (``clitools.load_database`` is patched), and the save file is an in-memory
stand-in (:class:`MemorySave`): ``DuelGame.save`` keeps the game instead of writing its document,
``referee.duel.game.load`` hands back a copy of the game kept instead of replaying the file, and
``referee.save.write_new`` (for `new`) keeps the new game's document. Building and writing the whole
document after every command took most of the run's time, so the round trip is checked once a game:
at its end the game's document (``DuelGame.document()``, what ``save`` writes) is turned into TOML text
and loaded by the real ``duel_game.load`` (replaying every event), which must give the same state; and
the final `referee duel new` runs against that text in a real file with the real ``write_new``. Hidden
input: ``CliRunner``'s input is no terminal, and ``clitools.hidden_prompt`` refuses a non-terminal, so
``clitools.stdin_is_terminal`` is patched to say it is one (click then reads ``input=``).

The slow version (``python -m pytest -m slow tests/test_next_line_duel.py``) plays 200 whole games per
mode, 800 in all (about 4 minutes on one core: 232 s measured); the default run plays 8 per mode (about
10 s).
"""
from __future__ import annotations

import json
import random
import re
import shlex
from collections import Counter
from pathlib import Path

import pytest
import tomli_w
from click.testing import CliRunner

from pnp import database
from referee import advice, clitools
from referee import save as savefile
from referee.cli import main
from referee.duel import game as duel_game
from referee.duel import rules
from referee.eventlog import EventLog
from tests.conftest import ROOT

MODES = [("referee", "terminal"), ("referee", "devices"), ("typed", "terminal"), ("typed", "devices")]
FAST_GAMES = 8
SLOW_GAMES = 200
MAX_COMMANDS = 3000
"""A game longer than this is taken for a Next line that goes round in circles."""

DB = database.load(ROOT / "cards.toml")


class MemorySave:
    """The save file in memory: the game last saved, whose document (``game.document()``, what the real
    ``DuelGame.save`` writes) is made and turned into TOML text only when asked (:attr:`text`, at the
    end of a game): building and writing the whole file after every command took most of the run's time."""

    def __init__(self) -> None:
        self.document: dict | None = None
        self.game: duel_game.DuelGame | None = None

    @property
    def text(self) -> str:
        """The save file as the real ``DuelGame.save`` would write it."""
        return tomli_w.dumps(self.game.document() if self.game is not None else self.document)

    def write(self, path: Path, document: dict) -> None:
        self.document = document
        self.game = None

    def save(self, game: duel_game.DuelGame, path: Path) -> None:
        """``DuelGame.save``: keep the game (:meth:`load` hands out copies of its lists)."""
        self.game = game

    def write_new(self, path: Path, game: str, document: dict, *checks) -> str:
        self.write(path, document)
        self.game = _replay_text(self.text)  # a new game: its setup only
        return ""

    def load(self, path: Path, db: database.Database) -> duel_game.DuelGame:
        """A copy of the game last saved (its lists copied, so a refused command cannot change it)."""
        if self.game is None:
            raise savefile.SaveError(path, "no game saved here; start one with `referee duel new`")
        log = EventLog(self.game.log.initial, lambda s, e: rules.apply(s, db, e))
        log.states, log.events = list(self.game.log.states), list(self.game.log.events)
        return duel_game.DuelGame(db, log)


REAL_WRITE, REAL_WRITE_NEW, REAL_LOAD = savefile.write, savefile.write_new, duel_game.load


def _replay_text(text: str) -> duel_game.DuelGame:
    """The game of a save file's TOML text, by the real loader (replaying every event)."""
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "duel.toml"
        path.write_text(text)
        return REAL_LOAD(path, DB)


@pytest.fixture
def table(monkeypatch, tmp_path):
    """The in-memory save (see the module docstring) with the database loaded once and a 'terminal'."""
    memory = MemorySave()
    monkeypatch.setattr(clitools, "load_database", lambda path=None: DB)
    monkeypatch.setattr(clitools, "stdin_is_terminal", lambda: True)
    monkeypatch.setattr(savefile, "write", memory.write)
    monkeypatch.setattr(savefile, "write_new", memory.write_new)
    monkeypatch.setattr(duel_game, "load", memory.load)
    monkeypatch.setattr(duel_game.DuelGame, "save", lambda game, path: memory.save(game, path))
    memory.tmp_path = tmp_path
    return memory


class Refusal(AssertionError):
    pass


class Player:
    """Plays one game by the Next lines, in one mode."""

    def __init__(self, memory: MemorySave, rng: random.Random, dice: str, devices: str, seed: int, seen: Counter):
        self.memory, self.rng, self.dice, self.devices, self.seed, self.seen = memory, rng, dice, devices, seed, seen
        self.openings: dict[str, str] = {}
        self.history: list[str] = []
        self.runner = CliRunner()
        self.save = str(memory.tmp_path / "duel.toml")

    # ---- running commands ---------------------------------------------------------------------------
    def run(self, args: list[str], input: str | None = None, next_line: bool = True) -> str:
        self.seen[kind(args)] += 1
        self.history.append(shlex.join(args) + (f"   <hidden input: {input.strip()}>" if input else ""))
        result = self.runner.invoke(main, args, env={"NO_COLOR": "1", savefile.ENV: self.save}, input=input)
        if result.exit_code != 0:
            raise Refusal(self.report(f"refused (exit {result.exit_code}): {result.stderr.strip() or result.output.strip()}"))
        if next_line:
            lines = [line for line in result.stdout.splitlines() if line.strip()]
            if not lines or not lines[-1].startswith("Next: "):
                raise AssertionError(self.report(f"no Next line at the end of: {result.stdout!r}"))
        return result.stdout

    def report(self, what: str) -> str:
        tail = "\n  ".join(self.history[-12:])
        return f"mode {self.dice} dice / {self.devices}, game seed {self.seed}: {what}\n  last commands:\n  {tail}"

    @property
    def state(self):
        return self.memory.game.state

    # ---- filling placeholders -------------------------------------------------------------------------
    def location_text(self, location_id: str) -> str:
        """A Location as a player types it: its number in the row, its id's last part, or its printed name."""
        how = self.rng.randrange(3)
        if how == 0:
            return str(next(i for i, p in enumerate(self.state.row, 1) if p.id == location_id))
        return location_id.rsplit(".", 1)[-1] if how == 1 else rules.name(DB, location_id)

    def fill(self, command: str, **values: str) -> list[str]:
        """The command line as a player types it, placeholders filled in and nothing else changed, split
        as a shell splits it: a Location's name goes in as its words, unquoted (``marker Glasswater Ford``);
        an opening goes between the quotes the Next line gives it (``--open wardens='OPENING'``)."""
        def one(match: re.Match) -> str:
            hole = match.group(0)
            if hole == "D":
                return str(self.rng.randint(1, 6))
            if hole == "OPENING":
                side = re.search(r"(\w+)='?$", command[: match.start()]).group(1)
                return self.openings[side]
            if hole in values and values[hole]:
                return values[hole]
            raise AssertionError(self.report(f"no way to fill {hole} in `{command}`"))

        holes = advice.placeholders_in(command)
        typed = re.sub(r"(?<![\w-])(" + "|".join(map(re.escape, sorted(set(holes), key=len, reverse=True))) + r")(?![\w-])",
                       one, command) if holes else command
        words = shlex.split(typed)
        assert words[:2] == ["referee", "duel"], command
        return words[1:]

    # ---- one game -------------------------------------------------------------------------------------
    def play(self) -> None:
        out = self.run(["duel", "new", "--seed", str(self.seed)])
        for _ in range(MAX_COMMANDS):
            next_line = out.strip().splitlines()[-1].removeprefix("Next: ")
            commands = advice.commands_in(next_line)
            if len(self.history) % 7 == 0:  # status --json offers the same commands as the printed Next line
                status = json.loads(self.run(["duel", "status", "--json"], next_line=False))
                assert status["next_commands"] == commands and status["next"] == next_line, self.report("status --json differs")
            if self.state.phase == "over":
                self.finish(commands)
                return
            if not commands:
                raise AssertionError(self.report(f"the Next line offers no command: {next_line}"))
            out = self.step(commands, next_line)
        raise AssertionError(self.report(f"no end after {MAX_COMMANDS} commands"))

    def step(self, commands: list[str], next_line: str) -> str:
        by = {}
        for c in commands:
            by.setdefault(shlex.split(c)[2], []).append(c)
        state = self.state
        if state.phase == "marker":
            command = self.rng.choice(by["marker"])
            return self.run(self.fill(command, LOCATION=self.location_text(self.rng.choice(rules.legal_markers(state)))))
        if state.phase == "recall":
            command = self.rng.choice(by["recall"])
            places = [p for p in rules.legal_recalls(state, state.last.winner) if p]
            location = self.location_text(self.rng.choice(places)) if places and "LOCATION" in command else None
            return self.run(self.fill(command, LOCATION=location or ""))
        if "reveal" in by:
            return self.reveal(by["reveal"], next_line)
        return self.commit(by, next_line)

    def offered(self, commands: list[str], pattern: str, next_line: str) -> str:
        found = [c for c in commands if re.fullmatch(pattern, c)]
        if not found:
            raise AssertionError(self.report(f"no command fits the mode ({pattern}): {next_line}"))
        return found[0]

    def commit(self, by: dict[str, list[str]], next_line: str) -> str:
        sides = sorted({shlex.split(c)[shlex.split(c).index("--player") + 1] for c in by.get("commit", [])})
        if not sides:
            raise AssertionError(self.report(f"no commit offered in the round: {next_line}"))
        side = self.rng.choice(sides)
        if self.dice == "referee":
            rolled = self.state.hands[side].rolled
            if rolled is None:
                command = self.offered(by.get("roll", []), rf"referee duel roll --player {side}", next_line)
                shown = self.run(self.fill(command))
                dice = [int(x) for x in re.search(r"your dice are ([\d ]+)\.", shown).group(1).split()]
                return self.commit_dice(side, dice, advice.commands_in(shown.strip().splitlines()[-1]), shown)
            dice = list(rolled.values)
        else:
            dice = [self.rng.randint(1, 6) for _ in range(4)]
        return self.commit_dice(side, dice, by["commit"] + by.get("seal", []), next_line)

    def commit_dice(self, side: str, dice: list[int], commands: list[str], next_line: str) -> str:
        """Commit ``dice`` for ``side`` with a commands the Next line offered, in this mode."""
        choice = self.rng.choice(rules.legal_assignments(self.state, DB, side, dice)).text()
        if self.devices == "terminal":
            command = self.offered(commands, rf"referee duel commit --player {side}", next_line)
            return self.run(self.fill(command), input=choice + "\n")
        seal_command = self.offered(commands, rf"referee duel seal --player {side}", next_line)
        printed = self.run(self.fill(seal_command), input=choice + "\n", next_line=False)  # on the player's own device
        seal = re.search(r"^Seal[^:]*: +([0-9a-f]{64})$", printed, re.M).group(1)
        self.openings[side] = re.search(r"^Opening[^:]*: (.+)$", printed, re.M).group(1)
        command = self.offered(commands, rf"referee duel commit --player {side} --sealed SEAL", next_line)
        return self.run(self.fill(command, SEAL=seal))

    def reveal(self, commands: list[str], next_line: str) -> str:
        if self.state.opened is not None:  # the reveal waits for re-rolled dice (R81)
            pattern = r"referee duel reveal( --reroll \w+=D(,D)*)+" if self.dice == "typed" else r"referee duel reveal"
            return self.run(self.fill(self.offered(commands, pattern, next_line)))
        pattern = r"referee duel reveal" if self.devices == "terminal" else r"referee duel reveal( --open \w+='OPENING')+"
        return self.run(self.fill(self.offered(commands, pattern, next_line)))

    def finish(self, commands: list[str]) -> None:
        """Game over: the save text replays to the same state by the real loader, and the offered
        `referee duel new` replaces the finished game in a real save file, as typed."""
        replayed = _replay_text(self.memory.text)
        assert replayed.state == self.state, self.report("the save document does not replay to the same state")
        assert "referee duel new" in commands, self.report(f"no `referee duel new` at game over: {commands}")
        path = self.memory.tmp_path / "finished.toml"
        path.write_text(self.memory.text)
        with pytest.MonkeyPatch.context() as mp:  # the real save functions, on a real file
            mp.setattr(savefile, "write", REAL_WRITE)
            mp.setattr(savefile, "write_new", REAL_WRITE_NEW)
            self.history.append("referee duel new   <on the real save file>")
            self.seen["duel new"] += 1
            result = self.runner.invoke(main, shlex.split("referee duel new")[1:], env={"NO_COLOR": "1", savefile.ENV: str(path)})
        if result.exit_code != 0:
            raise Refusal(self.report(f"`referee duel new` refused at game over: {result.stderr.strip()}"))
        assert savefile.held(path) == "duel" and savefile.read(path, "duel")["events"] == []
        path.unlink()
        path.with_name(path.name + ".prev").unlink()


def kind(args: list[str]) -> str:
    """What sort of command ``args`` is, for counting: ``reveal --open``, ``recall LOCATION``, ``commit --sealed`` ..."""
    flags = sorted({a for a in args[2:] if a.startswith("--") and a not in ("--player", "--seed")})
    if args[1] == "recall":
        flags = ["none" if args[2] == "none" else "LOCATION"]
    if args[1] == "commit" and not flags:
        flags = ["(hidden input)"]
    return " ".join(args[:2] + flags)


EXPECTED = {
    "terminal": {"duel commit (hidden input)", "duel reveal"},
    "devices": {"duel seal", "duel commit --sealed", "duel reveal --open"},
    "referee": {"duel roll"},
    "typed": {"duel reveal --reroll"},
}
"""The sorts of command each mode must have run in a long run (besides new, marker and recall)."""


def play_games(memory: MemorySave, dice: str, devices: str, games: int, seed: int) -> Counter:
    """Play ``games`` whole games in one mode; the sorts of command run, counted."""
    rng, seen = random.Random(seed), Counter()
    for _ in range(games):
        Player(memory, rng, dice, devices, rng.randrange(2**31), seen).play()
    return seen


@pytest.mark.parametrize("dice, devices", MODES)
def test_whole_games_by_the_next_line(table, dice, devices):
    """Issue 10: a few whole games per mode, every command taken from the previous Next line, none refused."""
    seen = play_games(table, dice, devices, FAST_GAMES, seed=MODES.index((dice, devices)))
    assert seen["duel new"] == 2 * FAST_GAMES  # each game's first command, and the one its last Next line offers
    print(dict(seen))


@pytest.mark.slow
@pytest.mark.parametrize("dice, devices", MODES)
def test_many_whole_games_by_the_next_line(table, dice, devices):
    """Issue 10: 200 whole games per mode, every command taken from the previous Next line, none refused;
    between them they run every sort of command the mode offers (R29 recalls both ways, R81 re-rolls typed)."""
    seen = play_games(table, dice, devices, SLOW_GAMES, seed=1000 + MODES.index((dice, devices)))
    expected = EXPECTED[dice] | EXPECTED[devices] | {"duel new", "duel marker", "duel recall LOCATION", "duel recall none"}
    assert expected <= set(seen), (expected - set(seen), seen)
