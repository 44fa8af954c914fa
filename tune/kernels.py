"""The tuner's two numba kernels: the evaluation of a whole batch of positions, and the
quiescence test of one position (for the data generator).

Both call the engine's own kernels (search/evaluate.py ``evaluate``, search/alphabeta.py
``qsearch``), so the tuner fits exactly the evaluation the engine plays with.

They are compiled without numba's disk cache, on first use in each process (the engine
kernels they call come from their own cache): a cached copy would
carry the search code compiled into it, and the cache guard (movegen/jit.py) only
empties the caches of movegen/ and search/ when those change, so a cached tuner kernel
could silently keep an old evaluation.
"""
import types

import numpy as np
from numba import njit

from movegen import layout as L
from search import alphabeta
from search.evaluate import evaluate
from search.state import ABORTED, INF, NODE_LIMIT, NODES, STOP


def _private_copy(dispatcher):
    """An uncached copy of a self-recursive kernel, its recursion bound to the copy.

    Why: numba cannot link a self-recursive kernel loaded from its disk cache into a new
    caller (LLVM: "Symbol not found ... qsearch", the process dies), so the quiescence
    search is compiled afresh in each process that needs it (about half a minute); the
    kernels it calls are not recursive and still come from the cache."""
    py = dispatcher.py_func
    scope = dict(py.__globals__)
    copy = njit(nogil=True)(types.FunctionType(py.__code__, scope, py.__name__, py.__defaults__))
    scope[py.__name__] = copy
    return copy


_qsearch = _private_copy(alphabeta.qsearch)


@njit(nogil=True)
def white_evals(G, boards, sts, ev, ss, out):
    """``out[i]``: the static evaluation of position i (``boards[i]``, ``sts[i]``) in
    centipawns from White's point of view."""
    for i in range(boards.shape[0]):
        st = sts[i]
        s = evaluate(G, boards[i], st, ev, ss)
        out[i] = s if st[L.S_SIDE] == 0 else -s


@njit(nogil=True)
def quiescence_gap(G, board, st, undo, buf, tt, ss, ev):
    """Quiescence value minus static evaluation of a position (side to move's view):
    0 when no capture sequence changes the score, i.e. the position is quiet."""
    ss[STOP] = 0
    ss[ABORTED] = 0
    ss[NODES] = 0
    ss[NODE_LIMIT] = 0
    static = evaluate(G, board, st, ev, ss)
    return _qsearch(G, board, st, undo, buf, tt, ss, ev, 0, -INF, INF, False) - static


def eval_batch(G, boards: np.ndarray, sts: np.ndarray, ev: np.ndarray, ss: np.ndarray) -> np.ndarray:
    """White-view evaluations of every position of a batch (int64 array)."""
    out = np.zeros(len(boards), np.int64)
    white_evals(G, boards, sts, ev, ss, out)
    return out
