"""The rules of *Ruin & Renewal I*: pure functions of (state, database, event).

This module owns every rule of the two-player game, each in a function named after it, citing the
publisher's description (``docs/seeds/000_13dfdf9d0b0f4cfb.txt``) and the rulings (``docs/rulings.md``,
R<n>). Legal moves are separate from applying them (python-chess style): :func:`legal_markers`,
:func:`check_assignment`, :func:`legal_assignments`, :func:`legal_recalls` say what may be done (the
building blocks of :func:`referee.duel.legal.legal_events`); :func:`apply` does one event and
:func:`resolve` first fills in the referee's dice. Nothing here reads a file, prints, or draws a random
number: every die comes from :mod:`referee.dice` by its index. Every game number (track lengths,
points, cubes, the nomograph) is read from ``cards.toml``.

The rules write no command line and name no option: a refusal is a :class:`RuleError` carrying its kind
(:class:`Refusal`), side and event field, which :func:`referee.duel.advice.refusal_text` words for the
people at the table; the Next line is :func:`referee.duel.advice.next_step`.
"""
from __future__ import annotations

import enum
import hashlib
import re
from collections.abc import Iterator, Sequence
from dataclasses import replace
from typing import Any

from pnp.database import Database, DuelRules, DuelSpell, Effect, Location, PlayerCard
from pnp.deferred import dataclass
from pnp.oneline import numbers_unmarked
from referee import errors
from referee.dice import Dice, shuffled
from referee.duel import events as ev
from referee.duel.state import (
    OWN_DICE,
    SIDES,
    Assignment,
    Battle,
    DiceScheme,
    Hand,
    Outcome,
    PerSide,
    Place,
    RoundResult,
    Setup,
    Side,
    State,
    Termination,
    other,
)

SIDE_NAMES: dict[str, str] = {"wardens": "Wardens", "shadowmajik": "Shadowmajik"}


class Refusal(enum.Enum):
    """The kinds of refusal the advice layer completes with what to type
    (:func:`referee.duel.advice.refusal_text`); any other refusal reads as its message alone.

    ``GAME_OVER``: any event after the end ("Play continues until one player has gained control over 4
    Locations"); ``WRONG_PHASE``: an event the game does not wait for now; ``ALREADY_ROLLED``: a second
    referee roll of one side in a round (R78); ``ALREADY_COMMITTED``: a second commitment (R77);
    ``NOT_THE_ROLLED_DICE``: a placing that does not use each die the referee rolled once (R71);
    ``BAD_SEAL``: a seal that is no SHA-256 digest, ``SEAL_NOT_OPENED``: a reveal without a sealed
    side's opening; ``SEAL_OF_OTHER_SIDE``: an opening that fits the seal as the other side's seal of it (made with
    the other ``--player``, ruling 88); ``OWN_DICE``: a referee roll for a side that seals its placings on its own device
    (ruling 87); ``REFEREE_DICE``: re-rolled dice typed for a side whose dice the referee rolled (R81); ``ROLL_STANDS``: an
    undo of the referee's roll for a side, whose dice stand (R78): what places them is the advice's to say, as where they
    are placed differs (a one-shot `commit`, the side's own hidden prompt at the table); ``OPENING_DOES_NOT_MATCH``: an
    opening that is not what the side sealed (R77; a save whose reveal says so was edited: its refusal offers no opening to
    give, forty-eighth referee breaker, MED 2).
    (An opened sealed placing that breaks a rule is no refusal: it is void, ruling 82.)
    """

    GAME_OVER = "game over"
    WRONG_PHASE = "wrong phase"
    ALREADY_ROLLED = "already rolled"
    ALREADY_COMMITTED = "already committed"
    NOT_THE_ROLLED_DICE = "not the rolled dice"
    BAD_SEAL = "bad seal"
    SEAL_NOT_OPENED = "seal not opened"
    SEAL_OF_OTHER_SIDE = "seal of the other side"
    OWN_DICE = "own dice"
    REFEREE_DICE = "referee dice"
    ROLL_STANDS = "roll stands"
    OPENING_DOES_NOT_MATCH = "opening does not match"


class RuleError(errors.RuleError):
    """A command the rules do not allow now.

    ``str(error)`` is one line saying why, in the rules' own words: no command line, no option name.
    ``refusal`` is its kind (:class:`Refusal`, ``None`` for one its message says in full), ``side`` the
    side concerned, ``field`` the event field concerned (``"side"``, ``"location"``, ``"assignment"``,
    ``"seal"``, ``"wardens_salt"``, ``"shadowmajik_reroll"`` ...: the CLI names its option), ``cause``
    the refusal a sealed placing met when opened, ``hidden`` the same refusal in words that tell nothing of the
    placing, for a prompt whose input is hidden (R77; ``None``: the message tells nothing), ``detail`` what is wrong
    with the value refused, for the advice to add to its own words (``BAD_SEAL``: :func:`seal_problem`'s).
    :func:`referee.duel.advice.refusal_text` gives the line the CLI prints.
    """

    def __init__(self, message: str, refusal: Refusal | None = None, side: Side | None = None, field: str | None = None,
                 cause: RuleError | None = None, hidden: str | None = None, detail: str | None = None) -> None:
        super().__init__(message)
        self.refusal = refusal
        self.side = side
        self.field = field
        self.cause = cause
        self.hidden = hidden
        self.detail = detail


# ---- Database look-ups -------------------------------------------------------------------------------------
def rules_of(db: Database) -> DuelRules:
    """The numbers of ``[duel.rules]``."""
    return db.duel.rules


def location(db: Database, location_id: str) -> Location:
    """The Location card ``location_id``; raises :class:`RuleError` when there is none."""
    for card in db.duel.location:
        if card.id == location_id:
            return card
    raise RuleError(f"no Location {location_id!r}")


def player(db: Database, side: Side) -> PlayerCard:
    """The player card of ``side``."""
    return next(card for card in db.duel.player if card.side == side)


def spell(db: Database, side: Side, face: int) -> DuelSpell:
    """The spell of die face ``face`` on ``side``'s player card."""
    return next(s for s in player(db, side).spells if s.face == face)


def name(db: Database, location_id: str) -> str:
    """A Location's printed name."""
    return location(db, location_id).name


def who(state: State, side: Side) -> str:
    """``"Ana (Wardens)"`` when the player gave a name, else ``"Wardens"``."""
    given = state.setup.names[side]
    return SIDE_NAMES[side] if given == SIDE_NAMES[side] else f"{given} ({SIDE_NAMES[side]})"


def who_does(state: State, side: Side, singular: str, plural: str, start: bool = True) -> str:
    """``side``'s player as the subject of a verb that agrees with it: ``"Bo (Shadowmajik) chooses"`` for
    a named player (one person), ``"The Shadowmajik choose"`` for a side (a plural, as in "the Wardens
    have"). ``singular`` and ``plural`` are the verb's two forms (``"chooses"``, ``"choose"``; they may
    go on: ``"controls 4 Locations and wins"``); ``start=False`` writes ``the`` for mid-sentence."""
    if state.setup.names[side] != SIDE_NAMES[side]:
        return f"{who(state, side)} {singular}"
    return f"{'The' if start else 'the'} {SIDE_NAMES[side]} {plural}"


def possessive(noun: str) -> str:
    """``noun`` with its possessive ending: ``"Wardens'"``, ``"Shadowmajik's"`` (``'`` after a final s, else ``'s``)."""
    return noun + ("'" if noun.endswith("s") else "'s")


def points_word(db: Database, side: Side) -> str:
    """``MP`` for the Wardens, ``SP`` for the Shadowmajik (their player cards)."""
    return player(db, side).points


def top(db: Database, location_id: str) -> int:
    """The last (highest) space of each side's track on a Location: its ``track_spaces`` (R27)."""
    return location(db, location_id).track_spaces


def current_location(state: State) -> str:
    """The Location fought for now: the one under the yellow marker in the ``round`` and ``recall``
    phases (description: "competing in battle at the current Location card (as designated by the yellow
    cube marker)"). Raises :class:`RuleError` when none is (before the first marker and in the marker
    phase, R79): the callers check the phase first, so this never fires in a game."""
    if state.current is None:
        raise RuleError("no Location is fought for now: the yellow marker waits to be placed")
    return state.current


def round_winner(state: State) -> Side:
    """The winner of the last revealed round, who must take a cube back in the ``recall`` phase (R29).
    Raises :class:`RuleError` when the last round had no winner (a tie, R26) or there was none."""
    if state.last is None or state.last.winner is None:
        raise RuleError("no round has been won yet")
    return state.last.winner


# ---- Setup ----------------------------------------------------------------------------------------------------
def new_game(db: Database, seed: int, names: PerSide[str] | None = None, row: Sequence[str] | None = None,
             dice: DiceScheme = "per-side") -> State:
    """The state after Setup.

    Description, Setup: "The Location cards are shuffled and 7 are dealt face up in a row between the
    players ... The remaining 2 cards are removed from the game." ``row`` is the seven Locations as
    dealt from a physical shuffle (left to right as the Wardens see them); without it the referee
    shuffles (shuffle 0 of ``seed``). "Players each take 4 dice and all 4 of either the white or black
    cubes": 1 marks the point track and 3 are deployable (R24). The point tracks start at 0 (R70).
    The Shadowmajik player places the yellow marker first (R25).

    Raises :class:`RuleError` for a row that is not ``locations_dealt`` different Locations.
    """
    r = rules_of(db)
    ids = [card.id for card in db.duel.location]
    if row is None:
        deck = shuffled(seed, 0, ids)
        dealt = tuple(deck[: r.locations_dealt])
    else:
        dealt = tuple(row)
        unknown = [x for x in dealt if x not in ids]
        if unknown:
            raise RuleError(f"no Location {unknown[0]!r}")
        twice = next((x for i, x in enumerate(dealt) if x in dealt[:i]), None)
        if twice is not None:  # (thirty-third breaker, LOW 13: "not 7 (one twice)", naming neither)
            raise RuleError(f"{name(db, twice)} is dealt twice in the row: deal {r.locations_dealt} different Locations")
        if len(dealt) != r.locations_dealt:
            raise RuleError(f"deal {r.locations_dealt} different Locations in the row, not {len(dealt)}")
    removed = tuple(x for x in ids if x not in dealt)  # in file order, however the row was dealt
    setup = Setup(seed, dealt, removed, names or PerSide("Wardens", "Shadowmajik"), dice)
    return State(setup=setup, row=tuple(Place(x) for x in dealt), points=PerSide(r.points_min, r.points_min),
                 supply=PerSide(r.deployable_cubes, r.deployable_cubes), chooser="shadowmajik", phase="marker")


# ---- The yellow marker ----------------------------------------------------------------------------------
def legal_markers(state: State) -> list[str]:
    """Where the yellow marker may go: any Location still in the row, the current one included (R30).

    Description: "After each round, the losing player decides the next location to move the yellow
    cube to." A controlled Location "will not be contested over again", so it is never a choice.
    """
    return [place.id for place in state.row] if state.phase == "marker" else []


def marker_stands_on(state: State) -> str | None:
    """Where the yellow cube stands on the table: the current Location in a round; in the marker phase
    the last battle's Location while it is still in the row (the cube waits there for the loser to move
    it, but no battle is fought there until it is placed again, R79); ``None`` before the first round
    and once that Location was won (it left the row)."""
    if state.current is not None:
        return state.current
    if state.phase == "marker" and state.last is not None and any(p.id == state.last.location for p in state.row):
        return state.last.location
    return None


# ---- Points and spells ----------------------------------------------------------------------------------
def power_gain(db: Database, value: int, points: int) -> int:
    """The points a Power die of ``value`` adds to a track standing on ``points``.

    Description: "the die value is divided by 2 and rounded up for the total Mana or Shadowmajik
    gained ... A player may never possess more MP or SP than the maximum (6) listed on the track."
    A gain beyond the maximum is lost.
    """
    r = rules_of(db)
    gain = -(-value // r.power_die_divisor)
    return max(0, min(r.points_max, points + gain) - points)


def castable_faces(db: Database, die: int) -> list[int]:
    """The spell faces a Casting die of ``die`` may cast: "a spell equal to the die value or exactly one
    value below die value" (description), never below face 1. Highest first."""
    reach = rules_of(db).casting_reach_below
    return [face for face in range(die, die - reach - 1, -1) if face >= 1]


def spell_cost(state: State, db: Database, side: Side, face: int, where: str | None = None) -> int:
    """What ``side`` pays to cast its spell of ``face`` at the current Location (or ``where``).

    Description: "must pay the listed MP or SP to do so. Certain spells show a Resonance icon next to
    the die face. If the current location has a matching Resonance icon those spells cost 1 less MP
    or SP." Never below 0 (R72).
    """
    s = spell(db, side, face)
    where = where or state.current
    cost = s.cost
    if s.resonance is not None and where is not None and s.resonance in location(db, where).resonance:
        cost -= rules_of(db).resonance_discount
    return max(0, cost)


def forfeit_cost(state: State, db: Database, side: Side) -> int:
    """What ``side`` pays when it forfeits its sealed placing at the reveal (ruling 82, as amended after the
    eighth breaker): the most that placing could have cost, its dearest spell at the current Location that
    its points pay (0 when none). A forfeit is chosen after the other side's opening may have been read,
    so it must never be better than any placing the seal could hold: its Battle Number is 0, it gains
    nothing, and it pays at least what any spell it sealed would have."""
    held = state.points[side] - rules_of(db).points_min
    costs = [spell_cost(state, db, side, s.face) for s in player(db, side).spells]
    return max((c for c in costs if c <= held), default=0)


def _multiset_minus(rolled: Sequence[int], used: Sequence[int]) -> list[int] | None:
    rest = list(rolled)
    for value in used:
        if value not in rest:
            return None
        rest.remove(value)
    return rest


def check_assignment(state: State, db: Database, side: Side, a: Assignment) -> Assignment:
    """Check that ``side`` may place its dice as ``a`` this round; return it completed (the spare die
    of a referee-rolled hand filled in). Raises :class:`RuleError` with one line otherwise.

    Description, Play: "2 Dice are Battle dice"; "1 Die is the Power die"; "1 Die is the Casting die
    ... A player may cast a spell equal to the die value or exactly one value below die value and must
    pay the listed MP or SP to do so"; "You may not use a Power and Casting die on same turn." A spell
    needs the points now on the track: costs are paid before this round's Power die could add any
    (the two are never used together), and never on credit (R31). A hand the referee rolled must be
    placed exactly: every die once (R71). Messages never name the dice or the spell: they show on a
    screen both players see before the reveal (R77). Every refusal's ``field`` is ``"assignment"``.
    """
    label = SIDE_NAMES[side]

    def refuse(message: str, refusal: Refusal | None = None) -> RuleError:
        """The refusal ``message`` of ``side``'s placing (field ``assignment``)."""
        return RuleError(message, refusal, side, "assignment")

    check_placing(db, side, a)
    hand = state.hands[side].rolled
    if hand is not None:
        rest = _multiset_minus(hand.values, a.dice)  # the Battle dice, the active die and any spare named
        if rest is None or (a.spare and rest):
            raise refuse(f"the {label} place a die twice or a die they did not roll: place each rolled die once",
                         Refusal.NOT_THE_ROLLED_DICE)
        a = replace(a, spare=tuple(sorted(a.spare + tuple(rest))))
    if a.cast is not None:
        face = a.spell if a.spell is not None else a.cast
        cost = spell_cost(state, db, side, face)
        if cost > state.points[side]:
            unit = points_word(db, side)
            here = state.current
            where = f" at {name(db, here)}" if here is not None else ""
            # the side's points in back quotes: public (on the board), kept where a hidden prompt leaves the typed
            # numbers out (thirty-ninth referee breaker, LOW 2: "the Wardens have …", and no way on)
            raise refuse(f"not enough {unit} for that spell{where}: the {label} have `{state.points[side]}` {unit}; place "
                         f"the active die as Power, or cast a spell that costs no more")
    return a


def check_placing(db: Database, side: Side, a: Assignment) -> None:
    """The checks of ``side``'s placing ``a`` that need no game (what ``referee duel seal`` can check on a player's own
    device: twenty-fifth breaker, a seal of `battle 3,5 cast 4 spell 2` was printed, and void at the reveal): dice of 1-6,
    exactly one active die, no more dice than a hand, a spell the Casting die may cast (its value or one below), a
    ``reroll`` only with a spell that re-rolls one's own Battle die, naming one of the two Battle dice (description, Play;
    R71, R74). Raises :class:`RuleError` (field ``assignment``): a wrong ``spell`` or ``reroll`` word is named with its
    mistake, its ``hidden`` words one text for all (R77)."""
    def refuse(message: str) -> RuleError:
        return RuleError(message, None, side, "assignment")

    for value in a.battle + ((a.power,) if a.power is not None else ()) + ((a.cast,) if a.cast is not None else ()) + a.spare:
        if not isinstance(value, int) or not 1 <= value <= 6:
            raise refuse(f"a die shows 1-6, not {value!r}")
    if (a.power is None) == (a.cast is None):
        raise refuse("place exactly one active die: the Power die or the Casting die, never both (description: "
                     "\"You may not use a Power and Casting die on same turn\")")
    if len(a.spare) > rules_of(db).dice_per_player - rules_of(db).battle_dice - 1:
        raise refuse(f"{SIDE_NAMES[side]}: only {rules_of(db).dice_per_player} dice: 2 Battle, 1 active, 1 spare")
    # Each wrong `spell` or `reroll` word is refused in words naming the mistake, for the player who typed the placing
    # where it shows (`commit --assign`, `seal --assign`: thirty-first breaker, one message for all named none); where the
    # placing is typed unseen, the refusal is ``hidden``, one text whatever is wrong: a refusal that told a wrong die from
    # a wrong spell, or a Power placing from a cast, would tell what the hidden placing holds (twenty-seventh to
    # twenty-ninth breakers).
    hidden = (f"a `spell` or `reroll` word that does not fit: `spell` goes with a Casting die and names the spell of its "
              f"value or one below; `reroll` names one of your two Battle dice, for a spell that re-rolls one of yours "
              f"({_own_rerolls_in_words(db, side)})")

    def wrong(message: str) -> RuleError:
        return RuleError(message, None, side, "assignment", hidden=hidden)

    if a.cast is None:
        if a.spell is not None:
            raise wrong("`spell` goes with a Casting die (`cast N spell M`): a Power die casts no spell")
        if a.reroll is not None:
            raise wrong(f"`reroll` goes with a Casting die whose spell re-rolls one of your Battle dice "
                        f"({_own_rerolls_in_words(db, side)}): a Power die casts no spell")
        return
    face = a.spell if a.spell is not None else a.cast
    faces = castable_faces(db, a.cast)
    if face not in faces:
        raise wrong(f"a Casting die of {a.cast} casts the spell of {' or '.join(map(str, faces))}, not {face}")
    if a.reroll is not None and not spell(db, side, face).effect.reroll_battle_die:
        raise wrong(f"{spell(db, side, face).name} re-rolls none of your Battle dice: {_own_rerolls_in_words(db, side)}")
    if a.reroll is not None and a.reroll not in a.battle:
        raise wrong(f"'reroll' names one of your two Battle dice, {a.battle[0]} or {a.battle[1]}, not {a.reroll}")


def _own_rerolls_in_words(db: Database, side: Side) -> str:
    """Which of ``side``'s spells re-roll one of its own Battle dice, in words, from its player card (``only Warden's Call
    does``): public words for a refusal that must not name the spell a
    hidden Casting die placed (twenty-seventh breaker: "Renewal re-rolls none of yours" told the die was a 6)."""
    names = [sp.name for sp in player(db, side).spells if sp.effect.reroll_battle_die]
    if not names:
        return "no spell of yours does"
    return f"only {names[0]} does" if len(names) == 1 else f"only {', '.join(names[:-1])} or {names[-1]} do"


def iter_assignments(state: State, db: Database, side: Side, dice: Sequence[int]) -> Iterator[Assignment]:
    """Every legal way for ``side`` to place the ``dice`` (four, as rolled) this round, one at a time:
    each pair of them as the Battle dice, each of the others as the Power die or as the Casting die of
    each spell it may cast (its face or one below, with each Battle die named for a re-roll spell), the
    last one spare (R71, R31, R74; checked by :func:`check_assignment` as if the dice were typed).
    Canonical (the spare die named), without duplicates, in a fixed order; lazy, for a caller that
    needs only the first."""
    seen: set[str] = set()
    typed = replace(state, hands=state.hands.set(side, Hand()))
    n = len(dice)
    for i in range(n):
        for j in range(i + 1, n):
            rest = [dice[k] for k in range(n) if k not in (i, j)]
            low, high = sorted((dice[i], dice[j]))
            battle = (low, high)
            for x in range(len(rest)):
                active, spare = rest[x], tuple(rest[:x] + rest[x + 1:])
                options = [Assignment(battle, power=active, spare=spare)]
                for face in castable_faces(db, active):
                    rerolls: list[int | None] = [None]
                    if spell(db, side, face).effect.reroll_battle_die:
                        rerolls = [low] if low == high else [low, high]
                    options += [Assignment(battle, cast=active, spell=face, reroll=r, spare=spare) for r in rerolls]
                for option in options:
                    try:
                        option = check_assignment(typed, db, side, option)
                    except RuleError:
                        continue
                    if option.text() not in seen:
                        seen.add(option.text())
                        yield option


def legal_assignments(state: State, db: Database, side: Side, dice: Sequence[int]) -> list[Assignment]:
    """Every legal way for ``side`` to place the four ``dice`` this round (canonical, without duplicates):
    :func:`iter_assignments` as a list. A Power die is always legal, so the list is never empty (R71)."""
    return list(iter_assignments(state, db, side, dice))


def seal(side: Side, a: Assignment, salt: str) -> str:
    """The seal of an assignment for play on two devices: SHA-256 (hex) of ``side``, the assignment's
    canonical text and the ``salt`` (R77). The same three always give the same seal."""
    return hashlib.sha256(f"lassadar-duel|{side}|{a.text()}|{salt}".encode()).hexdigest()


SEAL_DIGITS = 64
"""The hex digits of a seal (a SHA-256 digest, :func:`seal`)."""


def seal_fits(side: Side, a: Assignment, salt: str, sealed: str) -> bool:
    """Whether ``sealed`` is ``side``'s seal of ``a`` with ``salt`` (:func:`seal`), the salt read in any case:
    `referee duel seal` prints it in lower-case hex and a seal is read in any case, so an opening whose salt was
    typed in upper case opens it too (thirty-second breaker, LOW 10). A seal names its side: another side's seal of
    the same placing and salt does not fit (ruling 88)."""
    return sealed in {seal(side, a, salt), seal(side, a, salt.lower())}


def seal_problem(text: str) -> str | None:
    """``None`` for a seal as `referee duel seal` prints it (:data:`SEAL_DIGITS` hex digits, in either case), else
    what is wrong with ``text`` in a few words whose numbers and characters are in back quotes, so that a hidden
    prompt's refusal keeps them (:func:`referee.errors.undisclosed`; a seal is given in the open, R77, and
    :func:`looks_like_seal` lets only a near-seal be answered so): ``"this one has `63`"`` (hex digits, too few),
    ``"`z` is no hex digit"``, ``"a space is no hex digit; this one has `65` characters"``, ``"nothing was given"``."""
    if re.fullmatch(rf"[0-9a-fA-F]{{{SEAL_DIGITS}}}", text):
        return None
    if not text:
        return "nothing was given"
    foreign = [c for c in dict.fromkeys(text) if c not in "0123456789abcdefABCDEF"]
    if not foreign:
        return f"this one has `{len(text)}`"
    named = [("a space" if c == " " else "a back quote" if c == "`" else f"`{c}`" if c.isprintable() else f"`{c!r}`")
             for c in foreign[:3]]
    listed = ", ".join(named) + (" ..." if len(foreign) > 3 else "")
    length = f"; this one has `{len(text)}` characters" if len(text) != SEAL_DIGITS else ""
    return f"{listed} {'is' if len(foreign) == 1 else 'are'} no hex digit{'' if len(foreign) == 1 else 's'}{length}"


def seal_line_side(text: str) -> Side | None:
    """The side the whole line `referee duel seal` printed names (``Seal of the Wardens' placing (give it now with
    --player wardens): ...``), when ``text`` is that line; else ``None``."""
    found = re.match(r"\s*seal of the .*?--player\s+(wardens|shadowmajik)\b", text, re.IGNORECASE)
    return found.group(1).lower() if found else None  # type: ignore[return-value]


_OPENING_LINE = re.compile(r"\s*opening of the (wardens'|shadowmajik's) placing \(keep it secret until the reveal\):\s*",
                           re.IGNORECASE)


def opening_line_side(text: str) -> Side | None:
    """The side the whole Opening line `referee duel seal` printed names (``Opening of the Wardens' placing (keep it secret
    until the reveal): battle 3,5 power 6#SALT``), when ``text`` begins with that line; else ``None``."""
    found = _OPENING_LINE.match(text)
    return ("wardens" if found.group(1).lower().startswith("wardens") else "shadowmajik") if found else None


def opening_lines_as_sides(text: str) -> str | None:
    """``text`` with each whole Opening line `referee duel seal` printed written as the one-shot ``reveal`` and the table
    take an opening after its side: ``Opening of the Wardens' placing (...): battle 3,5 power 6#SALT Opening of the
    Shadowmajik's ...: ...`` -> ``wardens=battle 3,5 power 6#SALT shadowmajik=...``; ``None`` when it holds no such line.
    Thirty-fifth breaker, MED 6: the lines pasted whole at the table's reveal prompt were refused (README: they may be)."""
    if not _OPENING_LINE.search(text):
        return None
    return _OPENING_LINE.sub(lambda m: f" {'wardens' if m.group(1).lower().startswith('wardens') else 'shadowmajik'}=", text).strip()


def seal_line_problem(side: Side, text: str) -> str | None:
    """Why ``text``, the whole line `referee duel seal` printed for the other side, cannot be ``side``'s seal, or ``None``
    (committed, it could only be forfeited at the reveal, ruling 88; thirty-fourth breaker, MED 4: it was committed
    without a word); or why the Opening line, pasted in place of the Seal line, is none (thirty-fifth breaker, LOW 13: it
    was refused as "not hex digits" or "a quote is not closed"). The one reader for ``commit --sealed``, the hidden prompt
    of ``commit`` and the table's."""
    if opening_line_side(text) is not None:
        return ("this is the Opening line, kept secret until the reveal: give the Seal line `referee duel seal` printed above "
                "it (`Seal of the ...`) or its hex digits; nothing was committed")
    named = seal_line_side(text)
    if named is None or named == side:
        return None
    return (f"this is the {possessive(SIDE_NAMES[named])} seal (made with --player {named}), not the "
            f"{possessive(SIDE_NAMES[side])}: it could only be forfeited at the reveal (ruling `88`); seal again with "
            f"`referee duel seal --player {side}`; nothing was committed")


def typed_seal(text: str) -> str | None:
    """The seal ``text`` gives, as a hidden prompt or ``--sealed`` reads it, or ``None`` when it is plainly no seal (it
    may be a placing): the whole line `referee duel seal` printed, pasted (``Seal of the Wardens' placing (...): 1dd6...``:
    the word after its last colon), and a seal broken by blanks (copied from a wrapped screen: the blanks dropped) are
    read as the seal they hold; then a near-seal (:func:`looks_like_seal`) as typed, lower case, for the rules to say
    what is wrong with it (:func:`seal_case`). Thirty-third breaker, LOW 6: both were refused, one as "a quote is not closed"."""
    text = text.strip()
    if re.match(r"seal of the\b", text, re.IGNORECASE) and ":" in text:
        text = text.rsplit(":", 1)[1].strip()
    joined = "".join(text.split())
    if joined != text and re.fullmatch(r"[0-9a-fA-F]+", joined) and looks_like_seal(joined):
        text = joined
    return seal_case(text) if looks_like_seal(text) else None


_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")


def seal_case(text: str) -> str:
    """``text`` with its ASCII letters in lower case, as a seal is kept (`referee duel seal` prints it so, and it is read
    in either case), every other character as typed: a refusal quotes what was typed (thirty-fourth breaker, LOW 31: a
    full-width `Ａ` was said as "`ａ` is no hex digit")."""
    return text.translate(_ASCII_LOWER)


def looks_like_seal(text: str) -> bool:
    """Whether ``text`` is plainly a seal or a near one (a seal pasted short, long or with a slip): one word of
    letters and digits only, at least a quarter of :data:`SEAL_DIGITS` long, three quarters or more of it hex
    digits. Such text is never a placing (a placing has words and numbers apart), so a hidden prompt may answer it as
    a seal and say what is wrong with it (thirty-second breaker, MED 3: 63 of the 64 digits were refused as "not a
    command"); anything else typed there may be a placing and is never echoed (R77)."""
    if not re.fullmatch(r"[0-9A-Za-z]+", text) or len(text) < SEAL_DIGITS // 4:
        return False
    return sum(c in "0123456789abcdefABCDEF" for c in text) * 4 >= len(text) * 3


# ---- The battle ------------------------------------------------------------------------------------------
def spell_of(db: Database, side: Side, a: Assignment) -> DuelSpell | None:
    """The spell ``a`` casts (its :attr:`~Assignment.spell_face` on ``side``'s player card), or ``None``
    for the Power die."""
    face = a.spell_face
    return spell(db, side, face) if face is not None else None


def effect_of(db: Database, side: Side, a: Assignment) -> Effect:
    """The effect of the spell ``a`` casts (an empty effect for the Power die)."""
    s = spell_of(db, side, a)
    return s.effect if s is not None else Effect()


@dataclass(frozen=True)
class RerollStep:
    """One Battle die a spell re-rolls this round, in the order the rules re-roll them (R74, ruling 74):
    the ``side`` whose die it is, ``spell`` (the name of the spell that re-rolls it, either side's), and
    ``die``: the value it re-rolls (the side's own re-roll spell: the Battle die its placing named, else
    the lower), or ``None`` for "the highest Battle die" at that moment (the opponent's spell, after the
    side's own re-roll). A side typing physical re-rolls types the new values in this order (R81)."""

    side: Side
    spell: str
    die: int | None


def reroll_steps(db: Database, a: PerSide[Assignment], void: frozenset[Side] = frozenset()) -> PerSide[tuple[RerollStep, ...]]:
    """The Battle dice of each side the spells re-roll, in order: a side's own re-roll spell first,
    then the opponent's "re-rolls their highest Battle die" (R74; applied in this order by
    :func:`settle`). A side whose placing is ``void`` (ruling 82) casts nothing, and its dice are not
    re-rolled (its Battle Number is 0 whatever they show)."""
    steps: dict[Side, list[RerollStep]] = {side: [] for side in SIDES}
    for side in SIDES:
        if side in void:
            continue
        s = spell_of(db, side, a[side])
        if s is not None and s.effect.reroll_battle_die:
            named = a[side].reroll
            steps[side].append(RerollStep(side, s.name, named if named is not None else min(a[side].battle)))
    for side in SIDES:
        s = None if side in void else spell_of(db, side, a[side])
        if s is not None and s.effect.opponent_reroll_highest and other(side) not in void:
            steps[other(side)].append(RerollStep(other(side), s.name, None))
    return PerSide(tuple(steps["wardens"]), tuple(steps["shadowmajik"]))


def rerolls_needed(db: Database, a: PerSide[Assignment], void: frozenset[Side] = frozenset()) -> PerSide[int]:
    """How many Battle dice of each side the spells re-roll (:func:`reroll_steps`, R74)."""
    steps = reroll_steps(db, a, void)
    return PerSide(len(steps.wardens), len(steps.shadowmajik))


def nomograph_spaces(db: Database, difference: int) -> int:
    """Spaces the stronger Battle Number moves, read from the nomograph by the difference (R27; 0 is a tie, R26)."""
    return db.table(rules_of(db).nomograph_table).row_for(difference).effect.spaces


def _set_cube(state: State, location_id: str, side: Side, space: int) -> State:
    row = tuple(replace(p, cubes=p.cubes.set(side, space)) if p.id == location_id else p for p in state.row)
    return replace(state, row=row)


def push_back(state: State, db: Database, side: Side, spaces: int, notes: list[str]) -> State:
    """``side``'s cube on the current Location moves back ``spaces``; below the first space it returns
    to its owner's supply (R75). Nothing happens when ``side`` has no cube there. Raises
    :class:`RuleError` when no Location is current."""
    loc = current_location(state)
    at = state.place(loc).cubes[side]
    if at == 0 or spaces <= 0:
        notes.append(f"The {SIDE_NAMES[side]} have no cube on {name(db, loc)} to move back.")
        return state
    new = max(0, at - spaces)
    state = _set_cube(state, loc, side, new)
    if new == 0:
        state = replace(state, supply=state.supply.set(side, state.supply[side] + 1))
        notes.append(f"The {possessive(SIDE_NAMES[side])} cube on {name(db, loc)} is pushed off its track and returns to their supply.")
    else:
        notes.append(f"The {possessive(SIDE_NAMES[side])} cube on {name(db, loc)} moves back from space {at} to {new}.")
    return state


def advance(state: State, db: Database, side: Side, spaces: int, notes: list[str]) -> State:
    """Place or move ``side``'s cube on the current Location by ``spaces`` (R28), then settle a win.

    Description: "The player with the stronger Battle Number will place and/or move a cube on their
    respective track on the current Location card a number of spaces." A cube already there moves up;
    otherwise a cube from supply enters the track and stands on space ``spaces``. The track ends at its
    last space (R76). The caller makes sure a cube is in supply when one must be placed (R29). Raises
    :class:`RuleError` when no Location is current.
    """
    loc = current_location(state)
    last = top(db, loc)
    at = state.place(loc).cubes[side]
    if at == 0:
        state = replace(state, supply=state.supply.set(side, state.supply[side] - 1))
        new = min(last, spaces)
        notes.append(f"The {SIDE_NAMES[side]} place a cube on {name(db, loc)}, space {new} of {last}.")
    else:
        new = min(last, at + spaces)
        notes.append(f"The {possessive(SIDE_NAMES[side])} cube on {name(db, loc)} moves from space {at} to {new} of {last}.")
    state = _set_cube(state, loc, side, new)
    if new >= last:
        state = win_location(state, db, side, loc, notes)
    return state


def win_location(state: State, db: Database, side: Side, location_id: str, notes: list[str]) -> State:
    """``side`` wins ``location_id``: it leaves the row to ``side``'s control, both sides' cubes on it
    return to their supplies, the row closes up, and four Locations win the game (``outcome`` set to
    :attr:`Termination.LOCATIONS_CONTROLLED`; the view words it).

    Description: "Once a Location is won (when a player's cube moves to highest space on their track)
    that card will be slid towards the winner and they gain control over it. That Location will not be
    contested over again. The players take back their cubes from the card to their general supply.
    Location cards should be slid to fill in the gap"; "Play continues until one player has gained
    control over 4 Locations."
    """
    place = state.place(location_id)
    supply = state.supply
    for s in SIDES:
        if place.cubes[s] > 0:
            supply = supply.set(s, supply[s] + 1)
    state = replace(state, row=tuple(p for p in state.row if p.id != location_id), supply=supply,
                    controlled=state.controlled + ((location_id, side),),
                    current=None if state.current == location_id else state.current)
    count = len(state.controlled_by(side))
    notes.append(f"The {SIDE_NAMES[side]} win {name(db, location_id)}: slide it to them; both sides take their cubes on it back; "
                 f"close up the row. The {SIDE_NAMES[side]} control {count} Location{'s' if count != 1 else ''}.")
    if count >= rules_of(db).locations_to_win:
        state = replace(state, outcome=Outcome(Termination.LOCATIONS_CONTROLLED, side), phase="over")
    return state


def legal_recalls(state: State, side: Side) -> list[str | None]:
    """Where ``side`` may take a cube back from in the ``recall`` phase: each other Location holding
    its cube, or ``None`` (keep the cubes, forgo the spaces) (R29)."""
    if state.phase != "recall" or state.last is None or state.last.winner != side:
        return []
    return [p.id for p in state.row if p.cubes[side] > 0 and p.id != state.current] + [None]


def _after_round(state: State, db: Database, winner: Side | None, notes: list[str]) -> State:
    """End of a round: the loser chooses the next Location; a tie fights on where it is (R26).

    Until the loser places the yellow marker no Location is current (``current`` is ``None``): the
    next battle's Location is not chosen yet, even when the marker still stands on the last one (R79)."""
    if state.outcome is not None:
        return replace(state, phase="over", current=None, hands=PerSide(Hand(), Hand()))
    if winner is None:
        notes.append(f"A tie: no cube moves; the yellow marker stays on {name(db, current_location(state))} "
                     f"and round {state.round + 1} is fought there (R26).")
        return replace(state, phase="round", round=state.round + 1, hands=PerSide(Hand(), Hand()))
    loser = other(winner)
    loser_chooses = who_does(state, loser, "lost the round and chooses", "lost the round and choose")
    notes.append(f"{loser_chooses} the next Location for the yellow marker.")
    return replace(state, phase="marker", chooser=loser, current=None, hands=PerSide(Hand(), Hand()))


def _advance_and_record(state: State, db: Database, winner: Side, spaces: int, notes: list[str]) -> State:
    """:func:`advance` the round's winner and record in ``last`` whether the Location was won (R28, R76)."""
    before = len(state.controlled)
    state = advance(state, db, winner, spaces, notes)
    result = RoundResult.LOCATION_WON if len(state.controlled) > before else RoundResult.ADVANCED
    if state.last is not None:
        state = replace(state, last=replace(state.last, result=result))
    return state


def settle(state: State, db: Database, a: PerSide[Assignment], rerolls: PerSide[Dice], void: dict[Side, str] | None = None) -> State:
    """Settle the revealed round (R73): points, re-rolls, Battle Numbers, push-backs, then the cube.

    Order: (1) each Power die adds its points and each spell's cost is paid; (2) re-rolls: a side's
    own re-roll spell, then the opponent's forced re-roll of the highest Battle die; (3) the Battle
    Numbers: the two Battle dice "added together as the base Battle Number" with the spells' bonuses
    and penalties; (4) spells that move a cube back; (5) "The player with the stronger Battle Number
    will place and/or move a cube ... a number of spaces ... calculated based on a nomograph table",
    with the winner's extra spaces; a tie moves nothing (R26). ``last`` records the round, its
    :class:`RoundResult` included. A side whose sealed placing is ``void`` (side -> why, ruling 82) gains
    and pays nothing, casts nothing, and has a Battle Number of 0; the other side's spell does not
    re-roll its dice. Raises :class:`RuleError` when no Location is current.
    """
    void = void or {}
    notes: list[str] = []
    state = replace(state, opened=None)
    loc = current_location(state)
    spells = {side: None if side in void else spell_of(db, side, a[side]) for side in SIDES}
    points = state.points
    gains: dict[Side, int] = {side: 0 for side in SIDES}
    costs: dict[Side, int] = {side: 0 for side in SIDES}
    casts: dict[Side, int] = {side: 0 for side in SIDES}
    for side in SIDES:
        x = a[side]
        if side in void and x is FORFEITED:  # chosen at the reveal: never better than any placing it sealed
            cost = forfeit_cost(state, db, side)
            costs[side] = cost
            notes.append(f"{who(state, side)}: forfeited their sealed placing: it is void, no spell, Battle Number 0, and it pays "
                         f"{cost} {points_word(db, side)}, the most its placing could have cost ({points[side]} -> {points[side] - cost}; "
                         f"ruling 82).")
            points = points.set(side, points[side] - cost)
            continue
        if side in void:
            notes.append(f"{who(state, side)}: sealed placing '{x.text()}' breaks the rules ({void[side]}): it is void, no points "
                         f"and no spell, Battle Number 0 (ruling 82).")
            continue
        unit = points_word(db, side)
        s = spells[side]
        if x.power is not None:
            gain = power_gain(db, x.power, points[side])
            gains[side], costs[side], casts[side] = gain, 0, 0
            notes.append(f"{who(state, side)}: Battle dice {x.battle[0]} and {x.battle[1]}; Power die {x.power}: "
                         f"+{gain} {unit} ({points[side]} -> {points[side] + gain}).")
            points = points.set(side, points[side] + gain)
        elif s is not None:
            cost = spell_cost(state, db, side, s.face)
            gains[side], costs[side], casts[side] = 0, cost, s.face
            discount = " (Resonance: 1 less)" if cost < s.cost else ""
            notes.append(f"{who(state, side)}: Battle dice {x.battle[0]} and {x.battle[1]}; Casting die {x.cast}: {s.name} "
                         f"({s.text}) for {cost} {unit}{discount} ({points[side]} -> {points[side] - cost}).")
            points = points.set(side, points[side] - cost)
    state = replace(state, points=points)
    dice = {side: list(a[side].battle) for side in SIDES}
    queue = {side: list(rerolls[side].values) for side in SIDES}
    for side in SIDES:  # own re-rolls first
        s = spells[side]
        if s is not None and s.effect.reroll_battle_die:
            named = a[side].reroll
            target = named if named is not None else min(dice[side])
            i = dice[side].index(target)
            dice[side][i] = queue[side].pop(0)
            notes.append(f"{s.name}: the {SIDE_NAMES[side]} re-roll a Battle die: {target} -> {dice[side][i]}.")
    for side in SIDES:  # then the opponent's highest
        s = spells[side]
        if s is not None and s.effect.opponent_reroll_highest and other(side) not in void:
            o = other(side)
            i = dice[o].index(max(dice[o]))
            old = dice[o][i]
            dice[o][i] = queue[o].pop(0)
            notes.append(f"{s.name}: the {SIDE_NAMES[o]} re-roll their highest Battle die: {old} -> {dice[o][i]}.")
    numbers = {}
    for side in SIDES:
        mine = Effect() if side in void else effect_of(db, side, a[side])
        theirs = Effect() if other(side) in void else effect_of(db, other(side), a[other(side)])
        numbers[side] = 0 if side in void else sum(dice[side]) + mine.battle + theirs.opponent_battle
    for side in SIDES:
        s = spells[side]
        if s is not None and s.effect.push_back:
            pushed: list[str] = []
            state = push_back(state, db, other(side), s.effect.push_back, pushed)
            notes.append(f"{s.name}: " + " ".join(pushed))
    wardens_number, shadow_number = numbers["wardens"], numbers["shadowmajik"]
    winner: Side | None = None if wardens_number == shadow_number else "wardens" if wardens_number > shadow_number else "shadowmajik"
    difference = abs(wardens_number - shadow_number)
    spaces, extra, extra_words = 0, 0, ""
    verdict = "a tie"
    if winner is not None:
        spaces = nomograph_spaces(db, difference)
        verdict = (f"the {SIDE_NAMES[winner]} win the battle; "
                   f"difference {difference}: {spaces} space{'s' if spaces != 1 else ''} (nomograph)")
        winning_spell = spells[winner]
        extra = winning_spell.effect.extra_spaces if winning_spell is not None else 0
        if winning_spell is not None and extra:
            extra_words = f" + {extra} extra ({winning_spell.name})"
    notes.append(f"Battle Numbers: Wardens {wardens_number}, Shadowmajik {shadow_number}: {verdict}{extra_words}.")
    spaces += extra
    battle_dice = PerSide((dice["wardens"][0], dice["wardens"][1]), (dice["shadowmajik"][0], dice["shadowmajik"][1]))
    battle = Battle(state.round, loc, a, battle_dice, PerSide(wardens_number, shadow_number),
                    PerSide(casts["wardens"], casts["shadowmajik"]), PerSide(gains["wardens"], gains["shadowmajik"]),
                    PerSide(costs["wardens"], costs["shadowmajik"]), winner, spaces,
                    RoundResult.TIE if winner is None else RoundResult.ADVANCED, tuple(s for s in SIDES if s in void))
    state = replace(state, last=battle)
    if winner is not None and spaces > 0:
        if state.place(loc).cubes[winner] == 0 and state.supply[winner] == 0:
            choices = ", ".join(name(db, p) for p in legal_recalls(replace(state, phase="recall"), winner) if p)
            notes.append(f"The {SIDE_NAMES[winner]} have all their cubes out: take one back from another Location ({choices}) "
                         f"to place it here, or keep them where they are and forgo the {spaces} space{'s' if spaces != 1 else ''} (R29).")
            return replace(state, phase="recall", pending=spaces, last=replace(battle, result=RoundResult.CUBES_OUT), notes=tuple(notes))
        state = _advance_and_record(state, db, winner, spaces, notes)
    state = _after_round(state, db, winner, notes)
    return replace(state, notes=tuple(notes))


# ---- Applying events ----------------------------------------------------------------------------------------
def _need_phase(state: State, phase: str, what: str) -> None:
    """Refuse ``what`` (an event of ``phase``) when the game is over or in another phase: a
    :class:`RuleError` of kind :attr:`Refusal.GAME_OVER` or :attr:`Refusal.WRONG_PHASE`."""
    if state.outcome is not None:
        raise RuleError(f"the game is over: {SIDE_NAMES[state.outcome.winner]} won", Refusal.GAME_OVER)
    if state.phase != phase:
        raise RuleError(f"{what} does not fit now", Refusal.WRONG_PHASE)


def apply(state: State, db: Database, event: ev.Event) -> State:
    """The state after ``event``; raises :class:`RuleError` (changing nothing) when it does not fit now.

    ``event`` must be resolved: every die given by value (see :func:`resolve`).
    """
    if isinstance(event, ev.Marker):
        return apply_marker(state, db, event)
    if isinstance(event, ev.Roll):
        return apply_roll(state, db, event)
    if isinstance(event, ev.Commit):
        return apply_commit(state, db, event)
    if isinstance(event, ev.Reveal):
        return apply_reveal(state, db, event)
    if isinstance(event, ev.Recall):
        return apply_recall(state, db, event)
    raise RuleError(f"unknown event {event!r}")


def apply_marker(state: State, db: Database, event: ev.Marker) -> State:
    """The chooser places the yellow marker; a round begins there (R25, R30)."""
    _need_phase(state, "marker", "placing the yellow marker")
    if event.side != state.chooser:
        chooser = who_does(state, state.chooser, "chooses", "choose", start=False)
        raise RuleError(f"{chooser} the Location now, not the {SIDE_NAMES[event.side]}",
                        side=event.side, field="side")
    if event.location not in legal_markers(state):
        if any(loc == event.location for loc, _ in state.controlled):
            raise RuleError(f"{name(db, event.location)} is controlled and will not be contested again; choose a Location in the row",
                            side=event.side, field="location")
        known = any(loc.id == event.location for loc in db.duel.location)
        raise RuleError(f"{name(db, event.location) if known else repr(event.location)} is not in the row: "
                        f"choose one of {', '.join(name(db, x) for x in legal_markers(state))}", side=event.side, field="location")
    first = state.round == 0
    notes = (f"{who_does(state, event.side, 'places', 'place')} the yellow marker on {name(db, event.location)}"
             f"{' (the first Location, R25)' if first else ''}. Round {state.round + 1}: both players roll "
             f"{rules_of(db).dice_per_player} dice in secret.",)
    return replace(state, current=event.location, phase="round", round=state.round + 1, hands=PerSide(Hand(), Hand()), notes=notes)


def apply_roll(state: State, db: Database, event: ev.Roll) -> State:
    """The referee rolls ``side``'s 4 dice for this round (R78): once a round, before committing."""
    _need_phase(state, "round", "rolling")
    hand = state.hands[event.side]
    if hand.committed:  # with what the round waits for (twenty-seventh breaker: a roll while the reveal waited said no more)
        raise RuleError(f"the {SIDE_NAMES[event.side]} have already committed this round", Refusal.ALREADY_COMMITTED, event.side)
    if hand.rolled is not None:
        raise RuleError(f"the {SIDE_NAMES[event.side]} have already rolled this round", Refusal.ALREADY_ROLLED, event.side)
    if state.commit_way[event.side] == OWN_DICE:  # ruling 87 (twenty-fourth breaker: a roll typed at the shared terminal voided their seal)
        raise RuleError(f"the {SIDE_NAMES[event.side]} seal their placings on their own device and roll their own dice (ruling 87): "
                        f"the referee does not roll for them", Refusal.OWN_DICE, event.side)
    dice = event.dice
    count = rules_of(db).dice_per_player
    if dice is None or dice.k is None or len(dice.values) != count:
        raise RuleError(f"a roll is {count} dice rolled by the referee", side=event.side, field="dice")
    expected = roll_index(state, event.side)
    if dice.k != expected:
        raise RuleError(f"the referee's die for this roll is die {expected}, not {dice.k}", side=event.side, field="dice")
    hands = state.hands.set(event.side, replace(hand, rolled=dice))
    used = state.dice_used + count if state.setup.dice == "sequential" else state.dice_used
    return replace(state, hands=hands, dice_used=used,
                   notes=(f"The referee rolls the {possessive(SIDE_NAMES[event.side])} {count} dice (only they see them).",))


DICE_A_ROUND = 64
"""Die indexes set aside for each side in each round under the ``per-side`` dice scheme: its hand's dice
from the first (4 in the bundled database), then, from :data:`REROLLS_FROM` on, the Battle dice its
spells re-roll (at most 2: its own re-roll spell and the opponent's, R74). Generous, so that a database
with more dice a player still gives every roll dice of its own."""

REROLLS_FROM = 32
"""Where a side's re-rolled Battle dice start within its slot of :data:`DICE_A_ROUND`."""


def roll_index(state: State, side: Side) -> int:
    """The index of the first die the referee rolls for ``side``'s hand this round (R78): fixed by the
    round and the side (``per-side`` scheme, :data:`referee.duel.state.DiceScheme`), so rolling in
    either order, or rolling again after an undo, gives each side the same dice; the game's next die
    for a ``sequential`` save."""
    if state.setup.dice == "sequential":
        return state.dice_used
    return (state.round * len(SIDES) + SIDES.index(side)) * DICE_A_ROUND


def reroll_index(state: State, side: Side, sequential_next: int) -> int:
    """The index of the first Battle die the referee re-rolls for ``side`` at this round's reveal (R74):
    after its hand's dice in its own slot (``per-side``), or ``sequential_next`` for a ``sequential``
    save (the game's next die, counted over both sides)."""
    if state.setup.dice == "sequential":
        return sequential_next
    return roll_index(state, side) + REROLLS_FROM


def undo_problem(event: ev.Event, after: State) -> str | None:
    """Why ``event``, the last event (``after`` the state it led to), may not be taken back, in the rules' words
    (:func:`undo_refusal`'s message), or ``None``."""
    refused = undo_refusal(event, after)
    return None if refused is None else str(refused)


def undo_refusal(event: ev.Event, after: State) -> RuleError | None:
    """Why ``event``, the last event (``after`` the state it led to), may not be taken back: a referee's
    roll (its dice were shown to a player: taken back, that player could place other dice, a free
    re-roll, R78), a reveal (both placings were seen: taken back, the loser could place again knowing the
    winner's dice, R77), and the second commitment of a round (once both have committed, an opening may
    have been shown by a reveal the rules refused: taken back, that side could place again knowing it,
    ruling 83). ``None`` for the rest. The refusal of a roll (``ROLL_STANDS``) names no command: the advice says where the
    dice are placed (forty-sixth referee breaker, KIND 3: the rules offered `referee duel commit`, which the table's
    "press Enter" prompt refuses, and without the session's --save)."""
    if isinstance(event, ev.Commit) and after.phase == "round" and all(after.hands[s].committed for s in SIDES):
        return RuleError(f"the {possessive(SIDE_NAMES[event.side])} commitment cannot be taken back: both sides have "
                         "committed, and a placing may already have been opened (ruling 83); reveal the round")
    if isinstance(event, ev.Roll):
        return RuleError(f"the referee's roll for the {SIDE_NAMES[event.side]} cannot be taken back: a side rolls once a "
                         f"round and its dice stand (R78)", Refusal.ROLL_STANDS, event.side)
    if isinstance(event, ev.Reveal):
        over = "; the game is over: start a new one" if after.phase == "over" else ""  # (fortieth breaker, MED 4)
        return RuleError(f"a revealed round cannot be taken back: both placings have been seen (R77){over}")
    return None


def rolled_to_show(state: State, side: Side) -> Dice | None:
    """The dice the referee already rolled for ``side`` this round, while ``side`` has not committed:
    a second ``roll`` shows these again (a player who forgot them is never stuck, and never gets a
    re-roll: R78). ``None`` when there is no such roll, so a ``roll`` is a new event."""
    hand = state.hands[side]
    if state.phase != "round" or hand.committed:
        return None
    return hand.rolled


def commit_problem(state: State, side: Side) -> RuleError | None:
    """Why ``side`` cannot commit now, as the :class:`RuleError` a commitment would meet (the game over,
    the wrong phase, or :attr:`Refusal.ALREADY_COMMITTED`), or ``None``. Asked before a player types
    their hidden dice, so they are not asked for nothing (R77)."""
    try:
        _need_phase(state, "round", "committing")
    except RuleError as error:
        return error
    if state.hands[side].committed:
        return RuleError(f"the {SIDE_NAMES[side]} have already committed this round", Refusal.ALREADY_COMMITTED, side)
    return None


def apply_commit(state: State, db: Database, event: ev.Commit) -> State:
    """``side`` places its dice in secret. A plain assignment is checked now (:func:`check_assignment`);
    a sealed one when it is opened at the reveal (R77)."""
    problem = commit_problem(state, event.side)
    if problem:
        raise problem
    hand = state.hands[event.side]
    if event.seal is not None and event.assignment is None:
        # kept as `seal` printed it, in lower case (the commands read it in either case and give it so)
        wrong = seal_problem(event.seal) or (None if event.seal == event.seal.lower() else "it is in upper case")
        if wrong is not None:
            raise RuleError(f"a seal is {SEAL_DIGITS} hexadecimal digits (a SHA-256 digest): {wrong}", Refusal.BAD_SEAL,
                            event.side, "seal", detail=wrong)
        hand = replace(hand, seal=event.seal)
    elif event.assignment is not None and event.seal is None:
        hand = replace(hand, assignment=check_assignment(state, db, event.side, event.assignment))
    else:
        raise RuleError("commit either an assignment or a seal", side=event.side)
    waiting = [SIDE_NAMES[s] for s in SIDES if s != event.side and not state.hands[s].committed]
    then = f"waiting for the {waiting[0]}" if waiting else "both have committed: reveal"
    way = "plain" if event.seal is None else "sealed" if hand.rolled is not None else OWN_DICE
    bound = (" Their seal must place the 4 dice the referee rolled them this round, or it is void at the reveal (ruling 82)."
             if event.seal is not None and hand.rolled is not None else "")
    return replace(state, hands=state.hands.set(event.side, hand), commit_way=state.commit_way.set(event.side, way),
                   notes=(f"The {SIDE_NAMES[event.side]} have committed their dice ({then}).{bound}",))


def _reveal_field(event: ev.Reveal, side: Side, suffix: str = "") -> Any:
    """The Reveal field ``<side><suffix>``: ``wardens``, ``shadowmajik_salt``, ``wardens_reroll`` ..."""
    return getattr(event, side + suffix)


FORFEIT = "forfeit"
"""The opening a side gives for a seal it cannot open (``reveal --open SIDE=forfeit``, kept as that
side's salt in the reveal): its placing is void (ruling 82)."""

FORFEITED = Assignment((1, 1), power=1)
"""The stand-in placing of a side that forfeited its seal: never scored (void), shown as ``void``."""


def revealed(state: State, db: Database, event: ev.Reveal) -> tuple[PerSide[Assignment], dict[Side, str]]:
    """Both assignments as revealed: the committed ones, or sealed ones opened by the event's
    assignment and salt (checked against the seal, then against the rules); once revealed while the
    reveal waits for re-rolled dice, the placings revealed then (R81). With them, the sides whose
    sealed placing, opened, breaks the rules, each with why: that placing is void (ruling 82), since
    its side may not place again once the other's placing has been shown. Raises :class:`RuleError`
    for an opening missing or not matching its seal, and a plain placing not as committed."""
    opened = state.opened
    if opened is not None:
        for side in SIDES:
            given: Assignment | None = _reveal_field(event, side)
            if given is not None and given.text() != opened[side].text():
                raise RuleError(f"the {SIDE_NAMES[side]} revealed '{opened[side]}', not '{given}'", side=side, field=side)
        return opened, {}
    out: dict[Side, Assignment] = {}
    void: dict[Side, str] = {}
    for side in SIDES:
        hand = state.hands[side]
        given = _reveal_field(event, side)
        salt: str | None = _reveal_field(event, side, "_salt")
        if hand.assignment is not None:
            if salt is not None:  # an opening typed for a plain placing: never compared aloud, it stays hidden (R77)
                raise RuleError(f"the {SIDE_NAMES[side]} committed no seal, so there is nothing of theirs to open or forfeit: "
                                f"reveal without --open {side}", side=side, field=side)
            if given is not None and check_assignment(state, db, side, given) != hand.assignment:  # a save's, filled in when resolved
                raise RuleError(f"the {SIDE_NAMES[side]} revealed another placing than they committed", side=side, field=side)
            out[side] = hand.assignment
        elif hand.seal is not None:
            if given is None and salt == FORFEIT:  # the side cannot open its seal (its opening lost): void, never placed again
                out[side], void[side] = FORFEITED, "the seal was not opened: forfeit"
                continue
            if given is None or salt is None:
                raise RuleError(f"the {SIDE_NAMES[side]} committed a seal: open it with the placing and salt it was made of",
                                Refusal.SEAL_NOT_OPENED, side, f"{side}_salt")
            if not seal_fits(side, given, salt, hand.seal):
                if seal_fits(other(side), given, salt, hand.seal):  # thirty-second breaker, LOW 11: sealed with the other
                    raise RuleError(f"the {possessive(SIDE_NAMES[side])} opening fits a seal made for the "  # --player
                                    f"{SIDE_NAMES[other(side)]}, and a seal opens only as the side it names (ruling 88)",
                                    Refusal.SEAL_OF_OTHER_SIDE, side, f"{side}_salt")
                mate = state.hands[other(side)].seal
                if mate is not None and seal_fits(other(side), given, salt, mate):  # the two openings swapped (fortieth
                    raise RuleError(f"the opening given for the {SIDE_NAMES[side]} fits the "  # breaker, MED 5)
                                    f"{possessive(SIDE_NAMES[other(side)])} seal: give it as {other(side)}=, and the "
                                    f"{possessive(SIDE_NAMES[side])} own opening as {side}=", side=side, field=f"{side}_salt")
                raise RuleError(f"the {possessive(SIDE_NAMES[side])} opening does not match their seal: not what they committed",
                                Refusal.OPENING_DOES_NOT_MATCH, side, f"{side}_salt")
            try:
                out[side] = check_assignment(state, db, side, given)
            except RuleError as error:  # sealed, so checked only now: void, never placed again (ruling 82)
                out[side], void[side] = given, numbers_unmarked(str(error))  # said as prose (fortieth breaker, LOW 6: `0`)
        else:
            raise RuleError(f"cannot reveal before both have committed: the {SIDE_NAMES[side]} have not committed yet", side=side)
    return PerSide(out["wardens"], out["shadowmajik"]), void


def apply_reveal(state: State, db: Database, event: ev.Reveal) -> State:
    """Both players reveal their placed dice; the round is settled (:func:`settle`), or, when a spell
    re-rolls a Battle die of a side that placed physical dice and no re-rolled die was typed, the
    placings are shown and the reveal waits for those dice (:func:`waits_for_rerolls`, R81)."""
    _need_phase(state, "round", "revealing")
    refuse_typed_rerolls_of_referee_dice(state, event)
    a, void = revealed(state, db, event)
    need = rerolls_needed(db, a, frozenset(void))
    if not void and waits_for_rerolls(state, db, event, a):
        return replace(state, opened=a, notes=_opened_notes(state, db, a, need))
    event, set_aside = _set_aside(state, db, event, a)
    typed = [side for side in SIDES if _reveal_field(event, side, "_reroll") is not None and _reveal_field(event, side, "_reroll").k is None]
    if (not void and state.opened is None and typed
            and any(len(_reveal_field(event, side, "_reroll").values) != need[side] for side in typed)):
        # twenty-fifth breaker: refused with the count ("re-roll 1 of the Wardens' dice, not 2"), a first reveal told a side
        # whether the other placed a re-roll spell while it could still forfeit its seal (ruling 81); the placings are
        # shown instead, and the reveal waits for the dice the spells re-roll, as a reveal without them does
        return replace(state, opened=a, notes=_opened_notes(state, db, a, need)
                       + ("The re-rolled dice given with the reveal were not as many as the spells re-roll: give them again.",))
    used = state.dice_used
    groups = {}
    for side in SIDES:
        given: Dice | None = _reveal_field(event, side, "_reroll")
        dice = given or Dice()
        if len(dice.values) != need[side]:
            wanted = (f"give {side}={','.join(['D'] * need[side])}" if need[side] else f"leave {side} out")
            raise RuleError(f"the spells re-roll {need[side]} of the {possessive(SIDE_NAMES[side])} Battle dice, not "
                            f"{len(dice.values)}: {wanted}", side=side, field=f"{side}_reroll")
        if dice.k is not None:
            expected = reroll_index(state, side, used)
            if dice.k != expected:
                raise RuleError(f"the referee's die for this re-roll is die {expected}, not {dice.k}", side=side, field=f"{side}_reroll")
            used += len(dice.values) if state.setup.dice == "sequential" else 0
        groups[side] = dice
    state = replace(state, dice_used=used)
    settled = settle(state, db, a, PerSide(groups["wardens"], groups["shadowmajik"]), void)
    return replace(settled, notes=set_aside + settled.notes) if set_aside else settled


def _set_aside(state: State, db: Database, event: ev.Reveal, a: PerSide[Assignment]) -> tuple[ev.Reveal, tuple[str, ...]]:
    """``event`` without the re-rolled dice typed for sides no spell re-rolls, when no side that placed physical dice
    re-rolls one (:func:`typed_rerolls`): no typed die is then waited for, and the round settles at once (twenty-sixth
    breaker: the wait asked for nothing, "revealed; : `referee duel reveal`"); with the notes that say they were set
    aside. :func:`resolve` keeps them out of the stored event, so the log never shows them as re-rolls (twenty-seventh
    breaker); :func:`apply_reveal` sets them aside too, for an event made without :func:`resolve`. R81."""
    typed = [side for side in SIDES if _reveal_field(event, side, "_reroll") is not None and _reveal_field(event, side, "_reroll").k is None]
    physical = typed_rerolls(state, db, a)
    if not typed or any(physical[side] for side in SIDES):
        return event, ()
    notes = tuple(f"The re-rolled dice typed for the {SIDE_NAMES[side]} are set aside: no spell re-rolls their Battle dice."
                  for side in typed if _reveal_field(event, side, "_reroll").values)
    return replace(event, **{f"{side}_reroll": None for side in typed}), notes


def refuse_typed_rerolls_of_referee_dice(state: State, event: ev.Reveal) -> None:
    """Refuse re-rolled dice typed (``--reroll SIDE=D``) for a side whose hand the referee rolled this round: the referee
    rolls that side's re-rolls too (R74, R81); typed, the player at the keyboard chose the other side's die (twenty-sixth
    breaker: the Shadowmajik cast Creeping Dark and typed the Wardens' new die). Said before any seal is opened and
    whatever was placed, so the refusal tells nothing of the placings (ruling 77). Raises :class:`RuleError`."""
    for side in SIDES:
        given = _reveal_field(event, side, "_reroll")
        if given is not None and given.k is None and state.hands[side].rolled is not None:
            raise RuleError(f"the referee rolled the {possessive(SIDE_NAMES[side])} dice this round and rolls their re-rolled "
                            f"dice too (R81): leave {side} out", Refusal.REFEREE_DICE, side, f"{side}_reroll")


def typed_rerolls(state: State, db: Database, a: PerSide[Assignment]) -> PerSide[int]:
    """How many re-rolled Battle dice each side types itself: those of a side that placed physical dice
    this round (the referee did not roll its hand); the referee rolls the others (R74, R81)."""
    need = rerolls_needed(db, a)
    counts = [need[s] if state.hands[s].rolled is None else 0 for s in SIDES]
    return PerSide(counts[0], counts[1])


def waits_for_rerolls(state: State, db: Database, event: ev.Reveal, a: PerSide[Assignment]) -> bool:
    """True when ``event`` reveals the placings ``a`` but cannot settle the round yet: no re-rolled die
    was given with it, this is the first reveal of the round, and a spell re-rolls a Battle die of a
    side that placed physical dice (R81). The players then roll those dice and type them."""
    if state.opened is not None or any(_reveal_field(event, s, "_reroll") is not None for s in SIDES):
        return False
    counts = typed_rerolls(state, db, a)
    return any(counts[s] for s in SIDES)


def _opened_notes(state: State, db: Database, a: PerSide[Assignment], need: PerSide[int]) -> tuple[str, ...]:
    placed = []
    for side in SIDES:
        s = spell_of(db, side, a[side])
        spell_name = f" ({s.name})" if s is not None else ""
        placed.append(f"{SIDE_NAMES[side]} {a[side].text()}{spell_name}")
    counts = ", ".join(f"the {SIDE_NAMES[s]}: {need[s]} {'die' if need[s] == 1 else 'dice'}" for s in SIDES if need[s])
    return (f"Revealed: {'; '.join(placed)}.",
            f"The spells re-roll Battle dice ({counts}): roll them and type them, or let the referee roll them (R74, R81).")


def apply_recall(state: State, db: Database, event: ev.Recall) -> State:
    """The winner with no cube in supply takes one back from another Location and places it here, or
    forgoes the spaces (R29)."""
    _need_phase(state, "recall", "taking a cube back")
    winner = round_winner(state)
    here = current_location(state)
    if event.side != winner:
        raise RuleError(f"the {SIDE_NAMES[winner]} won the round; they take a cube back, not the {SIDE_NAMES[event.side]}",
                        side=event.side, field="side")
    if event.location not in legal_recalls(state, winner):
        if event.location == here:
            raise RuleError(f"the {SIDE_NAMES[winner]} have no cube on {name(db, here)}: take one back from another Location",
                            side=winner, field="location")
        known = any(loc.id == event.location for loc in db.duel.location)
        shown = name(db, event.location) if known and event.location is not None else repr(event.location)
        raise RuleError(f"the {SIDE_NAMES[winner]} have no cube on {shown} to take back", side=winner, field="location")
    notes: list[str] = []
    if event.location is None:
        spaces = f"{state.pending} space{'s' if state.pending != 1 else ''}"
        notes.append(f"The {SIDE_NAMES[winner]} keep their cubes where they are and forgo the {spaces}.")
        if state.last is not None:
            state = replace(state, last=replace(state.last, result=RoundResult.FORGONE))
    else:
        at = state.place(event.location).cubes[winner]
        state = _set_cube(state, event.location, winner, 0)
        state = replace(state, supply=state.supply.set(winner, state.supply[winner] + 1))
        notes.append(f"The {SIDE_NAMES[winner]} take their cube back from {name(db, event.location)} (it stood on space {at}).")
        state = _advance_and_record(state, db, winner, state.pending, notes)
    state = replace(state, pending=0)
    state = _after_round(state, db, winner, notes)
    return replace(state, notes=tuple(notes))


# ---- Resolving: the referee's dice --------------------------------------------------------------------------
def resolve(state: State, db: Database, event: ev.Event) -> tuple[ev.Event, State]:
    """Fill in the referee's dice of ``event`` (by value, from the seed and the die index), complete
    assignments from the commitments, and apply it. Returns the resolved event and the new state;
    raises :class:`RuleError`, changing nothing."""
    seed = state.setup.seed
    if isinstance(event, ev.Roll) and event.dice is None:
        event = replace(event, dice=Dice.roll(seed, roll_index(state, event.side), rules_of(db).dice_per_player))
    elif isinstance(event, ev.Commit) and event.assignment is not None and state.phase == "round":
        if not state.hands[event.side].committed:
            event = replace(event, assignment=check_assignment(state, db, event.side, event.assignment))
    elif isinstance(event, ev.Reveal):
        _need_phase(state, "round", "revealing")
        refuse_typed_rerolls_of_referee_dice(state, event)
        a, void = revealed(state, db, event)
        event, set_aside = _set_aside(state, db, event, a)  # kept out of the log: never re-rolled
        need = rerolls_needed(db, a, frozenset(void))
        wait = not void and waits_for_rerolls(state, db, event, a)
        k = state.dice_used
        fields: dict[str, Any] = {}
        for side in SIDES:
            sealed = state.opened is None and state.hands[side].seal is not None
            # a forfeit is kept as its salt alone; an opening as it was sealed (its spare die filled in only
            # when it is opened again: the seal is of the text sealed, seventh breaker)
            fields[side] = None if a[side] is FORFEITED else _reveal_field(event, side) if sealed else a[side]
            typed: Dice | None = _reveal_field(event, side, "_reroll")
            if typed is None and need[side] and not wait:
                typed = Dice.roll(seed, reroll_index(state, side, k), need[side])
                k += need[side] if state.setup.dice == "sequential" else 0
            fields[f"{side}_reroll"] = typed
        event = replace(event, **fields)
        after = apply(state, db, event)
        return event, replace(after, notes=set_aside + after.notes) if set_aside else after
    return event, apply(state, db, event)


# ---- Words ----------------------------------------------------------------------------------------------------
def location_id(db: Database, text: str, row: Sequence[str] | None = None, choosable: Sequence[str] | None = None) -> str:
    """A Location named by id, its last id part, its name (any case, punctuation ignored), a unique
    beginning of its last id part or name (``gale``, ``barrow``), its position in ``row`` (the ids
    of the Locations in the row; 1 = leftmost as the Wardens see it), or both as the row is listed
    (``3 Galehollow``, ``3. Galehollow``: the number and the name must agree; a name no longer in the row, or never in
    it, is read as named, for the rules to refuse). A beginning that several
    Locations share is read as the one of them in ``choosable`` (the ids a player may choose now), if only
    one is (``g`` where Galehollow is controlled and Glasswater Ford is not: thirty-third breaker, MED 6).
    Raises :class:`~referee.errors.ParseError` for a text that names no Location or several (*invalid*, not a
    refusal of the rules; several are named among ``choosable`` when any of them is), also for a position
    without ``row``."""
    text = text.strip()
    numbered = re.fullmatch(r"(\d+)\.?(?:\s+(.*\S))?", text)
    if numbered and numbered.group(2) and row is None:  # a number of another list (a table prompt's): the name says it
        return location_id(db, numbered.group(2), None, choosable)
    if numbered and numbered.group(2) and row is not None:  # the row as a Next line lists it (thirty-third breaker, LOW 20)
        named = location_id(db, numbered.group(2), row, choosable)
        if named not in row:  # won since the row was listed (it closed up), or never dealt: the name says which, and the
            return named  # rules say why it cannot be chosen, as the table does (thirty-fourth breaker, LOW 17: "type one of them")
        at = location_id(db, numbered.group(1), row)
        if at != named:
            raise errors.ParseError(f"{text!r}: Location {numbered.group(1)} of the row is {name(db, at)}, not {name(db, named)}; "
                                    f"type one of them")
        return at
    if numbered:
        text = numbered.group(1)
    if re.fullmatch(r"\d+", text):
        if row is None:
            raise errors.ParseError(f"Location {text} is a position in the row, and no row is known here: name the Location")
        i = int(text)
        if not 1 <= i <= len(row):
            if len(row) == 1:  # (forty-eighth referee breaker, POLISH 4: "Locations 1-1")
                raise errors.ParseError(f"only Location 1 ({name(db, row[0])}) is left in the row, not {i}")
            raise errors.ParseError(f"the row has Locations 1-{len(row)}, not {i}")
        return row[i - 1]
    slug = lambda s: re.sub(r"[^a-z0-9]+", "-", s.lower().replace("'", "")).strip("-")  # noqa: E731
    for card in db.duel.location:
        if text in (card.id, card.id.rsplit(".", 1)[-1]) or slug(text) in (slug(card.name), slug(card.name).removeprefix("the-")):
            return card.id
    begun = [card for card in db.duel.location if slug(text) and any(
        name.startswith(slug(text)) for name in (card.id.rsplit(".", 1)[-1], slug(card.name), slug(card.name).removeprefix("the-")))]
    if len(begun) > 1 and choosable is not None:
        open_to_choose = [card for card in begun if card.id in choosable]
        if len(open_to_choose) == 1:
            return open_to_choose[0].id
        if not open_to_choose and choosable:  # (thirty-fourth breaker, LOW 12: `recall t` named two Locations, neither one
            # that may be chosen now)
            raise errors.ParseError(f"{text!r} begins no Location that may be chosen now: "
                                    f"{', '.join(name(db, x) for x in choosable)}")
        begun = open_to_choose or begun
    if len(begun) == 1:
        return begun[0].id
    if len(begun) > 1:
        raise errors.ParseError(f"{text!r} could be {', '.join(card.name for card in begun)}: type more of it")
    spellings = {spelling: card.name for card in db.duel.location if row is None or card.id in row  # (47th, KIND 4)
                 for spelling in (card.id.rsplit(".", 1)[-1], slug(card.name), slug(card.name).removeprefix("the-"))}
    hint = errors.did_you_mean(text, spellings)
    if row is not None:  # the Locations of this game only, and their numbers (seventeenth breaker: all nine were listed)
        known = ", ".join(f"{i} {card_id.rsplit('.', 1)[-1]}" for i, card_id in enumerate(row, 1))
        raise errors.ParseError(f"no Location {text!r}{hint}; this game's row: {known}")
    known = ", ".join(card.id.rsplit(".", 1)[-1] for card in db.duel.location)
    raise errors.ParseError(f"no Location {text!r}{hint}; Locations are: {known}")
