"""Perft speed of every game's start position: a table of nodes, seconds and M nodes/s.

    python benchmarks/perft.py            # the standard depths
    python benchmarks/perft.py --quick    # one depth less (for a fast look)

JIT compile time is excluded from the table (the kernels are compiled or loaded
first) and reported separately: a cold compile into an empty cache and the warm
start-up of ``leyden perft capablanca 1``, each as a fresh process.
"""
import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from movegen import Position  # noqa: E402

# (game, position label, seed for shuffles, depth)
CASES = [
    ("normal", "start", None, 5),
    ("capablanca", "start", None, 5),
    ("caparandom", "seed 1", 1, 5),
    ("energizer", "start", None, 5),
    ("sultan", "start", None, 5),
    ("sultanrandom", "seed 1", 1, 5),
    ("batteries", "start", None, 4),
    ("enders", "start", None, 11),
]


def _timed_process(args, env=None) -> float:
    start = time.perf_counter()
    subprocess.run(args, cwd=ROOT, env=env, check=True, capture_output=True)
    return time.perf_counter() - start


def compile_times() -> tuple[float, float]:
    """Seconds for a cold compile (empty cache) and a warm start-up, fresh processes."""
    perft = [sys.executable, "-m", "engine", "perft", "capablanca", "1"]
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache)
        cold = _timed_process(perft, env)
    _timed_process(perft)  # make sure the normal cache is filled
    warm = _timed_process(perft)
    return cold, warm


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="one depth less everywhere")
    parser.add_argument("--no-compile", action="store_true", help="skip the compile-time runs")
    args = parser.parse_args()
    Position("normal").perft(2)  # load or compile the kernels before timing
    print(f"{'game':<13} {'position':<9} {'depth':>5} {'nodes':>12} {'seconds':>8} {'Mnps':>7}")
    for game, label, seed, depth in CASES:
        depth -= args.quick
        pos = Position(game, seed=seed)
        start = time.perf_counter()
        nodes = pos.perft(depth)
        seconds = time.perf_counter() - start
        print(f"{game:<13} {label:<9} {depth:>5} {nodes:>12,} {seconds:>8.2f} "
              f"{nodes / seconds / 1e6:>7.2f}", flush=True)
    if not args.no_compile:
        cold, warm = compile_times()
        print(f"compile, cold cache: {cold:.1f} s; warm start-up (leyden perft capablanca 1): "
              f"{warm:.2f} s")


if __name__ == "__main__":
    main()
