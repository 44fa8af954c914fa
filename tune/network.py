"""A small evaluation network for one game, trained on scored positions.

    python -m tune.pgndata capablanca $(find benchmarks -name '*.pgn') --scores --out data/net/capablanca.txt
    python -m tune.network capablanca data/net/capablanca.txt      # -> search/nets/capablanca.npz
    make net GAME=capablanca                                       # both

The network is the classic efficiently-updatable shape: the inputs are (piece, square)
features seen from each side (own or enemy piece, its type, the square mirrored top to
bottom for Black so that both sides see their own pieces coming up the board), one
hidden layer of ``NET_H`` (64) clipped-ReLU units per side sharing one weight matrix, and
a linear output over [side to move's units, other side's units]. Its output is
centipawns from the side to move's view. Shared first-layer weights keep the engine's
update cheap: a move changes a few features, and each changes ``hidden`` sums per side.

Target: ``--score-weight`` times the expectation of the position's search score
(``sigmoid(K * cp)``, the ``cp=`` of the data file, ``K`` fitted to the results) plus the
rest times the game's result, both from the side to move's view; the loss is the mean
squared difference from ``sigmoid(K * output)``. The same loss of Leyden's own
evaluation on the held-out games is printed beside the network's, so the two compare
on equal terms. Trained with Adam on mini-batches (numpy and scipy's sparse products).

With ``--base`` the network learns a correction to a base it is added to: the tapered
material and piece-square sums of the game's hand-written tables (the engine keeps them
anyway), which carry the material a network has to learn from many positions otherwise.
The file then holds the base's tables too (search/evaluate.py ``put_network``).

The weights are written to ``--out`` (an ``.npz`` of float32 arrays and the game's name).
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np
import scipy.sparse as sp

from movegen import layout as L
from movegen.games import Game
from movegen.tables import geometry
from search.network import NET_H, feature_table

from . import game_argument, sigmoid
from .positions import PositionSet, load_positions
from .texel import fit_k


def feature_matrices(data: PositionSet, table: np.ndarray, n_features: int):
    """(side to move's, other side's) sparse 0/1 matrices of the positions' features."""
    n, nsq = data.boards.shape
    codes = data.boards.astype(np.int64)
    codes[codes >= 2 * L.BLACK_BIT] = 0  # off-board cells
    side = data.sts[:, L.S_SIDE].astype(np.int64)
    rows, cols = np.nonzero(codes)
    mats = []
    for flip in (0, 1):
        view = side[rows] ^ flip
        feats = table[view, codes[rows, cols], cols]
        ok = feats >= 0
        m = sp.csr_matrix((np.ones(ok.sum(), np.float32), (rows[ok], feats[ok])),
                          shape=(n, n_features))
        mats.append(m)
    return mats


class Network:
    """Float weights: first layer ``w1`` (features x hidden), ``b1``, output ``w2`` (2 hidden),
    ``b2``; ``forward`` gives centipawns for the side to move."""

    def __init__(self, n_features: int, hidden: int, seed: int = 0):
        rng = np.random.default_rng(seed)
        self.w1 = (rng.standard_normal((n_features, hidden)) * 0.05).astype(np.float32)
        self.b1 = np.full(hidden, 0.5, np.float32)
        self.w2 = (rng.standard_normal(2 * hidden) * 10).astype(np.float32)
        self.b2 = np.zeros(1, np.float32)

    def params(self):
        return [self.w1, self.b1, self.w2, self.b2]

    def forward(self, xs, xo, base=0.0):
        """(pre-activations, hidden units, output); ``base``: each position's base score."""
        a = xs @ self.w1 + self.b1, xo @ self.w1 + self.b1
        h = np.concatenate([np.clip(a[0], 0, 1), np.clip(a[1], 0, 1)], axis=1)
        return a, h, h @ self.w2 + self.b2[0] + base

    def gradients(self, xs, xo, target, k, base=0.0):
        a, h, out = self.forward(xs, xo, base)
        p = sigmoid(k * out)
        d_out = (2 * (p - target) * p * (1 - p) * k / len(target)).astype(np.float32)
        g_w2 = h.T @ d_out
        g_b2 = np.array([d_out.sum()], np.float32)
        hidden = self.b1.size
        dh = np.outer(d_out, self.w2)
        d_a0 = dh[:, :hidden] * ((a[0] > 0) & (a[0] < 1))
        d_a1 = dh[:, hidden:] * ((a[1] > 0) & (a[1] < 1))
        g_w1 = np.asarray(xs.T @ d_a0 + xo.T @ d_a1, np.float32)
        g_b1 = (d_a0.sum(0) + d_a1.sum(0)).astype(np.float32)
        return float(np.mean((p - target) ** 2)), [g_w1, g_b1, g_w2, g_b2]


class Adam:
    def __init__(self, params, lr: float):
        self.lr, self.t = lr, 0
        self.m = [np.zeros_like(p) for p in params]
        self.v = [np.zeros_like(p) for p in params]

    def step(self, params, grads, b1=0.9, b2=0.999, eps=1e-8):
        self.t += 1
        for p, g, m, v in zip(params, grads, self.m, self.v):
            m *= b1
            m += (1 - b1) * g
            v *= b2
            v += (1 - b2) * g * g
            p -= self.lr * (m / (1 - b1 ** self.t)) / (np.sqrt(v / (1 - b2 ** self.t)) + eps)


def mover_view(data: PositionSet, values: np.ndarray) -> np.ndarray:
    """White's-view values (results, expectations) turned to the side to move's."""
    black = data.sts[:, L.S_SIDE] != 0
    return np.where(black, 1 - values, values)


def targets(data: PositionSet, k: float, score_weight: float) -> np.ndarray:
    """The side to move's blended target (see the module text)."""
    expect = sigmoid(k * np.nan_to_num(data.scores))
    white = score_weight * expect + (1 - score_weight) * data.results
    return mover_view(data, white).astype(np.float32)


def base_tables(game: Game) -> dict:
    """The base of ``--base``: the hand-written evaluation's piece-square tables (material
    included, Black's negative) and phase weights, as the engine's table holds them."""
    from search.evaluate import EV, EV_MAXPHASE, eval_table
    from search.weights import weights
    ev = eval_table(game, weights(game))
    return {"pst_mg": EV.view(ev, "EV_PST_MG").copy(), "pst_eg": EV.view(ev, "EV_PST_EG").copy(),
            "phase_w": EV.view(ev, "EV_PHASE_W").copy(), "maxphase": int(ev[EV_MAXPHASE])}


def base_scores(data: PositionSet, base: dict) -> np.ndarray:
    """Each position's base score for the side to move: its pieces' piece-square values,
    tapered by phase in integers exactly as the engine does (search/evaluate.py _taper)."""
    codes = data.boards.astype(np.int64)
    codes[codes >= 2 * L.BLACK_BIT] = 0  # off-board cells
    cells = np.arange(codes.shape[1])
    mg = base["pst_mg"][codes, cells].sum(1)
    eg = base["pst_eg"][codes, cells].sum(1)
    maxp = base["maxphase"]
    phase = np.minimum(base["phase_w"][codes & L.TYPE_MASK].sum(1), maxp)
    white = (mg * phase + eg * (maxp - phase)) // maxp
    return np.where(data.sts[:, L.S_SIDE] != 0, -white, white).astype(np.float32)


def leyden_loss(game: Game, data: PositionSet, target: np.ndarray, k: float) -> float:
    """The loss of the engine's own evaluation on ``data`` (side to move's view)."""
    from movegen.tables import build_tables
    from search.evaluate import build_eval
    from search.state import new_state
    from .kernels import eval_batch
    white = eval_batch(build_tables(game).G, data.boards, data.sts, build_eval(game, network=False), new_state())
    mover = np.where(data.sts[:, L.S_SIDE] != 0, -white, white).astype(np.float64)
    return float(np.mean((sigmoid(k * mover) - target) ** 2))


def load_scored(game: Game, path) -> PositionSet:
    """The scored positions of one data file, read through a cache beside it
    (``PATH.npz``, rebuilt when the data file is newer): parsing millions of FENs takes
    minutes, loading the arrays seconds."""
    path = Path(path)
    cache = path.with_name(path.name + ".npz")
    if cache.exists() and cache.stat().st_mtime >= path.stat().st_mtime:
        z = np.load(cache)
        return PositionSet(game, z["boards"], z["sts"], z["results"], z["games"], z["scores"])
    data, _ = load_positions(game, path)
    data = data.take(np.flatnonzero(~np.isnan(data.scores)))
    np.savez(cache, boards=data.boards, sts=data.sts, results=data.results, games=data.games,
             scores=data.scores)
    return data


def concat(sets: list[PositionSet]) -> PositionSet:
    """One set of several files' positions (their games numbered apart)."""
    offset, games = 0, []
    for s in sets:
        games.append(s.games + offset)
        offset += int(s.games.max(initial=-1)) + 1
    return PositionSet(sets[0].game, *(np.concatenate([getattr(s, f) for s in sets])
                                       for f in ("boards", "sts", "results")),
                       np.concatenate(games), np.concatenate([s.scores for s in sets]))


def mirrored(data: PositionSet) -> PositionSet:
    """The positions reflected left to right (the first file becomes the last): the rules
    of the chess-like games are symmetric that way apart from castling, which the network
    does not see, so a reflected position is worth the same. Twice the positions to learn
    from when a game has few."""
    geo = geometry(data.game)
    perm = np.arange(data.boards.shape[1])
    for sq in geo.valid:
        f, r = geo.file_rank(sq)
        perm[sq] = geo.index(geo.files - 1 - f, r)
    return PositionSet(data.game, data.boards[:, perm], data.sts, data.results, data.games, data.scores)


def train(game: Game, paths, epochs: int = 30, batch: int = 16384,
          lr: float = 0.005, score_weight: float = 0.7, holdout: float = 0.05, seed: int = 0,
          mirror: bool = False, base: dict | None = None, log=print):
    """The network of least validation loss over ``epochs`` passes, ``K``, and that loss.
    ``mirror``: train on every training position and its reflection (``mirrored``);
    ``base``: learn a correction to the base of these tables (``base_tables``)."""
    data = concat([load_scored(game, p) for p in paths])
    train_set, val_set = data.split(holdout, seed)
    if mirror:
        train_set = concat([train_set, mirrored(train_set)])
    k = fit_k(train_set.scores, train_set.results)
    log(f"{len(train_set)} training and {len(val_set)} validation positions; K = {k:.6f} per cp")
    table, n_features = feature_table(game, len(game.pieces))
    xs, xo = feature_matrices(train_set, table, n_features)
    vs, vo = feature_matrices(val_set, table, n_features)
    t_train, t_val = targets(train_set, k, score_weight), targets(val_set, k, score_weight)
    log(f"Leyden's evaluation: validation loss {leyden_loss(game, val_set, t_val, k):.6f}")
    b_train, b_val = (base_scores(train_set, base), base_scores(val_set, base)) if base else (0.0, 0.0)
    net = Network(n_features, NET_H, seed)
    opt = Adam(net.params(), lr)
    rng = np.random.default_rng(seed)
    best = (np.inf, None)
    for epoch in range(1, epochs + 1):
        start, losses = time.perf_counter(), []
        order = rng.permutation(len(t_train))
        for i in range(0, len(order), batch):
            idx = np.sort(order[i:i + batch])
            loss, grads = net.gradients(xs[idx], xo[idx], t_train[idx], k, b_train[idx] if base else 0.0)
            opt.step(net.params(), grads)
            losses.append(loss)
        val = float(np.mean((sigmoid(k * net.forward(vs, vo, b_val)[2]) - t_val) ** 2))
        log(f"epoch {epoch}: training loss {np.mean(losses):.6f}, validation {val:.6f} "
            f"({time.perf_counter() - start:.0f} s)")
        if val < best[0]:
            best = (val, [p.copy() for p in net.params()])
        if epoch == epochs * 2 // 3:
            opt.lr /= 4  # a lower rate for the last third settles the weights
    net.w1, net.b1, net.w2, net.b2 = best[1]
    return net, k, best[0]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m tune.network", description=__doc__.split("\n\n")[0])
    ap.add_argument("game", type=game_argument)
    ap.add_argument("data", nargs="+", help="scored data files (cp=N on each position line)")
    ap.add_argument("--epochs", type=int, default=30, help="passes over the data (default 30)")
    ap.add_argument("--batch", type=int, default=16384, help="positions a step (default 16384)")
    ap.add_argument("--lr", type=float, default=0.005, help="Adam's step (default 0.005; a quarter "
                    "of it for the last third of the epochs)")
    ap.add_argument("--score-weight", type=float, default=0.7,
                    help="the search score's share of the target, the result's the rest (default 0.7)")
    ap.add_argument("--mirror", action="store_true",
                    help="also train on every position reflected left to right (castling aside, "
                         "the chess-like games are symmetric that way): for a game with few positions")
    ap.add_argument("--base", action="store_true",
                    help="learn a correction to the hand-written tapered piece-square sums (material "
                         "included) instead of the whole score: for a game with few positions")
    ap.add_argument("--out", help="weights file (default search/nets/GAME.npz)")
    args = ap.parse_args(argv)
    if args.mirror and args.game.family != L.Family.CHESS:
        print(f"error: --mirror is for the chess-like games, not {args.game.name}", file=sys.stderr)
        return 2
    base = base_tables(args.game) if args.base else None
    net, k, loss = train(args.game, args.data, args.epochs, args.batch, args.lr, args.score_weight,
                         mirror=args.mirror, base=base, log=lambda s: print(s, flush=True))
    out = Path(args.out or f"search/nets/{args.game.name}.npz")
    out.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(out, w1=net.w1, b1=net.b1, w2=net.w2, b2=net.b2, game=args.game.name,
                        k=k, loss=loss, command=" ".join(["python -m tune.network"] + sys.argv[1:]),
                        **(base or {}))
    print(f"{out}: validation loss {loss:.6f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
