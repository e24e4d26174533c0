"""The rules of *The Grayking is Risen*: pure functions of (state, database, event).

This module owns every rule the solo referee applies. Sections of the rulebook seed
(``docs/seeds/001_14b82cefec9e9fa1.txt``) are cited in each docstring; where the rulebook is silent
the function follows ``docs/rulings.md`` and cites the ruling (R1, R2 ...). Numbers and tables come
from the database (``cards.toml``), never from here.

The python-chess split: :func:`new_game` makes the setup state; ``legal_*`` and :func:`options` say
what may be done; :func:`apply` applies one event (a fully or partly resolved command) and returns the
new state, or raises :class:`RuleError` with one line naming the argument and what would be right,
leaving the old state untouched; :func:`resolve` fills in every die and card the referee supplied,
by value, for the save file. Nothing here does I/O.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable
from contextvars import ContextVar
from typing import Any

from pnp.database import BattleMap, CityQuest, CouncilQuest, Database, Effect, Elder, QuestCard, Spell, Table, WardingCity
from referee.dice import Dice, DiceError, shuffled
from referee.solo import events as ev
from referee.solo.state import BattleState, Pending, Setup, State, Suspended, replace


class RuleError(ValueError):
    """A command that the rules do not allow now; ``str(error)`` is one line for the player."""


class _NeedCard(Exception):
    """Raised inside :func:`apply` where the next quest card must be turned over from the player's own
    deck and the command named none (R7): :func:`apply` suspends the command (phase ``turn``)."""

    def __init__(self, state: State, what: str):
        super().__init__(what)
        self.state, self.what = state, what


# ---- Database look-ups ------------------------------------------------------------------------------------
def stats(db: Database):
    """The Character Stats card (tracks and Warding Keys)."""
    return db.solo.stats[0]


def track(db: Database):
    """The Grayking's Progress Track."""
    return db.solo.progress_track[0]


def lassadar(db: Database) -> int:
    """The last space of the Progress Track (Lassadar): reaching it loses (rulebook, Setup)."""
    return track(db).spaces


def spell(db: Database, spell_id: str) -> Spell:
    """The spell ``spell_id``; raises :class:`RuleError` when there is none."""
    found = next((s for s in db.solo.spell if s.id == spell_id), None)
    if found is None:
        raise RuleError(f"no spell {spell_id!r}; spells are: {', '.join(short_id(s.id) for s in db.solo.spell)}")
    return found


def quest(db: Database, card_id: str) -> QuestCard:
    """The quest card ``card_id``; raises :class:`RuleError` when there is none."""
    found = next((q for q in db.solo.quests if q.id == card_id), None)
    if found is None:
        raise RuleError(f"no quest card {card_id!r}")
    return found


def name(db: Database, record_id: str) -> str:
    """A card or spell as printed on the card (its name or title)."""
    record = db.get(record_id)
    return str(getattr(record, "name", None) or getattr(record, "title", record_id))


def short_id(record_id: str) -> str:
    """The last part of an id, as players type it: ``solo.spell.bind`` -> ``bind``."""
    return record_id.rsplit(".", 1)[-1]


def choices(db: Database, record_ids) -> str:
    """Cards or spells as printed, each with the short id to type: ``Bind (bind), Knot (knot)``."""
    return ", ".join(f"{name(db, i)} ({short_id(i)})" for i in record_ids)


def table_for(db: Database, icon: str) -> Table:
    """The rules table printed on the table card with ``icon`` (``win``: Battle Win, ``loss``: Battle Loss)."""
    card = next(c for c in db.solo.table_card if c.icon == icon)
    return db.table(card.table)


def quest_deck(db: Database) -> list[str]:
    """Every quest card id, once per printed copy (rulebook, Setup: "the remaining 22 Quest Cards")."""
    return [q.id for q in db.solo.quests for _ in range(q.copies)]


# ---- Tracks -------------------------------------------------------------------------------------------------
QUIET: ContextVar[bool] = ContextVar("quiet", default=False)
"""True while :mod:`referee.solo.aid` searches lines of play that are never shown: notes are not
written (they are not part of a state's value, so every state is the same but for its words)."""


def _note(state: State, *lines: str) -> State:
    if QUIET.get():
        return state
    return replace(state, notes=state.notes + tuple(line for line in lines if line))


def _lose(state: State, reason: str) -> State:
    """The game lost for ``reason`` (rulebook, Winning or Losing), unless it is already decided. In the
    Last Stand the game is already won with Barrier Lock: falling there loses only the Last Stand (R56)."""
    if state.result is not None:
        return state
    if state.phase == "stand" and state.last_stand is not None:
        return laststand.fall(state, reason)
    return _note(replace(state, result="lost", reason=reason, phase="over"), f"You have lost: {reason}.")


def _track_note(label: str, asked: int, before: int, after: int, low: int, high: int) -> str:
    """What a track move did, in words: the amount actually moved, and, when a track end cut it short, the
    amount asked and where the track ends (R1): ``Spirit +1 (of +4; the track ends at 21): ...``."""
    moved = after - before
    if moved == asked:
        return f"{label} {asked:+d}: move the {label} marker to {after}."
    end = f"the track ends at {high}" if asked > 0 else f"{label} stops at {low}"
    if moved == 0:
        return f"{label} {asked:+d}: nothing changes ({end}); the {label} marker stays on {after}."
    return f"{label} {moved:+d} (of {asked:+d}; {end}): move the {label} marker to {after}."


def adjust(state: State, db: Database, mana: int = 0, spirit: int = 0, grayking: int = 0) -> State:
    """Move the Mana, Spirit and Grayking markers, within the printed tracks; each note says what moved,
    with the amount asked when a track end cut it short.

    Rulebook, Setup and Winning or Losing: Spirit below 1 or the Grayking reaching Lassadar loses.
    R1: no track rises above its last printed space; Mana falls to 0 at the lowest (never negative).
    R2: the Grayking never moves back past the Tower of Ash (space 1).
    """
    high = stats(db).track_high
    low = stats(db).track_low
    if mana:
        new = max(0, min(high, state.mana + mana))
        note = _track_note("Mana", mana, state.mana, new, 0, high)
        if new == 0 and new != state.mana:
            note = note.replace("move the Mana marker to 0.", "Mana is empty (0).")
        state = _note(replace(state, mana=new), note)
    if spirit:
        new = max(0, min(high, state.spirit + spirit))
        if new >= low:
            state = _note(replace(state, spirit=new), _track_note("Spirit", spirit, state.spirit, new, low, high))
        else:
            state = _note(replace(state, spirit=new), f"Spirit {spirit:+d}: Spirit falls below {low}.")
            state = _lose(state, f"your Spirit fell below {low}")
    if grayking:
        end = lassadar(db)
        new = max(1, min(end, state.grayking + grayking))
        steps = abs(new - state.grayking)
        named = next((p.name for p in track(db).names if p.space == new), None)
        where = f"{named} (space {new})" if named else f"space {new}"
        toward = "toward Lassadar" if grayking > 0 else "away from Lassadar"
        short = "" if steps == abs(grayking) else f" (of {abs(grayking)}; the track ends at {where})"
        if new != state.grayking:
            state = _note(replace(state, grayking=new),
                          f"The Grayking moves {steps} {'space' if steps == 1 else 'spaces'} {toward}{short}: move the marker to {where}.")
        else:
            state = _note(state, f"The Grayking would move {abs(grayking)} {'space' if abs(grayking) == 1 else 'spaces'} {toward}, "
                                 f"but he is already at {where}, the end of the track: he stays.")
        if new >= end:
            state = _lose(state, "the Grayking reached Lassadar")
    return state


def apply_effect(state: State, db: Database, effect: Effect, next_value: int = 0) -> State:
    """Apply the track parts of an effect: ``mana``, ``spirit``, ``grayking``, the ``*_per_next`` parts
    (times the next card value) and ``grayking_per_two_spirit`` (per two Spirit actually gained, R36).
    Spell choices (``learn_spell``, ``learn_spells``) are left to the caller.
    """
    mana = effect.mana + effect.mana_per_next * next_value
    spirit = effect.spirit + effect.spirit_per_next * next_value
    before = state.spirit
    state = adjust(state, db, mana=mana, spirit=spirit, grayking=effect.grayking)
    if effect.grayking_per_two_spirit and state.result is None:
        gained = max(0, state.spirit - before)
        state = adjust(state, db, grayking=(gained // 2) * effect.grayking_per_two_spirit)
    return state


def recharge_problem(state: State, db: Database, spell_type: str) -> str | None:
    """Why recharging every spell of ``spell_type`` would bring nothing back (None when it brings back at
    least one used spell): not a spell type, no learned spell of that type, or none of them used. The blue
    cross (rulebook, phase a; R47) and the Last Stand's gray spaces (card text; R23) give a once-only
    recharge; one that recharges nothing is refused, not spent (R53)."""
    kind = spell_type.lower()
    types = [p.spell_type for p in db.solo.spell_path]
    if kind not in types:
        return f"{spell_type!r} is not a spell type; choose {', '.join(types)}"
    held = [s for s in state.spells if spell(db, s).spell_type == kind]
    if not held:
        return f"you have learned no {kind.capitalize()} spell; recharge a type you hold (R53)"
    if not any(s in state.used for s in held):
        used = ", ".join(name(db, s) for s in state.used) or "none"
        return (f"none of your {kind.capitalize()} spells ({', '.join(name(db, s) for s in held)}) is used, so the recharge would "
                f"bring nothing back and be spent for nothing (R53); used now: {used}")
    return None


# ---- Setup --------------------------------------------------------------------------------------------------
def legal_start(db: Database, first: str, second: str) -> bool:
    """Whether two spells are a legal start (rulebook, Setup; R3): two top spells of different types,
    or a top spell and a spell it opens."""
    try:
        a, b = spell(db, first), spell(db, second)
    except RuleError:
        return False
    if a.id == b.id or not (a.learnable and b.learnable):
        return False
    top_a, top_b = a.slot[0] == 1, b.slot[0] == 1
    if top_a and top_b:
        return a.spell_type != b.spell_type
    return (top_a and b.id in a.opens) or (top_b and a.id in b.opens)


def legal_starts(db: Database) -> list[tuple[str, str]]:
    """Every legal pair of starting spells, in database order (R3)."""
    ids = [s.id for s in db.solo.spell]
    return [(a, b) for i, a in enumerate(ids) for b in ids[i + 1:] if legal_start(db, a, b)]


def new_game(db: Database, difficulty: str, spells: Iterable[str], seed: int) -> State:
    """The state after Setup (rulebook, Setup).

    Mana and Spirit start on the stats card's highlighted space; the Grayking on the difficulty's
    start space (R2); the two starting spells are learned, paying any bracketed cost (R3); the quest
    deck is shuffle 0 of the seed. Raises :class:`RuleError` for an unknown difficulty or an illegal
    pair of spells.
    """
    starts = track(db).start
    if difficulty not in starts:
        raise RuleError(f"--difficulty: {difficulty!r} is not a difficulty; choose {', '.join(starts)}")
    spells = tuple(spells)
    if len(spells) != 2:
        raise RuleError(f"--spells: choose exactly two starting spells, not {len(spells)}")
    for spell_id in spells:
        spell(db, spell_id)
    if not legal_start(db, *spells):
        a, b = (spell(db, s) for s in spells)
        raise RuleError(f"--spells: {a.name} and {b.name} are not a legal start; take two top spells of different types, "
                        "or a top spell and a spell its arrows open (docs/rulings.md R3)")
    card = stats(db)
    state = State(setup=Setup(difficulty, spells, seed), mana=card.track_start, spirit=card.track_start,
                  grayking=starts[difficulty], deck=shuffled(seed, 0, quest_deck(db)), shuffles=1)
    # Down the paths: a top spell before the spell its arrow opens, whichever order they were named in.
    for spell_id in sorted(spells, key=lambda s: spell(db, s).slot[0]):
        state = _learn(state, db, spell_id, "cost")
    return replace(state, notes=(), consumed=())


# ---- Spell paths ---------------------------------------------------------------------------------------------
def _row_taken(db: Database, candidate, learned: set[str]) -> bool:
    """Whether a spell of ``candidate``'s type and row below the top is learned already (R4)."""
    return any(other.id in learned and other.spell_type == candidate.spell_type and other.slot[0] == candidate.slot[0]
               for other in db.solo.spell)


def closed_spells(db: Database, learned: Iterable[str]) -> set[str]:
    """Spells the learned ones have closed (rulebook, Setup: "because Hammer Plate was learned, the
    player may not go back and learn Brittle Knives"; R4): every unlearned spell below the top row of a
    row where a spell of its type is learned. One step is taken on each row of a path."""
    learned = set(learned)
    return {s.id for s in db.solo.spell
            if s.learnable and s.id not in learned and s.slot[0] > 1 and _row_taken(db, s, learned)}


def _opened(db: Database, spell_id: str, learned: set[str]) -> bool:
    """Whether a learned spell's arrow leads to ``spell_id`` and no spell of its row is learned (R4)."""
    candidate = spell(db, spell_id)
    return (any(o.id in learned and spell_id in o.opens for o in db.solo.spell)
            and not _row_taken(db, candidate, learned))


def learnable(state: State, db: Database) -> list[str]:
    """Spells the player may learn now, in database order (rulebook, Setup; R4): not learned, learnable
    (Barrier Lock is not, R12), and either a top spell or opened by a learned spell's arrow on a row
    where no spell of its type is learned yet."""
    learned = set(state.spells)
    return [s.id for s in db.solo.spell
            if s.learnable and s.id not in learned and (s.slot[0] == 1 or _opened(db, s.id, learned))]


def learn_price(db: Database, spell_id: str, price: str) -> tuple[int, int]:
    """(Mana, Spirit) to pay for learning a spell: one Mana at Battle Win row 4 (``one-mana``, R9), or its
    printed bracketed cost (``cost``, Council of Wardens, R37; nothing when it prints none)."""
    chosen = spell(db, spell_id)
    if price == "one-mana":
        return 1, 0
    return (chosen.learn_cost.mana, chosen.learn_cost.spirit) if chosen.learn_cost else (0, 0)


def learnable_now(state: State, db: Database) -> list[str]:
    """The spells the pending choice lets the player learn now (phase ``learn``): :func:`learnable`
    ones whose price the player's Mana can pay (R9, R37); empty outside that phase."""
    if state.pending is None:
        return []
    return [s for s in learnable(state, db) if learn_price(db, s, state.pending.price)[0] <= state.mana]


def _learn(state: State, db: Database, spell_id: str, price: str) -> State:
    """Learn a spell, paying one Mana (``one-mana``, Battle Win row 4, R9) or its bracketed cost (``cost``)."""
    chosen = spell(db, spell_id)
    if spell_id in state.spells:
        raise RuleError(f"you have already learned {chosen.name}")
    if spell_id not in learnable(state, db):
        why = "it is not learned along a path (R12)" if not chosen.learnable else "no learned spell's arrow leads to it, or a choice on its path closed it (R4)"
        options = ", ".join(name(db, s) for s in learnable(state, db)) or "none"
        raise RuleError(f"{chosen.name} cannot be learned: {why}; learnable now: {options}")
    mana, spirit = learn_price(db, spell_id, price)
    if mana > state.mana:
        raise RuleError(f"learning {chosen.name} costs {mana} Mana; you have {state.mana}")
    state = _note(replace(state, spells=state.spells + (spell_id,)), f"You learn {chosen.name}: place a marker on it on the "
            f"{chosen.spell_type.capitalize()} Spell Path card.")
    return adjust(state, db, mana=-mana, spirit=-spirit)


# ---- Cards ------------------------------------------------------------------------------------------------------
def _take(state: State, db: Database, wanted: ev.CardRef | None, field: str, what: str) -> tuple[State, str | None]:
    """Take a card from the top of the quest draw pile (or the card the player typed), reshuffling the
    discard pile into a new pile first when the pile is empty (rulebook, Expanded Battles, 7; R7).
    Records the card in ``consumed`` under ``field``. Returns ``None`` when no card is left anywhere."""
    if not state.deck:
        if not state.discard:
            return _note(state, f"No quest card is left to turn over for {what}."), None
        order = shuffled(state.setup.seed, state.shuffles, state.discard)
        state = _note(replace(state, deck=order, discard=(), shuffles=state.shuffles + 1),
                      f"The Quest draw pile is exhausted: shuffle the discard pile ({len(order)} cards) to form a new draw pile.")
    named = state.battle.named_next if field == "next" and state.battle is not None else None
    if named is not None:  # named with the roll while aid could still turn it (R7)
        if wanted is not None and wanted.id != named.id:
            raise RuleError(f"--next: you named {name(db, named.id)} as the next card with the roll; it is turned over now, not {name(db, wanted.id)}")
        wanted = named
        state = replace(state, battle=replace(state.battle, named_next=None))
    if wanted is None:
        if field == "next" and state.own_deck:
            raise _NeedCard(state, what)
        card_id = state.deck[0]
        ref = ev.CardRef(card_id, False)
    else:
        card_id = wanted.id
        ref = wanted
        quest(db, card_id)
        if wanted.typed:
            if card_id not in state.deck:
                where = ("on the discard pile" if card_id in state.discard else "out of the game" if card_id in state.removed
                         else "on the table" if card_id in (state.card, *dict(state.elders)) else "not in the quest deck")
                raise RuleError(f"{name(db, card_id)} cannot be turned over from the Quest draw pile: it is {where}")
        elif state.deck[0] != card_id:
            raise RuleError(f"the referee's top card is {name(db, state.deck[0])}, not {name(db, card_id)} (corrupt save?)")
    index = state.deck.index(card_id)
    state = replace(state, deck=state.deck[:index] + state.deck[index + 1:], consumed=state.consumed + ((field, ref),))
    if field == "card":  # drawing from one's own deck means the next cards come from it too (R7)
        state = replace(state, own_deck=ref.typed)
    return state, card_id


def _turn_over_next(state: State, db: Database, wanted: ev.CardRef | None, what: str) -> tuple[State, QuestCard | None]:
    """Turn over the next card onto the discard pile and return it (rulebook, Play: Battle Win, Battle
    Loss, next card value). Any kind of quest card may be the next card; its own instructions are not
    followed (R7)."""
    state, card_id = _take(state, db, wanted, "next", what)
    if card_id is None:
        return state, None
    card = quest(db, card_id)
    state = _note(replace(state, discard=state.discard + (card_id,)),
                  f"Turn over the next card, {card.name}, onto the discard pile ({_icons(card)}).")
    return state, card


def _icons(card: QuestCard) -> str:
    return f"white cross {card.win}, black circle {card.loss}, gray square {card.next_value}"


def apply_draw(state: State, db: Database, event: ev.Draw) -> State:
    """Turn over the top card of the Quest draw pile and follow it (rulebook, Play).

    City Quest: a battle starts. Council of Wardens: resolved with ``council``. Elders: laid beside the
    Character Stats card with their uses. Warding City: fought on its map (rulebook, Expanded Battles).
    """
    _phase(state, "draw", "draw")
    state, card_id = _take(state, db, event.card, "card", "the draw")
    if card_id is None:
        raise RuleError("no quest card is left to draw")
    card = quest(db, card_id)
    state = replace(state, card=card_id)
    if isinstance(card, CityQuest):
        return _note(replace(state, phase="battle", battle=BattleState(card_id), used=()),
                     f"City Quest: {card.name}. {_plain(card.text)}")
    if isinstance(card, CouncilQuest):
        return _note(replace(state, phase="council"), f"Council of Wardens: {card.name}. {_plain(card.text)}")
    if isinstance(card, Elder):
        uses = db.solo.rules.elder_uses
        return _note(replace(state, card=None, elders=state.elders + ((card_id, uses),)),
                     f"Elders: {card.name} joins you. Lay the card beside your Character Stats card ({uses} uses). {_plain(card.text)}")
    assert isinstance(card, WardingCity)
    battle_map = db.get(card.battle_map)
    assert isinstance(battle_map, BattleMap)
    return _note(replace(state, phase="warding"),
                 f"Warding City: {card.name}. {_plain(card.text)} Set up {battle_map.title} ({battle_map.color} map).")


def _plain(text: str) -> str:
    """Card text with its inline icons in words (``:mana:`` -> Mana)."""
    for token, word in ((":mana:", "Mana"), (":spirit:", "Spirit"), (":win:", "white cross"), (":loss:", "black circle"),
                        (":next:", "next card value"), (":key:", "Warding Key")):
        text = text.replace(token, word)
    return text


def _phase(state: State, wanted: str | tuple[str, ...], command: str) -> None:
    """Raise :class:`RuleError` unless the game is in one of the ``wanted`` phases."""
    wanted = (wanted,) if isinstance(wanted, str) else wanted
    if state.result is not None:
        setup = state.setup
        again = f"referee solo new --difficulty {setup.difficulty} --spells {','.join(short_id(s) for s in setup.spells)}"
        raise RuleError(f"the game is over (you {state.result}: {state.reason}); start a new one with `{again}`")
    if state.phase not in wanted:
        raise RuleError(f"`{command}` does not fit now: {_waiting(state)}")


def _waiting(state: State) -> str:
    """What the game waits for, in a few words with a command, for the error of a command that does not
    fit the phase (the Next line, :mod:`referee.solo.advice`, gives every choice)."""
    draw = "referee solo draw --card CARD" if state.own_deck else "referee solo draw"
    return {
        "draw": f"draw the next quest card (`{draw}`)",
        "battle": "fight the City Quest on the table (`referee solo battle`, with --dice and --enemy for your own dice)",
        "rolled": "the battle is rolled: cast a spell, call an Elder or `referee solo accept`",
        "loss": "a Battle Loss row is waiting: lower it with a spell or an Elder, or `referee solo accept`",
        "learn": "choose a spell to learn (`referee solo learn SPELL`) or `referee solo skip`",
        "council": "resolve the Council of Wardens card (`referee solo council`)",
        "warding": "set up the Warding City's map (`referee solo servants`) or enter its outcome (`referee solo warding won|retreat`)",
        "map": "fight the Expanded Battle on the map (`referee solo status`)",
        "stand": "fight the Last Stand (`referee solo attack`)",
        "turn": "turn over the next card of your deck and name it (`referee solo turn CARD`)",
    }.get(state.phase, state.phase)


# ---- City Quest battles -------------------------------------------------------------------------------------
def _city(state: State, db: Database) -> CityQuest:
    assert state.battle is not None
    card = quest(db, state.battle.card)
    assert isinstance(card, CityQuest)
    return card


def _event_cancelled(state: State, db: Database) -> bool:
    """Whether a spell cancelled the City Quest's event text this battle (Oakheart, R33)."""
    return state.battle is not None and any(spell(db, s).effect.cancel_event for s in state.battle.casts)


def dice_counts(state: State, db: Database) -> tuple[int, int]:
    """(player's dice, servants' dice) for the City Quest battle on the table (rulebook, Play; R5, R6).

    The player rolls the rules' attack dice plus every learned spell's extra dice plus the free dice of
    Elders called; the servants roll the player's attack dice plus the rules' extra servant dice plus
    the card's extra servant dice (unless its event is cancelled). Free dice (Elder San) do not count
    toward the servants' dice.
    """
    rules = db.solo.rules
    attack = rules.attack_dice + sum(spell(db, s).extra_dice for s in state.spells)
    free = 0
    if state.battle is not None:
        free = sum(quest(db, e).aid.free_dice for e in state.battle.elders)  # type: ignore[attr-defined]
    extra = 0 if state.battle is None or _event_cancelled(state, db) else _city(state, db).battle.servant_dice
    return attack + free, attack + rules.servant_extra_dice + extra


def total_terms(state: State, db: Database) -> tuple[list[tuple[str, int]], int]:
    """What is added to the player's dice, as ``(label, amount)`` pairs in order (the card's attack
    modifier unless cancelled, then each spell cast: its bonus against the card's foe when it names
    one, else its ``attack_total``; zero amounts left out), and how many of the servants' highest dice
    are removed (``remove_servant_die``, Shield). Rulebook, Play; R5."""
    battle = state.battle
    assert battle is not None
    card = _city(state, db)
    terms: list[tuple[str, int]] = []
    if not _event_cancelled(state, db) and card.battle.attack_total:
        terms.append((card.name, card.battle.attack_total))
    removed = 0
    for spell_id in battle.casts:
        cast = spell(db, spell_id)
        effect, foe = cast.effect, card.battle.foe
        amount = effect.against[foe] if foe is not None and foe in effect.against else effect.attack_total
        if amount:
            terms.append((cast.name, amount))
        removed += effect.remove_servant_die
    return terms, removed


def totals(state: State, db: Database) -> tuple[int, int]:
    """(player's total, servants' total) of the dice on the table (rulebook, Play; R5): the player's
    dice plus every term of :func:`total_terms`, the servants' dice without the removed highest ones."""
    battle = state.battle
    assert battle is not None
    terms, removed = total_terms(state, db)
    enemy = sorted(battle.enemy)
    kept = enemy[:max(0, len(enemy) - removed)]
    return sum(battle.dice) + sum(amount for _, amount in terms), sum(kept)


def totals_in_words(state: State, db: Database) -> tuple[str, str]:
    """The sums behind :func:`totals`, as printed: ``"4 1 6 +2 (Emberlow) = 13"`` and
    ``"5 5 6 without the highest (Shield) = 10"``, so a player can add them up at the table."""
    battle = state.battle
    assert battle is not None
    terms, removed = total_terms(state, db)
    mine, theirs = totals(state, db)
    player = " ".join(map(str, battle.dice)) + "".join(f" {amount:+d} ({label})" for label, amount in terms)
    servants = " ".join(map(str, battle.enemy))
    if removed:
        shields = ", ".join(spell(db, s).name for s in battle.casts if spell(db, s).effect.remove_servant_die)
        servants += f" without the highest ({shields})" if removed == 1 else f" without the {removed} highest ({shields})"
    return f"{player} = {mine}", f"{servants} = {theirs}"


def winning(state: State, db: Database) -> bool:
    """Whether the player's total is equal to or greater than the servants' (rulebook, Play)."""
    mine, theirs = totals(state, db)
    return mine >= theirs


def _stage(state: State) -> str:
    return {"battle": "before", "rolled": "rolled", "loss": "loss", "draw": "draw"}.get(state.phase, state.phase)


def _spell_stage_problem(state: State, db: Database, chosen: Spell, stage: str) -> str | None:
    """Why ``chosen`` cannot be cast at ``stage`` (None when it can); see R10 and R32."""
    effect = chosen.effect
    if effect.barrier_lock:
        needed = len(stats(db).keys)
        if len(state.keys) < needed:
            return f"Barrier Lock needs all {needed} Warding Keys; you hold {len(state.keys)}"
        return None if stage == "draw" else "cast Barrier Lock between quest cards, when the game asks you to draw"
    if chosen.id not in state.spells:
        return f"you have not learned {chosen.name}"
    if chosen.extra_dice and effect == Effect():
        return f"{chosen.name} adds its {chosen.extra_dice} extra {'die' if chosen.extra_dice == 1 else 'dice'} to every battle by itself; it is not cast"
    if stage == "draw" or stage not in ("before", "rolled", "loss"):
        return f"spells are cast during a battle (R32); {_waiting(state)}"
    if chosen.id in state.used:
        return f"{chosen.name} is already used in this battle (each spell once per battle unless recharged by Calm)"
    softens = effect.loss_rows or effect.cancel_loss or effect.grayking_less
    if softens and stage != "loss":
        return f"{chosen.name} lowers a Battle Loss result; cast it after a loss, when the row is known"
    if (effect.reroll_own or effect.reroll_servants) and stage != "rolled":
        return f"{chosen.name} re-rolls dice; cast it after the roll" if stage == "before" else f"{chosen.name} re-rolls dice; the battle's roll is over"
    if effect.cancel_event and stage != "before":
        return f"{chosen.name} must be cast before the roll"
    if (effect.attack_total or effect.against or effect.remove_servant_die) and stage == "loss":
        return f"{chosen.name} changes the roll; the battle is already lost"
    if effect.grayking_less and not effect.loss_rows and stage == "loss":
        row = _loss_row(state, db)
        if row is None or row.effect.grayking <= 0:
            return f"{chosen.name} only lessens a Battle Loss that moves the Grayking"
    if chosen.cost and chosen.cost.mana > state.mana:
        return f"{chosen.name} costs {chosen.cost.mana} Mana; you have {state.mana}"
    return None


def _elder_stage_problem(state: State, db: Database, elder_id: str, stage: str) -> str | None:
    """Why an Elder cannot be called at ``stage`` of a City Quest battle (None when it can; R11)."""
    if stage not in ("before", "rolled", "loss"):
        return elder_problem(state, db, elder_id, ()) or f"Elders aid you in a battle; {_waiting(state)}"
    problem = elder_problem(state, db, elder_id, state.battle.elders if state.battle is not None else ())
    if problem:
        return problem
    aid = elder_card(db, elder_id).aid
    if aid.free_dice and stage != "before":
        return f"{name(db, elder_id)} adds a die to your roll; call him before the roll"
    if aid.reroll_own and stage != "rolled":
        return f"{name(db, elder_id)} re-rolls your dice; call on them after the roll"
    if aid.loss_rows and stage != "loss":
        return f"{name(db, elder_id)} lowers a Battle Loss result; call on them after a loss, when the row is known"
    return None


def options(state: State, db: Database) -> list[str]:
    """Spells and Elders that could still change the City Quest battle now, as ids (R34): after a losing
    roll, the first steps of the aid sequences that can still turn it; after a loss, of those that can
    lower or cancel the Battle Loss row (:func:`referee.solo.aid.options`, an exact search). The referee
    moves on by itself when this is empty."""
    if _stage(state) not in ("rolled", "loss"):
        return []
    return aid.ids(state, db)


def _loss_effective(state: State) -> int:
    battle = state.battle
    if battle is None or battle.loss_roll is None or battle.cancelled:
        return 0
    return max(0, battle.loss_roll - battle.lowered)


def _loss_row(state: State, db: Database):
    effective = _loss_effective(state)
    return table_for(db, "loss").row_for(effective) if effective >= 1 else None


def _roll(state: State, db: Database, typed: Dice | None, count: int, field: str, what: str,
          track: bool = True) -> tuple[State, Dice]:
    """``count`` dice for ``field``: the player's typed dice (checked) or the referee's next dice (R35).
    ``track``: whether these dice tell how the player rolls (``State.dice_typed``, which the advice
    follows); the Grayking's counter dice in the Last Stand do not."""
    if typed is not None and typed.typed:
        if len(typed.values) != count:
            raise RuleError(f"--{field}: {what} needs {count} {'die' if count == 1 else 'dice'}, you typed {len(typed.values)} ({typed})")
        dice = typed
    else:
        dice = Dice.roll(state.setup.seed, state.dice_used, count)
        if typed is not None and typed != dice:
            raise RuleError(f"{field}: the referee's dice at k={state.dice_used} are {dice}, not {typed} (corrupt save?)")
        state = replace(state, dice_used=state.dice_used + count)
    state = replace(state, consumed=state.consumed + ((field, dice),))
    return (replace(state, dice_typed=dice.typed) if track else state), dice


def apply_battle(state: State, db: Database, event: ev.Battle) -> State:
    """Fight the City Quest on the table (rulebook, Play, If it is a City Quest card).

    Elders and spells named are used first, in that order; the card's cost before the battle is paid
    (unless its event is cancelled); both sides roll; equal or greater wins. A win is resolved at once;
    a loss waits in the ``rolled`` phase while a spell or Elder could still change it (R34), else it
    is resolved too.
    """
    _phase(state, "battle", "battle")
    for elder_id in event.elders:
        state = _call_elder(state, db, elder_id, (), None)
        if state.result:
            return state
    for spell_id in event.casts:
        state = _cast(state, db, spell_id, None, (), None)
        if state.result:
            return state
    card = _city(state, db)
    if card.battle.before is not None and not _event_cancelled(state, db):
        state = _pay_before(state, db, card)
        if state.result:
            return state
    player_n, enemy_n = dice_counts(state, db)
    state, dice = _roll(state, db, event.dice, player_n, "dice", "your attack")
    state, enemy = _roll(state, db, event.enemy, enemy_n, "enemy", "the servants' attack")
    state = replace(state, phase="rolled", battle=replace(state.battle, dice=dice.values, enemy=enemy.values, rolled=True))
    terms, _ = total_terms(state, db)
    mine, theirs = totals(state, db)
    added = "".join(f" {amount:+d} ({label})" for label, amount in terms)
    state = _note(state, f"You roll {dice} ({'typed' if dice.typed else 'rolled'}){added}: total {mine}. The servants roll {enemy} "
            f"({'typed' if enemy.typed else 'rolled'}): total {theirs}.")
    return _after_roll(state, db, event.next)


def _pay_before(state: State, db: Database, card: CityQuest) -> State:
    """Pay what the card's event text asks before the battle (``Pay 1 Mana before the battle ...``), saying
    the amount and what it did: what was paid, or that an empty track paid less and the battle is fought
    all the same (R42: track moves an event forces are never refused)."""
    cost = card.battle.before
    assert cost is not None
    asked = [f"{-amount} {label}" for amount, label in ((cost.mana, "Mana"), (cost.spirit, "Spirit")) if amount < 0]
    state = _note(state, f"{card.name}: pay {' and '.join(asked) or 'the cost'} before the battle ({_plain(card.text)}).")
    mana_before = state.mana
    state = apply_effect(state, db, cost)
    paid = mana_before - state.mana
    if cost.mana < 0 and paid < -cost.mana:
        state = _note(state, f"You had {mana_before} Mana, so you pay {paid} of the {-cost.mana}; the battle is fought all the same (R42).")
    return state


def _after_roll(state: State, db: Database, next_card: ev.CardRef | None) -> State:
    if winning(state, db):
        return _resolve_win(state, db, next_card)
    if options(state, db):
        mine, theirs = totals(state, db)
        state = _note(state, f"You are losing {mine} to {theirs}.")
        if next_card is not None and state.battle is not None:
            _check_next(state, db, next_card)
            state = _note(replace(state, battle=replace(state.battle, named_next=next_card)),
                          f"{name(db, next_card.id)} is the next card you named: it goes onto the discard pile when the battle ends.")
        return state
    return _resolve_loss(state, db, next_card)


def _check_next(state: State, db: Database, card: ev.CardRef) -> None:
    """Raise :class:`RuleError` unless ``card`` can be the next card turned over now (R7): a quest card
    of the draw pile (or of the discard pile when the draw pile is empty, which is then reshuffled)."""
    quest(db, card.id)
    if card.typed and card.id not in (state.deck or state.discard):
        raise RuleError(f"--next: {name(db, card.id)} cannot be turned over from the Quest draw pile now")


def _resolve_win(state: State, db: Database, next_card: ev.CardRef | None) -> State:
    """Battle won (rulebook, Play): turn over the next card onto the discard pile, apply the Battle Win
    row of its white cross and the card's win extras, and remove the fought card from the game."""
    card = _city(state, db)
    mine, theirs = totals(state, db)
    state = _note(state, f"You win the battle at {card.name}, {mine} to {theirs}.")
    state, nxt = _turn_over_next(state, db, next_card, "the Battle Win number")
    learn = 0
    if nxt is not None:
        row = table_for(db, "win").row_for(nxt.win)
        state = _note(state, f"Battle Win {nxt.win}: {row.text}.")
        state = apply_effect(state, db, row.effect, nxt.next_value)
        learn = row.effect.learn_spell or 0
        if card.battle.win_extra is not None and not _event_cancelled(state, db) and state.result is None:
            state = _note(state, f"{card.name}, if you win: {_plain(card.text)}")
            state = apply_effect(state, db, card.battle.win_extra, nxt.next_value)
    state = _note(replace(state, removed=state.removed + (card.id,), card=None, battle=None, used=(), phase="draw"),
                  f"Remove {card.name} from the game.")
    if state.result is not None:
        return replace(state, phase="over")
    if learn:
        if state.mana < 1:
            return _note(state, "You have no Mana to pay for the spell: the row gives nothing (R9).")
        if not learnable(state, db):
            return _note(state, "No spell is left to learn on your paths: the row gives nothing (R9).")
        return replace(state, phase="learn", pending=Pending("one-mana", learn, "Battle Win"))
    return state


def _resolve_loss(state: State, db: Database, next_card: ev.CardRef | None) -> State:
    """Battle lost (rulebook, Play): the fought card goes on the discard pile, then the next card is
    turned over onto it and its black circle gives the Battle Loss row. The row waits in the ``loss``
    phase while a spell or Elder could lower it (R8), else it is applied."""
    card = _city(state, db)
    mine, theirs = totals(state, db)
    state = _note(replace(state, discard=state.discard + (card.id,), card=None),
                  f"You lose the battle at {card.name}, {mine} to {theirs}. Place {card.name} on the discard pile.")
    state, nxt = _turn_over_next(state, db, next_card, "the Battle Loss number")
    if nxt is None:
        return _finish_loss(state, db)
    state = replace(state, phase="loss", battle=replace(state.battle, loss_roll=nxt.loss, next_card=nxt.id))
    row = table_for(db, "loss").row_for(nxt.loss)
    state = _note(state, f"Battle Loss {nxt.loss}: {row.text}.")
    if options(state, db):
        return state
    return _finish_loss(state, db)


def _finish_loss(state: State, db: Database) -> State:
    """Apply the Battle Loss row as lowered or cancelled (R8), then the card's loss extras (rulebook, Play)."""
    battle = state.battle
    assert battle is not None
    card = _city(state, db)
    row = _loss_row(state, db)
    next_value = quest(db, battle.next_card).next_value if battle.next_card else 0
    if battle.loss_roll is not None and battle.cancelled:
        state = _note(state, "The Battle Loss result is cancelled: nothing happens.")
    elif row is not None:
        effect = row.effect
        less = sum(spell(db, s).effect.grayking_less for s in battle.casts)
        if less and effect.grayking > 0:
            effect = effect.model_copy(update={"grayking": max(0, effect.grayking - less)})
        if battle.lowered or less:
            state = _note(state, f"Battle Loss row {_loss_effective(state)} applies: {row.text}" + (f", {less} space "
                    f"less" if less and row.effect.grayking > 0 else "") + ".")
        state = apply_effect(state, db, effect, next_value)
    if card.battle.loss_extra is not None and not _event_cancelled(state, db) and state.result is None:
        state = _note(state, f"{card.name}, if you lose: {_plain(card.text)}")
        state = apply_effect(state, db, card.battle.loss_extra, next_value)
    if state.result is not None:
        return replace(state, phase="over", battle=None, used=())
    return replace(state, phase="draw", battle=None, used=())


def _cast(state: State, db: Database, spell_id: str, rows: int | None, reroll: tuple[int, ...], dice: Dice | None) -> State:
    """Cast one spell in the battle (rulebook, Setup and Play; R8-R33): check it may be cast now, pay
    its per-use cost, and apply its effect."""
    chosen = spell(db, spell_id)
    stage = _stage(state)
    problem = _spell_stage_problem(state, db, chosen, stage)
    if problem:
        raise RuleError(f"cannot cast {chosen.name}: {problem}")
    effect = chosen.effect
    if effect.barrier_lock:
        state = _note(state, "You cast Barrier Lock and lock the gates of the Barrier Plains. The Grayking is drawn back to the Tower of Ash.")
        return _note(replace(state, grayking=1, result="won", reason="you cast Barrier Lock with all three Warding Keys", phase="over"),
                     "You have saved Lassadar and won the game.")
    if rows is not None and not effect.loss_rows:
        raise RuleError(f"--rows: {chosen.name} does not lower Battle Loss rows")
    if (reroll or dice is not None) and not (effect.reroll_own or effect.reroll_servants):
        raise RuleError(f"--reroll/--dice: {chosen.name} re-rolls no dice")
    if reroll and not effect.reroll_own:
        raise RuleError(f"--reroll: {chosen.name} re-rolls the servants' dice, not yours; give only their new dice (--dice)")
    battle = state.battle
    assert battle is not None
    state = _note(replace(state, used=state.used + (spell_id,), battle=replace(battle, casts=battle.casts + (spell_id,))),
                  f"You cast {chosen.name}: {_plain(chosen.text)}")
    if chosen.cost:
        state = adjust(state, db, mana=-chosen.cost.mana, spirit=-chosen.cost.spirit)
        if state.result:
            return state
    state = apply_effect(state, db, effect.model_copy(update={"grayking": 0, "grayking_per_two_spirit": 0}))
    if state.result:
        return state
    if effect.recharge:
        state = _note(replace(state, used=tuple(s for s in state.used if s == spell_id)), "Your used spells are recharged.")
    if effect.reroll_own:
        state = _reroll_own(state, db, reroll, dice)
    elif effect.reroll_servants:
        state = _reroll_servants(state, db, dice)
    if effect.loss_rows or effect.cancel_loss:
        state = _lower(state, db, chosen.name, effect, rows)
    return state


def kept_dice(dice: tuple[int, ...], reroll: tuple[int, ...]) -> list[int]:
    """The dice of ``dice`` left after taking out the values in ``reroll`` (one die per value named).

    Raises :class:`RuleError` naming ``--reroll`` when nothing is named or a value is not showing.
    """
    if not reroll:
        raise RuleError(f"--reroll: name the dice to re-roll by their values; your dice show {' '.join(map(str, dice))}")
    left = list(dice)
    for value in reroll:
        if value not in left:
            showing = dice.count(value)
            raise RuleError(f"--reroll: your dice show {' '.join(map(str, dice))}; "
                            + (f"there is no {value} to re-roll" if not showing else
                               f"only {showing} of them show{'s' if showing == 1 else ''} {value}"))
        left.remove(value)
    return left


def _reroll_own(state: State, db: Database, reroll: tuple[int, ...], dice: Dice | None) -> State:
    battle = state.battle
    assert battle is not None
    left = kept_dice(battle.dice, reroll)
    state, new = _roll(state, db, dice, len(reroll), "dice", "the re-roll")
    assert state.battle is not None
    battle = replace(state.battle, dice=tuple(left) + new.values)
    return _note(replace(state, battle=battle), f"You re-roll {' '.join(map(str, reroll))} and get {new}: your dice show {' '.join(map(str, battle.dice))}.")


def _reroll_servants(state: State, db: Database, dice: Dice | None) -> State:
    battle = state.battle
    assert battle is not None
    state, new = _roll(state, db, dice, len(battle.enemy), "dice", "the servants' re-roll")
    return _note(replace(state, battle=replace(state.battle, enemy=new.values)), f"The servants re-roll: {new}.")


def _lower(state: State, db: Database, who: str, effect: Effect, rows: int | None) -> State:
    battle = state.battle
    assert battle is not None and battle.loss_roll is not None
    if effect.cancel_loss:
        return _note(replace(state, battle=replace(battle, cancelled=True)), "The Battle Loss result is cancelled.")
    most = effect.loss_rows
    rows = most if rows is None else rows
    if not 1 <= rows <= most:
        allowed = "by 1 row" if most == 1 else f"by 1 to {most} rows"
        raise RuleError(f"--rows: {who} lowers the Battle Loss result {allowed}, not {rows}")
    battle = replace(battle, lowered=battle.lowered + rows)
    state = replace(state, battle=battle)
    effective = _loss_effective(state)
    if effective <= 0:
        return _note(state, "The Battle Loss result is lowered below row 1: nothing happens (R8).")
    return _note(state, f"The Battle Loss result is lowered to row {effective}: {table_for(db, 'loss').row_for(effective).text}.")


def _call_elder(state: State, db: Database, elder_id: str, reroll: tuple[int, ...], dice: Dice | None) -> State:
    """Call on an Elder once (rulebook, If it is an Elders card; R11): one of its uses is spent, and
    after the last it is removed from the game."""
    stage = _stage(state)
    problem = _elder_stage_problem(state, db, elder_id, stage)
    if problem:
        raise RuleError(f"cannot call on {name(db, elder_id)}: {problem}")
    card = elder_card(db, elder_id)
    if (reroll or dice is not None) and not card.aid.reroll_own:
        raise RuleError(f"--reroll/--dice: {card.name} re-rolls no dice")
    state = call_elder(state, db, elder_id)
    if state.battle is not None:
        state = replace(state, battle=replace(state.battle, elders=state.battle.elders + (elder_id,)))
    if card.aid.reroll_own:
        state = _reroll_own(state, db, reroll, dice)
    if card.aid.loss_rows:
        state = _lower(state, db, card.name, card.aid, None)
    return state


def elder_card(db: Database, elder_id: str) -> Elder:
    """The Elders card ``elder_id`` (rulebook, If it is an Elders card); raises :class:`RuleError` for
    any other card."""
    card = quest(db, elder_id)
    if not isinstance(card, Elder):
        raise RuleError(f"{card.name} is not an Elders card")
    return card


def elder_problem(state: State, db: Database, elder_id: str, called: tuple[str, ...]) -> str | None:
    """Why an Elder cannot aid the battle in progress, whatever the moment (None when it may; R11).

    Rulebook, If it is an Elders card: "You may call on the power of each Elder three times, rotating
    the card each time. Once they have given you their aid, remove the card from the game ... Each
    Elder's power may only be used once in a battle." ``called`` are the Elders already called in this
    battle (a City Quest battle, a whole map battle, R50, or the whole Last Stand, R51). Each battle adds
    its own timing to this (:func:`_elder_stage_problem`, :func:`referee.solo.expanded.elder_problem`,
    :func:`referee.solo.laststand.elder_problem`).
    """
    card = quest(db, elder_id)
    if not isinstance(card, Elder):
        return f"{card.name} is not an Elders card"
    if elder_id in called:
        return f"{card.name} has already aided you in this battle (each Elder once per battle)"
    if state.elder_uses(elder_id) <= 0:
        if elder_id in state.removed:
            return f"{card.name} has given all {db.solo.rules.elder_uses} uses and left the game"
        return f"{card.name} is not beside your Character Stats card"
    return None


def checked_elder_call(db: Database, event: ev.CallElder, problem: str | None, battle: str) -> Elder:
    """The Elder card of a call in a map battle or the Last Stand, after the checks both share: the
    ``problem`` the battle's own rules found (:func:`elder_problem` and theirs), no ``--next`` (``battle``
    turns over no next card) and no ``--reroll``/``--dice`` for an Elder who re-rolls nothing.
    Raises :class:`RuleError` naming what is wrong (R50, R51)."""
    card = quest(db, event.elder)
    if problem:
        raise RuleError(f"cannot call on {card.name}: {problem}")
    assert isinstance(card, Elder)
    if event.next is not None:
        raise RuleError(f"--next: {battle} turns over no next card")
    if (event.reroll or event.dice is not None) and not card.aid.reroll_own:
        raise RuleError(f"--reroll/--dice: {card.name} re-rolls no dice")
    return card


def call_elder(state: State, db: Database, elder_id: str) -> State:
    """Spend one use of an Elder called on (rulebook, If it is an Elders card; R11): rotate the card, or
    remove it from the game after its last use, whatever the outcome of its aid. The caller has checked
    :func:`elder_problem` and applies the aid."""
    card = elder_card(db, elder_id)
    state = _note(state, f"{card.name} aids you: {_plain(card.text)}")
    return _spend_elder(state, elder_id)


def _spend_elder(state: State, elder_id: str) -> State:
    uses = state.elder_uses(elder_id) - 1
    elders = tuple((e, uses if e == elder_id else u) for e, u in state.elders if e != elder_id or uses > 0)
    state = replace(state, elders=elders)
    if uses <= 0:
        return _note(replace(state, removed=state.removed + (elder_id,)), "That was the Elder's last use: remove the card from the game.")
    return _note(state, f"Rotate the Elder's card: {uses} {'use' if uses == 1 else 'uses'} left.")


def apply_cast(state: State, db: Database, event: ev.Cast) -> State:
    """Cast a spell: in a City Quest battle (before or after the roll, or after a loss), or Barrier Lock
    between quest cards once all three Warding Keys are held (rulebook, Winning or Losing; R12)."""
    _phase(state, ("battle", "rolled", "loss", "draw"), f"cast {short_id(event.spell)}")
    stage = _stage(state)
    state = _cast(state, db, event.spell, event.rows, event.reroll, event.dice)
    return _after_aid(state, db, stage, event.next)


def apply_elder(state: State, db: Database, event: ev.CallElder) -> State:
    """Call on an Elder in a City Quest battle (rulebook, If it is an Elders card; R11)."""
    _phase(state, ("battle", "rolled", "loss"), f"elder {short_id(event.elder)}")
    stage = _stage(state)
    state = _call_elder(state, db, event.elder, event.reroll, event.dice)
    return _after_aid(state, db, stage, event.next)


def _after_aid(state: State, db: Database, stage: str, next_card: ev.CardRef | None) -> State:
    """After a spell or an Elder: a battle that is now won is resolved; a loss with nothing left to change it moves on (R34)."""
    if state.result is not None:
        return replace(state, phase="over")
    if stage == "rolled":
        return _after_roll(state, db, next_card)
    if stage == "loss" and not options(state, db):
        return _finish_loss(state, db)
    return state


def apply_accept(state: State, db: Database, event: ev.Accept) -> State:
    """Accept the battle as it stands: a losing roll becomes a loss (rulebook, Play), or the Battle Loss
    row, as lowered, is applied (R8)."""
    _phase(state, ("rolled", "loss"), "accept")
    if state.phase == "rolled":
        return _resolve_loss(state, db, event.next) if not winning(state, db) else _resolve_win(state, db, event.next)
    if event.next is not None:
        raise RuleError("--next: the next card is already turned over for this loss")
    return _finish_loss(state, db)


# ---- Learning ------------------------------------------------------------------------------------------------
def apply_learn(state: State, db: Database, event: ev.Learn) -> State:
    """Answer a spell choice (Battle Win row 4, R9; Council of Wardens, R37): learn a spell along the
    paths, or take none (``spell`` is ``None``)."""
    _phase(state, "learn", "learn" if event.spell else "skip")
    pending = state.pending
    assert pending is not None
    if event.spell is None:
        return _note(replace(state, phase="draw", pending=None), "You learn no spell.")
    state = _learn(state, db, event.spell, pending.price)
    if state.result is not None:
        return replace(state, pending=None, phase="over")
    left = pending.count - 1
    if left > 0 and learnable(state, db) and (pending.price != "one-mana" or state.mana >= 1):
        return replace(state, pending=replace(pending, count=left))
    return replace(state, phase="draw", pending=None)


# ---- Council of Wardens ----------------------------------------------------------------------------------------
def apply_council(state: State, db: Database, event: ev.Council) -> State:
    """Resolve the Council of Wardens card on the table (rulebook, If it is a Council of Wardens Quest
    card): turn over the next card when the card reads a next card value, apply its gains, place it on
    the discard pile, then offer its spells to learn (R37)."""
    _phase(state, "council", "council")
    card = quest(db, state.card or "")
    assert isinstance(card, CouncilQuest)
    effect = card.council
    next_value = 0
    if effect.mana_per_next or effect.spirit_per_next:
        state, nxt = _turn_over_next(state, db, event.next, "the next card value")
        next_value = nxt.next_value if nxt else 0
        if nxt:
            state = _note(state, f"Next card value: {next_value}.")
    elif event.next is not None:
        raise RuleError(f"--next: {card.name} reads no next card value")
    state = apply_effect(state, db, effect, next_value)
    state = _note(replace(state, discard=state.discard + (card.id,), card=None), f"Place {card.name} on the discard pile.")
    if state.result is not None:
        return replace(state, phase="over")
    if effect.learn_spells and learnable(state, db):
        return replace(state, phase="learn", pending=Pending("cost", effect.learn_spells, card.name))
    if effect.learn_spells:
        state = _note(state, "No spell is left to learn on your paths.")
    return replace(state, phase="draw")


# ---- Warding City ---------------------------------------------------------------------------------------------
def apply_warding(state: State, db: Database, event: ev.Warding) -> State:
    """Enter the outcome of the Warding City battle fought on its Expanded Battle Map (rulebook,
    Expanded Battles 6a, 6b; R38): what the battle cost, the Elders it used, then either the Warding
    Key (its bonus applied at once, R12; the card removed from the game) or a retreat at the rules'
    Spirit cost (the card on the discard pile)."""
    _phase(state, "warding", "warding")
    card = quest(db, state.card or "")
    assert isinstance(card, WardingCity)
    if event.outcome not in ("won", "retreat"):
        raise RuleError(f"outcome: {event.outcome!r} is not an outcome; enter won or retreat")
    for i, elder_id in enumerate(event.elders):
        problem = elder_problem(state, db, elder_id, event.elders[:i])
        if problem:
            raise RuleError(f"--elder: {problem}")
        state = _spend_elder(state, elder_id)
    state = adjust(state, db, mana=event.mana, spirit=event.spirit)
    if state.result is not None:
        return replace(state, phase="over")
    if event.outcome == "won":
        return win_warding(state, db, card)
    return retreat_warding(state, db, card)


def win_warding(state: State, db: Database, card: WardingCity) -> State:
    """Expanded Battles 6a and 7: the Warding Key marked, its one-time bonus applied at once (R12), the
    Warding City card removed from the game, the servant cards shuffled back."""
    key = next(k for k in stats(db).keys if k.key == card.key)
    state = _note(replace(state, keys=tuple(sorted(state.keys + (card.key,))), removed=state.removed + (card.id,), card=None),
                  f"You win Warding Key {card.key}: place a marker on key {card.key} of your Character Stats card. Remove {card.name} from the game.",
                  f"Warding Key {card.key} bonus: {_plain(key.text)}.")
    state = apply_effect(state, db, key.effect)
    state = _note(state, "Shuffle all Servant cards back into the Servant draw deck.")
    return replace(state, phase="over" if state.result else "draw")


def retreat_warding(state: State, db: Database, card: WardingCity) -> State:
    """Expanded Battles 6b and 7: retreat at the rules' Spirit cost, the card on the Quest discard pile,
    the servant cards shuffled back."""
    state = _note(replace(state, discard=state.discard + (card.id,), card=None), f"You retreat from {card.name}: place it on the discard pile.")
    state = adjust(state, db, spirit=db.solo.rules.retreat_spirit)
    state = _note(state, "Shuffle all Servant cards back into the Servant draw deck.")
    return replace(state, phase="over" if state.result else "draw")


# ---- Dispatch ----------------------------------------------------------------------------------------------------
def _by_phase(city, map_rule, stand_rule):
    """One command that means different things on a map, in the Last Stand, or elsewhere."""
    def apply_any(state: State, db: Database, event: ev.Event) -> State:
        if state.result is None and state.phase == "map":
            return map_rule(state, db, event)
        if state.result is None and state.phase == "stand":
            return stand_rule(state, db, event)
        return city(state, db, event)
    return apply_any


def _map_only(command: str):
    def refuse(state: State, db: Database, event: ev.Event) -> State:
        _phase(state, "map", command)
        raise AssertionError  # pragma: no cover - _phase raised
    return refuse


_APPLY: dict[type, Callable[[State, Database, Any], State]] = {ev.Draw: apply_draw, ev.Battle: apply_battle,
          ev.CallElder: lambda s, d, e: _by_phase(apply_elder, expanded.apply_elder, laststand.apply_elder)(s, d, e),
          ev.Learn: apply_learn, ev.Council: apply_council, ev.Warding: apply_warding,
          ev.Cast: lambda s, d, e: _by_phase(apply_cast, expanded.apply_cast, laststand.apply_cast)(s, d, e),
          ev.Accept: lambda s, d, e: _by_phase(apply_accept, expanded.apply_accept, laststand.apply_accept)(s, d, e),
          ev.Servants: lambda s, d, e: expanded.apply_servants(s, d, e),
          ev.Move: lambda s, d, e: expanded.apply_move(s, d, e),
          ev.Attack: lambda s, d, e: _by_phase(_map_only("attack"), expanded.apply_attack, laststand.apply_attack)(s, d, e),
          ev.Eldritch: lambda s, d, e: expanded.apply_eldritch(s, d, e),
          ev.Recharge: lambda s, d, e: _by_phase(_map_only("recharge"), expanded.apply_recharge, laststand.apply_recharge)(s, d, e),
          ev.Retreat: lambda s, d, e: expanded.apply_retreat(s, d, e),
          ev.LastStand: lambda s, d, e: laststand.apply_last_stand(s, d, e),
          ev.Turn: lambda s, d, e: apply_turn(s, d, e)}


def apply(state: State, db: Database, event: ev.Event) -> State:
    """The state after ``event``. Pure; raises :class:`RuleError` (one line) when the event does not fit.

    Dice and cards the event leaves to the referee (``None``) are taken from the seed and the deck
    order; the returned state's ``consumed`` lists them and ``notes`` says what happened.
    """
    state = replace(state, consumed=(), notes=())
    try:
        return _APPLY[type(event)](state, db, event)
    except DiceError as error:
        raise RuleError(str(error)) from None
    except _NeedCard as need:
        if isinstance(event, ev.Turn):  # pragma: no cover - a turn names its card
            raise RuleError("turn: the command needs another card") from None
        partial = need.state
        waiting = Suspended(before=state, event=_filled(event, partial.consumed), shown=len(partial.notes), what=need.what)
        return _note(replace(partial, phase="turn", suspended=waiting),
                     f"Turn over the next card of your deck onto the discard pile for {need.what}, and name it.")


def apply_turn(state: State, db: Database, event: ev.Turn) -> State:
    """Name the next quest card the suspended command waits for (R7; rulebook, Play): the command is
    played again from where it began, with that card as its next card, and only what follows the card
    is new."""
    waiting = state.suspended
    if state.phase != "turn" or waiting is None or event.card is None:
        _phase(state, "turn", "turn")
        raise RuleError("turn: name the card you turned over")
    after = apply(waiting.before, db, replace(waiting.event, next=event.card))
    return replace(after, notes=after.notes[waiting.shown:], consumed=())


def _filled(event: ev.Event, consumed: tuple[tuple[str, object], ...]) -> ev.Event:
    """``event`` with the dice and cards of ``consumed`` written in by value (the first use of a field
    is the event's own; a second is a re-roll inside it)."""
    updates: dict[str, object] = {}
    for field, value in consumed:
        updates.setdefault(field, value)
    return replace(event, **{k: v for k, v in updates.items() if hasattr(event, k)})


def resolve(state: State, db: Database, event: ev.Event) -> tuple[ev.Event, State]:
    """The event with every die and card the referee supplied written in by value, and the state after it.

    ``apply(state, db, resolved)`` gives the same state as ``apply(state, db, event)``; the save file
    holds only resolved events.
    """
    after = apply(state, db, event)
    resolved = _filled(event, after.consumed)
    named = after.battle.named_next if after.battle is not None else None
    typed_next = getattr(event, "next", None)
    if (typed_next is not None and not any(f == "next" for f, _ in after.consumed)
            and after.suspended is None and named != typed_next):
        resolved = replace(resolved, next=None)  # the battle did not end: no next card was turned over
        after = _note(after, "(The next card is turned over when the battle ends; the referee asks for it then.)")
    return resolved, after


# ---- Advice ------------------------------------------------------------------------------------------------------
def next_step(state: State, db: Database) -> str:
    """What the player should do now, with the commands to type (:func:`referee.solo.advice.next_step`)."""
    from referee.solo import advice

    return advice.next_step(state, db)


from referee.solo import aid, expanded, laststand  # noqa: E402  (they build on the functions above)
