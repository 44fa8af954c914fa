"""Every array index the kernels compute stays inside its array.

The kernels index without numba's negative-index test (movegen/jit.py), so an index
below 0 would read before the array instead of wrapping to its end. Here the kernels are
compiled with ``LEYDEN_CHECK_INDEX=1``, which prints every out-of-range access, in a cache
of their own, and run through the bench searches (every game) and perft from playouts
of every game. Slow: it compiles everything afresh (opt-in, ``pytest -m slow``).
"""
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = """
import random
from movegen import Position
from movegen.games import GAMES
from search.bench import run_bench

run_bench(out=lambda line: None)
rng = random.Random(5)
for name in GAMES:
    for _ in range(6):
        Position(name).play_random(rng, rng.randrange(0, 40)).perft(2)
print("finished")
"""


@pytest.mark.slow
def test_no_index_outside_its_array(tmp_path):
    env = {**os.environ, "LEYDEN_CHECK_INDEX": "1", "NUMBA_CACHE_DIR": str(tmp_path)}
    run = subprocess.run([sys.executable, "-c", SCRIPT], cwd=ROOT, env=env, capture_output=True,
                         text=True, timeout=1800)
    assert run.returncode == 0, run.stderr[-2000:]
    assert run.stdout.strip().endswith("finished")
    outside = [line for line in run.stdout.splitlines() if line.startswith("index out of range")]
    assert outside == [], "\n".join(sorted(set(outside))[:20])
