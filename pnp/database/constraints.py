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
from typing import Annotated, Any

from pydantic import AfterValidator, Field, StringConstraints, TypeAdapter

from pnp.database import schema

Text = Annotated[str, StringConstraints(pattern=r"\S", max_length=schema.TEXT_LIMIT)]
"""A printed text: any string with at least one character that is not a space, at most
:data:`~pnp.database.schema.TEXT_LIMIT` characters."""
Note = Annotated[str, StringConstraints(max_length=schema.TEXT_LIMIT)]
"""A text that may be empty (a note, a servant's flavour text), at most ``TEXT_LIMIT`` characters."""
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

vars(schema).update(Text=Text, Note=Note, Reference=Reference, Amount=Amount, Small=Small, Number=Number,
                    Field=Field, AfterValidator=AfterValidator)


@functools.cache
def adapter(model: Any) -> TypeAdapter:
    """The pydantic validator of ``model`` (a schema class, or a type made of them such as
    ``dict[Literal["solo", "duel"], Game]``), built once a process (building one costs milliseconds)."""
    return TypeAdapter(model)
