"""What ``pnp build --png`` adds to a build: the PNG step's time as a ratio to a whole build (issue 15).

Run from anywhere: ``python bench/png_ratio.py [--runs N]``. ``pnp build --out TMP`` and ``pnp build
--png --out TMP`` (the ``pnp`` script beside this Python, a fresh interpreter and a new temporary folder
each run) run alternately ``--runs`` times (default 3), after one untimed run of each (compiled modules
and pnp's database cache in place; the children get a cache folder of their own, ``XDG_CACHE_HOME``).
The PNG step is the difference of the medians; printed as a ratio to the median plain build, for the
wall-clock seconds and for the CPU seconds (user + system of the build and of the page-image workers it
waits for, from ``os.wait4``). With poppler's pdftoppm, seven processes one after another, the step was
3.2 whole builds; PDFium draws the pages in parallel worker processes (``pnp/page_images.py``).

Every figure is measured in one run of this script on one machine: compare ratios, never seconds. On a
shared machine the CPU ratio is the steadier one; the wall-clock ratio shows what the parallel workers
save when cores are free.
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def pnp_command() -> list[str]:
    """The README's ``pnp`` command: the console script installed beside this Python, else ``python -m pnp``."""
    script = Path(sys.executable).parent / "pnp"
    return [str(script)] if script.is_file() else [sys.executable, "-m", "pnp"]


def run(command: list[str], env: dict[str, str]) -> tuple[float, float]:
    """Run ``command`` in the project folder (output discarded; a failure raises ``RuntimeError`` with
    its last lines of standard error); return its wall-clock seconds and CPU seconds (user + system)."""
    start = time.perf_counter()
    process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - start
    error = process.stderr.read().decode(errors="replace") if process.stderr else ""
    if process.stderr:
        process.stderr.close()
    if os.waitstatus_to_exitcode(status) != 0:
        raise RuntimeError(f"{' '.join(command)} failed: {error.strip()[-2000:]}")
    return wall, usage.ru_utime + usage.ru_stime


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="timed runs of each build (default 3)")
    args = parser.parse_args()
    if args.runs < 1:
        parser.error("--runs must be 1 or more")
    times: dict[str, list[tuple[float, float]]] = {"plain": [], "png": []}
    with tempfile.TemporaryDirectory(prefix="pnp-png-bench-") as scratch:
        env = dict(os.environ)
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["XDG_CACHE_HOME"] = str(Path(scratch) / "cache")
        for number in range(args.runs + 1):
            for label, extra in (("plain", []), ("png", ["--png"])):
                out = Path(scratch) / f"{label}-{number}"
                measured = run([*pnp_command(), "build", "--out", str(out), *extra], env)
                if number:  # the first run of each is untimed
                    times[label].append(measured)
    plain = [statistics.median(value[i] for value in times["plain"]) for i in (0, 1)]
    png = [statistics.median(value[i] for value in times["png"]) for i in (0, 1)]
    print(f"runs: {args.runs} of each, medians; cores: {os.cpu_count()}")
    for i, what in enumerate(("wall-clock", "CPU")):
        step = png[i] - plain[i]
        print(f"{what:>10}: build {plain[i]:.2f} s, build --png {png[i]:.2f} s, "
              f"PNG step {step:.2f} s = {step / plain[i]:.2f} x a whole build")
    return 0


if __name__ == "__main__":
    sys.exit(main())
