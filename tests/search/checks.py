"""Checks the single- and multi-threaded search tests share."""
import time

from movegen import Position
from search import Limits


def assert_movetime_kept(searcher) -> None:
    """A 0.3 s search answers a legal move in about that time."""
    pos = Position("capablanca")
    start = time.perf_counter()
    best, _ = searcher.search(pos, Limits(movetime=0.3))
    elapsed = time.perf_counter() - start
    assert best in pos.moves()
    assert 0.1 < elapsed < 1.0
