"""The console scripts' entry points (``pnp``, and ``referee`` through :func:`run`): a Ctrl-C while the command's
modules are still being imported (a third of a second, the moment a player who sees a typo presses it) is the one line
every later Ctrl-C gives, never a traceback (thirty-third referee breaker, HIGH 5). This module imports nothing heavy."""
from __future__ import annotations

import importlib
import sys

ABORTED = "Aborted: nothing was changed."
"""What an interrupted command says (as :class:`pnp.oneline.OneLineGroup` says it once the command runs)."""


def run(module: str) -> None:
    """Import ``module`` (``"pnp.cli"``) and run its click group ``main``; a :class:`KeyboardInterrupt` raised while
    importing is :data:`ABORTED` on standard error and exit status 1 (nothing has been read or written by then)."""
    try:
        command = importlib.import_module(module).main
    except KeyboardInterrupt:
        sys.stderr.write(ABORTED + "\n")
        raise SystemExit(1) from None
    command()


def main() -> None:
    """The ``pnp`` command."""
    run("pnp.cli")
