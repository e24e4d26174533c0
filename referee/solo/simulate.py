"""The solo game in the balance simulator (:mod:`referee.simulate`): its policies (``random``, ``greedy``,
``sensible``), one game played and recorded (:func:`play_solo`), and its figures.

Every game is played with :meth:`referee.game.RefereeGame.play` from its seed (the referee rolls and
draws), so game ``i`` of a run replays at the command line from the commands a defect prints.
"""
from __future__ import annotations

import functools
import math
import random
from array import array
from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from dataclasses import field
from pathlib import Path
from typing import Any

from pnp import database, hexes
from pnp.deferred import dataclass
from referee.simulate import Defect, chunks, execute, outcome, percent, percentile, rate, spread, tallied, use_db, where
from referee.solo import advice as sadvice
from referee.solo import aid, city, expanded, laststand
from referee.solo import cli as solo_cli
from referee.solo import events as sev
from referee.solo import legal as solo_legal
from referee.solo import rules as srules
from referee.solo.core import QUIET
from referee.solo.game import SoloGame
from referee.solo.state import Ending, replace

SOLO_CAP = 3000
"""Commands after which a solo game counts as one that cannot end (a typical game takes 60-400)."""
SOLO_POLICIES = ("random", "sensible")
"""The policies the report (:func:`referee.simulate.main`) plays."""


# ---- The solo game: command lines for reproduction -----------------------------------------------------------
solo_command = solo_cli.command_line
"""The ``referee solo`` command line that plays an event again (the referee's dice and cards come from the seed)."""


def _solo_repro(game: SoloGame, extra: sev.Event | None = None) -> list[str]:
    setup = game.log.initial.setup
    lines = [f"referee solo new --difficulty {setup.difficulty} --spells {','.join(srules.short_id(s) for s in setup.spells)} --seed {setup.seed}"]
    lines += [solo_command(e) for e in game.log.events]
    if extra is not None:
        lines.append(solo_command(extra))
    return lines


# ---- The solo game: legal commands ----------------------------------------------------------------------------
def _barrier_lock(db: database.Database) -> str:
    return next(s.id for s in db.solo.spell if s.effect.barrier_lock)


def _low_dice(dice: Sequence[int]) -> tuple[int, ...]:
    """The dice a player re-rolls: every die showing 3 or less, else the lowest one."""
    low = tuple(d for d in dice if d <= 3)
    return low or ((min(dice),) if dice else ())


def solo_candidates(state, db: database.Database) -> list[sev.Event]:
    """Every command worth trying in ``state``: the referee's own superset of the legal events
    (:func:`referee.solo.legal.candidates`), with the referee's deck and servants (the simulator fights
    every Warding City on its map, or retreats from it), which :meth:`SoloGame.play` then accepts or
    refuses. A superset keeps a crash of the rules on an event they should refuse visible as a defect."""
    return solo_legal.candidates(state, db, player_cards=False)


class LookAheadError(Exception):
    """The rules raised something other than their RuleError while a policy tried ``event`` in a dry run."""

    def __init__(self, event, error: BaseException):
        super().__init__(f"{type(error).__name__}: {error} ({where(error)})")
        self.event = event


def _legal(state, db: database.Database, event) -> bool:
    """Whether the referee accepts ``event`` now (a dry run of the pure rules; nothing is recorded).
    Raises :class:`LookAheadError` when the rules crash instead of accepting or refusing."""
    try:
        srules.apply(state, db, event)
    except srules.RuleError:
        return False
    except Exception as error:
        raise LookAheadError(event, error) from error
    return True


# ---- The solo game: policies ----------------------------------------------------------------------------------
def random_solo(state, db: database.Database, rng: random.Random) -> list[sev.Event]:
    """The ``random`` policy: every candidate command in a random order; the driver plays the first the
    referee accepts, which is a uniformly random legal command."""
    candidates = solo_candidates(state, db)
    rng.shuffle(candidates)
    return candidates


SPELL_VALUE = {
    "hammer-plate": 10, "deep-root": 10, "forge-shock": 9, "hoarfrost": 9, "shield": 8, "knot": 6, "leafward": 6, "ember-hook": 6,
    "glass-lake": 5, "shard-knives": 5, "brittle-knives": 5, "bind": 5, "flint-spark": 5, "rime-mirror": 5, "calm": 4,
    "thorn-hedge": 4, "frost-breath": 4, "still-water": 4, "winter-well": 4, "oakheart": 3,
}
"""How much the ``sensible`` policy wants each spell (by short id): extra attack dice first (they join every
roll, "always part of your attack strength"), then Shield, then what softens a loss. A spell it does not
know is worth 3."""
SENSIBLE_START = ("solo.spell.shield", "solo.spell.bind")
"""The ``sensible`` policy's starting spells (rulebook, Setup: two tops of two types; the README's example)."""
FIGHT_SPIRIT = 6
"""The ``sensible`` policy fights a Warding City on its map with at least this much Spirit, else retreats (6b)."""
MAP_RETREAT_SPIRIT = 3
"""... and retreats from a map battle once its Spirit falls to this (6b: -1 Spirit, the card returns)."""


def spell_value(db: database.Database, spell_id: str, depth: int = 0) -> float:
    """``SPELL_VALUE`` of a spell plus half the best value its arrows open (rulebook, Setup: "Each step along
    the path determines the next spells to choose from")."""
    s = srules.spell(db, spell_id)
    own = SPELL_VALUE.get(srules.short_id(spell_id), 3)
    if depth > 4 or not s.opens:
        return own
    return own + 0.5 * max(spell_value(db, o, depth + 1) for o in s.opens)


def _mana_cost(db: database.Database, record_id: str) -> int:
    if record_id.startswith("solo.spell."):
        cost = srules.spell(db, record_id).cost
        return cost.mana if cost else 0
    return 0


def _turn_roll(state, db: database.Database, options: list[str], totals: Callable[[tuple[str, ...]], tuple[int, int]],
               dice: Sequence[int], enemy: Sequence[int]) -> sev.Event | None:
    """The spell or Elder the ``sensible`` policy uses on a losing roll (rulebook, Play: "You may use any of
    your learned spells in the battle"), or ``None`` to accept it.

    ``options`` are what the referee says could still change the roll (R34); ``totals(added)`` is the
    referee's own total of the roll with the spells ``added`` cast too (no die is rolled). A spell that
    changes the total is cast when it, or it with the other such spells the Mana pays for, turns the roll
    (the cheapest first); a re-roll when the expected gain covers most of the deficit; Calm when a used
    spell would then turn it."""
    mine, theirs = totals(())
    deficit = theirs - mine
    if deficit <= 0:
        return None
    spells = [o for o in options if o in state.spells]
    elders = [o for o in options if o not in state.spells]
    fixed = sorted((s for s in spells if not (srules.spell(db, s).effect.reroll_own or srules.spell(db, s).effect.reroll_servants
                                                or srules.spell(db, s).effect.recharge)), key=lambda s: (_mana_cost(db, s), s))
    chosen: list[str] = []
    for s in fixed:
        if sum(_mana_cost(db, c) for c in chosen) + _mana_cost(db, s) > state.mana:
            continue
        chosen.append(s)
        a, b = totals(tuple(chosen))
        if a >= b:
            single = next((c for c in chosen if totals((c,))[0] >= totals((c,))[1]), chosen[0])
            return sev.Cast(single)
    low = _low_dice(dice)
    gain = sum(3.5 - d for d in low)
    for s in spells:
        if srules.spell(db, s).effect.reroll_own and gain >= deficit - 1:
            return sev.Cast(s, reroll=low)
    for e in elders:
        if srules.elder_card(db, e).aid.reroll_own and gain >= deficit - 1:
            return sev.CallElder(e, reroll=low)
    for s in spells:
        if srules.spell(db, s).effect.reroll_servants and sum(enemy) - 3.5 * len(enemy) >= deficit - 1:
            return sev.Cast(s)
    for s in spells:
        if srules.spell(db, s).effect.recharge:
            again = [u for u in state.used if u in fixed or (u in state.spells and not srules.spell(db, u).effect.recharge
                                                             and (srules.spell(db, u).effect.attack_total or srules.spell(db, u).effect.remove_servant_die))]
            if any(totals((u,))[0] >= totals((u,))[1] and _mana_cost(db, s) + _mana_cost(db, u) <= state.mana for u in again):
                return sev.Cast(s)
    return None


def _loss_harm(effect, spirit: int) -> float:
    """How bad a Battle Loss row is to the ``sensible`` policy: a Grayking space 1.5, a Spirit 1 (3 when
    Spirit is low), a Mana 0.3."""
    return 1.5 * max(0, effect.grayking) + (3 if spirit <= 4 else 1) * max(0, -effect.spirit) + 0.3 * max(0, -effect.mana)


def _soften_loss(state, db: database.Database, options_of: Callable[[Any, database.Database], list[str]]) -> sev.Event | None:
    """The spell or Elder the ``sensible`` policy uses on a Battle Loss row (rulebook, Play: "You may use the
    Oaken Spells of Bind and Knot to lessen the outcome of your loss"): the one that saves the most harm
    for its price (Mana at 0.3 a point, an Elder's use at 1), if it saves more than it costs."""
    options = options_of(state, db)
    row_number = city.loss_row_number(state) if state.battle is not None else None
    if not options or not row_number:
        return None
    table = srules.table_for(db, "loss")
    harm = _loss_harm(table.row_for(row_number).effect, state.spirit)
    best, best_gain = None, 0.0
    for o in options:
        effect = srules.spell(db, o).effect if o in state.spells else srules.elder_card(db, o).aid
        if effect is None:
            continue
        if effect.cancel_loss:
            after = 0.0
        elif effect.loss_rows:
            lower = row_number - effect.loss_rows
            after = _loss_harm(table.row_for(lower).effect, state.spirit) if lower >= 1 else 0.0
        elif effect.grayking_less:
            after = harm - 1.5 * min(effect.grayking_less, max(0, table.row_for(row_number).effect.grayking))
        else:
            continue
        price = 0.3 * _mana_cost(db, o) if o in state.spells else 1.0
        if harm - after - price > best_gain:
            best, best_gain = o, harm - after - price
    if best is None:
        return None
    return sev.Cast(best) if best in state.spells else sev.CallElder(best)


def _before_roll(state, db: database.Database) -> sev.Event:
    """Before a City Quest roll: Ice spells that trade Mana and Spirit when one runs low, Oakheart against a
    harsh event text, Elder San's die against a hard card; then the battle."""
    card = srules.quest(db, state.battle.card)
    assert isinstance(card, database.CityQuest)  # a City Quest battle is under way
    hard = card.battle.attack_total < 0 or card.battle.servant_dice > 0
    wishes: list[sev.Event] = []
    for s in state.spells:
        effect = srules.spell(db, s).effect
        cost = srules.spell(db, s).cost
        spirit_cost = cost.spirit if cost else 0
        if effect.spirit > 0 and state.spirit <= 12 and state.mana >= 6:
            wishes.append(sev.Cast(s))
        elif effect.mana > 0 and state.mana <= 3 and state.spirit - spirit_cost >= 9:
            wishes.append(sev.Cast(s))
        elif effect.cancel_event and (hard or card.battle.before is not None or card.battle.loss_extra is not None) and state.spirit >= 8:
            wishes.append(sev.Cast(s))
    if hard:
        wishes += [sev.CallElder(e) for e, _ in state.elders if srules.elder_card(db, e).aid.free_dice]
    for wish in wishes:
        if _legal(state, db, wish):
            return wish
    return sev.Battle()


def _learn(state, db: database.Database) -> sev.Event:
    """The most valuable learnable spell (:func:`spell_value`) whose price is paid, keeping Spirit at 8 or more."""
    for s in sorted(srules.learnable(state, db), key=lambda s: -spell_value(db, s)):
        cost = srules.spell(db, s).learn_cost
        if state.pending and state.pending.price == "cost" and cost and cost.spirit and state.spirit - cost.spirit < 8:
            continue
        wish = sev.Learn(s)
        if _legal(state, db, wish):
            return wish
    return sev.Learn(None)


_distance = functools.cache(hexes.distance)
""":func:`pnp.hexes.distance`, kept: the ``sensible`` policy weighs every move against every servant."""


def _map_move(state, db: database.Database) -> sev.Event:
    """Phase a for the ``sensible`` policy: among the referee's legal moves (``expanded.legal_moves``), the
    one after which the most servants are expected to attack from an adjacent hex, where the warden hits
    back, and the fewest from out of reach (rulebook, phase b: "You may not do any damage to them until you
    are one adjacent hex in distance away"); then the nearest to the weakest servant. The player's estimate:
    each servant one hex nearer as the crow flies (rulebook, phase a), not the referee's exact step."""
    mb = state.map_battle
    living = mb.living
    ranges = {s.id: expanded.servant_card(db, s.id).range for s in living}
    target = min(living, key=lambda s: (s.hit_points, _distance(s.hex, mb.warden)))
    best, best_score = sev.Move(()), -math.inf
    for address, steps in sorted(expanded.legal_moves(state, db).items()):
        near = far = 0
        for s in living:
            expected = max(1, _distance(s.hex, address) - 1)
            near += expected == 1
            far += 1 < expected <= ranges[s.id]
        score = near - 1.5 * far - 0.1 * _distance(target.hex, address)
        if score > best_score:
            best, best_score = sev.Move((expanded.name(address),) if steps else ()), score
    return best


def _retreat_survives(state, db: database.Database) -> bool:
    """Whether retreating (Expanded Battles 6b: "at a loss of -1 to your Spirit") leaves Spirit on the track."""
    return state.spirit + db.solo.rules.retreat_spirit >= srules.stats(db).track_low


def _map_turn(state, db: database.Database, options_of: Callable[[Any, database.Database], list[str]]) -> sev.Event:
    mb = state.map_battle
    if mb.step == "move":
        if state.spirit <= MAP_RETREAT_SPIRIT and _retreat_survives(state, db):
            return sev.Retreat()
        return _map_move(state, db)
    if mb.step == "attack":
        servant = mb.servant(mb.queue[0])
        if hexes.distance(servant.hex, mb.warden) <= 1:
            for e in expanded.before_roll_options(state, db):
                return sev.CallElder(e)
        return sev.Attack()
    if mb.step == "exchange":
        ex = mb.exchange

        @functools.cache  # the policy asks the same totals again; the rules' answer does not change
        def totals(added: tuple[str, ...]) -> tuple[int, int]:
            return expanded.exchange_totals(replace(state, map_battle=replace(mb, exchange=replace(ex, casts=ex.casts + added))), db)

        return _turn_roll(state, db, options_of(state, db), totals, ex.dice, ex.enemy) or sev.Accept()
    if mb.step == "eldritch":
        return sev.Eldritch()
    row = db.table(expanded.battle_map(state, db).eldritch_table).row_for(mb.eldritch).effect
    options = options_of(state, db)
    if options and (row.spirit < 0 or row.mana < 0):
        return sev.Cast(options[0])
    return sev.Accept()


def _stand_turn(state, db: database.Database, options_of: Callable[[Any, database.Database], list[str]]) -> sev.Event:
    """The Last Stand for the ``sensible`` policy: recharge the most used spell type on a gray space (card
    text), attack, and on a losing roll cast what turns it (:func:`_turn_roll`, counters not foreseen)."""
    ls = state.last_stand
    if not ls.rolled:
        if ls.hit_points in laststand.card(db).gray_spaces and ls.hit_points not in ls.recharged_at and state.used:
            kind = Counter(srules.spell(db, s).spell_type for s in state.used).most_common(1)[0][0]
            wish = sev.Recharge(kind)
            if _legal(state, db, wish):
                return wish
        return sev.Attack()

    @functools.cache  # the policy asks the same totals again; the rules' answer does not change
    def totals(added: tuple[str, ...]) -> tuple[int, int]:
        return laststand.totals(replace(state, last_stand=replace(ls, casts=ls.casts + added)), db)

    return _turn_roll(state, db, options_of(state, db), totals, ls.dice, ls.enemy) or sev.Accept()


def _castable(state, db: database.Database) -> list[str]:
    """The ``greedy`` policy's aid on a roll or a loss: every learned spell not used in this battle whose
    Mana it can pay, and every Elder beside the stats card, in that order (the rules refuse what does not
    fit now). No search: the ``sensible`` policy asks the referee's aid search instead (:func:`referee.solo.aid.options`)."""
    spells = [s for s in state.spells if s not in state.used and _mana_cost(db, s) <= state.mana]
    return spells + [e for e, uses in state.elders if uses > 0]


def greedy_solo(state, db: database.Database, rng: random.Random) -> list[sev.Event]:
    """The ``greedy`` policy: the ``sensible`` policy's play (:func:`sensible_solo`) with the aid it weighs
    on a roll or a loss taken from :func:`_castable` rather than the referee's aid search, so that a game
    costs about as much as a random one; when the aid it picks does not fit, it accepts (or plays on as the
    referee's Next line would: the first legal command)."""
    chosen = _sensible(state, db, _castable, _castable)
    fallback: list[sev.Event] = [sev.Accept()] if state.phase in ("rolled", "loss", "map", "stand") else []
    return chosen + [e for e in fallback if e not in chosen]


def sensible_solo(state, db: database.Database, rng: random.Random) -> list[sev.Event]:
    """The ``sensible`` policy: :func:`_sensible` with the referee's aid search (what can still turn a roll,
    :func:`referee.solo.rules.options` and :func:`referee.solo.aid.ids`)."""
    return _sensible(state, db, srules.options, aid.ids)


def _sensible(state, db: database.Database, city_options: Callable[[Any, database.Database], list[str]],
              map_options: Callable[[Any, database.Database], list[str]]) -> list[sev.Event]:
    """The ``sensible`` policy, the play of a careful first-time player (one command; ``rng`` unused):

    - between cards, Barrier Lock as soon as all three Warding Keys are held (rulebook, Winning or Losing);
    - City Quest: Ice spells, Oakheart and Elder San before the roll (:func:`_before_roll`); after a losing
      roll the spell or Elder that turns it (:func:`_turn_roll`); after a loss, Bind, Knot, Leafward,
      Thorn Hedge or Elder Rhun when they save more than they cost (:func:`_soften_loss`);
    - every spell offered is learned, the most valuable first (:func:`_learn`);
    - Warding City: fight on the map with ``FIGHT_SPIRIT`` Spirit or more, else retreat (Expanded Battles
      6b); on the map close in on the weakest servant (:func:`_map_move`), Elder San's die against an
      adjacent servant, spells that turn a losing exchange, a re-roll of a harmful Eldritch roll, and
      retreat at ``MAP_RETREAT_SPIRIT``;
    - Last Stand: :func:`_stand_turn`.
    """
    phase = state.phase
    if state.result is not None:
        return [sev.LastStand()]
    if phase == "draw":
        return [sev.Cast(_barrier_lock(db)) if len(state.keys) >= len(srules.stats(db).keys) else sev.Draw()]
    if phase == "battle":
        return [_before_roll(state, db)]
    if phase == "rolled":
        b = state.battle

        @functools.cache  # the policy asks the same totals again; the rules' answer does not change
        def totals(added: tuple[str, ...]) -> tuple[int, int]:
            return srules.totals(replace(state, battle=replace(b, casts=b.casts + added)), db)

        return [_turn_roll(state, db, city_options(state, db), totals, b.dice, b.enemy) or sev.Accept()]
    if phase == "loss":
        return [_soften_loss(state, db, city_options) or sev.Accept()]
    if phase == "learn":
        return [_learn(state, db)]
    if phase == "council":
        return [sev.Council()]
    if phase == "warding":
        return [sev.Servants() if state.spirit >= FIGHT_SPIRIT or not _retreat_survives(state, db) else sev.Retreat()]
    if phase == "map":
        return [_map_turn(state, db, map_options)]
    if phase == "stand":
        return [_stand_turn(state, db, map_options)]
    return []


SOLO_POLICY: dict[str, Callable[..., list[sev.Event]]] = {"random": random_solo, "greedy": greedy_solo, "sensible": sensible_solo}
"""The solo policies by name: ``random``, ``greedy`` (fast) and ``sensible`` (the aid search's odds)."""


# ---- The solo game: playing and recording ---------------------------------------------------------------------
@dataclass
class SoloRecord:
    """What one solo game did: ``quest`` is ``won``, ``lost``, ``cap`` or ``error``; ``ending`` how the game
    ended (a :class:`~referee.solo.state.Ending` value, empty when it did not), ``cause`` the ending of a
    loss and ``where`` the part of the game it happened in; ``stand`` the Last Stand's ``won``, ``lost`` or
    ``unfinished``; ``cards`` the quest cards drawn."""

    policy: str
    difficulty: str
    seed: int
    start: tuple[str, ...]
    quest: str = ""
    ending: str = ""
    cause: str = ""
    where: str = ""
    cards: int = 0
    commands: int = 0
    keys: tuple[int, ...] = ()
    stand: str = ""
    stand_rounds: int = 0
    grayking_rise: int = 0
    lowest_spirit: int = 99
    cities: list[tuple[str, bool]] = field(default_factory=list)
    maps: list[tuple[int, str, int]] = field(default_factory=list)
    learned: tuple[str, ...] = ()
    casts: Counter = field(default_factory=Counter)
    mana_zero: bool = False


class SoloTally:
    """What many solo games did, summed as each is played (:meth:`add`), so that a run's memory does not grow with its
    games (issue 14: "memory: flat in the number of games"; ``python bench/simulate_memory.py``): counts, and of each
    game only the few small numbers the spreads and the length histogram need (4 bytes each). Tallies of consecutive
    tasks are summed in order (:meth:`merge`), so that every figure, ties in the order of what was seen first included,
    is the one the games' records gave."""

    def __init__(self) -> None:
        self.games = 0
        self.won = 0
        self.causes: Counter[str] = Counter()
        self.endings: Counter[str] = Counter()
        self.keys: Counter[int] = Counter()
        """Games in which each Warding Key was won."""
        self.stand_games = 0
        self.stand_won = 0
        self.mana_zero = 0
        self.stand_rounds = array("i")
        self.cards = array("i")
        self.commands = array("i")
        self.learned_counts = array("i")
        self.grayking_rise = array("i")
        self.lowest_spirit = array("i")
        """Each game's lowest Spirit, at most 21."""
        self.cities: dict[str, list[int]] = {}
        """Each City Quest's battles: ``[won, fought]``."""
        self.maps: dict[int, Counter[str]] = {}
        """Each Warding map's battles (by key) by outcome."""
        self.map_rounds: dict[int, array] = {}
        self.learned: Counter[str] = Counter()
        """Games in which each spell was learned."""
        self.casts: Counter[str] = Counter()

    def add(self, record: SoloRecord) -> None:
        """Count one game's ``record``."""
        self.games += 1
        won = record.quest == "won"
        self.won += won
        if not won:
            self.causes[f"{record.cause or record.quest} ({record.where})" if record.where else (record.cause or record.quest)] += 1
        self.endings[record.ending or record.quest] += 1
        for key in (1, 2, 3):
            if key in record.keys:
                self.keys[key] += 1
        if won:
            self.stand_games += 1
            self.stand_won += record.stand == "won"
            self.stand_rounds.append(record.stand_rounds)
        self.mana_zero += record.mana_zero
        self.cards.append(record.cards)
        self.commands.append(record.commands)
        self.learned_counts.append(len(record.learned))
        self.grayking_rise.append(record.grayking_rise)
        self.lowest_spirit.append(min(record.lowest_spirit, 21))
        for card, battle_won in record.cities:
            fought = self.cities.setdefault(card, [0, 0])
            fought[0] += battle_won
            fought[1] += 1
        for key, result, rounds in record.maps:
            self.maps.setdefault(key, Counter())[result] += 1
            if result != "declined":
                self.map_rounds.setdefault(key, array("i")).append(rounds)
        self.learned.update(set(record.learned))
        self.casts.update(record.casts)

    def merge(self, other: SoloTally) -> SoloTally:
        """Add ``other``'s games (played after this tally's) to this tally; returns this tally."""
        self.games += other.games
        self.won += other.won
        self.stand_games += other.stand_games
        self.stand_won += other.stand_won
        self.mana_zero += other.mana_zero
        self.keys.update(other.keys)
        for mine, theirs in ((self.causes, other.causes), (self.endings, other.endings), (self.learned, other.learned),
                             (self.casts, other.casts)):
            mine.update(theirs)
        for values, more in ((self.stand_rounds, other.stand_rounds), (self.cards, other.cards), (self.commands, other.commands),
                             (self.learned_counts, other.learned_counts), (self.grayking_rise, other.grayking_rise),
                             (self.lowest_spirit, other.lowest_spirit)):
            values.extend(more)
        for card, (battles_won, fought) in other.cities.items():
            mine_fought = self.cities.setdefault(card, [0, 0])
            mine_fought[0] += battles_won
            mine_fought[1] += fought
        for key, outcomes in other.maps.items():
            self.maps.setdefault(key, Counter()).update(outcomes)
        for key, rounds in other.map_rounds.items():
            self.map_rounds.setdefault(key, array("i")).extend(rounds)
        return self


_WHERE = {"battle": "City Quest battle", "rolled": "City Quest battle", "loss": "City Quest battle", "council": "Council of Wardens",
          "warding": "Warding City (retreat)", "map": "map battle", "stand": "Last Stand", "learn": "learning a spell", "draw": "between cards"}


_STAND = {Ending.LAST_STAND_WON: "won", Ending.LAST_STAND_LOST: "lost"}
"""The Last Stand's result by the game's ending (a lost Last Stand leaves the game won, R56)."""


def _game_lost(state) -> bool:
    """Whether the game is lost (Spirit fallen, the Grayking at Lassadar; not a lost Last Stand, R56)."""
    return state.ending is not None and not state.ending.won


def _track_solo(db: database.Database, before, after, event, rec: SoloRecord, start: int) -> None:
    """Record in ``rec`` what ``event`` did from ``before`` to ``after`` (``start``: the Grayking's start space)."""
    if isinstance(event, sev.Draw):
        rec.cards += 1
    if after.mana == 0:
        rec.mana_zero = True
    if after.phase != "stand" and after.last_stand is None:
        rec.grayking_rise = max(rec.grayking_rise, after.grayking - start)
        rec.lowest_spirit = min(rec.lowest_spirit, after.spirit)
    if isinstance(event, (sev.Cast, sev.CallElder)):
        rec.casts[srules.short_id(getattr(event, "spell", "") or getattr(event, "elder", ""))] += 1
    if isinstance(event, sev.Battle):
        for s in event.casts:
            rec.casts[srules.short_id(s)] += 1
    if before.battle is not None and after.battle is None:
        rec.cities.append((before.battle.card, before.battle.card in after.removed))
    if before.map_battle is not None and after.map_battle is None:
        battle_map = db.get(before.map_battle.map)
        assert isinstance(battle_map, database.BattleMap)
        key = battle_map.key
        outcome = "won" if key in after.keys and key not in before.keys else "died" if _game_lost(after) else "retreat"
        rec.maps.append((key, outcome, before.map_battle.round))
    elif before.phase == "warding" and isinstance(event, sev.Retreat):
        city = srules.quest(db, before.card)
        assert isinstance(city, database.WardingCity)  # the card of the warding phase
        rec.maps.append((city.key, "declined", 0))
    if _game_lost(after) and before.ending is None:
        rec.where = _WHERE.get(before.phase, before.phase)


def start_space(db: database.Database, difficulty: str) -> int:
    """The Grayking's start space at ``difficulty`` (rulebook, Setup; ``[solo.progress_track] start``);
    raises ``KeyError`` for a difficulty the track does not name."""
    return {str(name): space for name, space in srules.track(db).start.items()}[difficulty]


def legal_starts(db: database.Database) -> list[tuple[str, str]]:
    """:func:`referee.solo.rules.legal_starts` (rulebook, Setup; R3), found once per database: a game of
    the ``random`` and ``greedy`` policies draws its start from them."""
    known = _LEGAL_STARTS.get(id(db))
    if known is None or known[0] is not db:
        _LEGAL_STARTS.clear()
        known = _LEGAL_STARTS[id(db)] = (db, tuple(srules.legal_starts(db)))
    return list(known[1])


_LEGAL_STARTS: dict[int, tuple[database.Database, tuple[tuple[str, str], ...]]] = {}
"""The legal starts of the database last asked about (kept beside them, so that its id is never reused)."""


def play_solo(db: database.Database, seed: int, difficulty: str, policy: str, defects: list[Defect],
              cap: int = SOLO_CAP, start: tuple[str, ...] | None = None) -> SoloRecord:
    """Play one solo game with ``policy`` from a new game of ``seed`` at ``difficulty``; return its record.

    The policy's commands are played in turn until the referee accepts one (``random`` lists them all in
    a random order). After Barrier Lock the driver travels to the Last Stand (R49). A game reaching ``cap``
    commands, a state with no legal command, or a non-RuleError exception is appended to ``defects``.
    Nobody reads a simulated game's notes: the rules write none while it is played
    (:data:`referee.solo.core.QUIET`; the states are the same but for their words, issue 14)."""
    token = QUIET.set(True)
    try:
        return _play_quietly(db, seed, difficulty, policy, defects, cap, start)
    finally:
        QUIET.reset(token)


def _play_quietly(db: database.Database, seed: int, difficulty: str, policy: str, defects: list[Defect],
                  cap: int, start: tuple[str, ...] | None) -> SoloRecord:
    rng = random.Random(f"solo:{policy}:{seed}")
    if start is None:
        start = SENSIBLE_START if policy == "sensible" else rng.choice(legal_starts(db))
    game = SoloGame.new(db, difficulty, start, seed)
    rec = SoloRecord(policy, difficulty, seed, tuple(start))
    choose = SOLO_POLICY[policy]
    grayking_start = start_space(db, difficulty)
    while True:
        state = game.state
        if state.result is not None:
            if not laststand.offered(state, db):
                break
            rec.quest, rec.keys = "won", state.keys
        if rec.commands >= cap:
            defects.append(Defect("solo", policy, seed, "cap", f"no result after {cap} commands (phase {state.phase})", _solo_repro(game)))
            rec.quest = rec.quest or "cap"
            break
        try:
            wishes = choose(state, db, rng)
        except Exception as error:  # a rules function the policy asked crashed: a defect; play on at random
            event = error.event if isinstance(error, LookAheadError) else None
            kind = "simulator" if where(error).startswith("simulate.py") else "exception"
            defects.append(Defect("solo", policy, seed, kind, str(error) if event else f"{type(error).__name__}: {error} ({where(error)})",
                                  _solo_repro(game, event)))
            wishes = random_solo(state, db, rng)
        played = None
        for event in wishes:
            try:
                game.play(event)
                played = event
                break
            except srules.RuleError:
                continue
            except Exception as error:  # the rules must refuse with RuleError, never crash: a defect
                defects.append(Defect("solo", policy, seed, "exception", f"{type(error).__name__}: {error} ({where(error)})",
                                      _solo_repro(game, event)))
                continue
        if played is None and policy != "random":
            for event in random_solo(state, db, rng):  # the heuristic asked for a refused command: any legal one
                try:
                    game.play(event)
                    played = event
                    break
                except Exception:
                    continue
        if played is None:
            defects.append(Defect("solo", policy, seed, "stuck", f"no legal command in phase {state.phase} "
                                  f"({sadvice.next_step(state, db)})", _solo_repro(game)))
            rec.quest = rec.quest or "error"
            break
        rec.commands += 1
        _track_solo(db, state, game.state, played, rec, grayking_start)
    state = game.state
    rec.ending = state.ending.value if state.ending is not None else ""
    if rec.quest == "won":
        rec.stand = _STAND.get(state.ending, "unfinished")
        rec.stand_rounds = state.last_stand.rounds if state.last_stand else 0
    elif not rec.quest:
        rec.quest = state.result or "error"
        rec.cause = rec.ending
        rec.keys = state.keys
    rec.learned = tuple(srules.short_id(s) for s in state.spells)
    return rec


def _summarise_solo(tally: SoloTally) -> dict[str, Any]:
    n = tally.games
    causes = Counter(dict(sorted(tally.causes.items(), key=lambda kv: (-kv[1], kv[0]))))
    keys = {k: tally.keys[k] / n if n else 0.0 for k in (1, 2, 3)}
    return {
        "games": n, "win": rate(tally.won, n), "losses": dict(causes.most_common()),
        "endings": dict(tally.endings.most_common()),
        "cards_drawn": spread(tally.cards), "commands": spread(tally.commands),
        "keys": {str(k): v for k, v in keys.items()},
        "last_stand": rate(tally.stand_won, tally.stand_games),
        "last_stand_rounds": spread(tally.stand_rounds),
        "spells_learned": spread(tally.learned_counts),
        "mana_zero": tally.mana_zero / n if n else 0.0,
        "grayking_rise": spread(tally.grayking_rise),
        "grayking_rise_p90": percentile(tally.grayking_rise, 0.9),
        "lowest_spirit": spread(tally.lowest_spirit),
    }


def run_solo(db_path: Path, games: int, seed: int, defects: list[Defect], jobs: int = 1, difficulties: Sequence[str] | None = None,
             policies: Sequence[str] = SOLO_POLICIES) -> dict[str, Any]:
    """Play ``games`` solo games (seeds ``seed`` .. ``seed + games - 1``) for every policy and difficulty;
    return the figures as a JSON-able dict: ``cells`` (one per policy and difficulty), and per policy over
    all difficulties ``cities`` (each City Quest's battles won), ``maps`` (each Warding map's battles),
    ``learned`` (share of games each spell was learned in) and ``casts_per_game``."""
    db = use_db(db_path)
    difficulties = list(difficulties or srules.track(db).start)
    cells_order = [(policy, difficulty) for policy in policies for difficulty in difficulties]
    tasks = [("solo", (policy, difficulty, None), chunk) for policy, difficulty in cells_order for chunk in chunks(seed, games)]
    results = iter(execute(tasks, db_path, jobs, defects))
    per_cell = len(chunks(seed, games))
    cells = []
    by_policy: dict[str, SoloTally] = defaultdict(SoloTally)
    for policy, difficulty in cells_order:
        cell = tallied((next(results) for _ in range(per_cell)), SoloTally())
        by_policy[policy].merge(cell)
        cells.append({"policy": policy, "difficulty": difficulty, **_summarise_solo(cell)})
    cities: dict[str, Any] = {}
    maps: dict[str, Any] = {}
    learned: dict[str, Any] = {}
    casts: dict[str, Any] = {}
    for policy, tally in by_policy.items():
        cities[policy] = {srules.short_id(c): rate(*tally.cities[c]) for c in sorted(tally.cities)}
        maps[policy] = {str(k): {"fought": sum(v[o] for o in ("won", "retreat", "died")), **{o: v[o] for o in ("won", "retreat", "died", "declined")},
                                 "win": rate(v["won"], sum(v[o] for o in ("won", "retreat", "died"))),
                                 "rounds": spread(tally.map_rounds.get(k, ()))}
                        for k, v in sorted(tally.maps.items())}
        counted = tally.learned
        learned[policy] = {s: counted[s] / tally.games for s in sorted(counted, key=lambda x: (-counted[x], x))}
        total = tally.casts
        casts[policy] = {s: total[s] / tally.games for s in sorted(total, key=lambda x: (-total[x], x))}
    lassadar = {d: srules.lassadar(db) - start_space(db, d) for d in difficulties}
    return {"games_per_cell": games, "lassadar": lassadar, "cells": cells, "cities": cities, "maps": maps, "learned": learned,
            "casts_per_game": casts}


def run_starts(db_path: Path, games: int, seed: int, defects: list[Defect], jobs: int = 1, difficulty: str = "normal",
               policy: str = "greedy") -> list[dict[str, Any]]:
    """The win rate of ``policy`` (``greedy``, the policy the balance targets of issue 14 are measured with,
    or ``sensible``) for every legal pair of starting spells (R3) at ``difficulty``, best first: a list of
    ``{"start": [short id, short id], "win": rate, "cards_drawn": mean, "policy": policy}``."""
    db = use_db(db_path)
    starts = srules.legal_starts(db)
    batches = chunks(seed, games)
    tasks = [("solo", (policy, difficulty, start), chunk) for start in starts for chunk in batches]
    results = iter(execute(tasks, db_path, jobs, defects))
    out = []
    for start in starts:
        tally = tallied((next(results) for _ in batches), SoloTally())
        out.append({"start": [srules.short_id(s) for s in start], "win": rate(tally.won, tally.games),
                    "cards_drawn": spread(tally.cards)["mean"], "policy": policy})
    return sorted(out, key=lambda x: -x["win"]["rate"])


def print_solo(results: dict[str, Any], out: Any = None) -> None:
    """Print the solo figures of :func:`run_solo` as tables."""
    p = lambda *a: print(*a, file=out)  # noqa: E731
    p(f"== The Grayking is Risen (solo): {results['games_per_cell']} games per policy and difficulty ==")
    p(f"{'policy':9} {'difficulty':10} {'win rate [95% CI]':24} {'cards drawn mean/med':21} {'keys 1/2/3':17} {'Last Stand won':16} "
      "spells  Mana 0")
    for c in results["cells"]:
        keys = "/".join(f"{c['keys'][k]:.0%}" for k in ("1", "2", "3"))
        ls = c["last_stand"]
        stand = f"{ls['k']}/{ls['n']}" + (f" {ls['rate']:.0%}" if ls["n"] else "")
        p(f"{c['policy']:9} {c['difficulty']:10} {percent(c['win']):24} {c['cards_drawn']['mean']:7.1f} / {c['cards_drawn']['median']:<9.0f} "
          f"{keys:17} {stand:16} {c['spells_learned']['mean']:4.1f}   {c['mana_zero']:4.0%}")
    p("(cards drawn: quest cards turned over; spells: learned at the end; Mana 0: games in which Mana reached 0,"
      " which never loses by itself, R1)")
    p("Margins during the quest: the Grayking's highest climb above its start space (mean, 90th percentile; Lassadar is"
      " that many spaces away: beginner/normal/advanced) and the lowest Spirit reached (mean, median):")
    lassadar = results["lassadar"]
    for c in results["cells"]:
        p(f"  {c['policy']:9} {c['difficulty']:10} Grayking +{c['grayking_rise']['mean']:.1f} (p90 +{c['grayking_rise_p90']:.0f}; "
          f"Lassadar +{lassadar[c['difficulty']]})   lowest Spirit {c['lowest_spirit']['mean']:.1f} / {c['lowest_spirit']['median']:.0f}")
    p("Losses (share of games) by cause and where it happened:")
    for c in results["cells"]:
        losses = "; ".join(f"{why} {k / c['games']:.1%}" for why, k in c["losses"].items())
        p(f"  {c['policy']:9} {c['difficulty']:10} {losses or 'none'}")
    stands: defaultdict[str, list[int]] = defaultdict(lambda: [0, 0])
    for c in results["cells"]:
        stands[c["policy"]][0] += c["last_stand"]["k"]
        stands[c["policy"]][1] += c["last_stand"]["n"]
    p("Last Stand (every quest won goes on to it), won: " + "; ".join(f"{pol} {percent(rate(k, n)).strip()} of {n}" if n else f"{pol} never reached"
                                                                 for pol, (k, n) in stands.items()))
    p("")
    for policy, cities in results["cities"].items():
        p(f"City Quests, {policy} (all difficulties): battles fought, won")
        row = [f"{card} {r['n']} {r['rate']:.0%}" for card, r in sorted(cities.items(), key=lambda kv: kv[1]['rate'])]
        for i in range(0, len(row), 4):
            p("  " + " | ".join(row[i:i + 4]))
    for policy, maps in results["maps"].items():
        p(f"Warding maps, {policy}: fought, won [CI], retreated, died, declined (retreat before the servants), rounds mean")
        for key, m in maps.items():
            p(f"  key {key}: {m['fought']:5d} fought, won {percent(m['win'])}, retreat {m['retreat']}, died {m['died']}, declined {m['declined']}, "
              f"{m['rounds']['mean']:.1f} rounds")
    for policy, learned in results["learned"].items():
        p(f"Spells learned, {policy} (share of games): " + ", ".join(f"{s} {v:.0%}" for s, v in list(learned.items())[:12]))
    for policy, casts in results["casts_per_game"].items():
        p(f"Spells and Elders used per game, {policy}: " + ", ".join(f"{s} {v:.1f}" for s, v in list(casts.items())[:12]))


def print_starts(starts: list[dict[str, Any]], out: Any = None) -> None:
    """Print :func:`run_starts`."""
    policy = starts[0]["policy"] if starts else "greedy"
    print(f"Starting spells ({policy}, normal): win rate [95% CI], cards drawn", file=out)
    for s in starts:
        print(f"  {'+'.join(s['start']):28} {percent(s['win'])} {s['cards_drawn']:6.1f}", file=out)


def play_games(db: database.Database, args: tuple, seeds: Sequence[int], defects: list[Defect]) -> SoloTally:
    """The games of one task of :func:`referee.simulate.execute`, tallied: ``args`` is ``(policy, difficulty, start)``."""
    policy, difficulty, start = args
    tally = SoloTally()
    for seed in seeds:
        tally.add(play_solo(db, seed, difficulty, policy, defects, start=start))
    return tally


def simulated(db: database.Database, db_path: Path, games: int, seed: int, jobs: int, policy: str,
              difficulties: Sequence[str] | None, defects: list[Defect],
              progress: Callable[[int], None] | None) -> tuple[dict[str, Any], int]:
    """The solo figures of :func:`referee.simulate.simulate` and the games played: ``{"difficulties": ...}``.
    Raises ``ValueError`` for a difficulty the Progress Track does not name."""
    known = list(srules.track(db).start)
    chosen = list(difficulties or known)
    unknown = [d for d in chosen if d not in known]
    if unknown:
        raise ValueError(f"no difficulty {unknown[0]!r}: {', '.join(known)}")
    batches = chunks(seed, games)
    tasks: list[tuple[str, tuple, tuple[int, ...]]] = [("solo", (policy, difficulty, None), batch) for difficulty in chosen for batch in batches]
    results = iter(execute(tasks, db_path, jobs, defects, progress))
    per: dict[str, Any] = {}
    for difficulty in chosen:
        tally = tallied((next(results) for _ in batches), SoloTally())
        summary = _summarise_solo(tally)
        per[difficulty] = {**outcome(tally.won, tally.games),
                           "losses": summary["losses"], "mana_zero": summary["mana_zero"], "cards_drawn": summary["cards_drawn"],
                           "commands": summary["commands"], "spells_learned": summary["spells_learned"],
                           "lengths": list(tally.cards)}
    return {"difficulties": per}, games * len(chosen)
