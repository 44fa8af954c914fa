"""Per-piece piece-square corrections, fitted by gradient (``tune.texel --pst``).

The evaluation's piece-square tables are derived from a few geometric weights (centre,
empty-board mobility, pawn advance), the same shape for every piece. ``pst_mg`` and
``pst_eg`` (search/weights.py) add a correction per piece letter and square: a list of
ranks (White's side first), each of the files from the edge to the centre (the board's
two halves mirrored, so a correction never favours one wing).

Those are hundreds of numbers, too many for Texel's one-at-a-time local search, but the
evaluation is linear in them: a correction for a piece on a square adds its value,
weighted by the game phase (middlegame share ``phase / max``), once per such piece of
White and subtracts it once per such piece of Black on the mirrored square. So the
corrections are fitted all at once by L-BFGS on the same loss, with the rest of the
evaluation held: ``sigmoid(K * (eval + X @ delta))`` against the targets, plus the ridge
on the corrections' size. (The draw scaling of a few endgames is left out of the linear
model; the losses reported are the real evaluation's, rounded corrections included.)
"""
from __future__ import annotations

import numpy as np
from scipy.optimize import minimize

from movegen import layout as L
from movegen.games import Game
from movegen.tables import geometry
from search.evaluate import EV_MAXPHASE, EV_PHASE_W

from . import sigmoid
from .positions import PositionSet

#: the loss is scaled up for L-BFGS, whose stopping tolerances expect gradients near 1
SCALE = 1e4


def empty_tables(game: Game) -> dict:
    """Zero corrections for every piece: {letter: [[0] * half files] * ranks}."""
    half = (game.files + 1) // 2
    return {p.letter: [[0] * half for _ in range(game.ranks)] for p in game.pieces}


class Features:
    """The corrections' columns for a set of positions: ``X @ delta`` is what they add to
    each position's evaluation (White's view). Column order: phase (mg, eg), piece type,
    rank, file from the edge."""

    def __init__(self, game: Game, data: PositionSet, ev: np.ndarray):
        geo = geometry(game)
        W, H = game.files, game.ranks
        self.half, self.types = (W + 1) // 2, len(game.pieces)
        self.size = 2 * self.types * H * self.half
        codes = data.boards.astype(np.int64)
        types, black = codes & L.TYPE_MASK, (codes & L.BLACK_BIT) != 0
        phase = sum((types == t).sum(axis=1) * ev[EV_PHASE_W + t] for t in range(1, self.types + 1))
        mg_share = np.minimum(phase, ev[EV_MAXPHASE]) / ev[EV_MAXPHASE]
        rows, cols, vals = [], [], []
        for s in geo.valid:
            f, r = geo.file_rank(s)
            at = np.flatnonzero(types[:, s] != 0)
            t, b = types[at, s], black[at, s]
            rank = np.where(b, H - 1 - r, r)
            col = (((t - 1) * H + rank) * self.half + min(f, W - 1 - f))
            sign = np.where(b, -1.0, 1.0)
            for offset, share in ((0, mg_share[at]), (self.size // 2, 1 - mg_share[at])):
                rows.append(at)
                cols.append(col + offset)
                vals.append(sign * share)
        self.rows, self.cols, self.vals = (np.concatenate(a) for a in (rows, cols, vals))
        self.n = len(data)

    def apply(self, delta: np.ndarray) -> np.ndarray:
        return np.bincount(self.rows, self.vals * delta[self.cols], minlength=self.n)

    def transpose_apply(self, g: np.ndarray) -> np.ndarray:
        return np.bincount(self.cols, self.vals * g[self.rows], minlength=self.size)


def to_vector(game: Game, w: dict) -> np.ndarray:
    """The corrections of ``w`` as one vector in the Features' column order."""
    out = []
    for key in ("pst_mg", "pst_eg"):
        tables = {**empty_tables(game), **w[key]}
        out += [np.asarray(tables[p.letter], float).ravel() for p in game.pieces]
    return np.concatenate(out)


def from_vector(game: Game, w: dict, vector: np.ndarray) -> dict:
    """``w`` with the corrections of ``vector`` (rounded to centipawns)."""
    half, H = (game.files + 1) // 2, game.ranks
    parts = np.rint(vector).astype(int).reshape(2, len(game.pieces), H, half)
    out = dict(w)
    for key, part in zip(("pst_mg", "pst_eg"), parts):
        out[key] = {p.letter: part[i].tolist() for i, p in enumerate(game.pieces)}
    return out


def fit_pst(obj, w: dict, ridge: float, iterations: int = 500) -> dict:
    """``w`` with its corrections refitted on the training positions of ``obj`` (a
    tune.texel Objective: its game, training set, ``K`` and evaluation): L-BFGS over all
    corrections at once, the rest of the evaluation held, ``ridge`` per squared
    centipawn of correction."""
    game, data = obj.game, obj.train
    ev = obj.table(w)
    x = Features(game, data, ev)
    start = to_vector(game, w)
    base = obj.evals(ev, data) - x.apply(start)  # the evaluation without any correction
    k, targets = obj.k, data.results

    def loss_and_gradient(delta):
        s = sigmoid(k * (base + x.apply(delta)))
        r = s - targets
        loss = np.mean(r * r) + ridge * delta @ delta
        grad = x.transpose_apply(2 * r * s * (1 - s) * k) / len(r) + 2 * ridge * delta
        return SCALE * loss, SCALE * grad

    res = minimize(loss_and_gradient, start, jac=True, method="L-BFGS-B",
                   options={"maxiter": iterations})
    return from_vector(game, w, res.x)
