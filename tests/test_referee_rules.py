"""Rules of the solo referee, each test citing the rulebook sentence or the ruling (docs/rulings.md, R<n>) it checks."""
from __future__ import annotations

import pytest

from referee.dice import Dice
from referee.solo import events as ev
from referee.solo import rules
from referee.solo.advice import next_step
from referee.solo.game import SoloGame

BIND, SHIELD, KNOT = "solo.spell.bind", "solo.spell.shield", "solo.spell.knot"


def start(db, difficulty: str = "normal") -> int:
    """The Grayking's start space for ``difficulty``, read from the Progress Track in ``cards.toml`` (R2), so the
    rules tests below do not depend on the tuned start spaces."""
    return rules.track(db).start[difficulty]


def shield_cost(db) -> int:
    """Shield's Mana cost per use, read from ``cards.toml`` (the amount is authored and tuned)."""
    return rules.spell(db, SHIELD).cost.mana


def card(name: str) -> ev.CardRef:
    return ev.CardRef(f"solo.quest.{name}", True)


def dice(*values: int) -> Dice:
    return Dice(values, None)


def game(db, *events: ev.Event, difficulty="normal", spells=(BIND, SHIELD), seed=1) -> SoloGame:
    g = SoloGame.new(db, difficulty, [s if s.startswith("solo.") else f"solo.spell.{s}" for s in spells], seed)
    for event in events:
        g.play(event)
    return g


def fight(name: str, mine: tuple[int, ...], theirs: tuple[int, ...], nxt: str | None = None, **kw) -> list[ev.Event]:
    return [ev.Draw(card(name)), ev.Battle(dice=dice(*mine), enemy=dice(*theirs), next=card(nxt) if nxt else None, **kw)]


# ---- Setup ----------------------------------------------------------------------------------------------
def test_setup_tracks_grayking_deck(db):
    """Setup: "Place markers on the highlighted [14] spaces"; R2: the Grayking starts on the difficulty's space
    (bundled: beginner 9, normal 16, advanced 18); 22 quest cards."""
    s = game(db).state
    assert (s.mana, s.spirit, s.grayking, len(s.deck), s.phase) == (14, 14, start(db), 22, "draw")
    for difficulty in ("beginner", "advanced"):
        assert game(db, difficulty=difficulty).state.grayking == start(db, difficulty)
    assert rules.track(db).start == {"beginner": 9, "normal": 16, "advanced": 18}  # the bundled spaces R2 writes out


@pytest.mark.parametrize("pair, legal", [
    (("bind", "shield"), True),            # tops of two types
    (("bind", "knot"), True),              # a top and a spell it opens
    (("bind", "thorn-hedge"), False),      # two tops of one type (R3)
    (("bind", "leafward"), False),         # not opened by Bind
    (("bind", "barrier-lock"), False),     # never learned (R12)
])
def test_starting_spells(db, pair, legal):
    """Setup: "choose two spells from among those at the top ... or two spells of one type along one spell path" (R3)."""
    ids = [f"solo.spell.{p}" for p in pair]
    assert rules.legal_start(db, *ids) is legal
    if not legal:
        with pytest.raises(rules.RuleError, match="not a legal start"):
            game(db, spells=ids)


@pytest.mark.parametrize("pair", [("bind", "knot"), ("shield", "shard-knives"), ("bind", "deep-root")])
def test_starting_spells_in_either_order(db, pair):
    """Setup (R3) names a pair of spells, not an order: `--spells knot,bind` starts the same game as
    `--spells bind,knot` (fresh-user report: the second order was refused as if Knot were unopened)."""
    forward = game(db, spells=pair).state
    backward = game(db, spells=tuple(reversed(pair))).state
    assert (forward.mana, forward.spirit, forward.grayking, forward.deck) == \
        (backward.mana, backward.spirit, backward.grayking, backward.deck)
    assert set(forward.spells) == set(backward.spells) == {f"solo.spell.{p}" for p in pair}


def test_starting_spell_pays_its_bracketed_cost(db):
    """Setup: a bracketed cost is "paid once, when they are first learned" (Deep Root [3 Mana])."""
    assert game(db, spells=("bind", "deep-root")).state.mana == 11


def test_a_learned_spell_closes_the_branch_not_taken(db):
    """Setup: "because Hammer Plate was learned, the player may not go back and learn Brittle Knives" (R4)."""
    learned = ["solo.spell.shield", "solo.spell.shard-knives", "solo.spell.hammer-plate"]
    assert "solo.spell.brittle-knives" in rules.closed_spells(db, learned)
    s = game(db, spells=("shield", "shard-knives")).state
    assert "solo.spell.brittle-knives" in rules.learnable(s, db) and "solo.spell.ember-hook" not in rules.learnable(s, db)


def _reachable_sets(db, spell_type):
    """Every set of spells of one type that some learning order reaches, from nothing learned."""
    from dataclasses import replace as with_spells

    blank = game(db).state
    seen, stack = set(), [frozenset()]
    while stack:
        learned = stack.pop()
        if learned in seen:
            continue
        seen.add(learned)
        state = with_spells(blank, spells=tuple(sorted(learned)))
        for spell_id in rules.learnable(state, db):
            if rules.spell(db, spell_id).spell_type == spell_type:
                stack.append(learned | {spell_id})
    return seen


@pytest.mark.parametrize("spell_type, most", [("oaken", 4), ("flint", 5), ("ice", 5)])
def test_at_most_four_to_five_spells_of_a_type_in_any_order(db, spell_type, most):
    """Setup: "At most you will only be able to learn 4 to 5 spells of each type. Each step along the path
    determines the next spells to choose from" (R4: one spell a row below the two tops; the Oaken card's
    last row is Barrier Lock, never learned, R12). Rules audit: the other top spell used to reopen every
    row, so all seven Flint spells could be learned."""
    reachable = _reachable_sets(db, spell_type)
    assert max(len(learned) for learned in reachable) == most
    for learned in reachable:  # never two spells of one row below the top
        rows = [rules.spell(db, s).slot[0] for s in learned if rules.spell(db, s).slot[0] > 1]
        assert len(rows) == len(set(rows)), sorted(learned)


def test_what_is_closed_does_not_depend_on_the_order_of_learning(db):
    """R4: Shield, Flint Spark, Shard Knives and then Hammer Plate or Brittle Knives: whichever is learned
    closes the other, in any order (rules audit: one order closed Brittle Knives, the other did not)."""
    base = ["solo.spell.shield", "solo.spell.flint-spark", "solo.spell.shard-knives"]
    assert "solo.spell.ember-hook" in rules.closed_spells(db, base)  # row 2 is taken by Shard Knives
    for third, other in (("hammer-plate", "brittle-knives"), ("brittle-knives", "hammer-plate")):
        for order in (base + [f"solo.spell.{third}"], [f"solo.spell.{third}"] + base):
            assert f"solo.spell.{other}" in rules.closed_spells(db, order)


# ---- Drawing ---------------------------------------------------------------------------------------------
def test_draw_takes_the_referee_top_card_or_the_typed_one(db):
    """Play: "Turn over the top card in the Quest draw pile"; R35: or the card the player typed."""
    g = game(db)
    top = g.state.deck[0]
    g.play(ev.Draw())
    assert g.state.card == top and g.log.events[-1] == ev.Draw(ev.CardRef(top, False))
    g = game(db, ev.Draw(card("tural")))
    assert g.state.card == "solo.quest.tural" and "solo.quest.tural" not in g.state.deck
    with pytest.raises(rules.RuleError, match="out of the game|not in"):
        game(db, *fight("iarith", (6, 6), (1, 1, 1), "tural"), ev.Draw(card("iarith")))


def test_exhausted_deck_is_reshuffled_from_the_discard_pile(db):
    """Expanded Battles 7: "If at any time the Quest draw pile is exhausted, shuffle the discard pile" (R7c)."""
    g = game(db)
    g.log.states[-1] = rules.replace(g.state, deck=(), discard=("solo.quest.tural", "solo.quest.iarith"))
    g.play(ev.Draw())
    assert g.state.shuffles == 2 and len(g.state.deck) == 1 and g.state.discard == ()


# ---- City Quest battles -------------------------------------------------------------------------------------
def test_servants_roll_one_more_die_and_ties_win(db):
    """Play: "servants will roll one more die than you"; "equal to or greater than the Grayking to win" (R5, R6)."""
    g = game(db, ev.Draw(card("tural")))
    assert rules.dice_counts(g.state, db) == (2, 3)
    g.play(ev.Battle(dice=dice(6, 6), enemy=dice(4, 4, 4), next=card("iarith")))  # 12 = 12
    assert "solo.quest.tural" in g.state.removed and g.state.mana == 15  # Iarith: white cross 1, Mana +1
    assert g.state.spirit == 16 and g.state.discard == ("solo.quest.iarith",)  # Tural's text: Spirit + next card value 2


def test_wrong_number_of_typed_dice_is_refused(db):
    g = game(db, ev.Draw(card("tural")))
    with pytest.raises(rules.RuleError, match="needs 3 dice, you typed 2") as refused:
        g.play(ev.Battle(dice=dice(3, 3), enemy=dice(1, 1)))
    assert refused.value.field == "enemy" and refused.value.refusal is None


def test_extra_dice_spells_and_elder_san(db):
    """Play: extra-dice spells "are always part of your attack strength"; Elder San's die does not count for the servants (R6)."""
    g = game(db, ev.Draw(card("elder-san")), ev.Draw(card("tural")), spells=("bind", "deep-root"))
    assert rules.dice_counts(g.state, db) == (3, 4)
    g.play(ev.Battle(elders=("solo.quest.elder-san",), dice=dice(1, 1, 1, 1), enemy=dice(6, 6, 6, 6), next=card("iarith")))
    assert g.state.elder_uses("solo.quest.elder-san") == 2


def test_event_text_modifier_and_extra_servant_die(db):
    """Play: "applying any modifiers to your attack as listed in the event instructions" (Emberlow: +2, one more servant die)."""
    g = game(db, ev.Draw(card("emberlow")))
    assert rules.dice_counts(g.state, db) == (2, 4)
    g.play(ev.Battle(dice=dice(5, 5), enemy=dice(3, 3, 3, 3), next=card("iarith")))  # 12 vs 12: win
    assert g.state.phase == "draw" and "solo.quest.emberlow" in g.state.removed


def test_printed_totals_show_what_is_added_and_removed(db):
    """R5: the totals the referee prints add up at the table: the card's modifier and each spell's bonus
    are shown, and so is Shield's removed die (fresh-user report: "your dice 4 1 6 = 13" at Emberlow)."""
    g = game(db, ev.Draw(card("emberlow")), ev.Battle(dice=dice(1, 1), enemy=dice(6, 6, 6, 5), next=card("iarith")))
    assert rules.totals_in_words(g.state, db) == ("1 1 +2 (Emberlow) = 4", "6 6 6 5 = 23")
    assert "You roll 1 1 (typed) +2 (Emberlow): total 4." in " ".join(g.state.notes)
    h = game(db, ev.Draw(card("tural")), ev.Battle(dice=dice(4, 3), enemy=dice(6, 6, 2)),
             spells=("shield", "shard-knives"))
    h.play(ev.Cast(SHIELD))  # 7 to 8: Shard Knives (+1) could still turn it, so the battle waits (R34)
    assert rules.totals_in_words(h.state, db) == ("4 3 = 7", "6 6 2 without the highest (Shield) = 8")
    h.play(ev.Cast("solo.spell.shard-knives", next=card("iarith")))
    assert "solo.quest.tural" in h.state.removed  # 8 to 8: a tie wins


def test_win_applies_the_white_cross_row_and_removes_the_card(db):
    """Play: win: "turn over the next card ... Battle Win Table number ... Remove the City Quest card"."""
    g = game(db, *fight("hollin-ford", (6, 6), (1, 1, 1), "thornwick"))  # Thornwick white cross 6: Grayking -2
    assert g.state.grayking == start(db) - 2 and g.state.removed == ("solo.quest.hollin-ford",)


def test_loss_discards_both_cards_and_applies_the_black_circle_row(db):
    """Play: loss: "place the Quest card on the discard pile and then turn over the next card ... Battle Loss"."""
    g = game(db, *fight("tural", (1, 1), (6, 6, 6), "mistmarch"), spells=("frost-breath", "calm"))
    assert g.state.discard == ("solo.quest.tural", "solo.quest.mistmarch") and g.state.grayking == start(db) + 4  # row 6: +4


def test_next_card_value_of_the_event_text(db):
    """Play: "Some battles will also tell you to refer to a 'next card value'" (Mistmarch: lose Mana by it; R7b)."""
    g = game(db, *fight("mistmarch", (1, 1), (6, 6, 6), "marim"), spells=("frost-breath", "calm"))  # Marim: loss 5, value 2
    assert g.state.grayking == start(db) + 3 and g.state.mana == 12  # Marim's row 5: +3; Mana -2


def test_an_elder_as_the_next_card_only_gives_its_icons(db):
    """R7a: the next card goes to the discard pile whatever it is; an Elder turned over this way does not join."""
    g = game(db, *fight("tural", (6, 6), (1, 1, 1), "elder-rhun"))  # Rhun: white cross 6
    assert g.state.elders == () and g.state.discard == ("solo.quest.elder-rhun",) and g.state.grayking == start(db) - 2


# ---- Spells --------------------------------------------------------------------------------------------------
def test_shield_removes_the_highest_servant_die_and_costs_mana(db):
    """R41 and Setup: per-use costs "subtract that cost in Mana or Spirit each time you use the spell"."""
    g = game(db, ev.Draw(card("tural")), ev.Battle(casts=(SHIELD,), dice=dice(4, 4), enemy=dice(2, 6, 6), next=card("iarith")))
    assert g.state.mana == 14 - shield_cost(db) + 1 and "solo.quest.tural" in g.state.removed  # 8 vs 8 after Shield; Iarith's white cross 1: +1


def test_each_spell_once_per_battle_unless_calm(db):
    """Play: "you may only use each spell once (unless you recharge them using the Ice Spell: Calm)" (R10)."""
    g = game(db, ev.Draw(card("tural")), ev.Battle(casts=("solo.spell.frost-breath",), dice=dice(1, 1), enemy=dice(6, 6, 6),
                                                   next=card("mistmarch")),
             spells=("frost-breath", "calm"), difficulty="beginner")  # Mistmarch's loss 6 (+4) would end a normal game (space 16)
    # nothing could change the loss: resolved at once (R34); next battle
    g.play(ev.Draw(card("iarith")))
    g.play(ev.Cast("solo.spell.frost-breath"))
    with pytest.raises(rules.RuleError, match="already used"):
        g.play(ev.Cast("solo.spell.frost-breath"))
    g.play(ev.Cast("solo.spell.calm"))
    g.play(ev.Cast("solo.spell.frost-breath"))
    assert g.state.used.count("solo.spell.frost-breath") == 1 and g.state.battle.casts.count("solo.spell.frost-breath") == 2


def test_casting_needs_the_mana(db):
    """Setup: "Your mana may fall below [1] but you may not be able to cast spells" (R39)."""
    g = game(db, ev.Draw(card("tural")))
    g.log.states[-1] = rules.replace(g.state, mana=0)
    with pytest.raises(rules.RuleError, match=f"costs {shield_cost(db)} Mana; you have 0"):
        g.play(ev.Cast(SHIELD))


def test_extra_dice_spells_are_not_cast(db):
    g = game(db, ev.Draw(card("tural")), spells=("bind", "deep-root"))
    with pytest.raises(rules.RuleError, match="by itself; it is not cast"):
        g.play(ev.Cast("solo.spell.deep-root"))


def test_knives_bonus_against_their_foe(db):
    """Play: "Brittle Knives and Shard Knives against these servants for additional attack bonuses" (R40)."""
    g = game(db, ev.Draw(card("randven")), ev.Battle(casts=("solo.spell.shard-knives",), dice=dice(3, 3), enemy=dice(3, 3, 3), next=card("iarith")),
             spells=("shield", "shard-knives"))
    assert "solo.quest.randven" in g.state.removed  # 6 + 3 = 9 vs 9
    g = game(db, ev.Draw(card("tural")), ev.Battle(casts=("solo.spell.shard-knives",), dice=dice(3, 3), enemy=dice(3, 3, 3)),
             spells=("shield", "shard-knives"))
    assert g.state.phase == "rolled"  # 7 vs 9, only +1 against no named foe; Shield still helps


def test_reroll_spell_after_the_roll(db):
    """Ember Hook: "Re-roll any of your attack dice"; the player names the dice (R34, R35)."""
    g = game(db, ev.Draw(card("tural")), ev.Battle(dice=dice(1, 5), enemy=dice(3, 3, 3)), spells=("flint-spark", "ember-hook"))
    assert g.state.phase == "rolled"
    with pytest.raises(rules.RuleError, match="no 2 to re-roll") as refused:
        g.play(ev.Cast("solo.spell.ember-hook", reroll=(2,), dice=dice(6)))
    assert refused.value.field == "reroll"
    g.play(ev.Cast("solo.spell.ember-hook", reroll=(1,), dice=dice(6), next=card("iarith")))
    assert "solo.quest.tural" in g.state.removed


def test_bind_and_knot_lower_the_loss_row(db):
    """Play: "Bind and Knot ... allow you to lower the type of loss damage you receive" (R8)."""
    g = game(db, *fight("tural", (1, 1), (6, 6, 6), "mistmarch"), spells=("bind", "knot"))
    assert g.state.phase == "loss" and rules.options(g.state, db) == [BIND, KNOT]
    g.play(ev.Cast(KNOT, rows=2))
    assert g.state.phase == "loss"  # row 4 now; Bind could still lower it
    with pytest.raises(rules.RuleError, match="already used"):
        g.play(ev.Cast(KNOT))
    g.play(ev.Accept())
    assert g.state.grayking == start(db) + 2 and g.state.mana == 12  # row 4: +2 spaces; Knot cost 2


def test_lowering_below_row_one_leaves_nothing(db):
    """R8: lowering below row 1 leaves no loss at all."""
    g = game(db, *fight("tural", (1, 1), (6, 6, 6)), ev.Turn(card("quenmoor")), ev.Cast(BIND))  # 2 to 18: settled, the next card asked for
    assert g.state.phase == "draw" and (g.state.mana, g.state.spirit) == (13, 14)  # row 1 (Mana -2) lowered away; Bind 1 Mana


def test_thorn_hedge_only_when_the_row_moves_the_grayking(db):
    """R43: Thorn Hedge "A Battle Loss moves the Grayking one space less"."""
    g = game(db, *fight("iarith", (1, 1), (6, 6, 6), "councils-seat"), spells=("thorn-hedge", "frost-breath"))
    assert g.state.phase == "loss"
    g.play(ev.Cast("solo.spell.thorn-hedge"))
    assert g.state.grayking == start(db) + 3 and g.state.phase == "draw"  # row 6: four spaces, one less


def test_oakheart_cancels_the_event_text(db):
    """R33: Oakheart ignores the event text (Greywater's cost, Emberlow's modifiers)."""
    g = game(db, spells=("thorn-hedge", "deep-root"))
    g.log.states[-1] = rules.replace(g.state, spells=g.state.spells + ("solo.spell.oakheart",))
    g.play(ev.Draw(card("emberlow")))
    g.play(ev.Cast("solo.spell.oakheart"))
    assert rules.dice_counts(g.state, db) == (3, 4)  # Deep Root die; Emberlow's extra servant die gone


# ---- Council, Elders, Warding Cities, the end --------------------------------------------------------------
def test_council_gains_by_next_card_value_and_offers_a_spell(db):
    """Council of Wardens: "Turn over the next card ... find the Mana/Spirit number"; "place the Council ... on the discard pile" (R37)."""
    g = game(db, ev.Draw(card("archive-of-sael")), ev.Council(card("tural")))  # Tural gray square 2
    assert g.state.mana == 16 and g.state.phase == "learn" and g.state.discard[-1] == "solo.quest.archive-of-sael"
    g.play(ev.Learn("solo.spell.deep-root"))
    assert g.state.mana == 13 and g.state.phase == "draw"


def test_councils_seat_moves_the_grayking_per_two_spirit_gained(db):
    """R36: counted on the Spirit actually gained (20 -> 21 gains 1: no move)."""
    g = game(db, ev.Draw(card("councils-seat")), ev.Council(card("tural")))  # three times Tural's 2: +6 Spirit, 3 spaces
    assert (g.state.spirit, g.state.grayking) == (20, start(db) + 3)


def test_battle_win_row_4_learns_for_one_mana(db):
    """Battle Win 4: "gain one path spell of your choice for a cost of one mana" (R9)."""
    g = game(db, *fight("tural", (6, 6), (1, 1, 1), "serrat-vale"))
    assert g.state.phase == "learn"
    with pytest.raises(rules.RuleError, match="cannot be learned"):
        g.play(ev.Learn("solo.spell.forge-shock"))
    g.play(ev.Learn("solo.spell.deep-root"))
    assert g.state.mana == 13


def test_elder_three_uses_then_removed(db):
    """Elders: "You may call on the power of each Elder three times ... then ... remove the card" (R11)."""
    g = game(db, ev.Draw(card("elder-san")))
    for n, name in enumerate(["tural", "iarith", "quenmoor"]):
        g.play(ev.Draw(card(name)))
        g.play(ev.Battle(elders=("solo.quest.elder-san",), dice=dice(6, 6, 6), enemy=dice(1, 1, 1), next=card(["mistmarch", "cairn-ulda", "thornwick"][n])))
    assert g.state.elders == () and "solo.quest.elder-san" in g.state.removed


def test_warding_city_won_gives_key_and_bonus_retreat_costs_spirit(db):
    """Expanded Battles 6a and 6b; Warding Key bonuses (R12, R38)."""
    g = game(db, ev.Draw(card("dalnish")), ev.Warding("won", mana=-2))
    assert g.state.keys == (1,) and g.state.spirit == 16 and g.state.mana == 12 and "solo.quest.dalnish" in g.state.removed
    g = game(db, ev.Draw(card("marim")), ev.Warding("retreat"))
    assert g.state.spirit == 13 and g.state.discard == ("solo.quest.marim",)


def test_barrier_lock_with_three_keys_wins(db):
    """Winning: "If you gain each of the 3 Warding keys you may cast the Oaken Spell: Barrier Lock" (R12)."""
    g = game(db, ev.Draw(card("dalnish")), ev.Warding("won"), ev.Draw(card("marim")), ev.Warding("won"))
    with pytest.raises(rules.RuleError, match="needs all 3 Warding Keys"):
        g.play(ev.Cast("solo.spell.barrier-lock"))
    g.play(ev.Draw(card("borolia")))
    g.play(ev.Warding("won"))
    g.play(ev.Cast("solo.spell.barrier-lock"))
    assert g.state.result == "won" and g.state.grayking == 1
    with pytest.raises(rules.RuleError, match="the game is over") as refused:
        g.play(ev.Draw())
    assert refused.value.refusal is rules.Refusal.GAME_OVER


def test_spirit_below_one_loses(db):
    """Setup: "You lose the game if your Spirit ever falls below [1]"."""
    g = game(db, ev.Draw(card("dalnish")), ev.Warding("retreat", spirit=-13))
    assert (g.state.result, g.state.spirit, g.state.phase) == ("lost", 0, "over")


def test_grayking_reaching_lassadar_loses_and_tracks_stay_in_bounds(db):
    """Setup: "You lose the game if the marker ever reaches the last space (Lassadar)"; R1: tracks stop at 21."""
    g = game(db, *fight("tural", (1, 1), (6, 6, 6), "mistmarch"), *fight("iarith", (1, 1), (6, 6, 6), "councils-seat"),
             *fight("quenmoor", (1, 1), (6, 6, 6), "elder-maelis"), difficulty="beginner", spells=("frost-breath", "calm"))  # 9, 13, 17, 20
    assert g.state.grayking == 20 and g.state.result == "lost" and "Lassadar" in g.state.reason
    g = game(db, ev.Draw(card("dalnish")), ev.Warding("won", spirit=10))
    assert g.state.spirit == 21


def test_resolve_records_referee_dice_and_undo_is_not_a_reroll(db):
    """R35: die k of the game is a pure function of the seed and k. Ruling 84: a step that showed the
    referee's dice is never taken back (refused, nothing changed); a step of typed dice is."""
    g = game(db, ev.Draw(card("tural")), seed=42)
    g.play(ev.Battle())
    first = g.log.events[-1]
    assert first.dice.k == 0 and first.enemy.k == 2
    with pytest.raises(rules.RuleError, match="ruling 84"):
        g.undo()
    assert g.log.events[-1] == first
    typed = game(db, ev.Draw(card("tural")), seed=42)
    typed.play(ev.Battle(dice=dice(1, 1), enemy=dice(6, 6, 6), next=card("mistmarch")))
    typed.undo()
    assert typed.state.phase == "battle" and typed.state.dice_used == 0


def test_a_player_drawing_from_their_own_deck_names_the_next_card(db):
    """Play: the next card is "the next card in the Quest draw pile": when the player draws from their own
    shuffled deck (draw --card), the referee cannot know it, so a battle that ends waits for the card
    (phase ``turn``, issue 10), or takes it from --next given at once (R7)."""
    g = game(db, ev.Draw(card("tural")))
    s = g.play(ev.Battle(dice=dice(6, 6), enemy=dice(1, 1, 1)))
    assert s.phase == "turn" and s.suspended is not None and "solo.quest.tural" not in s.removed
    with pytest.raises(rules.RuleError, match="does not fit now") as refused:
        g.play(ev.Draw())
    assert refused.value.refusal is rules.Refusal.WRONG_PHASE
    with pytest.raises(rules.RuleError, match="it is on the table") as refused:  # Tural, the card fought
        g.play(ev.Turn(card("tural")))
    assert refused.value.field == "next"  # the card is the suspended battle's next card
    s = g.play(ev.Turn(card("mistmarch")))
    assert "solo.quest.mistmarch" in s.discard and "solo.quest.tural" in s.removed and s.phase != "turn"
    g.undo()
    g.undo()
    g.play(ev.Battle(dice=dice(6, 6), enemy=dice(1, 1, 1), next=card("mistmarch")))
    assert "solo.quest.mistmarch" in g.state.discard
    # drawing from the referee's deck: the referee turns over its own next card
    g.play(ev.Draw())
    assert not g.state.own_deck


FROST_BREATH = "solo.spell.frost-breath"


def test_a_losing_city_roll_waits_when_a_mana_spell_pays_for_shield(db):
    """R34 (issue 10, part 1): with Mana 0, Frost Breath (+2 Mana for 1 Spirit) then Shield turns 1 1
    against 6 1 1 into a win, so the roll is not settled: the referee waits, offering Frost Breath, the
    only first step of a winning line (Shield alone cannot be paid for)."""
    g = game(db, ev.Draw(card("dalnish")), ev.Warding("won", mana=-30), ev.Draw(card("randven")), spells=(FROST_BREATH, SHIELD))
    assert g.state.mana == 0
    s = g.play(ev.Battle(dice=dice(1, 1), enemy=dice(6, 1, 1), next=card("tural")))
    assert s.phase == "rolled" and s.grayking == g.log.states[-2].grayking
    assert rules.options(s, db) == [FROST_BREATH]
    g.play(ev.Cast(FROST_BREATH))
    assert rules.options(g.state, db) == [SHIELD]
    s = g.play(ev.Cast(SHIELD))
    assert s.phase == "draw" and "solo.quest.randven" in s.removed


def test_the_next_card_named_with_a_waiting_roll_is_kept_for_the_end_of_the_battle(db):
    """R7 and R34: a player who names the next card with the roll (--next) while the roll waits for aid
    has turned that card over; it is the card that goes onto the discard pile when the battle ends, whatever
    command ends it, and naming another one then is refused."""
    g = game(db, ev.Draw(card("dalnish")), ev.Warding("won", mana=-30), ev.Draw(card("randven")), spells=(FROST_BREATH, SHIELD))
    s = g.play(ev.Battle(dice=dice(1, 1), enemy=dice(6, 1, 1), next=card("tural")))
    assert s.battle.named_next == card("tural") and g.log.events[-1].next == card("tural")
    g.play(ev.Cast(FROST_BREATH))
    with pytest.raises(rules.RuleError, match="you named Tural") as refused:
        g.play(ev.Cast(SHIELD, next=card("mistmarch")))
    assert refused.value.field == "next"
    s = g.play(ev.Cast(SHIELD))
    assert s.phase == "draw" and s.discard[-1] == "solo.quest.tural" and s.suspended is None
    # accepting the loss instead turns over the same card for the Battle Loss number
    g.undo()
    s = g.play(ev.Accept())
    assert s.discard[-1] == "solo.quest.tural" and s.suspended is None


def test_a_battle_loss_row_that_changes_nothing_is_settled_at_once(db):
    """R8 and R34 (issue 10, found in a new-user trial): "lower mana count by two" with Mana already 0
    changes nothing, so nothing can turn it: the row applies at once, no spell is offered (paying a Spirit
    for Frost Breath to lower a row that costs nothing would only hurt)."""
    g = game(db, ev.Draw(card("dalnish")), ev.Warding("won", mana=-30), ev.Draw(card("randven")), spells=(FROST_BREATH, BIND))
    assert g.state.mana == 0
    quenmoor = rules.quest(db, "solo.quest.quenmoor")
    row = rules.table_for(db, "loss").row_for(quenmoor.loss)
    assert row.effect.mana < 0 and not row.effect.spirit and not row.effect.grayking  # the Mana row
    s = g.play(ev.Battle(dice=dice(1, 1), enemy=dice(6, 6, 6), next=card("quenmoor")))
    assert s.phase == "draw" and (s.mana, s.spirit) == (0, g.log.states[-2].spirit) and s.used == ()


def test_lowering_a_row_that_costs_as_much_after_the_aid_is_not_offered(db):
    """R8 and R34: with Mana 0, row 3 (-1 Mana, -1 Spirit) costs one Spirit; Frost Breath (1 Spirit) then
    Bind down to row 2 (-1 Spirit) costs more, so the row is not turned: settled at once."""
    g = game(db, ev.Draw(card("dalnish")), ev.Warding("won", mana=-30), ev.Draw(card("randven")), spells=(FROST_BREATH, BIND))
    third = next(c.id for c in db.solo.quests if getattr(c, "loss", None) == 3 and c.id in g.state.deck)
    spirit = g.state.spirit
    s = g.play(ev.Battle(dice=dice(1, 1), enemy=dice(6, 6, 6), next=ev.CardRef(third, True)))
    assert s.phase == "draw" and (s.mana, s.spirit) == (0, spirit - 1)


def test_the_battle_line_offers_the_elders_and_spells_the_rules_accept_before_the_roll(db):
    """Issue 10 (found in a new-user trial): the Next line before a City Quest roll offers each Elder and
    spell the rules accept then, as commands that work (R11: Elder San's die joins the roll), and the roll
    after the call asks for the dice it now needs; with no Elder at the table none is offered."""
    from referee import advice
    from referee.solo import legal

    g = game(db, ev.Draw(card("randven")))
    line = next_step(g.state, db)
    assert "elder" not in " ".join(advice.commands_in(line))
    g = game(db, ev.Draw(card("elder-san")), ev.Draw(card("randven")))
    commands = advice.commands_in(next_step(g.state, db))
    assert "referee solo elder elder-san" in commands
    assert legal.is_legal(g.state, db, ev.CallElder("solo.quest.elder-san"))
    mine, theirs = rules.dice_counts(g.state, db)
    g.play(ev.CallElder("solo.quest.elder-san"))
    assert rules.dice_counts(g.state, db) == (mine + 1, theirs)
    assert f"--dice {','.join(['D'] * (mine + 1))}" in next_step(g.state, db)


def test_a_spell_that_only_recharges_needs_a_used_spell(db):
    """R86 (twenty-first breaker): Calm with no spell used recharged nothing, cost its 2 Mana and, on a map, brought
    Eldritch Damage on; it is refused (nothing spent) until a spell is used, then recharges it."""
    g = game(db, ev.Draw(card("randven")), spells=("frost-breath", "calm"))
    mana = g.state.mana
    with pytest.raises(rules.RuleError, match="R86"):
        g.play(ev.Cast(spell="solo.spell.calm"))
    assert g.state.mana == mana and g.state.used == ()
    g.play(ev.Cast(spell="solo.spell.frost-breath"))
    g.play(ev.Cast(spell="solo.spell.calm"))
    assert g.state.used == ("solo.spell.calm",)
