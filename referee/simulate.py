"""Balance simulator: play many seeded games of both games through the referee's pure rules and print
the figures a designer checks after editing ``cards.toml``.

A designer runs ``referee simulate`` (:func:`simulate`: win rates by difficulty, or by side for the
duel, games per second, ``--plots``); ``python bench/balance.py [--games N] [--seed S] [--game
solo|duel|both] [--db PATH] [--json] [--starts] [--jobs J]`` prints the whole report (:func:`main`).
Every game is played with :meth:`RefereeGame.play` (no subprocess, no save file); the referee rolls
every die and turns over every card from the game's seed, so game ``i`` of a run is seed ``S + i`` and
any game can be replayed at the command line from the commands the simulator prints for it.

*The Grayking is Risen* (solo) is played at each difficulty by three policies: ``random`` (any legal
command, uniformly), ``greedy`` (:func:`greedy_solo`, the heuristic without the aid search: fast) and
``sensible`` (the heuristic of :func:`sensible_solo`, weighing aid by the referee's search). The report
(:func:`main`) plays ``random`` and ``sensible``. It prints the win rate
(Wilson 95% interval), the loss causes, the game length in quest cards drawn, how often each Warding
Key is won, each City Quest's and each battle map's results, and the Last Stand's win rate when it is
reached (every policy travels to the Ash Tower after Barrier Lock, so the Last Stand is measured too;
the quest's result is counted before it). ``--starts`` adds the ``sensible`` win rate of every legal
pair of starting spells at the normal difficulty.

*Ruin & Renewal I* (duel) is played random against random, heuristic against heuristic, and the two
mixed pairings (a check that the heuristic is a better player than chance). It prints each side's
win rate, the rounds played, and which Locations are captured by whom and decide games. Its choices
are the referee's legal events (:mod:`referee.duel.legal`) and its command lines the referee's own
(:func:`referee.duel.cli.command_line`); only the policies are the simulator's.

Every game ends within a command cap. A game that reaches the cap, a state where no command is legal
though the game is not over, or an exception from the rules other than their ``RuleError`` is a
defect: it is reported with its seed and the command lines that reproduce it, never fixed or hidden.
"""
from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import os
import random
import statistics
import sys
import time
import traceback
from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from pnp import database, hexes
from referee.duel import advice as duel_advice
from referee.duel import events as dev
from referee.duel import rules as drules
from referee.duel.cli import command_line as duel_command_line
from referee.duel.game import DuelGame
from referee.duel.legal import iter_legal_events
from referee.duel.state import SIDES, Assignment, Side, other
from referee.solo import advice as sadvice
from referee.solo import aid, city, expanded, laststand
from referee.solo import cli as solo_cli
from referee.solo import events as sev
from referee.solo import legal as solo_legal
from referee.solo import rules as srules
from referee.solo.game import SoloGame
from referee.solo.state import Ending

ROOT = Path(__file__).resolve().parents[1]
"""The project folder, whose ``cards.toml`` is the bundled database."""

DEFAULT_GAMES = 100
"""Games per cell by default: 10-25 s for each game with two processes on a 2-core machine (the upper end
when the machine is busy); ``--games 500`` narrows the intervals about twofold for about five times as long."""
DEFAULT_JOBS = min(2, os.cpu_count() or 1)
"""Processes that play the games by default (the figures do not depend on it)."""
CHUNK = 25
"""Games per task handed to a process."""
SOLO_CAP = 3000
"""Commands after which a solo game counts as one that cannot end (a typical game takes 60-400)."""
DUEL_CAP = 3000
"""Events after which a duel counts as one that cannot end (a round is about six events)."""
SOLO_POLICIES = ("random", "sensible")
DUEL_PAIRINGS = (("random", "random"), ("heuristic", "heuristic"), ("heuristic", "random"), ("random", "heuristic"))
"""(Wardens' policy, Shadowmajik's policy) of each duel pairing played."""


# ---- Figures ------------------------------------------------------------------------------------------------
def wilson(successes: int, trials: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval (95% by default) of ``successes`` out of ``trials``; (0, 1) for no trials."""
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    centre = (p + z * z / (2 * trials)) / (1 + z * z / trials)
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / (1 + z * z / trials)
    return max(0.0, min(p, centre - half)), min(1.0, max(p, centre + half))


def rate(successes: int, trials: int) -> dict[str, Any]:
    """A rate as a JSON-able dict: ``k``, ``n``, ``rate`` (0 when ``n`` is 0) and its 95% ``ci``."""
    low, high = wilson(successes, trials)
    return {"k": successes, "n": trials, "rate": successes / trials if trials else 0.0, "ci": [low, high]}


def spread(values: Sequence[float]) -> dict[str, float]:
    """Mean, median, min and max of ``values`` (all 0 for none)."""
    if not values:
        return {"mean": 0.0, "median": 0.0, "min": 0.0, "max": 0.0}
    return {"mean": statistics.fmean(values), "median": float(statistics.median(values)), "min": float(min(values)), "max": float(max(values))}


@dataclass
class Defect:
    """A defect found while playing: ``kind`` is ``cap`` (the game did not end), ``stuck`` (no legal command
    though the game is not over), ``exception`` (the rules raised something other than their RuleError)
    or ``simulator`` (this script's own policy failed; the game went on with a random legal command);
    ``commands`` are the command lines that reproduce it from a new game."""

    game: str
    policy: str
    seed: int
    kind: str
    message: str
    commands: list[str]

    def to_dict(self) -> dict[str, Any]:
        return {"game": self.game, "policy": self.policy, "seed": self.seed, "kind": self.kind, "message": self.message, "commands": self.commands}


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
        super().__init__(f"{type(error).__name__}: {error} ({_where(error)})")
        self.event = event


def _where(error: BaseException) -> str:
    """``file:line`` of the innermost frame of ``error``'s traceback."""
    frames = traceback.extract_tb(error.__traceback__)
    return f"{Path(frames[-1].filename).name}:{frames[-1].lineno}" if frames else "?"


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


def _map_move(state, db: database.Database) -> sev.Event:
    """Phase a for the ``sensible`` policy: among the referee's legal moves (``expanded.legal_moves``), the
    one after which the most servants are expected to attack from an adjacent hex, where the warden hits
    back, and the fewest from out of reach (rulebook, phase b: "You may not do any damage to them until you
    are one adjacent hex in distance away"); then the nearest to the weakest servant. The player's estimate:
    each servant one hex nearer as the crow flies (rulebook, phase a), not the referee's exact step."""
    mb = state.map_battle
    ranges = {s.id: expanded.servant_card(db, s.id).range for s in mb.living}
    target = min(mb.living, key=lambda s: (s.hit_points, hexes.distance(s.hex, mb.warden)))
    best, best_score = sev.Move(()), -math.inf
    for address, steps in sorted(expanded.legal_moves(state, db).items()):
        near = far = 0
        for s in mb.living:
            expected = max(1, hexes.distance(s.hex, address) - 1)
            near += expected == 1
            far += 1 < expected <= ranges[s.id]
        score = near - 1.5 * far - 0.1 * hexes.distance(target.hex, address)
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


_WHERE = {"battle": "City Quest battle", "rolled": "City Quest battle", "loss": "City Quest battle", "council": "Council of Wardens",
          "warding": "Warding City (retreat)", "map": "map battle", "stand": "Last Stand", "learn": "learning a spell", "draw": "between cards"}


_STAND = {Ending.LAST_STAND_WON: "won", Ending.LAST_STAND_LOST: "lost"}
"""The Last Stand's result by the game's ending (a lost Last Stand leaves the game won, R56)."""


def _game_lost(state) -> bool:
    """Whether the game is lost (Spirit fallen, the Grayking at Lassadar; not a lost Last Stand, R56)."""
    return state.ending is not None and not state.ending.won


def _track_solo(db: database.Database, before, after, event, rec: SoloRecord) -> None:
    if isinstance(event, sev.Draw):
        rec.cards += 1
    if after.mana == 0:
        rec.mana_zero = True
    if after.phase != "stand" and after.last_stand is None:
        rec.grayking_rise = max(rec.grayking_rise, after.grayking - start_space(db, rec.difficulty))
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


def play_solo(db: database.Database, seed: int, difficulty: str, policy: str, defects: list[Defect],
              cap: int = SOLO_CAP, start: tuple[str, ...] | None = None) -> SoloRecord:
    """Play one solo game with ``policy`` from a new game of ``seed`` at ``difficulty``; return its record.

    The policy's commands are played in turn until the referee accepts one (``random`` lists them all in
    a random order). After Barrier Lock the driver travels to the Last Stand (R49). A game reaching ``cap``
    commands, a state with no legal command, or a non-RuleError exception is appended to ``defects``."""
    rng = random.Random(f"solo:{policy}:{seed}")
    if start is None:
        start = SENSIBLE_START if policy == "sensible" else rng.choice(srules.legal_starts(db))
    game = SoloGame.new(db, difficulty, start, seed)
    rec = SoloRecord(policy, difficulty, seed, tuple(start))
    choose = SOLO_POLICY[policy]
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
            kind = "simulator" if _where(error).startswith("simulate.py") else "exception"
            defects.append(Defect("solo", policy, seed, kind, str(error) if event else f"{type(error).__name__}: {error} ({_where(error)})",
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
                defects.append(Defect("solo", policy, seed, "exception", f"{type(error).__name__}: {error} ({_where(error)})",
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
        _track_solo(db, state, game.state, played, rec)
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


def _summarise_solo(records: list[SoloRecord]) -> dict[str, Any]:
    n = len(records)
    won = sum(r.quest == "won" for r in records)
    causes = Counter(f"{r.cause or r.quest} ({r.where})" if r.where else (r.cause or r.quest) for r in records if r.quest != "won")
    causes = Counter(dict(sorted(causes.items(), key=lambda kv: (-kv[1], kv[0]))))
    keys = {k: sum(k in r.keys for r in records) / n if n else 0.0 for k in (1, 2, 3)}
    stand = [r for r in records if r.quest == "won"]
    return {
        "games": n, "win": rate(won, n), "losses": dict(causes.most_common()),
        "endings": dict(Counter(r.ending or r.quest for r in records).most_common()),
        "cards_drawn": spread([r.cards for r in records]), "commands": spread([r.commands for r in records]),
        "keys": {str(k): v for k, v in keys.items()},
        "last_stand": rate(sum(r.stand == "won" for r in stand), len(stand)),
        "last_stand_rounds": spread([r.stand_rounds for r in stand]),
        "spells_learned": spread([len(r.learned) for r in records]),
        "mana_zero": sum(r.mana_zero for r in records) / n if n else 0.0,
        "grayking_rise": spread([r.grayking_rise for r in records]),
        "grayking_rise_p90": _percentile([r.grayking_rise for r in records], 0.9),
        "lowest_spirit": spread([min(r.lowest_spirit, 21) for r in records]),
    }


def _percentile(values: Sequence[float], q: float) -> float:
    """The ``q`` quantile of ``values`` (nearest rank; 0 for none)."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return float(ordered[min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))])


# ---- Playing many games, in one process or several --------------------------------------------------------------
_DB: database.Database
"""The database of this process, loaded by :func:`_use_db` before any game is played."""
_DB_PATH: Path | None = None


def _use_db(path: Path) -> None:
    global _DB, _DB_PATH
    if _DB_PATH != path:
        _DB, _DB_PATH = database.load(path), path


def _task(task: tuple[str, tuple, tuple[int, ...]]) -> tuple[list, list[Defect]]:
    """Play one task: ``("solo", (policy, difficulty, start), seeds)`` or ``("duel", (wardens, shadowmajik), seeds)``."""
    kind, args, seeds = task
    assert _DB_PATH is not None
    defects: list[Defect] = []
    if kind == "solo":
        policy, difficulty, start = args
        return [play_solo(_DB, s, difficulty, policy, defects, start=start) for s in seeds], defects
    wardens, shadow = args
    return [play_duel(_DB, s, {"wardens": wardens, "shadowmajik": shadow}, defects) for s in seeds], defects


def execute(tasks: list[tuple[str, tuple, tuple[int, ...]]], db_path: Path, jobs: int, defects: list[Defect],
            progress: Callable[[int], None] | None = None) -> list[list]:
    """The records of every task, in the order of ``tasks``, played in ``jobs`` processes (the database is
    read from ``db_path`` once per process); each task's defects are appended to ``defects`` in that order,
    so the figures and the defects do not depend on ``jobs``. ``progress(n)`` is called as each task of
    ``n`` games is done (in order)."""
    _use_db(db_path)
    done = []
    if jobs <= 1 or len(tasks) <= 1:
        for task in tasks:
            done.append(_task(task))
            if progress is not None:
                progress(len(task[2]))
    else:
        methods = multiprocessing.get_all_start_methods()
        context = multiprocessing.get_context("fork" if "fork" in methods else None)
        with ProcessPoolExecutor(max_workers=jobs, mp_context=context, initializer=_use_db, initargs=(db_path,)) as pool:
            for task, result in zip(tasks, pool.map(_task, tasks), strict=True):
                done.append(result)
                if progress is not None:
                    progress(len(task[2]))
    out = []
    for records, found in done:
        out.append(records)
        defects.extend(found)
    return out


def _chunks(seed: int, games: int) -> list[tuple[int, ...]]:
    seeds = list(range(seed, seed + games))
    return [tuple(seeds[i:i + CHUNK]) for i in range(0, games, CHUNK)]


def run_solo(db_path: Path, games: int, seed: int, defects: list[Defect], jobs: int = 1, difficulties: Sequence[str] | None = None,
             policies: Sequence[str] = SOLO_POLICIES) -> dict[str, Any]:
    """Play ``games`` solo games (seeds ``seed`` .. ``seed + games - 1``) for every policy and difficulty;
    return the figures as a JSON-able dict: ``cells`` (one per policy and difficulty), and per policy over
    all difficulties ``cities`` (each City Quest's battles won), ``maps`` (each Warding map's battles),
    ``learned`` (share of games each spell was learned in) and ``casts_per_game``."""
    _use_db(db_path)
    db = _DB
    difficulties = list(difficulties or srules.track(db).start)
    cells_order = [(policy, difficulty) for policy in policies for difficulty in difficulties]
    tasks = [("solo", (policy, difficulty, None), chunk) for policy, difficulty in cells_order for chunk in _chunks(seed, games)]
    results = iter(execute(tasks, db_path, jobs, defects))
    per_cell = len(_chunks(seed, games))
    cells = []
    by_policy: dict[str, list[SoloRecord]] = defaultdict(list)
    for policy, difficulty in cells_order:
        records = [r for _ in range(per_cell) for r in next(results)]
        by_policy[policy] += records
        cells.append({"policy": policy, "difficulty": difficulty, **_summarise_solo(records)})
    cities: dict[str, Any] = {}
    maps: dict[str, Any] = {}
    learned: dict[str, Any] = {}
    casts: dict[str, Any] = {}
    for policy, records in by_policy.items():
        fights: dict[str, list[bool]] = defaultdict(list)
        for r in records:
            for card, won in r.cities:
                fights[card].append(won)
        cities[policy] = {srules.short_id(c): rate(sum(v), len(v)) for c, v in sorted(fights.items())}
        per_map: dict[int, Counter] = defaultdict(Counter)
        rounds: dict[int, list[int]] = defaultdict(list)
        for r in records:
            for key, outcome, n_rounds in r.maps:
                per_map[key][outcome] += 1
                if outcome != "declined":
                    rounds[key].append(n_rounds)
        maps[policy] = {str(k): {"fought": sum(v[o] for o in ("won", "retreat", "died")), **{o: v[o] for o in ("won", "retreat", "died", "declined")},
                                 "win": rate(v["won"], sum(v[o] for o in ("won", "retreat", "died"))), "rounds": spread(rounds[k])}
                        for k, v in sorted(per_map.items())}
        counted = Counter(s for r in records for s in set(r.learned))
        learned[policy] = {s: counted[s] / len(records) for s in sorted(counted, key=lambda x: (-counted[x], x))}
        total: Counter = Counter()
        for r in records:
            total.update(r.casts)
        casts[policy] = {s: total[s] / len(records) for s in sorted(total, key=lambda x: (-total[x], x))}
    lassadar = {d: srules.lassadar(db) - start_space(db, d) for d in difficulties}
    return {"games_per_cell": games, "lassadar": lassadar, "cells": cells, "cities": cities, "maps": maps, "learned": learned,
            "casts_per_game": casts}


def run_starts(db_path: Path, games: int, seed: int, defects: list[Defect], jobs: int = 1, difficulty: str = "normal") -> list[dict[str, Any]]:
    """The ``sensible`` policy's win rate for every legal pair of starting spells (R3) at ``difficulty``,
    best first."""
    _use_db(db_path)
    starts = srules.legal_starts(_DB)
    chunks = _chunks(seed, games)
    tasks = [("solo", ("sensible", difficulty, start), chunk) for start in starts for chunk in chunks]
    results = iter(execute(tasks, db_path, jobs, defects))
    out = []
    for start in starts:
        records = [r for _ in chunks for r in next(results)]
        won = sum(r.quest == "won" for r in records)
        out.append({"start": [srules.short_id(s) for s in start], "win": rate(won, len(records)),
                    "cards_drawn": spread([r.cards for r in records])["mean"]})
    return sorted(out, key=lambda x: -x["win"]["rate"])


# ---- The duel: command lines for reproduction -------------------------------------------------------------------
def _duel_repro(game: DuelGame, extra: dev.Event | None = None) -> list[str]:
    """The command lines that play ``game`` again from a new game (:func:`referee.duel.cli.command_line`;
    the referee's dice come from the seed), then ``extra``."""
    lines = [f"referee duel new --seed {game.log.initial.setup.seed}"] + [duel_command_line(e) for e in game.log.events]
    if extra is not None:
        lines.append(duel_command_line(extra))
    return lines


# ---- The duel: policies ---------------------------------------------------------------------------------------------
POINT_VALUE = 0.8
"""What one MP or SP is worth to the duel heuristic, in Battle Number (a 3-point spell gives +3)."""
PUSH_VALUE = 2.5
"""... a space the opponent's cube is moved back."""
EXTRA_SPACE_VALUE = 1.2
"""... an extra space if the battle is won (counted at about even odds)."""


def assignment_score(state, db: database.Database, side: Side, a: Assignment) -> float:
    """The duel heuristic's worth of placing the dice as ``a``, in Battle Number: the two Battle dice, the
    Power die's points (:func:`referee.duel.rules.power_gain`) or the spell's effect less its cost at this
    Location (:func:`referee.duel.rules.spell_cost`). Expected values stand for re-rolls: a re-rolled die
    shows 3.5; the opponent's re-rolled highest die loses about 1."""
    score = float(sum(a.battle))
    if a.power is not None:
        return score + POINT_VALUE * drules.power_gain(db, a.power, state.points[side])
    face = a.spell_face
    assert face is not None  # exactly one of the Power and Casting dice is used
    effect = drules.spell(db, side, face).effect
    here = state.place(state.current).cubes
    score += effect.battle - effect.opponent_battle
    if effect.reroll_battle_die:
        target = a.reroll if a.reroll is not None else min(a.battle)
        score += 3.5 - target
    score += 1.0 * effect.opponent_reroll_highest
    score += PUSH_VALUE * min(effect.push_back, here[other(side)])
    score += EXTRA_SPACE_VALUE * effect.extra_spaces
    return score - POINT_VALUE * drules.spell_cost(state, db, side, face)


def _marker_score(state, db: database.Database, side: Side, location_id: str) -> float:
    place = state.place(location_id)
    top = drules.top(db, location_id)
    mine, theirs = place.cubes[side] / top, place.cubes[other(side)] / top
    cheap = sum(drules.spell_cost(state, db, side, s.face, location_id) < s.cost for s in drules.player(db, side).spells)
    their_cheap = sum(drules.spell_cost(state, db, other(side), s.face, location_id) < s.cost for s in drules.player(db, other(side)).spells)
    stranded = 1.0 if place.cubes[side] == 0 and state.supply[side] == 0 else 0.0
    return 2 * mine - theirs + 0.1 * (cheap - their_cheap) - stranded + 0.05 * (6 - top)


def duel_choice(state, db: database.Database, side: Side, policy: str, rng: random.Random) -> dev.Event | None:
    """The next event of ``side`` under ``policy`` (``random`` or ``heuristic``), chosen among the
    referee's legal events of that side (:func:`referee.duel.legal.iter_legal_events`: the marker's
    Locations, the referee's roll, the placings of the rolled dice, the cubes to take back or none).
    ``None`` when there is none. The referee's roll, which comes before any placing, is taken without
    drawing from ``rng``.

    The heuristic places the marker where its cube is furthest up and the opponent's lowest (description:
    "the losing player decides the next location"), places the dice for the best :func:`assignment_score`,
    and takes back a cube when the round's spaces exceed the space the cube stood on (R29)."""
    options = list(iter_legal_events(state, db, side))
    if not options:
        return None
    if isinstance(options[0], dev.Roll):  # the referee rolls before the dice are placed: nothing to choose
        return options[0]
    if policy == "random":
        return rng.choice(options)
    markers = [e for e in options if isinstance(e, dev.Marker)]
    if markers:
        return max(markers, key=lambda e: _marker_score(state, db, side, e.location))
    recalls = [e for e in options if isinstance(e, dev.Recall)]
    if recalls:
        gains = [(state.pending - state.place(e.location).cubes[side], e.location) for e in recalls if e.location is not None]
        best = max(gains, default=(0, None))
        return dev.Recall(side, best[1] if best[0] > 0 else None)
    commits = [(e, e.assignment) for e in options if isinstance(e, dev.Commit) and e.assignment is not None]
    return max(commits, key=lambda ea: (assignment_score(state, db, side, ea[1]), ea[1].text()), default=(options[0], None))[0]


@dataclass
class DuelRecord:
    """What one duel did: the ``winner`` (or ``cap``/``error``), ``rounds`` played, ``ties``, the Locations
    captured in order as ``(id, side)``, the Location that decided the game, the row dealt, and each side's
    spell faces cast (0 for the Power die)."""

    seed: int
    winner: str = ""
    rounds: int = 0
    ties: int = 0
    captures: list[tuple[str, str]] = field(default_factory=list)
    decided_by: str = ""
    row: tuple[str, ...] = ()
    faces: dict[str, Counter] = field(default_factory=lambda: {s: Counter() for s in SIDES})


def play_duel(db: database.Database, seed: int, policies: dict[str, str], defects: list[Defect], cap: int = DUEL_CAP) -> DuelRecord:
    """Play one duel of ``seed`` with ``policies`` (side -> ``random`` or ``heuristic``); return its record.

    Each round both sides let the referee roll (``roll``), commit, and the referee reveals; a game
    reaching ``cap`` events, a state with no legal event, or a non-RuleError exception is a defect."""
    game = DuelGame.new(db, seed)
    rngs = {side: random.Random(f"duel:{policies[side]}:{side}:{seed}") for side in SIDES}
    rec = DuelRecord(seed, row=game.state.setup.row)
    label = f"{policies['wardens']} vs {policies['shadowmajik']}"
    while game.state.phase != "over":
        state = game.state
        if len(game.log.events) >= cap:
            defects.append(Defect("duel", label, seed, "cap", f"no winner after {cap} events (round {state.round})", _duel_repro(game)))
            rec.winner = "cap"
            break
        first = next(iter_legal_events(state, db), None)  # whose turn: the chooser, the winner, the first side to commit
        actor = getattr(first, "side", None)
        event = first if actor is None else duel_choice(state, db, actor, policies[actor], rngs[actor])
        if event is None:
            defects.append(Defect("duel", label, seed, "stuck", f"no legal event in phase {state.phase} ({duel_advice.next_step(state, db)})",
                                  _duel_repro(game)))
            rec.winner = "error"
            break
        try:
            game.play(event)
        except drules.RuleError as error:
            defects.append(Defect("duel", label, seed, "stuck", f"the referee refused its own legal choice: {error}", _duel_repro(game, event)))
            rec.winner = "error"
            break
        except Exception as error:  # the rules must refuse with RuleError, never crash: a defect
            defects.append(Defect("duel", label, seed, "exception", f"{type(error).__name__}: {error} ({_where(error)})", _duel_repro(game, event)))
            rec.winner = "error"
            break
        after = game.state
        if isinstance(event, dev.Reveal) and after.last is not None:
            rec.ties += after.last.winner is None
            for side in SIDES:
                rec.faces[side][after.last.casts[side]] += 1
        for capture in after.controlled[len(state.controlled):]:
            rec.captures.append(capture)
    state = game.state
    rec.rounds = state.round
    if state.phase == "over":
        rec.winner = state.result
        rec.decided_by = rec.captures[-1][0] if rec.captures else ""
    return rec


def run_duel(db_path: Path, games: int, seed: int, defects: list[Defect], jobs: int = 1,
             pairings: Sequence[tuple[str, str]] = DUEL_PAIRINGS) -> dict[str, Any]:
    """Play ``games`` duels (seeds ``seed`` ..) for every pairing; return the figures as a JSON-able dict:
    per pairing the Wardens' and Shadowmajik's win rates, rounds, ties and the active die's use, and per
    Location how often it was dealt, captured by each side, and how often its capture decided the game."""
    _use_db(db_path)
    db = _DB
    chunks = _chunks(seed, games)
    tasks = [("duel", pairing, chunk) for pairing in pairings for chunk in chunks]
    results = iter(execute(tasks, db_path, jobs, defects))
    out = []
    for wardens, shadow in pairings:
        records = [r for _ in chunks for r in next(results)]
        n = len(records)
        places: dict[str, Counter] = defaultdict(Counter)
        for r in records:
            for loc in r.row:
                places[loc]["dealt"] += 1
            for loc, side in r.captures:
                places[loc][f"captured_{side}"] += 1
            if r.decided_by:
                places[r.decided_by]["decided"] += 1
        rounds_played = sum(sum(r.faces["wardens"].values()) for r in records)
        faces = {side: {str(f): sum(r.faces[side][f] for r in records) / max(1, rounds_played) for f in range(7)} for side in SIDES}
        out.append({
            "wardens": wardens, "shadowmajik": shadow, "games": n,
            "wardens_win": rate(sum(r.winner == "wardens" for r in records), n),
            "shadowmajik_win": rate(sum(r.winner == "shadowmajik" for r in records), n),
            "unfinished": sum(r.winner not in SIDES for r in records),
            "rounds": spread([r.rounds for r in records]),
            "tie_share": sum(r.ties for r in records) / max(1, rounds_played),
            "faces": faces,
            "locations": {drules.name(db, loc): {"dealt": c["dealt"], "captured_wardens": c["captured_wardens"],
                                                "captured_shadowmajik": c["captured_shadowmajik"], "decided": c["decided"]}
                          for loc, c in sorted(places.items(), key=lambda kv: -kv[1]["decided"])},
        })
    return {"games_per_pairing": games, "pairings": out}


# ---- `referee simulate`: the designer's figures -----------------------------------------------------------------------
SIMULATE_POLICIES = {"solo": ("random", "greedy", "sensible"), "duel": ("random", "greedy", "heuristic")}
"""The policies ``referee simulate --policy`` takes for each game (the duel's ``greedy`` is its heuristic)."""
DUEL_POLICY_NAMES = {"random": "random", "greedy": "heuristic", "heuristic": "heuristic"}


def _outcome(won: int, games: int) -> dict[str, Any]:
    low, high = wilson(won, games)
    return {"games": games, "wins": won, "win_rate": won / games if games else 0.0, "ci95": [low, high]}


def simulate(game: str, games: int, db_path: Path, *, difficulties: Sequence[str] | None = None, policy: str = "greedy",
             seed: int = 1, jobs: int = 1, progress: Callable[[int], None] | None = None) -> dict[str, Any]:
    """Play ``games`` games of ``game`` (``solo`` or ``duel``) with ``policy`` from seeds ``seed`` ..
    ``seed + games - 1`` (each solo difficulty the same seeds) in ``jobs`` processes; return one JSON-able
    object, the same whatever ``jobs`` (but ``seconds`` and ``games_per_second``).

    Solo: ``difficulties`` (default all) -> ``{"difficulties": {"beginner": {"games", "wins", "win_rate",
    "ci95", "losses", "mana_zero", "cards_drawn", "commands", "spells_learned"}, ...}}``. Duel: both sides play
    ``policy`` -> ``{"sides": {"wardens": {"games", "wins", "win_rate", "ci95"}, "shadowmajik": {...}},
    "unfinished", "rounds", "faces"}``. Both: ``game``, ``policy``, ``seed``, ``db``, ``fingerprint``,
    ``games_played``, ``seconds``, ``games_per_second``, ``jobs``, ``defects``. ``progress(n)`` is called as
    each batch of ``n`` games ends. Raises ``ValueError`` for an unknown game, policy or difficulty, and
    :class:`pnp.database.DatabaseError` for a database that does not load."""
    if game not in SIMULATE_POLICIES:
        raise ValueError(f"no game {game!r}: solo or duel")
    if policy not in SIMULATE_POLICIES[game]:
        raise ValueError(f"no {game} policy {policy!r}: {', '.join(SIMULATE_POLICIES[game])}")
    _use_db(db_path)
    db = _DB
    defects: list[Defect] = []
    chunks = _chunks(seed, games)
    result: dict[str, Any] = {"game": game, "policy": policy, "seed": seed, "db": str(db_path), "fingerprint": db.fingerprint}
    begin = time.perf_counter()
    if game == "solo":
        known = list(srules.track(db).start)
        chosen = list(difficulties or known)
        unknown = [d for d in chosen if d not in known]
        if unknown:
            raise ValueError(f"no difficulty {unknown[0]!r}: {', '.join(known)}")
        tasks: list[tuple[str, tuple, tuple[int, ...]]] = [("solo", (policy, difficulty, None), chunk) for difficulty in chosen for chunk in chunks]
        results = iter(execute(tasks, db_path, jobs, defects, progress))
        per: dict[str, Any] = {}
        for difficulty in chosen:
            records: list[SoloRecord] = [r for _ in chunks for r in next(results)]
            summary = _summarise_solo(records)
            per[difficulty] = {**_outcome(sum(r.quest == "won" for r in records), len(records)),
                               "losses": summary["losses"], "mana_zero": summary["mana_zero"], "cards_drawn": summary["cards_drawn"],
                               "commands": summary["commands"], "spells_learned": summary["spells_learned"],
                               "lengths": [r.cards for r in records]}
        result["difficulties"] = per
        played = games * len(chosen)
    else:
        name = DUEL_POLICY_NAMES[policy]
        tasks = [("duel", (name, name), chunk) for chunk in chunks]
        duels: list[DuelRecord] = [r for batch in execute(tasks, db_path, jobs, defects, progress) for r in batch]
        result["sides"] = {side: _outcome(sum(r.winner == side for r in duels), len(duels)) for side in SIDES}
        result["unfinished"] = sum(r.winner not in SIDES for r in duels)
        result["rounds"] = spread([r.rounds for r in duels])
        result["lengths"] = [r.rounds for r in duels]
        rounds_played = max(1, sum(sum(r.faces["wardens"].values()) for r in duels))
        result["faces"] = {side: {str(f): sum(r.faces[side][f] for r in duels) / rounds_played for f in range(7)} for side in SIDES}
        played = games
    seconds = time.perf_counter() - begin
    result.update(games_played=played, seconds=round(seconds, 3), jobs=jobs,
                  games_per_second=round(played / seconds, 2) if seconds > 0 else 0.0,
                  defects=[d.to_dict() for d in defects])
    return result


def write_plots(result: dict[str, Any], folder: Path) -> list[Path]:
    """PNG charts of a :func:`simulate` result in ``folder`` (made if missing), with matplotlib: the win
    rate by difficulty (solo) or by side (duel) with its Wilson 95% interval, the game lengths (quest cards
    drawn, or duel rounds) as histograms, and (solo) the causes of the losses. Returns the files written.
    Raises ``ImportError`` without matplotlib and ``OSError`` for a folder that cannot be written."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import pyplot

    folder.mkdir(parents=True, exist_ok=True)
    game, written = result["game"], []
    groups = result["difficulties"] if game == "solo" else result["sides"]
    names = list(groups)
    rates = [groups[n]["win_rate"] for n in names]
    errors = [[r - groups[n]["ci95"][0] for n, r in zip(names, rates, strict=True)],
              [groups[n]["ci95"][1] - r for n, r in zip(names, rates, strict=True)]]
    title = f"{'The Grayking is Risen' if game == 'solo' else 'Ruin & Renewal I'}: {result['policy']} policy, {result['games_played']} games"
    figure, axes = pyplot.subplots(figsize=(6, 4))
    axes.bar(names, rates, yerr=errors, capsize=6, color="#4a6b8a")
    axes.set_ylim(0, 1)
    axes.set_ylabel("win rate (Wilson 95% interval)")
    axes.set_title(title, fontsize=10)
    for index, value in enumerate(rates):
        axes.text(index, value + 0.02, f"{value:.0%}", ha="center")
    written.append(_save(figure, folder / f"{game}-win-rate.png", pyplot))
    figure, axes = pyplot.subplots(figsize=(6, 4))
    if game == "solo":
        for n in names:
            axes.hist(groups[n]["lengths"], bins=30, alpha=0.5, label=n)
        axes.set_xlabel("quest cards drawn")
        axes.legend()
    else:
        axes.hist(result["lengths"], bins=30, color="#4a6b8a")
        axes.set_xlabel("rounds")
    axes.set_ylabel("games")
    axes.set_title(f"Game length: {title}", fontsize=9)
    written.append(_save(figure, folder / f"{game}-length.png", pyplot))
    if game == "solo":
        causes = sorted({c for n in names for c in groups[n]["losses"]})
        figure, axes = pyplot.subplots(figsize=(7, 4))
        width = 0.8 / max(1, len(names))
        for index, n in enumerate(names):
            counts = [groups[n]["losses"].get(c, 0) / max(1, groups[n]["games"]) for c in causes]
            axes.barh([i + index * width for i in range(len(causes))], counts, height=width, label=n)
        axes.set_yticks([i + width * (len(names) - 1) / 2 for i in range(len(causes))], causes, fontsize=7)
        axes.set_xlabel("share of games")
        axes.legend()
        axes.set_title(f"Losses by cause: {title}", fontsize=9)
        figure.tight_layout()
        written.append(_save(figure, folder / f"{game}-losses.png", pyplot))
    return written


def _save(figure: Any, path: Path, pyplot: Any) -> Path:
    figure.savefig(path, dpi=100, bbox_inches="tight")
    pyplot.close(figure)
    return path


# ---- Printing ------------------------------------------------------------------------------------------------------------
def _pct(r: dict[str, Any]) -> str:
    return f"{r['rate']:6.1%} [{r['ci'][0]:5.1%}, {r['ci'][1]:5.1%}]"


def print_solo(results: dict[str, Any], out=sys.stdout) -> None:
    """Print the solo figures of :func:`run_solo` as tables."""
    p = lambda *a: print(*a, file=out)  # noqa: E731
    p(f"== The Grayking is Risen (solo): {results['games_per_cell']} games per policy and difficulty ==")
    p(f"{'policy':9} {'difficulty':10} {'win rate [95% CI]':24} {'cards drawn mean/med':21} {'keys 1/2/3':17} {'Last Stand won':16} "
      "spells  Mana 0")
    for c in results["cells"]:
        keys = "/".join(f"{c['keys'][k]:.0%}" for k in ("1", "2", "3"))
        ls = c["last_stand"]
        stand = f"{ls['k']}/{ls['n']}" + (f" {ls['rate']:.0%}" if ls["n"] else "")
        p(f"{c['policy']:9} {c['difficulty']:10} {_pct(c['win']):24} {c['cards_drawn']['mean']:7.1f} / {c['cards_drawn']['median']:<9.0f} "
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
    p("Last Stand (every quest won goes on to it), won: " + "; ".join(f"{pol} {_pct(rate(k, n)).strip()} of {n}" if n else f"{pol} never reached"
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
            p(f"  key {key}: {m['fought']:5d} fought, won {_pct(m['win'])}, retreat {m['retreat']}, died {m['died']}, declined {m['declined']}, "
              f"{m['rounds']['mean']:.1f} rounds")
    for policy, learned in results["learned"].items():
        p(f"Spells learned, {policy} (share of games): " + ", ".join(f"{s} {v:.0%}" for s, v in list(learned.items())[:12]))
    for policy, casts in results["casts_per_game"].items():
        p(f"Spells and Elders used per game, {policy}: " + ", ".join(f"{s} {v:.1f}" for s, v in list(casts.items())[:12]))


def print_starts(starts: list[dict[str, Any]], out=sys.stdout) -> None:
    """Print :func:`run_starts`."""
    print("Starting spells (sensible, normal): win rate [95% CI], cards drawn", file=out)
    for s in starts:
        print(f"  {'+'.join(s['start']):28} {_pct(s['win'])} {s['cards_drawn']:6.1f}", file=out)


def print_duel(results: dict[str, Any], out=sys.stdout) -> None:
    """Print the duel figures of :func:`run_duel` as tables."""
    p = lambda *a: print(*a, file=out)  # noqa: E731
    p(f"== Ruin & Renewal I (duel): {results['games_per_pairing']} games per pairing ==")
    p(f"{'Wardens':10} {'Shadowmajik':11} {'Wardens win [95% CI]':24} {'Shadowmajik win':24} {'rounds mean/med':16} ties  unfinished")
    for r in results["pairings"]:
        p(f"{r['wardens']:10} {r['shadowmajik']:11} {_pct(r['wardens_win']):24} {_pct(r['shadowmajik_win']):24} "
          f"{r['rounds']['mean']:6.1f} / {r['rounds']['median']:<6.0f} {r['tie_share']:4.0%}  {r['unfinished']}")
    for r in results["pairings"]:
        if r["wardens"] != r["shadowmajik"]:
            continue
        p(f"Locations, {r['wardens']} vs {r['shadowmajik']}: dealt, captured by Wardens / Shadowmajik, decided the game")
        for name, c in r["locations"].items():
            p(f"  {name:18} {c['dealt']:5d}  W {c['captured_wardens']:4d} / S {c['captured_shadowmajik']:4d}  decided {c['decided']:4d} "
              f"({c['decided'] / r['games']:.0%} of games)")
        for side in SIDES:
            faces = r["faces"][side]
            p(f"  {side:12} active die: power {faces['0']:.0%}, " + ", ".join(f"spell {f} {faces[str(f)]:.0%}" for f in range(1, 7)))


def print_defects(defects: list[Defect], out=sys.stdout) -> None:
    """Print the defects, one group per kind and message, with the reproduction of the first (shortest) one."""
    groups: dict[tuple[str, str, str], list[Defect]] = defaultdict(list)
    for d in defects:
        groups[(d.game, d.kind, d.message.split(" (")[0])].append(d)
    print(f"== Defects: {len(defects)} ==", file=out)
    for (game, kind, _message), found in groups.items():
        first = min(found, key=lambda d: len(d.commands))
        print(f"{game} {kind} x{len(found)}: {first.message} [policy {first.policy}, seed {first.seed}; seeds "
              f"{', '.join(str(d.seed) for d in found[:8])}{' ...' if len(found) > 8 else ''}]", file=out)
        shown = first.commands if len(first.commands) <= 40 else first.commands[:3] + [f"... ({len(first.commands) - 13} more)"] + first.commands[-10:]
        for line in shown:
            print(f"    {line}", file=out)
    if groups:
        print("(every defect's full command list, seed and policy are in the --json output)", file=out)


# ---- Command line ------------------------------------------------------------------------------------------------------
def main(argv: Sequence[str] | None = None, out=None) -> dict[str, Any]:
    """Parse ``argv`` (the command line when ``None``), play the games, print the figures (JSON with
    ``--json``) to ``out`` (standard output by default), and return them as a dict: ``solo``, ``duel``,
    ``starts`` (each present when played), ``defects``, ``games_ended`` (True when every game ended with a
    result) and ``seconds``."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=DEFAULT_GAMES, help=f"games per policy and difficulty, or per duel pairing (default {DEFAULT_GAMES})")
    parser.add_argument("--seed", type=int, default=1, help="seed of the first game; game i is seed + i (default 1)")
    parser.add_argument("--game", choices=("solo", "duel", "both"), default="both", help="which game to play (default both)")
    parser.add_argument("--db", type=Path, default=ROOT / "cards.toml", help="card database (default: the bundled cards.toml)")
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of tables")
    parser.add_argument("--starts", action="store_true", help="also play every legal pair of starting spells (sensible, normal)")
    parser.add_argument("--jobs", type=int, default=DEFAULT_JOBS, help=f"processes playing the games (default {DEFAULT_JOBS}; the figures do not depend on it)")
    args = parser.parse_args(argv)
    out = out or sys.stdout
    if args.games < 1:
        parser.error("--games must be at least 1")
    try:
        db = database.load(args.db)
    except database.DatabaseError as error:
        parser.error(f"{args.db}: {error.problems[0]} ({len(error.problems)} problems; run pnp check)")
    begin = time.perf_counter()
    defects: list[Defect] = []
    results: dict[str, Any] = {"db": str(args.db), "fingerprint": db.fingerprint, "seed": args.seed}
    timings = {}
    if args.game in ("solo", "both"):
        t = time.perf_counter()
        results["solo"] = run_solo(args.db, args.games, args.seed, defects, args.jobs)
        if args.starts:
            results["starts"] = run_starts(args.db, args.games, args.seed, defects, args.jobs)
        timings["solo"] = time.perf_counter() - t
    if args.game in ("duel", "both"):
        t = time.perf_counter()
        results["duel"] = run_duel(args.db, args.games, args.seed, defects, args.jobs)
        timings["duel"] = time.perf_counter() - t
    results["defects"] = [d.to_dict() for d in defects]
    results["games_ended"] = not any(d.kind in ("cap", "stuck") for d in defects)
    results["seconds"] = {k: round(v, 2) for k, v in {**timings, "total": time.perf_counter() - begin}.items()}
    if args.json:
        print(json.dumps(results, indent=1), file=out)
        return results
    print(f"Balance simulator: {args.db} (fingerprint {str(db.fingerprint)[:12]}), first seed {args.seed}", file=out)
    if "solo" in results:
        print_solo(results["solo"], out)
        if "starts" in results:
            print_starts(results["starts"], out)
        print(f"({timings['solo']:.1f} s)", file=out)
        print("", file=out)
    if "duel" in results:
        print_duel(results["duel"], out)
        print(f"({timings['duel']:.1f} s)", file=out)
        print("", file=out)
    print_defects(defects, out)
    return results


if __name__ == "__main__":
    main()
