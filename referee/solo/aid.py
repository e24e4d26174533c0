"""Aid on a roll the player is losing: what can still turn it, exactly, and how likely.

This module owns one question of the solo game (R34): "can anything the player may still do turn the
roll on the table?" It is answered by searching the legal sequences of aid over the state with the
battles' own steps (:func:`referee.solo.city.cast_on_table`, :func:`referee.solo.expanded.cast_on_table`,
:func:`referee.solo.laststand.cast_on_table` and the Elders' and recharges' equivalents), which apply
an aid without settling the roll:

- every castable spell (attack bonuses, Shield, re-rolls, Calm's recharge, and the Mana- and
  Spirit-raising spells that pay for others), every Elder still to be called, a gray space's recharge
  in the Last Stand, Bind, Knot, Leafward, Thorn Hedge and Elder Rhun on a Battle Loss row;
- a re-roll is a chance: each outcome of the dice is weighed by its probability, and the line counts
  when some outcome turns the roll (the Grayking's counter dice in the Last Stand are chances too).

The situations (rulebook sections): a City Quest's losing roll (``roll``, Play) and its Battle Loss row
(``loss``, Play; R8), a servant's attack on a map (``exchange``, Expanded Battles phase b), the Eldritch
Damage roll (``eldritch``, phase c; a row that costs the player Mana or Spirit is "losing"), and a round
of the Last Stand (``stand``).

:func:`options` lists the first steps of the minimal sequences that can still turn the roll, each with
the best chance of a line that starts with it; the referee waits while it is non-empty and settles at
once when it is empty: the battle modules leave a losing roll open
(:class:`referee.solo.core.OpenRoll`) and the dispatcher (:func:`referee.solo.rules.apply`) asks this
module, which sits above the battle modules and below the dispatcher. The CLI's advice, ``status --json``
and the simulator (:mod:`referee.solo.simulate`) all ask this one function. Nothing here does I/O or writes CLI text.
"""
from __future__ import annotations

import itertools
import math
import threading
from collections.abc import Callable, Iterator
from contextvars import ContextVar
from typing import TYPE_CHECKING, Literal

from pnp import hexes
from pnp.database import Database, Effect
from pnp.deferred import dataclass
from referee.dice import Dice
from referee.solo import city, core, expanded, laststand
from referee.solo import events as ev
from referee.solo.state import State, replace

if TYPE_CHECKING:
    from concurrent.futures import Future

Situation = Literal["roll", "loss", "exchange", "eldritch", "stand"]
"""Which roll waits for aid (:func:`situation`; the situations of this module's docstring)."""

SIDES = 6

Step = ev.Cast | ev.CallElder | ev.Recharge


@dataclass(frozen=True)
class Aid:
    """One first step of a line of play that can still turn the roll on the table.

    ``event`` is the command to play (a :class:`~referee.solo.events.Cast`, a
    :class:`~referee.solo.events.CallElder` or a Last Stand :class:`~referee.solo.events.Recharge`), with
    the dice it re-rolls named in ``reroll`` and every die left for the referee or the player to roll
    (``dice`` and ``counter`` are ``None``). ``chance`` is the probability, from 0 (exclusive) to 1, that
    the best line of play starting with it turns the roll; ``rerolls`` whether that line depends on dice
    still to be rolled (a chance rather than a certainty). ``line`` is that best line as far as it is
    sure: ``event`` first, then the steps that follow it before the roll is turned or a die decides
    (``cast Frost Breath``, then ``cast Shield``). ``backup`` is what the chance counts on where the line's dice fall
    short: the first step of the sure line that still turns the roll after them (``cast Shield`` after Elder Maelis's
    re-roll), one a spell or Elder, in the order first met; empty when the dice alone decide (forty-eighth referee
    breaker, 6: "call on Elder Maelis (certain)" counted on a Shield it did not name). ``line`` goes on after the roll
    with the steps its chance needs however the dice fall (``cast Ember Hook``, then ``cast Shield``). ``at_least``: where
    the dice fall short another step may roll again, which ``chance`` does not count (it is a lower bound).
    """

    event: Step
    chance: float
    rerolls: bool
    line: tuple[Step, ...] = ()
    backup: tuple[Step, ...] = ()
    at_least: bool = False

    @property
    def actor(self) -> str:
        """The spell or Elder id it uses, or ``recharge:TYPE``."""
        return _actor(self.event)

    @property
    def certain(self) -> bool:
        """Whether the line turns the roll whatever the dice (``chance`` is 1)."""
        return self.chance >= 1.0 - 1e-12


def _actor(step: Step) -> str:
    if isinstance(step, ev.Cast):
        return step.spell
    if isinstance(step, ev.CallElder):
        return step.elder
    return f"recharge:{step.spell_type}"


# ---- Where a roll waits ---------------------------------------------------------------------------------------
def situation(state: State) -> Situation | None:
    """Which roll waits for aid: ``roll``, ``loss``, ``exchange``, ``eldritch``, ``stand``, or ``None``."""
    if state.result is not None:
        return None
    if state.phase == "rolled" and state.battle is not None:
        return "roll"
    if state.phase == "loss" and state.battle is not None and state.battle.loss_roll is not None:
        return "loss"
    if state.phase == "map" and state.map_battle is not None:
        step = state.map_battle.step
        return "exchange" if step == "exchange" else "eldritch" if step == "eldritch-rolled" else None
    if state.phase == "stand" and state.last_stand is not None and state.last_stand.rolled:
        return "stand"
    return None


def _eldritch_hurts(state: State, db: Database) -> bool:
    """Whether the Eldritch row on the table costs the player Mana or Spirit (rulebook, phase c)."""
    mb = state.map_battle
    assert mb is not None and mb.eldritch is not None
    effect = db.table(expanded.battle_map(state, db).eldritch_table).row_for(mb.eldritch).effect
    return effect.mana < 0 or effect.spirit < 0


def _fallen(state: State) -> bool:
    """Whether the player has lost: the game (Spirit below 1, the Grayking at Lassadar), or the Last
    Stand (R56: the game stays won, the Last Stand is lost). No line of aid that ends here turns a roll."""
    return state.ending is not None and state.ending.defeat


def _loss_harm(state: State, root: State, db: Database) -> tuple[int, int, int, int]:
    """What settling the Battle Loss row in ``state`` costs, against the tracks of ``root`` (the state
    the row was read in), worst first: (game lost, Grayking spaces toward Lassadar, Spirit lost, Mana
    lost). The costs of the aid that led from ``root`` to ``state`` count, and a row that changes nothing
    (Mana already 0) costs nothing (R8, R34)."""
    settled = city.finish_loss(state, db)
    if settled.ending is not None and not settled.ending.won:
        return (1, 0, 0, 0)
    return (0, settled.grayking - root.grayking, root.spirit - settled.spirit, root.mana - settled.mana)


def _hit_changes_nothing(state: State, db: Database) -> bool:
    """Whether the servant's attack on the table costs nothing if it wins and gains nothing if it loses:
    it stands out of the warden's reach (a win wounds only a servant in reach, rulebook phase b) and its
    hit takes a track already empty (Mana 0)."""
    mb = state.map_battle
    assert mb is not None and mb.exchange is not None
    card = expanded.servant_card(db, mb.exchange.servant)
    in_reach = hexes.distance(mb.servant(mb.exchange.servant).hex, mb.warden) <= db.solo.rules.warden_attack_range
    hit = core.adjust(state, db, **{card.damage_to: -card.damage})
    return not in_reach and (hit.mana, hit.spirit, hit.result) == (state.mana, state.spirit, state.result)


def _goal(kind: Situation, root: State, db: Database) -> Callable[[State], bool]:
    """Whether a state reached by aid has turned the roll of ``root``: the roll is won (the Eldritch row
    costs nothing), or the Battle Loss row costs less (:func:`_loss_harm`); never in a state where the
    player has fallen (:func:`_fallen`)."""
    if kind == "roll":
        return lambda s: not _fallen(s) and city.winning(s, db)
    if kind == "exchange":
        if _hit_changes_nothing(root, db):
            return lambda s: True
        return lambda s: not _fallen(s) and _beats(expanded.exchange_totals(s, db))
    if kind == "stand":
        return lambda s: not _fallen(s) and _beats(laststand.totals(s, db))
    if kind == "eldritch":
        return lambda s: not _fallen(s) and not _eldritch_hurts(s, db)
    worst = _loss_harm(root, root, db)
    if worst == (0, 0, 0, 0):  # the row changes nothing: there is nothing to turn
        return lambda s: True
    return lambda s: not _fallen(s) and _row_lessened(s, root, db) and _loss_harm(s, root, db) < worst


def _row_lessened(state: State, root: State, db: Database) -> bool:
    """Whether aid acted on the Battle Loss row itself (lowered, cancelled, or fewer Grayking spaces):
    a spell that only raises a track does not turn the row, however it offsets it."""
    before, after = root.battle, state.battle
    assert before is not None and after is not None
    less = lambda b: sum(core.spell(db, s).effect.grayking_less for s in b.casts)  # noqa: E731
    return after.lowered > before.lowered or (after.cancelled and not before.cancelled) or less(after) > less(before)


def _beats(totals: tuple[int, int]) -> bool:
    return totals[0] >= totals[1]


# ---- The steps the rules allow ----------------------------------------------------------------------------------
def _relevant_spell(db: Database, kind: Situation, spell_id: str) -> bool:
    """Whether casting a spell can matter to this kind of roll (directly, or by paying or recharging): found once
    per database (:func:`referee.solo.core.derived`)."""
    answers = core.derived(db)
    key = ("relevant spell", kind, spell_id)
    found = answers.get(key)
    if found is None:
        found = answers[key] = _spell_matters(core.spell(db, spell_id).effect, kind)
    return found


def _spell_matters(effect: Effect, kind: Situation) -> bool:
    """:func:`_relevant_spell` of a spell's ``effect``."""
    if effect.mana > 0 or effect.spirit > 0 or effect.recharge:
        return kind != "eldritch"
    if kind == "loss":
        return bool(effect.loss_rows or effect.cancel_loss or effect.grayking_less)
    if kind == "eldritch":  # "You may cast any re-roll Flint or Ice spells" (rulebook, phase c; R48)
        return bool(effect.reroll_table or effect.reroll_own or effect.reroll_servants)
    return bool(effect.attack_total > 0 or any(v > 0 for v in effect.against.values()) or effect.remove_servant_die
                or effect.reroll_own or effect.reroll_servants)


def _reroll_choices(dice: tuple[int, ...]) -> list[tuple[int, ...]]:
    """Which of the player's dice a re-roll may name: the lowest one, the lowest two, ... all of them
    (re-rolling a higher die while keeping a lower one never serves a total)."""
    ordered = sorted(dice)
    return [tuple(ordered[:k]) for k in range(1, len(ordered) + 1)]




def _candidates(state: State, db: Database, kind: Situation) -> Iterator[Step]:
    """Every aid step the rules accept now that can matter to the roll, in the database's order: spells,
    then Elders, then (Last Stand) recharges; a re-roll once for each choice of dice."""
    for spell_id in state.spells:
        if not _relevant_spell(db, kind, spell_id):
            continue
        chosen = core.spell(db, spell_id)
        if kind in ("roll", "loss"):
            problem = city.cast_problem(state, db, chosen)
        elif kind in ("exchange", "eldritch"):
            problem = expanded.cast_problem(state, db, chosen)
        else:
            problem = laststand.cast_problem(state, db, chosen)
        if problem is not None:
            continue
        effect = chosen.effect
        if effect.reroll_own and kind != "eldritch":
            for dice in _reroll_choices(state.player_dice()):
                yield ev.Cast(spell_id, reroll=dice)
        elif effect.loss_rows and kind == "loss":
            for rows in range(effect.loss_rows, 0, -1):
                yield ev.Cast(spell_id, rows=rows)
        else:
            yield ev.Cast(spell_id)
    for elder_id, _ in state.elders:
        aid = core.elder_card(db, elder_id).aid
        if kind in ("roll", "loss"):
            problem = city.elder_problem(state, db, elder_id)
        elif kind == "exchange":
            problem = expanded.elder_problem(state, db, elder_id)
        elif kind == "stand":
            problem = laststand.elder_problem(state, db, elder_id)
        else:
            problem = "no Elder alters the Eldritch roll"
        if problem is not None:
            continue
        if aid.reroll_own and kind != "loss":
            for dice in _reroll_choices(state.player_dice()):
                yield ev.CallElder(elder_id, reroll=dice)
        elif (aid.loss_rows or aid.cancel_loss) and kind == "loss":
            yield ev.CallElder(elder_id)
    if kind == "stand":
        ls = state.last_stand
        assert ls is not None
        stand = laststand.card(db)
        if ls.hit_points in stand.gray_spaces and ls.hit_points != stand.hit_points[0] and ls.hit_points not in ls.recharged_at:
            for path in db.solo.spell_path:
                if any(core.spell(db, s).spell_type == path.spell_type for s in state.used):
                    yield ev.Recharge(path.spell_type)


def _play(state: State, db: Database, kind: Situation, step: Step) -> State:
    """The state after one aid step, the roll left unsettled. Raises :class:`referee.solo.core.RuleError`."""
    state = replace(state, consumed=(), notes=())
    if kind in ("roll", "loss"):
        if isinstance(step, ev.Cast):
            return city.cast_on_table(state, db, step)
        assert isinstance(step, ev.CallElder)
        return city.call_on_table(state, db, step)
    if kind in ("exchange", "eldritch"):
        if isinstance(step, ev.Cast):
            return expanded.cast_on_table(state, db, step)
        assert isinstance(step, ev.CallElder)
        return expanded.call_on_table(state, db, step)
    if isinstance(step, ev.Cast):
        return laststand.cast_on_table(state, db, step)
    if isinstance(step, ev.CallElder):
        return laststand.call_on_table(state, db, step)
    return laststand.apply_recharge(state, db, step)


# ---- Chance ----------------------------------------------------------------------------------------------------
def _outcomes(count: int) -> list[tuple[tuple[int, ...], float]]:
    """Every result of ``count`` dice as a sorted tuple, with its probability."""
    if count not in _OUTCOMES:
        _OUTCOMES[count] = [
            (values, math.factorial(count) / math.prod(math.factorial(values.count(v)) for v in set(values)) / SIDES ** count)
            for values in itertools.combinations_with_replacement(range(1, SIDES + 1), count)]
    return _OUTCOMES[count]


_OUTCOMES: dict[int, list[tuple[tuple[int, ...], float]]] = {}

def _monotone(db: Database, kind: Situation, step: Step, field: str) -> bool:
    """Whether the dice of ``field`` count only by how high they are, so that all 1s or all 6s is the
    best way they can fall for the player: attack dice and the servants' or the Grayking's dice (a
    total, R5; the counters that re-roll or change them, R22). Not an Eldritch 2d6 (its table's rows
    follow no order) nor Forget's 2d6 (the number of the spell forgotten)."""
    if kind == "eldritch":
        return False
    if field == "counter" and isinstance(step, ev.Cast):
        row = laststand.counter_for(db, core.spell(db, step.spell))
        return row is None or not row.effect.forget_spell
    return True


def _branches(state: State, db: Database, kind: Situation, step: Step, every: bool) -> list[tuple[State, float]]:
    """The states one aid step may lead to, each with its probability (one state, probability 1, when
    it rolls no dice). Dice the step rolls are found by playing it and reading what it consumed; each
    field of dice is then typed in every way it can fall (``every``), or only in the ways that can be
    best for the player (all 1s and all 6s where :func:`_monotone`; probabilities are then meaningless),
    one field after another (a counter's dice may depend on the re-roll before it)."""
    after = _play(state, db, kind, step)
    rolled = [(name, value) for name, value in after.consumed if isinstance(value, Dice) and not value.typed]
    if not rolled:
        return [(after, 1.0)]
    name, value = rolled[0]
    count = len(value.values)
    if every or not _monotone(db, kind, step, name):
        outcomes = _outcomes(count)
    else:
        outcomes = [((1,) * count, 0.5), ((SIDES,) * count, 0.5)]
    out: list[tuple[State, float]] = []
    for values, p in outcomes:
        fixed = replace(step, **{name: Dice(values, None)})
        out.extend((s, p * q) for s, q in _branches(state, db, kind, fixed, every))
    return out


def _key(state: State) -> tuple:
    """What decides the rest of the search from a state: the tracks, spells, Elders and the table, with
    dice and casts as multisets (their order changes no total)."""
    table: tuple = ()
    if state.battle is not None:
        b = state.battle
        table = (tuple(sorted(b.dice)), tuple(sorted(b.enemy)), tuple(sorted(b.casts)), tuple(sorted(b.elders)), b.lowered, b.cancelled)
    elif state.map_battle is not None:
        mb = state.map_battle
        ex = mb.exchange
        exchange = (tuple(sorted(ex.dice)), tuple(sorted(ex.enemy)), tuple(sorted(ex.casts)), ex.elders) if ex else None
        table = (mb.eldritch, mb.elders, exchange)
    elif state.last_stand is not None:
        ls = state.last_stand
        table = (tuple(sorted(ls.dice)), tuple(sorted(ls.enemy)), tuple(sorted(ls.casts)), ls.elders, ls.recharged_at)
    return (state.mana, state.spirit, state.result, tuple(sorted(state.used)), tuple(sorted(state.spells)), state.elders, table)


def _table(state: State, db: Database, kind: Situation) -> tuple[int, tuple[int, ...], tuple[int, ...], int, str | None]:
    """(player's total, player's dice, the other side's dice, how many of its highest dice are already
    removed, the foe's servant type) of the roll on the table."""
    if kind == "roll":
        assert state.battle is not None
        mine, _ = city.totals(state, db)
        foe = city.city_card(state, db).battle.foe
        return mine, state.battle.dice, state.battle.enemy, core.cast_terms(db, state.battle.casts, foe)[1], foe
    if kind == "exchange":
        ex = state.map_battle.exchange if state.map_battle is not None else None
        assert ex is not None
        mine, _ = expanded.exchange_totals(state, db)
        removed = sum(core.spell(db, s).effect.remove_servant_die for s in ex.casts)
        return mine, ex.dice, ex.enemy, removed, expanded.servant_card(db, ex.servant).servant_type
    ls = state.last_stand
    assert ls is not None
    mine, _ = laststand.totals(state, db)
    removed = sum(core.spell(db, s).effect.remove_servant_die for s in ls.casts)
    return mine, ls.dice, ls.enemy, removed, None


def _may_still_win(state: State, db: Database, kind: Situation) -> bool:
    """An optimistic bound (R34): could the roll be turned if every aid left fired at its best, Mana and
    counters aside? Every re-rollable die of the player shows 6, the other side's re-rolled dice 1,
    every attack bonus and removal is cast as often as the recharges left allow. False proves that
    nothing can turn it; True only allows the search to look."""
    if kind not in ("roll", "exchange", "stand"):
        return True
    mine, dice, enemy, removed, foe = _table(state, db, kind)
    terms = [(spell_id in state.used, _best_terms(db, spell_id, foe if kind != "stand" else None)) for spell_id in state.spells]
    recharges = sum(1 for used, (recharge, *_) in terms if recharge and not used)
    if kind == "stand":
        assert state.last_stand is not None
        stand = laststand.card(db)
        recharges += sum(1 for hp in stand.gray_spaces if hp != stand.hit_points[0] and hp not in state.last_stand.recharged_at
                         and hp == state.last_stand.hit_points)
    bonus, removals, own_reroll, their_reroll = 0, 0, False, False
    for used, (_, gain, removes, rerolls_own, rerolls_theirs) in terms:
        times = recharges + (0 if used else 1)
        if times <= 0:
            continue
        bonus += gain * times
        removals += removes * times
        own_reroll = own_reroll or rerolls_own
        their_reroll = their_reroll or rerolls_theirs
    for elder_id, _ in state.elders:
        if _elder_rerolls(db, elder_id):
            own_reroll = True
    best = mine + bonus + ((SIDES * len(dice) - sum(dice)) if own_reroll else 0)
    theirs = sorted([1] * len(enemy) if their_reroll else enemy)
    return best >= sum(theirs[:max(0, len(theirs) - removed - removals)])


def _best_terms(db: Database, spell_id: str, foe: str | None) -> tuple[bool, int, int, bool, bool]:
    """What a spell brings at best to :func:`_may_still_win` against ``foe``: (recharges the others, its bonus
    if positive, servant dice it removes, re-rolls the player's dice, re-rolls the other side's), found once
    per database (:func:`referee.solo.core.derived`)."""
    answers = core.derived(db)
    key = ("best terms", spell_id, foe)
    found = answers.get(key)
    if found is None:
        effect = core.spell(db, spell_id).effect
        found = answers[key] = (bool(effect.recharge), max(0, core.spell_bonus(effect, foe)), effect.remove_servant_die,
                                bool(effect.reroll_own), bool(effect.reroll_servants))
    return found


def _elder_rerolls(db: Database, elder_id: str) -> bool:
    """Whether an Elder re-rolls the player's dice (Elder Maelis), found once per database."""
    answers = core.derived(db)
    key = ("elder rerolls", elder_id)
    found = answers.get(key)
    if found is None:
        found = answers[key] = bool(core.elder_card(db, elder_id).aid.reroll_own)
    return found


PLAY_BUDGET = 1200
"""How many aid steps one search may play. A position with many spells that pay for one another could
take far longer; past the budget the referee errs toward waiting (see :func:`options`)."""


class _Budget(Exception):
    """The search played :data:`PLAY_BUDGET` steps."""


class _Stopped(Exception):
    """A search in the background was stopped: its question is no longer asked."""


_STOP: ContextVar[threading.Event | None] = ContextVar("stop", default=None)
"""Set in a background search (:func:`options_within`): when the event is set, the search stops."""


class _Search:
    """The two searches over aid sequences from one roll (R34).

    :meth:`reach` answers "can some line of play turn the roll?" exactly, with the minimal sets of aids
    of such lines: a chance step counts when some outcome of its dice turns the roll. :meth:`chance`
    gives the probability of the best line with at most ``rolls`` steps that roll dice (the rest sure
    aid): exact for every line with one re-roll, a lower bound for lines that need more."""

    def __init__(self, root: State, db: Database, kind: Situation):
        self.db, self.kind = db, kind
        self.goal = _goal(kind, root, db)
        self.reached: dict[tuple, frozenset[frozenset[str]]] = {}
        self.turns: dict[tuple, bool] = {}
        self.chances: dict[tuple, float] = {}
        self.plays: dict[tuple, list[tuple[State, float]] | None] = {}

    def branches(self, state: State, step: Step, every: bool) -> list[tuple[State, float]] | None:
        """:func:`_branches`, remembered; None when the rules refuse the step."""
        key = (_key(state), step, every)
        if key not in self.plays:
            if len(self.plays) >= PLAY_BUDGET:
                raise _Budget
            stop = _STOP.get()
            if stop is not None and stop.is_set():
                raise _Stopped
            try:
                self.plays[key] = _branches(state, self.db, self.kind, step, every)
            except core.RuleError:
                self.plays[key] = None
        return self.plays[key]

    def hopeless(self, state: State) -> bool:
        return (state.result is not None or _fallen(state) or not _may_still_win(state, self.db, self.kind))

    def turnable(self, state: State) -> bool:
        """Whether some line of play from ``state`` turns the roll (``reach`` is not empty), found by a
        search that stops at the first such line."""
        if self.goal(state):
            return True
        if self.hopeless(state):
            return False
        key = _key(state)
        if key not in self.turns:
            self.turns[key] = False  # a line that comes back here turns nothing new
            self.turns[key] = any(self.turnable(after) for step in _candidates(state, self.db, self.kind)
                                  for after, _ in self.branches(state, step, False) or ())
        return self.turns[key]

    def reach(self, state: State) -> frozenset[frozenset[str]]:
        """The minimal sets of aids with which some line of play from ``state`` turns the roll (a set
        holding the empty set when it is turned already; empty when nothing can turn it)."""
        if self.goal(state):
            return frozenset({frozenset()})
        if self.hopeless(state):
            return frozenset()
        key = _key(state)
        if key not in self.reached:
            found: set[frozenset[str]] = set()
            for step in _candidates(state, self.db, self.kind):
                found.update(self.step_reach(state, step))
            self.reached[key] = _minimal(found)
        return self.reached[key]

    def step_reach(self, state: State, step: Step) -> set[frozenset[str]]:
        """The sets of aids of the lines through ``step`` that can turn the roll."""
        actor = _actor(step)
        found: set[frozenset[str]] = set()
        for after, _ in self.branches(state, step, False) or ():
            found.update(f | {actor} for f in self.reach(after))
        return found

    def chance(self, state: State, rolls: int) -> float:
        """The best probability of turning the roll from ``state`` with at most ``rolls`` more steps that roll dice."""
        if self.goal(state):
            return 1.0
        if self.hopeless(state):
            return 0.0
        key = (_key(state), rolls)
        if key not in self.chances:
            best = 0.0
            for step in _candidates(state, self.db, self.kind):
                best = max(best, self.step_chance(state, step, rolls))
                if best >= 1.0:
                    break
            self.chances[key] = best
        return self.chances[key]

    def step_chance(self, state: State, step: Step, rolls: int) -> float:
        """The best probability of a line starting with ``step`` (see :meth:`chance`)."""
        sure = self.branches(state, step, False)
        if sure is None:
            return 0.0
        if len(sure) == 1 and sure[0][1] == 1.0:
            return self.chance(sure[0][0], rolls)
        if rolls <= 0:
            return 0.0
        return sum(p * self.chance(after, rolls - 1) for after, p in self.branches(state, step, True) or ())


def _minimal(sets: set[frozenset[str]]) -> frozenset[frozenset[str]]:
    return frozenset(s for s in sets if not any(o < s for o in sets))


def can_turn(state: State, db: Database) -> bool:
    """Whether anything the player may still do can turn the roll on the table: :func:`options` is not
    empty (R34), answered by a search that stops at the first line that turns it and weighs no chances
    (the rules ask it after every losing roll to settle or hold it, :func:`referee.solo.rules.apply`)."""
    kind = situation(state)
    if kind is None:
        return False
    state = _hypothetical(state)
    token = core.QUIET.set(True)
    search = _Search(state, db, kind)
    try:
        return not search.goal(state) and search.turnable(state)
    except _Budget:  # never settle a roll that might still be turned (as options does)
        return not search.hopeless(state) and any(survivable(state, db, kind, step) for step in _candidates(state, db, kind))
    finally:
        core.QUIET.reset(token)


def options(state: State, db: Database) -> list[Aid]:
    """The first steps of the minimal aid sequences that can still turn the roll on the table, best
    chance first (R34; rulebook, Play, Expanded Battles phases b and c, Last Stand). Empty when no roll
    waits, when the roll is not losing, or when nothing the player may do can turn it.

    A step is offered when some minimal set of aids that can turn the roll (no aid of it could be left
    out) contains it and a line through that set can start with it: so a Mana-raising spell is offered
    only when the Mana it raises pays for an aid that turns the roll, and a spell whose cost leaves too
    little Mana for the rest of the line is not. A re-roll is offered with its best choice of dice (the
    lowest ones); a spell that lowers Battle Loss rows lowers as many as it may. ``chance`` is exact for
    lines with at most one step that rolls dice and a lower bound otherwise (:class:`Aid`).
    """
    known = remembered(state, db)
    if known is not None:
        return known
    if _STOP.get() is None:  # not the background search itself: wait for it rather than search twice
        for seen_state, seen_db, future, stop in _ASKED:
            if seen_state is state and seen_db is db and not stop.is_set():
                try:
                    return list(future.result())
                except _Stopped:  # stopped meanwhile: search here
                    break
    found = _options_now(state, db)
    _REMEMBERED.insert(0, (state, db, tuple(found)))
    del _REMEMBERED[_REMEMBER:]
    return found


_REMEMBER = 4
_REMEMBERED: list[tuple[State, Database, tuple[Aid, ...]]] = []
"""The options of the last few states asked about, by identity (states are immutable): the table
mode's question, its situation line and the Next line all ask about the same state, and the search
can take a second late in a Last Stand."""


def _hypothetical(state: State) -> State:
    """``state`` as the search plays it: every way the dice may fall is typed in
    (:func:`_branches`), so the steps taken back by undo that the game replays with the referee's dice
    (:func:`referee.solo.core.replays_undone`) are set aside: which aid can turn a roll, and its chance,
    are the same whether or not the player undid steps before it (a save replays to the same state)."""
    if not core.replays_undone(state):
        return state
    return replace(state, dice_shown=state.dice_used, deck_shown=state.deck_taken, shuffles_shown=state.shuffles)


def _options_now(state: State, db: Database) -> list[Aid]:
    kind = situation(state)
    if kind is None:
        return []
    state = _hypothetical(state)
    token = core.QUIET.set(True)
    try:
        return _options(state, db, kind)
    except _Budget:  # never settle a roll that might still be turned: offer every step the rules accept
        search = _Search(state, db, kind)
        if search.hopeless(state):
            return []
        seen: dict[str, Aid] = {}
        for step in _fallback_candidates(state, db, kind):
            if _actor(step) not in seen and survivable(state, db, kind, step):
                # a step that turns the roll alone, with no die of its own, is certain however large the rest of the
                # search (forty-seventh referee breaker, 2: Shield at Spirit 1 was "perhaps" beside steps that cannot)
                seen[_actor(step)] = Aid(step, 1.0, False, (step,)) if _turns_alone(search, state, db, kind, step) \
                    else Aid(step, 0.0, True)
        found = list(seen.values())
        order = {aid.actor: index for index, aid in enumerate(found)}
        return sorted(found, key=lambda aid: (-aid.chance, order[aid.actor]))
    finally:
        core.QUIET.reset(token)


def _fallback_candidates(state: State, db: Database, kind: Situation) -> list[Step]:
    """:func:`_candidates` for a position too large to search, each re-roll's choices of dice in the order a player would
    weigh them: first the choice that re-rolls every die showing 3 or less (the most a re-roll adds on average) and could
    still reach the other side's total, then the others (forty-eighth referee breaker, 6: `--reroll 1` was offered with
    two 1s showing, and with five 1s against five 6s, where only re-rolling them all could turn it)."""
    steps = list(_candidates(state, db, kind))
    if kind in ("roll", "exchange", "stand"):
        mine, dice, enemy, removed, _ = _table(state, db, kind)
        theirs = sum(sorted(enemy)[:max(0, len(enemy) - removed)])
        low = max(1, sum(1 for value in dice if value <= 3))

        def weighed(step: Step) -> tuple[int, int]:
            reroll = getattr(step, "reroll", ())
            if not reroll:
                return (0, 0)
            reaches = mine - sum(reroll) + SIDES * len(reroll) >= theirs
            return (0 if reaches and len(reroll) >= low else 1, abs(len(reroll) - low))
        steps.sort(key=weighed)  # stable: spells before Elders, as the database lists them
    return steps


def _turns_alone(search: _Search, state: State, db: Database, kind: Situation, step: Step) -> bool:
    """Whether ``step`` alone turns the roll whatever happens: it rolls no die (one way it can go) and leaves the player
    standing with the roll turned (``search.goal``)."""
    try:
        branches = _branches(state, db, kind, step, False)
    except core.RuleError:
        return False
    return len(branches) == 1 and not _fallen(branches[0][0]) and search.goal(branches[0][0])


def survivable(state: State, db: Database, kind: Situation, step: Step) -> bool:
    """Whether some way the dice of ``step`` may fall leaves the player standing: a step that makes them
    fall whatever the dice (a spell whose Spirit cost or the Grayking's counter drops Spirit below 1 in the
    Last Stand) is never aid, even when the search is too large to weigh the rest (fourteenth breaker: Frost
    Breath and Calm were offered as "perhaps" at Spirit 1; README: a line on which you would fall never
    counts)."""
    try:
        return any(not _fallen(after) for after, _ in _branches(state, db, kind, step, False))
    except core.RuleError:
        return False


def _options(state: State, db: Database, kind: Situation) -> list[Aid]:
    search = _Search(state, db, kind)
    if search.goal(state):
        return []
    minimal = search.reach(state)
    found: dict[str, Aid] = {}
    for step in _candidates(state, db, kind):
        actor = _actor(step)
        if not any(s in minimal for s in search.step_reach(state, step)):
            continue
        chance = search.step_chance(state, step, 1)
        sure = search.branches(state, step, False)
        rolls = sure is None or len(sure) > 1
        best = found.get(actor)
        if best is None or chance > best.chance + 1e-12:
            line = _line(search, state, step, chance)
            always, backup, at_least = _after_line(search, state, line)
            found[actor] = Aid(step, chance, rolls or chance < 1.0 - 1e-12, line + always, backup, at_least)
    order = {a: i for i, a in enumerate(found)}
    return sorted(found.values(), key=lambda aid: (-round(aid.chance, 9), order[aid.actor]))


def _line(search: _Search, state: State, first: Step, chance: float, longest: int = 6) -> tuple[Step, ...]:
    """The best line of play from ``state`` that starts with ``first`` and keeps its ``chance``, as far as
    its steps are sure (no dice): each next step is the first candidate whose best chance is the line's, one that
    ends the line (a roll, or the roll turned) before one that only leads on."""
    line = [first]
    sure = search.branches(state, first, False)
    while sure is not None and len(sure) == 1 and len(line) < longest:
        state = sure[0][0]
        if search.goal(state):
            break
        keeping = [c for c in _candidates(state, search.db, search.kind) if abs(search.step_chance(state, c, 1) - chance) < 1e-9]
        if not keeping:
            break

        # the step that ends the line soonest keeps it short: Frost Breath (+2 Mana) kept the chance too, and was offered
        # for a Spirit though the line did not need it (twenty-first breaker: before a step that ends it; twenty-fifth:
        # before Calm, which ends it one step later, with Shield again)
        room = min(longest - len(line) - 1, 2)  # a look two steps ahead: the search of a late Last Stand stays quick
        follow = min(keeping, key=lambda c: _steps_to_end(search, state, c, chance, room))
        line.append(follow)
        sure = search.branches(state, follow, False)
    return tuple(line)


def _after_line(search: _Search, state: State, line: tuple[Step, ...]) -> tuple[tuple[Step, ...], tuple[Step, ...], bool]:
    """:func:`_after_roll` of ``line`` played from ``state``: after its sure steps, the step that rolls (its last);
    nothing where the line rolls no die."""
    for step in line[:-1]:
        sure = search.branches(state, step, False)
        if sure is None or len(sure) != 1:
            return (), (), False
        state = sure[0][0]
    return _after_roll(search, state, line[-1]) if line else ((), (), False)


def _after_roll(search: _Search, state: State, step: Step) -> tuple[tuple[Step, ...], tuple[Step, ...], bool]:
    """What a line that ends with the roll of ``step`` from ``state`` counts on after it, as (``always``, ``backup``,
    ``at_least``): the steps the shortest sure line needs however the dice fall (none where some fall turns the roll by
    itself), the other steps of those lines (where the dice fall short), one a spell or Elder, in the order first met;
    and whether some way they fall short leaves a step that rolls again, so that the line's chance, which counts one
    roll, is a lower bound (forty-ninth referee breaker, 1 and 2: "a chance: 50%" where Elder Maelis re-rolls a missed
    Ember Hook, 75%; "should its dice fall short, cast Flint Spark" where Shield was needed however they fell)."""
    rolled = search.branches(state, step, True)
    if not rolled or len(rolled) < 2:
        return (), (), False
    lines: list[tuple[Step, ...]] = []
    at_least, every = False, True
    for after, _ in rolled:
        if search.goal(after):
            every = False
            continue
        if search.hopeless(after):
            continue
        best = search.chance(after, 0)
        if best < 1.0 - 1e-12 and any(_rolls(search, after, c) for c in _candidates(after, search.db, search.kind)):
            at_least = True
        if best <= 0:
            continue
        keeping = [c for c in _candidates(after, search.db, search.kind) if abs(search.step_chance(after, c, 0) - best) < 1e-9]
        if keeping:
            follow = min(keeping, key=lambda c: _steps_to_end(search, after, c, best, 2))
            lines.append(_line(search, after, follow, best))
    found: dict[str, Step] = {}
    for sure in lines:
        for later in sure:
            found.setdefault(_actor(later), later)
    always = {actor for actor in found if every and lines and all(actor in map(_actor, sure) for sure in lines)}
    return (tuple(found[a] for a in found if a in always), tuple(found[a] for a in found if a not in always), at_least)


def _steps_to_end(search: _Search, state: State, step: Step, chance: float, room: int) -> int:
    """How many more sure steps keeping ``chance`` a line needs after ``step`` before it ends (:func:`_ends_the_line`):
    0 when ``step`` ends it; ``room + 1`` when it cannot end within ``room`` more steps. A certain line (``chance`` 1)
    ends by a roll only where no sure steps within ``room`` turn it (``room + 2``; forty-ninth referee breaker, 3: "cast
    Shield, then Ember Hook (certain)" was offered where Shield, Calm and Shield turn it, no die rolled)."""
    if chance >= 1.0 - 1e-12 and _rolls(search, state, step):
        return room + 2
    if _ends_the_line(search, state, step):
        return 0
    if room <= 0:
        return 1
    after = search.branches(state, step, False)
    assert after is not None and len(after) == 1  # a step that does not end the line is sure (one way the dice fall)
    later = after[0][0]
    keeping = [c for c in _candidates(later, search.db, search.kind) if abs(search.step_chance(later, c, 1) - chance) < 1e-9]
    return 1 + min((_steps_to_end(search, later, c, chance, room - 1) for c in keeping), default=room)


def _rolls(search: _Search, state: State, step: Step) -> bool:
    """Whether ``step`` rolls dice (more than one way it can go) where the rules accept it."""
    after = search.branches(state, step, False)
    return after is not None and len(after) != 1


def _ends_the_line(search: _Search, state: State, step: Step) -> bool:
    """Whether nothing more is needed after ``step``: a roll follows it, or it turns the roll."""
    after = search.branches(state, step, False)
    return after is None or len(after) != 1 or search.goal(after[0][0])


def ids(state: State, db: Database) -> list[str]:
    """The spells and Elders (and Last Stand recharges, as ``recharge:TYPE``) of :func:`options`, as ids."""
    return [aid.actor for aid in options(state, db)]


# ---- Options without waiting for them ------------------------------------------------------------------------------
_ASKED: list[tuple[State, Database, Future[list[Aid]], threading.Event]] = []
"""The background search under way or done for the state last asked about (at most one)."""


def remembered(state: State, db: Database) -> list[Aid] | None:
    """The options of ``state`` when they are already known (remembered from :func:`options`), else
    ``None``; never searches."""
    for seen_state, seen_db, found in _REMEMBERED:
        if seen_state is state and seen_db is db:
            return list(found)
    return None


def options_within(state: State, db: Database, seconds: float) -> list[Aid] | None:
    """:func:`options`, if they are known within ``seconds``; else ``None``, the search going on in a
    background thread (:func:`searching` gives it; its result is then remembered for :func:`options`).
    For a front end that must answer at once (table mode: a late Last Stand with many spells can take a
    second to search, R34): the question is shown without the odds, which follow when found. A new
    state asked about stops the search of the old one."""
    known = remembered(state, db)
    if known is not None:
        return known
    from concurrent.futures import TimeoutError as FutureTimeout  # only table mode waits on a search

    try:
        return list(searching(state, db).result(timeout=seconds))
    except FutureTimeout:
        return None


def stop_searching() -> None:
    """Stop the background search under way (an answer arrived: its question is no longer asked, and the
    search would only slow the answer down)."""
    for _, _, _, stop in _ASKED:
        stop.set()


def searching(state: State, db: Database) -> Future[list[Aid]]:
    """The background search of ``state``'s options: the one under way for it, or a new one (any search of
    another state is told to stop). Its thread is a daemon: leaving the program never waits for it."""
    for seen_state, seen_db, under_way, stopped in _ASKED:
        if seen_state is state and seen_db is db and not stopped.is_set():
            return under_way
    from concurrent.futures import Future  # only table mode searches in the background

    for _, _, _, old_stop in _ASKED:
        old_stop.set()
    future: Future[list[Aid]] = Future()
    stop = threading.Event()
    _ASKED[:] = [(state, db, future, stop)]

    def search() -> None:
        from pnp.entry import interrupts_to_the_main_thread

        interrupts_to_the_main_thread()  # a Ctrl-C is the main thread's to handle, up to the process's end
        _STOP.set(stop)
        try:
            future.set_result(options(state, db))
        except _Stopped as error:
            future.set_exception(error)

    from pnp import deferred

    deferred.realise_all()  # the record classes written before a second thread may meet one half written (pnp.deferred)
    threading.Thread(target=search, name="aid options", daemon=True).start()
    return future
