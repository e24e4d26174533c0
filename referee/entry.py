"""The ``referee`` console script's entry point: :func:`pnp.entry.run` on :mod:`referee.cli`, so that a Ctrl-C while the
command's modules are imported is one line, not a traceback (thirty-third breaker, HIGH 5)."""
from __future__ import annotations

from pnp.entry import run, terminate_as_interrupt


def main() -> None:
    """The ``referee`` command. A SIGTERM or SIGHUP ends it as a Ctrl-C does (:func:`pnp.entry.terminate_as_interrupt`:
    a hidden prompt's dice erased, the terminal restored, the save whole), with exit status 128 + the signal."""
    run("referee.cli", prepare=terminate_as_interrupt)
