"""The solo referee's words for the table: the Next line, with the commands to type, and the one-line
refusals with what to type instead.

This module owns every ``referee solo ...`` command line the referee suggests and every option name a
refusal mentions; the rules (:mod:`referee.solo.core` and the modules above it) write neither: their notes
say what happens in the rules' words, and a refusal is a :class:`~referee.solo.core.RuleError` with its
kind (:class:`~referee.solo.core.Refusal`) and event field, which :func:`refusal_text` words.

For the Next line it reads the state, asks the rules what is legal now (the phase, :mod:`referee.solo.aid`
for the aid that can still turn a roll, ``legal_moves`` on a map, ``learnable`` spells, the rules' own
checks for a recharge or a cast), and writes the line. Every command it offers works when typed, with
its placeholders (:data:`referee.advice.PLACEHOLDERS`) filled in, in every mode: the referee's deck or
the player's own (``--card``/``turn CARD``, R7), the referee's dice or the player's (``--dice D,D``).
The mode in use decides which form is offered: the player's own deck once a card was named
(``own_deck``), typed dice once dice were typed (``dice_typed``); before the first roll both forms are
offered.
"""
from __future__ import annotations

from pnp.database import Database
from referee.advice import dice_placeholder
from referee.solo import aid, city, core, expanded, laststand, legal, rules
from referee.solo import events as ev
from referee.solo.core import Refusal, RuleError
from referee.solo.state import Ending, State, replace

CMD = "referee solo"

OPTIONS: dict[str, str] = {
    "dice": "--dice", "enemy": "--enemy", "reroll": "--reroll", "rows": "--rows", "counter": "--counter", "next": "--next",
    "card": "--card", "casts": "--cast", "elders": "--elder", "place": "--place", "servants": "--servant",
    "difficulty": "--difficulty", "spells": "--spells",
    "spell": "SPELL", "elder": "ELDER", "path": "HEX", "spell_type": "TYPE", "outcome": "OUTCOME",
}
"""The command-line option (or argument) that gives each event field a refusal may concern
(:attr:`RuleError.field`): the options and arguments of :mod:`referee.solo.cli`."""


def _cmd(text: str) -> str:
    return f"`{CMD} {text}`"


def _rolls(state: State, command: str, counts: tuple[int, ...], options: tuple[str, ...] = ("--dice", "--enemy")) -> str:
    """A roll to make, as the referee's roll or the player's typed dice, by the mode in use; only the
    referee's while its dice shown before an undo come up again (:func:`referee.solo.core.dice_replayed`)."""
    if core.dice_replayed(state):
        return f"{_cmd(command)} (the referee rolls again what it rolled before the undo)"
    typed = command + "".join(f" {option} {dice_placeholder(n)}" for option, n in zip(options, counts, strict=True))
    if state.dice_typed is None:
        return f"{_cmd(command)} (the referee rolls) or {_cmd(typed)} (your dice)"
    return _cmd(typed) if state.dice_typed else _cmd(command)


def _either(parts: list[str]) -> str:
    if len(parts) <= 1:
        return "".join(parts)
    return ", ".join(parts[:-1]) + " or " + parts[-1]


def aid_command(state: State, db: Database, step: ev.Cast | ev.CallElder | ev.Recharge) -> str:
    """The command line of one aid step (without back quotes), with ``--dice D,...`` for the re-rolled
    dice when the player types dice."""
    if isinstance(step, ev.Recharge):
        return f"{CMD} recharge {step.spell_type}"
    if isinstance(step, ev.Cast):
        line = f"{CMD} cast {rules.short_id(step.spell)}"
        if step.rows is not None and step.rows != rules.spell(db, step.spell).effect.loss_rows:
            line += f" --rows {step.rows}"
    else:
        line = f"{CMD} elder {rules.short_id(step.elder)}"
    if step.reroll:
        line += " --reroll " + ",".join(map(str, step.reroll))
    if state.dice_typed and not core.dice_replayed(state):
        count = _rerolled(state, db, step)
        if count:
            line += " --dice " + dice_placeholder(count)
        line += _counter(state, db, step)
    return line


def _counter(state: State, db: Database, step: ev.Cast | ev.CallElder) -> str:
    """`` --counter D,D`` for the Grayking's counter dice of a spell cast in the Last Stand with typed
    dice (R22), when the count is known before the cast; empty otherwise (the referee rolls them)."""
    if not isinstance(step, ev.Cast) or state.last_stand is None or state.phase != "stand":
        return ""
    count = laststand.counter_dice(state, db, rules.spell(db, step.spell))
    return f" --counter {dice_placeholder(count)}" if count else ""


def _rerolled(state: State, db: Database, step: ev.Cast | ev.CallElder) -> int:
    """How many dice the player rolls for a step: the dice a re-roll names, the servants' or the
    Grayking's dice for a spell that makes them re-roll, two for an Eldritch re-roll."""
    if step.reroll:
        return len(step.reroll)
    if not isinstance(step, ev.Cast):
        return 0
    effect = rules.spell(db, step.spell).effect
    kind = aid.situation(state)
    if kind == "eldritch":
        return 2 if (effect.reroll_table or effect.reroll_own or effect.reroll_servants) else 0
    if effect.reroll_servants:
        if kind in ("roll", "loss") and state.battle is not None:
            return len(state.battle.enemy)
        if kind == "exchange" and state.map_battle is not None and state.map_battle.exchange is not None:
            return len(state.map_battle.exchange.enemy)
        if kind == "stand" and state.last_stand is not None:
            return len(state.last_stand.enemy)
    return 0


def aid_offer(state: State, db: Database) -> str:
    """The aid that can still turn the roll on the table, each with its command and its chance (R34):
    ``cast Shield (`referee solo cast shield`, certain)``; empty when there is none."""
    parts = []
    for option in aid.options(state, db):
        step = option.event
        if isinstance(step, ev.Recharge):
            what = f"recharge your {step.spell_type.capitalize()} spells"
        elif isinstance(step, ev.Cast):
            what = f"cast {rules.name(db, step.spell)}"
        else:
            what = f"call on {rules.name(db, step.elder)}"
        if not isinstance(step, ev.Recharge) and step.reroll:
            what += f", re-rolling {' '.join(map(str, step.reroll))}"
        then = [step_name(db, later) for later in option.line[1:]]
        if then:
            what += ", then " + _either(then).replace(" or ", " and ")
        parts.append(f"{what} (`{aid_command(state, db, step)}`, {odds(option.chance, option.certain, option.at_least)}{backup_clause(db, option)}"
                     f"{counter_after(state, db, step)})")
    return _either(parts)


def backup_clause(db: Database, option: aid.Aid) -> str:
    """What an aid line's chance counts on where its dice fall short (:attr:`referee.solo.aid.Aid.backup`), as a clause
    after the chance: ``; should its dice fall short, cast Shield``; empty when the dice alone decide (forty-eighth
    referee breaker, 6: "call on Elder Maelis (certain)" counted on a Shield it did not name)."""
    backup = _either([("cast " if isinstance(later, ev.Cast) else "call on " if isinstance(later, ev.CallElder) else "")
                      + step_name(db, later) for later in option.backup])
    return f"; should its dice fall short, {backup}" if backup else ""


def counter_after(state: State, db: Database, step: ev.Cast | ev.CallElder | ev.Recharge) -> str:
    """With typed dice, for a spell cast in the Last Stand whose counter's dice are known only after the spell's
    own re-roll (:func:`referee.solo.laststand.counter_dice` is ``None``; R22): the clause that says which dice the
    counter re-rolls and how to type them, ``; Mirror then re-rolls your dice showing 4 or more: ...``. The
    command offered beside it works as printed (the referee then rolls the counter's dice); the clause tells a
    player who rolls them too how to add them (forty-seventh referee breaker, 3). Empty otherwise."""
    if (not isinstance(step, ev.Cast) or not state.dice_typed or core.dice_replayed(state)
            or state.last_stand is None or state.phase != "stand"):
        return ""
    spell = rules.spell(db, step.spell)
    row = laststand.counter_for(db, spell)
    if row is None or laststand.counter_dice(state, db, spell) is not None:
        return ""
    which = (f"the Grayking's dice showing {row.effect.reroll_grayking_at_most} or less"
             if row.effect.reroll_grayking_at_most else f"your dice showing {laststand.MIRROR_REROLLS_FROM} or more")
    return f"; {row.name} then re-rolls {which}: add `--counter` and a die for each to roll them yourself, or the referee rolls them"


def odds(chance: float, certain: bool, at_least: bool = False) -> str:
    """A line's chance in words: ``certain``, ``a chance: 42%``, ``a chance: under 1%`` (never 0% for a
    chance that is there), ``a chance: over 99%`` (never 100% for one that is not certain), or ``perhaps``
    (0: a position too large to search to the end). ``at_least``: the chance is a lower bound (another roll may follow
    where the dice fall short: :attr:`referee.solo.aid.Aid.at_least`), ``a chance: at least 50%``."""
    if certain:
        return "certain"
    if chance <= 0:
        return "perhaps"
    if chance > 0.995:
        return "a chance: over 99%"  # never 100% for a line some dice can still spoil
    if chance < 0.005:
        return f"a chance: at least {chance:.1%}" if at_least else "a chance: under 1%"
    return f"a chance: {'at least ' if at_least else ''}{chance:.0%}"


def cost_text(db: Database, spell_id: str) -> str:
    """What casting a spell costs, in words: ``2 Mana``, ``1 Spirit``, ``free`` (its card's cost)."""
    cost = rules.spell(db, spell_id).cost
    if cost is None:
        return "free"
    parts = [f"{cost.mana} Mana" if cost.mana else "", f"{cost.spirit} Spirit" if cost.spirit else ""]
    return ", ".join(p for p in parts if p) or "free"


def step_name(db: Database, step: ev.Cast | ev.CallElder | ev.Recharge) -> str:
    """A later step of an aid line, in words: ``Shield``, ``Elder Maelis``, ``recharge Ice``."""
    if isinstance(step, ev.Recharge):
        return f"recharge {step.spell_type.capitalize()}"
    return rules.name(db, step.spell if isinstance(step, ev.Cast) else step.elder)


def _losing(state: State, mine: int, theirs: int, db: Database) -> str:
    offer = aid_offer(state, db)
    turn = f" It can still be turned: {offer}; or" if offer else ""
    return f"You are losing {mine} to {theirs}.{turn} {_cmd('accept')}."


def _new_game(state: State) -> str:
    setup = state.setup
    return _cmd(f"new --difficulty {setup.difficulty} --spells {','.join(rules.short_id(s) for s in setup.spells)}")


def _legal(state: State, db: Database, event: ev.Event) -> bool:
    """Whether the rules accept ``event`` now (the rules' own checks, played on the frozen state)."""
    try:
        rules.apply(state, db, event)
    except rules.RuleError:
        return False
    return True


def _recharges(state: State, db: Database) -> list[str]:
    """Recharges the rules accept now that bring a used spell back (the blue cross, a gray space)."""
    types = [p.spell_type for p in db.solo.spell_path
             if any(rules.spell(db, s).spell_type == p.spell_type for s in state.used)]
    return [_cmd(f"recharge {t}") for t in types if _legal(state, db, ev.Recharge(t))]


def next_step(state: State, db: Database) -> str:
    """What the player should do now, in words, with every command that works when typed (see the
    module's docstring)."""
    if state.ending is not None:
        if laststand.offered(state, db):
            return (f"You won: {state.reason}. You may travel to the Ash Tower for the Last Stand ({_cmd('last-stand')}), "
                    f"or start a new game: {_new_game(state)}.")
        return f"You {state.ending.result}: {state.reason}. Start a new game: {_new_game(state)}."
    if state.phase == "turn":
        waiting = state.suspended
        assert waiting is not None
        return f"Turn over the next card of your deck onto the discard pile for {waiting.what} and name it: {_cmd('turn CARD')}."
    if state.phase == "draw":
        draw = (_cmd("draw --card CARD") if state.own_deck
                else f"{_cmd('draw')} (the referee's deck, as before the undo)" if core.deck_replayed(state)
                else f"{_cmd('draw')} (the referee's deck) or {_cmd('draw --card CARD')} (the card you turned over)")
        if len(state.keys) >= len(rules.stats(db).keys):
            return f"You hold all three Warding Keys: cast Barrier Lock to win ({_cmd('cast barrier-lock')}), or draw on: {draw}."
        return f"Draw the next quest card: {draw}."
    if state.phase == "battle":
        card = city.city_card(state, db)
        player_n, enemy_n = rules.dice_counts(state, db)
        return (f"Fight the battle at {card.name}: you roll {player_n} dice, the servants {enemy_n}: "
                f"{_rolls(state, 'battle', (player_n, enemy_n))}.{_before_roll(state, db)}")
    if state.phase == "rolled":
        mine, theirs = rules.totals(state, db)
        return _losing(state, mine, theirs, db)
    if state.phase == "loss":
        row = city.loss_row(state, db)
        what = f"Battle Loss row {city.loss_row_number(state)}: {row.text}" if row else "The Battle Loss result is cancelled"
        offer = aid_offer(state, db)
        return f"{what}." + (f" Lower it: {offer}; or {_cmd('accept')} it." if offer else f" {_cmd('accept')}.")
    if state.phase == "learn":
        pending = state.pending
        assert pending is not None
        price = "for one Mana" if pending.price == "one-mana" else "paying any bracketed cost"
        affordable = rules.learnable_now(state, db)
        if not affordable:
            return f"{pending.source}: you may learn a spell {price}, but your Mana pays for none of them now: {_cmd('skip')}."
        names = rules.choices(db, affordable)
        return f"{pending.source}: learn a spell {price}: {names}. {_cmd('learn SPELL')} (its name or id), or {_cmd('skip')}."
    if state.phase == "council":
        council = rules.quest(db, state.card or "")
        return f"Resolve {council.name}: {_cmd('council')}."
    if state.phase == "warding":
        return _warding(state, db)
    if state.phase == "map":
        return _map(state, db)
    if state.phase == "stand":
        return _stand(state, db)
    return next_step_short(state)


def _before_roll(state: State, db: Database) -> str:
    """The spells and Elders the rules accept before a City Quest roll (the aid of :func:`referee.solo.legal.candidates`
    that :func:`referee.solo.legal.is_legal` accepts; the roll itself is not played to find them),
    as commands: `` Before the roll you may cast Thorn Hedge (`...`) or call on Elder San (`...`: his die joins yours).``"""
    parts = []
    steps = [e for e in legal.candidates(state, db) if isinstance(e, (ev.Cast, ev.CallElder))]
    for event in (e for e in dict.fromkeys(steps) if legal.is_legal(state, db, e)):
        if isinstance(event, ev.Cast):
            parts.append(f"cast {rules.name(db, event.spell)} (`{aid_command(state, db, event)}`)")
        elif isinstance(event, ev.CallElder):
            joins = rules.elder_card(db, event.elder).aid.free_dice
            dice = f": {'his die joins' if joins == 1 else f'{joins} dice join'} yours" if joins else ""
            parts.append(f"call on {rules.name(db, event.elder)} (`{aid_command(state, db, event)}`{dice})")
    return f" Before the roll you may {_either(parts)}." if parts else ""


def _warding(state: State, db: Database) -> str:
    card = rules.quest(db, state.card or "")
    battle_map = db.get(card.battle_map)  # type: ignore[attr-defined]
    count = battle_map.servants  # type: ignore[attr-defined]
    cards = "".join(" --servant SERVANT" for _ in range(count)) if state.own_deck else ""
    places = "".join(f" --place {dice_placeholder(2)}" for _ in range(count))
    drawn = "the servant cards you turned over, of different types" if state.own_deck else "the referee draws them"
    forms = []
    replays = core.replays_undone(state)
    if not state.dice_typed or core.dice_replayed(state):
        forms.append(f"{_cmd(f'servants{cards}')} ({drawn}; the referee places them)")
    if state.dice_typed is not False and not core.dice_replayed(state):
        forms.append(f"{_cmd(f'servants{cards}{places}')} ({drawn}; your 2d6 place them)")
    setup = " or ".join(forms)
    where = f"Fight for Warding Key {card.key} at {card.name} on {battle_map.title} ({battle_map.color} map): {setup}"  # type: ignore[attr-defined]
    if replays:
        return f"{where} (as before the undo: the referee's cards and dice come up again)."
    return f"{where}; or fight it by hand and enter the outcome: {_cmd('warding won')} or {_cmd('warding retreat')} (R38)."


def _map_casts(state: State, db: Database) -> list[str]:
    """The spells the rules accept now in a map battle's step (a spell that raises Mana or Spirit, cast at any
    time, rulebook, Spells), as commands: the legal casts of :func:`referee.solo.legal.candidates`, one a spell
    (twentieth breaker: `cast frost-breath` worked in phase a and the Next line did not offer it)."""
    casts = [e for e in legal.candidates(state, db) if isinstance(e, ev.Cast)]
    spells = dict.fromkeys(e.spell for e in casts if legal.is_legal(state, db, e))
    return [f"`{aid_command(state, db, ev.Cast(spell=spell))}` to cast {rules.name(db, spell)} ({cost_text(db, spell)})"
            for spell in spells]


def _map(state: State, db: Database) -> str:
    mb = state.map_battle
    assert mb is not None
    if mb.step == "move":
        moves = expanded.legal_moves(state, db)
        stay = mb.warden in moves or not expanded.must_leave(mb)
        parts = []
        leave = expanded.must_leave(mb) and mb.warden == expanded.battle_map(state, db).hex_map.recharge.address
        off = ", off the blue cross: you recharged there last round" if leave else ""
        if any(h != mb.warden for h in moves):
            parts.append(_cmd("move HEX") + f" (a hex within {db.solo.rules.warden_move_hexes}{off}; a path: move HEX HEX)")
        if stay and _legal(state, db, ev.Move(())):
            parts.append(_cmd("move") + " to stay")
        parts.extend(f"{r} on the blue cross" for r in _recharges(state, db))
        parts.extend(_map_casts(state, db))
        parts.append(_cmd("retreat") + f" to leave the battle ({_retreat_cost(state, db)})")
        return f"Round {mb.round}, phase a: you are on {expanded.name(mb.warden)}. {_either(parts)}. {_cmd('map')} shows the map."
    if mb.step == "attack":
        servant_id = mb.queue[0]
        others = [f"{r} on the blue cross" for r in _recharges(state, db)] + _map_casts(state, db)
        if _legal(state, db, ev.Retreat()):
            others.append(_cmd("retreat") + f" to leave the battle ({_retreat_cost(state, db)})")
        besides = f" Before it: {_either(others)}." if others else ""
        s = mb.servant(servant_id)
        mine, theirs = expanded.exchange_dice(state, db)
        joins = "".join(f" {rules.name(db, e)}'s die joins this roll." for e in mb.before_roll)
        call = "".join(f" To add {rules.name(db, e)}'s die, first {_cmd(f'elder {rules.short_id(e)}')}."
                       for e in expanded.before_roll_options(state, db))
        return (f"Round {mb.round}, phase b: {expanded.label(db, servant_id)} at {expanded.name(s.hex)} attacks; you roll {mine} dice, it rolls {theirs}: "
                f"{_rolls(state, 'attack', (mine, theirs))}.{joins}{call}{besides}")
    if mb.step == "exchange":
        mine, theirs = expanded.exchange_totals(state, db)
        return _losing(state, mine, theirs, db)
    if mb.step == "eldritch":
        recharges = [f"{r} on the blue cross" for r in _recharges(state, db)] + _map_casts(state, db)
        besides = f" Before it: {_either(recharges)}." if recharges else ""
        return (f"Round {mb.round}, phase c: roll 2d6 on the Eldritch Damage table: {_rolls(state, 'eldritch', (2,), ('--dice',))}."
                f"{besides}")
    offer = aid_offer(state, db)
    then = f" Re-roll it (the re-roll stands): {offer}; or {_cmd('accept')} it." if offer else f" {_cmd('accept')}."
    return f"Eldritch roll {mb.eldritch}." + then


def _retreat_cost(state: State, db: Database) -> str:
    """What a retreat from the map costs, in words, with a warning when it loses the game (rulebook,
    Expanded Battles 6b: -1 Spirit)."""
    after = rules.adjust(replace(state, notes=()), db, spirit=-1)
    return "-1 Spirit: you would fall and lose the game" if after.ending is not None and not after.ending.won else "-1 Spirit"


def _stand(state: State, db: Database) -> str:
    ls = state.last_stand
    assert ls is not None
    if ls.rolled:
        mine, theirs = laststand.totals(state, db)
        return _losing(state, mine, theirs, db)
    mine_n, theirs_n = laststand.round_dice(state, db)
    extras: list[str] = []
    joins = "".join(f" {rules.name(db, e)}'s die joins this roll." for e in ls.before_roll)
    extras.extend(f"{_cmd(f'elder {rules.short_id(e)}')} adds {rules.name(db, e)}'s die to this round"
                  for e in laststand.before_roll_options(state, db))
    extras.extend(f"{r} (a gray space)" for r in _recharges(state, db))
    extras.extend(f"`{aid_command(state, db, ev.Cast(spell=s))}`" for s in state.spells
                  if laststand.cast_problem(state, db, rules.spell(db, s)) is None)
    before = f" Before the roll: {_either(extras)}." if extras else ""
    return (f"The Last Stand: the Grayking has {ls.hit_points} hit {'point' if ls.hit_points == 1 else 'points'}; "
            f"you roll {mine_n} dice, he rolls {theirs_n}: "
            f"{_rolls(state, 'attack', (mine_n, theirs_n))}.{joins}{before}")


# ---- Refusals ------------------------------------------------------------------------------------------------
def waiting_commands(state: State) -> str:
    """The commands that do what the game waits for (:func:`referee.solo.core.waiting_for`), for a
    refusal: in a map battle, the step of the round; in the Last Stand, the roll or its acceptance (the
    Next line, :func:`next_step`, gives every choice)."""
    mb, ls = state.map_battle, state.last_stand

    def own_dice(command: str) -> str:  # a roll: the player's own dice too, unless the referee's shown ones come again
        return _cmd(command) if core.dice_replayed(state) else f"{_cmd(command)}, with --dice and --enemy for your own dice"

    if state.phase == "map" and mb is not None:
        # the move as the Next line writes it (forty-third referee breaker, LOW 8: "HEX [HEX]", refused as typed)
        return {"move": f"{_cmd('move HEX')} (a path: move HEX HEX), or {_cmd('move')} to stay", "attack": own_dice("attack"), "exchange": _cmd("accept"),
                "eldritch": _cmd("eldritch"), "eldritch-rolled": _cmd("accept")}[mb.step]
    if state.phase == "stand" and ls is not None:
        return _cmd("accept") if ls.rolled else own_dice("attack")
    return {
        "draw": _cmd("draw --card CARD") if state.own_deck else _cmd("draw"),
        "battle": own_dice("battle"),
        "rolled": _cmd("accept"),
        "loss": _cmd("accept"),
        "learn": f"{_cmd('learn SPELL')} or {_cmd('skip')}",
        "council": _cmd("council"),
        "warding": f"{_cmd('servants')} or {_cmd('warding won|retreat')}",
        "turn": _cmd("turn CARD"),
    }.get(state.phase, _cmd("status"))


def next_step_short(state: State) -> str:
    """What the game waits for, in a few words with the commands, without the database: the rules' words
    (:func:`referee.solo.core.waiting_for`) and :func:`waiting_commands`."""
    return f"{core.waiting_for(state)} ({waiting_commands(state)})"


def option_of(field: str | None, state: State | None = None) -> str | None:
    """The command-line option that gives the event field ``field`` (:data:`OPTIONS`), or ``None``. While
    a command waits for the next card of the player's own deck (phase ``turn``, R7), the card (the
    command's next card) is the ``CARD`` of ``referee solo turn CARD``."""
    if field is None:
        return None
    if state is not None and state.phase == "turn" and field in ("card", "next"):
        return "CARD"
    return OPTIONS.get(field)


def refusal_text(error: RuleError, state: State | None, db: Database | None = None) -> str:
    """The one line the command line prints for the refusal ``error`` met in ``state`` (the state the
    refused event was played on; ``None`` for a refused setup): the rules' message after the option its
    field names (``--reroll: your dice show 1 4; there is no 2 to re-roll``), completed by its kind
    (:class:`~referee.solo.core.Refusal`) with what to type instead.

    ``GAME_OVER``: the `new` command that starts another game with the same setup (after Barrier Lock,
    the ``last-stand`` command first, R49); ``WRONG_PHASE``: the
    commands that do what the game waits for (:func:`waiting_commands`; the message says it in words), and while a
    roll waits for aid, with the database ``db``, the spells and Elders that can still turn it, as the Next line offers
    them (:func:`aid_offer`; R34);
    ``OFF_THE_MAP``: the `map` command; ``ALREADY_THERE``: `move` with no hex, which stays (R13);
    ``TOO_FAR``: the `map` command (the hex cannot be reached this round); ``THEIR_DICE``: the option of the other side's new dice.
    Other refusals read as their message.
    """
    kind, text = error.refusal, str(error)
    if state is not None and kind is Refusal.GAME_OVER:
        if state.ending is Ending.BARRIER_LOCK and state.last_stand is None:  # the Last Stand may follow (R49)
            return f"{text}; travel to the Ash Tower with {_cmd('last-stand')}, or start a new game with {_new_game(state)}"
        return f"{text}; start a new one with {_new_game(state)}"
    if state is not None and kind is Refusal.WRONG_PHASE:
        offer = aid_offer(state, db) if db is not None and aid.situation(state) is not None else ""
        if offer:  # (a new user was offered `accept` alone after the Next line had offered `cast bind`: helper-161)
            return f"{text}: {offer}; or {waiting_commands(state)}"
        return f"{text} ({waiting_commands(state)})"
    option = option_of(error.field, state)
    line = f"{option}: {text}" if option else text
    if kind is Refusal.OFF_THE_MAP:
        return f"{line} (see {_cmd('map')})"
    if kind is Refusal.ALREADY_THERE:
        return f"{line}; {_cmd('move')} with no hex stays"
    if kind is Refusal.TOO_FAR:  # no example path: a fixed one failed as typed wherever the warden stood (fourteenth breaker)
        return f"{line}; move toward it within reach, or stay ({_cmd('map')} shows the hexes)"
    if kind is Refusal.THEIR_DICE:
        return f"{line} ({OPTIONS['dice']})"
    if kind is Refusal.UNDONE:
        return f"{line}: {_cmd('servants')}" if error.field == "outcome" else f"{line}: leave out {option}"
    return line
