"""The Last Stand expansion: pure rule functions of (state, database, event).

This module owns the rulebook's section "Last Stand Expansion": when the Last Stand is offered, its
start (Mana and Spirit raised by the spells learned, the Grayking on 8 hit points), its rounds (the
Grayking rolls one die more; a player success takes one hit point, a Grayking success costs 2 Spirit),
the spell counter cards (every Flint or Ice spell cast is countered by the counter at its position,
applied as written), the Elders called in it and the recharge on the gray spaces. Numbers come from
``[[solo.last_stand]]``, the counter cards and their tables in ``cards.toml``; gaps are answered by
``docs/rulings.md`` (R20-R23, R49, R51). Steps every battle shares come from :mod:`referee.solo.core`
(falling in the Last Stand too: :func:`referee.solo.core.lose`, R56); a losing roll is returned as a
:class:`~referee.solo.core.OpenRoll` for the dispatcher (:func:`referee.solo.rules.apply`) to settle or
hold (R34).
"""
from __future__ import annotations

from collections.abc import Callable

from pnp.database import Database, Elder, LastStand, Spell, TableRow
from referee.dice import Dice
from referee.solo import core
from referee.solo import events as ev
from referee.solo.core import OpenRoll, Outcome, RuleError
from referee.solo.state import Ending, LastStandState, State, replace

LOST_REASON = core.LAST_STAND_LOST_REASON
"""The reason of a game whose Last Stand was lost (R56): the game stays won."""


def card(db: Database) -> LastStand:
    """The Last Stand card."""
    return db.solo.last_stand[0]


def _ls(state: State) -> LastStandState:
    assert state.last_stand is not None
    return state.last_stand


def _set(state: State, **changes: object) -> State:
    return replace(state, last_stand=replace(_ls(state), **changes))


def offered(state: State, db: Database) -> bool:
    """Whether the player may travel to the Ash Tower now (rulebook: "After locking all 3 gates of the
    Barrier Plains you may travel to the Ash Tower"; R49): the game was just won with Barrier Lock
    (:attr:`Ending.BARRIER_LOCK`) and no Last Stand was fought."""
    return state.ending is Ending.BARRIER_LOCK and state.last_stand is None and len(state.keys) == len(core.stats(db).keys)


def apply_last_stand(state: State, db: Database, event: ev.LastStand) -> State:
    """Begin the Last Stand (card text): "For each spell you have learned during your quest, increase your
    mana and spirit by that amount" (R20: by the number of spells learned), the Grayking on his first hit
    point space; every spell marker is taken back (a new battle, R23). Elders aid it unless the event comes
    from a save written before they did (``stand_elders`` false: replayed as fought, R51(f)). Raises
    :class:`RuleError` unless the Last Stand is offered now (:func:`offered`)."""
    if not offered(state, db):
        if state.last_stand is not None and state.result is None:
            raise core.wrong_phase(state, "travelling to the Ash Tower")  # the Last Stand is being fought
        over = core.Refusal.GAME_OVER if state.result is not None else None
        if state.last_stand is not None:
            raise RuleError("the Last Stand has already been fought in this game", over)
        raise RuleError("the Last Stand comes after you lock the gates: hold all three Warding Keys and cast Barrier Lock first (R49)", over)
    stand = card(db)
    learned = len(state.spells)
    begun = LastStandState(stand.hit_points[0], elders_aid=event.stand_elders, no_free_escape=event.no_free_escape)
    state = replace(state, ending=None, reason="", phase="stand", used=(), last_stand=begun)
    state = core.note(state, f"You travel to the Ash Tower: {stand.text[0]}",
                      f"You have learned {learned} spells: Mana and Spirit rise by {learned} (R20).")
    state = core.adjust(state, db, mana=learned, spirit=learned)
    return core.note(state, f"Place a marker on {stand.hit_points[0]} of the Grayking's hit point track on {stand.title}. "
                            "Every Flint or Ice spell you cast is countered by the counter card at its position.")


# ---- Rolls ---------------------------------------------------------------------------------------------------
def dice_counts(state: State, db: Database) -> tuple[int, int]:
    """(player's dice, Grayking's dice): the attack dice with every learned spell's extra dice, and the
    card's one more for the Grayking (:func:`referee.solo.core.attack_dice`, no Elder's die)."""
    return core.attack_dice(state, db, (), card(db).grayking_extra_dice)


def round_dice(state: State, db: Database) -> tuple[int, int]:
    """(player's dice, Grayking's dice) of the next round's roll: :func:`dice_counts`, plus the free dice of
    the Elders called for this roll, which the Grayking's dice leave out (rulebook, Note: "if you use Elder
    San in a battle, his extra attack die does not count towards the number rolled by the Grayking";
    R6, R51(b))."""
    return core.attack_dice(state, db, _ls(state).before_roll, card(db).grayking_extra_dice)


def totals(state: State, db: Database) -> tuple[int, int]:
    """(player's total, Grayking's total) of the dice on the table (R5; spells cast on this roll add
    their general bonus, Shield leaves out his highest die, R41; :func:`referee.solo.core.attack_totals`)."""
    ls = _ls(state)
    return core.attack_totals(db, ls.dice, ls.enemy, ls.casts)


def _require_round(state: State, rolled: bool | None, what: str | Callable[[], str]) -> LastStandState:
    """The Last Stand, after checking the game is in phase ``stand`` with a round rolled (``rolled``
    True), not rolled (False) or either (None); raises :class:`RuleError` saying that ``what`` (the event
    in words, or a function giving them, called only for the refusal) does not fit now and what the Last
    Stand waits for (:func:`referee.solo.core.waiting_for`)."""
    core.require_phase(state, "stand", what)
    ls = _ls(state)
    if rolled is not None and ls.rolled != rolled:
        raise core.wrong_phase(state, what if isinstance(what, str) else what())
    return ls


def apply_attack(state: State, db: Database, event: ev.Attack) -> Outcome:
    """A round of the Last Stand (card text): "The Grayking will roll one more attack die than you ...
    Roll for both his attack and yours." Elder San's die, called before, joins the player's roll only
    (R51(b)). The roll waits while a spell or an Elder could still turn it (R34): a losing roll is left
    open (:class:`~referee.solo.core.OpenRoll`). Raises :class:`RuleError`."""
    ls = _require_round(state, False, "attacking")
    mine_n, theirs_n = round_dice(state, db)
    helpers = " and ".join(f"{core.name(db, e)}'s die" for e in ls.before_roll)
    state, dice = core.roll(state, db, event.dice, mine_n, "dice", f"your attack{' with ' + helpers if helpers else ''}")
    state, enemy = core.roll(state, db, event.enemy, theirs_n, "enemy", "the Grayking's attack")
    state = _set(state, rolled=True, dice=dice.values, enemy=enemy.values, casts=(), roll_elders=ls.before_roll, before_roll=())
    if not core.QUIET.get():
        mine, theirs = totals(state, db)
        among = f", {helpers} among them" if helpers else ""
        state = core.note(state, f"You roll {dice} ({'typed' if dice.typed else 'rolled'}{among}): {mine}. "
                                f"The Grayking rolls {enemy} ({'typed' if enemy.typed else 'rolled'}): {theirs}.")
    return _after_roll(state, db)


def _after_roll(state: State, db: Database) -> Outcome:
    """A round on the table: a game now decided is over; won, it is resolved at once; losing, it is left
    open (R34), to be resolved or to wait (:func:`_hold`)."""
    if state.result is not None:
        return replace(state, phase="over")
    mine, theirs = totals(state, db)
    if mine >= theirs:
        return _resolve(state, db)
    return OpenRoll(state, settle=_resolve, hold=_hold)


def _hold(state: State, db: Database, aid: Callable[[], list[str]]) -> State:
    """A losing round that aid (spells, Elders, a gray-space recharge; the Grayking's counters weighed)
    can still turn waits (R34, R51)."""
    mine, theirs = totals(state, db)
    return core.note(state, f"You are losing {mine} to {theirs}.")


def _resolve(state: State, db: Database) -> State:
    """Card text: "If you are successful reduce his hit point count by one. If the Grayking is successful
    reduce your spirit count by two." 0 hit points wins; Spirit below 1 loses as usual (R23)."""
    stand = card(db)
    mine, theirs = totals(state, db)
    ls = _ls(state)
    state = _set(state, rolled=False, dice=(), enemy=(), casts=(), roll_elders=(), rounds=ls.rounds + 1)
    if mine >= theirs:
        hp = ls.hit_points - 1
        state = _set(state, hit_points=hp)
        if hp <= 0:
            state = core.note(_set(state, outcome="won"), f"You win {mine} to {theirs}: the Grayking's last hit point falls.")
            return core.end(state, Ending.LAST_STAND_WON, "you defeated the Grayking in the Last Stand",
                            "You have saved Lassadar: the Grayking is defeated in his Stronghold.")
        gray = " (a gray space: you may recharge one spell type)" if hp in stand.gray_spaces else ""
        return core.note(state, f"You win {mine} to {theirs}: move the Grayking's damage marker to {hp}{gray}.")
    state = core.note(state, f"The Grayking wins {theirs} to {mine}.")
    state = core.adjust(state, db, spirit=stand.player_hit_spirit)
    if state.result is not None:
        return replace(state, phase="over")
    return state


def apply_accept(state: State, db: Database, event: ev.Accept) -> State:
    """Accept the roll on the table as it stands (card text). Raises :class:`RuleError` when no round is
    rolled."""
    _require_round(state, True, "accepting")
    if event.next is not None:
        raise RuleError("the Last Stand turns over no next card", field="next")
    return _resolve(state, db)


# ---- Spells and their counters ----------------------------------------------------------------------------------
CAST_WORDS = core.CastWords(
    passive="{name} adds its extra dice to every roll by itself; it is not cast (and never countered, R21)",
    used="{name} is already used in the Last Stand (recharge its type on a gray space, R23)")
"""How the Last Stand words the checks every cast shares (:func:`referee.solo.core.cast_problem`)."""


def cast_problem(state: State, db: Database, chosen: Spell) -> str | None:
    """Why ``chosen`` cannot be cast now in the Last Stand (None when it can; R23, R21):
    :func:`referee.solo.core.cast_problem` with the Last Stand's place and timing."""
    return core.cast_problem(state, db, chosen, CAST_WORDS, _cast_place, _cast_timing)


def _cast_place(state: State, db: Database, chosen: Spell) -> str | None:
    """The Last Stand has no Battle Loss table and no event text (R21)."""
    if core.acts_on_city_quest(chosen.effect):
        return f"{chosen.name} acts on a City Quest's Battle Loss or event text; the Last Stand has neither (R21)"
    return None


def _cast_timing(state: State, db: Database, chosen: Spell) -> str | None:
    """A spell that changes a roll is cast once the round is rolled, a re-roll of your dice while some are
    on the table (R23)."""
    effect = chosen.effect
    if (effect.attack_total or effect.remove_servant_die or effect.reroll_own or effect.reroll_servants) and not _ls(state).rolled:
        return f"{chosen.name} changes a roll; cast it once the round is rolled"
    if effect.reroll_own and not effect.reroll_servants and not _ls(state).dice:
        return f"{chosen.name} re-rolls your dice, and none of yours is left on the table (Sullen Axe removed them)"
    return None


def counter_for(db: Database, chosen: Spell) -> TableRow | None:
    """The counter that "positionally matches" ``chosen`` on the spell counter cards (card text; R21, R22):
    the row at the spell's position on the counter cards of its type (their ``spell_type``); None for
    Oaken spells (no counter card has their type) and for positions no counter card prints."""
    for counter_card in db.solo.counter_card:
        if counter_card.spell_type == chosen.spell_type and chosen.position in counter_card.positions:
            return db.table(counter_card.table).row_for(chosen.position)
    return None


def apply_cast(state: State, db: Database, event: ev.Cast) -> Outcome:
    """Cast a spell in the Last Stand: its cost and effect first, then the Grayking's counter (R22); a
    roll on the table is then resolved, or left open while the player is losing (R34). Raises
    :class:`RuleError`."""
    state = cast_on_table(state, db, event)
    if state.result is not None:
        return replace(state, phase="over")
    if _ls(state).rolled:
        return _after_roll(state, db)
    return state


def cast_on_table(state: State, db: Database, event: ev.Cast) -> State:
    """Cast a spell in the Last Stand and apply it and the Grayking's counter (R22), settling nothing
    (:func:`apply_cast` settles; :mod:`referee.solo.aid` searches with this). Raises :class:`RuleError`
    when the spell cannot be cast now."""
    _require_round(state, None, lambda: f"casting {core.called(db, event.spell)}")
    chosen = core.spell(db, event.spell)
    problem = cast_problem(state, db, chosen)
    if problem:
        raise RuleError(f"cannot cast {chosen.name}: {problem}")
    if event.rows is not None:
        raise RuleError(f"{chosen.name} lowers no Battle Loss row in the Last Stand", field="rows")
    effect = chosen.effect
    if _ls(state).rolled:
        state = _set(state, casts=_ls(state).casts + (chosen.id,))
    state = core.pay_for_cast(state, db, chosen, stop_when_decided=False)
    if effect.reroll_own:
        state = _reroll_own(state, db, event.reroll, event.dice)
    elif effect.reroll_servants:
        state, enemy = core.reroll_theirs(state, db, chosen.name, event.reroll, len(_ls(state).enemy), event.dice, "the Grayking")
        state = _set(state, enemy=enemy)
    elif event.reroll or event.dice is not None:
        raise RuleError(f"{chosen.name} re-rolls no dice", field=core.reroll_field(event))
    if state.result is not None:
        return state
    row = counter_for(db, chosen)
    if row is None:
        if event.counter is not None:
            raise RuleError(f"no counter card answers {chosen.name} (position {chosen.position})", field="counter")
        state = core.note(state, f"No counter card prints position {chosen.position} for {chosen.spell_type.capitalize()} spells: "
                                 "the Grayking does not counter (R21).")
    else:
        state = _counter(state, db, chosen, row, event.counter)
    if state.result is None and _ls(state).rolled and not core.QUIET.get():
        mine, theirs = totals(state, db)
        state = core.note(state, f"Your total is {mine}, the Grayking's {theirs}.")
    return state


def _reroll_own(state: State, db: Database, reroll: tuple[int, ...], dice: Dice | None) -> State:
    state, mine = core.reroll_own(state, db, _ls(state).dice, reroll, dice)
    return _set(state, dice=mine)


def counter_dice(state: State, db: Database, chosen: Spell) -> int | None:
    """How many dice the Grayking's counter to ``chosen`` rolls if it is cast now (R22): 0 when the
    counter rolls none (or no counter answers the spell); ``None`` when the count is known only after
    the spell's own re-roll (Glass Lake re-rolls your dice, then Mirror re-rolls those showing 4 or more)."""
    row = counter_for(db, chosen)
    if row is None:
        return 0
    effect, ls = row.effect, _ls(state)
    if effect.reroll_grayking_at_most:
        return None if chosen.effect.reroll_servants else sum(1 for v in ls.enemy if v <= effect.reroll_grayking_at_most)
    if effect.forget_spell:
        return 2
    if effect.reroll_own:
        if not ls.rolled:
            return 0
        if chosen.effect.reroll_own:
            return None
        return sum(1 for v in ls.dice if v >= MIRROR_REROLLS_FROM)
    return 0


MIRROR_REROLLS_FROM = 4
"""Mirror: the Grayking re-rolls every one of your dice showing this or more (R22)."""


def _counter(state: State, db: Database, chosen: Spell, row: TableRow, typed: Dice | None) -> State:
    """Apply one counter exactly as the card writes it (R22)."""
    effect = row.effect
    ls = _ls(state)
    state = core.note(state, f"The Grayking counters {chosen.name} with {row.name} (position {chosen.position}): {row.text}")
    used_dice = False
    if effect.reroll_grayking_at_most:
        low = [i for i, v in enumerate(ls.enemy) if v <= effect.reroll_grayking_at_most]
        if low:
            state, new = core.roll(state, db, typed, len(low), "counter", f"{row.name}'s re-roll", track=False)
            used_dice = True
            enemy = list(ls.enemy)
            for i, v in zip(low, new.values, strict=True):
                enemy[i] = v
            state = core.note(_set(state, enemy=tuple(enemy)),
                              f"He re-rolls {len(low)} {'die' if len(low) == 1 else 'dice'} and gets {new}: "
                              f"his dice show {' '.join(map(str, enemy))}.")
        else:
            state = core.note(state, f"None of his dice shows {effect.reroll_grayking_at_most} or less: nothing to re-roll.")
    if effect.remove_own_at_most:
        kept = tuple(v for v in ls.dice if v > effect.remove_own_at_most)
        state = core.note(_set(state, dice=kept),
                          f"Remove your dice showing {effect.remove_own_at_most} or less: "
                          f"your dice show {' '.join(map(str, kept)) or 'nothing'}.")
    if effect.raise_grayking_at_most:
        to = effect.raise_grayking_at_most + 1
        raised = tuple(to if v <= effect.raise_grayking_at_most else v for v in _ls(state).enemy)
        state = core.note(_set(state, enemy=raised), f"His dice now show {' '.join(map(str, raised)) or 'nothing'}.")
    if effect.mana or effect.spirit:
        state = core.adjust(state, db, mana=effect.mana, spirit=effect.spirit)
    if effect.forget_spell:
        state, roll = core.roll(state, db, typed, 2, "counter", f"{row.name}'s 2d6", track=False)
        used_dice = True
        matching = [s for s in state.spells if core.spell(db, s).position == roll.total]
        if matching:
            lost = matching[-1]
            state = replace(state, spells=tuple(s for s in state.spells if s != lost), used=tuple(s for s in state.used if s != lost))
            which = " (the most recently learned of your spells with that number, R22)." if len(matching) > 1 else "."
            state = core.note(state, f"He rolls {roll} = {roll.total}: you forget {core.name(db, lost)}; "
                                     f"take its marker off the Spell Path card{which}")
        else:
            state = core.note(state, f"He rolls {roll} = {roll.total}: none of your spells bears that number; you forget nothing (R22).")
    if effect.reroll_own:
        dice = _ls(state).dice
        high = [i for i, v in enumerate(dice) if v >= MIRROR_REROLLS_FROM]
        if high and _ls(state).rolled:
            state, new = core.roll(state, db, typed, len(high), "counter", f"{row.name}'s re-roll", track=False)
            used_dice = True
            mine = list(dice)
            for i, v in zip(high, new.values, strict=True):
                mine[i] = v
            state = core.note(_set(state, dice=tuple(mine)),
                              f"He re-rolls your dice showing {MIRROR_REROLLS_FROM} or more: {new}; "
                              f"your dice show {' '.join(map(str, mine))} (R22).")
        else:
            state = core.note(state, f"None of your dice on the table shows {MIRROR_REROLLS_FROM} or more: nothing to re-roll (R22).")
    if typed is not None and not used_dice:
        why = (f": none of his dice shows {effect.reroll_grayking_at_most} or less" if effect.reroll_grayking_at_most
               else f": none of your dice shows {MIRROR_REROLLS_FROM} or more" if effect.reroll_own else "")
        raise RuleError(f"{row.name} rolls no dice now{why}", field="counter")
    return state


# ---- Elders in the Last Stand (rulebook, If it is an Elders card; R11, R51) -------------------------------------
def elder_problem(state: State, db: Database, elder_id: str) -> str | None:
    """Why an Elder cannot be called now in the Last Stand (None when it can; R51).

    Rulebook, If it is an Elders card: "You may call on the power of each Elder three times ... Each
    Elder's power may only be used once in a battle", and the card calls the Last Stand "the last
    battle": beside the stats card and once in the whole Last Stand (:func:`referee.solo.core.elder_problem`).
    Elder San adds his die to a round's roll, so he is called before the round is rolled; Elder Maelis
    re-rolls your dice, so she is called once a round is rolled (and some of your dice are on the table:
    Sullen Axe may have removed them). Elder Rhun lowers a Battle Loss row, and the Last Stand has none
    (a Grayking success costs Spirit, card text; R21).
    """
    ls = _ls(state)
    card = core.quest(db, elder_id)
    if not isinstance(card, Elder):
        return f"{card.name} is not an Elders card"
    aid = card.aid
    if core.lowers_battle_loss(aid):
        return f"{card.name} lowers a Battle Loss result, and the Last Stand has no Battle Loss table (R51)"
    if not ls.elders_aid:
        return ("this Last Stand was begun by an older referee, which called no Elders in the Last Stand; "
                "it is fought to its end without them (R51)")
    problem = core.elder_problem(state, db, elder_id, ls.elders)
    if problem:
        return problem + ("; the whole Last Stand is one battle (R51)" if elder_id in ls.elders else "")
    if aid.free_dice:
        if ls.rolled:
            return f"{card.name} adds a die to a round's roll; this round is already rolled (call him before the next round is rolled)"
        return None
    if aid.reroll_own:
        if not ls.rolled:
            return f"{card.name} re-rolls your dice; call on them once a round is rolled and you are losing"
        if not ls.dice:
            return f"{card.name} re-rolls your dice, and none of yours is left on the table"
        return None
    return f"{card.name}'s aid has nothing to act on in the Last Stand"


def before_roll_options(state: State, db: Database) -> list[str]:
    """Elders that may be called now for the next round's roll (Elder San; R51), for the advice."""
    if _ls(state).rolled:
        return []
    return [e for e, _ in state.elders if elder_problem(state, db, e) is None and core.elder_card(db, e).aid.free_dice]


def apply_elder(state: State, db: Database, event: ev.CallElder) -> Outcome:
    """Call on an Elder in the Last Stand (rulebook, If it is an Elders card; R11, R51): one of its uses is
    spent and, after the last, the card leaves the game (:func:`referee.solo.core.call_elder`); each
    Elder aids once in the whole Last Stand. Elder San's die joins the next round's roll, the Grayking's
    dice not raised; Elder Maelis re-rolls any of your dice of the round on the table. An Elder is not a
    Flint or Ice spell and has no position on the counter cards: the Grayking does not counter it
    (card text: "For any flint or ice spell you use ..."; R51(d)). A round re-rolled is then resolved, or
    left open while the player is losing (R34). Raises :class:`RuleError`."""
    state = call_on_table(state, db, event)
    if state.result is None and _ls(state).rolled and core.elder_card(db, event.elder).aid.reroll_own:
        return _after_roll(state, db)
    return state


def call_on_table(state: State, db: Database, event: ev.CallElder) -> State:
    """Call on an Elder in the Last Stand and apply the aid, settling nothing (see :func:`apply_elder`).
    Raises :class:`RuleError` when the Elder cannot aid now (R51)."""
    _require_round(state, None, f"calling on {core.called(db, event.elder)}")
    card = core.checked_elder_call(db, event, elder_problem(state, db, event.elder), "the Last Stand")
    state = core.call_elder(state, db, card.id)
    state = _set(state, elders=_ls(state).elders + (card.id,))
    if card.aid.free_dice:
        state = _set(state, before_roll=_ls(state).before_roll + (card.id,))
        mine, theirs = round_dice(state, db)
        return core.note(state, f"{card.name}'s die joins your next roll: you roll {mine} dice, the Grayking {theirs} "
                                "(his die does not count toward the Grayking's dice). "
                                "An Elder is not a spell: the Grayking does not counter (R51).")
    state = _set(state, roll_elders=_ls(state).roll_elders + (card.id,))
    state = _reroll_own(state, db, event.reroll, event.dice)
    mine, theirs = totals(state, db)
    return core.note(state, f"An Elder is not a spell: the Grayking does not counter (R51). Your total is {mine}, the Grayking's {theirs}.")


# ---- Gray spaces ----------------------------------------------------------------------------------------------------
def apply_recharge(state: State, db: Database, event: ev.Recharge) -> State:
    """Card text: "You may recharge all spells of one type when his damage marker is on a gray space"
    (R23: one type for each gray space the marker reaches). A recharge that would bring no used spell back
    is refused and not spent (:func:`referee.solo.core.recharge_problem`, R53). Raises :class:`RuleError`."""
    ls = _require_round(state, None, "recharging")
    stand = card(db)
    kind = event.spell_type.lower()
    types = [p.spell_type for p in db.solo.spell_path]
    if kind not in types:
        raise RuleError(str(core.recharge_problem(state, db, kind)), field="spell_type")
    if ls.hit_points not in stand.gray_spaces or ls.hit_points == stand.hit_points[0]:
        raise RuleError(f"recharge: the damage marker is on {ls.hit_points}, not a gray space ({', '.join(map(str, stand.gray_spaces))})")
    if ls.hit_points in ls.recharged_at:
        raise RuleError(f"recharge: you have already recharged a spell type on gray space {ls.hit_points}")
    problem = core.recharge_problem(state, db, kind)
    if problem and ls.no_free_escape:
        raise RuleError(f"recharge: {problem}")
    state, back = core.recharge_type(state, db, kind)
    state = _set(state, recharged_at=ls.recharged_at + (ls.hit_points,))
    what = ", ".join(core.name(db, s) for s in back) or "none was used"
    return core.note(state, f"Gray space {ls.hit_points}: you recharge your {kind.capitalize()} spells ({what}).")
