"""Texel's tuning of one game's evaluation weights on labelled quiet positions.

    python -m tune.texel capablanca                  # data/tune/capablanca.txt -> search/tuned/capablanca.json
    make tune GAME=capablanca

The loss is the mean squared difference between a position's game result (White's view:
1, 0.5, 0) and ``sigmoid(K * eval)``, with ``eval`` the engine's own static evaluation
in centipawns (White's view), computed for all positions in one numba call
(tune/kernels.py). First ``K`` is fitted to the hand weights, then the weights move by
Texel's local search: each parameter in turn is tried one step up and one step down and
kept where the training loss falls. Every parameter has its own step: doubled (up to
``MAX_STEP``) when it helped, halved (down to 1) when it helped neither way.
It stops when a whole pass at step 1 changes nothing, after ``--passes`` passes or
after ``--minutes``. A ridge term (``--ridge``) holds weights that few positions decide
near their hand values. A held-out share of the games (``--holdout``, every position of each) is never
fitted: its loss before and after says whether the fit generalises. ``--start tuned`` starts
from the game's tuned file instead of the hand weights (a new term fitted on top of an
earlier fit); the file written holds the changes from the hand weights either way.

``--pst`` then fits the per-piece piece-square corrections all at once (tune/pst.py).

``--peer-weight W`` fits to a blend instead of the bare result: W times a stronger
engine's expectation of the position plus (1 - W) times the result. The expectation is
``sigmoid(Kp * cp)`` of the peer's score ``cp=`` (tune/label.py), ``Kp`` fitted so that it
predicts the results best: the peer's judgement, in the data's own win rates. Only scored
positions are used then.

The result is written as data: the changed weights, K, the losses, the data and the
commands, in ``search/tuned/<game>.json``, which search/weights.py reads on top of the
hand weights.
"""
from __future__ import annotations

import argparse
import json
import math
import shlex
import sys
import time
from collections import Counter
from dataclasses import replace
from pathlib import Path

import numpy as np

from movegen.games import Game
from movegen.layout import Family
from search.evaluate import eval_table
from search.state import new_state
from search.weights import TUNED_DIR, hand_weights, tuned_file, weights

from . import game_argument, sigmoid
from .kernels import eval_batch
from .params import Param, changes, tunable, with_piece_entries
from .positions import PositionSet, load_positions
from .pst import fit_pst

DATA_DIR = Path("data/tune")


def texel_loss(evals: np.ndarray, results: np.ndarray, k: float) -> float:
    """Mean squared error between the results and ``sigmoid(k * evals)``."""
    return float(np.mean((results - sigmoid(k * evals.astype(np.float64))) ** 2))


def fit_k(evals: np.ndarray, results: np.ndarray, lo: float = 1e-4, hi: float = 0.1) -> float:
    """The ``k`` in [lo, hi] of least loss (golden-section search on log k; the loss is
    unimodal in k for a fixed evaluation)."""
    a, b = math.log(lo), math.log(hi)
    g = (math.sqrt(5) - 1) / 2
    for _ in range(60):
        c, d = b - g * (b - a), a + g * (b - a)
        if texel_loss(evals, results, math.exp(c)) <= texel_loss(evals, results, math.exp(d)):
            b = d
        else:
            a = c
    return math.exp((a + b) / 2)


class Objective:
    """The loss of weight sets on one game's training and validation positions."""

    def __init__(self, game: Game, train: PositionSet, validation: PositionSet):
        from movegen.tables import build_tables
        self.game = game
        self.G = build_tables(game).G
        self.train, self.validation = train, validation
        self.ss = new_state()
        self.k = 1.0
        self.evaluations = 0

    def table(self, w: dict) -> np.ndarray:
        return eval_table(self.game, w)

    def evals(self, ev: np.ndarray, data: PositionSet) -> np.ndarray:
        self.evaluations += 1
        return eval_batch(self.G, data.boards, data.sts, ev, self.ss)

    def loss(self, ev: np.ndarray, data: PositionSet | None = None) -> float:
        data = self.train if data is None else data
        return texel_loss(self.evals(ev, data), data.results, self.k)


MAX_STEP = 64
#: default ridge: moving a weight 10 centipawns from its hand value must gain 1e-5 in loss
RIDGE = 1e-7
#: the piece-square corrections' ridge: hundreds of them, each of which few positions decide
PST_RIDGE = 1e-8


def initial_step(value: int) -> int:
    return max(2, abs(value) // 8)


def local_search(obj: Objective, w: dict, params: list[Param], passes: int = 50,
                 seconds: float = float("inf"), ridge: float = 0.0, log=print) -> tuple[dict, float]:
    """Texel's local search from weights ``w``; (best weights, their training loss).

    It minimises the training loss plus ``ridge`` times the sum of the squared distances
    of the parameters from their start: a number that few positions decide (a table entry
    of a rare rank) then stays near its start instead of following their noise."""
    start = time.perf_counter()
    origin = {p: p.get(w) for p in params}
    ev = obj.table(w)
    loss = obj.loss(ev)
    penalty = 0.0
    steps = {p: initial_step(p.get(w)) for p in params}
    direction = {p: 1 for p in params}
    for n in range(1, passes + 1):
        moved = 0
        for p in params:
            value = p.get(w)
            for sign in (direction[p], -direction[p]):
                new = p.clamp(value + sign * steps[p])
                if new == value:
                    continue
                cand = p.set(w, new)
                cand_ev = obj.table(cand)
                if np.array_equal(cand_ev, ev):
                    continue  # a number this game's evaluation never reads
                cand_loss = obj.loss(cand_ev)
                cand_penalty = penalty + ridge * ((new - origin[p]) ** 2 - (value - origin[p]) ** 2)
                if cand_loss + cand_penalty < loss + penalty:
                    w, ev, loss, penalty = cand, cand_ev, cand_loss, cand_penalty
                    direction[p] = sign
                    steps[p] = min(2 * steps[p], MAX_STEP)  # it helped: bolder next time
                    moved += 1
                    break
            else:
                steps[p] = max(1, steps[p] // 2)
            if time.perf_counter() - start > seconds:
                break
        elapsed = time.perf_counter() - start
        log(f"pass {n}: train loss {loss:.6f} (+ ridge {penalty:.6f}), {moved} parameters moved, "
            f"{obj.evaluations} batch evaluations, {elapsed:.0f} s")
        if elapsed > seconds:
            log("time limit reached")
            break
        if moved == 0 and all(s == 1 for s in steps.values()):
            break
    return w, loss


def data_summary(headers: list[str]) -> dict:
    """What the game header lines of the data say: games, nodes per move, results."""
    fields = [dict(zip(h.split()[::2], h.split()[1::2])) for h in headers if h.startswith("game ")]
    return {"games": len(fields),
            "nodes_per_move": sorted({int(f["nodes"]) for f in fields if "nodes" in f}),
            "results": dict(Counter(f.get("result", "?") for f in fields))}


def blend(data: PositionSet, peer_k: float, weight: float) -> PositionSet:
    """``data`` with each result replaced by the blend of ``--peer-weight``."""
    expected = sigmoid(peer_k * data.scores)
    return replace(data, results=(1 - weight) * data.results + weight * expected)


def peer_targets(train: PositionSet, validation: PositionSet, weight: float, log=print):
    """Both sets with the blended targets of ``--peer-weight``, ``Kp`` fitted to the
    training results; and the record of it for the tuned file."""
    peer_k = fit_k(train.scores, train.results)
    record = {"weight": weight, "k": round(peer_k, 8),
              "loss": round(texel_loss(train.scores, train.results, peer_k), 6)}
    log(f"peer scores: Kp = {peer_k:.6f} per centipawn, their loss on the results "
        f"{record['loss']:.6f}; targets: {weight:g} x peer + {1 - weight:g} x result")
    return blend(train, peer_k, weight), blend(validation, peer_k, weight), record


def results_loss(obj: Objective, ev: np.ndarray, train: PositionSet, validation: PositionSet) -> float:
    """The validation loss of ``ev`` against the results alone, K fitted to the training
    results: a yardstick that fits to different targets can share."""
    k = fit_k(obj.evals(ev, train), train.results)
    return texel_loss(obj.evals(ev, validation), validation.results, k)


def scored_only(positions: PositionSet) -> PositionSet:
    """The positions that have a peer score; ValueError when none has."""
    scored = np.flatnonzero(~np.isnan(positions.scores))
    if len(scored) == 0:
        raise ValueError("no position has a peer score (make them with python -m tune.label)")
    return positions.take(scored)


def tune(game: Game, data_paths, holdout: float = 0.1, passes: int = 50,
         seconds: float = float("inf"), ridge: float = RIDGE, log=print,
         start: str = "hand", hold: tuple[str, ...] = (), peer_weight: float = 0.0,
         pst_ridge: float | None = None) -> dict:
    """Fit ``game``'s weights on the data files; returns the record of the tuned file.
    ``start``: "hand" starts from the hand weights, "tuned" from the weights the engine
    plays with (its tuned file on top of them: a new term fitted on an old fit).
    ``hold``: weight names kept at their starting values (a term a fit abused).
    ``peer_weight``: the share of the peer's score in the target (see the module text).
    ``pst_ridge``: after the local search, fit the piece-square corrections (tune/pst.py)
    with this ridge; None: leave them as they start."""
    hand = with_piece_entries(game, hand_weights(game))
    unknown = sorted(set(hold) - set(hand))  # before the slow load, not after it
    if unknown:
        raise ValueError(f"no weight named {', '.join(unknown)} in {game.name}")
    if pst_ridge is not None and game.family != Family.CHESS:  # the phase model of tune/pst.py
        raise ValueError(f"--pst fits the chess-like games' tables, not {game.name}'s")
    t0 = time.perf_counter()
    positions, headers = load_positions(game, data_paths)
    if peer_weight > 0:
        positions = scored_only(positions)
    if len(positions) < 20:
        raise ValueError(f"only {len(positions)} positions: too few to tune")
    train, validation = raw = positions.split(holdout)  # raw: the results, a yardstick for every fit
    peer = None
    if peer_weight > 0:
        train, validation, peer = peer_targets(train, validation, peer_weight, log)
    log(f"{len(positions)} positions from {len(headers)} games ({len(train)} training, "
        f"{len(validation)} validation), loaded in {time.perf_counter() - t0:.1f} s")
    obj = Objective(game, train, validation)
    first = hand if start == "hand" else with_piece_entries(game, weights(game))
    ev = obj.table(first)
    obj.k = fit_k(obj.evals(ev, train), train.results)
    before = obj.loss(ev), obj.loss(ev, validation)
    params = [p for p in tunable(game, first) if p.key not in hold]
    log(f"K = {obj.k:.6f} per centipawn; {start} weights: train loss {before[0]:.6f}, "
        f"validation loss {before[1]:.6f}; {len(params)} parameters")
    w, _ = local_search(obj, first, params, passes, seconds, ridge, log)
    ev = obj.table(w)
    if pst_ridge is not None:
        w = fit_pst(obj, w, pst_ridge)
        ev = obj.table(w)
        log(f"piece-square corrections fitted (ridge {pst_ridge:g}): train loss {obj.loss(ev):.6f}")
    after = obj.loss(ev), obj.loss(ev, validation)
    log(f"tuned weights: train loss {after[0]:.6f} (was {before[0]:.6f}), "
        f"validation loss {after[1]:.6f} (was {before[1]:.6f})")
    if peer is not None:
        peer["validation_on_results"] = [round(results_loss(obj, e, *raw), 6)
                                         for e in (obj.table(first), ev)]
        log("validation loss against the results alone (K fitted to the training results): "
            "{:.6f} -> {:.6f}".format(*peer["validation_on_results"]))
    return {
        "game": game.name,
        "weights": changes(hand, w),
        "k": round(obj.k, 8),
        "ridge": ridge,
        "start": start,
        "held": sorted(hold),
        "pst_ridge": pst_ridge,
        "peer": peer,
        "loss": {"train_before": round(before[0], 6), "train_after": round(after[0], 6),
                 "validation_before": round(before[1], 6), "validation_after": round(after[1], 6)},
        "positions": {"train": len(train), "validation": len(validation)},
        "data": data_summary(headers),
    }


def without_out(argv) -> list[str]:
    """The arguments less ``--out``: the record is itself the output, and a scratch path of
    the machine that ran the fit means nothing to whoever reruns it."""
    kept, skip = [], False
    for arg in argv:
        if skip:
            skip = False
        elif arg == "--out":
            skip = True
        elif not arg.startswith("--out="):
            kept.append(arg)
    return kept


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m tune.texel", description=__doc__.split("\n\n")[0])
    ap.add_argument("game", type=game_argument, help="the game (normal, capablanca, ...)")
    ap.add_argument("--data", nargs="+", help=f"data files (default {DATA_DIR}/GAME.txt)")
    ap.add_argument("--holdout", type=float, default=0.1, help="share of the games held out for validation (default 0.1)")
    ap.add_argument("--passes", type=int, default=50, help="most passes (default 50)")
    ap.add_argument("--minutes", type=float, default=30.0, help="time limit (default 30)")
    ap.add_argument("--ridge", type=float, default=RIDGE,
                    help=f"penalty per squared centipawn away from the hand weights (default {RIDGE:g})")
    ap.add_argument("--start", choices=("hand", "tuned"), default="hand",
                    help="start from the hand weights (default) or from the game's tuned "
                         "file on top of them (the ridge then holds weights near those)")
    ap.add_argument("--hold", nargs="+", default=[], metavar="WEIGHT",
                    help="weights kept at their starting values, e.g. super_piece_vs_light")
    ap.add_argument("--peer-weight", type=float, default=0.0,
                    help="share of a peer's score in the target, 0 to 1 (default 0: the "
                         "results alone; the data must be scored by tune.label)")
    ap.add_argument("--pst", type=float, nargs="?", const=PST_RIDGE, default=None, metavar="RIDGE",
                    help="then fit the per-piece piece-square corrections (chess-likes), "
                         f"with this ridge (default {PST_RIDGE:g})")
    ap.add_argument("--out", help=f"tuned file (default {TUNED_DIR}/GAME.json)")
    ap.add_argument("--datagen-command", default="",
                    help="the command that made the data, recorded in the tuned file")
    argv = sys.argv[1:] if argv is None else argv
    args = ap.parse_args(argv)
    game = args.game
    if (not 0 < args.holdout < 1 or args.passes < 1 or args.minutes <= 0 or args.ridge < 0
            or not 0 <= args.peer_weight <= 1 or (args.pst is not None and args.pst < 0)):
        print("error: --holdout must be in (0, 1), --passes and --minutes positive, --ridge 0 or more, "
              "--peer-weight in [0, 1], --pst 0 or more", file=sys.stderr)
        return 2
    paths = args.data or [DATA_DIR / f"{game.name}.txt"]
    missing = [str(p) for p in paths if not Path(p).is_file()]
    if missing:
        print(f"error: no data file {', '.join(missing)} (make it with python -m tune.datagen {game.name})",
              file=sys.stderr)
        return 2
    try:
        record = tune(game, paths, args.holdout, args.passes, args.minutes * 60, args.ridge,
                      log=lambda text: print(text, flush=True), start=args.start,
                      hold=tuple(args.hold), peer_weight=args.peer_weight, pst_ridge=args.pst)
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    record["commands"] = {"datagen": args.datagen_command,
                          "tune": shlex.join(["python", "-m", "tune.texel"] + without_out(argv))}
    out = Path(args.out) if args.out else tuned_file(game)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(record, indent=1) + "\n")
    print(f"written {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
