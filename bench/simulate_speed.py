"""Simulator speed (issue 14: at least 500 solo games a second on one core, 5,000 as the stretch; "if pure
Python cannot reach it, measure mypyc on the rules modules before anything else").

Run: ``python bench/simulate_speed.py [--games N] [--mypyc]``. It plays N greedy solo games at the
Normal difficulty (seeds 1..N) through the referee's own rules in one process and prints games per
second. With ``--mypyc`` it also copies the project (``git archive HEAD``) to a temporary folder,
compiles the rules modules of the solo game with mypyc (about two minutes), plays the same games with
them, checks that both runs ended every game the same way, and prints the two rates side by side and
their ratio, measured in this one run. The state and event records (``referee/solo/state.py``,
``events.py``) stay Python: the event codec reads their type hints, which compiled classes do not give.
In the copy, the compiled modules' own records (``OpenRoll``, ``Aid``, ``CastWords``) are declared with the
standard ``dataclasses.dataclass`` rather than :func:`pnp.deferred.dataclass`: mypyc compiles a class it
sees as a dataclass into a native class, which the deferred stand-ins break (``OpenRoll.hold`` read as a
``getset_descriptor``: every game a defect, and the run refused as ending games differently).
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
COMPILED = ("referee/solo/core.py", "referee/solo/aid.py", "referee/solo/city.py", "referee/solo/expanded.py",
            "referee/solo/laststand.py", "referee/solo/legal.py", "referee/solo/rules.py")
"""The rules modules mypyc compiles."""

PLAY = """
import json, sys, time
from pnp.database import load
from referee.solo import core, simulate
db = load(sys.argv[1])
games = int(sys.argv[2])
defects = []
start = time.perf_counter()
endings = [simulate.play_solo(db, seed, "normal", "greedy", defects).ending for seed in range(1, games + 1)]
print(json.dumps({"seconds": time.perf_counter() - start, "won": endings, "defects": len(defects),
                  "compiled": core.__file__.endswith(".so")}))
"""


def play(folder: Path, games: int) -> dict:
    """The games played by the code in ``folder``, in a fresh interpreter: seconds, who won, defects."""
    environment = {**os.environ, "PYTHONPATH": str(folder)}
    result = subprocess.run([sys.executable, "-c", PLAY, str(ROOT / "cards.toml"), str(games)], cwd=folder,
                            env=environment, capture_output=True, text=True, check=True)
    return json.loads(result.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=60, help="greedy solo games at Normal (default 60)")
    parser.add_argument("--mypyc", action="store_true", help="also compile the rules modules with mypyc and compare")
    args = parser.parse_args()
    pure = play(ROOT, args.games)
    rate = args.games / pure["seconds"]
    print(f"pure Python: {rate:.1f} games/s ({args.games} greedy games at Normal, one core); goal 500 = {500 / rate:.0f}x this")
    if not args.mypyc:
        return
    with tempfile.TemporaryDirectory() as temporary:
        copy = Path(temporary)
        archive = subprocess.run(["git", "archive", "HEAD"], cwd=ROOT, capture_output=True, check=True).stdout
        subprocess.run(["tar", "-x", "-C", str(copy)], input=archive, check=True)
        for module in COMPILED:  # the standard dataclass, which mypyc compiles (see the docstring)
            source = copy / module
            source.write_text(source.read_text().replace("from pnp.deferred import dataclass\n", "from dataclasses import dataclass\n"))
        subprocess.run([sys.executable, "-m", "mypyc", *COMPILED], cwd=copy, capture_output=True, check=True)
        compiled = play(copy, args.games)
        again = play(ROOT, args.games)  # the pure run again, so that the ratio is measured side by side
    assert compiled["compiled"], "mypyc built nothing"
    assert compiled["won"] == pure["won"], "the compiled rules ended a game differently"
    compiled_rate = args.games / compiled["seconds"]
    pure_rate = args.games / min(pure["seconds"], again["seconds"])
    print(f"mypyc ({len(COMPILED)} rules modules): {compiled_rate:.1f} games/s; pure Python (best of two): {pure_rate:.1f} "
          f"games/s; ratio {compiled_rate / pure_rate:.2f}x")


if __name__ == "__main__":
    main()
