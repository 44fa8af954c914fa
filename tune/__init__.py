"""Texel tuning of the evaluation weights (search/weights.py), per game.

datagen.py   self-play games -> labelled quiet positions (data/tune/<game>.txt)
pgndata.py   any engines' PGN games -> the same
positions.py the data file format, and the positions as the engine's arrays
kernels.py   numba: evaluation of a batch of positions, the quiescence test
label.py     a peer's search scores of a data file's positions (the fit's targets)
params.py    the tunable numbers of a game's weights
texel.py     the loss, K, the local search -> search/tuned/<game>.json
pst.py       the per-piece piece-square corrections, fitted all at once (texel --pst)
"""

import argparse

import numpy as np


def sigmoid(x: np.ndarray) -> np.ndarray:
    """The logistic function the fits map scores to expected results with (texel, pst)."""
    return 1.0 / (1.0 + np.exp(-np.clip(x, -60.0, 60.0)))


def game_argument(name: str):
    """The argparse type of the commands' game argument: the game, or a usage error
    (exit status 2) naming the games Leyden knows."""
    from movegen.games import find_game
    try:
        return find_game(name)
    except (KeyError, ValueError) as exc:
        raise argparse.ArgumentTypeError(str(exc).strip("'\"")) from None
