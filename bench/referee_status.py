"""Latency of one-shot referee commands, as ratios measured in one run: to `python -c "import click"`
(issue 14: at most 2.0), and at a long game's last event to the same command at its 10th (issue 14:
the same cost at event 400 as at event 10, thanks to the save's checkpoint).

Run: python bench/referee_status.py [--runs N]. It plays one long solo game through the referee's own
rules (the referee's dice, a seeded random legal command each step), saves it after 10 events and after
400, then times `referee solo status --json`, `referee solo undo`, the first command the Next line offers that
the referee fills in (its dice or deck: a command played) and `referee solo status` (a table, printed by rich) on each
save in a fresh interpreter (what a player at the table waits for), median of N runs, after one run that writes the
modules' compiled files (``__pycache__``) as any first run on a player's machine does (this machine sets
``PYTHONDONTWRITEBYTECODE``, which would make every command compile every module again). `--no-checkpoint` times the same
saves without their checkpoints (every event replayed), as before issue 14. Each figure is given
twice: wall-clock time, and CPU time (user + system, from ``os.wait4``), the steadier on a shared machine.
Last, the record classes (:mod:`pnp.deferred` dataclasses) the long save's ``status --json`` realises, and the
CPU time that takes, as a ratio to the same ``import click``.
"""
from __future__ import annotations

import argparse
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import tomllib
from pathlib import Path

import tomli_w

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from pnp import database  # noqa: E402
from referee.solo import legal  # noqa: E402
from referee.solo.game import SoloGame  # noqa: E402

LONG_SEED = 263
"""The seed of the longest of 300 games of :func:`long_game` (490 events): it is cut at :data:`LONG` events."""
LONG = 400
"""The long game's event count (issue 14: the same cost at event 400 as at event 10)."""


def long_game(db: database.Database, seed: int = LONG_SEED) -> SoloGame:
    """A whole solo game of ``seed`` at the beginner difficulty: a uniformly random legal event each step."""
    rng = random.Random(seed)
    game = SoloGame.new(db, "beginner", ("solo.spell.shield", "solo.spell.bind"), seed)
    while game.state.result is None:
        events = legal.legal_events(game.state, db)
        if not events:
            break
        game.play(rng.choice(events))
    return game


def timed(args: list[str], env: dict[str, str], before: Path | None = None, save: Path | None = None) -> tuple[float, float]:
    """Seconds of one run of ``args`` (the save restored from ``before`` first, untimed): wall clock and CPU (user +
    system of the child, ``os.wait4``)."""
    if before is not None and save is not None:
        shutil.copyfile(before, save)
    start = time.perf_counter()
    child = subprocess.Popen(args, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        raise RuntimeError(f"{' '.join(args)} failed")
    return wall, usage.ru_utime + usage.ru_stime


def offered(save: Path, work: Path, referee: list[str], env: dict[str, str]) -> list[str] | None:
    """The first command the Next line of ``save`` offers that names no value for the player to fill in (the referee's
    dice or deck), as arguments run on ``work`` (a copy of ``save``), or ``None`` when it offers none."""
    import json
    import shlex

    status = json.loads(subprocess.run(referee + ["status", "--json", "--save", str(save)], check=True, capture_output=True,
                                       cwd=ROOT, env=env, text=True).stdout)
    for command in status.get("next_commands", []):
        words = shlex.split(command)
        if words[:2] != ["referee", "solo"] or any(word.isupper() or "D,D" in word for word in words):
            continue
        if "--save" in words:
            at = words.index("--save")
            del words[at:at + 2]
        return referee + words[2:] + ["--save", str(work)]
    return None


def medians(runs: list[tuple[float, float]]) -> tuple[float, float]:
    """The median wall-clock and the median CPU seconds of ``runs``."""
    return statistics.median(run[0] for run in runs), statistics.median(run[1] for run in runs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=9, help="runs of each command (the median is reported)")
    parser.add_argument("--no-checkpoint", action="store_true", help="strip the saves' checkpoints (replay every event)")
    args = parser.parse_args()
    db = database.load(ROOT / "cards.toml")
    game = long_game(db)
    count = LONG
    with tempfile.TemporaryDirectory() as folder:
        saves = {}
        for events in (10, count):
            while len(game.log.events) > events:
                game.log.pop()
            # cut where undo may take the last step back (ruling 84: a shown roll, card or shuffle stands)
            while game.rules.undo_problem(game.log.events[-1], game.log.state_at(len(game.log.events) - 1), game.log.state):
                game.log.pop()
            events = len(game.log.events)
            path = Path(folder) / f"at-{events}.toml"
            doc = game.document()
            if args.no_checkpoint:
                doc.pop("checkpoint", None)
            path.write_text(tomli_w.dumps(doc))
            saves[events] = path
            game = long_game(db)
        count = max(saves)
        env = dict(os.environ, NO_COLOR="1")
        env.pop("PYTHONDONTWRITEBYTECODE", None)  # as on a player's machine: modules compiled once, then read from __pycache__
        referee = [sys.executable, "-m", "referee", "solo"]
        subprocess.run(referee + ["status", "--json", "--save", str(saves[10])], check=True, capture_output=True, cwd=ROOT, env=env)
        click = medians([timed([sys.executable, "-c", "import click"], env) for _ in range(args.runs)])
        print(f"python -c 'import click': {click[0] * 1000:.0f} ms wall, {click[1] * 1000:.0f} ms CPU (median of {args.runs})")
        results = {}
        for events, path in sorted(saves.items()):
            kept = "checkpoint" in tomllib.loads(path.read_text())
            work = Path(folder) / "work.toml"
            status = medians([timed(referee + ["status", "--json", "--save", str(path)], env) for _ in range(args.runs)])
            undo = medians([timed(referee + ["undo", "--save", str(work)], env, path, work) for _ in range(args.runs)])
            results[events] = (status, undo)
            print(f"at event {events:3d} ({'checkpoint' if kept else 'no checkpoint'}): "
                  f"status --json {status[0] * 1000:.0f} ms wall ({status[0] / click[0]:.1f}x import click), "
                  f"{status[1] * 1000:.0f} ms CPU ({status[1] / click[1]:.1f}x); "
                  f"undo {undo[0] * 1000:.0f} ms wall ({undo[0] / click[0]:.1f}x), {undo[1] * 1000:.0f} ms CPU ({undo[1] / click[1]:.1f}x)")
            played = offered(path, work, referee, env)
            if played is not None:
                step = medians([timed(played, env, path, work) for _ in range(args.runs)])
                print(f"  the Next line's command `{' '.join(played[3:-2])}`: {step[0] * 1000:.0f} ms wall "
                      f"({step[0] / click[0]:.1f}x), {step[1] * 1000:.0f} ms CPU ({step[1] / click[1]:.1f}x)")
            table = medians([timed(referee + ["status", "--save", str(path)], env) for _ in range(args.runs)])
            print(f"  status (its table, printed by rich): {table[0] * 1000:.0f} ms wall ({table[0] / click[0]:.1f}x), "
                  f"{table[1] * 1000:.0f} ms CPU ({table[1] / click[1]:.1f}x)")
        low, high = results[min(results)], results[count]
        print(f"event {count} / event {min(results)} (CPU): status --json {high[0][1] / low[0][1]:.2f}x, undo {high[1][1] / low[1][1]:.2f}x")
        realised = [record_classes(saves[count], env) for _ in range(args.runs)]
        classes, seconds = realised[0][0], statistics.median(run[1] for run in realised)
        print(f"record classes realised by status --json at event {count}: {classes}, in {seconds * 1000:.1f} ms CPU "
              f"({seconds / click[1]:.2f}x import click; pnp.deferred writes the methods of the others never)")

_REALISED = """
import sys, time
from pnp import deferred
real, spent, names, depth = deferred.realise, [0.0], set(), [0]
def timed(cls):
    if "__deferred_dataclass__" not in cls.__dict__:
        return real(cls)
    names.add(cls)
    depth[0] += 1
    start = time.process_time()
    try:
        return real(cls)
    finally:
        depth[0] -= 1
        if not depth[0]:  # a base realised inside its subclass is counted once, in the subclass's time
            spent[0] += time.process_time() - start
deferred.realise = timed
from referee.entry import main
sys.argv = ["referee", "solo", "status", "--json", "--save", sys.argv[1]]
try:
    main()
except SystemExit:
    pass
print(len(names), spent[0], file=sys.stderr)
"""


def record_classes(save: Path, env: dict[str, str]) -> tuple[int, float]:
    """How many record classes ``status --json`` on ``save`` realises (:mod:`pnp.deferred`) and the CPU seconds
    that takes."""
    done = subprocess.run([sys.executable, "-c", _REALISED, str(save)], check=True, capture_output=True, text=True,
                          cwd=ROOT, env=env)
    count, seconds = done.stderr.split()[-2:]
    return int(count), float(seconds)


if __name__ == "__main__":
    main()
