"""The two-player referee of *Ruin & Renewal I*: state, events, rules, the game file and ``referee duel``."""
