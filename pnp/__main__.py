"""``python -m pnp``: the same as the ``pnp`` command."""
from pnp.entry import main

main()
