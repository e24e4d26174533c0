"""A *Ruin & Renewal I* game held in memory: the database, the setup and the event log, and its save file.

This module owns the link between the pure rules and the file: :meth:`DuelGame.play` resolves a
command into an event (every die by value) and pushes it; :meth:`DuelGame.save` and :func:`load`
write and read the TOML save file through :mod:`referee.save`, replaying every event. A saved event
the rules refuse is reported in the words of :func:`referee.duel.advice.refusal_text`, as the command
that played it would be refused.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import ClassVar

from pnp.database import Database
from referee import save as savefile
from referee.duel import advice, rules
from referee.duel import events as ev
from referee.duel.state import PerSide, State
from referee.eventlog import EventLog
from referee.game import RefereeGame, replay_events

GAME = "duel"


@dataclass
class DuelGame(RefereeGame):
    """One two-player game: ``log.states[0]`` is the setup, ``log.events`` the resolved events, ``state`` the present."""

    GAME: ClassVar[str] = GAME
    rules: ClassVar[ModuleType] = rules
    events: ClassVar[ModuleType] = ev

    @classmethod
    def new(cls, db: Database, seed: int, names: PerSide[str] | None = None, row: Sequence[str] | None = None) -> DuelGame:
        """A new game after Setup (:func:`rules.new_game`); raises :class:`rules.RuleError` for a bad row."""
        return cls(db, EventLog(rules.new_game(db, seed, names, row), lambda s, e: rules.apply(s, db, e)))


def _apply_worded(state: State, db: Database, event: ev.Event) -> State:
    """:func:`rules.apply`, its refusal reworded by :func:`referee.duel.advice.refusal_text` (for a save
    file's message, which names the command to type as the command line would)."""
    try:
        return rules.apply(state, db, event)
    except rules.RuleError as error:
        raise rules.RuleError(advice.refusal_text(error, state), error.refusal, error.side, error.field, error.cause) from None


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
        initial = rules.new_game(db, doc["seed"], PerSide(*names), row)
    except rules.RuleError as error:
        raise savefile.SaveError(path, f"corrupt save file: setup: {error}") from None
    game = DuelGame(db, EventLog(initial, lambda s, e: _apply_worded(s, db, e)))
    replay_events(game, doc, path)
    return game
