"""Checkpoints: the states a save keeps beside its events (issue 14, "Commands cost the same at event 400
as at event 10: keep the current state (or checkpoints) in the save beside the events, verified against a
replay when the save is loaded by `referee ... check` or the tests, not on every command").

What must hold: a game read from its checkpoint is the game a replay gives (every state, the log, the Next
line, the save written back); a command replays at most 31 events whatever the game's length; a checkpoint
that cannot be trusted (edited, another machine's key, another revision of the code) is never used and never
makes a save unreadable; `check` finds a kept state that differs from the replay and `--repair` mends it.
"""
from __future__ import annotations

import os
import random
import shlex
import tomllib
from pathlib import Path

import pytest
import tomli_w
from click.testing import CliRunner

from pnp import files
from referee import checkpoint
from referee.cli import main
from referee.duel import legal as duel_legal
from referee.duel.game import DuelGame
from referee.solo import legal as solo_legal
from referee.solo import rules as solo_rules
from referee.solo.game import SoloGame
from tests.conftest import ROOT


@pytest.fixture(autouse=True)
def own_key(tmp_path, monkeypatch):
    """This test's own checkpoint key (platformdirs reads $XDG_DATA_HOME), forgotten after it."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    files._KEYS.clear()
    yield
    files._KEYS.clear()


def solo_game(db, seed: int, events: int | None = None) -> SoloGame:
    """A solo game of ``seed`` at the beginner difficulty, a seeded random legal event each step, to its
    end or ``events`` events."""
    rng = random.Random(seed)
    game = SoloGame.new(db, "beginner", ("solo.spell.shield", "solo.spell.bind"), seed)
    while game.state.result is None and (events is None or len(game.log.events) < events):
        legal = solo_legal.legal_events(game.state, db)
        if not legal:
            break
        game.play(rng.choice(legal))
    return game


def duel_game(db, seed: int) -> DuelGame:
    """A duel of ``seed``, a seeded random legal event each step (the referee's dice), to its end."""
    rng = random.Random(seed)
    game = DuelGame.new(db, seed)
    while not game.rules.is_over(game.state):
        legal = duel_legal.legal_events(game.state, db)
        if not legal:
            break
        game.play(rng.choice(legal))
    return game


@pytest.mark.slow  # 18 whole games, every state: the exhaustive sweep of the codec (its other tests stay quick)
def test_every_state_of_whole_games_is_written_and_read_back_exactly(db):
    """The codec: each state of 12 whole solo games and 6 whole duels reads back equal, every field (the
    notes too), and writes again as it was read."""
    for make, seeds in ((solo_game, range(12)), (duel_game, range(6))):
        for seed in seeds:
            game = make(db, seed)
            codec = type(game).codec
            for state in game.log.states:
                written = codec.encode(state)
                back = codec.decode(checkpoint._unpack(checkpoint._pack(written)))
                assert back == state and codec.encode(back) == written, (make.__name__, seed)


def test_a_game_read_from_its_checkpoint_is_the_game_a_replay_gives(db, tmp_path):
    for seed in (263, 5):
        game = solo_game(db, seed, events=200)
        path = tmp_path / f"{seed}.toml"
        game.save(path)
        kept = tomllib.loads(path.read_text())["checkpoint"]["at"]
        # every 32nd, the one before the last and the last (a game played here knows the one before: kept, so that an undo
        # replays nothing; issue 14)
        assert kept == [32, 64, 96, 128, 160, 192, 199, 200][:len(kept) - 2] + [len(game.log.events) - 1, len(game.log.events)]
        resumed = SoloGame.rules.load(path, db)
        replayed = SoloGame.rules.check(path, db)[1]
        assert resumed.state == replayed.state and resumed.state.notes == replayed.state.notes
        assert resumed.next_line() == replayed.next_line()
        assert resumed.log_lines(verbose=True) == replayed.log_lines(verbose=True)
        assert resumed.document() == replayed.document()


def test_a_command_replays_at_most_31_events_whatever_the_games_length(db, tmp_path, monkeypatch):
    """Loading a 400-event game applies no event; going back a step (what `undo` does, where ruling 84
    lets it) replays nothing after a command played (the state before the last is kept), and from the nearest kept state
    after an undo: at most 31 events."""
    game = solo_game(db, 263, events=400)
    assert len(game.log.events) == 400
    path = tmp_path / "long.toml"
    game.save(path)
    applied = []
    real = solo_rules.apply
    monkeypatch.setattr(SoloGame.rules, "apply", staticmethod(lambda state, db_, event: applied.append(1) or real(state, db_, event)))
    resumed = SoloGame.rules.load(path, db)
    assert applied == [] and resumed.state == game.state
    resumed.log.pop()  # the first step back, after the game was played: the state it goes back to is kept
    assert applied == [] and resumed.state == game.log.state_at(399)
    resumed.revision = None
    resumed.save(path)
    resumed = SoloGame.rules.load(path, db)
    for _ in range(40):  # a step back after a step back, each saved and read again as separate commands would
        before = len(applied)
        resumed.log.pop()
        resumed.revision = None
        resumed.save(path)
        assert len(applied) - before <= checkpoint.EVERY - 1
        resumed = SoloGame.rules.load(path, db)
    assert applied, "the count of events applied saw none: the undos replayed nothing?"
    assert resumed.state == SoloGame.rules.check(path, db)[1].state


def test_a_command_decodes_only_the_events_it_reads(db, tmp_path, monkeypatch):
    """Issue 14 (the same cost at event 400 as at event 10): a game read from a trusted checkpoint decodes none of its
    400 events for its state, its Next line or the save written back (each event's table as read, which is what a
    replay writes); going back a step decodes the last event alone, and the events read are a replay's."""
    from referee import game as game_module

    game = solo_game(db, 263, events=400)
    path = tmp_path / "long.toml"
    game.save(path)
    replayed = SoloGame.rules.check(path, db)[1]
    decoded: list[int] = []
    real = game_module._decode_event
    monkeypatch.setattr(game_module, "_decode_event", lambda *arguments: decoded.append(arguments[3]) or real(*arguments))
    resumed = SoloGame.rules.load(path, db)
    assert resumed.state == replayed.state and decoded == []
    assert resumed.next_line() == replayed.next_line() and decoded in ([], [400])  # (at most what `undo` would take back)
    assert resumed.document() == replayed.document() and decoded in ([], [400])
    resumed.log.pop()
    assert decoded == [400] and resumed.state == replayed.log.state_at(399)
    assert resumed.log.events == replayed.log.events[:399] and len(decoded) == 400


def test_saved_events_read_as_the_list_of_their_events():
    """:class:`referee.eventlog.SavedEvents` (issue 14): indexes, slices, appends, pops, copies and comparison as a
    list of the decoded events, each decoded once, and the save's tables written back for those read from it."""
    from referee.eventlog import SavedEvents, as_written

    decoded: list[tuple[int, int]] = []  # (its place in the sequence from 1, as the error of one that does not read says; n)

    def decode(number: int, table: dict) -> str:
        decoded.append((number, table["n"]))
        return f"event {table['n']}"

    events = SavedEvents([{"n": n} for n in range(1, 6)], decode)
    assert len(events) == 5 and events[-1] == "event 5" and events[-1] == "event 5" and decoded == [(5, 5)]
    assert events[1:3] == ["event 2", "event 3"] and decoded == [(5, 5), (2, 2), (3, 3)]
    twin = events.copy()
    events.append("event 6")
    assert as_written(events, lambda event: {"again": event}) == [{"n": n} for n in range(1, 6)] + [{"again": "event 6"}]
    assert events.pop() == "event 6" and events.pop() == "event 5" and len(events) == 4 and len(twin) == 5
    events.insert(0, "event 0")
    assert events == ["event 0", "event 1", "event 2", "event 3", "event 4"] and events != ["event 0"]
    assert twin == ["event 1", "event 2", "event 3", "event 4", "event 5"]
    assert decoded == [(5, 5), (2, 2), (3, 3), (2, 1), (5, 4), (1, 1), (4, 4)]  # each once a sequence
    with pytest.raises(IndexError):
        events[5]
    assert as_written(["a"], lambda event: {"again": event}) == [{"again": "a"}]


def _edit_checkpoint(path: Path, change) -> None:
    doc = tomllib.loads(path.read_text())
    change(doc["checkpoint"])
    path.write_text(tomli_w.dumps(doc))


def test_a_checkpoint_that_cannot_be_trusted_is_never_used(db, tmp_path):
    """An edited state (digest kept), a digest of another machine's key, another revision of the code, a
    malformed table: the game is replayed, as if there were no checkpoint, and plays the same."""
    game = solo_game(db, 7, events=70)
    path = tmp_path / "game.toml"
    expected = game.state

    def forged_state(kept):  # the last state's Mana changed, written as the codec writes it
        state = SoloGame.codec.decode(checkpoint._unpack(kept["states"][-1]))
        from dataclasses import replace
        kept["states"][-1] = checkpoint._pack(SoloGame.codec.encode(replace(state, mana=21)))

    edits = [forged_state, lambda kept: kept.update(digest="0" * 64), lambda kept: kept.update(code="another"),
             lambda kept: kept.update(at=[1, 2, 3]), lambda kept: kept.update(states=["not base64!"]),
             lambda kept: kept["at"].__setitem__(0, 2**80),  # (helper-162: a number past 63 bits refused the whole save)
             lambda kept: kept.clear()]
    for edit in edits:
        game.revision = None
        game.save(path)
        _edit_checkpoint(path, edit)
        kept, why = checkpoint.examine(SoloGame.codec, SoloGame.code_revision(), tomllib.loads(path.read_text()))
        assert kept == {} and why and ("another version" in why) == (edit is edits[2]), why  # (only that edit is another version's)
        assert SoloGame.rules.load(path, db).state == expected
    game.revision = None
    game.save(path)
    files._KEYS.clear()
    other = tmp_path / "other machine"
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("XDG_DATA_HOME", str(other))
        why = checkpoint.examine(SoloGame.codec, SoloGame.code_revision(), tomllib.loads(path.read_text()))[1]
        assert why.startswith("no key of this user is kept on this machine yet")  # a machine where nothing was saved yet
        assert not files.machine_key_file().exists()  # holds no key: it makes none by reading
        files.machine_key()  # a machine that saved a game of its own
        kept, why = checkpoint.examine(SoloGame.codec, SoloGame.code_revision(), tomllib.loads(path.read_text()))
        assert kept == {} and "digest" in why
        assert SoloGame.rules.load(path, db).state == expected
    files._KEYS.clear()


def test_a_save_cut_before_its_digest_line_is_said_as_cut_short(db, tmp_path):
    """Forty-first referee breaker, F4: a save cut just before its last line (the checkpoint's digest, written last) was
    read as whole, and `check` called the digest one "written on another machine ... or edited". The game replays from
    its events, which are whole, and the reason says the file was cut short."""
    game = solo_game(db, 7, events=20)
    path = tmp_path / "game.toml"
    game.save(path)
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    assert lines[-1].startswith("digest = ")
    path.write_text("".join(lines[:-1]), encoding="utf-8")
    kept, why = checkpoint.examine(SoloGame.codec, SoloGame.code_revision(), tomllib.loads(path.read_text()))
    assert kept == {} and "cut short" in why and "another machine" not in why, why
    assert SoloGame.rules.load(path, db).state == game.state


def test_check_verifies_a_save_and_repair_mends_a_kept_state_that_differs(db, tmp_path):
    """`referee solo check` replays the game and compares every kept state. A kept state that differs with
    a valid digest (what a fault of the referee would write) is one line, exit 1; --repair writes the save
    again from the replay; the events stay as they were."""
    game = solo_game(db, 11, events=80)
    path = tmp_path / "game.toml"
    game.save(path)
    args = ["solo", "check", "--save", str(path), "--db", str(ROOT / "cards.toml")]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0 and "equal the replay" in result.output, result.output
    doc = tomllib.loads(path.read_text())
    events = doc["events"]
    kept = {n: SoloGame.codec.decode(checkpoint._unpack(s)) for n, s in zip(doc["checkpoint"]["at"], doc["checkpoint"]["states"], strict=True)}
    from dataclasses import replace
    kept[64] = replace(kept[64], spirit=kept[64].spirit - 1)
    del doc["checkpoint"]
    doc["checkpoint"] = checkpoint.table(SoloGame.codec, SoloGame.code_revision(), doc, kept)
    path.write_text(tomli_w.dumps(doc))
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 1 and "after event 64" in result.output and "spirit" in result.output, result.output
    assert len(result.output.strip().splitlines()) == 1
    result = CliRunner().invoke(main, args + ["--repair"])
    assert result.exit_code == 0, result.output
    assert tomllib.loads(path.read_text())["events"] == events
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0 and "equal the replay" in result.output, result.output


def test_repair_never_says_it_wrote_a_checkpoint_it_could_not_write(db, tmp_path):
    """Helper-162: with this user's key file damaged (a folder in its place), `check --repair` said "the checkpoint is
    written again from the replay" and wrote none, and `check` promised that the next command would. Where no key can be
    kept, both say why and that no checkpoint is written; a key file cut short is made again by the repair."""
    game = solo_game(db, 11, events=40)
    path = tmp_path / "game.toml"
    game.save(path)
    args = ["solo", "check", "--save", str(path), "--db", str(ROOT / "cards.toml")]
    key = files.machine_key_file()
    key.unlink()
    key.mkdir()
    files._KEYS.clear()
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0 and "is a folder" in result.output and "no command can write a checkpoint" in result.output
    result = CliRunner().invoke(main, args + ["--repair"])
    assert result.exit_code == 0 and "without a checkpoint" in result.output and "is a folder" in result.output, result.output
    assert checkpoint.KEY not in tomllib.loads(path.read_text())
    key.rmdir()
    key.write_bytes(b"cut short")
    os.utime(key, (0, 0))  # (written long ago: no process is writing it)
    files._KEYS.clear()
    result = CliRunner().invoke(main, args + ["--repair"])
    assert result.exit_code == 0 and "the checkpoint is written again" in result.output, result.output
    assert len(key.read_bytes()) == files.KEY_BYTES and checkpoint.KEY in tomllib.loads(path.read_text())
    assert "equal the replay" in CliRunner().invoke(main, args).output


def test_undone_marks_survive_a_checkpoint(db, tmp_path):
    """Issue 13's rule (undo is no re-roll) holds through a checkpoint: the marks of what the referee showed
    (a save written before ruling 84, with a roll undone) are kept beside the events (referee_shown), and
    the state read back has them as a replay gives it."""
    from tests.test_hostile_referee import _undone_the_old_way

    game = solo_game(db, 3, events=50)
    path = tmp_path / "game.toml"
    shown = game.state.dice_used
    _undone_the_old_way(game)
    game.save(path)
    resumed = SoloGame.rules.load(path, db)
    assert resumed.state.dice_shown == max(shown, resumed.state.dice_used)
    assert resumed.state == SoloGame.rules.check(path, db)[1].state


def test_a_duel_read_from_its_checkpoint_plays_on_as_the_replay(db, tmp_path):
    game = duel_game(db, 21)
    count = len(game.log.events)
    while len(game.log.events) > count // 2:
        game.log.pop()
    path = tmp_path / "duel.toml"
    game.save(path)
    resumed = DuelGame.rules.load(path, db)
    replayed = DuelGame.rules.check(path, db)[1]
    assert resumed.state == replayed.state and resumed.next_line() == replayed.next_line()
    assert duel_legal.legal_events(resumed.state, db) == duel_legal.legal_events(replayed.state, db)


def test_repair_writes_a_checkpoint_that_cannot_be_trusted_again(db, tmp_path):
    """Thirty-sixth breaker, LOW 13: on a save whose checkpoint's digest does not match (a state edited), `check --repair`
    changed nothing and said the line `check` says. `check` says that `--repair` writes it now; `--repair` writes the
    checkpoint again from the replay (the events as they were), after which `check` finds the kept states equal."""
    game = solo_game(db, 11, events=40)
    path = tmp_path / "game.toml"
    game.save(path)
    _edit_checkpoint(path, lambda kept: kept.update(digest="0" * 64))
    events = tomllib.loads(path.read_text())["events"]
    args = ["solo", "check", "--save", str(path), "--db", str(ROOT / "cards.toml")]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0 and "digest does not match" in result.output and "` writes it now" in result.output
    assert f"`referee solo check --repair {shlex.join(args[2:])}`" in result.output  # as typed (forty-sixth breaker, KIND 1)
    before = path.read_bytes()
    result = CliRunner().invoke(main, args + ["--repair"])
    assert result.exit_code == 0 and "written again from the replay" in result.output, result.output
    assert path.read_bytes() != before and tomllib.loads(path.read_text())["events"] == events
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0 and "equal the replay" in result.output, result.output
