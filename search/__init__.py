"""Leyden's search: numba alpha-beta over ``movegen`` for every game.

    >>> from movegen import Position
    >>> from search import Limits, Searcher
    >>> best, ponder = Searcher(hash_mb=16).search(Position("capablanca"), Limits(depth=4))

Modules: ``alphabeta`` (the search kernels), ``evaluate`` and ``weights`` (evaluation and
its tunable numbers), ``tt`` (transposition table), ``ordering`` (move ordering),
``timeman`` (time budgets), ``state`` (layout of the shared state array), ``searcher``
(this Python API), ``smp`` (helper threads of a multi-threaded search), ``bench`` (the
fixed benchmark).
"""
from .searcher import MAX_NODES, MAX_SECONDS, MAX_THREADS, Info, Limits, Searcher, warmup

__all__ = ["Info", "Limits", "MAX_NODES", "MAX_SECONDS", "MAX_THREADS", "Searcher", "warmup"]
