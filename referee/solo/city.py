"""City Quest battles and the quest between them: pure rule functions of (state, database, event).

This module owns the rulebook's section "Play" outside the maps: drawing a quest card and following it
(a City Quest battle, a Council of Wardens card, an Elders card, a Warding City card laid on the table
for :mod:`referee.solo.expanded`), the City Quest battle (its dice and totals, spells and Elders before
and after the roll, Battle Win and Battle Loss, Bind and Knot on the Battle Loss row, ``accept``), and
learning spells (Battle Win row 4, the Council of Wardens). Steps every battle shares come from
:mod:`referee.solo.core`. A losing roll is returned as a :class:`~referee.solo.core.OpenRoll`: the
dispatcher (:func:`referee.solo.rules.apply`) settles or holds it (R34). Gaps are answered by
``docs/rulings.md`` (R5-R12, R32-R37, R42), cited as R<n>.
"""
from __future__ import annotations

from typing import Literal

from pnp.database import BattleMap, CityQuest, CouncilQuest, Database, Effect, Elder, Spell, TableRow, WardingCity
from referee.dice import Dice
from referee.solo import core
from referee.solo import events as ev
from referee.solo.core import OpenRoll, Outcome, RuleError
from referee.solo.state import BattleState, Ending, Pending, State, replace


# ---- The battle on the table ----------------------------------------------------------------------------------
def city_card(state: State, db: Database) -> CityQuest:
    """The City Quest card of the battle in progress."""
    assert state.battle is not None
    card = core.quest(db, state.battle.card)
    assert isinstance(card, CityQuest)
    return card


def event_cancelled(state: State, db: Database) -> bool:
    """Whether a spell cancelled the City Quest's event text this battle (Oakheart, R33)."""
    return state.battle is not None and any(core.spell(db, s).effect.cancel_event for s in state.battle.casts)


def dice_counts(state: State, db: Database) -> tuple[int, int]:
    """(player's dice, servants' dice) for the City Quest battle on the table (rulebook, Play; R5, R6):
    :func:`referee.solo.core.attack_dice` with the free dice of the Elders called this battle; the
    servants roll the rules' extra servant dice and the card's extra servant dice (unless its event is
    cancelled) besides."""
    elders = state.battle.elders if state.battle is not None else ()
    card_dice = 0 if state.battle is None or event_cancelled(state, db) else city_card(state, db).battle.servant_dice
    return core.attack_dice(state, db, elders, db.solo.rules.servant_extra_dice + card_dice)


def _card_bonus(state: State, db: Database) -> int:
    """The City Quest card's attack modifier, unless its event is cancelled (rulebook, Play; R33)."""
    return 0 if event_cancelled(state, db) else city_card(state, db).battle.attack_total


def total_terms(state: State, db: Database) -> tuple[list[tuple[str, int]], int]:
    """What is added to the player's dice, as ``(label, amount)`` pairs in order (the card's attack
    modifier unless cancelled, then each spell cast: its bonus against the card's foe when it names
    one, else its ``attack_total``; zero amounts left out), and how many of the servants' highest dice
    are removed (``remove_servant_die``, Shield). Rulebook, Play; R5."""
    battle = state.battle
    assert battle is not None
    card = city_card(state, db)
    terms: list[tuple[str, int]] = []
    if _card_bonus(state, db):
        terms.append((card.name, card.battle.attack_total))
    removed = 0
    for spell_id in battle.casts:
        cast = core.spell(db, spell_id)
        amount = core.spell_bonus(cast.effect, card.battle.foe)
        if amount:
            terms.append((cast.name, amount))
        removed += cast.effect.remove_servant_die
    return terms, removed


def totals(state: State, db: Database) -> tuple[int, int]:
    """(player's total, servants' total) of the dice on the table (rulebook, Play; R5): the player's
    dice plus every term of :func:`total_terms`, the servants' dice without the removed highest ones
    (:func:`referee.solo.core.attack_totals`)."""
    battle = state.battle
    assert battle is not None
    return core.attack_totals(db, battle.dice, battle.enemy, battle.casts, city_card(state, db).battle.foe, _card_bonus(state, db))


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
        shields = ", ".join(core.spell(db, s).name for s in battle.casts if core.spell(db, s).effect.remove_servant_die)
        servants += f" without the highest ({shields})" if removed == 1 else f" without the {removed} highest ({shields})"
    return f"{player} = {mine}", f"{servants} = {theirs}"


def winning(state: State, db: Database) -> bool:
    """Whether the player's total is equal to or greater than the servants' (rulebook, Play)."""
    mine, theirs = totals(state, db)
    return mine >= theirs


Stage = Literal["before", "rolled", "loss", "draw", "learn", "council", "warding", "map", "stand", "turn", "over"]
"""Where a City Quest battle stands (:func:`stage`): the phases, with ``before`` for ``battle``."""


def stage(state: State) -> Stage:
    """Where a City Quest battle stands, for the spells and Elders: ``before`` the roll (phase ``battle``),
    ``rolled``, ``loss`` (the Battle Loss row waits) or ``draw`` (between quest cards: Barrier Lock, R12);
    otherwise the phase itself."""
    return "before" if state.phase == "battle" else state.phase


def loss_row_number(state: State) -> int:
    """The Battle Loss row that applies now: the number read from the next card less the rows Bind, Knot
    or Elder Rhun took off it; 0 when none was read, when it is cancelled or lowered below row 1 (R8)."""
    battle = state.battle
    if battle is None or battle.loss_roll is None or battle.cancelled:
        return 0
    return max(0, battle.loss_roll - battle.lowered)


def loss_row(state: State, db: Database) -> TableRow | None:
    """The Battle Loss row that applies now (:func:`loss_row_number`), None when there is none (R8)."""
    effective = loss_row_number(state)
    return core.table_for(db, "loss").row_for(effective) if effective >= 1 else None


# ---- Spells and Elders in the battle ------------------------------------------------------------------------------
CAST_WORDS = core.CastWords(
    passive="{name} adds its {extra} to every battle by itself; it is not cast",
    used="{name} is already used in this battle (each spell once per battle unless recharged by Calm)")
"""How a City Quest battle words the checks every cast shares (:func:`referee.solo.core.cast_problem`)."""


def cast_problem(state: State, db: Database, chosen: Spell) -> str | None:
    """Why ``chosen`` cannot be cast now (None when it can): Barrier Lock between quest cards once all the
    Warding Keys are held (rulebook, Winning or Losing; R12), any other spell in a City Quest battle
    (:func:`referee.solo.core.cast_problem`, with the battle's timing: R10, R32)."""
    if chosen.effect.barrier_lock:
        needed = len(core.stats(db).keys)
        if len(state.keys) < needed:
            return f"Barrier Lock needs all {needed} Warding Keys; you hold {len(state.keys)}"
        return None if stage(state) == "draw" else "cast Barrier Lock between quest cards, when the game asks you to draw"
    return core.cast_problem(state, db, chosen, CAST_WORDS, _cast_place, _cast_timing)


def _cast_place(state: State, db: Database, chosen: Spell) -> str | None:
    """Spells are cast during a City Quest battle (R32)."""
    if stage(state) not in ("before", "rolled", "loss"):
        return f"spells are cast during a battle (R32); {core.waiting_for(state)}"
    return None


def _cast_timing(state: State, db: Database, chosen: Spell) -> str | None:
    """When in the battle ``chosen`` may be cast (R10): a Battle Loss spell after a loss, a re-roll after
    the roll, Oakheart before it, an attack spell not once the battle is lost."""
    effect, now = chosen.effect, stage(state)
    if core.lowers_battle_loss(effect) and now != "loss":
        return f"{chosen.name} lowers a Battle Loss result; cast it after a loss, when the row is known"
    if (effect.reroll_own or effect.reroll_servants) and now != "rolled":
        return f"{chosen.name} re-rolls dice; " + ("cast it after the roll" if now == "before" else "the battle's roll is over")
    if effect.cancel_event and now != "before":
        return f"{chosen.name} must be cast before the roll"
    if (effect.attack_total or effect.against or effect.remove_servant_die) and now == "loss":
        return f"{chosen.name} changes the roll; the battle is already lost"
    if effect.grayking_less and not effect.loss_rows and now == "loss":
        row = loss_row(state, db)
        if row is None or row.effect.grayking <= 0:
            return f"{chosen.name} only lessens a Battle Loss that moves the Grayking"
    return None


def elder_problem(state: State, db: Database, elder_id: str) -> str | None:
    """Why an Elder cannot be called now in a City Quest battle (None when it can; R11): the checks of
    every battle (:func:`referee.solo.core.elder_problem`), then the moment: Elder San adds his die
    before the roll, Elder Maelis re-rolls after it, Elder Rhun lowers a Battle Loss row once it is known.
    Raises :class:`RuleError` for an unknown card."""
    now = stage(state)
    if now not in ("before", "rolled", "loss"):
        return core.elder_problem(state, db, elder_id, ()) or f"Elders aid you in a battle; {core.waiting_for(state)}"
    problem = core.elder_problem(state, db, elder_id, state.battle.elders if state.battle is not None else ())
    if problem:
        return problem
    aid = core.elder_card(db, elder_id).aid
    if aid.free_dice and now != "before":
        return f"{core.name(db, elder_id)} adds a die to your roll; call him before the roll"
    if aid.reroll_own and now != "rolled":
        return f"{core.name(db, elder_id)} re-rolls your dice; call on them after the roll"
    if aid.loss_rows and now != "loss":
        return f"{core.name(db, elder_id)} lowers a Battle Loss result; call on them after a loss, when the row is known"
    return None


def cast_on_table(state: State, db: Database, event: ev.Cast) -> State:
    """Cast one spell in the battle (rulebook, Setup and Play; R8-R33), settling nothing: check it may be
    cast now (:func:`cast_problem`), pay its per-use cost and apply its effect (Barrier Lock wins the game,
    R12). :func:`apply_cast` settles; :mod:`referee.solo.aid` searches with this. Raises
    :class:`RuleError` when the spell cannot be cast now or an option does not fit it."""
    chosen = core.spell(db, event.spell)
    problem = cast_problem(state, db, chosen)
    if problem:
        between = problem == _cast_place(state, db, chosen)  # no battle on: the problem says what the game waits for (R32)
        raise RuleError(f"cannot cast {chosen.name}: {problem}", core.Refusal.WRONG_PHASE if between else None)
    effect = chosen.effect
    if effect.barrier_lock:
        state = core.note(state, "You cast Barrier Lock and lock the gates of the Barrier Plains. "
                                 "The Grayking is drawn back to the Tower of Ash.")
        return core.end(replace(state, grayking=1), Ending.BARRIER_LOCK, core.BARRIER_LOCK_REASON,
                        "You have saved Lassadar and won the game.")
    if event.rows is not None and not effect.loss_rows:
        raise RuleError(f"{chosen.name} does not lower Battle Loss rows", field="rows")
    if (event.reroll or event.dice is not None) and not (effect.reroll_own or effect.reroll_servants):
        raise RuleError(f"{chosen.name} re-rolls no dice", field=core.reroll_field(event))
    battle = state.battle
    assert battle is not None
    state = core.pay_for_cast(replace(state, battle=replace(battle, casts=battle.casts + (chosen.id,))), db, chosen)
    if state.result:
        return state
    if effect.reroll_own:
        state = _reroll_own(state, db, event.reroll, event.dice)
    elif effect.reroll_servants:
        battle = _battle(state)
        state, enemy = core.reroll_theirs(state, db, chosen.name, event.reroll, len(battle.enemy), event.dice, "the servants", plural=True)
        state = replace(state, battle=replace(battle, enemy=enemy))
    if effect.loss_rows or effect.cancel_loss:
        state = _lower(state, db, chosen.name, effect, event.rows)
    return state


def _battle(state: State) -> BattleState:
    assert state.battle is not None
    return state.battle


def _reroll_own(state: State, db: Database, reroll: tuple[int, ...], dice: Dice | None) -> State:
    state, mine = core.reroll_own(state, db, _battle(state).dice, reroll, dice)
    return replace(state, battle=replace(_battle(state), dice=mine))


def _lower(state: State, db: Database, who: str, effect: Effect, rows: int | None) -> State:
    """Lower the Battle Loss row by up to ``effect.loss_rows`` rows (``rows`` of them when named), or
    cancel it (Bind, Knot, Leafward, Elder Rhun; R8). Raises :class:`RuleError` of field ``rows``."""
    battle = _battle(state)
    assert battle.loss_roll is not None
    if effect.cancel_loss:
        return core.note(replace(state, battle=replace(battle, cancelled=True)), "The Battle Loss result is cancelled.")
    most = effect.loss_rows
    rows = most if rows is None else rows
    if not 1 <= rows <= most:
        allowed = "by 1 row" if most == 1 else f"by 1 to {most} rows"
        raise RuleError(f"{who} lowers the Battle Loss result {allowed}, not {rows}", field="rows")
    battle = replace(battle, lowered=battle.lowered + rows)
    state = replace(state, battle=battle)
    effective = loss_row_number(state)
    if effective <= 0:
        return core.note(state, "The Battle Loss result is lowered below row 1: nothing happens (R8).")
    return core.note(state, f"The Battle Loss result is lowered to row {effective}: {core.table_for(db, 'loss').row_for(effective).text}.")


def call_on_table(state: State, db: Database, event: ev.CallElder) -> State:
    """Call on an Elder once in the battle (rulebook, If it is an Elders card; R11), settling nothing: one
    of its uses is spent (after the last it is removed from the game), then its aid applied: a free die
    for the roll, a re-roll of your dice, a lowered Battle Loss row. :func:`apply_elder` settles;
    :mod:`referee.solo.aid` searches with this. Raises :class:`RuleError` when the Elder cannot aid now."""
    card = core.checked_elder_call(db, event, elder_problem(state, db, event.elder))
    state = core.call_elder(state, db, card.id)
    if state.battle is not None:
        state = replace(state, battle=replace(state.battle, elders=state.battle.elders + (card.id,)))
    if card.aid.reroll_own:
        state = _reroll_own(state, db, event.reroll, event.dice)
    if card.aid.loss_rows:
        state = _lower(state, db, card.name, card.aid, None)
    return state


# ---- Drawing ------------------------------------------------------------------------------------------------------
def apply_draw(state: State, db: Database, event: ev.Draw) -> State:
    """Turn over the top card of the Quest draw pile and follow it (rulebook, Play).

    City Quest: a battle starts. Council of Wardens: resolved with ``council``. Elders: laid beside the
    Character Stats card with their uses. Warding City: fought on its map (rulebook, Expanded Battles).
    Raises :class:`RuleError` when no card is left or the card cannot be drawn.
    """
    core.require_phase(state, "draw", "drawing a quest card")
    state, card_id = core.take(state, db, event.card, "card", "the draw")
    if card_id is None:
        raise RuleError("no quest card is left to draw")
    card = core.quest(db, card_id)
    state = replace(state, card=card_id)
    if isinstance(card, CityQuest):
        return core.note(replace(state, phase="battle", battle=BattleState(card_id), used=()),
                         f"City Quest: {card.name}. {core.plain_text(card.text)}")
    if isinstance(card, CouncilQuest):
        return core.note(replace(state, phase="council"), f"Council of Wardens: {card.name}. {core.plain_text(card.text)}")
    if isinstance(card, Elder):
        uses = db.solo.rules.elder_uses
        return core.note(replace(state, card=None, elders=state.elders + ((card_id, uses),)),
                         f"Elders: {card.name} joins you. Lay the card beside your Character Stats card ({uses} uses). "
                         f"{core.plain_text(card.text)}")
    assert isinstance(card, WardingCity)
    battle_map = db.get(card.battle_map)
    assert isinstance(battle_map, BattleMap)
    return core.note(replace(state, phase="warding"),
                     f"Warding City: {card.name}. {core.plain_text(card.text)} Set up {battle_map.title} ({battle_map.color} map).")


# ---- The City Quest battle -------------------------------------------------------------------------------------------
def apply_battle(state: State, db: Database, event: ev.Battle) -> Outcome:
    """Fight the City Quest on the table (rulebook, Play, If it is a City Quest card).

    Elders and spells named are used first, in that order; the card's cost before the battle is paid
    (unless its event is cancelled); both sides roll; equal or greater wins. A win is resolved at once;
    a loss is left open (:class:`~referee.solo.core.OpenRoll`): it waits in the ``rolled`` phase while a
    spell or Elder could still change it (R34), else it is resolved too. Raises :class:`RuleError`.
    """
    core.require_phase(state, "battle", "fighting a City Quest battle")
    for elder_id in event.elders:
        state = call_on_table(state, db, ev.CallElder(elder_id))
        if state.result:
            return state
    for spell_id in event.casts:
        state = cast_on_table(state, db, ev.Cast(spell_id))
        if state.result:
            return state
    card = city_card(state, db)
    if card.battle.before is not None and not event_cancelled(state, db):
        state = _pay_before(state, db, card)
        if state.result:
            return state
    player_n, enemy_n = dice_counts(state, db)
    state, dice = core.roll(state, db, event.dice, player_n, "dice", "your attack")
    state, enemy = core.roll(state, db, event.enemy, enemy_n, "enemy", "the servants' attack")
    state = replace(state, phase="rolled", battle=replace(_battle(state), dice=dice.values, enemy=enemy.values, rolled=True))
    if not core.QUIET.get():
        terms, _ = total_terms(state, db)
        mine, theirs = totals(state, db)
        added = "".join(f" {amount:+d} ({label})" for label, amount in terms)
        state = core.note(state, f"You roll {dice} ({'typed' if dice.typed else 'rolled'}){added}: total {mine}. "
                                 f"The servants roll {enemy} ({'typed' if enemy.typed else 'rolled'}): total {theirs}.")
    return _after_roll(state, db, event.next)


def _pay_before(state: State, db: Database, card: CityQuest) -> State:
    """Pay what the card's event text asks before the battle (``Pay 1 Mana before the battle ...``), saying
    the amount and what it did: what was paid, or that an empty track paid less and the battle is fought
    all the same (R42: track moves an event forces are never refused)."""
    cost = card.battle.before
    assert cost is not None
    asked = [f"{-amount} {label}" for amount, label in ((cost.mana, "Mana"), (cost.spirit, "Spirit")) if amount < 0]
    state = core.note(state, f"{card.name}: pay {' and '.join(asked) or 'the cost'} before the battle, as its card says.")
    mana_before = state.mana
    state = core.apply_effect(state, db, cost)
    paid = mana_before - state.mana
    if cost.mana < 0 and paid < -cost.mana:
        state = core.note(state, f"You had {mana_before} Mana, so you pay {paid} of the {-cost.mana}; "
                                 "the battle is fought all the same (R42).")
    return state


def _after_roll(state: State, db: Database, next_card: ev.CardRef | None) -> Outcome:
    """A roll on the table: won, it is resolved at once; losing, it is left open (R34), to be resolved as
    a loss or to wait with ``next_card`` kept for the end of the battle (R7)."""
    if winning(state, db):
        return _resolve_win(state, db, next_card)
    return OpenRoll(state, settle=lambda s, d: _resolve_loss(s, d, next_card), hold=lambda s, d, found: _hold_roll(s, d, next_card))


def _hold_roll(state: State, db: Database, next_card: ev.CardRef | None) -> State:
    """A losing roll that aid can still turn waits (R34): say so, and keep a next card named with it
    until the battle ends (R7). Raises :class:`RuleError` for a next card that cannot be turned over."""
    mine, theirs = totals(state, db)
    state = core.note(state, f"You are losing {mine} to {theirs}.")
    if next_card is not None and state.battle is not None:
        _check_next(state, db, next_card)
        state = core.note(replace(state, battle=replace(state.battle, named_next=next_card)),
                          f"{core.name(db, next_card.id)} is the next card you named: it goes onto the discard pile when the battle ends.")
    return state


def _check_next(state: State, db: Database, card: ev.CardRef) -> None:
    """Raise :class:`RuleError` unless ``card`` can be the next card turned over now (R7): a quest card
    of the draw pile (or of the discard pile when the draw pile is empty, which is then reshuffled, the card of this
    battle, lost, placed on it first: rulebook, Play, Battle Loss; thirty-third breaker, HIGH 7)."""
    core.quest(db, card.id)
    fought = (state.battle.card,) if not state.deck and state.battle is not None else ()
    if card.typed and card.id not in (state.deck or state.discard + fought):
        raise RuleError(f"{core.name(db, card.id)} cannot be turned over from the Quest draw pile now", field="next")


def _resolve_win(state: State, db: Database, next_card: ev.CardRef | None) -> State:
    """Battle won (rulebook, Play): turn over the next card onto the discard pile, apply the Battle Win
    row of its white cross and the card's win extras, and remove the fought card from the game."""
    card = city_card(state, db)
    mine, theirs = totals(state, db)
    state = core.note(state, f"You win the battle at {card.name}, {mine} to {theirs}.")
    state, nxt = core.turn_over_next(state, db, next_card, "the Battle Win number")
    learn = 0
    if nxt is not None:
        row = core.table_for(db, "win").row_for(nxt.win)
        state = core.note(state, f"Battle Win {nxt.win}: {row.text}.")
        state = core.apply_effect(state, db, row.effect, nxt.next_value)
        learn = row.effect.learn_spell or 0
        if card.battle.win_extra is not None and not event_cancelled(state, db) and state.result is None:
            state = core.note(state, f"{card.name}, if you win: {core.plain_text(card.text)}")
            state = core.apply_effect(state, db, card.battle.win_extra, nxt.next_value)
    state = core.note(replace(state, removed=state.removed + (card.id,), card=None, battle=None, used=(), phase="draw"),
                      f"Remove {card.name} from the game.")
    if state.result is not None:
        return replace(state, phase="over")
    if learn:
        if state.mana < 1:
            return core.note(state, "You have no Mana to pay for the spell: the row gives nothing (R9).")
        if not core.learnable(state, db):
            return core.note(state, "No spell is left to learn on your paths: the row gives nothing (R9).")
        return replace(state, phase="learn", pending=Pending("one-mana", learn, "Battle Win"))
    return state


def _resolve_loss(state: State, db: Database, next_card: ev.CardRef | None) -> Outcome:
    """Battle lost (rulebook, Play): the fought card goes on the discard pile, then the next card is
    turned over onto it and its black circle gives the Battle Loss row. The row is left open: it waits in
    the ``loss`` phase while a spell or Elder could lower it (R8, R34), else it is applied."""
    card = city_card(state, db)
    mine, theirs = totals(state, db)
    state = core.note(replace(state, discard=state.discard + (card.id,), card=None),
                      f"You lose the battle at {card.name}, {mine} to {theirs}. Place {card.name} on the discard pile.")
    state, nxt = core.turn_over_next(state, db, next_card, "the Battle Loss number")
    if nxt is None:
        return finish_loss(state, db)
    state = replace(state, phase="loss", battle=replace(_battle(state), loss_roll=nxt.loss, next_card=nxt.id))
    row = core.table_for(db, "loss").row_for(nxt.loss)
    state = core.note(state, f"Battle Loss {nxt.loss}: {row.text}.")
    return OpenRoll(state, settle=finish_loss)


def finish_loss(state: State, db: Database) -> State:
    """Apply the Battle Loss row as lowered or cancelled (R8), then the card's loss extras (rulebook, Play)."""
    battle = _battle(state)
    card = city_card(state, db)
    row = loss_row(state, db)
    next_value = core.quest(db, battle.next_card).next_value if battle.next_card else 0
    if battle.loss_roll is not None and battle.cancelled:
        state = core.note(state, "The Battle Loss result is cancelled: nothing happens.")
    elif row is not None:
        effect = row.effect
        less = sum(core.spell(db, s).effect.grayking_less for s in battle.casts)
        if less and effect.grayking > 0:
            effect = replace(effect, grayking=max(0, effect.grayking - less))
        if battle.lowered or less:
            less_text = f", {less} space less" if less and row.effect.grayking > 0 else ""
            state = core.note(state, f"Battle Loss row {loss_row_number(state)} applies: {row.text}{less_text}.")
        state = core.apply_effect(state, db, effect, next_value)
    if card.battle.loss_extra is not None and not event_cancelled(state, db) and state.result is None:
        state = core.note(state, f"{card.name}, if you lose: {core.plain_text(card.text)}")
        state = core.apply_effect(state, db, card.battle.loss_extra, next_value)
    if state.result is not None:
        return replace(state, phase="over", battle=None, used=())
    return replace(state, phase="draw", battle=None, used=())


def apply_cast(state: State, db: Database, event: ev.Cast) -> Outcome:
    """Cast a spell: in a City Quest battle (before or after the roll, or after a loss), or Barrier Lock
    between quest cards once all three Warding Keys are held (rulebook, Winning or Losing; R12); then
    what it leaves on the table (:func:`_after_aid`). Raises :class:`RuleError`."""
    core.require_phase(state, ("battle", "rolled", "loss", "draw"), lambda: f"casting {core.called(db, event.spell)}")
    before = stage(state)
    state = cast_on_table(state, db, event)
    return _after_aid(state, db, before, event.next)


def apply_elder(state: State, db: Database, event: ev.CallElder) -> Outcome:
    """Call on an Elder in a City Quest battle (rulebook, If it is an Elders card; R11); then what the aid
    leaves on the table (:func:`_after_aid`). Raises :class:`RuleError`."""
    core.require_phase(state, ("battle", "rolled", "loss"), lambda: f"calling on {core.called(db, event.elder)}")
    before = stage(state)
    state = call_on_table(state, db, event)
    return _after_aid(state, db, before, event.next)


def _after_aid(state: State, db: Database, before: Stage, next_card: ev.CardRef | None) -> Outcome:
    """After a spell or an Elder cast or called at stage ``before``: a game now decided is over; a roll on
    the table is resolved as won, or left open as losing; a Battle Loss row is left open (R34)."""
    if state.result is not None:
        return replace(state, phase="over")
    if before == "rolled":
        return _after_roll(state, db, next_card)
    if before == "loss":
        return OpenRoll(state, settle=finish_loss)
    return state


def apply_accept(state: State, db: Database, event: ev.Accept) -> Outcome:
    """Accept the battle as it stands: a losing roll becomes a loss (rulebook, Play), or the Battle Loss
    row, as lowered, is applied (R8). Raises :class:`RuleError`."""
    core.require_phase(state, ("rolled", "loss"), "accepting")
    if state.phase == "rolled":
        return _resolve_loss(state, db, event.next) if not winning(state, db) else _resolve_win(state, db, event.next)
    if event.next is not None:
        raise RuleError("the next card is already turned over for this loss", field="next")
    return finish_loss(state, db)


# ---- Learning ------------------------------------------------------------------------------------------------
def apply_learn(state: State, db: Database, event: ev.Learn) -> State:
    """Answer a spell choice (Battle Win row 4, R9; Council of Wardens, R37): learn a spell along the
    paths (:func:`referee.solo.core.learn_spell`), or take none (``spell`` is ``None``). Raises
    :class:`RuleError`."""
    core.require_phase(state, "learn", "learning a spell" if event.spell else "learning no spell")
    pending = state.pending
    assert pending is not None
    if event.spell is None:
        return core.note(replace(state, phase="draw", pending=None), "You learn no spell.")
    state = core.learn_spell(state, db, event.spell, pending.price)
    if state.result is not None:
        return replace(state, pending=None, phase="over")
    left = pending.count - 1
    if left > 0 and core.learnable(state, db) and (pending.price != "one-mana" or state.mana >= 1):
        return replace(state, pending=replace(pending, count=left))
    return replace(state, phase="draw", pending=None)


# ---- Council of Wardens ----------------------------------------------------------------------------------------
def apply_council(state: State, db: Database, event: ev.Council) -> State:
    """Resolve the Council of Wardens card on the table (rulebook, If it is a Council of Wardens Quest
    card): turn over the next card when the card reads a next card value, apply its gains, place it on
    the discard pile, then offer its spells to learn (R37). Raises :class:`RuleError`."""
    core.require_phase(state, "council", "resolving a Council of Wardens card")
    card = core.quest(db, state.card or "")
    assert isinstance(card, CouncilQuest)
    effect = card.council
    next_value = 0
    if effect.mana_per_next or effect.spirit_per_next:
        state, nxt = core.turn_over_next(state, db, event.next, "the next card value")
        next_value = nxt.next_value if nxt else 0
        if nxt:
            state = core.note(state, f"Next card value: {next_value}.")
    elif event.next is not None:
        raise RuleError(f"{card.name} reads no next card value", field="next")
    state = core.apply_effect(state, db, effect, next_value)
    state = core.note(replace(state, discard=state.discard + (card.id,), card=None), f"Place {card.name} on the discard pile.")
    if state.result is not None:
        return replace(state, phase="over")
    if effect.learn_spells and core.learnable(state, db):
        return replace(state, phase="learn", pending=Pending("cost", effect.learn_spells, card.name))
    if effect.learn_spells:
        state = core.note(state, "No spell is left to learn on your paths.")
    return replace(state, phase="draw")
