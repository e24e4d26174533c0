"""The legal events of *Ruin & Renewal I*, after python-chess's ``Board.legal_moves``: what the rules
accept now, as the events the command line builds (before :func:`referee.duel.rules.resolve`).

:func:`legal_events` lists them and :func:`iter_legal_events` yields them one at a time; :func:`is_legal`
says whether the rules accept one event now. The generator is built on the rules' own partial lists
(:func:`~referee.duel.rules.legal_markers`, :func:`~referee.duel.rules.legal_recalls`,
:func:`~referee.duel.rules.iter_assignments`) and is what the Next line (:mod:`referee.duel.advice`) and
the balance simulator (:mod:`referee.duel.simulate`) choose from.

Dice: a die the referee rolls is left unresolved, as typed at the command line: ``Roll(side)`` without
dice, ``Reveal()`` without re-rolled dice (R78, R74). Events whose dice only the players know are not
listed, because the referee cannot know them before they are typed:

- commitments of physical dice (a side the referee has not rolled for): :func:`legal_commits` lists them
  for the dice a player says they rolled (R71);
- a sealed commitment (any 64 hex digits, R77) and the reveal that opens it (its opening is the player's
  secret): the generator lists no reveal while a commitment is sealed; :func:`is_legal` checks one;
- re-rolled Battle dice typed from physical dice (``Reveal(wardens_reroll=Dice((4,)))``, R81): the
  generator lists the ``Reveal()`` that lets the referee roll them; :func:`is_legal` checks a typed one.
"""
from __future__ import annotations

from collections.abc import Iterator, Sequence

from pnp.database import Database
from referee.duel import events as ev
from referee.duel import rules
from referee.duel.state import OWN_DICE, SIDES, Side, State


def iter_legal_events(state: State, db: Database, side: Side | None = None) -> Iterator[ev.Event]:
    """The events :func:`legal_events` lists, in the same order, one at a time (lazily: a caller that
    needs only the first computes no more). With ``side``, only that side's events: its marker, roll,
    commitments or recall (a reveal is both sides' and is left out). See :func:`legal_events`."""
    if state.phase == "marker":
        if side in (None, state.chooser):
            for location_id in rules.legal_markers(state):  # R25, R30
                yield ev.Marker(state.chooser, location_id)
    elif state.phase == "recall":
        winner = rules.round_winner(state)
        if side in (None, winner):
            for location_or_none in rules.legal_recalls(state, winner):  # R29
                yield ev.Recall(winner, location_or_none)
    elif state.phase == "round":
        if state.opened is not None:  # the reveal waits for re-rolled dice; the referee may roll them (R81)
            if side is None:
                yield ev.Reveal()
            return
        for s in SIDES:
            hand = state.hands[s]
            if hand.committed or side not in (None, s):
                continue
            if hand.rolled is None:
                if state.commit_way[s] != OWN_DICE:  # a side that seals its own dice rolls its own (ruling 87)
                    yield ev.Roll(s)  # R78: the referee rolls at resolve
            else:
                for assignment in rules.iter_assignments(state, db, s, hand.rolled.values):  # R71
                    yield ev.Commit(s, assignment)
        if side is None and all(state.hands[s].committed for s in SIDES) and not any(state.hands[s].seal is not None for s in SIDES):
            yield ev.Reveal()  # R73; the re-rolls of referee-rolled hands are rolled at resolve (R74)


def legal_events(state: State, db: Database) -> list[ev.Event]:
    """Every event the rules accept in ``state`` whose dice the referee knows, as the command line
    builds it (before :func:`referee.duel.rules.resolve`); empty once the game is over.

    - ``marker`` phase: ``Marker(chooser, location)`` for each Location still in the row, the current
      one included (description: "the losing player decides the next location to move the yellow cube
      to"; R25 the first chooser, R30).
    - ``round`` phase, for each side that has not committed: ``Roll(side)`` (dice ``None``: the referee
      rolls them, R78) when the referee has not rolled for it this round and its last commitment was not a seal
      of its own dice (such a side rolls its own, ruling 87: nothing is listed for it); else ``Commit(side, a)`` for
      every legal placing ``a`` of the four rolled dice, spare die named (R71, R31, R74). Then, once
      both have committed and neither sealed, ``Reveal()`` (R73). While a reveal waits for re-rolled
      physical dice, only ``Reveal()``, which lets the referee roll them (R81).
    - ``recall`` phase: ``Recall(winner, location)`` for each other Location holding the winner's cube,
      and ``Recall(winner, None)`` to forgo the spaces (R29).

    Not listed (see the module): commitments of physical dice (:func:`legal_commits`), sealed
    commitments and the reveal that opens them, typed re-rolled dice. Each placing is listed once, in
    one spelling: the Battle dice in rising order, the spare die named, the Battle die a re-roll spell
    re-rolls named. The rules accept its other spellings too (``battle 5,1``; no spare, which the
    referee fills in for a rolled hand; no ``reroll``, which re-rolls the lower die, R74) and record
    them as typed; they place the same dice to the same effect.

    Returns a new list; raises nothing (a state the rules made always has its choices).
    """
    return list(iter_legal_events(state, db))


def legal_commits(state: State, db: Database, side: Side, dice: Sequence[int]) -> list[ev.Commit]:
    """Every commitment ``side`` may make now with the four ``dice`` a player says they rolled
    (physical dice, typed): ``Commit(side, a)`` for each legal placing ``a``, spelt as in
    :func:`legal_events` (R71, R31, R74). Empty when ``side`` may not commit now (the game over, another phase, already
    committed) or when the referee rolled its dice this round and ``dice`` are not those dice (R71:
    "place each rolled die once")."""
    if rules.commit_problem(state, side) is not None:
        return []
    rolled = state.hands[side].rolled
    if rolled is not None and sorted(rolled.values) != sorted(dice):
        return []
    return [ev.Commit(side, a) for a in rules.iter_assignments(state, db, side, dice)]


def is_legal(state: State, db: Database, event: ev.Event) -> bool:
    """Whether the rules accept ``event`` in ``state`` (resolved or not): the rules' own check.

    A marker or a recall is looked up in :func:`~referee.duel.rules.legal_markers` /
    :func:`~referee.duel.rules.legal_recalls` (exactly what :func:`~referee.duel.rules.apply_marker`
    and :func:`~referee.duel.rules.apply_recall` accept: R30, R29); any other event is resolved and
    applied on the frozen ``state`` (:func:`~referee.duel.rules.resolve`: the referee's dice from the
    seed), and is legal when no :class:`~referee.duel.rules.RuleError` is raised. Nothing changes.
    """
    if isinstance(event, ev.Marker):
        return event.side == state.chooser and event.location in rules.legal_markers(state)
    if isinstance(event, ev.Recall):
        return event.location in rules.legal_recalls(state, event.side)
    try:
        rules.resolve(state, db, event)
    except rules.RuleError:
        return False
    return True


def choosable_locations(state: State, db: Database) -> list[str]:
    """The Locations a player may name now: those of the legal yellow-marker moves and recalls
    (:func:`legal_events`), in their order (an empty list in any other phase)."""
    return [e.location for e in legal_events(state, db) if isinstance(e, (ev.Marker, ev.Recall)) and e.location]
