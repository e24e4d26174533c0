"""The save file's lock: one table session per save, and no one-shot command writing under it.

A table session (``referee solo play``) keeps a game in memory for as long as it runs; a one-shot
command that wrote the same save meanwhile would be overwritten by the session's next step. So the
session holds ``<save>.lock`` (an advisory ``flock``, which the system drops when the process ends: a
killed session leaves no stale lock), and every command that writes a save first asks whether another
process holds it (:func:`holder`). POSIX only (``fcntl``); where it is missing there is no lock.
"""
from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path

from referee.errors import RefereeError

try:
    import fcntl
except ImportError:  # pragma: no cover - not POSIX: no lock
    fcntl = None  # type: ignore[assignment]


class LockError(RefereeError):
    """The save file is held by a table session of another process (its id in ``holder``)."""

    def __init__(self, path: Path, holder: str) -> None:
        super().__init__(f"{path}: a table session (process {holder or 'unknown'}) plays this game; "
                         "answer there, or quit it first (or play a copy with --save OTHER.toml)")
        self.path, self.holder = path, holder


def _lock_path(path: Path) -> Path:
    return path.with_name(path.name + ".lock")


@contextlib.contextmanager
def held(path: Path) -> Iterator[None]:
    """Hold the lock of the save ``path`` for the duration, the lock file naming this process. Raises
    :class:`LockError` when another process holds it."""
    if fcntl is None:  # pragma: no cover
        yield
        return
    lock_path = _lock_path(path)
    lock_path.parent.mkdir(parents=True, exist_ok=True)
    handle = open(lock_path, "a+")  # noqa: SIM115 (held for the whole session)
    try:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            handle.seek(0)
            raise LockError(path, handle.read().strip()) from None
        handle.seek(0)
        handle.truncate()
        handle.write(str(os.getpid()))
        handle.flush()
        yield
    finally:
        handle.close()
        with contextlib.suppress(OSError):
            if lock_path.exists() and lock_path.read_text().strip() == str(os.getpid()):
                lock_path.unlink()


def check_free(path: Path) -> None:
    """Raise :class:`LockError` when another process's table session holds the save ``path``; return
    at once otherwise (a one-shot command writes the save only after this)."""
    if fcntl is None or not _lock_path(path).exists():
        return
    with open(_lock_path(path)) as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except BlockingIOError:
            raise LockError(path, handle.read().strip()) from None
        fcntl.flock(handle, fcntl.LOCK_UN)
