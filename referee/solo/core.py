"""The core of the solo rules that every battle of *The Grayking is Risen* shares: pure functions of
(state, database).

This module owns what the City Quest battles (:mod:`referee.solo.city`), the Expanded Battles on the
maps (:mod:`referee.solo.expanded`) and the Last Stand (:mod:`referee.solo.laststand`) have in common:

- the one-line error :class:`RuleError` with its kind (:class:`Refusal`) and the :class:`NeedCard` signal (the next card of the
  player's own deck is needed, R7);
- database look-ups (the stats card, the Progress Track, spells, quest cards, names as printed);
- the tracks: :func:`note`, :func:`lose`, :func:`adjust`, :func:`apply_effect` (R1, R2, R56);
- the phase check (:func:`require_phase`), the dice (:func:`roll`, R35) and the quest cards
  (:func:`take`, :func:`turn_over_next`, R7);
- the spell paths (:func:`learnable`, :func:`learnable_now`, :func:`learn_price`, :func:`learn_spell`; R4, R9, R37);
- one of each battle step the three battles share, with what differs between them as parameters:
  the attack dice (:func:`attack_dice`) and totals (:func:`attack_totals`), a re-roll
  (:func:`reroll_own`, :func:`reroll_theirs`), the checks of a cast (:func:`cast_problem`), paying for
  a cast (:func:`pay_for_cast`), a recharge of one spell type (:func:`recharge_type`), and the Elders
  (:func:`elder_problem`, :func:`checked_elder_call`, :func:`call_elder`);
- :class:`OpenRoll`, what a battle step returns when it leaves a losing roll on the table for the
  dispatcher (:func:`referee.solo.rules.apply`) to settle or hold (R34).

Sections of the rulebook seed (``docs/seeds/001_14b82cefec9e9fa1.txt``) are cited in each docstring;
where the rulebook is silent the function follows ``docs/rulings.md`` and cites the ruling (R1, R2 ...).
Numbers and tables come from the database (``cards.toml``), never from here. Nothing here does I/O, and
nothing here imports another module of the rules.

The solo rules (this module and the battle modules above it) write no command line and name no option:
a refusal is a :class:`RuleError` carrying its kind (:class:`Refusal`) and event field, which
:func:`referee.solo.advice.refusal_text` words for the player; a note says what happens and what the
player may do in the rules' words, and the Next line (:func:`referee.solo.advice.next_step`) gives the
commands.
"""
from __future__ import annotations

import enum
from collections.abc import Callable, Iterable
from contextvars import ContextVar
from typing import Any

from pnp.database import Database, Effect, Elder, ProgressTrack, QuestCard, Spell, Stats, Table
from pnp.deferred import dataclass
from referee import errors
from referee.dice import Dice, shuffled
from referee.solo import events as ev
from referee.solo.state import Announcement, Ending, State, replace


class Refusal(enum.Enum):
    """The kinds of refusal the advice layer completes with what to type
    (:func:`referee.solo.advice.refusal_text`); any other refusal reads as its message (with the
    option of its field, :attr:`RuleError.field`).

    ``GAME_OVER``: any event after the game is decided (rulebook, Winning or Losing); ``WRONG_PHASE``: an
    event the game does not wait for now, the message ending with what it waits for (:func:`waiting_for`),
    or a roll that must be settled first (a retreat, R54); ``OFF_THE_MAP``: a hex that is not on the map of
    the battle; ``ALREADY_THERE``: a move to the hex the warden stands on (staying names no hex, R13);
    ``TOO_FAR``: a move to a hex beyond the warden's reach (a path may be named hex by hex); ``THEIR_DICE``:
    dice of the player's own named for a spell that re-rolls the other side's dice (Rime Mirror);
    ``UNDONE``: typed dice, a card of the player's own deck, the player's servant cards or a Warding battle
    fought by hand while the referee's own, shown before an undo, come up again (:func:`replays_undone`).
    """

    GAME_OVER = "game over"
    WRONG_PHASE = "wrong phase"
    OFF_THE_MAP = "off the map"
    ALREADY_THERE = "already there"
    TOO_FAR = "too far"
    THEIR_DICE = "their dice"
    UNDONE = "undone"


class RuleError(errors.RuleError):
    """A command that the rules do not allow now.

    ``str(error)`` is one line saying why, in the rules' own words: no command line, no option name.
    ``refusal`` is its kind (:class:`Refusal`, ``None`` for one its message says in full), ``field`` the
    event field concerned (``"dice"``, ``"enemy"``, ``"reroll"``, ``"rows"``, ``"counter"``, ``"next"``,
    ``"card"``, ``"path"``, ``"place"``, ``"servants"``, ``"spell_type"``, ``"elders"``, ``"difficulty"``,
    ``"spells"`` ...: the command line names its option). :func:`referee.solo.advice.refusal_text` gives
    the line the command line prints.
    """

    def __init__(self, message: str, refusal: Refusal | None = None, field: str | None = None) -> None:
        super().__init__(message)
        self.refusal = refusal
        self.field = field


class NeedCard(Exception):
    """Raised where the next quest card must be turned over from the player's own deck and the command
    named none (R7): :func:`referee.solo.rules.apply` suspends the command (phase ``turn``). ``state`` is
    the state reached so far (its notes and consumed dice), ``what`` what the card is turned over for."""

    def __init__(self, state: State, what: str):
        super().__init__(what)
        self.state, self.what = state, what


# ---- Database look-ups ------------------------------------------------------------------------------------
def stats(db: Database) -> Stats:
    """The Character Stats card (tracks and Warding Keys)."""
    return db.solo.stats[0]


def track(db: Database) -> ProgressTrack:
    """The Grayking's Progress Track."""
    return db.solo.progress_track[0]


def lassadar(db: Database) -> int:
    """The last space of the Progress Track (Lassadar): reaching it loses (rulebook, Setup)."""
    return track(db).spaces


def spell(db: Database, spell_id: str) -> Spell:
    """The spell ``spell_id``; raises :class:`RuleError` when there is none. The spells by id are kept for the
    database (:func:`derived`): the aid search looks a spell up millions of times."""
    answers = derived(db)
    by_id = answers.get("spells by id")
    if by_id is None:
        by_id = answers["spells by id"] = {s.id: s for s in db.solo.spell}
    found = by_id.get(spell_id)
    if found is None:
        from pnp.oneline import listed, quoted  # the ids a save writes, not the short names typed (thirty-first breaker)

        raise RuleError(f"no spell id {quoted(spell_id, 60)}; spell ids are {listed([s.id for s in db.solo.spell], most=4)}")
    return found


def derived(db: Database) -> dict[Any, Any]:
    """The answers kept for ``db`` of questions that depend on its records alone (which never change), by
    question: the rules and the aid search ask the same ones thousands of times a game (issue 14). Kept for a
    few databases at a time, each beside its answers (so that an id is never reused for another)."""
    last = _LAST_DERIVED[0]  # one read: another thread may set it meanwhile
    if last[0] is db:
        return last[1]
    known = _DERIVED.get(id(db))
    if known is None or known[0] is not db:
        if len(_DERIVED) >= 8:  # the tests load many databases: forget the others
            _DERIVED.clear()
        known = _DERIVED[id(db)] = (db, {})
    _LAST_DERIVED[0] = known
    return known[1]


_DERIVED: dict[int, tuple[Database, dict[Any, Any]]] = {}

_LAST_DERIVED: list[tuple[Database | None, dict[Any, Any]]] = [(None, {})]
"""The database :func:`derived` was last asked about, with its answers (most questions ask of the same)."""

DERIVED_KEPT = 100_000
"""The most answers :func:`derived` keeps for one database: a question asked of many values (the spells cast
in a battle) forgets them all past it, and they are found again."""


def quest(db: Database, card_id: str) -> QuestCard:
    """The quest card ``card_id``; raises :class:`RuleError` when there is none."""
    found = db.find(card_id)
    if not isinstance(found, QuestCard):
        raise RuleError(f"no quest card {card_id!r}")
    return found


def elder_card(db: Database, elder_id: str) -> Elder:
    """The Elders card ``elder_id`` (rulebook, If it is an Elders card); raises :class:`RuleError` for
    any other card."""
    card = quest(db, elder_id)
    if not isinstance(card, Elder):
        raise RuleError(f"{card.name} is not an Elders card")
    return card


def name(db: Database, record_id: str) -> str:
    """A card or spell as printed on the card (its name or title)."""
    record = db.get(record_id)
    printed = getattr(record, "name", None) or getattr(record, "title", record_id)
    return str(printed)


def short_id(record_id: str) -> str:
    """The last part of an id, as players type it: ``solo.spell.bind`` -> ``bind``."""
    return record_id.rsplit(".", 1)[-1]


def choices(db: Database, record_ids: Iterable[str]) -> str:
    """Cards or spells as printed, each with the short id to type: ``Bind (bind), Knot (knot)``."""
    return ", ".join(f"{name(db, i)} ({short_id(i)})" for i in record_ids)


def table_for(db: Database, icon: str) -> Table:
    """The rules table printed on the table card with ``icon`` (``win``: Battle Win, ``loss``: Battle Loss)."""
    card = next(c for c in db.solo.table_card if c.icon == icon)
    return db.table(card.table)


def quest_deck(db: Database) -> list[str]:
    """Every quest card id, once per printed copy (rulebook, Setup: "the remaining 22 Quest Cards")."""
    return [q.id for q in db.solo.quests for _ in range(q.copies)]


def plain_text(text: str) -> str:
    """Card text with its inline icons in words (``:mana:`` -> Mana)."""
    for token, word in ((":mana:", "Mana"), (":spirit:", "Spirit"), (":win:", "white cross"), (":loss:", "black circle"),
                        (":next:", "next card value"), (":key:", "Warding Key")):
        text = text.replace(token, word)
    return text


# ---- Tracks -------------------------------------------------------------------------------------------------
QUIET: ContextVar[bool] = ContextVar("quiet", default=False)
"""True while :mod:`referee.solo.aid` searches lines of play that are never shown: notes are not
written (they are not part of a state's value, so every state is the same but for its words)."""

BARRIER_LOCK_REASON = "you cast Barrier Lock with all three Warding Keys"
"""The reason, in words, of a game won with Barrier Lock (:attr:`Ending.BARRIER_LOCK`; rulebook, Winning
or Losing; R12)."""

LAST_STAND_LOST_REASON = "Lassadar is saved, the gates stay locked; but the Last Stand is lost: you fell at the Ash Tower"
"""The reason, in words, of a game whose Last Stand was lost (:attr:`Ending.LAST_STAND_LOST`, R56): the
game stays won."""


def note(state: State, *lines: str) -> State:
    """``state`` with ``lines`` added to its notes (empty lines left out); nothing while :data:`QUIET`."""
    if QUIET.get():
        return state
    return replace(state, notes=state.notes + tuple(line for line in lines if line))


def end(state: State, ending: Ending, reason: str, announcement: str) -> State:
    """The game ended with ``ending`` (``reason``: the same in words), in phase ``over``, with the note
    ``announcement`` saying so (an :class:`~referee.solo.state.Announcement`, which the command line
    colours by the ending)."""
    return note(replace(state, ending=ending, reason=reason, phase="over"), Announcement(announcement, ending))


def lose(state: State, ending: Ending, reason: str) -> State:
    """The game lost with ``ending`` (``reason``: in words; rulebook, Winning or Losing), unless it is
    already decided. In the Last Stand the game is already won with Barrier Lock: falling there loses only
    the Last Stand (R56)."""
    if state.ending is not None:
        return state
    if state.phase == "stand" and state.last_stand is not None:
        return _fall_in_last_stand(state, reason)
    return end(state, ending, reason, f"You have lost: {reason}.")


def _fall_in_last_stand(state: State, why: str) -> State:
    """The warden falls in the Last Stand (``why``: your Spirit fell below 1). The game was won with Barrier
    Lock and stays won: the gates stay locked and Lassadar is saved; only the Last Stand is lost, the warden
    fallen at the Ash Tower (R56): :attr:`Ending.LAST_STAND_LOST`, the Last Stand's ``outcome`` ``lost``."""
    assert state.last_stand is not None
    fallen = replace(state.last_stand, outcome="lost", rolled=False, dice=(), enemy=(), casts=(), roll_elders=(), before_roll=())
    return end(replace(state, last_stand=fallen), Ending.LAST_STAND_LOST, LAST_STAND_LOST_REASON,
               f"You fall at the Ash Tower ({why}): the Last Stand is lost. The gates stay locked: "
               "Lassadar is saved and the game is still won (R56).")


def _track_note(label: str, asked: int, before: int, after: int, low: int, high: int) -> str:
    """What a track move did, in words: the amount actually moved, and, when a track end cut it short, the
    amount asked and where the track ends (R1): ``Spirit +1 (of +4; the track ends at 21): ...``."""
    moved = after - before
    if moved == asked:
        return f"{label} {asked:+d}: move the {label} marker to {after}."
    end = f"the track ends at {high}" if asked > 0 else f"{label} stops at {low}"
    if moved == 0:
        return f"{label} {asked:+d}: nothing changes ({end}); the {label} marker stays on {after}."
    return f"{label} {moved:+d} (of {asked:+d}; {end}): move the {label} marker to {after}."


def adjust(state: State, db: Database, mana: int = 0, spirit: int = 0, grayking: int = 0) -> State:
    """Move the Mana, Spirit and Grayking markers, within the printed tracks; each note says what moved,
    with the amount asked when a track end cut it short.

    Rulebook, Setup and Winning or Losing: Spirit below 1 or the Grayking reaching Lassadar loses.
    R1: no track rises above its last printed space; Mana falls to 0 at the lowest (never negative).
    R2: the Grayking never moves back past the Tower of Ash (space 1).
    """
    card = stats(db)
    high, low = card.track_high, card.track_low
    quiet = QUIET.get()  # nobody reads the notes: none is written (a simulated game, the aid search)
    if mana:
        new = max(0, min(high, state.mana + mana))
        if quiet:
            state = replace(state, mana=new)
        else:
            text = _track_note("Mana", mana, state.mana, new, 0, high)
            if new == 0 and new != state.mana:
                text = text.replace("move the Mana marker to 0.", "Mana is empty (0).")
            state = note(replace(state, mana=new), text)
    if spirit:
        new = max(0, min(high, state.spirit + spirit))
        if new >= low:
            state = replace(state, spirit=new) if quiet else note(replace(state, spirit=new),
                                                                  _track_note("Spirit", spirit, state.spirit, new, low, high))
        else:
            state = note(replace(state, spirit=new), f"Spirit {spirit:+d}: Spirit falls below {low}.")
            state = lose(state, Ending.SPIRIT_FALLEN, f"your Spirit fell below {low}")
    if grayking:
        end = lassadar(db)
        new = max(1, min(end, state.grayking + grayking))
        if quiet:
            state = replace(state, grayking=new) if new != state.grayking else state
        else:
            state = _move_grayking(state, db, grayking, new)
        if new >= end:
            state = lose(state, Ending.GRAYKING_AT_LASSADAR, "the Grayking reached Lassadar")
    return state


def _move_grayking(state: State, db: Database, grayking: int, new: int) -> State:
    """The Grayking's marker moved ``grayking`` spaces, to ``new`` within the track (R2), with the note
    saying so (:func:`adjust`)."""
    steps = abs(new - state.grayking)
    named = next((p.name for p in track(db).names if p.space == new), None)
    where = f"{named} (space {new})" if named else f"space {new}"
    toward = "toward Lassadar" if grayking > 0 else "away from Lassadar"
    short = "" if steps == abs(grayking) else f" (of {abs(grayking)}; the track ends at {where})"
    if new != state.grayking:
        state = note(replace(state, grayking=new),
                     f"The Grayking moves {steps} {'space' if steps == 1 else 'spaces'} {toward}{short}: move the marker to {where}.")
    else:
        state = note(state, f"The Grayking would move {abs(grayking)} {'space' if abs(grayking) == 1 else 'spaces'} {toward}, "
                            f"but he is already at {where}, the end of the track: he stays.")
    return state


def apply_effect(state: State, db: Database, effect: Effect, next_value: int = 0) -> State:
    """Apply the track parts of an effect: ``mana``, ``spirit``, ``grayking``, the ``*_per_next`` parts
    (times the next card value) and ``grayking_per_two_spirit`` (per two Spirit actually gained, R36).
    Spell choices (``learn_spell``, ``learn_spells``) are left to the caller.
    """
    mana = effect.mana + effect.mana_per_next * next_value
    spirit = effect.spirit + effect.spirit_per_next * next_value
    before = state.spirit
    state = adjust(state, db, mana=mana, spirit=spirit, grayking=effect.grayking)
    if effect.grayking_per_two_spirit and state.result is None:
        gained = max(0, state.spirit - before)
        state = adjust(state, db, grayking=(gained // 2) * effect.grayking_per_two_spirit)
    return state


# ---- Phases -------------------------------------------------------------------------------------------------
def require_phase(state: State, wanted: str | tuple[str, ...] | None, what: str | Callable[[], str]) -> None:
    """Raise :class:`RuleError` unless the game is in one of the ``wanted`` phases (``None``: any phase)
    and not over: of kind :attr:`Refusal.GAME_OVER`, or :attr:`Refusal.WRONG_PHASE` saying that ``what``
    (the event in words: ``drawing a quest card``; or a function giving them, called only for the refusal)
    does not fit now and what the game waits for (:func:`waiting_for`)."""
    wanted = (wanted,) if isinstance(wanted, str) else wanted
    if state.result is not None:
        raise RuleError(f"the game is over (you {state.result}: {state.reason})", Refusal.GAME_OVER)
    if wanted is not None and state.phase not in wanted:
        raise wrong_phase(state, what if isinstance(what, str) else what())


def wrong_phase(state: State, what: str) -> RuleError:
    """The refusal of ``what`` (an event in words) in a phase or step that does not wait for it: of kind
    :attr:`Refusal.WRONG_PHASE`, saying what the game waits for (:func:`waiting_for`)."""
    return RuleError(f"{what} does not fit now: {waiting_for(state)}", Refusal.WRONG_PHASE)


def waiting_for(state: State) -> str:
    """What the game waits for, in a few words (the Next line, :mod:`referee.solo.advice`, gives every
    choice with its command): in a map battle, the step of the round (rulebook, Expanded Battles, phases
    a-c); in the Last Stand, whether a round is rolled."""
    mb, ls = state.map_battle, state.last_stand
    if state.phase == "map" and mb is not None:
        return {
            "move": "round {r}, phase a: move",
            "attack": "round {r}, phase b: the next servant attacks",
            "exchange": "round {r}, phase b: an attack is rolled: cast a spell, call an Elder or accept it",
            "eldritch": "round {r}, phase c: roll for Eldritch Damage",
            "eldritch-rolled": "round {r}, phase c: the Eldritch roll waits: cast a re-roll spell or accept it",
        }[mb.step].format(r=mb.round)
    if state.phase == "stand" and ls is not None:
        return ("the Last Stand's roll is on the table: cast a spell, call an Elder or accept it" if ls.rolled
                else "roll the Last Stand's next attack")
    return {
        "draw": "draw the next quest card",
        "battle": "fight the City Quest on the table",
        "rolled": "the battle is rolled: cast a spell, call an Elder or accept the loss",
        "loss": "a Battle Loss row is waiting: lower it with a spell or an Elder, or accept it",
        "learn": "choose a spell to learn, or learn none",
        "council": "resolve the Council of Wardens card",
        "warding": "set up the Warding City's map, or enter the outcome of its battle fought by hand",
        "map": "fight the Expanded Battle on the map",
        "stand": "fight the Last Stand",
        "turn": "turn over the next card of your deck and name it",
    }.get(state.phase, state.phase)


def called(db: Database, record_id: str) -> str:
    """A card or spell as printed (:func:`name`), or its short id when the database has no such record
    (for a refusal that comes before the record is looked up)."""
    try:
        return name(db, record_id)
    except KeyError:
        return short_id(record_id)


def reroll_field(event: ev.Cast | ev.CallElder) -> str:
    """The field of a re-roll refused as a whole: ``reroll`` when the event names dice to re-roll, else
    ``dice`` (new dice typed for a spell or an Elder that re-rolls none)."""
    return "reroll" if event.reroll else "dice"


# ---- Dice ---------------------------------------------------------------------------------------------------
def dice_replayed(state: State) -> int:
    """How many of the referee's next dice were shown before an undo (``dice_shown - dice_used``): they
    come up again, and the player's own dice are refused until they are used."""
    return max(0, state.dice_shown - state.dice_used)


def deck_replayed(state: State) -> int:
    """How many of the referee's next deck cards were shown before an undo (``deck_shown - deck_taken``)."""
    return max(0, state.deck_shown - state.deck_taken)


def shuffles_replayed(state: State) -> int:
    """How many of the referee's next shuffles (servant cards, a new draw pile) were shown before an undo."""
    return max(0, state.shuffles_shown - state.shuffles)


def replays_undone(state: State) -> bool:
    """Whether the referee's next dice, cards or shuffles were shown before an undo (:func:`dice_replayed`,
    :func:`deck_replayed`, :func:`shuffles_replayed`): they come up again as they did, whatever steps
    come first, and the player's own of that kind (typed dice, a card of their own deck while the
    referee's deck is in use, their servant cards, a Warding battle fought by hand) are refused until
    they are used, so that undo never buys another roll or draw (rulebook, Dice; the referee's dice stand
    as rolled, as in the two-player game, R78)."""
    return bool(dice_replayed(state) or deck_replayed(state) or shuffles_replayed(state))


def with_marks(state: State) -> State:
    """``state`` with its marks raised to its counters (:attr:`State.dice_shown` and the others): every
    rule's step ends with it (:func:`referee.solo.rules.apply`)."""
    if state.dice_shown >= state.dice_used and state.deck_shown >= state.deck_taken and state.shuffles_shown >= state.shuffles:
        return state
    return replace(state, dice_shown=max(state.dice_shown, state.dice_used), deck_shown=max(state.deck_shown, state.deck_taken),
                   shuffles_shown=max(state.shuffles_shown, state.shuffles))


def card_place(state: State, card_id: str) -> str | None:
    """Where the quest card ``card_id`` is when it is not in the draw pile, in words (``on the discard
    pile``), or ``None`` when it is there (rulebook, Play: the piles; Elders beside the stats card)."""
    if card_id in state.deck:
        return None
    if card_id in (state.card, state.battle.card if state.battle else None):  # counted with the discard pile while fought
        return "on the table: the card you fight"
    if card_id in dict(state.elders):
        return "beside the Character Stats card (an Elder)"
    if card_id in state.discard:
        return "on the discard pile"
    return "out of the game" if card_id in state.removed else "not in the quest deck"


def undo_problem(before: State, after: State) -> str | None:
    """Why the step from ``before`` to ``after`` may not be taken back (ruling 84), or ``None``: it showed
    the referee's dice, a card of the referee's deck or the referee's shuffle of a deck (the servant cards,
    a new draw pile). Seen, they stand, as a die rolled at the table stands: taken back, the player could
    choose again knowing them (escape a seen attack by retreating, call Elder San on seen dice), as in
    the two-player game (R78, ruling 83). Dice typed and cards of the player's own deck may be taken back
    (a typo is the usual reason)."""
    shown = [what for what, grew in (("dice", after.dice_used > before.dice_used),
                                     ("cards", after.deck_taken > before.deck_taken),
                                     ("shuffle", after.shuffles > before.shuffles)) if grew]
    if not shown:
        return None
    words = {"dice": "the referee's dice", "cards": "a card of the referee's deck", "shuffle": "the referee's shuffle of a deck"}
    # a game that step ended is over: nothing to play on (thirty-ninth referee breaker, LOW 5)
    way_on = "the game is over: start a new one" if after.ending is not None else "play on from here"
    return (f"undo cannot take back this step: it showed {' and '.join(words[w] for w in shown)}, and what the referee "
            f"showed stands, as a roll at the table does (ruling 84); {way_on}")


def undone_refusal(what: str, count: int, field: str) -> RuleError:
    """The refusal of the player's own ``what`` (``dice``, ``cards``) while the referee's next ``count``
    of them were shown before an undo, of kind :attr:`Refusal.UNDONE` and field ``field``."""
    return RuleError(f"undo does not roll or draw again: the referee's next {count} {what} were shown before the undo and come "
                     f"up again as they did; yours are taken again once they are used", Refusal.UNDONE, field)


def roll(state: State, db: Database, typed: Dice | None, count: int, field: str, what: str,
         track: bool = True) -> tuple[State, Dice]:
    """``count`` dice for ``field``: the player's typed dice (checked) or the referee's next dice (R35).
    Returns the state with the dice recorded in ``consumed`` (and the referee's dice counted), and the dice.
    ``track``: whether these dice tell how the player rolls (``State.dice_typed``, which the advice
    follows); the Grayking's counter dice in the Last Stand do not, nor the referee's dice of steps
    shown before an undo (:func:`dice_replayed`). Raises :class:`RuleError` of field
    ``field`` naming ``what`` when the typed dice are not ``count``, or when the dice of a save are not the
    referee's."""
    replayed = dice_replayed(state)
    changes: dict[str, object] = {}
    if typed is not None and typed.typed:
        if replayed:
            raise undone_refusal("dice", replayed, field)
        if len(typed.values) != count:
            raise RuleError(f"{what} needs {count} {'die' if count == 1 else 'dice'}, you typed {len(typed.values)} ({typed})", field=field)
        dice = typed
    else:
        dice = Dice.roll(state.setup.seed, state.dice_used, count)
        if typed is not None and typed != dice:
            raise RuleError(f"{field}: the referee's dice at k={state.dice_used} are {dice}, not {typed} (corrupt save?)")
        changes["dice_used"] = state.dice_used + count
    changes["consumed"] = state.consumed + ((field, dice),)
    if track and not replayed:  # the referee's dice shown before an undo tell nothing of the player's way
        changes["dice_typed"] = dice.typed
    return replace(state, **changes), dice


def kept_dice(dice: tuple[int, ...], reroll: tuple[int, ...]) -> list[int]:
    """The dice of ``dice`` left after taking out the values in ``reroll`` (one die per value named).

    Raises :class:`RuleError` of field ``reroll`` when nothing is named or a value is not showing.
    """
    if not reroll:
        raise RuleError(f"name the dice to re-roll by their values; your dice show {' '.join(map(str, dice))}", field="reroll")
    left = list(dice)
    for value in reroll:
        if value not in left:
            showing = dice.count(value)
            raise RuleError(f"your dice show {' '.join(map(str, dice))}; "
                            + (f"there is no {value} to re-roll" if not showing else
                               f"only {showing} of them show{'s' if showing == 1 else ''} {value}"), field="reroll")
        left.remove(value)
    return left


def reroll_own(state: State, db: Database, on_table: tuple[int, ...], reroll: tuple[int, ...], typed: Dice | None,
               show_dice: bool = True) -> tuple[State, tuple[int, ...]]:
    """Re-roll the player's dice named in ``reroll`` (by their values) among ``on_table``: a spell that
    re-rolls your dice (Ember Hook, Glass Lake) or Elder Maelis, in every battle (rulebook, Play; R50, R51).
    Returns the state with the new dice rolled (:func:`roll`, field ``dice``) and noted, and the player's
    dice after: the kept ones, then the new ones. ``show_dice``: whether the note lists the dice after (a
    map battle's note does not). Raises :class:`RuleError` as :func:`kept_dice` and :func:`roll` do."""
    left = kept_dice(on_table, reroll)
    state, new = roll(state, db, typed, len(reroll), "dice", "the re-roll")
    dice = tuple(left) + new.values
    shown = f": your dice show {' '.join(map(str, dice))}" if show_dice else ""
    return note(state, f"You re-roll {' '.join(map(str, reroll))} and get {new}{shown}."), dice


def reroll_theirs(state: State, db: Database, spell_name: str, reroll: tuple[int, ...], count: int, typed: Dice | None,
                  side: str, plural: bool = False) -> tuple[State, tuple[int, ...]]:
    """The other side re-rolls all its ``count`` dice: a spell that makes the servants or the Grayking
    re-roll (Rime Mirror; rulebook, Play; R46; R21). ``side`` names them as the notes do (``the servants``,
    ``the servant``, ``the Grayking``; ``plural`` for the first). Returns the state with the dice rolled
    (:func:`roll`, field ``dice``) and noted, and the new dice. Raises :class:`RuleError` (of kind
    :attr:`Refusal.THEIR_DICE`) when the player names dice of their own to re-roll (``reroll``; the spell
    ``spell_name`` re-rolls only the other side's), and as :func:`roll` does."""
    possessive = f"{side}'" if plural else f"{side}'s"
    if reroll:
        raise RuleError(f"{spell_name} re-rolls {possessive} dice, not yours; give only their new dice", Refusal.THEIR_DICE, "reroll")
    state, new = roll(state, db, typed, count, "dice", f"{possessive} re-roll")
    said = f"{side[0].upper()}{side[1:]} re-roll{'' if plural else 's'}"
    return note(state, f"{said}: {new}."), new.values


# ---- Cards ------------------------------------------------------------------------------------------------------
def take(state: State, db: Database, wanted: ev.CardRef | None, field: str, what: str) -> tuple[State, str | None]:
    """Take a card from the top of the quest draw pile (or the card the player typed), reshuffling the
    discard pile into a new pile first when the pile is empty (rulebook, Expanded Battles, 7; R7).
    Records the card in ``consumed`` under ``field``. Returns ``None`` when no card is left anywhere.
    Raises :class:`RuleError` for a card that cannot be taken now, and :class:`NeedCard` when the next
    card must come from the player's own deck and none was named (R7)."""
    if not state.deck:
        if not state.discard:
            return note(state, f"No quest card is left to turn over for {what}."), None
        order = shuffled(state.setup.seed, state.shuffles, state.discard)
        state = note(replace(state, deck=order, discard=(), shuffles=state.shuffles + 1),
                     f"The Quest draw pile is exhausted: shuffle the discard pile ({len(order)} cards) to form a new draw pile.")
    named = state.battle.named_next if field == "next" and state.battle is not None else None
    if named is not None:  # named with the roll while aid could still turn it (R7)
        if wanted is not None and wanted.id != named.id:
            raise RuleError(f"you named {name(db, named.id)} as the next card with the roll; "
                            f"it is turned over now, not {name(db, wanted.id)}", field="next")
        wanted = named
        state = replace(state, battle=replace(state.battle, named_next=None))
    if wanted is None:
        if field == "next" and state.own_deck:
            raise NeedCard(state, what)
        card_id = state.deck[0]
        ref = ev.CardRef(card_id, False)
    else:
        card_id = wanted.id
        ref = wanted
        quest(db, card_id)
        if wanted.typed:
            if deck_replayed(state) and not state.own_deck:
                raise undone_refusal("quest cards", deck_replayed(state), field)
            where = card_place(state, card_id)
            if where is not None:
                raise RuleError(f"{name(db, card_id)} cannot be turned over from the Quest draw pile: it is {where}", field=field)
        elif state.deck[0] != card_id:
            raise RuleError(f"the referee's top card is {name(db, state.deck[0])}, not {name(db, card_id)} (corrupt save?)")
    index = state.deck.index(card_id)
    state = replace(state, deck=state.deck[:index] + state.deck[index + 1:], consumed=state.consumed + ((field, ref),),
                    deck_taken=state.deck_taken + (0 if ref.typed else 1))
    if field == "card":  # drawing from one's own deck means the next cards come from it too (R7)
        state = replace(state, own_deck=ref.typed)
    return state, card_id


def turn_over_next(state: State, db: Database, wanted: ev.CardRef | None, what: str) -> tuple[State, QuestCard | None]:
    """Turn over the next card onto the discard pile and return it (rulebook, Play: Battle Win, Battle
    Loss, next card value). Any kind of quest card may be the next card; its own instructions are not
    followed (R7). Raises as :func:`take` does."""
    state, card_id = take(state, db, wanted, "next", what)
    if card_id is None:
        return state, None
    card = quest(db, card_id)
    state = note(replace(state, discard=state.discard + (card_id,)),
                 f"Turn over the next card, {card.name}, onto the discard pile ({_icons(card)}).")
    return state, card


def _icons(card: QuestCard) -> str:
    return f"white cross {card.win}, black circle {card.loss}, gray square {card.next_value}"


# ---- Spell paths ---------------------------------------------------------------------------------------------
def _row_taken(db: Database, candidate: Spell, learned: set[str]) -> bool:
    """Whether a spell of ``candidate``'s type and row below the top is learned already (R4)."""
    return any(other.id in learned and other.spell_type == candidate.spell_type and other.slot[0] == candidate.slot[0]
               for other in db.solo.spell)


def closed_spells(db: Database, learned: Iterable[str]) -> set[str]:
    """Spells the learned ones have closed (rulebook, Setup: "because Hammer Plate was learned, the
    player may not go back and learn Brittle Knives"; R4): every unlearned spell below the top row of a
    row where a spell of its type is learned. One step is taken on each row of a path."""
    learned = set(learned)
    return {s.id for s in db.solo.spell
            if s.learnable and s.id not in learned and s.slot[0] > 1 and _row_taken(db, s, learned)}


def _opened(db: Database, spell_id: str, learned: set[str]) -> bool:
    """Whether a learned spell's arrow leads to ``spell_id`` and no spell of its row is learned (R4)."""
    candidate = spell(db, spell_id)
    return (any(o.id in learned and spell_id in o.opens for o in db.solo.spell)
            and not _row_taken(db, candidate, learned))


def learnable(state: State, db: Database) -> list[str]:
    """Spells the player may learn now, in database order (rulebook, Setup; R4): not learned, learnable
    (Barrier Lock is not, R12), and either a top spell or opened by a learned spell's arrow on a row
    where no spell of its type is learned yet. Found once per database and spells learned (:func:`derived`)."""
    answers = derived(db)
    key = ("learnable", state.spells)
    found = answers.get(key)
    if found is None:
        learned = set(state.spells)
        found = answers[key] = tuple(s.id for s in db.solo.spell
                                     if s.learnable and s.id not in learned and (s.slot[0] == 1 or _opened(db, s.id, learned)))
    return list(found)


def learn_price(db: Database, spell_id: str, price: str) -> tuple[int, int]:
    """(Mana, Spirit) to pay for learning a spell: one Mana at Battle Win row 4 (``one-mana``, R9), or its
    printed bracketed cost (``cost``, Council of Wardens, R37; nothing when it prints none). Raises
    :class:`RuleError` for an unknown spell."""
    chosen = spell(db, spell_id)
    if price == "one-mana":
        return 1, 0
    return (chosen.learn_cost.mana, chosen.learn_cost.spirit) if chosen.learn_cost else (0, 0)


def learnable_now(state: State, db: Database) -> list[str]:
    """The spells the pending choice lets the player learn now (phase ``learn``): :func:`learnable`
    ones whose price the player's Mana can pay (R9, R37); empty outside that phase."""
    if state.pending is None:
        return []
    return [s for s in learnable(state, db) if learn_price(db, s, state.pending.price)[0] <= state.mana]


def learn_spell(state: State, db: Database, spell_id: str, price: str) -> State:
    """Learn a spell along the paths (R4), paying one Mana (``one-mana``, Battle Win row 4, R9) or its
    bracketed cost (``cost``: Setup, R3; Council of Wardens, R37). Raises :class:`RuleError` for a spell
    already learned, one the paths do not open now, or one the Mana cannot pay for."""
    chosen = spell(db, spell_id)
    if spell_id in state.spells:
        raise RuleError(f"you have already learned {chosen.name}")
    if spell_id not in learnable(state, db):
        why = ("it is not learned along a path (R12)" if not chosen.learnable
               else "no learned spell's arrow leads to it, or a choice on its path closed it (R4)")
        options = ", ".join(name(db, s) for s in learnable(state, db)) or "none"
        raise RuleError(f"{chosen.name} cannot be learned: {why}; learnable now: {options}")
    mana, spirit = learn_price(db, spell_id, price)
    if mana > state.mana:
        raise RuleError(f"learning {chosen.name} costs {mana} Mana; you have {state.mana}")
    state = note(replace(state, spells=state.spells + (spell_id,)),
                 f"You learn {chosen.name}: place a marker on it on the {chosen.spell_type.capitalize()} Spell Path card.")
    return adjust(state, db, mana=-mana, spirit=-spirit)


# ---- Attack rolls (every battle) --------------------------------------------------------------------------------
def attack_dice(state: State, db: Database, elders: Iterable[str] = (), extra: int = 0) -> tuple[int, int]:
    """(player's dice, the other side's dice) of an attack roll, in every battle (rulebook, Play;
    Expanded Battles phase b; Last Stand; R5, R6).

    The player rolls the rules' attack dice plus every learned spell's extra dice ("always part of your
    attack strength") plus the free dice of the ``elders`` called for this roll (Elder San). The other
    side rolls the same attack dice, without the free dice ("his extra attack die does not count towards
    the number rolled by the Grayking", R6), plus its ``extra`` dice: the rules' extra servant dice and the
    City Quest card's (rulebook, Play), the servant's one more die (phase b), or the Grayking's one more
    (Last Stand card).
    """
    attack = db.solo.rules.attack_dice + sum(spell(db, s).extra_dice for s in state.spells)
    free = sum(elder_card(db, e).aid.free_dice for e in elders)
    return attack + free, attack + extra


def spell_bonus(effect: Effect, foe: str | None) -> int:
    """What a spell cast on a roll adds to the player's total (R5): its bonus against the foe's servant
    type when it names one (R40, R41), else its ``attack_total``. ``foe`` is None where no servant type is
    fought (a City Quest without one, the Last Stand)."""
    return effect.against[foe] if foe is not None and foe in effect.against else effect.attack_total


def attack_totals(db: Database, dice: tuple[int, ...], enemy: tuple[int, ...], casts: Iterable[str], foe: str | None = None,
                  bonus: int = 0) -> tuple[int, int]:
    """(player's total, the other side's total) of an attack roll on the table, in every battle (rulebook,
    Play: equal or greater wins; R5): the player's ``dice`` plus ``bonus`` (a City Quest card's attack
    modifier) plus every spell of ``casts`` (:func:`spell_bonus` against ``foe``); the other side's
    ``enemy`` dice without its highest ones, one for each ``remove_servant_die`` cast (Shield, R41):
    :func:`cast_terms`."""
    added, removed = cast_terms(db, tuple(casts), foe)
    return sum(dice) + bonus + added, without_highest(enemy, removed)


def cast_terms(db: Database, casts: tuple[str, ...], foe: str | None = None) -> tuple[int, int]:
    """What the spells ``casts`` bring to an attack roll (rulebook, Play; R5, R41): (the sum of their
    :func:`spell_bonus` against ``foe``, how many of the other side's highest dice they remove), found once per
    database and casts (:func:`derived`, at most :data:`DERIVED_KEPT` answers kept)."""
    answers = derived(db)
    key = ("cast terms", casts, foe)
    terms = answers.get(key)
    if terms is None:
        added = removed = 0
        for spell_id in casts:
            effect = spell(db, spell_id).effect
            added += spell_bonus(effect, foe)
            removed += effect.remove_servant_die
        if len(answers) >= DERIVED_KEPT:
            answers.clear()
        terms = answers[key] = (added, removed)
    return terms


def without_highest(dice: tuple[int, ...], removed: int) -> int:
    """The total of ``dice`` without the ``removed`` highest ones (Shield, R41)."""
    ordered = sorted(dice)
    return sum(ordered[:max(0, len(ordered) - removed)])


# ---- Casting a spell (every battle) ------------------------------------------------------------------------------
@dataclass(frozen=True)
class CastWords:
    """How one battle words two checks every cast shares (see :func:`cast_problem`): ``passive`` for a
    spell whose extra dice act by themselves, ``used`` for a spell used already. Templates for
    :meth:`str.format` with ``name`` (the spell's) and ``extra`` (``1 extra die``, ``2 extra dice``)."""

    passive: str
    used: str


SpellCheck = Callable[[State, Database, Spell], str | None]
"""A battle's own check of a cast: why the spell cannot be cast now (None when it can)."""


def cast_problem(state: State, db: Database, chosen: Spell, words: CastWords, place: SpellCheck, timing: SpellCheck) -> str | None:
    """Why ``chosen`` cannot be cast now (None when it can), in the order every battle checks it: the
    spell must be learned (rulebook, Setup), be cast at all (a spell of extra dice adds them by itself),
    fit the battle (``place``: a City Quest battle, R32; neither Battle Loss nor event text on a map, R46,
    or in the Last Stand, R21), be unused (once a battle unless recharged, rulebook Play; once a round on a
    map, R45; once in the Last Stand, R23), fit the moment (``timing``: before or after the roll, R10, R46,
    R23), do something (a spell that only recharges needs a used spell, R86) and its per-use Mana cost be paid
    (rulebook, Setup). ``words`` gives each battle's wording."""
    if chosen.id not in state.spells and chosen.effect.barrier_lock:  # never learned, cast with the keys (R12; thirty-
        # third breaker, MED 8: a battle refused it as "you have not learned Barrier Lock")
        return f"{chosen.name} is not cast in a battle: it is cast before you draw, holding all 3 Warding Keys (R12)"
    if chosen.id not in state.spells:
        return f"you have not learned {chosen.name}"
    if chosen.extra_dice and chosen.effect == Effect():
        extra = f"{chosen.extra_dice} extra {'die' if chosen.extra_dice == 1 else 'dice'}"
        return words.passive.format(name=chosen.name, extra=extra)
    problem = place(state, db, chosen)
    if problem:
        return problem
    if chosen.id in state.used:
        return words.used.format(name=chosen.name)
    problem = timing(state, db, chosen)
    if problem:
        return problem
    if chosen.effect.recharge and chosen.effect == Effect(recharge=True) and not any(spell_id != chosen.id for spell_id in state.used):
        return (f"no spell is used, so {chosen.name} would recharge nothing and be spent for nothing "
                f"(R86; cast it once a spell is used)")
    if chosen.cost and chosen.cost.mana > state.mana:
        return f"{chosen.name} costs {chosen.cost.mana} Mana; you have {state.mana}"
    return None


def lowers_battle_loss(effect: Effect) -> bool:
    """Whether a spell's or an Elder's effect acts on a City Quest's Battle Loss row (lowers, cancels or
    lessens it; rulebook, Play; R8): a map battle and the Last Stand have no Battle Loss table (R46, R21, R51)."""
    return bool(effect.loss_rows or effect.cancel_loss or effect.grayking_less)


def acts_on_city_quest(effect: Effect) -> bool:
    """Whether a spell acts only on a City Quest (its Battle Loss row or its event text, or Barrier Lock,
    cast between quest cards): never cast on a map (R46) or in the Last Stand (R21)."""
    return bool(effect.barrier_lock or lowers_battle_loss(effect) or effect.cancel_event)


def pay_for_cast(state: State, db: Database, chosen: Spell, remark: str = "", stop_when_decided: bool = True) -> State:
    """Cast ``chosen`` in any battle, the part every battle shares (rulebook, Setup and Play): the note
    (``remark`` added to it), the spell marked used, its per-use cost paid, its Mana and Spirit gains
    applied and, for a spell that recharges (Calm), every other used spell recharged. The caller has
    checked :func:`cast_problem` and applies the rest of the effect.

    ``stop_when_decided``: whether the cast stops as soon as paying decides the game (a City Quest battle,
    a map battle). In the Last Stand a Spirit cost that makes the warden fall (R56) does not stop it: the
    gains are still applied and noted, as the Last Stand always has done.
    """
    state = replace(state, used=state.used + (chosen.id,))
    if not QUIET.get():
        state = note(state, f"You cast {chosen.name}: {plain_text(chosen.text)}{remark}")
    if chosen.cost:
        state = adjust(state, db, mana=-chosen.cost.mana, spirit=-chosen.cost.spirit)
        if state.result and stop_when_decided:
            return state
    state = adjust(state, db, mana=chosen.effect.mana, spirit=chosen.effect.spirit)
    if state.result and stop_when_decided:
        return state
    if chosen.effect.recharge:
        state = note(replace(state, used=tuple(s for s in state.used if s == chosen.id)), "Your used spells are recharged.")
    return state


def recharge_problem(state: State, db: Database, spell_type: str) -> str | None:
    """Why recharging every spell of ``spell_type`` would bring nothing back (None when it brings back at
    least one used spell): not a spell type, no learned spell of that type, or none of them used. The blue
    cross (rulebook, phase a; R47) and the Last Stand's gray spaces (card text; R23) give a once-only
    recharge; one that recharges nothing is refused, not spent (R53)."""
    kind = spell_type.lower()
    types = [p.spell_type for p in db.solo.spell_path]
    if kind not in types:
        return f"{spell_type!r} is not a spell type; choose {', '.join(types)}"
    held = [s for s in state.spells if spell(db, s).spell_type == kind]
    if not held:
        return f"you have learned no {kind.capitalize()} spell; recharge a type you hold (R53)"
    if not any(s in state.used for s in held):
        used = ", ".join(name(db, s) for s in state.used) or "none"
        return (f"none of your {kind.capitalize()} spells ({', '.join(name(db, s) for s in held)}) is used, so the recharge would "
                f"bring nothing back and be spent for nothing (R53); used now: {used}")
    return None


def recharge_type(state: State, db: Database, spell_type: str) -> tuple[State, list[str]]:
    """Recharge every used spell of ``spell_type`` (the blue cross, rulebook phase a, R47; a gray space
    of the Last Stand, R23): the state with them no longer used, and the spells brought back, in the order
    used. The caller has checked where and when the recharge is allowed (:func:`recharge_problem`)."""
    back = [s for s in state.used if spell(db, s).spell_type == spell_type]
    return replace(state, used=tuple(s for s in state.used if s not in back)), back


# ---- Elders (every battle) ---------------------------------------------------------------------------------------
def elder_problem(state: State, db: Database, elder_id: str, called: tuple[str, ...]) -> str | None:
    """Why an Elder cannot aid the battle in progress, whatever the moment (None when it may; R11).

    Rulebook, If it is an Elders card: "You may call on the power of each Elder three times, rotating
    the card each time. Once they have given you their aid, remove the card from the game ... Each
    Elder's power may only be used once in a battle." ``called`` are the Elders already called in this
    battle (a City Quest battle, a whole map battle, R50, or the whole Last Stand, R51). Each battle adds
    its own timing to this (:func:`referee.solo.city.elder_problem`, :func:`referee.solo.expanded.elder_problem`,
    :func:`referee.solo.laststand.elder_problem`). Raises :class:`RuleError` for an unknown card.
    """
    card = quest(db, elder_id)
    if not isinstance(card, Elder):
        return f"{card.name} is not an Elders card"
    if elder_id in called:
        return f"{card.name} has already aided you in this battle (each Elder once per battle)"
    if state.elder_uses(elder_id) <= 0:
        if elder_id in state.removed:
            return f"{card.name} has given all {db.solo.rules.elder_uses} uses and left the game"
        return f"{card.name} is not beside your Character Stats card"
    return None


def checked_elder_call(db: Database, event: ev.CallElder, problem: str | None, without_next_card: str | None = None) -> Elder:
    """The Elder card of a call, after the checks every battle shares: the ``problem`` the battle's own
    rules found (its ``elder_problem``), no next card where the battle turns over none
    (``without_next_card`` names it: a map battle, the Last Stand) and no dice to re-roll or new dice for
    an Elder who re-rolls nothing. Raises :class:`RuleError` naming what is wrong (R11, R50, R51)."""
    card = quest(db, event.elder)
    if problem:
        raise RuleError(f"cannot call on {card.name}: {problem}")
    assert isinstance(card, Elder)
    if without_next_card is not None and event.next is not None:
        raise RuleError(f"{without_next_card} turns over no next card", field="next")
    if (event.reroll or event.dice is not None) and not card.aid.reroll_own:
        raise RuleError(f"{card.name} re-rolls no dice", field=reroll_field(event))
    return card


def call_elder(state: State, db: Database, elder_id: str) -> State:
    """Spend one use of an Elder called on (rulebook, If it is an Elders card; R11): rotate the card, or
    remove it from the game after its last use, whatever the outcome of its aid. The caller has checked
    the call (:func:`checked_elder_call`) and applies the aid."""
    card = elder_card(db, elder_id)
    if not QUIET.get():
        state = note(state, f"{card.name} aids you: {plain_text(card.text)}")
    return spend_elder_use(state, elder_id)


def spend_elder_use(state: State, elder_id: str) -> State:
    """One use of an Elder spent without its note (rulebook, If it is an Elders card; R11): the card
    rotated, or removed from the game after its last use; also for an Elder that aided a Warding City
    battle fought by hand (R38)."""
    uses = state.elder_uses(elder_id) - 1
    elders = tuple((e, uses if e == elder_id else u) for e, u in state.elders if e != elder_id or uses > 0)
    state = replace(state, elders=elders)
    if uses <= 0:
        return note(replace(state, removed=state.removed + (elder_id,)), "That was the Elder's last use: remove the card from the game.")
    return note(state, f"Rotate the Elder's card: {uses} {'use' if uses == 1 else 'uses'} left.")


# ---- A roll left open (R34) ---------------------------------------------------------------------------------------
@dataclass(frozen=True)
class OpenRoll:
    """A losing roll a battle step leaves on the table, not yet settled (R34; rulebook, Play).

    The rules settle a losing roll at once only when nothing the player may still do can turn it. That
    is :func:`referee.solo.aid.options`'s question, and aid searches with the battle modules' own steps,
    so the battle modules do not ask it: they return an ``OpenRoll`` and the dispatcher
    (:func:`referee.solo.rules.apply`) asks. When aid finds nothing, ``settle(state, db)`` settles the roll
    (which may leave another roll open: a City Quest's Battle Loss row after its lost roll); otherwise
    ``hold(state, db, aid_ids)`` writes what waits, given a function that returns the ids of the aid
    that can turn it (called only by a hold that names them: the exact search is costly; ``None``: the
    state waits as it is)."""

    state: State
    settle: Callable[[State, Database], State | OpenRoll]
    hold: Callable[[State, Database, Callable[[], list[str]]], State] | None = None


Outcome = State | OpenRoll
"""What a battle step returns: the new state, or a losing roll left open for the dispatcher (:class:`OpenRoll`)."""
