"""Table mode: a referee session that asks for what the rules need next, for either game.

This module owns the conversation, not the rules and not the terminal. A game supplies a
:class:`TableGame` (its questions, its field labels, its commands); :class:`TableSession` turns the
player's short answers into the same events the one-shot commands play, plays them through the same
:class:`referee.game.RefereeGame` and saves after every step; :mod:`referee.tableui` puts it on a
terminal with prompt_toolkit. Everything here is plain data in, plain data out, so tests drive whole
games through :meth:`TableSession.answer` without a terminal.

The conversation, step by step:

1. :meth:`TableSession.prompt` gives the question for the state on the table (:class:`Question`): its
   default (what Enter does, in brackets), its numbered choices (the legal events, from the game's
   legal-event generator), the typed values it takes (a card, a hex, dice) and everything that Tab
   completes.
2. The answer picks an event. Dice the event rolls are then asked for one roll at a time
   (:class:`DiceAsk`, which the game gives: the solo game plays the event on a copy of the state and reads what it consumed):
   Enter lets the referee roll them (and every later roll of the same step), or the player types the
   physical dice (``5 6``, ``56`` or ``5,6``). A choice that holds variants (which dice a spell
   re-rolls) is followed by one more question.
3. The event is played and saved (:meth:`referee.game.RefereeGame.play`, ``save``); the reply holds the
   rules' notes and the next question. A refusal changes nothing and asks again.

At every prompt the commands ``status``, ``log``, ``undo``, ``help``, ``quit`` and the game's own
(``map``, ``spells`` ...) work, and so does any one-shot command's words (``cast shield``,
``move C4``), read by the game's own command-line parser.
"""
from __future__ import annotations

import dataclasses
import os
import re
import shlex
from collections.abc import Callable, Mapping, Sequence
from dataclasses import field
from pathlib import Path
from typing import Any, Protocol

import click

from pnp.deferred import dataclass
from pnp.oneline import NUMBER_TOO_LONG, number_too_long, one_line, short_line
from referee.dice import Dice, DiceError
from referee.errors import RefereeError, RuleError, did_you_mean
from referee.save import StaleSave

DICE_SIDES = 6
REFUSALS: tuple[type[Exception], ...] = (ValueError, click.ClickException)
"""What an answer may raise that is a refusal, one line, nothing changed: every
:class:`referee.errors.RefereeError` (a ``ValueError``: a rule, a save, dice, a name) and click's errors of
a one-shot command's words."""


@dataclass(frozen=True)
class Choice:
    """One numbered answer: ``label`` as shown (``Cast Shield (2 Mana)``), the legal ``event`` it plays
    (dice unresolved), ``words`` that also pick it when typed (``shield``, ``accept``), and ``variants``:
    the events among which a follow-up question picks (``variant_question`` asks it; e.g. which dice
    a spell re-rolls), or empty. ``whole`` marks a choice taken only by a whole word of it or its number, never by
    the beginning of one: accepting a losing roll that aid would turn for certain (the prompt says "type accept"; a
    slip of `ac` gave the roll up, thirty-fifth breaker's MED 9 rule met the nineteenth's)."""

    label: str
    event: Any
    words: tuple[str, ...] = ()
    variants: tuple[tuple[str, Any], ...] = ()
    variant_question: str = ""
    whole: bool = False


@dataclass(frozen=True)
class Question:
    """What the session asks now.

    ``text`` is the question (``Quest card``), ``default`` the choice Enter takes (shown in brackets as
    ``default_label``, e.g. ``draw``), ``choices`` the numbered legal choices, ``values`` the typed
    values it takes besides them (lower-case word -> event: card names, hexes), ``value_names`` how each of those
    words is printed where the session names it back (``borolia`` -> ``Borolia``; a word missing is shown as it is),
    ``hidden`` whether
    the answer is typed unseen (the duel's assignments), ``context`` lines shown above the prompt (the
    situation, in words), ``automatic`` whether the default is the only thing to do and nothing is typed for
    it (the solo game's Council of Wardens): the session plays it by itself, unless it rolls dice;
    ``numbered`` whether a number typed picks a choice (false where numbers are typed values: a map's
    printed hex numbers; the choices are then picked by their words, :meth:`keys`); ``prompt`` the prompt
    itself where the default's dice alone would not say what to type (the servant cards and their
    placement dice), else the question's text or its dice are the prompt; ``waiting`` a
    :class:`concurrent.futures.Future` that completes when the question can be asked in full (the aid
    and its odds, searched in the background), after which the session asks the game again. ``holder`` names whose
    hidden prompt this is (``wardens 1``: a side in a round), and ``gate`` is what the session asks first, Enter to go
    on, when this hidden prompt shows a secret (the dice the referee rolled a side) and the prompt before it was not that
    holder's own (a session started, or the other side just answered): the secret is never the first thing on the
    screen of whoever is at the keyboard (thirty-fifth breaker, HIGH 2b)."""

    text: str
    default: Choice | None = None
    default_label: str = ""
    choices: tuple[Choice, ...] = ()
    values: Mapping[str, Any] = field(default_factory=dict)
    value_names: Mapping[str, str] = field(default_factory=dict)
    hidden: bool = False
    context: tuple[str, ...] = ()
    over: bool = False
    automatic: bool = False
    numbered: bool = True
    prompt: str = ""
    waiting: Any = None
    holder: str = ""
    gate: str = ""
    typed: str = ""
    """What the prompt takes besides its choices, default and named values, in words, each example answer in back quotes
    and read at this prompt as printed (the duel's placing: ``your placing, such as `battle 3,5 power 6```); said by every
    refusal at it (:meth:`TableSession.here`)."""

    def keys(self) -> list[str]:
        """What picks each choice when typed, as listed: its number, or its first word where numbers name
        typed values (``numbered`` false: the printed hex numbers of a battle map)."""
        if self.numbered:
            return [str(n) for n in range(1, len(self.choices) + 1)]
        return [choice.words[0] if choice.words else str(n) for n, choice in enumerate(self.choices, 1)]


def _bytes_read_as_utf8(text: str) -> str:
    """``text`` with the bytes an ASCII-declared input could not decode (Python's surrogate escapes, ``\udcc3``: a UTF-8
    terminal under ``LC_ALL=C`` or ``PYTHONIOENCODING=ascii``) read as the UTF-8 they are, where they are; else as it is.
    A refusal then quotes what was typed, never ``'Zo\udcc3\udcab'`` (forty-second referee breaker, F16)."""
    if not any(0xDC80 <= ord(char) <= 0xDCFF for char in text):  # (the surrogate escapes of bytes 0x80-0xff)
        return text
    try:
        return text.encode("utf-8", "surrogateescape").decode("utf-8")
    except UnicodeError:
        return text


def _unquoted_controls_dropped(text: str) -> str:
    """``text`` without its control characters (Unicode category Cc) outside shell quotes: a key read as a character
    (Ctrl-Z where it suspends nothing, Ctrl-\\) is no part of an answer, while a file name typed in quotes keeps every
    character it has (a tab or a newline in a path, twenty-sixth breaker). ``"\\x1adraw"`` -> ``"draw"``. A line break or a
    tab outside quotes is a blank."""
    import unicodedata

    kept, quote = [], ""
    for char in text:
        if quote:
            quote = "" if char == quote else quote
        elif char in "'\"":
            quote = char
        elif char in "\n\r\t\v\f":  # a line break or a tab pasted between two words: a blank (forty-sixth referee
            char = " "  # breaker, POLISH 8: `randven` and `56 111` pasted on two lines were read `randven56 111`)
        elif unicodedata.category(char) == "Cc":
            continue
        kept.append(char)
    return "".join(kept)


_ONE_SHOT_PREFIX = re.compile(r"^(--[a-z][a-z-]*|[A-Z][A-Z_]*): ")
"""The option (``--servant``) or placeholder (``HEX``) a one-shot refusal starts with, which no table prompt takes."""


@dataclass(frozen=True)
class DiceAsk:
    """One roll the event on the table makes: the event ``field`` it fills, ``count`` dice, ``whose``
    (``Your``, ``The servants'``), and ``sides`` per die (6: d6)."""

    field: str
    count: int
    whose: str
    sides: int = DICE_SIDES
    kind: str = ""
    """What the dice are, said after their count (``re-rolled Battle``: "The Wardens' 2 re-rolled Battle dice")."""

    @property
    def text(self) -> str:
        """The dice in words: ``Your 2 dice``."""
        return f"{self.whose} {self.count} {self.kind + ' ' if self.kind else ''}{'die' if self.count == 1 else 'dice'}"


def dice_prompt(asks: Sequence[DiceAsk]) -> str:
    """The prompt for the rolls a step still makes, every one named so that all its dice can be typed
    on one line (``Your 2 dice, the servants' 3 dice [roll]: ``; ``56 234`` fills both)."""
    named = [asks[0].text] + [ask.text[:1].lower() + ask.text[1:] for ask in asks[1:]]
    return f"{', '.join(named)} [roll]: "


@dataclass(frozen=True)
class Reply:
    """What an answer did: ``notes`` (the rules' notes of the event played, or a command's output as
    lines), ``error`` (one line when the answer was refused; nothing changed), ``played`` (the event
    played, resolved), ``screen`` (a command's output to print as is: a status table, a map, the log),
    ``leave`` (the player asked to quit), ``undone`` (what an ``undo`` took back, in words) and ``put_back``
    (what to put back on the table then, ``""`` for nothing), ``unread`` (the error says only that the text is no
    answer here: a line read as two answers then says why its first answer was refused instead), ``wipe`` (the answer,
    on the shared screen, was a secret: the screen and its scrollback are to be wiped before the error is shown)."""

    notes: tuple[str, ...] = ()
    error: str | None = None
    played: Any = None
    screen: tuple[Any, ...] = ()
    leave: bool = False
    undone: str | None = None
    put_back: str = ""
    unread: bool = False
    wipe: bool = False


class TableGame(Protocol):
    """What a game gives the table session (the solo game: :class:`referee.solo.table.SoloTable`)."""

    name: str

    def question(self, state: Any) -> Question:
        """The question for ``state``: default, choices and typed values, from the legal events."""

    def rolls(self, state: Any, event: Any) -> list[DiceAsk]:
        """The rolls of ``event`` the players may type, each named (``Your``, ``The servants'``): the solo
        game reads them from what its rules consume on a dry run, the duel asks for re-rolled Battle
        dice only once both placings are shown (R81). Empty for an event the rules refuse."""

    def after(self, state: Any, event: Any) -> tuple[Any, ...]:
        """What to show after ``event`` was played, besides its notes (the battle map after a move)."""

    def typed_value(self, text: str, state: Any) -> Any:
        """The event a typed value plays that :attr:`Question.values` cannot list (a path of hexes, the
        servant cards turned over, a duel placing), or ``None``; raises as ``parse_command``."""

    def parse_command(self, words: Sequence[str], state: Any) -> Any:
        """The event a one-shot command's words play (``cast shield``); raises ``ValueError`` or
        ``click.ClickException`` for words that are not one."""

    def why_not(self, text: str, state: Any) -> str | None:
        """Why ``text``, which answers nothing at this prompt, names something that cannot be played now
        (a quest card already on the discard pile), in one line; ``None`` when it names nothing known."""

    def secret_shown(self, text: str, state: Any) -> str | None:
        """Why ``text``, typed at a prompt everyone sees, is a secret one player meant to type unseen (the duel's placing
        before its hidden prompt), in one line that never quotes it; ``None`` for any other text. The session then wipes
        the screen (thirty-third breaker, LOW 17: it stayed on screen and was quoted back)."""

    def commands(self) -> Mapping[str, str]:
        """The game's own commands at any prompt (``map``, ``spells``) -> what each shows."""

    def refusal(self, error: RuleError, state: Any, last: Any = None, gate: bool = False) -> str:
        """The one line a refused answer prints: the game's ``refusal_text`` (what the one-shot command
        prints, with the commands to type instead, which the prompt takes too), or words of the table's own;
        ``last`` is the game's last event (what ``undo`` would take back), ``None`` when there is none; ``gate`` whether
        it was typed at the "press Enter" prompt before a hidden one (:attr:`Question.gate`), which takes only Enter and the
        commands of :meth:`TableSession.gate_commands`: what it offers must work there."""

    def run_command(self, name: str, state: Any) -> tuple[Any, ...]:
        """The output of the game's command ``name`` in ``state`` (rich renderables or strings)."""






    def undo_problem(self, state: Any, event: Any) -> str | None:
        """Why ``undo`` typed at this table's prompt may not take back ``event`` (the last step) here, though the rules
        allow it (the duel: not the other side's placing at a hidden prompt, which would show their dice to the
        player typing); ``None`` when it may."""

    def toolbar(self, state: Any) -> str:
        """The state at a glance (lines)."""

    def new_game_problem(self, params: Mapping[str, Any], db: Any) -> None:
        """Raise ``click.ClickException`` in the one-shot `new`'s words where its setup refuses ``params`` (its options as
        click read them: a `--row` that deals no row, a spell that is none), with the database ``db`` unless they name
        another (``database_path``); nothing is written."""

    def new_options(self, state: Any) -> list[tuple[str, str]]:
        """The options `new` requires, as this game was set up (solo: ``[("--difficulty", "normal"), ("--spells",
        "bind,shield")]``), which a `new` offered repeats where they were not typed; none for the duel."""

    def answering(self) -> None:
        """An answer arrived: stop any work done in the background for the question on the table."""

    def help_lines(self) -> list[str]:
        """The game's own lines of ``help`` (short forms it takes), after the answers of the question."""



SESSION_COMMANDS: dict[str, str] = {
    "status": "the tracks, cards and battle on the table",
    "log": "every step played so far",
    "undo": "take back the last step, with the steps the referee played by itself after it (not a roll or a card the referee showed)",
    "help": "the answers accepted here and these commands",
    "quit": "leave (the game is saved after every step)",
}


LEAVE_WORDS = ("quit", "exit")
"""The words that leave a session, read at every one of its prompts (the question, a hidden placing, dice, a variant, the
"press Enter" prompt before a secret, a setup question before the game exists), in any case; Ctrl-D leaves as they do.
Forty-seventh referee breaker, KIND 2: `exit` was refused at the "press Enter" prompt, which took `quit` only."""


def leaves(text: str) -> bool:
    """Whether ``text`` as typed at a prompt is a word that leaves the session (:data:`LEAVE_WORDS`)."""
    return text.strip().lower() in LEAVE_WORDS


OUTSIDE_THE_TABLE = frozenset({"new", "restore", "check", "play"})
"""The one-shot commands of both games that act on the save file as a whole, not a step of the game: typed at the
table's prompt, each is said with what it does and the one-shot to type once the session has quit
(:meth:`TableSession._outside_the_table`)."""


def parse_dice(text: str, sides: int = DICE_SIDES) -> tuple[int, ...]:
    """Dice as a player types them: ``5 6``, ``5,6``, ``56`` -> ``(5, 6)``; ``56 234`` -> five dice (a d6
    shows one digit, so a run of digits is several dice). Raises :class:`DiceError` for a value outside
    1..``sides`` or text that is not dice."""
    text = text.strip()
    if not re.fullmatch(r"[\d\s,;/]+", text):
        raise DiceError(f"{text!r} is not dice: type the dice as 5 6, 56 or 5,6")
    parts = [p for p in re.split(r"[\s,;/]+", text) if p]
    if sides < 10:  # a die shows one digit: a run of digits is dice typed together (56, 56 234)
        parts = [digit for p in parts for digit in p]
    values = tuple(int(p) for p in parts)
    for value in values:
        if not 1 <= value <= sides:
            raise DiceError(f"a die shows 1-{sides}, not {value}")
    return values


@dataclass
class _Pending:
    """An event being completed: the chosen ``event``, the variant question if one is open, and the
    dice typed so far (field -> values)."""

    event: Any
    choice: Choice | None = None
    asks: list[DiceAsk] = field(default_factory=list)
    referee_rolls: bool = False


class TableSession:
    """One table-mode session over ``game`` (a :class:`referee.game.RefereeGame`) saved at ``path``.

    ``table`` is the game's :class:`TableGame`. :meth:`prompt` is the question now (or the open dice
    or variant question), :meth:`answer` takes one line and returns a :class:`Reply`. The game is saved
    after every event played; nothing is saved for a refused answer.
    """

    def __init__(self, game: Any, path: Path, table: TableGame, save: Callable[[Any, Path], None] | None = None) -> None:
        self.game = game
        self.path = path
        self.table = table
        self._save = save or (lambda g, p: g.save(p))
        self._pending: _Pending | None = None
        self._asked: tuple[Any, Question, list[DiceAsk] | None] | None = None
        self._gate = False  # the answer being taken was typed at a "press Enter" prompt (:meth:`answer`)

    # ---- What is asked ---------------------------------------------------------------------------------
    @property
    def state(self) -> Any:
        return self.game.state

    def question(self) -> Question:
        """The question on the table, ignoring any open follow-up (made once per state: the prompt,
        the completions and the answer all read it)."""
        state = self.state
        stale = self._asked is not None and self._asked[1].waiting is not None and self._asked[1].waiting.done()
        if self._asked is None or self._asked[0] is not state or stale:
            self._asked = (state, self.table.question(state), None)
        return self._asked[1]

    def prompt(self) -> tuple[str, Question | None, DiceAsk | None]:
        """``(prompt text, question, dice)``: the prompt as shown (``Your 2 dice [roll]: ``), the question
        when the main question is asked, the roll when dice are asked for."""
        pending = self._pending
        if pending is not None and pending.choice is not None:
            return f"{pending.choice.variant_question}: ", None, None
        if pending is not None and pending.asks:
            return dice_prompt(pending.asks), None, pending.asks[0]
        question = self.question()
        rolls = self._default_rolls(question)
        if question.prompt:
            return question.prompt, question, rolls[0] if rolls else None
        if rolls:
            return dice_prompt(rolls), question, rolls[0]
        default = f" [{question.default_label}]" if question.default is not None and question.default_label else ""
        if question.over and question.default is None and "Enter leaves" not in question.text:  # won, the Last Stand still open
            default = " (Enter leaves)"
        return f"{question.text}{default}: ", question, None

    def _default_rolls(self, question: Question) -> list[DiceAsk]:
        """The rolls the default step makes (its dice are typed straight at the question's prompt)."""
        if question.default is None:
            return []
        assert self._asked is not None
        state, asked, rolls = self._asked
        if rolls is None:
            rolls = self._rolls(question.default.event)
            self._asked = (state, asked, rolls)
        return rolls

    def completions(self) -> list[tuple[str, str]]:
        """Every answer Tab completes here, with what it does: choice numbers and words, typed values, the
        session's and the game's commands."""
        pending = self._pending
        out: list[tuple[str, str]] = []
        if pending is not None and pending.choice is not None:
            out = [(str(i), label) for i, (label, _) in enumerate(pending.choice.variants, 1)]
        elif pending is None:
            question = self.question()
            for key, choice in zip(question.keys(), question.choices, strict=True):
                out.append((key, choice.label))
                out.extend((word, choice.label) for word in choice.words if word != key)
            out.extend((word, "") for word in question.values)
        out.extend(SESSION_COMMANDS.items())
        out.extend(self.table.commands().items())
        return out

    # ---- Answers ---------------------------------------------------------------------------------------
    def variants(self) -> list[str]:
        """The labels of the variants being asked for (after a choice that holds several: which dice a
        spell re-rolls), numbered from 1 as typed; empty otherwise."""
        pending = self._pending
        if pending is None or pending.choice is None:
            return []
        return [label for label, _ in pending.choice.variants]

    def keep_saved(self) -> None:
        """Write the game again when its save file is gone (removed under the session by another shell or a
        clean-up), so that leaving never loses it. Raises :class:`~referee.errors.RefereeError` when it
        cannot be written."""
        if not os.path.isfile(self.path):  # gone, or replaced by a folder: written again (a folder is refused in one line)
            self._save(self.game, self.path)

    def finished(self) -> bool:
        """Whether the game is over with nothing left to play: its question asks for no answer (Enter leaves)."""
        question = self.question()
        return question.over and not question.choices and question.default is None

    def cancel(self) -> None:
        """Drop the question being answered (Ctrl-C): the step's dice and variants typed so far; the
        question on the table is asked again."""
        self._pending = None

    def gate_commands(self) -> list[str]:
        """What a "press Enter" prompt (:attr:`Question.gate`) takes besides Enter: the session's commands and the game's,
        in the order ``help`` lists them; the one list that decides what is read there and what its refusal names
        (forty-sixth referee breaker, POLISH 10: the refusal named help, status and quit of seven)."""
        return [*SESSION_COMMANDS, *self.table.commands()]

    def answer(self, text: str, gate: bool = False) -> Reply:
        """Take one typed line. Returns a :class:`Reply`; never raises for bad input (a refusal is one
        line in ``Reply.error``, nothing changed). ``gate``: typed at the "press Enter" prompt before a hidden one, which
        takes a command of :meth:`gate_commands` only: what a reply offers then works there.

        A line that is not one answer but a name or a hex followed by dice is taken as two answers in a
        row (``quenm 12 456``: the card turned over, then the battle's dice; ``c3 56 234``: the move, then
        the attack's dice; ``glass 1 4``: the spell, then which dice it re-rolls); when the second is
        refused, the first stays played and the second question is asked."""
        from referee.clitools import offering_session_save, with_given

        self._gate = gate
        try:
            with offering_session_save(self.path):  # every command offered carries this session's --save (45th, MED 9),
                reply = self._answer(text)  # whatever part of the session said it: one place (forty-sixth referee breaker,
                return dataclasses.replace(  # KIND 3: `undo` at the duel's "press Enter" prompt offered `commit` without it)
                    reply, error=with_given(reply.error) if reply.error is not None else None,
                    notes=tuple(with_given(note) for note in reply.notes))
        finally:
            self._gate = False

    def _answer(self, text: str) -> Reply:
        """:meth:`answer`, the session's options set."""
        self.table.answering()
        text = _unquoted_controls_dropped(_bytes_read_as_utf8(text))  # a key read as a character (Ctrl-Z where it suspends nothing, Ctrl-\\): never
        try:  # part of an answer the player cannot see (thirty-seventh breaker, LOW 6: `^Z` then Enter was refused)
            reply = self._answer_two(text)
        except StaleSave as error:  # the file changed under the session: its game is no longer the file's
            from referee.clitools import shell_quoted

            self._pending = None
            return Reply(error=f"{error.path}: the save file was changed outside this session (another command, an editor or a "
                               f"sync tool), so nothing was written and this session ends; start `referee {self.table.name} play "
                               f"--save {shell_quoted(str(error.path))}` again to play the game as the file holds it now",
                         leave=True)
        except RefereeError as error:  # a save that cannot be written (a full disk): nothing changed, said in one line
            self._pending = None
            return Reply(error=str(error))
        if reply.error is not None:  # it may quote what was typed: one short line, whatever was pasted
            reply = dataclasses.replace(reply, error=short_line(reply.error))
        return reply

    def _answer_two(self, text: str) -> Reply:
        """:meth:`answer`, the line taken as one answer or, refused so, as a name then dice."""
        before = self._pending
        reply = self._answer_one(text)
        split = _name_then_dice(text)
        again = None
        if reply.error is not None and before is not None and split is not None and self._pending is before:
            try:  # a value that is refused (a servant card that is none): its own reason, not "is not dice" (42nd, F3)
                again = self.table.typed_value(split[0], self.state)
            except click.ClickException as refused:
                count = sum(ask.count for ask in before.asks)
                return Reply(error=f"{refused.format_message()}; the answer taken before still waits for its {count} "
                                   f"{'die' if count == 1 else 'dice'}")
        if again is not None and split is not None and before is not None:
            # the line whose dice were refused, typed again (fortieth breaker, LOW 12: "is not dice"): with its dice
            # mended (`ghast-1 ymp-1 12 34` after `ghast-1 ymp-1 77 66`), its name is the one taken and its dice answer
            # the question open; with another name (other servant cards), the line is read afresh, in place of the
            # one taken (kept if the new one is refused whole)
            if again == before.event:
                return self._answer_one(split[1])
            self._pending = None
            fresh = self._answer_two(text)
            if self._pending is None and not fresh.played and fresh.error is not None:
                self._pending = before
                count = sum(ask.count for ask in before.asks)
                return dataclasses.replace(fresh, error=f"{fresh.error}; the answer taken before still waits for its {count} "
                                                        f"{'die' if count == 1 else 'dice'}")
            return fresh
        if reply.error is None or before is not None or split is None:
            return reply
        command = split[0].strip().lower()
        if command in SESSION_COMMANDS or command in self.table.commands():  # `undo 66 111`: refused whole, nothing undone
            return reply
        if self.question().hidden:  # a hidden placing is one answer: never half of it committed and the rest given onward
            return reply
        first = self._answer_one(split[0])
        if first.error is not None and not first.unread and reply.unread:  # `ghast-1 ghast-2 23 45`: why the cards are refused
            return first
        if first.error is not None or first.leave:
            return reply
        second = self._answer_one(split[1])
        error = second.error
        taken = self._pending
        if error is not None and taken is not None and not first.played and taken.asks:
            # the name was taken, only its dice were refused: said, and what the prompt now asks (fortieth breaker, LOW 12)
            count = taken.asks[0].count
            error = f"{error}; {split[0].strip()} taken: type {count} {'die' if count == 1 else 'dice'} now, or the whole line again"
        return Reply(notes=first.notes + second.notes, error=error, played=second.played or first.played,
                     screen=first.screen + second.screen)

    def _answer_one(self, text: str) -> Reply:
        text = self._without_own_files(text.strip())
        prefix = f"referee {self.table.name} "
        if text.lower().startswith(prefix) and text[len(prefix):].strip().lower() in set(SESSION_COMMANDS) | set(self.table.commands()):
            text = text[len(prefix):].strip()  # `referee solo map`, as a refusal or `help` may name it: this prompt's `map`
        if text.lower().startswith(prefix) and text[len(prefix):].split()[:1] and \
                text[len(prefix):].split()[0].lower() in OUTSIDE_THE_TABLE:  # `referee duel new --force`, pasted whole
            text = text[len(prefix):].strip()  # (forty-fourth referee breaker, LOW 1)
        word = text.lower()
        if leaves(word) or (not word and self.question().over and self._pending is None):
            return Reply(leave=True)
        if word in SESSION_COMMANDS or word in self.table.commands():
            self._pending = None if word == "undo" else self._pending
            return self._command(word)
        first = word.split()[0] if word.split() else ""
        if first == "undo" and len(word.split()) > 1:  # twenty-sixth breaker: `undo --db x` was "not an answer here"
            return Reply(error="`undo` takes nothing more at this prompt: it takes back this game's last step (type `undo` "
                               "alone; --save and --db are not read here, this session plays its own save)")
        if first in set(SESSION_COMMANDS) - {"undo"} | set(self.table.commands()):  # `status --json`, `spells --player x`
            try:  # its words as a shell reads them: a quoted path is one word (twenty-sixth breaker)
                words = shlex.split(text)
            except ValueError:
                words = text.split()
            words[:1] = [first]  # the command's name as read (`Spells` is `spells`: forty-second referee breaker, MED 9)
            return Reply(error=self._shell_hint(first, words))
        if first in OUTSIDE_THE_TABLE and not (first == "new" and self.finished()):  # (a finished game's own `new`: below)
            try:
                typed = shlex.split(text)[1:]
            except ValueError:
                typed = text.split()[1:]
            return Reply(error=self._outside_the_table(first, typed))
        before = self._pending
        try:
            if before is not None:
                return self._follow_up(text)
            return self._main(text)
        except StaleSave:
            raise
        except DiceError as error:
            if before is None or self._pending is None or not self._pending.asks:
                self._pending = None  # dice typed at the question itself: the question, with its choices, is asked again
            return Reply(error=str(error))  # dice mistyped at a dice prompt: the step and the dice typed before are kept
        except REFUSALS as error:
            self._pending = None
            if number_too_long(error):
                return Reply(error=f"{NUMBER_TOO_LONG}: type the dice, a card or a choice")
            if isinstance(error, RuleError):  # with what to type instead, as the one-shot command says it
                return Reply(error=self._refusal_said(error))
            if isinstance(error, click.ClickException):  # as the one-shot says it (`Missing option '--player'`), on one line,
                # without its placeholder (thirty-seventh breaker, MED 4: `SPELL: 's' could be any of ...`)
                said = _ONE_SHOT_PREFIX.sub("", one_line(error.format_message()), count=1).rstrip(".")
                return Reply(error=f"{said}; {self.here()}")  # what works here (forty-seventh referee breaker, KIND 1)
            return Reply(error=str(error))

    def here(self) -> str:
        """What this prompt takes, in the session's own words: the advice every refusal at it ends with where the game's
        refusal would name a one-shot command, which is not typed at a prompt (forty-seventh referee breaker, KIND 1: at the
        duel's hidden placing, `marker 2` was told to type `referee duel commit --player SIDE`, which the prompt refuses).
        Each answer it names in back quotes is read at this prompt as printed; Enter is said in words."""
        _, question, ask = self.prompt()
        pending = self._pending
        if self._gate and question is not None and question.gate:
            return "here, press Enter first, then type your answer at the hidden prompt that follows (`help` lists the commands here)"
        if pending is not None and pending.choice is not None:
            listed = "; ".join(f"{i} {label}" for i, (label, _) in enumerate(pending.choice.variants, 1))
            return f"here, type the number of one of these, `1`-`{len(pending.choice.variants)}`: {listed}"
        if pending is not None and pending.asks:
            example = " ".join("5" * a.count for a in pending.asks[:1])
            return (f"here, type {pending.asks[0].text} as rolled (such as `{example}`), or press Enter and the referee rolls "
                    f"them (`help` lists the answers)")
        if question is None:
            return "`help` lists the answers here"
        parts: list[str] = []
        rolls = self._default_rolls(question)
        enter = ""
        if question.default is not None:
            label = question.default.label
            enter = f"press Enter ({label[:1].lower()}{label[1:]})" if not rolls else "press Enter (the referee rolls)"
        if rolls:
            parts.append(f"the dice as rolled (such as `{' '.join('5' * a.count for a in rolls)}`)")
        if question.choices:
            keys = question.keys()
            if rolls and question.numbered:  # one digit there is a die as much as a choice: each choice by its word
                keys = [choice.words[0] if choice.words else key for key, choice in zip(keys, question.choices, strict=True)]
            parts.append(f"a choice's number, `1`-`{len(keys)}`" if question.numbered and not rolls and len(keys) > 1 else
                         "a choice's number, `1`" if question.numbered and not rolls else
                         "one of " + ", ".join(f"`{key}`" for key in keys[:8]) + (" ..." if len(keys) > 8 else ""))
        if question.typed:
            parts.append(question.typed)
        if question.values:
            parts.append("a name that Tab completes")
        typed = "type " + ", ".join(parts[:-1]) + (" or " if len(parts) > 1 else "") + parts[-1] if parts else ""
        if not enter and not typed:
            return "`help` lists the answers here"
        return f"here, {enter}{', or ' if enter and typed else ''}{typed} (`help` lists the answers)"

    def _refusal_said(self, error: RuleError) -> str:
        """The one line a refused answer's :class:`RuleError` prints at the prompt: the table's refusal (what the one-shot
        says, with the commands to type instead) with the one-shot commands it offers carrying this session's ``--save``
        and ``--db``, and without the one-shot's option or placeholder it starts with (`--servant: `, `HEX: `): none is
        typed at a prompt (twenty-fifth breaker: "--servant: ... you named 3" at the servants' prompt)."""
        from referee.clitools import with_given

        events = self.game.log.events
        said = self.table.refusal(error, self.state, last=events[-1] if events else None, gate=self._gate)
        if offers_a_one_shot(said) or getattr(getattr(error, "refusal", None), "name", "") == "WRONG_PHASE" or said == str(error):
            # the rules' own words (no command line: referee.errors.RuleError), then what this prompt takes, never a
            # one-shot command to type in its place, nor nothing (forty-seventh referee breaker, KIND 1)
            kept = _OFFERED.sub("", said)  # what the game waits for, in words, without the one-shot commands that do it
            said = f"{kept if not offers_a_one_shot(kept) else error}; {self.here()}"
        return with_given(_ONE_SHOT_PREFIX.sub("", said, count=1))

    def _without_own_files(self, text: str) -> str:
        """``text`` without the ``--save FILE`` and ``--db FILE`` options that name this session's own save and
        database: `help` and the Next lines offer one-shot commands with them, and typed here as printed they
        mean this very session (fourteenth breaker: refused as "not read here"). Options naming another file
        are kept, and refused as before; text that is not shell words is returned as it is."""
        if "--save" not in text and "--db" not in text:
            return text
        try:
            words = shlex.split(text)
        except ValueError:
            return text
        own: dict[str, list[Path]] = {"--save": [self.path], "--db": [Path(self.game.db.path)]}
        from referee.clitools import GIVEN  # the options this session was started with, as the lines it prints offer them

        given = shlex.split(GIVEN.get())
        for name, value in zip(given, given[1:]):
            if name in own:
                own[name].append(Path(value))
        kept: list[str] = []
        index = 0
        while index < len(words):
            word = words[index]
            name, equals, value = word.partition("=")
            if name in own and not equals and index + 1 < len(words):
                value, step = words[index + 1], 2
            else:
                step = 1
            if name in own and (equals or step == 2) and any(_same_file(value, path) for path in own[name]):
                index += step
                continue
            kept.append(word)
            index += 1
        return shlex.join(kept) if len(kept) != len(words) else text

    def _outside_the_table(self, first: str, typed: list[str]) -> str:
        """The refusal of a one-shot command typed at the prompt that acts on the save file as a whole
        (:data:`OUTSIDE_THE_TABLE`): what it does, and the one-shot that does it in a shell once this session has
        quit, where that works as printed (``restore`` only while a game is kept in ``.prev``). Forty-third referee
        breaker, LOW 10: `restore`, `new` and `check` were "not an answer here"). ``typed``: the words typed after it; the
        options of `new` (`--seed 4`) are kept in the one-shot it offers (forty-fourth, LOW 1), once the one-shot's own
        parser and setup have read them (forty-fifth, LOW 8: `--bogus`, a bad `--row` and a second `--save` were offered,
        then refused in the shell). The ``.prev`` file is named in back quotes, the referee's own words, which a hidden
        prompt shows as they are (forty-fifth, LOW 6: a name with a digit was blanked there)."""
        from referee import save as savefile
        from referee.clitools import shown_file, with_given

        game = self.table.name
        kept_in = f"`{shown_file(savefile.prev_path(self.path).name)}`"
        if first == "play":
            return "`play` is this session: you are playing the game now (`help` lists the answers here)."
        if first == "new":
            return self._new_outside(typed, kept_in)
        if first == "check":
            return with_given(f"`check` replays the saved game from its setup: `quit`, then in a shell, `referee {game} check`.")
        if savefile.held(savefile.prev_path(self.path)) != game:  # as the one-shot `restore` says it (forty-fourth, LOW 6)
            if not self.game.log.events:  # replaced, not kept, by a new game (forty-fifth referee breaker, LOW 5)
                return (f"`restore` brings back the game the last `new` replaced, and no previous game is kept in "
                        f"{kept_in}; this game stays as it is (nothing is played in it yet, so a new game started over it "
                        f"would replace it without keeping it).")
            over = savefile.new_over(game, self.path)  # with this game's own setup (forty-sixth breaker, POLISH 6)
            return with_given(f"`restore` brings back the game the last `new` replaced, and no previous game is kept in "
                              f"{kept_in}; this game stays as it is (a new game started over it, with `{over}` after "
                              f"`quit`, would keep it there).")
        return with_given(f"`restore` swaps this game with the one the last `new` replaced (kept in {kept_in}): `quit`, "
                          f"then in a shell, `referee {game} restore`.")

    def _new_outside(self, typed: list[str], kept_in: str) -> str:
        """:meth:`_outside_the_table` of ``new`` typed with the options ``typed`` (this session's own --save and --db left
        out): read by the one-shot `new`'s own parser and setup first, a refusal in its words; with another ``--save``,
        the command as typed, which leaves this session's file alone; else the `new --force` over this session's file."""
        from referee.cli import main
        from referee.clitools import shell_command, with_given

        game = self.table.name
        needed = self.table.new_options(self.state)  # this game's own (forty-sixth referee breaker, POLISH 6)
        added: list[str] = []
        for option, value in needed:  # the options `new` requires, where not typed
            if not any(word == option or word.startswith(f"{option}=") for word in typed):
                added += [option, value]
        group = main.get_command(click.Context(main), game)
        command = group.commands.get("new") if isinstance(group, click.Group) else None
        assert command is not None
        if "--help" in typed:
            return f"`new` starts another game: in a shell, `referee {game} new --help` explains its options."
        try:  # its words as the one-shot reads them, its --save and --db too (nothing is run: click's own parser)
            context = command.make_context(f"referee {game} new", [*typed, *added])
            self.table.new_game_problem(dict(context.params), self.game.db)
        except click.ClickException as error:
            # the one-shot named, not offered: a back-quoted `referee ...` is a command to type, with the session's --save
            return (f"`new` starts another game, and the one-shot `new` refuses what was typed: "
                    f"{one_line(error.format_message()).rstrip('.')}; nothing was changed")
        except click.exceptions.Exit:  # (click's --version and the like: nothing to offer)
            return f"`new` starts another game: in a shell, `referee {game} new --help` explains its options."
        if any(word == "--save" or word.startswith("--save=") for word in typed):  # another file than this session's
            return (f"`new` with another --save starts a game in that file, not over the one this session plays: it can run "
                    f"in a shell as typed, `{shell_command(['referee', game, 'new', *typed, *added])}`.")
        options = [word for word in typed if word != "--force"] + added
        started = shell_command(["referee", game, "new", "--force", *options])
        kept = (f"this game is kept in {kept_in}; `referee {game} restore` brings it back" if self.game.log.events else
                "nothing is played in this game yet, so it is not kept")
        return with_given(f"`new` starts another game over the file this session plays: `quit`, then in a shell, "
                          f"`{started}` ({kept}).")

    def _shell_hint(self, first: str, words: list[str]) -> str:
        """The refusal of a table command typed with options (``status --json``): the table's commands take
        none, and the one-shot command that does, with this session's ``--save`` and ``--db``, when its
        options are the one-shot's (else why the one-shot refuses them too, twelfth breaker)."""
        from referee.cli import main
        from referee.clitools import shell_command

        said = f"`{first}` takes nothing more at this prompt, where it shows everything"
        group = main.get_command(click.Context(main), self.table.name)
        command = group.commands.get(first) if isinstance(group, click.Group) else None
        if command is None:
            return f"{said}; {first} has no one-shot command with options"
        if any(word.split("=")[0] in ("--save", "--db") for word in words[1:]):  # another game's file: a shell reads it
            save = [] if any(word.split("=")[0] == "--save" for word in words[1:]) else ["--save", str(self.path)]  # this game, another db
            shell = shell_command(["referee", self.table.name, *words, *save])
            return f"{said}; this session plays {self.path}: for another save or database, in a shell, `{shell}`"
        if "--help" in words[1:]:  # the one-shot command prints its help (twenty-sixth breaker: said it refused it)
            return f"{said}; in a shell, `referee {self.table.name} {first} --help` explains its options"
        try:
            from referee.clitools import command_context

            command_context(command, f"referee {self.table.name} {first}", list(words[1:]))
        except click.ClickException as error:
            return f"{said}, and the one-shot `{first}` refuses these too: {one_line(error.format_message())}"  # (named, not offered)
        except click.exceptions.Exit:
            return said
        from referee.clitools import with_given  # the --save and --db this session was given, as the Next line has them

        return with_given(f"{said}; in a shell, `{shell_command(['referee', self.table.name, *words])}`")  # (fortieth breaker, LOW 11)

    def _command(self, word: str) -> Reply:
        if word == "undo":
            if self.game.log.events:
                problem = self.table.undo_problem(self.state, self.game.log.events[-1])
                if problem:
                    from referee.clitools import with_given  # its commands with this session's --save and --db

                    return Reply(error=with_given(problem))
            undone: list[Any] = []
            played = self.state
            try:
                undone.append(self.game.undo())
                while self.game.log.events and self._automatic() is not None:  # played by itself: the answer before it too
                    undone.insert(0, self.game.undo())
            except REFUSALS as error:  # a step that stands (ruling 84, R78): none of them taken back
                for event in undone:
                    self.game.play(event)
                # in the table's words, with what this prompt takes (forty-sixth referee breaker, KIND 3: the rules' own
                # words offered the one-shot `commit`, refused at the "press Enter" prompt)
                return Reply(error=self._refusal_said(error) if isinstance(error, RuleError) else str(error))
            try:
                self._save(self.game, self.path)
            except RefereeError:  # not written: the steps stay played, as the file holds them
                for event in undone:
                    self.game.play(event)
                raise
            return Reply(undone="; ".join(self.game.rules.event_text(event, self.game.db) for event in undone),
                         put_back=self.game.rules.put_back(undone, played, self.state, self.game.db))
        if word == "help":
            return Reply(screen=tuple(self._help()))
        if word == "log":
            return Reply(screen=tuple(self.game.log_lines()))
        if word == "status":
            rules = self.game.rules
            from referee.clitools import status_table

            return Reply(screen=(status_table((label, text) for label, text in rules.status_lines(self.state, self.game.db) if label != "Next"),))
        return Reply(screen=self.table.run_command(word, self.state))

    def _help(self) -> list[str]:
        _, question, ask = self.prompt()
        if self._gate and question is not None and question.gate:  # only Enter and these work there (forty-sixth referee
            # breaker, KIND 3: its help offered the hidden prompt's answers and one-shot words, which it refuses)
            return [f"{question.gate}.", "Commands: " + ", ".join(self.gate_commands()) + "."]
        lines: list[str] = []
        if self._pending is not None and self._pending.choice is not None:
            lines += [f"  {i} {label}" for i, (label, _) in enumerate(self._pending.choice.variants, 1)]
        elif ask is not None:
            asks = self._pending.asks if self._pending is not None else self._default_rolls(question) if question is not None else [ask]
            every = sum(a.count for a in asks)
            lines.append(f"Enter: the referee rolls. Or type the {ask.count} {'die' if ask.count == 1 else 'dice'} you rolled: "
                         + " ".join(["5"] * ask.count) + " or " + "5" * ask.count
                         + (f"; or all {every} dice of this step at once, in the order asked: " + " ".join(
                             "5" * a.count for a in asks) if len(asks) > 1 else "") + ".")
        if question is not None:
            if question.default is not None:
                lines.append(f"Enter: {question.default.label}.")
            lines += [f"  {key} {choice.label}" for key, choice in zip(question.keys(), question.choices, strict=True)]
            if question.values:
                shown = sorted(question.values)
                lines.append("Or type one of: " + ", ".join(shown[:24]) + (" ..." if len(shown) > 24 else "") + " (Tab completes).")
        lines.extend(self.table.help_lines())
        from referee.clitools import with_given

        if question is not None and self.finished():
            # a finished game plays no step: its Next line's `new` is typed after `quit` (thirty-third breaker, MED 3:
            # help offered it as one-shot words, and typed here it was refused)
            lines.append("Commands: " + ", ".join([*SESSION_COMMANDS, *self.table.commands()]) + ".")
            lines.append("After `quit`: " + with_given(self.game.next_line()))
            return lines
        lines.append("Commands: " + ", ".join([*SESSION_COMMANDS, *self.table.commands()]) + "; and any one-shot command's words.")
        lines.append("As a one-shot command: " + with_given(self.game.next_line()))
        return lines

    def _main(self, text: str) -> Reply:
        question = self.question()
        if self.finished():
            undo = ", `undo` takes back the last step" if self.game.can_undo() else ""  # only when it would (fifteenth breaker)
            if "new" in text.lower().split()[:3]:  # the Next line's `new` (`referee duel new ...`, `new`), typed here
                from referee.clitools import with_given

                offered = re.findall(r"`(referee \S+ new[^`]*)`", with_given(self.game.next_line()))
                after = f": `quit`, then `{offered[0]}`" if offered else ": `quit` first"
                return Reply(error=f"The game is over; another game starts after this session{after}.")
            return Reply(error=f"The game is over: Enter or `quit` leaves{undo}.")
        secret = None if question.hidden else self.table.secret_shown(text, self.state)
        if secret is not None:
            return Reply(error=secret, wipe=True)
        word = text.lower()
        if not text:
            if question.default is None:
                return Reply(error="Type an answer (`help` lists them).")
            return self._chosen(question.default, typed_dice=None, question=question)
        rolls = self._default_rolls(question)
        if rolls and question.default is not None and _choice_number(text, rolls[0], question):
            # one die where more are asked, or a choice's number: never guessed (a slip would cast or retreat)
            choice = question.choices[int(word) - 1]
            by_word = f" by its word ({choice.words[0]})" if choice.words else ""
            return Reply(error=f"{word} is one die ({rolls[0].count} are asked) or choice {word} ({choice.label}): type every die, "
                               f"or the choice{by_word}")
        if rolls and question.default is not None and re.fullmatch(r"[\d\s,;/]+", text):
            return self._chosen(question.default, typed_dice=text, question=question)
        if question.numbered and _number(word) and 1 <= int(word) <= len(question.choices):
            return self._chosen(question.choices[int(word) - 1], typed_dice=None, question=question)
        slug = _slug(text)
        for choice in question.choices:
            if slug in choice.words or word in choice.words:
                return self._chosen(choice, typed_dice=None, question=question)
        if question.default is not None and (slug in question.default.words or word in question.default.words):
            return self._chosen(question.default, typed_dice=None, question=question)
        exact = question.values.get(slug, question.values.get(word)) if slug or word else None
        typed = exact if exact is not None else self.table.typed_value(text, self.state)
        if typed is not None:  # a value as written (a hex `R`, `7` or `C4`, a card) before any beginning of a choice
            return self._start(typed)
        # a choice is begun by one of its words or by its label's first word, the action it names (`forgo`, `take`, `learn`):
        # thirty-fifth breaker, MED 9 (`forgo`, `k`, `a` and `t` were "not an answer here" where a choice began with them)
        offered = [*question.choices, *([question.default] if question.default is not None and question.default not in question.choices else [])]
        named = [c for c in offered if any(w.startswith(slug) for w in (*c.words, _slug(c.label.split(" ", 1)[0])))] if slug else []
        # the values begun, as printed (thirty-fifth breaker, LOW 14: `'b' could be borolia`), each name once
        begun = sorted({question.value_names.get(k, k) for k in question.values if k.startswith(slug)}) if slug else []
        if len(named) == 1 and word == named[0].event.kind and self._takes_an_argument(word):
            # a command's name alone, whose one-shot form names what it plays (`cast SPELL`), lists the choices even
            # where one is offered: a bare `cast` never spends Mana (thirty-ninth referee breaker, MED 1)
            listing = self._command_choice([word], question)
            if listing is not None:
                return listing
        if len(named) == 1 and not begun and len(slug) > 1:
            if named[0].whole:
                whole = f"`{named[0].words[0]}`" if named[0].words else "it whole"
                return Reply(error=f"{text!r} could be {named[0].label}: type {whole}, or its number, to choose it.")
            return self._chosen(named[0], typed_dice=None, question=question)
        number = ", or its number" if question.numbered and any(c in question.choices for c in named) else ""
        value = _match(question.values, slug) or _match(question.values, word)
        command = text.split()[0].lower() if len(text.split()) > 1 else ""
        shadowed = ""  # the value's name a command's word and a beginning also begin, read as the command
        if value is not None and command and slug not in question.values and word not in question.values \
                and self._takes_an_argument(command):
            # a command's word and the beginning of a name (`elder r` at the quest-card prompt): the command, never a
            # value only begun so (the quest card Elder Rhun; fortieth breaker, LOW 1); a value's whole name is the value
            shadowed = next((question.value_names.get(key, key) for key, named_value in question.values.items()
                             if named_value == value), "")
            value, begun = None, []
        if value is not None and len(slug) == 1 and slug not in question.values and word not in question.values:
            # one letter is a slip as often as a name (thirty-third breaker, LOW 8: `r`, just after Randven was refused,
            # was read as Elder Rhun, and the Battle Loss row with it): named, never taken
            return Reply(error=f"{text!r} could be {', '.join(([c.label for c in named] + begun)[:8])}: type more of it{number}.")
        several = begun if value is None else []
        candidates = [c.label for c in named] + several
        if (len(candidates) > 1 or (len(slug) == 1 and candidates)) and not any(w.startswith("-") for w in text.split()):
            return Reply(error=f"{text!r} could be {', '.join(candidates[:8])}{' ...' if len(candidates) > 8 else ''}: type more of "
                               f"it{number}.")
        if value is not None:
            return self._start(value)
        if _number(word) and question.choices and question.numbered:
            return Reply(error=f"{word} is not one of the choices: type 1-{len(question.choices)} (`help` lists them).")
        try:
            words = shlex.split(text)  # a one-shot command's words, quoted as the Next line prints them
        except ValueError:  # never quotes what was typed: at a hidden prompt it is a placing
            return Reply(error="a quote is not closed: close it, or type the words without quotes (`help` lists the answers).")
        words[:1] = [word.lower() for word in words[:1]]  # `Elder R`, `Cast Shield`: the commands' names are lower case
        chosen = self._command_choice(words, question)
        if chosen is not None:
            return chosen
        try:
            try:
                event = self.table.parse_command(words, self.state)
            except RuleError:
                raise
            except ValueError:
                why = self.table.why_not(text, self.state)
                return Reply(error=f"{why} (`help` lists the answers)." if why else
                             f"{text!r} is not an answer here{self._meant(text, question)} (`help` lists them).", unread=why is None)
            return self._start(event, from_command=True)
        except RuleError as error:  # a command that does not fit now (`commit` at the marker): said as the one-shot says it
            if not shadowed:
                raise
            # and the name it begins, typed whole, is the value (forty-second referee breaker, F13: `elder m` at the
            # quest-card prompt, meaning the card Elder Maelis, was told only that calling on him does not fit)
            self._pending = None
            return Reply(error=f"{self._refusal_said(error)}; to name {shadowed}, type its whole name ({shadowed})")

    def _command_choice(self, words: list[str], question: Question) -> Reply | None:
        """A one-shot command's name and the beginning of a name (``cast s``, ``elder e``, ``learn s``) read against the
        question's choices of that command: the one choice it begins is chosen (one letter only names it), several are
        named by their labels, as the prompt lists them; ``None`` when no choice of that command is offered here (the
        one-shot command's words are then read as it reads them). Thirty-seventh breaker, MED 4: the one-shot's
        reading answered `'s' could be any of shield, shard-knives, still-water` (ids, spells not learned, and its
        placeholder `SPELL:`), and `cast s` was refused where Shield alone could be cast."""
        of_kind = [choice for choice in question.choices if choice.event.kind == (words[0].lower() if words else "")]
        number = ", or its number" if question.numbered else ""
        # each choice by its label without the prompt's mark of aid (`  * turns it: certain`: fortieth breaker, LOW 3)
        listed = ", ".join(_AID_MARK.sub("", choice.label) for choice in of_kind[:8]) + (" ..." if len(of_kind) > 8 else "")
        if len(words) == 1 and of_kind:  # the command alone: its choices here, not click's "Missing argument 'SPELL'"
            return Reply(error=f"`{words[0]}` takes one of the choices here: {listed}: type one{number}.")  # (thirty-eighth, LOW 7)
        if len(words) == 1 and self._takes_an_argument(words[0].lower()):
            # none offered now: said so, not click's "Missing argument" and a `help` that lists none (thirty-ninth, MED 1)
            return Reply(error=f"`{words[0]}` fits no question here now: none of its choices is offered (`help` lists the answers).")
        if len(words) != 2:
            return None
        begun = _slug(words[1])
        if not begun:
            return None
        # words the one-shot command reads (`cast rime-mirror`, `marker 3`) are that command, played as it plays them (a
        # re-roll spell's own default, not this prompt's next question); only a name it does not know or cannot tell is
        # read here
        if not self._unread_name(words):
            return None
        if not of_kind:  # none offered: said as the command alone is, not as "'s' could be any of" every spell
            if not self._takes_an_argument(words[0].lower()):  # (fortieth breaker, LOW 2)
                return None
            return Reply(error=f"{words[1]!r}: `{words[0]}` fits no question here now, none of its choices is "
                               f"offered (`help` lists the answers).")
        named = [choice for choice in of_kind if self._names_it(words[0], choice)]  # `learn s`: the spells, not "skip"
        exact = [choice for choice in named if begun in choice.words]  # (thirty-ninth referee breaker, LOW 4)
        fits = exact or [choice for choice in named if any(word.startswith(begun) for word in choice.words)]
        if len(fits) == 1 and (exact or len(begun) > 1):
            return self._chosen(fits[0], typed_dice=None, question=question)
        if not fits:  # this command's choices here, not every spell of the game (thirty-eighth breaker, LOW 8)
            hint = did_you_mean(words[1], {word: word for choice in named for word in choice.words})  # (47th, KIND 4)
            return Reply(error=f"{words[1]!r} is none of the choices of `{words[0]}` here{hint}: {listed}{number}.")
        if len(fits) == 1:  # one letter never chooses (a slip as often as a name): the one it begins, said as one
            return Reply(error=f"{words[1]!r} begins one choice of `{words[0]}` here, {_AID_MARK.sub('', fits[0].label)}: "
                               f"type more of its name{number}.")  # (forty-first referee breaker, F6: "'cast s' could be")
        return Reply(error=f"{words[1]!r} could be any of {', '.join(_AID_MARK.sub('', choice.label) for choice in fits[:8])}"
                           f"{' ...' if len(fits) > 8 else ''} (choices of `{words[0]}` here): type more of it{number}.")

    def _meant(self, text: str, question: Question) -> str:
        """`` (did you mean randven?)`` for a name ``text`` mistyped among the question's values and its choices' words
        (:func:`referee.errors.did_you_mean`, the one did-you-mean of both games), or ``""`` (forty-seventh referee breaker,
        KIND 4: `randvan`, `ghost-2` and `galehallow` were "not an answer here", the name meant unsaid)."""
        names = {key: question.value_names.get(key, key) for key in question.values}
        offered = [*question.choices, *([question.default] if question.default is not None else [])]
        names.update({word: word for choice in offered for word in choice.words if not _number(word)})
        names.update({word: word for word in [*SESSION_COMMANDS, *self.table.commands()]})  # `stauts`: status
        return did_you_mean(text, names) if len(text.split()) <= 3 else ""

    def _unread_name(self, words: list[str]) -> bool:
        """Whether the one-shot command's parser refuses ``words`` as a usage error (a name it does not know, or one it
        cannot tell from another): read against the question's choices. Words it reads, or refuses otherwise, are
        played (or refused) where a command's words are."""
        try:
            self.table.parse_command(words, self.state)
        except click.ClickException:
            return True
        except Exception:  # noqa: BLE001 (refused otherwise: said where the command's words are read)
            return False
        return False

    def _names_it(self, command: str, choice: Choice) -> bool:
        """Whether ``choice`` is one the one-shot ``command`` names by a word after it (``learn shield``): its first word
        typed after the command plays the choice's event. "Learn nothing now" (``skip``) is a choice of ``learn`` that
        no ``learn NAME`` plays."""
        if not choice.words:
            return False
        try:
            return bool(self.table.parse_command([command, choice.words[0]], self.state) == choice.event)
        except Exception:  # noqa: BLE001 (a word the command does not read)
            return False

    def _takes_an_argument(self, command: str) -> bool:
        """Whether the one-shot command ``command`` (``cast``) names what it plays in a word after it (``cast SPELL``):
        its name alone is a usage error to the one-shot's parser."""
        try:
            self.table.parse_command([command], self.state)
        except click.MissingParameter as missing:  # an argument, not an option (`roll` lacks its --player)
            return missing.param is not None and missing.param.param_type_name == "argument"
        except click.UsageError:
            return False
        except Exception:  # noqa: BLE001 (another refusal: the command alone is read, not a missing argument)
            return False
        return False

    def _chosen(self, choice: Choice, typed_dice: str | None, question: Question) -> Reply:
        if choice.variants:
            self._pending = _Pending(choice.event, choice=choice)
            return Reply()
        if typed_dice is not None:
            return self._start(choice.event, first_dice=typed_dice)
        return self._start(choice.event, referee_rolls=choice is question.default and bool(self._default_rolls(question)))

    def _follow_up(self, text: str) -> Reply:
        pending = self._pending
        assert pending is not None
        if pending.choice is not None:
            variants = pending.choice.variants
            word = text.lower()
            picked = None
            if _number(word) and 1 <= int(word) <= len(variants):
                picked = variants[int(word) - 1][1]
            else:
                typed = tuple(sorted(int(c) for c in re.findall(r"\d", word)))
                picked = next((event for label, event in variants if label.lower() == word
                               or (typed and tuple(sorted(getattr(event, "reroll", ()) or ())) == typed)), None)
            if picked is None:
                listed = "; ".join(f"{i} {label}" for i, (label, _) in enumerate(variants, 1))
                return Reply(error=f"Type 1-{len(variants)}: {listed}.")
            self._pending = None
            return self._start(picked)
        if not text:
            return self._play(pending.event, referee_rolls=True)
        return self._type_dice(pending, text)

    def _start(self, event: Any, first_dice: str | None = None, referee_rolls: bool = False, from_command: bool = False) -> Reply:
        """Begin completing ``event``: the rolls it makes that the player may still type are asked for
        one at a time, unless ``referee_rolls`` or the event came typed in full (``from_command``)."""
        if from_command or referee_rolls:
            return self._play(event, referee_rolls=True)
        asks = self._rolls(event)
        if not asks:
            return self._play(event, referee_rolls=True)
        pending = _Pending(event, asks=asks)
        if first_dice is not None:
            self._pending = pending
            return self._type_dice(pending, first_dice)
        self._pending = pending
        return Reply()

    def _rolls(self, event: Any) -> list[DiceAsk]:
        """The rolls ``event`` makes whose dice are not given (:meth:`TableGame.rolls`)."""
        return [ask for ask in self.table.rolls(self.state, event) if getattr(event, ask.field, None) is None]

    def _type_dice(self, pending: _Pending, text: str) -> Reply:
        ask = pending.asks[0]
        values = parse_dice(text, ask.sides)
        every = sum(a.count for a in pending.asks)
        extra: tuple[int, ...] = ()
        if len(values) == every and len(pending.asks) > 1:
            values, extra = values[:ask.count], values[ask.count:]
        if len(values) != ask.count:
            both = f" (or all {every} of this step: {dice_prompt(pending.asks).removesuffix(' [roll]: ')})" if len(pending.asks) > 1 else ""
            raise DiceError(f"{ask.text}: type {ask.count} {'die' if ask.count == 1 else 'dice'}{both}, not {len(values)} "
                            f"({' '.join(map(str, values))})")
        dice = Dice(values, None)
        event = dataclasses.replace(pending.event, **{ask.field: dice})
        rest = self._rolls(event)
        if not rest:
            self._pending = None
            return self._play(event, referee_rolls=True)
        self._pending = _Pending(event, asks=rest)
        if extra:
            return self._type_dice(self._pending, " ".join(map(str, extra)))
        return Reply()

    def _play(self, event: Any, referee_rolls: bool) -> Reply:
        """Play ``event`` and save; then every step the session plays by itself (:meth:`_automatic`), each
        saved. The reply holds the notes and screens of them all."""
        self._pending = None
        asked = self.question()
        shown = " ".join((asked.text, *asked.context))
        reply = self._play_one(event)
        # a note the question already said before the answer is not said again after it (forty-ninth referee breaker,
        # POLISH 5: "The Quest draw pile is exhausted: shuffle ..." before the prompt and again after Enter)
        reply = dataclasses.replace(reply, notes=tuple(note for note in reply.notes if not note.strip() or note.strip() not in shown))
        while (step := self._automatic()) is not None:
            more = self._play_one(step)
            reply = Reply(notes=reply.notes + more.notes, played=more.played, screen=reply.screen + more.screen)
        return reply

    def _play_one(self, event: Any) -> Reply:
        before = len(self.game.log.events)
        state = self.game.play(event)
        try:
            self._save(self.game, self.path)
        except Exception:
            self.game.log.pop()
            raise
        assert len(self.game.log.events) == before + 1
        played = self.game.log.events[-1]
        return Reply(notes=self.game.notes(), played=played, screen=self.table.after(state, played))

    def _automatic(self) -> Any:
        """The step to play by itself now: the default of an :attr:`Question.automatic` question that
        rolls no dice (nothing to answer), or ``None``."""
        question = self.question()
        if not question.automatic or question.default is None or self._default_rolls(question):
            return None
        return question.default.event


_OFFERED = re.compile(r"\s*\((?:[^()`]*)`referee [^`]*`[^()]*\)")
"""A parenthesis of a refusal that offers a one-shot command (`` (`referee solo draw`) ``): its words are the rest."""


def offers_a_one_shot(text: str) -> bool:
    """Whether a session's reply ``text`` offers a one-shot command (`` `referee solo draw` ``) to type where it is read: one
    it names before `` `quit` `` (a command to type once the session has quit, in a shell, is said after it). At a prompt
    a one-shot command is never what to type (forty-seventh referee breaker, KIND 1)."""
    from referee.advice import commands_in

    return bool(commands_in(text.split("`quit`", 1)[0]))


def _same_file(typed: str, path: Path | None) -> bool:
    """Whether the path ``typed`` names the file ``path`` (relative to the current folder, ``~`` expanded)."""
    if path is None:
        return False
    try:
        return Path(typed).expanduser().resolve() == Path(path).resolve()
    except (OSError, RuntimeError, ValueError):
        return False


def _name_then_dice(text: str) -> tuple[str, str] | None:
    """``(name, dice)`` when ``text`` is words (a name, a hex, a path) then dice: ``quenm 12 456`` ->
    ``("quenm", "12 456")``; else ``None``."""
    found = re.fullmatch(r"\s*(.*[^\d\s,;/].*?)\s+([\d][\d\s,;/]*)\s*", text)
    return (found.group(1), found.group(2)) if found else None


def _number(word: str) -> bool:
    """Whether ``word`` is a number as typed on a keyboard: ASCII digits only (``٣`` is no choice)."""
    return word.isascii() and word.isdigit()


def _slug(text: str) -> str:
    """A name as typed, in the one spelling of the words that name cards and spells (``Elder Maelis`` ->
    ``elder-maelis``, ``The Council's Seat`` -> ``the-councils-seat``: :func:`referee.clitools.slug`)."""
    from referee import clitools

    return clitools.slug(text)


def _choice_number(text: str, ask: DiceAsk, question: Question) -> bool:
    """Whether digits typed at a dice prompt could as well be a numbered choice: one digit where more
    dice are asked for, naming a choice (the answer is then refused as ambiguous)."""
    return question.numbered and _number(text) and len(text) == 1 and ask.count > 1 and 1 <= int(text) <= len(question.choices)


_AID_MARK = re.compile(r"\s+\*\s.*$")
"""The mark a choice's label carries at a losing roll where it is aid that can turn it (``  * turns it: certain``)."""


def _match(values: Mapping[str, Any], word: str) -> Any:
    """The value ``word`` names: exactly, or as the unique prefix of one (``rand`` -> Randven)."""
    if not word:
        return None
    if word in values:
        return values[word]
    found = {id(v): v for k, v in values.items() if k.startswith(word)}
    return next(iter(found.values())) if len(found) == 1 else None
