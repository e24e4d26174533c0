"""The card databases games were started with, kept so a game in progress finishes under its own cards.

A save records the fingerprint of the card database it is played with (:mod:`referee.save`). When
``cards.toml`` is edited (a designer's tuning, a fan's new card) a game started before would no longer
replay under it. So every save written also keeps a copy of its database's file, named by its
fingerprint, in the user's data folder (``platformdirs.user_data_dir("lassadar")/databases``; the referee
never deletes them, about 50 KB each, since any may be a game's in progress); a
save whose database is not the one given is then played with the copy of the database it was started
with (:func:`find`), checked as any database is and only when its fingerprint is the save's. The
project also ships the earlier versions of its own ``cards.toml`` (``referee/bundled_databases``), so
games started with a release before a tuning finish on a machine that never kept a copy.

New games always use the database given (``--db``, ``$LASSADAR_DB``, ``./cards.toml``, the bundled one).
"""
from __future__ import annotations

import contextlib
import os
import re
from pathlib import Path

from pnp import database
from pnp.database import Database
from pnp.files import keep_file
from pnp.oneline import shown_file

BUNDLED = Path(__file__).resolve().parent / "bundled_databases"
"""Earlier versions of the project's own ``cards.toml``, each named ``<fingerprint>.toml``."""

_FINGERPRINT = re.compile(r"^[0-9a-f]{64}$")


SHIPPED: Path | None = None
"""The project's own cards.toml as :func:`find` reads it (``None``: :data:`pnp.resources.BUNDLED_DATABASE`)."""


def folder() -> Path:
    """The user's folder of kept databases: ``user_data_dir("lassadar")/databases``."""
    import platformdirs

    return Path(platformdirs.user_data_dir("lassadar")) / "databases"


def keep(db: Database) -> str | None:
    """Keep a copy of ``db``'s file named by its fingerprint, once (a file already there is left as it
    is); written whole or not at all. Never raises: returns why no copy could be kept (``None`` when one
    is, or the project ships this database), so that ``new`` can say that an edit of the database would
    then stop the game."""
    if not db.source or not _FINGERPRINT.match(db.fingerprint):
        return None
    target = folder() / f"{db.fingerprint}.toml"
    if (BUNDLED / target.name).exists():
        return None
    if target.is_file():
        with contextlib.suppress(OSError):
            os.utime(target)  # a game plays with it: kept longest
        return None
    for place in (target.parent, *target.parent.parents):  # a file where a folder must be: said as such (fifteenth breaker)
        if place.exists() or place.is_symlink():
            if not place.is_dir():
                return f"{shown_file(place)} is a file, not a folder: move it away"
            break
    if target.exists() and not target.is_file():
        return f"{shown_file(target)} is a folder or another kind of file, not a copy of a database: move it away"
    try:
        keep_file(target, db.source, None)  # never pruned: a game in progress may need any of them (thirteenth breaker)
    except OSError as error:
        return f"{shown_file(target.parent)}: {error.strerror or error}"
    return None


def missing(fingerprint: object) -> str:
    """Why no database with ``fingerprint`` can be found (:func:`find` gave ``None``), in words for a
    refusal: no copy kept, or the copy kept no longer that database (edited by hand)."""
    if isinstance(fingerprint, str) and _FINGERPRINT.match(fingerprint):
        path = folder() / f"{fingerprint}.toml"
        if path.is_file():
            return f"the copy kept in {shown_file(path)} has been changed since (it is no longer that database); put it back as it was"
        if path.exists():
            return f"where its copy is kept, {shown_file(path)} is a folder or another kind of file, not the database: put the copy back there"
    return "no copy of the one it was played with is kept"  # (referee.save.NO_COPY_KEPT)


def find(fingerprint: object) -> Database | None:
    """The database whose fingerprint is ``fingerprint`` (a save's ``database`` line), from the user's
    kept copies, the project's bundled earlier versions or its own ``cards.toml``; ``None`` when there is none, or when the copy
    no longer loads or no longer has that fingerprint (an edited copy, a schema that changed since)."""
    if not isinstance(fingerprint, str) or not _FINGERPRINT.match(fingerprint):
        return None
    for place in (folder(), BUNDLED):
        path = place / f"{fingerprint}.toml"
        if not path.is_file():
            continue
        try:
            found = database.load(path)
        except database.DatabaseError:
            continue
        if found.fingerprint == fingerprint:
            if place != BUNDLED:
                with contextlib.suppress(OSError):
                    os.utime(path)  # used: kept longest
            return found
    # the project's own cards.toml, as shipped: a game started with it is read with another --db by a user who kept no
    # copy (thirty-fourth breaker, MED 9: "no copy kept", yet the referee ships it)
    from pnp.resources import BUNDLED_DATABASE

    try:
        shipped = database.load(SHIPPED or BUNDLED_DATABASE)
    except (database.DatabaseError, OSError):
        return None
    return shipped if shipped.fingerprint == fingerprint else None
