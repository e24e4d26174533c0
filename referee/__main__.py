"""``python -m referee``: the same as the ``referee`` command."""
from referee.entry import main

main()
