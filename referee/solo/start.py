"""The start of a solo game of *The Grayking is Risen*: the legal pairs of starting spells and the state
after Setup (rulebook, Setup; R2, R3). Pure functions of the database; nothing here does I/O.
"""
from __future__ import annotations

from collections.abc import Iterable

from pnp.database import Database
from referee.dice import shuffled
from referee.solo import core
from referee.solo.core import RuleError
from referee.solo.state import Setup, State, replace


def legal_start(db: Database, first: str, second: str) -> bool:
    """Whether two spells are a legal start (rulebook, Setup; R3): two top spells of different types,
    or a top spell and a spell it opens."""
    try:
        a, b = core.spell(db, first), core.spell(db, second)
    except RuleError:
        return False
    if a.id == b.id or not (a.learnable and b.learnable):
        return False
    top_a, top_b = a.slot[0] == 1, b.slot[0] == 1
    if top_a and top_b:
        return a.spell_type != b.spell_type
    return (top_a and b.id in a.opens) or (top_b and a.id in b.opens)


def legal_starts(db: Database) -> list[tuple[str, str]]:
    """Every legal pair of starting spells, in database order (R3)."""
    ids = [s.id for s in db.solo.spell]
    return [(a, b) for i, a in enumerate(ids) for b in ids[i + 1:] if legal_start(db, a, b)]


def new_game(db: Database, difficulty: str, spells: Iterable[str], seed: int) -> State:
    """The state after Setup (rulebook, Setup).

    Mana and Spirit start on the stats card's highlighted space; the Grayking on the difficulty's
    start space (R2); the two starting spells are learned, paying any bracketed cost (R3); the quest
    deck is shuffle 0 of the seed. Raises :class:`RuleError` for an unknown difficulty or an illegal
    pair of spells.
    """
    starts = core.track(db).start
    if difficulty not in starts:
        raise RuleError(f"{difficulty!r} is not a difficulty; choose {', '.join(starts)}", field="difficulty")
    spells = tuple(spells)
    if len(spells) != 2:
        raise RuleError(f"choose exactly two starting spells, not {len(spells)}", field="spells")
    for spell_id in spells:
        core.spell(db, spell_id)
    if spells[0] == spells[1]:  # one spell named twice (thirty-third breaker, LOW 13: "Bind and Bind are not a legal start")
        raise RuleError(f"{core.spell(db, spells[0]).name} is named twice; take two different spells", field="spells")
    if not legal_start(db, *spells):
        a, b = (core.spell(db, s) for s in spells)
        raise RuleError(f"{a.name} and {b.name} are not a legal start; take two top spells of different types, "
                        "or a top spell and a spell its arrows open (docs/rulings.md R3)", field="spells")
    card = core.stats(db)
    state = State(setup=Setup(difficulty, spells, seed), mana=card.track_start, spirit=card.track_start,
                  grayking=starts[difficulty], deck=shuffled(seed, 0, core.quest_deck(db)), shuffles=1, shuffles_shown=1)
    # Down the paths: a top spell before the spell its arrow opens, whichever order they were named in.
    for spell_id in sorted(spells, key=lambda s: core.spell(db, s).slot[0]):
        state = core.learn_spell(state, db, spell_id, "cost")
    return replace(state, notes=(), consumed=())
