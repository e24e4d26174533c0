"""The cards ``pnp build`` laid out and checked, kept so that a build of unchanged files does neither again (issue 14).

Before it writes anything, ``pnp build`` lays every card out and judges it (:func:`pnp.cli._fit_problems`: the fonts,
the icons, :func:`pnp.layout.check_fit`, the sheets' margins): some 60 % of a build's time, the layout (:func:`pnp.layout.render`)
another 20 %. What they give follows from their inputs alone: the card database's bytes and ``[print]`` settings (with
the command line's), the files of the templates, icons and fonts, the bundled database the check compares with, the
``pnp`` sources, and the versions of Python and of the libraries that measure and draw (svglib: its files). The layout of a check that
found nothing is kept in the user's cache folder under the digest of all of them (:func:`inputs_digest`,
:func:`keep_layout`); the next build of the same inputs takes it (:func:`kept_layout`) and only writes the files. Any
change to any input is another digest, so it is laid out and checked again. Only a check that found nothing is kept:
a problem is always found and said anew.

An entry begins with a digest of this user's secret key (:func:`pnp.files.cache_key`) over the inputs' digest and the
pickled layout, as the databases kept checked do (:func:`pnp.database.loader.cached`): an entry another user planted in
the cache folder is never unpickled. Only the ``pnp`` command itself (:func:`pnp.entry.main`) keeps and reads entries
(:data:`ENABLED`): a program that imports ``pnp`` and changes its functions (the tests) always lays out and checks.
"""
from __future__ import annotations

import hashlib
import hmac
import os
import stat
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pnp.layout import Rendered

ENABLED = False
"""Whether builds read and keep the layouts checked: set by :func:`pnp.entry.main` (the ``pnp`` command and
``python -m pnp``), off for every other caller of :func:`pnp.cli.main`."""

ENTRIES_KEPT = 16
"""How many layouts the cache folder keeps (the oldest go first; the bundled cards' is some 500 KB)."""

LARGEST_FILE = 64 * 1024 * 1024
"""The largest input file digested, in bytes (the bundled fonts are under 5 MB): a folder holding a larger one, or
anything but regular files and folders (a pipe, a device), is never kept, and is checked every build (the check
itself refuses such files)."""

VERSION = b"pnp build pre-check 4"
"""Written first into every digest: a change to what is digested here gives every entry a new name."""


def inputs_digest(database: Any) -> str | None:
    """The hexadecimal SHA-256 digest of everything the pre-check of ``database`` (a loaded
    :class:`pnp.database.Database`, with the command line's ``[print]`` settings) depends on, or ``None`` when it
    cannot be told (the database's bytes unknown, an input folder holding something other than regular files and
    folders, or a file larger than :data:`LARGEST_FILE`). Reads every input file but the large ones (:data:`LARGE_FILE`),
some 1.5 MB, in about 10 ms."""
    from pnp import fonts, icon_files, pdf, resources, svg, text
    from pnp.database import checks
    from pnp.layout import icon_ink, template

    if not database.source:
        return None
    digest = hashlib.sha256(VERSION)
    for part in (sys.version, repr(database.print), database.fingerprint, _library_versions(),
                 repr(sorted((str(copy), str(shipped)) for copy, shipped in template.SHIPPED_AS.items()))):
        _add(digest, part.encode())
    _add(digest, database.source)
    library = _svglib_folder()
    if library is None:
        return None
    folders = [library, Path(template.TEMPLATE_DIR), Path(resources.TEMPLATE_DIR), Path(fonts.FONT_DIR), Path(text.ICON_DIR),
               Path(icon_files.ICON_DIR), Path(icon_ink.ICON_DIR), Path(svg.ICON_DIR), Path(pdf.ICON_DIR),
               Path(checks.ICON_DIR), Path(__file__).resolve().parent]
    for folder in dict.fromkeys(folders):
        if not _add_folder(digest, folder):
            return None
    if not _add_file(digest, Path(resources.BUNDLED_DATABASE)):
        return None
    return digest.hexdigest()


def _library_versions() -> str:
    """The versions of the libraries the check measures and draws with that every build imports (ReportLab, svgwrite);
    svglib's files are digested instead (:func:`_svglib_folder`)."""
    import reportlab
    import svgwrite

    return f"{reportlab.Version} {svgwrite.version}"


def _svglib_folder() -> Path | None:
    """The folder of the installed svglib package (which reads the icons for the check and the PDF), found without
    importing it, or ``None`` when it is not installed: its files are digested rather than its version, which only its
    import tells (with ReportLab's graphics, a tenth of a build that writes kept layouts, issue 14)."""
    import importlib.util

    spec = importlib.util.find_spec("svglib")
    locations = spec.submodule_search_locations if spec is not None else None
    return Path(next(iter(locations))) if locations else None


LARGE_FILE = 256 * 1024
"""From this size in bytes on (the fonts, 0.4 to 4 MB), a file is digested by its size, inode and times of change
(``st_mtime_ns``, ``st_ctime_ns``, which any write of the file sets anew and no program sets back) rather than its
bytes: hashing the 10 MB of fonts took 15 ms of every build."""


def _add(digest: Any, part: bytes) -> None:
    """Add ``part`` to ``digest`` with its length first, so that no two sequences of parts digest alike."""
    digest.update(len(part).to_bytes(8, "big"))
    digest.update(part)


def _add_file(digest: Any, path: Path) -> bool:
    """Add the name and bytes of the regular file at ``path`` (or that it is missing) to ``digest`` (a file of
    :data:`LARGE_FILE` bytes or more: its size, inode and times of change); ``False`` for anything else there (a
    folder, a pipe) or a file larger than :data:`LARGEST_FILE`."""
    _add(digest, str(path).encode(errors="surrogateescape"))
    try:
        status = path.stat()
    except FileNotFoundError:
        _add(digest, b"missing")
        return True
    except OSError:
        return False
    if not stat.S_ISREG(status.st_mode) or status.st_size > LARGEST_FILE:
        return False
    if status.st_size >= LARGE_FILE:
        _add(digest, repr((status.st_size, status.st_dev, status.st_ino, status.st_mtime_ns, status.st_ctime_ns)).encode())
        return True
    try:
        _add(digest, path.read_bytes())
    except OSError:
        return False
    return True


def _add_folder(digest: Any, folder: Path) -> bool:
    """Add the name and bytes of every file under ``folder`` (its subfolders too, in the order of their names; compiled
    modules, ``__pycache__``, left out) to ``digest``; ``False`` when one is neither a regular file nor a folder, or is
    too large (see :func:`_add_file`)."""
    _add(digest, str(folder).encode(errors="surrogateescape"))
    try:
        entries = sorted(os.scandir(folder), key=lambda entry: entry.name)
    except FileNotFoundError:
        _add(digest, b"missing")
        return True
    except OSError:
        return False
    for entry in entries:
        if entry.name == "__pycache__":
            continue
        try:
            is_folder = entry.is_dir()
        except OSError:
            return False
        if is_folder:
            if not _add_folder(digest, Path(entry.path)):
                return False
        elif not _add_file(digest, Path(entry.path)):
            return False
    return True


def _entry_file(inputs: str) -> Path:
    """Where the layout checked from ``inputs`` (an :func:`inputs_digest`) is kept, in the user's cache folder."""
    import platformdirs

    return Path(platformdirs.user_cache_dir("lassadar")) / "checked-layouts" / f"{inputs}.pickle"


def _signature(key: bytes, inputs: str, pickled: bytes) -> bytes:
    """The digest that vouches for an entry: this user's ``key`` over the inputs' digest and the ``pickled`` layout, so an
    entry copied under another name is never taken for the layout of other inputs."""
    return hmac.new(key, VERSION + b"\0" + inputs.encode() + b"\0" + pickled, hashlib.sha256).digest()


def kept_layout(inputs: str | None) -> Rendered | None:
    """The layout (:func:`pnp.layout.render`) of the inputs digested as ``inputs`` (:func:`inputs_digest`), as kept by
    :func:`keep_layout` when their pre-check found nothing, or ``None``: :data:`ENABLED` off, ``inputs`` ``None``, no
    entry kept, or one that is not signed with this user's key or cannot be read (then checked again, silently). The
    PDF forms of the icons it names, kept with it, are given to :func:`pnp.pdf.keep_forms`."""
    from pnp.files import cache_key, read_signed
    from pnp.layout import Rendered

    if not ENABLED or inputs is None:
        return None
    key = cache_key()
    if key is None:
        return None
    found = read_signed(_entry_file(inputs), lambda pickled: _signature(key, inputs, pickled))
    if not isinstance(found, tuple) or len(found) != 2:
        return None
    rendered, icons = found
    if not isinstance(rendered, Rendered) or not isinstance(icons, dict):
        return None
    from pnp import pdf

    pdf.keep_forms(icons)
    return rendered


def keep_layout(inputs: str | None, rendered: Rendered) -> None:
    """Keep ``rendered``, the layout of the inputs digested as ``inputs`` whose pre-check found nothing, for
    :func:`kept_layout`, with the PDF forms of the icons its faces name in every colour model (:func:`pnp.pdf.icon_form`,
    painted from the drawings the check has read; a form that names a resource is left out, painted by each document);
    nothing is kept when ``inputs`` is ``None`` or :data:`ENABLED`
    is off. At most :data:`ENTRIES_KEPT` entries are kept. Never fails: an entry that cannot be written only means the
    next build checks again."""
    from pnp import icon_files, pdf
    from pnp.drawing import icon_names
    from pnp.files import cache_key, keep_signed
    from pnp.inks import COLOUR_MODELS

    if not ENABLED or inputs is None:
        return
    key = cache_key()
    if key is None:
        return
    names = {name for face in (*rendered.fronts, *rendered.backs.values()) for name in icon_names(face.drawing)}
    try:
        forms = {(str(Path(pdf.ICON_DIR) / f"{name}.svg"), model): pdf.icon_form(name, model)
                 for name in sorted(names) for model in COLOUR_MODELS}
    except (OSError, ValueError, icon_files.IconFileError):
        return
    icons = {key: form for key, form in forms.items() if form is not None}
    keep_signed(_entry_file(inputs), (rendered, icons), lambda pickled: _signature(key, inputs, pickled), ENTRIES_KEPT)
