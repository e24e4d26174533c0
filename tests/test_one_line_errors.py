"""Defect 3: every click error of both command lines (`pnp`, `referee`) prints ONE line on standard error,
keeping what click says (README: "A rejected command prints one line"), with click's exit code."""
from __future__ import annotations

import pytest
from click.testing import CliRunner

from pnp.cli import main as pnp_main
from pnp.oneline import one_line
from referee.cli import main as referee_main

CASES = [
    # (command line, pieces the one line must hold)
    (["referee", "solo", "warding"], ["Missing argument 'won|retreat' (choose from: won, retreat)", "referee solo warding --help"]),
    (["referee", "solo", "new", "--spells", "bind,shield"], ["Missing option '--difficulty' (choose from: beginner, normal, advanced)"]),
    (["referee", "duel", "roll"], ["Missing option '--player' (choose from: wardens, shadowmajik)"]),
    (["referee", "solo", "warding", "lost"], ["'lost' is not one of 'won', 'retreat'"]),
    (["referee", "duel", "roll", "--player", "orcs"], ["'orcs' is not one of 'wardens', 'shadowmajik'"]),
    (["referee", "table", "solo.table.battle-win", "x"], ["'x' is not a valid integer"]),
    (["referee", "duel", "new", "--seed", "1.5"], ["'1.5' is not a valid integer"]),
    (["referee", "solo", "new", "--difficult", "normal"], ["No such option '--difficult'", "Did you mean '--difficulty'?"]),
    (["referee", "duel", "new", "--seed"], ["Option '--seed' requires an argument"]),
    (["referee", "solo", "draww"], ["No such command 'draww'", "Did you mean 'draw'?"]),
    (["referee", "nosuchgame"], ["No such command 'nosuchgame' (see 'referee --help')"]),
    (["referee", "solo", "status", "extra"], ["Got unexpected extra argument (extra)"]),
    (["pnp", "build", "--paper", "b5"], ["'b5' is not one of 'a4', 'letter'"]),
    (["pnp", "build", "--duplex"], ["Option '--duplex' requires an argument"]),
    (["pnp", "calibrate", "--paper"], ["requires an argument"]),
    (["pnp", "build", "--bleed", "x"], ["--bleed"]),
    (["pnp", "build", "--nosuch"], ["No such option '--nosuch'"]),
    (["pnp", "nosuchcommand"], ["No such command 'nosuchcommand' (see 'pnp --help')"]),
    (["pnp", "list", "extra"], ["Got unexpected extra argument (extra)"]),
]


@pytest.mark.parametrize("line, pieces", CASES, ids=[" ".join(c[0]) for c in CASES])
def test_click_errors_are_one_line_and_keep_their_content(line, pieces):
    """Defect 3: missing argument, missing option with choices, bad choice, bad int, no such option,
    no such command, extra argument: one line `Error: ...`, exit code 2, nothing on standard output."""
    main = {"pnp": pnp_main, "referee": referee_main}[line[0]]
    result = CliRunner().invoke(main, line[1:], env={"NO_COLOR": "1"}, prog_name=line[0])
    assert result.exit_code == 2, result.output
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), result.stderr
    for piece in pieces:
        assert piece in lines[0], lines[0]
    assert "\t" not in lines[0] and "{" not in lines[0] and ". (see" not in lines[0]


def test_one_line_flattens_click_choice_lists_and_line_breaks():
    """Defect 3: the flattening itself, on click 8's wording of a missing choice and on any other break."""
    assert one_line("Missing argument '{won|retreat}'. Choose from:\n\twon,\n\tretreat") == \
        "Missing argument 'won|retreat' (choose from: won, retreat)"
    assert one_line("Missing option '--difficulty'. Choose from:\n\tbeginner,\n\tnormal,\n\tadvanced.") == \
        "Missing option '--difficulty' (choose from: beginner, normal, advanced)"
    assert one_line("first line\n  second line\n") == "first line second line"
    assert one_line("already one line.") == "already one line."


def test_a_long_message_is_cut_at_a_word_and_a_long_list_says_how_many_more():
    """Twenty-sixth breaker (pnp LOW 11): a problem listing twelve templates was cut inside a file name
    ("templates/summar..."). Lists name a few and count the rest (pnp.oneline.listed); a line still too long is cut at
    the end of a word (pnp.oneline.short_line)."""
    from pnp.oneline import listed, short_line

    files = [f"templates/kind{number}.toml:{number}" for number in range(12)]
    assert listed(files, most=4) == "templates/kind0.toml:0, templates/kind1.toml:1, templates/kind2.toml:2, templates/kind3.toml:3 and 8 more"
    assert listed(["a", "b"], conjunction="or") == "a or b" and listed(["a"]) == "a"
    cut = short_line(" ".join(files), limit=100)
    assert len(cut) <= 100 and cut.endswith("...") and cut[:-3] in " ".join(files)
    assert " ".join(files).split(cut[:-3], 1)[1].startswith(" "), cut  # the last file named is whole


@pytest.mark.parametrize("encoding", ["utf-8", "ascii", "cp1252", "utf-16", "utf-32"])
def test_a_plain_file_name_is_written_plain_in_every_encoding(encoding):
    """Forty-third pnp breaker, LOW 8: under PYTHONIOENCODING=utf-16 `cards.toml` was written `$'cards.toml'` (its
    characters' bytes differ from the name's in UTF-16, though each is itself). A name of printable ASCII is written as it
    is; one with a letter the output cannot write as the name's own bytes stays in the `$'...'` form, and a newline in a
    name is never written plain."""
    from pnp.oneline import shown_file

    assert shown_file("cards.toml", encoding) == "cards.toml"
    assert shown_file("a\nb.toml", encoding) == "$'a\\nb.toml'"
    assert shown_file("café.toml", encoding) == ("café.toml" if encoding == "utf-8" else "$'caf\\xc3\\xa9.toml'")


@pytest.mark.parametrize("name, shown", [(" ", "' '"), ("", "''"), (" save.toml", "' save.toml'"), ("a b.toml", "a b.toml")])
def test_a_file_name_that_is_blank_or_has_a_space_at_an_end_is_quoted(name, shown):
    """Forty-ninth referee breaker, POLISH 4: `LASSADAR_DUEL_SAVE=" " referee duel status` said "Error: : no game saved
    here": a name a sentence would hide. Such a name is written quoted as the shell reads it; an inner space is not."""
    from pnp.oneline import shown_file

    assert shown_file(name, "utf-8") == shown
