"""How a bad ``cards.toml`` is reported: :class:`Problem` (one line each) and :class:`DatabaseError`.

Every problem names the file, the 1-based line, the key path and what is wrong, as ``cards.toml:LINE:
key.path: what is wrong`` (shared/DESIGN.md, "The card database"). Nothing in :mod:`pnp.database`
raises anything else for a bad file.
"""
from __future__ import annotations

from pnp.deferred import dataclass
from pnp.oneline import shortened, shown_file


@dataclass(frozen=True)
class Problem:
    """One problem in the database file, printed as ``file:line: key: message``.

    ``file`` is the file name (no folder), ``line`` the 1-based line (0 when the file cannot be read),
    ``key`` the dotted key path (a record's id stands for ``game.kind[n]``), ``message`` what is wrong
    and, where it can, what would be right.
    """

    file: str
    line: int
    key: str
    message: str

    def __str__(self) -> str:
        """One short line, whatever the file holds: the name, key and message are cut and escaped by
        :func:`pnp.oneline.shortened` (a key holds ids as the user wrote them, a message may quote a value), the
        file's name first written as :func:`pnp.oneline.shown_file` writes it (``$'...'`` where the output's encoding
        cannot write it as its bytes)."""
        line = f":{self.line}" if self.line else ""  # 0: the file as a whole (a folder, empty), no line of it (fortieth pnp breaker)
        return f"{shortened(shown_file(self.file), 300)}{line}: {shortened(self.key, 120)}: {shortened(self.message, 400)}"


class DatabaseError(ValueError):
    """The database file cannot be used. ``problems`` lists every problem found, in file order (the first
    few hundred: ``unlisted`` counts the rest).

    ``str(error)`` is one line per problem, ready to print.
    """

    def __init__(self, problems: list[Problem], unlisted: int = 0):
        self.problems = sorted(problems, key=lambda p: (p.line, p.key, p.message))
        self.unlisted = unlisted
        """How many more problems were found and not listed (:data:`pnp.database.loader.MAX_LISTED`)."""
        super().__init__("\n".join(str(p) for p in self.problems))
