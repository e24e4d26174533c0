"""Table mode's step time: from an answer to the next prompt shown, the referee's own time (issue 12: under
20 ms on this machine), measured over whole games and printed as a ratio to that budget.

Run: ``python bench/table_step.py [GAMES]``. Besides the played games, a new user's whole recorded game
(``tests/fixtures/solo/trial-save.toml``: 239 steps with typed dice and cards, map battles, the Last
Stand with 14 spells, where the aid search is the costliest) is answered again step by step with each
step's one-shot command words, and timed the same way. Each game is played in a :class:`referee.table.TableSession`
as a player at the table answers (Enter for the referee's step, the first choice where there is no
default), with the save written after every step as in a real session; a step is timed from the answer
to the next prompt and its Tab completions being ready (what a player waits for), without the save
file's atomic write (disk time, printed apart). The terminal itself (prompt_toolkit drawing) is not
counted. Prints the median, the 95th percentile and the slowest step, in
ms and as a ratio to the 20 ms budget, and the slowest step's phase.
"""
from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from pnp import database  # noqa: E402
from referee.duel.cli import parse as duel_parse  # noqa: E402
from referee.duel.game import DuelGame  # noqa: E402
from referee.duel.table import DuelTable  # noqa: E402
from referee.solo.cli import TABLE_PATIENCE  # noqa: E402
from referee.solo.cli import parse as solo_parse  # noqa: E402
from referee.solo.game import SoloGame  # noqa: E402
from referee.solo.game import load as load_solo  # noqa: E402
from referee.solo.table import SoloTable  # noqa: E402
from referee.table import TableSession  # noqa: E402

BUDGET_MS = 20.0
STEP_CAP = 400


def timed_saves(saving: list[float]):
    """A save function for :class:`TableSession` that writes the save file as a session does and records
    how long each write took (ms) in ``saving``."""
    def save(game, path) -> None:
        start = time.perf_counter()
        game.save(path)
        saving.append((time.perf_counter() - start) * 1000)

    return save


def timed_answer(session: TableSession, answer: str, saving: list[float], steps: list[tuple[float, str]], saves: list[float]) -> None:
    """Give ``answer`` and time it to the next prompt and its completions (ms, in ``steps`` with the
    phase it was given in), the save file's writes apart (in ``saves``). Exits on a refusal."""
    phase = str(getattr(session.state, "phase", ""))
    saving.clear()
    start = time.perf_counter()
    reply = session.answer(answer)
    session.prompt()
    session.completions()
    total = (time.perf_counter() - start) * 1000
    steps.append((total - sum(saving), phase))
    saves.append(sum(saving))
    if reply.error:
        raise SystemExit(f"refused {answer!r} in {phase}: {reply.error}")


def play(session: TableSession, saving: list[float], steps: list[tuple[float, str]], saves: list[float]) -> None:
    """Answer until the game is over or the cap: Enter where there is a default, else the first choice
    (or the first typed value); a duel placing is the first legal one."""
    from referee.duel import legal as duel_legal
    from referee.duel.events import Commit

    session.prompt()
    for _ in range(STEP_CAP):
        _, question, _ = session.prompt()
        if question is not None and question.over and not question.choices:
            return
        answer = ""
        if question is None and session.variants():  # which of a choice's variants (a spell's rows, its dice): the first
            answer = "1"
        elif question is not None and question.default is None:
            if question.choices:
                answer = "1"
            elif question.values:
                answer = sorted(question.values)[0]
            else:
                commit = next(e for e in duel_legal.iter_legal_events(session.state, session.game.db) if isinstance(e, Commit))
                assert commit.assignment is not None  # the generator names each placing
                answer = commit.assignment.text()
        timed_answer(session, answer, saving, steps, saves)


def replay(session: TableSession, events: list, saving: list[float], steps: list[tuple[float, str]], saves: list[float]) -> None:
    """Answer with the one-shot command words of each recorded event (resolved: dice and cards typed)."""
    from referee.solo.cli import command_line

    session.prompt()
    for event in events:
        if event.kind == "council" and session.game.log.events and session.game.log.events[-1] == event:
            continue  # the session played the Council of Wardens by itself after its card
        timed_answer(session, command_line(event).removeprefix("referee solo "), saving, steps, saves)


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    db = database.load(ROOT / "cards.toml")
    solo: list[tuple[float, str]] = []
    duel: list[tuple[float, str]] = []
    saves: list[float] = []
    with tempfile.TemporaryDirectory() as folder:
        for seed in range(games):
            game = SoloGame.new(db, "normal", ["solo.spell.bind", "solo.spell.shield"], seed)
            saving: list[float] = []
            session = TableSession(game, Path(folder) / f"solo-{seed}.toml", SoloTable(db, solo_parse, patience=TABLE_PATIENCE), save=timed_saves(saving))
            play(session, saving, solo, saves)
            session = TableSession(DuelGame.new(db, seed), Path(folder) / f"duel-{seed}.toml", DuelTable(db, duel_parse),
                                   save=timed_saves(saving))
            play(session, saving, duel, saves)
        recorded = load_solo(ROOT / "tests" / "fixtures" / "solo" / "trial-save.toml", db)
        late: list[tuple[float, str]] = []
        saving = []
        played_with = recorded.db  # the cards it was played with (the bundled copy from before the balance tuning)
        fresh = SoloGame.from_setup(played_with, recorded.log.initial.setup.to_dict(), recorded.log.initial.setup.seed)
        session = TableSession(fresh, Path(folder) / "recorded.toml", SoloTable(played_with, solo_parse, patience=TABLE_PATIENCE),
                               save=timed_saves(saving))
        replay(session, list(recorded.log.events), saving, late, saves)
    for name, steps in (("solo", solo), ("duel", duel), ("recorded solo game", late)):
        times = sorted(t for t, _ in steps)
        median, p95, worst = statistics.median(times), times[int(0.95 * (len(times) - 1))], times[-1]
        slowest = max(steps)[1]
        print(f"{name}: {len(times)} steps in {games} games; median {median:.1f} ms ({median / BUDGET_MS:.2f} of the 20 ms budget), "
              f"95th percentile {p95:.1f} ms ({p95 / BUDGET_MS:.2f}), slowest {worst:.1f} ms ({worst / BUDGET_MS:.2f}, phase {slowest})")
    written = sorted(t for t in saves if t)
    print(f"save file (atomic write with fsync, not counted above): median {statistics.median(written):.1f} ms, "
          f"slowest {written[-1]:.1f} ms over {len(written)} saves")


if __name__ == "__main__":
    main()
