"""The search's settings as data (search/weights.py SEARCH): what the ``Tune`` option
accepts, and that the tables built from them are the game's own unless changed."""
from __future__ import annotations

import numpy as np
import pytest

from movegen import GAMES
from search.evaluate import EV, W_FUTILITY, W_NULL_DIV, build_eval, changed_eval
from search.weights import SEARCH, parse_changes


def test_parse_changes_sorts_and_checks():
    assert parse_changes("razor_margin=280, futility_margin=95") == (
        ("futility_margin", 95), ("razor_margin", 280))
    assert parse_changes("") == ()
    assert parse_changes("tempo=12") == (("tempo", 12),)  # an integer weight every game has


@pytest.mark.parametrize("text, words", [
    ("bogus=1", "unknown setting"),
    ("king_attack_table=3", "unknown setting"),  # a table, not an integer
    ("futility_margin=9.5", "needs an integer"),
    ("prune_depth", "is not name=value"),
    ("null_depth_div=0", "must be from 1"),  # the kernels divide by it
    ("drawish_scale=0", "must be at least 1"),
])
def test_parse_changes_refuses(text, words):
    with pytest.raises(ValueError, match=words):
        parse_changes(text)


@pytest.mark.parametrize("name", ["normal", "batteries", "enders"])
def test_unchanged_settings_give_the_games_own_table(name):
    game = GAMES[name]
    own = build_eval(game)
    assert changed_eval(game, ()) is own
    same = changed_eval(game, tuple(sorted((k, v) for k, v in SEARCH.items() if k != "aspiration")))
    assert np.array_equal(same, own)


def test_changed_settings_reach_the_table():
    game = GAMES["normal"]  # a game that plays SEARCH's own values (capablanca has its own)
    own = build_eval(game)
    ev = changed_eval(game, parse_changes("futility_margin=120,null_depth_div=4,lmr_base=175"))
    assert ev[W_FUTILITY] == 120 and own[W_FUTILITY] == SEARCH["futility_margin"]
    assert ev[W_NULL_DIV] == 4
    # one more ply of reduction everywhere: 1.75 + x rounds down one above 0.75 + x
    lmr, lmr_own = EV.view(ev, "EV_LMR"), EV.view(own, "EV_LMR")
    assert np.array_equal(lmr[1:, 1:], lmr_own[1:, 1:] + 1)
