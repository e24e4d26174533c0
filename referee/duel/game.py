"""A *Ruin & Renewal I* game held in memory: the database, the setup and the event log, and its save file.

This module owns the link between the pure rules and the file: :meth:`DuelGame.play` resolves a
command into an event (every die by value) and pushes it; :meth:`DuelGame.save` and :func:`load`
write and read the TOML save file through :mod:`referee.save`, replaying every event.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Sequence

from pnp.database import Database
from referee import save as savefile
from referee.dice import DiceError, check_rolled
from referee.duel import events as ev
from referee.duel import rules
from referee.duel.state import PerSide, State
from referee.eventlog import EventLog

GAME = "duel"


@dataclass
class DuelGame:
    """One two-player game: ``log.states[0]`` is the setup, ``log.events`` the resolved events, ``state`` the present."""

    db: Database
    log: EventLog[State, ev.Event] = field(repr=False)

    @classmethod
    def new(cls, db: Database, seed: int, names: PerSide[str] | None = None, row: Sequence[str] | None = None) -> "DuelGame":
        """A new game after Setup (:func:`rules.new_game`); raises :class:`rules.RuleError` for a bad row."""
        return cls(db, EventLog(rules.new_game(db, seed, names, row), lambda s, e: rules.apply(s, db, e)))

    @property
    def state(self) -> State:
        return self.log.state

    def play(self, event: ev.Event) -> State:
        """Resolve ``event`` (dice by value) and push it; raises :class:`rules.RuleError`, changing nothing."""
        resolved, after = rules.resolve(self.log.state, self.db, event)
        self.log.events.append(resolved)
        self.log.states.append(after)
        return after

    def undo(self) -> ev.Event:
        """Remove the last event; raises :class:`rules.RuleError` when there is none."""
        try:
            return self.log.pop()
        except IndexError:
            raise rules.RuleError("nothing to undo: no command has been played since the setup") from None

    def document(self) -> dict:
        """The save file's TOML document."""
        setup = self.log.initial.setup
        return savefile.document(GAME, self.db.fingerprint, setup.seed, setup.to_dict(), [e.to_dict() for e in self.log.events])

    def save(self, path: Path) -> None:
        """Write the save file atomically; raises :class:`savefile.SaveError`."""
        savefile.write(path, self.document())


def load(path: Path, db: Database) -> DuelGame:
    """Read a save file and replay every event. Raises :class:`savefile.SaveError` naming the file and
    the reason: unreadable, corrupt or truncated, a newer format, another database, a die that is not
    the seed's, or an event that no longer applies."""
    doc = savefile.read(path, GAME, db.fingerprint)
    setup = doc["setup"]
    row, names = setup.get("row"), (setup.get("wardens", "Wardens"), setup.get("shadowmajik", "Shadowmajik"))
    if not isinstance(row, list) or not all(isinstance(x, str) for x in row) or not all(isinstance(n, str) for n in names):
        raise savefile.SaveError(path, "corrupt save file: [setup] needs the row of Locations")
    try:
        game = DuelGame.new(db, doc["seed"], PerSide(*names), row)
    except rules.RuleError as error:
        raise savefile.SaveError(path, f"corrupt save file: setup: {error}") from None
    for number, data in enumerate(doc["events"], 1):
        try:
            event = ev.from_dict(data)
            for value in vars(event).values():
                if hasattr(value, "k") and hasattr(value, "values"):
                    check_rolled(doc["seed"], value)
            game.log.push(event)
        except (ev.EventError, DiceError, rules.RuleError) as error:
            raise savefile.SaveError(path, f"corrupt save file: event {number}: {error}") from None
    return game
