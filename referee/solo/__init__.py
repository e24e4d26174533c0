"""The solo referee for *The Grayking is Risen*: events, state, rules and the ``referee solo`` commands."""
