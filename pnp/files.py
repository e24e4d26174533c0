"""Reading a file a user names (a card database, a save file) without trusting what it is.

A path given on the command line or in an environment variable may name a device (``/dev/zero``,
``/dev/full``), a pipe or a folder, which a plain ``read_bytes`` reads forever, blocks on, or fails on
with an unclear message. :func:`read_limited` reads a regular file of at most a given size and refuses
anything else in words.
"""
from __future__ import annotations

import contextlib
import errno
import os
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import Any

try:
    import fcntl
except ImportError:  # pragma: no cover - not POSIX: no lock
    fcntl = None  # type: ignore[assignment]


class FileRefused(ValueError):
    """A file that is not read: not a regular file, or too large (``too_large``). ``str(error)`` says
    which, in words."""

    def __init__(self, message: str, too_large: bool = False) -> None:
        super().__init__(message)
        self.too_large = too_large


def read_limited(path: Path, limit: int, what: str) -> bytes:
    """The bytes of the regular file ``path``, at most ``limit`` of them. ``what`` names the file's kind in
    the refusal (``a save file``). Raises :class:`FileRefused` for a device, a pipe, a socket or a folder
    (checked before opening, so a pipe never blocks) and for a file longer than ``limit``;
    ``OSError`` (``FileNotFoundError`` ...) when it cannot be read."""
    mode = os.stat(path).st_mode
    if stat.S_ISDIR(mode):
        raise FileRefused(f"is a folder, not {what}")
    if not stat.S_ISREG(mode):
        raise FileRefused(f"is not a regular file (a device or a pipe), so it is no {what.removeprefix('a ')}")
    with open(path, "rb") as file:
        data = file.read(limit + 1)
    if len(data) > limit:
        raise FileRefused(f"is larger than {limit:,} bytes: too large for {what}", too_large=True)
    return data


def shown_path(path: Path) -> str:
    """``path`` as an error line names it (``FILE:LINE: ...``): relative to the current folder when it
    lies inside it (``cards.toml``, ``mods/cards.toml``), else as given (``/tmp/shared/cards.toml``), so
    the line names the very file read, whichever way it was chosen (``--db``, ``$LASSADAR_DB``)."""
    try:
        return str(Path(os.path.abspath(path)).relative_to(Path.cwd()))
    except (ValueError, OSError):  # outside the current folder, or no current folder any more
        return str(path)


BUSY_MARK = "another pnp build"
"""Begins the reason of the ``OSError`` :func:`folder_lock` raises (the command line words it without ``cannot write``)."""


def _open_lock_file(path: Path) -> Any:
    """The lock file ``path`` opened for reading and appending, made if missing, never through a symbolic
    link and never blocking on a pipe, and only when it is a regular file. Raises ``OSError`` (its
    filename ``path``) for a folder, link, pipe or device at that name: a build never writes into a
    file a planted lock name points to."""
    refused = OSError(errno.EEXIST, "is not a lock file (a folder, a link, a pipe or a device has its name); remove it", str(path))
    try:
        descriptor = os.open(path, os.O_RDWR | os.O_CREAT | os.O_APPEND | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0), 0o644)
    except (IsADirectoryError, NotADirectoryError):
        raise refused from None
    except OSError as error:
        if error.errno == errno.ELOOP:
            raise refused from None
        raise
    if not stat.S_ISREG(os.fstat(descriptor).st_mode):
        os.close(descriptor)
        raise refused
    held_by = os.pread(descriptor, 40, 0).strip()
    if held_by and not held_by.isdigit():  # a file of the user's with the lock's name: never truncated
        os.close(descriptor)
        raise OSError(errno.EEXIST, "holds something else than a build's lock; rename it", str(path))
    return os.fdopen(descriptor, "a+")


@contextlib.contextmanager
def folder_lock(folder: Path, name: str) -> Iterator[None]:
    """Hold the lock of ``folder`` (an advisory ``flock`` on ``folder/name``, which the system drops when
    the process ends: a killed build leaves no stale lock) for the duration: one build at a time writes
    an output folder, so that one never sweeps away another's staging files. The holder removes the lock
    file when it is done; a lock taken on a file removed meanwhile is taken again on the file now there.
    Raises ``OSError`` (``EBUSY``, reason starting :data:`BUSY_MARK`, the folder its filename) at once
    when another process holds it. POSIX only (``fcntl``); where it is missing there is no lock."""
    if fcntl is None:  # pragma: no cover - not POSIX
        yield
        return
    path = folder / name
    while True:
        handle = _open_lock_file(path)
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            handle.seek(0)
            holder = handle.read(20).strip()
            handle.close()
            raise OSError(errno.EBUSY, f"{BUSY_MARK} (process {holder or 'unknown'}) is writing this folder; "
                                       "run this one again when it has finished", str(folder)) from None
        try:
            same = os.fstat(handle.fileno()).st_ino == os.stat(path).st_ino
        except FileNotFoundError:
            same = False
        if same:
            break
        handle.close()  # the holder removed the file we opened: lock the one now there
    try:
        handle.truncate(0)
        handle.write(str(os.getpid()))
        handle.flush()
        yield
    finally:
        with contextlib.suppress(OSError):
            os.unlink(path)
        handle.close()
