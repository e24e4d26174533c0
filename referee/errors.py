"""The errors of the referees, one tree for both games (as :mod:`pnp.database` has ``DatabaseError``).

This module owns the roots only; each error is raised where its problem is found:

- :class:`RefereeError` (a ``ValueError``): every problem the referee reports to a player in one line
  (``str(error)``); a front end that catches it changes nothing and prints that line.
- :class:`ParseError`: input that does not describe an event at all (python-chess's *invalid* move): an
  event table of a save file that names no event or holds a wrong value
  (:class:`referee.events.EventError`), dice off the die or not the seed's
  (:class:`referee.dice.DiceError`), a duel assignment text that reads as none.
- :class:`RuleError`: a well-formed event the rules refuse now (python-chess's *illegal* move). Each
  game's rules raise their own subclass (:class:`referee.solo.rules.RuleError`,
  :class:`referee.duel.rules.RuleError`, which carries the refusal's kind, side and field), and each
  game's ``refusal_text`` turns it into the line a player reads.
- :class:`referee.save.SaveError`: a save file that cannot be read or written (a subclass of
  :class:`RefereeError` defined beside the file format).
"""
from __future__ import annotations

import re


class RefereeError(ValueError):
    """Anything the referee refuses or cannot read: ``str(error)`` is one line for the player."""


def undisclosed(message: str, typed: str = "") -> str:
    """A refusal of hidden input (a duel placing) as the shared screen may show it: what was typed left out.
    Refusals quote it in single quotes (``not '56'``): a quoted text is left out unless it is an option's name
    (``Missing option '--player'``) or, with ``typed``, words that were not typed (the choices click lists);
    with ``typed`` (the hidden text), every number-bearing word of it found anywhere in
    the message is left out too, whatever the parser made of it (seventeenth breaker: click's "Got unexpected
    extra arguments (battle 4,3 power 2)" and a double-quoted echo showed a placing). The referee's own words
    and examples, in back quotes, stay (``place one active die: `power N` ...``) unless they hold such a word."""
    def hide(quoted: re.Match) -> str:
        text = quoted.group(0)
        if re.fullmatch(r"'--[a-z][a-z-]*'", text) or (typed and text[1:-1].strip().lower() not in typed.lower()):
            return text  # an option's name, or words of the referee's own (the choices of a click option)
        return "(what you typed)"

    masked = re.sub(r"'[^']*'", hide, message)
    words = sorted({word.strip(",;:()[]\"'") for word in re.findall(r"\S*\d\S*", typed)} - {""}, key=len, reverse=True)
    for word in words:
        masked = re.sub(rf"(?<![\w,]){re.escape(word)}(?![\w,])", "…", masked)
    return masked


class ParseError(RefereeError):
    """Input that does not describe an event: a bad table, value, text or die (*invalid*, not *illegal*)."""


class RuleError(RefereeError):
    """A well-formed event the rules do not allow now (*illegal*); each game raises its own subclass."""


def check_keys(table: dict[str, object], allowed: tuple[str, ...], where: str) -> None:
    """Raise :class:`ParseError` when ``table`` (a table read from a save file) holds a key not in
    ``allowed``: a hand-edited save (``mana = 999``) is refused in one line, never silently ignored.
    ``where`` names the table (``[setup]``)."""
    unknown = [key for key in table if key not in allowed]
    if unknown:
        from pnp.oneline import quoted

        raise ParseError(f"{where} has an unknown key {quoted(unknown[0], 40)}: it holds only {', '.join(allowed)}")
