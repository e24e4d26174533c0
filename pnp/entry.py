"""The console scripts' entry points (``pnp``, and ``referee`` through :func:`run`): a Ctrl-C while the command's
modules are still being imported (a third of a second, the moment a player who sees a typo presses it) is the one line
every later Ctrl-C gives, never a traceback (thirty-third referee breaker, HIGH 5). This module imports nothing heavy."""
from __future__ import annotations

import gc
import sys

ABORTED = "Aborted: nothing was changed."
"""What an interrupted command says (as :class:`pnp.oneline.OneLineGroup` says it once the command runs)."""


TERMINATING = ("SIGTERM", "SIGHUP", "SIGQUIT")
"""The signals :func:`terminate_as_interrupt` ends a command with as a Ctrl-C does: ``kill``, a closed terminal, and
SIGQUIT (Ctrl-\\ at a one-shot prompt, ``kill -QUIT``; thirty-sixth referee breaker, LOW 12: Python's default left a
hidden prompt's dice on the screen and the save's lock behind)."""


class Terminated(KeyboardInterrupt):
    """SIGTERM, SIGHUP or SIGQUIT (``signal``, its number) received while a command runs under :func:`terminate_as_interrupt`: raised
    where the command is, as a Ctrl-C is, so that what a Ctrl-C cleans up (a hidden prompt's dice erased, the terminal's
    echo restored, a lock and a temporary file removed) is cleaned up too; the command then exits with 128 + ``signal``."""

    def __init__(self, signal: int) -> None:
        super().__init__(signal)
        self.signal = signal


def terminate_as_interrupt() -> None:
    """From now on, the :data:`TERMINATING` signals (SIGTERM, SIGHUP, SIGQUIT) raise :class:`Terminated` in the main thread,
    and SIGINT raises :class:`KeyboardInterrupt` as Python's own handler does (where the platform has them and no other
    handler than Python's default is set; in another thread nothing is installed). Thirty-third referee breaker, MED 2:
    a `kill` or a closed terminal at `referee duel play`'s hidden prompt left that side's dice on the screen.

    The first of them to come holds every later one (:func:`hold_later_interrupts`) until the process exits: the command
    cleans up and says so in one line, never cut short by a second signal (thirty-ninth pnp breaker, LOW 10: a burst of
    SIGINTs 0.5 ms apart printed "Exception ignored in threading._shutdown ... KeyboardInterrupt" tracebacks after
    "Aborted: nothing was changed.", or killed the build by the signal with its staging folder left)."""
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread():
        return
    import os

    _INSTALLED_BY[:] = [os.getpid()]
    for name in ("SIGINT", *TERMINATING):
        number = getattr(signal, name, None)
        usual = (signal.default_int_handler,) if name == "SIGINT" else (signal.SIG_DFL, None)
        if number is not None and signal.getsignal(number) in usual:
            signal.signal(number, _interrupted)


_INSTALLED_BY: list[int] = []
"""The process that installed the handlers (:func:`terminate_as_interrupt`): a forked child inherits them, and ends by
the signal's default action instead."""

_HELD: dict[int, object] = {}
"""The signals :func:`hold_later_interrupts` holds (SIGINT and :data:`TERMINATING`), each with its handler before; empty
while none is held."""

_MASK: list[set[int]] = []
"""The main thread's signal mask before :func:`hold_later_interrupts` blocked the held signals in it (one set, or none)."""


def _interrupted(number: int, frame: object) -> None:
    """The handler :func:`terminate_as_interrupt` installs: the first signal holds the later ones
    (:func:`hold_later_interrupts`) and raises :class:`KeyboardInterrupt` (SIGINT) or :class:`Terminated`; one handled
    while the first is (a handler run inside this one) does nothing."""
    if _HELD:
        return
    import os

    if _INSTALLED_BY and os.getpid() != _INSTALLED_BY[0]:  # a forked child (a `referee simulate` worker) before it set
        import signal  # its own handlers: it ends as the signal ends any process, never with the parent's clean-up by

        signal.signal(number, signal.SIG_DFL)  # exception (a traceback from the worker's initializer, seen in CI)
        os.kill(os.getpid(), number)
        return
    hold_later_interrupts()
    if number == 2:  # SIGINT (the signal module is not imported here: it is, by the time a signal comes)
        raise KeyboardInterrupt
    _end_within(TERMINATION_GRACE_SECONDS, 128 + number)
    raise Terminated(number)


TERMINATION_GRACE_SECONDS = 15.0
"""How long a command ended by a :data:`TERMINATING` signal has to clean up (its lock, a hidden prompt's dice, a build's
staging folder: well under a second) before the process ends regardless (:func:`_end_within`)."""


def _end_within(seconds: float, status: int) -> None:
    """End the process with exit ``status`` after ``seconds`` unless it has ended by then: a terminating signal must end
    it, even where the :class:`Terminated` it raises is caught on the way (forty-seventh referee breaker, 4: twice in
    about 70 tries, a table session whose terminal was closed carried on in its event loop, every later signal held, and
    its lock kept every command of the game refused until a `kill -9`). A daemon thread: a process that ends in time
    never waits for it."""
    import os
    import threading

    timer = threading.Timer(seconds, os._exit, args=(status,))
    timer.daemon = True
    timer.start()


def ignored(number: int, frame: object) -> None:
    """A signal handler that does nothing: the signal is ignored. Unlike ``SIG_IGN`` it is safe to install while a signal
    may be on its way: one that came just before is handled by it, where ``SIG_IGN`` made Python write "OSError: Signal 2
    ignored due to race condition" and its traceback to standard error (thirty-ninth pnp breaker, LOW 10)."""


def interrupt_numbers() -> list[int]:
    """The numbers of SIGINT and the :data:`TERMINATING` signals this platform has."""
    import signal

    return [number for number in (getattr(signal, name, None) for name in ("SIGINT", *TERMINATING)) if number is not None]


def hold_later_interrupts(always: bool = False) -> None:
    """Ignore SIGINT and the :data:`TERMINATING` signals from now until the process exits (or :func:`resume_interrupts`):
    an interrupt is ending the command, and a second one while it cleans up (a build's staging folder removed, its lock
    dropped, the one line "Aborted: nothing was changed." written, Python's own shutdown) would cut that short with a
    traceback, or kill the process by the signal (exit status -2, not 130) with the staging folder left (thirty-ninth pnp
    breaker, LOW 10). Each gets a handler that does nothing (:func:`ignored`) and is blocked in the main thread
    (``pthread_sigmask``, where the platform has it): the interpreter puts the default action back on its way out, and
    a blocked signal still waits there when the process ends, never delivered.

    Only in a process whose handlers :func:`terminate_as_interrupt` installed (one started by :func:`run`: ``pnp``,
    ``referee``), or ``always`` (:func:`run`, ending before they were), and only in the main thread; elsewhere (a test's
    in-process run of a command) nothing changes. Raises nothing; a second call does nothing."""
    import signal
    import threading

    if _HELD or threading.current_thread() is not threading.main_thread():
        return
    numbers = interrupt_numbers()
    if not always and not any(signal.getsignal(number) is _interrupted for number in numbers):
        return
    block = getattr(signal, "pthread_sigmask", None)
    for number in numbers:
        _HELD[number] = signal.getsignal(number)
    if block is not None:
        _MASK[:] = [set(block(signal.SIG_BLOCK, numbers))]
    for number in numbers:
        signal.signal(number, ignored)


def resume_interrupts() -> None:
    """Put back the handlers and the signal mask :func:`hold_later_interrupts` set aside, for a command that caught the
    interrupt and goes on (the referee's table prompt asks again after a Ctrl-C): later signals interrupt it as the first
    did. Nothing changes when none is held."""
    import signal

    if not _HELD:
        return
    for number, handler in list(_HELD.items()):
        signal.signal(number, handler)  # type: ignore[arg-type]
    if _MASK:
        signal.pthread_sigmask(signal.SIG_SETMASK, _MASK[0])
    _MASK.clear()
    _HELD.clear()


def interrupts_to_the_main_thread() -> None:
    """Block SIGINT and the :data:`TERMINATING` signals in the calling thread (a helper thread, at its start), so that the
    system gives them to the main thread, whose handlers end the command: a helper thread that took one on the way out,
    once the interpreter had put the default action back, killed the process by the signal (thirty-ninth pnp breaker,
    LOW 10). Does nothing in the main thread or where the platform has no ``pthread_sigmask``."""
    import signal
    import threading

    block = getattr(signal, "pthread_sigmask", None)
    if block is not None and threading.current_thread() is not threading.main_thread():
        block(signal.SIG_BLOCK, interrupt_numbers())


def run(module: str, prepare: object = None, keep_checks: bool = False) -> None:
    """Call ``prepare`` (:func:`terminate_as_interrupt`), import ``module`` (``"pnp.cli"``) and run its click group
    ``main`` (with ``keep_checks``, once it is imported, with :data:`pnp.check_cache.ENABLED` on: a build of unchanged
    files skips the pre-check it passed before); a :class:`KeyboardInterrupt` raised before the command runs is :data:`ABORTED` on standard error and exit
    status 130 (128 + SIGINT, as a shell reports it; nothing has been read or written by then). Thirty-fourth breaker, LOW 21: ``prepare`` ran before this
    guard, and a Ctrl-C while it imported ``threading`` was a traceback. The moments before this function (Python's
    start-up, its ``.pth`` files, the console script's own ``import re``) are out of the project's reach. (``prepare`` is
    typed ``object``, called when callable: ``typing`` or ``collections.abc`` would cost that window some 20 ms.)"""
    gc.disable()  # (see imported())
    try:
        import importlib

        if callable(prepare):
            prepare()
        command = importlib.import_module(module).main
        if keep_checks:
            from pnp import check_cache

            check_cache.ENABLED = True
    except KeyboardInterrupt as error:
        hold_later_interrupts(always=True)  # (the handler did, unless Python's own raised it: prepare had not set it yet)
        sys.stderr.write(ABORTED + "\n")
        raise SystemExit(128 + (error.signal if isinstance(error, Terminated) else 2)) from None  # 2: SIGINT
    finally:
        imported()
    command()


def imported() -> None:
    """End a stretch of imports begun with ``gc.disable()``: what they made (modules, classes, functions: kept until the
    process ends) is moved out of the collector's reach (``gc.freeze``) and collection goes on for what the command
    makes. A collection while importing only walks objects that are all alive; it was some 8% of the instructions of a
    one-shot referee command (issue 14: at most twice ``python -c "import click"``; ``bench/referee_status.py``). Called
    by :func:`run` after the command's module, and by the referee after a game's module (:mod:`referee.cli`)."""
    gc.freeze()
    gc.enable()


def main() -> None:
    """The ``pnp`` command. A SIGTERM, SIGHUP or SIGQUIT ends it as a Ctrl-C does (:func:`terminate_as_interrupt`: a
    build's staging folder and lock removed, the output as it was), with one line and exit status 128 + the signal
    (thirty-seventh pnp breaker, HIGH 1: only the referee installed it, and a killed build left its staging folder and
    lock in the user's output folder, with nothing said). A build of files whose pre-check passed before skips it
    (:mod:`pnp.check_cache`)."""
    run("pnp.cli", prepare=terminate_as_interrupt, keep_checks=True)
