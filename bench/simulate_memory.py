"""The simulator's memory against the number of games (issue 14: "memory: flat in the number of games").

Run from the project root: ``python bench/simulate_memory.py [--games N] [--multiple M] [--game solo|duel]``. It runs
``referee simulate --game G --games N --json`` (one job: one process plays every game; the solo game at the Normal
difficulty only) and the same with ``M`` times
the games (default 200 and 10x), each in a fresh interpreter, and prints the peak resident set of each (``ru_maxrss``
of the finished child, ``os.wait4``), the ratio of the two, and what each game beyond the first ``N`` added on average.
A simulator whose memory is flat in the number of games prints a ratio near 1.00x and a few bytes a game (a game's
length and cause are kept for the charts' histograms: a few dozen bytes).
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def peak(game: str, games: int, env: dict[str, str]) -> int:
    """The peak resident set, in KiB, of ``referee simulate --game game --games games --json`` (one job)."""
    only = ["--difficulty", "normal"] if game == "solo" else []  # so that --games is the games played
    child = subprocess.Popen([sys.executable, "-m", "referee", "simulate", "--game", game, "--games", str(games), *only,
                              "--jobs", "1", "--json"], cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(child.pid, 0)
    error = child.stderr.read().decode(errors="replace") if child.stderr else ""
    if os.waitstatus_to_exitcode(status) != 0:
        raise RuntimeError(f"referee simulate --games {games} failed: {error.strip()[-2000:]}")
    return usage.ru_maxrss


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games of the smaller run (default 200)")
    parser.add_argument("--multiple", type=int, default=10, help="how many times the games the larger run plays (default 10)")
    parser.add_argument("--game", choices=("solo", "duel"), default="solo")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:  # a cache of the database of its own: no other process's entries evicted
        env = dict(os.environ, XDG_CACHE_HOME=str(Path(folder) / "cache"), NO_COLOR="1")
        peak(args.game, 1, env)  # the database checked once and kept, as on a designer's machine
        small = peak(args.game, args.games, env)
        large = peak(args.game, args.games * args.multiple, env)
    extra = (large - small) * 1024 / (args.games * (args.multiple - 1))
    print(f"referee simulate --game {args.game}, peak RSS: {args.games} games {small / 1024:.1f} MiB, "
          f"{args.games * args.multiple} games {large / 1024:.1f} MiB: {large / small:.2f}x for {args.multiple}x the games "
          f"({extra:,.0f} bytes a game beyond the first {args.games})")


if __name__ == "__main__":
    main()
