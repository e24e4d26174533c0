"""Words for the solo referee's output: the status as JSON or lines, and one log line per event.

This module owns how a state and an event read; it does no I/O (the CLI prints what it returns).
Cards and spells are named as printed on the cards.
"""
from __future__ import annotations

from typing import Any

from pnp.database import Database
from referee.dice import Dice
from referee.solo import events as ev
from referee.solo import rules
from referee.solo.state import State


def status(state: State, db: Database) -> dict[str, Any]:
    """The state as one JSON-able object (``referee solo status --json``)."""
    battle = None
    if state.battle is not None:
        b = state.battle
        battle = {"card": b.card, "casts": list(b.casts), "elders": list(b.elders), "dice": list(b.dice), "enemy": list(b.enemy)}
        if b.rolled:
            battle["totals"] = list(rules.totals(state, db))
        if b.loss_roll is not None:
            battle["loss_row"] = rules._loss_effective(state)
    return {
        "mana": state.mana,
        "spirit": state.spirit,
        "grayking": state.grayking,
        "lassadar": rules.lassadar(db),
        "keys": list(state.keys),
        "spells": list(state.spells),
        "used_spells": list(state.used),
        "learnable": rules.learnable(state, db),
        "elders": [{"id": e, "name": rules.name(db, e), "uses": u} for e, u in state.elders],
        "deck": len(state.deck),
        "discard": len(state.discard),
        "removed": len(state.removed),
        "card": state.card,
        "battle": battle,
        "options": rules.options(state, db),
        "phase": state.phase,
        "result": state.result,
        "reason": state.reason or None,
        "difficulty": state.setup.difficulty,
        "seed": state.setup.seed,
        "next": rules.next_step(state, db),
    }


def status_lines(state: State, db: Database) -> list[tuple[str, str]]:
    """The state as (label, text) lines for people."""
    track = rules.track(db)
    named = next((p.name for p in track.names if p.space == state.grayking), None)
    grayking = f"space {state.grayking} of {track.spaces}" + (f" ({named})" if named else "")
    spells = ", ".join(rules.name(db, s) + (" (used)" if s in state.used else "") for s in state.spells) or "none"
    elders = ", ".join(f"{rules.name(db, e)} ({u} {'use' if u == 1 else 'uses'} left)" for e, u in state.elders) or "none"
    lines = [
        ("Mana", str(state.mana)),
        ("Spirit", str(state.spirit)),
        ("Grayking", grayking),
        ("Warding Keys", ", ".join(map(str, state.keys)) or "none"),
        ("Spells", spells),
        ("Elders", elders),
        ("Quest deck", f"{len(state.deck)} to draw, {len(state.discard)} discarded, {len(state.removed)} out of the game"),
    ]
    if state.card:
        lines.append(("On the table", rules.name(db, state.card)))
    if state.battle is not None and state.battle.rolled:
        mine, theirs = rules.totals(state, db)
        lines.append(("Battle", f"your dice {' '.join(map(str, state.battle.dice))} = {mine}; servants {' '.join(map(str, state.battle.enemy))} = {theirs}"))
    if state.result:
        lines.append(("Result", f"{state.result}: {state.reason}"))
    lines.append(("Next", rules.next_step(state, db)))
    return lines


def _dice(label: str, dice: Dice | None) -> str:
    if dice is None:
        return ""
    return f" {label} {dice} ({'typed' if dice.typed else f'rolled k={dice.k}'})"


def _card(label: str, db: Database, card: ev.CardRef | None) -> str:
    if card is None:
        return ""
    return f" {label} {rules.name(db, card.id)} ({'typed' if card.typed else 'deck'})"


def event_text(event: ev.Event, db: Database) -> str:
    """One event in words, dice and cards shown with where they came from."""
    if isinstance(event, ev.Draw):
        return f"draw{_card('card', db, event.card)}"
    if isinstance(event, ev.Battle):
        uses = "".join(f" elder {rules.name(db, e)}" for e in event.elders) + "".join(f" cast {rules.name(db, s)}" for s in event.casts)
        return f"battle{uses}{_dice('you', event.dice)}{_dice('servants', event.enemy)}{_card('next', db, event.next)}"
    if isinstance(event, ev.Cast):
        rows = f" rows {event.rows}" if event.rows is not None else ""
        reroll = f" re-roll {' '.join(map(str, event.reroll))}" if event.reroll else ""
        return f"cast {rules.name(db, event.spell)}{rows}{reroll}{_dice('->', event.dice)}{_card('next', db, event.next)}"
    if isinstance(event, ev.CallElder):
        reroll = f" re-roll {' '.join(map(str, event.reroll))}" if event.reroll else ""
        return f"elder {rules.name(db, event.elder)}{reroll}{_dice('->', event.dice)}{_card('next', db, event.next)}"
    if isinstance(event, ev.Accept):
        return f"accept{_card('next', db, event.next)}"
    if isinstance(event, ev.Learn):
        return f"learn {rules.name(db, event.spell)}" if event.spell else "skip"
    if isinstance(event, ev.Council):
        return f"council{_card('next', db, event.next)}"
    if isinstance(event, ev.Warding):
        extra = (f" mana {event.mana:+d}" if event.mana else "") + (f" spirit {event.spirit:+d}" if event.spirit else "")
        extra += "".join(f" elder {rules.name(db, e)}" for e in event.elders)
        return f"warding {event.outcome}{extra}"
    return event.kind  # pragma: no cover


def log_line(number: int, event: ev.Event, after: State, db: Database) -> str:
    """One line of ``referee solo log``: the event, then the tracks and phase after it."""
    result = f" {after.result.upper()}" if after.result else ""
    return f"{number:3d}. {event_text(event, db)}  => Mana {after.mana}, Spirit {after.spirit}, Grayking {after.grayking}; {after.phase}{result}"
