"""The rules of *The Grayking is Risen*: pure functions of (state, database, event), dispatched.

This module is the one door to the solo rules. :func:`apply` applies one event (a fully or partly
resolved command) and returns the new state, or raises :class:`RuleError` with one line saying what
is wrong and what would be right (its kind and field for :func:`referee.solo.advice.refusal_text`),
leaving the old state untouched; :func:`resolve` fills in every die
and card the referee supplied, by value, for the save file; :func:`apply_turn` finishes a command that
waited for the next card of the player's own deck (R7). Nothing here does I/O.

The rules themselves live in the modules below this one, in layers (``tests/test_imports.py`` checks
them): :mod:`referee.solo.core` (what every battle shares) under :mod:`referee.solo.start` (Setup),
:mod:`referee.solo.city` (City Quest battles, drawing, learning, the Council of Wardens),
:mod:`referee.solo.expanded` (the Expanded Battles and the Warding City card) and
:mod:`referee.solo.laststand` (the Last Stand), under :mod:`referee.solo.aid` (what can still turn a
losing roll, R34), under this module. A battle step that leaves a losing roll on the table returns a
:class:`~referee.solo.core.OpenRoll`; :func:`apply` asks :func:`referee.solo.aid.can_turn` and settles the
roll at once when nothing can turn it, else holds it (R34). The public names the CLI, the view, the
advice, the tests and the simulator use are re-exported here (``rules.spell``, ``rules.totals`` ...).
"""
from __future__ import annotations

import functools
from collections.abc import Callable
from contextvars import ContextVar
from typing import Any

from pnp.database import Database
from referee.dice import DiceError
from referee.solo import aid, city, core, expanded, laststand
from referee.solo import events as ev
from referee.solo.city import dice_counts, totals, totals_in_words, winning
from referee.solo.core import (
    NeedCard,
    OpenRoll,
    Outcome,
    Refusal,
    RuleError,
    adjust,
    apply_effect,
    choices,
    closed_spells,
    elder_card,
    lassadar,
    learn_price,
    learnable,
    learnable_now,
    name,
    plain_text,
    quest,
    quest_deck,
    recharge_problem,
    short_id,
    spell,
    stats,
    table_for,
    track,
)
from referee.solo.start import legal_start, legal_starts, new_game
from referee.solo.state import State, Suspended, replace

__all__ = [
    "Refusal", "RuleError", "adjust", "apply", "apply_effect", "apply_turn", "choices", "closed_spells", "dice_counts",
    "elder_card", "lassadar", "learn_price", "learnable", "learnable_now", "legal_start", "legal_starts", "name", "new_game",
    "options", "plain_text", "quest", "quest_deck", "recharge_problem", "replace", "resolve", "short_id", "spell", "stats", "table_for",
    "totals", "totals_in_words", "track", "winning",
]

Handler = Callable[[State, Database, Any], Outcome]
"""A rule for one kind of event (``rule(state, db, event)``): the new state, or a losing roll left open
(:class:`~referee.solo.core.OpenRoll`)."""


# ---- Dispatch ----------------------------------------------------------------------------------------------------
def _by_phase(city_rule: Handler, map_rule: Handler, stand_rule: Handler) -> Handler:
    """One command that means different things on a map, in the Last Stand, or elsewhere."""
    def apply_any(state: State, db: Database, event: Any) -> Outcome:
        if state.result is None and state.phase == "map":
            return map_rule(state, db, event)
        if state.result is None and state.phase == "stand":
            return stand_rule(state, db, event)
        return city_rule(state, db, event)
    return apply_any


def _map_only(what: str) -> Handler:
    """An event of the map battle and the Last Stand only (``what``: the event in words): refused elsewhere
    with what the game waits for."""
    def refuse(state: State, db: Database, event: Any) -> Outcome:
        core.require_phase(state, "map", what)
        raise AssertionError  # pragma: no cover - require_phase raised
    return refuse


LOST_CARD_PLACE = "on the discard pile (you lost the battle there)"
"""Where the card of a battle lost lies once the player was told so (ruling 7c; :func:`lost_battle_card`)."""


def lost_battle_card(state: State, db: Database) -> str | None:
    """The id of the City Quest card fought in a battle whose losing roll was shown (the player was told to place it on
    the discard pile: rulebook, Play, Battle Loss; ruling 7c), or ``None``. Naming it as the next card is refused as on
    the discard pile, not "on the table: the card you fight" (thirty-second breaker, LOW 5). ``None`` too when the card
    may be turned over after all: the draw pile ran out and the discard pile, that card included, was or is shuffled
    into a new one (rulebook, Expanded Battles, 7; R7; the slow Next-line games met it)."""
    battle = state.battle
    if battle is None or not battle.rolled or battle.card in (state.deck or state.discard) or city.winning(state, db):
        return None
    return battle.card


def apply_turn(state: State, db: Database, event: ev.Turn) -> State:
    """Name the next quest card the suspended command waits for (R7; rulebook, Play): the command is
    played again from where it began, with that card as its next card, and only what follows the card
    is new. Raises :class:`RuleError` outside phase ``turn`` or without a card."""
    waiting = state.suspended
    if state.phase != "turn" or waiting is None or event.card is None:
        core.require_phase(state, "turn", "naming the next card")
        raise RuleError("name the card you turned over", field="card")
    lost = lost_battle_card(state, db)
    if event.card.typed and event.card.id == lost:  # thirty-second breaker: said "on the table: the card you fight"
        raise RuleError(f"{core.name(db, lost)} cannot be turned over from the Quest draw pile: it is "
                        f"{LOST_CARD_PLACE}", field="next")
    after = apply(waiting.before, db, replace(waiting.event, next=event.card))
    return replace(after, notes=after.notes[waiting.shown:], consumed=())


_APPLY: dict[type[ev.Event], Handler] = {
    ev.Draw: city.apply_draw,
    ev.Battle: city.apply_battle,
    ev.CallElder: _by_phase(city.apply_elder, expanded.apply_elder, laststand.apply_elder),
    ev.Learn: city.apply_learn,
    ev.Council: city.apply_council,
    ev.Warding: expanded.apply_warding,
    ev.Cast: _by_phase(city.apply_cast, expanded.apply_cast, laststand.apply_cast),
    ev.Accept: _by_phase(city.apply_accept, expanded.apply_accept, laststand.apply_accept),
    ev.Servants: expanded.apply_servants,
    ev.Move: expanded.apply_move,
    ev.Attack: _by_phase(_map_only("attacking"), expanded.apply_attack, laststand.apply_attack),
    ev.Eldritch: expanded.apply_eldritch,
    ev.Recharge: _by_phase(_map_only("recharging"), expanded.apply_recharge, laststand.apply_recharge),
    ev.Retreat: expanded.apply_retreat,
    ev.LastStand: laststand.apply_last_stand,
    ev.Turn: apply_turn,
}
"""The rule for each kind of event."""


def apply(state: State, db: Database, event: ev.Event) -> State:
    """The state after ``event``. Pure; raises :class:`RuleError` (one line) when the event does not fit.

    Dice and cards the event leaves to the referee (``None``) are taken from the seed and the deck
    order; the returned state's ``consumed`` lists them and ``notes`` says what happened. A losing roll
    the event leaves on the table is settled here (:func:`_settle`, R34); a command that needs the next
    card of the player's own deck and named none is suspended (phase ``turn``, R7).
    """
    state = replace(state, consumed=(), notes=())
    try:
        return core.with_marks(_settle(_APPLY[type(event)](state, db, event), db))
    except DiceError as error:
        raise RuleError(str(error)) from None
    except NeedCard as need:
        if isinstance(event, ev.Turn):  # pragma: no cover - a turn names its card
            raise RuleError("the command needs another card", field="card") from None
        partial = need.state
        waiting = Suspended(before=state, event=_filled(event, partial.consumed), shown=len(partial.notes), what=need.what)
        return core.note(core.with_marks(replace(partial, phase="turn", suspended=waiting)),
                         f"Turn over the next card of your deck onto the discard pile for {need.what}, and name it.")


WITHOUT_AID_SEARCH: ContextVar[bool] = ContextVar("without_aid_search", default=False)
"""True while a caller asks only whether an event is accepted (:func:`referee.solo.legal.is_legal`) or
which dice it rolls (table mode): a losing roll it leaves open is then held at once, its aid never
searched, so the state returned is not the game's."""


def _settle(outcome: Outcome, db: Database) -> State:
    """The state after a battle step, its losing roll settled or held (R34; rulebook, Play, Expanded
    Battles phases b and c, Last Stand): while the step leaves a roll open
    (:class:`~referee.solo.core.OpenRoll`), the roll is settled at once when nothing the player may still
    do can turn it (:func:`referee.solo.aid.can_turn`, the question of :func:`referee.solo.aid.options`
    without its chances), and settling may open the next one (a City Quest's Battle Loss row after its
    lost roll); otherwise it waits, with what waits noted."""
    while isinstance(outcome, OpenRoll):
        held = outcome.state
        if WITHOUT_AID_SEARCH.get():
            return outcome.hold(held, db, list) if outcome.hold is not None else held
        if aid.can_turn(held, db):
            return outcome.hold(held, db, functools.partial(aid.ids, held, db)) if outcome.hold is not None else held
        outcome = outcome.settle(held, db)
    return outcome


def options(state: State, db: Database) -> list[str]:
    """Spells and Elders that could still change the City Quest battle now, as ids (R34): after a losing
    roll, the first steps of the aid sequences that can still turn it; after a loss, of those that can
    lower or cancel the Battle Loss row (:func:`referee.solo.aid.options`, an exact search). The referee
    moves on by itself when this is empty."""
    if city.stage(state) not in ("rolled", "loss"):
        return []
    return aid.ids(state, db)


def _filled(event: ev.Event, consumed: tuple[tuple[str, object], ...]) -> ev.Event:
    """``event`` with the dice and cards of ``consumed`` written in by value (the first use of a field
    is the event's own; a second is a re-roll inside it)."""
    updates: dict[str, object] = {}
    for field, value in consumed:
        updates.setdefault(field, value)
    return replace(event, **{k: v for k, v in updates.items() if hasattr(event, k)})


def resolve(state: State, db: Database, event: ev.Event) -> tuple[ev.Event, State]:
    """The event with every die and card the referee supplied written in by value, and the state after it.

    ``apply(state, db, resolved)`` gives the same state as ``apply(state, db, event)``; the save file
    holds only resolved events. Raises :class:`RuleError` as :func:`apply` does.
    """
    after = apply(state, db, event)
    resolved = _filled(event, after.consumed)
    named = after.battle.named_next if after.battle is not None else None
    asked = getattr(event, "next", None)
    if (asked is not None and not any(f == "next" for f, _ in after.consumed)
            and after.suspended is None and named != asked):
        resolved = replace(resolved, next=None)  # the battle did not end: no next card was turned over
        after = core.note(after, "(The next card is turned over when the battle ends; the referee asks for it then.)")
    return resolved, after
