"""A click group whose usage errors are one line, for both command lines (``pnp`` and ``referee``).

Click prints a bad option as three lines (usage, a hint, the error). People using these tools at the
table get one: ``Error: <what is wrong> (see 'pnp build --help')``, exit code 2, as click's own.
"""
from __future__ import annotations

import sys
from typing import Any

import click


class OneLineGroup(click.Group):
    """A :class:`click.Group` that reports usage errors and aborts on one line of standard error.

    Exit codes stay click's: 2 for a usage error, 1 for other click errors and for an abort (Ctrl-C,
    an empty answer at a prompt). Errors raised by the commands themselves are untouched.
    """

    def main(self, *args: Any, **kwargs: Any) -> Any:
        """Run the command line as :meth:`click.Group.main`, printing click's errors on one line
        and exiting with click's exit code (see the class docstring)."""
        kwargs["standalone_mode"] = False
        try:
            return super().main(*args, **kwargs)
        except click.exceptions.Abort:
            click.echo("Aborted: nothing was changed.", err=True)
            sys.exit(1)
        except click.ClickException as error:
            context = getattr(error, "ctx", None)
            hint = f" (see '{context.command_path} --help')" if isinstance(error, click.UsageError) and context else ""
            click.echo(f"Error: {error.format_message()}{hint}", err=True)
            sys.exit(error.exit_code)
