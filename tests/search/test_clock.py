"""Time management over a whole game: at 2 s + 0.02 s per move a 100-move game is never
lost on time (opt-in: ``pytest -m slow``; it plays for about a minute)."""
import time

import pytest

from movegen import Position
from search import Limits, Searcher


@pytest.mark.slow
@pytest.mark.parametrize("game", ["capablanca", "batteries"])
def test_hundred_moves_at_two_seconds_plus_increment(game):
    searcher = Searcher(hash_mb=16)
    pos = Position(game)
    clocks = {"w": 2.0, "b": 2.0}
    lowest = 2.0
    for _ in range(200):  # 100 moves each
        if pos.outcome() is not None:
            pos = Position(game)  # keep the clocks running in a fresh game
        side = pos.turn
        start = time.perf_counter()
        best, _ = searcher.search(pos, Limits(wtime=clocks["w"], btime=clocks["b"],
                                              winc=0.02, binc=0.02))
        clocks[side] += 0.02 - (time.perf_counter() - start)
        lowest = min(lowest, clocks[side])
        assert clocks[side] > 0, f"{side} lost on time"
        pos.push(best)
    assert lowest > 0.1
