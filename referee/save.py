"""Save files of the referees: TOML with a format number, the database fingerprint, the seed, the setup
and the events, written atomically and checked on load.

This module owns the file format's envelope, not what a game's setup and events mean (each game's
module turns those into records). Every problem is a :class:`SaveError` naming the file and the reason,
one line; a failed write leaves the previous file untouched.
"""
from __future__ import annotations

import os
import tempfile
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import tomli_w

from referee.errors import RefereeError

FORMAT = 1
"""The save format this code writes; files with a higher number are refused as newer."""

ENV = "LASSADAR_SAVE"
"""The older variable for both games' save: used by a game only where it names that game's save (or no file yet)."""

GAME_ENV = {"solo": "LASSADAR_SOLO_SAVE", "duel": "LASSADAR_DUEL_SAVE"}
"""Each game's own save variable, read before :data:`ENV`."""

TITLES = {"solo": "The Grayking is Risen", "duel": "Ruin & Renewal I"}
"""The game each save file's ``game`` name stands for, as messages name it."""


class SaveError(RefereeError):
    """A save file that cannot be read or written: ``str(error)`` is ``FILE: reason``."""

    def __init__(self, path: Path | str, reason: str):
        self.path = Path(path)
        self.reason = reason
        super().__init__(f"{path}: {reason}")


def default_path(game: str) -> Path:
    """Where a game is saved unless told otherwise: the game's own variable (``$LASSADAR_SOLO_SAVE``,
    ``$LASSADAR_DUEL_SAVE``), else ``$LASSADAR_SAVE`` when the file it names is a save of ``game`` or no
    file yet, else ``user_data_dir("lassadar")/<game>.toml``. ``$LASSADAR_SAVE`` naming a save of the
    other game is a :class:`SaveError` saying which variable to set (the other game keeps its file)."""
    own = os.environ.get(GAME_ENV.get(game, ""))
    if own:
        return Path(own)
    env = os.environ.get(ENV)
    if env:
        kind = held(Path(env))
        if kind and kind != game:
            raise SaveError(env, f"$LASSADAR_SAVE names this file, which holds a game of {_title(kind)}, not of {_title(game)}: "
                                 f"set ${GAME_ENV.get(game, ENV)} for `referee {game}` (or give --save PATH)")
        return Path(env)
    import platformdirs

    return Path(platformdirs.user_data_dir("lassadar")) / f"{game}.toml"


def write(path: Path, document: dict[str, Any]) -> None:
    """Write ``document`` as TOML to ``path`` atomically: a temporary file in the same folder, flush, fsync, ``os.replace``.

    Raises :class:`SaveError` when the folder cannot be created or written; the old file is then unchanged.
    """
    path = Path(path)
    try:
        data = tomli_w.dumps(document).encode("utf-8")
    except (TypeError, ValueError) as error:  # a programming error in a game's to_dict
        raise SaveError(path, f"cannot write this game as TOML: {error}") from None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    except OSError as error:
        raise SaveError(path, f"cannot write: {error.strerror or error}") from None
    try:
        with os.fdopen(fd, "wb") as file:
            file.write(data)
            file.flush()
            os.fsync(file.fileno())
        os.replace(tmp, path)
    except OSError as error:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise SaveError(path, f"cannot write: {error.strerror or error}") from None


def _title(game: str) -> str:
    return f"{TITLES[game]} (`referee {game}`)" if game in TITLES else repr(game)


def _peek(path: Path) -> dict[str, Any] | None:
    """The TOML document at ``path`` unchecked: ``None`` when there is no file, ``{}`` when it is no readable TOML."""
    if not path.exists():
        return None
    try:
        doc = tomllib.loads(path.read_bytes().decode("utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return {}
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
    - Any other file at ``path``: moved to ``path.prev`` first. An older save of ``game`` there is
      replaced (the message says so); anything else there (another game, a file that is no save) is
      refused as above. :func:`restore` swaps the two back.
    """
    path = Path(path)
    doc = _peek(path)
    if doc is None:
        write(path, document)
        return ""
    kind = held(path)
    if kind and kind != game:
        raise SaveError(path, f"this file holds a game of {_title(kind)}, which `referee {game} new` will not replace: "
                              f"give --save PATH to keep the new game in a separate file, or remove this file first")
    if kind == game and doc.get("events", []) == []:
        write(path, document)
        return f"The game set up in {path} had nothing played yet: the new game replaces it."
    previous = prev_path(path)
    if in_progress is not None and not force:
        what = in_progress(path)
        if what:
            raise SaveError(path, f"a game of {_title(game)} is in progress here ({what}): `referee {game} new --force` starts a new "
                                  f"one and keeps this one in {previous.name} (`referee {game} restore` brings it back), "
                                  f"or give --save PATH to play both")
    before = held(previous)
    if before is not None and before != game:
        what = f"a game of {_title(before)}" if before else f"a file that is no save of {_title(game)}"
        raise SaveError(previous, f"this file holds {what}, and `referee {game} new` would replace it by keeping the game "
                                  f"saved in {path} there: give --save PATH to start the new game in a separate file, "
                                  f"or remove or rename this file first")
    try:
        os.replace(path, previous)
    except OSError as error:
        raise SaveError(path, f"cannot keep the game saved here in {previous.name}: {error.strerror or error}") from None
    write(path, document)
    older = ", replacing the older game kept there" if before is not None else ""
    return f"The game saved in {path} is kept in {previous}{older}."


def restore(path: Path, game: str, check: Callable[[Path], Any] | None = None) -> str:
    """Swap the save at ``path`` with the game kept in ``path.prev`` (the one the last ``new`` replaced), so
    that ``restore`` again swaps them back; returns a sentence saying what was done.

    Refused with a :class:`SaveError` (nothing changed) when no ``.prev`` exists, when it is not a save of
    ``game``, or when ``check(prev)`` (a game's ``load``) raises :class:`SaveError`.
    """
    path = Path(path)
    kept = prev_path(path)
    kind = held(kept)
    if kind is None:
        raise SaveError(kept, f"no previous game is kept here, so there is nothing to restore (`referee {game} new` keeps "
                              f"the game it replaces in this file)")
    if kind != game:
        what = f"a game of {_title(kind)}" if kind else f"a file that is no save of {_title(game)}"
        raise SaveError(kept, f"this file holds {what}; `referee {game} restore` brings back only a game of {_title(game)}")
    if check is not None:
        check(kept)
    try:
        if path.exists():
            swap = path.with_name(f".{path.name}.swap")
            os.replace(path, swap)
            os.replace(kept, path)
            os.replace(swap, kept)
            return f"The game kept in {kept} is back in {path}; the game you were playing is kept in {kept} (restore again to swap back)."
        os.replace(kept, path)
    except OSError as error:
        raise SaveError(path, f"cannot restore: {error.strerror or error}") from None
    return f"The game kept in {kept} is back in {path}."


def read(path: Path, game: str, fingerprint: str | None = None) -> dict[str, Any]:
    """Read and check the envelope of a save file; returns the whole document.

    Checks: the file exists and is UTF-8 TOML; ``format`` is an integer no newer than :data:`FORMAT`;
    ``game`` matches; ``database`` equals ``fingerprint`` (when given; a changed database is reported,
    not silently used); ``seed`` is an integer; ``setup`` is a table and ``events`` a list of tables as many as
    ``event_count`` says.
    Raises :class:`SaveError` naming the first problem.
    """
    path = Path(path)
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        raise SaveError(path, f"no game saved here; start one with `referee {game} new`") from None
    except OSError as error:
        raise SaveError(path, f"cannot read: {error.strerror or error}") from None
    try:
        doc = tomllib.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise SaveError(path, "not a save file (not UTF-8 text)") from None
    except tomllib.TOMLDecodeError as error:
        raise SaveError(path, f"corrupt or truncated save file ({error})") from None
    fmt = doc.get("format")
    if not isinstance(fmt, int) or isinstance(fmt, bool):
        raise SaveError(path, "not a save file (no format number)")
    if fmt > FORMAT:
        raise SaveError(path, f"saved by a newer referee (format {fmt}; this one reads format {FORMAT}); upgrade lassadar")
    if fmt < 1:
        raise SaveError(path, f"unknown format {fmt}")
    if doc.get("game") != game:
        raise SaveError(path, f"this is a save of {doc.get('game')!r}, not of {game!r}")
    if fingerprint is not None and "database" not in doc:
        raise SaveError(path, "corrupt or hand-edited save file: it has no `database` line (the fingerprint of the "
                              "card database the game was played with)")
    if fingerprint is not None and doc.get("database") != fingerprint:
        raise SaveError(path, "the card database changed since this game was saved (fingerprint differs); "
                              "use the cards.toml it was played with, or start a new game")
    if not isinstance(doc.get("seed"), int) or isinstance(doc.get("seed"), bool):
        raise SaveError(path, "corrupt save file: seed is not an integer")
    if not isinstance(doc.get("setup"), dict):
        raise SaveError(path, "corrupt or truncated save file: no [setup] table")
    events = doc.get("events", [])
    if not isinstance(events, list) or not all(isinstance(e, dict) for e in events):
        raise SaveError(path, "corrupt save file: events must be a list of tables")
    count = doc.get("event_count")
    if not isinstance(count, int) or isinstance(count, bool) or count != len(events):
        raise SaveError(path, f"corrupt or truncated save file: it records {count!r} events but holds {len(events)}")
    doc["events"] = events
    return doc


def document(game: str, fingerprint: str, seed: int, setup: dict[str, Any], events: list[dict[str, Any]]) -> dict[str, Any]:
    """The TOML document of a save: format, game, database fingerprint, seed, the number of events (so a
    file cut short between two events is caught, not read as an earlier game), setup, events."""
    return {"format": FORMAT, "game": game, "database": fingerprint, "seed": seed, "event_count": len(events),
            "setup": setup, "events": events}
