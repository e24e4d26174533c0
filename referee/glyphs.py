"""The few characters outside ASCII the referee prints, and the one question asked before printing one.

The referee draws a Location's track with ``·`` (an empty space) and ``■`` (the cube), separates the items of the solo
map's legend with ``·``, and ends a shortened refusal with ``…``. A terminal or file whose encoding cannot write such
a glyph (``PYTHONIOENCODING=ascii``, a cp1252 console: ``■`` is not in cp1252) would show ``?`` in its place, so every
one of them is printed through :func:`glyph`, which gives the plain ASCII form instead (``.``, ``S``/``W``, ``;``,
``...``), as piped output draws the board (thirty-second breaker, MED 1: the tracks printed ``?????`` on an ASCII
terminal and ``···?·`` on a cp1252 one; only piped output was plain). The question is the output's encoding, never
whether it is a terminal.
"""
from __future__ import annotations

import codecs
from typing import Any

__all__ = ["EMPTY_SPACE", "CUBE", "LEGEND_SEPARATOR", "ELLIPSIS", "encodes", "glyph", "encoding_of"]

EMPTY_SPACE = "·"
"""An empty space of a Location's track on the duel's board (plain: ``.``)."""
CUBE = "■"
"""A side's cube on a Location's track (plain: ``S`` for the Shadowmajik, ``W`` for the Wardens)."""
LEGEND_SEPARATOR = " · "
"""Between the items of the solo map's legend (plain: ``; ``)."""
ELLIPSIS = "…"
"""The end of a text cut short, and a number left out of a hidden placing's refusal (plain: ``...``)."""


def encodes(text: str, encoding: str) -> bool:
    """Whether every character of ``text`` can be written in ``encoding`` (a codec name as Python knows it:
    ``"utf-8"``, ``"ascii"``, ``"cp1252"``; rich's ``Console.encoding``, prompt_toolkit's ``Output.encoding()``).
    An encoding Python does not know is taken as one that writes nothing but ASCII safely: False for any
    other character."""
    try:
        codecs.lookup(encoding)
        text.encode(encoding)
    except (LookupError, UnicodeEncodeError, TypeError):
        return text.isascii()
    return True


def glyph(fancy: str, plain: str, encoding: str) -> str:
    """``fancy`` (one glyph or several drawn together) when output in ``encoding`` can write every character of it,
    else its ASCII form ``plain``: ``glyph("·", ".", "ascii")`` -> ``"."``; ``glyph("…", "...", "utf-8")`` -> ``"…"``."""
    return fancy if encodes(fancy, encoding) else plain


def encoding_of(stream: Any) -> str:
    """The encoding text written to ``stream`` (``sys.stderr``, a file) is encoded in: its ``encoding``, else
    ``"utf-8"`` (a stream that takes text without encoding it, such as a test's ``StringIO``)."""
    return getattr(stream, "encoding", None) or "utf-8"
