"""The static evaluation alone: nanoseconds per call, and a checksum of its scores.

    python benchmarks/evaluation.py                     # capablanca normal sultan energizer
    python benchmarks/evaluation.py batteries --positions 100

Positions: random playouts of 0 to 15 plies from the game's bench positions
(search/bench.py), seeded, so every checkout times the same positions. Each one's
children are evaluated in turn as the search meets them (make, ``evaluate_node`` with
the piece-square sums following from the parent's, unmake) in a compiled loop; the
figure is the best of several runs, the make and unmake timed alone and taken off.
Consecutive evaluations see nearly the same board, as in a search (timing unrelated
positions one after another makes the board scan's branches look costlier than a search
finds them). Still only a guide: a branch-free board scan that was 20% faster on
unrelated positions and 11% faster here gained 1% in the bench searches (README,
Benchmarks), which have the last word (`make bench`).
The checksum (the scores, weighted by their order) shows whether a change that should
only be faster changed any score: compare it between two checkouts (``git worktree``)
run one after the other.
"""
import argparse
import random
import sys
import time
from pathlib import Path

import numpy as np
from numba import njit

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.children import evaluate_children  # noqa: E402
from movegen import Position  # noqa: E402
from search.bench import BENCH_POSITIONS  # noqa: E402
from search.evaluate import build_eval  # noqa: E402
from search.state import new_state  # noqa: E402

GAMES = ("capablanca", "normal", "sultan", "energizer")


@njit(nogil=True)
def _children(G, boards, sts, moves, first, board, st, undo, ev, ss, reps, score):
    """Every position's children (``moves[first[i]:first[i + 1]]``) made, evaluated if
    ``score``, unmade; returns the scores' checksum."""
    total = 0
    for _ in range(reps):
        for i in range(boards.shape[0]):
            board[:] = boards[i]
            st[:] = sts[i]
            total += evaluate_children(G, board, st, undo, ev, ss, moves[first[i]:first[i + 1]],
                                       1, score, first[i])
    return total


def playouts(game: str, count: int, seed: int) -> list[Position]:
    """``count`` positions, each 0 to 15 random plies from one of the game's bench
    positions in turn (some may have ended: ``measure`` leaves those out)."""
    rng = random.Random(seed)
    starts = [Position(g, fen) for g, fen, _ in BENCH_POSITIONS if g == game]
    out = []
    while len(out) < count:
        out.append(starts[len(out) % len(starts)].copy().play_random(rng, rng.randrange(0, 16)))
    return out


def measure(game: str, count: int, runs: int, seed: int) -> tuple[float, int]:
    """(nanoseconds per evaluation, checksum) on the children of ``count`` playout positions."""
    positions = [p for p in playouts(game, count, seed) if p.outcome() is None]
    lists = [p.legal_move_codes() for p in positions]
    moves = np.concatenate(lists).astype(np.int64)
    first = np.cumsum([0] + [len(m) for m in lists]).astype(np.int64)
    boards = np.array([p.board for p in positions])
    sts = np.array([p.st for p in positions])
    pos = positions[0]
    args = (pos.tables.G, boards, sts, moves, first, pos.board.copy(), pos.st.copy(),
            pos.undo.copy(), build_eval(pos.game), new_state())
    checksum = _children(*args, 1, True)  # compiles, warms
    reps = 3

    def best_ns(score):
        best = float("inf")
        for _ in range(runs):
            start = time.perf_counter()
            _children(*args, reps, score)
            best = min(best, (time.perf_counter() - start) / (reps * len(moves)) * 1e9)
        return best

    _children(*args, 1, False)
    return best_ns(True) - best_ns(False), int(checksum)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("games", nargs="*", default=list(GAMES))
    ap.add_argument("--positions", type=int, default=2000)
    ap.add_argument("--runs", type=int, default=7, help="timed runs; the best is printed")
    ap.add_argument("--seed", type=int, default=7)
    args = ap.parse_args(argv)
    for game in args.games:
        ns, checksum = measure(game, args.positions, args.runs, args.seed)
        print(f"{game:14s} {ns:7.0f} ns an evaluation   checksum {checksum}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
