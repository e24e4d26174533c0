"""Latency of one-shot referee commands, as ratios measured in one run: to `python -c "import click"`
(issue 14: at most 2.0), and at a long game's last event to the same command at its 10th (issue 14:
the same cost at event 400 as at event 10, thanks to the save's checkpoint).

Run: python bench/referee_status.py [--runs N]. It plays one long solo game through the referee's own
rules (the referee's dice, a seeded random legal command each step), saves it after 10 events and after
400, then times `referee solo status --json` and `referee solo undo` on each save in a fresh
interpreter (what a player at the table waits for), median of N runs, after one run that writes the
modules' compiled files (``__pycache__``) as any first run on a player's machine does (this machine sets
``PYTHONDONTWRITEBYTECODE``, which would make every command compile every module again). `--no-checkpoint` times the same
saves without their checkpoints (every event replayed), as before issue 14. Last, the time the record classes
(frozen dataclasses) take to define at import, as a ratio to the same `import click`: the floor of any
command that reads a game, whatever else it does.
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


def timed(args: list[str], env: dict[str, str], before: Path | None = None, save: Path | None = None) -> float:
    """Seconds for one run of ``args`` (the save restored from ``before`` first, untimed)."""
    if before is not None and save is not None:
        shutil.copyfile(before, save)
    start = time.perf_counter()
    subprocess.run(args, check=True, capture_output=True, cwd=ROOT, env=env)
    return time.perf_counter() - start


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
        click = statistics.median(timed([sys.executable, "-c", "import click"], env) for _ in range(args.runs))
        print(f"python -c 'import click': {click * 1000:.0f} ms (median of {args.runs})")
        results = {}
        for events, path in sorted(saves.items()):
            kept = "checkpoint" in tomllib.loads(path.read_text())
            work = Path(folder) / "work.toml"
            status = statistics.median(timed(referee + ["status", "--json", "--save", str(path)], env) for _ in range(args.runs))
            undo = statistics.median(timed(referee + ["undo", "--save", str(work)], env, path, work) for _ in range(args.runs))
            results[events] = (status, undo)
            print(f"at event {events:3d} ({'checkpoint' if kept else 'no checkpoint'}): status --json {status * 1000:.0f} ms "
                  f"({status / click:.1f}x import click), undo {undo * 1000:.0f} ms ({undo / click:.1f}x)")
        low, high = results[min(results)], results[count]
        print(f"event {count} / event {min(results)}: status --json {high[0] / low[0]:.2f}x, undo {high[1] / low[1]:.2f}x")
        records = statistics.median(record_classes_seconds(env) for _ in range(args.runs))
        print(f"defining the record classes (frozen dataclasses of {', '.join(RECORD_MODULES)}) at import: "
              f"{records * 1000:.0f} ms ({records / click:.2f}x import click): a command that reads a game takes "
              f"{(click + records) / click:.2f}x import click at least; 2.0x would leave {(click - records) * 1000:.0f} ms "
              f"for reading the database and the save, the rules and the output")


RECORD_MODULES = ("pnp.database.schema", "referee.solo.state", "referee.solo.events", "referee.events")
"""The modules whose import is the definition of the record classes every solo command needs: the card
database's records (a cached database is unpickled into them) and the game's state and events."""


def record_classes_seconds(env: dict[str, str]) -> float:
    """Seconds the :data:`RECORD_MODULES` take to import on their own (``-X importtime`` self times, in a fresh
    interpreter, compiled files read from ``__pycache__``): almost all of it the dataclass decorator writing and
    compiling each class's ``__init__``, ``__eq__``, ``__hash__``, ``__repr__``, ``__setattr__``, ``__delattr__``."""
    done = subprocess.run([sys.executable, "-X", "importtime", "-c", "import referee.solo.game"], check=True,
                          capture_output=True, text=True, cwd=ROOT, env=env)
    total = 0
    for line in done.stderr.splitlines():
        parts = [part.strip() for part in line.removeprefix("import time:").split("|")]
        if len(parts) == 3 and parts[2] in RECORD_MODULES:
            total += int(parts[0])
    return total / 1_000_000


if __name__ == "__main__":
    main()
