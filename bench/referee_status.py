"""Latency of `referee solo status --json`, as a ratio to `python -c "import click"` (median of several runs).

Run: python bench/referee_status.py [RUNS]. It sets up a game with a few events in a temporary save file,
then times each command in a fresh interpreter (what a player at the table waits for).
"""
from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def timed(args: list[str], env: dict[str, str]) -> float:
    start = time.perf_counter()
    subprocess.run(args, check=True, capture_output=True, cwd=ROOT, env=env)
    return time.perf_counter() - start


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 9
    with tempfile.TemporaryDirectory() as folder:
        env = dict(os.environ, LASSADAR_SOLO_SAVE=str(Path(folder) / "solo.toml"), NO_COLOR="1")
        referee = [sys.executable, "-m", "referee", "solo"]
        subprocess.run(referee + ["new", "--difficulty", "normal", "--spells", "bind,shield", "--seed", "1"],
                       check=True, capture_output=True, cwd=ROOT, env=env)
        for command in (["draw"], ["battle"], ["accept"], ["draw"]):
            subprocess.run(referee + command, capture_output=True, cwd=ROOT, env=env)
        click = statistics.median(timed([sys.executable, "-c", "import click"], env) for _ in range(runs))
        status = statistics.median(timed(referee + ["status", "--json"], env) for _ in range(runs))
    print(f"python -c 'import click': {click * 1000:.0f} ms (median of {runs})")
    print(f"referee solo status --json: {status * 1000:.0f} ms (median of {runs})")
    print(f"ratio: {status / click:.1f}")


if __name__ == "__main__":
    main()
