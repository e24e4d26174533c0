"""The state of a solo game: one frozen record, everything the table shows plus the referee's counters.

This module owns the shape of the state and nothing else; :mod:`referee.solo.rules` makes and changes
states, :mod:`referee.solo.view` prints them.
"""
from __future__ import annotations

import enum
from dataclasses import field
from typing import Any, Literal, TypeVar

from pnp.deferred import dataclass, field_names

_Record = TypeVar("_Record")


def replace(record: _Record, **changes: Any) -> _Record:
    """``record`` (a frozen dataclass of this module) with ``changes``, as :func:`dataclasses.replace`
    gives it, but without calling ``__init__`` again: the state records validate nothing on creation,
    and the rules make millions of copies when :mod:`referee.solo.aid` searches. Raises ``TypeError``
    for a name that is not a field."""
    kind = type(record)
    fields = _FIELDS.get(kind)
    if fields is None:
        fields = _FIELDS[kind] = frozenset(field_names(kind))  # (read from the class body: realises nothing)
    if not changes.keys() <= fields:
        raise TypeError(f"{kind.__name__} has no field {sorted(changes.keys() - fields)[0]!r}")
    copy = object.__new__(kind)
    object.__setattr__(copy, "__dict__", record.__dict__ | changes)  # (one new dict: a quarter faster than two updates)
    return copy


_FIELDS: dict[type, frozenset[str]] = {}
"""The field names of each record type :func:`replace` has copied (checked on every copy, looked up once)."""


class Ending(enum.Enum):
    """How a solo game ended (after python-chess's ``Termination``: a kind, not words; ``State.reason``
    says it in words). The rules decide by it; its value is the ``ending`` of ``status --json``.

    Rulebook, Winning or Losing: ``BARRIER_LOCK``, Barrier Lock cast with all three Warding Keys (won);
    ``SPIRIT_FALLEN``, Spirit below 1 (lost); ``GRAYKING_AT_LASSADAR``, the Grayking reached Lassadar on
    the Progress Track (lost). Last Stand Expansion, fought after Barrier Lock (R49):
    ``LAST_STAND_WON``, the Grayking's last hit point taken (won); ``LAST_STAND_LOST``, Spirit below 1
    in the Last Stand: the Last Stand is lost, but the game stays won, Lassadar saved (R56).
    """

    BARRIER_LOCK = "barrier lock"
    SPIRIT_FALLEN = "spirit fallen"
    GRAYKING_AT_LASSADAR = "grayking at lassadar"
    LAST_STAND_WON = "last stand won"
    LAST_STAND_LOST = "last stand lost"

    @property
    def won(self) -> bool:
        """Whether the game is won (a lost Last Stand leaves it won, R56)."""
        return self not in _GAME_LOST

    @property
    def result(self) -> Literal["won", "lost"]:
        """``won`` or ``lost``: the game's result (:attr:`won`), the ``result`` of ``status --json``."""
        return "won" if self.won else "lost"

    @property
    def defeat(self) -> bool:
        """Whether the player was beaten: the game lost, or the Last Stand lost (R56)."""
        return self in _GAME_LOST or self is Ending.LAST_STAND_LOST


_GAME_LOST = frozenset({Ending.SPIRIT_FALLEN, Ending.GRAYKING_AT_LASSADAR})


class Announcement(str):
    """A note that announces how the game ended, with its :class:`Ending` (the command line colours it by
    the ending, not by its words). Equal to its text, as every other note."""

    ending: Ending

    def __new__(cls, text: str, ending: Ending) -> Announcement:
        made = super().__new__(cls, text)
        made.ending = ending
        return made


Phase = Literal["draw", "battle", "rolled", "loss", "learn", "council", "warding", "map", "stand", "turn", "over"]
MapStep = Literal["move", "attack", "exchange", "eldritch", "eldritch-rolled"]
"""Where a round of an Expanded Battle stands: movement, attacks (``exchange``: one servant's attack
rolled and waiting for a spell or ``accept``), Eldritch Damage (``eldritch-rolled``: the 2d6 waiting)."""


@dataclass(frozen=True)
class Setup:
    """How the game was set up: difficulty, the two starting spells and the seed of its dice and shuffles."""

    difficulty: str
    spells: tuple[str, ...]
    seed: int

    def to_dict(self) -> dict[str, Any]:
        return {"difficulty": self.difficulty, "spells": list(self.spells)}


@dataclass(frozen=True)
class BattleState:
    """The City Quest battle in progress.

    ``casts`` are the spells cast this battle in order (a recharged spell may appear twice),
    ``elders`` the Elders called; ``dice`` and ``enemy`` the dice on the table once rolled;
    ``loss_roll`` the Battle Loss number read from the next card, ``lowered`` the rows Bind, Knot or an
    Elder took off it, ``cancelled`` whether a spell cancelled it. ``named_next`` is the next card the
    player named with the roll (``--next``, an :class:`referee.solo.events.CardRef`) while the roll still
    waits for aid: it is the card turned over when the battle ends (R7).
    """

    card: str
    casts: tuple[str, ...] = ()
    elders: tuple[str, ...] = ()
    dice: tuple[int, ...] = ()
    enemy: tuple[int, ...] = ()
    rolled: bool = False
    loss_roll: int | None = None
    lowered: int = 0
    cancelled: bool = False
    next_card: str | None = None
    named_next: Any = None


@dataclass(frozen=True)
class MapServant:
    """A servant on an Expanded Battle Map: its card ``id``, its ``hex`` (column, row) and ``hit_points`` left
    (0: slain, its marker removed from the map)."""

    id: str
    hex: tuple[int, int]
    hit_points: int


@dataclass(frozen=True)
class Exchange:
    """One servant's attack in phase b, rolled: the servant, both sides' dice, spells cast on it and
    Elders that aided it (Elder San's die is among ``dice``; R50)."""

    servant: str
    dice: tuple[int, ...]
    enemy: tuple[int, ...]
    casts: tuple[str, ...] = ()
    elders: tuple[str, ...] = ()


@dataclass(frozen=True)
class MapBattle:
    """The Expanded Battle in progress on the map ``map`` (rulebook, Expanded Battles).

    ``round`` counts from 1; ``step`` is the phase of the round; ``warden`` the player's hex;
    ``servants`` in the order drawn; ``queue`` the servants still to attack this round; ``magic_near``
    whether a spell was cast this round within Eldritch range of a servant; ``eldritch`` the 2d6 total
    rolled and waiting; ``recharged`` the spell types recharged on the blue cross this battle and
    ``recharged_round`` the round of the last recharge (the warden must leave the hex the round after).
    ``elders`` are the Elders called in this battle (each once a battle, R50), ``before_roll`` those
    called for the next attack roll (Elder San's die joins it); ``elders_aid`` is False only for a
    battle set up by a referee that did not call Elders on the map (an older save, replayed as fought).
    ``magic_cast`` says whether a spell was cast this round at all (R55: Eldritch Damage follows it if a
    servant comes within one hex later in the round); ``no_free_escape`` is False only for a battle set
    up by a referee before rulings 53-55 (an older save, replayed as fought).
    """

    map: str
    warden: tuple[int, int]
    servants: tuple[MapServant, ...]
    round: int = 1
    step: MapStep = "move"
    queue: tuple[str, ...] = ()
    exchange: Exchange | None = None
    magic_near: bool = False
    eldritch: int | None = None
    recharged: tuple[str, ...] = ()
    recharged_round: int | None = None
    elders: tuple[str, ...] = ()
    before_roll: tuple[str, ...] = ()
    elders_aid: bool = True
    magic_cast: bool = False
    no_free_escape: bool = True

    def servant(self, servant_id: str) -> MapServant:
        return next(s for s in self.servants if s.id == servant_id)

    @property
    def living(self) -> tuple[MapServant, ...]:
        """The servants still on the map (hit points above 0), in the order drawn."""
        return tuple(s for s in self.servants if s.hit_points > 0)


@dataclass(frozen=True)
class LastStandState:
    """The Last Stand in progress (rulebook, Last Stand Expansion): the Grayking's ``hit_points``,
    the dice on the table once rolled (``rolled``), spells cast on this roll, and the gray spaces at
    which a spell type was recharged.

    ``elders`` are the Elders called in the Last Stand (each once in it, R51), ``before_roll`` those
    called for the next round's roll (Elder San's die joins it), ``roll_elders`` those that aided the
    roll on the table (Elder San's die is among ``dice``); ``elders_aid`` is False only for a Last Stand
    begun by a referee that did not call Elders in it (an older save, replayed as fought).
    ``outcome`` is ``"won"`` or ``"lost"`` once the Last Stand is over (R56: a lost Last Stand leaves the
    game won, Lassadar saved); ``no_free_escape`` is False only for a Last Stand begun by a referee before
    ruling 53 (an older save, replayed as fought)."""

    hit_points: int
    rolled: bool = False
    dice: tuple[int, ...] = ()
    enemy: tuple[int, ...] = ()
    casts: tuple[str, ...] = ()
    recharged_at: tuple[int, ...] = ()
    rounds: int = 0
    elders: tuple[str, ...] = ()
    before_roll: tuple[str, ...] = ()
    roll_elders: tuple[str, ...] = ()
    elders_aid: bool = True
    outcome: Literal["won", "lost"] | None = None
    no_free_escape: bool = True


@dataclass(frozen=True)
class Pending:
    """A spell choice the player must answer with ``learn`` or ``skip``.

    ``price`` is ``"one-mana"`` (Battle Win row 4) or ``"cost"`` (Council of Wardens: the printed
    bracketed cost); ``count`` how many spells are still to choose; ``source`` names what gave it.
    """

    price: Literal["one-mana", "cost"]
    count: int
    source: str


@dataclass(frozen=True)
class Suspended:
    """A command waiting for the next quest card from the player's own deck (R7): it reached the point
    where the next card is turned over (for ``what``: the Battle Win number, the Battle Loss number, a
    next card value) and no card was named. ``before`` is the state the command was played on, ``event``
    the command (its dice by value), ``shown`` how many of its notes were already printed. The ``turn``
    event names the card, and the command is played again from ``before`` with it."""

    before: State
    event: Any
    shown: int
    what: str


@dataclass(frozen=True)
class State:
    """Everything about a solo game at one moment.

    Tracks: ``mana``, ``spirit`` (1-21 printed; Mana may be 0, Spirit 0 means lost), ``grayking``
    (space on the Progress Track, 1 = Tower of Ash). ``keys`` are the Warding Keys held; ``spells``
    the learned spells in the order learned; ``used`` the spells used in the current battle;
    ``elders`` the Elders beside the stats card as ``(id, uses left)``. Cards: ``deck`` top first,
    ``discard`` bottom first (last is the top), ``removed`` out of the game, ``own_deck`` whether the player drew the last quest card from their
    own shuffled deck (and named it), so the next card must be named too (R7), ``card`` the quest card
    on the table. ``dice_typed`` says whether the last dice entered were typed (None before any), so the
    advice offers the way of rolling in use; ``suspended`` is the command waiting for the next card of
    the player's own deck (phase ``turn``). ``dice_used`` is the index of the next die the referee rolls, ``shuffles`` the
    number of shuffles so far, ``deck_taken`` the number of cards the referee took from the top of its deck.
    ``dice_shown``, ``deck_shown`` and ``shuffles_shown`` are the highest those three counters reached in the
    game, steps taken back by ``undo`` included: while a counter is below its mark, the referee's next
    dice, cards or shuffles were shown before an undo and come up again, and the player's own are refused
    (:func:`referee.solo.core.replays_undone`), so that undo is never a free re-roll. ``consumed`` lists what the last event took from the referee's dice
    and deck (field name, value), which :func:`referee.solo.rules.resolve` writes into the event;
    ``notes`` say in words what the last event did and what to do with the physical cards.
    ``ending`` is how the game ended (an :class:`Ending`; None while it goes on, and again while the Last
    Stand is fought), ``reason`` the same in words for the player; :attr:`result` follows from ``ending``.
    """

    setup: Setup
    mana: int
    spirit: int
    grayking: int
    keys: tuple[int, ...] = ()
    spells: tuple[str, ...] = ()
    used: tuple[str, ...] = ()
    elders: tuple[tuple[str, int], ...] = ()
    deck: tuple[str, ...] = ()
    discard: tuple[str, ...] = ()
    removed: tuple[str, ...] = ()
    card: str | None = None
    phase: Phase = "draw"
    battle: BattleState | None = None
    map_battle: MapBattle | None = None
    last_stand: LastStandState | None = None
    pending: Pending | None = None
    ending: Ending | None = None
    reason: str = ""
    dice_used: int = 0
    shuffles: int = 0
    deck_taken: int = 0
    dice_shown: int = 0
    deck_shown: int = 0
    shuffles_shown: int = 0
    own_deck: bool = False
    dice_typed: bool | None = None
    suspended: Suspended | None = None
    consumed: tuple[tuple[str, Any], ...] = field(default=(), compare=False)
    notes: tuple[str, ...] = field(default=(), compare=False)

    @property
    def result(self) -> Literal["won", "lost"] | None:
        """``won`` or ``lost`` once the game has ended (:attr:`ending`), else None."""
        return None if self.ending is None else self.ending.result

    def player_dice(self) -> tuple[int, ...]:
        """The player's dice on the table, whichever battle rolled them: the Last Stand's round, a map
        exchange, a City Quest battle (empty before a roll)."""
        if self.last_stand is not None:
            return self.last_stand.dice
        if self.map_battle is not None and self.map_battle.exchange is not None:
            return self.map_battle.exchange.dice
        if self.battle is not None:
            return self.battle.dice
        return ()

    def elder_uses(self, elder_id: str) -> int:
        """Uses left of an Elder beside the stats card (0 when it is not there)."""
        return dict(self.elders).get(elder_id, 0)
