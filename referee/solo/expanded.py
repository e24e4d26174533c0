"""Expanded Battles on the hex maps and the Warding City card: pure rule functions of (state, database, event).

This module owns the rules of the rulebook's section "Expanded Battles": setting up a map (servants
drawn and placed by 2d6), the three phases of a round (a. Movement, b. Attack, c. Eldritch Damage), the
blue-cross recharge, the Elders called on the map, the end of the battle (6a, 6b, 7), and the outcome
of a Warding City battle fought by hand and entered (R38). Geometry is :mod:`pnp.hexes`, the module the
printed maps are drawn with, so every hex the referee names (``C4``: column letter, row number) is a hex
of the printed card. Steps every battle shares come from :mod:`referee.solo.core`; a losing roll is
returned as a :class:`~referee.solo.core.OpenRoll` for the dispatcher (:func:`referee.solo.rules.apply`)
to settle or hold (R34). Gaps are answered by ``docs/rulings.md`` (R13-R19, R38, R44-R48, R50), cited as R<n>.
"""
from __future__ import annotations

import math
import typing
from collections.abc import Callable

from pnp import hexes
from pnp.database import BattleMap, Database, Elder, Servant, Spell, WardingCity
from referee.dice import Dice, shuffled
from referee.solo import core
from referee.solo import events as ev
from referee.solo.core import OpenRoll, Outcome, RuleError
from referee.solo.state import Exchange, MapBattle, MapServant, State, replace


# ---- Look-ups ---------------------------------------------------------------------------------------------
def warding_card(state: State, db: Database) -> WardingCity:
    """The Warding City card on the table."""
    card = core.quest(db, state.card or "")
    assert isinstance(card, WardingCity)
    return card


def battle_map(state: State, db: Database) -> BattleMap:
    """The map of the battle in progress, or of the Warding City card on the table."""
    map_id = state.map_battle.map if state.map_battle is not None else warding_card(state, db).battle_map
    found = db.get(map_id)
    assert isinstance(found, BattleMap)
    return found


def servant_card(db: Database, servant_id: str) -> Servant:
    """The servant card ``servant_id`` (``solo.servant.ghast-1`` or ``ghast-1``); raises :class:`RuleError`."""
    for candidate in (servant_id, f"solo.servant.{servant_id}"):
        found = db.find(candidate)
        if isinstance(found, Servant):
            return found
    raise RuleError(f"no servant card {servant_id!r}; servants are: {', '.join(core.short_id(s.id) for s in db.solo.servant)}")


def name(address: tuple[int, int]) -> str:
    """The hex name a player finds on the printed map (column letter, row number; R44)."""
    return hexes.hex_name(address)


def parse_hex(grid: hexes.HexMap, text: str, field: str = "path") -> tuple[int, int]:
    """The address a player typed: a hex name (``C4``), a printed number (``7``: the hex numbered 7),
    ``S``/``start`` or ``R``/``recharge``. Raises :class:`RuleError` of field ``field`` for anything else
    or an address off the map (of kind :attr:`~referee.solo.core.Refusal.OFF_THE_MAP`)."""
    word = text.strip().lower()
    if word in ("s", "start"):
        return grid.start.address
    if word in ("r", "recharge"):
        return grid.recharge.address
    if word.isdigit():
        found = grid.numbered(int(word))
        if not found:
            raise RuleError(f"no hex of this map is printed with {word}; numbers run 2-12", field=field)
        return found[0].address
    try:
        address = hexes.parse_hex_name(text)
    except ValueError as error:
        raise RuleError(str(error), field=field) from None
    if address not in grid:
        raise RuleError(f"{text.upper()} is off the map", core.Refusal.OFF_THE_MAP, field)
    return address


def label(db: Database, servant_id: str) -> str:
    """A servant as the player sees it: its name and card, e.g. ``Ghast (ghast-1)``."""
    return f"{servant_card(db, servant_id).name} ({core.short_id(servant_id)})"


def marker(db: Database, servant_id: str) -> str:
    """The one-letter marker of a servant on the map the referee draws (its type's initial; the types of one
    battle differ, rulebook step 3)."""
    return servant_card(db, servant_id).servant_type[0].upper()


def _mb(state: State) -> MapBattle:
    assert state.map_battle is not None
    return state.map_battle


def _set(state: State, **changes) -> State:
    return replace(state, map_battle=replace(_mb(state), **changes))


def _step(state: State, wanted: str | tuple[str, ...], what: str) -> MapBattle:
    """The map battle, after checking the game is in phase ``map`` at one of the ``wanted`` steps of a
    round; raises :class:`RuleError` saying that ``what`` (the event in words) does not fit now and what
    the round waits for (:func:`referee.solo.core.waiting_for`)."""
    core.require_phase(state, "map", what)
    mb = _mb(state)
    wanted = (wanted,) if isinstance(wanted, str) else wanted
    if mb.step not in wanted:
        raise core.wrong_phase(state, what)
    return mb


# ---- Setup (rulebook, Expanded Battles 1-4) -------------------------------------------------------------------
def apply_servants(state: State, db: Database, event: ev.Servants) -> State:
    """Set up the map of the Warding City on the table (rulebook, Expanded Battles 1-4).

    The warden marker goes on the start hex (white cross). Servant cards are turned over until the map's
    count of servants of different types is reached; a card of a type already drawn is set aside (R19).
    The referee's cards are shuffle ``n`` of the seed; typed cards are the ones the player fights.
    Each servant gets its card's hit points for the map's colour and goes on the hex numbered by its 2d6.
    Raises :class:`RuleError` for servants that do not fit the map, or placement dice that are not 2d6 each.
    """
    core.require_phase(state, "warding", "setting up the servants")
    bmap = battle_map(state, db)
    grid = bmap.hex_map
    count = bmap.servants
    if event.typed:
        if core.shuffles_replayed(state) and not state.own_deck:
            raise core.undone_refusal("servant cards (shuffles)", core.shuffles_replayed(state), "servants")
        chosen = [servant_card(db, s) for s in event.servants]
        if len(chosen) != count:
            raise RuleError(f"{bmap.title} is fought against {count} servants of different types; you named {len(chosen)}", field="servants")
        types = [s.servant_type for s in chosen]
        if len(set(types)) != len(types):
            raise RuleError("the servants must be of different types "
                            "(set aside a card of a type already drawn, rulebook step 3)", field="servants")
        kept = tuple(s.id for s in chosen)
        set_aside: list[str] = []
    else:
        order = shuffled(state.setup.seed, state.shuffles, [s.id for s in db.solo.servant])
        state = replace(state, shuffles=state.shuffles + 1)
        kept_list: list[str] = []
        set_aside = []
        for servant_id in order:
            if len(kept_list) == count:
                break
            if servant_card(db, servant_id).servant_type in {servant_card(db, k).servant_type for k in kept_list}:
                set_aside.append(servant_id)
            else:
                kept_list.append(servant_id)
        kept = tuple(kept_list)
        if event.servants and event.servants != kept:
            raise RuleError(f"servants: the referee's servant cards are {', '.join(kept)}, not {', '.join(event.servants)} (corrupt save?)")
    state = replace(state, consumed=state.consumed + (("servants", kept), ("typed", event.typed)))
    state, place = core.roll(state, db, event.place, 2 * len(kept), "place", "the servants' placement (2d6 each)")
    start = grid.start.address
    placed = []
    lines = [f"Expanded Battle for Warding Key {bmap.key} on the {bmap.color} map. "
             f"Place your warden marker on the white cross, {name(start)}."]
    if set_aside:
        lines.append(f"Turn over servant cards: set aside {', '.join(label(db, s) for s in set_aside)} (a type already drawn, R19).")
    for i, servant_id in enumerate(kept):
        card = servant_card(db, servant_id)
        a, b = place.values[2 * i], place.values[2 * i + 1]
        address = grid.numbered(a + b)[0].address
        hp = card.hit_points[bmap.color]
        placed.append(MapServant(servant_id, address, hp))
        lines.append(f"{label(db, servant_id)}: {hp} hit {'point' if hp == 1 else 'points'} on the {bmap.color} track, range {card.range}, "
                     f"{card.damage} {card.damage_to.capitalize()} a hit. Placement {a}+{b}={a + b}: "
                     f"place its marker ({marker(db, servant_id)}) on the hex numbered {a + b}, {name(address)}.")
    mb = MapBattle(map=bmap.id, warden=start, servants=tuple(placed), elders_aid=event.map_elders, no_free_escape=event.no_free_escape)
    state = replace(state, phase="map", map_battle=mb, used=())
    return core.note(state, *lines, f"Round 1, phase a: move up to {db.solo.rules.warden_move_hexes} hexes.")


# ---- Phase a: Movement ------------------------------------------------------------------------------------
def occupied(mb: MapBattle) -> set[tuple[int, int]]:
    """Hexes holding a living servant: the warden may neither enter nor pass them (R13)."""
    return {s.hex for s in mb.living}


def legal_moves(state: State, db: Database) -> dict[tuple[int, int], int]:
    """Every hex the warden may end the move on, with its steps (R13): on the map, within the rules'
    two hexes over free hexes, not the blue cross the round after a recharge there (rulebook, phase a)."""
    mb = _mb(state)
    grid = battle_map(state, db).hex_map
    reach = grid.path_distances(mb.warden, blocked=occupied(mb))
    most = db.solo.rules.warden_move_hexes
    found = {a: d for a, d in reach.items() if d <= most}
    if must_leave(mb):
        found.pop(grid.recharge.address, None)
    return found


def must_leave(mb: MapBattle) -> bool:
    """Whether the warden recharged on the blue cross last round and must move off it this round (R47)."""
    return mb.recharged_round is not None and mb.recharged_round == mb.round - 1


def apply_move(state: State, db: Database, event: ev.Move) -> State:
    """Phase a (rulebook, Expanded Battles): "You may move two hexes in any direction each round. Each
    servant then moves one hex toward you. A servant may move no closer than a hex adjacent to your own
    position." Moving is optional (R13); then every servant steps (R14) and the attacks begin. Raises
    :class:`RuleError` of field ``path`` naming the hex the warden may not reach or enter."""
    mb = _step(state, "move", "moving")
    grid = battle_map(state, db).hex_map
    most = db.solo.rules.warden_move_hexes
    if len(event.path) > most:
        raise RuleError(f"you move at most {most} hexes a round; you named {len(event.path)} ({' '.join(event.path)})", field="path")
    blocked = occupied(mb)
    here = mb.warden
    steps = [parse_hex(grid, text) for text in event.path]
    for address in steps:
        if address in blocked:
            who = ", ".join(label(db, s.id) for s in mb.living if s.hex == address)
            raise RuleError(f"{name(address)} is occupied by {who}; you may not enter or pass a servant's hex (R13)", field="path")
    if len(steps) == 1:
        reach = grid.path_distances(here, blocked=blocked)
        if steps[0] not in reach or reach[steps[0]] > most:
            straight = hexes.distance(here, steps[0])
            if steps[0] not in reach:
                where = f"cannot be reached from {name(here)}: the servants and the map's gaps close every way there"
            elif reach[steps[0]] > straight:
                where = f"is {reach[steps[0]]} hexes from you at {name(here)} around the servants ({straight} in a straight line)"
            else:
                where = f"is {straight} hexes from you at {name(here)}"
            raise RuleError(f"{name(steps[0])} {where}; you move at most {most}", core.Refusal.TOO_FAR, "path")
    elif len(steps) > 1:
        previous = here
        for address in steps:
            if address == here and previous == here:  # `B3 C2` standing on B3: the path begins at the next hex
                raise RuleError(f"you stand on {name(here)}; a path names the hexes you move to, from the next one "
                                f"({' '.join(name(a) for a in steps[1:])})", field="path")
            if address == previous:
                raise RuleError(f"{name(address)} is named twice; name each hex of the path once, in turn", field="path")
            if hexes.distance(previous, address) != 1:
                raise RuleError(f"{name(address)} is not next to {name(previous)}; name each hex of the path in turn", field="path")
            previous = address
    destination = steps[-1] if steps else here
    if must_leave(mb) and destination == grid.recharge.address:
        raise RuleError(f"you recharged on the blue cross ({name(destination)}) last round; you must move away from it this round", field="path")
    if destination == here and steps:
        raise RuleError(f"you are already on {name(here)}", core.Refusal.ALREADY_THERE, "path")
    state = _set(state, warden=destination)
    if destination == here:
        state = core.note(state, f"Round {mb.round}, phase a: you stay on {name(here)}.")
    else:
        blue_cross = " (the blue cross: you may recharge every spell of one type there)."
        state = core.note(state, f"Round {mb.round}, phase a: move your warden marker to {name(destination)}"
                          + (blue_cross if destination == grid.recharge.address else "."))
    state = _servants_step(state, db)
    state = _magic_comes_near(state, db)
    return _begin_attacks(state, db)


def near_servant(state: State, db: Database) -> bool:
    """Whether a living servant stands within Eldritch range (one hex) of the warden (rulebook, phase c)."""
    mb = _mb(state)
    return any(hexes.distance(s.hex, mb.warden) <= db.solo.rules.eldritch_range for s in mb.living)


def _magic_comes_near(state: State, db: Database) -> State:
    """Phase c: "If you used any magic spells during any single round, when you are within one hex range of
    a servant": a spell cast earlier in the round, before the warden and the servants moved within one hex
    of each other, calls Eldritch Damage too (R55)."""
    mb = _mb(state)
    if not (mb.no_free_escape and mb.magic_cast and not mb.magic_near and near_servant(state, db)):
        return state
    return core.note(_set(state, magic_near=True), f"You cast a spell this round and now stand within {db.solo.rules.eldritch_range} hex "
                                                     "of a servant: Eldritch Damage follows in phase c, unless every servant is slain first (R55).")


def servant_step(grid: hexes.HexMap, at: tuple[int, int], warden: tuple[int, int]) -> tuple[int, int]:
    """Where a servant at ``at`` moves (rulebook, phase a; R14): one hex nearer the warden by steps over
    the map, never onto the warden's hex and no closer than adjacent; among equally near hexes the one
    whose printed centre is nearest the warden's, then the first in the order E, NE, NW, W, SW, SE.
    Servants may share hexes (rulebook step 4) and do not block each other."""
    steps = grid.path_distances(warden)
    here = steps.get(at)
    if here is None or here <= 1:
        return at
    target = hexes.centre_mm(warden[0], warden[1], 1.0)
    order = hexes.neighbour_addresses(*at)
    nearer = [a for a in order if steps.get(a) == here - 1 and a != warden]
    return min(nearer, key=lambda a: (round(math.dist(hexes.centre_mm(a[0], a[1], 1.0), target), 9), order.index(a)))


def _servants_step(state: State, db: Database) -> State:
    mb = _mb(state)
    grid = battle_map(state, db).hex_map
    moved = []
    lines = []
    for s in mb.servants:
        if s.hit_points <= 0:
            moved.append(s)
            continue
        to = servant_step(grid, s.hex, mb.warden)
        if core.QUIET.get():
            pass
        elif to != s.hex:
            lines.append(f"{label(db, s.id)} moves from {name(s.hex)} to {name(to)}: move its marker ({marker(db, s.id)}).")
        else:
            adjacent = hexes.distance(s.hex, mb.warden) == 1
            lines.append(f"{label(db, s.id)} stays on {name(s.hex)}" + (" (adjacent to you)." if adjacent else "."))
        moved.append(replace(s, hex=to))
    return core.note(_set(state, servants=tuple(moved)), *lines)


# ---- Phase b: Attack ------------------------------------------------------------------------------------
def attackers(state: State, db: Database) -> tuple[str, ...]:
    """The servants that attack this round, in order (rulebook, phase b; R15): every living servant with
    the warden within its range (hex distance), nearest first, then in the order drawn."""
    mb = _mb(state)
    found = [(hexes.distance(s.hex, mb.warden), i, s.id) for i, s in enumerate(mb.servants)
             if s.hit_points > 0 and hexes.distance(s.hex, mb.warden) <= servant_card(db, s.id).range]
    return tuple(sid for _, _, sid in sorted(found))


def active(state: State, db: Database) -> tuple[str, ...]:
    """The 'active' servants: living servants within the warden's attack range (one adjacent hex),
    in the order drawn (rulebook, phase b; R16)."""
    mb = _mb(state)
    reach = db.solo.rules.warden_attack_range
    return tuple(s.id for s in mb.living if hexes.distance(s.hex, mb.warden) <= reach)


def _begin_attacks(state: State, db: Database) -> State:
    queue = attackers(state, db)
    state = _set(state, step="attack", queue=queue)
    if not queue:
        state = core.note(state, f"Round {_mb(state).round}, phase b: no servant has you in range; no attacks this round.")
        return _end_attacks(state, db)
    if core.QUIET.get():
        return state
    names = ", ".join(label(db, s) for s in queue)
    return core.note(state, f"Round {_mb(state).round}, phase b: {names} {'attacks' if len(queue) == 1 else 'attack, in this order'}.")


def exchange_totals(state: State, db: Database) -> tuple[int, int]:
    """(player's total, servant's total) of the attack on the table (R5, R41, R40 with the servant's type;
    :func:`referee.solo.core.attack_totals`)."""
    ex = _exchange(state)
    return core.attack_totals(db, ex.dice, ex.enemy, ex.casts, servant_card(db, ex.servant).servant_type)


def _exchange(state: State) -> Exchange:
    exchange = _mb(state).exchange
    assert exchange is not None
    return exchange


def apply_attack(state: State, db: Database, event: ev.Attack) -> Outcome:
    """Phase b (rulebook, Expanded Battles): the next servant's attack. Both sides roll, the servant one
    die more (Elder San's die, called before, joins the player's roll only: R50); the referee waits while
    a spell or an Elder could still turn a losing roll (R34), else resolves it."""
    mb = _step(state, "attack", "attacking")
    servant_id = mb.queue[0]
    mine_n, theirs_n = exchange_dice(state, db)
    helpers = " and ".join(f"{core.name(db, e)}'s die" for e in mb.before_roll)
    state, dice = core.roll(state, db, event.dice, mine_n, "dice", f"your attack{' with ' + helpers if helpers else ''}")
    state, enemy = core.roll(state, db, event.enemy, theirs_n, "enemy", f"the {servant_card(db, servant_id).name}'s attack")
    state = _set(state, step="exchange", exchange=Exchange(servant_id, dice.values, enemy.values, elders=mb.before_roll), before_roll=())
    if not core.QUIET.get():
        s = _mb(state).servant(servant_id)
        far = hexes.distance(s.hex, _mb(state).warden)
        mine, theirs = exchange_totals(state, db)
        among = f", {helpers} among them" if helpers else ""
        state = core.note(state, f"{label(db, servant_id)} at {name(s.hex)} ({far} {'hex' if far == 1 else 'hexes'} away) attacks. "
                                 f"You roll {dice} ({'typed' if dice.typed else 'rolled'}{among}): {mine}. "
                                 f"It rolls {enemy} ({'typed' if enemy.typed else 'rolled'}): {theirs}.")
    return _after_exchange(state, db)


def exchange_dice(state: State, db: Database) -> tuple[int, int]:
    """(player's dice, servant's dice) of the next attack roll (rulebook, phase b: "The Grayking's servants
    will always roll one more die than you"): :func:`attack_dice`, plus the free dice of the Elders called
    for this roll, which the servant's dice leave out ("his extra attack die does not count towards the
    number rolled by the Grayking"; R6, R50): :func:`referee.solo.core.attack_dice`, the servant's one more
    die being the rules' extra servant dice."""
    return core.attack_dice(state, db, _mb(state).before_roll, db.solo.rules.servant_extra_dice)


def _after_exchange(state: State, db: Database) -> Outcome:
    """An attack on the table: a game now decided is over; won, it is resolved at once; losing, it is left
    open (R34), to be resolved or to wait (:func:`_hold_exchange`)."""
    if state.result is not None:
        return replace(state, phase="over")
    mine, theirs = exchange_totals(state, db)
    if mine >= theirs:
        return _resolve_exchange(state, db)
    return OpenRoll(state, settle=_resolve_exchange, hold=_hold_exchange)


def _hold_exchange(state: State, db: Database, aid: Callable[[], list[str]]) -> State:
    """A losing attack that aid can still turn waits (R34)."""
    mine, theirs = exchange_totals(state, db)
    return core.note(state, f"You are losing {mine} to {theirs}.")


def _resolve_exchange(state: State, db: Database) -> State:
    """Resolve one servant's attack (rulebook, phase b): equal or greater halts it and, when the servant is
    within your attack range, deals it one hit point; else its hit deals its card's damage (R17)."""
    mb = _mb(state)
    ex = mb.exchange
    assert ex is not None
    card = servant_card(db, ex.servant)
    s = mb.servant(ex.servant)
    mine, theirs = exchange_totals(state, db)
    reach = db.solo.rules.warden_attack_range
    if mine >= theirs:
        if hexes.distance(s.hex, mb.warden) <= reach:
            hp = max(0, s.hit_points - db.solo.rules.warden_hit_damage)
            state = _wound(state, db, ex.servant, s.hit_points - hp, f"You win {mine} to {theirs}")
        else:
            state = core.note(state, f"You win {mine} to {theirs} and halt its attack; "
                                     "it is out of your reach, so it takes no damage (rulebook, phase b).")
    else:
        state = core.note(state, f"{card.name} wins {theirs} to {mine}: it hits you for {card.damage} {card.damage_to.capitalize()}.")
        state = core.adjust(state, db, **{card.damage_to: -card.damage})
    if state.result is not None:
        return replace(state, phase="over", map_battle=None)
    living = {x.id for x in _mb(state).living}
    state = _set(state, step="attack", exchange=None, queue=tuple(q for q in _mb(state).queue[1:] if q in living))
    if not _mb(state).living:
        return win(state, db)
    if not _mb(state).queue:
        return _end_attacks(state, db)
    return state


def _wound(state: State, db: Database, servant_id: str, points: int, why: str) -> State:
    mb = _mb(state)
    s = mb.servant(servant_id)
    hp = max(0, s.hit_points - points)
    state = _set(state, servants=tuple(replace(x, hit_points=hp) if x.id == servant_id else x for x in mb.servants))
    if hp == 0:
        return core.note(state, f"{why}: {label(db, servant_id)} is slain. "
                                f"Remove its marker ({marker(db, servant_id)}) from {name(s.hex)}.")
    return core.note(state, f"{why}: {label(db, servant_id)} loses {points} hit {'point' if points == 1 else 'points'}; "
                            f"move its hit point marker to {hp}.")


def _end_attacks(state: State, db: Database) -> State:
    """Phase c follows only when a spell was cast this round within Eldritch range of a living servant
    (rulebook, phase c; R18); otherwise the next round begins."""
    mb = _mb(state)
    if mb.magic_near:
        return core.note(_set(state, step="eldritch", queue=()),
                         f"Round {mb.round}, phase c: you cast a spell within {db.solo.rules.eldritch_range} hex of a servant: "
                         f"roll 2d6 on {battle_map(state, db).title}'s Eldritch Damage table.")
    return _next_round(state, db)


def _next_round(state: State, db: Database) -> State:
    mb = _mb(state)
    state = replace(state, used=())
    state = _set(state, round=mb.round + 1, step="move", queue=(), exchange=None, magic_near=False, magic_cast=False, eldritch=None)
    leave = " You recharged on the blue cross: move off it this round." if must_leave(_mb(state)) else ""
    return core.note(state, f"Round {mb.round + 1}: take your spell markers back (each spell once a round, R45). Phase a: move.{leave}")


# ---- Phase c: Eldritch Damage ---------------------------------------------------------------------------------
def apply_eldritch(state: State, db: Database, event: ev.Eldritch) -> Outcome:
    """Phase c (rulebook, Expanded Battles): roll 2d6 on the map's Eldritch Damage table; while a re-roll
    spell could change it the roll waits (R48), else its row applies: the roll is left open
    (:class:`~referee.solo.core.OpenRoll`) for the dispatcher to settle or hold. Raises :class:`RuleError`."""
    _step(state, "eldritch", "rolling Eldritch Damage")
    state, dice = core.roll(state, db, event.dice, 2, "dice", "the Eldritch Damage roll")
    state = _set(state, step="eldritch-rolled", eldritch=dice.total)
    table = db.table(battle_map(state, db).eldritch_table)
    row = table.row_for(dice.total)
    state = core.note(state, f"Eldritch Damage: you roll {dice} ({'typed' if dice.typed else 'rolled'}) = {dice.total}: {row.text}.")
    return OpenRoll(state, settle=apply_eldritch_row, hold=_hold_eldritch)


def _hold_eldritch(state: State, db: Database, aid: Callable[[], list[str]]) -> State:
    """An Eldritch roll that costs the player Mana or Spirit waits while a re-roll spell of ``aid()`` could
    turn it (rulebook, phase c: "You may cast any re-roll Flint or Ice spells"; R48): name them (no search
    while nobody reads the notes, :data:`referee.solo.core.QUIET`)."""
    if core.QUIET.get():
        return state
    names = ", ".join(core.name(db, s) for s in aid())
    return core.note(state, f"It can be re-rolled with {names} (the re-roll stands), or accepted.")


def apply_eldritch_row(state: State, db: Database) -> State:
    """Apply the Eldritch row of the roll on the table (R16: the active servant is the adjacent one with
    the fewest hit points, then the first drawn); then the next round, or the battle won."""
    mb = _mb(state)
    assert mb.eldritch is not None
    effect = db.table(battle_map(state, db).eldritch_table).row_for(mb.eldritch).effect
    targets = active(state, db)
    target = min(targets, key=lambda sid: (mb.servant(sid).hit_points, targets.index(sid))) if targets else None
    if effect.slay_active and target:
        state = _wound(state, db, target, mb.servant(target).hit_points, "Eldritch Damage")
    if effect.active_servant and target:
        state = _wound(state, db, target, effect.active_servant, "Eldritch Damage")
    if (effect.slay_active or effect.active_servant) and not target:
        state = core.note(state, "No servant is active (adjacent): the wound falls on no one (R16).")
    if effect.all_servants:
        for s in _mb(state).living:
            state = _wound(state, db, s.id, effect.all_servants, "Eldritch Damage")
    if effect.mana or effect.spirit:
        state = core.adjust(state, db, mana=effect.mana, spirit=effect.spirit)
    if state.result is not None:
        return replace(state, phase="over", map_battle=None)
    if not _mb(state).living:
        return win(state, db)
    return _next_round(state, db)


# ---- Spells on the map ------------------------------------------------------------------------------------------
CAST_WORDS = core.CastWords(
    passive="{name} adds its extra dice to every attack by itself; it is not cast",
    used="{name} is already used this round (each spell once a round unless recharged, R45)")
"""How a map battle words the checks every cast shares (:func:`referee.solo.core.cast_problem`)."""


def cast_problem(state: State, db: Database, chosen: Spell) -> str | None:
    """Why ``chosen`` cannot be cast now in the map battle (None when it can; R45-R46):
    :func:`referee.solo.core.cast_problem` with the map's place and timing."""
    return core.cast_problem(state, db, chosen, CAST_WORDS, _cast_place, _cast_timing)


def _cast_place(state: State, db: Database, chosen: Spell) -> str | None:
    """A map battle has no Battle Loss table and no event text (R46)."""
    if core.acts_on_city_quest(chosen.effect):
        return f"{chosen.name} acts on a City Quest's Battle Loss or event text; a map battle has neither (R46)"
    return None


def _cast_timing(state: State, db: Database, chosen: Spell) -> str | None:
    """Only a re-roll spell changes the Eldritch roll (rulebook, phase c; R48); an attack spell is cast once
    a servant's attack is rolled (R46)."""
    mb = _mb(state)
    effect = chosen.effect
    rerolls = effect.reroll_own or effect.reroll_servants or effect.reroll_table
    if mb.step == "eldritch-rolled":
        if not rerolls:
            return f"only a re-roll spell changes the Eldritch roll (rulebook, phase c); {chosen.name} is not one"
    elif effect.reroll_table and not (effect.reroll_own and mb.step == "exchange"):
        return f"{chosen.name} re-rolls an Eldritch roll; none is on the table"
    elif (effect.attack_total or effect.against or effect.remove_servant_die or effect.reroll_own or effect.reroll_servants) \
            and mb.step != "exchange":
        return f"{chosen.name} changes an attack roll; cast it once a servant's attack is rolled (R46)"
    return None


def apply_cast(state: State, db: Database, event: ev.Cast) -> Outcome:
    """Cast a learned spell in the map battle (rulebook, phase b: "once each round, unless recharged"; R45-R46),
    then settle what it leaves on the table: an Eldritch re-roll stands and its row applies at once
    (rulebook, phase c: "You must abide by the re-roll outcome"); an attack is resolved, or left open
    while the player is losing (R34). Raises :class:`RuleError`."""
    step = _mb(state).step if state.map_battle is not None else None
    state = cast_on_table(state, db, event)
    if state.result:
        return replace(state, phase="over", map_battle=None)
    if step == "eldritch-rolled":
        return apply_eldritch_row(state, db)
    if step == "exchange":
        return _after_exchange(state, db)
    return state


def cast_on_table(state: State, db: Database, event: ev.Cast) -> State:
    """Cast a learned spell in the map battle and apply its effect to the roll on the table, settling
    nothing (R45-R46): an Eldritch re-roll changes the total on the table, an attack spell the
    exchange's dice or totals. :func:`apply_cast` settles; :mod:`referee.solo.aid` searches with this.
    Raises :class:`RuleError` when the spell cannot be cast now."""
    core.require_phase(state, "map", lambda: f"casting {core.called(db, event.spell)}")
    chosen = core.spell(db, event.spell)
    problem = cast_problem(state, db, chosen)
    if problem:
        raise RuleError(f"cannot cast {chosen.name}: {problem}")
    if event.rows is not None:
        raise RuleError(f"{chosen.name} lowers no Battle Loss row on a map", field="rows")
    if event.counter is not None:
        raise RuleError("the Grayking counters spells only in the Last Stand", field="counter")
    mb = _mb(state)
    effect = chosen.effect
    step = mb.step
    near = step != "eldritch-rolled" and near_servant(state, db)
    state = _set(state, magic_near=mb.magic_near or near, magic_cast=mb.magic_cast or step != "eldritch-rolled")
    # (thirty-eighth referee breaker, LOW 9: "follows this round" was said of a cast that then slew the last servant,
    # which wins the battle before phase c)
    remark = (" (within one hex of a servant: Eldritch Damage follows in phase c, unless every servant is slain first)"
              if near and not mb.magic_near else "")
    state = core.pay_for_cast(state, db, chosen, remark)
    if state.result:
        return state
    if step == "eldritch-rolled":
        if event.reroll:
            raise RuleError("the Eldritch roll is re-rolled whole (2d6)", field="reroll")
        state, dice = core.roll(state, db, event.dice, 2, "dice", "the Eldritch re-roll")
        state = _set(state, eldritch=dice.total)
        row = db.table(battle_map(state, db).eldritch_table).row_for(dice.total)
        return core.note(state, f"You re-roll the Eldritch Damage: {dice} = {dice.total}: {row.text}. The re-roll stands.")
    if step == "exchange":
        ex = _exchange(state)
        state = _set(state, exchange=replace(ex, casts=ex.casts + (chosen.id,)))
        if effect.reroll_own:
            state = _reroll_own(state, db, event.reroll, event.dice)
        elif effect.reroll_servants:
            state, enemy = core.reroll_theirs(state, db, chosen.name, event.reroll, len(ex.enemy), event.dice, "the servant")
            state = _set(state, exchange=replace(_exchange(state), enemy=enemy))
        elif event.reroll or event.dice is not None:
            raise RuleError(f"{chosen.name} re-rolls no dice", field=core.reroll_field(event))
        if core.QUIET.get():
            return state
        mine, theirs = exchange_totals(state, db)
        return core.note(state, f"Your total is {mine}, the servant's {theirs}.")
    if event.reroll or event.dice is not None:
        raise RuleError(f"{chosen.name} re-rolls no dice now", field=core.reroll_field(event))
    return state


def _reroll_own(state: State, db: Database, reroll: tuple[int, ...], dice: Dice | None) -> State:
    state, mine = core.reroll_own(state, db, _exchange(state).dice, reroll, dice, show_dice=False)
    return _set(state, exchange=replace(_exchange(state), dice=mine))


def apply_accept(state: State, db: Database, event: ev.Accept) -> State:
    """Accept the attack or the Eldritch roll on the table as it stands (rulebook, phases b and c).
    Raises :class:`RuleError` when none is on the table."""
    _step(state, ("exchange", "eldritch-rolled"), "accepting")
    if event.next is not None:
        raise RuleError("a map battle turns over no next card", field="next")
    if _mb(state).step == "exchange":
        return _resolve_exchange(state, db)
    return apply_eldritch_row(state, db)


# ---- Elders on the map (rulebook, If it is an Elders card; R11, R50) -----------------------------------------------
def elder_problem(state: State, db: Database, elder_id: str) -> str | None:
    """Why an Elder cannot be called now in the map battle (None when it can; R50).

    Rulebook, If it is an Elders card: "You may call on the power of each Elder three times ... Each
    Elder's power may only be used once in a battle": beside the stats card and once in the whole map
    battle (:func:`referee.solo.core.elder_problem`). Elder San adds his die to an attack roll, so he is
    called when a servant's attack is about to be rolled (phase b); Elder Maelis re-rolls your attack
    dice, so she is called once an attack is rolled, never on the Eldritch roll (only "re-roll Flint or
    Ice spells" alter it, R48). Elder Rhun lowers a Battle Loss row, and a map battle has no Battle
    Loss table (R46).
    """
    mb = _mb(state)
    card = core.quest(db, elder_id)
    if not isinstance(card, Elder):
        return f"{card.name} is not an Elders card"
    aid = card.aid
    if core.lowers_battle_loss(aid):
        return f"{card.name} lowers a Battle Loss result, and a map battle has no Battle Loss table (R46)"
    if not mb.elders_aid:
        return "this map battle was set up by an older referee, which called no Elders on the map; they aid you from the next battle (R50)"
    problem = core.elder_problem(state, db, elder_id, mb.elders)
    if problem:
        return problem
    if aid.free_dice:
        if mb.step == "exchange":
            return (f"{card.name} adds a die to an attack roll; this attack is already rolled "
                    "(call him before the next servant's attack is rolled)")
        if mb.step != "attack":
            return f"{card.name} adds a die to an attack roll; call him in phase b, before a servant's attack is rolled"
        return None
    if aid.reroll_own:
        if mb.step == "eldritch-rolled":
            return f"{card.name} re-rolls attack dice; only re-roll Flint or Ice spells alter the Eldritch roll (rulebook, phase c; R50)"
        if mb.step != "exchange":
            return f"{card.name} re-rolls your attack dice; call on them once a servant's attack is rolled and you are losing"
        return None
    return f"{card.name}'s aid has nothing to act on in a map battle"


def before_roll_options(state: State, db: Database) -> list[str]:
    """Elders that may be called now for the next attack roll (Elder San; R50), for the advice."""
    mb = _mb(state)
    if mb.step != "attack":
        return []
    return [e for e, _ in state.elders if elder_problem(state, db, e) is None and core.elder_card(db, e).aid.free_dice]


def apply_elder(state: State, db: Database, event: ev.CallElder) -> Outcome:
    """Call on an Elder in the map battle (rulebook, If it is an Elders card; R11, R50): one of its uses is
    spent and, after the last, the card leaves the game (:func:`referee.solo.core.call_elder`); each
    Elder aids once in the whole map battle. Elder San's die joins the next attack roll, the servant's
    dice not raised; Elder Maelis re-rolls any of your dice of the attack on the table. Calling an Elder
    is not casting a spell: it calls no Eldritch Damage (R18). An attack re-rolled is then resolved, or
    left open while the player is losing (R34). Raises :class:`RuleError`."""
    state = call_on_table(state, db, event)
    if _mb(state).step == "exchange" and core.elder_card(db, event.elder).aid.reroll_own:
        return _after_exchange(state, db)
    return state


def call_on_table(state: State, db: Database, event: ev.CallElder) -> State:
    """Call on an Elder in the map battle and apply the aid, settling nothing (see :func:`apply_elder`).
    Raises :class:`RuleError` when the Elder cannot aid now (R50)."""
    core.require_phase(state, "map", lambda: f"calling on {core.called(db, event.elder)}")
    card = core.checked_elder_call(db, event, elder_problem(state, db, event.elder), "a map battle")
    state = core.call_elder(state, db, card.id)
    state = _set(state, elders=_mb(state).elders + (card.id,))
    if card.aid.free_dice:
        state = _set(state, before_roll=_mb(state).before_roll + (card.id,))
        mine, theirs = exchange_dice(state, db)
        servant_id = _mb(state).queue[0]
        return core.note(state, f"{card.name}'s die joins your roll against {label(db, servant_id)}: "
                                f"you roll {mine} dice, it rolls {theirs} (his die does not count toward the servant's dice).")
    ex = _exchange(state)
    state = _set(state, exchange=replace(ex, elders=ex.elders + (card.id,)))
    state = _reroll_own(state, db, event.reroll, event.dice)
    mine, theirs = exchange_totals(state, db)
    return core.note(state, f"Your total is {mine}, the servant's {theirs}.")


# ---- The blue cross ------------------------------------------------------------------------------------------------
def apply_recharge(state: State, db: Database, event: ev.Recharge) -> State:
    """Recharge every used spell of one type on the blue cross (rulebook, phase a; the map's event text:
    "recharge each spell type once"; R47): the warden stands on it, once a round, each type once a battle;
    the warden must leave the hex in the next round's move, and may not recharge again before that. A
    recharge that would bring no used spell back is refused and not spent (:func:`referee.solo.core.recharge_problem`,
    R53). Raises :class:`RuleError`."""
    mb = _step(state, ("move", "attack", "eldritch"), "recharging")
    grid = battle_map(state, db).hex_map
    kind = event.spell_type.lower()
    types = [p.spell_type for p in db.solo.spell_path]
    if kind not in types:
        raise RuleError(str(core.recharge_problem(state, db, kind)), field="spell_type")
    if mb.warden != grid.recharge.address:
        raise RuleError(f"recharge: you are on {name(mb.warden)}; the blue cross is {name(grid.recharge.address)}")
    if mb.recharged_round == mb.round:
        raise RuleError("recharge: you have already recharged a spell type this round")
    if must_leave(mb):  # a new recharge must not lift the duty to move away (R47)
        raise RuleError("recharge: you recharged on the blue cross last round, so you must move off it this round; "
                        "you may come back and recharge the round after (R47)")
    if kind in mb.recharged:
        raise RuleError(f"recharge: you have already recharged your {kind.capitalize()} spells in this battle (each type once, R47)")
    problem = core.recharge_problem(state, db, kind)
    if problem and (mb.no_free_escape or not any(core.spell(db, s).spell_type == kind for s in state.spells)):
        raise RuleError(f"recharge: {problem}")
    state, back = core.recharge_type(state, db, kind)
    state = _set(state, recharged=mb.recharged + (kind,), recharged_round=mb.round)
    what = ", ".join(core.name(db, s) for s in back) or "none was used"
    return core.note(state, f"On the blue cross you recharge your {kind.capitalize()} spells ({what}). Move off this hex next round.")


# ---- The end (rulebook, Expanded Battles 6a, 6b, 7) ---------------------------------------------------------------
def win(state: State, db: Database) -> State:
    """6a: every servant slain: the Warding Key, its bonus at once (R12), the card out of the game; 7."""
    card = warding_card(state, db)
    state = core.note(replace(state, map_battle=None, used=()), f"Every servant is slain: you have won {battle_map(state, db).title}.")
    return win_warding(state, db, card)


RETREAT_WAITS = {
    "exchange": "a servant's attack is rolled and you are losing: take its hit first, or turn it with a spell or an Elder",
    "eldritch": "Eldritch Damage is due this round: roll it first",
    "eldritch-rolled": "the Eldritch Damage roll is on the table: settle it first, accepted or re-rolled with a spell",
}
"""Steps of a round in which a roll is owed, and what settles it before a retreat (R54)."""


def retreat_problem(state: State) -> str | None:
    """Why the warden cannot retreat now (None when it may): 6b allows it "at any time", but a roll owed
    (a losing attack on the table, Eldritch Damage due or rolled) is settled first, so that a retreat is
    never a free escape from it (R54)."""
    mb = state.map_battle
    if mb is None or not mb.no_free_escape:
        return None
    return RETREAT_WAITS.get(mb.step)


def apply_retreat(state: State, db: Database, event: ev.Retreat) -> State:
    """6b: retreat at any time during the map battle: -1 Spirit, the card on the discard pile; 7. Not while
    a roll is owed (:func:`retreat_problem`, R54; of kind :attr:`~referee.solo.core.Refusal.WRONG_PHASE`).
    Raises :class:`RuleError`."""
    core.require_phase(state, ("map", "warding"), "retreating")
    problem = retreat_problem(state)
    if problem:
        raise RuleError(f"retreating waits for the roll owed (R54): {problem}", core.Refusal.WRONG_PHASE)
    card = warding_card(state, db)
    return retreat_warding(replace(state, map_battle=None, used=()), db, card)


# ---- The Warding City card (rulebook, Expanded Battles 6a, 6b, 7; R38) ---------------------------------------------
def apply_warding(state: State, db: Database, event: ev.Warding) -> State:
    """Enter the outcome of the Warding City battle fought on its Expanded Battle Map (rulebook,
    Expanded Battles 6a, 6b; R38): what the battle cost, the Elders it used, then either the Warding
    Key (its bonus applied at once, R12; the card removed from the game) or a retreat at the rules'
    Spirit cost (the card on the discard pile). Raises :class:`RuleError`."""
    core.require_phase(state, "warding", "entering the outcome of a Warding City battle")
    card = core.quest(db, state.card or "")
    assert isinstance(card, WardingCity)
    if core.replays_undone(state):
        raise RuleError("undo does not roll or draw again: the referee's dice and cards shown before the undo come up again, so "
                        "the Warding battle is fought with them on the map", core.Refusal.UNDONE, "outcome")
    if event.outcome not in typing.get_args(ev.WardingOutcome):
        raise RuleError(f"{event.outcome!r} is not an outcome; enter won or retreat", field="outcome")
    for i, elder_id in enumerate(event.elders):
        problem = core.elder_problem(state, db, elder_id, event.elders[:i])
        if problem:
            raise RuleError(problem, field="elders")
        state = core.spend_elder_use(state, elder_id)
    state = core.adjust(state, db, mana=event.mana, spirit=event.spirit)
    if state.result is not None:
        return replace(state, phase="over")
    if event.outcome == "won":
        return win_warding(state, db, card)
    return retreat_warding(state, db, card)


def win_warding(state: State, db: Database, card: WardingCity) -> State:
    """Expanded Battles 6a and 7: the Warding Key marked, its one-time bonus applied at once (R12), the
    Warding City card removed from the game, the servant cards shuffled back."""
    key = next(k for k in core.stats(db).keys if k.key == card.key)
    state = core.note(replace(state, keys=tuple(sorted(state.keys + (card.key,))), removed=state.removed + (card.id,), card=None),
                      f"You win Warding Key {card.key}: place a marker on key {card.key} of your Character Stats card. "
                      f"Remove {card.name} from the game.",
                      f"Warding Key {card.key} bonus: {core.plain_text(key.text)}.")
    state = core.apply_effect(state, db, key.effect)
    state = core.note(state, "Shuffle all Servant cards back into the Servant draw deck.")
    return replace(state, phase="over" if state.result else "draw")


def retreat_warding(state: State, db: Database, card: WardingCity) -> State:
    """Expanded Battles 6b and 7: retreat at the rules' Spirit cost, the card on the Quest discard pile,
    the servant cards shuffled back."""
    state = core.note(replace(state, discard=state.discard + (card.id,), card=None),
                      f"You retreat from {card.name}: place it on the discard pile.")
    state = core.adjust(state, db, spirit=db.solo.rules.retreat_spirit)
    state = core.note(state, "Shuffle all Servant cards back into the Servant draw deck.")
    return replace(state, phase="over" if state.result else "draw")
