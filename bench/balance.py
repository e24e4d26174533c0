"""The balance report of the simulator, as a script: ``python bench/balance.py [--games N] [--seed S]
[--game solo|duel|both] [--db PATH] [--json] [--starts] [--jobs J]`` prints every figure of
:func:`referee.simulate.main` (each policy, each difficulty, each City Quest and map). The designer's
command is ``referee simulate`` (the same games, fewer figures, ``--plots``)."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from referee.simulate import main  # noqa: E402

if __name__ == "__main__":
    main()
