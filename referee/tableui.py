"""Table mode on a terminal: prompt_toolkit asks, rich prints, :class:`referee.table.TableSession` decides.

This module owns the terminal side of ``referee solo play`` and ``referee duel play``: one
prompt_toolkit :class:`~prompt_toolkit.PromptSession` (history, Tab completion of the accepted answers
with what each does, a bottom toolbar with the state at a glance), the notes and screens printed with
rich as the one-shot commands print them, and the save file held by a lock so a second session on it is
refused. Ctrl-C cancels the question being answered and asks again; Ctrl-D or ``quit`` leaves (the game is
saved after every step, so a killed terminal loses at most the answer being typed). Under ``NO_COLOR`` or
a dumb terminal both libraries print plain text.
"""
from __future__ import annotations

import contextlib
import errno
import itertools
import os
import re
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, TextIO, cast

import click
from prompt_toolkit import PromptSession
from prompt_toolkit.completion import Completer, Completion
from prompt_toolkit.document import Document
from prompt_toolkit.history import DummyHistory, InMemoryHistory
from prompt_toolkit.input import Input
from prompt_toolkit.key_binding import KeyBindings
from prompt_toolkit.keys import Keys
from prompt_toolkit.layout.processors import Processor, Transformation, TransformationInput
from prompt_toolkit.output import Output

from pnp.entry import Terminated, hold_later_interrupts, resume_interrupts
from pnp.oneline import numbers_unmarked, shown_file
from referee import glyphs
from referee import save as savefile
from referee.clitools import not_stopped, with_given, without_control, wrap_cells
from referee.errors import RefereeError, undisclosed
from referee.savelock import LockError, held
from referee.table import Reply, TableSession, leaves

__all__ = ["LockError", "held", "run", "ask", "main_loop"]


class _Answers(Completer):
    """Tab completion: the answers the session accepts now, each with what it does."""

    def __init__(self, session: TableSession) -> None:
        self.session = session

    def get_completions(self, document: Document, complete_event: Any) -> Iterable[Completion]:
        typed = document.text_before_cursor.lower()
        word = typed.split(" ")[-1] if " " in typed and not typed.endswith(" ") else typed
        start = -len(word) if " " in typed else -len(typed)
        seen = set()
        for text, meta in self.session.completions():
            candidate = text if " " not in typed else text
            if candidate.lower().startswith(word if " " in typed else typed) and candidate not in seen:
                seen.add(candidate)
                yield Completion(candidate, start_position=start, display_meta=meta)


def run(session: TableSession, input: Input | None = None, output: Output | None = None, console: Any = None,
        note_style: Callable[[str, Any], str | None] = lambda note, state: None) -> int:
    """Play ``session`` until the player leaves; returns the number of answers typed. ``input`` and
    ``output`` are prompt_toolkit's (a pipe input and a dummy output in tests); ``console`` the rich
    console the notes go to (:func:`referee.clitools.console` by default); ``note_style(note, state)`` the
    style of a note, as the game's one-shot commands print it (an ending's colour). Every command the session offers to
    type in a shell carries the session's ``--save`` (:func:`referee.clitools.session_options`)."""
    from referee import clitools

    with clitools.offering_session_save(session.path):
        return _run(session, input, output, console, note_style)


def _run(session: TableSession, input: Input | None, output: Output | None, console: Any,
         note_style: Callable[[str, Any], str | None]) -> int:
    """:func:`run`, its options set."""
    from referee import clitools

    input = input or terminal_input()
    out = console or clitools.console()
    prompt: PromptSession[str] = PromptSession(history=_History(session), completer=_Answers(session),
                                               complete_while_typing=False, input=input, output=output, key_bindings=_bindings())
    # A hidden answer (the duel's placing) is typed unseen, kept out of the history, and its prompt (which
    # may show the dice the referee rolled that player) is erased once answered.
    # Nothing of it is shown as it is typed, not even a star a character (twenty-eighth breaker: the count of stars told a
    # Power placing from a spell), and the screen and the terminal's scrollback are wiped once it is answered (a prompt
    # that showed the referee's dice stayed on screen after a resize, or in the scrollback of a short terminal).
    # No history either: the up arrow at the second side's hidden prompt brought back the first side's placing (thirty-
    # fourth breaker, HIGH 1), to commit as its own or to probe with refusals.
    secret: PromptSession[str] = PromptSession(input_processors=[_Unseen()], erase_when_done=True, input=input, output=output,
                                               key_bindings=_bindings(), history=DummyHistory())
    answers = 0
    _show_question(session, out)
    private = ""  # a refused hidden answer: said in the next hidden prompt only, which is erased (never on the shared screen)
    opened = ""  # the holder of the last hidden prompt answered: a secret of theirs next is shown without asking first
    while True:
        text, question, _ = session.prompt()
        if question is not None and question.gate and question.holder != opened:
            try:  # the secret is not the first thing on the screen of whoever is at the keyboard (Question.gate)
                with not_stopped(True):
                    typed = _read(prompt, _wrapped(f"{question.gate}: ", prompt.output.get_size().columns),
                                  bottom_toolbar=lambda: _fitted(session.table.toolbar(session.state)))
            except _TooLong:  # never an answer to the hidden prompt, nor a command: refused, asked again
                out.print(as_sentence(_too_long()), style="bold red", markup=False)
                continue
            except KeyboardInterrupt:
                resume_interrupts()  # asked again: a later Ctrl-C interrupts as this one did (pnp.entry.hold_later_interrupts)
                out.print("(cancelled: asked again)", style="dim", markup=False)
                continue
            except EOFError:
                break
            typed = without_control(typed)  # Ctrl-Z (suspend is off here) read as `^Z`: Enter after it still opens
            if not typed.strip():  # (thirty-seventh breaker, LOW 6: refused as "press Enter first")
                opened = question.holder
                continue
            first = typed.split()[0].lower()
            commands = session.gate_commands()  # what works here, said from the list that decides it (46th, POLISH 10)
            if first not in commands and not leaves(typed):  # never an answer to the hidden prompt (a leave word leaves here too)
                _wipe(prompt.output)  # (typed where everyone sees it, before the dice were even shown)
                out.print("Refused: press Enter first; the answer is typed at the hidden prompt that follows (or type a "
                          f"command: {', '.join(commands)}).", style="bold red", markup=False)
                _show_question(session, out)
                continue
            reply = session.answer(typed, gate=True)  # a command: answered as at any prompt, in words that fit this one
            if reply.leave:
                if reply.error:
                    out.print(reply.error, style="bold red", markup=False)
                    return answers
                break
            _show_reply(reply, out, session, note_style)
            continue
        hidden = question is not None and question.hidden
        refusal = ""
        if hidden and private:
            refusal, private = _refused(private), ""
        if question is not None and question.waiting is not None:  # the odds found later: draw the bottom line again
            question.waiting.add_done_callback(lambda _, app=(secret if hidden else prompt).app: app.invalidate())  # thread-safe
        try:
            asking = secret if hidden else prompt
            try:
                with not_stopped(hidden):
                    if refusal:  # a refused hidden answer, said just above the hidden prompt asked again and wiped with it
                        # (R77), printed as every line is: its commands whole, on one line the terminal wraps (prompt_toolkit
                        # cuts its message's lines and broke a command at the lines it was wrapped to: forty-sixth referee
                        # breaker, KIND 2), so that the prompt, its first line the dice, is never pushed off (thirtieth, MED 4)
                        out.print(refusal, style="bold red", markup=False)
                    line = _read(asking, _wrapped(text, asking.output.get_size().columns, asking.output.encoding()),
                                 bottom_toolbar=lambda: _fitted(session.table.toolbar(session.state)))
                line = without_control(line)  # Ctrl-Z read as an unseen ^Z refused the answer typed after it (35th breaker, MED 4)
            finally:
                if hidden:
                    with contextlib.suppress(OSError):  # a terminal closed under it (SIGHUP) shows nothing any more
                        _wipe(secret.output)
        except Terminated:  # SIGTERM or SIGHUP: the hidden prompt is wiped above; the save holds every step played
            raise
        except _TooLong:  # cut at the cap: refused whole, nothing taken, the same question asked again (a hidden one says
            if hidden:  # it in its own prompt, as its other refusals)
                private = as_sentence(_too_long())
            else:
                out.print(as_sentence(_too_long()), style="bold red", markup=False)
            continue
        except KeyboardInterrupt:
            resume_interrupts()  # asked again: a later Ctrl-C interrupts as this one did (pnp.entry.hold_later_interrupts)
            session.cancel()
            out.print("(cancelled: asked again)", style="dim", markup=False)
            continue
        except EOFError:
            break
        answers += 1
        if hidden and question is not None:
            opened = question.holder
        reply = session.answer(line)
        if reply.leave and reply.error:  # the session cannot go on (its save changed under it): nothing more is saved
            out.print(reply.error, style="bold red", markup=False)
            return answers
        if reply.leave:
            break
        if hidden and reply.error:  # it may tell the other player what was tried, or which dice
            private = as_sentence(numbers_unmarked(undisclosed(reply.error, line, glyphs.glyph(glyphs.ELLIPSIS, "...",
                                                                                            _encoding_of(out)))))
            continue
        if reply.wipe:  # a secret typed where everyone sees it: gone from the screen and its scrollback, then asked again
            _wipe(prompt.output)
            _show_reply(reply, out, session, note_style)
            _show_question(session, out)
            continue
        _show_reply(reply, out, session, note_style)
        if reply.played is not None or reply.undone is not None or (reply.error is None and session.variants()):
            _show_question(session, out, said=reply.notes)
    try:
        session.keep_saved()
    except RefereeError as error:  # the only copy of the game is in this session: keep it beside, or say it is lost
        rescue = session.path.with_name(f"{session.path.name}.rescued-{os.getpid()}.toml")
        try:
            savefile.write(rescue, session.game.document())
        except RefereeError:
            out.print(f"{error}: the game was not saved, and no copy could be written", style="bold red", markup=False)
            sys.exit(1)  # (click returns the code of its Exit, which the console script drops)
        out.print(f"{error}: the game was kept in {rescue} instead (`referee {session.table.name} play --save {clitools.shell_quoted(str(rescue))}`)",
                  style="bold red", markup=False)
        sys.exit(1)  # (click returns the code of its Exit, which the console script drops)
    out.print(_saved_line(session), markup=False)
    return answers


TERMINAL_CODEC = "lassadar_terminal_"
"""The name of the codec :func:`terminal_input` reads the terminal's keys with, followed by the encoding it falls back
on (``lassadar_terminal_cp1252``)."""

_READ_SIZE = 1024
"""How many bytes prompt_toolkit reads from the terminal at a time (``PosixStdinReader.read``): a read that returns fewer
has taken every byte the terminal sent, so no character is cut at its end."""


def terminal_input() -> Input | None:
    """prompt_toolkit's input for the terminal at standard input, its bytes read as the characters typed: as UTF-8 where
    they are UTF-8, whatever the encoding Python was told (``PYTHONIOENCODING=cp1252`` in a UTF-8 terminal read `Zoë`'s
    two bytes as ``Zo\u00c3\u00ab``, which a command offered wrote as ``$'Zo\xc3\x83\xc2\xab'``, and the cap on an
    answer counted its bytes: forty-sixth referee breaker, KIND 5), else in the encoding standard input declares, or the
    locale's (the reverse: a cp1252 terminal under ``PYTHONIOENCODING=utf-8``), else as the bytes they are (Python's
    surrogate escapes, :func:`referee.table._bytes_read_as_utf8`). ``None`` (prompt_toolkit's own) where standard input
    is no terminal or the platform reads keys as characters (Windows)."""
    if sys.platform == "win32":
        return None
    try:
        if not sys.stdin.isatty():
            return None
    except (AttributeError, ValueError):  # closed or replaced
        return None
    from prompt_toolkit.input.vt100 import Vt100Input

    _register_terminal_codec()
    return Vt100Input(cast(TextIO, _DecodedAsTyped(sys.stdin, TERMINAL_CODEC + _fallback_encoding())))


def _fallback_encoding() -> str:
    """The encoding a byte that is no UTF-8 is read in (:func:`terminal_input`): standard input's, else the locale's, when
    it is another than UTF-8 or ASCII; else ``utf-8`` (the byte kept as Python's surrogate escape)."""
    import codecs
    import locale

    for name in (getattr(sys.stdin, "encoding", None), locale.getpreferredencoding(False)):
        try:
            known = codecs.lookup(name or "").name
        except LookupError:
            continue
        if known not in ("utf-8", "ascii"):
            return known
    return "utf-8"


def _register_terminal_codec() -> None:
    """Register the codecs named :data:`TERMINAL_CODEC` and their fallback (registering again adds nothing)."""
    import codecs

    global _CODEC_REGISTERED
    if _CODEC_REGISTERED:
        return
    _CODEC_REGISTERED = True

    def search(name: str) -> codecs.CodecInfo | None:
        if not name.startswith(TERMINAL_CODEC):
            return None
        fallback = codecs.lookup(name.removeprefix(TERMINAL_CODEC)).name
        handler = f"lassadar-terminal-{fallback}"

        def read_as_fallback(error: UnicodeError) -> tuple[str, int]:
            if not isinstance(error, UnicodeDecodeError):
                raise error
            return error.object[error.start:error.end].decode(fallback, "surrogateescape"), error.end

        codecs.register_error(handler, read_as_fallback)

        class Decoder(codecs.IncrementalDecoder):
            def __init__(self, errors: str = "strict") -> None:
                super().__init__(errors)
                self.utf8 = codecs.getincrementaldecoder("utf-8")(handler)

            def decode(self, input: bytes, final: bool = False) -> str:  # type: ignore[override]
                # a read shorter than prompt_toolkit's took all the terminal sent: a byte left at its end begins no
                # character still to come (a cp1252 é), so it is read now, not with the next key
                return self.utf8.decode(input, final or len(input) < _READ_SIZE)

            def reset(self) -> None:
                self.utf8.reset()

        def decode(data: bytes, errors: str = "strict") -> tuple[str, int]:
            return codecs.utf_8_decode(data, handler, True)

        return codecs.CodecInfo(codecs.utf_8_encode, decode, name=name, incrementaldecoder=Decoder)  # type: ignore[arg-type]

    codecs.register(search)


_CODEC_REGISTERED = False


class _DecodedAsTyped:
    """Standard input as prompt_toolkit's terminal input reads it, its ``encoding`` the codec ``encoding``
    (:func:`terminal_input`); every other attribute standard input's own."""

    def __init__(self, stream: Any, encoding: str) -> None:
        self._stream, self.encoding = stream, encoding

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


def _saved_line(session: TableSession) -> str:
    """What a session says as it ends: where the game is saved, and how to go on (a finished game's Next line offers a
    new game: fourteenth breaker; the --save and --db typed are repeated: sixteenth breaker, --db was dropped)."""
    from referee.clitools import offering_session_save, session_options

    if session.game.rules.is_over(session.state):
        with offering_session_save(session.path):
            return f"Saved: {shown_file(session.path)}. {with_given(session.game.next_line())}"
    given = session_options(session.path)  # the one function every command the session offers is given by (45th, MED 9)
    return f"Saved: {shown_file(session.path)}. Continue with `referee {session.table.name} play {given}`."


class _History(InMemoryHistory):
    """The answers typed at the shared prompts, for the up arrow: never a secret typed there by mistake (a placing at the
    duel's Location prompt: :meth:`referee.table.TableGame.secret_shown`), which the next player would call back."""

    def __init__(self, session: TableSession) -> None:
        super().__init__()
        self.session = session

    def append_string(self, string: str) -> None:
        """Keep ``string`` unless it is a secret shown."""
        if self.session.table.secret_shown(string, self.session.state) is None:
            super().append_string(string)


class _Unseen(Processor):
    """Shows nothing of the text being typed (a hidden placing): no character, no star a character."""

    def apply_transformation(self, transformation_input: TransformationInput) -> Transformation:
        """The line as shown: empty, every position of the typed text shown at its start."""
        return Transformation([], source_to_display=lambda position: 0, display_to_source=lambda position: 0)


def _wipe(output: Output) -> None:
    """Clear the terminal's screen and its scrollback (ED 2 and ED 3) and put the cursor home: what a hidden prompt
    showed (the dice the referee rolled one player) is gone whatever the terminal did with it meanwhile (a resize that
    wrapped it, a terminal too short to hold it that scrolled it out of reach of prompt_toolkit's erasing).

    The screen is cleared first and the scrollback last: a terminal that keeps a cleared screen in its scrollback
    (tmux's ``scroll-on-clear``, VTE) would otherwise move a stale copy of the dice there just after the scrollback was
    emptied (twenty-ninth breaker, HIGH), as ``clear(1)`` orders it too."""
    output.erase_screen()
    output.cursor_goto(0, 0)
    output.write_raw("\x1b[3J")
    output.flush()


def _wrapped(text: str, columns: int, encoding: str = "utf-8") -> str:
    """The prompt ``text`` broken at words into lines narrower than ``columns`` terminal cells (prompt_toolkit
    breaks the line being typed anywhere, mid-word, and cuts the lines above it), its trailing space kept. A
    wide character (Chinese, Japanese, Korean) takes two cells (fifteenth breaker: lines were measured in
    characters, and the terminal broke a name's line again mid-word). Measured as the output's ``encoding`` writes it
    (a character it cannot write as its code, :func:`pnp.oneline.as_written_in`): measured as typed and written wider, a
    line ran past the width prompt_toolkit cuts it at (forty-sixth referee breaker, KIND 4). No prompt holds a command to
    type: prompt_toolkit would cut or break it (the refusals that offer one are printed above the prompt)."""
    from pnp.oneline import as_written_in

    text = as_written_in(text, encoding)
    width = max(20, columns - 1)
    trailing = text[len(text.rstrip(" ")):]
    lines = [part for line in text.rstrip(" ").split("\n") for part in wrap_cells(line, width)]
    return "\n".join(lines) + trailing


def _show_reply(reply: Reply, out: Any, session: TableSession, note_style: Callable[[str, Any], str | None]) -> None:
    """Print what an answer did: what was undone, a command's screen, the rules' notes, then a refusal
    in red (last, so that after two answers on one line the second's refusal follows the first's notes)."""
    if reply.undone:
        out.print(" ".join(filter(None, [f"Undone: {reply.undone}.", reply.put_back])), markup=False)  # (twenty-ninth breaker:
        # the duel's undo said "cards" and asked to put back what a commitment never moved)
    for line in reply.screen:  # a map or a board first: the dice and what they did stay beside the prompt
        out.print(line, markup=False) if isinstance(line, str) else out.print(line)
    for note in reply.notes:
        out.print(note, style=note_style(note, session.state), markup=False)
    if reply.error:
        out.print(as_sentence(numbers_unmarked(reply.error)), style="bold red", markup=False)


def _show_question(session: TableSession, out: Any, said: tuple[str, ...] = ()) -> None:
    """Print the situation and the numbered choices of the question on the table, or the numbered
    variants of a choice being answered (which dice a spell re-rolls). Sentences of the situation that
    the notes just printed (``said``) say already are left out."""
    _, question, _ = session.prompt()
    if question is None:
        for number, label in enumerate(session.variants(), 1):
            _print_numbered(out, f"  {number} ", label)
        return
    for line in question.context:  # its one-shot commands (the seal on one's own device) with the --save and --db typed
        line = _unsaid(with_given(line), said)
        if line:
            out.print(line, style="bold", markup=False)
    for key, choice in zip(question.keys(), question.choices, strict=True):
        label = choice.label
        if not key.isdigit() and f"{label.lower()} ".startswith(f"{key.lower()} "):  # its word begins the label: said once
            label = label[len(key):].strip()  # (forty-ninth referee breaker, POLISH 5: "retreat Retreat (-1 Spirit)")
        if label:
            _print_numbered(out, f"  {key} ", label)
        else:
            _print_numbered(out, f"  {key}", "")


def _print_numbered(out: Any, prefix: str, label: str) -> None:
    """One numbered choice, wrapped at words to the console's width under its text, not under its number (thirty-third
    breaker, LOW 19: at 38 columns a choice's second line read as a line of its own)."""
    from rich.text import Text

    from referee.clitools import wrap_paragraph

    width = max(getattr(out, "width", 80), len(prefix) + 12)
    # a command in back quotes kept whole, as in every line (forty-sixth referee breaker, KIND 2: wrap_cells broke it)
    wrapped = wrap_paragraph(" " * len(prefix) + with_given(label), width) or [""]
    first = wrapped[0][len(prefix):] if wrapped[0].startswith(" " * len(prefix)) else wrapped[0]
    for line in [prefix + first, *wrapped[1:]]:
        out.print(Text(line, no_wrap=True, overflow="ignore"))  # as laid out here (a text is wrapped again, its indent lost)


MAX_ANSWER_CHARS = 2000
"""The longest line a table prompt takes, in characters (the longest answer, a map path or servant cards with their
dice, is under 100): keys typed past it are dropped and a paste is cut there. Each key typed kept a copy of the whole
line for undo, so a 60 KB line typed or pasted key by key grew the referee to 1.8 GB (forty-fourth referee breaker,
MED 4)."""


class _Keys(KeyBindings):
    """The key bindings of one prompt (:func:`_bindings`), which remember whether characters past
    :data:`MAX_ANSWER_CHARS` were dropped from the line being typed (``dropped``; :func:`_read` sets it back before each
    prompt, and emptying the line does too)."""

    dropped = False


def _too_long() -> str:
    """The refusal of a line that lost characters past :data:`MAX_ANSWER_CHARS`: never taken, cut (forty-fifth referee
    breaker, MED 1: `56 1112` pasted after 1,994 blanks was played as `56 111`, a hidden placing `power 62` committed as
    `power 6`)."""
    return f"that answer is longer than {MAX_ANSWER_CHARS:,} characters: nothing was taken; type it again, shorter"


class _TooLong(Exception):
    """A line was answered that lost characters past :data:`MAX_ANSWER_CHARS` (:func:`_read`)."""


def _read(session: PromptSession[str], message: Any, **options: Any) -> str:
    """``session.prompt(message, **options)``, the answer typed; raises :class:`_TooLong` when characters past
    :data:`MAX_ANSWER_CHARS` were dropped from it (typed or pasted past the cap): a cut answer is never taken."""
    keys = session.key_bindings
    if isinstance(keys, _Keys):
        keys.dropped = False
    line = session.prompt(message, **options)
    if isinstance(keys, _Keys) and keys.dropped:
        keys.dropped = False
        raise _TooLong
    return line


def _bindings() -> _Keys:
    """Key bindings over prompt_toolkit's: a pasted colour code (``ESC [31m``) reads as a mouse event, whose
    own handler fails on it ("Unhandled exception in event loop"); the table mode uses no mouse, so
    mouse events are dropped. A line at :data:`MAX_ANSWER_CHARS` takes no more characters, typed or pasted: each one
    dropped is remembered (``dropped``), so that the line is refused, not taken cut (:func:`_read`); the memory stays
    flat (no key past the cap keeps a copy of the line)."""
    from prompt_toolkit.application.current import get_app
    from prompt_toolkit.filters import Condition

    bindings = _Keys()

    @bindings.add(Keys.Vt100MouseEvent)
    def _ignore(event: Any) -> None:
        return None

    full = Condition(lambda: len(get_app().current_buffer.text) >= MAX_ANSWER_CHARS)

    @bindings.add(Keys.Any, filter=full, save_before=lambda event: False)
    def _full(event: Any) -> None:  # a character past the longest line: dropped (no bell: a paste rings it for each key),
        bindings.dropped = True  # and remembered: the line is refused on Enter
        _forget_when_emptied(event.current_buffer)

    @bindings.add(Keys.BracketedPaste)
    def _paste(event: Any) -> None:  # pasted text, as prompt_toolkit's own handler inserts it, up to the longest line
        data = event.data.replace("\r\n", "\n").replace("\r", "\n")
        room = MAX_ANSWER_CHARS - len(event.current_buffer.text)
        if room > 0:
            event.current_buffer.insert_text(data[:room])
        if len(data) > max(room, 0):  # cut: remembered, the line is refused on Enter
            bindings.dropped = True
            _forget_when_emptied(event.current_buffer)

    watched: list[Any] = []  # the buffers whose emptying is watched (one a prompt)

    def _forget_when_emptied(buffer: Any) -> None:
        """Once the line is emptied (Ctrl-U, Backspace), what was dropped from it is no part of the line typed next."""
        if any(seen is buffer for seen in watched):
            return
        watched.append(buffer)

        def emptied(changed: Any) -> None:
            if not changed.text:
                bindings.dropped = False

        buffer.on_text_changed += emptied

    return bindings


def _refused(refusal: str) -> str:
    """The line a refused hidden answer is said in above the hidden prompt asked again: ``Refused: `` and the refusal as
    a sentence (a number left out as ``...`` keeps its dots)."""
    ended = refusal if refusal.endswith("...") else f"{refusal.rstrip('.')}."
    return f"Refused: {ended}"


def _encoding_of(out: Any) -> str:
    """The encoding the console ``out`` writes in (rich's ``Console.encoding``), ``utf-8`` when it says none."""
    return getattr(out, "encoding", None) or "utf-8"


def _fitted(toolbar: str, columns: int | None = None) -> str:
    """The toolbar's lines wrapped to the terminal's width (``columns``, by default the running application's)
    between their `` | `` parts, and a part longer than the width (a long list of spells) between its
    comma-separated items: a narrow terminal shows everything, on more lines, instead of cutting the end."""
    from prompt_toolkit.application import get_app_or_none

    if columns is None:
        app = get_app_or_none()
        columns = app.output.get_size().columns if app is not None else 80
    width = columns - 1
    lines: list[str] = []
    for line in toolbar.splitlines():
        current = ""
        for part, separator in _pieces(line, width):
            joined = f"{current}{separator}{part}" if current else part
            if current and len(joined) > width:
                lines.append(current.rstrip(","))
                current = part
            else:
                current = joined
        lines.append(current)
    # a piece wider than the terminal on its own (an aid and its odds at 38 columns) wraps at words, never cut
    # (thirty-third breaker, LOW 19: "Aid that can turn it: Shield (a chance" lost its odds)
    return "\n".join(wrapped for line in lines for wrapped in (wrap_cells(line, width) if len(line) > width else [line]))


def _pieces(line: str, width: int) -> list[tuple[str, str]]:
    """``(text, separator before it)`` pieces of a toolbar line: its `` | `` parts, and the items of a
    part too long for ``width``."""
    out: list[tuple[str, str]] = []
    for part in line.split(" | "):
        items = part.split(", ") if len(part) > width else [part]
        out.append((items[0], " | "))
        out.extend((item, ", ") for item in items[1:])
    return out


def _unsaid(line: str, said: tuple[str, ...]) -> str:
    """``line`` without the sentences that one of the notes ``said`` holds word for word."""
    if not said:
        return line
    sentences = re.split(r"(?<=[.!?])\s+", line.strip())
    return " ".join(s for s in sentences if not any(s in note for note in said))


def ask(text: str, choices: list[tuple[str, str]], default: str, input: Input | None = None, output: Output | None = None,
        out: Any = None, details: list[str] | None = None,
        no_game: str = "There is no game yet: answer this question first (quit leaves; nothing is saved until the game starts).") -> str:
    """Ask one setup question before a game exists: ``choices`` are (answer, what it is) pairs, listed
    numbered and completed by Tab; Enter takes ``default``; ``help`` prints ``details`` (the spells'
    texts) and the choices again. Returns the chosen answer. Ctrl-C asks again; Ctrl-D, `quit` or
    `exit` raises ``EOFError`` (nothing was saved)."""
    from prompt_toolkit.completion import WordCompleter

    from referee import clitools

    out = out or clitools.console()
    for number, (answer, meta) in enumerate(choices, 1):
        out.print(f"  {number:>2} {meta or answer}", markup=False)
    words = [a for a, _ in choices]
    completer = WordCompleter(words, meta_dict=dict(choices), sentence=True)
    session: PromptSession[str] = PromptSession(completer=completer, complete_while_typing=False, input=input, output=output,
                                                key_bindings=_bindings())
    while True:
        try:
            line = _read(session, f"{text} [{default}]: ").strip()
        except _TooLong:
            out.print(as_sentence(_too_long()), style="bold red", markup=False)
            continue
        except Terminated:
            raise
        except KeyboardInterrupt:
            resume_interrupts()  # asked again: a later Ctrl-C interrupts as this one did (pnp.entry.hold_later_interrupts)
            continue
        if not line:
            return default
        if leaves(line):  # as at every prompt of the game (referee.table.LEAVE_WORDS): leave, nothing saved yet
            raise EOFError
        if line.split()[0].lower() in _game_commands() and line.lower() not in words:
            out.print(no_game, style="bold red", markup=False)  # the games' commands (`status`, `draw`): no game to play them
            continue
        if line.lower() == "spells" and not details:  # the Difficulty question: the spells come next
            out.print("The starting spells are asked next: choose the difficulty first.", markup=False)
            continue
        if line.lower() in ("help", "spells", "?"):
            for detail in details or []:
                out.print(detail, markup=False)
            for number, (answer, meta) in enumerate(choices, 1):
                out.print(f"  {number:>2} {meta or answer}", markup=False)
            continue
        if line.isdigit() and 1 <= int(line) <= len(words):
            return words[int(line) - 1]
        found = ([w for w in words if w.lower() == line.lower()] or [a for a, meta in choices if meta.lower() == line.lower()]
                 or [a for a in words if _word_set(a) == _word_set(line)]  # `shield bind`, `bind,shield`, `Bind and Shield`
                 or [w for w in words if w.lower().startswith(line.lower())]
                 or [a for a in words if _begins_each(a, line)])  # `thorn shield`, `Thorn Hedge, Shield`, as --spells reads them
        if len(found) == 1 and not (len(line) == 1 and line.isalpha() and found[0].lower() != line.lower()):
            return found[0]  # (one letter is a slip as often as a name: thirty-fourth breaker, MED 6, `b` started a beginner game)
        if len(found) >= 1:  # twenty-fourth breaker: `shield`, the beginning of four pairs, was "not one of them"
            fits = ", ".join(f"{words.index(answer) + 1} {dict(choices)[answer] or answer}" for answer in found)
            fit = f"could be {fits}" if len(found) == 1 else f"fits several: {fits}"
            out.print(f"{line!r} {fit}; type its number or more of its name.", style="bold red", markup=False)
            continue
        out.print(f"{line!r} is not one of them: type its number or its name (help shows them).", style="bold red", markup=False)


def _game_commands() -> set[str]:
    """The names of every command of both games (``draw``, ``status``, ``new`` ...), and the table's own."""
    from referee.cli import main

    names = {"status", "log", "undo", "map", "board"}
    context = click.Context(main)
    for game in ("solo", "duel"):
        group = main.get_command(context, game)
        if isinstance(group, click.Group):
            names |= set(group.commands)
    return names - {"spells", "help"}


def _begins_each(answer: str, line: str) -> bool:
    """Whether the parts of ``line`` (split at commas or ``and``, else at spaces) each begin one word of
    ``answer`` (``thorn-hedge shield``), every word begun once, in any order: ``thorn shield`` and
    ``Thorn Hedge, Shield`` give ``thorn-hedge shield``, as ``new --spells thorn,shi`` reads them."""
    slug = lambda text: re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")  # noqa: E731
    parts = [slug(p) for p in re.split(r",|\band\b", line.lower())] if re.search(r",|\band\b", line.lower()) else [slug(p) for p in line.split()]
    parts = [p for p in parts if p]
    answers = answer.lower().split()
    if len(parts) != len(answers):
        return False
    return any(all(word.startswith(part) for part, word in zip(parts, order, strict=True)) for order in itertools.permutations(answers))


def _word_set(text: str) -> frozenset[str]:
    """The words of an answer in any order, commas or ``and`` between them: ``Bind and Shield``,
    ``shield,bind`` and ``bind shield`` are one answer."""
    return frozenset(w for w in re.split(r"[\s,]+", text.lower()) if w and w != "and")


TERMINAL_GONE = (errno.EIO, errno.ENXIO)
"""What writing to or reading from a terminal that was closed (its window, an SSH link) raises: the session ends as on
SIGHUP, its steps saved (fortieth referee breaker, MED 10: a traceback, exit 1)."""


def another_game(game: str, path: Path, input: Input | None = None, output: Output | None = None, out: Any = None,
                 kept_in_progress: str | None = None) -> bool | None:
    """At ``referee GAME play`` on a finished game: whether the player starts a new one (True), or looks at the one
    finished (False); ``None`` when they leave (Ctrl-D, `quit`). The new game is saved as ``referee GAME new``
    saves it: the finished one kept beside it in ``PATH.prev`` (:func:`referee.save.write_new`), unless that keeps a game in
    progress (``kept_in_progress``, its description), which stays."""
    from referee import clitools
    from referee.save import prev_path

    out = out or clitools.console()
    out.print(f"The game saved in {clitools.shown_file(path)} is over.", markup=False)
    kept = prev_path(path)
    # the restore offered with the --save typed, as every command offered (forty-second referee breaker, MED 4); where
    # PATH.prev keeps a game in progress (``kept_in_progress`` describes it), the finished one is not kept, as `new` does
    # it, and said so (forty-second, MED 11: "unless ... keeps a game in progress", which the referee knew)
    new = (f"a new game; the finished one is not kept, as {clitools.shown_file(kept)} keeps a game in progress "
           f"({kept_in_progress}), which stays there (`referee {game} restore` swaps it back)" if kept_in_progress else
           f"a new game, the finished one kept in {clitools.shown_file(kept)} (`referee {game} restore` swaps them back)")
    with clitools.offering_session_save(path):  # its restore with the session's --save (forty-fifth referee breaker, MED 9)
        new = clitools.with_given(new)
    choices = [("new", new),
               ("look", "look at the finished game (`status` and `log` show it; Enter leaves)")]
    answer = _play_question(choices, "new", "Answer this question first: new starts another game, look shows the finished "
                                             "one (quit leaves).", input, output, out)
    return None if answer is None else answer == "new"


def _play_question(choices: list[tuple[str, str]], default: str, no_game: str, input: Input | None, output: Output | None,
                   out: Any) -> str | None:
    """The answer to `play`'s question before a game is on the table (:func:`ask` with ``choices``), ``None`` when the
    player leaves (Ctrl-D, `quit`)."""
    try:
        return ask("Play", choices, default, input=input, output=output, out=out, no_game=no_game)
    except EOFError:
        return None


def start_over(game: str, path: Path, error: Exception, input: Input | None = None, output: Output | None = None,
               out: Any = None) -> bool:
    """At ``referee GAME play`` on a save that cannot be read (``error``, one line: what is wrong with it): whether the
    player starts a new game there (True: the file is then kept in ``PATH.prev``, as `new --force` keeps it) or leaves it
    as it is (False: `quit`, Ctrl-D or ``leave``). The question is asked only where a new game is the way on the refusal
    offers (:meth:`referee.clitools.GameCommands.damaged`)."""
    from referee import clitools
    from referee.save import prev_path

    out = out or clitools.console()
    said = str(error).split(": `", 1)[0].rstrip(".")  # its one-shot way on (`new --force ...`) is the question below
    out.print(f"{said}.", style="bold red", markup=False)  # (a file name first: never capitalised)
    choices = [("new", f"start a new game here; this file is kept as it is in {clitools.shown_file(prev_path(path))}"),
               ("leave", "leave the file as it is and quit")]
    return _play_question(choices, "leave", "Answer this question first: new starts a new game here, leave quits (nothing is "
                                            "changed).", input, output, out) == "new"


def as_sentence(text: str) -> str:
    """A refusal as the table prints it: a sentence, its first letter a capital (``You have already learned Shield``) and a
    full stop at its end where none ends it; a text that starts with a quote or a command in back quotes is left so
    (forty-first referee breaker, F6: refusals in lower case without a stop beside sentences)."""
    if text[:1].islower():
        text = text[0].upper() + text[1:]
    return text if text.rstrip().endswith((".", "!", "?", ":")) else f"{text.rstrip()}."


def main_loop(session: TableSession, path: Path, note_style: Callable[[str, Any], str | None]) -> int:
    """:func:`run` with the save file ``path`` held (:func:`held`); raises :class:`LockError`. Ended by SIGTERM, SIGHUP or SIGQUIT
    (:class:`pnp.entry.Terminated`), it says where the game is saved and exits with 128 + the signal: every step played
    was saved as it was played, and a hidden prompt was wiped (thirty-third breaker, MED 2)."""
    import logging

    # a terminal closed under a prompt (SIGHUP): prompt_toolkit's shutdown then writes to it, and asyncio logs what that
    # raised as a traceback on standard error (fortieth referee breaker, MED 10); nothing there is for the player
    quiet = logging.getLogger("asyncio")
    if not any(isinstance(handler, logging.NullHandler) for handler in quiet.handlers):
        quiet.addHandler(logging.NullHandler())
    quiet.propagate = False
    with held(path):
        try:
            try:
                return run(session, note_style=note_style)
            except OSError as error:  # the terminal is gone and no SIGHUP came (its parent ignores it): said as a hang-up
                if error.errno not in TERMINAL_GONE:
                    raise
                import signal

                # the SIGHUP that follows a closed terminal, on its way as the session ends, is held as the first signal's
                # followers are: delivered once the interpreter had put the default action back, it killed the process by
                # the signal (exit -1, not 129), seen in a clean-clone CI run of the hang-up test
                hold_later_interrupts()
                raise Terminated(signal.SIGHUP) from None
        except Terminated as ended:
            import signal

            from referee import clitools

            with contextlib.suppress(OSError):  # SIGHUP: the terminal may be gone
                clitools.console().print(f"Ended by {signal.Signals(ended.signal).name}. {_saved_line(session)}", markup=False)
            sys.exit(128 + ended.signal)
