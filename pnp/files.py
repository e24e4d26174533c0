"""Reading a file a user names (a card database, a save file) without trusting what it is.

A path given on the command line or in an environment variable may name a device (``/dev/zero``,
``/dev/full``), a pipe or a folder, which a plain ``read_bytes`` reads forever, blocks on, or fails on
with an unclear message. :func:`read_limited` reads a regular file of at most a given size and refuses
anything else in words. The lock files both command lines keep beside what they write (a build's
output folder, a save) are opened and taken here too (:func:`open_lock_file`, :func:`take_lock`,
:func:`drop_lock`), never through a link planted at their name nor over a file of the user's.
"""
from __future__ import annotations

import contextlib
import errno
import hmac
import os
import pickle
import re
import stat
from collections.abc import Callable, Iterator
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
        raise FileRefused(f"is not a regular file (a device or a pipe), so it is not {what}")
    with open(path, "rb") as file:
        data = file.read(limit + 1)
    if len(data) > limit:
        raise FileRefused(f"is larger than {limit:,} bytes: too large for {what}", too_large=True)
    return data


def link_out_of_folder(path: Path) -> Path | None:
    """Where ``path`` leads when it is a symbolic link to a file outside its own folder (``templates/servant.toml`` ->
    ``/tmp/servant_copy.toml``), else ``None`` (no link, a link within the folder, or one that cannot be followed or leads
    to no regular file: the read then says so). A template or icon read through such a link prints a file the project does not hold, which its
    ``git diff`` never shows (thirty-fifth pnp breaker, LOW 20); the folder itself may be a link (resolved both)."""
    try:
        if not path.is_symlink():
            return None
        target = path.resolve()
        folder = path.parent.resolve()
    except (OSError, RuntimeError):  # a loop of links: the read says so
        return None
    if target.is_relative_to(folder) or not target.is_file():  # a device, a pipe, a folder: the read says what it is
        return None
    return target


def shown_path(path: Path) -> str:
    """``path`` as an error line names it (``FILE:LINE: ...``): relative to the current folder when it
    lies inside it (``cards.toml``, ``mods/cards.toml``), else as given (``/tmp/shared/cards.toml``), so
    the line names the very file read, whichever way it was chosen (``--db``, ``$LASSADAR_DB``). Written as
    :func:`pnp.oneline.shown_file` writes it: a name the output's encoding cannot write as its own bytes in the
    ``$'...'`` form, which typed back names the same file (thirty-eighth referee breaker, MED 4: ``\\u0141ukasz.toml``
    under cp1252)."""
    from pnp.oneline import shown_file

    try:
        return shown_file(Path(os.path.abspath(path)).relative_to(Path.cwd()))
    except (ValueError, OSError):  # outside the current folder, or no current folder any more
        return shown_file(path)


class LockFileRefused(OSError):
    """A lock's name taken by something that is no lock file (:func:`open_lock_file`): ``foreign`` when
    it is a regular file holding something else (a file of the user's with that name), else a folder,
    a symbolic link, a pipe or a device."""

    def __init__(self, path: Path, foreign: bool) -> None:
        super().__init__(errno.EEXIST, "holds something else than a lock" if foreign else "is not a lock file", str(path))
        self.foreign = foreign


def open_lock_file(path: Path, holder: re.Pattern[bytes], create: bool = True) -> Any:
    """The lock file ``path`` opened as text for reading and appending (made if missing, with
    ``create``), never through a symbolic link and never blocking on a pipe, and only when it is a
    regular file that is empty or names a holder as ``holder`` matches (``1234 command``): a lock never
    writes into a file its name points to, nor over a file of the user's that has its name. Raises
    :class:`LockFileRefused`, and ``OSError`` when it cannot be opened (a full disk, no permission,
    missing without ``create``). Shared by the output folder's lock (:func:`folder_lock`) and the save's
    (:mod:`referee.savelock`)."""
    flags = (os.O_RDWR | os.O_CREAT | os.O_APPEND if create else os.O_RDONLY) | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    try:
        descriptor = os.open(path, flags, 0o644)
    except (IsADirectoryError, NotADirectoryError):
        raise LockFileRefused(path, foreign=False) from None
    except OSError as error:
        if error.errno == errno.ELOOP:  # a symbolic link, refused by O_NOFOLLOW
            raise LockFileRefused(path, foreign=False) from None
        raise
    if not stat.S_ISREG(os.fstat(descriptor).st_mode):
        os.close(descriptor)
        raise LockFileRefused(path, foreign=False)
    held_by = os.pread(descriptor, 200, 0).strip()
    if held_by and not holder.fullmatch(held_by):
        os.close(descriptor)
        raise LockFileRefused(path, foreign=True)
    return os.fdopen(descriptor, "a+" if create else "r")


def take_lock(path: Path, holder: re.Pattern[bytes]) -> tuple[Any, str | None]:
    """Take the exclusive ``flock`` of the lock file ``path`` without waiting (:func:`open_lock_file`):
    ``(handle, None)`` when taken, ``(None, who)`` when another process holds it (``who`` is what the
    file says, perhaps empty). The holder removes the file when done (:func:`drop_lock`), so a lock taken
    on a file removed meanwhile is taken again on the file now at the path. Raises as
    :func:`open_lock_file`."""
    while True:
        handle = open_lock_file(path, holder)
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            handle.seek(0)
            who = handle.read(200).strip()
            handle.close()
            return None, who
        try:
            same = os.fstat(handle.fileno()).st_ino == os.stat(path).st_ino
        except FileNotFoundError:
            same = False
        if same:
            return handle, None
        handle.close()  # the holder removed the file we opened: lock the one now there


def name_holder(handle: Any, text: str) -> None:
    """Write who holds the lock into its file (``text``); a full disk leaves it unnamed, and the lock
    holds all the same."""
    try:
        handle.seek(0)
        handle.truncate()
        handle.write(text)
        handle.flush()
    except OSError:
        pass


def drop_lock(path: Path, handle: Any) -> None:
    """Remove the lock file and drop the lock, in that order: a process waiting on the removed file finds
    it gone and takes a new one (:func:`take_lock`). Nothing is raised (a full disk may fail to flush)."""
    with contextlib.suppress(OSError):
        os.unlink(path)
    with contextlib.suppress(OSError):
        handle.close()


BUSY_MARK = "another pnp build"
"""Begins the reason of the ``OSError`` :func:`folder_lock` raises (the command line words it without ``cannot write``)."""

_PID = re.compile(rb"\d+")


@contextlib.contextmanager
def folder_lock(folder: Path, name: str) -> Iterator[None]:
    """Hold the lock of ``folder`` (an advisory ``flock`` on ``folder/name``, which the system drops when
    the process ends: a killed build leaves no stale lock) for the duration: one build at a time writes
    an output folder, so that one never sweeps away another's staging files (:func:`take_lock`). Raises
    ``OSError`` (``EBUSY``, reason starting :data:`BUSY_MARK`, the folder its filename) at once when
    another process holds it, and :class:`LockFileRefused` (its reason worded for the command line)
    when something else has the lock's name. POSIX only (``fcntl``); where it is missing there is no lock."""
    if fcntl is None:  # pragma: no cover - not POSIX
        yield
        return
    path = folder / name
    try:
        handle, who = take_lock(path, _PID)
    except LockFileRefused as error:
        reason = ("holds something else than a build's lock; rename it" if error.foreign else
                  "is not a lock file (a folder, a link, a pipe or a device has its name); remove it")
        raise OSError(errno.EEXIST, reason, str(path)) from None
    if handle is None:
        raise OSError(errno.EBUSY, f"{BUSY_MARK} (process {who or 'unknown'}) is writing this folder; "
                                   "run this one again when it has finished", str(folder))
    name_holder(handle, str(os.getpid()))
    try:
        yield
    finally:
        drop_lock(path, handle)


CALIBRATING = re.compile(r"\..+\.[pP][dD][fF]\.[a-z0-9_]{8}\.calibrating")
"""The name of the temporary file ``pnp calibrate`` writes a sheet in before it replaces the PDF, and only that: what
:func:`tempfile.mkstemp` makes of the prefix ``.<name>.pdf.``, its 8 random characters (lower-case letters, digits,
``_``) and the suffix ``.calibrating`` (``.c.pdf.w_afblur.calibrating``)."""


@contextlib.contextmanager
def calibrating_in(folder: Path) -> Iterator[None]:
    """Hold ``folder`` for one ``pnp calibrate`` writing its temporary file there (:data:`CALIBRATING`), and first
    remove the temporary files of earlier runs killed while they wrote (thirty-ninth pnp breaker, LOW 12: a
    SIGKILLed calibrate left a hidden ``.c.pdf.XXXXXXXX.calibrating`` that no later run removed, one a kill).

    The rule: each run holds an advisory ``flock`` of the folder itself (no file of its own is made) from before it
    creates its temporary file until it has replaced the PDF or removed the file; the system drops it when the process
    ends, killed or not. A run that gets the lock exclusively (no other calibrate holds it) knows that no temporary file
    in the folder is being written, and removes every one of the :data:`CALIBRATING` shape that is a regular file
    (never a link, a folder or anything else) owned by this user; then it holds the lock shared, as a run that did not
    get it exclusively does at once (waiting only while another run removes leftovers), and removes nothing. So a file
    that a calibrate running at the same time writes is never removed, nor any name of another shape. Where ``flock``
    is missing (not POSIX) or the folder cannot be opened or locked (a file system without locks), nothing is removed
    and the sheet is written all the same. Raises nothing of its own."""
    handle = None
    if fcntl is not None:  # pragma: no branch - POSIX
        with contextlib.suppress(OSError):
            handle = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    try:
        if handle is not None:
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:  # another calibrate writes here: nothing is removed
                _lock_or_none(handle, fcntl.LOCK_SH)
            except OSError:
                pass  # (no locks here: nothing can tell a killed run's file from a running one's)
            else:
                _remove_killed_calibrations(folder)
                _lock_or_none(handle, fcntl.LOCK_SH)
        yield
    finally:
        if handle is not None:
            os.close(handle)  # (the lock goes with it)


def _lock_or_none(handle: int, kind: int) -> None:
    """``flock`` the open ``handle`` as ``kind`` (waiting), or not at all when the file system refuses."""
    with contextlib.suppress(OSError):
        fcntl.flock(handle, kind)


def _remove_killed_calibrations(folder: Path) -> None:
    """Remove each regular file of ``folder`` owned by this user and named as :data:`CALIBRATING` (call it only while
    no calibrate writes there: :func:`calibrating_in`); one that cannot be removed is left."""
    with contextlib.suppress(OSError), os.scandir(folder) as entries:
        for entry in entries:
            with contextlib.suppress(OSError):
                if (CALIBRATING.fullmatch(entry.name) and entry.is_file(follow_symlinks=False)
                        and entry.stat(follow_symlinks=False).st_uid == os.geteuid()):
                    os.unlink(entry.path)


KEY_FILE = "checkpoint.key"
"""The file, in the user's data folder (``platformdirs.user_data_dir("lassadar")``), of :func:`machine_key`."""

CACHE_KEY_FILE = "cache.key"
"""The file, in the user's cache folder (``platformdirs.user_cache_dir("lassadar")``), of :func:`cache_key`."""

_KEYS: dict[str, bytes | None] = {}


def machine_key(create: bool = True) -> bytes | None:
    """This user's secret key on this machine for the digests of a save's checkpoint (:mod:`referee.checkpoint`):
    32 random bytes in :data:`KEY_FILE` of the user's data folder. ``create``: made when missing (only a command
    that writes a save asks for that, so a refused command leaves no data folder behind: thirty-third breaker,
    MED 4); else ``None`` when there is none yet. See :func:`_secret_key`."""
    return _secret_key(machine_key_file(), create)


def machine_key_file() -> Path:
    """Where :func:`machine_key` is kept: :data:`KEY_FILE` in the user's data folder."""
    import platformdirs

    return Path(platformdirs.user_data_dir("lassadar")) / KEY_FILE


def cache_key() -> bytes | None:
    """This user's secret key for the digests of the databases kept checked (:mod:`pnp.database.loader`): 32
    random bytes in :data:`CACHE_KEY_FILE` of the user's cache folder, made on first use (a cache is the
    project's own and may be made by any command; the user's data folder is not). See :func:`_secret_key`."""
    import platformdirs

    return _secret_key(Path(platformdirs.user_cache_dir("lassadar")) / CACHE_KEY_FILE, True)


KEY_BYTES = 32
"""The length of a secret key (:func:`_secret_key`)."""

KEY_WRITE_SECONDS = 2.0
"""How old a key file of the wrong length must be to be taken for damaged and made again (:func:`_secret_key`): a younger
one may be another process's key being written."""


def _secret_key(path: Path, create: bool) -> bytes | None:
    """The :data:`KEY_BYTES` secret bytes kept at ``path``, made there (when ``create``) by one process only: the file is
    created exclusively, readable by its owner only, never through a link; read once a process. A key file of another
    length, not written in the last :data:`KEY_WRITE_SECONDS`, is damaged: made again (when ``create``), whole or not at
    all (helper-162: a truncated key turned the caches and the checkpoints off for good, and said nothing). ``None`` when
    it can be neither read nor made (a read-only home, a folder or a pipe in its place: :func:`key_problem` says which), or
    is missing and not ``create``: nothing is then kept or trusted."""
    if _KEYS.get(str(path)) is not None:
        return _KEYS[str(path)]
    key: bytes | None = None
    with contextlib.suppress(OSError):
        if create:
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
                descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o600)
            except FileExistsError:
                pass
            else:
                with os.fdopen(descriptor, "wb") as file:
                    file.write(os.urandom(KEY_BYTES))  # (a key, made once: secrets.token_bytes without importing it)
                    file.flush()
                    os.fsync(file.fileno())
        key = _key_in(path)
        if key is None and create and _damaged_key(path):
            write_whole(path, os.urandom(KEY_BYTES))  # (another process that made it again meanwhile: the last one stays)
            key = _key_in(path)
    if key is not None or create:
        _KEYS[str(path)] = key
    return key


def _key_in(path: Path) -> bytes | None:
    """The key in the regular file ``path`` (never through a link), or ``None``: no such file, or not :data:`KEY_BYTES`
    long (a key being written by another process, or damaged). Raises ``OSError`` when it cannot be read."""
    descriptor = _open_regular(path)
    if descriptor is None:
        return None
    with os.fdopen(descriptor, "rb") as file:
        found = file.read(KEY_BYTES + 1)
    return found if len(found) == KEY_BYTES else None


def _damaged_key(path: Path) -> bool:
    """Whether ``path`` is a key file of the wrong length that no process is writing (:data:`KEY_WRITE_SECONDS`)."""
    import time

    found = os.lstat(path)
    return stat.S_ISREG(found.st_mode) and found.st_size != KEY_BYTES and time.time() - found.st_mtime > KEY_WRITE_SECONDS


def key_problem(path: Path) -> str:
    """Why no key can be read at ``path`` (:func:`_secret_key` gave ``None``), in words for a line the player reads."""
    try:
        found = os.lstat(path)
    except FileNotFoundError:
        return f"no key of this user is kept on this machine yet ({path}: no save written here yet, or a read-only folder)"
    except OSError as error:
        return f"this user's key file {path} cannot be read ({error.strerror or error})"
    if stat.S_ISDIR(found.st_mode):
        return f"this user's key file {path} is a folder: remove it, and the next command that saves makes the key"
    if not stat.S_ISREG(found.st_mode):
        return f"this user's key file {path} is not a regular file (a link, a pipe or a device): remove it, and the next command that saves makes the key"
    return f"this user's key file {path} is damaged (it holds {found.st_size} bytes, not {KEY_BYTES})"


def key_can_be_made(path: Path) -> bool:
    """Whether a command that saves can make the key at ``path`` (:func:`_secret_key`): it is there, missing, or a damaged
    file, not a folder, a link or a pipe in its place."""
    try:
        return stat.S_ISREG(os.lstat(path).st_mode)
    except FileNotFoundError:
        return True
    except OSError:
        return False


def _open_regular(path: Path) -> int | None:
    """A descriptor open for reading on the regular file ``path``, or ``None`` when there is none there (missing, or a
    folder, a pipe, a device, a link): opened without blocking and never through a link, then checked, so a pipe put in
    its place never stops the command (helper-162: a cache entry made a pipe hung `pnp build`). Raises ``OSError`` for a
    file that cannot be opened otherwise (no permission)."""
    try:
        descriptor = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOFOLLOW", 0))
    except (FileNotFoundError, IsADirectoryError):
        return None
    except OSError as error:
        if error.errno == errno.ELOOP:  # a link (O_NOFOLLOW)
            return None
        raise
    if not stat.S_ISREG(os.fstat(descriptor).st_mode):
        os.close(descriptor)
        return None
    if getattr(os, "O_NONBLOCK", 0):
        os.set_blocking(descriptor, True)
    return descriptor


def as_users_file(path: Path) -> None:
    """Give ``path`` the mode of any file the user writes (0666 less the umask): a temporary file (``tempfile.mkstemp``
    makes it 0600) that becomes one of the user's. Raises ``OSError``."""
    umask = os.umask(0)
    os.umask(umask)
    os.chmod(path, 0o666 & ~umask)


def write_whole(target: Path, content: bytes, shared: bool = False) -> None:
    """Write ``content`` to ``target`` whole or not at all: a new temporary file of a random name beside it (created
    exclusively, so never through a link planted there: twenty-fourth breaker, ``.<chart>.writing`` was followed), then
    renamed over ``target`` (a link at ``target`` is replaced, never followed). ``shared``: readable as any file the user
    writes (the umask's mode), else by its owner only. Raises ``OSError`` when the folder cannot be written."""
    import tempfile  # not on the path of a command that only reads

    target.parent.mkdir(parents=True, exist_ok=True)
    descriptor, temporary = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(descriptor, "wb") as file:
            file.write(content)
        if shared:
            as_users_file(Path(temporary))
        os.replace(temporary, target)
    finally:
        with contextlib.suppress(OSError):
            os.unlink(temporary)


def keep_file(target: Path, content: bytes, kept: int | None) -> None:
    """Write ``content`` to ``target`` whole or not at all (:func:`write_whole`), then keep only the ``kept`` most
    recently written files with ``target``'s suffix in its folder (the oldest go first; ``None`` keeps every one). For
    what the project keeps for itself in the user's folders (checked databases, copies of the databases games started
    with). Raises ``OSError`` when the folder cannot be written."""
    write_whole(target, content)
    if kept is None:
        return
    entries = sorted(target.parent.glob(f"*{target.suffix}"), key=lambda entry: entry.stat().st_mtime)
    for old in entries[:-kept]:
        old.unlink()


def read_signed(path: Path, signature: Callable[[bytes], bytes]) -> Any | None:
    """The object :func:`keep_signed` pickled into ``path``, when the 32 bytes before it are ``signature(pickled)`` (an
    HMAC of this user's key, so that a file another user put there is never unpickled), else ``None``: no file, one not
    so signed, or one that does not unpickle (another version's classes). Never raises: what the project keeps in the
    user's cache (checked databases, checked layouts) is only a shortcut, and a bad entry is checked again."""
    try:
        descriptor = _open_regular(path)
        if descriptor is None:
            return None
        with os.fdopen(descriptor, "rb") as file:
            data = file.read()
    except OSError:
        return None
    signed, pickled = data[:32], data[32:]
    if len(signed) != 32 or not hmac.compare_digest(signed, signature(pickled)):
        return None
    try:
        return pickle.loads(pickled)
    except Exception:  # noqa: BLE001 - an entry of other classes: checked again, never a failure
        return None


def keep_signed(target: Path, value: Any, signature: Callable[[bytes], bytes], kept: int) -> None:
    """Pickle ``value`` into ``target`` after ``signature`` of its pickled bytes (for :func:`read_signed`), whole or not
    at all, keeping the ``kept`` newest entries of the folder (:func:`keep_file`). Never fails: an entry that cannot be
    pickled or written only means the next command checks again."""
    with contextlib.suppress(OSError, pickle.PicklingError, TypeError, AttributeError, ValueError):
        pickled = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
        keep_file(target, signature(pickled) + pickled, kept)

