"""The card database: ``cards.toml`` read, validated and turned into typed, frozen records.

``from pnp import database; db = database.load("cards.toml")`` gives a :class:`Database`, or raises
:class:`DatabaseError` listing every problem at once, each as ``cards.toml:LINE: key.path: what is
wrong``. It never raises anything else for a bad file. The package is made of:

- :mod:`pnp.database.schema`: one frozen dataclass per record kind (the shape of the file);
- :mod:`pnp.database.constraints`: the ranges of the schema, for pydantic (only when a file is checked);
- :mod:`pnp.database.lines`: the line of a key path in the TOML text;
- :mod:`pnp.database.loaded`: :func:`load`, the loaded :class:`Database` and the cache of databases checked;
- :mod:`pnp.database.loader`: the reading and validation of a file not checked before;
- :mod:`pnp.database.checks`: the checks across records (references, coverage, deck sizes, maps);
- :mod:`pnp.database.errors`: :class:`Problem` and :class:`DatabaseError`.

Game numbers live in ``cards.toml``, not here; this package only knows their shape. The rules they
follow come from the seeds: the rulebook (``docs/seeds/001_14b82cefec9e9fa1.txt``) for the solo
game and the publisher's description (``000_13dfdf9d0b0f4cfb.txt``) for the two-player game.
"""
from typing import Any

from pnp.database.errors import DatabaseError, Problem
from pnp.database.lines import LineIndex
from pnp.database.loaded import Database, load
from pnp.database.schema import (
                                 FORMAT,
                                 ROLL_RANGES,
                                 Back,
                                 BattleMap,
                                 CardsFile,
                                 CityBattle,
                                 CityQuest,
                                 Cost,
                                 CouncilQuest,
                                 CounterCard,
                                 DiceKind,
                                 Duel,
                                 DuelRules,
                                 DuelSpell,
                                 Effect,
                                 Elder,
                                 Game,
                                 LastStand,
                                 Location,
                                 MapColor,
                                 Origin,
                                 PlaceName,
                                 PlayerCard,
                                 PrintSettings,
                                 ProgressTrack,
                                 QuestCard,
                                 Record,
                                 Resonance,
                                 Servant,
                                 ServantType,
                                 Side,
                                 Solo,
                                 SoloRules,
                                 Spell,
                                 SpellPath,
                                 SpellType,
                                 Stats,
                                 Summary,
                                 SummarySection,
                                 Table,
                                 TableCard,
                                 TableRow,
                                 Track,
                                 WardingCity,
                                 WardingKey,
)

__all__ = [
    "load", "Database", "DatabaseError", "Problem", "LineIndex", "CROSS_CHECKS", "NUMBER_WORDS",
    "TRACK_WORDS", "Effect", "PrintSettings", "Game", "Record", "TableRow", "Table", "Back", "TableCard",
    "SoloRules", "WardingKey", "Stats", "SpellPath", "Cost", "Spell", "PlaceName", "ProgressTrack", "Servant",
    "BattleMap", "QuestCard", "CityBattle", "CityQuest", "CouncilQuest", "Elder", "WardingCity", "LastStand",
    "CounterCard", "Solo", "DuelRules", "Location", "DuelSpell", "PlayerCard", "SummarySection", "Summary",
    "Duel", "CardsFile", "FORMAT", "Origin", "SpellType", "ServantType", "MapColor", "Track",
    "Resonance", "Side", "DiceKind", "ROLL_RANGES",
]

_FROM_CHECKS = ("CROSS_CHECKS", "NUMBER_WORDS", "TRACK_WORDS")
"""Names given from :mod:`pnp.database.checks` when asked for: a database read from the cache imports no checks (issue 14)."""


def __getattr__(name: str) -> Any:
    if name in _FROM_CHECKS:
        from pnp.database import checks

        return getattr(checks, name)
    raise AttributeError(f"module 'pnp.database' has no attribute {name!r}")
