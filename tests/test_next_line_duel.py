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
``referee`` group, with the database loaded once and the save file in memory (:mod:`tests.nextline`,
shared with the solo test); the save's round trip through the real loader, and the final `referee duel
new` on a real file, are checked once a game, at its end. Hidden input: ``clitools.stdin_is_terminal``
is patched to say yes, so click reads the hidden prompt's answer from ``input=``.

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

import pytest

from referee import advice
from referee.duel import game as duel_game
from referee.duel import rules
from tests import nextline
from tests.nextline import DB

MODES = [("referee", "terminal"), ("referee", "devices"), ("typed", "terminal"), ("typed", "devices")]
FAST_GAMES = 4
SLOW_GAMES = 200
MAX_COMMANDS = 3000
"""A game longer than this is taken for a Next line that goes round in circles."""


@pytest.fixture
def table(monkeypatch, tmp_path):
    """The in-memory save (:class:`tests.nextline.MemorySave`) with the database loaded once and a 'terminal'."""
    return nextline.install(monkeypatch, nextline.MemorySave(duel_game, duel_game.DuelGame, rules, tmp_path))


class Player(nextline.Player):
    """Plays one game by the Next lines, in one mode."""

    game = "duel"

    def __init__(self, memory: nextline.MemorySave, rng: random.Random, dice: str, devices: str, seed: int, seen: Counter):
        super().__init__(memory, rng, f"{dice} dice / {devices}", seed, seen)
        self.dice, self.devices = dice, devices
        self.openings: dict[str, str] = {}

    def kind(self, args: list[str]) -> str:
        return kind(args)

    # ---- filling placeholders -------------------------------------------------------------------------
    def location_text(self, location_id: str) -> str:
        """A Location as a player types it: its number in the row, its id's last part, or its printed name."""
        how = self.rng.randrange(3)
        if how == 0:
            return str(next(i for i, p in enumerate(self.state.row, 1) if p.id == location_id))
        return location_id.rsplit(".", 1)[-1] if how == 1 else rules.name(DB, location_id)

    def fill(self, command: str, **values) -> list[str]:
        """As :meth:`tests.nextline.Player.fill`; an ``OPENING`` goes between the quotes the Next line gives
        it (``--open wardens='OPENING'``): the opening the side's own device printed."""
        sides = iter(re.findall(r"(\w+)='OPENING'", command))
        return super().fill(command, OPENING=lambda: self.openings[next(sides)], **values)

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
        """Game over: the save replays, and the offered `referee duel new` works on the real save file."""
        self.new_on_real_file(commands)


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



@pytest.mark.parametrize("dice, devices", MODES)
def test_whole_games_by_the_next_line(table, dice, devices):
    """Issue 10: a few whole games per mode, every command taken from the previous Next line, none refused."""
    seen = nextline.play_games(Player, table, (dice, devices), FAST_GAMES, seed=MODES.index((dice, devices)))
    assert seen["duel new"] == 2 * FAST_GAMES  # each game's first command, and the one its last Next line offers
    print(dict(seen))


@pytest.mark.slow
@pytest.mark.parametrize("dice, devices", MODES)
def test_many_whole_games_by_the_next_line(table, dice, devices):
    """Issue 10: 200 whole games per mode, every command taken from the previous Next line, none refused;
    between them they run every sort of command the mode offers (R29 recalls both ways, R81 re-rolls typed)."""
    seen = nextline.play_games(Player, table, (dice, devices), SLOW_GAMES, seed=1000 + MODES.index((dice, devices)))
    expected = EXPECTED[dice] | EXPECTED[devices] | {"duel new", "duel marker", "duel recall LOCATION", "duel recall none"}
    assert expected <= set(seen), (expected - set(seen), seen)
