"""Nothing lost: hostile input to `pnp` (a hand-edited or shared cards.toml, an output folder that holds
the user's own files, a build killed midway) gives one line and a non-zero exit, never a traceback, a
hang, a write outside the output folder or a lost file of the user's.

Project issue "Nothing lost: hostile input, crashes, any terminal", the pnp half.
"""
from __future__ import annotations

import dataclasses
import errno
import os
import random
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from pnp import build as builder
from tests.conftest import ROOT

# ---- The output folder is the user's too ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def small_db(db):
    """The bundled database on A4 only, so each build here writes fewer files."""
    return dataclasses.replace(db, print=db.print.model_copy(update={"papers": ("a4",)}))


USER_FILES = {"svg/note.txt": b"my note", "png/my.png": b"\x89PNG mine", "foo-cmyk.pdf": b"%PDF mine",
              "foo-ink-saver.pdf": b"%PDF mine too", "fonts/my-font.txt": b"mine"}


def put_user_files(out: Path) -> None:
    for name, content in USER_FILES.items():
        (out / name).parent.mkdir(parents=True, exist_ok=True)
        (out / name).write_bytes(content)


def user_files_intact(out: Path) -> bool:
    return all((out / name).is_file() and (out / name).read_bytes() == content for name, content in USER_FILES.items())


def snapshot(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def test_a_successful_build_keeps_the_users_files_and_removes_only_what_it_wrote(small_db, tmp_path):
    out = tmp_path / "out"
    builder.build(small_db, out, builder.BuildOptions(color="cmyk"))
    assert (out / "solo-a4-cmyk.pdf").is_file()
    put_user_files(out)
    written = builder.build(small_db, out)
    assert user_files_intact(out)
    assert not (out / "solo-a4-cmyk.pdf").exists()
    listed = builder.read_manifest(out)
    assert listed == {p.relative_to(out).as_posix() for p in written}
    assert set(snapshot(out)) == listed | set(USER_FILES) | {builder.MANIFEST}


@pytest.mark.parametrize("failure", ["writing", "moving in"])
def test_a_failed_build_changes_nothing(small_db, tmp_path, monkeypatch, failure):
    """A build that fails while writing its files, or midway through moving them in (the fifth
    rename: the earlier ones are put back), leaves every file as it was, the user's included."""
    out = tmp_path / "out"
    builder.build(small_db, out, builder.BuildOptions(color="cmyk"))
    put_user_files(out)
    before = snapshot(out)
    if failure == "writing":
        monkeypatch.setattr(builder, "write_sheets", lambda path, *a, **k: (_ for _ in ()).throw(
            OSError(errno.ENOSPC, "No space left on device", str(path))))
    else:
        real_replace, calls = os.replace, []

        def fifth_fails(source, target):
            calls.append(target)
            if len(calls) == 5:
                raise OSError(errno.ENOSPC, "No space left on device", str(target))
            return real_replace(source, target)

        monkeypatch.setattr(builder.os, "replace", fifth_fails)
    with pytest.raises(OSError) as caught:
        builder.build(small_db, out, builder.BuildOptions(cut_lines=True))
    assert builder.STAGING_PREFIX not in str(caught.value.filename)
    assert snapshot(out) == before


def test_no_symbolic_link_inside_the_output_folder_is_followed(small_db, tmp_path):
    """DIR/png a link to a folder elsewhere, listed by an earlier build: a build that no longer writes
    png/ removes nothing through it; DIR/svg a link: the build is refused before anything changes; a
    manifest edited to name a file outside DIR removes nothing there."""
    out, elsewhere = tmp_path / "out", tmp_path / "elsewhere"
    builder.build(small_db, out)
    elsewhere.mkdir()
    (elsewhere / "solo-fronts-1.png").write_bytes(b"not yours")
    (out / "png").symlink_to(elsewhere, target_is_directory=True)
    (out / "outside.txt").write_bytes(b"x")
    with (out / builder.MANIFEST).open("a", encoding="utf-8") as manifest:
        manifest.write("png/solo-fronts-1.png\n../elsewhere/solo-fronts-1.png\n/etc/hostname\n")
    builder.build(small_db, out)
    assert (elsewhere / "solo-fronts-1.png").read_bytes() == b"not yours"
    assert (out / "png").is_symlink()
    # svg/ a link: refused, one OSError naming it, nothing changed
    shutil.move(out / "svg", tmp_path / "real-svg")
    (out / "svg").symlink_to(tmp_path / "real-svg", target_is_directory=True)
    before, elsewhere_before = snapshot(out), snapshot(tmp_path / "real-svg")
    with pytest.raises(OSError) as caught:
        builder.build(small_db, out, builder.BuildOptions(cut_lines=True))
    assert caught.value.filename == str(out / "svg") and "symbolic link" in caught.value.strerror
    assert snapshot(out) == before and snapshot(tmp_path / "real-svg") == elsewhere_before


def test_a_refused_build_is_one_line_from_the_command_line(tmp_path):
    from click.testing import CliRunner

    from pnp.cli import main

    out = tmp_path / "out"
    out.mkdir()
    (tmp_path / "elsewhere").mkdir()
    (out / "svg").symlink_to(tmp_path / "elsewhere", target_is_directory=True)
    result = CliRunner().invoke(main, ["build", "--db", str(ROOT / "cards.toml"), "--out", str(out), "--paper", "a4"])
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert result.output.strip().splitlines()[-1] == (
        f"Error: {out / 'svg'}: cannot write: is a symbolic link; pnp build writes only plain files and folders "
        f"inside the output folder, so move it away or choose another --out; nothing in {out} was changed")
    assert list((tmp_path / "elsewhere").iterdir()) == []


# A build in a child process, each rename slowed by 4 ms so that random kill moments often land while
# the files are moved in; the child is killed with SIGKILL, which no handler can catch.
_SLOW_CHILD = ("import os, sys, time\n"
               "real = os.replace\n"
               "os.replace = lambda source, target: (time.sleep(0.004), real(source, target))[1]\n"
               "from pnp.cli import main\n"
               "main(sys.argv[1:], prog_name='pnp')\n")


def _child(out: Path) -> subprocess.Popen:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.Popen([sys.executable, "-c", _SLOW_CHILD, "build", "--db", str(ROOT / "cards.toml"),
                             "--out", str(out), "--paper", "a4"], cwd=ROOT, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def kill_builds(small_db, tmp_path: Path, kills: int, seed: int) -> dict[str, int]:
    """Kill ``kills`` builds at random moments; after each, check the folder (see the test's docstring).
    Returns how many kills left the old output, a mix of whole files, or the new output."""
    old_ref = tmp_path / "old"
    builder.build(dataclasses.replace(small_db, print=small_db.print.model_copy(update={"bleed_mm": 2.0})),
                  old_ref, builder.BuildOptions(color="cmyk"))
    new_ref = tmp_path / "new"
    started = time.monotonic()
    assert _child(new_ref).wait() == 0
    duration = time.monotonic() - started
    old, new = snapshot(old_ref), snapshot(new_ref)
    old_names, new_names = builder.read_manifest(old_ref), builder.read_manifest(new_ref)
    assert old_names != new_names and all(old[n] != new[n] for n in old_names & new_names if n.endswith(".pdf"))
    outcomes = {"old": 0, "mixed": 0, "new": 0}
    chance = random.Random(seed)
    for number in range(kills):
        out = tmp_path / f"kill-{number}"
        shutil.copytree(old_ref, out)
        put_user_files(out)
        child = _child(out)
        time.sleep(chance.uniform(0.4 * duration, 1.1 * duration))
        child.kill()
        child.wait()
        assert user_files_intact(out)
        now = {k: v for k, v in snapshot(out).items() if not k.startswith(builder.STAGING_PREFIX)}
        listed = builder.read_manifest(out)
        for name in old_names | new_names:  # whole: one build's version, never partial
            if name in now:
                assert now[name] in (old.get(name), new.get(name)), name
        assert set(now) <= old_names | new_names | set(USER_FILES) | {builder.MANIFEST}
        if listed == old_names:
            assert old_names <= set(now), "a file of the previous build is missing"
            outcomes["old" if all(now[n] == old[n] for n in old_names) else "mixed"] += 1
        else:
            assert new_names <= listed <= old_names | new_names
            assert all(now[n] == new[n] for n in new_names), "the manifest names a build not wholly in place"
            outcomes["new"] += 1
    # the next build completes a killed one: the new output, the user's files, no staging folder
    out = tmp_path / f"kill-{kills - 1}"
    assert _child(out).wait() == 0
    assert {k: v for k, v in snapshot(out).items() if k not in USER_FILES} == new and user_files_intact(out)
    return outcomes


def test_a_build_killed_at_random_moments_leaves_every_file_whole(small_db, tmp_path):
    """SIGKILL at 2 random moments: every path holds the old or the new version of its file, whole;
    the manifest names the old build (all its files present) or the new one (all its files new); the
    user's files are intact; the next build completes the output. The slow run kills 30 times."""
    outcomes = kill_builds(small_db, tmp_path, kills=2, seed=13)
    assert sum(outcomes.values()) == 2


@pytest.mark.slow
def test_a_build_killed_at_many_random_moments_leaves_every_file_whole(small_db, tmp_path):
    outcomes = kill_builds(small_db, tmp_path, kills=30, seed=1313)
    print(f"kills: {outcomes}")
    assert outcomes["mixed"] > 0 and outcomes["old"] + outcomes["new"] > 0  # the kills reached the swap
