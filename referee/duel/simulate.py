"""The two-player game in the balance simulator (:mod:`referee.simulate`): its policies (``random``,
``heuristic``, which ``greedy`` names), one duel played and recorded (:func:`play_duel`), and its figures.
Its choices are the referee's legal events (:mod:`referee.duel.legal`) and its command lines the
referee's own (:func:`referee.duel.cli.command_line`); only the policies are the simulator's.
"""
from __future__ import annotations

import random
from array import array
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import field
from pathlib import Path
from typing import Any

from pnp import database
from pnp.deferred import dataclass
from referee.duel import advice as duel_advice
from referee.duel import events as dev
from referee.duel import rules as drules
from referee.duel.cli import command_line as duel_command_line
from referee.duel.game import DuelGame
from referee.duel.legal import iter_legal_events
from referee.duel.state import SIDES, Assignment, Side, other
from referee.simulate import Defect, chunks, execute, outcome, percent, rate, spread, tallied, use_db, where

DUEL_CAP = 3000
"""Events after which a duel counts as one that cannot end (a round is about six events)."""
DUEL_PAIRINGS = (("random", "random"), ("heuristic", "heuristic"), ("heuristic", "random"), ("random", "heuristic"))
"""(Wardens' policy, Shadowmajik's policy) of each duel pairing the report plays."""
POLICY_NAMES = {"random": "random", "greedy": "heuristic", "heuristic": "heuristic"}
"""The policy each name of ``referee simulate --policy`` plays (``greedy`` is the heuristic)."""


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


class DuelTally:
    """What many duels did, summed as each is played (:meth:`add`): counts, and of each duel only its rounds (for the
    spreads and the length histogram), so that a run's memory does not grow with its games (issue 14;
    ``python bench/simulate_memory.py --game duel``). Tallies of consecutive tasks are summed in order (:meth:`merge`):
    every figure, ties in the order of what was seen first included, is the one the duels' records gave."""

    def __init__(self) -> None:
        self.games = 0
        self.wins: Counter[str] = Counter()
        """Duels won by each side (``cap`` and ``error`` counted too)."""
        self.ties = 0
        self.rounds = array("i")
        self.faces: dict[str, Counter[int]] = {side: Counter() for side in SIDES}
        self.places: dict[str, Counter[str]] = {}
        """Each Location's ``dealt``, ``captured_<side>`` and ``decided`` counts, in the order first seen."""

    def add(self, record: DuelRecord) -> None:
        """Count one duel's ``record``."""
        self.games += 1
        self.wins[record.winner] += 1
        self.ties += record.ties
        self.rounds.append(record.rounds)
        for side in SIDES:
            self.faces[side].update(record.faces[side])
        for location in record.row:
            self.places.setdefault(location, Counter())["dealt"] += 1
        for location, taker in record.captures:
            self.places.setdefault(location, Counter())[f"captured_{taker}"] += 1
        if record.decided_by:
            self.places.setdefault(record.decided_by, Counter())["decided"] += 1

    def merge(self, other: DuelTally) -> DuelTally:
        """Add ``other``'s duels (played after this tally's) to this tally; returns this tally."""
        self.games += other.games
        self.wins.update(other.wins)
        self.ties += other.ties
        self.rounds.extend(other.rounds)
        for side in SIDES:
            self.faces[side].update(other.faces[side])
        for location, counts in other.places.items():
            self.places.setdefault(location, Counter()).update(counts)
        return self

    def unfinished(self) -> int:
        """Duels that ended with no winner (``cap``, ``error``)."""
        return sum(count for winner, count in self.wins.items() if winner not in SIDES)


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
            defects.append(Defect("duel", label, seed, "exception", f"{type(error).__name__}: {error} ({where(error)})", _duel_repro(game, event)))
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
    db = use_db(db_path)
    batches = chunks(seed, games)
    tasks = [("duel", pairing, chunk) for pairing in pairings for chunk in batches]
    results = iter(execute(tasks, db_path, jobs, defects))
    out = []
    for wardens, shadow in pairings:
        tally = tallied((next(results) for _ in batches), DuelTally())
        n = tally.games
        rounds_played = sum(tally.faces["wardens"].values())
        faces = {side: {str(f): tally.faces[side][f] / max(1, rounds_played) for f in range(7)} for side in SIDES}
        out.append({
            "wardens": wardens, "shadowmajik": shadow, "games": n,
            "wardens_win": rate(tally.wins["wardens"], n),
            "shadowmajik_win": rate(tally.wins["shadowmajik"], n),
            "unfinished": tally.unfinished(),
            "rounds": spread(tally.rounds),
            "tie_share": tally.ties / max(1, rounds_played),
            "faces": faces,
            "locations": {drules.name(db, loc): {"dealt": c["dealt"], "captured_wardens": c["captured_wardens"],
                                                "captured_shadowmajik": c["captured_shadowmajik"], "decided": c["decided"]}
                          for loc, c in sorted(tally.places.items(), key=lambda kv: -kv[1]["decided"])},
        })
    return {"games_per_pairing": games, "pairings": out}


def print_duel(results: dict[str, Any], out: Any = None) -> None:
    """Print the duel figures of :func:`run_duel` as tables."""
    p = lambda *a: print(*a, file=out)  # noqa: E731
    p(f"== Ruin & Renewal I (duel): {results['games_per_pairing']} games per pairing ==")
    p(f"{'Wardens':10} {'Shadowmajik':11} {'Wardens win [95% CI]':24} {'Shadowmajik win':24} {'rounds mean/med':16} ties  unfinished")
    for r in results["pairings"]:
        p(f"{r['wardens']:10} {r['shadowmajik']:11} {percent(r['wardens_win']):24} {percent(r['shadowmajik_win']):24} "
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


def play_games(db: database.Database, args: tuple, seeds: Sequence[int], defects: list[Defect]) -> DuelTally:
    """The duels of one task of :func:`referee.simulate.execute`, tallied: ``args`` is ``(wardens' policy, Shadowmajik's
    policy)``."""
    wardens, shadow = args
    tally = DuelTally()
    for seed in seeds:
        tally.add(play_duel(db, seed, {"wardens": wardens, "shadowmajik": shadow}, defects))
    return tally


def simulated(db: database.Database, db_path: Path, games: int, seed: int, jobs: int, policy: str,
              difficulties: Sequence[str] | None, defects: list[Defect],
              progress: Callable[[int], None] | None) -> tuple[dict[str, Any], int]:
    """The duel figures of :func:`referee.simulate.simulate` (both sides play ``policy``) and the games played:
    ``sides``, ``unfinished``, ``rounds``, ``lengths``, ``faces`` (``difficulties`` is not read)."""
    name = POLICY_NAMES[policy]
    tasks: list[tuple[str, tuple, tuple[int, ...]]] = [("duel", (name, name), batch) for batch in chunks(seed, games)]
    duels = tallied(execute(tasks, db_path, jobs, defects, progress), DuelTally())
    rounds_played = max(1, sum(duels.faces["wardens"].values()))
    return {"sides": {side: outcome(duels.wins[side], duels.games) for side in SIDES},
            "unfinished": duels.unfinished(), "rounds": spread(duels.rounds),
            "lengths": list(duels.rounds),
            "faces": {side: {str(f): duels.faces[side][f] / rounds_played for f in range(7)} for side in SIDES}}, games
