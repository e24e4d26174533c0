"""A malformed database gives one clear line per problem, `file:line: key: what is wrong`, and exit 1.

Each case in tests/bad_databases.toml is one small edit of the bundled cards.toml. The line must
point at the edited place and the message must name the key and say what would be right.
"""
from __future__ import annotations

import tomllib
from pathlib import Path

import pytest
from click.testing import CliRunner

from pnp import database
from pnp.cli import main
from tests.conftest import ROOT


@pytest.fixture(autouse=True)
def _in_tmp_path(tmp_path, monkeypatch):
    """Run in the test's own folder: an error line names a database there as ``cards.toml:LINE:``
    (:func:`pnp.files.shown_path`), as it does for a player running `pnp check` beside their cards.toml."""
    monkeypatch.chdir(tmp_path)


CASES = tomllib.loads((Path(__file__).parent / "bad_databases.toml").read_text(encoding="utf-8"))["case"]
SOURCE = (ROOT / "cards.toml").read_text(encoding="utf-8")


def edited(case: dict) -> str:
    """The bundled cards.toml with the case's edit (``find`` -> ``replace``), then its second edit if it
    has one (``then_find`` -> ``then_replace``, in the edited text)."""
    assert case["find"] in SOURCE, f"{case['name']}: the text to edit is no longer in cards.toml"
    text = SOURCE.replace(case["find"], case["replace"], 1)
    if "then_find" in case:
        assert case["then_find"] in text, f"{case['name']}: the second text to edit is not in cards.toml"
        text = text.replace(case["then_find"], case["then_replace"], 1)
    return text


def expected_line(case: dict, text: str) -> int:
    lines = text.splitlines()
    at = case["at"].split("\n")[0]
    hits = [n for n, line in enumerate(lines, 1) if at in line]
    assert hits, case["name"]
    return hits[case.get("at_occurrence", 1) - 1] + case.get("expect_line_offset", 0)


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_bad_database_gives_one_clear_line(tmp_path, case):
    text = edited(case)
    path = tmp_path / "cards.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(database.DatabaseError) as caught:
        database.load(path)
    lines = [str(p) for p in caught.value.problems]
    expect = case["expect"].replace("{first_line}", str(expected_line({**case, "at_occurrence": 1}, text)))
    assert lines == [f"cards.toml:{expected_line(case, text)}: {expect}"]


def test_check_prints_every_problem_at_once_and_exits_1(tmp_path):
    """Two unrelated mistakes are both reported by one `pnp check` run, one line each, no traceback."""
    text = SOURCE.replace("win = 5\nloss = 2", 'win = "5"\nloss = 2', 1).replace('opens = ["solo.spell.glass-lake"]', 'opens = ["nowhere.spell"]', 1)
    path = tmp_path / "cards.toml"
    path.write_text(text, encoding="utf-8")
    result = CliRunner().invoke(main, ["check", "--db", str(path)])
    assert result.exit_code == 1
    assert "Traceback" not in result.output
    problem_lines = [line for line in result.output.splitlines() if line.startswith("cards.toml:")]
    assert len(problem_lines) == 2  # a record with a type error does not hide another record's bad reference
    text = SOURCE.replace('opens = ["solo.spell.glass-lake"]', 'opens = ["solo.spell.nowhere"]', 1)
    text = text.replace('back = "solo.back.servant"', 'back = "solo.back.none"', 1)
    path.write_text(text, encoding="utf-8")
    result = CliRunner().invoke(main, ["check", "--db", str(path)])
    assert result.exit_code == 1
    assert len([line for line in result.output.splitlines() if line.startswith("cards.toml:")]) == 2


def test_check_of_a_malformed_nomograph_table_is_one_line(tmp_path):
    """`[duel.rules] nomograph_table` names a table that failed its own validation: `pnp check` prints
    that table's one problem and exits 1 (it used to crash with a KeyError in the cross checks)."""
    case = next(c for c in CASES if c["name"].startswith("a malformed nomograph table"))
    text = edited(case)
    path = tmp_path / "cards.toml"
    path.write_text(text, encoding="utf-8")
    result = CliRunner().invoke(main, ["check", "--db", str(path)])
    assert result.exit_code == 1
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert "Traceback" not in result.output
    problem_lines = [line for line in result.output.splitlines() if line.startswith("cards.toml:")]
    assert problem_lines == [f"cards.toml:{expected_line(case, text)}: {case['expect']}"]


@pytest.mark.parametrize(
    "content,expect",
    [
        (b"", "cards.toml:1: format: format must be 1, found no `format` line (is the file empty?)"),
        (b"\xff\xfe garbage", "cards.toml:1: file: not UTF-8 text"),
        (b"format = 1\n", "cards.toml:1: duel: missing; this section is required"),
    ],
    ids=["empty", "not utf-8", "only a format line"],
)
def test_degenerate_files(tmp_path, content, expect):
    path = tmp_path / "cards.toml"
    path.write_bytes(content)
    with pytest.raises(database.DatabaseError) as caught:
        database.load(path)
    assert str(caught.value.problems[0]).startswith(expect)


def test_missing_file_is_one_line(tmp_path):
    """One line naming the --db path given (eighth breaker: two lines, a line 0, and advice to pass --db)."""
    result = CliRunner().invoke(main, ["check", "--db", str(tmp_path / "nope.toml")])
    assert result.exit_code == 1
    assert result.output.splitlines() == [f"{tmp_path / 'nope.toml'}: no such file; check the --db path"]
    assert "Traceback" not in result.output


def test_a_broken_record_does_not_hide_other_problems(tmp_path):
    """Four unrelated mistakes in four records: all four are reported by one run."""
    text = (SOURCE.replace("win = 5\nloss = 2", 'win = "five"\nloss = 2', 1)
            .replace('opens = ["solo.spell.glass-lake"]', 'opens = ["solo.spell.nowhere"]', 1)
            .replace('{ roll = [6], text = "move the Grayking marker two spaces away', '{ roll = [5], text = "move the Grayking marker two spaces away', 1)
            .replace('id = "solo.quest.tural"', 'id = "solo.quest.iarith"', 1))
    path = tmp_path / "cards.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(database.DatabaseError) as caught:
        database.load(path)
    keys = [p.key for p in caught.value.problems]
    assert "solo.quest.randven.win" in keys
    assert "solo.spell.hoarfrost.opens[0]" in keys
    assert "solo.table.battle-win.rows" in keys
    assert "solo.quest.iarith.id" in keys


def test_references_to_a_broken_record_are_not_reported_twice(tmp_path):
    """A spell with a type error is reported once; the arrows that point at it are not 'dangling'."""
    text = SOURCE.replace('position = 11\nslot = [4, 1]', 'position = "eleven"\nslot = [4, 1]', 1)
    path = tmp_path / "cards.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(database.DatabaseError) as caught:
        database.load(path)
    assert [p.key for p in caught.value.problems] == ["solo.spell.glass-lake.position"]


def test_a_byte_order_mark_is_accepted(tmp_path):
    """Windows editors may save UTF-8 with a byte-order mark; the database still loads."""
    path = tmp_path / "cards.toml"
    path.write_bytes(b"\xef\xbb\xbf" + SOURCE.encode("utf-8"))
    assert database.load(path).solo.rules.quest_cards == 22


def test_a_duel_that_could_never_end_is_refused(tmp_path):
    """Tenth breaker: `locations_to_win` above a majority of `locations_dealt` passed check; once every
    Location was won, neither side had the count and the game was stuck with nothing to choose."""
    from pnp import database

    for old, new, key in (("locations_to_win = 4", "locations_to_win = 5", "duel.rules.locations_to_win"),
                          ("locations_dealt = 7", "locations_dealt = 12", "duel.rules.locations_dealt")):
        path = tmp_path / "cards.toml"
        path.write_text(SOURCE.replace(old, new, 1), encoding="utf-8")
        with pytest.raises(database.DatabaseError) as caught:
            database.load(path, cache=False)
        assert key in {p.key for p in caught.value.problems}, caught.value.problems


def test_an_accent_typed_as_its_own_character_is_composed_when_read(tmp_path):
    """Issue 15, Text: `cafe\\u0301` (a letter, then a combining accent, as macOS pastes it) was drawn with the
    accent beside the letter, eating the next space. The database is composed (Unicode NFC) when read, so
    every record holds `café` as one letter, as the layouts and the referee see it."""
    path = tmp_path / "cards.toml"
    path.write_text(SOURCE.replace('name = "Shield"', 'name = "Shield Cafe\u0301"', 1)
                    .replace("text = \"Remove the servants' highest die.\"", "text = \"Zoe\u0308 removes the servants' highest die.\""),
                    encoding="utf-8")
    shield = database.load(path, cache=False).get("solo.spell.shield")
    assert (shield.name, shield.text) == ("Shield Café", "Zoë removes the servants' highest die.")


def test_a_missing_relative_database_names_the_folder_it_was_looked_for_in(tmp_path, monkeypatch):
    """Fortieth pnp breaker, LOW 4: "(in CWD)" was added to an absolute path, which names its folder itself; a relative
    path keeps it (where the name was looked for)."""
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["check", "--db", "nope.toml"])
    assert result.exit_code == 1 and result.output.splitlines() == [f"nope.toml: no such file (in {tmp_path}); check the --db path"]
