"""The tuned weights the repository ships (search/tuned/*.json): each is a known game's,
names only weights its evaluation has, is what the engine's evaluation table is built
from, and records a fit that lowered the loss on positions it was not fitted to."""
import json

import numpy as np
import pytest

from movegen.games import find_game
from search.evaluate import build_eval, eval_table
from search.weights import TUNED_DIR, hand_weights, weights

FILES = sorted(TUNED_DIR.glob("*.json"))


def test_there_are_tuned_weights():
    assert "capablanca" in {p.stem for p in FILES}


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_tuned_file(path):
    record = json.loads(path.read_text())
    game = find_game(path.stem)
    assert record["game"] == game.name
    w = weights(game)  # refuses a weight the game does not have
    assert w != hand_weights(game)
    assert np.array_equal(build_eval(game, network=False), eval_table(game, w))  # the hand-written evaluation
    loss = record["loss"]
    assert loss["train_after"] < loss["train_before"]
    assert loss["validation_after"] < loss["validation_before"]
    assert record["positions"]["train"] > record["positions"]["validation"] >= 1000
    assert record["data"]["games"] > 0 and record["commands"]["datagen"] and record["commands"]["tune"]
