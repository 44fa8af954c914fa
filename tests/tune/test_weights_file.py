"""The tuned-weights file: written by the tuner, read by search/weights.py on top of the
hand weights, and what the engine's evaluation table is built from."""
import json

import numpy as np
import pytest

from movegen.games import find_game
from search.evaluate import eval_table
from search.weights import hand_weights, merge, tuned_file, weights
from tune.params import changes, tunable, with_piece_entries

CAPA = find_game("capablanca")


def _write(directory, game, changed):
    tuned_file(game, directory).write_text(json.dumps({"game": game.name, "weights": changed}))


def test_no_file_means_hand_weights(tmp_path):
    assert weights(CAPA, tmp_path) == hand_weights(CAPA)


def test_round_trip(tmp_path):
    hand = with_piece_entries(CAPA, hand_weights(CAPA))
    tuned = dict(hand, tempo=17, passed_eg=[v + 3 for v in hand["passed_eg"]],
                 material_mg={**hand["material_mg"], "A": 820})
    changed = changes(hand, tuned)
    assert changed == {"tempo": 17, "passed_eg": tuned["passed_eg"], "material_mg": {"A": 820}}
    _write(tmp_path, CAPA, changed)
    read = weights(CAPA, tmp_path)
    assert read["tempo"] == 17 and read["passed_eg"] == tuned["passed_eg"]
    assert read["material_mg"] == {"A": 820}  # only the changed letter; others keep the rule value
    assert changes(hand_weights(CAPA), read) == changed
    # the table the engine builds from the file is the one the tuner evaluated
    assert np.array_equal(eval_table(CAPA, read), eval_table(CAPA, tuned))
    assert not np.array_equal(eval_table(CAPA, read), eval_table(CAPA, hand_weights(CAPA)))
    # a file of another game is not read, but a shuffle game without a file of its own
    # plays with its standard game's
    assert weights(find_game("energizer"), tmp_path) == hand_weights(find_game("energizer"))
    shuffle = find_game("caparandom")
    assert weights(shuffle, tmp_path) == merge(hand_weights(shuffle), changed)
    _write(tmp_path, shuffle, {"tempo": 5})
    assert weights(shuffle, tmp_path) == merge(hand_weights(shuffle), {"tempo": 5})


def test_material_written_out_changes_nothing():
    hand = hand_weights(CAPA)
    full = with_piece_entries(CAPA, hand)
    assert full["material_mg"]["C"] == 900 and "K" not in full["material_mg"]
    assert np.array_equal(eval_table(CAPA, full), eval_table(CAPA, hand))
    names = {p.name for p in tunable(CAPA, full)}
    assert "material_mg[A]" in names and "material_eg[P]" in names
    assert "material_mg[P]" not in names and "aspiration" not in names  # the scale's unit, a search setting


def test_safe_mobility_written_out_per_piece():
    sultan = find_game("sultan")
    hand = dict(hand_weights(sultan), safe_mobility_mg={"N": 5}, safe_mobility_eg={})
    full = with_piece_entries(sultan, hand)
    # every piece but the pawn and king, the Courier (C) included, at 0 where not given
    assert full["safe_mobility_mg"] == {"Q": 0, "R": 0, "B": 0, "N": 5, "C": 0}
    assert np.array_equal(eval_table(sultan, full), eval_table(sultan, hand))
    params = {p.name: p for p in tunable(sultan, full)}
    assert "safe_mobility_eg[C]" in params and not any(n.startswith("safe_mobility_centre") for n in params)
    assert params["safe_mobility_mg[N]"].clamp(-7) == 0  # a safe square is never worth less
    # the other families have no such term to tune
    batteries = find_game("batteries")
    assert with_piece_entries(batteries, hand_weights(batteries))["safe_mobility_mg"] == \
        hand_weights(batteries)["safe_mobility_mg"]


def test_unknown_weight_is_refused(tmp_path):
    _write(tmp_path, CAPA, {"tempo": 5, "no_such_weight": 3})
    with pytest.raises(ValueError, match="no_such_weight"):
        weights(CAPA, tmp_path)
    assert merge({"a": 1}, {}) == {"a": 1}


@pytest.mark.parametrize("key", ["drawish_scale", "no_mate_scale"])
def test_a_zero_divisor_weight_is_refused(tmp_path, key):
    # the kernels divide by these without testing for zero (movegen/jit.py)
    _write(tmp_path, CAPA, {key: 0})
    with pytest.raises(ValueError, match=key):
        weights(CAPA, tmp_path)
    _write(tmp_path, CAPA, {key: 1})
    assert weights(CAPA, tmp_path)[key] == 1
