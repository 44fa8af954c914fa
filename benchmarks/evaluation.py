"""The static evaluation alone: nanoseconds per call, and a checksum of its scores.

    python benchmarks/evaluation.py                     # capablanca normal sultan energizer
    python benchmarks/evaluation.py batteries --positions 500

Positions: random playouts of 0 to 15 plies from the game's bench positions
(search/bench.py), seeded, so every checkout times the same positions. Each call copies
one position into the working board and evaluates it from scratch (``evaluate``: the
piece-square sums included) in a compiled loop; the figure is the best of several runs.
The checksum (the scores, weighted by position number) shows whether a change that
should only be faster changed any score: compare it between two checkouts
(``git worktree``) run one after the other.
"""
import argparse
import random
import sys
import time
from pathlib import Path

import numpy as np
from numba import njit

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from movegen import Position  # noqa: E402
from search.bench import BENCH_POSITIONS  # noqa: E402
from search.evaluate import build_eval, evaluate  # noqa: E402
from search.state import new_state  # noqa: E402

GAMES = ("capablanca", "normal", "sultan", "energizer")


@njit(nogil=True)
def _evaluate_all(G, boards, sts, board, st, ev, ss, reps):
    total = 0
    for _ in range(reps):
        for i in range(boards.shape[0]):
            board[:] = boards[i]
            st[:] = sts[i]
            total += evaluate(G, board, st, ev, ss) * (i + 1)
    return total


def playouts(game: str, count: int, seed: int) -> list[Position]:
    rng = random.Random(seed)
    starts = [Position(g, fen) for g, fen, _ in BENCH_POSITIONS if g == game]
    out = []
    while len(out) < count:
        pos = starts[len(out) % len(starts)].copy()
        for _ in range(rng.randrange(0, 16)):
            moves = pos.legal_move_codes()
            if len(moves) == 0 or pos.outcome() is not None:
                break
            pos.push_code(int(moves[rng.randrange(len(moves))]))
        out.append(pos)
    return out


def measure(game: str, count: int, runs: int, seed: int) -> tuple[float, int]:
    """(nanoseconds per evaluation, checksum) on ``count`` playout positions."""
    positions = playouts(game, count, seed)
    boards = np.array([p.board for p in positions])
    sts = np.array([p.st for p in positions])
    first = positions[0]
    G, board, st = first.tables.G, first.board.copy(), first.st.copy()
    ev, ss = build_eval(first.game), new_state()
    checksum = _evaluate_all(G, boards, sts, board, st, ev, ss, 1)  # compiles, warms
    reps = 5
    best = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        _evaluate_all(G, boards, sts, board, st, ev, ss, reps)
        best = min(best, (time.perf_counter() - start) / (reps * count) * 1e9)
    return best, int(checksum)


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
