"""A solo game held in memory: the database, the setup and the event log, and its save file.

This module owns the link between the pure rules and the file: :meth:`SoloGame.play` resolves a
command into an event (every die and card by value) and pushes it; :meth:`SoloGame.save` and
:func:`load` write and read the TOML save file through :mod:`referee.save`, replaying every event.
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import ClassVar

from pnp.database import Database
from referee import save as savefile
from referee.eventlog import EventLog
from referee.game import RefereeGame, replay_events
from referee.solo import events as ev
from referee.solo import rules

GAME = "solo"


@dataclass
class SoloGame(RefereeGame):
    """One solo game: ``log.states[0]`` is the setup, ``log.events`` the resolved events, ``state`` the present."""

    GAME: ClassVar[str] = GAME
    rules: ClassVar[ModuleType] = rules
    events: ClassVar[ModuleType] = ev

    @classmethod
    def new(cls, db: Database, difficulty: str, spells: Iterable[str], seed: int) -> SoloGame:
        """A new game after Setup; raises :class:`rules.RuleError` for a bad difficulty or spell pair."""
        initial = rules.new_game(db, difficulty, spells, seed)
        return cls(db, EventLog(initial, lambda s, e: rules.apply(s, db, e)))

    def progress(self) -> str:
        """``normal game, 12 commands played, the Grayking on space 9 of 20, 1 of 3 Warding Keys``."""
        state = self.state
        keys = len(rules.stats(self.db).keys)
        return (f"{state.setup.difficulty} game, {super().progress()}, the Grayking on space {state.grayking} of "
                f"{rules.lassadar(self.db)}, {len(state.keys)} of {keys} Warding Keys")


def load(path: Path, db: Database) -> SoloGame:
    """Read a save file and replay every event. Raises :class:`savefile.SaveError` naming the file and
    the reason: unreadable, corrupt or truncated, a newer format, another database, or an event that
    no longer applies."""
    doc = savefile.read(path, GAME, db.fingerprint)
    setup = doc["setup"]
    spells = setup.get("spells")
    if not isinstance(setup.get("difficulty"), str) or not isinstance(spells, list) or not all(isinstance(s, str) for s in spells):
        raise savefile.SaveError(path, "corrupt save file: [setup] needs difficulty and spells")
    try:
        game = SoloGame.new(db, setup["difficulty"], spells, doc["seed"])
    except rules.RuleError as error:
        raise savefile.SaveError(path, f"corrupt save file: setup: {error}") from None
    replayed = replay_events(game, doc, path)
    assert isinstance(replayed, SoloGame)
    return replayed
