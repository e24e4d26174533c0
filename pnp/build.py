"""Build the print-and-play files: one SVG per card face and the imposed PDF sheets per game and paper.

This module owns the output folder's shape: ``svg/<face id>.svg`` for every front and back,
``index.html`` and ``fonts/`` (:mod:`pnp.gallery`), ``png/`` on request (:mod:`pnp.raster`), and
``<game>-<paper>.pdf`` (for example ``solo-a4.pdf``) for each game and each paper of the database's
print settings. It only combines :mod:`pnp.layout` (what each card looks like), :mod:`pnp.svg` and
:mod:`pnp.pdf`; the same database always gives byte-identical files.
"""
from __future__ import annotations

import contextlib
import dataclasses
import errno
import itertools
import os
import re
import shutil
import signal
import stat
import tempfile
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from pnp import gallery, inks, raster
from pnp.database import Database, PrintSettings
from pnp.drawing import Drawing
from pnp.files import folder_lock
from pnp.layout import Rendered, render
from pnp.pdf import write_sheets
from pnp.sheets import PAPERS, Duplex, Paper, SheetCard, SheetLayout, SheetOptions, impose
from pnp.svg import write_svg


def arrange(groups: list[list[SheetCard]], columns: int) -> list[SheetCard | None]:
    """The sheet order of ``groups`` (a board's cards, or one single card each), ``columns`` per row.

    A board that fits in one row never breaks across rows: when the current row has too few free
    slots, the next single cards fill them (or they stay empty, ``None``) and the board starts the
    next row, so it prints as one uncut strip. Otherwise the order is kept.
    """
    result: list[SheetCard | None] = []
    used: set[int] = set()
    for index, group in enumerate(groups):
        if index in used:
            continue
        if len(group) > 1 and len(group) <= columns:
            free = (columns - len(result) % columns) % columns
            if len(group) > free:
                for _ in range(free):
                    filler = next((i for i, g in enumerate(groups) if len(g) == 1 and i not in used and i > index), None)
                    if filler is None:
                        result.append(None)
                    else:
                        used.add(filler)
                        result.extend(groups[filler])
        used.add(index)
        result.extend(group)
    return result


ORDER_SEARCH_KINDS = 6
"""Up to this many kinds of back (:func:`arrange_apart`) every order of the kinds is tried (720
orders at most); with more, the kinds keep the order of their first card."""


def arrange_apart(groups: list[list[SheetCard]], columns: int, rows: int, duplex: Duplex) -> list[SheetCard | None]:
    """The sheet order of ``groups`` (as for :func:`arrange`) on pages of ``columns`` x ``rows``
    slots, with the cards of each kind of back kept apart from every other kind: no card touches a card
    of another kind (a different back, or no back at all) along a side or at a corner on any page.

    Why: a duplex printer moves the whole backs page, by up to a couple of mm (README, Printing).
    Each back carries extra bleed (``[print] back_extra_bleed_mm``) that covers its card whatever the
    shift, but only where it may spill: over an empty place or a card with the same back
    (:meth:`pnp.sheets.SheetLayout.back_clip_box`). Beside a card of another kind it must stop at the
    shared cut line, and then a shift leaves a white strip on one card (issue 15: 0.9 mm on the Ghast
    beside backless cards at a 1 mm shift) or lays a strip of one deck's back on the other (a Servant
    beside a Quest): either marks a card that is shuffled face down. A corner is enough: a back
    shifted diagonally reaches the diagonal neighbour. Keeping kinds apart is the only way a shift
    up to the extra bleed marks no card at all.

    The ways weighed (issue 15): giving every card a back would print a back on the 21 boards and
    tables of the solo game, which are never shuffled (ink, and nothing to hide), and would still leave
    two decks' backs meeting, so the kinds would have to be kept apart anyway; a narrow gutter between
    two rows (twice the extra bleed, 4 mm) does not fit Letter: its three 88 mm rows leave 15.4 mm,
    and 4 mm less leaves 5.7 mm a side for the bleed and crop marks, which need 6.5 (3 mm bleed,
    0.5 mm gap, 3 mm of mark). So each kind starts a new row, one empty row away from the last
    kind's cards, or a new page when the page has no room for the empty row and a row of cards. With
    the bundled cards that costs the solo game one sheet (7 instead of 6), the least any arrangement
    with the kinds apart needs (its 21 backless cards fill two pages and three slots, and on a 3 x 3
    page three cards need three empty slots around them), and the two-player game none. Every order
    of the kinds (up to :data:`ORDER_SEARCH_KINDS`) is tried and the fewest sheets kept, ties in the
    order of each kind's first card (boards first).

    Within a kind the order and the board rows are :func:`arrange`'s. Kinds are told apart by their
    back Drawing (the same object, or equal); a board's cards share their record's back, and a group
    is filed under its first card's back. With ``duplex="none"`` no back is printed, so the cards are
    only :func:`arrange`-d. Returns the slots in order, ``None`` for an empty one.
    """
    if duplex == "none":
        return arrange(groups, columns)
    kinds: list[tuple[Drawing | None, list[list[SheetCard]]]] = []
    for group in groups:
        back = group[0].back
        for known, members in kinds:
            if known is back or (known is not None and back is not None and known == back):
                members.append(group)
                break
        else:
            kinds.append((back, [group]))
    blocks = [arrange(members, columns) for _, members in kinds]
    if len(blocks) == 1:
        return blocks[0]
    orders = itertools.permutations(range(len(blocks))) if len(blocks) <= ORDER_SEARCH_KINDS else [tuple(range(len(blocks)))]
    per_page = columns * rows
    best: list[SheetCard | None] | None = None
    for order in orders:
        stacked = _stack_apart([blocks[index] for index in order], columns, rows)
        if best is None or -(-len(stacked) // per_page) < -(-len(best) // per_page):
            best = stacked
    assert best is not None
    return best


def _stack_apart(blocks: list[list[SheetCard | None]], columns: int, rows: int) -> list[SheetCard | None]:
    """``blocks`` (one kind of back each, each starting a row) one after another: each block after the
    first starts a row, with one empty row between it and the last block on the same page, or starts
    the next page when the page has fewer than two rows left (see :func:`arrange_apart`)."""
    result: list[SheetCard | None] = []
    per_page = columns * rows
    for block in blocks:
        if result:
            result.extend([None] * ((columns - len(result) % columns) % columns))  # end the row
            if len(result) % per_page:
                rows_left = rows - (len(result) % per_page) // columns
                result.extend([None] * (columns if rows_left >= 2 else rows_left * columns))
        result.extend(block)
    return result


@dataclass(frozen=True)
class BuildOptions:
    """Choices of one build that are not print settings of the database.

    ``boards``: ``"joined"`` prints the cards of a board (Progress Track, battle maps) side by side
    in one sheet row, as one piece for players who keep boards uncut (no cut line on their seams);
    ``"separate"`` imposes them like any other cards. ``back_offset`` ``(x, y)`` mm shifts every back
    (see ``pnp calibrate``); ``cut_lines`` draws full cut lines over the fronts.

    ``color`` (``"rgb"`` or ``"cmyk"``) and ``ink`` (``"full"`` or ``"saver"``) other than the
    defaults add one more PDF of each sheet, named by :func:`pnp.inks.variants` (``solo-a4-cmyk.pdf``,
    ``solo-a4-ink-saver.pdf``, ``solo-a4-ink-saver-cmyk.pdf``); ``png`` adds ``png/``, the deck
    images for digital tabletops (:mod:`pnp.raster`). ``overwrite``: replace files in the output
    folder that hold a name the build writes although no earlier build wrote them (by default such a
    file, the user's own, stops the build before anything changes).
    """

    boards: Literal["joined", "separate"] = "joined"
    back_offset: tuple[float, float] = (0.0, 0.0)
    cut_lines: bool = False
    color: inks.ColorChoice = "rgb"
    ink: inks.InkChoice = "full"
    png: bool = False
    overwrite: bool = False


def build(database: Database, out_dir: Path, options: BuildOptions = BuildOptions(), notes: list[str] | None = None,
          held_signals: list[int] | None = None) -> list[Path]:
    """Write every card face as SVG and the sheets as PDF into ``out_dir``; return the paths, sorted.
    ``notes`` (a list, when given) receives a line for each file of the previous build that could not
    be removed once the new output was in place (the build succeeded; the next one tries again);
    ``held_signals`` the number of each interrupt that arrived while the new output was moved in, and was held until
    it was whole (forty-first pnp breaker, LOW 10: they were dropped without a word, and the build exited 0).

    Each card prints ``copies`` times on the sheets; boards print their cards side by side from the
    start of a sheet row.

    The output folder is the user's too, so a build touches only the files it writes and the files
    an earlier build wrote (listed in ``out_dir/`` :data:`MANIFEST`); a note in ``svg/``, a
    ``png/my.png`` or a ``foo-cmyk.pdf`` of the user's is never removed, and no symbolic link inside
    ``out_dir`` is followed (a build that would write through one is refused before anything
    changes). Everything is first written to a hidden staging folder inside ``out_dir``
    (:data:`STAGING_PREFIX`; inside, so that every move is a rename on one file system even when
    ``out_dir`` is a mount point) and then moved in by :func:`swap_in`, whose docstring states exactly
    what a build killed at any moment leaves. A failed build leaves the previous output as it was.

    Raises ``OSError`` when ``out_dir`` cannot be written or a path the build writes is a symbolic
    link or a folder of the user's (its ``filename`` is the path in ``out_dir``, never the staging
    copy), :class:`~pnp.layout.template.TemplateError` for a broken template,
    :class:`~pnp.raster.RasterError` when ``options.png`` asks for images PDFium cannot draw,
    and ``ValueError`` for an unknown ``options.color`` or ``options.ink``.
    """
    out_dir = Path(out_dir)
    inks.variants(options.color, options.ink)  # an unknown choice fails before anything is written
    rendered = render(database)
    if out_dir.exists() and not out_dir.is_dir():
        raise NotADirectoryError(20, "not a folder", str(out_dir))
    for folder in (out_dir, *out_dir.parents):  # a name on the way that is a file, or a link to nothing, is said as such
        if os.path.islink(folder) and not folder.exists():
            raise NotADirectoryError(20, "a symbolic link to a folder that does not exist", str(folder))
        if folder.exists() and not folder.is_dir():
            raise NotADirectoryError(20, "a file, not a folder", str(folder))
    created = [folder for folder in (out_dir, *out_dir.parents) if not os.path.lexists(folder)]  # deepest first
    out_dir.mkdir(parents=True, exist_ok=True)
    held = _HeldInterrupts()
    try:
        with folder_lock(out_dir, LOCK):
            names, left = _build_locked(database, rendered, out_dir, options, held.hold)
    finally:
        if created and not any(out_dir.iterdir()):  # a first build that failed leaves no empty folder, nor its parents
            for folder in created:
                try:
                    folder.rmdir()
                except OSError:
                    break
        held.release()
    if held_signals is not None:
        held_signals.extend(held.arrived)
    if notes is not None:
        notes.extend(f"{out_dir / name}: a file of the previous build, not removed ({why}); the next build tries again"
                     for name, why in left)
    return sorted(out_dir / name for name in names)


class _HeldInterrupts:
    """Ctrl-C and the signals that end a command as it does (:data:`pnp.entry.TERMINATING`: SIGTERM, SIGHUP, SIGQUIT)
    ignored from the moment a build's files start moving into the output folder to the build's end (the moves, the
    manifest, removing stale files and the staging folder: milliseconds): a build is either interrupted before it
    changed anything, as the command line then says, or whole. Thirty-eighth pnp breaker, HIGH 1 and 2: only Ctrl-C was
    held, and from the commit on; a SIGTERM in the moves or after the commit left the staging folder (its mark already
    removed, so no later build removed it) or the new output in place under "Aborted: nothing was changed." Only in the
    main thread, where signals are handled."""

    def __init__(self) -> None:
        self.previous: dict[int, Any] = {}
        self.arrived: list[int] = []
        """Each interrupt that came while held, in order (the command says so once the build is whole)."""

    def _arrived(self, number: int, _frame: Any) -> None:
        self.arrived.append(number)

    def hold(self) -> None:
        if self.previous or threading.current_thread() is not threading.main_thread():
            return
        from pnp.entry import TERMINATING

        for name in ("SIGINT", *TERMINATING):
            number = getattr(signal, name, None)
            if number is not None:
                self.previous[number] = signal.getsignal(number)  # None when not set from Python: put back as the default
                signal.signal(number, self._arrived)

    def release(self) -> None:
        # (a previous handler of None left the signal ignored for good: children then inherited it)
        for number, previous in self.previous.items():
            signal.signal(number, signal.SIG_DFL if previous is None else previous)
        self.previous = {}


def _build_locked(database: Database, rendered: Any, out_dir: Path, options: BuildOptions,
                  hold: Callable[[], None]) -> tuple[list[str], list[tuple[str, str]]]:
    """:func:`build` once it holds the output folder's lock: sweep the staging folders of killed
    builds, write into a new one, check and swap in (:func:`swap_in`, after calling ``hold``, which holds the
    interrupts until the build ends). Returns the names written (relative paths) and the stale files that could not
    be removed."""
    for leftover in out_dir.glob(f"{STAGING_PREFIX}*"):  # from a build that was killed: only folders a build made
        if leftover.is_dir() and not leftover.is_symlink() and (leftover / STAGING_MARK).is_file():
            claim_brought(leftover, out_dir)
            shutil.rmtree(leftover, ignore_errors=True)
    try:
        staging = Path(tempfile.mkdtemp(prefix=STAGING_PREFIX, dir=out_dir))
    except OSError as error:
        raise OSError(error.errno, error.strerror, str(out_dir)) from None
    try:  # (a Ctrl-C as the mark is written removes the folder too: unmarked, no later build would)
        try:
            (staging / STAGING_MARK).write_text("a pnp build's staging folder: removed by the next build\n")
        except OSError as error:
            raise OSError(error.errno, error.strerror, str(out_dir)) from None
        written = _write_all(database, rendered, staging, options)
        names = sorted(path.relative_to(staging).as_posix() for path in written)
        unclaimed = set() if options.overwrite else _check_unknown(staging, out_dir, names)
        hold()  # from the first move on, the build ends whole (or rolled back by a failed move), never half interrupted
        left = swap_in(staging, out_dir, [name for name in names if name not in unclaimed])
    except OSError as error:
        # the file written: a copy's target (``filename2``) rather than its source (a template font), else the file a
        # write that names none was writing (a full disk, a file-size limit: thirty-ninth pnp breaker, LOW 6)
        named = [Path(name) for name in (error.filename2, error.filename) if name]
        failed = next((path for path in named if path == out_dir or out_dir in path.parents), None) \
            or (_being_written(staging) if not named else None) or (named[0] if named else out_dir)
        if staging in failed.parents:  # name the file as the user will know it, not the staging copy
            failed = out_dir / failed.relative_to(staging)
        elif out_dir != failed and out_dir not in failed.parents:  # a source read (a template font) when the copy failed
            failed = out_dir
        raise OSError(error.errno, error.strerror or str(error), str(failed)) from None  # some OSErrors carry only a message
    finally:
        _remove_staging(staging)
    return names, left


def _being_written(staging: Path) -> Path | None:
    """The file of ``staging`` written last (the newest), the one a write error that names no file (a full disk, a
    file-size limit: ``OSError`` from a stream's ``write``) came from; None when it holds none. Thirty-ninth pnp
    breaker, LOW 6: such an error named the output folder, where ``pnp calibrate`` names its file."""
    newest: tuple[int, Path] | None = None
    with contextlib.suppress(OSError):
        for path in staging.rglob("*"):
            if path.is_file() and path.name not in (STAGING_MARK, BROUGHT):
                stamp = path.stat().st_mtime_ns
                if newest is None or stamp >= newest[0]:
                    newest = (stamp, path)
    return newest[1] if newest else None


def _remove_staging(staging: Path) -> None:
    """Remove the staging folder ``staging``, its :data:`STAGING_MARK` last: a build killed while it removes the folder
    leaves it marked, and the next build removes the rest (thirty-eighth pnp breaker, HIGH 1: the mark went first, and a
    14 MB folder stayed for good)."""
    try:
        children = [child for child in staging.iterdir() if child.name != STAGING_MARK]
    except OSError:
        children = []
    for child in children:
        if child.is_dir() and not child.is_symlink():
            shutil.rmtree(child, ignore_errors=True)
        else:
            with contextlib.suppress(OSError):
                child.unlink()
    shutil.rmtree(staging, ignore_errors=True)


STAGING_PREFIX = ".pnp-staging-"
"""Name start of the hidden folder inside the output folder where a build is written before it is moved in."""

STAGING_MARK = ".pnp-staging"
"""The file a build writes first into its staging folder: the next build removes a leftover staging
folder (of a killed build) only when it holds this file, never a folder of the user's that happens to
be named like one."""

LOCK = ".pnp-build.lock"
"""The lock file a build holds inside the output folder while it runs (:func:`pnp.files.folder_lock`),
removed when it ends: a second build on the same folder is refused at once rather than sweeping away
the first one's staging folder."""

MANIFEST = ".pnp-manifest"
"""The file in the output folder that lists, one path a line relative to the folder, every file the
last build wrote: what the next build may replace or remove. Everything else in the folder is the user's."""

_MANIFEST_HEADER = "# Files written by `pnp build` into this folder; the next build removes those it no longer writes.\n"

BROUGHT = ".pnp-brought"
"""The file a build writes into its staging folder just before it moves its files in: the paths it brings that
nothing in the output folder held. A build killed while moving leaves it, with its staging folder; the next build
lists in the manifest those of them that it finds in the output folder before it removes that staging folder
(:func:`claim_brought`), so it replaces or removes them as its own, never leaving them as if they were the user's."""


def read_manifest(out_dir: Path) -> set[str]:
    """The relative paths :data:`MANIFEST` in ``out_dir`` lists; empty when there is none (a folder
    never built into, or built by a version of pnp that wrote no manifest) or it cannot be read.

    Lines that could name something outside ``out_dir`` (absolute, ``..``, a backslash or a NUL) are
    ignored, and so are names of no shape a build writes (:func:`written_shape`: a ``notes.txt`` or
    ``sub/keep.txt``): the manifest is a file anyone can edit or copy from another folder, and it only
    ever narrows what a build removes.
    """
    return _listed(out_dir / MANIFEST)


def _listed(path: Path) -> set[str]:
    """The names a list file at ``path`` (:data:`MANIFEST` or a staging folder's :data:`BROUGHT`) holds, one a line,
    as :func:`read_manifest` keeps them (none that could name a path outside the folder or of no shape a build
    writes); empty when it cannot be read."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return set()
    names = set()
    for line in text.splitlines():
        if not line or line.startswith("#"):
            continue
        if line.startswith("/") or "\\" in line or "\0" in line or any(part in ("", ".", "..") for part in line.split("/")):
            continue
        if written_shape(line):
            names.add(line)
    return names


SVG_FOLDER = "svg"
"""Where a build writes one SVG per card face (:func:`face_file`)."""

PNG_FOLDER = "png"
"""Where a build with ``png`` writes the deck images (:func:`pnp.raster.write_png_sheets`)."""

GAMES = ("solo", "duel")
"""The games a build writes sheets for, in this order: ``<game>-<paper>.pdf``."""


def written_shape(name: str) -> bool:
    """True when ``name`` (a path relative to the output folder) has the shape of a file some build
    writes, as the writers name them: ``svg/<face id>.svg`` (:func:`face_file`), ``png/<name>.png``
    with a face id's characters (:func:`pnp.raster.write_png_sheets`: ``<game>-fronts-<n>`` and each
    back's id), a font or licence in ``fonts/`` (:func:`pnp.gallery.copy_fonts`), the gallery's
    ``index.html``, and the sheets ``<game>-<paper>.pdf`` of every game, paper and variant
    (:func:`pnp.inks.sheet_file_names`). Only such names in a manifest are ever removed."""
    folder, _, file = name.rpartition("/")
    stem, dot, suffix = file.rpartition(".")
    if folder == SVG_FOLDER:
        try:
            return dot == "." and face_file(Path(SVG_FOLDER), stem).as_posix() == name
        except ValueError:
            return False
    if folder == PNG_FOLDER:
        return suffix == "png" and bool(_FACE_ID.fullmatch(stem)) and ".." not in stem
    if folder == gallery.FONTS_FOLDER:
        return Path(file).suffix.lower() in gallery.FONT_SUFFIXES
    return not folder and (file == gallery.INDEX or any(file in inks.sheet_file_names(f"{game}-{paper}")
                                                         for game in GAMES for paper in PAPERS))


def _refusal(path: Path, what: str) -> OSError:
    """The ``OSError`` of a path a build will not write through: ``what`` says what it is."""
    return OSError(errno.ELOOP if "link" in what else errno.EEXIST,
                   f"is {what}; pnp build writes only plain files and folders inside the output folder, "
                   f"so move it away or choose another --out", str(path))


def _check_target(out_dir: Path, name: str) -> None:
    """Raise ``OSError`` (naming the path) unless writing ``out_dir/name`` stays inside ``out_dir``:
    every folder on the way is absent or a real folder, not a symbolic link or a file, and the path
    itself is absent or a plain file (a link there would be replaced, and the user's link lost)."""
    path = out_dir
    parts = name.split("/")
    for index, part in enumerate(parts):
        path = path / part
        try:
            mode = os.lstat(path).st_mode
        except FileNotFoundError:
            return
        if stat.S_ISLNK(mode):
            raise _refusal(path, "a symbolic link")
        last = index == len(parts) - 1
        if last and not stat.S_ISREG(mode):
            raise _refusal(path, "a folder or special file where the build writes a file")
        if not last and not stat.S_ISDIR(mode):
            raise _refusal(path, "a file where the build needs a folder")


def _check_unknown(staging: Path, out_dir: Path, names: list[str]) -> set[str]:
    """Raise ``OSError`` (naming the path) when ``out_dir`` holds a file this build writes that no earlier
    build wrote (:func:`read_manifest`) and that differs from this build's: a file of the user's
    (``index.html`` of their own, a ``foo-cmyk.pdf`` they keep), which a build replaces only with
    ``overwrite``. Returns the files of that kind with this build's very bytes (a copy the user keeps, a
    folder built before manifests): they stay the user's, left in place and never listed in the manifest,
    so no later build removes them (sixteenth breaker: such a copy was claimed, then deleted). A path this build would
    not write through (:func:`_check_target`: a link on the way) raises that refusal first."""
    for name in names:  # a link on the way is the obstacle to name, not the file it leads to (forty-sixth pnp breaker, F2:
        _check_target(out_dir, name)  # `png/` a link was told --overwrite, which then refused the link)
    previous = read_manifest(out_dir)
    unclaimed = set()
    clashing = []
    for name in names:
        target = out_dir / name
        if name in previous or not target.is_file() or target.is_symlink():
            continue
        if target.stat().st_size == (staging / name).stat().st_size and target.read_bytes() == (staging / name).read_bytes():
            unclaimed.add(name)
            continue
        clashing.append(name)
    if clashing:  # every one named, so that one move clears them all (seventeenth breaker: one a run)
        others = f" (and {len(clashing) - 1} more: {', '.join(clashing[1:6])}{' ...' if len(clashing) > 6 else ''})" if len(clashing) > 1 else ""
        raise OSError(errno.EEXIST, f"this file{others} is in the output folder and no earlier build wrote it (no .pnp-manifest "
                                    f"lists it): move it away, or build with --overwrite to replace it", str(out_dir / clashing[0]))
    return unclaimed


def claim_brought(leftover: Path, out_dir: Path) -> None:
    """List in ``out_dir``'s manifest the files a build killed while moving its files in brought there (the
    :data:`BROUGHT` list its staging folder ``leftover`` holds) and that ``out_dir`` holds as plain files reached
    through real folders: the build that calls this replaces them or removes them as stale, as any file an earlier
    build wrote. Best effort: a manifest that cannot be written leaves them as they are."""
    brought = {name for name in _listed(leftover / BROUGHT) if _removable(out_dir, name)}
    listed = read_manifest(out_dir)
    if brought - listed:
        with contextlib.suppress(OSError):
            _replace_manifest(leftover, out_dir, sorted(listed | brought))


def _removable(out_dir: Path, name: str) -> bool:
    """True when ``out_dir/name`` is a plain file reached through real folders only (no link followed)."""
    try:
        _check_target(out_dir, name)
    except OSError:
        return False
    return (out_dir / name).is_file()


def _replace_manifest(staging: Path, out_dir: Path, names: list[str]) -> None:
    """Write a manifest listing ``names`` beside the staged files, then rename it into ``out_dir``
    (one atomic step: the manifest in ``out_dir`` is always whole)."""
    fresh = staging / MANIFEST
    fresh.write_text(_MANIFEST_HEADER + "".join(f"{name}\n" for name in sorted(names)), encoding="utf-8")
    os.replace(fresh, out_dir / MANIFEST)


def swap_in(staging: Path, out_dir: Path, names: list[str], committed: Callable[[], None] = lambda: None) -> list[tuple[str, str]]:
    """Move the files ``names`` (relative paths) of a finished build from ``staging`` into ``out_dir``,
    then remove the files the previous build wrote (:func:`read_manifest`) that this one does not.

    Raises ``OSError`` naming the path, before anything in ``out_dir`` changed, when a path to be
    written is a symbolic link, a folder, or below a link or a file (:func:`_check_target`). If a
    move or the manifest's write fails midway (a full disk, a folder the user made read-only), or
    an exception interrupts it between two moves, the files already moved are put back as they were and the
    error is raised (:func:`build` holds Ctrl-C and the terminating signals while it swaps in, so a signal never does).

    What a kill (SIGKILL, power cut) at any moment leaves, stated exactly:

    1. Every path of the previous build and of this one always holds a whole file, the previous
       version or this build's; none is ever partly written or missing. Each file is moved in by one
       ``os.replace`` (atomic on POSIX), its earlier version hard-linked (or copied) aside first for
       the rollback above, and files of the previous build that this one does not write are removed
       only after every new file is in place.
    2. The manifest is replaced (atomically) only after every file of this build is in place, so a
       manifest listing this build's files means the folder holds this build's output whole.
    3. A kill before that leaves, with the previous manifest, a mix of whole previous and whole new
       files: not one build's output file by file (POSIX has no rename of many paths at once), which
       the next build replaces. The paths this build brings that nothing held are written down first in the
       staging folder (:data:`BROUGHT`): the next build claims those it finds (:func:`claim_brought`), so it
       removes those it does not write itself (a ``png/`` or a variant sheet of other options). A kill while stale
       files are removed leaves them listed in the manifest, so the next build removes them.
    4. Files of the user's (in neither manifest) are never touched, and the staging folder a kill
       leaves behind is removed by the next build.

    Nothing is fsync-ed: after a power cut the file system's own ordering of renames applies.

    ``committed`` is called once the new manifest is in place (the build cannot be taken back from
    then on). Returns the stale files of the previous build that could not be removed (name, why):
    they stay listed in the manifest, for the next build to remove.
    """
    previous = read_manifest(out_dir)
    for name in [*names, MANIFEST]:  # the manifest too: a folder of that name would fail its write after every move
        _check_target(out_dir, name)
    backups = staging / ".previous"
    done: list[tuple[str, bool]] = []  # (name, whether an earlier version was kept aside)
    # the paths this build brings that nothing holds yet, written down before the first move: a kill between two moves
    # leaves them with the staging folder, for the next build to claim (thirty-ninth pnp breaker, MED 1: a killed
    # `--png --color cmyk --ink saver` build left its png/ and variant sheets, listed nowhere, in the folder for good)
    brought = sorted(name for name in names if name not in previous and not os.path.lexists(out_dir / name))
    (staging / BROUGHT).write_text("".join(f"{name}\n" for name in brought), encoding="utf-8")
    try:
        for name in names:
            target = out_dir / name
            target.parent.mkdir(parents=True, exist_ok=True)
            kept = target.exists()
            if kept:
                aside = backups / name
                aside.parent.mkdir(parents=True, exist_ok=True)
                try:
                    os.link(target, aside)
                except OSError:  # a file system without hard links
                    shutil.copy2(target, aside)
            os.replace(staging / name, target)
            done.append((name, kept))
        stale = sorted(name for name in previous - set(names) if _removable(out_dir, name))
        _replace_manifest(staging, out_dir, names + stale)
    except BaseException:  # a failed move or manifest, or Ctrl-C between two moves: put back what moved
        for name, kept in reversed(done):
            try:
                if kept:
                    os.replace(backups / name, out_dir / name)
                else:
                    (out_dir / name).unlink()
            except OSError:
                pass  # put back what can be; the error raised says what failed
        raise
    committed()
    left = []
    for name in stale:
        try:
            (out_dir / name).unlink()
        except OSError as error:  # the new output is in place: a stale file that stays is a note, not a failure
            left.append((name, error.strerror or str(error)))
            continue
        _remove_empty_folders(out_dir, Path(name).parent)
    if stale:
        _replace_manifest(staging, out_dir, names + [name for name, _ in left])  # listed, the next build tries again
    return left


def _remove_empty_folders(out_dir: Path, folder: Path) -> None:
    """Remove ``out_dir/folder`` and its parents up to ``out_dir`` while they are empty (a folder
    holding a file of the user's stays)."""
    while folder.parts:
        try:
            (out_dir / folder).rmdir()
        except OSError:
            return
        folder = folder.parent


_FACE_ID = re.compile(r"[a-z0-9][a-z0-9.-]*")


def face_file(svg_dir: Path, face_id: str) -> Path:
    """``svg_dir/<face_id>.svg``. Raises ``ValueError`` for an id that could name a file elsewhere (a
    ``/``, ``..``, a NUL or any character but lower-case letters, digits, ``.`` and ``-``): the
    schema already refuses such ids, and this keeps a card's file inside ``svg/`` whatever builds the
    :class:`~pnp.database.Database`."""
    if not _FACE_ID.fullmatch(face_id) or ".." in face_id:
        raise ValueError(f"card id {face_id!r} cannot name a file in svg/")
    return svg_dir / f"{face_id}.svg"


def _write_all(database: Database, rendered, out_dir: Path, options: BuildOptions) -> list[Path]:
    """Write every SVG and PDF of ``rendered`` into ``out_dir``; return the paths written."""
    written: list[Path] = []
    svg_dir = out_dir / SVG_FOLDER
    for face in rendered.fronts:
        written.append(write_svg(face.drawing, face_file(svg_dir, face.id), gallery.SVG_FONTS_URL))
    for face in rendered.backs.values():
        written.append(write_svg(face.drawing, face_file(svg_dir, face.id), gallery.SVG_FONTS_URL))
    written.extend(gallery.write_gallery(database, rendered, out_dir))
    settings = database.print
    printing = sheet_options(settings, options)
    for game in GAMES:
        faces = rendered.game(game)
        if not faces:
            continue
        groups = deck(rendered, game, options.boards)
        if options.png:
            deck_cards = [raster.PngCard(card.front, card.back) for group in groups for card in group]
            backs = {face.back: rendered.backs[face.back].drawing for face in faces if face.back}
            written.extend(raster.write_png_sheets(game, deck_cards, backs, out_dir / PNG_FOLDER))
        title = database.games[game].title if game in database.games else game
        for paper_key in settings.papers:
            layout = sheet_layout(settings, PAPERS[paper_key])
            cards = arrange_apart(groups, layout.columns, layout.rows, printing.duplex)
            for variant in inks.variants(options.color, options.ink):
                report = write_sheets(out_dir / variant.name(f"{game}-{paper_key}"), variant.apply(cards),
                                      layout=layout, options=printing, game=title, colour=variant.colour)
                written.append(report.path)
    return written


def deck(rendered: Rendered, game: str, boards: Literal["joined", "separate"] = "joined") -> list[list[SheetCard]]:
    """The cards of ``game`` (``"solo"`` or ``"duel"``) as a build imposes them, in print order:
    one group per single card (a card of ``copies`` > 1 gives that many groups) and, with
    ``boards="joined"``, one group holding a board's cards left to right (``joined_right`` on every
    seam; a board prints once). ``"separate"`` gives every board card its own group. Each card
    carries its front and back Drawings (``None``: printed without a back). :func:`arrange_apart`
    puts the groups on the sheets."""
    groups: list[list[SheetCard]] = []
    for face in rendered.game(game):
        back = rendered.backs[face.back].drawing if face.back else None
        joined = boards == "joined" and face.board_index < face.board_cards - 1
        if face.board_cards > 1 and face.board_index > 0 and boards == "joined":
            groups[-1].append(SheetCard(face.drawing, back, joined_right=joined))
        elif face.board_cards > 1:
            groups.append([SheetCard(face.drawing, back, joined_right=joined)])
        else:
            copies = face.copies if face.board_cards == 1 else 1  # a board prints once
            groups.extend([SheetCard(face.drawing, back)] for _ in range(copies))
    return groups


def sheet_layout(settings: PrintSettings, paper: Paper) -> SheetLayout:
    """The sheet grid on ``paper`` for the ``[print]`` settings: card size, bleed, crop mark length and
    printer margin in mm all come from the database (or the build's options that override it), and
    short-edge duplex centres the block. Raises :class:`~pnp.sheets.ImpositionError` when not even one
    card fits."""
    return impose(paper, card_width=settings.card_width_mm, card_height=settings.card_height_mm,
                  bleed=settings.bleed_mm, mark_length=settings.crop_mark_mm,
                  printer_margin=settings.printer_margin_mm, centred=settings.duplex == "short")


def sheet_options(settings: PrintSettings, options: BuildOptions = BuildOptions()) -> SheetOptions:
    """How the sheets print: duplex flip and the backs' extra bleed from the ``[print]`` settings, the
    back offset and cut lines from the build's ``options``."""
    return SheetOptions(duplex=settings.duplex, back_extra_bleed=settings.back_extra_bleed_mm,
                        back_offset=options.back_offset, cut_lines=options.cut_lines)


def sheet_notes(database: Database, options: BuildOptions = BuildOptions()) -> list[str]:
    """What a build will print differently from the usual 3 x 3 poker sheet, one line each: a paper
    whose grid is not 3 x 3 (a wide bleed or printer margin) and, with ``boards="joined"``, boards
    with more cards than a sheet row holds, which then print split over rows. Empty when neither."""
    settings = database.print
    rendered = render(database)
    boards: dict[str, int] = {}
    for face in rendered.fronts:
        if face.board_cards > 1:
            boards[face.record.id] = face.board_cards
    notes = []
    for paper_key in settings.papers:
        layout = sheet_layout(settings, PAPERS[paper_key])
        name = PAPERS[paper_key].name
        if (layout.columns, layout.rows) != (3, 3):
            notes.append(f"note: {name} holds {layout.columns} x {layout.rows} cards a page with a "
                         f"{settings.bleed_mm:g} mm bleed and a {settings.printer_margin_mm:g} mm printer margin, not 3 x 3")
        wide = sorted(board for board, cards in boards.items() if cards > layout.columns)
        if wide and options.boards == "joined":
            widest = max(boards[board] for board in wide)
            tightest = sheet_layout(dataclasses.replace(settings, bleed_mm=0.0, printer_margin_mm=0.0), PAPERS[paper_key]).columns
            advice = ("lower --bleed or --printer-margin to join them" if widest <= tightest else
                      f"a row of {widest} cards is wider than the paper, so lay them side by side after cutting")
            article = "an" if name[:1] in "AEIOU" else "a"
            verb = "prints" if len(wide) == 1 else "print"
            notes.append(f"note: {article} {name} sheet row holds {layout.columns} cards, so {', '.join(wide)} {verb} split "
                         f"over rows, not as one strip; {advice}")
    return notes
