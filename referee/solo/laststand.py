"""The Last Stand expansion: pure rule functions of (state, database, event).

This module owns the rulebook's section "Last Stand Expansion": when the Last Stand is offered, its
start (Mana and Spirit raised by the spells learned, the Grayking on 8 hit points), its rounds (the
Grayking rolls one die more; a player success takes one hit point, a Grayking success costs 2 Spirit),
the spell counter cards (every Flint or Ice spell cast is countered by the counter at its position,
applied as written), the Elders called in it and the recharge on the gray spaces. Numbers come from
``[[solo.last_stand]]``, the counter cards and their tables in ``cards.toml``; gaps are answered by
``docs/rulings.md`` (R20-R23, R49, R51).
"""
from __future__ import annotations

from pnp.database import Database, Elder, LastStand, Spell, TableRow
from referee.dice import Dice
from referee.solo import aid, rules
from referee.solo import events as ev
from referee.solo.state import LastStandState, State, replace

RuleError = rules.RuleError

BARRIER_LOCK_REASON = "you cast Barrier Lock with all three Warding Keys"


def card(db: Database) -> LastStand:
    """The Last Stand card."""
    return db.solo.last_stand[0]


def _ls(state: State) -> LastStandState:
    assert state.last_stand is not None
    return state.last_stand


def _set(state: State, **changes) -> State:
    return replace(state, last_stand=replace(_ls(state), **changes))


def offered(state: State, db: Database) -> bool:
    """Whether the player may travel to the Ash Tower now (rulebook: "After locking all 3 gates of the
    Barrier Plains you may travel to the Ash Tower"; R49): the game was just won with Barrier Lock and no
    Last Stand was fought."""
    return (state.result == "won" and state.reason == BARRIER_LOCK_REASON and state.last_stand is None
            and len(state.keys) == len(rules.stats(db).keys))


def apply_last_stand(state: State, db: Database, event: ev.LastStand) -> State:
    """Begin the Last Stand (card text): "For each spell you have learned during your quest, increase your
    mana and spirit by that amount" (R20: by the number of spells learned), the Grayking on his first hit
    point space; every spell marker is taken back (a new battle, R23). Elders aid it unless the event comes
    from a save written before they did (``stand_elders`` false: replayed as fought, R51(f))."""
    if not offered(state, db):
        if state.last_stand is not None:
            raise RuleError("the Last Stand has already been fought in this game")
        raise RuleError("the Last Stand comes after you lock the gates: hold all three Warding Keys and cast Barrier Lock first (R49)")
    stand = card(db)
    learned = len(state.spells)
    state = replace(state, result=None, reason="", phase="stand", used=(), last_stand=LastStandState(stand.hit_points[0], elders_aid=event.stand_elders,
                                                                                                   no_free_escape=event.no_free_escape))
    state = rules._note(state, f"You travel to the Ash Tower: {stand.text[0]}",
                        f"You have learned {learned} spells: Mana and Spirit rise by {learned} (R20).")
    state = rules.adjust(state, db, mana=learned, spirit=learned)
    return rules._note(state, f"Place a marker on {stand.hit_points[0]} of the Grayking's hit point track on {stand.title}. "
                              "Every Flint or Ice spell you cast is countered by the counter card at its position.")


# ---- Rolls ---------------------------------------------------------------------------------------------------
def dice_counts(state: State, db: Database) -> tuple[int, int]:
    """(player's dice, Grayking's dice): the attack dice with every learned spell's extra dice, and the
    card's one more for the Grayking."""
    mine = db.solo.rules.attack_dice + sum(rules.spell(db, s).extra_dice for s in state.spells)
    return mine, mine + card(db).grayking_extra_dice


def round_dice(state: State, db: Database) -> tuple[int, int]:
    """(player's dice, Grayking's dice) of the next round's roll: :func:`dice_counts`, plus the free dice of
    the Elders called for this roll, which the Grayking's dice leave out (rulebook, Note: "if you use Elder
    San in a battle, his extra attack die does not count towards the number rolled by the Grayking";
    R6, R51(b))."""
    mine, theirs = dice_counts(state, db)
    free = sum(rules.elder_card(db, e).aid.free_dice for e in _ls(state).before_roll)
    return mine + free, theirs


def totals(state: State, db: Database) -> tuple[int, int]:
    """(player's total, Grayking's total) of the dice on the table (R5; spells cast on this roll add
    their general bonus, Shield leaves out his highest die, R41)."""
    ls = _ls(state)
    bonus, removed = 0, 0
    for spell_id in ls.casts:
        effect = rules.spell(db, spell_id).effect
        bonus += effect.attack_total
        removed += effect.remove_servant_die
    enemy = sorted(ls.enemy)
    return sum(ls.dice) + bonus, sum(enemy[:max(0, len(enemy) - removed)])


def _phase(state: State, rolled: bool | None, command: str) -> LastStandState:
    rules._phase(state, "stand", command)
    ls = _ls(state)
    if rolled is not None and ls.rolled != rolled:
        raise RuleError(f"`{command}` does not fit now: {waiting(state)}")
    return ls


def waiting(state: State) -> str:
    ls = _ls(state)
    return ("the Last Stand's roll is on the table: cast a spell, call an Elder or `referee solo accept`" if ls.rolled
            else "roll the Last Stand's next attack (`referee solo attack`)")


def apply_attack(state: State, db: Database, event: ev.Attack) -> State:
    """A round of the Last Stand (card text): "The Grayking will roll one more attack die than you ...
    Roll for both his attack and yours." Elder San's die, called before, joins the player's roll only
    (R51(b)). The roll waits while a spell or an Elder could still turn it (R34)."""
    ls = _phase(state, False, "attack")
    mine_n, theirs_n = round_dice(state, db)
    helpers = " and ".join(f"{rules.name(db, e)}'s die" for e in ls.before_roll)
    state, dice = rules._roll(state, db, event.dice, mine_n, "dice", f"your attack{' with ' + helpers if helpers else ''}")
    state, enemy = rules._roll(state, db, event.enemy, theirs_n, "enemy", "the Grayking's attack")
    state = _set(state, rolled=True, dice=dice.values, enemy=enemy.values, casts=(), roll_elders=ls.before_roll, before_roll=())
    mine, theirs = totals(state, db)
    state = rules._note(state, f"You roll {dice} ({'typed' if dice.typed else 'rolled'}{', ' + helpers + ' among them' if helpers else ''}): {mine}. "
                               f"The Grayking rolls {enemy} ({'typed' if enemy.typed else 'rolled'}): {theirs}.")
    return _after_roll(state, db)


def options(state: State, db: Database) -> list[str]:
    """Spells, Elders and gray-space recharges (``recharge:TYPE``) that could still turn a losing roll
    (R34, R51): the first steps of the aid sequences that can (:func:`referee.solo.aid.options`, the
    Grayking's counters included); empty unless a round is rolled and the player is losing it."""
    if not _ls(state).rolled:
        return []
    return aid.ids(state, db)


def _after_roll(state: State, db: Database) -> State:
    if state.result is not None:
        return replace(state, phase="over")
    mine, theirs = totals(state, db)
    if mine >= theirs or not options(state, db):
        return _resolve(state, db)
    return rules._note(state, f"You are losing {mine} to {theirs}.")


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
            state = rules._note(_set(state, outcome="won"), f"You win {mine} to {theirs}: the Grayking's last hit point falls.")
            return rules._note(replace(state, result="won", reason="you defeated the Grayking in the Last Stand", phase="over"),
                               "You have saved Lassadar: the Grayking is defeated in his Stronghold.")
        gray = " (a gray space: you may recharge one spell type, `referee solo recharge TYPE`)" if hp in stand.gray_spaces else ""
        return rules._note(state, f"You win {mine} to {theirs}: move the Grayking's damage marker to {hp}{gray}.")
    state = rules._note(state, f"The Grayking wins {theirs} to {mine}.")
    state = rules.adjust(state, db, spirit=stand.player_hit_spirit)
    if state.result is not None:
        return replace(state, phase="over")
    return state


LOST_REASON = "Lassadar is saved, the gates stay locked; but the Last Stand is lost: you fell at the Ash Tower"
"""The reason of a game whose Last Stand was lost (R56): the game stays won."""


def fall(state: State, why: str) -> State:
    """The warden falls in the Last Stand (``why``: your Spirit fell below 1). The game was won with Barrier
    Lock and stays won: the gates stay locked and Lassadar is saved; only the Last Stand is lost, the warden
    fallen at the Ash Tower (R56). ``result`` stays ``won``, the Last Stand's ``outcome`` is ``lost``."""
    state = _set(state, outcome="lost", rolled=False, dice=(), enemy=(), casts=(), roll_elders=(), before_roll=())
    return rules._note(replace(state, result="won", reason=LOST_REASON, phase="over"),
                       f"You fall at the Ash Tower ({why}): the Last Stand is lost. The gates stay locked: "
                       "Lassadar is saved and the game is still won (R56).")


def apply_accept(state: State, db: Database, event: ev.Accept) -> State:
    """Accept the roll on the table as it stands."""
    _phase(state, True, "accept")
    if event.next is not None:
        raise RuleError("--next: the Last Stand turns over no next card")
    return _resolve(state, db)


# ---- Spells and their counters ----------------------------------------------------------------------------------
def cast_problem(state: State, db: Database, chosen: Spell) -> str | None:
    """Why ``chosen`` cannot be cast now in the Last Stand (None when it can; R23, R21)."""
    effect = chosen.effect
    if chosen.id not in state.spells:
        return f"you have not learned {chosen.name}"
    if chosen.extra_dice and effect == type(effect)():
        return f"{chosen.name} adds its extra dice to every roll by itself; it is not cast (and never countered, R21)"
    if effect.barrier_lock or effect.loss_rows or effect.cancel_loss or effect.grayking_less or effect.cancel_event:
        return f"{chosen.name} acts on a City Quest's Battle Loss or event text; the Last Stand has neither (R21)"
    if chosen.id in state.used:
        return f"{chosen.name} is already used in the Last Stand (recharge its type on a gray space, R23)"
    if (effect.attack_total or effect.remove_servant_die or effect.reroll_own or effect.reroll_servants) and not _ls(state).rolled:
        return f"{chosen.name} changes a roll; cast it once the round is rolled"
    if effect.reroll_own and not effect.reroll_servants and not _ls(state).dice:
        return f"{chosen.name} re-rolls your dice, and none of yours is left on the table (Sullen Axe removed them)"
    if chosen.cost and chosen.cost.mana > state.mana:
        return f"{chosen.name} costs {chosen.cost.mana} Mana; you have {state.mana}"
    return None


def counter_for(db: Database, chosen: Spell) -> TableRow | None:
    """The counter that "positionally matches" ``chosen`` on the spell counter cards (card text; R21, R22):
    the row at the spell's position on the counter cards of its type; None for Oaken spells and for
    positions no counter card prints."""
    for counter_card in db.solo.counter_card:
        if counter_card.title.split()[0].lower() == chosen.spell_type and chosen.position in counter_card.positions:
            return db.table(counter_card.table).row_for(chosen.position)
    return None


def apply_cast(state: State, db: Database, event: ev.Cast) -> State:
    """Cast a spell in the Last Stand: its cost and effect first, then the Grayking's counter (R22); a
    roll on the table is then settled unless the player is still losing and aid could turn it (R34)."""
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
    _phase(state, None, "cast")
    chosen = rules.spell(db, event.spell)
    problem = cast_problem(state, db, chosen)
    if problem:
        raise RuleError(f"cannot cast {chosen.name}: {problem}")
    if event.rows is not None:
        raise RuleError(f"--rows: {chosen.name} lowers no Battle Loss row in the Last Stand")
    effect = chosen.effect
    state = rules._note(replace(state, used=state.used + (chosen.id,)), f"You cast {chosen.name}: {rules._plain(chosen.text)}")
    if _ls(state).rolled:
        state = _set(state, casts=_ls(state).casts + (chosen.id,))
    if chosen.cost:
        state = rules.adjust(state, db, mana=-chosen.cost.mana, spirit=-chosen.cost.spirit)
    if effect.mana or effect.spirit:
        state = rules.adjust(state, db, mana=effect.mana, spirit=effect.spirit)
    if effect.recharge:
        state = rules._note(replace(state, used=tuple(s for s in state.used if s == chosen.id)), "Your used spells are recharged.")
    if effect.reroll_own:
        state = _reroll_own(state, db, event.reroll, event.dice)
    elif effect.reroll_servants:
        if event.reroll:
            raise RuleError(f"--reroll: {chosen.name} re-rolls the Grayking's dice, not yours; give only the new dice (--dice)")
        state, new = rules._roll(state, db, event.dice, len(_ls(state).enemy), "dice", "the Grayking's re-roll")
        state = rules._note(_set(state, enemy=new.values), f"The Grayking re-rolls: {new}.")
    elif event.reroll or event.dice is not None:
        raise RuleError(f"--reroll/--dice: {chosen.name} re-rolls no dice")
    if state.result is not None:
        return state
    row = counter_for(db, chosen)
    if row is None:
        if event.counter is not None:
            raise RuleError(f"--counter: no counter card answers {chosen.name} (position {chosen.position})")
        state = rules._note(state, f"No counter card prints position {chosen.position} for {chosen.spell_type.capitalize()} spells: the Grayking does "
                f"not counter (R21).")
    else:
        state = _counter(state, db, chosen, row, event.counter)
    if state.result is None and _ls(state).rolled:
        mine, theirs = totals(state, db)
        state = rules._note(state, f"Your total is {mine}, the Grayking's {theirs}.")
    return state


def _reroll_own(state: State, db: Database, reroll: tuple[int, ...], dice: Dice | None) -> State:
    ls = _ls(state)
    left = rules.kept_dice(ls.dice, reroll)
    state, new = rules._roll(state, db, dice, len(reroll), "dice", "the re-roll")
    state = _set(state, dice=tuple(left) + new.values)
    return rules._note(state, f"You re-roll {' '.join(map(str, reroll))} and get {new}: your dice show {' '.join(map(str, _ls(state).dice))}.")


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
    state = rules._note(state, f"The Grayking counters {chosen.name} with {row.name} (position {chosen.position}): {row.text}")
    used_dice = False
    if effect.reroll_grayking_at_most:
        low = [i for i, v in enumerate(ls.enemy) if v <= effect.reroll_grayking_at_most]
        if low:
            state, new = rules._roll(state, db, typed, len(low), "counter", f"{row.name}'s re-roll", track=False)
            used_dice = True
            enemy = list(ls.enemy)
            for i, v in zip(low, new.values):
                enemy[i] = v
            state = rules._note(_set(state, enemy=tuple(enemy)), f"He re-rolls {len(low)} {'die' if len(low) == 1 else 'dice'} and gets {new}: his "
                    f"dice show {' '.join(map(str, enemy))}.")
        else:
            state = rules._note(state, f"None of his dice shows {effect.reroll_grayking_at_most} or less: nothing to re-roll.")
    if effect.remove_own_at_most:
        kept = tuple(v for v in ls.dice if v > effect.remove_own_at_most)
        state = rules._note(_set(state, dice=kept), f"Remove your dice showing {effect.remove_own_at_most} or less: your dice show "
                f"{' '.join(map(str, kept)) or 'nothing'}.")
    if effect.raise_grayking_at_most:
        to = effect.raise_grayking_at_most + 1
        raised = tuple(to if v <= effect.raise_grayking_at_most else v for v in _ls(state).enemy)
        state = rules._note(_set(state, enemy=raised), f"His dice now show {' '.join(map(str, raised)) or 'nothing'}.")
    if effect.mana or effect.spirit:
        state = rules.adjust(state, db, mana=effect.mana, spirit=effect.spirit)
    if effect.forget_spell:
        state, roll = rules._roll(state, db, typed, 2, "counter", f"{row.name}'s 2d6", track=False)
        used_dice = True
        matching = [s for s in state.spells if rules.spell(db, s).position == roll.total]
        if matching:
            lost = matching[-1]
            state = replace(state, spells=tuple(s for s in state.spells if s != lost), used=tuple(s for s in state.used if s != lost))
            state = rules._note(state, f"He rolls {roll} = {roll.total}: you forget {rules.name(db, lost)}; take its marker off the Spell Path card"
                                       + (" (the most recently learned of your spells with that number, R22)." if len(matching) > 1 else "."))
        else:
            state = rules._note(state, f"He rolls {roll} = {roll.total}: none of your spells bears that number; you forget nothing (R22).")
    if effect.reroll_own:
        dice = _ls(state).dice
        high = [i for i, v in enumerate(dice) if v >= MIRROR_REROLLS_FROM]
        if high and _ls(state).rolled:
            state, new = rules._roll(state, db, typed, len(high), "counter", f"{row.name}'s re-roll", track=False)
            used_dice = True
            mine = list(dice)
            for i, v in zip(high, new.values):
                mine[i] = v
            state = rules._note(_set(state, dice=tuple(mine)), f"He re-rolls your dice showing {MIRROR_REROLLS_FROM} or more: {new}; your dice show "
                    f"{' '.join(map(str, mine))} (R22).")
        else:
            state = rules._note(state, f"None of your dice on the table shows {MIRROR_REROLLS_FROM} or more: nothing to re-roll (R22).")
    if typed is not None and not used_dice:
        raise RuleError(f"--counter: {row.name} rolls no dice now")
    return state


# ---- Elders in the Last Stand (rulebook, If it is an Elders card; R11, R51) -------------------------------------
def elder_problem(state: State, db: Database, elder_id: str) -> str | None:
    """Why an Elder cannot be called now in the Last Stand (None when it can; R51).

    Rulebook, If it is an Elders card: "You may call on the power of each Elder three times ... Each
    Elder's power may only be used once in a battle", and the card calls the Last Stand "the last
    battle": beside the stats card and once in the whole Last Stand (:func:`referee.solo.rules.elder_problem`).
    Elder San adds his die to a round's roll, so he is called before the round is rolled; Elder Maelis
    re-rolls your dice, so she is called once a round is rolled (and some of your dice are on the table:
    Sullen Axe may have removed them). Elder Rhun lowers a Battle Loss row, and the Last Stand has none
    (a Grayking success costs Spirit, card text; R21).
    """
    ls = _ls(state)
    card = rules.quest(db, elder_id)
    if not isinstance(card, Elder):
        return f"{card.name} is not an Elders card"
    aid = card.aid
    if aid.loss_rows or aid.cancel_loss or aid.grayking_less:
        return f"{card.name} lowers a Battle Loss result, and the Last Stand has no Battle Loss table (R51)"
    if not ls.elders_aid:
        return ("this Last Stand was begun by an older referee, which called no Elders in the Last Stand; "
                "it is fought to its end without them (R51)")
    problem = rules.elder_problem(state, db, elder_id, ls.elders)
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
    return [e for e, _ in state.elders if elder_problem(state, db, e) is None and rules.elder_card(db, e).aid.free_dice]


def apply_elder(state: State, db: Database, event: ev.CallElder) -> State:
    """Call on an Elder in the Last Stand (rulebook, If it is an Elders card; R11, R51): one of its uses is
    spent and, after the last, the card leaves the game (:func:`referee.solo.rules.call_elder`); each
    Elder aids once in the whole Last Stand. Elder San's die joins the next round's roll, the Grayking's
    dice not raised; Elder Maelis re-rolls any of your dice of the round on the table. An Elder is not a
    Flint or Ice spell and has no position on the counter cards: the Grayking does not counter it
    (card text: "For any flint or ice spell you use ..."; R51(d))."""
    state = call_on_table(state, db, event)
    if state.result is None and _ls(state).rolled and rules.elder_card(db, event.elder).aid.reroll_own:
        return _after_roll(state, db)
    return state


def call_on_table(state: State, db: Database, event: ev.CallElder) -> State:
    """Call on an Elder in the Last Stand and apply the aid, settling nothing (see :func:`apply_elder`).
    Raises :class:`RuleError` when the Elder cannot aid now (R51)."""
    _phase(state, None, f"elder {rules.short_id(event.elder)}")
    card = rules.checked_elder_call(db, event, elder_problem(state, db, event.elder), "the Last Stand")
    state = rules.call_elder(state, db, card.id)
    state = _set(state, elders=_ls(state).elders + (card.id,))
    if card.aid.free_dice:
        state = _set(state, before_roll=_ls(state).before_roll + (card.id,))
        mine, theirs = round_dice(state, db)
        return rules._note(state, f"{card.name}'s die joins your next roll: you roll {mine} dice, the Grayking {theirs} "
                                  "(his die does not count toward the Grayking's dice). An Elder is not a spell: the Grayking does not counter (R51).")
    state = _set(state, roll_elders=_ls(state).roll_elders + (card.id,))
    state = _reroll_own(state, db, event.reroll, event.dice)
    mine, theirs = totals(state, db)
    return rules._note(state, f"An Elder is not a spell: the Grayking does not counter (R51). Your total is {mine}, the Grayking's {theirs}.")


# ---- Gray spaces ----------------------------------------------------------------------------------------------------
def apply_recharge(state: State, db: Database, event: ev.Recharge) -> State:
    """Card text: "You may recharge all spells of one type when his damage marker is on a gray space"
    (R23: one type for each gray space the marker reaches). A recharge that would bring no used spell back
    is refused and not spent (:func:`rules.recharge_problem`, R53)."""
    ls = _phase(state, None, "recharge")
    stand = card(db)
    kind = event.spell_type.lower()
    types = [p.spell_type for p in db.solo.spell_path]
    if kind not in types:
        raise RuleError(f"TYPE: {rules.recharge_problem(state, db, kind)}")
    if ls.hit_points not in stand.gray_spaces or ls.hit_points == stand.hit_points[0]:
        raise RuleError(f"recharge: the damage marker is on {ls.hit_points}, not a gray space ({', '.join(map(str, stand.gray_spaces))})")
    if ls.hit_points in ls.recharged_at:
        raise RuleError(f"recharge: you have already recharged a spell type on gray space {ls.hit_points}")
    problem = rules.recharge_problem(state, db, kind)
    if problem and ls.no_free_escape:
        raise RuleError(f"recharge: {problem}")
    back = [s for s in state.used if rules.spell(db, s).spell_type == kind]
    state = replace(state, used=tuple(s for s in state.used if s not in back))
    state = _set(state, recharged_at=ls.recharged_at + (ls.hit_points,))
    return rules._note(state, f"Gray space {ls.hit_points}: you recharge your {kind.capitalize()} spells "
            f"({', '.join(rules.name(db, s) for s in back) or 'none was used'}).")
