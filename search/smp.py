"""Lazy SMP: helper threads that search the main thread's root over the shared
transposition table.

Every thread runs the same numba kernels (search/alphabeta.py) with the GIL released,
each on its own state array ``ss`` (killers, history, PV, stop flag, node count), its
own move buffer and its own copy of the position; the only thing they share is the
table ``tt``. Helpers help by filling the table: the main thread finds cutoffs and best
moves there that a helper computed. Diversity keeps them from all searching the same
nodes in the same order: odd helpers run every iteration one ply deeper than the main
thread, and each thread's own history table soon orders moves differently.

Only the main thread's result is reported (search/searcher.py); a helper's results reach
it through the table, and one more way: when the search ends on the clock or a stop
with a helper's finished iteration deeper than the main thread's, the helper's move is
played. (The main thread does not skip ahead to a depth a helper has finished: with one
helper a ply ahead, the two then searched the same depth, and the main thread needed
1.33x fewer nodes to depth with a helper instead of 1.64x.)

Each helper polls its own ``ss[STOP]``: the ``Searcher`` sets every thread's flag on
``stop()`` and at the hard time limit, and the helpers' when the main thread has
finished.
"""
from __future__ import annotations

import threading

import numpy as np

from .alphabeta import iterate, prepare_root
from .state import (ABORTED, AGE, MAX_MOVES, MAX_SPLY, NODE_LIMIT, NODES, PROF_FIRST, PROF_LAST, PV_LEN,
                    ROOT_BEST, SELDEPTH, SS, STOP, history_entries, new_state)


def reset_for_search(ss: np.ndarray, node_limit: int, age: int) -> None:
    """Prepare one thread's state for a new search (its stop flag is left alone: that
    belongs to ``Searcher.arm``)."""
    ss[ABORTED] = 0
    ss[NODES] = 0
    ss[PROF_FIRST:PROF_LAST + 1] = 0
    ss[SELDEPTH] = 0
    ss[NODE_LIMIT] = node_limit
    ss[AGE] = age
    SS.view(ss, "KILLERS")[:] = 0
    # old history still hints, with less weight; halved by a shift, which floors like
    # // 2 and costs a third of it on the 5 MB of histories
    history_entries(ss)[:] >>= 1


def node_share(limit: int | None, threads: int, index: int) -> int:
    """Thread ``index``'s part of a node limit (0: none), so that all threads together
    search no more than ``limit``; the main thread (index 0) gets the remainder."""
    if not limit:
        return 0
    part = limit // threads
    return max(1, part + (limit - part * threads if index == 0 else 0))


class SearchThread:
    """One search thread's own arrays (kept across searches): the state ``ss``, the move
    buffer and, once ``set_position`` is called, its copy of the position; and the one
    place where the search kernels are called with them."""

    def __init__(self):
        self.ss = new_state()
        self.buf = np.zeros(MAX_SPLY * MAX_MOVES, np.int64)
        self._args: tuple = ()

    def set_position(self, pos, tt, ev) -> None:
        """Search a copy of ``pos`` (the caller's is not modified) over table ``tt``."""
        self._args = (pos.tables.G, pos.board.copy(), pos.st.copy(), pos.undo.copy(),
                      self.buf, tt, self.ss, ev)

    def prepare_root(self) -> int:
        """Generate and order the root moves; their number."""
        return int(prepare_root(*self._args))

    def iterate(self, depth: int, prev: int) -> int:
        """One iteration to ``depth``, aspiration window around ``prev``; its score."""
        return int(iterate(*self._args, depth, prev))

    def principal_variation(self) -> list[int]:
        """The last finished iteration's PV (at least its best move)."""
        ss = self.ss
        pv = [int(m) for m in SS.view(ss, "PV")[0, :ss[PV_LEN]]]
        return pv if pv and pv[0] == ss[ROOT_BEST] else [int(ss[ROOT_BEST])]


class Helper(SearchThread):
    """A helper: a ``SearchThread`` that runs its own iterations in a thread of its own."""

    def __init__(self, index: int):
        super().__init__()
        self.index = index  #: 1, 2, ...: the main thread is 0
        self.thread: threading.Thread | None = None
        self.error: BaseException | None = None
        self.completed = 0  #: the deepest iteration this search finished (0: none yet)
        self.result: tuple[int, list[int]] = (0, [])  #: that iteration's score and PV

    @property
    def depth_offset(self) -> int:
        return self.index % 2

    def start(self, pos, tt, ev, max_depth: int) -> None:
        """Start searching ``pos`` (not modified) in a new thread; ``reset_for_search``
        has been applied to ``self.ss``."""
        self.error = None
        self.completed = 0
        self.set_position(pos, tt, ev)
        self.thread = threading.Thread(target=self._run, name=f"search-helper-{self.index}",
                                       args=(max_depth,), daemon=True)
        self.thread.start()

    def _run(self, max_depth: int) -> None:
        ss = self.ss
        try:
            if self.prepare_root() == 0:
                return
            prev = 0
            for depth in range(1 + self.depth_offset, max_depth + 1):
                if ss[STOP]:
                    return
                prev = self.iterate(depth, prev)
                if ss[ABORTED]:
                    return
                self.result = (prev, self.principal_variation())
                self.completed = depth
        except BaseException as exc:  # noqa: BLE001 - handed to the main thread by join()
            self.error = exc

    def stop(self) -> None:
        self.ss[STOP] = 1

    def join(self) -> BaseException | None:
        """Wait for the thread (after ``stop``); returns what it raised, if anything."""
        if self.thread is not None:
            self.thread.join()
            self.thread = None
        error, self.error = self.error, None
        return error
