"""The Next line's contract, shared by both referees: the command lines it offers and their placeholders.

Every command the referee tells a player to type is written in back quotes inside the Next line
(`` `referee solo draw` ``). A command may hold placeholders, upper-case words the player replaces
with what the table shows; everything else in it is typed as printed. The Next line is a contract:
each command it offers works when typed, with its placeholders filled in as :data:`PLACEHOLDERS`
describes (the property tests in ``tests/test_next_line_*.py`` play whole games that way).

This module only reads lines; it knows no rules and prints nothing.
"""
from __future__ import annotations

import re

PLACEHOLDERS: dict[str, str] = {
    "D": "one die as rolled, 1-6; `D,D` is two dice, one D per die to type",
    "CARD": "the quest card you turned over from your own deck (its id or name)",
    "SERVANT": "a servant card you turned over: the id printed in its footer (ghast-2; cards of one name differ)",
    "SPELL": "one of the spells the line names (its name or id)",
    "HEX": "a hex on the battle map within your reach (e.g. C4)",
    "LOCATION": "a Location in the row (its name or its number in the row)",
    "SEAL": "the seal your own device printed with `seal`",
    "OPENING": "the opening your own device printed with `seal`",
    "DIFFICULTY": "the solo game's difficulty you choose: beginner, normal or advanced (`new --help`)",
    "SPELLS": "the solo game's two starting spells you choose, by name, separated by a comma: bind,shield (`new --help`)",
}
"""The placeholders a Next-line command may hold, and what to type in their place."""

_COMMAND = re.compile(r"`(referee [^`]+)`")
_PLACEHOLDER = re.compile(r"(?<![\w-])(" + "|".join(sorted(PLACEHOLDERS, key=len, reverse=True)) + r")(?![\w-])")


def commands_in(line: str) -> list[str]:
    """The command lines a Next line offers, in order: every back-quoted text that starts with ``referee``.

    ``"Draw: `referee solo draw` or `referee solo draw --card CARD`."`` ->
    ``["referee solo draw", "referee solo draw --card CARD"]``."""
    return _COMMAND.findall(line)


def placeholders_in(command: str) -> list[str]:
    """The placeholders of one command line, in order, each as often as it appears
    (``"referee solo battle --dice D,D --enemy D,D,D"`` -> five ``"D"``)."""
    return _PLACEHOLDER.findall(command)


def dice_placeholder(count: int) -> str:
    """``count`` dice to type, as a Next-line placeholder: ``D,D`` for two."""
    return ",".join(["D"] * count)
