"""``python -m pnp``: the same as the ``pnp`` command."""
from pnp.cli import main

main()
