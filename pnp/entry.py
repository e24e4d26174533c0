"""The console scripts' entry points (``pnp``, and ``referee`` through :func:`run`): a Ctrl-C while the command's
modules are still being imported (a third of a second, the moment a player who sees a typo presses it) is the one line
every later Ctrl-C gives, never a traceback (thirty-third referee breaker, HIGH 5). This module imports nothing heavy."""
from __future__ import annotations

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
    """From now on, the :data:`TERMINATING` signals (SIGTERM, SIGHUP, SIGQUIT) raise :class:`Terminated` in the main thread (where the platform has them; in
    another thread nothing is installed). Thirty-third referee breaker, MED 2: a `kill` or a closed terminal at
    `referee duel play`'s hidden prompt left that side's dice on the screen."""
    import os
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread():
        return
    installed_by = os.getpid()

    def raise_terminated(number: int, frame: object) -> None:
        if os.getpid() != installed_by:  # a forked child (a `referee simulate` worker) before it set its own handlers:
            signal.signal(number, signal.SIG_DFL)  # it ends as the signal ends any process, never with the parent's
            os.kill(os.getpid(), number)  # clean-up by exception (a traceback from the worker's initializer)
            return
        raise Terminated(number)

    for name in TERMINATING:
        number = getattr(signal, name, None)
        if number is not None and signal.getsignal(number) in (signal.SIG_DFL, None):
            signal.signal(number, raise_terminated)


def run(module: str, prepare: object = None) -> None:
    """Call ``prepare`` (:func:`terminate_as_interrupt`), import ``module`` (``"pnp.cli"``) and run its click group
    ``main``; a :class:`KeyboardInterrupt` raised before the command runs is :data:`ABORTED` on standard error and exit
    status 130 (128 + SIGINT, as a shell reports it; nothing has been read or written by then). Thirty-fourth breaker, LOW 21: ``prepare`` ran before this
    guard, and a Ctrl-C while it imported ``threading`` was a traceback. The moments before this function (Python's
    start-up, its ``.pth`` files, the console script's own ``import re``) are out of the project's reach. (``prepare`` is
    typed ``object``, called when callable: ``typing`` or ``collections.abc`` would cost that window some 20 ms.)"""
    try:
        import importlib

        if callable(prepare):
            prepare()
        command = importlib.import_module(module).main
    except KeyboardInterrupt as error:
        sys.stderr.write(ABORTED + "\n")
        raise SystemExit(128 + (error.signal if isinstance(error, Terminated) else 2)) from None  # 2: SIGINT
    command()


def main() -> None:
    """The ``pnp`` command. A SIGTERM, SIGHUP or SIGQUIT ends it as a Ctrl-C does (:func:`terminate_as_interrupt`: a
    build's staging folder and lock removed, the output as it was), with one line and exit status 128 + the signal
    (thirty-seventh pnp breaker, HIGH 1: only the referee installed it, and a killed build left its staging folder and
    lock in the user's output folder, with nothing said)."""
    run("pnp.cli", prepare=terminate_as_interrupt)
