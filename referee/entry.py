"""The ``referee`` console script's entry point: :func:`pnp.entry.run` on :mod:`referee.cli`, so that a Ctrl-C while the
command's modules are imported is one line, not a traceback (thirty-third breaker, HIGH 5)."""
from __future__ import annotations

from pnp.entry import run


def main() -> None:
    """The ``referee`` command."""
    run("referee.cli")
