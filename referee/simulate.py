"""Balance simulator: play many seeded games of both games through the referee's pure rules and print
the figures a designer checks after editing ``cards.toml``.

This module is the simulator's shared part (figures, processes, charts, the report); each game's policies
and records are in ``referee.solo.simulate`` and ``referee.duel.simulate``. A designer runs ``referee
simulate`` (:func:`simulate`: win rates by difficulty, or by side for the
duel, games per second, ``--plots``); ``python bench/balance.py [--games N] [--seed S] [--game
solo|duel|both] [--db PATH] [--json] [--starts] [--jobs J]`` prints the whole report (:func:`main`).
Every game is played with :meth:`RefereeGame.play` (no subprocess, no save file); the referee rolls
every die and turns over every card from the game's seed, so game ``i`` of a run is seed ``S + i`` and
any game can be replayed at the command line from the commands the simulator prints for it.

*The Grayking is Risen* (solo) is played at each difficulty by three policies: ``random`` (any legal
command, uniformly), ``greedy`` (:func:`referee.solo.simulate.greedy_solo`, the heuristic without the aid search: fast) and
``sensible`` (the heuristic of :func:`referee.solo.simulate.sensible_solo`, weighing aid by the referee's search). The report
(:func:`main`) plays ``random`` and ``sensible``. It prints the win rate
(Wilson 95% interval), the loss causes, the game length in quest cards drawn, how often each Warding
Key is won, each City Quest's and each battle map's results, and the Last Stand's win rate when it is
reached (every policy travels to the Ash Tower after Barrier Lock, so the Last Stand is measured too;
the quest's result is counted before it). ``--starts`` adds the win rate (``--starts-policy``, greedy by default) of every legal
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
import concurrent.futures
import concurrent.futures.process
import contextlib
import importlib
import json
import math
import multiprocessing
import os
import signal
import statistics
import sys
import threading
import time
import traceback
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any, Protocol, TypeVar

from pnp import database, resources
from pnp.deferred import dataclass
from pnp.oneline import shown_file

DEFAULT_GAMES = 100
"""Games per cell by default: 10-25 s for each game with two processes on a 2-core machine (the upper end
when the machine is busy); ``--games 500`` narrows the intervals about twofold for about five times as long."""
DEFAULT_JOBS = min(2, os.cpu_count() or 1)
"""Processes that play the games by default (the figures do not depend on it)."""
CHUNK = 25
"""Games per task handed to a process."""


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


def where(error: BaseException) -> str:
    """``file:line`` of the innermost frame of ``error``'s traceback."""
    frames = traceback.extract_tb(error.__traceback__)
    return f"{Path(frames[-1].filename).name}:{frames[-1].lineno}" if frames else "?"


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q`` quantile of ``values`` (nearest rank; 0 for none)."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return float(ordered[min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))])


# ---- Playing many games, in one process or several --------------------------------------------------------------
_DB: database.Database
"""The database of this process, loaded by :func:`use_db` before any game is played."""
_DB_PATH: Path | None = None


def use_db(path: Path) -> database.Database:
    """The database of this process, read from ``path`` once (each process of :func:`execute` reads it)."""
    global _DB, _DB_PATH
    if _DB_PATH != path:
        _DB, _DB_PATH = database.load(path), path
    return _DB


GAME_MODULES = {"solo": "referee.solo.simulate", "duel": "referee.duel.simulate"}
"""Each game's simulator module (its policies, records and figures), imported by name when it is played:
this shared module never imports a game's modules itself (tests/test_imports.py)."""


def game_module(game: str) -> Any:
    """The simulator module of ``game`` (:data:`GAME_MODULES`); raises ``ValueError`` for another name."""
    if game not in GAME_MODULES:
        raise ValueError(f"no game {game!r}: {', '.join(GAME_MODULES)}")
    return importlib.import_module(GAME_MODULES[game])


PARENT_WATCH_SECONDS = 1.0
"""How often a worker of :func:`execute` looks whether the process that started it is still there."""


def _end_when_orphaned(parent: int) -> None:
    """End this worker process once ``parent`` (the pid that started it) is gone: a parent killed by SIGKILL (the
    out-of-memory killer, a closed container) ends no worker, and each waited for ever on a queue whose other end it
    holds itself (forty-first referee breaker, MED 1). Runs in a daemon thread."""
    import time

    while os.getppid() == parent:
        time.sleep(PARENT_WATCH_SECONDS)
    os._exit(1)


def _worker(db_path: Path, parent: int | None = None) -> None:
    """A worker process of :func:`execute`: it ignores Ctrl-C (the terminal sends it to every process of the
    command; only the parent stops the run, ending every worker at once), ends when its ``parent`` is gone
    (:func:`_end_when_orphaned`) and reads the database once."""
    if parent is not None:
        import threading

        threading.Thread(target=_end_when_orphaned, args=(parent,), daemon=True, name="parent-watch").start()
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    from pnp.entry import TERMINATING

    for name in TERMINATING:  # the parent's handlers (pnp.entry.terminate_as_interrupt) raise in the parent only:
        number = getattr(signal, name, None)  # a worker the pool ends goes quietly (thirty-fourth breaker, HIGH 1: a
        if number is not None:  # traceback a worker)
            signal.signal(number, signal.SIG_DFL)
    use_db(db_path)


def _task(task: tuple[str, tuple, tuple[int, ...]]) -> tuple[Any, list[Defect]]:
    """Play one task: ``(game, args, seeds)``, each game's ``play_games(db, args, seeds, defects)`` (the game's tally of
    those games: :class:`referee.solo.simulate.SoloTally`, :class:`referee.duel.simulate.DuelTally`)."""
    kind, args, seeds = task
    assert _DB_PATH is not None
    defects: list[Defect] = []
    return game_module(kind).play_games(_DB, args, seeds, defects), defects


def processes(jobs: int, tasks: int) -> int:
    """How many processes ``jobs`` asked for play ``tasks`` batches: never more than there are batches, one
    (this process) for a single batch (twentieth breaker: 2 games reported "64 processes")."""
    return 1 if jobs <= 1 or tasks <= 1 else min(jobs, tasks)


def execute(tasks: list[tuple[str, tuple, tuple[int, ...]]], db_path: Path, jobs: int, defects: list[Defect],
            progress: Callable[[int], None] | None = None) -> list[Any]:
    """The tally of every task's games (a few numbers a game: memory flat in the games, issue 14), in the order of
    ``tasks``, played in ``jobs`` processes (the database is
    read from ``db_path`` once per process); each task's defects are appended to ``defects`` in that order,
    so the figures and the defects do not depend on ``jobs``. ``progress(n)`` is called as each task of
    ``n`` games is done (in order)."""
    use_db(db_path)
    done = []
    jobs = processes(jobs, len(tasks))
    if jobs == 1:
        for task in tasks:
            done.append(_task(task))
            if progress is not None:
                progress(len(task[2]))
    else:
        methods = multiprocessing.get_all_start_methods()
        context = multiprocessing.get_context("fork" if "fork" in methods else None)
        # concurrent.futures, not multiprocessing.Pool: a Pool replaces a worker killed by `kill -9` or the
        # out-of-memory killer and never gives its task to another (a wait for ever, thirty-fifth breaker, MED 7),
        # and its terminate() can wait for ever on the queue lock the dead worker held (a hang seen in CI). The
        # executor notices the death, fails every pending task with BrokenProcessPool and ends the other workers.
        hook = threading.excepthook
        threading.excepthook = _quiet_cancelled_future(hook)
        executor = concurrent.futures.ProcessPoolExecutor(max_workers=jobs, mp_context=context, initializer=_worker,
                                                          initargs=(db_path, os.getpid()))
        try:
            for task, result in zip(tasks, executor.map(_task, tasks)):
                done.append(result)
                if progress is not None:
                    progress(len(task[2]))
        except BaseException as error:  # Ctrl-C (only this process hears it), a failure or a worker that died: no worker
            for child in multiprocessing.active_children():  # is left running (forty-third referee breaker, HIGH 9: after
                child.terminate()  # one was killed, the others stayed blocked on their result pipes, and the exit, which
            if isinstance(error, concurrent.futures.process.BrokenProcessPool):  # joins them, waited for ever)
                raise WorkerDied("a worker process died (killed, or out of memory?) before its games were played: nothing "
                                 "was written; run again (fewer --jobs use less memory)") from None
            raise
        finally:
            executor.shutdown(wait=True, cancel_futures=True)  # (its manager thread joined: none of its errors comes later)
            threading.excepthook = hook
    out = []
    for tally, found in done:
        out.append(tally)
        defects.extend(found)
    return out


def _quiet_cancelled_future(hook: Callable[[Any], object]) -> Callable[[Any], None]:
    """``threading.excepthook`` that passes over the one error CPython 3.11's process pool raises in its manager thread
    when a signal ends the run: its workers ended while ``shutdown(cancel_futures=True)`` cancels their futures, it sets
    an exception on a future already cancelled (``InvalidStateError: CANCELLED``, CPython gh-107219, mended in 3.12), a
    traceback under "Aborted: nothing was changed." (seen in the forty-first round's test run). Every other error is
    ``hook``'s."""

    def quiet(arguments: Any) -> None:
        if isinstance(arguments.exc_value, concurrent.futures.InvalidStateError) and \
                type(arguments.thread).__name__ == "_ExecutorManagerThread":
            return
        hook(arguments)

    return quiet


class WorkerDied(RuntimeError):
    """A worker process of :func:`execute` ended before its games were played (``kill -9``, the out-of-memory killer):
    its games would never come back. ``str(error)`` is one line for the user."""


class Tally(Protocol):
    """What a game's simulation module sums its games into (``SoloTally``, ``DuelTally``)."""

    def merge(self, other: Any) -> Any: ...


T = TypeVar("T", bound=Tally)


def tallied(tallies: Iterable[T], total: T) -> T:
    """``total`` (an empty tally) with the games of ``tallies`` added in order: the tallies of consecutive tasks
    summed give every figure one tally of all their games gives."""
    for tally in tallies:
        total.merge(tally)
    return total


def chunks(seed: int, games: int) -> list[tuple[int, ...]]:
    seeds = list(range(seed, seed + games))
    return [tuple(seeds[i:i + CHUNK]) for i in range(0, games, CHUNK)]


# ---- `referee simulate`: the designer's figures -----------------------------------------------------------------------
SIMULATE_POLICIES = {"solo": ("random", "greedy", "sensible"), "duel": ("random", "greedy", "heuristic")}
"""The policies ``referee simulate --policy`` takes for each game (the duel's ``greedy`` is its heuristic)."""


def outcome(won: int, games: int) -> dict[str, Any]:
    """A win rate as :func:`simulate` gives it: ``games``, ``wins``, ``win_rate`` and its Wilson ``ci95``."""
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
    ``games_played``, ``seconds``, ``games_per_second``, ``jobs`` (the processes that played: :func:`processes`), ``defects``. ``progress(n)`` is called as
    each batch of ``n`` games ends. Raises ``ValueError`` for an unknown game, policy or difficulty, and
    :class:`pnp.database.DatabaseError` for a database that does not load."""
    if game not in SIMULATE_POLICIES:
        raise ValueError(f"no game {game!r}: solo or duel")
    if policy not in SIMULATE_POLICIES[game]:
        raise ValueError(f"no {game} policy {policy!r}: {', '.join(SIMULATE_POLICIES[game])}")
    db = use_db(db_path)
    defects: list[Defect] = []
    result: dict[str, Any] = {"game": game, "policy": policy, "seed": seed, "db": str(db_path), "fingerprint": db.fingerprint}
    begin = time.perf_counter()
    figures, played = game_module(game).simulated(db, db_path, games, seed, jobs, policy, difficulties, defects, progress)
    result.update(figures)
    seconds = time.perf_counter() - begin
    groups = len(figures["difficulties"]) if "difficulties" in figures else 1
    result.update(games_played=played, seconds=round(seconds, 3), jobs=processes(jobs, len(chunks(seed, games)) * groups),
                  games_per_second=round(played / seconds, 2) if seconds > 0 else 0.0,
                  defects=[d.to_dict() for d in defects])
    return result


def write_plots(result: dict[str, Any], folder: Path) -> list[Path]:
    """PNG charts of a :func:`simulate` result in ``folder`` (made if missing), with matplotlib: the win
    rate by difficulty (solo) or by side (duel) with its Wilson 95% interval, the game lengths (quest cards
    drawn, or duel rounds) as histograms, and (solo) the causes of the losses, drawn first and written together
    (:func:`_write_all`). Returns the files written.
    Raises ``ImportError`` without matplotlib and ``OSError`` for a folder that cannot be written."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import pyplot

    folder.mkdir(parents=True, exist_ok=True)
    game = result["game"]
    groups = result["difficulties"] if game == "solo" else result["sides"]
    names = list(groups)
    rates = [groups[n]["win_rate"] for n in names]
    errors = [[r - groups[n]["ci95"][0] for n, r in zip(names, rates, strict=True)],
              [groups[n]["ci95"][1] - r for n, r in zip(names, rates, strict=True)]]
    each = f"{groups[names[0]]['games']} games a difficulty" if game == "solo" else f"{result['games_played']} games"
    title = f"{'The Grayking is Risen' if game == 'solo' else 'Ruin & Renewal I'}: {result['policy']} policy, {each}"
    figure, axes = pyplot.subplots(figsize=(6, 4))
    axes.bar(names, rates, yerr=errors, capsize=6, color="#4a6b8a")
    axes.set_ylim(0, 1)
    axes.set_ylabel("win rate (Wilson 95% interval)")
    axes.set_title(title, fontsize=10)
    for index, (name, value) in enumerate(zip(names, rates, strict=True)):  # above the interval's cap, not on it
        axes.text(index, groups[name]["ci95"][1] + 0.02, f"{value:.1%}", ha="center")
    charts = [_save(figure, folder / f"{game}-win-rate.png", pyplot)]
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
    charts.append(_save(figure, folder / f"{game}-length.png", pyplot))
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
        charts.append(_save(figure, folder / f"{game}-losses.png", pyplot))
    return _write_all(charts)


CHART_MARK = "lassadar referee simulate"
"""The PNG ``Software`` text a chart is written with: a file holding it is one the simulator wrote, and may be replaced."""


def chart_names(game: str) -> list[str]:
    """The files :func:`write_plots` writes for ``game`` (the losses chart for the solo game only)."""
    return [f"{game}-win-rate.png", f"{game}-length.png"] + ([f"{game}-losses.png"] if game == "solo" else [])


def chart_problem(folder: Path, game: str) -> str | None:
    """Why the charts of ``game`` may not be written into ``folder`` (None when they may): a chart's name there is a
    symbolic link (it would write through it), or a file the simulator did not write (it would be lost): twenty-third
    breaker, as `pnp build` guards its output folder."""
    for name in chart_names(game):
        path = folder / name
        if path.is_symlink():
            return f"{shown_file(path)} is a symbolic link; the charts are never written through one (remove it)"
        if path.is_dir():  # (fortieth breaker, LOW 14: called "a file")
            return f"{shown_file(path)} is a folder, where a chart goes; it is not replaced (move it, or choose another folder)"
        if path.exists() and not _ours(path):
            return f"{shown_file(path)} is a file the simulator did not write; it is not replaced (move it, or choose another folder)"
    return None


def _ours(path: Path) -> bool:
    """Whether ``path`` is a chart the simulator wrote (its PNG carries :data:`CHART_MARK`)."""
    try:
        with path.open("rb") as handle:
            return CHART_MARK.encode() in handle.read(4096)
    except OSError:
        return False


def _save(figure: Any, path: Path, pyplot: Any) -> tuple[Path, bytes]:
    """``figure`` as PNG bytes, to be written at ``path`` once every chart is drawn (:func:`_write_all`)."""
    import io

    png = io.BytesIO()
    try:
        figure.savefig(png, dpi=100, bbox_inches="tight", format="png", metadata={"Software": CHART_MARK})
    finally:
        pyplot.close(figure)
    return path, png.getvalue()


def _write_all(charts: list[tuple[Path, bytes]]) -> list[Path]:
    """Write every chart whole (:func:`pnp.files.write_whole`: a new file of a random name beside it, then moved into
    place; never through a link), after removing what an interrupted earlier run left (its temporary files). A Ctrl-C
    while they are written waits until all are (a few milliseconds) and is then raised: the charts are never a mix of
    two runs (twenty-fifth breaker: interrupted there, a new win-rate chart stood beside the old ones, and the message
    said nothing was changed). Returns the files written."""
    import signal
    import threading

    from pnp.files import write_whole

    for path, _ in charts:
        for left in path.parent.glob(f".{path.name}.*.tmp"):
            with contextlib.suppress(OSError):
                left.unlink()
    interrupted: list[int] = []
    deferring = threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGINT, lambda number, frame: interrupted.append(number)) if deferring else None
    try:
        for path, data in charts:
            write_whole(path, data, shared=True)
    finally:
        if deferring:
            signal.signal(signal.SIGINT, previous)
    if interrupted:
        from pnp.entry import hold_later_interrupts

        hold_later_interrupts()  # the command ends: a later Ctrl-C is no traceback (thirty-ninth pnp breaker, LOW 10)
        raise KeyboardInterrupt
    return [path for path, _ in charts]


# ---- Printing ------------------------------------------------------------------------------------------------------------
def percent(r: dict[str, Any]) -> str:
    """A rate of :func:`rate` as ``50.0% [43.1%, 56.9%]``."""
    return f"{r['rate']:6.1%} [{r['ci'][0]:5.1%}, {r['ci'][1]:5.1%}]"


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
    parser.add_argument("--db", type=Path, default=resources.BUNDLED_DATABASE, help="card database (default: the bundled cards.toml)")
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of tables")
    parser.add_argument("--starts", action="store_true", help="also play every legal pair of starting spells (normal difficulty)")
    parser.add_argument("--starts-policy", choices=("greedy", "sensible"), default="greedy",
                        help="the policy playing --starts (default greedy, the policy of the balance targets)")
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
        solo = game_module("solo")
        results["solo"] = solo.run_solo(args.db, args.games, args.seed, defects, args.jobs)
        if args.starts:
            results["starts"] = solo.run_starts(args.db, args.games, args.seed, defects, args.jobs, policy=args.starts_policy)
        timings["solo"] = time.perf_counter() - t
    if args.game in ("duel", "both"):
        t = time.perf_counter()
        results["duel"] = game_module("duel").run_duel(args.db, args.games, args.seed, defects, args.jobs)
        timings["duel"] = time.perf_counter() - t
    results["defects"] = [d.to_dict() for d in defects]
    results["games_ended"] = not any(d.kind in ("cap", "stuck") for d in defects)
    results["seconds"] = {k: round(v, 2) for k, v in {**timings, "total": time.perf_counter() - begin}.items()}
    if args.json:
        print(json.dumps(results, indent=1), file=out)
        return results
    print(f"Balance simulator: {args.db} (fingerprint {str(db.fingerprint)[:12]}), first seed {args.seed}", file=out)
    if "solo" in results:
        game_module("solo").print_solo(results["solo"], out)
        if "starts" in results:
            game_module("solo").print_starts(results["starts"], out)
        print(f"({timings['solo']:.1f} s)", file=out)
        print("", file=out)
    if "duel" in results:
        game_module("duel").print_duel(results["duel"], out)
        print(f"({timings['duel']:.1f} s)", file=out)
        print("", file=out)
    print_defects(defects, out)
    return results


if __name__ == "__main__":
    main()
