"""The loaded card database (:class:`Database`), :func:`load`, and the cache of databases checked.

:func:`load` reads a file and gives its :class:`Database` from the user's cache when the same bytes were checked by the
same code before (every referee command: a few ms), else has :mod:`pnp.database.loader` check it (syntax, the schema,
the checks across records: tomllib, pydantic and :mod:`pnp.database.checks`, imported only then) and keeps the result.
This module is apart from the loader so that a command reading a cached database imports none of the checking
(issue 14: a one-shot referee command at most twice ``python -c "import click"``).
"""
from __future__ import annotations

import dataclasses
import functools
import hashlib
import hmac
import os
import re
import sys
from collections.abc import Iterator
from dataclasses import field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pnp import resources
from pnp.database.errors import DatabaseError, Problem
from pnp.database.schema import Duel, Game, PrintSettings, Record, Solo, Table
from pnp.deferred import dataclass
from pnp.files import FileRefused, cache_key, keep_signed, read_limited, read_signed, shown_path
from pnp.oneline import shown_file

if TYPE_CHECKING:
    from pnp.database.lines import LineIndex

MAX_FILE_BYTES = 1_000_000
"""The largest card database read, in bytes: the bundled one is under 50 KB. A bigger file is refused
in one line before it is parsed, so no file can make ``pnp`` or the referee exhaust memory."""


# ---- The loaded database -----------------------------------------------------------------------------------
@dataclass(frozen=True)
class Database:
    """A loaded, validated ``cards.toml``.

    ``fingerprint`` is the SHA-256 of the game content (every section but ``[print]``, as canonical
    JSON, so comments, formatting and print settings do not change it); save files record it; ``solo`` and ``duel``
    hold the records by kind; :meth:`records` yields every record with an id, in file order.
    """

    path: Path
    fingerprint: str
    print: PrintSettings
    games: dict[str, Game]
    solo: Solo
    duel: Duel
    _by_id: dict[str, Record] = field(default_factory=dict, repr=False)
    _where: dict[str, tuple[Any, ...]] = field(default_factory=dict, repr=False)
    _lines: LineIndex | None = field(default=None, repr=False)
    source: bytes = field(default=b"", repr=False)
    """The file's bytes as read (the referee keeps a copy of the database a game started with)."""

    def records(self) -> Iterator[Record]:
        """Every record with an id, game by game and kind by kind, in file order."""
        for game in (self.solo, self.duel):
            for name in (f.name for f in dataclasses.fields(game)):
                value = getattr(game, name)
                if isinstance(value, tuple):
                    yield from value

    def get(self, record_id: str) -> Record:
        """The record with ``record_id``. Raises ``KeyError`` naming the id when there is none."""
        try:
            return self._by_id[record_id]
        except KeyError:
            raise KeyError(f"no record with id {record_id!r}") from None

    def find(self, record_id: str) -> Record | None:
        """The record with ``record_id``, or ``None`` when there is none (a dictionary look-up: the
        referee's rules ask it millions of times while they search lines of aid)."""
        return self._by_id.get(record_id)

    def table(self, table_id: str) -> Table:
        """The rules table ``table_id``. Raises ``KeyError`` when there is none or it is not a table."""
        record = self.get(table_id)
        if not isinstance(record, Table):
            raise KeyError(f"{table_id!r} is a {record.kind}, not a table")
        return record

    def line_of(self, record_id: str, key: str = "") -> int:
        """The 1-based line of ``cards.toml`` holding ``key`` of record ``record_id`` (its header if not found);
        ``record_id`` may also name a section that is no record: ``print``, ``games``, ``solo.rules``, ``duel.rules``.

        ``key`` is a dotted path with list indexes, e.g. ``"sections[0].text"``. Returns 0 when the
        record is unknown or the database was not loaded from text.
        """
        if self._lines is None:
            return 0
        if record_id in ("print", "games", "solo.rules", "duel.rules"):  # the settings sections, not records
            section = tuple(record_id.split("."))
            return self._lines.line_of(section + tuple(key.split(".")) if key else section)
        if record_id not in self._where:
            return 0
        parts: list[Any] = []
        for piece in re.findall(r"[^.\[\]]+|\[\d+\]", key):
            parts.append(int(piece[1:-1]) if piece.startswith("[") else piece)
        return self._lines.line_of(self._where[record_id] + tuple(parts))

    def tables(self) -> list[Table]:
        """Every rules table of both games."""
        return list(self.solo.table + self.duel.table)




# ---- Loading ----------------------------------------------------------------------------------------------
FILE_REMEDIES = {
    "--db": "; give --db a card database file",
    "$LASSADAR_DB": "; point $LASSADAR_DB at a card database file (a cards.toml), or unset it",
    "default": "; remove or rename it, or give --db a card database file",
}
"""What would be right, by where the path of a file that is no card database (a folder, a device) came from: ``--db``,
the variable, or found by default in the current folder (``./cards.toml``): :func:`pnp.resources.database_source`.
Forty-third referee breaker, F6: `$LASSADAR_DB=/dev/null` was told to remove or rename /dev/null."""


def load(path: str | Path, cache: bool = True, source: str = "--db") -> Database:
    """Read and validate a card database file.

    Returns a :class:`Database`. Raises :class:`DatabaseError` listing every problem found (syntax,
    unknown or missing keys, wrong types, duplicate ids, dangling references, tables that do not
    cover their rolls, bad hex maps, wrong deck sizes); an unreadable file is one problem too.

    With ``cache``, a file checked before (the same bytes, checked by the same code) is read from the
    user's cache (:func:`cached`, a few ms instead of about 100: every referee command loads the
    database), and a file checked now is kept there (:func:`keep`). ``source`` says where ``path`` came from (a key of
    :data:`FILE_REMEDIES`): a path that is no file is refused with what to do there.
    """
    path = Path(path)
    name = shown_path(path)
    try:
        raw = read_limited(path, MAX_FILE_BYTES, "a card database")
    except FileRefused as error:
        size_hint = " (the bundled one is under 50 KB)" if error.too_large else ""
        # what would be right, as every refusal says it (forty-second referee breaker, LOW 8: a ./cards.toml folder)
        remedy = "" if error.too_large else FILE_REMEDIES.get(source, FILE_REMEDIES["--db"])
        raise DatabaseError([Problem(name, 0, "file", f"{error}{size_hint}{remedy}")]) from None
    except OSError as error:
        if os.path.islink(path) and not os.path.exists(path):  # where it points, not "No such file" of a name that is there
            raise DatabaseError([Problem(name, 0, "file", f"is a symbolic link to {shown_file(Path(os.readlink(path)))}, which "
                                                          f"does not exist (or is a loop of links): point it at a card database, "
                                                          f"or remove it")]) from None
        raise DatabaseError([Problem(name, 0, "file", f"cannot read: {error.strerror or error}")]) from None
    found = cached(raw, path) if cache else None
    if found is not None:
        return found
    from pnp.database import loader  # the checking: tomllib, pydantic and the checks, none of them needed by a cached file

    database = loader._checked(path, name, raw)
    if cache:
        keep(raw, database)
    return database


# ---- The cache of databases checked --------------------------------------------------------------------
CACHE_KEPT = 16
"""How many checked databases the cache keeps (the oldest go first): a designer trying edits makes many."""


@functools.cache
def _code_revision() -> bytes:
    """What a checked database depends on besides its bytes: the checking code (this package's sources),
    the icons it may name (``templates/icons``) and Python's version; a cache entry of another is stale."""
    digest = hashlib.sha256(sys.version.encode())
    for source in sorted(Path(__file__).parent.glob("*.py")):
        digest.update(source.name.encode() + b"\0" + source.read_bytes())
    digest.update(" ".join(sorted(p.name for p in resources.ICON_DIR.glob("*"))).encode())
    return digest.digest()


def _cache_file(raw: bytes) -> Path:
    import platformdirs

    name = hashlib.sha256(_code_revision() + raw).hexdigest()
    return Path(platformdirs.user_cache_dir("lassadar")) / "databases" / f"{name}.pickle"


def cached(raw: bytes, path: Path) -> Database | None:
    """The database of the file bytes ``raw`` (read from ``path``) as checked before and kept by
    :func:`keep`, or ``None``: none kept, or an entry that is stale or corrupt (then checked again and kept
    anew, silently). An entry is trusted only with a digest of this user's key (:func:`pnp.files.cache_key`):
    another user's file in the cache folder is never read as data to unpickle."""
    key = cache_key()
    if key is None:
        return None
    database = read_signed(_cache_file(raw), lambda pickled: _digest(key, raw, pickled))
    if not isinstance(database, Database):
        return None
    database.__dict__["path"] = path  # the frozen record is this call's own (just unpickled): no __init__ run for it,
    return database  # no record class's methods written (pnp.deferred, issue 14)


def _digest(key: bytes, raw: bytes, pickled: bytes) -> bytes:
    """The digest that vouches for a cache entry: this user's ``key`` over the file bytes ``raw`` the entry
    stands for and the ``pickled`` database, so an entry copied under another file's name (a backup, a
    sync tool, twelfth breaker) is never taken for that file."""
    return hmac.new(key, hashlib.sha256(raw).digest() + pickled, hashlib.sha256).digest()


def keep(raw: bytes, database: Database) -> None:
    """Keep ``database``, checked from the file bytes ``raw``, for :func:`cached`: written whole or not at
    all (a temporary file renamed); at most :data:`CACHE_KEPT` entries. Never fails: a cache that cannot be
    written is only slower."""
    key = cache_key()
    if key is None:
        return
    keep_signed(_cache_file(raw), database, lambda pickled: _digest(key, raw, pickled), CACHE_KEPT)
