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
import errno
import os
import re
import stat
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

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
                    "answer there, or quit it first (or play a copy with --save OTHER.toml)")
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
    """Open and ``flock`` the lock file of ``path``, waiting up to ``wait`` seconds for a command's write
    (never for a table session, which holds it for good); returns the open file. The lock file is
    removed by whoever releases it, so a lock taken on a file that was removed meanwhile is dropped and
    taken again on the file now at the path. Raises :class:`LockError` naming the holder, and
    :class:`~referee.errors.RefereeError` when the lock file cannot be made (a full disk, no permission)."""
    lock_path = _lock_path(path)
    deadline = time.monotonic() + wait
    started = time.monotonic()
    while True:
        try:
            lock_path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise RefereeError(f"{path}: cannot lock the save to write it ({error.strerror or error}); nothing was written") from None
        handle = _open_lock(path, lock_path, os.O_RDWR | os.O_CREAT | os.O_APPEND, "a+")
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            handle.seek(0)
            holder = handle.read().strip()
            handle.close()
            # a session holds the lock for good; a command that has just taken it may not have named itself yet
            session = holder.endswith(SESSION) and time.monotonic() - started > 0.2
            if session or time.monotonic() >= deadline:
                raise LockError(path, holder) from None
            time.sleep(0.01)
            continue
        try:
            same = os.fstat(handle.fileno()).st_ino == os.stat(lock_path).st_ino
        except FileNotFoundError:
            same = False
        if same:
            return handle
        handle.close()  # locked a lock file its last holder had removed: take the one at the path now


def _open_lock(path: Path, lock_path: Path, flags: int, mode: str) -> Any:
    """The lock file ``lock_path`` of the save ``path`` opened with ``flags`` as a text file of ``mode``,
    never through a symbolic link and never blocking (a pipe planted there), and only when it is a
    regular file: a folder, link, pipe or device at that name is refused, so the referee never writes
    into a file the lock's name points to. Raises :class:`~referee.errors.RefereeError` of one line."""
    refused = (f"{lock_path}: is not a lock file (a folder, a link, a pipe or a device has its name); remove it "
               "and run the command again; nothing was written")
    try:
        descriptor = os.open(lock_path, flags | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0), 0o644)
    except (IsADirectoryError, NotADirectoryError):
        raise RefereeError(refused) from None
    except OSError as error:
        if error.errno == errno.ELOOP:  # a symbolic link, refused by O_NOFOLLOW
            raise RefereeError(refused) from None
        raise RefereeError(f"{path}: cannot lock the save to write it ({error.strerror or error}); nothing was written") from None
    if not stat.S_ISREG(os.fstat(descriptor).st_mode):
        os.close(descriptor)
        raise RefereeError(refused)
    held_by = os.pread(descriptor, 200, 0)
    if held_by and not re.fullmatch(rb"\d+ (%s|%s)" % (WRITER.encode(), SESSION.encode()), held_by.strip()):
        os.close(descriptor)  # a file of the user's that happens to have the lock's name (a save called `game.toml.lock`)
        raise RefereeError(f"{lock_path}: this file holds something else than a lock of this save, and the referee locks "
                           f"{path} with a file of that name; rename it, then run the command again; nothing was written")
    return os.fdopen(descriptor, mode)


def _release(path: Path, handle: Any) -> None:
    """Remove the lock file (no lock file stays beside the save) and drop the lock, in that order: a
    process waiting on the removed file finds it gone and takes a new one (:func:`_acquire`)."""
    with contextlib.suppress(OSError):
        os.unlink(_lock_path(path))
    with contextlib.suppress(OSError):  # a full disk may fail to flush the holder's name: the lock goes all the same
        handle.close()


def _key(path: Path) -> Path:
    return Path(os.path.realpath(path))


def _name(handle: object, role: str) -> None:
    """Write who holds the lock into the lock file: ``PID ROLE``. A full disk leaves it unnamed: the lock
    holds all the same (a refusal then names no process)."""
    try:
        handle.seek(0)  # type: ignore[attr-defined]
        handle.truncate()  # type: ignore[attr-defined]
        handle.write(f"{os.getpid()} {role}")  # type: ignore[attr-defined]
        handle.flush()  # type: ignore[attr-defined]
    except OSError:
        pass


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
    with _open_lock(path, lock_path, os.O_RDONLY, "r") as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = handle.read().strip()
            if holder.endswith(SESSION):
                raise LockError(path, holder) from None
            return  # another command's write, for a moment: this command's own write waits for it (exclusive)
        fcntl.flock(handle, fcntl.LOCK_UN)
