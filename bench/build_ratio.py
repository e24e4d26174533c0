"""How long `pnp build` takes against the raw script (``bench/raw_build.py``), and its peak memory (issue 14).

Run from the project root: ``python bench/build_ratio.py [--runs N] [--multiple M] [--no-memory]``.

Time. ``pnp build --out TMP`` (the README's command: the ``pnp`` script beside this Python, a fresh
interpreter each run) and ``python bench/raw_build.py TMP`` (as many faces and sheet pages, counted
from the build's output) run alternately ``--runs`` times (default 5), each into a new temporary folder.
One untimed run of each comes first, so both find their compiled modules (``PYTHONDONTWRITEBYTECODE``
is removed from the children's environment: a player's machine keeps them) and pnp its database cache
(:func:`pnp.database.loader.cached`) and its layout checked (:mod:`pnp.check_cache`: a build of files laid out and
checked before does neither again, it writes the files); the children get a cache folder of their own, ``XDG_CACHE_HOME``, so another
process's entries never evict them. Printed: the median wall-clock seconds and the median
CPU seconds (user + system, from ``os.wait4``) of each, and their ratios, pnp / raw. On a shared
machine the CPU ratio is the steadier one. A second ratio (``--no-matched`` skips it) gives the raw
script as many text lines, lines and polygons a face as the build's SVG files hold on average: the
brief's raw face (ten text lines) is a lighter card than the bundled ones. ``--checked`` also times builds with an empty cache (the
first build after an edit of ``cards.toml`` or of a template: the file is checked with pydantic, the cards laid out and
judged before they are written).

Memory. The peak resident set (``ru_maxrss`` of the finished child, ``os.wait4``) of ``pnp build`` for
the bundled ``cards.toml`` (checked, with an empty cache, and with the cache warm) and for a database of
``--multiple`` times the cards (default 10): a generated copy where every printed record but the backs is
repeated under new ids (``<id>-x2`` ...) and printed names (``name``, ``title``) get a Roman numeral, as the
checks want every card of a deck to have its own name (the copies print with the bundled backs: a back is one
design a whole deck shares). That copy is first given to ``pnp check``: the checks refuse any multiple of the
bundled games (one Progress Track, one Spell Path per type, the deck sizes of the rules, whose numbers the
schema caps below 10x...). The script prints which checks refuse and the largest multiple ``pnp check``
accepts, then measures that one and, for the memory figure, builds the full multiple with the refusing
checks left out of :data:`pnp.database.checks.CROSS_CHECKS` (a child that calls ``pnp build``'s own
command function, so with its pre-check; everything else about the build is unchanged).

Every figure is measured in one run of this script: compare ratios across runs, never seconds.
"""
from __future__ import annotations

import argparse
import copy
import functools
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import tomllib
from collections.abc import Callable
from pathlib import Path

import tomli_w

ROOT = Path(__file__).resolve().parents[1]
RAW = ROOT / "bench" / "raw_build.py"
ROMAN = ("", "", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X", "XI", "XII")


def pnp_command() -> list[str]:
    """The README's ``pnp`` command: the console script installed beside this Python, else ``python -m pnp``."""
    script = Path(sys.executable).parent / "pnp"
    return [str(script)] if script.is_file() else [sys.executable, "-m", "pnp"]


def child_env(cache: Path) -> dict[str, str]:
    """The environment of every child: compiled modules kept, pnp's database cache in ``cache``."""
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["XDG_CACHE_HOME"] = str(cache)
    return env


def run(command: list[str], env: dict[str, str]) -> tuple[float, float, int]:
    """Run ``command`` (output discarded; a failure raises ``RuntimeError`` with its stderr) and return
    its wall-clock seconds, CPU seconds (user + system) and peak resident set in KiB (Linux ``ru_maxrss``)."""
    start = time.perf_counter()
    process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - start
    process.returncode = os.waitstatus_to_exitcode(status)
    error = process.stderr.read().decode(errors="replace") if process.stderr else ""
    if process.stderr:
        process.stderr.close()
    if process.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} failed ({process.returncode}): {error.strip()[-2000:]}")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss


def count_output(out: Path) -> tuple[int, dict[str, int]]:
    """The SVG files in ``out/svg`` and the pages of each ``<game>-a4.pdf`` (ReportLab writes one
    ``/Type /Page`` object a page, never inside a compressed stream)."""
    faces = len(list((out / "svg").glob("*.svg")))
    pages = {}
    for pdf in sorted(out.glob("*-a4.pdf")):
        pages[pdf.name.removesuffix("-a4.pdf")] = len(re.findall(rb"/Type /Page\b(?!s)", pdf.read_bytes()))
    return faces, pages


RAW_DECKS = {"solo": (52, 31, 12), "duel": (14, 9, 4)}
"""Cards on the sheets, cards with a back and pages per paper of the bundled build, per deck
(``bench/raw_build.py``'s defaults); a deck whose page count differs is given 9 cards a fronts page."""


def face_work(out: Path) -> dict[str, int]:
    """What the build's faces draw on average, counted in its SVG files: ``lines`` of text (``<text>``),
    ``rules`` (``<line>``) and ``polygons`` (``<polygon>``, ``<polyline>``), rounded to whole numbers
    (the raw script's ``--lines``, ``--rules`` and ``--polygons``)."""
    files = list((out / "svg").glob("*.svg"))
    counts = {"lines": 0, "rules": 0, "polygons": 0}
    for path in files:
        text = path.read_text(encoding="utf-8")
        counts["lines"] += text.count("<text ")
        counts["rules"] += text.count("<line ")
        counts["polygons"] += text.count("<polygon ") + text.count("<polyline ")
    return {key: round(value / max(len(files), 1)) for key, value in counts.items()}


def raw_command(out: Path, faces: int, pages: dict[str, int], work: dict[str, int] | None = None) -> list[str]:
    """``python bench/raw_build.py OUT`` with the build's face and page counts (and ``work``: the raw
    script's ``--lines``, ``--rules`` and ``--polygons``; its defaults when ``None``)."""
    command = [sys.executable, str(RAW), str(out), "--faces", str(faces)]
    for key, value in (work or {}).items():
        command += [f"--{key}", str(value)]
    for deck, count in pages.items():
        cards, backs, default_pages = RAW_DECKS.get(deck, (0, 0, 0))
        if count != default_pages:
            cards = backs = count // 2 * 9
        command += ["--deck", f"{deck}:{cards}:{backs}:{count}"]
    return command


Runs = dict[str, list[tuple[float, float, int]]]
"""Wall seconds, CPU seconds and peak RSS (KiB) of each run, by command (``"pnp"``, ``"raw"``)."""


def time_pair(runs: int, faces: int, pages: dict[str, int], env_for: Callable[[int], dict[str, str]], scratch: Path,
              work: dict[str, int] | None = None) -> Runs:
    """``runs`` alternating runs of pnp build and the raw script (drawing ``work``, see :func:`raw_command`);
    ``env_for(i)`` gives run i's environment."""
    results: Runs = {"pnp": [], "raw": []}
    for index in range(runs):
        for name in (("pnp", "raw") if index % 2 == 0 else ("raw", "pnp")):  # neither always goes first
            out = Path(tempfile.mkdtemp(dir=scratch))
            command = pnp_command() + ["build", "--out", str(out)] if name == "pnp" else raw_command(out, faces, pages, work)
            results[name].append(run(command, env_for(index)))
            shutil.rmtree(out)
    return results


def report_times(label: str, results: Runs) -> None:
    """Print the medians of wall and CPU seconds and the ratios pnp / raw."""
    pnp_wall = statistics.median(r[0] for r in results["pnp"])
    raw_wall = statistics.median(r[0] for r in results["raw"])
    pnp_cpu = statistics.median(r[1] for r in results["pnp"])
    raw_cpu = statistics.median(r[1] for r in results["raw"])
    runs = len(results["pnp"])
    print(f"{label} (median of {runs}):")
    print(f"  wall  pnp build {pnp_wall:6.3f} s   raw {raw_wall:6.3f} s   ratio {pnp_wall / raw_wall:4.2f}x")
    print(f"  CPU   pnp build {pnp_cpu:6.3f} s   raw {raw_cpu:6.3f} s   ratio {pnp_cpu / raw_cpu:4.2f}x")
    print(f"  wall ratio run by run: {' '.join(f'{p[0] / r[0]:.2f}' for p, r in zip(results['pnp'], results['raw']))}")


def multiplied(source: Path, multiple: int) -> dict:
    """``source`` (a cards.toml) with every printed record but the backs repeated ``multiple`` times: copies ``k`` =
    2... under the id ``<id>-x<k>``, their ``name`` and ``title`` followed by the Roman numeral of ``k``. The backs
    (``[[solo.back]]``, ``[[duel.back]]``) stay as they are, one record each: a back is one design every card of its
    deck prints with, so the copies name the bundled backs (``back = "solo.back.quest"``), as ten times the cards of a
    deck still print with its one back (copied, they would print on no card and have no emblem in
    ``templates/back.toml``)."""
    data = tomllib.loads(source.read_text(encoding="utf-8"))
    result = copy.deepcopy(data)
    for game in ("solo", "duel"):
        for kind, records in data.get(game, {}).items():
            if not isinstance(records, list) or not _printed(game, kind) or kind == "back":
                continue  # (a back is a design the cards share: their copies print with the bundled backs)
            extra = []
            for k in range(2, multiple + 1):
                for record in records:
                    twin = copy.deepcopy(record)
                    twin["id"] = f"{record['id']}-x{k}"
                    for key in ("name", "title"):
                        if isinstance(twin.get(key), str):
                            twin[key] = f"{twin[key]} {ROMAN[k] if k < len(ROMAN) else k}"
                    extra.append(twin)
            result[game][kind] = records + extra
    return result


@functools.cache
def _printed(game: str, kind: str) -> bool:
    """Whether records of ``[[game.kind]]`` print (the schema's ``printed``), read from the bundled database."""
    from pnp import database

    db = database.load(ROOT / "cards.toml", cache=False)
    return any(record.printed for record in db.records() if record.game == game and record.kind == kind)


def check_refusals(path: Path, env: dict[str, str]) -> list[str]:
    """The problem lines ``pnp check --db path`` prints (empty: accepted)."""
    result = subprocess.run(pnp_command() + ["check", "--db", str(path)], cwd=ROOT, env=env, capture_output=True, text=True)
    return [] if result.returncode == 0 else [line for line in result.stderr.splitlines() if line.strip()]


def refusing_checks(path: Path) -> list[str]:
    """The names of the cross checks (:data:`pnp.database.checks.CROSS_CHECKS`) that report a problem in
    the database at ``path``: each check is wrapped, for one uncached load, to note whether it reported."""
    from pnp.database import DatabaseError, checks, load

    found: list[str] = []

    def noting(check):
        def wrapped(context) -> None:
            before = len(context.found)
            check(context)
            if len(context.found) > before:
                found.append(check.__name__)
        return wrapped

    original = checks.CROSS_CHECKS
    checks.CROSS_CHECKS = tuple(noting(check) for check in original)
    try:
        load(path, cache=False)
    except DatabaseError:
        pass
    finally:
        checks.CROSS_CHECKS = original
    return found


_UNCHECKED_BUILD = """
import sys
from pnp.database import checks
skip = set(sys.argv[1].split(","))
checks.CROSS_CHECKS = tuple(check for check in checks.CROSS_CHECKS if check.__name__ not in skip)
from pnp.cli import main
main(["build", "--db", sys.argv[2], "--out", sys.argv[3]], prog_name="pnp")
"""


def memory(multiple: int, scratch: Path, env: dict[str, str]) -> None:
    """Print the peak RSS of ``pnp build`` for 1x and ``multiple`` x the bundled database (see the module)."""
    one = run(pnp_command() + ["build", "--out", str(scratch / "rss-1x")], child_env(scratch / "cache-rss-1x"))
    print(f"peak RSS, pnp build, bundled cards.toml (1x, checked: empty cache): {one[2] / 1024:6.1f} MiB  ({one[0]:.2f} s wall)")
    warm = run(pnp_command() + ["build", "--out", str(scratch / "rss-1x-warm")], env)
    print(f"peak RSS, pnp build, bundled cards.toml (1x, cache warm): {warm[2] / 1024:6.1f} MiB  ({warm[0]:.2f} s wall)")
    big = scratch / f"cards-x{multiple}.toml"
    big.write_text(tomli_w.dumps(multiplied(ROOT / "cards.toml", multiple)), encoding="utf-8")
    lines = check_refusals(big, env)
    if not lines:
        result = run(pnp_command() + ["build", "--db", str(big), "--out", str(scratch / "rss-big")], env)
        faces, _ = count_output(scratch / "rss-big")
        print(f"peak RSS, pnp build, {multiple}x cards.toml ({faces} faces): {result[2] / 1024:6.1f} MiB  "
              f"({result[0]:.2f} s wall; {result[2] / one[2]:.2f}x the 1x peak)")
        return
    skipped = refusing_checks(big)
    summary = [line for line in lines if not re.match(r"^\d+ problem", line)]
    print(f"pnp check refuses {multiple}x cards.toml: {len(summary)} problem line(s), by {', '.join(skipped) or 'unrecognised checks'}; e.g.")
    for line in _distinct(summary, 6):
        print(f"    {line[:180]}")
    accepted = 1
    for k in range(multiple - 1, 1, -1):
        trial = scratch / f"cards-x{k}.toml"
        trial.write_text(tomli_w.dumps(multiplied(ROOT / "cards.toml", k)), encoding="utf-8")
        if not check_refusals(trial, env):
            accepted = k
            break
        if k == 2:
            break
    print(f"largest multiple pnp check accepts: {accepted}x" + (" (the bundled database itself)" if accepted == 1 else ""))
    if accepted > 1:
        result = run(pnp_command() + ["build", "--db", str(scratch / f"cards-x{accepted}.toml"), "--out", str(scratch / "rss-ok")], env)
        print(f"peak RSS, pnp build, {accepted}x cards.toml: {result[2] / 1024:6.1f} MiB")
    out = scratch / "rss-big"
    result = run([sys.executable, "-c", _UNCHECKED_BUILD, ",".join(skipped), str(big), str(out)], env)
    faces, _ = count_output(out)
    print(f"peak RSS, pnp build, {multiple}x cards.toml with {', '.join(skipped)} left out ({faces} faces): "
          f"{result[2] / 1024:6.1f} MiB  ({result[0]:.2f} s wall; {result[2] / one[2]:.2f}x the 1x peak)")


def _distinct(lines: list[str], count: int) -> list[str]:
    """Up to ``count`` of ``lines`` whose messages (numbers and quoted names aside) differ."""
    seen, result = set(), []
    for line in lines:
        shape = re.sub(r"'[^']*'|\"[^\"]*\"|\d+", "#", line.split(": ", 2)[-1])
        if shape not in seen:
            seen.add(shape)
            result.append(line)
        if len(result) == count:
            break
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="timed runs of each (default 5)")
    parser.add_argument("--multiple", type=int, default=10, help="the larger database for the memory figure (default 10x)")
    parser.add_argument("--checked", action="store_true", help="also time builds whose database is checked (an empty cache)")
    parser.add_argument("--no-memory", action="store_true", help="skip the memory figures")
    parser.add_argument("--no-matched", action="store_true",
                        help="skip the second ratio, against the raw script drawing as much a face as the cards do")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="pnp-ratio-") as folder:
        scratch = Path(folder)
        cache = scratch / "cache"
        env = child_env(cache)
        first = scratch / "first"
        run(pnp_command() + ["build", "--out", str(first)], env)  # untimed: compiles modules, fills the cache
        faces, pages = count_output(first)
        print(f"pnp build writes {faces} card faces (SVG files) and, per paper, "
              f"{', '.join(f'{deck} {count} pages' for deck, count in pages.items())}")
        print(f"raw script: {' '.join(raw_command(Path('TMP'), faces, pages)[1:])}")
        run(raw_command(scratch / "raw-first", faces, pages), env)  # untimed
        report_times("pnp build (cache warm: database, checked layout) vs raw", time_pair(args.runs, faces, pages, lambda index: env, scratch))
        if not args.no_matched:
            work = face_work(first)
            print(f"the cards draw on average {work['lines']} text lines, {work['rules']} lines and {work['polygons']} polygons "
                  f"a face; the raw script with as many: {' '.join(f'--{k} {v}' for k, v in work.items())}")
            report_times("pnp build vs raw drawing as much a face as the cards",
                         time_pair(args.runs, faces, pages, lambda index: env, scratch, work))
        if args.checked:
            def fresh(index: int) -> dict[str, str]:
                return child_env(scratch / f"cache-{index}-{time.monotonic_ns()}")
            report_times("pnp build (database checked: empty cache) vs raw", time_pair(max(3, args.runs // 2), faces, pages, fresh, scratch))
        if not args.no_memory:
            memory(args.multiple, scratch, env)


if __name__ == "__main__":
    main()
