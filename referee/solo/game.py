"""A solo game held in memory (:class:`SoloGame`), and the solo game as the shared layer sees it (:data:`RULES`).

This module owns the link between the solo rules and the shared layer (:mod:`referee.game`):
:class:`SoloGameRules` gives the solo rules, legal events, Next line and words as one
:class:`~referee.game.GameRules` object, and :func:`load` reads a save file through
:func:`referee.game.load_game`, replaying every event.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any, ClassVar, Self

import pnp.database
from pnp.database import Database
from pnp.deferred import dataclass
from pnp.oneline import listed
from referee import checkpoint, dice
from referee import events as shared_events
from referee.errors import ParseError, RuleError, as_written, check_keys, id_list_problem, toml_kind
from referee.game import GameRules, RefereeGame, SaveCheck, check_save, load_game
from referee.solo import advice, core, expanded, legal, rules, start, view
from referee.solo import events as ev
from referee.solo import state as state_module
from referee.solo.state import State

MAX_UNDONE = 100_000
"""How far beyond the game's own counts a save's ``referee_shown`` marks may reach."""


def on_the_table(state: State) -> tuple[Any, ...]:
    """What of ``state`` lies on the players' table: the tracks (Mana, Spirit, Grayking), the Warding Keys, the spell cards
    learnt, used and recharged, the Elders, the quest cards' places (deck, discard, out of the game, the card in play),
    the warden's and servants' markers and hit points and the round on a battle map, the Last Stand's hit points. Dice
    rolled and a battle's progress are not on it."""
    board = state.map_battle
    stand = state.last_stand
    return (state.mana, state.spirit, state.grayking, state.keys, state.spells, state.used, state.elders, state.deck,
            state.discard, state.removed, state.card,
            None if board is None else (board.map, board.warden, board.servants, board.round, board.recharged),
            None if stand is None else (stand.hit_points, stand.recharged_at))


TRACK_MARKERS = (("Mana", "mana"), ("Spirit", "spirit"), ("Grayking", "grayking"))
"""The markers of the character card's tracks and the Grayking's, named as the cards print them, with their state fields."""


def _off_the_tracks(state: State) -> tuple[Any, ...]:
    """:func:`on_the_table` without the track markers (:data:`TRACK_MARKERS`)."""
    return on_the_table(state)[3:]


def _map_markers(played: State, restored: State, db: Database) -> list[str]:
    """The markers of a battle map an undo moves back (rulebook, Expanded Battles), as :meth:`SoloRules.put_back` names
    them: the warden's (``your marker on A4``), each servant's that moved or left the map (``the Ghast (ghast-1) marker
    (G) on F1``), each servant's hit point marker that moved (``the Ghast (ghast-1) hit point marker on 2``); none when
    either state has no battle on the same map."""
    was, back = played.map_battle, restored.map_battle
    if was is None or back is None or was.map != back.map:
        return []
    said = [f"your marker on {expanded.name(back.warden)}"] if was.warden != back.warden else []
    for servant in back.servants:
        now = next((s for s in was.servants if s.id == servant.id), None)
        if now is None:
            continue
        who = expanded.label(db, servant.id)
        if now.hex != servant.hex or (now.hit_points > 0) != (servant.hit_points > 0):
            said.append(f"the {who} marker ({expanded.marker(db, servant.id)}) on {expanded.name(servant.hex)}")
        if now.hit_points != servant.hit_points:
            said.append(f"the {who} hit point marker on {servant.hit_points}")
    return said


def _spell_and_elder_cards(played: State, restored: State, db: Database) -> list[str]:
    """The spell markers and Elders' cards an undo puts back (rulebook: "place the marker for that spell temporarily to
    the right of the spell icon to show you have used it"; an Elders card is rotated for each use): ``the Shield marker on
    its icon`` (unused again), ``the Bind marker to the right of its icon`` (used again), ``Elder Rhun's card to 3 uses left``,
    each spell or Elder that differs and is on the table in both states, in the order they were learnt or joined."""
    said = []
    for spell in restored.spells:
        if spell in played.spells and (spell in played.used) != (spell in restored.used):
            where = "to the right of its icon" if spell in restored.used else "on its icon"
            said.append(f"the {rules.name(db, spell)} marker {where}")
    uses = dict(played.elders)
    for elder, left in restored.elders:
        if elder in uses and uses[elder] != left:
            said.append(f"{rules.name(db, elder)}'s card to {left} {'use' if left == 1 else 'uses'} left")
    return said


def setup_problem(db: Database, difficulty: str, spells: Sequence[str]) -> str | None:
    """What is wrong with a save file's ``[setup]`` ``difficulty`` and ``spells`` (hand-edited), said at its key with what
    a save holds there, or ``None`` (thirty-second breaker: said in the words of `new`, "choose", "take", at no key).
    A save holds the difficulty and the two starting spells its game began with (rulebook, Setup; docs/rulings.md R3)."""
    starts = list(core.track(db).start)
    if difficulty not in starts:
        return (f"[setup] difficulty: {as_written(difficulty)} is no difficulty; a save holds "
                f"{listed([as_written(start) for start in starts], conjunction='or')}")
    problem = id_list_problem("spells", spells, [spell.id for spell in db.solo.spell], 2, "spell",
                              "the two spells its game began with")
    if problem is not None:
        return problem
    if not start.legal_start(db, *spells):
        return (f"[setup] spells: {spells[0]} and {spells[1]} are no legal start (docs/rulings.md R3); a save holds the "
                f"two spells its game began with")
    return None


class SoloGameRules:
    """The solo game for the shared layer (:class:`referee.game.GameRules`): the rules of
    :mod:`referee.solo.rules`, the legal events of :mod:`referee.solo.legal`, the Next line of
    :mod:`referee.solo.advice` and the words of :mod:`referee.solo.view`."""

    name = "solo"
    rule_error = rules.RuleError
    secret_events: frozenset[str] = frozenset()  # the solo player hides nothing from anyone

    @staticmethod
    def put_back(undone: Sequence[ev.Event], played: State, restored: State, db: Database) -> str:
        """What the players put back after an undo: each track marker that moved, on the space it goes back to (``Put back
        the Mana marker on 14 and the Grayking marker on 16.``: thirty-third breaker, LOW 7, it named no marker), and on a
        battle map each marker that moved, on its hex, and each servant's hit points (:func:`_map_markers`; helper-161:
        undoing a move named no hex), each spell's marker and each Elder's card used or rotated (:func:`_spell_and_elder_cards`),
        then ``Put the other cards and markers back as they were.`` when a card, an Elder joining or leaving or a hit point
        marker of the Last Stand differs too (:func:`on_the_table`, but the map's round, which no piece shows);
        ``""`` when the steps taken back moved none (a typed losing roll that waits for aid: thirtieth breaker, "put the
        cards back" after it)."""
        if on_the_table(played) == on_the_table(restored):
            return ""
        tracks = [f"the {name} marker on {getattr(restored, key)}" for name, key in TRACK_MARKERS
                  if getattr(played, key) != getattr(restored, key)]
        pieces = _map_markers(played, restored, db) + _spell_and_elder_cards(played, restored, db)
        said = f"Put back {listed(tracks + pieces)}." if tracks or pieces else ""
        # the rest is compared with every piece named back in place (and the map's round, which no piece shows: rulebook,
        # Expanded Battles, "Each round of the battle"); an Elder that joined or left is a card said below
        same_elders = {elder for elder, _ in played.elders} == {elder for elder, _ in restored.elders}
        played = replace(played, used=restored.used, elders=restored.elders if same_elders else played.elders)
        was, back = played.map_battle, restored.map_battle
        if was is not None and back is not None and was.map == back.map:
            played = replace(played, map_battle=replace(was, warden=back.warden, servants=back.servants, round=back.round))
        if _off_the_tracks(played) != _off_the_tracks(restored):
            said = f"{said} Put the {'other ' if said else ''}cards and markers back as they were.".strip()
        return said

    decode = staticmethod(ev.from_dict)
    resolve = staticmethod(rules.resolve)
    apply = staticmethod(rules.apply)
    legal_events = staticmethod(legal.legal_events)
    next_step = staticmethod(advice.next_step)
    status = staticmethod(view.status)
    status_lines = staticmethod(view.status_lines)
    event_text = staticmethod(view.event_text)
    setup_line = staticmethod(view.setup_line)
    log_line = staticmethod(view.log_line)

    def undo_problem(self, event: ev.Event, before: State, after: State) -> str | None:
        """:func:`referee.solo.core.undo_problem`: a step that showed the referee's dice, cards or shuffles
        stands (ruling 84)."""
        return core.undo_problem(before, after)

    def refusal_text(self, error: RuleError, state: State, db: Database, last: Any = None) -> str:
        """The line a refusal gets (:func:`referee.solo.advice.refusal_text`: the option its field names
        and what to type instead); a refusal of another kind reads as its message. ``last`` is not read."""
        if isinstance(error, rules.RuleError):
            return advice.refusal_text(error, state, db)
        return str(error)

    def is_over(self, state: State) -> bool:
        """Won or lost."""
        return state.result is not None

    def notes(self, state: State) -> tuple[str, ...]:
        """The rules' notes of the event that led to ``state``."""
        return state.notes

    def log_notes(self, event: ev.Event, after: State) -> tuple[str, ...]:
        """The rules' notes of ``event``."""
        return after.notes

    def load(self, path: Path, db: Database) -> SoloGame:
        """:func:`load`."""
        return load(path, db)

    def check(self, path: Path, db: Database) -> tuple[SaveCheck, SoloGame]:
        """:func:`referee.game.check_save` of a solo game."""
        return check_save(SoloGame, path, db)

    def new(self, db: Database, seed: int, **options: Any) -> SoloGame:
        """:meth:`SoloGame.new`; ``options`` are ``difficulty`` and ``spells``."""
        return SoloGame.new(db, seed=seed, **options)


CODE_FOLDERS = (Path(checkpoint.__file__).parent, Path(__file__).parent, Path(pnp.database.__file__).parent)
"""The code a checkpoint of this game must have been written by (:func:`referee.checkpoint.code_revision`):
the shared referee, this game's rules and the database schema."""

RULES: GameRules[State, ev.Event] = SoloGameRules()
"""The solo game, as :class:`referee.game.GameRules`."""


@dataclass
class SoloGame(RefereeGame):
    """One solo game: ``log.states[0]`` is the setup, ``log.events`` the resolved events, ``state`` the present."""

    rules: ClassVar[GameRules[Any, Any]] = RULES
    codec: ClassVar[checkpoint.StateCodec] = checkpoint.StateCodec((state_module, ev, shared_events, dice))
    code_folders: ClassVar[tuple[Path, ...]] = CODE_FOLDERS

    @classmethod
    def new(cls, db: Database, difficulty: str, spells: Iterable[str], seed: int) -> Self:
        """A new game after Setup; raises :class:`rules.RuleError` for a bad difficulty or spell pair."""
        return cls.start(db, rules.new_game(db, difficulty, spells, seed))

    @classmethod
    def from_setup(cls, db: Database, setup: dict[str, Any], seed: int) -> Self:
        """The game of a save file's ``[setup]`` (``difficulty``, ``spells``); raises
        :class:`~referee.errors.ParseError` without them, :class:`rules.RuleError` as :meth:`new`."""
        check_keys(setup, ("difficulty", "spells"), "[setup]")
        difficulty, spells = setup.get("difficulty"), setup.get("spells")
        if difficulty is None or spells is None:  # each key named, and what it holds (thirty-first breaker)
            raise ParseError(f"[setup] needs {'difficulty' if difficulty is None else 'spells'}")
        if not isinstance(difficulty, str):
            raise ParseError(f"[setup] difficulty: a difficulty is a string (\"normal\"), not {toml_kind(difficulty)}")
        if not isinstance(spells, list) or not all(isinstance(s, str) for s in spells):
            raise ParseError("[setup] spells: a list of spell ids ([\"solo.spell.bind\", ...])")
        problem = setup_problem(db, difficulty, spells)
        if problem is not None:
            raise ParseError(problem)
        return cls.new(db, difficulty, spells, seed)

    def undo(self) -> ev.Event:
        """Take back the last event (:meth:`RefereeGame.undo`), keeping the marks of what the referee showed
        (:attr:`State.dice_shown`, ``deck_shown``, ``shuffles_shown``): its dice, cards and shuffles of the
        step taken back come up again (:func:`referee.solo.core.replays_undone`)."""
        after = self.log.state
        event = super().undo()
        before = self.log.state
        marks = {"dice_shown": max(before.dice_shown, after.dice_shown), "deck_shown": max(before.deck_shown, after.deck_shown),
                 "shuffles_shown": max(before.shuffles_shown, after.shuffles_shown)}
        if any(getattr(before, key) != value for key, value in marks.items()):
            self.log.state = replace(before, **marks)
        return event

    def kept_form(self, state: State) -> State:
        """``state`` with the marks of what the referee showed (:attr:`State.dice_shown`, ``deck_shown``,
        ``shuffles_shown``) at its counters, as a replay of the events gives it: the marks of an undone step
        are kept in ``referee_shown`` (:meth:`memory`) and set again on loading."""
        return replace(state, dice_shown=state.dice_used, deck_shown=state.deck_taken, shuffles_shown=state.shuffles)

    def memory(self) -> dict[str, Any]:
        """``{"referee_shown": {"dice": D, "deck": C, "shuffles": S}}`` while the referee's next dice, cards
        or shuffles were shown before an undo (:func:`referee.solo.core.replays_undone`), else nothing: the
        save file keeps the marks beside the events, which alone would forget them."""
        state = self.state
        if not core.replays_undone(state):
            return {}
        return {"referee_shown": {"dice": state.dice_shown, "deck": state.deck_shown, "shuffles": state.shuffles_shown}}

    def remember(self, memory: dict[str, Any]) -> None:
        """Set what :meth:`memory` wrote on the present state (a save file just read). Raises
        :class:`~referee.errors.ParseError` for a table that is not three counts at or above the game's own
        (dice rolled, cards taken, shuffles made) and at most :data:`MAX_UNDONE` beyond them."""
        if "referee_shown" not in memory:
            return
        shown, state = memory["referee_shown"], self.state
        if not isinstance(shown, dict):
            raise ParseError("referee_shown must be a table: { dice = N, deck = N, shuffles = N }")
        check_keys(shown, ("dice", "deck", "shuffles"), "referee_shown")
        marks = {}
        for key, field, used in (("dice", "dice_shown", state.dice_used), ("deck", "deck_shown", state.deck_taken),
                                 ("shuffles", "shuffles_shown", state.shuffles)):
            value = shown.get(key, used)
            if not isinstance(value, int) or isinstance(value, bool) or not used <= value <= used + MAX_UNDONE:
                raise ParseError(f"referee_shown.{key} is {value!r}; it must be a count from {used} to {used + MAX_UNDONE}")
            marks[field] = value
        self.log.state = replace(state, **marks)

    def progress(self) -> str:
        """``normal game, 12 commands played, the Grayking on space 9 of 20, 1 of 3 Warding Keys``."""
        state = self.state
        keys = len(rules.stats(self.db).keys)
        return (f"{state.setup.difficulty} game, {super().progress()}, the Grayking on space {state.grayking} of "
                f"{rules.lassadar(self.db)}, {len(state.keys)} of {keys} Warding Keys")


def load(path: Path, db: Database) -> SoloGame:
    """Read a save file and replay every event (:func:`referee.game.load_game`). Raises
    :class:`referee.save.SaveError` naming the file and the reason: unreadable, corrupt or truncated, a
    newer format, another database, or an event that no longer applies."""
    return load_game(SoloGame, path, db)
