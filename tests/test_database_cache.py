"""The cache of databases checked (issue 14: "a validated-database cache keyed by the file's hash and the
project's version, in the user cache dir; a stale or corrupt cache is rebuilt silently, never trusted"):
a file checked once is read back without checking it again; an entry that is corrupt, of another user's
key, or of other bytes is never used, and a database that does not check is never kept."""
from __future__ import annotations

import pytest

from pnp import database, files
from pnp.database import loader
from tests.conftest import ROOT


@pytest.fixture
def own_cache(tmp_path, monkeypatch):
    """This test's own cache and key folders (platformdirs reads $XDG_CACHE_HOME and $XDG_DATA_HOME), and a
    count of the databases checked."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    files._KEYS.clear()
    checked = []
    real = loader._checked
    monkeypatch.setattr(loader, "_checked", lambda *args: checked.append(args[0]) or real(*args))
    yield tmp_path / "cache" / "lassadar" / "databases", checked
    files._KEYS.clear()


def test_a_database_checked_once_is_read_back_unchanged(own_cache, tmp_path):
    folder, checked = own_cache
    copy = tmp_path / "cards.toml"
    copy.write_bytes((ROOT / "cards.toml").read_bytes())
    first = database.load(copy)
    second = database.load(copy)
    assert len(checked) == 1 and len(list(folder.glob("*.pickle"))) == 1
    assert second.fingerprint == first.fingerprint and second.path == copy
    assert [r.id for r in second.records()] == [r.id for r in first.records()] and second.print == first.print
    assert second.line_of("solo.quest.tural", "name") == first.line_of("solo.quest.tural", "name")
    copy.write_bytes(copy.read_bytes() + b"\n# an edit\n")  # other bytes: checked again
    database.load(copy)
    assert len(checked) == 2


def test_a_corrupt_or_foreign_entry_is_checked_again_silently(own_cache, tmp_path, monkeypatch):
    folder, checked = own_cache
    copy = tmp_path / "cards.toml"
    copy.write_bytes((ROOT / "cards.toml").read_bytes())
    database.load(copy)
    entry = next(folder.glob("*.pickle"))
    good = entry.read_bytes()
    for bad in (good[:32] + b"\x80\x05garbage", b"", good[:-1] + bytes([good[-1] ^ 1]), bytes(32) + good[32:]):
        entry.write_bytes(bad)
        assert database.load(copy).fingerprint  # a digest that does not match: never unpickled, checked again
    assert len(checked) == 5
    files._KEYS.clear()
    (tmp_path / "cache" / "lassadar" / files.CACHE_KEY_FILE).write_bytes(bytes(range(32)))  # another user's key
    database.load(copy)
    assert len(checked) == 6  # the entry was written with another key: never read


def test_a_database_that_does_not_check_is_never_kept(own_cache, tmp_path):
    folder, _ = own_cache
    bad = tmp_path / "cards.toml"
    bad.write_text((ROOT / "cards.toml").read_text(encoding="utf-8").replace('title = "Quest"', 'title = ""', 1), encoding="utf-8")
    for _ in range(2):
        with pytest.raises(database.DatabaseError):
            database.load(bad)
    assert not folder.exists() or not list(folder.glob("*.pickle"))


def test_an_entry_filed_under_another_files_name_is_never_used(own_cache, tmp_path):
    """Twelfth breaker: the entry of an edited database (Shield at 7 Mana) copied over the bundled file's
    entry was trusted, so a game on the untouched cards.toml played the edited rules. The digest covers
    the bytes an entry stands for: the misfiled entry is checked again, and the right database loads."""
    folder, checked = own_cache
    source = (ROOT / "cards.toml").read_text(encoding="utf-8")
    right, edited = tmp_path / "right.toml", tmp_path / "edited.toml"
    right.write_text(source, encoding="utf-8")
    assert "cost = { mana = 2 }" in source
    edited.write_text(source.replace("cost = { mana = 2 }", "cost = { mana = 7 }", 1), encoding="utf-8")
    truth = database.load(right).fingerprint
    entry = next(folder.glob("*.pickle"))
    database.load(edited)
    edited_entry = next(p for p in folder.glob("*.pickle") if p != entry)
    entry.write_bytes(edited_entry.read_bytes())  # the edited database's entry under the right file's name
    checked.clear()
    assert database.load(right).fingerprint == truth and checked == [right]


def test_a_one_shot_command_on_a_cached_database_imports_none_of_the_checking(tmp_path):
    """With the database in the cache, ``referee solo status --json`` imports neither the checking (the loader, the
    checks, tomllib, pydantic) nor the table mode's prompt_toolkit, nor rich, and no more does a command played or undone
    (``draw``, ``undo``): issue 14, a one-shot command at most twice ``python -c
    "import click"`` (``python bench/referee_status.py``)."""
    import os
    import subprocess
    import sys

    env = dict(os.environ, XDG_CACHE_HOME=str(tmp_path / "cache"), XDG_DATA_HOME=str(tmp_path / "data"), NO_COLOR="1")
    save = tmp_path / "game.toml"
    new = [sys.executable, "-m", "referee", "solo", "new", "--difficulty", "normal", "--spells", "shield,bind", "--save", str(save)]
    subprocess.run(new, check=True, capture_output=True, cwd=ROOT, env=env)  # checks the database and keeps it in the cache
    script = (
        "import sys\n"
        "from referee.entry import main\n"
        "try:\n"
        "    main()\n"
        "except SystemExit:\n"
        "    pass\n"
        "heavy = ('pnp.database.loader', 'pnp.database.checks', 'tomllib', 'pydantic', 'prompt_toolkit', 'rich')\n"
        "print('IMPORTED', sorted(name for name in heavy if name in sys.modules))\n"
    )
    done = subprocess.run([sys.executable, "-c", script, "solo", "status", "--json", "--save", str(save)], check=True,
                          capture_output=True, text=True, cwd=ROOT, env=env)
    assert '"mana"' in done.stdout  # the status was printed
    assert done.stdout.strip().splitlines()[-1] == "IMPORTED []"
    for command, said in [("draw --card Emberlow", "Next: "), ("undo", "Undone: ")]:  # a command played and one undone print their lines
        # without rich too (referee.clitools.LineConsole, on a terminal as well: tests/test_referee_at_the_table.py)
        done = subprocess.run([sys.executable, "-c", script, "solo", *command.split(), "--save", str(save)], check=True,
                              capture_output=True, text=True, cwd=ROOT, env=env)
        assert said in done.stdout and "Next: " in done.stdout
        assert done.stdout.strip().splitlines()[-1] == "IMPORTED []", command


def test_an_entry_that_is_a_pipe_is_passed_over_without_waiting(own_cache, tmp_path):
    """Helper-162: a cache entry made a named pipe (FIFO) hung `pnp build` for good, read as a file. An entry that is no
    regular file (a pipe, a folder, a link) is no entry: read as none, at once."""
    import os
    import threading

    if not hasattr(os, "mkfifo"):
        pytest.skip("no named pipes here")
    pipe = tmp_path / "entry.pickle"
    os.mkfifo(pipe)
    (tmp_path / "target.pickle").write_bytes(b"x" * 64)
    (tmp_path / "link.pickle").symlink_to(tmp_path / "target.pickle")
    found: list[object] = []
    reader = threading.Thread(target=lambda: found.extend(
        files.read_signed(path, lambda pickled: b"x" * 32) for path in (pipe, tmp_path, tmp_path / "link.pickle")), daemon=True)
    reader.start()
    reader.join(10)
    assert not reader.is_alive() and found == [None, None, None]


def test_a_damaged_key_is_made_again_by_a_command_that_may_make_it(tmp_path, monkeypatch):
    """Helper-162: a key file truncated by accident turned the caches (and the saves' checkpoints) off for good, and said
    nothing. A key file of the wrong length that no process is writing is made again where a key may be made, whole; a
    young one (another process's key being written) is left alone; a folder in its place is said as one."""
    import os

    monkeypatch.setattr(files, "_KEYS", {})
    key = tmp_path / "cache.key"
    key.write_bytes(b"0123456789")
    assert files._secret_key(key, create=True) is None and key.read_bytes() == b"0123456789"  # young: being written?
    old = key.stat().st_mtime - 2 * files.KEY_WRITE_SECONDS
    os.utime(key, (old, old))
    monkeypatch.setattr(files, "_KEYS", {})
    assert files._secret_key(key, create=False) is None and key.read_bytes() == b"0123456789"  # a reader makes nothing
    assert "is damaged (it holds 10 bytes, not 32)" in files.key_problem(key)
    made = files._secret_key(key, create=True)
    assert made is not None and len(made) == files.KEY_BYTES and key.read_bytes() == made
    assert (key.stat().st_mode & 0o777) == 0o600
    monkeypatch.setattr(files, "_KEYS", {})
    assert files._secret_key(key, create=True) == made  # kept, read back
    folder = tmp_path / "folder.key"
    folder.mkdir()
    assert files._secret_key(folder, create=True) is None and "is a folder" in files.key_problem(folder)
    assert not files.key_can_be_made(folder) and files.key_can_be_made(key) and files.key_can_be_made(tmp_path / "none")
