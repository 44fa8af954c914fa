"""The evaluation network of a game that has one: ``search/nets/<game>.npz``, written by
``python -m tune.network`` (its text explains the shape: (piece, square) features seen
from each side, one clipped-ReLU hidden layer per side with shared weights, a linear
output in centipawns for the side to move).

In the engine the weights are integers in the evaluation table ``ev`` (``put_net``):
the first layer scaled by ``QA`` (a hidden unit is clipped to 0..QA), the output layer
by ``QB``. The hidden sums (the "accumulator", both views) are kept per position ply in
``ss[NET_ACC]`` beside the piece-square sums, and follow a move by adding and removing
the rows of the few features it changes (search/evaluate.py's ``_psq_from_parent``):
integers, so the sums a move leads to equal the sums computed from the board, exactly.
"""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import numpy as np

from movegen import layout as L
from movegen.games import Game
from movegen.tables import geometry

NET_H = 64  #: hidden units per view (fixed: the kernels' loops are compiled for it)
NET_FEATURES = 2048  #: room for 2 sides x piece types x cells (capablanca: 2 x 8 x 80)
#: a network trained over a base (tune.network --base) holds the base's tables too
BASE_KEYS = ("pst_mg", "pst_eg", "phase_w", "maxphase")
QA = 256
QB = 32
NETS_DIR = Path(__file__).resolve().parent / "nets"


def net_path(game: Game) -> Path:
    return NETS_DIR / f"{game.name}.npz"


def feature_table(game: Game, n_types: int) -> tuple[np.ndarray, int]:
    """(table, number of features): ``table[view, code, sq]`` is the feature of a piece of
    cell code ``code`` on padded square ``sq`` seen from ``view`` (0 White, 1 Black): own
    or enemy piece, its type, the square mirrored top to bottom for Black; -1 for an
    empty or unused code or an off-board square."""
    geo = geometry(game)
    cells = geo.files * geo.ranks
    table = np.full((2, 2 * L.BLACK_BIT, L.NSQ_MAX), -1, np.int64)
    for sq in geo.valid:
        f, r = geo.file_rank(sq)
        for view in (0, 1):
            cell = (r if view == 0 else geo.ranks - 1 - r) * geo.files + f
            for colour in (0, 1):
                own = int(colour != view)
                for t in range(1, n_types + 1):
                    table[view, t | (L.BLACK_BIT * colour), sq] = ((own * n_types + t - 1) * cells) + cell
    return table, 2 * n_types * cells


@lru_cache(maxsize=None)
def load_net(game: Game) -> dict | None:
    """The float weights of ``game``'s network, or None when it has none (read once: the
    tuner builds evaluation tables by the thousand)."""
    path = net_path(game)
    if not path.exists():
        return None
    z = np.load(path)
    net = {k: z[k] for k in ("w1", "b1", "w2", "b2") + (BASE_KEYS if "pst_mg" in z.files else ())}
    if str(z["game"]) != game.name or net["b1"].size != NET_H:
        raise ValueError(f"{path}: not a {game.name} network of {NET_H} hidden units")
    return net


def put_net(ev: np.ndarray, game: Game, net: dict, offsets: dict) -> None:
    """Write ``net``'s integer weights into ``ev`` at the table's ``offsets``."""
    table, n = feature_table(game, len(game.pieces))
    if net["w1"].shape != (n, NET_H) or n > NET_FEATURES:
        raise ValueError(f"{game.name}'s network has {net['w1'].shape} first-layer weights, "
                         f"the game {n} features of {NET_H} units")
    ev[offsets["NET_FEAT"]:offsets["NET_FEAT"] + table.size] = table.ravel()
    w1 = np.rint(net["w1"] * QA).astype(np.int64).ravel()
    ev[offsets["NET_W1"]:offsets["NET_W1"] + w1.size] = w1
    ev[offsets["NET_B1"]:offsets["NET_B1"] + NET_H] = np.rint(net["b1"] * QA)
    ev[offsets["NET_W2"]:offsets["NET_W2"] + 2 * NET_H] = np.rint(net["w2"] * QB)
    ev[offsets["NET_B2"]] = int(np.rint(net["b2"][0]))
