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
from pathlib import Path
from typing import Any

import tomli_w

FORMAT = 1
"""The save format this code writes; files with a higher number are refused as newer."""

ENV = "LASSADAR_SAVE"

TITLES = {"solo": "The Grayking is Risen", "duel": "Ruin & Renewal I"}
"""The game each save file's ``game`` name stands for, as messages name it."""


class SaveError(ValueError):
    """A save file that cannot be read or written: ``str(error)`` is ``FILE: reason``."""

    def __init__(self, path: Path | str, reason: str):
        self.path = Path(path)
        self.reason = reason
        super().__init__(f"{path}: {reason}")


def default_path(game: str) -> Path:
    """Where a game is saved unless told otherwise: ``$LASSADAR_SAVE``, else ``user_data_dir("lassadar")/<game>.toml``."""
    env = os.environ.get(ENV)
    if env:
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


def write_new(path: Path, game: str, document: dict[str, Any]) -> str:
    """Save a new game of ``game`` (its whole ``document``) at ``path`` without losing a game saved before;
    returns a sentence saying what became of the file there before (``""`` when there was none).

    - No file at ``path``: the new game is written.
    - A game of another kind at ``path``, or in ``path.prev`` where the file there would be kept: refused
      with a :class:`SaveError` naming the file, the game it holds and what to do; nothing is changed. A
      game of one kind is never replaced by a game of the other.
    - A game of ``game`` with no event played since its setup: replaced (the message names its seed);
      ``path.prev`` is left as it is, so starting again twice never pushes out the game kept there.
    - Any other file at ``path``: moved to ``path.prev`` first. An older save of ``game`` there is
      replaced (the message says so); anything else there (another game, a file that is no save) is
      refused as above.
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
    previous = path.with_name(path.name + ".prev")
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
