"""A game held in memory, for either referee: the database, the event log over the setup, the save file.

This module owns what both games share between their pure rules and the file: :meth:`RefereeGame.play`
resolves a command into an event (every die and card by value) and pushes it, :meth:`RefereeGame.undo`
pops it, :meth:`RefereeGame.save` writes the TOML save file through :mod:`referee.save`, and
:func:`replay_events` checks and replays the events of a save file. Each game's module (``referee.solo.game``,
``referee.duel.game``) names its rules and how its setup is read.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any, ClassVar

from pnp.database import Database
from referee import save as savefile
from referee.dice import DiceError, check_rolled
from referee.eventlog import EventLog


@dataclass
class RefereeGame:
    """One game: ``log.states[0]`` is the setup, ``log.events`` the resolved events, ``state`` the present.

    Subclasses set ``GAME`` (the save file's game name), ``rules`` (a module with ``resolve(state, db,
    event) -> (event, state)``, ``apply`` and ``RuleError``) and ``events`` (a module with
    ``from_dict`` and ``EventError``).
    """

    GAME: ClassVar[str]
    rules: ClassVar[ModuleType]
    events: ClassVar[ModuleType]

    db: Database
    log: EventLog[Any, Any] = field(repr=False)

    @property
    def state(self) -> Any:
        """The state after the last event."""
        return self.log.state

    def play(self, event: Any) -> Any:
        """Resolve ``event`` (dice and cards by value) and push it; raises the rules' ``RuleError``, changing nothing."""
        resolved, after = self.rules.resolve(self.log.state, self.db, event)
        self.log.events.append(resolved)
        self.log.states.append(after)
        return after

    def undo(self) -> Any:
        """Remove the last event and return it; raises the rules' ``RuleError`` when there is none."""
        try:
            return self.log.pop()
        except IndexError:
            raise self.rules.RuleError("nothing to undo: no command has been played since the setup") from None

    def progress(self) -> str:
        """How far the game is, in words, for ``new`` and ``restore`` (each game adds its own details)."""
        played = len(self.log.events)
        return f"{played} {'command' if played == 1 else 'commands'} played"

    def document(self) -> dict:
        """The save file's TOML document."""
        setup = self.log.initial.setup
        return savefile.document(self.GAME, self.db.fingerprint, setup.seed, setup.to_dict(),
                                 [e.to_dict() for e in self.log.events])

    def save(self, path: Path) -> None:
        """Write the save file atomically; raises :class:`savefile.SaveError`."""
        savefile.write(path, self.document())


def replay_events(game: RefereeGame, doc: dict, path: Path) -> RefereeGame:
    """Push every event of the save document ``doc`` onto ``game`` (just set up), checking that every
    die the referee rolled is the seed's. Raises :class:`savefile.SaveError` naming the event."""
    for number, data in enumerate(doc["events"], 1):
        try:
            event = game.events.from_dict(data)
            for value in vars(event).values():
                if hasattr(value, "k") and hasattr(value, "values"):
                    check_rolled(doc["seed"], value)
            game.log.push(event)
        except (game.events.EventError, DiceError, game.rules.RuleError) as error:
            raise savefile.SaveError(path, f"corrupt save file: event {number}: {error}") from None
    return game
