"""The constraints of the schema's annotations, for pydantic: imported only when a file is checked.

:mod:`pnp.database.schema` writes every record as a plain frozen dataclass whose annotations name the
ranges (``Annotated[int, Field(ge=1, le=3)]``, ``Text``, ``Amount``); they are strings until pydantic
reads them. Importing this module defines the text and number types and puts them, with pydantic's
``Field`` and ``AfterValidator``, into the schema's namespace, where pydantic resolves the annotations;
:func:`adapter` gives the validator of a schema class. The referee reads databases from the cache
(:func:`pnp.database.loader.cached`) and never imports this module or pydantic.
"""
from __future__ import annotations

import functools
import unicodedata
from typing import Annotated, Any

from pydantic import AfterValidator, Field, StringConstraints, TypeAdapter

from pnp.database import schema

BLANK_LETTERS = frozenset("\u115f\u1160\u2800\u3164\uffa0")
"""Letters and signs that print as nothing although they are neither spaces nor format characters: the Hangul fillers
and the blank Braille pattern (as :data:`referee.duel.game.BLANK_LETTERS` refuses them alone in a player's name)."""

_PRINTING_NOTHING = frozenset({"Zs", "Zl", "Zp", "Cc", "Cf"})
"""Unicode categories of characters that put no ink on a card: spaces, line and paragraph separators, controls and
format characters (a soft hyphen U+00AD, a zero width space U+200B, a joiner)."""


class PrintsNothing(ValueError):
    """A card text holding characters none of which prints (:func:`prints_something`): ``text`` the text, and
    ``empty_allowed`` whether its field may be ``""`` instead (a :data:`PrintedNote`)."""

    def __init__(self, text: str, empty_allowed: bool = False):
        super().__init__(f"prints nothing: {text!r}")
        self.text, self.empty_allowed = text, empty_allowed


def prints_something(text: str) -> bool:
    """Whether ``text`` has a character that puts ink on a card: one that is no space (U+0020, U+3000 ...), line or
    paragraph separator, control or format character (U+00AD soft hyphen, U+200B zero width space) and none of
    :data:`BLANK_LETTERS` (thirty-first breaker, finding 23: such a text passed as a title or a flavour line and
    printed nothing, while "" is refused). A combining mark alone prints (an accent)."""
    return any(unicodedata.category(char) not in _PRINTING_NOTHING and char not in BLANK_LETTERS for char in text)


def _printing(text: str) -> str:
    """``text`` unchanged when something of it prints (:func:`prints_something`); raises :class:`PrintsNothing`."""
    if not prints_something(text):
        raise PrintsNothing(text)
    return text


def _empty_or_printing(text: str) -> str:
    """``text`` unchanged when it is empty or something of it prints; raises :class:`PrintsNothing`."""
    if text and not prints_something(text):
        raise PrintsNothing(text, empty_allowed=True)
    return text


Text = Annotated[str, StringConstraints(pattern=r"\S", max_length=schema.TEXT_LIMIT), AfterValidator(_printing)]
"""A printed text: a string with at least one character that prints (:func:`prints_something`; "" and " " are
refused by the pattern, a soft hyphen or zero width space alone by the validator), at most
:data:`~pnp.database.schema.TEXT_LIMIT` characters."""
PrintedNote = Annotated[str, StringConstraints(max_length=schema.TEXT_LIMIT), AfterValidator(_empty_or_printing)]
"""A printed text that may be left empty (a servant's flavour line, a Location's text, a table row's name): ``""``
prints nothing on purpose; a text that is not empty must print something (:func:`prints_something`)."""
Note = Annotated[str, StringConstraints(max_length=schema.TEXT_LIMIT)]
"""A text never printed that may be empty (a record's note, a map's layout name), at most ``TEXT_LIMIT``
characters."""
Reference = Annotated[str, StringConstraints(max_length=100)]
"""The id of another record (at most 100 characters, as an id)."""
Amount = Annotated[int, Field(ge=-99, le=99)]
"""A change of a track, a bonus or a number of dice or hit points (-99 to 99): the tracks of both
games run 0 to about 20, so 99 either way already empties or fills any of them."""
Small = Annotated[int, Field(ge=0, le=20)]
"""A count of dice, hexes or cards (0 to 20): the games roll at most 9 dice and move a few hexes;
the referee rolls and searches as many as this says, so it stays small."""
Number = Annotated[int, Field(ge=0, le=99)]
"""A space, a position, a cost or a count of cards (0 to 99): the longest track has 20 spaces."""
Colour = Annotated[str, StringConstraints(pattern=schema.COLOUR_PATTERN, max_length=7), AfterValidator(str.lower)]
"""A printed colour, ``#rrggbb``, kept in lower case as the drawing takes it (thirty-fifth pnp breaker, LOW 17: upper
case was refused where lower-casing it would do)."""

vars(schema).update(Text=Text, PrintedNote=PrintedNote, Note=Note, Reference=Reference, Amount=Amount, Small=Small, Number=Number,
                    Colour=Colour, Field=Field, AfterValidator=AfterValidator)


@functools.cache
def adapter(model: Any) -> TypeAdapter:
    """The pydantic validator of ``model`` (a schema class, or a type made of them such as
    ``dict[Literal["solo", "duel"], Game]``), built once a process (building one costs milliseconds)."""
    return TypeAdapter(model)
