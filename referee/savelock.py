"""The save file's lock: one writer at a time, one table session per save, and no one-shot command
writing under a session.

Every write of a save happens under ``<save>.lock`` (an advisory ``flock``, which the system drops when
the process ends: a killed process leaves no stale lock; the holder removes the file when it is done). A one-shot command takes it for the moment of
its write (:func:`exclusive`: it waits briefly for another command's write, and is refused at once while
a table session holds it); a table session (``referee solo play``) takes it for as long as it runs
(:func:`held`), since it keeps the game in memory and a command that wrote the same save meanwhile would
be overwritten by the session's next step. The lock file names the process that holds it. POSIX only
(``fcntl``); where it is missing there is no lock.
"""
from __future__ import annotations

import contextlib
import os
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from pnp.files import LockFileRefused, drop_lock, name_holder, open_lock_file, take_lock
from referee.errors import RefereeError

try:
    import fcntl
except ImportError:  # pragma: no cover - not POSIX: no lock
    fcntl = None  # type: ignore[assignment]


class LockError(RefereeError):
    """The save file is held by a table session of another process (its id in ``holder``)."""

    def __init__(self, path: Path, holder: str) -> None:
        pid, _, role = holder.partition(" ")
        if role == WRITER:
            text = (f"{path}: another command (process {pid}) is still writing this game; nothing was written here: "
                    "run the command again")
        else:
            text = (f"{path}: a table session (process {pid or 'unknown'}) plays this game; "
                    "answer there, or quit it first")
        super().__init__(text)
        self.path, self.holder = path, pid


def _lock_path(path: Path) -> Path:
    """``<save>.lock`` beside the file the save is (a symbolic link followed, so that every name of one
    save shares one lock)."""
    real = Path(os.path.realpath(path))
    return real.with_name(real.name + ".lock")


_HELD: set[Path] = set()
"""The saves whose lock this process holds (a table session's, while it runs): its own writes need not
take it again (a second ``flock`` by the same process would wait for itself)."""

SESSION = "table session"
WRITER = "command"
_HOLDER = re.compile(rb"\d+ (%s|%s)" % (WRITER.encode(), SESSION.encode()))
"""What a lock file of a save holds: ``PID ROLE``; a file with anything else at its name is the user's."""


@contextlib.contextmanager
def held(path: Path) -> Iterator[None]:
    """Hold the lock of the save ``path`` for the duration (a table session), the lock file naming this
    process. Raises :class:`LockError` when another process holds it."""
    if fcntl is None:  # pragma: no cover
        yield
        return
    handle = _acquire(path, wait=0.0)
    _name(handle, SESSION)
    _HELD.add(_key(path))
    try:
        yield
    finally:
        _HELD.discard(_key(path))
        _release(path, handle)


def _acquire(path: Path, wait: float) -> Any:
    """Take the lock file of ``path`` (:func:`pnp.files.take_lock`), waiting up to ``wait`` seconds for a
    command's write (never for a table session, which holds it for good); returns the open file. Raises
    :class:`LockError` naming the holder, and :class:`~referee.errors.RefereeError` when the lock file
    cannot be made (a full disk, no permission) or its name is taken (:func:`_open_problem`)."""
    lock_path = _lock_path(path)
    deadline = time.monotonic() + wait
    started = time.monotonic()
    while True:
        try:
            lock_path.parent.mkdir(parents=True, exist_ok=True)
            handle, holder = take_lock(lock_path, _HOLDER)
        except OSError as error:
            raise _open_problem(path, lock_path, error) from None
        if handle is not None:
            return handle
        # a session holds the lock for good; a command that has just taken it may not have named itself yet
        session = (holder or "").endswith(SESSION) and time.monotonic() - started > 0.2
        if session or time.monotonic() >= deadline:
            raise LockError(path, holder or "")
        time.sleep(0.01)


def _open_problem(path: Path, lock_path: Path, error: OSError) -> RefereeError:
    """The one line for a lock file of the save ``path`` that cannot be opened: its name taken by a
    folder, link, pipe or device, or by a file of the user's (:class:`pnp.files.LockFileRefused`), or
    any other reason (a full disk, no permission)."""
    if isinstance(error, LockFileRefused) and error.foreign:
        return RefereeError(f"{lock_path}: this file holds something else than a lock of this save, and the referee locks "
                            f"{path} with a file of that name; rename it, then run the command again; nothing was written")
    if isinstance(error, LockFileRefused):
        return RefereeError(f"{lock_path}: is not a lock file (a folder, a link, a pipe or a device has its name); remove it "
                            "and run the command again; nothing was written")
    return RefereeError(f"{path}: cannot lock the save to write it ({error.strerror or error}); nothing was written")


def _release(path: Path, handle: Any) -> None:
    """Remove the lock file (no lock file stays beside the save) and drop the lock (:func:`pnp.files.drop_lock`)."""
    drop_lock(_lock_path(path), handle)


def _key(path: Path) -> Path:
    return Path(os.path.realpath(path))


def _name(handle: object, role: str) -> None:
    """Write who holds the lock into the lock file: ``PID ROLE`` (:func:`pnp.files.name_holder`)."""
    name_holder(handle, f"{os.getpid()} {role}")


@contextlib.contextmanager
def exclusive(path: Path, wait: float = 5.0) -> Iterator[None]:
    """Hold the lock of the save ``path`` while one write happens (the read-check-replace of
    :func:`referee.save.write`). Another command's write is waited for, up to ``wait`` seconds; a table
    session of another process holding it raises :class:`LockError` (it would overwrite what is written
    here), and so does a write still holding it after ``wait``. A no-op in the process whose table
    session holds it."""
    if fcntl is None or _key(path) in _HELD:  # pragma: no cover - not POSIX
        yield
        return
    handle = _acquire(path, wait)
    _name(handle, WRITER)
    try:
        yield
    finally:
        _release(path, handle)


def check_free(path: Path) -> None:
    """Raise :class:`LockError` when another process's table session holds the save ``path``; return
    at once otherwise (a one-shot command writes the save only after this)."""
    lock_path = _lock_path(path)
    if fcntl is None or not os.path.lexists(lock_path):
        return
    try:
        handle = open_lock_file(lock_path, _HOLDER, create=False)
    except FileNotFoundError:  # released meanwhile
        return
    except OSError as error:
        raise _open_problem(path, lock_path, error) from None
    with handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = handle.read().strip()
            if holder.endswith(SESSION):
                raise LockError(path, holder) from None
            return  # another command's write, for a moment: this command's own write waits for it (exclusive)
        fcntl.flock(handle, fcntl.LOCK_UN)
