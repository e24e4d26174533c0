"""Benchmark: build the bundled database into a temporary folder and report seconds per card face.

Run from the project root: ``python bench/build.py [--repeat N]``. Prints the faces laid out, the
files written, and the time for layout alone and for the whole build (layout, SVG and PDF sheets),
each per card face. The layout cache is cleared before each run, so every run does all the work.
Then the output stage's time for larger decks (:func:`scaling`) and the time to fit a text of kana
as it grows to the database's limit of 2,000 characters (:func:`text_fit`).
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


def scaling(targets: tuple[int, ...] = (50, 200, 500), repeat: int = 2) -> None:
    """Time the output stage (SVG files and the A4 and Letter PDF sheets) for decks of about ``targets``
    faces, made by repeating the bundled deck's faces under new ids; print seconds per face.

    Layout cost per face is measured above; here the question is whether writing grows linearly.
    """
    from dataclasses import replace

    from pnp.build import BuildOptions, _write_all
    from pnp.layout import Face, Rendered

    db = database.load(ROOT / "cards.toml")
    base = layout.render(db)
    solo = [face for face in base.fronts if face.record.game == "solo"]
    print(f"faces  seconds  ms/face   (SVG + PDF sheets, best of {repeat})")
    for target in targets:
        fronts: list[Face] = []
        copy = 0
        while len(fronts) < target:
            for face in solo:
                if len(fronts) == target:
                    break
                fronts.append(replace(face, id=f"{face.id}.r{copy}", drawing=replace(face.drawing, id=f"{face.id}.r{copy}")))
            copy += 1
        deck = Rendered(tuple(fronts), base.backs, ())
        best = float("inf")
        for _ in range(repeat):
            with tempfile.TemporaryDirectory() as folder:
                start = time.perf_counter()
                _write_all(db, deck, Path(folder), BuildOptions())
                best = min(best, time.perf_counter() - start)
        print(f"{target:5d}  {best:7.2f}  {best / target * 1000:7.1f}")


KANA = "まちはよるのあいだしずかにねむりひがのぼるとひとびとがめをさましてしごとにでかけます"
"""Kana written without spaces: :func:`pnp.text.mark_breaks` puts a break mark between each two, so a long text of them is
one word of as many marks, the costliest text to fit (first text breaker, fault 4: 1,940 kana took 56-134 s)."""


def text_fit(lengths: tuple[int, ...] = (250, 500, 1000, 2000), repeat: int = 2) -> None:
    """Time :func:`pnp.text.fit_text` of a text of kana of each of ``lengths`` characters (the last is the database's
    limit, :data:`pnp.database.schema.TEXT_LIMIT`) in a City Quest's text box (about 53 x 20 mm, 9 pt down to 6 pt); print
    seconds and each time against the first's, beside the length's own ratio (a fit near-linear in the length keeps the
    two close; it was cubic). The font caches are cleared before each fit."""
    from pnp import fonts
    from pnp.drawing import Box
    from pnp.text import fit_text

    box = Box(5.0, 50.0, 53.0, 20.0)
    first = 0.0
    print(f"kana  seconds  x the {lengths[0]}'s  (length x)   (fit_text in a 53 x 20 mm box, best of {repeat})")
    for length in lengths:
        text = (KANA * (length // len(KANA) + 1))[:length]
        best = float("inf")
        for _ in range(repeat):
            fonts.runs.cache_clear()
            fonts._width_per_pt.cache_clear()
            start = time.perf_counter()
            fit_text(text, box, "serif", 9.0, 6.0)
            best = min(best, time.perf_counter() - start)
        first = first or best
        print(f"{length:4d}  {best:7.3f}  {best / first:9.1f}x  ({length / lengths[0]:.0f}x)")


if __name__ == "__main__":
    main()
    scaling()
    text_fit()
