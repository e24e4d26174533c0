"""Smoke test of the balance simulator (referee.simulate, bench/balance.py's report): a few games of each game, played through the
referee's pure rules, print sane figures (rates between 0 and 1, intervals around them) and every game
ends with a result. Not a timing test."""
from __future__ import annotations

import io
import json
import re

import pytest

from tests.conftest import ROOT


@pytest.fixture(scope="module")
def balance():
    from referee import simulate

    return simulate


def _rates(node):
    """Every rate dict ({k, n, rate, ci}) anywhere in the figures."""
    if isinstance(node, dict):
        if {"k", "n", "rate", "ci"} <= set(node):
            yield node
        for value in node.values():
            yield from _rates(value)
    elif isinstance(node, list):
        for value in node:
            yield from _rates(value)


@pytest.mark.slow
def test_json_figures_are_sane_and_every_game_ends(balance):
    out = io.StringIO()
    returned = balance.main(["--games", "3", "--seed", "7", "--jobs", "1", "--json"], out=out)
    printed = json.loads(out.getvalue())
    assert printed["seed"] == 7 and printed["games_ended"] is True
    assert [d for d in printed["defects"] if d["kind"] in ("cap", "stuck")] == []
    rates = list(_rates(printed))
    assert rates
    for r in rates:
        assert 0 <= r["k"] <= r["n"] and 0.0 <= r["rate"] <= 1.0
        assert 0.0 <= r["ci"][0] <= r["rate"] <= r["ci"][1] <= 1.0
    solo = printed["solo"]
    assert {c["difficulty"] for c in solo["cells"]} == {"beginner", "normal", "advanced"}
    assert {c["policy"] for c in solo["cells"]} == {"random", "sensible"}
    for cell in solo["cells"]:
        assert cell["games"] == 3 and cell["win"]["n"] == 3
        assert sum(cell["losses"].values()) == 3 - cell["win"]["k"]  # every game won or lost: none unfinished
        assert all(0.0 <= share <= 1.0 for share in cell["keys"].values())
        assert cell["cards_drawn"]["min"] >= 1
    for pairing in printed["duel"]["pairings"]:
        assert pairing["games"] == 3 and pairing["unfinished"] == 0
        assert pairing["wardens_win"]["k"] + pairing["shadowmajik_win"]["k"] == 3
        assert pairing["rounds"]["min"] >= 1
        assert sum(c["decided"] for c in pairing["locations"].values()) == 3
    assert returned["solo"]["cells"] == solo["cells"]


@pytest.mark.slow
def test_tables_print_rates_between_0_and_100_percent(balance):
    out = io.StringIO()
    balance.main(["--games", "2", "--jobs", "1"], out=out)
    text = out.getvalue()
    assert "The Grayking is Risen (solo)" in text and "Ruin & Renewal I (duel)" in text
    assert "== Defects:" in text
    percents = [float(p) for p in re.findall(r"(-?\d+(?:\.\d+)?)%", text)]
    assert percents and all(0.0 <= p <= 100.0 for p in percents)
    assert not re.search(r"\bcap\b x\d|\bstuck\b x\d", text)  # no game without a result


def test_a_game_replays_from_its_seed(balance):
    """The same seed and policy give the same game: the figures of a run can be reproduced."""
    db = balance.use_db(ROOT / "cards.toml")
    solo, duel = balance.game_module("solo"), balance.game_module("duel")
    a = solo.play_solo(db, 11, "normal", "sensible", [])
    b = solo.play_solo(db, 11, "normal", "sensible", [])
    assert (a.quest, a.cards, a.commands, a.keys) == (b.quest, b.cards, b.commands, b.keys)
    first = duel.play_duel(db, 11, {"wardens": "random", "shadowmajik": "heuristic"}, [])
    second = duel.play_duel(db, 11, {"wardens": "random", "shadowmajik": "heuristic"}, [])
    assert (first.winner, first.rounds, first.captures) == (second.winner, second.rounds, second.captures)
