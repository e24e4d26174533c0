"""A game held in memory, for either referee: the database, the event log over the setup, the save file;
and :class:`GameRules`, what the shared layer needs of a game.

This module owns what both games share between their pure rules and the file: :meth:`RefereeGame.play`
resolves a command into an event (every die and card by value) and pushes it, :meth:`RefereeGame.undo`
pops it, :meth:`RefereeGame.save` writes the TOML save file through :mod:`referee.save`, :func:`load_game`
reads one back, from the states its checkpoint keeps (:mod:`referee.checkpoint`) or by replaying its
events (:func:`replay_events`). Each game gives one object satisfying
:class:`GameRules` (``referee.solo.game.RULES``, ``referee.duel.game.RULES``; :func:`rules_for` finds it
by the game's name), held by its :class:`RefereeGame` subclass as :attr:`RefereeGame.rules`: a front end
(the command lines through :mod:`referee.clitools`, the table mode) sets up, loads, plays, undoes, logs
and shows a game through it without importing the game's modules by name.
"""
from __future__ import annotations

import importlib
from collections.abc import Sequence
from dataclasses import field
from pathlib import Path
from typing import Any, ClassVar, Protocol, Self, TypeVar, runtime_checkable

from pnp.database import Database
from pnp.deferred import dataclass
from referee import checkpoint, snapshots
from referee import save as savefile
from referee.dice import Dice, check_rolled
from referee.errors import ParseError, RefereeError, RuleError
from referee.eventlog import EventLog, SavedEvents, as_written

S = TypeVar("S")
E = TypeVar("E")


@runtime_checkable
class GameRules(Protocol[S, E]):
    """What the shared layer needs of one game, for states ``S`` and events ``E``: its rules, legal
    events and words. Each game gives one object satisfying it (a small class delegating to its
    ``rules``, ``legal``, ``advice`` and ``view`` modules); mypy checks it (``RULES: GameRules[State,
    Event] = ...`` in each game's ``game`` module).

    Every method is pure but :meth:`load` (reads a file). ``db`` is the card database the game is
    played with; ``state`` a state of the game's log.
    """

    @property
    def name(self) -> str:
        """The game's name: its save files' ``game`` and its command group (``solo``, ``duel``)."""

    @property
    def rule_error(self) -> type[RuleError]:
        """The game's own :class:`~referee.errors.RuleError` subclass, which its rules raise."""

    @property
    def secret_events(self) -> frozenset[str]:
        """The kinds of event (a save's ``type``) whose values one player may not see (the duel's rolls and placings,
        R77): a damaged one is said without them (:func:`secret_said`)."""

    def put_back(self, undone: Sequence[E], played: S, restored: S, db: Database) -> str:
        """What the players put back on the table after the events ``undone`` were taken back (the state went from
        ``played`` back to ``restored``; ``db`` names the pieces), as a sentence (``Put the cards and markers back as they were.``), or ``""``
        when they moved nothing on the table (a duel's roll or commitment: twenty-ninth breaker; a solo roll that
        waits for aid: thirtieth)."""

    def decode(self, data: Any) -> E:
        """The event a save file's table describes; raises :class:`referee.events.EventError`."""

    def resolve(self, state: S, db: Database, event: E) -> tuple[E, S]:
        """``event`` with every die and card the referee supplies written in by value, and the state
        after it; raises :attr:`rule_error` (changing nothing) for an event the rules refuse now."""

    def apply(self, state: S, db: Database, event: E) -> S:
        """The state after a resolved ``event``; raises :attr:`rule_error` as :meth:`resolve`."""

    def legal_events(self, state: S, db: Database) -> list[E]:
        """Every event the rules accept now, dice the referee would roll left unresolved."""

    def next_step(self, state: S, db: Database) -> str:
        """The Next line: what to do now, with the commands to type (without ``Next: ``)."""

    def refusal_text(self, error: RuleError, state: S, db: Database, last: Any = None) -> str:
        """The one line a player reads for ``error``, raised by an event played on ``state`` of a game of ``db``;
        ``last`` is the last event played before it (what ``undo`` would take back), ``None`` when there is none."""

    def is_over(self, state: S) -> bool:
        """Whether the game has ended (won or lost): no event is accepted any more."""

    def notes(self, state: S) -> tuple[str, ...]:
        """What the event that led to ``state`` did, in words, to print after playing it (the end of the game included)."""

    def status(self, state: S, db: Database) -> dict[str, Any]:
        """The state as one JSON-able object (``status --json``)."""

    def status_lines(self, state: S, db: Database) -> list[tuple[str, str]]:
        """The state as labelled lines (``status``): ``[("Mana", "12"), ...]``."""

    def event_text(self, event: E, db: Database) -> str:
        """A few words naming an event (for ``undo``), never showing hidden dice."""

    def undo_problem(self, event: E, before: S, after: S) -> str | RuleError | None:
        """Why the last event ``event`` (from the state ``before`` it to ``after``) may not be taken back
        (taking it back would let a player choose again knowing dice or cards already shown), or ``None``: its words, or
        the refusal itself with its kind, which the game's ``refusal_text`` completes with what to type instead."""

    def setup_line(self, state: S, db: Database) -> str:
        """The log's first line, the setup: ``  0. new normal spells Bind, Shield seed 3``."""

    def log_line(self, number: int, event: E, after: S, db: Database) -> str:
        """One line of the log: event ``number`` (from 1) and the state ``after`` it."""

    def log_notes(self, event: E, after: S) -> tuple[str, ...]:
        """What ``event`` did, for the verbose log (nothing where the notes would show hidden dice)."""

    def load(self, path: Path, db: Database) -> RefereeGame:
        """The game saved at ``path`` (from its checkpoint, or every event replayed); raises
        :class:`referee.save.SaveError`."""

    def check(self, path: Path, db: Database) -> tuple[SaveCheck, RefereeGame]:
        """:func:`check_save` of the game saved at ``path``; raises :class:`referee.save.SaveError`."""

    def new(self, db: Database, seed: int, **options: Any) -> RefereeGame:
        """A new game after Setup with ``seed`` and the game's own options (its ``new`` command's);
        raises :attr:`rule_error` for options the rules refuse."""


GAMES: dict[str, str] = {"solo": "referee.solo.game", "duel": "referee.duel.game"}
"""Each game's name -> the module that holds its :class:`GameRules` as ``RULES``."""


def rules_for(name: str) -> GameRules[Any, Any]:
    """The :class:`GameRules` of the game ``name`` (``solo``, ``duel``), its module imported the first
    time it is asked for, so a front end plays any game without importing its modules by name. Raises
    ``KeyError`` for a name that is no game's."""
    rules: GameRules[Any, Any] = importlib.import_module(GAMES[name]).RULES
    return rules


G = TypeVar("G", bound="RefereeGame")


@dataclass
class RefereeGame:
    """One game: ``log.states[0]`` is the setup, ``log.events`` the resolved events, ``state`` the present.

    Subclasses set :attr:`rules` (the game's :class:`GameRules`) and :meth:`from_setup` (the game of a
    save file's ``[setup]`` table).
    """

    rules: ClassVar[GameRules[Any, Any]]
    codec: ClassVar[checkpoint.StateCodec]
    """How the game's states are written in a save's checkpoint (the classes of its state and events modules)."""
    code_folders: ClassVar[tuple[Path, ...]]
    """The folders of the code whose revision a checkpoint must match (the shared referee, the game's
    rules, the database schema): :func:`referee.checkpoint.code_revision`."""

    db: Database
    log: EventLog[Any, Any] = field(repr=False)
    revision: str | None = field(default=None, repr=False, compare=False)
    """The :func:`referee.save.revision` of the save file this game was read from or last written as
    (``None`` for a game not yet saved): :meth:`save` writes only over that revision."""

    @classmethod
    def start(cls, db: Database, initial: Any) -> Self:
        """A game of ``db`` whose log starts at the setup state ``initial``, events applied by :attr:`rules`."""
        rules = cls.rules
        return cls(db, EventLog(initial, lambda state, event: rules.apply(state, db, event)))

    @classmethod
    def from_setup(cls, db: Database, setup: dict[str, Any], seed: int) -> Self:
        """The game a save file's ``[setup]`` table and ``seed`` set up, no event played. Raises
        :class:`~referee.errors.ParseError` for a table that is no setup, and the rules' error for a
        setup they refuse."""
        raise NotImplementedError

    @property
    def state(self) -> Any:
        """The state after the last event."""
        return self.log.state

    def play(self, event: Any) -> Any:
        """Resolve ``event`` (dice and cards by value) and push it; returns the new state. Raises the
        rules' :class:`~referee.errors.RuleError` (or a :class:`~referee.errors.ParseError` for dice
        that are no dice), changing nothing."""
        resolved, after = self.rules.resolve(self.log.state, self.db, event)
        self.log.record(resolved, after)
        return after

    def undo(self) -> Any:
        """Remove the last event and return it; raises the rules' ``RuleError`` when there is none or the
        rules keep it (:meth:`GameRules.undo_problem`)."""
        if not self.log.events:
            raise self.rules.rule_error("nothing to undo: no command has been played since the setup")
        problem = self.rules.undo_problem(self.log.events[-1], self.log.state_at(len(self.log.events) - 1), self.log.state)
        if isinstance(problem, RuleError):
            raise problem
        if problem is not None:
            raise self.rules.rule_error(problem)
        return self.log.pop()

    def can_undo(self) -> bool:
        """Whether :meth:`undo` would take back the last event (there is one, and the rules do not keep it)."""
        if not self.log.events:
            return False
        return self.rules.undo_problem(self.log.events[-1], self.log.state_at(len(self.log.events) - 1), self.log.state) is None

    def notes(self) -> tuple[str, ...]:
        """What the last event did, in words (:meth:`GameRules.notes`)."""
        return self.rules.notes(self.state)

    def next_line(self) -> str:
        """The Next line of the present state, without ``Next: `` (:meth:`GameRules.next_step`)."""
        return self.rules.next_step(self.state, self.db)

    def log_lines(self, verbose: bool = False) -> list[str]:
        """The game so far: the setup line, then one line an event, each followed by what it did (``verbose``)."""
        rules, db = self.rules, self.db
        lines = [rules.setup_line(self.log.initial, db)]
        for number, (event, after) in enumerate(zip(self.log.events, self.log.states[1:], strict=True), 1):
            lines.append(rules.log_line(number, event, after, db))
            if verbose:
                lines.extend(f"       {note}" for note in rules.log_notes(event, after))
        return lines

    def progress(self) -> str:
        """How far the game is, in words, for ``new`` and ``restore`` (each game adds its own details)."""
        played = len(self.log.events)
        return f"{played} {'command' if played == 1 else 'commands'} played"

    def document(self) -> dict:
        """The save file's TOML document, with its checkpoint (:func:`referee.checkpoint.kept_at`: the state
        after every 32nd event and after the last, and the one before the last when known without a replay, each in
        :meth:`kept_form`)."""
        setup = self.log.initial.setup
        doc = savefile.document(self.rules.name, self.db.fingerprint, setup.seed, setup.to_dict(),
                                as_written(self.log.events, lambda event: event.to_dict()), self.memory())
        count = len(self.log.events)
        kept = {n: self.kept_form(self.log.state_at(n)) for n in checkpoint.kept_at(count, self.log.knows(count - 1))}
        kept_table = checkpoint.table(self.codec, self.code_revision(), doc, kept) if kept else None
        if kept_table is not None:
            doc[checkpoint.KEY] = kept_table
        return doc

    @classmethod
    def code_revision(cls) -> str:
        """The revision of the code a checkpoint of this game must match (:attr:`code_folders`)."""
        return checkpoint.code_revision(cls.code_folders)

    def kept_form(self, state: Any) -> Any:
        """``state`` as a replay of the events gives it, to be kept in a checkpoint (what the game keeps
        beside its events, :meth:`memory`, is set again on loading): ``state`` itself here."""
        return state

    def memory(self) -> dict[str, Any]:
        """What the game keeps in its save file beside the events (keys of :data:`referee.save.MEMORY`):
        nothing here; a game that remembers something the events do not say overrides it."""
        return {}

    def remember(self, memory: dict[str, Any]) -> None:
        """Take back what :meth:`memory` wrote (the save file's keys of :data:`referee.save.MEMORY`, read
        after the events are replayed). Raises :class:`~referee.errors.ParseError` for a value that does
        not fit; here, any such key (this game writes none)."""
        if memory:
            raise ParseError(f"{', '.join(memory)}: not a key of a {self.rules.name} save")

    def save(self, path: Path) -> None:
        """Write the save file atomically, over the revision this game was read from or last written as
        (:attr:`revision`); raises :class:`savefile.SaveError` (nothing written) when another command wrote
        the file meanwhile or it cannot be written, :class:`referee.savelock.LockError` when a table
        session of another process holds it."""
        self.revision = savefile.write(path, self.document(), expect=self.revision)
        snapshots.keep(self.db)  # so an edit of cards.toml never stops this game (referee.snapshots)


def decode_events(game: G, doc: dict, path: Path) -> list[Any]:
    """The events of the save document ``doc``, read but not applied, each die the referee rolled checked
    against the seed. Raises :class:`savefile.SaveError` naming the event that does not read."""
    return [_decode_event(game, doc, path, number, data) for number, data in enumerate(doc["events"], 1)]


def saved_events(game: G, doc: dict, path: Path) -> SavedEvents[Any]:
    """The events of the save document ``doc`` as :func:`decode_events` reads them, each when first asked for
    (:class:`referee.eventlog.SavedEvents`): for a save whose checkpoint is trusted, whose digest vouches that this
    referee wrote every event as it is (:mod:`referee.checkpoint`). Reading one raises as :func:`decode_events`."""
    return SavedEvents(doc["events"], lambda number, data: _decode_event(game, doc, path, number, data))


def _decode_event(game: G, doc: dict, path: Path, number: int, data: Any) -> Any:
    """The ``number``-th event of ``doc`` (its table ``data``), read and its dice checked (:func:`decode_events`)."""
    rules = game.rules
    try:
        event = rules.decode(data)
        for value in vars(event).values():
            if isinstance(value, Dice):
                check_rolled(doc["seed"], value)
    except RefereeError as error:
        raise savefile.SaveError(path, f"corrupt save file: event {number}: {secret_said(rules, data, str(error))}") from None
    return event


def replay_events(game: G, doc: dict, path: Path) -> G:
    """Push every event of the save document ``doc`` onto ``game`` (just set up), checking that every
    die the referee rolled is the seed's. Raises :class:`savefile.SaveError` naming the event: one that
    does not read (:class:`~referee.errors.ParseError`), or that the rules refuse (in the
    rules' own words, after the event's kind and the key concerned, as an event that does not read is named;
    never with a command to type, which would meet the same refusal: twentieth breaker)."""
    for number, event in enumerate(decode_events(game, doc, path), 1):
        try:
            game.log.push(event)
        except RuleError as error:
            kind = doc["events"][number - 1].get("type", "")
            field = getattr(error, "field", None)
            where = f"{kind} event{f', {field}' if field else ''}: " if kind else ""
            said = secret_said(game.rules, doc["events"][number - 1], f"{where}{error}")
            raise savefile.SaveError(path, f"corrupt save file: event {number}: {said}") from None
        except RefereeError as error:
            said = secret_said(game.rules, doc["events"][number - 1], str(error))
            raise savefile.SaveError(path, f"corrupt save file: event {number}: {said}") from None
    return game


def secret_said(rules: GameRules[Any, Any], data: Any, said: str) -> str:
    """``said`` (why the save's event ``data`` does not read or apply), or, for an event of a secret kind
    (:attr:`GameRules.secret_events`), the same without its values: the refusal of a damaged duel save, which the other
    player may run, printed the Wardens' hidden dice (thirty-fourth breaker, HIGH 3; R77)."""
    kind = data.get("type") if isinstance(data, dict) else None
    if not isinstance(kind, str) or kind.lower() not in rules.secret_events:
        return said
    return (f"{kind} event: its values do not read, or do not apply (not shown: a hand is hidden until the reveal, R77; "
            f"the one who played it can read the save)")


def load_game(cls: type[G], path: Path, db: Database, trust_checkpoint: bool = True) -> G:
    """Read the save file at ``path`` (a game of ``cls``): its events, and the states its checkpoint keeps
    when it can be trusted (:func:`referee.checkpoint.read`) and ``trust_checkpoint``, else every event
    replayed. Raises :class:`savefile.SaveError` naming the file and the reason: unreadable, corrupt or truncated, a newer
    format, another database (when no copy of the one it was played with is kept: :mod:`referee.snapshots`;
    with a copy, the game is loaded with that database), a setup that is none, a die that is not the
    seed's, or an event that no longer applies. A damaged save's error offers the way on
    (:func:`referee.save.with_way_on`: `restore` or `new --force`; thirty-third breaker, MED 5)."""
    try:
        return _load_game(cls, path, db, trust_checkpoint)
    except savefile.SaveError as error:
        raise savefile.with_way_on(error, cls.rules.name, lambda **options: _accepts(cls.rules, db, options)) from None


def _accepts(rules: GameRules[Any, Any], db: Database, options: dict[str, Any]) -> bool:
    """Whether ``rules`` set a new game up with ``options`` (those of its ``new``) and the card database ``db``."""
    try:
        rules.new(db, 0, **options)
    except (RefereeError, KeyError):
        return False
    return True


def _load_game(cls: type[G], path: Path, db: Database, trust_checkpoint: bool) -> G:
    """:func:`load_game` without the way on."""
    try:
        doc, revision = savefile.read_revision(path, cls.rules.name, db.fingerprint)
    except savefile.DatabaseChanged as error:  # the game goes on with the database it was started with, if kept
        kept = snapshots.find(error.saved)
        if kept is None:
            raise savefile.DatabaseChanged(path, error.reason.replace(savefile.NO_COPY_KEPT,
                                                                      snapshots.missing(error.saved)), error.saved) from None
        db = kept
        doc, revision = savefile.read_revision(path, cls.rules.name, db.fingerprint)
    try:
        game = cls.from_setup(db, doc["setup"], doc["seed"])
    except ParseError as error:
        raise savefile.SaveError(path, f"corrupt save file: {error}") from None
    except RuleError as error:
        raise savefile.SaveError(path, f"corrupt save file: setup: {error}") from None
    known = checkpoint.read(cls.codec, cls.code_revision(), doc) if trust_checkpoint else {}
    if known:
        try:
            game.log.resume(saved_events(game, doc, path), known)
        except RuleError as error:  # a kept state the last events no longer apply to: a hand edit
            raise savefile.SaveError(path, f"corrupt save file: {error}") from None
    else:
        game = replay_events(game, doc, path)
    try:
        game.remember({key: doc[key] for key in savefile.MEMORY if key in doc})
    except ParseError as error:
        raise savefile.SaveError(path, f"corrupt save file: {error}") from None
    game.revision = revision
    return game


@dataclass(frozen=True)
class SaveCheck:
    """What ``referee ... check`` found in a save file (:func:`check_save`): ``events`` replayed from the
    setup, every one applying; ``kept`` the event counts whose states the checkpoint keeps (empty when it
    is not trusted, ``untrusted`` saying why); ``differences`` where a kept state differs from the replay
    (:func:`referee.checkpoint.differences`: a fault of the referee, never of the player)."""

    events: int
    kept: tuple[int, ...]
    untrusted: str
    differences: tuple[tuple[int, str], ...]


def check_save(cls: type[G], path: Path, db: Database) -> tuple[SaveCheck, G]:
    """Replay every event of the save at ``path`` from its setup and compare the states its checkpoint
    keeps with the replay (issue 14: a checkpoint is verified against a replay by ``check`` and the
    tests, not on every command). Returns the report and the replayed game. Raises
    :class:`savefile.SaveError` as :func:`load_game` for a save whose events do not replay."""
    game = load_game(cls, path, db, trust_checkpoint=False)
    doc, _ = savefile.read_revision(path, cls.rules.name, game.db.fingerprint)
    kept, untrusted = checkpoint.examine(cls.codec, cls.code_revision(), doc)
    replayed = {n: game.kept_form(game.log.state_at(n)) for n in kept}  # both as kept: the marks of memory() left out
    found = checkpoint.differences(cls.codec, kept, replayed)
    return SaveCheck(len(game.log.events), tuple(sorted(kept)), untrusted, tuple(found)), game
