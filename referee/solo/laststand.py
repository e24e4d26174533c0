"""The Last Stand expansion: pure rule functions of (state, database, event).

This module owns the rulebook's section "Last Stand Expansion": when the Last Stand is offered, its
start (Mana and Spirit raised by the spells learned, the Grayking on 8 hit points), its rounds (the
Grayking rolls one die more; a player success takes one hit point, a Grayking success costs 2 Spirit),
the spell counter cards (every Flint or Ice spell cast is countered by the counter at its position,
applied as written) and the recharge on the gray spaces. Numbers come from ``[[solo.last_stand]]``, the
counter cards and their tables in ``cards.toml``; gaps are answered by ``docs/rulings.md`` (R20-R23, R49-R22).
"""
from __future__ import annotations

from dataclasses import replace

from pnp.database import Database, LastStand, Spell, TableRow
from referee.dice import Dice
from referee.solo import events as ev
from referee.solo import rules
from referee.solo.state import LastStandState, State

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
    point space; every spell marker is taken back (a new battle, R23)."""
    if not offered(state, db):
        if state.last_stand is not None:
            raise RuleError("the Last Stand has already been fought in this game")
        raise RuleError("the Last Stand comes after you lock the gates: hold all three Warding Keys and cast Barrier Lock first (R49)")
    stand = card(db)
    learned = len(state.spells)
    state = replace(state, result=None, reason="", phase="stand", used=(), last_stand=LastStandState(stand.hit_points[0]))
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
    return ("the Last Stand's roll is on the table: cast a spell or `referee solo accept`" if ls.rolled
            else "roll the Last Stand's next attack (`referee solo attack`)")


def apply_attack(state: State, db: Database, event: ev.Attack) -> State:
    """A round of the Last Stand (card text): "The Grayking will roll one more attack die than you ...
    Roll for both his attack and yours." The roll waits while a spell could still turn it (R34)."""
    _phase(state, False, "attack")
    mine_n, theirs_n = dice_counts(state, db)
    state, dice = rules._roll(state, db, event.dice, mine_n, "dice", "your attack")
    state, enemy = rules._roll(state, db, event.enemy, theirs_n, "enemy", "the Grayking's attack")
    state = _set(state, rolled=True, dice=dice.values, enemy=enemy.values, casts=())
    mine, theirs = totals(state, db)
    state = rules._note(state, f"You roll {dice} ({'typed' if dice.typed else 'rolled'}): {mine}. "
                               f"The Grayking rolls {enemy} ({'typed' if enemy.typed else 'rolled'}): {theirs}.")
    return _after_roll(state, db)


def options(state: State, db: Database) -> list[str]:
    """Spells that could still turn a losing roll (R34)."""
    ls = _ls(state)
    if not ls.rolled:
        return []
    mine, theirs = totals(state, db)
    if mine >= theirs:
        return []
    return [s for s in state.spells if cast_problem(state, db, rules.spell(db, s)) is None
            and rules.can_turn_a_roll(state, db, rules.spell(db, s), against_bonus=False)]


def _after_roll(state: State, db: Database) -> State:
    if state.result is not None:
        return replace(state, phase="over")
    mine, theirs = totals(state, db)
    if mine >= theirs or not options(state, db):
        return _resolve(state, db)
    names = ", ".join(rules.name(db, s) for s in options(state, db))
    return rules._note(state, f"You are losing {mine} to {theirs}: cast a spell ({names}) or `referee solo accept`.")


def _resolve(state: State, db: Database) -> State:
    """Card text: "If you are successful reduce his hit point count by one. If the Grayking is successful
    reduce your spirit count by two." 0 hit points wins; Spirit below 1 loses as usual (R23)."""
    stand = card(db)
    mine, theirs = totals(state, db)
    ls = _ls(state)
    state = _set(state, rolled=False, dice=(), enemy=(), casts=(), rounds=ls.rounds + 1)
    if mine >= theirs:
        hp = ls.hit_points - 1
        state = _set(state, hit_points=hp)
        if hp <= 0:
            state = rules._note(state, f"You win {mine} to {theirs}: the Grayking's last hit point falls.")
            return rules._note(replace(state, result="won", reason="you defeated the Grayking in the Last Stand", phase="over"),
                               "You have saved Lassadar: the Grayking is defeated in his Stronghold.")
        gray = " (a gray space: you may recharge one spell type, `referee solo recharge TYPE`)" if hp in stand.gray_spaces else ""
        return rules._note(state, f"You win {mine} to {theirs}: move the Grayking's damage marker to {hp}{gray}.")
    state = rules._note(state, f"The Grayking wins {theirs} to {mine}.")
    state = rules.adjust(state, db, spirit=stand.player_hit_spirit)
    if state.result is not None:
        return replace(state, phase="over")
    return state


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
    """Cast a spell in the Last Stand: its cost and effect first, then the Grayking's counter (R22)."""
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
        state, new = rules._roll(state, db, event.dice, len(_ls(state).enemy), "dice", "the Grayking's re-roll")
        state = rules._note(_set(state, enemy=new.values), f"The Grayking re-rolls: {new}.")
    elif event.reroll or event.dice is not None:
        raise RuleError(f"--reroll/--dice: {chosen.name} re-rolls no dice")
    if state.result is not None:
        return replace(state, phase="over")
    row = counter_for(db, chosen)
    if row is None:
        if event.counter is not None:
            raise RuleError(f"--counter: no counter card answers {chosen.name} (position {chosen.position})")
        state = rules._note(state, f"No counter card prints position {chosen.position} for {chosen.spell_type.capitalize()} spells: the Grayking does not counter (R21).")
    else:
        state = _counter(state, db, chosen, row, event.counter)
    if state.result is not None:
        return replace(state, phase="over")
    if _ls(state).rolled:
        mine, theirs = totals(state, db)
        state = rules._note(state, f"You {mine}, the Grayking {theirs}.")
        return _after_roll(state, db)
    return state


def _reroll_own(state: State, db: Database, reroll: tuple[int, ...], dice: Dice | None) -> State:
    ls = _ls(state)
    left = rules.kept_dice(ls.dice, reroll)
    state, new = rules._roll(state, db, dice, len(reroll), "dice", "the re-roll")
    return rules._note(_set(state, dice=tuple(left) + new.values), f"You re-roll {' '.join(map(str, reroll))} and get {new}.")


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
            state, new = rules._roll(state, db, typed, len(low), "counter", f"{row.name}'s re-roll")
            used_dice = True
            enemy = list(ls.enemy)
            for i, v in zip(low, new.values):
                enemy[i] = v
            state = rules._note(_set(state, enemy=tuple(enemy)), f"He re-rolls {len(low)} {'die' if len(low) == 1 else 'dice'} and gets {new}: his dice show {' '.join(map(str, enemy))}.")
        else:
            state = rules._note(state, f"None of his dice shows {effect.reroll_grayking_at_most} or less: nothing to re-roll.")
    if effect.remove_own_at_most:
        kept = tuple(v for v in ls.dice if v > effect.remove_own_at_most)
        state = rules._note(_set(state, dice=kept), f"Remove your dice showing {effect.remove_own_at_most} or less: your dice show {' '.join(map(str, kept)) or 'nothing'}.")
    if effect.raise_grayking_at_most:
        to = effect.raise_grayking_at_most + 1
        enemy = tuple(to if v <= effect.raise_grayking_at_most else v for v in _ls(state).enemy)
        state = rules._note(_set(state, enemy=enemy), f"His dice now show {' '.join(map(str, enemy)) or 'nothing'}.")
    if effect.mana or effect.spirit:
        state = rules.adjust(state, db, mana=effect.mana, spirit=effect.spirit)
    if effect.forget_spell:
        state, roll = rules._roll(state, db, typed, 2, "counter", f"{row.name}'s 2d6")
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
            state, new = rules._roll(state, db, typed, len(high), "counter", f"{row.name}'s re-roll")
            used_dice = True
            mine = list(dice)
            for i, v in zip(high, new.values):
                mine[i] = v
            state = rules._note(_set(state, dice=tuple(mine)), f"He re-rolls your dice showing {MIRROR_REROLLS_FROM} or more: {new}; your dice show {' '.join(map(str, mine))} (R22).")
        else:
            state = rules._note(state, f"None of your dice on the table shows {MIRROR_REROLLS_FROM} or more: nothing to re-roll (R22).")
    if typed is not None and not used_dice:
        raise RuleError(f"--counter: {row.name} rolls no dice now")
    return state


# ---- Gray spaces ----------------------------------------------------------------------------------------------------
def apply_recharge(state: State, db: Database, event: ev.Recharge) -> State:
    """Card text: "You may recharge all spells of one type when his damage marker is on a gray space"
    (R23: one type for each gray space the marker reaches)."""
    ls = _phase(state, None, "recharge")
    stand = card(db)
    kind = event.spell_type.lower()
    types = [p.spell_type for p in db.solo.spell_path]
    if kind not in types:
        raise RuleError(f"TYPE: {event.spell_type!r} is not a spell type; choose {', '.join(types)}")
    if ls.hit_points not in stand.gray_spaces or ls.hit_points == stand.hit_points[0]:
        raise RuleError(f"recharge: the damage marker is on {ls.hit_points}, not a gray space ({', '.join(map(str, stand.gray_spaces))})")
    if ls.hit_points in ls.recharged_at:
        raise RuleError(f"recharge: you have already recharged a spell type on gray space {ls.hit_points}")
    back = [s for s in state.used if rules.spell(db, s).spell_type == kind]
    state = replace(state, used=tuple(s for s in state.used if s not in back))
    state = _set(state, recharged_at=ls.recharged_at + (ls.hit_points,))
    return rules._note(state, f"Gray space {ls.hit_points}: you recharge your {kind.capitalize()} spells ({', '.join(rules.name(db, s) for s in back) or 'none was used'}).")


def next_step(state: State, db: Database) -> str:
    ls = _ls(state)
    if ls.rolled:
        mine, theirs = totals(state, db)
        names = rules.choices(db, options(state, db))
        return f"You are losing {mine} to {theirs}: cast {names} (`referee solo cast ID`), or `referee solo accept`."
    mine_n, theirs_n = dice_counts(state, db)
    gray = ""
    if ls.hit_points in card(db).gray_spaces and ls.hit_points not in ls.recharged_at and state.used:
        gray = " The marker is on a gray space: `referee solo recharge TYPE` recharges one spell type."
    return (f"The Last Stand: the Grayking has {ls.hit_points} hit points. `referee solo attack` (you roll {mine_n} dice, he rolls {theirs_n}; "
            f"--dice and --enemy for the physical dice); cast spells with `referee solo cast ID` (--counter for the Grayking's counter dice).{gray}")
