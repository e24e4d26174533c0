"""Issue 10, "every Next line works" (referee.advice, referee.solo.advice; R7, R34, R35, R38): whole solo
games of The Grayking is Risen played only by typing what the Next line offers.

Each game starts with `referee solo new --difficulty ... --spells A,B --seed N` (a random difficulty and
a starting pair the rules accept); from then on every command is one of the back-quoted commands
(:func:`referee.advice.commands_in`) of the Next line the previous command printed, with only its
placeholders (:func:`referee.advice.placeholders_in`) filled in, as a player fills them from the table:

- ``D``: a die of a seeded ``random.Random``;
- ``CARD``: a card of the quest draw pile in any order (the player's own shuffled deck), or of the discard
  pile when the pile is empty (the command reshuffles it first, rulebook Expanded Battles 7), typed as its
  printed name or its id;
- ``SERVANT``: servant cards of different types, one per ``SERVANT`` (rulebook, Expanded Battles 3), as
  the id printed in the card's footer, whole or its last part (cards of one name differ);
- ``HEX``: a hex the rules let the warden reach (``expanded.legal_moves``), as its name (C4) or printed number;
- ``SPELL``: one of the spells the rules let the player learn and pay for (``rules.learnable_now``), as
  its name or id.

Four modes: {the referee's deck (`draw`), the player's own deck (`draw --card CARD`, `turn CARD`, R7)}
x {the referee rolls, the player types the dice (`--dice D,D`, `--enemy`, `--place`, `--counter`)}.
Where the Next line offers both forms of a command, the mode's form is taken; a roll or draw the Next
line offers only in the other mode's form is a failure (the advice lost track of the mode). Among the
other commands the choice is random: aid (cast, elder, recharge) or `accept` on a losing roll, `learn`
or `skip`, a move or a recharge; now and then `warding won|retreat` (R38), `retreat` and `map`; at a
won game the Last Stand mostly. A game fails on any refusal (a non-zero exit), on a traceback, on a
command whose output does not end on a Next line, on a Next line that offers no command before the game
is over, on a note with command-line text (the commands are the Next line's), and if the Next line at
the end does not offer a `referee solo new ...` that works, as typed, on the finished game's real save
file. Every seventh command `referee solo status --json` must give the same Next line, and its
``next_commands`` the same commands.

It runs in-process with the save in memory (:mod:`tests.nextline`, shared with the duel's test). The
slow version (``python -m pytest -m slow tests/test_next_line_solo.py``) plays 200 whole games per mode.
"""
from __future__ import annotations

import json
import random
import re
import shlex
from collections import Counter

import pytest

from referee import advice
from referee.solo import core, expanded, rules
from referee.solo import game as solo_game
from tests import nextline
from tests.nextline import DB, Refusal
from tests.test_solo_text import command_text

MODES = [("referee", "referee"), ("referee", "typed"), ("own", "referee"), ("own", "typed")]
FAST_GAMES = 4
SLOW_GAMES = 200
MAX_COMMANDS = 3000
UNDO_ODDS = 0.04
"""How often a command is an undo of one to three steps instead (the steps are then played again by the
Next line); an undo of a step that showed the referee's dice or cards is refused (ruling 84)."""
"""A game longer than this is taken for a Next line that goes round in circles."""

ROLLS = ("battle", "attack", "eldritch", "servants")
"""The commands whose dice the Next line must offer in the mode's form."""

WEIGHTS = {"learn": 3.0, "move": 3.0, "cast": 1.5, "elder": 1.5, "recharge": 1.0, "accept": 1.0, "skip": 1.0}
"""How often each command is picked among those offered (others: 1)."""


@pytest.fixture
def table(monkeypatch, tmp_path):
    """The in-memory save (:class:`tests.nextline.MemorySave`) with the database loaded once."""
    return nextline.install(monkeypatch, nextline.MemorySave(solo_game, solo_game.SoloGame, rules, tmp_path))


def _sub(command: str) -> str:
    """The sub-command of a Next-line command: ``referee solo draw --card CARD`` -> ``draw``."""
    return shlex.split(command)[2]


class Player(nextline.Player):
    """Plays one solo game by the Next lines, in one mode."""

    game = "solo"

    def __init__(self, memory: nextline.MemorySave, rng: random.Random, deck: str, dice: str, seed: int, seen: Counter):
        super().__init__(memory, rng, f"{deck} deck / {dice} dice", seed, seen)
        self.deck, self.dice = deck, dice

    def run(self, args: list[str], input: str | None = None, next_line: bool = True) -> str:
        """:meth:`tests.nextline.Player.run`, and every note the command left is in the rules' words, with
        no command-line text (issue 11: the commands are the Next line's, :mod:`tests.test_solo_text`)."""
        out = super().run(args, input, next_line)
        for note in self.state.notes if self.memory.game is not None else ():
            assert command_text(note) is None, self.report(f"a note holds {command_text(note)!r}: {note}")
        return out

    def kind(self, args: list[str]) -> str:
        """``solo cast --dice``, ``solo draw --card``, ``solo turn``: the command and its flags, for counting."""
        flags = sorted({a for a in args[2:] if a.startswith("--") and a not in ("--seed", "--difficulty", "--spells", "--json")})
        return " ".join(args[:2] + flags)

    # ---- filling placeholders -------------------------------------------------------------------------
    def typed(self, record_id: str) -> str:
        """A record as a player types it: its printed name or its short id."""
        return rules.name(DB, record_id) if self.rng.random() < 0.5 else rules.short_id(record_id)

    def card(self, quoted: bool) -> str:
        """A card of the player's own deck: an option's value is quoted as a shell needs (``--card 'Ash Vale'``),
        an argument's words go in as they are (``turn Ash Vale``) unless the shell needs quotes (an apostrophe)."""
        state = self.state
        return self.words(self.typed(self.rng.choice(state.deck or state.discard)), quoted)

    @staticmethod
    def words(text: str, quoted: bool = False) -> str:
        """``text`` as typed in a shell: quoted for an option's value or where the shell needs it."""
        return shlex.quote(text) if quoted or not re.fullmatch(r"[\w -]+", text) else text

    def servants(self, count: int):
        """One servant card per type, ``count`` types, as a function handing them out in turn (several cards
        bear one name with different numbers, so a player types the id the footer prints)."""
        by_type: dict[str, list[str]] = {}
        for servant in DB.solo.servant:
            by_type.setdefault(servant.servant_type, []).append(servant.id)
        footer = lambda servant_id: servant_id if self.rng.random() < 0.5 else rules.short_id(servant_id)  # noqa: E731
        chosen = iter(footer(self.rng.choice(by_type[t])) for t in self.rng.sample(sorted(by_type), count))
        return lambda: next(chosen)

    def hex(self) -> str:
        state = self.state
        mb = state.map_battle
        choices = [h for h in expanded.legal_moves(state, DB) if h != mb.warden]
        return expanded.name(self.rng.choice(choices))

    def fill_in(self, command: str) -> list[str]:
        state = self.state
        values = {"CARD": lambda: self.card("--card CARD" in command), "HEX": self.hex,
                  "SPELL": lambda: self.words(self.typed(self.rng.choice(rules.learnable_now(state, DB))))}
        if "SERVANT" in advice.placeholders_in(command):
            values["SERVANT"] = self.servants(advice.placeholders_in(command).count("SERVANT"))
        return self.fill(command, **values)

    # ---- one game -------------------------------------------------------------------------------------
    def start(self) -> str:
        """`referee solo new` with a random difficulty and a starting pair of spells the rules accept."""
        while True:
            difficulty = self.rng.choice(["beginner", "normal", "advanced"])
            pair = self.rng.sample([s.id for s in DB.solo.spell], 2)
            try:
                rules.new_game(DB, difficulty, pair, self.seed)
                break
            except rules.RuleError:
                continue
        spells = ",".join(rules.short_id(s) for s in pair)
        return self.run(["solo", "new", "--difficulty", difficulty, "--spells", spells, "--seed", str(self.seed)])

    def play(self) -> None:
        out = self.start()
        for _ in range(MAX_COMMANDS):
            next_line = out.strip().splitlines()[-1].removeprefix("Next: ")
            commands = advice.commands_in(next_line)
            if len(self.history) % 7 == 0:
                status = json.loads(self.run(["solo", "status", "--json"], next_line=False))
                assert status["next_commands"] == commands and status["next"] == next_line, self.report("status --json differs")
            if not commands:
                raise AssertionError(self.report(f"the Next line offers no command: {next_line}"))
            if self.state.result is not None and not ("last-stand" in map(_sub, commands) and self.rng.random() < 0.7):
                self.new_on_real_file(commands)
                return
            out = self.step(commands, next_line)
        raise AssertionError(self.report(f"no end after {MAX_COMMANDS} commands"))

    def mode_forms(self, commands: list[str], next_line: str) -> dict[str, list[str]]:
        """The offered commands by sub-command, each kept in the mode's form where both forms are offered;
        a draw or roll offered only in the other mode's form is an ``AssertionError``. While steps taken
        back by undo are played again (:func:`referee.solo.core.replays_undone`), the referee's dice and
        deck are the only form and must be the only one offered."""
        replays = bool(core.dice_replayed(self.state))
        typed_dice = self.dice == "typed" and not replays
        own_deck = self.deck == "own" and (not core.deck_replayed(self.state) or self.state.own_deck)
        by: dict[str, list[str]] = {}
        for command in commands:
            by.setdefault(_sub(command), []).append(command)
        for sub, group in by.items():
            if sub in ROLLS:
                dice = [c for c in group if ("D" in advice.placeholders_in(c)) == typed_dice]
                if not dice or (replays and len(dice) != len(group)):
                    raise AssertionError(self.report(f"`{sub}` is not offered with {'typed' if typed_dice else 'referee'} dice only: {next_line}"))
                group = dice
            if sub in ("draw", "servants"):
                own = [c for c in group if ("--card" in c or "--servant" in c) == own_deck]
                if not own:
                    raise AssertionError(self.report(f"`{sub}` is not offered with the {self.deck} deck: {next_line}"))
                group = own
            by[sub] = group
        return by

    def step(self, commands: list[str], next_line: str) -> str:
        rng = self.rng
        played = len(self.memory.game.log.events)
        if played and rng.random() < UNDO_ODDS:  # take back one to three steps; then play on by the Next line
            out = None
            for _ in range(rng.randint(1, min(3, played))):
                log = self.memory.game.log
                if not log.events:
                    break
                stands = core.undo_problem(log.state_at(len(log.events) - 1), log.state) is not None
                try:
                    out = self.run(["solo", "undo"])
                except Refusal as refusal:  # ruling 84: what the referee showed stands
                    assert stands and "ruling 84" in str(refusal), self.report(f"undo refused: {refusal}")
                    break
                assert not stands, self.report("undo took back a step that showed the referee's dice or cards")
            if out is not None:
                return out
        by = self.mode_forms(commands, next_line)
        if "map" in by and rng.random() < 0.05:  # look at the map; it changes nothing
            self.run(self.fill_in(by["map"][0]), next_line=False)
        for rare, odds in (("warding", 0.1), ("retreat", 0.03)):
            if rare in by and rng.random() < odds:
                return self.run(self.fill_in(rng.choice(by[rare])))
        if "cast" in by and any("barrier-lock" in c for c in by["cast"]) and rng.random() < 0.8:
            return self.run(self.fill_in(next(c for c in by["cast"] if "barrier-lock" in c)))
        subs = [s for s in by if s not in ("map", "warding", "retreat", "new")]
        if not subs:
            subs = [s for s in by if s != "map"]
        sub = rng.choices(subs, weights=[WEIGHTS.get(s, 1.0) for s in subs])[0]
        return self.run(self.fill_in(rng.choice(by[sub])))


EXPECTED = {
    ("referee", "deck"): {"solo draw"},
    ("own", "deck"): {"solo draw --card", "solo turn"},
    ("referee", "dice"): {"solo battle", "solo attack", "solo eldritch"},
    ("typed", "dice"): {"solo battle --dice --enemy", "solo attack --dice --enemy", "solo eldritch --dice"},
}
"""The sorts of command each mode must have run in a long run."""
COMMON = {"solo new", "solo accept", "solo learn", "solo skip", "solo council", "solo move", "solo cast",
          "solo last-stand", "solo warding", "solo retreat"}



@pytest.mark.parametrize("deck, dice", MODES)
def test_whole_games_by_the_next_line(table, deck, dice):
    """Issue 10: a few whole solo games per mode, every command taken from the previous Next line, none refused."""
    seen = nextline.play_games(Player, table, (deck, dice), FAST_GAMES, seed=MODES.index((deck, dice)))
    assert seen["solo new"] == 2 * FAST_GAMES  # each game's first command, and the one its last Next line offers
    print(dict(seen))


@pytest.mark.slow
@pytest.mark.parametrize("deck, dice", MODES)
def test_many_whole_games_by_the_next_line(table, deck, dice):
    """Issue 10: 200 whole solo games per mode, every command taken from the previous Next line, none
    refused; between them they run every sort of command the mode offers."""
    seen = nextline.play_games(Player, table, (deck, dice), SLOW_GAMES, seed=1000 + MODES.index((deck, dice)))
    kinds = {" ".join(k.split()[:2]) for k in seen} | set(seen)
    expected = EXPECTED[(deck, "deck")] | EXPECTED[(dice, "dice")] | COMMON
    assert expected <= kinds, (expected - kinds, seen)
