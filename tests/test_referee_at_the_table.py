"""Issue 10, part 4, items 6-10: names typed as printed, `referee table`, the pay-before message, the
terminal map at 60-80 columns, and track notes at a track's end."""
from __future__ import annotations

import json
from dataclasses import replace

import click
import pytest
from click.testing import CliRunner
from rich.console import Console

from referee import clitools
from referee.cli import main
from referee.dice import Dice
from referee.solo import events as ev
from referee.solo import rules, view
from referee.solo.game import SoloGame
from tests.conftest import ROOT
from tests.test_referee_expanded import DB, on_map

DBFILE = str(ROOT / "cards.toml")


def run(save, *args: str, code: int = 0) -> str:
    result = CliRunner().invoke(main, [*args, "--save", str(save), "--db", DBFILE], env={"NO_COLOR": "1"})
    assert result.exit_code == code, result.output
    return result.output


def table(*args: str, code: int = 0):
    result = CliRunner().invoke(main, ["table", *args, "--db", DBFILE])
    assert result.exit_code == code, result.output
    return result


# ---- Item 6: one resolver for every name -------------------------------------------------------------------
@pytest.mark.parametrize("spells", ["thorn hedge,shield", "Thorn Hedge, Shield", "thorn,shi", "solo.spell.thorn-hedge,shield"])
def test_spells_are_named_by_name_id_or_unique_prefix(tmp_path, spells):
    """Setup (R3): the two starting spells, typed as printed, by id or by a unique beginning; a space
    inside a name does not split it, commas do."""
    save = tmp_path / "s.toml"
    run(save, "solo", "new", "--difficulty", "normal", "--spells", spells, "--seed", "2")
    status = json.loads(run(save, "solo", "status", "--json"))
    assert status["spells"] == ["solo.spell.thorn-hedge", "solo.spell.shield"]


def test_an_ambiguous_prefix_is_one_line_listing_the_candidates(tmp_path):
    save = tmp_path / "s.toml"
    result = CliRunner().invoke(main, ["solo", "new", "--difficulty", "normal", "--spells", "s,bind", "--save", str(save), "--db", DBFILE])
    assert result.exit_code == 1 and not save.exists()
    line = result.stderr.strip()
    assert "\n" not in line and "could be any of" in line
    assert {"shield", "shard-knives", "still-water"} <= set(line.split("any of ")[1].split(";")[0].split(", "))


def test_the_resolver_reads_ids_short_ids_names_and_prefixes_alike():
    """One function names every record (spells, quest cards, Elders, servants, tables)."""
    records = [("solo.spell.thorn-hedge", ("Thorn Hedge",)), ("solo.spell.shield", ("Shield",)), ("solo.spell.shard-knives", ("Shard Knives",))]
    for text in ("solo.spell.thorn-hedge", "thorn-hedge", "Thorn Hedge", "THORN  hedge", "thorn", "t"):
        assert clitools.find_record(records, text, "X", "spell", "spells") == "solo.spell.thorn-hedge"
    assert clitools.find_record(records, "shi", "X", "spell", "spells") == "solo.spell.shield"
    with pytest.raises(click.ClickException, match="'sh' could be any of shield, shard-knives"):
        clitools.find_record(records, "sh", "X", "spell", "spells")
    with pytest.raises(click.ClickException, match="X: no spell 'fire'; spells are: thorn-hedge, shield, shard-knives"):
        clitools.find_record(records, "fire", "X", "spell", "spells")


def test_cards_elders_servants_and_casts_are_named_the_same_way(tmp_path):
    save = tmp_path / "s.toml"
    run(save, "solo", "new", "--difficulty", "normal", "--spells", "bind,shield", "--seed", "3")
    assert "Orrin's Crossing" in run(save, "solo", "draw", "--card", "orrin")
    assert "You cast Shield" in run(save, "solo", "cast", "Shield")
    assert "not beside your Character Stats card" in run(save, "solo", "battle", "--elder", "san", code=1)
    assert "could be any of elder-san, elder-maelis, elder-rhun" in run(save, "solo", "battle", "--elder", "elder", code=1)
    save2 = tmp_path / "m.toml"
    run(save2, "solo", "new", "--difficulty", "normal", "--spells", "bind,shield", "--seed", "3")
    run(save2, "solo", "draw", "--card", "dalnish")
    assert "could be any of ghast-1, ghast-2, ghast-3" in run(save2, "solo", "servants", "--servant", "Ghast", "--servant", "ymp-1", code=1)
    run(save2, "solo", "servants", "--servant", "ghast-1", "--servant", "ymp 1", "--place", "1,1", "--place", "6,6")
    assert [s["id"] for s in json.loads(run(save2, "solo", "status", "--json"))["map_battle"]["servants"]] == ["solo.servant.ghast-1", "solo.servant.ymp-1"]


@pytest.mark.parametrize("name", ["battle-loss", "solo.table.battle-loss", "Battle Loss", "battle-l"])
def test_table_ids_are_resolved_too(name):
    assert table(name, "4").output == table("solo.table.battle-loss", "4").output
    assert table(name, "4").output.startswith("Battle Loss, 4:")


# ---- Item 7: the table command without a roll, without an id ---------------------------------------------------
def test_table_alone_lists_the_tables_and_an_id_alone_prints_the_whole_table(db):
    lines = table().output.splitlines()
    assert [line.split()[0] for line in lines] == sorted(t.id for t in db.tables())
    assert all(t.title in table().output for t in db.tables())
    whole = table("battle-loss").output.splitlines()
    loss = db.table("solo.table.battle-loss")
    assert whole[0] == loss.title and len(whole) == 1 + len(loss.rows)
    assert all(row.text in text for row, text in zip(loss.rows, whole[1:]))
    result = table("eldritch", "5", code=2)
    assert "could be any of solo.table.eldritch-1, solo.table.eldritch-2, solo.table.eldritch-3" in result.stderr


# ---- Item 8: paying before the battle ---------------------------------------------------------------------------
def _greywater(mana: int):
    g = SoloGame.new(DB, "normal", ["solo.spell.bind", "solo.spell.shield"], 3)
    g.play(ev.Draw(ev.CardRef("solo.quest.greywater", True)))
    g.log.states[-1] = replace(g.state, mana=mana)
    return g.play(ev.Battle(dice=Dice((6, 6), None), enemy=Dice((1, 1, 1), None), next=ev.CardRef("solo.quest.tural", True)))


def test_greywater_says_the_amount_and_what_was_paid():
    """Greywater: "Pay 1 Mana before the battle" (R42): the note gives the amount; with no Mana it says
    nothing was paid and the battle is fought all the same."""
    s = _greywater(5)
    text = " ".join(s.notes)
    assert "Greywater: pay 1 Mana before the battle" in text and "Mana -1: move the Mana marker to 4." in text and s.mana >= 4
    # thirty-fifth breaker, LOW 14: the card's own text followed in brackets, saying the same twice
    assert text.lower().count("before the battle") == 1, text
    s = _greywater(0)
    text = " ".join(s.notes)
    assert "Greywater: pay 1 Mana before the battle" in text and "you pay 0 of the 1" in text and "(R42)" in text
    assert s.battle is None or s.battle.rolled


# ---- Item 9: the terminal map fits the terminal ---------------------------------------------------------------------
@pytest.mark.parametrize("width", [60, 70, 80])
def test_the_map_fits_60_70_and_80_columns(width):
    g = on_map(3)
    console = Console(width=width, record=True, color_system=None)
    from rich.text import Text

    for line in view.map_picture(g.state, DB, width=console.width):
        text = Text()
        for piece, style in line:
            text.append(piece, style=style or "")
        console.print(text)
    lines = console.export_text().splitlines()
    assert max(map(len, lines)) <= width
    body = "\n".join(lines)
    assert "W" in body and all(f"/{h}" in body.replace(" ", "") for h in ("A2", "I4", "B6"))  # every row, hex names kept


@pytest.mark.parametrize("width", [57, 60, 70, 76, 80, 100, None])
def test_the_map_legend_ends_no_line_in_a_separator_and_notes_only_hidden_numbers(width):
    """Thirty-third breaker, LOW 13 and LOW 18: the legend, wrapped, left its separator (` · `) dangling at a line's end;
    and on a narrow terminal the note "a hex with a marker shows the marker, not its number" was printed beside hexes
    that showed both. No legend line ends in its separator, and the note is printed only when a hex's number gave way."""
    from referee import glyphs

    g = on_map(3)
    lines = ["".join(piece for piece, _ in line).rstrip() for line in view.map_picture(g.state, DB, width=width)]
    separator = glyphs.glyph(glyphs.LEGEND_SEPARATOR, "; ", "utf-8").strip()
    assert not any(line.endswith(separator) for line in lines), lines
    noted = any("in place of its number" in line for line in lines)
    mb = g.state.map_battle
    assert mb is not None
    grid = view.expanded.battle_map(g.state, DB).hex_map
    numbered = {s.hex for s in mb.living if grid[s.hex].number and grid[s.hex].number >= 10} | (
        {mb.warden} if grid[mb.warden].number and grid[mb.warden].number >= 10 else set())
    if width is None or width >= 76:
        assert not noted, lines  # a cell wide enough for a number and its markers
    if noted:
        assert numbered, lines  # only a two-digit number gives way to a marker


def test_a_terminal_too_narrow_for_the_map_is_told_how_wide_it_must_be():
    """README (`referee solo map` fits terminals from 57 columns): below that the view raises
    :class:`view.MapTooNarrow` with both widths, and writes no command (the CLI and the session say where else
    to read the hexes: twenty-eighth breaker)."""
    g = on_map(1)
    with pytest.raises(view.MapTooNarrow) as narrow:
        view.map_picture(g.state, DB, width=40)
    assert (narrow.value.needed, narrow.value.width) == (57, 40) and "`" not in str(narrow.value)
    view.map_picture(g.state, DB, width=57)  # the width it names draws


# ---- Item 10: track notes at a track's end --------------------------------------------------------------------------
def test_a_gain_cut_short_by_the_track_end_says_what_moved():
    """R1: no track rises above 21; the note gives the amount moved and the amount asked."""
    state = replace(rules.new_game(DB, "normal", ["solo.spell.bind", "solo.spell.shield"], 1), spirit=20, mana=1)
    s = rules.adjust(state, DB, spirit=4)
    assert s.spirit == 21 and s.notes == ("Spirit +1 (of +4; the track ends at 21): move the Spirit marker to 21.",)
    s = rules.adjust(replace(state, spirit=21), DB, spirit=4)
    assert s.spirit == 21 and "Spirit +4: nothing changes" in s.notes[0]
    s = rules.adjust(state, DB, mana=-3)
    assert s.mana == 0 and s.notes == ("Mana -1 (of -3; Mana stops at 0): Mana is empty (0).",)
    s = rules.adjust(replace(state, grayking=2), DB, grayking=-3)
    assert s.grayking == 1 and "moves 1 space away from Lassadar (of 3;" in s.notes[0]
    s = rules.adjust(replace(state, spirit=14), DB, spirit=2)
    assert s.notes == ("Spirit +2: move the Spirit marker to 16.",)


def test_a_paragraph_wraps_at_spaces_and_keeps_each_command_whole():
    """At the table (issue 10, found in tmux): on a terminal the Next line wraps at word boundaries and a
    back-quoted command is never split across lines, so it reads and copies whole."""
    text = ("Next: Fight the battle at Orrin's Crossing: you roll 2 dice, the servants 3: `referee solo battle` "
            "(the referee rolls) or `referee solo battle --dice D,D --enemy D,D,D` (your dice).")
    lines = clitools.wrap_paragraph(text, 60)
    assert all(len(line) <= 60 for line in lines) and " ".join(lines) == text
    for command in ("`referee solo battle`", "`referee solo battle --dice D,D --enemy D,D,D`"):
        assert any(command in line for line in lines)
    assert clitools.wrap_paragraph("`" + "x" * 80 + "`", 40) == ["`" + "x" * 80 + "`"]  # longer than a line: left long


@pytest.mark.parametrize("text", [
    "Next: The Shadowmajik choose the Location to fight for: `referee duel marker LOCATION --save n38.toml` (1 The Ember Gate).",
    "Seal it on your device (`referee duel seal --player wardens`), then type the seal it printed here; or",
    "  2 see `referee duel commit --player shadowmajik --sealed SEAL --save /tmp/some/long/path/g.toml`, then",
])
def test_a_command_longer_than_the_line_is_wrapped_by_the_terminal_at_a_blank(text):
    """Thirty-fourth breaker, LOW 23: at 38 columns (the README's least) a command longer than the line was left whole
    and the terminal split it where the columns ran out: `--save n` / `38.toml`, and a lone `,` on a line. It is still
    one line (copied whole), padded at a blank inside the command so that the terminal's rows of 38 cells each end at a
    blank, an option and its value together, no row a lone mark."""
    width = 38
    lines = clitools.wrap_paragraph(text, width)
    assert " ".join(" ".join(lines).split()) == " ".join(text.split())  # every word, in order, once
    rows = [line[i:i + width] for line in lines for i in range(0, len(line), width)]  # as the terminal shows them
    for line in lines:
        assert all(line[i - 1] == " " for i in range(width, len(line), width)), line  # each row ends at a blank
    assert not any(row.strip() in (",", ")", "),", ").") for row in rows), rows
    assert any(row.rstrip().endswith(("--save n38.toml`", "--player wardens`),", "--save /tmp/some/long/path/g.toml`,"))
               for row in rows), rows


@pytest.mark.parametrize("text, quoted", [
    ("`referee duel reveal --save g.toml --open 'wardens=battle 3,5 power 6 #0a1b2c3d4e5f'`",
     "'wardens=battle 3,5 power 6 #0a1b2c3d4e5f'"),
    ("`referee duel new --wardens 'Ana Maria de la Cruz y Lopez' --shadowmajik 'Bo'`", "'Ana Maria de la Cruz y Lopez'"),
    ("`referee duel new --wardens \"Ana Maria de la Cruz y Lopez\" --shadowmajik 'Bo'`", '"Ana Maria de la Cruz y Lopez"'),
    ("`referee duel status --save $'a long save\\'s name with blanks.toml'`", "$'a long save\\'s name with blanks.toml'"),
])
def test_a_command_is_never_padded_inside_a_quoted_argument(text, quoted):
    """Review of the thirty-fourth breaker's LOW 23: the padding that makes the terminal wrap a long command between words
    went at any blank, inside a quoted argument too (`--wardens 'Ana      Maria ...'`, an opening with blanks added),
    which changes what the command says when copied. It goes only at a blank the shell splits words at."""
    lines = clitools.wrap_paragraph(text, 38)
    assert any(quoted in line for line in lines), lines


LINES = ["Undone: council.", "", "Zoë draws Łódź 👍 — the card", "Next: Resolve Hall of Lanterns: `referee solo council --save /tmp/a b.toml`.",
         "Next: " + "word " * 30 + "`referee solo battle --dice 3,5 --save game.toml`"]
STYLES = [None, "bold", "bold green", "bold red", "bold yellow"]
ENVIRONMENTS = [{}, {"FORCE_COLOR": "1"}, {"FORCE_COLOR": "1", "NO_COLOR": "1"}, {"FORCE_COLOR": "1", "TERM": "dumb"},
                {"TTY_COMPATIBLE": "1", "COLUMNS": "30"}, {"FORCE_COLOR": "1", "COLUMNS": "0"}, {"FORCE_COLOR": "", "COLUMNS": "44"},
                {"TTY_COMPATIBLE": "0", "FORCE_COLOR": "1"}, {"FORCE_COLOR": "1", "COLUMNS": "\u00b2"},  # (a digit int() refuses)
                {"FORCE_COLOR": "1", "COLUMNS": "\u0663\u0660"}]  # (30 in Arabic-Indic digits, which int() reads)


@pytest.mark.parametrize("environment", ENVIRONMENTS, ids=lambda e: ",".join(f"{k}={v}" for k, v in e.items()) or "piped")
def test_the_line_console_writes_each_line_as_rich_writes_it(monkeypatch, capsys, environment):
    """Issue 14: the one-shot commands write their notes and Next line without importing rich
    (:class:`referee.clitools.LineConsole`); each line, in each style they use, comes out byte for byte as rich's console
    writes it: piped, on a terminal (forced), without colour (NO_COLOR keeps bold), on a dumb terminal (no style), at a
    width COLUMNS gives (wrapped at spaces, commands whole), and with characters outside ASCII."""
    for name in ("FORCE_COLOR", "NO_COLOR", "TTY_COMPATIBLE", "TERM", "COLUMNS", "LINES"):
        monkeypatch.delenv(name, raising=False)
    for name, value in environment.items():
        monkeypatch.setenv(name, value)
    monkeypatch.setenv("LINES", "24")
    for text in LINES:
        for style in STYLES:
            clitools.console().print(text, style=style, markup=False)
            by_rich = capsys.readouterr().out
            clitools.LineConsole().print(text, style=style, markup=False)
            assert capsys.readouterr().out == by_rich, (text, style)


def test_the_line_console_leaves_to_rich_what_it_does_not_write_itself(capsys, monkeypatch):
    """A tab, a control code, a style of its own, or a renderable go to rich's console (which expands the tab and drops the
    code), so the output is rich's whatever the line."""
    monkeypatch.setenv("FORCE_COLOR", "1")
    line = clitools.LineConsole()
    for text, style in [("a\tb", None), ("bell\x07", "bold"), ("odd", "italic magenta on white")]:
        clitools.console().print(text, style=style, markup=False)
        by_rich = capsys.readouterr().out
        line.print(text, style=style, markup=False)
        assert capsys.readouterr().out == by_rich
    assert line._rich is not None  # made for them
