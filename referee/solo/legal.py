"""What a solo player may do now: every event the rules accept, like python-chess's ``Board.legal_moves``.

This module owns one question: "which events does :func:`referee.solo.rules.apply` accept in this
state?" :func:`legal_events` lists them with the choices a player has, and :func:`is_legal` answers it
for one event. The advice (the Next line), the simulator (:mod:`referee.solo.simulate`), the table mode and the
tests take their choices from here; the aid search (:mod:`referee.solo.aid`) asks the same rules' checks
for its narrower question (which aid can still turn a roll).

What the list holds, by phase (rulebook sections; rulings R<n> in ``docs/rulings.md``):

- dice the referee would roll are left unresolved (``dice=None``): a typed roll is the same event with
  the player's dice, legal for any values the dice can show;
- the next quest card: the referee's (``Draw()``) and each card the player may have turned over from
  their own shuffled deck (``Draw(card)``, R7): a card of the draw pile, or of the discard pile when the
  pile is empty (it is reshuffled first); the same for ``Turn(card)`` when a command waits for the card;
- spells and Elders: each learned spell and each Elder beside the stats card, with every choice of dice
  to re-roll (by value) for a re-roll, and every number of rows a Battle Loss spell may lower (Knot:
  ``rows`` 1 or 2, or the most when no number is typed, R8); spells cast before a City Quest roll are separate ``cast``
  events (``battle --cast`` is the same sequence in one command);
- a Warding City: the referee's servants (``Servants()``) and every choice of the player's own servant
  cards of different types (rulebook, Expanded Battles 3; placement dice unresolved), and the manual
  outcome ``warding won|retreat`` (R38) with no track changes typed;
- on a map: staying, and each hex the warden may end the move on (``expanded.legal_moves``; the path to
  it is not a separate choice: the rules check only that one exists), recharges, retreat, attack,
  Eldritch Damage.
"""
from __future__ import annotations

import itertools
from collections.abc import Iterator

from pnp.database import Database
from referee.solo import events as ev
from referee.solo import expanded, laststand, rules
from referee.solo.state import State


def is_legal(state: State, db: Database, event: ev.Event) -> bool:
    """Whether the rules accept ``event`` now: :func:`referee.solo.rules.apply` on the frozen state,
    which raises :class:`~referee.solo.rules.RuleError` for every event it refuses. A losing roll the
    event leaves open is held without asking whether aid can still turn it (:data:`rules.WITHOUT_AID_SEARCH`:
    settling or holding refuses nothing but a named next card, and the search costs milliseconds a
    candidate late in the Last Stand); an event naming its next card is played in full."""
    token = rules.WITHOUT_AID_SEARCH.set(getattr(event, "next", None) is None)
    try:
        rules.apply(state, db, event)
    except rules.RuleError:
        return False
    finally:
        rules.WITHOUT_AID_SEARCH.reset(token)
    return True


def legal_events(state: State, db: Database, player_cards: bool = True) -> list[ev.Event]:
    """Every event the rules accept in ``state``, in a stable order (see the module's docstring for the
    choices each holds). Empty when the game is over and no Last Stand is offered. ``player_cards``
    False leaves out the player's own cards (``draw --card``, typed servants, the manual Warding outcome):
    a game played with the referee's deck and servants, as the simulator plays it."""
    return [event for event in dict.fromkeys(candidates(state, db, player_cards)) if is_legal(state, db, event)]


def reroll_choices(dice: tuple[int, ...]) -> list[tuple[int, ...]]:
    """Every choice of dice to re-roll, by value, without repeats: (1, 1, 4) -> (1,), (4,), (1, 1),
    (1, 4), (1, 1, 4). Dice of one value are alike, so (1,) stands for either 1."""
    values = sorted(dice)
    chosen = {combo for size in range(1, len(values) + 1) for combo in itertools.combinations(values, size)}
    return sorted(chosen, key=lambda c: (len(c), c))



def _aid(state: State, db: Database) -> Iterator[ev.Event]:
    """Each spell and Elder with every choice it holds (re-rolled dice, Battle Loss rows); the rules
    then keep the ones they accept."""
    dice = state.player_dice()
    for spell_id in state.spells:
        effect = rules.spell(db, spell_id).effect
        yield ev.Cast(spell_id)
        if effect.reroll_own:
            yield from (ev.Cast(spell_id, reroll=r) for r in reroll_choices(dice))
        yield from (ev.Cast(spell_id, rows=rows) for rows in range(1, effect.loss_rows + 1))
    for elder_id, _ in state.elders:
        yield ev.CallElder(elder_id)
        if rules.elder_card(db, elder_id).aid.reroll_own:
            yield from (ev.CallElder(elder_id, reroll=r) for r in reroll_choices(dice))


def _cards(state: State) -> tuple[str, ...]:
    """The quest cards the player may turn over from their own deck now (R7)."""
    return state.deck or state.discard


def _servant_choices(state: State, db: Database) -> Iterator[ev.Servants]:
    """Every choice of the player's own servant cards for the map on the table: the map's count, of
    different types, in the order turned over (rulebook, Expanded Battles 3)."""
    count = expanded.battle_map(state, db).servants
    for chosen in itertools.permutations(db.solo.servant, count):
        if len({s.servant_type for s in chosen}) == count:
            yield ev.Servants(tuple(s.id for s in chosen), typed=True)


def candidates(state: State, db: Database, player_cards: bool = True) -> list[ev.Event]:
    """A superset of the legal events, by phase, that :func:`legal_events` filters with the rules
    (``player_cards``: see :func:`legal_events`)."""
    if state.result is not None:
        return [ev.LastStand()] if laststand.offered(state, db) else []
    types = [path.spell_type for path in db.solo.spell_path]
    phase = state.phase
    aid = list(_aid(state, db))
    if phase == "turn":
        return [ev.Turn(ev.CardRef(c, True)) for c in _cards(state)]
    if phase == "draw":
        barrier_lock = [ev.Cast(s.id) for s in db.solo.spell if s.effect.barrier_lock]
        own = [ev.Draw(ev.CardRef(c, True)) for c in _cards(state)] if player_cards else []
        return [ev.Draw(), *own, *barrier_lock]
    if phase == "battle":
        return [ev.Battle(), *aid]
    if phase in ("rolled", "loss"):
        return [ev.Accept(), *aid]
    if phase == "learn":
        return [*(ev.Learn(s) for s in rules.learnable(state, db)), ev.Learn(None)]
    if phase == "council":
        return [ev.Council()]
    if phase == "warding":
        if not player_cards:
            return [ev.Servants(), ev.Retreat()]
        return [ev.Servants(), *_servant_choices(state, db), ev.Warding("won"), ev.Warding("retreat"), ev.Retreat()]
    recharges = [ev.Recharge(t) for t in types]
    if phase == "stand":
        return [ev.Attack(), ev.Accept(), *aid, *recharges]
    if phase == "map":
        moves: list[ev.Event] = []
        if state.map_battle is not None and state.map_battle.step == "move":
            moves = [ev.Move(()), *(ev.Move((expanded.name(h),)) for h in sorted(expanded.legal_moves(state, db)))]
        return [*moves, ev.Attack(), ev.Eldritch(), ev.Accept(), *aid, *recharges, ev.Retreat()]
    return []
