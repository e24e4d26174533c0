"""Benchmark: build the bundled database into a temporary folder and report seconds per card face.

Run from the project root: ``python bench/build.py [--repeat N]``. Prints the faces laid out, the
files written, and the time for layout alone and for the whole build (layout, SVG and PDF sheets),
each per card face. The layout cache is cleared before each run, so every run does all the work.
"""
from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from pnp import database, layout
from pnp.build import build

ROOT = Path(__file__).resolve().parents[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="builds to time (the best is reported)")
    parser.add_argument("--db", type=Path, default=ROOT / "cards.toml", help="card database")
    args = parser.parse_args()
    db = database.load(args.db)
    best_layout = best_build = float("inf")
    faces = written = 0
    for _ in range(args.repeat):
        layout._CACHE.clear()
        start = time.perf_counter()
        rendered = layout.render(db)
        best_layout = min(best_layout, time.perf_counter() - start)
        faces = len(rendered.fronts) + len(rendered.backs)
        layout._CACHE.clear()
        with tempfile.TemporaryDirectory() as folder:
            start = time.perf_counter()
            paths = build(db, Path(folder))
            best_build = min(best_build, time.perf_counter() - start)
            written = len(paths)
    print(f"{faces} card faces (fronts and backs), {written} files written")
    print(f"layout only : {best_layout:.3f} s total, {best_layout / faces * 1000:.1f} ms per face")
    print(f"full build  : {best_build:.3f} s total, {best_build / faces * 1000:.1f} ms per face "
          f"(best of {args.repeat})")


if __name__ == "__main__":
    main()
