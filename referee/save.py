"""Save files of the referees: TOML with a format number, the database fingerprint, the seed, the setup
and the events, written atomically and checked on load.

This module owns the file format's envelope, not what a game's setup and events mean (each game's
module turns those into records). Every problem is a :class:`SaveError` naming the file and the reason,
one line; a failed write leaves the previous file untouched.
"""
from __future__ import annotations

import codecs
import contextlib
import glob
import hashlib
import os
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import tomli_w

try:  # saves are TOML 1.0, as the standard tomllib reads it (and cards.toml); tomli's compiled wheels of the versions
    import tomli as toml_reader  # pyproject.toml allows read that language 3x as fast (a long game's save, issue 14)
except ModuleNotFoundError:  # an install not brought up to date since tomli was added (fiftieth breaker, MED 2)
    import tomllib as toml_reader  # type: ignore[no-redef]

from pnp.files import FileRefused, read_limited
from pnp.oneline import shown_file
from referee import savelock
from referee.errors import ParseError, RefereeError, as_written, check_keys

FORMAT = 4
"""The save format this code writes; files with a higher number are refused as newer, files with a
lower one are migrated (:data:`MIGRATIONS`). Format 2: a duel's ``[setup]`` names where the referee's
dice come from (``dice``); format 1 had no such key and rolled one counter over the game. Format 3: a
solo save may hold ``referee_shown`` (:data:`MEMORY`), which a format 2 referee would refuse. Format 4:
a save may hold a ``[checkpoint]`` (:mod:`referee.checkpoint`), which a format 3 referee would refuse."""


def _from_format_1(doc: dict[str, Any]) -> None:
    """Format 1 to 2: a duel of format 1 rolled the referee's dice with one counter over the game."""
    if doc.get("game") == "duel" and isinstance(doc.get("setup"), dict):
        doc["setup"].setdefault("dice", "sequential")


def _from_format_2(doc: dict[str, Any]) -> None:
    """Format 2 to 3: nothing to change (format 3 only adds a key a format 2 save never holds)."""


def _from_format_3(doc: dict[str, Any]) -> None:
    """Format 3 to 4: nothing to change (format 4 only adds a key a format 3 save never holds)."""


MIGRATIONS: dict[int, Callable[[dict[str, Any]], None]] = {1: _from_format_1, 2: _from_format_2, 3: _from_format_3}
"""For each older format, the change (in place) that makes a document of it one of the next format."""


BACKUP_NAMES = 100
"""How many names :func:`backup_path` tries (``.format-1.bak``, ``.format-1.2.bak`` ... ``.format-1.100.bak``)."""


def backup_path(path: Path, fmt: int) -> Path:
    """Where the save ``path``, written in the older format ``fmt``, is kept as it was when it is first written again in
    :data:`FORMAT`: ``<save>.format-<fmt>.bak``, or when that name is taken by another file (a backup of an earlier
    game, a file or a link of the user's) the first free of ``<save>.format-<fmt>.2.bak``, ``.3.bak`` ...; a name that
    already holds these very bytes is returned (the file is kept there already). Thirty-sixth breaker, MED 4: with the
    name taken the file was written over in today's format and kept nowhere, while the line printed said it was kept.
    Raises :class:`SaveError` when :data:`BACKUP_NAMES` names are taken, or when the free ones are too long for the file
    system (thirty-seventh breaker, HIGH 1: a save named with the longest name allowed got ``.format-1.2.bak``, 256 bytes,
    and every step of the game then failed to be saved, "File name too long")."""
    path = Path(path)
    mine: bytes | None = None
    most = _name_max(path.parent)
    for number in range(1, BACKUP_NAMES + 1):
        backup = path.with_name(f"{path.name}.format-{fmt}{'' if number == 1 else f'.{number}'}.bak")
        if len(os.fsencode(backup.name)) > most:  # the names only grow from here
            raise SaveError(path, f"saved by an older referee (format {fmt}), and the name to keep it as it was (this name "
                                  f"with .format-{fmt}.bak added) is taken by another file, while a longer one would not fit "
                                  f"the {most} bytes this file system allows in a name: move that file away; nothing was changed")
        if not os.path.lexists(backup):
            return backup
        if backup.is_symlink() or not backup.is_file():
            continue
        try:
            if mine is None:
                mine = path.read_bytes()
            if backup.read_bytes() == mine:
                return backup
        except OSError:
            continue
    raise SaveError(path, f"saved by an older referee (format {fmt}), and {BACKUP_NAMES} names to keep it as it was "
                          f"({shown_file(path.name)}.format-{fmt}.bak ...) are taken: move some away; nothing was changed")

MAX_SAVE_BYTES = 1_000_000
"""The largest save file read: a whole game of either referee is well under 100 KB (a recorded game of 239 steps: 21 KB),
so a longer file is no save, refused before it is parsed (an endless one, ``/dev/zero``, is never read to its end). It
was 16 MB, and an 8 MB hand-made save cost `status` 25 s and 800 MB before it was refused (forty-second referee breaker,
LOW 12); the card database's cap is the same."""

MEMORY = ("referee_shown",)
"""The keys of what a game remembers beside its events (:meth:`referee.game.RefereeGame.memory`): a solo
game's ``referee_shown``, how far the referee's dice, deck and shuffles were shown before an undo."""

ENVELOPE = ("format", "game", "database", "seed", "event_count", "setup", "events", *MEMORY, "checkpoint")
"""The keys of a save file (:func:`document`); any other is refused as a hand edit."""

ENV = "LASSADAR_SAVE"
"""The older variable for both games' save: used by a game only where it names that game's save (or no file yet)."""

GAME_ENV = {"solo": "LASSADAR_SOLO_SAVE", "duel": "LASSADAR_DUEL_SAVE"}
"""Each game's own save variable, read before :data:`ENV`."""

TITLES = {"solo": "The Grayking is Risen", "duel": "Ruin & Renewal I"}
"""The game each save file's ``game`` name stands for, as messages name it."""


NEW_OPTIONS = {"solo": " --difficulty DIFFICULTY --spells SPELLS"}
"""The options `new` of each game needs that only the player can choose, as placeholders (:data:`referee.advice.PLACEHOLDERS`):
a command that starts a game where none can be read never invents them (forty-seventh referee breaker, KIND 3: an unreadable
save was offered `new --force --difficulty normal --spells bind,shield`, a guess)."""

NEW_OPTIONS_SAID = {"solo": "DIFFICULTY: beginner, normal or advanced; SPELLS: your two starting spells, such as bind,shield"}
"""What the placeholders of :data:`NEW_OPTIONS` stand for, said after the command that holds them."""

PLACEHOLDERS_SAID = {"DIFFICULTY": "DIFFICULTY: beginner, normal or advanced",
                     "SPELLS": "SPELLS: your two starting spells, such as bind,shield"}
"""What each placeholder a `new` command offered may hold stands for (:func:`placeholders_said`)."""


def placeholders_said(command: str) -> str:
    """What the placeholders ``command`` holds stand for, ``DIFFICULTY: ...; SPELLS: ...`` (empty when it holds none)."""
    return "; ".join(said for word, said in PLACEHOLDERS_SAID.items() if re.search(rf"(?<![\w-]){word}(?![\w-])", command))

NEW_GAME = {"solo": "`referee solo play` (it asks the difficulty and starting spells) or "
                    f"`referee solo new{NEW_OPTIONS['solo']}` ({NEW_OPTIONS_SAID['solo']})",
            "duel": "`referee duel new` (or `referee duel play`)"}
"""The commands that start a game of each kind, as a refusal offers them (each works as printed, its placeholders filled)."""


def new_over(game: str, path: Path | None = None, accepts: Callable[..., bool] | None = None) -> str:
    """The command that starts a game of ``game`` over the file at ``path``, as a refusal offers it (works as printed, its
    placeholders filled): for a solo game whose setup the file holds (read unchecked: a save damaged after its setup
    too), with that difficulty and those starting spells, as its Next line offers another game (forty-sixth referee
    breaker, POLISH 6); else with the options only the player can choose as placeholders (:data:`NEW_OPTIONS`: forty-
    seventh, KIND 3, never a guess). The setup is offered only where it is one `new` accepts: two different spells, and,
    given ``accepts`` (the options of `new` -> whether the game's rules set a game up with them, with the card database
    the save is read with), a start its rules allow (forty-eighth referee breaker, HIGH 1: `--spells bind,bind`,
    `barrier-lock,bind` or `nope,bind` were offered and refused); else placeholders."""
    doc = _peek(Path(path)) if path is not None else None
    setup = doc.get("setup") if isinstance(doc, dict) and doc.get("game") == game else None
    if game == "solo" and isinstance(setup, dict):
        difficulty, spells = setup.get("difficulty"), setup.get("spells")
        if difficulty in ("beginner", "normal", "advanced"):  # kept where it reads; the spells where they are a start
            if (isinstance(spells, list) and len(spells) == 2 and len(set(spells)) == 2
                    and all(isinstance(spell, str) and re.fullmatch(r"solo\.spell\.[a-z0-9-]+", spell) for spell in spells)
                    and (accepts is None or accepts(difficulty=difficulty, spells=spells))):
                return (f"referee solo new --force --difficulty {difficulty} "
                        f"--spells {','.join(spell.rsplit('.', 1)[-1] for spell in spells)}")
            return f"referee solo new --force --difficulty {difficulty} --spells SPELLS"
    return f"referee {game} new --force{NEW_OPTIONS.get(game, '')}"



def _top_line(text: str, key: str) -> int | None:
    """The line (1-based) of ``key = ...`` before the first table header of a save's ``text``, else of a ``[key]`` header
    (a key edited into a table), or ``None``."""
    for number, line in enumerate(text.split("\n"), 1):
        if line.lstrip().startswith("["):
            break
        if re.match(rf"\s*{key}\s*=", line):
            return number
    for number, line in enumerate(text.split("\n"), 1):
        if re.match(rf"\s*\[\s*{key}\s*\]", line):
            return number
    return None


class SaveError(RefereeError):
    """A save file that cannot be read or written: ``str(error)`` is ``FILE: reason`` (``FILE:LINE: reason``), then
    ``: remedy`` when one is given (what the player may type instead: :func:`way_on`). ``reason`` alone is what is
    wrong, for a message that gives its own remedy (`new` over an unreadable file)."""

    def __init__(self, path: Path | str, reason: str, line: int | None = None, remedy: str = ""):
        self.path = Path(path)
        self.reason = reason
        self.line = line
        self.remedy = remedy
        said = f"{reason}: {remedy}" if remedy else reason
        shown = shown_file(path)  # the file as every sentence names it (thirty-sixth breaker, MED 1)
        super().__init__(f"{shown}:{line}: {said}" if line else f"{shown}: {said}")


NO_COPY_KEPT = "no copy of the one it was played with is kept"
"""The words of a :class:`DatabaseChanged` refusal that :func:`referee.game.load_game` replaces with why no kept copy
serves (:func:`referee.snapshots.missing`)."""


class DatabaseChanged(SaveError):
    """The save was played with another card database than the one given: ``saved`` is the fingerprint
    its ``database`` line records (:mod:`referee.snapshots` may still have that database)."""

    def __init__(self, path: Path | str, reason: str, saved: object):
        super().__init__(path, reason)
        self.saved = saved


class StaleSave(SaveError):
    """The save file changed since the game being written was read from it (another command, an editor,
    a sync tool): nothing was written (:func:`write` with ``expect``)."""


def default_path(game: str) -> Path:
    """Where a game is saved unless told otherwise: the game's own variable (``$LASSADAR_SOLO_SAVE``,
    ``$LASSADAR_DUEL_SAVE``), else ``$LASSADAR_SAVE`` when the file it names is a save of ``game`` or no
    file yet, else ``user_data_dir("lassadar")/<game>.toml``. ``$LASSADAR_SAVE`` naming a save of the
    other game is a :class:`SaveError` saying which variable to set (the other game keeps its file)."""
    return default_place(game)[0]


def default_place(game: str) -> tuple[Path, str, str]:
    """:func:`default_path` with where it came from, in words for a refusal: ``(path, source, fix)``, the source such as
    ``$LASSADAR_DUEL_SAVE names it`` or ``the user data folder comes from $XDG_DATA_HOME=/x``, the fix what to change
    there (``set $XDG_DATA_HOME to a folder``)."""
    variable = GAME_ENV.get(game, "")
    own = os.environ.get(variable)
    if own:
        return Path(own), f"${variable} names it", f"set ${variable} to a save file's path"
    env = os.environ.get(ENV)
    if env:
        kind = held(Path(env))
        if kind and kind != game:
            raise SaveError(env, f"$LASSADAR_SAVE names this file, which holds a game of {_title(kind)}, not of {_title(game)}: "
                                 f"set ${GAME_ENV.get(game, ENV)} for `referee {game}` (or give --save PATH)")
        return Path(env), f"${ENV} names it", f"set ${ENV} to a save file's path"
    import platformdirs

    data = Path(platformdirs.user_data_dir("lassadar"))
    xdg = os.environ.get("XDG_DATA_HOME", "")
    if xdg.strip() and data.parent == Path(xdg):
        return data / f"{game}.toml", f"the user data folder comes from $XDG_DATA_HOME={xdg}", "set $XDG_DATA_HOME to a folder"
    return data / f"{game}.toml", f"the user data folder is {data}", "move what is in the way"


def file_in_the_way(path: Path) -> Path | None:
    """The nearest existing place above ``path`` (a symbolic link followed) when it is no folder (a file where a folder
    must be), else ``None``."""
    folder = Path(os.path.realpath(path)).parent
    while not folder.exists() and folder != folder.parent:
        folder = folder.parent
    return None if folder.is_dir() else folder


def place_problem(path: Path) -> str | None:
    """Why no game can be saved at ``path`` whatever the command (a loop of symbolic links, a file where a folder must
    be, a folder or a device in the save's place), in words after ``path:``; ``None`` when a save may be read or
    written there."""
    loop = link_loop(path)
    if loop is not None:
        return f"is a loop of symbolic links ({loop}), which leads to no file"
    blocking = file_in_the_way(path)
    if blocking is not None:
        return f"{blocking} is a file, not a folder"
    if os.path.isdir(path):
        return "is a folder, not a save file"
    if os.path.exists(path) and not os.path.isfile(path):
        return "is not a regular file (a device or a pipe), so it is no save file"
    return None


def revision(data: bytes) -> str:
    """The revision of a save file's bytes: their SHA-256, hex. A command remembers the revision it read
    and writes only over that same revision (:func:`write`)."""
    return hashlib.sha256(data).hexdigest()


def _current_revision(path: Path) -> str | None:
    try:
        return revision(path.read_bytes())
    except FileNotFoundError:
        return None
    except OSError as error:
        raise SaveError(path, f"cannot read: {error.strerror or error}") from None


def write(path: Path, document: dict[str, Any], expect: str | None = None) -> str:
    """Write ``document`` as TOML to ``path`` atomically and return the new file's :func:`revision`.

    Under the save's lock (:func:`referee.savelock.exclusive`, so two commands never write at once): the
    temporary files of commands killed while writing are removed; with ``expect`` (the revision the
    game was read from or last written as), a file that is no longer that revision is refused, since
    another command or device wrote the game meanwhile and writing over it would lose that step; then a
    temporary file in the same folder is written, flushed, fsynced and renamed over ``path``
    (``os.replace``), so the file on disk is always a whole save, old or new.

    A file removed since ``expect`` was read is written again (the game in hand is the latest one: a
    table session whose save was deleted under it keeps it). Raises :class:`SaveError` (the old file
    unchanged) when the folder cannot be created or written or the file changed since ``expect``;
    :class:`referee.savelock.LockError` when a table session of another process holds the save.
    """
    path = writable(path)
    data = _encode(path, document)
    with savelock.exclusive(path):
        sweep_temporaries(path)
        current = _current_revision(path)
        if expect is not None and current is not None and current != expect:  # a file removed meanwhile: written again
            raise StaleSave(path, "the game was changed by another command since this one read it, so nothing was written "
                                  "(writing would lose that step): run the command again on the game as it is now")
        _keep_older_format(path)
        _install(path, _prepared(path, data))
    return revision(data)


LINKS_FOLLOWED = 40
"""The symbolic links a path is followed through at most, as the system's own limit (Linux's ``MAXSYMLINKS``)."""


def link_loop(path: Path) -> str | None:
    """The symbolic links ``path`` leads through back to one of them, each as its link names it (``loop1 -> loop2 ->
    loop1``), or ``None`` when ``path`` ends in a file, a folder or nothing (a chain longer than :data:`LINKS_FOLLOWED`
    is said so)."""
    names, seen = [str(path)], set()
    current = Path(path)
    for _ in range(LINKS_FOLLOWED):
        try:
            if not current.is_symlink():
                return None
            key = (os.path.realpath(current.parent), current.name)
            if key in seen:
                return " -> ".join(names)
            seen.add(key)
            target = os.readlink(current)
        except OSError:  # a folder on the way that loops or cannot be read: the system's error says it
            return None
        names.append(target)
        current = current.parent / target
    return " -> ".join([*names[:3], "...", f"more than {LINKS_FOLLOWED} links"])


def refuse_link_loop(path: Path) -> None:
    """Raise :class:`SaveError` when ``path`` is a loop of symbolic links (:func:`link_loop`), which leads to no file: a save
    is neither read from nor written through it, and it is not said to be "a link to itself, which is no save file"
    (thirty-fourth breaker, LOW 24)."""
    loop = link_loop(path)
    if loop is not None:
        raise SaveError(path, f"is a loop of symbolic links ({loop}), which leads to no file: point one of them at a save "
                              "file, or give --save a path of its own; nothing was changed")


def refuse_hard_links(path: Path) -> None:
    """Raise :class:`SaveError` when the save file at ``path`` (a symbolic link followed) has more than one name (hard
    links). A save is written by renaming a new file into its place (:func:`write`), so every other name keeps the file
    as it was: from the next step the game would go on as two games, and a table session's lock, taken beside the name
    it plays, would not cover a one-shot command given the other name (thirty-fourth breaker, LOW 29). Locking by the
    file's device and inode would not serve either: every write makes a new file. So a save has one name; a symbolic
    link is the way to give it another (it is followed, and shares the lock)."""
    try:
        names = os.stat(path).st_nlink
    except OSError:  # no file yet, or one that cannot be read: said where it is read
        return
    if names > 1 and os.path.isfile(path):
        raise SaveError(path, f"this save file has {names} names (hard links), and each step is saved as a new file in its "
                              f"place, so the other names would keep the game as it was and play on as a game of its own: "
                              f"remove the other names (a symbolic link, `ln -s`, may name it instead), then run the command "
                              f"again; nothing was changed")


BESIDE_NAME_BYTES = 14
"""How many bytes longer than the save's name the longest name of a file the referee keeps beside it is: a write's
temporary file, ``.<save name>.<8 random characters>.tmp`` (``.unreadable``, ``.lock``, ``.prev`` are shorter)."""


def _name_max(folder: Path) -> int:
    """The most bytes the file system of ``folder`` allows in a file's name (``os.pathconf`` ``PC_NAME_MAX``; 255 where it
    cannot be asked: a folder that is not there yet, Windows)."""
    try:
        return os.pathconf(folder if str(folder) else ".", "PC_NAME_MAX")
    except (OSError, ValueError, AttributeError):
        return 255


def name_problem(path: Path) -> str | None:
    """Why the file system cannot hold a save named as ``path`` is, with the files the referee keeps beside it
    (:data:`BESIDE_NAME_BYTES` longer), or ``None``. The limit is the folder's (``os.pathconf`` ``PC_NAME_MAX``; 255
    where it cannot be asked). Thirty-fifth breaker, LOW 11: names of 242 to 255 bytes were refused as "cannot write",
    without the way out, or as "cannot lock the save"."""
    try:  # through a symbolic link, the files are kept beside the file it points to (thirty-sixth breaker, LOW 8)
        linked = Path(path).is_symlink()
        real = Path(os.path.realpath(path)) if linked else Path(path)
    except (OSError, ValueError):  # a name the system cannot even look up (too long): judged as written
        linked, real = False, Path(path)
    name = len(os.fsencode(real.name))
    most = _name_max(real.parent)
    if name + BESIDE_NAME_BYTES <= most:
        return None
    if linked:
        return (f"it is a symbolic link to a file whose name is {name} bytes long, and the referee keeps files beside that "
                f"file with names up to {BESIDE_NAME_BYTES} bytes longer (the temporary file of each write, .unreadable, "
                f".lock), more than the {most} bytes this file system allows in a name: point the link at a name of at most "
                f"{most - BESIDE_NAME_BYTES} bytes, or give --save a path of its own; nothing was changed")
    return (f"its name is {name} bytes long, and the referee keeps files beside it with names up to {BESIDE_NAME_BYTES} "
            f"bytes longer (the temporary file of each write, .unreadable, .lock), more than the {most} bytes this file "
            f"system allows in a name: give --save a name of at most {most - BESIDE_NAME_BYTES} bytes; nothing was changed")


def writable(path: Path) -> Path:
    """The file a save at ``path`` is written to: a symbolic link is followed (the game is saved where it
    points, the link kept), and anything but a regular file there (a device such as ``/dev/null``, a
    pipe, a folder) is refused with a :class:`SaveError`, never replaced, whatever ``--force`` says; so is a loop of
    symbolic links (:func:`refuse_link_loop`) and a file of several names (:func:`refuse_hard_links`)."""
    refuse_link_loop(path)
    refuse_hard_links(path)
    target = Path(os.path.realpath(path))
    if Path(path).is_symlink() and not target.parent.is_dir():
        raise SaveError(path, f"is a symbolic link to {shown_file(target)}, in a folder that does not exist: point it at a folder that does")
    folder = file_in_the_way(path)
    if folder is not None:
        raise SaveError(path, f"{shown_file(folder)} is a file, not a folder: give --save a path in a folder")
    if target.exists() and not target.is_file():
        raise SaveError(path, "is not a regular file (a device, a pipe or a folder): a game is saved only in a regular file; "
                              "give --save PATH to a file")
    return target


def older_format(path: Path) -> int | None:
    """The format of the save at ``path`` when it is older than :data:`FORMAT` (it is then migrated as it
    is read, and kept as it was when it is next written), else ``None``."""
    try:
        with open(path, "rb") as file:
            head = file.read(4096)  # the format line comes first (document()); a whole parse costs ms a write
    except OSError:
        return None
    found = re.search(rb"^format\s*=\s*(\d{1,4})\s*$", head, re.MULTILINE)
    fmt = int(found.group(1)) if found else None
    return fmt if fmt is not None and 1 <= fmt < FORMAT else None


def _keep_older_format(path: Path) -> None:
    """Before a save of an older format is written over in today's, copy it as it was to :func:`backup_path` (once: a
    backup of these bytes is kept; a file of another content at that name is never written over)."""
    fmt = older_format(path)
    if fmt is None:
        return
    backup = backup_path(path, fmt)
    if os.path.lexists(backup):  # these very bytes are kept there already
        return
    # the temporary file is named after the save, whose name leaves room for it, not after the longer backup name
    # (thirty-seventh breaker, HIGH 1: a save of the longest name allowed could never be kept, "File name too long")
    _install(backup, _prepared(path, path.read_bytes()))


def _encode(path: Path, document: dict[str, Any]) -> bytes:
    try:
        return tomli_w.dumps(document).encode("utf-8")
    except (TypeError, ValueError) as error:  # a programming error in a game's to_dict
        raise SaveError(path, f"cannot write this game as TOML: {error}") from None


def _prepared(path: Path, data: bytes) -> Path:
    """A temporary file beside ``path`` holding ``data``, flushed and fsynced. Raises :class:`SaveError`
    (no temporary file left) when it cannot be written: a full disk, a folder without write permission."""
    import tempfile  # only a command that writes needs it

    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=TEMPORARY_SUFFIX, dir=path.parent)
    except OSError as error:
        raise SaveError(path, f"cannot write: {error.strerror or error}") from None
    try:
        with os.fdopen(fd, "wb") as file:
            file.write(data)
            file.flush()
            os.fsync(file.fileno())
    except OSError as error:
        with contextlib.suppress(OSError):
            os.unlink(name)
        raise SaveError(path, f"cannot write: {error.strerror or error}") from None
    return Path(name)


WRITTEN: list[Path] = []
"""The saves this process has replaced (:func:`_install`): an interrupt after one says the step was saved (thirty-third
breaker, MED 7: "Aborted: nothing was changed." after the commit had been saved)."""


def _install(path: Path, prepared: Path) -> None:
    """Rename the prepared file over ``path`` (atomic), then fsync the folder so that the rename itself
    survives a power cut. Raises :class:`SaveError`, the prepared file removed."""
    try:
        os.replace(prepared, path)
    except OSError as error:
        with contextlib.suppress(OSError):
            os.unlink(prepared)
        raise SaveError(path, f"cannot write: {error.strerror or error}") from None
    WRITTEN.append(path)
    with contextlib.suppress(OSError):  # not every system lets a folder be opened and synced
        folder = os.open(path.parent, os.O_RDONLY)
        try:
            os.fsync(folder)
        finally:
            os.close(folder)


TEMPORARY_SUFFIX = ".tmp"
"""The temporary files a write makes beside the save: ``.<save name>.<random>.tmp``."""


def sweep_temporaries(path: Path) -> list[Path]:
    """Remove the temporary files that writes of the save ``path`` left when they were killed before
    renaming them into place, and finish a ``restore`` killed between its renames (the game it held
    aside goes back where it belongs); returns the files removed. Called under the save's lock, where
    no write is under way."""
    path = Path(path)
    swap = _swap_path(path)
    if swap.exists():
        with contextlib.suppress(OSError):
            os.replace(swap, path if not path.exists() else prev_path(path) if not prev_path(path).exists() else swap)
    removed = []
    ours = re.compile(re.escape(f".{path.name}.") + r"[A-Za-z0-9_]{8}" + re.escape(TEMPORARY_SUFFIX))  # mkstemp's 8 characters
    for stray in Path(path).parent.glob(f".{glob.escape(Path(path).name)}.*{TEMPORARY_SUFFIX}"):
        if not ours.fullmatch(stray.name):  # `.a.toml.x.12345678.tmp` is a write of the save `a.toml.x`, not of `a.toml`
            continue
        with contextlib.suppress(OSError):
            stray.unlink()
            removed.append(stray)
    return removed


def _title(game: str) -> str:
    return f"{TITLES[game]} (`referee {game}`)" if game in TITLES else repr(game)


def _peek(path: Path) -> dict[str, Any] | None:
    """The TOML document at ``path`` unchecked: ``None`` when there is no file, ``{}`` when it is no readable TOML."""
    if not path.exists() and not path.is_symlink():
        return None
    try:
        doc = toml_reader.loads(read_limited(path, MAX_SAVE_BYTES, "a save file").decode("utf-8-sig"))
    except (OSError, FileRefused, ValueError, RecursionError):  # ValueError: not UTF-8, not TOML, or a number of more than
        return {}  # 4,300 digits, which Python will not convert (fiftieth breaker, MED 5: said as "typed", naming no file)
    return doc


def held(path: Path) -> str | None:
    """The game (``solo``, ``duel``) a save file names, unchecked: ``None`` when there is no file at
    ``path``, ``""`` when the file is no readable save file."""
    doc = _peek(Path(path))
    if doc is None:
        return None
    game = doc.get("game")
    return game if isinstance(game, str) else ""


def prev_path(path: Path) -> Path:
    """Where the game replaced by a new one is kept: ``<save>.prev``."""
    return Path(path).with_name(Path(path).name + ".prev")


def unreadable_path(path: Path) -> Path:
    """Where ``new --force`` keeps a file that held no readable game when ``<save>.prev`` keeps a game:
    ``<save>.unreadable`` (never over that game)."""
    return Path(path).with_name(Path(path).name + ".unreadable")


def _unreadable_aside(path: Path, game: str, command: str, unchanged: str) -> Path:
    """:func:`unreadable_path` of ``path``, where ``referee GAME COMMAND`` keeps the unreadable file at ``path``; raises
    :class:`SaveError` at it when something is there already (a link too), saying what stays ``unchanged``."""
    aside = unreadable_path(path)
    if os.path.lexists(aside):
        raise SaveError(aside, f"`referee {game} {command}` would keep the unreadable file {shown_file(path.name)} here, and this file "
                               f"is in the way: move it away first; {unchanged}")
    return aside


def write_new(path: Path, game: str, document: dict[str, Any], in_progress: Callable[[Path], str | None] | None = None,
              force: bool = False) -> str:
    """Save a new game of ``game`` (its whole ``document``) at ``path`` without losing a game saved before;
    returns a sentence saying what became of the file there before (``""`` when there was none).

    - No file at ``path``: the new game is written.
    - A game of another kind at ``path``, or in ``path.prev`` where the file there would be kept: refused
      with a :class:`SaveError` naming the file, the game it holds and what to do; nothing is changed. A
      game of one kind is never replaced by a game of the other.
    - A game of ``game`` with no event played since its setup: replaced (the message names its seed);
      ``path.prev`` is left as it is, so starting again twice never pushes out the game kept there.
    - A game of ``game`` still in progress (``in_progress(path)`` describes it; ``None`` for a finished
      game): refused unless ``force``, naming the game and how to keep it.
    - A finished game of ``game`` while ``path.prev`` keeps one still in progress: replaced (the message says so), the
      game in progress staying in ``path.prev``.
    - Any other file at ``path``: moved to ``path.prev``. An older save of ``game`` there is
      replaced (the message says so); anything else there (another game, a file that is no save) is
      refused as above. :func:`restore` swaps the two back. A file that holds no readable game, while
      ``path.prev`` keeps a game of ``game``, is kept in ``path.unreadable`` instead, never over that game
      (refused when that name is taken); the refusal without ``force`` offers no ``restore`` for it.

    Nothing moves until the new save is written in full beside ``path`` (a full disk leaves the game in
    play where it was), and it all happens under the save's lock (:func:`referee.savelock.exclusive`). A symbolic link
    at ``path`` is followed (the game is saved, and the one it replaces kept, beside the file it points to, where
    :func:`restore` looks); one to a file that is no save is refused, never replaced.
    """
    link = Path(path) if Path(path).is_symlink() else None
    path = writable(path)
    if link is not None and held(path) == "":
        # thirty-third breaker, HIGH 4: `new --force` through a link to a file of the user's (notes, /etc/passwd) put a
        # save in its place; through a link only a save is replaced
        raise SaveError(link, f"is a symbolic link to {shown_file(path)}, which is no save file: a new {game} game does not replace "
                              f"a file of yours through a link; give --save a path of its own; nothing was changed")
    with savelock.exclusive(path):
        sweep_temporaries(path)
        return _write_new(path, game, document, in_progress, force)


def _write_new(path: Path, game: str, document: dict[str, Any], in_progress: Callable[[Path], str | None] | None,
               force: bool) -> str:
    doc = _peek(path)
    if doc is None:
        _install(path, _prepared(path, _encode(path, document)))
        return ""
    kind = held(path)
    if kind and kind != game:
        raise SaveError(path, f"this file holds a game of {_title(kind)}, which a new {game} game will not replace: "
                              f"give --save PATH to keep the new game in a separate file, or remove this file first")
    described = in_progress(path) if in_progress is not None and kind == game else None
    unreadable = bool(described) and str(described).startswith("it cannot be read")
    if kind == game and doc.get("events", []) == [] and not unreadable:  # (a file refused as damaged is kept, as its refusal
        # promised: thirty-sixth breaker, LOW 11, `format`/`game` lines alone were replaced as "nothing played yet")
        _install(path, _prepared(path, _encode(path, document)))
        return f"The game set up in {shown_file(path)} had nothing played yet: the new game replaces it."
    before = held(prev_path(path))
    if kind == game and before == game and in_progress is not None and not described and in_progress(prev_path(path)):
        # a finished game here, a game in progress kept in .prev: the finished one is the one not kept (thirty-third
        # breaker, HIGH 6: the `new` a finished game's Next line offers pushed the game in progress out of .prev)
        _install(path, _prepared(path, _encode(path, document)))
        return (f"The game saved in {shown_file(path)} was over: the new game replaces it, and the game in progress kept in "
                f"{shown_file(prev_path(path))} stays there (`referee {game} restore` brings it back).")
    # A file that holds no game never goes over a game kept in .prev (thirtieth breaker, HIGH: `new --force` over a
    # truncated save replaced the one readable game, and `restore` then refused): it is kept in .unreadable instead.
    # nor does a save of this game that cannot be read (an edited value, cut short, a newer format: thirty-third breaker,
    # HIGH 1: it went over the game kept in .prev, and the `restore` promised then refused it)
    beside = (kind != game or unreadable) and before == game
    previous = (_unreadable_aside(path, game, "new", f"the game kept in {shown_file(prev_path(path).name)} stays") if beside
                else prev_path(path))
    if not beside and os.path.islink(previous):  # the user's link, no game `new` kept: never removed (thirty-fourth breaker,
        # LOW 25: a .prev linked to the save itself was replaced "replacing the older game kept there"), as `restore` refuses it
        raise SaveError(previous, f"is a symbolic link (to {os.readlink(previous)}), not a game kept here when a new game "
                                  f"started, and starting a new game would replace it with the game saved in {shown_file(path.name)}: move "
                                  f"the link away, or give --save PATH to start the new game in a separate file; nothing was changed")
    if in_progress is not None and not force:
        what = described if kind == game else in_progress(path)
        if what and kind == game and not unreadable:
            raise SaveError(path, f"a game of {_title(game)} is in progress here ({what}): `referee {game} new --force` "
                                  f"starts a new one and keeps this file in {shown_file(previous.name)} (`referee {game} restore` "
                                  f"brings it back), or give --save PATH to play both")
        if what:  # a file that names no game: nothing to restore or to play (thirtieth breaker, MED)
            raise SaveError(path, f"this file cannot be read as a save ({what.removeprefix('it cannot be read: ')}): "
                                  f"`referee {game} new --force` starts a new game here and keeps this file as it is in "
                                  f"{shown_file(previous.name)}, or give --save PATH to start it in another file")
    if beside:
        before = None  # the game kept in .prev is not replaced: the unreadable file goes beside it
    if before is not None and before != game:
        what = f"this file holds a game of {_title(before)}" if before else f"this file is no save of {_title(game)}"
        raise SaveError(previous, f"{what}, and `referee {game} new` would replace it by keeping the game "
                                  f"saved in {shown_file(path)} there: give --save PATH to start the new game in a separate file, "
                                  f"or remove or rename this file first")
    savelock.check_free(previous)  # a table session playing the kept game there would lose it
    prepared = _prepared(path, _encode(path, document))  # a full disk stops here, nothing moved
    try:
        os.replace(path, previous)
    except OSError as error:
        with contextlib.suppress(OSError):
            os.unlink(prepared)
        raise SaveError(path, f"cannot keep the game saved here in {shown_file(previous.name)}: {error.strerror or error}") from None
    try:
        _install(path, prepared)
    except SaveError:
        with contextlib.suppress(OSError):
            os.replace(previous, path)  # the game in play back where it was
        raise
    older = ", replacing the older game kept there" if before is not None else ""
    if kind != game or unreadable:  # an empty or unreadable file held no game (twenty-eighth breaker: "The game saved in" it)
        if kind == game:  # a game cut short or edited (thirty-third breaker, LOW 13: it "held no game")
            return f"The file {shown_file(path)} held a game of {_title(game)} that cannot be read; it is kept in {shown_file(previous)}{older}."
        return f"The file {shown_file(path)} held no game of {_title(game)} that can be read; it is kept in {shown_file(previous)}{older}."
    return f"The game saved in {shown_file(path)} is kept in {shown_file(previous)}{older}."


def restore(path: Path, game: str, check: Callable[[Path], Any] | None = None) -> str:
    """Swap the save at ``path`` with the game kept in ``path.prev`` (the one the last ``new`` replaced), so
    that ``restore`` again swaps them back; returns a sentence saying what was done.

    Refused with a :class:`SaveError` (nothing changed) when no ``.prev`` exists, when it is a symbolic
    link, a folder or a device (never swapped into the save), when it is not a save of ``game``, or when
    ``check(prev)`` (a game's ``load``) raises :class:`SaveError`. A file at ``path`` that holds no readable game is
    kept in ``path.unreadable`` (refused when that name is taken), not swapped into ``.prev``.
    """
    refuse_link_loop(path)
    given = Path(path)
    if Path(path).is_symlink():  # where `new` kept the game it replaced: beside the file the link points to (thirty-third
        path = Path(os.path.realpath(path))  # breaker, HIGH 4: restore looked beside the link and found nothing)
    path = Path(path)
    kept = prev_path(path)
    current = held(path)
    if current in ("solo", "duel") and current != game:  # the other game's save: no command of this game fits it (eighteenth breaker)
        raise SaveError(path, f"this is a save of {_title(current)}, not of {_title(game)}: it is played with `referee {current}` "
                              f"commands; nothing was restored")
    if os.path.islink(kept) or (os.path.lexists(kept) and not os.path.isfile(kept)):  # swapped in, a link would make the save point elsewhere
        raise SaveError(kept, "this is not a file of its own (a link, a folder or a device), so it holds no game kept by "
                              f"`referee {game} new`; move it away to restore nothing, or restore from a copy")
    kind = held(kept)
    if kind is None:
        if given != path and current == "":  # a link to a file of yours that holds no save: a new game is never started
            # through it, so none is offered (thirty-seventh breaker, MED 3: `new --save LINK` was offered, then refused)
            raise SaveError(given, f"is a symbolic link to {shown_file(path)}, which holds no save, and no previous game is "
                                   f"kept beside it ({shown_file(kept.name)}), so there is nothing to restore; give --save a "
                                   f"path of its own to play")
        doc = _peek(path) if current == game else None
        if current == game and doc is not None and doc.get("events", []) == []:  # nothing played: a new game replaces it,
            # never keeps it (`_write_new`), and is not offered as keeping it (forty-fifth referee breaker, LOW 5)
            raise SaveError(kept, f"no previous game is kept here, so there is nothing to restore; the game saved in "
                                  f"{shown_file(path.name)} stays as it is (nothing is played in it yet, so a new game "
                                  f"started over it would replace it without keeping it)")
        if current == game:  # a game of this kind saved here: `play` continues it and `new` needs --force, so the one
            # command that would keep it here is offered (forty-third referee breaker, F1: `play` and `new` were, over a
            # game in progress)
            raise SaveError(kept, f"no previous game is kept here, so there is nothing to restore; the game saved in "
                                  f"{shown_file(path.name)} stays as it is (a new game started over it, with "
                                  f"`{new_over(game, path)}`, would keep it in this file)")
        raise SaveError(kept, f"no previous game is kept here, so there is nothing to restore (a new game, started with "
                              f"{NEW_GAME.get(game, f'`referee {game} new`')}, keeps the game it replaces in this file)")
    if kind != game:
        if not kind:  # damaged, or another kind of file (seventeenth, eighteenth breaker: "a game of ''")
            raise SaveError(kept, f"this is no readable save of {_title(game)} (damaged, or another file), so there is nothing to "
                                  f"restore; nothing was changed (move it away to keep it)")
        raise SaveError(kept, f"this file holds a game of {_title(kind)}; `referee {game} restore` brings back only a game of "
                              f"{_title(game)}")
    if check is not None:
        check(kept)
        if current == game:  # a save of this game that does not read (cut short, edited) is no "game you were playing":
            try:  # kept in .unreadable as the refusal that offered this restore said (thirty-fourth breaker, MED 4b)
                check(path)
            except SaveError as error:
                if type(error) is SaveError and error.reason.startswith(DAMAGED):
                    current = ""
    savelock.check_free(kept)  # a table session playing the kept game would lose it when it moves
    if current == "":  # the file in the save's place is no game: kept beside, as `new --force` keeps it (thirty-first breaker:
        aside = _unreadable_aside(path, game, "restore", "nothing was restored")  # it went into .prev as "the game you
        # were playing", and blocked the next `new`)
        with savelock.exclusive(path):
            try:
                os.replace(path, aside)
                os.replace(kept, path)
            except OSError as error:
                raise SaveError(path, f"cannot restore: {error.strerror or error}") from None
        return f"The game kept in {shown_file(kept)} is back in {shown_file(path)}; the unreadable file that was there is kept in {shown_file(aside)}."
    with savelock.exclusive(path):
        return _swap(path, kept)


def _swap_path(path: Path) -> Path:
    """Where :func:`restore` holds the game in play aside while it swaps the two files."""
    return path.with_name(f".{path.name}.swap")


def _swap(path: Path, kept: Path) -> str:
    try:
        if path.exists():
            swap = _swap_path(path)
            os.replace(path, swap)
            os.replace(kept, path)
            os.replace(swap, kept)
            return (f"The game kept in {shown_file(kept)} is back in {shown_file(path)}; the game you were playing is kept in "
                    f"{shown_file(kept)} (restore again to swap back).")
        os.replace(kept, path)
    except OSError as error:
        raise SaveError(path, f"cannot restore: {error.strerror or error}") from None
    return f"The game kept in {shown_file(kept)} is back in {shown_file(path)}."


SETUP_MARKS = {"solo": frozenset({"difficulty", "spells"}), "duel": frozenset({"row", "wardens", "shadowmajik"})}
"""Keys of ``[setup]`` that only a save of that game holds: a ``game`` line edited to the other game is told apart."""


_LONG_NUMBER = re.compile(rb"[0-9_]{19,}|0x[0-9a-fA-F_]{16,}|0o[0-7_]{21,}")
"""A run of characters that may write an integer of more than 63 bits (19 decimal digits, 16 hex, 21 octal; a binary
one is a run of 63 digits): a save without one holds no such integer, and :func:`_huge_integer_at` need not walk it (a
long game's walk was a tenth of a command, issue 14). A match is no proof (a name, a checkpoint's text): the walk decides."""


def _huge_integer_at(doc: Any) -> str | None:
    """Where ``doc`` (a parsed save) holds an integer of more than 63 bits (no seed, count or die is that
    large, and Python refuses to print one of more than 4,300 digits; iterative walk), named as the other
    corrupt-save lines name a place (``event 2: servants event, place.values``, ``seed``), else ``None``. The checkpoint's
    table is left out: what is wrong there only makes it untrusted, never the save unreadable (:mod:`referee.checkpoint`;
    helper-162: a huge event count in its ``at`` refused every command)."""
    from referee.checkpoint import KEY

    stack: list[tuple[Any, tuple[str | int, ...]]] = [(value, (key,)) for key, value in doc.items() if key != KEY]
    while stack:
        value, at = stack.pop()
        if isinstance(value, dict):
            stack.extend((item, (*at, key)) for key, item in value.items())
        elif isinstance(value, list):
            stack.extend((item, (*at, index)) for index, item in enumerate(value))
        elif isinstance(value, int) and value.bit_length() > 63:
            keys = [str(key) for key in at if isinstance(key, str)]
            if len(at) > 1 and at[0] == "events" and isinstance(at[1], int) and isinstance(doc["events"][at[1]], dict):
                kind = doc["events"][at[1]].get("type")
                return f"event {at[1] + 1}: {f'{kind} event, ' if isinstance(kind, str) else ''}{'.'.join(keys[1:]) or 'its value'}"
            return ".".join(keys) or "a value"
    return None


def way_on(path: Path, game: str, accepts: Callable[..., bool] | None = None) -> str:
    """What a player may do with the save at ``path`` that cannot be read as a game of ``game``, in words with the
    commands to type: bring back the game kept in ``<save>.prev`` when there is one (this file is then kept in
    ``<save>.unreadable``), else start a new game here (this file kept in ``<save>.prev``). Thirty-second breaker: every
    command but `new` said only what was wrong with an unreadable save, never what would be right. ``accepts``: as
    :func:`new_over` takes it, so that the file's own setup is offered only where it is a start the rules allow."""
    real = Path(os.path.realpath(path)) if Path(path).is_symlink() else Path(path)  # through a link: the files kept beside
    kept = prev_path(real)  # the file it points to, where `new` and `restore` keep them (thirty-fourth breaker, MED 4a)
    start = new_over(game, real, accepts)  # the file's own setup where it still reads, else placeholders (47th, KIND 3)
    # through a link to a file that holds no save, `new` refuses to replace it (thirty-third breaker, HIGH 4): never offered
    # here (thirty-sixth breaker, HIGH 3: `new --force`, typed as this advice said, was refused)
    linked = real != Path(path) and held(real) == ""
    said = f" ({placeholders_said(start)})" if placeholders_said(start) else ""
    other = "" if linked else f", or `{start}` starts a new one{said}"
    if held(kept) == game:
        aside = unreadable_path(real)
        if os.path.lexists(aside):  # both commands would keep this file there: it must move first (thirty-third breaker,
            # MED 1: both offered commands were refused, "this file is in the way")
            return (f"move {shown_file(aside.name)} away first (an unreadable file kept before), then `referee {game} restore` brings "
                    f"back the game kept in {shown_file(kept.name)} (this file is then kept in {shown_file(aside.name)}){other}")
        return (f"`referee {game} restore` brings back the game kept in {shown_file(kept.name)} (this file is then kept in "
                f"{shown_file(aside.name)}){other}")
    if linked:
        return (f"it is a symbolic link to {shown_file(real)}, which holds no save, and a new game never replaces a file of yours "
                f"through a link: give --save a path of its own")
    said = f"{placeholders_said(start)}; " if placeholders_said(start) else ""
    return f"`{start}` starts a new game here ({said}this file is then kept in {shown_file(kept.name)})"


DAMAGED = ("corrupt", "not a save file")
"""How the reason of a :class:`SaveError` for a file that holds no readable game begins (cut short, edited by hand,
another kind of file): such a refusal offers :func:`way_on`."""


def with_way_on(error: SaveError, game: str, accepts: Callable[..., bool] | None = None) -> SaveError:
    """``error`` with :func:`way_on` as its remedy when it refuses a damaged save (:data:`DAMAGED`) and offers no way
    on yet; else ``error`` itself (a missing save, another game, another database, a newer referee and a stale save
    each say their own way on). Thirty-third breaker, MED 5: a save cut at an event or with one value edited got only
    what was wrong, an unparsable one `restore` or `new --force`."""
    if error.remedy or type(error) is not SaveError or not error.reason.startswith(DAMAGED):
        return error
    return SaveError(error.path, error.reason, error.line, remedy=way_on(error.path, game, accepts))


def read(path: Path, game: str, fingerprint: str | None = None) -> dict[str, Any]:
    """:func:`read_revision`'s document alone."""
    return read_revision(path, game, fingerprint)[0]


def read_revision(path: Path, game: str, fingerprint: str | None = None) -> tuple[dict[str, Any], str]:
    """Read and check the envelope of a save file; returns the whole document.

    Checks: the file exists and is UTF-8 TOML; ``format`` is an integer no newer than :data:`FORMAT`;
    ``game`` matches; ``database`` equals ``fingerprint`` (when given; a changed database is reported,
    not silently used); ``seed`` is an integer; ``setup`` is a table and ``events`` a list of tables as many as
    ``event_count`` says. Returns the document and the :func:`revision` of the bytes read (what a later
    :func:`write` of the same game expects to replace).
    Raises :class:`SaveError` naming the first problem.
    """
    path = Path(path)
    refuse_link_loop(path)
    refuse_hard_links(path)
    try:
        raw = read_limited(path, MAX_SAVE_BYTES, "a save file")
    except FileNotFoundError:
        raise SaveError(path, f"no game saved here; start one with {NEW_GAME.get(game, f'`referee {game} new`')}") from None
    except FileRefused as error:  # a device or a pipe: what would be right too (forty-fourth referee breaker, LOW 3)
        raise SaveError(path, str(error) if error.too_large else f"{error}; give --save the path of a save file") from None
    except OSError as error:
        raise SaveError(path, f"cannot read: {error.strerror or error}") from None
    try:
        doc = toml_reader.loads(raw.decode("utf-8-sig"))  # a byte-order mark (a Windows editor's) is fine
    except UnicodeDecodeError as undecoded:
        if undecoded.end >= len(raw.removeprefix(codecs.BOM_UTF8)) and undecoded.reason == "unexpected end of data":
            # cut inside a character (a name's accent): cut short, not another kind of file (fortieth breaker, LOW 7)
            raise SaveError(path, "corrupt or truncated save file (it ends inside a character)", raw.count(b"\n") + 1,
                            remedy=way_on(path, game)) from None
        raise SaveError(path, "not a save file (not UTF-8 text)", remedy=way_on(path, game)) from None
    except toml_reader.TOMLDecodeError as error:  # at its line, the last one for a file cut short (fortieth breaker, LOW 7)
        from pnp.database.loader import toml_error_line

        raise SaveError(path, f"corrupt or truncated save file ({error})",
                        toml_error_line(error, raw.decode("utf-8-sig", errors="replace")), remedy=way_on(path, game)) from None
    except RecursionError:  # nesting beyond what the reader allows (tomli: 400 levels)
        raise SaveError(path, "corrupt save file: arrays or tables nested too deeply", remedy=way_on(path, game)) from None
    except ValueError:  # a number of more than 4,300 digits, which Python will not convert
        raise SaveError(path, "corrupt save file: a number of more than 4,300 digits") from None
    huge = _huge_integer_at(doc) if _LONG_NUMBER.search(raw) else None
    if huge:
        raise SaveError(path, f"corrupt save file: {huge}: a number far beyond any a game holds (more than 63 bits)")
    fmt = doc.get("format")
    text = raw.decode("utf-8-sig")
    if "format" in doc and (not isinstance(fmt, int) or isinstance(fmt, bool)):  # twenty-first breaker: format = "4"
        raise SaveError(path, f"corrupt or hand-edited save file: format: {as_written(fmt)} is not a whole number "
                              f"(this referee writes format = {FORMAT})", _top_line(text, "format"))
    if not isinstance(fmt, int) or isinstance(fmt, bool):
        raise SaveError(path, "not a save file (no format number)")
    if fmt > FORMAT:
        raise SaveError(path, f"saved by a newer referee (format {fmt}; this one reads format {FORMAT}); upgrade lassadar")
    if fmt < 1:  # twenty-second breaker: "unknown format -1" said neither what was edited nor what is right
        raise SaveError(path, f"corrupt or hand-edited save file: format: {fmt} is no format (this referee writes format = {FORMAT})",
                        _top_line(text, "format"))
    for older in range(fmt, FORMAT):  # an older save is read in today's format; write() keeps the old file
        MIGRATIONS[older](doc)
    if "game" not in doc:  # twentieth breaker: "a save of None"; a save cut after its first line
        raise SaveError(path, "corrupt or truncated save file: it has no `game` line (`game = \"solo\"` or `game = \"duel\"`)")
    # twenty-second breaker: `game = 4` had "no game line", `game = "Solo"` was "a save of 'Solo'"
    if not isinstance(doc["game"], str) or doc["game"] not in SETUP_MARKS:
        raise SaveError(path, f"corrupt or hand-edited save file: game: {as_written(doc['game'])} is no game of this "
                              f"referee (`game = \"solo\"` or `game = \"duel\"`)", _top_line(text, "game"))
    setup = doc.get("setup")
    other = doc.get("game")
    if (other != game and other in SETUP_MARKS and isinstance(setup, dict) and SETUP_MARKS[game] & setup.keys()
            and not SETUP_MARKS[other] & setup.keys()):  # twenty-first breaker: a solo save edited to game = "duel"
        raise SaveError(path, f"corrupt or hand-edited save file: it says game = {as_written(other)}, but its [setup] is a game of "
                              f"{_title(game)} ({', '.join(sorted(SETUP_MARKS[game] & setup.keys()))}): game = {as_written(game)}",
                        _top_line(text, "game"))
    if doc.get("game") != game:
        from pnp.oneline import shell_quoted  # the one quoting of an offered command (twenty-sixth breaker)

        other = doc.get("game")
        remedy = (f": it is played with `referee {other}` commands (`referee {other} status --save {shell_quoted(str(path))}`)"
                  if other in ("solo", "duel") else "")
        said = f"this is a save of {_title(other)}, not of {_title(game)}" if other in ("solo", "duel") else (
            f"this is a save of {other!r}, not of {game!r}")
        raise SaveError(path, f"{said}{remedy}")
    if fingerprint is not None and "database" not in doc:
        raise SaveError(path, "corrupt or hand-edited save file: it has no `database` line (the fingerprint of the "
                              "card database the game was played with)")
    named = doc.get("database")
    if fingerprint is not None and not (isinstance(named, str) and re.fullmatch(r"[0-9a-fA-F]{64}", named)):
        raise SaveError(path, f"corrupt or hand-edited save file: database: {as_written(named)} is no database fingerprint "
                              f"(64 hex digits, as `referee` wrote it)", _top_line(text, "database"))  # (thirty-first breaker:
        # an emptied line was said as "the card database changed")
    if isinstance(named, str) and re.fullmatch(r"[0-9a-fA-F]{64}", named):  # read in either case, as written: lower
        named = doc["database"] = named.lower()  # (thirty-second breaker, LOW 14: upper case was "no fingerprint")
    if fingerprint is not None and named != fingerprint:
        raise DatabaseChanged(path, "the card database changed since this game was saved (fingerprint differs), or this "
                                    f"save's `database` line was edited, and {NO_COPY_KEPT}; use the "
                                    "cards.toml it was played with, or start a new game", named)
    try:
        check_keys(doc, ENVELOPE, "the save file")
    except ParseError as error:
        raise SaveError(path, f"corrupt or hand-edited save file: {error}") from None
    if "seed" not in doc:  # (thirty-first breaker: "seed is not an integer" for a missing line)
        raise SaveError(path, "corrupt or truncated save file: it has no `seed` line (the seed the referee's dice come from)")
    if not isinstance(doc.get("seed"), int) or isinstance(doc.get("seed"), bool):
        raise SaveError(path, f"corrupt or hand-edited save file: seed: {as_written(doc['seed'])} is not a whole number",
                        _top_line(text, "seed"))
    if doc["seed"] < 0:  # `new --seed -1` is refused; a save edited so was played from (thirty-first breaker)
        raise SaveError(path, f"corrupt or hand-edited save file: seed: {doc['seed']} is below 0 (a seed is 0 or more)",
                        _top_line(text, "seed"))
    if not isinstance(doc.get("setup"), dict):
        raise SaveError(path, "corrupt or truncated save file: no [setup] table")
    events = doc.get("events", [])
    if not isinstance(events, list) or not all(isinstance(e, dict) for e in events):
        raise SaveError(path, "corrupt save file: events must be a list of tables")
    count = doc.get("event_count")
    if not isinstance(count, int) or isinstance(count, bool) or count != len(events):
        raise SaveError(path, f"corrupt or truncated save file: it records {count!r} events but holds {len(events)}")
    doc["events"] = events
    return doc, revision(raw)


def document(game: str, fingerprint: str, seed: int, setup: dict[str, Any], events: list[dict[str, Any]],
             memory: dict[str, Any] | None = None) -> dict[str, Any]:
    """The TOML document of a save: format, game, database fingerprint, seed, the number of events (so a
    file cut short between two events is caught, not read as an earlier game), what the game remembers
    beside its events (``memory``, keys of :data:`MEMORY`), setup, events."""
    return {"format": FORMAT, "game": game, "database": fingerprint, "seed": seed, "event_count": len(events),
            **(memory or {}), "setup": setup, "events": events}
