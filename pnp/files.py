"""Reading a file a user names (a card database, a save file) without trusting what it is.

A path given on the command line or in an environment variable may name a device (``/dev/zero``,
``/dev/full``), a pipe or a folder, which a plain ``read_bytes`` reads forever, blocks on, or fails on
with an unclear message. :func:`read_limited` reads a regular file of at most a given size and refuses
anything else in words.
"""
from __future__ import annotations

import os
import stat
from pathlib import Path


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
        raise FileRefused(f"is not a regular file (a device or a pipe), so it is no {what.removeprefix('a ')}")
    with open(path, "rb") as file:
        data = file.read(limit + 1)
    if len(data) > limit:
        raise FileRefused(f"is larger than {limit:,} bytes: too large for {what}", too_large=True)
    return data


def shown_path(path: Path) -> str:
    """``path`` as an error line names it (``FILE:LINE: ...``): relative to the current folder when it
    lies inside it (``cards.toml``, ``mods/cards.toml``), else as given (``/tmp/shared/cards.toml``), so
    the line names the very file read, whichever way it was chosen (``--db``, ``$LASSADAR_DB``)."""
    try:
        return str(Path(os.path.abspath(path)).relative_to(Path.cwd()))
    except (ValueError, OSError):  # outside the current folder, or no current folder any more
        return str(path)
