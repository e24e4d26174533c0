"""Print-and-play generator for the Shadows Upon Lassadar games.

``pnp.database`` reads and validates ``cards.toml``; ``pnp.layout`` turns each card into a
renderer-neutral Drawing (mm); ``pnp.svg`` and ``pnp.pdf`` draw it; ``pnp.build`` writes the output.
"""
